//! The match-server client: connects, says `hello`, answers every
//! `move_request` with its agent's move (searched on a dedicated thread),
//! reconnects with capped exponential backoff, and reports each finished game
//! through a callback. It prints nothing itself; logs go through `tracing`.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use crate::games::{AgentParams, PlayableGame};
use crate::platforms::ws::protocol::{
    encode_client, parse_server, ClientMsg, ErrorCode, Hello, Resume, ServerMsg, YourResult,
    PROTOCOL_VERSION,
};
use crate::records::{EndReason, GameRecord};
pub use crate::runtime::Stop;
use crate::runtime::{wait_for_stop, SearchHandle, SearchThread};
use crate::search::{GameClock, Limits, Seat};

pub use crate::platforms::ws::protocol::Opponent;

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
    /// A share of a bank per move ([`Limits::on_game_clock`]): the server's
    /// bank and increment when it keeps one, and `own` (a bank for the
    /// whole game and an increment the bot keeps for itself, counted from
    /// each request to its answer) when set; with both, the smaller bank.
    /// With neither, as [`ClockPolicy::Fixed`].
    Bank { own: Option<GameClock> },
}

/// The bank the bot keeps for itself in the game in progress
/// ([`ClockPolicy::Bank`]'s `own`).
#[derive(Clone, Debug)]
struct OwnClock {
    game_id: String,
    clock: GameClock,
    /// When the request now being searched arrived.
    asked_at: Option<Instant>,
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

/// One finished game, as reported to the `on_game` callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFinished {
    /// 1-based count of games finished by this client run.
    pub number: u32,
    pub game_id: String,
    /// Our seat (0 moved first).
    pub seat: Seat,
    pub opponent: String,
    /// Our result; `None` for a game cut off with nobody at fault (reason
    /// [`EndReason::Aborted`]: the server went away mid-game).
    pub your_result: Option<YourResult>,
    /// "1-0", "0-1" or "1/2-1/2" from seat 0's side; "*" when aborted.
    pub result: String,
    pub reason: EndReason,
    pub detail: Option<String>,
    /// Moves played in the game.
    pub moves: u32,
    /// The winning seat (None: a draw, or an aborted game).
    pub winner: Option<Seat>,
    /// The moves as the server showed them (null where hidden from us),
    /// with the milliseconds each took on the server's clock.
    pub move_list: Vec<serde_json::Value>,
    pub move_ms: Vec<u64>,
    /// Unix milliseconds when the game started and ended, on our clock.
    pub started_ms: u64,
    pub finished_ms: u64,
    /// We left the game before its end because a stop was asked for
    /// (`Stop::Abandon`, or the grace after `Stop::Finish` ran out).
    pub abandoned: bool,
}

impl GameFinished {
    /// The game as a record, from our side: seat names, the moves we were
    /// shown, the result; `start` is unknown to a client (null).
    pub fn record(&self, game: &str, our_name: &str) -> GameRecord {
        let mut players = [String::new(), String::new()];
        players[self.seat.min(1)] = our_name.to_string();
        players[1 - self.seat.min(1)] = self.opponent.clone();
        GameRecord {
            game: game.to_string(),
            id: self.game_id.clone(),
            players,
            winner: self.winner,
            result: self.result.clone(),
            reason: self.reason,
            detail: self.detail.clone(),
            start: serde_json::Value::Null,
            moves: self.move_list.clone(),
            move_ms: self.move_ms.clone(),
            opening: None,
            ending: None,
            started_ms: self.started_ms,
            finished_ms: self.finished_ms,
            match_tag: None,
            analysis: None,
        }
    }
}

/// A one-line description of a finished game, for printing.
pub fn describe_game(g: &GameFinished) -> String {
    let reason = match g.reason {
        EndReason::Rules => "rules",
        EndReason::IllegalMove => "illegal move",
        EndReason::Timeout => "timeout",
        EndReason::Disconnect => "disconnect",
        EndReason::Aborted => "abort",
    };
    let result = g
        .your_result
        .map_or_else(|| "aborted".to_string(), |r| r.to_string());
    let mut s = format!(
        "game {} ({}): seat {} vs {}: {result} {} by {reason} after {} moves",
        g.number, g.game_id, g.seat, g.opponent, g.result, g.moves
    );
    if let Some(d) = &g.detail {
        s.push_str(&format!(" ({d})"));
    }
    s
}

/// Totals of a client run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientSummary {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games left before their end on a stop (counted as losses too).
    pub abandoned: u32,
    /// Games cut off because the server went away mid-game (not in
    /// `games`: nobody won or lost them).
    pub aborted: u32,
    /// The run ended early because a stop was asked for.
    pub stopped: bool,
    /// The run ended because the server went away in the middle of a game
    /// (killed, shut down, or unreachable after every reconnect attempt):
    /// what happened. The game is counted in `aborted`.
    pub server_lost: Option<String>,
    /// Times a dropped connection was replaced and the seat taken back in
    /// the middle of a match (`hello.resume`).
    pub resumed: u32,
    /// What thinking on the opponent's time did (`ponder`).
    pub pondered: crate::runtime::PonderStats,
}

