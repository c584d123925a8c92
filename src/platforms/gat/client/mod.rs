//! A GAT Geister client: connects to a GAT server, plays one game per
//! connection, and reconnects for the next game. The agent runs on the
//! shared search thread ([`SearchThread`]), as on every other transport, so
//! no search ever blocks a tokio worker.
//!
//! Here: the run's settings ([`GatClientConfig`]), its limits and its entry
//! points ([`run_client`]). The parts: `reconnect.rs` (the games of a run,
//! one connection each, and connecting with retries), `session.rs` (one
//! game on one connection: the server's lines and our answers), `budget.rs`
//! (what a move may spend, and the time logs), `board.rs` (what the
//! server's boards tell: the opponent's moves and setup, how a game ended),
//! `records.rs` (one game's account and the run's totals) and `tests.rs`.

mod board;
mod budget;
mod reconnect;
mod records;
mod session;
#[cfg(test)]
mod tests;

use std::time::Duration;

use crate::games::geister::agents;
use crate::games::geister::GeisterGame;
use crate::games::AgentParams;
use crate::platforms::gat::clock::GatPlan;
use crate::runtime::{SearchThread, Stop};

pub use board::{ending_of, opponent_move};
pub use budget::log_plan;
pub use reconnect::connect_retrying;
pub use records::{GatGame, GatSummary};

/// How many times a refused SET is answered with a new random setup.
pub const MAX_SET_RETRIES: u32 = 3;

/// The longest we wait for a server line (the opponent may think for up to
/// its whole budget plus one timeout): a server silent for longer, or stuck
/// in the middle of a line, breaks the game off (aborted).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// The most time per move we ever ask for: below the server's 10 s timeout.
pub const MAX_TIME_MS: u64 = 9_000;

/// The least time between a `MOV?` and our answer on a real GAT server.
/// Its per-move timer is a thread started when `MOV?` is sent, and
/// stopping it only clears a flag the thread sets when it starts: an answer
/// that arrives before the thread has started (a forced win answered at
/// once) leaves the timer running, and it declares a timeout against us
/// `budget + 10` seconds later, in whatever game is being played then
/// (seen on the real server: a game lost so, 226 s after an instant
/// escape). Holding instant answers this long lets the thread start.
pub const MIN_ANSWER: Duration = Duration::from_millis(30);

/// Time per move when neither a time nor a playout budget is given.
pub const DEFAULT_TIME_MS: u64 = 1_000;

/// What a client run needs.
#[derive(Clone, Debug)]
pub struct GatClientConfig {
    /// `HOST:PORT` of the server (first seat 10000, second 10001).
    pub addr: String,
    pub agent: String,
    pub params: AgentParams,
    /// Milliseconds per move (capped at [`MAX_TIME_MS`]); `None`: with a
    /// playout budget, [`MAX_TIME_MS`] as a safety cap, else
    /// [`DEFAULT_TIME_MS`].
    pub time_ms: Option<u64>,
    /// Playouts per move, for agents that count them.
    pub playouts: Option<u64>,
    /// Kept for I/O out of every move's time, in milliseconds.
    pub margin_ms: u64,
    /// A plan over the game's clock (`time_policy = "bank"`): each move its
    /// free second and a share of the bank ([`GatPlan`]); `time_ms` is then
    /// not used.
    pub plan: Option<GatPlan>,
    /// No answer leaves sooner than this after its `MOV?` ([`MIN_ANSWER`]
    /// on a real server; zero against our own `serve-gat` code).
    pub min_answer: Duration,
    /// Games to play, one connection each.
    pub games: u32,
    pub seed: u64,
    /// Timeout of one connection attempt.
    pub connect_timeout: Duration,
    /// How long to keep retrying to connect before giving up.
    pub reconnect_window: Duration,
    /// Ends the run early: [`Stop::Finish`] plays the game in progress out
    /// (for at most `stop_grace`), [`Stop::Abandon`] leaves it at once.
    pub stop: Option<tokio::sync::watch::Receiver<Stop>>,
    pub stop_grace: Duration,
    /// The number of the first game (1 unless a session plays its games
    /// one client run each, as against the in-process house server): the
    /// games' numbers, in the log and in [`GatGame::number`].
    pub first_game: u32,
    /// The server is our own, in-process (the house server of `play`, a
    /// match's): a connection refused or closed before a game began is the
    /// expected turn-over between games, so retrying is logged at debug
    /// level only (against another server it is a warning).
    pub own_server: bool,
    /// Think on the opponent's time ([`SearchThread::set_ponder`]).
    pub ponder: bool,
}

/// Plays `cfg.games` games, one connection each, calling `on_game` after
/// each. Fails only when the agent cannot be built or the server cannot be
/// reached; a game that breaks off is reported (as a loss) and play goes on.
pub async fn run_client(
    cfg: GatClientConfig,
    on_game: impl FnMut(&GatGame),
) -> Result<GatSummary, String> {
    let agent = agents::build(&cfg.agent, &cfg.params, cfg.seed)?;
    let agent = SearchThread::<GeisterGame>::spawn(agent);
    run_client_with(&cfg, &agent, on_game).await
}

/// [`run_client`] with an agent already running (`cfg.agent`, `params` and
/// `seed` are not used): an agent kept from an earlier session goes on
/// learning.
pub async fn run_client_with(
    cfg: &GatClientConfig,
    agent: &SearchThread<GeisterGame>,
    on_game: impl FnMut(&GatGame),
) -> Result<GatSummary, String> {
    agent.set_ponder(cfg.ponder);
    let mut summary = reconnect::games_of(cfg, agent, on_game).await?;
    summary.pondered = agent.ponder_stats();
    if cfg.ponder {
        summary.pondered.log(agent.agent_name());
    }
    Ok(summary)
}
