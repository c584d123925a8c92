//! `best`: ladderbot's GOLAD agent since issue 10: an iterative-deepening
//! alpha-beta search over the territory evaluation.
//!
//! - **Evaluation** ([`Territory`]): our share of the control of the field
//!   after the move's generation (and `look` more generations of passes);
//!   with `tempo`, the side to move next takes the cells both sides reach in
//!   the same step. `best` turns it into an expected score with the learned
//!   value model ([`ValueModel`]: the share, the rounds left, a side about
//!   to die); `ab-v1` uses the share itself.
//! - **Moves** ([`candidates`]): kills of opponent cells, births on the best
//!   frontier cells with pairs of the cheapest sacrifices, pass; ordered by
//!   their evaluation. Wider at the root (`root_width`, and its best births
//!   improved part by part, [`improve_birth`]) and at the opponent's replies
//!   to the root's moves (`reply_width`) than further down. With `pw_root`
//!   or `pw_reply` > 0 the births there come from the pairwise proposer
//!   instead ([`propose`]: births whose parts pay together, issue 61).
//! - **Search**: negamax with alpha-beta over those candidates, the best
//!   `widths[ply]` of them at each ply below the root (the root looks at
//!   `widths[0]`), deepened one ply at a time. The previous depth's best move
//!   is searched first, and at every ply the move that last cut there (the
//!   killer). A node just above the leaves stops at the first candidate that
//!   cuts ([`best_value`]). A depth cut short by the deadline still counts
//!   when its first move was finished. Wins, losses and draws are exact.
//! - **Time**: it stops at the soft deadline, and starts no new depth once
//!   `new_depth` of the soft budget is gone (9/10; `ab-v1` 1/2: a depth cut
//!   short still counts when it finished the previous best move). When a depth
//!   changes the best move, the soft deadline moves half the way to the hard
//!   one (Stockfish's instability rule; the same under a fixed cap, where
//!   soft = hard). It reads the
//!   clock at every node, a fraction of a millisecond apart. Without a
//!   deadline, a playout budget counts evaluations.
//!
//! It takes no randomness: the same position and budget give the same move.
//!
//! Here: the agent ([`Best`]: its state, and one move's iterative
//! deepening under the clock). The parts: `config.rs` (its settings,
//! [`BestConfig`], and their parameters), `scoring.rs` (a leaf's value and
//! the candidates of a node and of the root), `search.rs` (one depth of
//! the alpha-beta search, shared out over threads) and `tests.rs`.
//!
//! [`ValueModel`]: super::value::ValueModel
//! [`candidates`]: super::territory::candidates
//! [`improve_birth`]: super::territory::improve_birth
//! [`propose`]: super::propose
//! [`best_value`]: super::territory::best_value

mod config;
mod scoring;
mod search;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::moves::Move;
use super::territory::Territory;
use super::GolState;
use crate::model::Outcome;
use crate::search::{Agent, Deadline, Decision, Limits, Ready, Seat};

pub use config::{BestConfig, Gen};
pub use scoring::{leaf_value, node_candidates, root_candidates};

/// A win's value for the winner (a share is at most 1); a loss is `1 - WIN`.
pub const WIN: f64 = 2.0;

/// A node's scored candidates, by position and width ([`BestConfig::keep_nodes`]).
type Kept = Arc<Mutex<HashMap<(GolState, Gen), Arc<Vec<(f64, Move)>>>>>;

/// The `best` agent (see the module documentation).
pub struct Best {
    name: &'static str,
    cfg: BestConfig,
    eval: Territory,
    evals: u64,
    /// Nodes searched for this move (every node below the root, leaves
    /// included), and the deepest depth completed.
    nodes: u64,
    reached: usize,
    kept: Kept,
    /// Per ply, the move that last cut a node (the killer heuristic).
    killers: Vec<Option<Move>>,
    /// When to stop: the soft limit (moved towards the hard one when the
    /// best move is unstable) and the hard limit.
    soft: Option<Instant>,
    hard: Option<Instant>,
    cap: Option<u64>,
    /// Whether an evaluation may find the time up (not while the root is
    /// scored: a move needs those values); once it has, `halted`.
    halt_checks: bool,
    halted: bool,
    /// Helper threads for this move: `threads - 1`, fewer under a deadline
    /// when the other cores are busy ([`crate::search::cores`]).
    helpers: usize,
    /// Where the search keeps its best move so far, for a client that
    /// cannot wait ([`Agent::keep_ready`]); a helper has none.
    ready: Option<Arc<Ready<Move>>>,
}

impl Best {
    pub fn new(cfg: BestConfig) -> Self {
        Self::named("best", cfg)
    }

    /// The agent under another name (`ab-v1`).
    pub fn named(name: &'static str, cfg: BestConfig) -> Self {
        Best {
            name,
            eval: cfg.territory(),
            cfg,
            evals: 0,
            nodes: 0,
            reached: 0,
            kept: Kept::default(),
            killers: Vec::new(),
            soft: None,
            hard: None,
            cap: None,
            halt_checks: false,
            halted: false,
            helpers: 0,
            ready: None,
        }
    }

    /// The nodes the last move searched (below the root) and the deepest
    /// depth it completed (1: the root's candidates only).
    pub fn searched(&self) -> (u64, usize) {
        (self.nodes, self.reached)
    }

    /// The value for the side that moved of a finished game.
    fn terminal(o: Outcome, mover: Seat) -> f64 {
        match o.winner() {
            Some(w) if w == mover => WIN,
            Some(_) => 1.0 - WIN,
            None => 0.5,
        }
    }
}