impl ClientSummary {
    /// (wins + draws / 2) / games, in 0..=1 (0 with no games).
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }

    fn add(&mut self, r: Option<YourResult>) {
        let Some(r) = r else {
            self.aborted += 1;
            return;
        };
        self.games += 1;
        match r {
            YourResult::Win => self.wins += 1,
            YourResult::Draw => self.draws += 1,
            YourResult::Loss => self.losses += 1,
        }
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

/// The wait before reconnect attempt `failures` (1-based): `initial`
/// doubled per earlier failure, capped at `max`.
pub fn backoff_delay(initial: Duration, max: Duration, failures: u32) -> Duration {
    let factor = 1u32
        .checked_shl(failures.saturating_sub(1))
        .unwrap_or(u32::MAX);
    initial.saturating_mul(factor).min(max)
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
    let mut summary = connections(&config, &search, on_game).await?;
    summary.pondered = search.ponder_stats();
    if config.ponder {
        summary.pondered.log(search.agent_name());
    }
    Ok(summary)
}

/// The games of a run, connection after connection (reconnecting).
async fn connections<G: PlayableGame>(
    config: &ClientConfig,
    search: &SearchThread<G>,
    mut on_game: impl FnMut(&GameFinished) + Send,
) -> Result<ClientSummary, ClientError> {
    let mut progress = Progress::default();
    let mut stop = config.stop.clone();
    let mut failures = 0u32;
    while progress.summary.games < config.games {
        if stop.as_ref().is_some_and(|s| *s.borrow() != Stop::Run) {
            progress.summary.stopped = true;
            break;
        }
        let end = match connect(config).await {
            Ok(ws) => {
                session::<G>(ws, config, search, &mut progress, &mut stop, &mut on_game).await?
            }
            Err(e) => Dropped::new(false, e),
        };
        if let Some(cur) = progress.current.take() {
            if end.abandoned || end.stopped {
                // We left: the server scores the game as lost by disconnect.
                let detail = if end.abandoned {
                    format!("abandoned: {}", end.why)
                } else {
                    format!("connection lost: {}", end.why)
                };
                progress.finish_lost(cur, detail, end.abandoned, &mut on_game);
            } else if end.server_stopping {
                let why = format!("the server shut down mid-game: {}", end.why);
                progress.abort(cur, why.clone(), &mut on_game);
                progress.summary.server_lost = Some(why);
                return Ok(progress.summary);
            } else {
                // Judged once we know whether the server is still there.
                progress.interrupted = Some((cur, end.why.clone()));
            }
        }
        if end.stopped {
            progress.summary.stopped = true;
            break;
        }
        if end.why.is_empty() {
            break;
        }
        if progress.summary.games >= config.games {
            break;
        }
        if end.welcomed {
            // The connection worked: start counting failures afresh.
            failures = 0;
        } else {
            failures += 1;
            if failures > config.max_reconnects {
                if let Some((cur, why)) = progress.interrupted.take() {
                    let why = format!(
                        "lost the server mid-game ({why}), then {failures} connection attempts in a row failed (last: {})",
                        end.why
                    );
                    progress.abort(cur, why.clone(), &mut on_game);
                    progress.summary.server_lost = Some(why);
                    return Ok(progress.summary);
                }
                return Err(ClientError::Connect {
                    url: config.url.clone(),
                    attempts: failures,
                    last: end.why,
                });
            }
        }
        if progress.resume.is_some() && failures == 0 {
            // A seat to take back, its clock running: at once.
            tracing::warn!(url = %config.url, why = %end.why, "connection lost mid-match; reconnecting at once to resume our seat");
            continue;
        }
        let wait = backoff_delay(config.backoff_initial, config.backoff_max, failures.max(1));
        tracing::warn!(url = %config.url, why = %end.why, wait_ms = wait.as_millis() as u64, "connection lost or refused; reconnecting");
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = wait_for_stop(&mut stop, Stop::Finish) => {}
        }
    }
    if let Some((cur, why)) = progress.interrupted.take() {
        // Stopped before the server could be reached again: nobody knows.
        progress.abort(
            cur,
            format!("connection lost ({why}); stopped before reconnecting"),
            &mut on_game,
        );
    }
    Ok(progress.summary)
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(config: &ClientConfig) -> Result<Ws, String> {
    // Nagle off: moves are small and latency counts against our clock.
    let ws_config = WebSocketConfig {
        max_message_size: Some(MAX_MESSAGE_BYTES),
        max_frame_size: Some(MAX_MESSAGE_BYTES),
        ..WebSocketConfig::default()
    };
    let attempt =
        tokio_tungstenite::connect_async_with_config(config.url.as_str(), Some(ws_config), true);
    match tokio::time::timeout(config.connect_timeout, attempt).await {
        Ok(Ok((ws, _response))) => Ok(ws),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!(
            "timed out after {} ms",
            config.connect_timeout.as_millis()
        )),
    }
}

/// The game in progress.
struct Current {
    game_id: String,
    seat: Seat,
    opponent: String,
    moves: u32,
    move_list: Vec<serde_json::Value>,
    move_ms: Vec<u64>,
    started_ms: u64,
}

impl Current {
    fn new(game_id: String, seat: Seat, opponent: String) -> Self {
        Current {
            game_id,
            seat,
            opponent,
            moves: 0,
            move_list: Vec::new(),
            move_ms: Vec::new(),
            started_ms: crate::records::now_ms(),
        }
    }

