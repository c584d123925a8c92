//! The match-server client: connects, says `hello`, answers every
//! `move_request` with its agent's move (searched on a dedicated thread),
//! reconnects with capped exponential backoff, and reports each finished game
//! through a callback. It prints nothing itself; logs go through `tracing`.
//!
//! Here: the run's settings ([`ClientConfig`]), its errors and its entry
//! points ([`run_client`]). The parts: `reconnect.rs` (connection after
//! connection, with backoff), `connection.rs` (one WebSocket: connecting,
//! sending, the round trip), `session.rs` (one connection's event loop and
//! the handlers of the server's messages), `records.rs` (finished games and
//! the run's totals) and `tests.rs`.

mod connection;
mod reconnect;
mod records;
mod session;
#[cfg(test)]
mod tests;

use std::time::Duration;

use crate::games::{AgentParams, PlayableGame};
use crate::runtime::SearchThread;
pub use crate::runtime::Stop;
use crate::search::GameClock;

pub use crate::platforms::ws::protocol::Opponent;
pub use reconnect::backoff_delay;
pub use records::{describe_game, ClientSummary, GameFinished};

/// The default of [`ClientConfig::heartbeat_timeout`]: a connection with no
/// inbound frame (not even a heartbeat ping) for this long is considered dead.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// Largest message accepted from a server (a bigger one drops the
/// connection with a clear reason); the server's own limit on what it reads.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// How often the client sends an application `ping` to measure the round
/// trip to the server (one goes out right after connecting, too).
pub const RTT_PING_EVERY: Duration = Duration::from_secs(10);

/// Everything the client needs.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// Server URL, e.g. "ws://127.0.0.1:8765".
    pub url: String,
    /// Our name on the server.
    pub name: String,
    /// Agent name for `PlayableGame::build_agent`.
    pub agent: String,
    pub params: AgentParams,
    /// Playouts per move, if limited.
    pub playouts: Option<u64>,
    /// Milliseconds we want per move; the server's `your_time_ms` caps it.
    pub time_ms: Option<u64>,
    /// Safety margin taken off every deadline, for I/O.
    pub margin_ms: u64,
    /// How the moves share a game clock.
    pub clock_policy: ClockPolicy,
    /// Games to finish in all (a game lost by disconnect counts).
    pub games: u32,
    pub opponent: Opponent,
    /// Limit on one connection attempt (TCP and WebSocket handshake).
    pub connect_timeout: Duration,
    /// Wait before the first reconnect; doubles per consecutive failure.
    pub backoff_initial: Duration,
    /// Cap of the reconnect wait.
    pub backoff_max: Duration,
    /// Consecutive failed connection attempts tolerated (a connection that
    /// got the server's `welcome` resets the count); one more failure ends
    /// `run_client` with [`ClientError::Connect`].
    pub max_reconnects: u32,
    /// Seeds the agent.
    pub seed: u64,
    /// Sent in `hello` to a server that asks for one (`server.token`).
    pub token: Option<String>,
    /// Asks the run to end early: [`Stop::Finish`] plays the current game
    /// out (for at most `stop_grace`) and starts no other; [`Stop::Abandon`]
    /// leaves it at once. `None`: play every game.
    pub stop: Option<tokio::sync::watch::Receiver<Stop>>,
    /// How long a game in progress may still run after [`Stop::Finish`]
    /// before it is abandoned.
    pub stop_grace: Duration,
    /// A connection with no inbound frame for this long is considered dead
    /// (a half-open connection); it must exceed the server's heartbeat
    /// interval.
    pub heartbeat_timeout: Duration,
    /// Think on the opponent's time ([`SearchThread::set_ponder`]).
    pub ponder: bool,
}

/// How the client spends a game's time (`search.time_policy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClockPolicy {
    /// Every move gets `time_ms` (or the server's allowance), whatever is
    /// left of a bank.
    #[default]
    Fixed,
    /// A share of a bank per move
    /// ([`Limits::on_game_clock`](crate::search::Limits::on_game_clock)): the server's
    /// bank and increment when it keeps one, and `own` (a bank for the
    /// whole game and an increment the bot keeps for itself, counted from
    /// each request to its answer) when set; with both, the smaller bank.
    /// With neither, as [`ClockPolicy::Fixed`].
    Bank { own: Option<GameClock> },
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            url: "ws://127.0.0.1:8765".into(),
            name: "ladderbot".into(),
            agent: "random".into(),
            params: AgentParams::new(),
            playouts: None,
            time_ms: None,
            margin_ms: 50,
            clock_policy: ClockPolicy::Fixed,
            games: 1,
            opponent: Opponent::Any,
            connect_timeout: Duration::from_secs(5),
            backoff_initial: Duration::from_millis(500),
            backoff_max: Duration::from_secs(30),
            max_reconnects: 10,
            seed: 0,
            token: None,
            stop: None,
            stop_grace: Duration::from_secs(10),
            heartbeat_timeout: IDLE_TIMEOUT,
            ponder: false,
        }
    }
}

