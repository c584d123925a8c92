//! The in-process match runner: two agents (A and B) of one game play a
//! series of games on worker threads, with alternating seats, optional game
//! records, optional SPRT early stopping and a summary report.
//!
//! Reproducibility: game `i` builds fresh agents whose seeds depend only on
//! (match seed, i, side), and its start position on (match seed, i / 2), so
//! games 2k and 2k+1 start from the same position with the seats swapped.
//! With playout budgets (no clock), the results do not depend on `jobs`.
//! With SPRT, *which* games are played can depend on the completion order.
//!
//! The runner is generic over a [`Driver`], which plays game `i` of a match
//! and returns its [`Played`] summary and record: [`Playable`] drives any
//! [`PlayableGame`] in-process through the one game loop
//! ([`crate::arena`]: each agent sees only its seat's observation, and both
//! seats of a simultaneous turn are asked before either action applies);
//! [`gat`] drives Geister over real GAT TCP connections. Threads, seats,
//! seeds, records, SPRT, progress and the report are shared.

pub mod gat;
#[cfg(test)]
mod geister_tests;
pub mod openings;
#[cfg(test)]
mod openings_tests;
#[cfg(test)]
mod simultaneous_tests;
pub mod stats;
pub mod suite;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::arena;
use crate::games::{apply_moves, AgentParams, GameOptions, PlayableGame};
use crate::records::{now_ms, EndReason, GameRecord, Opening, RecordWriter};
use crate::search::{panic_message, Agent, Deadline, Limits, Outcome, Seat};
use openings::Book;

/// One side of a match: an agent name, its parameters and its budget.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideConfig {
    pub agent: String,
    pub params: AgentParams,
    /// Playouts per move.
    pub playouts: Option<u64>,
    /// Milliseconds per move (the match's `margin_ms` is taken off).
    pub time_ms: Option<u64>,
    /// An external program playing this side instead of an agent (only
    /// where the driver starts programs: Geister over GAT), already split
    /// into words; `{host}` and `{port}` in them are replaced by the
    /// server's address for the side's seat.
    pub command: Option<Vec<String>>,
}

impl SideConfig {
    /// A side with no parameters and the default budget.
    pub fn new(agent: impl Into<String>) -> Self {
        SideConfig {
            agent: agent.into(),
            ..Default::default()
        }
    }

    pub fn with_playouts(mut self, n: u64) -> Self {
        self.playouts = Some(n);
        self
    }

    pub fn with_time_ms(mut self, ms: u64) -> Self {
        self.time_ms = Some(ms);
        self
    }

    /// The limits of one move starting at `start`: the playout count and/or a
    /// per-move deadline less `margin_ms`; with neither, the `Limits` default.
    pub fn limits(&self, start: Instant, margin_ms: u64) -> Limits {
        Limits {
            playouts: self.playouts,
            deadline: self.time_ms.map(|t| {
                Deadline::per_move(
                    start,
                    Duration::from_millis(t),
                    Duration::from_millis(margin_ms),
                )
            }),
        }
    }

    /// The agent's name, or `cmd(...)` for a program.
    pub fn name(&self) -> String {
        match &self.command {
            Some(c) => format!("cmd({})", c.join(" ")),
            None => self.agent.clone(),
        }
    }

    /// e.g. `pmc(draw_reward=0.5, playouts=1000)`, or just `random`; a
    /// program is `cmd(its command line)`.
    pub fn describe(&self) -> String {
        if self.command.is_some() {
            return self.name();
        }
        let mut items: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect();
        if let Some(n) = self.playouts {
            items.push(format!("playouts={n}"));
        }
        if let Some(t) = self.time_ms {
            items.push(format!("time_ms={t}"));
        }
        if items.is_empty() {
            self.agent.clone()
        } else {
            format!("{}({})", self.agent, items.join(", "))
        }
    }
}

/// Sequential probability ratio test settings: H0 "Elo = elo0" against
/// H1 "Elo = elo1" (elo0 < elo1), error rates alpha and beta.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl SprtConfig {
    /// With alpha = beta = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Self {
        SprtConfig {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    fn check(&self) -> Result<(), String> {
        let all_finite = [self.elo0, self.elo1, self.alpha, self.beta]
            .iter()
            .all(|x| x.is_finite());
        if !all_finite || self.elo0 >= self.elo1 {
            return Err(format!(
                "sprt: need finite elo0 < elo1, got {} and {}",
                self.elo0, self.elo1
            ));
        }
        let ok = |p: f64| p > 0.0 && p < 0.5;
        if !ok(self.alpha) || !ok(self.beta) {
            return Err(format!(
                "sprt: alpha and beta must be in (0, 0.5), got {} and {}",
                self.alpha, self.beta
            ));
        }
        Ok(())
    }
}

/// Everything the match runner needs.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    pub a: SideConfig,
    pub b: SideConfig,
    /// Games to play (fewer if SPRT decides first).
    pub games: u32,
    /// Worker threads (at least 1).
    pub jobs: usize,
    pub seed: u64,
    /// Append one record per finished game to this `.jsonl` file.
    pub out: Option<PathBuf>,
    pub sprt: Option<SprtConfig>,
    /// Safety margin taken off `time_ms` budgets.
    pub margin_ms: u64,
    /// Each worker keeps its two agents from game to game (a session, as
    /// on a ladder) instead of building fresh ones for every game; agents
    /// that learn across games need it. Results then depend on which games
    /// a worker plays: reproducible for a given `jobs`.
    pub keep_agents: bool,
    /// Game options (Flood-It's `size` and `colours`); empty for the
    /// game's default start.
    pub game_options: GameOptions,
    /// Start every pair of games from an opening of this suite (checked for
    /// the game when read); `None`: from the game's start.
    pub openings: Option<Book>,
}

/// The SPRT state at the end of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtResult {
    pub elo0: f64,
    pub elo1: f64,
    /// Log-likelihood ratio over every counted game.
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// "H1" or "H0" when a bound was crossed (the first crossing, which
    /// stopped the match; games still running then are counted in `llr`),
    /// otherwise "continue".
    pub decision: String,
}

