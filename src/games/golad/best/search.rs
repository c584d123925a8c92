//! One depth of `best`'s search: negamax with alpha-beta below the root
//! (killer moves, nodes kept between depths, the nodes just above the
//! leaves stopping at the first cut), the root's moves shared out over
//! helper threads, and the counting of evaluations and reading of the
//! clock that stop it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::{leaf_value, node_candidates, Best, Gen, WIN};
use crate::games::golad::moves::Move;
use crate::games::golad::propose;
use crate::games::golad::territory::best_value;
use crate::games::golad::GolState;

/// The search was stopped: its partial result is not a value.
struct Stopped;

/// What the threads searching one root depth share.
struct RootShare {
    /// The next root move to take.
    next: AtomicUsize,
    /// The best root value so far (`f64` bits).
    alpha: AtomicU64,
    stopped: AtomicBool,
    values: Mutex<Vec<Option<f64>>>,
}

/// The nodes kept for one move at most (each 5-10 KB: at most about 40 MB).
const KEPT_NODES: usize = 4_000;

/// Evaluations between two readings of the clock inside a node: a node
/// scores hundreds of candidates, each a few generations of the field, so a
/// node on a loaded core can take tens of milliseconds; this cuts it short.
const EVALS_PER_CLOCK_READ: u64 = 16;

impl Best {
    /// The mover's value after `m` in `s`.
    pub(super) fn value(&mut self, s: &GolState, m: Move) -> f64 {
        if self.halt_checks {
            if self.halted {
                // The node is abandoned (`out_of_time` says so to its caller):
                // its remaining candidates get a placeholder.
                return 0.5;
            }
            if self.evals % EVALS_PER_CLOCK_READ == 0 && self.time_up() {
                self.halted = true;
                return 0.5;
            }
        }
        self.evals += 1;
        leaf_value(&self.eval, &self.cfg, s, m)
    }

    /// Read at every node (a node scores its candidates: a few hundred
    /// evaluations), so the clock is read every fraction of a millisecond.
    fn out_of_time(&self) -> bool {
        if self.halted {
            return true;
        }
        if let Some(cap) = self.cap {
            if self.evals >= cap {
                return true;
            }
        }
        self.time_up()
    }

    /// Whether the soft or the hard limit has passed (never without a
    /// deadline: a playout budget is counted by `out_of_time` alone).
    fn time_up(&self) -> bool {
        match (self.soft, self.hard) {
            (Some(s), Some(h)) => {
                let now = Instant::now();
                now >= s || now >= h
            }
            _ => false,
        }
    }

    fn scored(&mut self, s: &GolState, gen: Gen) -> Vec<(f64, Move)> {
        node_candidates(s, gen, |p, m| self.value(p, m))
    }

