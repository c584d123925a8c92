//! `best` (issue 15): an alpha-beta searcher for Score Four.
//!
//! - [`threats`]: every side's threats (cells that would complete a line)
//!   for all 76 lines at once, with shifts.
//! - [`eval`]: the static evaluation: open lines, and threats by height
//!   parity (zugzwang), shadowing and stacking.
//! - [`tt`]: the lock-free transposition table, kept between moves.
//! - [`search`]: principal variation search with iterative deepening, the
//!   table, killers and history, and threats settled at every node.
//!
//! Time: the project's [`SearchClock`] (soft and hard limits from the
//! move's [`crate::search::Deadline`], polled every 1024 nodes). With
//! `threads` > 1, helper threads run the same iterative deepening one ply
//! ahead and share the table (Lazy SMP); the main thread's answer is
//! played.

mod config;
pub mod endgames;
pub mod eval;
pub mod fitted;
pub mod nnue;
pub mod plain;
pub mod position;
pub mod search;
pub mod solve;
pub mod threats;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use std::time::Duration;

pub use self::config::{BestConfig, FALL, SOLVE_SHARE};
use self::position::{root_moves, RootMoves, WON};
use self::search::{RootMove, Worker};
use self::tt::Table;
use super::{Board, Peg};
use crate::search::{Agent, Decision, Game, Limits, Ready, SearchClock};

/// The `best` agent (see the module documentation).
pub struct Best {
    cfg: BestConfig,
    table: Table,
    /// Where a `select` keeps its best move so far ([`Agent::keep_ready`]).
    ready: Option<Arc<Ready<Peg>>>,
}

/// What one move's search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub cell: u8,
    pub value: i32,
    /// The deepest iteration that gave `cell` (complete or not).
    pub depth: i32,
    pub nodes: u64,
}

/// How [`deepen`] spends its clock: `predict` starts an iteration only
/// when it is likely to finish; `fall_extends` stretches the move when the
/// value falls (a helper thread does neither: the main thread decides).
#[derive(Clone, Copy, Debug, Default)]
struct Timing {
    predict: bool,
    fall_extends: bool,
    /// The fall that makes a move unclear ([`BestConfig::fall`]).
    fall: i32,
}

/// Iterative deepening over `depths` (the first, the last) over `cells`
/// (the root's moves, in order) until the clock, the last depth, or a
/// proven value stops it;
/// each best move found on the way is `offer`ed.
///
/// With `predict`, an iteration starts only when it is likely to finish
/// in the time it may take: the last iteration's time times the growth
/// from the one before (the effective branching factor, kept within 1.2 to
/// 4), against a share of the budget that is smaller for a clear move (the
/// same best move for four iterations and a value that did not fall)
/// than for an unclear one (the best move just changed, or its value fell
/// by more than [`FALL`]). Without it, an iteration starts only in the
/// first half of the soft limit ([`SearchClock::may_start_iteration`]).
fn deepen(
    w: &mut Worker,
    me: u64,
    opp: u64,
    cells: &[u8],
    depths: std::ops::RangeInclusive<i32>,
    timing: Timing,
    offer: &dyn Fn(u8),
) -> Option<Found> {
    let (first_depth, max_depth) = (*depths.start(), *depths.end());
    let Timing {
        predict,
        fall_extends,
        fall,
    } = timing;
    let empties = (64 - (me | opp).count_ones()) as i32;
    let mut moves: Vec<RootMove> = cells
        .iter()
        .map(|&cell| RootMove { cell, value: 0 })
        .collect();
    let mut best: Option<Found> = None;
    let mut depth = first_depth.min(max_depth);
    // Times of the last two complete iterations, and how settled the move is.
    let (mut last, mut before): (Option<Duration>, Option<Duration>) = (None, None);
    let (mut stable, mut unclear) = (0, false);
    while depth <= max_depth {
        if best.is_some() {
            if !predict {
                if !w.clock.may_start_iteration(w.nodes) {
                    break;
                }
            } else if !likely_to_finish(&mut w.clock, w.nodes, last, before, (stable, unclear)) {
                break;
            }
        }
        let started = w.clock.elapsed();
        let Some(it) = w.root(me, opp, &mut moves, depth) else {
            break;
        };
        let changed = best.is_some_and(|b| b.cell != it.cell);
        let fell = best.is_some_and(|b| it.value < b.value - fall);
        best = Some(Found {
            cell: it.cell,
            value: it.value,
            depth,
            nodes: w.nodes,
        });
        offer(it.cell);
        if !it.complete {
            break;
        }
        if changed || (fell && fall_extends) {
            w.clock.unstable();
        }
        stable = if changed { 0 } else { stable + 1 };
        unclear = changed || fell;
        if let (Some(t0), Some(t1)) = (started, w.clock.elapsed()) {
            before = last;
            last = Some(t1.saturating_sub(t0));
        }
        // A proven result, or a search that reached the end of every line.
        if it.value.abs() >= WON || depth >= empties {
            break;
        }
        depth += 1;
    }
    best
}