/// Progress so far, from A's side; passed to the progress callback after
/// every finished game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub done: u32,
    pub total: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    /// A's mean score so far (0.5 with no games).
    pub fn score(&self) -> f64 {
        stats::score(self.wins, self.draws, self.losses)
    }
}

impl std::fmt::Display for Tally {
    /// `+W =D -L`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// The summary of a match, from A's side. Every number is finite.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchReport {
    pub game: String,
    pub a: String,
    pub b: String,
    /// Games played (and counted).
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// A's mean score in 0..=1.
    pub score: f64,
    /// Elo difference A - B, capped at ±[`stats::ELO_CAP`].
    pub elo: f64,
    /// 95% interval of `elo`.
    pub elo_lo: f64,
    pub elo_hi: f64,
    /// Likelihood that A is stronger than B.
    pub los: f64,
    pub sprt: Option<SprtResult>,
    pub a_playouts_per_move: f64,
    pub b_playouts_per_move: f64,
    pub a_ms_per_move: f64,
    pub b_ms_per_move: f64,
    /// Each side's longest decision, in milliseconds.
    pub a_max_ms: f64,
    pub b_max_ms: f64,
    pub seed: u64,
    pub jobs: usize,
    /// How the games ended, for games whose records say (Geister).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endings: Option<Endings>,
    /// How the games were played when not in-process: `gat-tcp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
    /// A's results by pairs of games (2k and 2k+1: the same start with the
    /// seats swapped), over the pairs whose two games were both played: how
    /// many pairs scored 0, 1/2, 1, 3/2 and 2 (fastchess's `Ptnml(0-2)`;
    /// a win and a loss count as 1, as two draws do).
    pub pentanomial: [u32; 5],
    /// The openings played, with each one's games and results (a match
    /// with openings only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<OpeningsReport>,
}

/// The openings of a match: where they came from and how each fared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningsReport {
    /// The suite's file.
    pub source: String,
    /// Openings in the suite.
    pub count: usize,
    pub order: openings::OpeningOrder,
    /// One entry per opening played, in suite order.
    pub played: Vec<OpeningResult>,
}

/// How one opening fared, from A's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningResult {
    /// Its place in the suite, from 0.
    pub index: usize,
    /// Its line in the file, from 1.
    pub line: usize,
    /// Its moves as written in the suite (`5 10 0`).
    pub moves: String,
    /// The games that started from it (A in seat 0 in the even ones).
    pub games: Vec<u32>,
    /// A's result in each of those games: `W`, `D` or `L`.
    pub results: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Its complete pairs, as [`MatchReport::pentanomial`].
    pub pentanomial: [u32; 5],
}

/// How the games of a match ended, by the key of each record's `ending`:
/// A's wins, B's wins and draws. The keys a game always reports are present
/// even when zero (Geister: `escape`, `blues_captured`, `reds_captured`
/// for wins, `draw` for draws); forfeits add their reason (`illegal_move`,
/// `timeout`, `disconnect`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Endings {
    pub a: BTreeMap<String, u32>,
    pub b: BTreeMap<String, u32>,
    pub draws: BTreeMap<String, u32>,
    /// Win keys in report order (not serialized).
    #[serde(skip)]
    order: Vec<String>,
}

impl Endings {
    /// Zero counts for the keys every game of this kind reports.
    pub fn with_keys(win_keys: &[&str], draw_keys: &[&str]) -> Self {
        let zeros = |keys: &[&str]| -> BTreeMap<String, u32> {
            keys.iter().map(|k| (k.to_string(), 0)).collect()
        };
        Endings {
            a: zeros(win_keys),
            b: zeros(win_keys),
            draws: zeros(draw_keys),
            order: win_keys.iter().map(|k| k.to_string()).collect(),
        }
    }

    /// Counts one game with `result` from A's side.
    pub fn add(&mut self, result: Outcome, key: &str) {
        let map = match result {
            Outcome::Win(0) => &mut self.a,
            Outcome::Win(_) => &mut self.b,
            Outcome::Draw => &mut self.draws,
        };
        *map.entry(key.to_string()).or_insert(0) += 1;
    }

    /// Games counted.
    pub fn total(&self) -> u32 {
        [&self.a, &self.b, &self.draws]
            .iter()
            .flat_map(|m| m.values())
            .sum()
    }

    /// One line: `endings (A/B wins): escape 12/3, blues captured 4/0, ...; draws 1`.
    pub fn render(&self) -> String {
        let mut keys: Vec<&String> = self.order.iter().collect();
        for k in self.a.keys().chain(self.b.keys()) {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        let get = |m: &BTreeMap<String, u32>, k: &str| m.get(k).copied().unwrap_or(0);
        let wins: Vec<String> = keys
            .iter()
            .map(|k| {
                format!(
                    "{} {}/{}",
                    k.replace('_', " "),
                    get(&self.a, k),
                    get(&self.b, k)
                )
            })
            .collect();
        let draws: u32 = self.draws.values().sum();
        let odd: Vec<String> = self
            .draws
            .iter()
            .filter(|(k, n)| k.as_str() != "draw" && **n > 0)
            .map(|(k, n)| format!("{} {n}", k.replace('_', " ")))
            .collect();
        let mut s = format!("endings (A/B wins): {}; draws {draws}", wins.join(", "));
        if !odd.is_empty() {
            let _ = write!(s, " ({})", odd.join(", "));
        }
        s
    }
}

const SIDE_NAMES: [&str; 2] = ["A", "B"];

pub use crate::seed::derive_seed;

/// The seat side A takes in game `index`: 0 in even games, 1 in odd ones.
pub fn a_seat(index: u32) -> Seat {
    (index % 2) as Seat
}

/// What one game produced, by side (0 = A, 1 = B).
pub struct Played {
    /// From A's side.
    pub result: Outcome,
    pub decisions: [u64; 2],
    pub playouts: [u64; 2],
    pub time: [Duration; 2],
    /// The longest decision of each side.
    pub max_time: [Duration; 2],
    /// The game's record; its `ending`, if any, is counted in the report.
    pub record: GameRecord,
}

/// What the runner needs of one kind of game: check the sides, and play
/// game `index` of a match. Each worker thread makes its own `Worker` (for
/// example a server of its own) and plays its games one after another.
pub trait Driver: Sync {
    type Worker;
    /// The game's id, for the report.
    fn game(&self) -> &str;
    /// Checks both sides (agent names, parameters) before any game.
    fn check(&self, cfg: &MatchConfig) -> Result<(), String>;
    /// Makes one worker's state; called on the worker's own thread.
    fn worker(&self, cfg: &MatchConfig) -> Result<Self::Worker, String>;
    /// Plays game `index` to its end. An agent that breaks the rules loses
    /// the game; an error stops the whole match.
    fn play(&self, w: &mut Self::Worker, cfg: &MatchConfig, index: u32) -> Result<Played, String>;
    /// The ending keys every game reports (wins, draws), for games whose
    /// records have an `ending`.
    fn ending_keys(&self) -> Option<(&'static [&'static str], &'static [&'static str])> {
        None
    }
    /// How games are played when not in-process (for the report).
    fn transport(&self) -> Option<&str> {
        None
    }
}

