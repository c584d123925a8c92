//! The command line: `play`, `serve`, `serve-gat`, `match`, `merge`,
//! `latency`, `openings`, `bench`, `report`, `referee`, `check-answers`,
//! `analyze`, `tune`, `agents`. The lab's tasks are another program
//! (`ladderbot-lab`, the `lab/` crate).
//!
//! Each command loads the settings (defaults < profile < `LADDERBOT_*`
//! environment < flags), starts logging on stderr, and runs. Exit codes:
//! 0 success, 1 a failure while running, 2 bad usage or configuration, 75
//! a failure worth retrying later (server unreachable or busy), 130/143
//! stopped by SIGINT/SIGTERM after flushing records and printing the
//! summary.

mod analyze;
mod bench_cmd;
mod check_answers;
mod latency;
mod match_cmd;
mod merge;
mod openings_cmd;
pub mod out;
mod play;
mod referee;
mod report;
mod serve;
mod serve_gat;
mod tune;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{self, LogFormat, Settings};
use crate::games::{AgentParams, GameKind};

#[derive(Debug, Parser)]
#[command(
    name = "ladderbot",
    version,
    about = "Bot client, local match server and match runner for game-AI ladders",
    long_about = "Bot client, local match server and match runner for game-AI ladders.\n\n\
Settings come from defaults, then a bot profile (--profile), then LADDERBOT_* environment \
variables (nested keys joined by '__', e.g. LADDERBOT_SEARCH__PLAYOUTS=5000; a variable that names no setting is a warning), then flags.\n\n\
Without a command, `play` runs with the profile from --profile or LADDERBOT_PROFILE, else ladderbot.toml beside the binary, else ./ladderbot.toml (how a ladder starts an uploaded bot)."
)]
pub struct Cli {
    /// Bot profile: a TOML file path, or NAME for bots/NAME.toml (in the working directory,
    /// beside the binary or in the two folders above it; else the shipped profile NAME built in).
    #[arg(
        long,
        global = true,
        env = "LADDERBOT_PROFILE",
        value_name = "NAME|PATH"
    )]
    pub profile: Option<String>,
    /// `profile` came from `LADDERBOT_PROFILE`, not from `--profile`.
    #[arg(skip)]
    pub profile_from_env: bool,
    /// Log format on stderr (default: the profile's log.format, else human).
    #[arg(long, global = true, value_enum)]
    pub log_format: Option<LogFormat>,
    /// Without a command, `play` runs with the profile from --profile or
    /// LADDERBOT_PROFILE, else `ladderbot.toml` beside the binary, else
    /// `./ladderbot.toml` (how a ladder starts an uploaded bot).
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play games as a client of a match server (or of an in-process one with a house bot).
    Play(play::PlayArgs),
    /// Run the WebSocket match server.
    Serve(serve::ServeArgs),
    /// Run a GAT-compatible Geister server on two TCP ports.
    ServeGat(serve_gat::ServeGatArgs),
    /// Play a match between two agents in-process and report the score with Elo and LOS.
    Match(Box<match_cmd::MatchArgs>),
    /// Print the report of a match from its records (the shards of a sharded match, in any
    /// order); with --of NAME, a player's results over records of any origin.
    Merge(merge::MergeArgs),
    /// Move times of recorded games on the clock that recorded them (p50, p99, p99.9, max,
    /// moves over --limit-ms): is every answer within the platform's limit?
    Latency(latency::LatencyArgs),
    /// Generate a balanced opening suite for `match --openings`: random plies from the
    /// start, kept when the judge agent playing itself from them scores near even.
    Openings(openings_cmd::OpeningsArgs),
    /// Measure speed: one benchmark, reported as a median and a ratio to a reference.
    Bench(bench_cmd::BenchArgs),
    /// Write one self-contained HTML page of recorded games: results with Elo, time plots and
    /// a replay of every game.
    Report(report::ReportArgs),
    /// Run two bot programs against each other over the Riddles.io GOLAD protocol.
    Referee(referee::RefereeArgs),
    /// Check a GOLAD bot's answers to a recorded Riddles.io engine transcript on the rules: one
    /// legal move per `action move`, no `pass` (unless --allow-pass) and no forced pass in the
    /// bot's log. Exit 1 on any problem.
    CheckAnswers(check_answers::CheckArgs),
    /// Find where recorded games were lost: a reference's value of every position, each game's
    /// decisive move, and the losses by phase and by player.
    Analyze(Box<analyze::AnalyzeArgs>),
    /// Tune an agent's parameters together by SPSA: pairs of games with every parameter moved
    /// at once, the state saved after every iteration, a tuned profile at the end.
    Tune(Box<tune::TuneArgs>),
    /// List the games and their agents (with --params, each agent's declared parameters).
    Agents(AgentsArgs),
}