    /// The finished game, numbered `number` among this run's.
    fn finish(
        self,
        number: u32,
        winner: Option<Seat>,
        your_result: Option<YourResult>,
        reason: EndReason,
        detail: Option<String>,
        abandoned: bool,
    ) -> GameFinished {
        GameFinished {
            number,
            game_id: self.game_id,
            seat: self.seat,
            opponent: self.opponent,
            your_result,
            result: GameRecord::result_string(winner).to_string(),
            reason,
            detail,
            moves: self.moves,
            winner,
            move_list: self.move_list,
            move_ms: self.move_ms,
            started_ms: self.started_ms,
            finished_ms: crate::records::now_ms(),
            abandoned,
        }
    }
}

#[derive(Default)]
struct Progress {
    summary: ClientSummary,
    current: Option<Current>,
    /// A game whose connection dropped, with why, until we know whether the
    /// server is still there (a reconnect reaches it: lost by disconnect;
    /// it does not: aborted).
    interrupted: Option<(Current, String)>,
    /// The match we play in: the id of its latest game and our seat token,
    /// to take the seat back on a new connection after a drop.
    resume: Option<Resume>,
    /// The id of the game we last reported: a resume may send it again.
    last_done: Option<String>,
}

impl Progress {
    /// Reports `cur` as lost by disconnect (the server scores it so).
    fn finish_lost(
        &mut self,
        cur: Current,
        detail: String,
        abandoned: bool,
        on_game: &mut impl FnMut(&GameFinished),
    ) {
        let winner = Some(1 - cur.seat.min(1));
        let g = cur.finish(
            self.summary.games + self.summary.aborted + 1,
            winner,
            Some(YourResult::Loss),
            EndReason::Disconnect,
            Some(detail),
            abandoned,
        );
        self.summary.add(g.your_result);
        if abandoned {
            self.summary.abandoned += 1;
        }
        on_game(&g);
    }

    /// Reports `cur` as aborted: cut off with nobody at fault.
    fn abort(&mut self, cur: Current, detail: String, on_game: &mut impl FnMut(&GameFinished)) {
        tracing::warn!(game_id = %cur.game_id, detail, "game aborted");
        let mut g = cur.finish(
            self.summary.games + self.summary.aborted + 1,
            None,
            None,
            EndReason::Aborted,
            Some(detail),
            false,
        );
        g.result = GameRecord::ABORTED.to_string();
        self.summary.add(None);
        on_game(&g);
    }
}

/// How a session ended: `why` is empty when all games are done.
struct Dropped {
    welcomed: bool,
    why: String,
    /// Ended because a stop was asked for.
    stopped: bool,
    /// The game in progress was left unfinished on a stop.
    abandoned: bool,
    /// The server said it is shutting down.
    server_stopping: bool,
}

impl Dropped {
    fn new(welcomed: bool, why: String) -> Self {
        Dropped {
            welcomed,
            why,
            stopped: false,
            abandoned: false,
            server_stopping: false,
        }
    }
}

enum Event<M> {
    Frame(Option<Result<Message, tokio_tungstenite::tungstenite::Error>>),
    Searched(Result<crate::search::Decision<M>, crate::runtime::SearchError>),
    Idle,
    /// Time to measure the round trip again.
    RttPing,
    /// A stop was asked for (or raised to `Abandon`).
    Stop(Stop),
    /// The grace after `Stop::Finish` ran out with the game unfinished.
    GraceOver,
}

/// Resolves at `t`, or never without one.
async fn sleep_until_opt(t: Option<tokio::time::Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

/// Resolves with the pending search's result, or never if there is none.
async fn pending_search<M>(
    h: Option<&mut SearchHandle<M>>,
) -> Result<crate::search::Decision<M>, crate::runtime::SearchError> {
    match h {
        Some(h) => h.await,
        None => std::future::pending().await,
    }
}

fn hello(config: &ClientConfig, game: &str, remaining: u32, resume: Option<Resume>) -> ClientMsg {
    ClientMsg::Hello(Hello {
        token: config.token.clone(),
        protocol: PROTOCOL_VERSION,
        name: config.name.clone(),
        game: game.to_string(),
        games: remaining.max(1),
        opponent: config.opponent,
        resume,
    })
}

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), String> {
    let text = encode_client(msg);
    tracing::debug!(msg = %text, "send");
    ws.send(Message::Text(text))
        .await
        .map_err(|e| e.to_string())
}

/// Round trips to the server, from our application pings.
#[derive(Default)]
struct Rtt {
    next_id: u64,
    /// The ping in flight: its id and when it left.
    outstanding: Option<(u64, Instant)>,
    /// The last few round trips, newest last.
    samples: std::collections::VecDeque<Duration>,
}

impl Rtt {
    /// Round trips kept; the estimate is the largest of them.
    const KEEP: usize = 4;

    async fn ping(&mut self, ws: &mut Ws) -> Result<(), String> {
        self.next_id += 1;
        let id = self.next_id;
        self.outstanding = Some((id, Instant::now()));
        send(
            ws,
            &ClientMsg::Ping {
                id: Some(serde_json::json!(format!("rtt-{id}"))),
            },
        )
        .await
    }

    fn pong(&mut self, id: Option<&serde_json::Value>) {
        let Some((want, sent)) = self.outstanding else {
            return;
        };
        if id.and_then(|v| v.as_str()) == Some(format!("rtt-{want}").as_str()) {
            self.outstanding = None;
            if self.samples.len() == Self::KEEP {
                self.samples.pop_front();
            }
            self.samples.push_back(sent.elapsed());
            tracing::debug!(
                rtt_ms = sent.elapsed().as_millis() as u64,
                "round trip to the server"
            );
        }
    }