/// The seat-to-side map of game `index`: the side (0 = A, 1 = B) in `seat`.
pub fn side_of_seat(index: u32, seat: Seat) -> usize {
    usize::from(seat != a_seat(index))
}

/// Builds an agent of `G` by name, parameters and seed.
pub type Build<G> = fn(&str, &AgentParams, u64) -> Result<Box<dyn Agent<G>>, String>;

/// The driver of a [`PlayableGame`]: one game in-process through the one
/// game loop, with the agents of the game's registry (or of another, for
/// tests).
pub struct Playable<G: PlayableGame> {
    build: Build<G>,
}

impl<G: PlayableGame> Playable<G> {
    pub fn new() -> Self {
        Playable {
            build: G::build_agent,
        }
    }

    /// With agents from `build` instead of the game's registry.
    pub fn with_build(build: Build<G>) -> Self {
        Playable { build }
    }
}

impl<G: PlayableGame> Default for Playable<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// The agents a worker keeps between games (sides A and B), with
/// [`MatchConfig::keep_agents`].
pub type KeptAgents<G> = Option<[Box<dyn Agent<G>>; 2]>;

impl<G: PlayableGame> Driver for Playable<G> {
    type Worker = KeptAgents<G>;
    fn game(&self) -> &str {
        G::ID
    }
    fn ending_keys(&self) -> Option<(&'static [&'static str], &'static [&'static str])> {
        G::ending_keys()
    }
    fn check(&self, cfg: &MatchConfig) -> Result<(), String> {
        for (k, side) in [&cfg.a, &cfg.b].iter().enumerate() {
            if side.command.is_some() {
                return Err(format!(
                    "side {}: a program can play only geister over GAT",
                    SIDE_NAMES[k]
                ));
            }
            (self.build)(&side.agent, &side.params, 0)
                .map_err(|e| format!("side {}: {e}", SIDE_NAMES[k]))?;
        }
        if let Some(book) = &cfg.openings {
            let start = openings::fixed_start::<G>(&cfg.game_options)?;
            for o in &book.openings {
                opening_position(start.clone(), o)?;
            }
        }
        Ok(())
    }
    fn worker(&self, _cfg: &MatchConfig) -> Result<KeptAgents<G>, String> {
        Ok(None)
    }
    fn play(&self, w: &mut KeptAgents<G>, cfg: &MatchConfig, index: u32) -> Result<Played, String> {
        if !cfg.keep_agents {
            let mut agents = build_agents::<G>(self.build, cfg, index)?;
            return play_game::<G>(&mut agents, cfg, index);
        }
        if w.is_none() {
            *w = Some(build_agents::<G>(self.build, cfg, index)?);
        }
        let agents = w.as_mut().expect("built above");
        play_game::<G>(agents, cfg, index)
    }
}

/// `A:rule` / `B:random` by seat for game `index`.
pub fn players(cfg: &MatchConfig, index: u32) -> [String; 2] {
    let sides = [&cfg.a, &cfg.b];
    std::array::from_fn(|seat| {
        let k = side_of_seat(index, seat);
        format!("{}:{}", SIDE_NAMES[k], sides[k].name())
    })
}

/// Agents for sides A and B, seeded from (match seed, `index`, side).
fn build_agents<G: PlayableGame>(
    build: Build<G>,
    cfg: &MatchConfig,
    index: u32,
) -> Result<[Box<dyn Agent<G>>; 2], String> {
    let sides = [&cfg.a, &cfg.b];
    let make = |k: usize| {
        let seed = derive_seed(cfg.seed, index as u64, k as u64 + 1);
        build(&sides[k].agent, &sides[k].params, seed)
            .map_err(|e| format!("side {}: {e}", SIDE_NAMES[k]))
    };
    Ok([make(0)?, make(1)?])
}

