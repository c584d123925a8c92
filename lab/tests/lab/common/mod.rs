//! Helpers for tests that run the real `ladderbot-lab` binary, and the
//! engine in-process (through its library: the engine's binary is not built
//! for the lab's tests) where a test first needs records.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use ladderbot::cli::{Cli, CliError};

/// The lab binary, in a clean environment: no stray LADDERBOT_* or
/// RUST_LOG from the caller.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ladderbot-lab"));
    for (k, _) in std::env::vars() {
        if k.starts_with("LADDERBOT_") || k == "RUST_LOG" {
            c.env_remove(k);
        }
    }
    c
}

/// Runs the lab to completion with a time limit (a hang fails the test).
pub fn run(args: &[&str], envs: &[(&str, &str)], dir: Option<&Path>, limit: Duration) -> Output {
    let mut c = bin();
    c.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in envs {
        c.env(k, v);
    }
    if let Some(d) = dir {
        c.current_dir(d);
    }
    let child = c.spawn().expect("spawn ladderbot-lab");
    wait_with_limit(child, limit)
}

pub fn wait_with_limit(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("try_wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "ladderbot-lab did not finish within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The last stdout line, parsed as JSON.
pub fn last_json(o: &Output) -> serde_json::Value {
    let out = stdout(o);
    let line = out
        .lines()
        .last()
        .unwrap_or_else(|| panic!("no output; stderr: {}", stderr(o)));
    serde_json::from_str(line).unwrap_or_else(|e| panic!("last line is not JSON ({e}): {line}"))
}

/// The commands the `Commands:` section of `ladderbot-lab ARGS --help`
/// lists, but `help`: the games, or a game's tasks.
pub fn commands_of(args: &[&str]) -> Vec<String> {
    let mut all = args.to_vec();
    all.push("--help");
    let o = run(&all, &[], None, Duration::from_secs(20));
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    let out = stdout(&o);
    let mut names = Vec::new();
    let mut inside = false;
    for line in out.lines() {
        if line.trim_end() == "Commands:" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if line.trim().is_empty() {
            break;
        }
        // `  name   what it does`; a wrapped description is indented further.
        if let Some(rest) = line.strip_prefix("  ") {
            if !rest.starts_with(' ') {
                let name = rest.split_whitespace().next().unwrap_or_default();
                if name != "help" {
                    names.push(name.to_string());
                }
            }
        }
    }
    names
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
    let (games, seed) = (games.to_string(), seed.to_string());
    engine_ok(&[
        "match",
        "four3d",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        &games,
        "--seed",
        &seed,
        "--out",
        out.to_str().unwrap(),
    ]);
}

/// The lines of a JSON-lines file, parsed.
pub fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}