/// The share of the budget a clear move's iterations must fit in.
pub const CLEAR_SHARE: f64 = 0.7;

/// Whether the next iteration is likely to finish in the share of the
/// budget this move deserves (see [`deepen`]); `settled` is how many
/// iterations in a row gave the same best move, and whether the last one
/// was unclear.
fn likely_to_finish(
    clock: &mut SearchClock,
    nodes: u64,
    last: Option<Duration>,
    before: Option<Duration>,
    settled: (u32, bool),
) -> bool {
    let (stable, unclear) = settled;
    // The node limit, the stop flag and the hard limit first.
    if !clock.may_start_iteration_at(nodes, 1.0) {
        return false;
    }
    let (Some(budget), Some(elapsed), Some(last)) = (clock.budget(), clock.elapsed(), last) else {
        return true;
    };
    // An iteration the table answered at once says nothing of the growth.
    let growth = match before {
        Some(b) if b > Duration::from_millis(1) => {
            (last.as_secs_f64() / b.as_secs_f64()).clamp(1.5, 4.0)
        }
        _ => 2.5,
    };
    let share = if unclear {
        1.0
    } else if stable >= 4 {
        CLEAR_SHARE
    } else {
        0.9
    };
    // Early in the budget an iteration starts anyway: even when it does
    // not finish, the moves it searched first (the best so far first) are
    // searched one ply deeper.
    elapsed < budget.mul_f64(EARLY_SHARE) || elapsed + last.mul_f64(growth) <= budget.mul_f64(share)
}

/// Before this share of the budget has passed, an iteration always starts.
pub const EARLY_SHARE: f64 = 0.4;

/// Runs `main` on this thread and `helpers` helper threads (`helper(i,
/// halt)`, which returns its node count) beside it; the helpers are told
/// to halt when `main` returns. Gives `main`'s result and the helpers'
/// nodes.
fn with_helpers<R: Send>(
    helpers: usize,
    main: impl FnOnce() -> R,
    helper: impl Fn(usize, &AtomicBool) -> u64 + Sync,
) -> (R, u64) {
    if helpers == 0 {
        return (main(), 0);
    }
    let halt = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..helpers)
            .map(|i| {
                let (halt, helper) = (&halt, &helper);
                scope.spawn(move || helper(i, halt))
            })
            .collect();
        let r = main();
        halt.store(true, Ordering::Relaxed);
        let nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (r, nodes)
    })
}

impl Best {
    pub fn new(cfg: BestConfig) -> Self {
        Best {
            table: Table::new(cfg.tt_bits),
            cfg,
            ready: None,
        }
    }

    /// Forgets the transposition table.
    pub fn clear_table(&self) {
        self.table.clear();
    }

    /// The settings.
    pub fn config(&self) -> &BestConfig {
        &self.cfg
    }

