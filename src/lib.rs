//! ladderbot: a bot client, local match server and match runner for
//! game-AI competition platforms.
//!
//!
//! Layers, lowest first (a module uses only those above it in this list):
//! - [`model`]: the one game model (seats, turns, observations, outcome);
//!   [`seed`]: reproducible seeds.
//! - [`search`]: the one search core (deadline, budget, the agent
//!   interface, bandits, MCTS) over the perfect-information sub-trait.
//! - [`arena`]: the one in-process game loop; [`records`]: game records;
//!   [`runtime`]: the search thread that keeps search off async workers.
//! - [`games`]: one folder per game (rules, agents, wire mapping) and the
//!   registry.
//! - [`platforms`]: one folder per platform (codec, transports, server or
//!   engine): `ws` (our match server), `riddles` (GOLAD), `gat` (Geister).
//! - [`runner`]: matches with statistics; [`bench`]: speed; [`report`]:
//!   the HTML page of records (results, plots, replays); [`tune`]: SPSA
//!   over an agent's declared parameters, on the runner; [`analysis`]:
//!   the value of every position of recorded games, by a reference.
//! - [`config`], [`logging`], [`cli`]: settings, logs, command line.

pub mod analysis;
pub mod arena;
pub mod bench;
pub mod cli;
pub mod config;
pub mod games;
pub mod logging;
pub mod model;
pub mod platforms;
pub mod quantile;
pub mod records;
pub mod report;
pub mod runner;
pub mod runtime;
pub mod search;
pub mod seed;
pub mod tune;
