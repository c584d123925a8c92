//! What can be set: [`Settings`] and its sections (`search`, `client`,
//! `server`, `log`), the choices some keys take (read from their names,
//! with errors that name the key), and the built-in defaults.

use serde::{Deserialize, Serialize};

use super::DEFAULT_AGENT;
use crate::games::{AgentParams, GameKind};

/// Everything a bot, the server or the match runner can be told.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Profile to load (only meaningful from `LADDERBOT_PROFILE`).
    pub profile: Option<String>,
    /// Name shown to the server and in records.
    pub name: String,
    /// Game to play; the command line may give it instead.
    #[serde(deserialize_with = "game_from_string")]
    pub game: Option<GameKind>,
    /// Agent name (see `ladderbot agents`); `default`: the game's default.
    pub agent: String,
    /// Agent options, e.g. `draw_reward` for `pmc`.
    pub agent_params: AgentParams,
    /// One line of measured strength (against whom, at what time, when),
    /// shown by `ladderbot agents`; no effect on play.
    pub strength: String,
    pub search: SearchSettings,
    pub client: ClientSettings,
    pub server: ServerSettings,
    pub log: LogSettings,
    /// What loading noticed but did not refuse (`LADDERBOT_*` variables
    /// that are no setting), for the log once it is set up.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// What one move may cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSettings {
    /// Playouts per move (unset: time only, or the agent's default).
    pub playouts: Option<u64>,
    /// Milliseconds per move the bot wants to use (the server's clock caps it).
    pub time_ms: Option<u64>,
    /// Safety margin kept for I/O, in milliseconds.
    pub margin_ms: u64,
    /// Seed of the agent's random numbers (unset: from the clock).
    pub seed: Option<u64>,
    /// `fixed` (default): every answer within `time_ms` and the platform's
    /// per-move cap. `bank`: spend a game clock, a fair share of the bank
    /// per move as the soft limit and a few times that on a critical move
    /// as the hard limit, never more than a quarter of the bank: GOLAD on
    /// stdin/stdout spends the engine's bank; a match-server client the
    /// server's bank and/or its own (`bank_ms`, `increment_ms`).
    pub time_policy: TimePolicy,
    /// With `time_policy = "bank"` on a match server: a bank for each whole
    /// game that the bot keeps for itself (on a server with per-move limits
    /// only, or a smaller one than the server's), in milliseconds.
    pub bank_ms: Option<u64>,
    /// What each of our moves adds back to `bank_ms`, in milliseconds.
    pub increment_ms: u64,
    /// Think on the opponent's time: after each answer the agent goes on
    /// searching the opponent's replies until the next request (which
    /// always preempts it), keeping what it finds. Off by default.
    pub ponder: bool,
}

/// How a bot spends a platform's clock (see [`SearchSettings::time_policy`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", try_from = "String")]
pub enum TimePolicy {
    #[default]
    Fixed,
    Bank,
}

impl TryFrom<String> for TimePolicy {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "fixed" => Ok(TimePolicy::Fixed),
            "bank" => Ok(TimePolicy::Bank),
            _ => Err(format!(
                "search.time_policy: '{s}' is not one of: fixed, bank"
            )),
        }
    }
}

/// Who to play, where, how often, and how to reconnect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClientSettings {
    /// `ws://host:port` of a match server (Geister: `HOST:PORT` of a GAT
    /// server); unset: an in-process server with a house bot.
    pub server: Option<String>,
    /// Games to play.
    pub games: u32,
    /// `any` (next waiting client) or `house` (the server's own bot).
    pub opponent: OpponentChoice,
    pub connect_timeout_ms: u64,
    pub backoff_initial_ms: u64,
    pub backoff_max_ms: u64,
    /// Consecutive failed connection attempts before giving up.
    pub max_reconnects: u32,
    /// Speak the game's engine protocol on stdin/stdout instead (GOLAD:
    /// Riddles.io), as a ladder runs an uploaded bot.
    pub stdio: bool,
    /// Geister (GAT): how long to keep retrying to connect before each game
    /// (a GAT server reopens its ports only after the previous game).
    pub reconnect_window_ms: u64,
    /// Append one JSON line per finished game to this file ("" for none).
    /// Without a server: the in-process server's records.
    pub records: String,
    /// End the session after this many seconds (0: no limit): no game
    /// starts after it, the one in progress is played out.
    pub time_limit_s: u64,
    /// After SIGTERM, SIGINT or the time limit, how long the game in
    /// progress may still run before it is abandoned, ms.
    pub stop_grace_ms: u64,
    /// Sent to a match server that asks for a token (`server.token`); keep
    /// it in the environment (`LADDERBOT_CLIENT__TOKEN`), not in a profile.
    pub token: String,
    /// A connection with no frame from the server for this long is dead (a
    /// half-open connection), ms; more than the server's heartbeat interval.
    pub heartbeat_timeout_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", try_from = "String")]