    /// Searches the position (`me` to move, `cells` its root moves in
    /// order, see [`search::root_moves`]) within `limits`: the exact
    /// solver first when few enough cells are empty (with up to
    /// [`SOLVE_SHARE`] of the time, or of a node budget), then, if it did
    /// not finish, the iterative deepening in the rest.
    pub fn search(
        &self,
        me: u64,
        opp: u64,
        cells: &[u8],
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Found {
        // A node budget is searched on one thread: helpers count nodes of
        // their own until the main thread is done, so with them the budget
        // would be overrun by however far they got (and the move would
        // depend on the machine's timing, not on the budget).
        let node_budget = limits.playouts.is_some_and(|p| p != u64::MAX);
        let helpers = if node_budget {
            0
        } else {
            self.cfg.threads.max(1) - 1
        };
        let helper_limits = Limits {
            playouts: Some(u64::MAX),
            deadline: limits.deadline,
        };
        let empties = 64 - (me | opp).count_ones() as i32;
        // The move kept ready until the search finds a better one: the
        // first in search order.
        let offer = |c: u8| {
            if let Some(r) = &self.ready {
                r.offer(Peg(c & 15));
            }
        };
        offer(cells[0]);
        let mut spent = 0u64;
        let share = f64::from(self.cfg.solve_share) / 100.0;
        if empties <= self.cfg.solve_empties {
            let (solved, nodes) = solve::RootSolve {
                table: &self.table,
                helpers,
                limits: &share_of(limits, share),
                helper_limits: &share_of(&helper_limits, share),
                stop,
                levers: solve::Levers::default(),
            }
            .solve(me, opp, cells);
            spent = nodes;
            if let Some(s) = solved {
                offer(s.cell);
                return Found {
                    cell: s.cell,
                    value: s.value,
                    depth: empties,
                    nodes: spent,
                };
            }
        }
        let mut limits = *limits;
        if node_budget {
            limits.playouts = limits.playouts.map(|p| p.saturating_sub(spent).max(1));
        }
        let clock = SearchClock::new(&limits, stop);
        let (model, net) = (self.cfg.model, self.cfg.net);
        let mut main = Worker::new(self.cfg.weights, self.cfg.features, &self.table, clock)
            .with_knobs(self.cfg.knobs)
            .with_model(model)
            .with_net(net);
        let max_depth = self.cfg.max_depth;
        let predict = self.cfg.predict_time;
        let (found, helper_nodes) = with_helpers(
            helpers,
            || {
                let timing = Timing {
                    predict,
                    fall_extends: self.cfg.fall_extends,
                    fall: self.cfg.fall,
                };
                deepen(&mut main, me, opp, cells, 1..=max_depth, timing, &offer)
            },
            |i, halt| {
                let clock = SearchClock::new(&helper_limits, halt);
                let cfg = &self.cfg;
                let mut w = Worker::new(cfg.weights, cfg.features, &self.table, clock)
                    .with_knobs(cfg.knobs)
                    .with_model(model)
                    .with_net(net);
                // Helpers start deeper, and each sees the root moves in a
                // rotated order, so their trees differ.
                let mut order = cells.to_vec();
                order.rotate_left((i + 1) % cells.len());
                deepen(
                    &mut w,
                    me,
                    opp,
                    &order,
                    2 + (i as i32 % 2)..=max_depth,
                    Timing::default(),
                    &|_| {},
                );
                w.nodes
            },
        );
        let mut f = found.unwrap_or(Found {
            cell: cells[0],
            value: 0,
            depth: 0,
            nodes: main.nodes,
        });
        f.nodes = spent + main.nodes + helper_nodes;
        f
    }
}

/// `limits` cut to `share` of their time (soft and hard) and nodes.
fn share_of(limits: &Limits, share: f64) -> Limits {
    let deadline = limits.deadline.map(|d| {
        let soft = d.soft.min(d.hard);
        let cut = d.start + (soft - d.start).mul_f64(share);
        crate::search::Deadline {
            start: d.start,
            soft: cut,
            hard: cut.min(d.hard),
        }
    });
    Limits {
        playouts: limits.playouts.map(|p| {
            if p == u64::MAX {
                p
            } else {
                (p as f64 * share) as u64
            }
        }),
        deadline,
    }
}

/// A value for the mover in 0..=1 from a search value.
pub fn share(v: i32) -> f64 {
    if v >= WON {
        1.0
    } else if v <= -WON {
        0.0
    } else {
        1.0 / (1.0 + (-(v as f64) / 200.0).exp())
    }
}

impl Agent<Board> for Best {
    fn name(&self) -> &str {
        "best"
    }
    fn work_unit(&self) -> &'static str {
        "nodes"
    }

    fn ponders(&self) -> bool {
        true
    }

    fn keep_ready(&mut self, ready: Arc<Ready<Peg>>) {
        self.ready = Some(ready);
    }

    /// Searches the position after our move (the opponent to move) into
    /// the table, which the next search starts from: the expected reply
    /// first, as the table orders it, and the others behind it. A forced
    /// reply is played and our next position searched instead.
    fn ponder(
        &mut self,
        pos: &Board,
        ours: &Peg,
        limits: &Limits,
        stop: &std::sync::Arc<AtomicBool>,
    ) -> u64 {
        let mut after = *pos;
        if !after.is_legal(*ours) {
            return 0;
        }
        after.play(*ours);
        for _ in 0..2 {
            if after.outcome().is_some() {
                return 0;
            }
            let s = after.to_move();
            let (me, opp) = (after.stones(s), after.stones(1 - s));
            match root_moves(me, opp) {
                RootMoves::Search(cells) => {
                    return self.search(me, opp, &cells, limits, stop).nodes.max(1);
                }
                RootMoves::Only(c) if after.to_move() != pos.to_move() => {
                    after.play(Peg(c & 15));
                }
                _ => return 0,
            }
        }
        0
    }

    fn select(&mut self, pos: &Board, limits: &Limits, stop: &AtomicBool) -> Decision<Peg> {
        let s = pos.to_move();
        let (me, opp) = (pos.stones(s), pos.stones(1 - s));
        let peg = |c: u8| Peg(c & 15);
        match root_moves(me, opp) {
            RootMoves::Only(c) => Decision {
                mv: peg(c),
                playouts: 0,
                value: None,
            },
            RootMoves::Lost(c) => Decision {
                mv: peg(c),
                playouts: 0,
                value: Some(0.0),
            },
            RootMoves::Search(cells) => {
                let f = self.search(me, opp, &cells, limits, stop);
                tracing::debug!(
                    ply = pos.ply(),
                    depth = f.depth,
                    value = f.value,
                    nodes = f.nodes,
                    cell = f.cell,
                    "best searched"
                );
                Decision {
                    mv: peg(f.cell),
                    playouts: f.nodes,
                    value: Some(share(f.value)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
