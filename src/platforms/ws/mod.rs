//! Our WebSocket match server: the `ws-match-v1` protocol as a pure codec
//! ([`protocol`], specified in `protocol/ws-match-v1.md`), the server
//! ([`server`]), the client ([`client`]) and the client's settings from a
//! `play` session ([`session`]). Generic over the game model: nothing here
//! names a game.

pub mod client;
pub mod protocol;
pub mod server;
pub mod session;
