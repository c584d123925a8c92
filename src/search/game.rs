//! The small game trait every search algorithm is written against.

use rand::Rng;
use serde::{Deserialize, Serialize};

/// Seat index: 0 moves first, 1 second.
pub type Seat = usize;

/// How a finished game ended, seen from the board (not from a player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The seat that won.
    Win(Seat),
    Draw,
}

impl Outcome {
    /// Reward in 0..=1 for `seat`: 1 win, `draw` for a draw, 0 loss.
    #[inline]
    pub fn reward_for(self, seat: Seat, draw: f64) -> f64 {
        match self {
            Outcome::Win(w) if w == seat => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => draw,
        }
    }
}

/// A two-player, alternating, perfect-information game as the search sees it.
///
/// Rules stay pure: no I/O, no clock; randomness only through the `Rng` passed in.
pub trait Game: Clone + Send + Sync + 'static {
    type Move: Copy + Eq + std::fmt::Debug + Send + Sync + 'static;

    /// The seat to move (meaningless once the game is over).
    fn to_move(&self) -> Seat;
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Every legal move; empty once the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// Plays a move the caller knows to be legal.
    fn play(&mut self, mv: Self::Move);

    /// Whether `mv` is legal here (used to validate moves from the outside).
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.outcome().is_none() && self.legal_moves().contains(&mv)
    }

    /// Plays uniformly random legal moves to the end and returns the outcome.
    /// Games override this with a faster, allocation-free version.
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        loop {
            if let Some(o) = self.outcome() {
                return o;
            }
            let moves = self.legal_moves();
            let mv = moves[rng.gen_range(0..moves.len())];
            self.play(mv);
        }
    }
}
