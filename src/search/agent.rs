//! The agent interface: every bot brain, whatever the game, answers `select`.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::deadline::Limits;
use super::game::Game;

/// What an agent decided, with the work it did for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision<M> {
    pub mv: M,
    /// Playouts (or iterations) spent on this move.
    pub playouts: u64,
    /// Estimated value of the chosen move for the mover, in 0..=1, when known.
    pub value: Option<f64>,
}

/// A move chooser for one game. Built per game (or per match) by the game's
/// agent registry; `select` must always return a legal move when one exists.
pub trait Agent<G: Game>: Send {
    fn name(&self) -> &str;
    /// Called when a new game starts (drop any reused tree, etc.).
    fn new_game(&mut self) {}
    /// Chooses a move for `pos` (not finished) within `limits`, giving up
    /// early when `stop` is set.
    fn select(&mut self, pos: &G, limits: &Limits, stop: &AtomicBool) -> Decision<G::Move>;
}

/// Uniformly random legal moves.
pub struct RandomAgent {
    rng: SmallRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }
    fn select(&mut self, pos: &G, _limits: &Limits, _stop: &AtomicBool) -> Decision<G::Move> {
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "select called on a finished game");
        Decision {
            mv: moves[self.rng.gen_range(0..moves.len())],
            playouts: 0,
            value: None,
        }
    }
}

/// The message of a caught panic (from `catch_unwind` or a joined thread).
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
