//! 3D four-in-a-row (Score Four): 4x4 pegs, 4 beads high, with gravity.
//!
//! - [`bitboard`]: the fast rules every agent uses.
//! - [`reference`]: a deliberately simple array version that checks them.
//! - [`wire`]: the JSON shape of states and moves on the match server.
//! - [`agents`]: the registry of Score Four agents by name.
//! - [`importance`], [`tactics`], [`policies`]: what the search core needs
//!   of Score Four for `uct-es` and `uct-tactics`.
//! - [`best`]: `best`, alpha-beta over the bitboards (issue 15).

pub mod agents;
pub mod best;
pub mod bitboard;
pub mod importance;
pub mod lines;
pub mod policies;
pub mod reference;
pub mod tactics;
pub mod wire;

pub use bitboard::{Board, Peg};