#[derive(Debug, clap::Args)]
pub struct AgentsArgs {
    /// Also list each agent's parameters: kind, range, default, tuning step, meaning.
    #[arg(long)]
    pub params: bool,
    /// Only this game.
    #[arg(value_parser = parse_game)]
    pub game: Option<GameKind>,
}

/// A failure with the exit code it deserves.
#[derive(Debug)]
pub enum CliError {
    /// Bad usage or configuration: exit 2.
    Usage(String),
    /// Failed while running: exit 1.
    Runtime(String),
    /// Failed for a reason that may pass (the server unreachable or busy):
    /// exit 75 (EX_TEMPFAIL), worth retrying later.
    Retry(String),
    /// Ended early by a signal, records flushed and summary printed: exit
    /// 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
    Interrupted(&'static str),
    /// Ended early by a signal, the command having said what it kept: exit
    /// 130 or 143 with no further message (not an error).
    Stopped(&'static str),
}

/// The exit codes, for schedulers: done, failed, bad configuration, worth
/// retrying, stopped by SIGINT or SIGTERM.
pub const EXIT_FAILED: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
pub const EXIT_RETRY: u8 = 75;

impl CliError {
    /// The exit code this failure deserves.
    pub fn code(&self) -> u8 {
        match self {
            CliError::Usage(_) => EXIT_USAGE,
            CliError::Runtime(_) => EXIT_FAILED,
            CliError::Retry(_) => EXIT_RETRY,
            CliError::Interrupted("SIGTERM") | CliError::Stopped("SIGTERM") => 143,
            CliError::Interrupted(_) | CliError::Stopped(_) => 130,
        }
    }
    /// What `error:` says on stderr.
    pub fn message(&self) -> String {
        match self {
            CliError::Usage(m) | CliError::Runtime(m) => m.clone(),
            CliError::Retry(m) => format!("{m} (worth retrying later)"),
            CliError::Interrupted(sig) => format!("stopped by {sig}; records flushed"),
            CliError::Stopped(sig) => format!("stopped by {sig}"),
        }
    }
}

/// When this process started ([`main_exit`]'s first step, or the first
/// call).
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// When this process started: a GOLAD bot's first request may have waited
/// in its pipe since ([`crate::platforms::riddles::bot::first_request_at`]).
pub(crate) fn started() -> std::time::Instant {
    *STARTED.get_or_init(std::time::Instant::now)
}

/// Parses the command line, runs it, and returns the exit code.
pub fn main_exit() -> ExitCode {
    started();
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    cli.profile_from_env =
        matches.value_source("profile") == Some(clap::parser::ValueSource::EnvVariable);
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // A command stopped by a signal said so itself: no "error".
        Err(e @ CliError::Stopped(_)) => ExitCode::from(e.code()),
        Err(e) => {
            eprintln!("error: {}", e.message());
            ExitCode::from(e.code())
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    let mut warnings = Vec::new();
    let profile = match (&cli.profile, &cli.command) {
        // A bot plays the profile it is given, or nothing.
        (Some(p), None | Some(Command::Play(_))) => {
            Some(config::resolve_profile(p).map_err(|e| CliError::Usage(e.0))?)
        }
        // Other commands need no bot: a profile an image or a platform
        // names in LADDERBOT_PROFILE but did not mount is only a warning.
        (Some(p), Some(_)) => match config::resolve_profile(p) {
            Ok(path) => Some(path),
            Err(e) if cli.profile_from_env => {
                warnings.push(format!(
                    "LADDERBOT_PROFILE: {e}; going on without a profile"
                ));
                None
            }
            Err(e) => return Err(CliError::Usage(e.0)),
        },
        (None, Some(_)) => None,
        (None, None) => Some(config::Profile::File(upload_profile().ok_or_else(
            || {
                CliError::Usage(
                "no command and no profile: give a command (see --help), set LADDERBOT_PROFILE, \
                 or put a ladderbot.toml beside the binary"
                    .into(),
            )
            },
        )?)),
    };
    let command = cli
        .command
        .unwrap_or_else(|| Command::Play(play::PlayArgs::none()));
    let mut settings =
        config::load_profile(profile.as_ref(), None).map_err(|e| CliError::Usage(e.0))?;
    settings.warnings.extend(warnings);
    match command {
        Command::Play(args) => {
            let implied = match &profile {
                None => play::game_profile(&args, &mut settings)?,
                Some(_) => None,
            };
            args.apply(&mut settings)?;
            play::check_ponder(&args, &mut settings, implied.is_some());
            start_logging_with(
                &cli.log_format,
                &settings,
                config::LogSettings::DEFAULT_PLAY,
            )?;
            if let Some(name) = implied {
                play::say_profile(&settings, name);
            }
            play::run(args, settings)
        }
        Command::Serve(args) => {
            args.apply(&mut settings)?;
            start_logging(&cli.log_format, &settings)?;
            serve::run(settings)
        }
        Command::ServeGat(args) => {
            start_logging(&cli.log_format, &settings)?;
            serve_gat::run(args)
        }
        Command::Match(args) => {
            start_logging(&cli.log_format, &settings)?;
            match_cmd::run(*args, &settings)
        }
        Command::Merge(args) => {
            start_logging(&cli.log_format, &settings)?;
            merge::run(args)
        }
        Command::Latency(args) => {
            start_logging(&cli.log_format, &settings)?;
            latency::run(args)
        }
        Command::Openings(args) => {
            start_logging(&cli.log_format, &settings)?;
            openings_cmd::run(args)
        }
        Command::Bench(args) => {
            start_logging(&cli.log_format, &settings)?;
            bench_cmd::run(args)
        }
        Command::CheckAnswers(args) => {
            start_logging(&cli.log_format, &settings)?;
            check_answers::run(args)
        }
        Command::Report(args) => {
            start_logging(&cli.log_format, &settings)?;
            report::run(args)
        }
        Command::Referee(args) => {
            start_logging(&cli.log_format, &settings)?;
            referee::run(args)
        }
        Command::Analyze(args) => {
            start_logging(&cli.log_format, &settings)?;
            analyze::run(*args)
        }
        Command::Tune(args) => {
            start_logging(&cli.log_format, &settings)?;
            tune::run(*args, &settings)
        }
        Command::Agents(args) => {
            for w in &settings.warnings {
                eprintln!("warning: {w}");
            }
            // A profile given is checked as `play` would check it (how
            // scripts/upload.sh checks the profile it ships).
            if profile.is_some() {
                settings.validate().map_err(CliError::Usage)?;
            }
            let games: Vec<GameKind> = match args.game {
                Some(g) => vec![g],
                None => GameKind::ALL.to_vec(),
            };
            for game in games {
                let default = game
                    .check_agent(config::DEFAULT_AGENT, &Default::default())
                    .unwrap_or_else(|e| e);
                // A reader that stops early (`| head -1`) ends the listing.
                if !out::say!(
                    "{game}: {} (default: {default})",
                    game.agent_names().join(", ")
                ) {
                    break;
                }
                let profiles = config::shipped_for(game);
                if !profiles.is_empty() {
                    out::say!("  profiles (ladderbot play --profile NAME):");
                }
                for (name, p) in &profiles {
                    let params: Vec<String> = p
                        .agent_params
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect();
                    let agent = if params.is_empty() {
                        p.agent.clone()
                    } else {
                        format!("{} ({})", p.agent, params.join(", "))
                    };
                    out::say!("    {name}: {agent}, {}", p.search.budget());
                    let strength = if p.strength.is_empty() {
                        "not measured"
                    } else {
                        &p.strength
                    };
                    out::say!("      {strength}");
                }
                if args.params {
                    out::say!("  agents' parameters:");
                    for name in game.agent_names() {
                        let decl = game.agent_decl(name).map_err(CliError::Runtime)?;
                        if decl.params.is_empty() {
                            out::say!("  {name}: no parameters");
                        } else {
                            out::say!("  {name}:");
                            for p in &decl.params {
                                out::say!("    {}", p.describe());
                            }
                        }
                    }
                }
            }
            Ok(())
        }
    }
}

/// The profile an uploaded bot runs when started with no arguments:
/// `ladderbot.toml` beside the executable, else in the working directory.
fn upload_profile() -> Option<std::path::PathBuf> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("ladderbot.toml")));
    beside
        .into_iter()
        .chain(std::iter::once(std::path::PathBuf::from("ladderbot.toml")))
        .find(|p| p.is_file())
}