/// Plays game `index` of the match to the end through the one game loop
/// ([`arena::play_logged`]) with `agents` (sides A and B: fresh ones, or a
/// worker's kept ones), each seeing only its own seat's observation. An
/// agent that returns an illegal move (or panics) loses the game with
/// reason `IllegalMove`.
fn play_game<G: PlayableGame>(
    agents: &mut [Box<dyn Agent<G>>; 2],
    cfg: &MatchConfig,
    index: u32,
) -> Result<Played, String> {
    let sides = [&cfg.a, &cfg.b];
    let [a, b] = agents;
    let seats: [&mut dyn Agent<G>; 2] = if a_seat(index) == 0 {
        [a.as_mut(), b.as_mut()]
    } else {
        [b.as_mut(), a.as_mut()]
    };
    let started_ms = now_ms();
    let start = G::start_with(
        derive_seed(cfg.seed, (index / 2) as u64, 0),
        &cfg.game_options,
    )?;
    let start_json = start.state_to_json();
    let opening = cfg
        .openings
        .as_ref()
        .map(|b| b.for_pair(index / 2, cfg.seed));
    let start = match opening {
        Some(o) => opening_position(start, o)?,
        None => start,
    };
    let book_moves = opening.map_or(&[][..], |o| &o.moves[..]);
    let never = AtomicBool::new(false);
    let mut limits =
        |seat: Seat, t0: Instant| sides[side_of_seat(index, seat)].limits(t0, cfg.margin_ms);
    let log = arena::play_logged(start, seats, &mut limits, &never);

    let mut decisions = [0u64; 2];
    let mut playouts = [0u64; 2];
    let mut time = [Duration::ZERO; 2];
    let mut max_time = [Duration::ZERO; 2];
    let mut moves = book_moves.to_vec();
    let mut move_ms = vec![0; book_moves.len()];
    for m in &log.moves {
        let k = side_of_seat(index, m.seat);
        decisions[k] += 1;
        playouts[k] += m.playouts;
        time[k] += m.time;
        max_time[k] = max_time[k].max(m.time);
        moves.push(G::move_to_json(m.action));
        move_ms.push(m.time.as_millis() as u64);
    }
    let (reason, detail) = if log.forfeits.is_empty() {
        (EndReason::Rules, None)
    } else {
        let details: Vec<String> = log
            .forfeits
            .iter()
            .map(|f| {
                let k = side_of_seat(index, f.seat);
                match f.action {
                    Some(mv) if !f.panicked => format!(
                        "{} ({}) played the illegal move {} at ply {}",
                        SIDE_NAMES[k],
                        sides[k].agent,
                        G::move_to_json(mv),
                        f.ply + book_moves.len()
                    ),
                    _ => format!(
                        "{} ({}) panicked: {}",
                        SIDE_NAMES[k], sides[k].agent, f.detail
                    ),
                }
            })
            .collect();
        (EndReason::IllegalMove, Some(details.join("; ")))
    };
    let ending = match reason {
        EndReason::Rules => log.end.ending().map(str::to_string),
        other => G::ending_keys().map(|_| other.key().to_string()),
    };
    let winner = log.outcome.winner();
    let result = match winner {
        Some(s) => Outcome::Win(side_of_seat(index, s)),
        None => Outcome::Draw,
    };
    let record = GameRecord {
        game: G::ID.to_string(),
        id: format!("s{}-g{}", cfg.seed, index),
        players: players(cfg, index),
        winner,
        result: GameRecord::result_string(winner).to_string(),
        reason,
        detail,
        start: start_json,
        moves,
        move_ms,
        opening: opening.cloned(),
        ending,
        started_ms,
        finished_ms: now_ms(),
    };
    Ok(Played {
        result,
        decisions,
        playouts,
        time,
        max_time,
        record,
    })
}

/// `start` after the moves of `opening`.
fn opening_position<G: PlayableGame>(mut start: G, opening: &Opening) -> Result<G, String> {
    apply_moves(&mut start, &opening.moves).map_err(|e| {
        format!(
            "opening {} (line {}) does not apply to {}: {e}",
            opening.index,
            opening.line,
            G::ID
        )
    })?;
    Ok(start)
}

/// What the workers share, behind one lock.
#[derive(Default)]
struct Shared {
    tally: Tally,
    decisions: [u64; 2],
    playouts: [u64; 2],
    time: [Duration; 2],
    max_time: [Duration; 2],
    /// The SPRT decision that stopped the match, if any.
    sprt_decision: Option<&'static str>,
    error: Option<String>,
    endings: Endings,
    /// A's result in each finished game, by index.
    results: BTreeMap<u32, Outcome>,
}

/// Sets `stop` if the worker unwinds, so the others stop taking games.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

/// Plays the match described by `cfg` for game `G`, calling `progress` after
/// every finished game (from the worker that finished it, one at a time).
pub fn run_match<G: PlayableGame>(
    cfg: &MatchConfig,
    progress: &(dyn Fn(&Tally) + Sync),
) -> Result<MatchReport, String> {
    run_with(&Playable::<G>::new(), cfg, progress)
}

