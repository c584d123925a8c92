//! Score Four's own parts of the search: the seed's improved playout
//! (importance-guided) and the tactical policy of `best`.

use rand::rngs::SmallRng;
use rand::RngCore;

use super::bitboard::{Board, Peg};
use super::importance::ImportanceMap;
use super::tactics::{candidate_cells, pegs_of, random_peg_of};
use crate::search::mcts::{PlayoutResult, Policy};
use crate::search::{Game, Outcome};

/// The seed's improved playout: at every ply, with probability
/// `importance_prob` (1/2 in the seed) the drop with the largest Maker +
/// Breaker importance, else a uniformly random legal drop. Tree children:
/// every legal move.
#[derive(Clone, Copy, Debug)]
pub struct ImportancePlayout {
    pub importance_prob: f64,
}

impl Default for ImportancePlayout {
    fn default() -> Self {
        ImportancePlayout {
            importance_prob: 0.5,
        }
    }
}

impl Policy<Board> for ImportancePlayout {
    fn playout(&mut self, pos: &mut Board, rng: &mut SmallRng) -> PlayoutResult {
        let mut map = ImportanceMap::new(pos);
        // P(importance move) as a threshold on a 32-bit random number.
        let threshold = (self.importance_prob * 4_294_967_296.0) as u64;
        loop {
            if let Some(o) = pos.outcome() {
                return o.into();
            }
            let cell = if (rng.next_u32() as u64) < threshold {
                map.best_drop(pos, rng).expect("a live game has a drop")
            } else {
                let peg = random_peg_of(pos.drop_cells(), rng);
                pos.landing_cell(peg)
                    .expect("a legal peg has a landing cell")
            };
            map.place(cell, pos.to_move());
            pos.play(Peg((cell & 15) as u8));
        }
    }
}

/// The same playout as [`ImportancePlayout`], computing each importance
/// from its definition at every ply (16 cells x 7 lines) instead of keeping
/// the map up to date: the reference for `ladderbot bench four3d-es-playouts`.
pub fn importance_playout_direct(
    pos: &mut Board,
    rng: &mut SmallRng,
    importance_prob: f64,
) -> Outcome {
    loop {
        if let Some(o) = pos.outcome() {
            return o;
        }
        let peg = if rand::Rng::gen_bool(rng, importance_prob) {
            super::importance::most_important_peg(pos, rng).expect("a live game has a drop")
        } else {
            random_peg_of(pos.drop_cells(), rng)
        };
        pos.play(peg);
    }
}

/// `best`'s policy: children and playout moves are restricted to the
/// tactical candidates (take a win; else block; else avoid dropping under
/// the opponent's winning cell), the playout choosing uniformly among them.
#[derive(Clone, Copy, Debug, Default)]
pub struct TacticalPolicy;

impl Policy<Board> for TacticalPolicy {
    fn children(&mut self, pos: &Board) -> Vec<super::Peg> {
        pegs_of(candidate_cells(pos))
    }
    fn playout(&mut self, pos: &mut Board, rng: &mut SmallRng) -> PlayoutResult {
        loop {
            if let Some(o) = pos.outcome() {
                return o.into();
            }
            let peg = random_peg_of(candidate_cells(pos), rng);
            pos.play(peg);
        }
    }
}
