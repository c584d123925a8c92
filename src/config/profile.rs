//! Finding a bot profile: a file on disk (as given, or `bots/NAME.toml`
//! near the working directory or the executable) or one of the profiles
//! shipped in the binary; the shipped profiles of a game; and loading
//! settings from a resolved profile.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::load::{load, load_from, load_text, process_env};
use super::shipped::{self, SHIPPED};
use super::{Settings, SettingsError};
use crate::games::GameKind;

/// A bot profile found by [`resolve_profile`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Profile {
    /// A file on disk.
    File(PathBuf),
    /// One of the profiles shipped in `bots/`, built into the binary.
    Shipped {
        name: &'static str,
        text: &'static str,
    },
}

/// Finds a profile: an existing path as given; else, for a bare NAME,
/// `bots/NAME.toml` in the working directory, beside the executable, or in
/// one of the two folders above it (so `target/release/ladderbot` in a
/// clone finds the clone's `bots/`); else the shipped profile of that name
/// built into the binary.
pub fn resolve_profile(name: &str) -> Result<Profile, SettingsError> {
    let direct = PathBuf::from(name);
    if direct.is_file() {
        return Ok(Profile::File(direct));
    }
    let bare = !name.contains(['/', '\\']);
    let file = if name.ends_with(".toml") {
        name.to_string()
    } else {
        format!("{name}.toml")
    };
    let mut tried = vec![direct];
    if bare {
        tried.push(PathBuf::from("bots").join(&file));
        if let Some(dir) = std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
        {
            for up in dir.ancestors().take(3) {
                tried.push(up.join("bots").join(&file));
            }
        }
    }
    if let Some(p) = tried.iter().skip(1).find(|p| p.is_file()) {
        return Ok(Profile::File(p.clone()));
    }
    if let Some((name, text)) = shipped::find(name).filter(|_| bare) {
        return Ok(Profile::Shipped { name, text });
    }
    let list: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    let shipped: Vec<&str> = shipped::SHIPPED.iter().map(|(n, _)| *n).collect();
    Err(SettingsError(format!(
        "profile '{name}' not found (looked for {}; shipped profiles: {})",
        list.join(", "),
        shipped.join(", ")
    )))
}

/// The shipped profiles of `game`, loaded without the environment, by
/// name (`agents` lists them).
pub fn shipped_for(game: GameKind) -> Vec<(&'static str, Settings)> {
    let mut list = SHIPPED
        .iter()
        .filter_map(|&(name, text)| {
            let s = load_from(Some(text), HashMap::new()).ok()?;
            (s.game == Some(game)).then_some((name, s))
        })
        .collect::<Vec<_>>();
    // The game's own profile (`play GAME`) first.
    list.sort_by_key(|(name, _)| !name.ends_with("-best"));
    list
}

/// Loads settings as [`load`] does, from a resolved profile.
pub fn load_profile(
    profile: Option<&Profile>,
    env: Option<HashMap<String, String>>,
) -> Result<Settings, SettingsError> {
    match profile {
        None => load(None, env),
        Some(Profile::File(path)) => load(Some(path), env),
        Some(Profile::Shipped { name, text }) => load_text(
            Some(text),
            &format!("bots/{name}.toml (built in): "),
            env.unwrap_or_else(process_env),
        ),
    }
}