/// Plays the match described by `cfg` with `driver`, calling `progress`
/// after every finished game (from the worker that finished it, one at a
/// time).
pub fn run_with<D: Driver>(
    driver: &D,
    cfg: &MatchConfig,
    progress: &(dyn Fn(&Tally) + Sync),
) -> Result<MatchReport, String> {
    if cfg.jobs == 0 {
        return Err("jobs must be at least 1".into());
    }
    if let Some(s) = &cfg.sprt {
        s.check()?;
    }
    // Catch bad agent names and parameters before any thread starts.
    driver.check(cfg)?;
    let ending_keys = driver.ending_keys();
    let writer = match &cfg.out {
        Some(p) => {
            Some(RecordWriter::open(p).map_err(|e| format!("cannot open {}: {e}", p.display()))?)
        }
        None => None,
    };
    let sprt_bounds = cfg.sprt.map(|s| stats::sprt_bounds(s.alpha, s.beta));

    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let shared = Mutex::new(Shared {
        tally: Tally {
            total: cfg.games,
            ..Tally::default()
        },
        endings: ending_keys
            .map(|(w, d)| Endings::with_keys(w, d))
            .unwrap_or_default(),
        ..Shared::default()
    });

    let finish = |index: u32, p: Played| {
        let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(w) = &writer {
            if let Err(e) = w.append(&p.record) {
                if sh.error.is_none() {
                    sh.error = Some(format!("writing {}: {e}", w.path().display()));
                }
                stop.store(true, Ordering::SeqCst);
            }
        }
        match p.result {
            Outcome::Win(0) => sh.tally.wins += 1,
            Outcome::Win(_) => sh.tally.losses += 1,
            Outcome::Draw => sh.tally.draws += 1,
        }
        if let Some(e) = &p.record.ending {
            sh.endings.add(p.result, e);
        }
        sh.results.insert(index, p.result);
        sh.tally.done += 1;
        for k in 0..2 {
            sh.decisions[k] += p.decisions[k];
            sh.playouts[k] += p.playouts[k];
            sh.time[k] += p.time[k];
            sh.max_time[k] = sh.max_time[k].max(p.max_time[k]);
        }
        if let (Some(s), Some((lower, upper)), None) = (&cfg.sprt, sprt_bounds, sh.sprt_decision) {
            let t = sh.tally;
            let llr = stats::sprt_llr(t.wins, t.draws, t.losses, s.elo0, s.elo1);
            if llr >= upper || llr <= lower {
                sh.sprt_decision = Some(if llr >= upper { "H1" } else { "H0" });
                stop.store(true, Ordering::SeqCst);
            }
        }
        progress(&sh.tally);
    };

    let workers = cfg.jobs.min(cfg.games.max(1) as usize);
    let worker = || -> Result<(), String> {
        let _guard = StopOnPanic(&stop);
        let mut state = match driver.worker(cfg) {
            Ok(w) => w,
            Err(e) => {
                stop.store(true, Ordering::SeqCst);
                return Err(e);
            }
        };
        while !stop.load(Ordering::SeqCst) {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= cfg.games {
                break;
            }
            match driver.play(&mut state, cfg, i) {
                Ok(p) => finish(i, p),
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    return Err(e);
                }
            }
        }
        Ok(())
    };
    let mut first_error: Option<String> = None;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(worker)).collect();
        for h in handles {
            let r = match h.join() {
                Ok(r) => r,
                Err(p) => Err(format!(
                    "a match worker panicked: {}",
                    panic_message(p.as_ref())
                )),
            };
            if let Err(e) = r {
                first_error.get_or_insert(e);
            }
        }
    });
    let sh = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = first_error.or(sh.error) {
        return Err(e);
    }

    let t = sh.tally;
    let (elo_lo, elo_hi) = stats::elo_interval(t.wins, t.draws, t.losses);
    let sprt = cfg.sprt.zip(sprt_bounds).map(|(s, (lower, upper))| {
        let llr = stats::sprt_llr(t.wins, t.draws, t.losses, s.elo0, s.elo1);
        SprtResult {
            elo0: s.elo0,
            elo1: s.elo1,
            llr,
            lower,
            upper,
            decision: sh.sprt_decision.unwrap_or("continue").to_string(),
        }
    });
    let per_move = |total: f64, k: usize| {
        if sh.decisions[k] == 0 {
            0.0
        } else {
            total / sh.decisions[k] as f64
        }
    };
    Ok(MatchReport {
        game: driver.game().to_string(),
        a: cfg.a.describe(),
        b: cfg.b.describe(),
        games: t.done,
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        score: t.score(),
        elo: stats::elo_from_score(t.score()),
        elo_lo,
        elo_hi,
        los: stats::los(t.wins, t.losses),
        sprt,
        a_playouts_per_move: per_move(sh.playouts[0] as f64, 0),
        b_playouts_per_move: per_move(sh.playouts[1] as f64, 1),
        a_ms_per_move: per_move(sh.time[0].as_secs_f64() * 1000.0, 0),
        b_ms_per_move: per_move(sh.time[1].as_secs_f64() * 1000.0, 1),
        a_max_ms: sh.max_time[0].as_secs_f64() * 1000.0,
        b_max_ms: sh.max_time[1].as_secs_f64() * 1000.0,
        seed: cfg.seed,
        jobs: cfg.jobs,
        endings: ending_keys.map(|_| sh.endings.clone()),
        transport: driver.transport().map(String::from),
        pentanomial: pentanomial(&sh.results, |_| true),
        openings: cfg
            .openings
            .as_ref()
            .map(|b| openings_report(b, cfg.seed, &sh.results)),
    })
}

/// A's score of one game.
fn a_score(result: Outcome) -> f64 {
    result.reward_for(0, 0.5)
}

/// The pentanomial counts of the complete pairs (2k, 2k+1) of `results`
/// whose pair number passes `keep`.
fn pentanomial(results: &BTreeMap<u32, Outcome>, keep: impl Fn(u32) -> bool) -> [u32; 5] {
    let mut counts = [0u32; 5];
    for (&i, &first) in results.iter().filter(|(i, _)| *i % 2 == 0) {
        if let (true, Some(&second)) = (keep(i / 2), results.get(&(i + 1))) {
            // Half-points as a whole number: 0..=4.
            let halves = 2.0 * (a_score(first) + a_score(second));
            counts[halves.round() as usize] += 1;
        }
    }
    counts
}

/// Each opening's games and results, in suite order.
fn openings_report(book: &Book, seed: u64, results: &BTreeMap<u32, Outcome>) -> OpeningsReport {
    let mut games: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for &i in results.keys() {
        games
            .entry(book.for_pair(i / 2, seed).index)
            .or_default()
            .push(i);
    }
    let played = games
        .into_iter()
        .map(|(index, games)| {
            let o = &book.openings[index];
            let mut r = OpeningResult {
                index,
                line: o.line,
                moves: o.text(),
                games: games.clone(),
                results: String::new(),
                wins: 0,
                draws: 0,
                losses: 0,
                pentanomial: pentanomial(results, |pair| book.for_pair(pair, seed).index == index),
            };
            for g in &games {
                let (c, n) = match results[g] {
                    Outcome::Win(0) => ('W', &mut r.wins),
                    Outcome::Win(_) => ('L', &mut r.losses),
                    Outcome::Draw => ('D', &mut r.draws),
                };
                r.results.push(c);
                *n += 1;
            }
            r
        })
        .collect();
    OpeningsReport {
        source: book.source.clone(),
        count: book.openings.len(),
        order: book.order,
        played,
    }
}

