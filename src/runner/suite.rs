//! Generating a balanced opening suite for any game whose start is fixed:
//! random plies from the start, each position kept when a short search
//! judges it near even and no kept position repeats it.
//!
//! Candidate `c` plays a number of plies drawn from `plies` (a simultaneous
//! turn is one ply: both seats' actions), each a uniformly random legal
//! action, with random numbers seeded from (seed, c) only. It is dropped
//! when the game ends on the way, or when its position was already met
//! ([`PlayableGame::position_key`]: the same position, for games that name
//! their symmetries up to symmetry). The judge then plays `judge_games`
//! games of one agent against itself from the position, seeded from
//! (seed, c, game); the candidate is kept when seat 0 scores within
//! `0.5 ± band` (a draw is half a point). Candidates are classified in
//! order and judged `jobs` at a time, so the suite and its counts depend on
//! the seed and the settings only, not on `jobs`.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde_json::Value;

use super::openings::fixed_start;
use super::SideConfig;
use crate::arena;
use crate::games::{GameOptions, PlayableGame};
use crate::model::Seat;
use crate::records::Opening;
use crate::seed::derive_seed;

/// What to generate and how to judge it.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteConfig {
    /// Fewest and most plies from the start (inclusive).
    pub plies: (u32, u32),
    /// Openings wanted.
    pub count: usize,
    pub seed: u64,
    /// The agent that plays itself from each candidate, with its budget
    /// (playouts: time budgets would make the suite depend on the machine).
    pub judge: SideConfig,
    /// Games the judge plays from each candidate; 0 keeps every distinct
    /// candidate unjudged.
    pub judge_games: u32,
    /// Kept when seat 0's score is within 0.5 ± band.
    pub band: f64,
    /// Candidates judged at once, on as many threads.
    pub jobs: usize,
    /// Candidates to try before giving up.
    pub max_tries: u64,
    pub game_options: GameOptions,
}

/// One kept opening.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Kept {
    /// The moves from the start, wire forms.
    pub moves: Vec<Value>,
    /// The candidate's number.
    pub candidate: u64,
    /// Seat 0's score in the judge's games (`None` unjudged).
    pub score: Option<f64>,
}

/// A generated suite with what became of every candidate tried.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suite {
    pub game: String,
    pub kept: Vec<Kept>,
    /// Candidates tried (up to the last one kept, or all of them when the
    /// suite fell short).
    pub tried: u64,
    /// The game ended within the candidate's plies.
    pub ended: u64,
    /// Its position was met before.
    pub duplicates: u64,
    /// The judge found it outside the band.
    pub unbalanced: u64,
}

impl Suite {
    /// The kept openings as a book's entries (lines left at 0: not from a
    /// file).
    pub fn openings(&self) -> Vec<Opening> {
        self.kept
            .iter()
            .enumerate()
            .map(|(index, k)| Opening {
                index,
                line: 0,
                moves: k.moves.clone(),
            })
            .collect()
    }
}

/// What became of one candidate.
enum Fate<G> {
    Ended,
    Duplicate,
    /// A new position to judge: the position and the moves to it.
    Fresh(G, Vec<Value>),
}

/// Checks the settings for `G`: its start must be fixed, the budget a
/// playout count, the judge an agent of the game.
pub fn check<G: PlayableGame>(cfg: &SuiteConfig) -> Result<(), String> {
    fixed_start::<G>(&cfg.game_options)?;
    let (lo, hi) = cfg.plies;
    if lo > hi {
        return Err(format!("plies: {lo}-{hi} is an empty range"));
    }
    if cfg.count == 0 || cfg.jobs == 0 || cfg.max_tries == 0 {
        return Err("count, jobs and max_tries must be at least 1".into());
    }
    if !(0.0..=0.5).contains(&cfg.band) {
        return Err(format!("band: {} is outside 0..=0.5", cfg.band));
    }
    if cfg.judge.time_ms.is_some() {
        return Err("the judge takes a playout budget, not a time budget \
                    (the suite would depend on the machine)"
            .into());
    }
    G::build_agent(&cfg.judge.agent, &cfg.judge.params, 0)
        .map(|_| ())
        .map_err(|e| format!("judge: {e}"))
}

/// Generates a suite for `G` (see the module's description); `progress` is
/// called with the openings kept so far after every batch.
pub fn generate<G: PlayableGame>(
    cfg: &SuiteConfig,
    progress: &dyn Fn(usize),
) -> Result<Suite, String> {
    check::<G>(cfg)?;
    let start: G = fixed_start(&cfg.game_options)?;
    let mut suite = Suite {
        game: G::ID.to_string(),
        kept: Vec::new(),
        tried: 0,
        ended: 0,
        duplicates: 0,
        unbalanced: 0,
    };
    let mut seen = HashSet::new();
    let mut next = 0u64;
    while suite.kept.len() < cfg.count && next < cfg.max_tries {
        // The next `jobs` fresh candidates, with what came before them.
        let mut batch: Vec<(u64, Fate<G>)> = Vec::new();
        let mut fresh = 0;
        while fresh < cfg.jobs && next < cfg.max_tries {
            let fate = candidate(&start, cfg, next, &mut seen);
            fresh += usize::from(matches!(fate, Fate::Fresh(..)));
            batch.push((next, fate));
            next += 1;
        }
        let scores = judge_batch(&batch, cfg)?;
        for ((c, fate), score) in batch.into_iter().zip(scores) {
            if suite.kept.len() >= cfg.count {
                break;
            }
            suite.tried = c + 1;
            match fate {
                Fate::Ended => suite.ended += 1,
                Fate::Duplicate => suite.duplicates += 1,
                Fate::Fresh(_, moves) => {
                    let near_even = score.is_none_or(|s| (s - 0.5).abs() <= cfg.band + 1e-9);
                    if near_even {
                        suite.kept.push(Kept {
                            moves,
                            candidate: c,
                            score,
                        });
                    } else {
                        suite.unbalanced += 1;
                    }
                }
            }
        }
        progress(suite.kept.len());
    }
    Ok(suite)
}

