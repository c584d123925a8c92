//! Loading settings: the built-in defaults, then a profile's TOML, then
//! the `LADDERBOT_*` variables that name a setting (the others left out
//! with a warning that suggests the nearest name); names the `config`
//! crate would read as array subscripts refused first, and errors put on
//! one line in the words a profile uses.

use std::collections::HashMap;
use std::path::Path;

use config::{Config, Environment, File, FileFormat};

use super::{Settings, SettingsError, ENV_PREFIX, ENV_SEPARATOR};

/// Loads settings: defaults, then the profile file (if any), then the
/// `LADDERBOT_*` variables of `env` (the process environment when `None`).
pub fn load(
    profile: Option<&Path>,
    env: Option<HashMap<String, String>>,
) -> Result<Settings, SettingsError> {
    let text = match profile {
        Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
            SettingsError(format!("{}: cannot read the profile: {e}", path.display()))
        })?),
        None => None,
    };
    let where_ = profile
        .map(|p| format!("{}: ", p.display()))
        .unwrap_or_default();
    let env = env.unwrap_or_else(process_env);
    load_text(text.as_deref(), &where_, env)
}

/// As [`load`], from a profile's TOML text instead of a file and from the
/// variables in `env` only (never the process environment).
pub fn load_from(
    profile_toml: Option<&str>,
    env: HashMap<String, String>,
) -> Result<Settings, SettingsError> {
    load_text(profile_toml, "", env)
}

/// The process's variables whose names start with `LADDERBOT_` (in any
/// case, as the `config` crate matches them); others are never read.
pub(super) fn process_env() -> HashMap<String, String> {
    std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .filter(|(k, _)| {
            k.get(..ENV_PREFIX.len() + 1)
                .is_some_and(|p| p.eq_ignore_ascii_case(&format!("{ENV_PREFIX}_")))
        })
        .collect()
}

/// Refuses names the `config` crate would read as array subscripts
/// (`x[100000000]` makes it allocate that many elements, a negative index
/// panicked in 0.14): no setting of ladderbot has brackets in its name.
fn check_names(text: Option<&str>, env: &HashMap<String, String>) -> Result<(), String> {
    fn walk(table: &toml::Table, path: &str) -> Result<(), String> {
        for (key, value) in table {
            let full = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            if key.contains(['[', ']']) {
                return Err(format!("{full}: not a setting (brackets in a key)"));
            }
            if let toml::Value::Table(t) = value {
                walk(t, &full)?;
            }
        }
        Ok(())
    }
    // Text that is not TOML is left to the `config` crate, whose error
    // names the line.
    if let Some(Ok(table)) = text.map(str::parse::<toml::Table>) {
        walk(&table, "")?;
    }
    let mut names: Vec<&String> = env.keys().collect();
    names.sort();
    if let Some(bad) = names.into_iter().find(|k| k.contains(['[', ']'])) {
        return Err(format!(
            "{bad}: not a setting (brackets in a variable's name)"
        ));
    }
    Ok(())
}

/// Checks the names, then loads defaults, `text` and the variables of
/// `env` that name a setting (the others are left out, each with a
/// warning in [`Settings::warnings`]).
pub(super) fn load_text(
    text: Option<&str>,
    where_: &str,
    env: HashMap<String, String>,
) -> Result<Settings, SettingsError> {
    check_names(text, &env).map_err(|m| SettingsError(format!("{where_}{}", one_line(&m))))?;
    let (env, warnings) = settings_only(env);
    let source = text.map(|t| File::from_str(t, FileFormat::Toml));
    let mut settings = load_sources(source, where_, Some(env))?;
    settings.warnings = warnings;
    Ok(settings)
}

/// The keys of every setting (`search.playouts`, ...), and the tables whose
/// keys are free (`agent_params`, `server.game_options`, `server.openings`): from the
/// defaults, so a new setting is known without a list to keep.
pub fn setting_keys() -> (Vec<String>, Vec<String>) {
    fn walk(v: &serde_json::Value, path: &str, keys: &mut Vec<String>, open: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(map) if map.is_empty() && !path.is_empty() => {
                open.push(path.to_string())
            }
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(v, &p, keys, open);
                }
            }
            _ => keys.push(path.to_string()),
        }
    }
    let (mut keys, mut open) = (Vec::new(), Vec::new());
    let defaults = serde_json::to_value(Settings::default()).unwrap_or_default();
    walk(&defaults, "", &mut keys, &mut open);
    (keys, open)
}

/// Splits `env` into the variables that name a setting and warnings for the
/// others: a ladder or a container platform may set `LADDERBOT_*`
/// variables of its own, which must not stop the bot.
fn settings_only(env: HashMap<String, String>) -> (HashMap<String, String>, Vec<String>) {
    let (keys, open) = setting_keys();
    let mut warnings = Vec::new();
    let mut kept = HashMap::new();
    let mut names: Vec<(String, String)> = env.into_iter().collect();
    names.sort();
    for (name, value) in names {
        let key = name
            .get(ENV_PREFIX.len() + 1..)
            .unwrap_or_default()
            .to_ascii_lowercase()
            .replace(ENV_SEPARATOR, ".");
        let known = keys.contains(&key)
            || open.iter().any(|o| {
                key.strip_prefix(o.as_str())
                    .is_some_and(|r| r.starts_with('.'))
            });
        if known {
            kept.insert(name, value);
            continue;
        }
        let hint = keys
            .iter()
            .filter(|k| edit_distance(k, &key) <= 2)
            .min_by_key(|k| edit_distance(k, &key))
            .map(|k| {
                format!(
                    " (did you mean {ENV_PREFIX}_{}?)",
                    k.to_ascii_uppercase().replace('.', ENV_SEPARATOR)
                )
            })
            .unwrap_or_default();
        warnings.push(format!("{name} is not a ladderbot setting: ignored{hint}"));
    }
    (kept, warnings)
}

/// Levenshtein distance (for suggesting a setting's name).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// Defaults, then `profile`, then `env`; errors prefixed with `where_`.
fn load_sources(
    profile: Option<impl config::Source + Send + Sync + 'static>,
    where_: &str,
    env: Option<HashMap<String, String>>,
) -> Result<Settings, SettingsError> {
    let mut builder = Config::builder();
    if let Some(source) = profile {
        builder = builder.add_source(source);
    }
    let env_source = Environment::with_prefix(ENV_PREFIX)
        .prefix_separator("_")
        .separator(ENV_SEPARATOR)
        .try_parsing(true)
        .source(env);
    builder = builder.add_source(env_source);
    let fail = |msg: String| SettingsError(format!("{where_}{}", one_line(&msg)));
    let cfg = builder.build().map_err(|e| fail(e.to_string()))?;
    let settings: Settings = cfg.try_deserialize().map_err(|e| fail(e.to_string()))?;
    settings.validate().map_err(fail)?;
    Ok(settings)
}

/// One line, in the words a profile uses: no line breaks, no repeated file
/// name (the prefix already names it), "key" rather than "field".
fn one_line(msg: &str) -> String {
    let mut m = msg.to_string();
    if let Some(i) = m.rfind(" in ") {
        let tail = &m[i + 4..];
        if tail.ends_with(".toml") || tail.ends_with(".toml\n") {
            m.truncate(i);
        }
    }
    let m = m.replace("unknown field", "unknown key");
    m.split_whitespace().collect::<Vec<_>>().join(" ")
}
