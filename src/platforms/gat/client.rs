//! A GAT Geister client: connects to a GAT server, plays one game per
//! connection, and reconnects for the next game. The agent runs on the
//! shared search thread ([`SearchThread`]), as on every other transport, so
//! no search ever blocks a tokio worker.

use std::time::{Duration, Instant};

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

use super::clock::{self, GatPlan};
use super::{show_line, LineReader};
use crate::games::geister::agents;
use crate::games::geister::rules::start_square;
use crate::games::geister::{
    Action, Colour as PieceColour, Dir, GeisterGame, Move, Obs, Place as PiecePlace, Setup, View,
    PIECES,
};
use crate::games::{AgentParams, PlayableGame};
use crate::platforms::gat::codec::{
    format_client, parse_server_line, ClientMsg, Colour, GatBoard, Outcome, Phase, Place, Reds,
    ServerMsg,
};
use crate::records::{EndReason, GameRecord};
use crate::runtime::{abandon_after, wait_for_stop, SearchThread, Stop};
use crate::search::{Deadline, Decision, Limits, Seat};

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

/// How one game ended for us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatGame {
    /// 1-based.
    pub number: u32,
    /// Our seat (0 = moved first), once known from the first board.
    pub seat: Option<usize>,
    /// The server's verdict; `None` if the game broke off (see `error`).
    pub outcome: Option<Outcome>,
    /// The game broke off on the server's side (its connection closed or
    /// reset, a line it sent could not be read, or it went silent): no
    /// verdict, so it counts neither as a win, a draw nor a loss.
    pub aborted: bool,
    /// Moves we sent.
    pub our_moves: u32,
    /// The server refused one of our moves with `NG `.
    pub refused: bool,
    /// Why the game broke off without a verdict; with a verdict, a note on
    /// how it came (in place of our move's acknowledgement).
    pub error: Option<String>,
    /// We left it on a stop (see [`GatClientConfig::stop`]).
    pub abandoned: bool,
    /// How it ended, read off the end board ([`ending_of`]): `escape`,
    /// `blues_captured`, `reds_captured`, `draw`; `None` when the board
    /// shows none of these (a timeout, a disconnection, a refused move).
    pub ending: Option<&'static str>,
    /// Unix milliseconds when the game's connection opened and when it
    /// ended.
    pub started_ms: u64,
    pub finished_ms: u64,
    /// Our setup (the last one sent) and the opponent's, read off the end
    /// board (which shows every colour); `None` where not known.
    pub our_setup: Option<Setup>,
    pub opp_setup: Option<Setup>,
    /// Every move after the setups, both seats' in order, in the mover's
    /// own frame (`"A,N"`, as a GAT server records them): ours as sent,
    /// the opponent's read off the boards the server sent.
    pub moves: Vec<serde_json::Value>,
    /// Milliseconds each of `moves` took on our clock: ours from reading
    /// `MOV?` to sending the answer, the opponent's from sending ours to
    /// reading the next board (the way to the server and back included).
    pub move_ms: Vec<u64>,
    /// With a plan: what the server took off the bank, as we count it
    /// (whole seconds), and what is left of it.
    pub bank_spent: Option<Duration>,
    pub bank_left: Option<Duration>,
}

impl GatGame {
    /// A game not yet played.
    pub fn new(number: u32) -> Self {
        GatGame {
            number,
            seat: None,
            outcome: None,
            aborted: false,
            our_moves: 0,
            refused: false,
            error: None,
            abandoned: false,
            ending: None,
            started_ms: crate::records::now_ms(),
            finished_ms: 0,
            our_setup: None,
            opp_setup: None,
            moves: Vec::new(),
            move_ms: Vec::new(),
            bank_spent: None,
            bank_left: None,
        }
    }

