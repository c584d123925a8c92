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
mod inprocess;
pub mod merge;
pub mod openings;
#[cfg(test)]
mod openings_tests;
pub mod platform_results;
mod report;
pub(crate) mod resume;
mod schedule;
#[cfg(test)]
mod simultaneous_tests;
pub mod stats;
pub mod suite;
#[cfg(test)]
mod tests;

pub use inprocess::{Build, KeptAgents, Playable};
pub use report::{
    progress_bar, render_report, Endings, MatchReport, OpeningResult, OpeningsReport, SprtResult,
    Strength, Tally,
};
pub use schedule::{run_match, run_until, run_with};

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::games::{AgentParams, GameOptions};
use crate::records::GameRecord;
use crate::search::deadline::GameClock;
use crate::search::{Deadline, Limits, Outcome, Seat};
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
    /// This side's own I/O margin (a profile's `search.margin_ms`), taken
    /// off each move's time as it is; `None`: the match's, at most a
    /// quarter of the move ([`SideConfig::limits`]).
    pub margin_ms: Option<u64>,
    /// Think on the opponent's time (a profile's `search.ponder`): after
    /// each of its moves the agent searches the replies while the other
    /// side chooses one ([`crate::arena`]).
    pub ponder: bool,
    /// A game clock of this side's own (a profile's `time_policy =
    /// "bank"`): each move a share of what is left of the bank
    /// ([`Limits::on_game_clock`]) instead of `time_ms`.
    pub clock: Option<GameClock>,
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
    /// per-move deadline less the margin; with neither, the `Limits` default.
    /// In-process there is no I/O to cover, only the search's own stopping:
    /// the margin is `margin_ms` but at most a quarter of the move's time, so
    /// a short time (`--time-ms 20` with the default 30 ms margin) still
    /// searches three quarters of it instead of nothing.
    /// A side's own `margin_ms` is taken off as it is, as on its platform.
    pub fn limits(&self, start: Instant, margin_ms: u64) -> Limits {
        Limits {
            playouts: self.playouts,
            deadline: self.time_ms.map(|t| {
                let margin = self.margin_ms.unwrap_or(margin_ms.min(t / 4));
                Deadline::per_move(
                    start,
                    Duration::from_millis(t),
                    Duration::from_millis(margin),
                )
            }),
        }
    }

    /// The limits of one move from a position where `moves_to_go` moves
    /// of this side's are still to come: with a [`SideConfig::clock`],
    /// a share of what is left of it (`left`), else [`SideConfig::limits`].
    pub fn move_limits(
        &self,
        start: Instant,
        margin_ms: u64,
        left: Option<GameClock>,
        moves_to_go: u32,
    ) -> Limits {
        match left.or(self.clock) {
            Some(clock) if self.clock.is_some() => {
                let margin = self.margin_ms.unwrap_or(margin_ms);
                Limits::on_game_clock(
                    self.playouts,
                    start,
                    clock,
                    moves_to_go,
                    clock.bank.max(clock.increment),
                    Duration::from_millis(margin),
                )
            }
            _ => self.limits(start, margin_ms),
        }
    }

    /// What this side may spend, for a match's header ([`budget_words`]).
    pub fn budget(&self) -> String {
        if self.command.is_some() {
            return "its own".into();
        }
        let clock = self.clock.map(|c| {
            format!(
                "a bank of {} ms + {} ms a move",
                c.bank.as_millis(),
                c.increment.as_millis()
            )
        });
        budget_words(
            clock,
            self.time_ms,
            self.playouts,
            self.margin_ms,
            self.ponder,
        )
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
        if let Some(m) = self.margin_ms {
            items.push(format!("margin_ms={m}"));
        }
        if let Some(c) = self.clock {
            items.push(format!(
                "bank_ms={}+{}",
                c.bank.as_millis(),
                c.increment.as_millis()
            ));
        }
        if self.ponder {
            items.push("ponder".into());
        }
        if items.is_empty() {
            self.agent.clone()
        } else {
            format!("{}({})", self.agent, items.join(", "))
        }
    }
}