fn start_logging(flag: &Option<LogFormat>, settings: &Settings) -> Result<(), CliError> {
    start_logging_with(flag, settings, config::LogSettings::DEFAULT)
}

/// Logging with `default` as the filter when `log.filter` is empty.
fn start_logging_with(
    flag: &Option<LogFormat>,
    settings: &Settings,
    default: &str,
) -> Result<(), CliError> {
    settings.validate().map_err(CliError::Usage)?;
    crate::logging::init(
        flag.unwrap_or(settings.log.format),
        settings.log.filter_or(default),
    );
    for w in &settings.warnings {
        tracing::warn!("{w}");
    }
    Ok(())
}

/// The game records of `files` for the command `cmd`, by the one reader
/// ([`crate::records::read_record_files`]): a torn last line is skipped with
/// a warning naming it; an unreadable file, a bad line (named `file:line`)
/// or no record at all is a usage error.
pub fn read_games(
    cmd: &str,
    files: &[std::path::PathBuf],
) -> Result<crate::records::RecordFiles, CliError> {
    let read = crate::records::read_record_files(files)
        .map_err(|e| CliError::Usage(format!("{cmd}: {e}")))?;
    if read.records.is_empty() {
        return Err(CliError::Usage(format!(
            "{cmd}: the files hold no game records"
        )));
    }
    Ok(read)
}

