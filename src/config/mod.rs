//! Bot profiles and settings.
//!
//! Precedence, lowest first: built-in defaults, the profile file
//! (`bots/NAME.toml` or a path), `LADDERBOT_*` environment variables, then
//! command-line flags (applied by the CLI). Environment variables map to keys
//! with `__` (double underscore) between nested keys:
//! `LADDERBOT_SEARCH__PLAYOUTS=5000` sets `search.playouts`,
//! `LADDERBOT_AGENT=pmc` sets `agent`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use config::{Config, Environment, File, FileFormat};
use serde::{Deserialize, Serialize};

use crate::games::{AgentParams, GameKind};

/// Prefix of every environment variable ladderbot reads as a setting.
pub const ENV_PREFIX: &str = "LADDERBOT";
pub use crate::games::DEFAULT_AGENT;

mod shipped;
pub use shipped::{best_for, SHIPPED};

/// Separator between nested keys in environment variable names.
pub const ENV_SEPARATOR: &str = "__";

/// Everything a bot, the server or the match runner can be told.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Profile to load (only meaningful from `LADDERBOT_PROFILE`).
    pub profile: Option<String>,
    /// Name shown to the server and in records.
    pub name: String,
    /// Game to play; the command line may give it instead.
    #[serde(deserialize_with = "game_from_string")]
    pub game: Option<GameKind>,
    /// Agent name (see `ladderbot agents`); `default`: the game's default.
    pub agent: String,
    /// Agent options, e.g. `draw_reward` for `pmc`.
    pub agent_params: AgentParams,
    /// One line of measured strength (against whom, at what time, when),
    /// shown by `ladderbot agents`; no effect on play.
    pub strength: String,
    pub search: SearchSettings,
    pub client: ClientSettings,
    pub server: ServerSettings,
    pub log: LogSettings,
    /// What loading noticed but did not refuse (`LADDERBOT_*` variables
    /// that are no setting), for the log once it is set up.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// What one move may cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSettings {
    /// Playouts per move (unset: time only, or the agent's default).
    pub playouts: Option<u64>,
    /// Milliseconds per move the bot wants to use (the server's clock caps it).
    pub time_ms: Option<u64>,
    /// Safety margin kept for I/O, in milliseconds.
    pub margin_ms: u64,
    /// Seed of the agent's random numbers (unset: from the clock).
    pub seed: Option<u64>,
    /// `fixed` (default): every answer within `time_ms` and the platform's
    /// per-move cap. `bank`: spend a game clock, a fair share of the bank
    /// per move as the soft limit and a few times that on a critical move
    /// as the hard limit, never more than a quarter of the bank: GOLAD on
    /// stdin/stdout spends the engine's bank; a match-server client the
    /// server's bank and/or its own (`bank_ms`, `increment_ms`).
    pub time_policy: TimePolicy,
    /// With `time_policy = "bank"` on a match server: a bank for each whole
    /// game that the bot keeps for itself (on a server with per-move limits
    /// only, or a smaller one than the server's), in milliseconds.
    pub bank_ms: Option<u64>,
    /// What each of our moves adds back to `bank_ms`, in milliseconds.
    pub increment_ms: u64,
    /// Think on the opponent's time: after each answer the agent goes on
    /// searching the opponent's replies until the next request (which
    /// always preempts it), keeping what it finds. Off by default.
    pub ponder: bool,
}

/// How a bot spends a platform's clock (see [`SearchSettings::time_policy`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", try_from = "String")]
pub enum TimePolicy {
    #[default]
    Fixed,
    Bank,
}

impl TryFrom<String> for TimePolicy {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "fixed" => Ok(TimePolicy::Fixed),
            "bank" => Ok(TimePolicy::Bank),
            _ => Err(format!(
                "search.time_policy: '{s}' is not one of: fixed, bank"
            )),
        }
    }
}