/// A budget in words, for headers and listings: `100 ms a move, margin 40
/// ms, pondering`; `a bank of 10000 ms + 100 ms a move` (`clock`, which
/// wins over `time_ms`); `300 playouts a move`; with neither time nor
/// playouts, the agent's own (its parameters', else
/// [`Limits::DEFAULT_PLAYOUTS`]).
pub fn budget_words(
    clock: Option<String>,
    time_ms: Option<u64>,
    playouts: Option<u64>,
    margin_ms: Option<u64>,
    ponder: bool,
) -> String {
    let mut parts = Vec::new();
    match (clock, time_ms) {
        (Some(c), _) => parts.push(c),
        (None, Some(t)) => parts.push(format!("{t} ms a move")),
        (None, None) => {}
    }
    if let Some(n) = playouts {
        parts.push(format!("{n} playouts a move"));
    }
    if parts.is_empty() {
        parts.push("the agent's own budget".into());
    }
    if let Some(m) = margin_ms {
        parts.push(format!("margin {m} ms"));
    }
    if ponder {
        parts.push("pondering".into());
    }
    parts.join(", ")
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

    pub(crate) fn check(&self) -> Result<(), String> {
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
    /// Play only this shard's games (`None`: all of them).
    pub shard: Option<Shard>,
    /// Count the games of this match already in `out` and play only the
    /// others (after a run that was killed or interrupted).
    pub resume: bool,
}

/// One of `count` parts of a match, for spreading a long match over
/// machines: shard `index` plays the pairs of games (2k, 2k+1) with
/// `k % count == index`, the very games (seeds, seats, openings) the whole
/// match would play, and `ladderbot merge` joins the shards' records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Whether game `game` of the match is this shard's. A pair of games
    /// (the same start, seats swapped) never straddles two shards.
    pub fn owns(&self, game: u32) -> bool {
        (game / 2) % self.count == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    /// `I/N` with 0 <= I < N.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("'{s}' is not a shard: expected I/N with 0 <= I < N, e.g. 0/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl MatchConfig {
    /// The games this run plays, in order: all of `0..games`, or the
    /// shard's.
    pub fn game_numbers(&self) -> Vec<u32> {
        (0..self.games)
            .filter(|&i| self.shard.is_none_or(|s| s.owns(i)))
            .collect()
    }

    /// The opening suite as the records name it, if the match has one.
    pub fn suite_tag(&self) -> Option<crate::records::SuiteTag> {
        self.openings.as_ref().map(|b| crate::records::SuiteTag {
            source: b.source.clone(),
            count: b.openings.len(),
            order: b.order.to_string(),
        })
    }

    /// A fingerprint of everything that decides the games of this match
    /// (not the shard, the jobs or the records file): the `key` of every
    /// record's [`crate::records::MatchTag`].
    pub fn key(&self, game: &str) -> String {
        let suite = self
            .openings
            .as_ref()
            .map(|b| format!("{}:{}:{}", b.source, b.openings.len(), b.order));
        let text = format!(
            "{game}|{}|{}|{}|{}|{}|{}|{:?}|{}|{}",
            self.a.describe(),
            self.b.describe(),
            self.seed,
            self.games,
            serde_json::Value::Object(self.game_options.clone()),
            suite.unwrap_or_default(),
            self.sprt.map(|s| (s.elo0, s.elo1)),
            self.keep_agents,
            self.margin_ms,
        );
        // FNV-1a, 64 bits: stable across builds and platforms.
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        format!("{hash:016x}")
    }
}

pub(crate) const SIDE_NAMES: [&str; 2] = ["A", "B"];

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
    /// What sides A and B count in their playouts (the agents'
    /// [`crate::search::Agent::work_unit`]); `playouts` by default.
    fn work_units(&self, _cfg: &MatchConfig) -> [&'static str; 2] {
        ["playouts"; 2]
    }
}

/// A's result in game `index`, from the winning seat (`None`: a draw).
pub(crate) fn a_result(index: u32, winner: Option<Seat>) -> Outcome {
    match winner {
        Some(seat) => Outcome::Win(side_of_seat(index, seat)),
        None => Outcome::Draw,
    }
}

/// The seat-to-side map of game `index`: the side (0 = A, 1 = B) in `seat`.
pub fn side_of_seat(index: u32, seat: Seat) -> usize {
    usize::from(seat != a_seat(index))
}

/// `A:rule` / `B:random` by seat for game `index`.
pub fn players(cfg: &MatchConfig, index: u32) -> [String; 2] {
    let sides = [&cfg.a, &cfg.b];
    std::array::from_fn(|seat| {
        let k = side_of_seat(index, seat);
        format!("{}:{}", SIDE_NAMES[k], sides[k].name())
    })
}

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
            shard: None,
            resume: false,
        }
    }

    /// A progress callback that ignores the progress.
    pub fn quiet(_: &Tally) {}

    /// The game index encoded in a record id.
    pub fn index_of(r: &GameRecord) -> u32 {
        r.id.rsplit_once("-g").unwrap().1.parse().unwrap()
    }
}