    /// Our moves' times, in milliseconds.
    pub fn our_move_ms(&self) -> impl Iterator<Item = u64> + '_ {
        // Seat 0 moves on even plies.
        let first = self.seat.unwrap_or(0);
        self.move_ms.iter().skip(first).step_by(2).copied()
    }

    /// Our record of the game, as every platform's: the start (the setup
    /// phase), the two setups in seat order (the opponent's `null` when the
    /// game ended before its end board showed it) and every move with its
    /// time ([`GatGame::moves`], [`GatGame::move_ms`]; the setups 0 ms, as
    /// in `serve-gat`'s records). The protocol names no players: ours is
    /// `our_name`, the other `gat-opponent`. `session` makes the id unique.
    pub fn record(&self, our_name: &str, session: u64) -> GameRecord {
        let seat = self.seat.unwrap_or(0).min(1);
        let mut players = ["gat-opponent".to_string(), "gat-opponent".to_string()];
        players[seat] = our_name.to_string();
        let winner = match self.outcome {
            Some(Outcome::Won) => Some(seat),
            Some(Outcome::Draw) => None,
            // Broken off by the server: no result.
            None if self.aborted => None,
            // A loss, or a game we broke off (the server scores it as ours lost).
            _ => Some(1 - seat),
        };
        let (reason, detail) = match (&self.outcome, &self.error) {
            // The detail notes a verdict that came before our move's
            // acknowledgement.
            (Some(_), e) => (EndReason::Rules, e.clone()),
            (None, e) if self.aborted => (EndReason::Aborted, e.clone()),
            (None, e) => (EndReason::Disconnect, e.clone()),
        };
        let (start, moves, move_ms) = match self.seat {
            Some(seat) => {
                let json = |s: Option<Setup>| {
                    s.map_or(serde_json::Value::Null, |s| {
                        GeisterGame::move_to_json(Action::Setup(s))
                    })
                };
                let mut setups = [json(self.our_setup), json(self.opp_setup)];
                if seat == 1 {
                    setups.swap(0, 1);
                }
                let moves = setups.into_iter().chain(self.moves.iter().cloned());
                let ms = [0, 0].into_iter().chain(self.move_ms.iter().copied());
                (
                    GeisterGame::Setup.state_to_json(),
                    moves.collect(),
                    ms.collect(),
                )
            }
            // No board yet: no game to replay.
            None => (serde_json::Value::Null, Vec::new(), Vec::new()),
        };
        GameRecord {
            game: "geister".into(),
            id: format!("gat-{session:x}-{}", self.number),
            players,
            winner,
            result: if self.aborted {
                GameRecord::ABORTED.into()
            } else {
                GameRecord::result_string(winner).into()
            },
            reason,
            detail: detail.or_else(|| Some(format!("{} moves of ours", self.our_moves))),
            start,
            moves,
            move_ms,
            opening: None,
            ending: self.ending.map(str::to_string),
            started_ms: self.started_ms,
            finished_ms: self.finished_ms,
            match_tag: None,
            analysis: None,
        }
    }

    /// One line for the console, starting `game `.
    pub fn describe(&self) -> String {
        let seat = self.seat.map_or("?".to_string(), |s| s.to_string());
        let result = match (self.outcome, &self.error) {
            (Some(Outcome::Won), _) => "win".to_string(),
            (Some(Outcome::Lost), _) => "loss".to_string(),
            (Some(Outcome::Draw), _) => "draw".to_string(),
            (None, Some(e)) if self.aborted => format!("aborted (error: {e})"),
            (None, Some(e)) => format!("loss (error: {e})"),
            (None, None) => "loss (no result)".to_string(),
        };
        let by = match self.ending {
            Some("draw") => " by the ply limit".to_string(),
            Some(e) => format!(" by {e}"),
            None => String::new(),
        };
        let mut s = format!(
            "game {}: seat {seat}: {result}{by} after {} of our moves",
            self.number, self.our_moves
        );
        if self.refused {
            s.push_str(" (our move was refused)");
        }
        s
    }
}

/// Totals of a client run. A game we broke off (our error or a stop) counts
/// as a loss, as the server scores it; one the server broke off is counted
/// apart, in `aborted` only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GatSummary {
    /// Games with a result (aborted ones not included).
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games left on a stop (counted as losses too).
    pub abandoned: u32,
    /// The run ended early because a stop was asked for.
    pub stopped: bool,
    /// Games the server broke off (see [`GatGame::aborted`]).
    pub aborted: u32,
    /// The run ended early: the server could not be reached again for the
    /// next game (why).
    pub server_lost: Option<String>,
    /// What thinking on the opponent's time did, over the agent's life
    /// (`ponder`).
    pub pondered: crate::runtime::PonderStats,
}

impl GatSummary {
    /// Counts one more game.
    pub fn add(&mut self, g: &GatGame) {
        if g.aborted {
            self.aborted += 1;
            return;
        }
        self.games += 1;
        self.abandoned += u32::from(g.abandoned);
        match g.outcome {
            Some(Outcome::Won) => self.wins += 1,
            Some(Outcome::Draw) => self.draws += 1,
            _ => self.losses += 1,
        }
    }
    /// Wins plus half the draws, per game.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }
}

/// Asks the search thread for the agent's setup.
async fn setup(search: &SearchThread<GeisterGame>) -> Result<Setup, String> {
    // No clock on the setup: the agents answer at once.
    match search.search(Obs::Setup, Limits::playouts(1)).await {
        Ok(Decision {
            mv: Action::Setup(s),
            ..
        }) => Ok(s),
        Ok(d) => Err(format!("the agent answered the setup with {:?}", d.mv)),
        Err(e) => Err(e.to_string()),
    }
}

/// The agent's move, or `None` if it failed or overran `limit` (then the
/// search is stopped).
async fn choose(
    search: &SearchThread<GeisterGame>,
    view: View,
    limits: Limits,
    limit: Duration,
) -> Option<Move> {
    let handle = search.submit(Obs::Play(view), limits);
    match tokio::time::timeout(limit, handle).await {
        Ok(Ok(Decision {
            mv: Action::Move(m),
            ..
        })) => Some(m),
        Ok(_) => None,
        Err(_) => {
            search.cancel();
            None
        }
    }
}

/// Connects, retrying with a short backoff for up to `window`.
///
/// Each retry is a warning, or with `quiet` (our own server, whose ports
/// are closed between games) a debug line.
pub async fn connect_retrying(
    addr: &str,
    attempt_timeout: Duration,
    window: Duration,
    quiet: bool,
) -> Result<TcpStream, String> {
    let start = Instant::now();
    let mut backoff = Duration::from_millis(50);
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let last = match tokio::time::timeout(attempt_timeout, TcpStream::connect(addr)).await {
            Ok(Ok(s)) => return Ok(s),
            Ok(Err(e)) => e.to_string(),
            Err(_) => "connection attempt timed out".to_string(),
        };
        if start.elapsed() >= window {
            return Err(format!(
                "cannot connect to {addr}: {last} (retried for {:.1} s)",
                start.elapsed().as_secs_f64()
            ));
        }
        // Each retry is told (a client silent for the whole window looks hung).
        let giving_up_in_s = format!(
            "{:.1}",
            window.saturating_sub(start.elapsed()).as_secs_f64()
        );
        let retry_in_ms = backoff.as_millis() as u64;
        if quiet {
            tracing::debug!(%addr, error = %last, attempt, retry_in_ms, giving_up_in_s, "cannot connect to the GAT server; retrying");
        } else {
            tracing::warn!(%addr, error = %last, attempt, retry_in_ms, giving_up_in_s, "cannot connect to the GAT server; retrying");
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(1));
    }
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
    let mut summary = games_of(cfg, agent, on_game).await?;
    summary.pondered = agent.ponder_stats();
    if cfg.ponder {
        summary.pondered.log(agent.agent_name());
    }
    Ok(summary)
}