/// Who to play, where, how often, and how to reconnect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClientSettings {
    /// `ws://host:port` of a match server (Geister: `HOST:PORT` of a GAT
    /// server); unset: an in-process server with a house bot.
    pub server: Option<String>,
    /// Games to play.
    pub games: u32,
    /// `any` (next waiting client) or `house` (the server's own bot).
    pub opponent: OpponentChoice,
    pub connect_timeout_ms: u64,
    pub backoff_initial_ms: u64,
    pub backoff_max_ms: u64,
    /// Consecutive failed connection attempts before giving up.
    pub max_reconnects: u32,
    /// Speak the game's engine protocol on stdin/stdout instead (GOLAD:
    /// Riddles.io), as a ladder runs an uploaded bot.
    pub stdio: bool,
    /// Geister (GAT): how long to keep retrying to connect before each game
    /// (a GAT server reopens its ports only after the previous game).
    pub reconnect_window_ms: u64,
    /// Append one JSON line per finished game to this file ("" for none).
    /// Without a server: the in-process server's records.
    pub records: String,
    /// End the session after this many seconds (0: no limit): no game
    /// starts after it, the one in progress is played out.
    pub time_limit_s: u64,
    /// After SIGTERM, SIGINT or the time limit, how long the game in
    /// progress may still run before it is abandoned, ms.
    pub stop_grace_ms: u64,
    /// Sent to a match server that asks for a token (`server.token`); keep
    /// it in the environment (`LADDERBOT_CLIENT__TOKEN`), not in a profile.
    pub token: String,
    /// A connection with no frame from the server for this long is dead (a
    /// half-open connection), ms; more than the server's heartbeat interval.
    pub heartbeat_timeout_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", try_from = "String")]
pub enum OpponentChoice {
    Any,
    House,
}

/// The local match server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerSettings {
    pub bind: String,
    /// Longest time one move may take, ms (0: no per-move limit).
    pub time_per_move_ms: u64,
    /// Time bank per side and game, ms (0: no bank).
    pub time_bank_ms: u64,
    /// Added to the bank after each move, ms.
    pub increment_ms: u64,
    /// Records file, one JSON line per finished game ("" for none).
    pub records: String,
    pub heartbeat_interval_ms: u64,
    pub heartbeat_timeout_ms: u64,
    /// The house bot's agent ("" for no house bot).
    pub house_agent: String,
    /// The house bot's playouts per move (0: no playout limit).
    pub house_playouts: u64,
    /// The house bot's time per move, ms (0: no time limit of its own).
    pub house_time_ms: u64,
    /// A secret every client must send in `hello` ("" for an open
    /// server); keep it in the environment (`LADDERBOT_SERVER__TOKEN`).
    pub token: String,
    /// Most connections at once; more are refused with HTTP 503.
    pub max_connections: u32,
    /// Most connections at once from one IP address; more are refused.
    pub max_connections_per_ip: u32,
    /// Messages a connection may send per second, sustained (answers to
    /// the server's move requests do not count).
    pub rate_limit_per_s: u32,
    /// Messages a connection may send in a burst above the sustained rate.
    pub rate_limit_burst: u32,
    /// A connection that has not sent an accepted `hello` after this long
    /// is closed, ms.
    pub hello_timeout_ms: u64,
    /// How long a seat whose connection dropped mid-game may take to come
    /// back with its seat token before it loses by disconnect, ms (its
    /// clock runs meanwhile; 0: it loses at once).
    pub resume_window_ms: u64,
    /// On SIGTERM/SIGINT, how long games in progress may still run to
    /// their end before they are recorded as aborted, ms (0: at once).
    pub shutdown_grace_ms: u64,
    /// Seed for the games' starting positions.
    pub seed: u64,
    /// Options of a game's start, by game: `[server.game_options.floodit]`
    /// `size = "10x10"` (each game checks its own).
    pub game_options: std::collections::BTreeMap<String, crate::games::GameOptions>,
    /// Opening suites, by game: `[server.openings]` `four3d =
    /// "openings/four3d.txt"` (the file format of `match --openings`).
    /// Each pair of games of a match starts from the next opening of its
    /// game's suite, once with each seat; the server counts pairs per game
    /// across matches. Only games whose start is fixed take one.
    pub openings: std::collections::BTreeMap<String, String>,
    /// The order the suites' openings are taken in: `sequential` (as in
    /// the file) or `random` (shuffled from `seed`, every opening once per
    /// pass through the file).
    pub opening_order: crate::runner::openings::OpeningOrder,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogSettings {
    /// `human` or `json`; logs always go to stderr.
    pub format: LogFormat,
    /// A tracing filter such as `info` or `ladderbot=debug`; `RUST_LOG` wins.
    /// Empty: the command's own default ([`LogSettings::DEFAULT_PLAY`] for
    /// `play`, which shows its results on stdout and only what goes wrong
    /// on stderr; [`LogSettings::DEFAULT`] for the other commands).
    pub filter: String,
}

