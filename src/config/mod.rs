//! Bot profiles and settings.
//!
//! Precedence, lowest first: built-in defaults, the profile file
//! (`bots/NAME.toml` or a path), `LADDERBOT_*` environment variables, then
//! command-line flags (applied by the CLI). Environment variables map to keys
//! with `__` (double underscore) between nested keys:
//! `LADDERBOT_SEARCH__PLAYOUTS=5000` sets `search.playouts`,
//! `LADDERBOT_AGENT=pmc` sets `agent`.
//!
//! The parts: `settings.rs` (what can be set: [`Settings`] and its
//! sections, with their defaults), `profile.rs` (finding a profile on disk
//! or among the shipped ones), `load.rs` (defaults, profile and environment
//! merged, and the names checked), `validate.rs` (what serde cannot check)
//! and `shipped.rs` (the profiles built into the binary).

mod load;
mod profile;
mod settings;
mod shipped;
#[cfg(test)]
mod tests;
mod validate;

pub use load::{load, load_from, setting_keys};
pub use profile::{load_profile, resolve_profile, shipped_for, Profile};
pub use settings::{
    ClientSettings, LogFormat, LogSettings, OpponentChoice, SearchSettings, ServerSettings,
    Settings, TimePolicy,
};
pub use shipped::{best_for, SHIPPED};

/// Prefix of every environment variable ladderbot reads as a setting.
pub const ENV_PREFIX: &str = "LADDERBOT";
pub use crate::games::DEFAULT_AGENT;

/// Separator between nested keys in environment variable names.
pub const ENV_SEPARATOR: &str = "__";

/// A settings error, already phrased for the user: it names the key or file.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SettingsError(pub String);
