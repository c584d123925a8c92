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

pub mod eval;
pub mod search;
pub mod threats;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};

use self::eval::Weights;
use self::search::{root_moves, Features, RootMove, RootMoves, Worker, WON};
use self::tt::Table;
use super::{Board, Peg};
use crate::games::{check_params, param_u64, AgentParams};
use crate::search::{Agent, Decision, Game, Limits, SearchClock};

/// `best`'s settings.
#[derive(Clone, Debug, PartialEq)]
pub struct BestConfig {
    pub weights: Weights,
    pub features: Features,
    /// Search threads (Lazy SMP): 1 is deterministic under a node budget.
    pub threads: usize,
    /// Deepest iteration, in plies.
    pub max_depth: i32,
    /// The table has 2^tt_bits entries of 16 bytes.
    pub tt_bits: u32,
}

impl Default for BestConfig {
    fn default() -> Self {
        BestConfig {
            weights: Weights::default(),
            features: Features::default(),
            threads: 2,
            max_depth: 64,
            tt_bits: 21,
        }
    }
}

/// The parameters `best` takes.
pub const PARAMS: &[&str] = &[
    "line1", "line2", "good", "bad", "dead", "stacked", "tt", "ordering", "pvs", "extend",
    "threads", "depth", "tt_bits",
];

impl BestConfig {
    /// The defaults changed by the profile's `agent_params` (see [`PARAMS`]):
    /// the evaluation's weights `line1`, `line2`, `good`, `bad`, `dead`,
    /// `stacked` (0..=10000); the levers `tt`, `ordering`, `pvs`, `extend`
    /// (0 or 1); `threads` (1..=16), `depth` (1..=64), `tt_bits` (10..=26).
    pub fn from_params(params: &AgentParams) -> Result<Self, String> {
        check_params("best", params, PARAMS)?;
        let mut c = BestConfig::default();
        let w = &mut c.weights;
        for (key, slot) in [
            ("line1", &mut w.line1),
            ("line2", &mut w.line2),
            ("good", &mut w.good),
            ("bad", &mut w.bad),
            ("dead", &mut w.dead),
            ("stacked", &mut w.stacked),
        ] {
            if let Some(v) = param_u64(params, key, 0..=10_000)? {
                *slot = v as i32;
            }
        }
        let f = &mut c.features;
        for (key, slot) in [
            ("tt", &mut f.tt),
            ("ordering", &mut f.ordering),
            ("pvs", &mut f.pvs),
            ("extend", &mut f.extend_forced),
        ] {
            if let Some(v) = param_u64(params, key, 0..=1)? {
                *slot = v == 1;
            }
        }
        if let Some(t) = param_u64(params, "threads", 1..=16)? {
            c.threads = t as usize;
        }
        if let Some(d) = param_u64(params, "depth", 1..=64)? {
            c.max_depth = d as i32;
        }
        if let Some(b) = param_u64(params, "tt_bits", 10..=26)? {
            c.tt_bits = b as u32;
        }
        Ok(c)
    }
}

/// The `best` agent (see the module documentation).
pub struct Best {
    cfg: BestConfig,
    table: Table,
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

/// Iterative deepening from `first_depth` over `cells` (the root's moves,
/// in order) until the clock, `max_depth`, or a proven value stops it.
fn deepen(
    w: &mut Worker,
    me: u64,
    opp: u64,
    cells: &[u8],
    first_depth: i32,
    max_depth: i32,
) -> Option<Found> {
    let empties = (64 - (me | opp).count_ones()) as i32;
    let mut moves: Vec<RootMove> = cells
        .iter()
        .map(|&cell| RootMove { cell, value: 0 })
        .collect();
    let mut best: Option<Found> = None;
    let mut depth = first_depth.min(max_depth);
    while depth <= max_depth {
        if best.is_some() && !w.clock.may_start_iteration(w.nodes) {
            break;
        }
        let Some(it) = w.root(me, opp, &mut moves, depth) else {
            break;
        };
        let changed = best.is_some_and(|b| b.cell != it.cell);
        best = Some(Found {
            cell: it.cell,
            value: it.value,
            depth,
            nodes: w.nodes,
        });
        if !it.complete {
            break;
        }
        if changed {
            w.clock.unstable();
        }
        // A proven result, or a search that reached the end of every line.
        if it.value.abs() >= WON || depth >= empties {
            break;
        }
        depth += 1;
    }
    best
}

impl Best {
    pub fn new(cfg: BestConfig) -> Self {
        Best {
            table: Table::new(cfg.tt_bits),
            cfg,
        }
    }

    /// Forgets the transposition table.
    pub fn clear_table(&self) {
        self.table.clear();
    }

