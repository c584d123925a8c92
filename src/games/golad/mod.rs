//! GOLAD, the Game of Life and Death (Riddles.io): an 18 x 16 Life field
//! where each move (kill a cell, or give birth to one by sacrificing two of
//! your own, or pass) is followed by one generation. Rules as the real
//! engine 1.1.1 implements them (see `protocol/riddles-golad/`).
//!
//! - [`moves`]: cells, moves and how the protocol writes them.
//! - [`field`]: the bitboard field and its fast Life generation.
//! - [`reference`]: a deliberately simple array version that checks it.
//! - [`rules`]: [`GolState`], turns, rounds, legality and the end of the game.
//! - [`agents`]: the registry of GOLAD agents by name.
//! - [`seed_agents`]: the seed's AI1-AI3 on the one UCT core.
//! - [`territory`]: the territory evaluation and the candidate moves it
//!   ranks (issue 10).
//! - [`best`]: ladderbot's own agent: alpha-beta over the territory
//!   evaluation (`ab-v1`), or over the learned value model (`best`).
//! - [`propose`]: the pairwise move proposer (issue 61): births whose
//!   parts pay together.
//! - [`value`]: the learned value model (issue 33) and its features.
//! - [`mcts_v1`]: the agent that was `best` before issue 10, the baseline.
//! - [`control`]: a two-ply search over a territory evaluation (issue 10's
//!   first lever).
//! - [`wire`]: the game on the match server and in records.

pub mod agents;
pub mod best;
pub mod control;
pub mod field;
pub mod mcts_v1;
pub mod moves;
pub mod propose;
pub mod reference;
pub mod rules;
pub mod seed_agents;
pub mod territory;
#[cfg(test)]
pub mod testing;
pub mod value;
pub mod wire;

pub use field::Field;
pub use moves::{Cell, Move};
pub use rules::GolState;