/// The games of a run, one connection each.
async fn games_of(
    cfg: &GatClientConfig,
    agent: &SearchThread<GeisterGame>,
    mut on_game: impl FnMut(&GatGame),
) -> Result<GatSummary, String> {
    let budget = MoveBudget::of(cfg);
    if let (Some(plan), 1) = (cfg.plan, cfg.first_game) {
        log_plan(&plan, budget.margin);
    }
    let mut summary = GatSummary::default();
    let first = cfg.first_game.max(1);
    for number in first..first.saturating_add(cfg.games) {
        if stop_asked(cfg) {
            summary.stopped = true;
            break;
        }
        let (mut game, played) =
            match connect_and_play(cfg, agent, budget, number, number == first).await {
                Ok(g) => g,
                Err(SessionEnd::Stopped) => {
                    summary.stopped = true;
                    return Ok(summary);
                }
                Err(SessionEnd::ServerLost(e)) => {
                    summary.server_lost = Some(e);
                    return Ok(summary);
                }
                Err(SessionEnd::Unreachable(e)) => return Err(e),
            };
        if let Err(e) = played {
            tracing::error!(game = number, error = %e, aborted = game.aborted, "game broke off");
            eprintln!("game {number}: error: {e}");
            game.error = Some(e);
        }
        game.finished_ms = crate::records::now_ms();
        log_spent(&game);
        summary.add(&game);
        on_game(&game);
        if game.abandoned || stop_asked(cfg) {
            summary.stopped = true;
            break;
        }
    }
    Ok(summary)
}

/// Whether a stop has been asked for.
fn stop_asked(cfg: &GatClientConfig) -> bool {
    cfg.stop.as_ref().is_some_and(|s| *s.borrow() != Stop::Run)
}

/// Why a session ends before its games are all played (other than by a
/// game's own end).
enum SessionEnd {
    /// A stop was asked for between connections.
    Stopped,
    /// The server could not be reached again for a later game (why).
    ServerLost(String),
    /// The server could not be reached for the session's first game.
    Unreachable(String),
}