    /// The round trip to allow for: the largest recent one.
    fn estimate(&self) -> Duration {
        self.samples.iter().copied().max().unwrap_or_default()
    }
}

/// Errors a server answers a bad `hello` with.
fn is_hello_rejection(code: &str) -> bool {
    matches!(
        ErrorCode::from_wire(code),
        Some(
            ErrorCode::UnsupportedVersion
                | ErrorCode::UnknownGame
                | ErrorCode::HouseUnavailable
                | ErrorCode::BadField
                | ErrorCode::BadJson
                | ErrorCode::UnknownType
                | ErrorCode::Busy
                | ErrorCode::Unauthorized
        )
    )
}

/// One connection: plays until all games are done (`why` empty) or the
/// connection drops.
async fn session<G: PlayableGame>(
    ws: Ws,
    config: &ClientConfig,
    search: &SearchThread<G>,
    progress: &mut Progress,
    stop: &mut Option<tokio::sync::watch::Receiver<Stop>>,
    on_game: &mut (impl FnMut(&GameFinished) + Send),
) -> Result<Dropped, ClientError> {
    let end = match Session::open(ws, config, search, progress, stop, on_game).await {
        Ok(s) => s.run().await,
        Err(why) => Ok(Dropped::new(false, why)),
    };
    // A closed connection, a stop, the last game over: nothing to ponder
    // for until the next request.
    search.stop_pondering();
    end
}

/// What a handler tells the event loop: wait for the next event, or end
/// the session with this.
enum Flow {
    Continue,
    End(Result<Dropped, ClientError>),
}

/// One connection's state: the event loop ([`Session::run`]) waits for the
/// next [`Event`] and hands it to its handler.
struct Session<'a, G: PlayableGame, F> {
    ws: Ws,
    config: &'a ClientConfig,
    search: &'a SearchThread<G>,
    progress: &'a mut Progress,
    stop: &'a mut Option<tokio::sync::watch::Receiver<Stop>>,
    on_game: &'a mut F,
    /// The server sent its `welcome`.
    welcomed: bool,
    /// After `Stop::Finish` with a game in progress: when it must end by.
    grace_end: Option<tokio::time::Instant>,
    /// Between a `game_start` and the `match_over` of its match.
    in_match: bool,
    /// The round trip to the server, measured with application pings: the
    /// server's clock runs from when it sends a request to when it reads our
    /// answer, so the whole round trip comes off each move's allowance.
    rtt: Rtt,
    /// A seat to take back first: the game (or match) we were cut from.
    resuming: Option<Resume>,
    /// Our `hello` is not answered yet (an error now is its rejection).
    hello_pending: bool,
    /// The search under way: the game it answers for, and its handle.
    pending: Option<(String, SearchHandle<G::Action>)>,
    /// The game clock: the server's increment (from `game_start`) and the
    /// bank the bot keeps for itself, if any.
    increment: Duration,
    own: Option<OwnClock>,
    /// When the last frame came in.
    last_in: tokio::time::Instant,
    /// When to measure the round trip again.
    rtt_tick: tokio::time::Interval,
}

impl<'a, G: PlayableGame, F: FnMut(&GameFinished) + Send> Session<'a, G, F> {
    /// Opens the session on a new connection: a first round-trip ping, then
    /// our `hello` (resuming our seat if we were cut from one). Errs with
    /// why the connection failed.
    async fn open(
        mut ws: Ws,
        config: &'a ClientConfig,
        search: &'a SearchThread<G>,
        progress: &'a mut Progress,
        stop: &'a mut Option<tokio::sync::watch::Receiver<Stop>>,
        on_game: &'a mut F,
    ) -> Result<Self, String> {
        let remaining = config.games.saturating_sub(progress.summary.games);
        let mut rtt = Rtt::default();
        rtt.ping(&mut ws).await?;
        let resuming = progress.resume.clone();
        send(&mut ws, &hello(config, G::ID, remaining, resuming.clone())).await?;
        let hello_pending = resuming.is_none();
        let last_in = tokio::time::Instant::now();
        let mut rtt_tick =
            tokio::time::interval_at(tokio::time::Instant::now() + RTT_PING_EVERY, RTT_PING_EVERY);
        rtt_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Ok(Session {
            ws,
            config,
            search,
            progress,
            stop,
            on_game,
            welcomed: false,
            grace_end: None,
            in_match: false,
            rtt,
            resuming,
            hello_pending,
            pending: None,
            increment: Duration::ZERO,
            own: None,
            last_in,
            rtt_tick,
        })
    }

    /// The event loop: each event to its handler, until one ends the
    /// session.
    async fn run(mut self) -> Result<Dropped, ClientError> {
        loop {
            let event = self.next_event().await;
            let received_at = Instant::now();
            let flow = match event {
                Event::Frame(f) => self.on_frame(f, received_at).await,
                Event::Searched(r) => self.on_searched(r).await,
                Event::Idle => self.on_idle(),
                Event::RttPing => self.on_rtt_tick().await,
                Event::Stop(v) => self.on_stop(v).await,
                Event::GraceOver => self.on_grace_over().await,
            };
            if let Flow::End(end) = flow {
                return end;
            }
        }
    }

