//! The Riddles.io engine protocol (GOLAD), as a folder: the pure line codec
//! ([`codec`], tested on recorded engine transcripts), the stdin/stdout bot
//! ([`bot`]) and a local engine that runs bot processes ([`engine`], the
//! `referee` command).

pub mod bot;
pub mod codec;
pub mod engine;
