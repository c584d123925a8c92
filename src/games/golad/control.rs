//! `control`: a shallow search over a territory evaluation (issue 10's
//! first lever, the evaluation).
//!
//! - **Evaluation**: who controls the field. Both sides' living cells flood
//!   outwards one 4-neighbour step at a time; a dead cell reached first by
//!   one side is that side's, and a cell reached by both at once is nobody's.
//!   Each cell counts by its closeness to the centre, and by `decay` to the
//!   power of its distance from the side's cells. The value is our share of
//!   the total, after the move's own generation and `look` more generations
//!   of passes.
//! - **Moves**: every kill of an opponent cell; births on the dead cells
//!   next to a living cell, each paired with the cheapest sacrifices (the
//!   own cells whose loss hurts the evaluation least); pass.
//! - **Search**: every candidate is scored; then the best `two` of them are
//!   scored again by the opponent's best reply from its own candidates
//!   (a two-ply minimax), until the soft deadline.
//!
//! It takes no randomness and no playouts: the same position gives the same
//! move.

use std::sync::atomic::AtomicBool;

use super::moves::Move;
use super::territory::{candidates, Territory, Width};
use super::GolState;
use crate::search::{Agent, Decision, Limits, Seat};

/// The `control` agent (see the module documentation).
pub struct Control {
    pub look: usize,
    pub two_ply: usize,
    eval: Territory,
}

/// `control`'s candidates: 8 birth cells, 6 sacrifices.
const WIDTH: Width = Width {
    births: 8,
    sacrifices: 6,
};

impl Control {
    /// `look` pass generations after the move's own, the flood's `decay`
    /// per step, and how many of the best candidates get a two-ply look.
    pub fn new(look: usize, decay: f64, two_ply: usize) -> Self {
        Control {
            look,
            two_ply,
            eval: Territory::new(decay),
        }
    }

    /// `me`'s share of the control of `f` (nobody takes the cells both
    /// sides reach at once).
    pub fn control(&self, f: &super::Field, me: Seat) -> f64 {
        self.eval.share(f, me, None)
    }

    fn value_after(&self, s: &GolState, mv: Move, me: Seat) -> f64 {
        let mut t = *s;
        t.apply(mv);
        let f = t.field.steps(self.look);
        self.control(&f, me)
    }

    fn candidates(&self, s: &GolState) -> Vec<(f64, Move)> {
        let me = s.to_move;
        candidates(s, WIDTH, |p, m| self.value_after(p, m, me))
    }
}

impl Agent<GolState> for Control {
    fn name(&self) -> &str {
        "control"
    }
    fn select(&mut self, s: &GolState, limits: &Limits, stop: &AtomicBool) -> Decision<Move> {
        let me = s.to_move;
        let scored = self.candidates(s);
        if scored.is_empty() {
            // Only on a finished game: nothing is legal but the pass.
            return Decision {
                mv: Move::Pass,
                playouts: 0,
                value: None,
            };
        }
        let mut best = scored[0];
        if self.two_ply > 0 {
            let mut best2 = (f64::NEG_INFINITY, Move::Pass);
            for &(_, m) in scored.iter().take(self.two_ply) {
                if stop.load(std::sync::atomic::Ordering::Relaxed)
                    || limits.deadline.is_some_and(|d| d.soft_passed())
                {
                    break;
                }
                let mut t = *s;
                t.apply(m);
                if t.outcome().is_some() {
                    let v = self.control(&t.field, me);
                    if v > best2.0 {
                        best2 = (v, m);
                    }
                    continue;
                }
                // opponent's best reply (minimises our control)
                // The replies are scored for the opponent: our value is
                // one minus theirs (both are shares of the same flood).
                let worst = self
                    .candidates(&t)
                    .first()
                    .map_or(f64::INFINITY, |r| 1.0 - r.0);
                if worst > best2.0 {
                    best2 = (worst, m);
                }
            }
            if best2.0 > f64::NEG_INFINITY {
                best = best2;
            }
        }
        Decision {
            mv: best.1,
            playouts: scored.len() as u64,
            value: Some(best.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::golad::testing::{check_legal_and_repeatable, score_against_ai3};

    fn agent() -> Control {
        Control::new(1, 0.5, 60)
    }

    #[test]
    fn control_is_a_share_and_knows_the_ends() {
        let c = agent();
        let s = GolState::start(3, 100);
        // The start is symmetric: an even share.
        let v = c.control(&s.field, 0);
        assert!((v - 0.5).abs() < 1e-9, "{v}");
        assert!((c.control(&s.field, 0) + c.control(&s.field, 1) - 1.0).abs() < 1e-9);
        let only0 =
            super::super::Field::from_rows(*s.field.rows(0), [0; super::super::moves::HEIGHT])
                .unwrap();
        assert_eq!(c.control(&only0, 0), 1.0);
        assert_eq!(c.control(&only0, 1), 0.0);
        assert_eq!(c.control(&super::super::Field::empty(), 0), 0.5);
    }

    #[test]
    fn plays_legal_moves_to_the_end_and_is_deterministic() {
        for seed in 0..3 {
            check_legal_and_repeatable(agent, seed, 30, &Limits::playouts(1));
        }
    }

    #[test]
    fn beats_the_seeds_ai3() {
        assert_eq!(score_against_ai3(agent, 4, &Limits::playouts(50)), 4.0);
    }
}