impl LogSettings {
    /// `play`'s filter when none is set: warnings and errors only.
    pub const DEFAULT_PLAY: &'static str = "warn";
    /// Every other command's filter when none is set.
    pub const DEFAULT: &'static str = "info";

    /// The filter in force for a command whose own default is `default`.
    pub fn filter_or<'a>(&'a self, default: &'a str) -> &'a str {
        if self.filter.trim().is_empty() {
            default
        } else {
            &self.filter
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase", try_from = "String")]
pub enum LogFormat {
    Human,
    Json,
}

impl TryFrom<String> for OpponentChoice {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "any" => Ok(OpponentChoice::Any),
            "house" => Ok(OpponentChoice::House),
            _ => Err(format!("client.opponent: '{s}' is not one of: any, house")),
        }
    }
}

impl TryFrom<String> for LogFormat {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "human" => Ok(LogFormat::Human),
            "json" => Ok(LogFormat::Json),
            _ => Err(format!("log.format: '{s}' is not one of: human, json")),
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            profile: None,
            name: "ladderbot".into(),
            game: None,
            agent: DEFAULT_AGENT.into(),
            agent_params: AgentParams::new(),
            strength: String::new(),
            search: SearchSettings::default(),
            client: ClientSettings::default(),
            server: ServerSettings::default(),
            log: LogSettings::default(),
            warnings: Vec::new(),
        }
    }
}

impl SearchSettings {
    /// What a bot with these settings may spend, in words (`agents`,
    /// `play`'s note): `100 ms a move, margin 40 ms, pondering`, `the
    /// platform's bank, margin 30 ms`, `a bank of 600000 ms + 0 ms a move,
    /// ...`.
    pub fn budget(&self) -> String {
        let bank = self.time_policy == TimePolicy::Bank;
        let clock = bank.then(|| match self.bank_ms {
            Some(b) => format!("a bank of {b} ms + {} ms a move", self.increment_ms),
            None => "the platform's bank".to_string(),
        });
        crate::runner::budget_words(
            clock,
            self.time_ms,
            self.playouts,
            Some(self.margin_ms),
            self.ponder,
        )
    }
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            playouts: None,
            time_ms: None,
            margin_ms: 30,
            seed: None,
            time_policy: TimePolicy::Fixed,
            bank_ms: None,
            increment_ms: 0,
            ponder: false,
        }
    }
}

impl Default for ClientSettings {
    fn default() -> Self {
        ClientSettings {
            server: None,
            games: 1,
            opponent: OpponentChoice::Any,
            connect_timeout_ms: 5_000,
            backoff_initial_ms: 250,
            backoff_max_ms: 10_000,
            max_reconnects: 10,
            stdio: false,
            reconnect_window_ms: 30_000,
            records: String::new(),
            time_limit_s: 0,
            stop_grace_ms: 10_000,
            token: String::new(),
            heartbeat_timeout_ms: 120_000,
        }
    }
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            bind: "127.0.0.1:8765".into(),
            time_per_move_ms: 1_000,
            time_bank_ms: 0,
            increment_ms: 0,
            records: "records.jsonl".into(),
            heartbeat_interval_ms: 5_000,
            heartbeat_timeout_ms: 20_000,
            house_agent: DEFAULT_AGENT.into(),
            house_playouts: 1_000,
            house_time_ms: 0,
            seed: 0,
            game_options: Default::default(),
            openings: Default::default(),
            opening_order: Default::default(),
            token: String::new(),
            max_connections: 256,
            max_connections_per_ip: 16,
            rate_limit_per_s: 20,
            rate_limit_burst: 100,
            hello_timeout_ms: 30_000,
            resume_window_ms: 10_000,
            shutdown_grace_ms: 0,
        }
    }
}

impl Default for LogSettings {
    fn default() -> Self {
        LogSettings {
            format: LogFormat::Human,
            filter: String::new(),
        }
    }
}

fn game_from_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<GameKind>, D::Error> {
    let s = Option::<String>::deserialize(d)?;
    s.map(|s| {
        s.parse()
            .map_err(|e| serde::de::Error::custom(format!("game: {e}")))
    })
    .transpose()
}