    /// Waits for the next thing to happen.
    async fn next_event(&mut self) -> Event<G::Action> {
        let stop_at = if self.grace_end.is_some() {
            Stop::Abandon
        } else {
            Stop::Finish
        };
        tokio::select! {
            f = self.ws.next() => Event::Frame(f),
            r = pending_search(self.pending.as_mut().map(|p| &mut p.1)) => Event::Searched(r),
            _ = tokio::time::sleep_until(self.last_in + self.config.heartbeat_timeout) => Event::Idle,
            _ = self.rtt_tick.tick() => Event::RttPing,
            v = wait_for_stop(self.stop, stop_at) => Event::Stop(v),
            _ = sleep_until_opt(self.grace_end) => Event::GraceOver,
        }
    }

    /// The session ends with the connection gone: `why` (empty: all games
    /// are done).
    fn dropped(&self, why: String) -> Flow {
        Flow::End(Ok(Dropped::new(self.welcomed, why)))
    }

    /// Sends `msg`; a failed send ends the session.
    async fn send(&mut self, msg: &ClientMsg) -> Flow {
        match send(&mut self.ws, msg).await {
            Ok(()) => Flow::Continue,
            Err(e) => self.dropped(e),
        }
    }

    /// Closes the connection, waiting at most half a second.
    async fn close(&mut self) {
        let _ = tokio::time::timeout(Duration::from_millis(500), self.ws.close(None)).await;
    }

    /// Cancels the search under way, if any.
    fn cancel_search(&mut self) {
        if self.pending.take().is_some() {
            self.search.cancel();
        }
    }

    /// No frame for `heartbeat_timeout`: the connection is dead.
    fn on_idle(&self) -> Flow {
        let why = format!(
            "no frame from the server for {} ms (client.heartbeat_timeout_ms): a dead or half-open connection",
            self.config.heartbeat_timeout.as_millis()
        );
        tracing::warn!(url = %self.config.url, "{why}");
        self.dropped(why)
    }

    /// Time to measure the round trip again.
    async fn on_rtt_tick(&mut self) -> Flow {
        match self.rtt.ping(&mut self.ws).await {
            Ok(()) => Flow::Continue,
            Err(e) => self.dropped(e),
        }
    }

    /// A stop was asked for: `Finish` with a game or match in progress plays
    /// it out within the grace; otherwise we leave at once.
    async fn on_stop(&mut self, v: Stop) -> Flow {
        if matches!(v, Stop::Finish) && (self.progress.current.is_some() || self.in_match) {
            let grace = self.config.stop_grace;
            tracing::info!(
                grace_ms = grace.as_millis() as u64,
                "stop asked for: finishing the game in progress"
            );
            self.grace_end = Some(tokio::time::Instant::now() + grace);
            // The server starts no further game of this match.
            return self.send(&ClientMsg::Leave).await;
        }
        self.leave("stop asked for").await
    }

    /// The grace after `Stop::Finish` ran out with the game unfinished.
    async fn on_grace_over(&mut self) -> Flow {
        self.leave("the game did not end within the stop grace")
            .await
    }

    /// Leaves on a stop, the game in progress (if any) abandoned.
    async fn leave(&mut self, why: &str) -> Flow {
        self.cancel_search();
        self.close().await;
        Flow::End(Ok(Dropped {
            welcomed: self.welcomed,
            why: why.into(),
            stopped: true,
            abandoned: self.progress.current.is_some(),
            server_stopping: false,
        }))
    }

    /// A search finished: its move goes to the server ([`Self::send_answer`]).
    async fn on_searched(
        &mut self,
        r: Result<crate::search::Decision<G::Action>, crate::runtime::SearchError>,
    ) -> Flow {
        let Some((game_id, _)) = self.pending.take() else {
            return Flow::Continue;
        };
        match r {
            Ok(d) => self.send_answer(game_id, d).await,
            Err(e) => {
                tracing::error!(error = %e, "search failed; no move sent");
                Flow::Continue
            }
        }
    }

    /// Sends our answer to the request of `game_id`, and charges the time it
    /// took to the bank the bot keeps for itself. The one place an answer
    /// goes out (with [`Self::on_move_request`], where a search starts).
    async fn send_answer(
        &mut self,
        game_id: String,
        d: crate::search::Decision<G::Action>,
    ) -> Flow {
        let mv = ClientMsg::Move {
            game_id: game_id.clone(),
            mv: G::move_to_json(d.mv),
        };
        if let end @ Flow::End(_) = self.send(&mv).await {
            return end;
        }
        if let Some(o) = self.own.as_mut().filter(|o| o.game_id == game_id) {
            if let Some(at) = o.asked_at.take() {
                o.clock = o.clock.after(at.elapsed());
            }
        }
        Flow::Continue
    }

    /// A frame from the server (`None`: the connection closed), received
    /// at `received_at`.
    async fn on_frame(
        &mut self,
        f: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
        received_at: Instant,
    ) -> Flow {
        match f {
            None => self.dropped("connection closed".into()),
            Some(Err(e)) => {
                let why = match e {
                    tokio_tungstenite::tungstenite::Error::Capacity(c) => format!(
                        "the server sent a message over our limit of {MAX_MESSAGE_BYTES} bytes ({c})"
                    ),
                    e => e.to_string(),
                };
                tracing::warn!(url = %self.config.url, why, "connection to the server failed");
                self.dropped(why)
            }
            Some(Ok(m)) => {
                self.last_in = tokio::time::Instant::now();
                match m {
                    Message::Text(t) => self.on_text(&t, received_at).await,
                    Message::Close(_) => self.dropped("connection closed by the server".into()),
                    _ => Flow::Continue,
                }
            }
        }
    }