pub enum OpponentChoice {
    Any,
    House,
}

/// The local match server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerSettings {
    pub bind: String,
    /// Longest time one move may take, ms (0: no per-move limit).
    pub time_per_move_ms: u64,
    /// Time bank per side and game, ms (0: no bank).
    pub time_bank_ms: u64,
    /// Added to the bank after each move, ms.
    pub increment_ms: u64,
    /// Records file, one JSON line per finished game ("" for none).
    pub records: String,
    pub heartbeat_interval_ms: u64,
    pub heartbeat_timeout_ms: u64,
    /// The house bot's agent ("" for no house bot).
    pub house_agent: String,
    /// The house bot's playouts per move (0: no playout limit).
    pub house_playouts: u64,
    /// The house bot's time per move, ms (0: no time limit of its own).
    pub house_time_ms: u64,
    /// A secret every client must send in `hello` ("" for an open
    /// server); keep it in the environment (`LADDERBOT_SERVER__TOKEN`).
    pub token: String,
    /// Most connections at once; more are refused with HTTP 503.
    pub max_connections: u32,
    /// Most connections at once from one IP address; more are refused.
    pub max_connections_per_ip: u32,
    /// Messages a connection may send per second, sustained (answers to
    /// the server's move requests do not count).
    pub rate_limit_per_s: u32,
    /// Messages a connection may send in a burst above the sustained rate.
    pub rate_limit_burst: u32,
    /// A connection that has not sent an accepted `hello` after this long
    /// is closed, ms.
    pub hello_timeout_ms: u64,
    /// How long a seat whose connection dropped mid-game may take to come
    /// back with its seat token before it loses by disconnect, ms (its
    /// clock runs meanwhile; 0: it loses at once).
    pub resume_window_ms: u64,
    /// On SIGTERM/SIGINT, how long games in progress may still run to
    /// their end before they are recorded as aborted, ms (0: at once).
    pub shutdown_grace_ms: u64,
    /// Seed for the games' starting positions.
    pub seed: u64,
    /// Options of a game's start, by game: `[server.game_options.floodit]`
    /// `size = "10x10"` (each game checks its own).
    pub game_options: std::collections::BTreeMap<String, crate::games::GameOptions>,
    /// Opening suites, by game: `[server.openings]` `four3d =
    /// "openings/four3d.txt"` (the file format of `match --openings`).
    /// Each pair of games of a match starts from the next opening of its
    /// game's suite, once with each seat; the server counts pairs per game
    /// across matches. Only games whose start is fixed take one.
    pub openings: std::collections::BTreeMap<String, String>,
    /// The order the suites' openings are taken in: `sequential` (as in
    /// the file) or `random` (shuffled from `seed`, every opening once per
    /// pass through the file).
    pub opening_order: crate::runner::openings::OpeningOrder,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogSettings {
    /// `human` or `json`; logs always go to stderr.
    pub format: LogFormat,
    /// A tracing filter such as `info` or `ladderbot=debug`; `RUST_LOG` wins.
    /// Empty: the command's own default ([`LogSettings::DEFAULT_PLAY`] for
    /// `play`, which shows its results on stdout and only what goes wrong
    /// on stderr; [`LogSettings::DEFAULT`] for the other commands).
    pub filter: String,
}

