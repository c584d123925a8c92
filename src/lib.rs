//! ladderbot: a bot client, local match server and match runner for
//! game-AI competition platforms.
//!
//! - [`games`]: each game's pure rules, wire format and agents.
//! - [`search`]: the one search core (deadline, budget, bandits, MCTS).
//! - [`records`]: finished-game records, one JSON line each.

pub mod games;
pub mod records;
pub mod search;