/// A human summary of a report, several lines.
pub fn render_report(r: &MatchReport) -> String {
    let mut s = String::new();
    let over = match r.transport.as_deref() {
        Some("gat-tcp") => " over GAT TCP".to_string(),
        Some(t) => format!(" over {t}"),
        None => String::new(),
    };
    let _ = writeln!(
        s,
        "{}{over}: A = {} vs B = {}, {} games (seed {}, {} jobs)",
        r.game, r.a, r.b, r.games, r.seed, r.jobs
    );
    let _ = writeln!(
        s,
        "A: {} wins, {} draws, {} losses; score {:.4} ({:.1}%)",
        r.wins,
        r.draws,
        r.losses,
        r.score,
        100.0 * r.score
    );
    let capped = if r.elo.abs() >= stats::ELO_CAP {
        " (capped)"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "Elo A-B: {:+.1}{capped}, 95% interval [{:+.1}, {:+.1}]; LOS {:.2}%",
        r.elo,
        r.elo_lo,
        r.elo_hi,
        100.0 * r.los
    );
    if let Some(e) = &r.endings {
        let _ = writeln!(s, "{}", e.render());
    }
    let [ll, ld, even, wd, ww] = r.pentanomial;
    if r.pentanomial.iter().sum::<u32>() > 0 {
        let _ = writeln!(
            s,
            "pairs (same start, seats swapped; A's points 0, 1/2, 1, 3/2, 2): \
             Ptnml(0-2) [{ll}, {ld}, {even}, {wd}, {ww}]"
        );
    }
    if let Some(o) = &r.openings {
        let _ = writeln!(
            s,
            "openings: {} of {} in {} ({}), each played twice with the seats swapped",
            o.played.len(),
            o.count,
            o.source,
            o.order
        );
        for p in &o.played {
            let games: Vec<String> = p.games.iter().map(u32::to_string).collect();
            let _ = writeln!(
                s,
                "  #{} (line {}) {}: games {}: A {} (+{} ={} -{})",
                p.index,
                p.line,
                p.moves,
                games.join(","),
                p.results,
                p.wins,
                p.draws,
                p.losses
            );
        }
    }
    if let Some(p) = &r.sprt {
        let _ = writeln!(
            s,
            "SPRT elo0={} elo1={}: LLR {:.3} in [{:.3}, {:.3}] -> {}",
            p.elo0, p.elo1, p.llr, p.lower, p.upper, p.decision
        );
    }
    let _ = writeln!(
        s,
        "A: {:.1} playouts/move, {:.3} ms/move, max {:.1} ms",
        r.a_playouts_per_move, r.a_ms_per_move, r.a_max_ms
    );
    let _ = write!(
        s,
        "B: {:.1} playouts/move, {:.3} ms/move, max {:.1} ms",
        r.b_playouts_per_move, r.b_ms_per_move, r.b_max_ms
    );
    s
}

/// A progress bar on stderr for `total` games, only when stdout is a
/// terminal (so piped or redirected output stays clean).
pub fn progress_bar(total: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    let pb = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games {msg} [{elapsed_precise} < {eta}]",
    ) {
        pb.set_style(style);
    }
    Some(pb)
}

/// What the runner's test modules share.
#[cfg(test)]
pub(crate) mod test_support {
    use super::{GameRecord, MatchConfig, SideConfig, Tally};

    /// A match of `games` games on `jobs` threads with `seed`, no records,
    /// no SPRT and no I/O margin.
    pub fn config(a: SideConfig, b: SideConfig, games: u32, jobs: usize, seed: u64) -> MatchConfig {
        MatchConfig {
            a,
            b,
            games,
            jobs,
            seed,
            out: None,
            sprt: None,
            margin_ms: 0,
            keep_agents: false,
            game_options: crate::games::GameOptions::new(),
            openings: None,
        }
    }

    /// A progress callback that ignores the progress.
    pub fn quiet(_: &Tally) {}

    /// The game index encoded in a record id.
    pub fn index_of(r: &GameRecord) -> u32 {
        r.id.rsplit_once("-g").unwrap().1.parse().unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::{Board, Peg};
    use crate::records::read_records;
    use crate::search::{Decision, Game};
    use std::sync::atomic::AtomicUsize;

    use test_support::{config, index_of, quiet};

    fn cfg(a: SideConfig, b: SideConfig, games: u32, jobs: usize) -> MatchConfig {
        config(a, b, games, jobs, 7)
    }

    fn sorted_records(path: &std::path::Path) -> Vec<GameRecord> {
        let mut v = read_records(path).unwrap();
        v.sort_by_key(index_of);
        v
    }

    fn assert_finite(r: &MatchReport) {
        let mut xs = vec![
            r.score,
            r.elo,
            r.elo_lo,
            r.elo_hi,
            r.los,
            r.a_playouts_per_move,
            r.b_playouts_per_move,
            r.a_ms_per_move,
            r.b_ms_per_move,
            r.a_max_ms,
            r.b_max_ms,
        ];
        if let Some(p) = &r.sprt {
            xs.extend([p.llr, p.lower, p.upper]);
        }
        assert!(xs.iter().all(|x| x.is_finite()), "{r:?}");
        // serde_json would write a non-finite float as null.
        let v = serde_json::to_value(r).unwrap();
        for key in ["score", "elo", "elo_lo", "elo_hi", "los", "a_ms_per_move"] {
            assert!(v[key].is_number(), "{key}: {v}");
        }
        assert_eq!(v["sprt"].is_null(), r.sprt.is_none());
    }

    #[test]
    fn results_do_not_depend_on_jobs() {
        let dir = tempfile::tempdir().unwrap();
        let run = |jobs: usize, seed: u64| {
            let mut c = cfg(
                SideConfig::new("pmc").with_playouts(40),
                SideConfig::new("pmc").with_playouts(20),
                12,
                jobs,
            );
            c.seed = seed;
            let out = dir.path().join(format!("j{jobs}-s{seed}.jsonl"));
            c.out = Some(out.clone());
            let r = run_match::<Board>(&c, &quiet).unwrap();
            (r, sorted_records(&out))
        };
        let (r1, rec1) = run(1, 7);
        let (r2, rec2) = run(2, 7);
        let (r3, rec3) = run(3, 7);
        for (r, rec) in [(&r2, &rec2), (&r3, &rec3)] {
            assert_eq!(
                (r.games, r.wins, r.draws, r.losses),
                (r1.games, r1.wins, r1.draws, r1.losses)
            );
            assert_eq!(r.a_playouts_per_move, r1.a_playouts_per_move);
            assert_eq!(r.b_playouts_per_move, r1.b_playouts_per_move);
            assert_eq!(rec.len(), 12);
            for (x, y) in rec.iter().zip(&rec1) {
                assert_eq!((&x.id, &x.moves, x.winner), (&y.id, &y.moves, y.winner));
            }
        }
        // The games do depend on the seed (so the comparison above means something).
        let (_, other) = run(2, 8);
        assert!(other.iter().zip(&rec1).any(|(x, y)| x.moves != y.moves));
        assert_eq!(r1.wins + r1.draws + r1.losses, 12);
        assert_finite(&r1);
    }

    #[test]
    fn seats_alternate_and_records_are_complete() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("records.jsonl");
        let mut c = cfg(
            SideConfig::new("pmc").with_playouts(50),
            SideConfig::new("random"),
            4,
            2,
        );
        c.out = Some(out.clone());
        let r = run_match::<Board>(&c, &quiet).unwrap();
        let recs = sorted_records(&out);
        assert_eq!(recs.len(), 4);
        assert_eq!(
            recs[0].players,
            ["A:pmc".to_string(), "B:random".to_string()]
        );
        assert_eq!(
            recs[1].players,
            ["B:random".to_string(), "A:pmc".to_string()]
        );
        let mut a_wins = 0;
        for (i, rec) in recs.iter().enumerate() {
            assert_eq!(index_of(rec), i as u32);
            assert_eq!(rec.players[a_seat(i as u32)], "A:pmc");
            assert_eq!(rec.game, "four3d");
            assert_eq!(rec.reason, EndReason::Rules);
            assert_eq!(rec.result, GameRecord::result_string(rec.winner));
            assert_eq!(rec.moves.len(), rec.move_ms.len());
            // Replaying the recorded moves reaches the recorded outcome.
            let pegs: Vec<Peg> = rec
                .moves
                .iter()
                .map(|m| <Board as PlayableGame>::move_from_json(m).unwrap())
                .collect();
            let end = Board::from_pegs(&pegs).unwrap();
            assert_eq!(end.outcome(), Some(rec.outcome()));
            if rec.winner == Some(a_seat(i as u32)) {
                a_wins += 1;
            }
        }
        assert_eq!(r.wins, a_wins);
        assert_eq!(r.a, "pmc(playouts=50)");
        assert_eq!(r.b, "random");
        assert_eq!(r.a_playouts_per_move, 50.0);
        assert_eq!(r.b_playouts_per_move, 0.0);
    }

