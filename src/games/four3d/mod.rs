//! 3D four-in-a-row (Score Four): 4x4 pegs, 4 beads high, with gravity.
//!
//! - [`bitboard`]: the fast rules every agent uses.
//! - [`reference`]: a deliberately simple array version that checks them.
//! - [`wire`]: the JSON shape of states and moves on the match server.
//! - [`agents`]: the registry of Score Four agents by name.

pub mod agents;
pub mod bitboard;
pub mod lines;
pub mod reference;
pub mod wire;

pub use bitboard::{Board, Peg};