    /// Searches the position (`me` to move, `cells` its root moves in
    /// order, see [`search::root_moves`]) within `limits`.
    pub fn search(
        &self,
        me: u64,
        opp: u64,
        cells: &[u8],
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Found {
        let clock = SearchClock::new(limits, stop);
        let mut main = Worker::new(self.cfg.weights, self.cfg.features, &self.table, clock);
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
        let max_depth = self.cfg.max_depth;
        if helpers == 0 {
            let found = deepen(&mut main, me, opp, cells, 1, max_depth);
            return found.unwrap_or(Found {
                cell: cells[0],
                value: 0,
                depth: 0,
                nodes: main.nodes,
            });
        }
        let halt = AtomicBool::new(false);
        let helper_limits = Limits {
            playouts: Some(u64::MAX),
            deadline: limits.deadline,
        };
        let (found, helper_nodes) = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..helpers)
                .map(|i| {
                    let (halt, table, cfg) = (&halt, &self.table, &self.cfg);
                    scope.spawn(move || {
                        let clock = SearchClock::new(&helper_limits, halt);
                        let mut w = Worker::new(cfg.weights, cfg.features, table, clock);
                        // Helpers start deeper, and each sees the root
                        // moves in a rotated order, so their trees differ.
                        let mut order = cells.to_vec();
                        order.rotate_left((i + 1) % cells.len());
                        deepen(&mut w, me, opp, &order, 2 + (i as i32 % 2), max_depth);
                        w.nodes
                    })
                })
                .collect();
            let found = deepen(&mut main, me, opp, cells, 1, max_depth);
            halt.store(true, Ordering::Relaxed);
            let nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            (found, nodes)
        });
        let mut f = found.unwrap_or(Found {
            cell: cells[0],
            value: 0,
            depth: 0,
            nodes: main.nodes,
        });
        f.nodes = main.nodes + helper_nodes;
        f
    }
}

/// A value for the mover in 0..=1 from a search value.
fn share(v: i32) -> f64 {
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
mod tests {
    use super::*;

    fn one_thread(params: &[(&str, u64)]) -> Best {
        let mut p = AgentParams::new();
        p.insert("threads".into(), 1.into());
        p.insert("tt_bits".into(), 14.into());
        for (k, v) in params {
            p.insert((*k).into(), (*v).into());
        }
        Best::new(BestConfig::from_params(&p).unwrap())
    }

    #[test]
    fn parameters_are_validated() {
        assert!(BestConfig::from_params(&AgentParams::new()).is_ok());
        for bad in [
            r#"{"tt": 2}"#,
            r#"{"threads": 0}"#,
            r#"{"nope": 1}"#,
            r#"{"good": -1}"#,
        ] {
            let p: AgentParams = serde_json::from_str(bad).unwrap();
            assert!(BestConfig::from_params(&p).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_set_stop_flag_still_gives_a_searched_legal_move_within_one_poll() {
        // The deadline is polled every POLL_EVERY nodes: with the flag set
        // before the search, it ends at the first poll, after the first
        // iteration (which always completes) at the latest.
        let stop = AtomicBool::new(true);
        let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10)]).unwrap();
        let d = one_thread(&[]).select(&pos, &Limits::playouts(u64::MAX), &stop);
        assert!(pos.is_legal(d.mv));
        assert!(
            d.playouts <= SearchClock::POLL_EVERY,
            "{} nodes",
            d.playouts
        );
    }

    #[test]
    fn an_expired_deadline_ends_every_thread_at_its_first_poll() {
        // Counted in nodes, not timed: with the deadline already passed,
        // the main thread finishes its first iteration (depth 1) and
        // starts no other; each helper (depth 2 or 3, more than
        // POLL_EVERY nodes from this position) stops at its first look at
        // the clock. A search that looked at the clock only between
        // iterations would run a helper's whole iteration.
        use crate::search::Deadline;
        use std::time::{Duration, Instant};
        let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10), Peg(6), Peg(9), Peg(15)]).unwrap();
        let stop = AtomicBool::new(false);
        for threads in [1, 2, 3] {
            let mut agent = Best::new(BestConfig {
                threads,
                tt_bits: 14,
                ..BestConfig::default()
            });
            let past = Deadline::per_move(Instant::now(), Duration::ZERO, Duration::ZERO);
            let d = agent.select(&pos, &Limits::deadline(past), &stop);
            assert!(pos.is_legal(d.mv));
            assert!(
                d.playouts <= threads as u64 * SearchClock::POLL_EVERY,
                "{threads} threads: {} nodes",
                d.playouts
            );
        }
    }

    #[test]
    fn a_node_budget_is_kept_and_the_same_budget_gives_the_same_move() {
        let stop = AtomicBool::new(false);
        let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10), Peg(6)]).unwrap();
        let a = one_thread(&[]).select(&pos, &Limits::playouts(50_000), &stop);
        let b = one_thread(&[]).select(&pos, &Limits::playouts(50_000), &stop);
        assert_eq!(a, b);
        assert!(a.playouts <= 50_000, "{}", a.playouts);
        // With more threads configured, a node budget is still one thread's:
        // the same move, the same count.
        let two = Best::new(BestConfig {
            threads: 2,
            tt_bits: 14,
            ..BestConfig::default()
        })
        .select(&pos, &Limits::playouts(50_000), &stop);
        assert_eq!(two, a);
    }

    #[test]
    fn it_plays_the_drop_that_makes_two_threats_at_once() {
        // Seat 0 holds cells 1, 2 (x-line y = 0) and 4, 8 (y-line x = 0):
        // dropping on cell 0 threatens cells 3 and 12 at once, a win in
        // three plies; seat 1 (5, 10, 7, 13) threatens nothing.
        let pos = Board::from_pegs(&[
            Peg(1),
            Peg(5),
            Peg(2),
            Peg(10),
            Peg(4),
            Peg(7),
            Peg(8),
            Peg(13),
        ])
        .unwrap();
        assert_eq!(pos.to_move(), 0);
        let stop = AtomicBool::new(false);
        let d = one_thread(&[("depth", 4)]).select(&pos, &Limits::playouts(u64::MAX), &stop);
        assert_eq!(d.mv, Peg(0));
        assert_eq!(d.value, Some(1.0));
    }
}