/// Game `number` (the session's first with `first`): connects and plays it.
/// A connection the server closes before its first line is no game (a
/// server busy with another game refuses extra connections so): we
/// reconnect, within the same window as for connecting. The game, with why
/// it broke off if it did.
async fn connect_and_play(
    cfg: &GatClientConfig,
    agent: &SearchThread<GeisterGame>,
    budget: MoveBudget,
    number: u32,
    first: bool,
) -> Result<(GatGame, Result<(), String>), SessionEnd> {
    let window_start = Instant::now();
    loop {
        // A stop asked for while we were between connections: no new
        // connection (one the server seated would lose its game).
        if stop_asked(cfg) {
            return Err(SessionEnd::Stopped);
        }
        let window = cfg.reconnect_window.saturating_sub(window_start.elapsed());
        let stream = match connect_unless_stopped(cfg, window).await {
            None => return Err(SessionEnd::Stopped),
            Some(Ok(s)) => s,
            // Not a single game yet: the server is not there.
            Some(Err(e)) if first => return Err(SessionEnd::Unreachable(e)),
            Some(Err(e)) => {
                tracing::error!(game = number, error = %e, "the server is gone");
                return Err(SessionEnd::ServerLost(e));
            }
        };
        let (mut game, played) = play_connected(cfg, agent, budget, stream, number).await;
        match played {
            Err(Broke::NoGame(e)) => {
                if cfg.own_server {
                    tracing::debug!(game = number, error = %e, "the server closed the connection before the game began; reconnecting");
                } else {
                    tracing::warn!(game = number, error = %e, "the server closed the connection before the game began; reconnecting");
                }
                if window_start.elapsed() >= cfg.reconnect_window {
                    let e = format!(
                        "{e} (retried for {:.1} s)",
                        window_start.elapsed().as_secs_f64()
                    );
                    return Err(if first {
                        SessionEnd::Unreachable(e)
                    } else {
                        SessionEnd::ServerLost(e)
                    });
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(Broke::Server(e)) => {
                game.aborted = true;
                return Ok((game, Err(e)));
            }
            Err(Broke::Ours(e)) => return Ok((game, Err(e))),
            Ok(()) => return Ok((game, Ok(()))),
        }
    }
}

/// Connects within `window`; `None` if a stop comes first.
async fn connect_unless_stopped(
    cfg: &GatClientConfig,
    window: Duration,
) -> Option<Result<TcpStream, String>> {
    let mut stop = cfg.stop.clone();
    // A connection made is used even if a stop came meanwhile: the server
    // may have seated it already, and dropping it would lose that game
    // (the stop then ends the session after it).
    tokio::select! {
        biased;
        s = connect_retrying(&cfg.addr, cfg.connect_timeout, window, cfg.own_server) => Some(s),
        _ = wait_for_stop(&mut stop, Stop::Finish) => None,
    }
}

/// Plays game `number` on `stream`, leaving it on a stop
/// ([`GatClientConfig::stop`]).
async fn play_connected(
    cfg: &GatClientConfig,
    agent: &SearchThread<GeisterGame>,
    budget: MoveBudget,
    stream: TcpStream,
    number: u32,
) -> (GatGame, Result<(), Broke>) {
    let _ = stream.set_nodelay(true);
    agent.new_game();
    let mut game = GatGame::new(number);
    let played = tokio::select! {
        r = play_game(stream, agent, budget, cfg.min_answer, &mut game) => r,
        _ = abandon_after(cfg.stop.clone(), cfg.stop_grace) => {
            // Dropping the game closes its connection: the server
            // scores it as lost by disconnect.
            agent.cancel();
            game.abandoned = true;
            Err(Broke::Ours("abandoned: stop asked for".to_string()))
        }
    };
    // The game is over (or its connection gone): nothing to ponder for.
    agent.stop_pondering();
    (game, played)
}

/// Logs a time plan at the start of a session: what a move gets (info),
/// and a warning when the bank cannot be spent in whole seconds (every move
/// then takes its free second only, as without a plan).
pub fn log_plan(plan: &GatPlan, margin: Duration) {
    let s = plan.summary(margin);
    tracing::info!(
        bank_s = s.bank_s,
        free_second_ms = 1_000,
        margin_ms = margin.as_millis() as u64,
        first_move_ms = s.first_move.as_millis() as u64,
        extra_s_first_move = s.first_extra_s,
        extra_s_turning_move = s.turning_extra_s,
        turning_plies = format!("{}-{}", plan.turning.0, plan.turning.1),
        expected_moves = plan.expected_moves,
        "GAT time plan: each move its free second less the margin, plus whole seconds of the bank"
    );
    if !s.spends_the_bank() {
        tracing::warn!(
            bank_s = s.bank_s,
            first_move_ms = s.first_move.as_millis() as u64,
            least_bank_s = s.min_bank_s,
            "the bank cannot be spent in whole seconds: shared over {} moves it gives no move a whole second, so every move takes its free second only (the server charges whole seconds); a bank of at least {} s would be spent",
            plan.expected_moves,
            s.min_bank_s
        );
    }
}

/// Logs what a game took: with a plan, what the server charged the bank
/// (info); without, at debug level.
fn log_spent(g: &GatGame) {
    let ours: Vec<u64> = g.our_move_ms().collect();
    let think_ms: u64 = ours.iter().sum();
    let longest_ms = ours.iter().copied().max().unwrap_or(0);
    match (g.bank_spent, g.bank_left) {
        (Some(spent), Some(left)) => tracing::info!(
            game = g.number,
            our_moves = g.our_moves,
            bank_spent_s = spent.as_secs(),
            bank_left_s = left.as_secs(),
            think_ms,
            longest_ms,
            "GAT time spent"
        ),
        _ => tracing::debug!(
            game = g.number,
            our_moves = g.our_moves,
            think_ms,
            longest_ms,
            "GAT time spent"
        ),
    }
}

/// What every move may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
struct MoveBudget {
    time: Duration,
    playouts: Option<u64>,
    margin: Duration,
    plan: Option<GatPlan>,
}

impl MoveBudget {
    fn of(cfg: &GatClientConfig) -> Self {
        let ms = cfg.time_ms.unwrap_or(if cfg.playouts.is_some() {
            MAX_TIME_MS
        } else {
            DEFAULT_TIME_MS
        });
        MoveBudget {
            time: Duration::from_millis(ms.clamp(1, MAX_TIME_MS)),
            playouts: cfg.playouts,
            margin: Duration::from_millis(cfg.margin_ms),
            plan: cfg.plan,
        }
    }

    /// The limits of a move whose clock started at `start`: with a plan,
    /// the move `our_moves` (from 0) at `ply` with `left` of the bank.
    fn limits(&self, start: Instant, left: Duration, our_moves: u32, ply: u32) -> Limits {
        let deadline = match self.plan {
            Some(p) => Deadline::per_move(
                start,
                p.move_time(left, our_moves, ply, self.margin),
                Duration::ZERO,
            ),
            None => Deadline::per_move(start, self.time, self.margin),
        };
        Limits {
            playouts: self.playouts,
            deadline: Some(deadline),
        }
    }

    /// The most a move may take before the fallback is played.
    fn most(&self) -> Duration {
        match self.plan {
            Some(_) => GatPlan::CAP,
            None => self.time,
        }
    }
}

/// The time the server is taken to add to a move we measured, for
/// counting what it charges the bank ([`clock::charge`]).
const CHARGE_SLACK: Duration = Duration::from_millis(20);

/// Which of a setup's pieces are red, for `SET:`.
fn reds_of(setup: Setup) -> Result<Reds, String> {
    let mut reds = [false; PIECES];
    for (i, r) in reds.iter_mut().enumerate() {
        *r = setup.is_red(i as u8);
    }
    Reds::new(reds).map_err(|e| format!("the agent's setup is invalid: {}", e.0))
}

/// Whether the opponent's pieces all stand on their start squares.
fn opponent_unmoved(board: &GatBoard) -> bool {
    let start = GatBoard::initial(Reds::from_letters("ABCD").expect("four letters"));
    (0..PIECES).all(|i| board.opponent(i).place == start.opponent(i).place)
}

/// Our view of the end board (the opponent's colours shown) as seat
/// `seat` after `our_moves` moves; `None` if the board does not read as a
/// position.
fn end_view(board: &GatBoard, seat: Seat, our_moves: u32) -> Option<View> {
    let mut view = View::from_gat(&board.to_string()).ok()?;
    view.set_context(seat, 2 * our_moves + seat as u32, false);
    Some(view)
}

/// How a game ended, from its verdict and the end board (every colour
/// shown): an escape (a piece out through an exit, `88`), four blues
/// captured, four reds captured, or a draw; `None` when the board shows
/// none of these (the game ended by a timeout, a disconnection or a
/// refused move).
pub fn ending_of(outcome: Outcome, board: &GatBoard) -> Option<&'static str> {
    let count = |opp: bool, want: fn(Place, Colour) -> bool| {
        (0..PIECES)
            .map(|i| if opp { board.opponent(i) } else { board.own(i) })
            .filter(|p| want(p.place, p.colour))
            .count()
    };
    let escaped = |p: Place, _| p == Place::Escaped;
    let blue_taken = |p: Place, c| p == Place::Captured && c == Colour::Blue;
    let red_taken = |p: Place, c| p == Place::Captured && c == Colour::Red;
    // (winner is the opponent?) for a win or a loss.
    let opp_won = match outcome {
        Outcome::Draw => return Some("draw"),
        Outcome::Won => false,
        Outcome::Lost => true,
    };
    let (winner, loser) = (opp_won, !opp_won);
    if count(winner, escaped) > 0 {
        Some("escape")
    } else if count(loser, blue_taken) >= 4 {
        Some("blues_captured")
    } else if count(winner, red_taken) >= 4 {
        Some("reds_captured")
    } else {
        None
    }
}

/// The opponent's pieces on their start squares, in our frame.
fn start_places() -> [PiecePlace; PIECES] {
    std::array::from_fn(|i| PiecePlace::At(start_square(i as u8).rotated()))
}

/// The opponent's move between two boards, from where its pieces stood
/// (`before`, `after`: in our frame), in its own frame, as it sent it: the
/// one piece that moved on the board or left it through an exit (a piece
/// we captured only leaves the board). `None` when none moved.
pub fn opponent_move(before: &[PiecePlace; PIECES], after: &[PiecePlace; PIECES]) -> Option<Move> {
    (0..PIECES).find_map(|i| {
        let PiecePlace::At(from) = before[i] else {
            return None;
        };
        let dir = match after[i] {
            // Our frame is the opponent's turned round: its (dx, dy) is
            // ours negated.
            PiecePlace::At(to) if to != from => {
                let d = (from.x() as i8 - to.x() as i8, from.y() as i8 - to.y() as i8);
                Dir::ALL.into_iter().find(|dir| dir.delta() == d)?
            }
            // Its exits are the corners of our home row, which it leaves
            // to its north.
            PiecePlace::Escaped => Dir::N,
            _ => return None,
        };
        Some(Move::new(i as u8, dir))
    })
}

/// The opponent's setup, when the view shows the colour of every piece of
/// its (as the end board does).
fn opponent_setup(view: &View) -> Option<Setup> {
    let mut reds = [false; PIECES];
    for (i, r) in reds.iter_mut().enumerate() {
        *r = view.opp_colour(i as u8)? == PieceColour::Red;
    }
    Setup::from_reds(reds).ok()
}

/// Why a game broke off.
enum Broke {
    /// The connection closed before the server's first line: no game.
    NoGame(String),
    /// The server's side: closed, unreadable, silent, out of protocol.
    Server(String),
    /// Ours: the agent failed, every SET refused, a stop.
    Ours(String),
}

/// One game on one connection; fills `game` as it goes.
async fn play_game(
    stream: TcpStream,
    agent: &SearchThread<GeisterGame>,
    budget: MoveBudget,
    cfg_min_answer: Duration,
    game: &mut GatGame,
) -> Result<(), Broke> {
    GameSession::new(stream, agent, budget, cfg_min_answer, game)
        .run()
        .await
}

/// What the connection gave us next.
enum Event {
    /// A whole line from the server.
    Line(String),
    /// Nothing for [`IDLE_TIMEOUT`].
    Idle,
    /// The server closed the connection.
    Closed,
    /// The line could not be read.
    ReadError(std::io::Error),
}

/// What a handler asks of the loop.
enum Step {
    /// Send this and wait for the next line.
    Reply(ClientMsg),
    /// Nothing to send: wait for the next line.
    Wait,
    /// The game is over.
    Over,
}

/// One game on one connection: its state between the server's lines, and
/// one handler per event and message. [`GameSession::run`] reads an event,
/// hands it to its handler and sends what the handler answers.
struct GameSession<'a> {
    rd: LineReader<BufReader<OwnedReadHalf>>,
    wr: OwnedWriteHalf,
    agent: &'a SearchThread<GeisterGame>,
    budget: MoveBudget,
    /// No answer leaves sooner than this after its `MOV?`.
    min_answer: Duration,
    game: &'a mut GatGame,
    phase: Phase,
    set_retries: u32,
    /// What is left of our bank this game (a plan's bank; the server's may
    /// be larger).
    left: Duration,
    /// When the `MOV?` being answered was read.
    asked_at: Option<Instant>,
    /// The opponent's pieces as last seen (in our frame), and when our last
    /// line went out: the opponent's moves are read off the boards.
    opp_seen: [PiecePlace; PIECES],
    sent_at: Option<Instant>,
}