impl Agent<GolState> for Best {
    fn name(&self) -> &str {
        self.name
    }
    fn work_unit(&self) -> &'static str {
        "evaluations"
    }

    fn keep_ready(&mut self, ready: Arc<Ready<Move>>) {
        self.ready = Some(ready);
    }

    fn select(&mut self, s: &GolState, limits: &Limits, stop: &AtomicBool) -> Decision<Move> {
        // A move's kept nodes are forgotten at the next move.
        if let Ok(mut k) = self.kept.lock() {
            k.clear();
        }
        self.think(s, limits, stop)
    }
}

impl Best {
    /// Keeps `m` ready as the move to play if the answer cannot wait (the
    /// slot is open only during `select`).
    fn offer(&self, m: Move) {
        if let Some(r) = &self.ready {
            r.offer(m);
        }
    }

    /// The root's candidates ([`root_candidates`] with
    /// [`BestConfig::root_gen`]), the best births improved (`improve`),
    /// best first.
    fn scored_root(&mut self, s: &GolState) -> Vec<(f64, Move)> {
        let (gen, improve) = (self.cfg.root_gen(), self.cfg.improve);
        root_candidates(s, gen, improve, |p, m| self.value(p, m))
    }

    /// One move's search of `s` (see the module documentation).
    fn think(&mut self, s: &GolState, limits: &Limits, stop: &AtomicBool) -> Decision<Move> {
        self.evals = 0;
        self.nodes = 0;
        self.reached = 0;
        self.halt_checks = false;
        self.halted = false;
        // Under a deadline, a helper only on a core nothing else wants: on
        // a busy machine the helper made answers overrun (tens of ms).
        let wanted = self.cfg.threads.max(1) - 1;
        self.helpers = match limits.deadline {
            Some(_) => wanted.min(crate::search::cores::idle_cores().unwrap_or(wanted)),
            None => wanted,
        };
        // One slot per ply: no node lies deeper than the deepest depth.
        self.killers = vec![None; self.cfg.max_depth.max(1) + 1];
        let deadline: Option<Deadline> = limits.deadline;
        self.soft = deadline.map(|d| d.soft);
        self.hard = deadline.map(|d| d.hard);
        // A playout budget counts evaluations.
        self.cap = match (limits.deadline, limits.playouts) {
            (_, Some(p)) => Some(p.max(1)),
            (None, None) => Some(Limits::DEFAULT_PLAYOUTS),
            (Some(_), None) => None,
        };
        // The root's candidates, scored once: depth 1.
        let cap = self.cap;
        self.cap = None;
        let mut root = self.scored_root(s);
        self.cap = cap;
        self.halt_checks = true;
        tracing::debug!(
            root = root.len(),
            evals = self.evals,
            helpers = self.helpers,
            elapsed_ms = deadline.map(|d| d.start.elapsed().as_secs_f64() * 1e3),
            "best: root scored"
        );
        let Some(&(v1, m1)) = root.first() else {
            return Decision {
                mv: Move::Pass,
                playouts: 0,
                value: None,
            };
        };
        let mut best = (v1, m1);
        self.offer(m1);
        root.truncate(self.cfg.searched_width(0));
        let mut reached = 1;
        for depth in 2..=self.cfg.max_depth.max(1) {
            if let (Some(d), Some(soft)) = (deadline, self.soft) {
                // A depth costs several times the one before: do not start
                // one that cannot finish.
                let last = d.start + (soft - d.start).mul_f64(self.cfg.new_depth);
                if Instant::now() >= last {
                    break;
                }
            }
            let previous = best.1;
            let (values, stopped) = self.search_depth(s, depth, &root, stop);
            // The values searched at this depth, root order. Moves that
            // failed low only have an upper bound, below the best's value.
            let done: Vec<(f64, Move)> = root
                .iter()
                .zip(&values)
                .filter_map(|(&(_, m), v)| v.map(|v| (v, m)))
                .collect();
            // A cut-short depth counts when it finished the previous best
            // move (searched first).
            if values.first().is_some_and(|v| v.is_some()) {
                if let Some(&top) = done.iter().max_by(|x, y| x.0.total_cmp(&y.0)) {
                    best = top;
                    self.offer(best.1);
                }
            }
            if !stopped {
                reached = depth;
            }
            if stopped {
                break;
            }
            // Instability (Stockfish's time manager): when this depth
            // changed the best move, allow `extend` of the way to the hard
            // limit (half by default).
            if let Some(d) = deadline {
                if previous != best.1 {
                    self.soft = Some(d.soft + (d.hard - d.soft).mul_f64(self.cfg.extend));
                }
            }
            // Next depth: this depth's best first, then the rest in the
            // order of their values.
            let mut next = done;
            next.sort_by(|x, y| y.0.total_cmp(&x.0));
            root = next;
            if best.0 >= WIN || best.0 <= 1.0 - WIN {
                break;
            }
        }
        self.reached = reached;
        tracing::debug!(
            agent = self.name,
            depth = reached,
            nodes = self.nodes,
            evals = self.evals,
            elapsed_ms = deadline.map(|d| d.start.elapsed().as_secs_f64() * 1e3),
            hard_ms = deadline.map(|d| (d.hard - d.start).as_secs_f64() * 1e3),
            value = best.0,
            "best: searched"
        );
        Decision {
            mv: best.1,
            playouts: self.evals,
            value: Some(best.0.clamp(0.0, 1.0)),
        }
    }
}