/// Plays candidate `c`'s random plies from `start`.
fn candidate<G: PlayableGame>(
    start: &G,
    cfg: &SuiteConfig,
    c: u64,
    seen: &mut HashSet<String>,
) -> Fate<G> {
    let mut rng = SmallRng::seed_from_u64(derive_seed(cfg.seed, c, 0));
    let plies = rng.gen_range(cfg.plies.0..=cfg.plies.1);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let turn = pos.turn();
        if turn.outcome().is_some() {
            return Fate::Ended;
        }
        let mut joint = [None, None];
        for &seat in turn.movers() {
            let legal = pos.legal_actions(seat);
            if legal.is_empty() {
                return Fate::Ended;
            }
            let a = legal[rng.gen_range(0..legal.len())];
            moves.push(G::move_to_json(a));
            joint[seat] = Some(a);
        }
        pos.apply(joint);
    }
    if pos.turn().outcome().is_some() {
        return Fate::Ended;
    }
    if !seen.insert(pos.position_key()) {
        return Fate::Duplicate;
    }
    Fate::Fresh(pos, moves)
}

/// Seat 0's judged score for every fresh candidate of `batch` (`None` for
/// the others, or with no judge games), each on its own thread.
fn judge_batch<G: PlayableGame>(
    batch: &[(u64, Fate<G>)],
    cfg: &SuiteConfig,
) -> Result<Vec<Option<f64>>, String> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .iter()
            .map(|(c, fate)| match fate {
                Fate::Fresh(pos, _) if cfg.judge_games > 0 => {
                    Some(scope.spawn(move || judge(pos, cfg, *c)))
                }
                _ => None,
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                None => Ok(None),
                Some(h) => h
                    .join()
                    .map_err(|p| {
                        format!(
                            "the judge panicked: {}",
                            crate::search::panic_message(p.as_ref())
                        )
                    })?
                    .map(Some),
            })
            .collect()
    })
}

/// Seat 0's mean score in the judge's games against itself from `pos`.
fn judge<G: PlayableGame>(pos: &G, cfg: &SuiteConfig, c: u64) -> Result<f64, String> {
    let never = AtomicBool::new(false);
    let base = derive_seed(cfg.seed, c, 3);
    let mut total = 0.0;
    for g in 0..cfg.judge_games {
        let build = |seat: Seat| {
            G::build_agent(
                &cfg.judge.agent,
                &cfg.judge.params,
                derive_seed(base, g as u64, seat as u64 + 1),
            )
            .map_err(|e| format!("judge: {e}"))
        };
        let (mut a, mut b) = (build(0)?, build(1)?);
        let mut limits = |_: Seat, t0: Instant| cfg.judge.limits(t0, 0);
        let log = arena::play_logged(pos.clone(), [a.as_mut(), b.as_mut()], &mut limits, &never);
        if let Some(f) = log.forfeits.first() {
            return Err(format!(
                "judge {} forfeited a game from candidate {c} (seat {}): {}",
                cfg.judge.agent, f.seat, f.detail
            ));
        }
        total += log.outcome.reward_for(0, 0.5);
    }
    Ok(total / cfg.judge_games as f64)
}

/// The suite as a file: a header of `#` comments (what it is, `command`,
/// the candidates' fates), then one opening a line with its judged score.
pub fn render(suite: &Suite, cfg: &SuiteConfig, command: &str) -> String {
    let (lo, hi) = cfg.plies;
    let game = &suite.game;
    let mut s = format!(
        "# {game} opening suite: {} openings, {lo}-{hi} random plies from the start\n",
        suite.kept.len()
    );
    if cfg.judge_games > 0 {
        s.push_str(&format!(
            "# judged: kept when {} playing itself {} games from the position scored \
             {:.3}..={:.3} for seat 0 (a draw is half a point)\n",
            cfg.judge.describe(),
            cfg.judge_games,
            0.5 - cfg.band,
            0.5 + cfg.band
        ));
    } else {
        s.push_str("# not judged: every new position kept\n");
    }
    s.push_str("# no position twice (up to the game's symmetries, where the game names them)\n");
    s.push_str(&format!("# generated by: {command}\n"));
    s.push_str(&format!(
        "# candidates: {} tried, {} ended the game, {} repeated a position, {} outside the band, \
         {} kept\n",
        suite.tried,
        suite.ended,
        suite.duplicates,
        suite.unbalanced,
        suite.kept.len()
    ));
    s.push_str(
        "# format: one opening a line, the moves from the start in the game's notation (as in \
         records) separated by spaces; `#` starts a comment\n",
    );
    s.push_str(&format!(
        "# play: ladderbot match {game} --openings FILE (each opening twice, the seats swapped)\n"
    ));
    for (o, k) in suite.openings().iter().zip(&suite.kept) {
        match k.score {
            Some(x) => s.push_str(&format!("{}  # seat 0 scored {x:.3}\n", o.text())),
            None => s.push_str(&format!("{}\n", o.text())),
        }
    }
    s
}
