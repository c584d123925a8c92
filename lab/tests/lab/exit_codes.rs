//! Issue 83, item 3, for the lab: its exit codes (`ladderbot-lab --help`:
//! 0 done, 1 failed, 2 bad input) hold for every task. Every `GAME TASK`,
//! as the binary's own `--help` lists them, is given bad input and must
//! exit 2 (a missing or empty input, records of another game, an unknown
//! agent, a model file that is not one...) with one `error: ...` line on
//! stderr saying what. A task added without a case here fails the walk.
//!
//! Every case fails before any real work, so the walk takes seconds; the
//! cases run in parallel.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::process::{assert_cases_pass, assert_every_path_has_a_case, case, Case};
use crate::common::*;

/// A case that waits longer than this did work: it fails.
const LIMIT: Duration = Duration::from_secs(20);

struct Files {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    empty: PathBuf,
    missing: PathBuf,
    four3d: PathBuf,
}

fn files() -> Files {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let four3d = dir.join("four3d.jsonl");
    random_games(&four3d, 2, 1);
    Files {
        missing: dir.join("missing.jsonl"),
        empty,
        four3d,
        dir,
        _tmp: tmp,
    }
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

#[test]
fn every_lab_task_exits_2_on_bad_input() {
    let f = files();
    let (empty, missing, four3d) = (s(&f.empty), s(&f.missing), s(&f.four3d));
    let out = |name: &str| s(&f.dir.join(name));
    let golad_records = repo_file("docs/golad-records/best-vs-ab-v2.jsonl");

    let cases: Vec<Case> = vec![
        case(
            &["geister", "beliefs", "--train", &missing],
            2,
            "missing.jsonl",
        ),
        case(
            &["geister", "captures", &missing, "--player", "best"],
            2,
            "missing.jsonl",
        ),
        case(&["puyo", "completion", "--depth", "9"], 2, "--depth"),
        // Every accepted name listed, `random` among them.
        case(
            &["puyo", "solo", "--agent", "nosuch"],
            2,
            "random, template",
        ),
        case(
            &[
                "four3d",
                "selfplay",
                "--agent",
                "nosuch",
                "--out",
                &out("sp.jsonl"),
            ],
            2,
            "nosuch",
        ),
        case(
            &[
                "four3d",
                "label",
                "--games",
                &missing,
                "--out",
                &out("l.jsonl"),
            ],
            2,
            "missing.jsonl",
        ),
        // No labelled position: not an all-zero report that exits 0.
        case(
            &["four3d", "train", "--samples", &empty],
            2,
            "no labelled position",
        ),
        case(
            &[
                "four3d",
                "endgames",
                "--games",
                &missing,
                "--out",
                &out("e.txt"),
            ],
            2,
            "missing.jsonl",
        ),
        case(&["four3d", "judge"], 2, "--samples"),
        case(
            &[
                "four3d",
                "games",
                "--records",
                &empty,
                "--out",
                &out("g.jsonl"),
            ],
            2,
            "no game records",
        ),
        case(
            &[
                "four3d",
                "train-net",
                "--samples",
                &empty,
                "--out",
                &out("n.json"),
            ],
            2,
            "no position",
        ),
        // It reads nothing: an argument it does not take (clap's usage
        // error, with its hint line).
        Case {
            one_line: false,
            ..case(
                &["four3d", "solve-deep", "--games", &missing],
                2,
                "unexpected argument '--games'",
            )
        },
        case(
            &["golad", "train", "--records", &empty],
            2,
            "no game records",
        ),
        case(
            &["golad", "train", "--records", &four3d],
            2,
            "a four3d game, not golad",
        ),
        case(
            &[
                "golad",
                "train",
                "--records",
                &golad_records,
                "--model",
                &missing,
            ],
            2,
            "golad train: --model",
        ),
        case(
            &["golad", "candidates", "--records", &empty],
            2,
            "no game records",
        ),
        case(
            &["golad", "candidates", "--records", &four3d],
            2,
            "a four3d game, not golad",
        ),
        case(
            &["golad", "draws", "--records", &empty, "--player", "A:"],
            2,
            "no game records",
        ),
        case(
            &[
                "golad",
                "draws",
                "--records",
                &golad_records,
                "--player",
                "nosuch",
            ],
            2,
            "no player named like 'nosuch'",
        ),
        case(
            &["golad", "convert", "--records", &four3d, "--player", "A:"],
            2,
            "a four3d game, not golad",
        ),
        case(
            &[
                "golad",
                "convert",
                "--records",
                &golad_records,
                "--player",
                "A:",
                "--vs",
                "nosuch",
            ],
            2,
            "golad convert: nosuch",
        ),
    ];

    // Every task has a case, and every case names a task.
    let paths: BTreeSet<String> = task_paths().into_iter().collect();
    assert!(paths.len() > 10, "too few tasks found: {paths:?}");
    assert_every_path_has_a_case(
        &paths,
        cases.iter().map(|c| c.args[..2].join(" ")),
        "task",
        "lab/tests/lab/exit_codes.rs",
    );

    // Run them all, and report every failure at once.
    assert_cases_pass(&cases, bin, &f.dir, LIMIT, "it did real work");
}

/// A bad game, task or option: clap's usage error; no task: the game's
/// usage. Exit 2 each, on stderr.
#[test]
fn an_unknown_game_or_task_is_a_usage_error() {
    for (args, says) in [
        (&["nosuch"][..], "error: unrecognized subcommand 'nosuch'"),
        (
            &["four3d", "nosuch"],
            "error: unrecognized subcommand 'nosuch'",
        ),
        (
            &["golad", "train", "--nosuch"],
            "error: unexpected argument '--nosuch'",
        ),
        (&["four3d"], "Usage: ladderbot-lab four3d"),
        (&[], "Usage: ladderbot-lab"),
    ] {
        let o = run(args, &[], None, LIMIT);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    }
}