    /// A text frame: parsed, and the message to its handler.
    async fn on_text(&mut self, text: &str, received_at: Instant) -> Flow {
        tracing::debug!(msg = %text, "recv");
        let msg = match parse_server(text) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(error = %e, "unreadable message from the server; ignored");
                return Flow::Continue;
            }
        };
        match msg {
            ServerMsg::Welcome { protocol, .. } => self.on_welcome(protocol),
            ServerMsg::Waiting { game } => self.on_waiting(game),
            ServerMsg::GameStart { .. } => self.on_game_start(msg),
            ServerMsg::MoveRequest {
                game_id,
                state,
                your_time_ms,
                remaining_ms,
                ..
            } => self.on_move_request(game_id, &state, your_time_ms, remaining_ms, received_at),
            ServerMsg::MovePlayed {
                game_id, mv, ms, ..
            } => self.on_move_played(game_id, mv, ms),
            ServerMsg::GameOver { .. } => self.on_game_over(msg),
            ServerMsg::MatchOver { .. } => self.on_match_over().await,
            ServerMsg::Error {
                code,
                message,
                fatal,
            } => self.on_error(code, message, fatal).await,
            ServerMsg::Ping { id } => self.send(&ClientMsg::Pong { id }).await,
            ServerMsg::Pong { id } => {
                self.rtt.pong(id.as_ref());
                Flow::Continue
            }
        }
    }

    fn on_welcome(&mut self, protocol: u32) -> Flow {
        if protocol != PROTOCOL_VERSION {
            return Flow::End(Err(ClientError::Protocol(format!(
                "the server speaks protocol {protocol}, we speak {PROTOCOL_VERSION}"
            ))));
        }
        self.welcomed = true;
        if self.resuming.is_none() {
            if let Some((cur, why)) = self.progress.interrupted.take() {
                // The server is there: it scored the game we were cut from
                // as lost by disconnect.
                self.progress.finish_lost(
                    cur,
                    format!("connection lost: {why}"),
                    false,
                    &mut *self.on_game,
                );
            }
        }
        Flow::Continue
    }

    fn on_waiting(&mut self, game: String) -> Flow {
        self.hello_pending = false;
        tracing::info!(game, "waiting for an opponent");
        Flow::Continue
    }

    /// A `game_start` (only that message comes here).
    fn on_game_start(&mut self, msg: ServerMsg) -> Flow {
        let ServerMsg::GameStart {
            game_id,
            seat,
            opponent,
            number,
            of,
            seat_token,
            resumed,
            clock,
            ..
        } = msg
        else {
            return Flow::Continue;
        };
        self.hello_pending = false;
        self.in_match = true;
        self.start_clocks(&game_id, clock.increment_ms);
        if self.resuming.take().is_some() {
            self.progress.summary.resumed += 1;
            tracing::info!(game_id, resumed, "seat taken back on a new connection");
        }
        tracing::info!(game_id, seat, opponent, number, of, resumed, "game started");
        self.progress.resume = seat_token.map(|seat_token| Resume {
            game_id: game_id.clone(),
            seat_token,
        });
        if resumed && self.progress.last_done.as_deref() == Some(game_id.as_str()) {
            // A game we already reported, sent again: its end is ours
            // already.
            return Flow::Continue;
        }
        self.search.new_game();
        self.track_game(game_id, seat, opponent, resumed);
        Flow::Continue
    }

    /// The clocks of the game `game_id` starting: the server's increment,
    /// and a fresh bank of our own unless this game already has one (a
    /// resume).
    fn start_clocks(&mut self, game_id: &str, increment_ms: u64) {
        self.increment = Duration::from_millis(increment_ms);
        if let ClockPolicy::Bank { own: Some(c) } = self.config.clock_policy {
            if self.own.as_ref().is_none_or(|o| o.game_id != game_id) {
                self.own = Some(OwnClock {
                    game_id: game_id.to_string(),
                    clock: c,
                    asked_at: None,
                });
            }
        }
    }

    /// Makes the started game the one in progress; a game we were cut from
    /// goes on (the same game, resumed) or is reported as lost by
    /// disconnect.
    fn track_game(&mut self, game_id: String, seat: Seat, opponent: String, resumed: bool) {
        let mut cur = Current::new(game_id.clone(), seat, opponent);
        if let Some((old, why)) = self.progress.interrupted.take() {
            if resumed && old.game_id == game_id {
                // The moves so far follow again.
                cur.started_ms = old.started_ms;
            } else {
                self.progress.finish_lost(
                    old,
                    format!("connection lost: {why}"),
                    false,
                    &mut *self.on_game,
                );
            }
        }
        self.progress.current = Some(cur);
    }

    /// A `move_request`, received at `received_at`: the search it asks for
    /// is submitted (one still under way is cancelled first). The one place
    /// a search starts (its answer goes out in [`Self::send_answer`]).
    fn on_move_request(
        &mut self,
        game_id: String,
        state: &serde_json::Value,
        your_time_ms: u64,
        remaining_ms: Option<[u64; 2]>,
        received_at: Instant,
    ) -> Flow {
        let obs = match G::obs_from_json(state) {
            Ok(obs) => obs,
            Err(e) => {
                return Flow::End(Err(ClientError::Protocol(format!(
                    "bad state in move_request: {e}"
                ))))
            }
        };
        self.cancel_search();
        let limits = self.move_limits(&game_id, &obs, your_time_ms, remaining_ms, received_at);
        self.pending = Some((game_id, self.search.submit(obs, limits)));
        Flow::Continue
    }

    /// The limits of the search for a request of `game_id` that allows
    /// `your_time_ms`, received at `received_at`.
    fn move_limits(
        &mut self,
        game_id: &str,
        obs: &G::Obs,
        your_time_ms: u64,
        remaining_ms: Option<[u64; 2]>,
        received_at: Instant,
    ) -> Limits {
        // The request spent part of the round trip reaching us and the
        // answer spends the rest reaching the server. At most half the
        // allowance goes, so that one slow ping cannot leave the agent no
        // time at all.
        let allowance = Duration::from_millis(your_time_ms);
        let allowance = allowance.saturating_sub(self.rtt.estimate().min(allowance / 2));
        let margin = Duration::from_millis(self.config.margin_ms);
        let clock = self.move_clock(game_id, remaining_ms);
        if let Some(o) = self.own.as_mut().filter(|o| o.game_id == game_id) {
            o.asked_at = Some(received_at);
        }
        let playouts = self.config.playouts;
        let limits = match clock {
            Some(c) => Limits::on_game_clock(
                playouts,
                received_at,
                c,
                G::moves_to_go(obs),
                allowance,
                margin,
            ),
            None => Limits::under_clock(
                playouts,
                self.config.time_ms,
                received_at,
                allowance,
                margin,
            ),
        };
        if let Some(d) = limits.deadline {
            tracing::debug!(
                game_id,
                soft_ms = (d.soft - d.start).as_millis() as u64,
                hard_ms = (d.hard - d.start).as_millis() as u64,
                bank_ms = clock.map(|c| c.bank.as_millis() as u64),
                "move planned"
            );
        }
        limits
    }

    /// The game clock a move of `game_id` is planned on ([`ClockPolicy`]):
    /// none when fixed; with a bank, the server's (`remaining_ms`, our
    /// seat's) or our own, the smaller when both.
    fn move_clock(&self, game_id: &str, remaining_ms: Option<[u64; 2]>) -> Option<GameClock> {
        match self.config.clock_policy {
            ClockPolicy::Fixed => None,
            ClockPolicy::Bank { .. } => {
                let seat = self
                    .progress
                    .current
                    .as_ref()
                    .filter(|c| c.game_id == game_id)
                    .map_or(0, |c| c.seat);
                let server = remaining_ms.map(|b| GameClock {
                    bank: Duration::from_millis(b[seat & 1]),
                    increment: self.increment,
                });
                let own = self.own.as_ref().filter(|o| o.game_id == game_id);
                match (server, own.map(|o| o.clock)) {
                    (Some(s), Some(o)) => Some(if s.bank <= o.bank { s } else { o }),
                    (s, o) => s.or(o),
                }
            }
        }
    }

    fn on_move_played(&mut self, game_id: String, mv: serde_json::Value, ms: u64) -> Flow {
        if let Some(cur) = self
            .progress
            .current
            .as_mut()
            .filter(|c| c.game_id == game_id)
        {
            cur.moves += 1;
            cur.move_list.push(mv);
            cur.move_ms.push(ms);
        }
        Flow::Continue
    }

    /// A `game_over` (only that message comes here): the game is reported,
    /// once.
    fn on_game_over(&mut self, msg: ServerMsg) -> Flow {
        let ServerMsg::GameOver {
            game_id,
            winner,
            result,
            reason,
            detail,
            your_result,
            moves,
        } = msg
        else {
            return Flow::Continue;
        };
        if self.pending.as_ref().is_some_and(|p| p.0 == game_id) {
            self.pending = None;
            self.search.cancel();
        }
        self.search.stop_pondering();
        if self.progress.last_done.as_deref() == Some(game_id.as_str()) {
            return Flow::Continue;
        }
        self.progress.last_done = Some(game_id.clone());
        let cur = self
            .progress
            .current
            .take()
            .filter(|c| c.game_id == game_id)
            .unwrap_or_else(|| Current::new(game_id, 0, String::new()));
        let summary = &mut self.progress.summary;
        let mut g = cur.finish(
            summary.games + summary.aborted + 1,
            winner,
            Some(your_result),
            reason,
            detail,
            false,
        );
        g.result = result;
        g.moves = moves;
        summary.add(Some(your_result));
        (self.on_game)(&g);
        // After a stop, `match_over` follows (our `leave`); a game the
        // server started before it read `leave` is played too, within the
        // grace.
        Flow::Continue
    }

    /// The match is over: the session ends after a stop, else goes on to
    /// the next match ([`Self::next_match`]).
    async fn on_match_over(&mut self) -> Flow {
        self.in_match = false;
        self.progress.resume = None;
        if self.resuming.take().is_some() {
            // Taken back between games, and the match ended.
            self.progress.summary.resumed += 1;
        }
        if self.grace_end.is_some() {
            self.close().await;
            return Flow::End(Ok(Dropped {
                welcomed: self.welcomed,
                why: String::new(),
                stopped: true,
                abandoned: false,
                server_stopping: false,
            }));
        }
        self.next_match().await
    }

    /// Between matches: done when every game is played, else a `hello` for
    /// the games still to play.
    async fn next_match(&mut self) -> Flow {
        let remaining = self
            .config
            .games
            .saturating_sub(self.progress.summary.games);
        if remaining == 0 {
            self.close().await;
            return self.dropped(String::new());
        }
        let hello = hello(self.config, G::ID, remaining, None);
        if let end @ Flow::End(_) = self.send(&hello).await {
            return end;
        }
        self.hello_pending = true;
        Flow::Continue
    }

    /// An `error`: a refused resume, a refused `hello`, the server shutting
    /// down mid-game, or a warning.
    async fn on_error(&mut self, code: String, message: String, fatal: bool) -> Flow {
        if let Some(r) = self.resuming.take() {
            if !fatal {
                return self.on_resume_refused(code, message, r).await;
            }
        }
        if self.hello_pending && is_hello_rejection(&code) {
            return Flow::End(Err(ClientError::Rejected { code, message }));
        }
        tracing::warn!(code, message, fatal, "error from the server");
        if code == ErrorCode::ShuttingDown.as_str() && self.progress.current.is_some() {
            self.cancel_search();
            self.close().await;
            return Flow::End(Ok(Dropped {
                server_stopping: true,
                ..Dropped::new(self.welcomed, message)
            }));
        }
        Flow::Continue
    }

    /// The seat `r` cannot be taken back (the game ended while we were
    /// away): the server scored it; on to the next match.
    async fn on_resume_refused(&mut self, code: String, message: String, r: Resume) -> Flow {
        tracing::warn!(
            code,
            message,
            game_id = r.game_id,
            "could not resume our seat"
        );
        self.progress.resume = None;
        self.in_match = false;
        if let Some((cur, why)) = self.progress.interrupted.take() {
            self.progress.finish_lost(
                cur,
                format!("connection lost ({why}); the game ended before we could resume it"),
                false,
                &mut *self.on_game,
            );
        }
        self.next_match().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_server_address_is_refused_a_good_one_kept() {
        for good in [
            "ws://127.0.0.1:8765",
            "wss://example.org/ladder",
            "ws://localhost",
            "ws://[::1]:9000",
        ] {
            assert_eq!(check_url(good), Ok(()), "{good}");
        }
        for (bad, says) in [
            ("ws://127.0.0.1:99999", "99999 is not a port"),
            ("ws://127.0.0.1:0", "0 is not a port"),
            ("ws://:8765", "names no host"),
            ("http://127.0.0.1:8765", "expected ws://"),
            ("ws://a b", "not a URL"),
        ] {
            let e = check_url(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn run_client_future_is_send() {
        fn is_send<T: Send>(_: T) {}
        is_send(run_client::<crate::games::four3d::Board>(
            ClientConfig::default(),
            |_| {},
        ));
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let ms = Duration::from_millis;
        let d: Vec<_> = (1..=6)
            .map(|f| backoff_delay(ms(100), ms(1000), f))
            .collect();
        assert_eq!(d, [ms(100), ms(200), ms(400), ms(800), ms(1000), ms(1000)]);
        assert_eq!(backoff_delay(ms(100), ms(1000), 200), ms(1000));
    }

    #[test]
    fn summary_score() {
        let mut s = ClientSummary::default();
        assert_eq!(s.score(), 0.0);
        s.add(Some(YourResult::Win));
        s.add(Some(YourResult::Draw));
        s.add(Some(YourResult::Loss));
        s.add(Some(YourResult::Win));
        // An aborted game is neither a win, a draw nor a loss.
        s.add(None);
        assert_eq!((s.games, s.wins, s.draws, s.losses), (4, 2, 1, 1));
        assert_eq!(s.aborted, 1);
        assert!((s.score() - 0.625).abs() < 1e-12);
    }

    #[test]
    fn config_validation() {
        assert!(ClientConfig::default().validate().is_ok());
        let bad = [
            ClientConfig {
                games: 0,
                ..ClientConfig::default()
            },
            ClientConfig {
                name: String::new(),
                ..ClientConfig::default()
            },
            ClientConfig {
                url: "http://x".into(),
                ..ClientConfig::default()
            },
        ];
        for c in bad {
            assert!(matches!(c.validate(), Err(ClientError::Config(_))));
        }
    }

    #[tokio::test]
    async fn unknown_agent_fails_before_connecting() {
        let cfg = ClientConfig {
            agent: "nope".into(),
            // Nothing listens here; an attempt to connect would be a
            // Connect error instead.
            url: "ws://127.0.0.1:1".into(),
            ..ClientConfig::default()
        };
        let e = run_client::<crate::games::four3d::Board>(cfg, |_| {})
            .await
            .unwrap_err();
        assert!(
            matches!(e, ClientError::Agent(ref m) if m.contains("nope")),
            "{e}"
        );
    }

    #[tokio::test]
    async fn gives_up_after_max_reconnects() {
        // A port with nothing listening.
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        drop(l);
        let cfg = ClientConfig {
            url: format!("ws://{addr}"),
            backoff_initial: Duration::from_millis(5),
            backoff_max: Duration::from_millis(20),
            max_reconnects: 3,
            ..ClientConfig::default()
        };
        let start = Instant::now();
        let e = run_client::<crate::games::four3d::Board>(cfg, |_| {})
            .await
            .unwrap_err();
        match e {
            ClientError::Connect { attempts, .. } => assert_eq!(attempts, 4),
            other => panic!("expected a connect error, got {other}"),
        }
        // Waits of 5 + 10 + 20 ms happened between the 4 attempts.
        assert!(start.elapsed() >= Duration::from_millis(35));
    }
}
