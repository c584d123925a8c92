//! The search core: written once, generic over the small [`Game`] trait.
//! Each game adds only what is its own (move generation, playout policy).

pub mod agent;
pub mod bandit;
pub mod bound;
pub mod clock;
pub mod cores;
pub mod deadline;
pub mod game;
pub mod logistic;
pub mod mcts;
pub mod ready;

pub use agent::{panic_message, Agent, Blunder, Decision, RandomAgent, Renamed};
pub use bound::Bound;
pub use clock::SearchClock;
pub use deadline::{Budget, Deadline, GameClock, Limits};
pub use game::{Game, Outcome, Seat};
pub use ready::{Ready, LATE_SEARCH};
