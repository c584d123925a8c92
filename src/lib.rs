//! ladderbot: a bot client, local match server and match runner for
//! game-AI competition platforms.
//!
//! - [`games`]: each game's pure rules, wire format and agents.
//! - [`search`]: the one search core (deadline, budget, bandits, MCTS).
//! - [`protocol`]: the match server's wire protocol as a pure codec.
//! - [`server`], [`client`]: the WebSocket transports (the only async code).
//! - [`runtime`]: the search thread that keeps search off the async runtime.
//! - [`runner`]: in-process matches with statistics; [`bench`]: speed.
//! - [`config`], [`cli`], [`logging`]: settings, command line, logs.
//! - [`records`]: finished-game records, one JSON line each.

pub mod bench;
pub mod cli;
pub mod config;
pub mod games;
pub mod logging;
pub mod model;
pub mod platforms;
pub mod records;
pub mod runner;
pub mod runtime;
pub mod search;
pub mod seed;
