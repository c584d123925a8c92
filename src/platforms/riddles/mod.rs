//! The Riddles.io engine protocol (GOLAD), as a folder: the pure line codec
//! ([`codec`], tested on recorded engine transcripts), the stdin/stdout bot
//! ([`bot`]) and a local engine that runs bot processes ([`engine`], the
//! `referee` command), and [`check`], which judges a bot's answers to a
//! recorded transcript on the rules.

pub mod bot;
pub mod check;
pub mod codec;
pub mod engine;

/// The game the Riddles.io engine serves here (`play --stdio`).
pub const GAME: crate::games::GameKind = crate::games::GameKind::Golad;