    #[test]
    fn pmc_beats_random_and_progress_sees_every_game() {
        let calls = AtomicUsize::new(0);
        let last = Mutex::new(Tally::default());
        let progress = |t: &Tally| {
            calls.fetch_add(1, Ordering::SeqCst);
            let mut l = last.lock().unwrap();
            assert_eq!(t.done, l.done + 1, "progress comes once per game, in order");
            assert_eq!(t.wins + t.draws + t.losses, t.done);
            *l = *t;
        };
        let c = cfg(
            SideConfig::new("pmc").with_playouts(1000),
            SideConfig::new("random"),
            40,
            2,
        );
        let r = run_match::<Board>(&c, &progress).unwrap();
        assert_eq!(r.games, 40);
        assert_eq!(calls.load(Ordering::SeqCst), 40);
        assert_eq!(last.lock().unwrap().total, 40);
        assert!(r.score > 0.8, "{}", render_report(&r));
        assert!(r.elo > 0.0 && r.los > 0.9);
        assert!(r.sprt.is_none());
        assert_finite(&r);
        let text = render_report(&r);
        assert!(
            text.contains("A = pmc(playouts=1000) vs B = random"),
            "{text}"
        );
        assert!(text.contains("LOS"), "{text}");
    }

    #[test]
    fn sprt_stops_a_lopsided_match_early() {
        let mut c = cfg(
            SideConfig::new("pmc").with_playouts(1000),
            SideConfig::new("random"),
            400,
            2,
        );
        c.sprt = Some(SprtConfig::new(0.0, 50.0));
        let r = run_match::<Board>(&c, &quiet).unwrap();
        let s = r.sprt.clone().unwrap();
        assert_eq!(s.decision, "H1", "{}", render_report(&r));
        assert!(r.games < 100, "{}", render_report(&r));
        assert!(s.llr >= s.upper);
        assert!((s.upper - 19f64.ln()).abs() < 1e-12);
        assert!(render_report(&r).contains("-> H1"));
        assert_finite(&r);

        // The other way round the test accepts H0.
        let mut c = c.clone();
        std::mem::swap(&mut c.a, &mut c.b);
        let r = run_match::<Board>(&c, &quiet).unwrap();
        let s = r.sprt.unwrap();
        assert_eq!(s.decision, "H0");
        assert!(r.games < 100);
    }

    #[test]
    fn sprt_that_does_not_decide_says_continue() {
        let mut c = cfg(SideConfig::new("random"), SideConfig::new("random"), 2, 1);
        c.sprt = Some(SprtConfig::new(0.0, 5.0));
        let r = run_match::<Board>(&c, &quiet).unwrap();
        assert_eq!(r.games, 2);
        assert_eq!(r.sprt.unwrap().decision, "continue");
    }

    /// Score Four under another name, with extra test agents.
    #[derive(Clone, Copy, Debug)]
    struct Wrapped(Board);

    impl Game for Wrapped {
        type Move = Peg;
        fn to_move(&self) -> Seat {
            self.0.to_move()
        }
        fn outcome(&self) -> Option<Outcome> {
            self.0.outcome()
        }
        fn legal_moves(&self) -> Vec<Peg> {
            self.0.legal_moves()
        }
        fn play(&mut self, mv: Peg) {
            self.0.play(mv)
        }
        fn is_legal(&self, mv: Peg) -> bool {
            self.0.is_legal(mv)
        }
    }

    /// Delegates to a Score Four agent.
    struct Adapt(Box<dyn Agent<Board>>);

    impl Agent<Wrapped> for Adapt {
        fn name(&self) -> &str {
            self.0.name()
        }
        fn select(&mut self, pos: &Wrapped, limits: &Limits, stop: &AtomicBool) -> Decision<Peg> {
            self.0.select(&pos.0, limits, stop)
        }
    }

    /// Plays a peg that does not exist, or panics.
    struct Broken {
        panics: bool,
    }

    impl Agent<Wrapped> for Broken {
        fn name(&self) -> &str {
            "broken"
        }
        fn select(&mut self, _: &Wrapped, _: &Limits, _: &AtomicBool) -> Decision<Peg> {
            assert!(!self.panics, "deliberate test panic");
            Decision {
                mv: Peg(16),
                playouts: 3,
                value: None,
            }
        }
    }