    /// Negamax: the value of `s` for its side to move, searched `depth`
    /// plies (at least 1), within `(alpha, beta)`.
    fn negamax(
        &mut self,
        s: &GolState,
        depth: usize,
        ply: usize,
        mut alpha: f64,
        beta: f64,
        stop: &AtomicBool,
    ) -> Result<f64, Stopped> {
        self.nodes += 1;
        if depth <= 1 && self.cfg.leaf_cut {
            return self.leaf(s, ply, beta, stop);
        }
        let width = self.cfg.node_gen(ply, depth);
        let found = if self.cfg.keep_nodes {
            self.kept
                .lock()
                .ok()
                .and_then(|k| k.get(&(*s, width)).cloned())
        } else {
            None
        };
        let moves = match found {
            Some(kept) => kept,
            None => {
                let moves = self.scored(s, width);
                // Stopped while scoring: some values are placeholders.
                if self.out_of_time() || stop.load(Ordering::Relaxed) {
                    return Err(Stopped);
                }
                let moves = Arc::new(moves);
                if self.cfg.keep_nodes {
                    if let Ok(mut k) = self.kept.lock() {
                        if k.len() < KEPT_NODES {
                            k.insert((*s, width), moves.clone());
                        }
                    }
                }
                moves
            }
        };
        let Some(&(first, _)) = moves.first() else {
            // A finished game is scored by its parent; never reached.
            return Ok(0.5);
        };
        if depth <= 1 {
            return Ok(first);
        }
        let w = self.cfg.searched_width(ply).min(moves.len());
        let mut moves = moves[..w].to_vec();
        // The move that cut at this ply last goes first when it is among
        // the moves searched here (the same moves, so the same value).
        if let Some(k) = self.killers[ply] {
            if let Some(i) = moves[..w].iter().position(|&(_, m)| m == k) {
                moves[..=i].rotate_right(1);
            }
        }
        let mut best = f64::NEG_INFINITY;
        for &(v, m) in &moves {
            let v = if v >= WIN || v <= 1.0 - WIN {
                v
            } else {
                let mut t = *s;
                t.apply(m);
                1.0 - self.negamax(&t, depth - 1, ply + 1, 1.0 - beta, 1.0 - alpha, stop)?
            };
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                self.killers[ply] = Some(m);
                break;
            }
        }
        Ok(best)
    }

    /// A node just above the leaves: the best value of its candidates, or
    /// as soon as one reaches `beta` (a cut: the parent will not take this
    /// line) that one. The kill that cut at this ply last time (the killer)
    /// is tried first. The same value as scoring every candidate whenever
    /// it is below `beta`, so the root's value does not change.
    fn leaf(
        &mut self,
        s: &GolState,
        ply: usize,
        beta: f64,
        stop: &AtomicBool,
    ) -> Result<f64, Stopped> {
        // Only a kill: every kill is a candidate, so its value is one of
        // theirs.
        if let Some(k @ Move::Kill(_)) = self.killers[ply] {
            if s.is_legal(&k) {
                let v = self.value(s, k);
                if v >= beta {
                    return Ok(v);
                }
            }
        }
        let found = match self.cfg.node_gen(ply, 1) {
            Gen::Pairwise(p) => propose::best_value(s, p, beta, |q, m| self.value(q, m)),
            Gen::Width(width) => best_value(s, width, beta, |p, m| self.value(p, m)),
        };
        if self.out_of_time() || stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        match found {
            Some((v, m)) => {
                if v >= beta && matches!(m, Move::Kill(_)) {
                    self.killers[ply] = Some(m);
                }
                Ok(v)
            }
            // A finished game is scored by its parent; never reached.
            None => Ok(0.5),
        }
    }

    /// One depth of the root: the value of each root move (`None`: not
    /// searched before the stop), and whether the search was stopped. With
    /// `threads` > 1, helper threads take root moves from a shared counter
    /// and share the best value found so far as the root's alpha.
    pub(super) fn search_depth(
        &mut self,
        s: &GolState,
        depth: usize,
        root: &[(f64, Move)],
        stop: &AtomicBool,
    ) -> (Vec<Option<f64>>, bool) {
        let shared = RootShare {
            next: AtomicUsize::new(0),
            alpha: AtomicU64::new(f64::NEG_INFINITY.to_bits()),
            stopped: AtomicBool::new(false),
            values: Mutex::new(vec![None; root.len()]),
        };
        let helpers = self.helpers;
        if helpers == 0 || root.len() < 2 {
            self.root_worker(s, depth, root, &shared, stop);
        } else {
            let mut workers: Vec<Best> = (0..helpers)
                .map(|_| Best {
                    name: self.name,
                    cfg: self.cfg.clone(),
                    eval: self.eval.clone(),
                    evals: 0,
                    nodes: 0,
                    reached: 0,
                    kept: self.kept.clone(),
                    killers: vec![None; self.killers.len()],
                    soft: self.soft,
                    hard: self.hard,
                    cap: self
                        .cap
                        .map(|c| c.saturating_sub(self.evals) / (helpers as u64 + 1)),
                    halt_checks: self.halt_checks,
                    halted: false,
                    helpers: 0,
                    ready: None,
                })
                .collect();
            std::thread::scope(|scope| {
                for w in workers.iter_mut() {
                    let shared = &shared;
                    scope.spawn(move || w.root_worker(s, depth, root, shared, stop));
                }
                self.root_worker(s, depth, root, &shared, stop);
            });
            self.evals += workers.iter().map(|w| w.evals).sum::<u64>();
            self.nodes += workers.iter().map(|w| w.nodes).sum::<u64>();
        }
        let values = shared
            .values
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        (values, shared.stopped.load(Ordering::Relaxed))
    }

    /// Takes root moves from `shared` until none is left or time is up.
    fn root_worker(
        &mut self,
        s: &GolState,
        depth: usize,
        root: &[(f64, Move)],
        shared: &RootShare,
        stop: &AtomicBool,
    ) {
        loop {
            if shared.stopped.load(Ordering::Relaxed) {
                return;
            }
            let i = shared.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(v, m)) = root.get(i) else {
                return;
            };
            let v = if v >= WIN || v <= 1.0 - WIN {
                v
            } else {
                let alpha = f64::from_bits(shared.alpha.load(Ordering::Relaxed));
                let mut t = *s;
                t.apply(m);
                match self.negamax(&t, depth - 1, 1, f64::NEG_INFINITY, 1.0 - alpha, stop) {
                    Ok(x) => 1.0 - x,
                    Err(Stopped) => {
                        shared.stopped.store(true, Ordering::Relaxed);
                        return;
                    }
                }
            };
            let _ = shared
                .alpha
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |a| {
                    (v > f64::from_bits(a)).then_some(v.to_bits())
                });
            if let Ok(mut values) = shared.values.lock() {
                values[i] = Some(v);
            }
        }
    }
}
