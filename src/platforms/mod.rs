//! The platforms ladderbot plays on, one folder each: its pure codec (tested
//! on recorded transcripts), its thin transports and its server or engine.
//!
//! - [`ws`]: our WebSocket match server: protocol `ws-match-v1`
//!   ([`ws::protocol`]), the server ([`ws::server`]) and the client
//!   ([`ws::client`]). Plays every game of the registry.
//! - [`riddles`]: the Riddles.io engine protocol on stdin/stdout (GOLAD):
//!   codec, the stdio bot and a local engine (referee) for bot processes.
//! - [`gat`]: the GAT Geister server protocol over TCP: codec, client,
//!   server and `play`'s session ([`gat::session`]).
//! - [`command`]: splitting a bot program's command line (shared by the
//!   engines that start bot programs).
//!
//! `play` chooses its platform by [`Platform::for_play`], and a platform's
//! own session takes what the settings ask of it as a [`PlaySession`].

pub mod command;
pub mod gat;
pub mod riddles;
pub mod ws;

use std::time::Duration;

use crate::config::OpponentChoice;
use crate::games::{AgentParams, GameKind};
use crate::records::RecordWriter;

/// A platform `play` is a client of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// Our WebSocket match server ([`ws`]): every game of the registry.
    Ws,
    /// A GAT server ([`gat`]): its one game.
    Gat,
}

impl Platform {
    /// The platform a game plays on when no ws:// server is given: its own
    /// (GAT for [`gat::GAME`]), else our match server.
    pub fn native(game: GameKind) -> Platform {
        if game == gat::GAME {
            Platform::Gat
        } else {
            Platform::Ws
        }
    }

    /// The platform of a `play` session of `game` with `server` (`None`: an
    /// in-process server and its house bot): a ws:// (or wss://) server is
    /// our match server, which plays every game; any other address, or none,
    /// is the game's own platform ([`Platform::native`]).
    pub fn for_play(game: GameKind, server: Option<&str>) -> Platform {
        let on_ws = server.is_some_and(|u| u.starts_with("ws://") || u.starts_with("wss://"));
        if on_ws {
            Platform::Ws
        } else {
            Platform::native(game)
        }
    }
}

/// A `play` session as the settings ask for it, for a platform's own
/// session ([`gat::session`], [`ws::session`]).
#[derive(Clone, Debug)]
pub struct PlaySession {
    /// Our name in the output and in records.
    pub name: String,
    /// The server's address; `None`: an in-process server and its house bot.
    pub server: Option<String>,
    pub agent: String,
    pub params: AgentParams,
    /// Playouts per move.
    pub playouts: Option<u64>,
    /// Milliseconds per move.
    pub time_ms: Option<u64>,
    /// Kept for I/O out of every move's time, in milliseconds.
    pub margin_ms: u64,
    /// `time_policy = "bank"`: a share of a game clock per move.
    pub bank: bool,
    /// The bank for the whole game, in milliseconds (`None`: the platform's).
    pub bank_ms: Option<u64>,
    /// Milliseconds each of our moves adds back to `bank_ms`.
    pub increment_ms: u64,
    /// Think on the opponent's time (`search.ponder`).
    pub ponder: bool,
    /// Games to play.
    pub games: u32,
    /// Our seed; each game's is derived from it.
    pub seed: u64,
    /// The records file (empty: none): against a server our own, written
    /// after every game; against the house bot the in-process server's.
    pub records: String,
    /// The opponent to ask a match server for.
    pub opponent: OpponentChoice,
    /// Sent to a server that asks for a token (empty: none).
    pub token: String,
    pub connect_timeout: Duration,
    /// How long to keep retrying to connect before giving up.
    pub reconnect_window: Duration,
    /// Wait before the first reconnect; doubles per consecutive failure.
    pub backoff_initial: Duration,
    /// Cap of the reconnect wait.
    pub backoff_max: Duration,
    /// Consecutive failed connection attempts tolerated.
    pub max_reconnects: u32,
    /// A connection with no inbound frame for this long is dead.
    pub heartbeat_timeout: Duration,
    /// How long a game in progress is played out after a stop.
    pub stop_grace: Duration,
    /// The house bot, with no server.
    pub house: HouseBot,
}

/// The house bot of an in-process server.
#[derive(Clone, Debug)]
pub struct HouseBot {
    /// Its agent (`default`: the game's own; empty: none).
    pub agent: String,
    pub playouts: Option<u64>,
    pub time_ms: Option<u64>,
}

/// Why a session failed, by what it deserves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// Bad configuration.
    Config(String),
    /// Worth retrying later: the server could not be reached, or went away.
    Retry(String),
    /// Any other failure.
    Failed(String),
}

/// Opens the records file of a session (`client.records`), if one is set
/// (empty: none): before connecting, so that a bad path is a configuration
/// error.
pub fn open_records(path: &str) -> Result<Option<RecordWriter>, SessionError> {
    match path {
        "" => Ok(None),
        path => RecordWriter::open(path)
            .map(Some)
            .map_err(|e| SessionError::Config(format!("client.records: cannot open {path}: {e}"))),
    }
}