impl<'a> GameSession<'a> {
    fn new(
        stream: TcpStream,
        agent: &'a SearchThread<GeisterGame>,
        budget: MoveBudget,
        min_answer: Duration,
        game: &'a mut GatGame,
    ) -> Self {
        let (rd, wr) = stream.into_split();
        let left = budget.plan.map_or(Duration::ZERO, |p| p.bank);
        if let Some(p) = budget.plan {
            game.bank_spent = Some(Duration::ZERO);
            game.bank_left = Some(p.bank);
        }
        GameSession {
            rd: LineReader::new(BufReader::new(rd)),
            wr,
            agent,
            budget,
            min_answer,
            game,
            phase: Phase::Connected,
            set_retries: 0,
            left,
            asked_at: None,
            opp_seen: start_places(),
            sent_at: None,
        }
    }

    /// Plays the game out: `Ok` once the server has given its verdict.
    async fn run(mut self) -> Result<(), Broke> {
        loop {
            let step = match self.next_event().await {
                Event::Line(line) => self.on_line(&line).await?,
                Event::Idle => return Err(self.on_idle()),
                Event::Closed => return Err(self.on_closed()),
                Event::ReadError(e) => return Err(self.on_read_error(e)),
            };
            match step {
                Step::Reply(m) => self.send(m).await?,
                Step::Wait => {}
                Step::Over => return Ok(()),
            }
        }
    }