/// Checks before any work that the output file `path` can be written
/// (its folder is created if missing, with a warning naming it, as
/// lichess-bot makes its PGN folder; a file created to check is removed
/// again): one that cannot is a usage error, exit 2, as for `analyze --out`.
/// Every command's output files are checked here, so that each says the
/// same thing (`X is a file, not a folder`).
pub fn check_writable(cmd: &str, path: &std::path::Path) -> Result<(), CliError> {
    writable(cmd, path, true)
}

/// [`check_writable`] for an output folder (`tune --out DIR`): `dir` is
/// made if missing, without a word (it is the output asked for), and must
/// be able to hold `file`.
pub(crate) fn check_out_folder(
    cmd: &str,
    dir: &std::path::Path,
    file: &str,
) -> Result<(), CliError> {
    writable(cmd, &dir.join(file), false)
}

fn writable(cmd: &str, path: &std::path::Path, say_made: bool) -> Result<(), CliError> {
    let fail =
        |e: std::io::Error| CliError::Usage(format!("{cmd}: cannot open {}: {e}", path.display()));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Some(file) = dir.ancestors().find(|a| a.is_file()) {
            return Err(CliError::Usage(format!(
                "{cmd}: cannot open {}: {} is a file, not a folder",
                path.display(),
                file.display()
            )));
        }
        if !dir.exists() {
            std::fs::create_dir_all(dir).map_err(fail)?;
            if say_made {
                tracing::warn!(
                    "{cmd}: created the folder {} for {}",
                    dir.display(),
                    path.display()
                );
            }
        }
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(fail)?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Parses a game's name for clap.
pub fn parse_game(s: &str) -> Result<GameKind, String> {
    s.parse()
}

/// Parses `KEY=VALUE` for `--param`-style flags; VALUE is JSON if it parses, else a string.
pub fn parse_param(s: &str) -> Result<(String, serde_json::Value), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}': expected KEY=VALUE"))?;
    if k.trim().is_empty() {
        return Err(format!("'{s}': empty key"));
    }
    let value =
        serde_json::from_str(v).unwrap_or_else(|_| serde_json::Value::String(v.to_string()));
    Ok((k.trim().to_string(), value))
}

/// Collects `KEY=VALUE` pairs into agent parameters.
pub fn params_from(pairs: &[(String, serde_json::Value)]) -> AgentParams {
    pairs.iter().cloned().collect()
}

/// A seed from the clock, for runs where none was given.
pub fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    t.as_nanos() as u64 ^ (std::process::id() as u64) << 32
}

/// SIGINT and SIGTERM, caught from the moment [`Signals::install`] is
/// called (inside the runtime): a command installs them before it says it
/// is ready, so that a signal sent right after never kills it unprepared.
pub struct Signals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    int: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    pub fn install() -> Signals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Signals {
                term: signal(SignalKind::terminate()).ok(),
                int: signal(SignalKind::interrupt()).ok(),
            }
        }
        #[cfg(not(unix))]
        Signals {}
    }

    /// The name of the next signal.
    pub async fn next(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            async fn on(s: &mut Option<tokio::signal::unix::Signal>) {
                match s {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending().await,
                }
            }
            if self.term.is_some() || self.int.is_some() {
                return tokio::select! {
                    _ = on(&mut self.int) => "SIGINT",
                    _ = on(&mut self.term) => "SIGTERM",
                };
            }
        }
        let _ = tokio::signal::ctrl_c().await;
        "SIGINT"
    }
}

/// A multi-threaded tokio runtime for the async commands.
pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Runtime(format!("cannot start the async runtime: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_command_and_flag_says_what_it_does() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if arg.is_hide_set() || id == "help" || id == "version" {
                    continue;
                }
                if arg
                    .get_help()
                    .is_none_or(|h| h.to_string().trim().is_empty())
                {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                if sub.get_name() == "help" {
                    continue;
                }
                if sub.get_about().is_none() {
                    missing.push(format!("{path} {} (the command)", sub.get_name()));
                }
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "ladderbot", &mut missing);
        assert!(missing.is_empty(), "no help text: {missing:?}");
    }

    #[test]
    fn params_parse_as_json_or_string() {
        assert_eq!(
            parse_param("threshold=50").unwrap(),
            ("threshold".into(), serde_json::json!(50))
        );
        assert_eq!(
            parse_param("mode=fast").unwrap(),
            ("mode".into(), serde_json::json!("fast"))
        );
        assert!(parse_param("novalue").is_err());
        assert!(parse_param("=3").is_err());
    }
}