/// Checks a match server's address, `ws://HOST[:PORT][/PATH]` or `wss://...`:
/// a malformed one (no host, a port that is not one, `ws://h:99999`) is
/// configuration to fix, never worth retrying; only a good address that
/// does not answer is.
pub fn check_url(url: &str) -> Result<(), String> {
    if !(url.starts_with("ws://") || url.starts_with("wss://")) {
        return Err(format!("expected ws://HOST:PORT, got '{url}'"));
    }
    let uri: tokio_tungstenite::tungstenite::http::Uri = url
        .parse()
        .map_err(|e| format!("'{url}' is not a URL: {e}"))?;
    if uri.host().is_none_or(str::is_empty) {
        return Err(format!("'{url}' names no host"));
    }
    // The port as written (`Uri::port` drops one that is not a u16, and
    // the connection would then go to port 80): after any user info and
    // an IPv6 host's brackets.
    let authority = uri.authority().map_or("", |a| a.as_str());
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let after_host = &host_port[host_port.rfind(']').map_or(0, |i| i + 1)..];
    if let Some((_, port)) = after_host.rsplit_once(':') {
        if !port.parse::<u16>().is_ok_and(|p| p > 0) {
            return Err(format!("'{url}': {port} is not a port (1 to 65535)"));
        }
    }
    Ok(())
}

impl ClientConfig {
    /// Errors on an unusable configuration.
    pub fn validate(&self) -> Result<(), ClientError> {
        let bad = |m: &str| Err(ClientError::Config(m.to_string()));
        if self.games == 0 {
            return bad("games: must be at least 1");
        }
        if self.games > crate::platforms::ws::protocol::MAX_GAMES_PER_HELLO {
            return Err(ClientError::Config(format!(
                "games: at most {}",
                crate::platforms::ws::protocol::MAX_GAMES_PER_HELLO
            )));
        }
        let n = self.name.chars().count();
        if n == 0 || n > crate::platforms::ws::protocol::MAX_NAME_CHARS {
            return Err(ClientError::Config(format!(
                "name: expected 1..={} characters",
                crate::platforms::ws::protocol::MAX_NAME_CHARS
            )));
        }
        check_url(&self.url).map_err(|e| ClientError::Config(format!("url: {e}")))?;
        if self.connect_timeout.is_zero() {
            return bad("connect_timeout: must be positive");
        }
        if self.heartbeat_timeout.is_zero() {
            return bad("heartbeat_timeout: must be positive");
        }
        Ok(())
    }
}

/// Why a client run failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("invalid client configuration: {0}")]
    Config(String),
    #[error("cannot build the agent: {0}")]
    Agent(String),
    #[error("cannot connect to {url} ({attempts} attempts in a row failed): {last}")]
    Connect {
        url: String,
        attempts: u32,
        last: String,
    },
    #[error("the server refused our hello: {code}: {message}")]
    Rejected { code: String, message: String },
    #[error("protocol error: {0}")]
    Protocol(String),
}

/// Plays `config.games` games of `G` on the server at `config.url` and
/// returns the totals; `on_game` is called as each game finishes.
///
/// The agent is built (and its name validated) before connecting. A dropped
/// or failed connection is retried with capped exponential backoff. A game
/// in progress when the connection drops is judged once the client knows
/// whether the server is still there: if a reconnect reaches it, the game
/// counts as lost by disconnect (as the server scores it); if the server
/// said it is shutting down, or cannot be reached again within
/// `max_reconnects` attempts, the game is recorded as aborted (result `*`,
/// nobody at fault), the run ends and [`ClientSummary::server_lost`] says
/// why.
pub async fn run_client<G: PlayableGame>(
    config: ClientConfig,
    on_game: impl FnMut(&GameFinished) + Send,
) -> Result<ClientSummary, ClientError> {
    config.validate()?;
    let agent =
        G::build_agent(&config.agent, &config.params, config.seed).map_err(ClientError::Agent)?;
    run_client_with(config, agent, on_game).await
}

/// [`run_client`] with an agent built by the caller (`config.agent` and
/// `config.params` are not used): a program outside the registry, such as
/// a bridge to another engine, plays through the same client.
pub async fn run_client_with<G: PlayableGame>(
    config: ClientConfig,
    agent: Box<dyn crate::search::Agent<G>>,
    on_game: impl FnMut(&GameFinished) + Send,
) -> Result<ClientSummary, ClientError> {
    config.validate()?;
    let search = SearchThread::<G>::spawn(agent);
    search.set_ponder(config.ponder);
    if config.ponder {
        tracing::info!(
            agent = search.agent_name(),
            "pondering: thinking on the opponent's time"
        );
    }
    let mut summary = reconnect::connections(&config, &search, on_game).await?;
    summary.pondered = search.ponder_stats();
    if config.ponder {
        summary.pondered.log(search.agent_name());
    }
    Ok(summary)
}