    /// The next line, or why there is none.
    async fn next_event(&mut self) -> Event {
        match tokio::time::timeout(IDLE_TIMEOUT, self.rd.next_line()).await {
            Err(_) => Event::Idle,
            Ok(Ok(None)) => Event::Closed,
            Ok(Err(e)) => Event::ReadError(e),
            Ok(Ok(Some(l))) => Event::Line(l),
        }
    }

    /// The server went silent.
    fn on_idle(&self) -> Broke {
        Broke::Server(format!(
            "the server sent nothing for {} s",
            IDLE_TIMEOUT.as_secs()
        ))
    }

    /// The server closed the connection: before its first line, no game.
    fn on_closed(&self) -> Broke {
        if self.phase == Phase::Connected {
            return Broke::NoGame("the server closed the connection".into());
        }
        Broke::Server(format!(
            "the server closed the connection ({:?})",
            self.phase
        ))
    }

    /// A line could not be read: a connection dropped before the server's
    /// first line is no game.
    fn on_read_error(&self, e: std::io::Error) -> Broke {
        if self.phase == Phase::Connected
            && matches!(
                e.kind(),
                std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::UnexpectedEof
            )
        {
            return Broke::NoGame(format!("reading from the server: {e}"));
        }
        tracing::warn!(error = %e, "cannot read the server's line");
        Broke::Server(format!("reading from the server: {e}"))
    }

    /// A line from the server: parsed, checked against the phase, and
    /// handed to its message's handler.
    async fn on_line(&mut self, line: &str) -> Result<Step, Broke> {
        let msg = parse_server_line(line).map_err(|e| {
            tracing::warn!(line = %show_line(line), error = %e.0, "a bad line from the server");
            Broke::Server(format!(
                "bad line from the server '{}': {}",
                show_line(line),
                e.0
            ))
        })?;
        let unacknowledged = self.phase == Phase::MoveSent;
        self.phase = self.phase.on_server(&msg).map_err(|e| Broke::Server(e.0))?;
        if let (ServerMsg::End(..), true) = (&msg, unacknowledged) {
            self.unplayed_move();
        }
        if let ServerMsg::MoveQuestion(board) | ServerMsg::End(_, board) = &msg {
            self.note_opponent_move(board);
        }
        match msg {
            ServerMsg::SetQuestion => self.on_set_question().await,
            ServerMsg::Ng => self.on_ng().await,
            ServerMsg::Ok | ServerMsg::OkCaptured(_) => Ok(self.on_ok()),
            ServerMsg::MoveQuestion(board) => self.on_move_question(board).await,
            ServerMsg::End(o, board) => Ok(self.on_end(o, board)),
        }
    }

    /// The verdict came in place of the acknowledgement of our last move:
    /// the game had ended on the server's side before it (its timer or the
    /// other player's connection), so the move was never played; it leaves
    /// the record (which then replays to the end board), and the detail
    /// says so.
    fn unplayed_move(&mut self) {
        let mv = self.game.moves.pop();
        self.game.move_ms.pop();
        self.game.our_moves = self.game.our_moves.saturating_sub(1);
        tracing::warn!(?mv, "the server's verdict came before it acknowledged our move: the game had already ended on its side");
        self.game.error = Some(format!(
            "the server's verdict came in place of the acknowledgement of our move {} ({}): the game had ended on its side before it",
            self.game.our_moves + 1,
            mv.map_or_else(|| "?".to_string(), |m| m.to_string())
        ));
    }

    /// Records the opponent's move read off a board (the one piece of its
    /// that moved since the last board), timed from our last line.
    fn note_opponent_move(&mut self, board: &GatBoard) {
        if let Ok(v) = View::from_gat(&board.to_string()) {
            let now = *v.opp_places();
            if let Some(m) = opponent_move(&self.opp_seen, &now) {
                self.game
                    .moves
                    .push(GeisterGame::move_to_json(Action::Move(m)));
                self.game
                    .move_ms
                    .push(self.sent_at.map_or(0, |t| t.elapsed().as_millis() as u64));
            }
            self.opp_seen = now;
        }
    }

    /// `SET?`: the agent's setup.
    async fn on_set_question(&mut self) -> Result<Step, Broke> {
        self.set_reply().await
    }

    /// `NG`: to our `SET:` (the phase is back to setting), or to our move.
    async fn on_ng(&mut self) -> Result<Step, Broke> {
        if self.phase == Phase::MustSet {
            self.on_set_refused().await
        } else {
            Ok(self.on_move_refused())
        }
    }

    /// `NG` to our `SET:`: another setup, a few times at most.
    async fn on_set_refused(&mut self) -> Result<Step, Broke> {
        self.set_retries += 1;
        if self.set_retries > MAX_SET_RETRIES {
            return Err(Broke::Ours("the server refused every SET".into()));
        }
        tracing::warn!("the server refused our SET; trying another setup");
        self.set_reply().await
    }

