//! The small game trait every search algorithm is written against.

use rand::Rng;

use crate::model::{Joint, Model, Turn};
pub use crate::model::{Outcome, Seat};

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

/// Every perfect-information alternating game is a [`Model`]: one seat acts
/// at a time and a seat observes the whole position.
impl<G: Game> Model for G {
    type Action = G::Move;
    type Obs = G;

    #[inline]
    fn turn(&self) -> Turn {
        match self.outcome() {
            Some(o) => Turn::Over(o),
            None => Turn::One(self.to_move()),
        }
    }
    fn observe(&self, _seat: Seat) -> G {
        self.clone()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<G::Move> {
        if self.outcome().is_none() && self.to_move() == seat {
            self.legal_moves()
        } else {
            Vec::new()
        }
    }
    fn is_legal_action(&self, seat: Seat, action: G::Move) -> bool {
        self.outcome().is_none() && self.to_move() == seat && self.is_legal(action)
    }
    fn apply(&mut self, joint: Joint<G::Move>) {
        let seat = self.to_move();
        if let Some(mv) = joint[seat] {
            self.play(mv);
        }
    }
}
