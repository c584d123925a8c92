//! The platforms ladderbot plays on, one folder each: its pure codec (tested
//! on recorded transcripts), its thin transports and its server or engine.
//!
//! - [`ws`]: our WebSocket match server: protocol `ws-match-v1`
//!   ([`ws::protocol`]), the server ([`ws::server`]) and the client
//!   ([`ws::client`]). Plays every game of the registry.
//! - [`riddles`]: the Riddles.io engine protocol on stdin/stdout (GOLAD):
//!   codec, the stdio bot and a local engine (referee) for bot processes.
//! - [`gat`]: the GAT Geister server protocol over TCP: codec, client and
//!   server.
//! - [`command`]: splitting a bot program's command line (shared by the
//!   engines that start bot programs).

pub mod command;
pub mod gat;
pub mod riddles;
pub mod ws;