    /// A setup from the agent, as `SET:`.
    async fn set_reply(&mut self) -> Result<Step, Broke> {
        let s = setup(self.agent).await.map_err(Broke::Ours)?;
        self.game.our_setup = Some(s);
        Ok(Step::Reply(ClientMsg::Set(
            reds_of(s).map_err(Broke::Ours)?,
        )))
    }

    /// `NG` to our move: noted; the server ends the game.
    fn on_move_refused(&mut self) -> Step {
        tracing::warn!("the server refused our move");
        self.game.refused = true;
        Step::Wait
    }

    /// `OK` (or `OK` with a capture) to our line: nothing to answer.
    fn on_ok(&self) -> Step {
        Step::Wait
    }

    /// `MOV?`: the board becomes a search submitted to the agent, under
    /// this move's limits (hook: where a request becomes a search). The
    /// answer is its move, or a fallback when it gives none in time, held
    /// back until [`GameSession::min_answer`] after the question.
    async fn on_move_question(&mut self, board: GatBoard) -> Result<Step, Broke> {
        let start = Instant::now();
        self.asked_at = Some(start);
        let seat = *self
            .game
            .seat
            .get_or_insert(if opponent_unmoved(&board) { 0 } else { 1 });
        let mut view = View::from_gat(&board.to_string())
            .map_err(|e| Broke::Server(format!("inconsistent board from the server: {e}")))?;
        view.set_context(seat, 2 * self.game.our_moves + seat as u32, true);
        let legal = view.legal_moves();
        let Some(&fallback) = legal.first() else {
            return Err(Broke::Server("no legal move on the server's board".into()));
        };
        let ply = 2 * self.game.our_moves + seat as u32;
        let limits = self
            .budget
            .limits(start, self.left, self.game.our_moves, ply);
        let most = self.budget.most() + Duration::from_millis(500);
        let mv = match choose(self.agent, view, limits, most).await {
            Some(m) if view.is_legal(m) => m,
            other => {
                tracing::warn!(
                    ?other,
                    "the agent gave no legal move in time; playing a fallback"
                );
                fallback
            }
        };
        self.game.our_moves += 1;
        if let Some(wait) = self.min_answer.checked_sub(start.elapsed()) {
            tokio::time::sleep(wait).await;
        }
        Ok(Step::Reply(ClientMsg::Move {
            piece: mv.piece,
            dir: mv.dir,
        }))
    }

    /// The verdict: the game is over. The end board shows the opponent's
    /// true colours: agents that learn from game to game see them.
    fn on_end(&mut self, o: Outcome, board: GatBoard) -> Step {
        self.game.outcome = Some(o);
        self.game.ending = ending_of(o, &board);
        if let Some(view) = self
            .game
            .seat
            .and_then(|s| end_view(&board, s, self.game.our_moves))
        {
            self.game.opp_setup = opponent_setup(&view);
            self.agent.game_over(Obs::Play(view));
        }
        Step::Over
    }

    /// Writes `m` to the server; a move is then booked
    /// ([`GameSession::on_move_sent`]).
    async fn send(&mut self, m: ClientMsg) -> Result<(), Broke> {
        self.phase = self.phase.on_client(&m).map_err(|e| Broke::Ours(e.0))?;
        self.wr
            .write_all(format_client(&m).as_bytes())
            .await
            .map_err(|e| Broke::Server(format!("writing to the server: {e}")))?;
        self.sent_at = Some(Instant::now());
        if let ClientMsg::Move { piece, dir } = m {
            self.on_move_sent(Move::new(piece, dir));
        }
        Ok(())
    }

    /// Our move has been written to the server (hook: the search is free
    /// until the next `MOV?`): its time is booked ([`GameSession::book_move`]).
    fn on_move_sent(&mut self, mv: Move) {
        if let Some(start) = self.asked_at.take() {
            self.book_move(mv, start.elapsed());
        }
    }

