//! `charge`: a simple runner. Escapes with a blue standing on an exit;
//! otherwise pushes its most advanced piece forward.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::rules::{Colour, Dir, Move, Setup, OWN_EXITS, PIECES};
use super::view::View;
use crate::search::Limits;

/// Random setup; escape if possible, else advance the most advanced piece.
pub struct Charge {
    rng: SmallRng,
}

impl Charge {
    /// Nothing to forget between games.
    pub fn new_game(&mut self) {}

    /// It runs no playouts.
    pub fn last_playouts(&self) -> u64 {
        0
    }

    /// No estimate of the position's value.
    pub fn last_value(&self) -> Option<f64> {
        None
    }

    pub fn new(seed: u64) -> Self {
        Charge {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Charge {
    pub fn setup(&mut self) -> Setup {
        Setup::random(&mut self.rng)
    }
    pub fn choose(&mut self, view: &View, _limits: &Limits, _stop: &AtomicBool) -> Move {
        let moves = view.legal_moves();
        assert!(!moves.is_empty(), "choose called with no legal move");
        // A blue on an exit escapes (N always leaves the board from an exit).
        for p in 0..PIECES as u8 {
            let on_exit = view
                .own(p)
                .square()
                .is_some_and(|sq| OWN_EXITS.contains(&sq));
            if on_exit && view.own_colour(p) == Colour::Blue {
                let mv = Move::new(p, Dir::N);
                if view.is_legal(mv) {
                    return mv;
                }
            }
        }
        // The most advanced piece (smallest y), ties broken at random.
        let mut best: Vec<u8> = Vec::new();
        let mut best_y = u8::MAX;
        for p in 0..PIECES as u8 {
            let Some(sq) = view.own(p).square() else {
                continue;
            };
            if sq.y() < best_y {
                best_y = sq.y();
                best.clear();
            }
            if sq.y() == best_y {
                best.push(p);
            }
        }
        if !best.is_empty() {
            let p = best[self.rng.gen_range(0..best.len())];
            let forward = Move::new(p, Dir::N);
            if view.is_legal(forward) {
                return forward;
            }
            let own: Vec<Move> = moves.iter().copied().filter(|m| m.piece == p).collect();
            if !own.is_empty() {
                return own[self.rng.gen_range(0..own.len())];
            }
        }
        moves[self.rng.gen_range(0..moves.len())]
    }
}

geister_agent!(Charge, "charge");

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(board: &str) -> Move {
        let v = View::from_gat(board).unwrap();
        let mut a = Charge::new(1);
        a.choose(&v, &Limits::playouts(1), &AtomicBool::new(false))
    }

    #[test]
    fn escapes_when_a_blue_is_on_an_exit() {
        // E (blue) on the exit (5,0).
        assert_eq!(
            pick("14R24R34R44R50B25B35B45B41u31u21u11u40u30u20u10u"),
            Move::new(4, Dir::N)
        );
    }

    #[test]
    fn advances_the_most_advanced_piece() {
        // B (red) on (2,2) is the most advanced piece; (2,1) is free.
        assert_eq!(
            pick("14R22R34R44R15B25B35B45B41u31u03u11u40u30u20u10u"),
            Move::new(1, Dir::N)
        );
        // B on (2,2), C on (2,1): C is the most advanced and goes forward,
        // capturing the opponent piece on (2,0).
        assert_eq!(
            pick("14R22R21R44R15B25B35B45B41u31u03u11u40u30u20u10u"),
            Move::new(2, Dir::N)
        );
    }
}