    impl PlayableGame for Wrapped {
        const ID: &'static str = "wrapped";
        fn agent_names() -> &'static [&'static str] {
            &["random", "pmc", "illegal", "panic"]
        }
        fn start(seed: u64) -> Self {
            Wrapped(Board::start(seed))
        }
        fn state_to_json(&self) -> Value {
            self.0.state_to_json()
        }
        fn state_from_json(v: &Value) -> Result<Self, String> {
            Board::state_from_json(v).map(Wrapped)
        }
        fn obs_to_json(obs: &Wrapped) -> Value {
            obs.state_to_json()
        }
        fn obs_from_json(v: &Value) -> Result<Wrapped, String> {
            Self::state_from_json(v)
        }
        fn move_to_json(mv: Peg) -> Value {
            Board::move_to_json(mv)
        }
        fn move_from_json(v: &Value) -> Result<Peg, String> {
            Board::move_from_json(v)
        }
        fn render(&self) -> String {
            PlayableGame::render(&self.0)
        }
        fn build_agent(
            name: &str,
            params: &AgentParams,
            seed: u64,
        ) -> Result<Box<dyn Agent<Self>>, String> {
            match name {
                "illegal" => Ok(Box::new(Broken { panics: false })),
                "panic" => Ok(Box::new(Broken { panics: true })),
                _ => Ok(Box::new(Adapt(Board::build_agent(name, params, seed)?))),
            }
        }
    }

    #[test]
    fn an_illegal_move_or_a_panic_loses_the_game() {
        for bad in ["illegal", "panic"] {
            let dir = tempfile::tempdir().unwrap();
            let out = dir.path().join("r.jsonl");
            let mut c = cfg(SideConfig::new(bad), SideConfig::new("random"), 4, 2);
            c.out = Some(out.clone());
            let r = run_match::<Wrapped>(&c, &quiet).unwrap();
            assert_eq!((r.wins, r.draws, r.losses), (0, 0, 4), "{bad}");
            assert_eq!(r.game, "wrapped");
            let recs = sorted_records(&out);
            for (i, rec) in recs.iter().enumerate() {
                let a = a_seat(i as u32);
                assert_eq!(rec.reason, EndReason::IllegalMove);
                assert_eq!(rec.winner, Some(1 - a));
                // A moved first (no moves recorded) or after B's first move.
                assert_eq!(rec.moves.len(), a);
                let detail = rec.detail.as_deref().unwrap();
                assert!(detail.starts_with(&format!("A ({bad})")), "{detail}");
            }
            // B winning as the broken side works the same.
            let c = cfg(SideConfig::new("random"), SideConfig::new(bad), 2, 1);
            let r = run_match::<Wrapped>(&c, &quiet).unwrap();
            assert_eq!((r.wins, r.draws, r.losses), (2, 0, 0), "{bad}");
        }
    }

    #[test]
    fn bad_configurations_are_errors() {
        let c = cfg(SideConfig::new("nobody"), SideConfig::new("random"), 2, 1);
        let e = run_match::<Board>(&c, &quiet).unwrap_err();
        assert!(e.contains("side A") && e.contains("nobody"), "{e}");
        let mut c = cfg(SideConfig::new("pmc"), SideConfig::new("random"), 2, 1);
        c.b.params.insert("bogus".into(), serde_json::json!(1));
        assert!(run_match::<Board>(&c, &quiet)
            .unwrap_err()
            .contains("side B"));
        let c = cfg(SideConfig::new("random"), SideConfig::new("random"), 2, 0);
        assert!(run_match::<Board>(&c, &quiet).is_err());
        let mut c = cfg(SideConfig::new("random"), SideConfig::new("random"), 2, 1);
        c.sprt = Some(SprtConfig::new(10.0, 0.0));
        assert!(run_match::<Board>(&c, &quiet).is_err());
    }

    #[test]
    fn zero_games_gives_a_valid_empty_report() {
        let c = cfg(SideConfig::new("random"), SideConfig::new("random"), 0, 3);
        let r = run_match::<Board>(&c, &quiet).unwrap();
        assert_eq!((r.games, r.score, r.elo, r.los), (0, 0.5, 0.0, 0.5));
        assert_finite(&r);
    }

    #[test]
    fn limits_and_descriptions() {
        let t = Instant::now();
        assert_eq!(SideConfig::new("pmc").limits(t, 10), Limits::default());
        let s = SideConfig::new("pmc").with_playouts(5).with_time_ms(100);
        let l = s.limits(t, 10);
        assert_eq!(l.playouts, Some(5));
        assert_eq!(l.deadline.unwrap().hard - t, Duration::from_millis(90));
        assert_eq!(s.describe(), "pmc(playouts=5, time_ms=100)");
        let mut s = SideConfig::new("pmc");
        s.params
            .insert("draw_reward".into(), serde_json::json!(0.5));
        assert_eq!(s.describe(), "pmc(draw_reward=0.5)");
        assert_eq!(
            Tally {
                wins: 3,
                draws: 1,
                losses: 2,
                ..Tally::default()
            }
            .to_string(),
            "+3 =1 -2"
        );
        // Seeds differ by game, side and match seed.
        let seeds = [
            derive_seed(1, 0, 1),
            derive_seed(1, 0, 2),
            derive_seed(1, 1, 1),
            derive_seed(2, 0, 1),
        ];
        for i in 0..seeds.len() {
            for j in 0..i {
                assert_ne!(seeds[i], seeds[j]);
            }
        }
    }

    #[test]
    fn a_time_budget_is_honoured_loosely() {
        // Not a timing assertion: only that a time-limited side plays and
        // spends playouts.
        let c = cfg(
            SideConfig::new("pmc").with_time_ms(5),
            SideConfig::new("random"),
            2,
            2,
        );
        let r = run_match::<Board>(&c, &quiet).unwrap();
        assert_eq!(r.games, 2);
        assert!(r.a_playouts_per_move >= 1.0);
    }
}