impl LogSettings {
    /// `play`'s filter when none is set: warnings and errors only.
    pub const DEFAULT_PLAY: &'static str = "warn";
    /// Every other command's filter when none is set.
    pub const DEFAULT: &'static str = "info";

    /// The filter in force for a command whose own default is `default`.
    pub fn filter_or<'a>(&'a self, default: &'a str) -> &'a str {
        if self.filter.trim().is_empty() {
            default
        } else {
            &self.filter
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase", try_from = "String")]
pub enum LogFormat {
    Human,
    Json,
}

impl TryFrom<String> for OpponentChoice {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "any" => Ok(OpponentChoice::Any),
            "house" => Ok(OpponentChoice::House),
            _ => Err(format!("client.opponent: '{s}' is not one of: any, house")),
        }
    }
}

impl TryFrom<String> for LogFormat {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "human" => Ok(LogFormat::Human),
            "json" => Ok(LogFormat::Json),
            _ => Err(format!("log.format: '{s}' is not one of: human, json")),
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            profile: None,
            name: "ladderbot".into(),
            game: None,
            agent: DEFAULT_AGENT.into(),
            agent_params: AgentParams::new(),
            strength: String::new(),
            search: SearchSettings::default(),
            client: ClientSettings::default(),
            server: ServerSettings::default(),
            log: LogSettings::default(),
            warnings: Vec::new(),
        }
    }
}

impl SearchSettings {
    /// What a bot with these settings may spend, in words (`agents`,
    /// `play`'s note): `100 ms a move, margin 40 ms, pondering`, `the
    /// platform's bank, margin 30 ms`, `a bank of 600000 ms + 0 ms a move,
    /// ...`.
    pub fn budget(&self) -> String {
        let bank = self.time_policy == TimePolicy::Bank;
        let clock = bank.then(|| match self.bank_ms {
            Some(b) => format!("a bank of {b} ms + {} ms a move", self.increment_ms),
            None => "the platform's bank".to_string(),
        });
        crate::runner::budget_words(
            clock,
            self.time_ms,
            self.playouts,
            Some(self.margin_ms),
            self.ponder,
        )
    }
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            playouts: None,
            time_ms: None,
            margin_ms: 30,
            seed: None,
            time_policy: TimePolicy::Fixed,
            bank_ms: None,
            increment_ms: 0,
            ponder: false,
        }
    }
}

impl Default for ClientSettings {
    fn default() -> Self {
        ClientSettings {
            server: None,
            games: 1,
            opponent: OpponentChoice::Any,
            connect_timeout_ms: 5_000,
            backoff_initial_ms: 250,
            backoff_max_ms: 10_000,
            max_reconnects: 10,
            stdio: false,
            reconnect_window_ms: 30_000,
            records: String::new(),
            time_limit_s: 0,
            stop_grace_ms: 10_000,
            token: String::new(),
            heartbeat_timeout_ms: 120_000,
        }
    }
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            bind: "127.0.0.1:8765".into(),
            time_per_move_ms: 1_000,
            time_bank_ms: 0,
            increment_ms: 0,
            records: "records.jsonl".into(),
            heartbeat_interval_ms: 5_000,
            heartbeat_timeout_ms: 20_000,
            house_agent: DEFAULT_AGENT.into(),
            house_playouts: 1_000,
            house_time_ms: 0,
            seed: 0,
            game_options: Default::default(),
            openings: Default::default(),
            opening_order: Default::default(),
            token: String::new(),
            max_connections: 256,
            max_connections_per_ip: 16,
            rate_limit_per_s: 20,
            rate_limit_burst: 100,
            hello_timeout_ms: 30_000,
            resume_window_ms: 10_000,
            shutdown_grace_ms: 0,
        }
    }
}

impl Default for LogSettings {
    fn default() -> Self {
        LogSettings {
            format: LogFormat::Human,
            filter: String::new(),
        }
    }
}

fn game_from_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<GameKind>, D::Error> {
    let s = Option::<String>::deserialize(d)?;
    s.map(|s| {
        s.parse()
            .map_err(|e| serde::de::Error::custom(format!("game: {e}")))
    })
    .transpose()
}
