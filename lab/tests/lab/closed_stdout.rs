//! Every lab task, with its stdout closed by its reader before it writes
//! anything (`| head -1`): it ends quietly (no panic, no "Broken pipe"
//! error, its usual exit code), and the files it writes are whole. A task
//! the lab's `--help` lists without a case here (or a reason in [`SLOW`])
//! fails the test.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use crate::common::process::{self, assert_quiet, whole_lines};
use crate::common::*;

const LIMIT: Duration = Duration::from_secs(120);

/// Tasks not run here, each with its reason. An entry the lab no longer
/// has fails the test (it is stale).
const SLOW: &[(&str, &str)] = &[(
    "four3d solve-deep",
    "minutes of solving before its first line (the whole deep set, no option to cut it)",
)];

/// Runs `args` in `dir` with stdout a pipe whose reading end is closed at
/// once (before the task can have written); returns (exit code, stderr).
fn run_closed(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    process::run_closed(bin(), args, dir, LIMIT)
}

#[test]
fn every_lab_task_ends_quietly_when_stdout_is_closed_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let golad = repo_file("docs/golad-records/best-vs-ab-v2.jsonl");
    // Records the engine makes (in-process) for the tasks that read them.
    random_games(&d.join("four3d.jsonl"), 4, 1);
    engine_ok(&[
        "match",
        "geister",
        "--a",
        "rule",
        "--b",
        "best",
        "--b-param",
        "threads=1",
        "--b-playouts",
        "50",
        "--games",
        "2",
        "--seed",
        "3",
        "--out",
        d.join("geister.jsonl").to_str().unwrap(),
    ]);

    // The tasks that write files first: what they write is whole.
    let (code, err) = run_closed(
        &[
            "four3d",
            "selfplay",
            "--games",
            "6",
            "--nodes",
            "200",
            "--out",
            "games.jsonl",
        ],
        d,
    );
    assert_quiet("four3d selfplay", code, &err, 0);
    assert_eq!(whole_lines(&d.join("games.jsonl")), 6);
    let (code, err) = run_closed(
        &[
            "four3d",
            "label",
            "--games",
            "games.jsonl",
            "--solve-empties",
            "6",
            "--max-nodes",
            "2000",
            "--out",
            "samples.jsonl",
        ],
        d,
    );
    assert_quiet("four3d label", code, &err, 0);
    assert!(whole_lines(&d.join("samples.jsonl")) > 0);

    let cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["--help"], 0),
        (vec!["four3d", "--help"], 0),
        (
            vec![
                "four3d",
                "train",
                "--samples",
                "samples.jsonl",
                "--holdout",
                "3",
            ],
            0,
        ),
        (
            vec![
                "four3d",
                "train",
                "--samples",
                "samples.jsonl",
                "--holdout",
                "3",
                "--json",
            ],
            0,
        ),
        (
            vec![
                "four3d",
                "train-net",
                "--samples",
                "samples.jsonl",
                "--holdout",
                "3",
                "--epochs",
                "1",
                "--out",
                "net.json",
            ],
            0,
        ),
        (
            vec![
                "four3d",
                "judge",
                "--samples",
                "samples.jsonl",
                "--holdout",
                "3",
            ],
            0,
        ),
        (
            vec![
                "four3d",
                "endgames",
                "--games",
                "games.jsonl",
                "--empties",
                "8",
                "--per-depth",
                "1",
                "--max-nodes",
                "100000",
                "--out",
                "endgames.txt",
            ],
            0,
        ),
        (
            vec![
                "four3d",
                "games",
                "--records",
                "four3d.jsonl",
                "--out",
                "lab-games.jsonl",
            ],
            0,
        ),
        (vec!["golad", "train", "--records", &golad], 0),
        (
            vec!["golad", "draws", "--records", &golad, "--player", "A:"],
            0,
        ),
        (
            vec![
                "golad",
                "convert",
                "--records",
                &golad,
                "--player",
                "A:",
                "--rounds",
                "90",
                "--evals",
                "50",
                "--jobs",
                "1",
            ],
            0,
        ),
        (
            vec![
                "golad",
                "candidates",
                "--records",
                &golad,
                "--every",
                "64",
                "--jobs",
                "1",
            ],
            0,
        ),
        (
            vec!["puyo", "solo", "--agent", "potential", "--sequences", "1"],
            0,
        ),
        (
            vec![
                "puyo",
                "completion",
                "--templates",
                "domino",
                "--sequences",
                "1",
            ],
            0,
        ),
        (
            vec!["geister", "beliefs", "--train", "geister.jsonl", "--json"],
            0,
        ),
        (
            vec![
                "geister",
                "captures",
                "geister.jsonl",
                "--player",
                "B:best",
                "--param",
                "threads=1",
                "--playouts",
                "50",
            ],
            0,
        ),
    ];

    // Every task is run (the two above, the cases), or named in SLOW.
    let tasks: BTreeSet<String> = task_paths().into_iter().collect();
    let mut run_here: BTreeSet<String> = cases
        .iter()
        .filter(|(a, _)| a.len() > 1 && !a[1].starts_with('-'))
        .map(|(a, _)| a[..2].join(" "))
        .collect();
    run_here.extend(["four3d selfplay".to_string(), "four3d label".to_string()]);
    for (task, _) in SLOW {
        assert!(
            tasks.contains(*task),
            "SLOW names {task}, which the lab no longer has: remove it"
        );
        run_here.insert(task.to_string());
    }
    let missed: Vec<&String> = tasks.difference(&run_here).collect();
    assert!(
        missed.is_empty(),
        "tasks without a case in lab/tests/closed_stdout.rs: {missed:?}"
    );
    let unknown: Vec<&String> = run_here.difference(&tasks).collect();
    assert!(unknown.is_empty(), "cases of no task: {unknown:?}");

    for (args, want) in cases {
        let (code, err) = run_closed(&args, d);
        assert_quiet(&args.join(" "), code, &err, want);
    }
    assert_eq!(whole_lines(&d.join("lab-games.jsonl")), 4);
}
