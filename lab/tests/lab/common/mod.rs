//! Helpers for tests that run the real `ladderbot-lab` binary, and the
//! engine in-process (through its library: the engine's binary is not built
//! for the lab's tests) where a test first needs records.
#![allow(dead_code)]

/// The process helpers the engine's tests use too.
#[path = "../../../../tests/support/process.rs"]
pub mod process;
/// The record checks the engine's tests use too.
#[path = "../../../../tests/support/records.rs"]
pub mod records;

pub use process::{last_json, stderr, stdout};

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use clap::Parser;
use ladderbot::cli::{Cli, CliError};

/// The lab binary, in a clean environment: no stray LADDERBOT_* or
/// RUST_LOG from the caller.
pub fn bin() -> Command {
    process::clean_command(env!("CARGO_BIN_EXE_ladderbot-lab"))
}

/// Runs the lab to completion with a time limit (a hang fails the test).
pub fn run(args: &[&str], envs: &[(&str, &str)], dir: Option<&Path>, limit: Duration) -> Output {
    process::run_with(bin(), args, envs, dir, limit)
}

/// The commands the `Commands:` section of `ladderbot-lab ARGS --help`
/// lists, but `help`: the games, or a game's tasks.
pub fn commands_of(args: &[&str]) -> Vec<String> {
    process::commands_of(bin(), args, Duration::from_secs(20))
}

/// Every task of the lab, as `GAME TASK`: `four3d selfplay`, ...,
/// `geister captures`.
pub fn task_paths() -> Vec<String> {
    let mut paths = Vec::new();
    for game in commands_of(&[]) {
        let tasks = commands_of(&[&game]);
        assert!(!tasks.is_empty(), "ladderbot-lab {game} --help: no task");
        paths.extend(tasks.into_iter().map(|t| format!("{game} {t}")));
    }
    paths
}

/// A file of the repository (the folder above the lab), as a string:
/// `repo_file("docs/golad-records/best-vs-ab-v2.jsonl")`.
pub fn repo_file(relative: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
        .to_str()
        .unwrap()
        .to_string()
}

/// Runs `ladderbot ARGS` in-process, through the engine's library: the
/// same command line and the same run as its binary (its output goes to
/// this process's stdout). Paths in `args` should be absolute (the working
/// folder is this process's).
pub fn engine(args: &[&str]) -> Result<(), CliError> {
    let argv = std::iter::once("ladderbot").chain(args.iter().copied());
    let cli = Cli::try_parse_from(argv)
        .map_err(|e| CliError::Usage(format!("ladderbot {}: {e}", args.join(" "))))?;
    ladderbot::cli::run(cli)
}

/// [`engine`] that must succeed.
pub fn engine_ok(args: &[&str]) {
    if let Err(e) = engine(args) {
        panic!(
            "ladderbot {}: exit {}: {}",
            args.join(" "),
            e.code(),
            e.message()
        );
    }
}

/// Records of `games` Score Four games between two `random` agents (seed
/// `seed`) written to `out` by the engine: quick test data for the tasks
/// that read records. Fails the test if the match fails.
pub fn random_games(out: &Path, games: u32, seed: u64) {
    let args = process::random_games_args(out, games, seed);
    engine_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
}

/// The lines of a JSON-lines file, parsed.
pub fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}