    /// Records our move `mv`, which took `took` from its `MOV?` to its
    /// answer, and counts what the server charges the bank for it.
    fn book_move(&mut self, mv: Move, took: Duration) {
        let charged = clock::charge(took, CHARGE_SLACK).min(self.left);
        self.left -= charged;
        if let (Some(spent), Some(_)) = (self.game.bank_spent.as_mut(), self.budget.plan) {
            *spent += charged;
            self.game.bank_left = Some(self.left);
        }
        self.game
            .moves
            .push(GeisterGame::move_to_json(Action::Move(mv)));
        self.game.move_ms.push(took.as_millis() as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// End boards as the real server sends them (every colour shown; own
    /// pieces A..H first, upper case on the board).
    #[test]
    fn the_ending_is_read_off_the_end_board() {
        let b = |s: &str| GatBoard::parse(s).unwrap();
        // Our A escaped (88); the rest where they started.
        let escape = b("88b24R34R44R15B25B35B45B41r31r21r11r40b30b20b10b");
        assert_eq!(ending_of(Outcome::Won, &escape), Some("escape"));
        // Their four blues captured (99).
        let blues = b("14B24R34R44R15B25B35B45B41r31r21r11r99b99b99b99b");
        assert_eq!(ending_of(Outcome::Won, &blues), Some("blues_captured"));
        // We took their four reds: they win.
        let reds = b("14B24R34R44R15B25B35B45B99r99r99r99r40b30b20b10b");
        assert_eq!(ending_of(Outcome::Lost, &reds), Some("reds_captured"));
        // Our four blues lost: they win by blues.
        let ours = b("99b24R34R44R99b99b99b45R41r31r21r11r40b30b20b10b");
        assert_eq!(ending_of(Outcome::Lost, &ours), Some("blues_captured"));
        // They escaped.
        let theirs = b("14B24R34R44R15B25B35B45B41r31r21r11r88b30b20b10b");
        assert_eq!(ending_of(Outcome::Lost, &theirs), Some("escape"));
        assert_eq!(ending_of(Outcome::Draw, &escape), Some("draw"));
        // Nothing on the board explains the verdict: a timeout or the like.
        let start = b("14B24R34R44R15B25B35B45B41r31r21r11r40b30b20b10b");
        assert_eq!(ending_of(Outcome::Won, &start), None);
    }

    #[test]
    fn the_opponents_moves_are_read_off_the_boards_in_its_own_frame() {
        use crate::games::geister::Geister;
        // Random games, watched from each seat: the move read off the
        // opponent's pieces before and after is the move it played (an
        // escape: the piece, leaving north, which is what it played or an
        // equivalent exit move).
        let mut escapes = 0;
        for seed in 0..60u64 {
            let setups = [
                Setup::from_letters("ABCD").unwrap(),
                Setup::from_letters("BDEG").unwrap(),
            ];
            let mut g = Geister::new(setups);
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut first = true;
            while g.outcome().is_none() {
                let mover = g.to_move();
                let watcher = 1 - mover;
                let before = if first && watcher == 1 {
                    // Seat 1 sees seat 0's pieces on their start squares.
                    start_places()
                } else {
                    *g.view(watcher).opp_places()
                };
                assert_eq!(before, *g.view(watcher).opp_places());
                let legal = g.legal_moves();
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Prefer escapes, to see some.
                let mv = legal
                    .iter()
                    .copied()
                    .find(|&m| {
                        let mut t = g;
                        t.play(m).escaped
                    })
                    .unwrap_or(legal[(state % legal.len() as u64) as usize]);
                let escaped = g.play(mv).escaped;
                let after = *g.view(watcher).opp_places();
                let read = opponent_move(&before, &after).expect("a move");
                if escaped {
                    escapes += 1;
                    assert_eq!((read.piece, read.dir), (mv.piece, Dir::N));
                } else {
                    assert_eq!(read, mv);
                }
                first = false;
            }
        }
        assert!(escapes > 0);
        // Nothing moved (a piece captured only leaves the board): none.
        let mut after = start_places();
        assert_eq!(opponent_move(&start_places(), &after), None);
        after[3] = PiecePlace::Captured;
        assert_eq!(opponent_move(&start_places(), &after), None);
    }

    fn cfg(time_ms: Option<u64>, playouts: Option<u64>) -> GatClientConfig {
        GatClientConfig {
            addr: "127.0.0.1:10000".into(),
            agent: "random".into(),
            params: AgentParams::new(),
            time_ms,
            playouts,
            margin_ms: 20,
            plan: None,
            min_answer: Duration::ZERO,
            games: 1,
            seed: 1,
            connect_timeout: Duration::from_secs(1),
            reconnect_window: Duration::from_secs(1),
            stop: None,
            stop_grace: Duration::from_secs(10),
            first_game: 1,
            own_server: false,
            ponder: false,
        }
    }

    #[test]
    fn the_end_board_shows_the_opponents_colours() {
        // Recorded from the real server (protocol/gat-geister/transcripts,
        // game 1, the second port's last line).
        let line = "LST:14R99b99b44R99b25R99b45R53b21r99b02b32b40r20r10r";
        let ServerMsg::End(Outcome::Lost, board) = parse_server_line(line).unwrap() else {
            panic!("an end line")
        };
        let v = end_view(&board, 1, 20).unwrap();
        assert_eq!(v.seat(), 1);
        for p in 0..PIECES as u8 {
            assert!(v.opp_colour(p).is_some(), "piece {p}");
        }
        assert_eq!(v.opp_colour(1), Some(crate::games::geister::Colour::Red));
    }

    #[test]
    fn move_budgets_follow_time_and_playouts_under_the_servers_timeout() {
        let ms = |b: MoveBudget| b.time.as_millis() as u64;
        assert_eq!(ms(MoveBudget::of(&cfg(None, None))), DEFAULT_TIME_MS);
        assert_eq!(ms(MoveBudget::of(&cfg(Some(50), None))), 50);
        assert_eq!(ms(MoveBudget::of(&cfg(Some(60_000), None))), MAX_TIME_MS);
        // A playout budget alone keeps the server's timeout as its safety cap.
        let b = MoveBudget::of(&cfg(None, Some(300)));
        assert_eq!((ms(b), b.playouts), (MAX_TIME_MS, Some(300)));
        let start = Instant::now();
        let l = MoveBudget::of(&cfg(Some(100), Some(5))).limits(start, Duration::ZERO, 0, 0);
        assert_eq!(l.playouts, Some(5));
        assert_eq!(l.deadline.unwrap().hard - start, Duration::from_millis(80));
        // With a plan over the game's clock, each move's deadline is the
        // plan's time for it (the margin already taken off), whatever
        // time_ms says.
        let plan = GatPlan::with_bank(GatPlan::GAT_BANK);
        let b = MoveBudget::of(&GatClientConfig {
            plan: Some(plan),
            ..cfg(Some(100), None)
        });
        let left = Duration::from_secs(120);
        let l = b.limits(start, left, 30, 61);
        let want = plan.move_time(left, 30, 61, Duration::from_millis(20));
        assert_eq!(l.deadline.unwrap().hard - start, want);
        assert_eq!(want, Duration::from_millis(4_980));
        assert_eq!(b.most(), GatPlan::CAP);
    }
}