/// A settings error, already phrased for the user: it names the key or file.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SettingsError(pub String);

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
fn process_env() -> HashMap<String, String> {
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
fn load_text(
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

impl Settings {
    /// Checks what serde cannot: ranges, and names that must exist.
    pub fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() {
            return Err("name: must not be empty".into());
        }
        if let Some(game) = self.game {
            check_agent(game, &self.agent, &self.agent_params, "agent")?;
        }
        if self.search.playouts == Some(0) {
            return Err("search.playouts: must be at least 1".into());
        }
        if self.search.time_ms == Some(0) {
            return Err("search.time_ms: must be at least 1".into());
        }
        if let (Some(GameKind::Geister), Some(t)) = (self.game, self.search.time_ms) {
            let max = crate::platforms::gat::client::MAX_TIME_MS;
            if t > max {
                return Err(format!(
                    "search.time_ms: {t} is more than {max} (a GAT server's timeout is 10 s)"
                ));
            }
        }
        let gat = self.game == Some(GameKind::Geister)
            && !self
                .client
                .server
                .as_deref()
                .is_some_and(|u| u.starts_with("ws://") || u.starts_with("wss://"));
        if self.search.time_policy == TimePolicy::Bank && gat && self.search.increment_ms > 0 {
            return Err(
                "search.increment_ms: a GAT server's clock has no increment (a bank for the \
                 game, then 10 s a move)"
                    .into(),
            );
        }
        if self.search.time_policy != TimePolicy::Bank
            && (self.search.bank_ms.is_some() || self.search.increment_ms > 0)
        {
            return Err(
                "search.bank_ms and search.increment_ms are a game clock: they need \
                 search.time_policy = \"bank\""
                    .into(),
            );
        }
        if self.search.bank_ms == Some(0) {
            return Err("search.bank_ms: must be at least 1".into());
        }
        if self.client.stdio && (self.search.bank_ms.is_some() || self.search.increment_ms > 0) {
            return Err(
                "search.bank_ms: on stdin/stdout the bot spends the engine's own bank".into(),
            );
        }
        if self.client.games == 0 {
            return Err("client.games: must be at least 1".into());
        }
        if let Some(url) = &self.client.server {
            let ws = url.starts_with("ws://") || url.starts_with("wss://");
            match self.game {
                Some(GameKind::Geister) if !ws && !is_host_port(url) => {
                    return Err(format!(
                        "client.server: '{url}' is neither HOST:PORT (a GAT server, e.g. 127.0.0.1:10000) nor a ws:// or wss:// URL"
                    ));
                }
                Some(GameKind::Geister) => {}
                Some(_) if !ws => {
                    return Err(format!(
                        "client.server: '{url}' is not a ws:// or wss:// URL"
                    ));
                }
                // No game yet: either form, checked again once it is known.
                None if !ws && !is_host_port(url) => {
                    return Err(format!(
                        "client.server: '{url}' is neither a ws:// or wss:// URL nor HOST:PORT"
                    ));
                }
                _ => {}
            }
        }
        if self.client.reconnect_window_ms == 0 {
            return Err("client.reconnect_window_ms: must be at least 1".into());
        }
        if self.client.backoff_initial_ms == 0
            || self.client.backoff_max_ms < self.client.backoff_initial_ms
        {
            return Err(
                "client.backoff_initial_ms / backoff_max_ms: need 0 < initial <= max".into(),
            );
        }
        if self.server.time_per_move_ms == 0 && self.server.time_bank_ms == 0 {
            return Err(
                "server.time_per_move_ms / time_bank_ms: at least one clock must be set".into(),
            );
        }
        if self.server.heartbeat_interval_ms == 0
            || self.server.heartbeat_timeout_ms <= self.server.heartbeat_interval_ms
        {
            return Err(
                "server.heartbeat_timeout_ms: must be greater than heartbeat_interval_ms (> 0)"
                    .into(),
            );
        }
        let max_ms = crate::platforms::ws::server::MAX_CLOCK_MS;
        if self.client.heartbeat_timeout_ms == 0 || self.client.heartbeat_timeout_ms > max_ms {
            return Err(format!("client.heartbeat_timeout_ms: must be 1..={max_ms}"));
        }
        let s = &self.server;
        if s.max_connections == 0 || s.max_connections_per_ip == 0 {
            return Err(
                "server.max_connections / max_connections_per_ip: must be at least 1".into(),
            );
        }
        if s.max_connections_per_ip > s.max_connections {
            return Err(
                "server.max_connections_per_ip: must not exceed server.max_connections".into(),
            );
        }
        if s.rate_limit_per_s == 0 || s.rate_limit_burst == 0 {
            return Err("server.rate_limit_per_s / rate_limit_burst: must be at least 1".into());
        }
        if s.hello_timeout_ms == 0 || s.hello_timeout_ms > max_ms {
            return Err(format!("server.hello_timeout_ms: must be 1..={max_ms}"));
        }
        if s.resume_window_ms > max_ms {
            return Err(format!("server.resume_window_ms: at most {max_ms}"));
        }
        if s.shutdown_grace_ms > max_ms {
            return Err(format!("server.shutdown_grace_ms: at most {max_ms}"));
        }
        if !is_bind_address(&s.bind) {
            return Err(format!(
                "server.bind: '{}' is not HOST:PORT with a port of 0..=65535 (e.g. 127.0.0.1:8765)",
                s.bind
            ));
        }
        for (game, options) in &s.game_options {
            let kind: GameKind = game
                .parse()
                .map_err(|e| format!("server.game_options.{game}: {e}"))?;
            kind.check_options(options)
                .map_err(|e| format!("server.game_options.{game}: {e}"))?;
        }
        for (game, path) in &s.openings {
            game.parse::<GameKind>()
                .map_err(|e| format!("server.openings.{game}: {e}"))?;
            if path.trim().is_empty() {
                return Err(format!(
                    "server.openings.{game}: empty; give the suite file's path"
                ));
            }
        }
        let house = &s.house_agent;
        if !house.is_empty() {
            match self.game {
                Some(game) => check_agent(game, house, &AgentParams::new(), "server.house_agent")?,
                None if !GameKind::ALL
                    .iter()
                    .any(|g| g.check_agent(house, &AgentParams::new()).is_ok()) =>
                {
                    return Err(format!(
                        "server.house_agent: '{house}' is no agent of any game (see `ladderbot agents`)"
                    ));
                }
                None => {}
            }
        }
        Ok(())
    }
}

/// `HOST:PORT` to listen on: a non-empty host and a port of 0..=65535.
fn is_bind_address(s: &str) -> bool {
    s.rsplit_once(':').is_some_and(|(host, port)| {
        !host.is_empty() && !host.contains('/') && port.parse::<u16>().is_ok()
    })
}

/// `HOST:PORT` with a non-empty host and a port number (no scheme).
fn is_host_port(s: &str) -> bool {
    match s.rsplit_once(':') {
        Some((host, port)) => {
            !host.is_empty() && !host.contains('/') && port.parse::<u16>().is_ok_and(|p| p > 0)
        }
        None => false,
    }
}

/// Builds the agent once to check its name and parameters.
fn check_agent(game: GameKind, agent: &str, params: &AgentParams, key: &str) -> Result<(), String> {
    match game.check_agent(agent, params) {
        Ok(_) => Ok(()),
        // Parameter errors already name their key.
        Err(e) if e.starts_with("agent_params.") => Err(e),
        Err(e) => Err(format!("{key}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Option<HashMap<String, String>> {
        Some(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    fn profile(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.toml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn defaults_load_with_no_profile_and_no_env() {
        assert_eq!(load(None, env(&[])).unwrap(), Settings::default());
    }

    #[test]
    fn profile_then_env_with_nested_keys() {
        let (_d, p) = profile(
            "game = \"four3d\"\nagent = \"random\"\n[search]\nplayouts = 500\n[agent_params]\n",
        );
        let s = load(Some(&p), env(&[])).unwrap();
        assert_eq!((s.agent.as_str(), s.search.playouts), ("random", Some(500)));
        let s = load(
            Some(&p),
            env(&[
                ("LADDERBOT_AGENT", "pmc"),
                ("LADDERBOT_SEARCH__PLAYOUTS", "700"),
                ("LADDERBOT_AGENT_PARAMS__DRAW_REWARD", "0.5"),
                ("LADDERBOT_CLIENT__SERVER", "ws://127.0.0.1:9"),
            ]),
        )
        .unwrap();
        assert_eq!(s.agent, "pmc");
        assert_eq!(s.search.playouts, Some(700));
        assert_eq!(s.client.server.as_deref(), Some("ws://127.0.0.1:9"));
        assert_eq!(s.agent_params["draw_reward"].as_f64(), Some(0.5));
    }

    #[test]
    fn bad_values_name_their_key() {
        let err = load(None, env(&[("LADDERBOT_SEARCH__PLAYOUTS", "lots")]))
            .unwrap_err()
            .0;
        assert!(err.contains("search.playouts"), "{err}");
        let (_d, p) = profile("game = \"four3d\"\nagent = \"nope\"\n");
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(
            err.contains("agent") && err.contains("nope") && err.contains("bot.toml"),
            "{err}"
        );
        let (_d, p) = profile("[search]\nplayots = 5\n");
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(err.contains("playots"), "{err}");
        let (_d, p) = profile("game = \"chess\"\n");
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(err.contains("game") && err.contains("chess"), "{err}");
        let err = load(None, env(&[("LADDERBOT_CLIENT__OPPONENT", "everyone")]))
            .unwrap_err()
            .0;
        assert!(
            err.contains("client.opponent") && err.contains("everyone"),
            "{err}"
        );
        let err = load(None, env(&[("LADDERBOT_LOG__FORMAT", "xml")]))
            .unwrap_err()
            .0;
        assert!(err.contains("log.format"), "{err}");
        let (_d, p) = profile("[search\nplayouts = 3\n");
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(!err.contains('\n') && err.contains("bot.toml"), "{err}");
        let err = load(None, env(&[("LADDERBOT_CLIENT__SERVER", "http://x")]))
            .unwrap_err()
            .0;
        assert!(err.contains("client.server"), "{err}");
        let (_d, p) = profile("game = \"four3d\"\n[agent_params]\ndraw_reward = 3.0\n");
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(err.contains("agent_params.draw_reward"), "{err}");
    }

    #[test]
    fn fault_and_limit_keys_are_read_and_checked() {
        let s = load(
            None,
            env(&[
                ("LADDERBOT_CLIENT__HEARTBEAT_TIMEOUT_MS", "1500"),
                ("LADDERBOT_SERVER__MAX_CONNECTIONS", "10"),
                ("LADDERBOT_SERVER__MAX_CONNECTIONS_PER_IP", "2"),
                ("LADDERBOT_SERVER__RATE_LIMIT_PER_S", "5"),
                ("LADDERBOT_SERVER__RATE_LIMIT_BURST", "7"),
                ("LADDERBOT_SERVER__HELLO_TIMEOUT_MS", "900"),
                ("LADDERBOT_SERVER__RESUME_WINDOW_MS", "0"),
                ("LADDERBOT_SERVER__SHUTDOWN_GRACE_MS", "3000"),
            ]),
        )
        .unwrap();
        assert_eq!(s.client.heartbeat_timeout_ms, 1500);
        let v = &s.server;
        assert_eq!(
            (
                v.max_connections,
                v.max_connections_per_ip,
                v.rate_limit_per_s,
                v.rate_limit_burst,
                v.hello_timeout_ms,
                v.resume_window_ms,
                v.shutdown_grace_ms
            ),
            (10, 2, 5, 7, 900, 0, 3000)
        );
        for (key, value, named) in [
            (
                "LADDERBOT_CLIENT__HEARTBEAT_TIMEOUT_MS",
                "0",
                "client.heartbeat_timeout_ms",
            ),
            (
                "LADDERBOT_SERVER__MAX_CONNECTIONS",
                "0",
                "server.max_connections",
            ),
            (
                "LADDERBOT_SERVER__MAX_CONNECTIONS_PER_IP",
                "300",
                "server.max_connections_per_ip",
            ),
            (
                "LADDERBOT_SERVER__RATE_LIMIT_BURST",
                "0",
                "server.rate_limit_per_s / rate_limit_burst",
            ),
            (
                "LADDERBOT_SERVER__HELLO_TIMEOUT_MS",
                "0",
                "server.hello_timeout_ms",
            ),
            (
                "LADDERBOT_SERVER__RESUME_WINDOW_MS",
                "999999999999",
                "server.resume_window_ms",
            ),
            (
                "LADDERBOT_SERVER__SHUTDOWN_GRACE_MS",
                "999999999999",
                "server.shutdown_grace_ms",
            ),
        ] {
            let err = load(None, env(&[(key, value)])).unwrap_err().0;
            assert!(err.contains(named), "{key}={value}: {err}");
        }
    }

    #[test]
    fn the_bank_time_policy_is_for_stdio_golad_gat_and_match_server_clients() {
        let (_d, p) =
            profile("game = \"golad\"\n[search]\ntime_policy = \"bank\"\n[client]\nstdio = true\n");
        let s = load(Some(&p), env(&[])).unwrap();
        assert_eq!(s.search.time_policy, TimePolicy::Bank);
        let (_d, p) = profile(
            "game = \"four3d\"\n[search]\ntime_policy = \"bank\"\nbank_ms = 8000\nincrement_ms = 50\n",
        );
        let s = load(Some(&p), env(&[])).unwrap();
        assert_eq!((s.search.bank_ms, s.search.increment_ms), (Some(8000), 50));
        // A GAT server's clock: a bank for the game (the plan's), no increment.
        let (_d, p) = profile("game = \"geister\"\n[search]\ntime_policy = \"bank\"\n");
        let s = load(Some(&p), env(&[])).unwrap();
        assert_eq!(
            (s.search.time_policy, s.search.bank_ms),
            (TimePolicy::Bank, None)
        );
        let (_d, p) = profile(
            "game = \"geister\"\n[search]\ntime_policy = \"bank\"\nbank_ms = 60000\nincrement_ms = 100\n",
        );
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(err.contains("search.increment_ms"), "{err}");
        // A bank without the policy that spends it, or on stdio.
        let (_d, p) = profile("game = \"four3d\"\n[search]\nbank_ms = 8000\n");
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(err.contains("time_policy"), "{err}");
        let (_d, p) = profile(
            "game = \"golad\"\n[search]\ntime_policy = \"bank\"\nbank_ms = 8000\n[client]\nstdio = true\n",
        );
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(err.contains("search.bank_ms"), "{err}");
        let err = load(None, env(&[("LADDERBOT_SEARCH__TIME_POLICY", "soon")]))
            .unwrap_err()
            .0;
        assert!(err.contains("time_policy"), "{err}");
    }

    #[test]
    fn geister_profiles_take_a_gat_server_and_geister_agents() {
        let (_d, p) = profile(
            "game = \"geister\"\nagent = \"rule\"\n[client]\nserver = \"127.0.0.1:10000\"\n",
        );
        let s = load(Some(&p), env(&[])).unwrap();
        assert_eq!(s.game, Some(GameKind::Geister));
        assert_eq!(s.client.server.as_deref(), Some("127.0.0.1:10000"));
        assert_eq!(s.client.reconnect_window_ms, 30_000);
        // Geister also plays on the match server (a ws:// URL); anything
        // else must be a GAT server's HOST:PORT, and the agent a Geister one.
        let s = load(
            Some(&p),
            env(&[("LADDERBOT_CLIENT__SERVER", "ws://127.0.0.1:8765")]),
        )
        .unwrap();
        assert_eq!(s.client.server.as_deref(), Some("ws://127.0.0.1:8765"));
        let err = load(
            Some(&p),
            env(&[("LADDERBOT_CLIENT__SERVER", "http://127.0.0.1:8765")]),
        )
        .unwrap_err()
        .0;
        assert!(
            err.contains("client.server") && err.contains("HOST:PORT"),
            "{err}"
        );
        let err = load(Some(&p), env(&[("LADDERBOT_AGENT", "pmc")]))
            .unwrap_err()
            .0;
        assert!(err.contains("agent") && err.contains("pmc"), "{err}");
        for bad in ["127.0.0.1", ":10000", "host:port", "host:0"] {
            let err = load(Some(&p), env(&[("LADDERBOT_CLIENT__SERVER", bad)]))
                .unwrap_err()
                .0;
            assert!(err.contains("client.server"), "{bad}: {err}");
        }
        // And a Score Four profile still wants a WebSocket URL.
        let (_d, p) = profile("game = \"four3d\"\n[client]\nserver = \"127.0.0.1:10000\"\n");
        let err = load(Some(&p), env(&[])).unwrap_err().0;
        assert!(err.contains("ws://"), "{err}");
        // Without a game, either form passes.
        for ok in ["127.0.0.1:10000", "ws://127.0.0.1:8765"] {
            assert!(load(None, env(&[("LADDERBOT_CLIENT__SERVER", ok)])).is_ok());
        }
        let err = load(None, env(&[("LADDERBOT_CLIENT__RECONNECT_WINDOW_MS", "0")]))
            .unwrap_err()
            .0;
        assert!(err.contains("client.reconnect_window_ms"), "{err}");
    }

    #[test]
    fn load_from_text_matches_load_from_a_file() {
        let text = "game = \"four3d\"\nagent = \"random\"\n[search]\nplayouts = 500\n";
        let (_d, p) = profile(text);
        let vars = env(&[("LADDERBOT_SEARCH__PLAYOUTS", "700")]).unwrap();
        let from_file = load(Some(&p), Some(vars.clone())).unwrap();
        assert_eq!(load_from(Some(text), vars).unwrap(), from_file);
        assert_eq!(
            load_from(None, HashMap::new()).unwrap(),
            Settings::default()
        );
        let err = load_from(Some("[search]\nplayots = 5\n"), HashMap::new())
            .unwrap_err()
            .0;
        assert!(err.contains("playots"), "{err}");
    }

    #[test]
    fn missing_profile_is_a_clear_error() {
        let err = resolve_profile("no-such-profile-xyz").unwrap_err().0;
        assert!(err.contains("no-such-profile-xyz"));
        assert!(err.contains("shipped profiles: floodit-alphabeta"), "{err}");
    }

    #[test]
    fn every_file_in_bots_is_shipped_and_nothing_else() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| {
                let name = e.unwrap().file_name().into_string().unwrap();
                name.strip_suffix(".toml").map(str::to_string)
            })
            .collect();
        files.sort();
        let shipped: Vec<String> = SHIPPED.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(
            shipped, files,
            "src/config/shipped.rs must list bots/*.toml"
        );
        for (name, text) in SHIPPED {
            let on_disk = std::fs::read_to_string(dir.join(format!("{name}.toml"))).unwrap();
            assert_eq!(*text, on_disk);
        }
    }

    #[test]
    fn a_shipped_profile_is_found_by_name_and_a_path_is_not_guessed() {
        // The working directory of a test is the crate's root, where
        // bots/ exists: the file wins there.
        assert!(matches!(
            resolve_profile("four3d-pmc").unwrap(),
            Profile::File(_) | Profile::Shipped { .. }
        ));
        let s = load_profile(
            Some(&Profile::Shipped {
                name: "four3d-pmc",
                text: shipped::find("four3d-pmc").unwrap().1,
            }),
            Some(HashMap::new()),
        )
        .unwrap();
        assert_eq!(s.agent, "pmc");
        assert!(resolve_profile("/nope/four3d-pmc.toml").is_err());
        assert!(resolve_profile("nope/four3d-pmc").is_err());
    }

    #[test]
    fn server_openings_from_a_profile_and_the_environment() {
        use crate::runner::openings::OpeningOrder;
        let (_d, p) = profile(
            "[server]\nopening_order = \"random\"\n[server.openings]\nfour3d = \"s.txt\"\n",
        );
        let s = load(Some(&p), env(&[])).unwrap();
        assert_eq!(s.server.openings["four3d"], "s.txt");
        assert_eq!(s.server.opening_order, OpeningOrder::Random);
        let s = load(
            None,
            env(&[("LADDERBOT_SERVER__OPENINGS__FOUR3D", "openings/four3d.txt")]),
        )
        .unwrap();
        assert_eq!(s.server.openings["four3d"], "openings/four3d.txt");
        assert_eq!(s.server.opening_order, OpeningOrder::Sequential);
        let err = load(None, env(&[("LADDERBOT_SERVER__OPENINGS__CHESS", "x.txt")]))
            .unwrap_err()
            .0;
        assert!(err.contains("server.openings.chess: unknown game"), "{err}");
        let err = load(
            None,
            env(&[("LADDERBOT_SERVER__OPENING_ORDER", "shuffled")]),
        )
        .unwrap_err()
        .0;
        assert!(err.contains("unknown opening order 'shuffled'"), "{err}");
    }
}
