//! Issue 83, item 3: the README's exit-code table holds for every command,
//! not only the core ones. Every subcommand (and every subcommand of a
//! subcommand), as the binary's own `--help` lists them, is given bad input and
//! must exit with the table's code: 2 for bad usage or configuration (an
//! output that cannot be written, a missing or empty input, an unknown
//! agent, a malformed server address...), 75 for what is worth retrying (a
//! port that is taken), with one `error: ...` line on stderr saying what.
//! A subcommand added without a case here fails the walk.
//!
//! Every case fails before any real work (no game is played), so the walk
//! takes seconds; the cases run in parallel.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::process::{self, assert_cases_pass, assert_every_path_has_a_case, case, Case};
use common::*;

/// A case that waits longer than this retried or did work: it fails.
const LIMIT: Duration = Duration::from_secs(20);

/// The commands the `Commands:` section of `ladderbot ARGS --help` lists,
/// but `help`.
fn commands_of(args: &[&str]) -> Vec<String> {
    process::commands_of(bin(), args, LIMIT)
}

/// Every command path: `play`, ..., and `COMMAND SUB` for a command with
/// commands of its own (the lab's `GAME TASK`: lab/tests/lab/exit_codes.rs).
fn command_paths() -> Vec<String> {
    let mut paths = Vec::new();
    for top in commands_of(&[]) {
        let subs = commands_of(&[&top]);
        if subs.is_empty() {
            paths.push(top);
        } else {
            paths.extend(subs.into_iter().map(|s| format!("{top} {s}")));
        }
    }
    paths
}

/// The command path a case runs (its first words that name commands).
fn path_of(args: &[String], paths: &BTreeSet<String>) -> String {
    let two = args.iter().take(2).cloned().collect::<Vec<_>>().join(" ");
    if paths.contains(&two) {
        two
    } else {
        args[0].clone()
    }
}

struct Files {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    /// An output under a regular file: no folder can be made there.
    unwritable: PathBuf,
    empty: PathBuf,
    missing: PathBuf,
}

fn files() -> Files {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    std::fs::write(dir.join("plain"), "").unwrap();
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    Files {
        unwritable: dir.join("plain").join("out"),
        missing: dir.join("missing.jsonl"),
        empty,
        dir,
        _tmp: tmp,
    }
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

#[test]
fn every_command_exits_by_the_readme_table_on_bad_input() {
    let f = files();
    let unw = |name: &str| s(&f.unwritable.join(name));
    let (empty, missing) = (s(&f.empty), s(&f.missing));
    let out = |name: &str| s(&f.dir.join(name));
    // Ports another program holds: a server must say "retry later" (75).
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let taken_addr = format!("127.0.0.1:{port}");
    let taken_ports = format!("{port},0");
    let exe = env!("CARGO_BIN_EXE_ladderbot");
    let pass_bot = format!("'{exe}' play golad --stdio --agent pass");

    let cases: Vec<Case> = vec![
        // play: a server address that is not one is configuration, at once.
        case(
            &["play", "four3d", "--server", "ws://127.0.0.1:99999"],
            2,
            "99999 is not a port",
        ),
        case(
            &["play", "four3d", "--records", &unw("r.jsonl")],
            2,
            "is a file, not a folder",
        ),
        case(
            &[
                "play",
                "four3d",
                "--server",
                "ws://127.0.0.1:9",
                "--records",
                &unw("r.jsonl"),
            ],
            2,
            "is a file, not a folder",
        ),
        case(
            &[
                "play",
                "four3d",
                "--increment-ms",
                "100",
                "--playouts",
                "20",
            ],
            2,
            "--bank-ms",
        ),
        case(
            &["serve", "--bind", "127.0.0.1:99999", "--records", ""],
            2,
            "server.bind",
        ),
        case(
            &[
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--records",
                &unw("s.jsonl"),
            ],
            2,
            "is a file, not a folder",
        ),
        case(
            &["serve", "--bind", &taken_addr, "--records", ""],
            75,
            "cannot listen",
        ),
        case(
            &["serve-gat", "--ports", "0,0", "--out", &unw("g.jsonl")],
            2,
            "is a file, not a folder",
        ),
        case(
            &["serve-gat", "--ports", "0,0", "--host", "garbage"],
            2,
            "--host garbage",
        ),
        case(&["serve-gat", "--ports", &taken_ports], 75, "cannot listen"),
        case(
            &["match", "four3d", "--a", "nosuch", "--b", "random"],
            2,
            "nosuch",
        ),
        case(
            &[
                "match",
                "four3d",
                "--a",
                "random",
                "--b",
                "random",
                "--out",
                &unw("m.jsonl"),
            ],
            2,
            "is a file, not a folder",
        ),
        case(&["merge", &empty], 2, "no game records"),
        case(&["latency", &missing], 2, "missing.jsonl"),
        case(
            &[
                "openings",
                "four3d",
                "--count",
                "1",
                "--judge-games",
                "0",
                "--out",
                &unw("o.txt"),
            ],
            2,
            "openings: cannot open",
        ),
        case(&["bench", "four3d-solve", "--seconds", "0"], 2, "--seconds"),
        case(
            &["report", &empty, "--html", &out("r.html")],
            2,
            "no game records",
        ),
        // A bot program that does not exist: refused before any game.
        case(
            &[
                "referee",
                "golad",
                "--bot",
                "nonexistent-binary",
                "--bot",
                &pass_bot,
                "--games",
                "1",
            ],
            2,
            "nonexistent-binary",
        ),
        case(
            &[
                "referee",
                "golad",
                "--bot",
                &pass_bot,
                "--bot",
                &pass_bot,
                "--games",
                "1",
                "--max-rounds",
                "2",
                "--out",
                &unw("ref.jsonl"),
            ],
            2,
            "is a file, not a folder",
        ),
        case(
            &[
                "check-answers",
                "--transcript",
                &missing,
                "--answers",
                &missing,
            ],
            2,
            "missing.jsonl",
        ),
        case(&["analyze", &empty], 2, "no game records"),
        // Fewer games than an iteration's multiple: refused, not rounded down.
        case(
            &[
                "tune",
                "four3d",
                "--agent",
                "pmc",
                "--games",
                "3",
                "--playouts",
                "10",
            ],
            2,
            "multiple of 2",
        ),
        case(
            &[
                "tune",
                "four3d",
                "--agent",
                "pmc",
                "--games",
                "20",
                "--playouts",
                "10",
                "--out",
                &unw("tune"),
            ],
            2,
            "is a file, not a folder",
        ),
        Case {
            one_line: false,
            ..case(&["agents", "nosuch"], 2, "unknown game 'nosuch'")
        },
    ];

    // Every command has a case, and every case names a command.
    let paths: BTreeSet<String> = command_paths().into_iter().collect();
    assert!(paths.len() > 12, "too few commands found: {paths:?}");
    assert_every_path_has_a_case(
        &paths,
        cases.iter().map(|c| path_of(&c.args, &paths)),
        "command",
        "tests/exit_walk.rs",
    );

    // Run them all, a few at a time, and report every failure at once.
    assert_cases_pass(&cases, bin, &f.dir, LIMIT, "it retried or did real work");
    drop(taken);
}
