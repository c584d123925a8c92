//! Every command that prints, with its stdout closed by its reader (`| head
//! -1`): it ends quietly (no panic, no "Broken pipe" error, its usual exit
//! code), and `match` and `play` leave whole records on disk. Two ways:
//! stdout closed before the command writes anything (each command's first
//! write fails), and closed after its first line (`play` then starts no
//! further game). The lab's tasks: lab/tests/closed_stdout.rs.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::process::{self, assert_quiet, whole_lines};
use common::*;

const LIMIT: Duration = Duration::from_secs(120);

/// Runs `args` in `dir` with stdout a pipe whose reading end is closed at
/// once (before the command can have written); returns (exit code, stderr).
fn run_closed(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    process::run_closed(bin(), args, dir, LIMIT)
}

#[test]
fn every_printing_command_ends_quietly_when_stdout_is_closed_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let transcript = root.join("protocol/riddles-golad/transcripts/golad_seed_abc_player0.txt");
    let answers = d.join("answers.txt");
    std::fs::write(&answers, "pass\n").unwrap();
    // A match's records first: the commands that read records use them.
    let (code, err) = run_closed(
        &[
            "match",
            "four3d",
            "--a",
            "pmc",
            "--b",
            "random",
            "--games",
            "4",
            "--playouts",
            "50",
            "--seed",
            "1",
            "--out",
            "m.jsonl",
        ],
        d,
    );
    assert_quiet("match", code, &err, 0);
    assert_eq!(whole_lines(&d.join("m.jsonl")), 4);
    let (code, err) = run_closed(
        &[
            "play",
            "four3d",
            "--games",
            "2",
            "--playouts",
            "50",
            "--records",
            "p.jsonl",
        ],
        d,
    );
    assert_quiet("play", code, &err, 0);
    // Its first line (who plays whom) finds stdout closed: no game starts.
    assert_eq!(whole_lines(&d.join("p.jsonl")), 0);

    let bot = format!(
        "'{}' play golad --stdio --agent random",
        env!("CARGO_BIN_EXE_ladderbot")
    );
    let t = transcript.to_str().unwrap();
    let a = answers.to_str().unwrap();
    let cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["agents"], 0),
        (vec!["--help"], 0),
        (
            vec![
                "match", "four3d", "--a", "random", "--b", "random", "--games", "2", "--json",
            ],
            0,
        ),
        (vec!["merge", "m.jsonl"], 0),
        (vec!["merge", "m.jsonl", "--json"], 0),
        (vec!["latency", "m.jsonl"], 0),
        (vec!["latency", "m.jsonl", "--json"], 0),
        (vec!["report", "m.jsonl", "--html", "r.html"], 0),
        (
            vec![
                "openings",
                "four3d",
                "--count",
                "2",
                "--judge-games",
                "2",
                "--judge-playouts",
                "20",
            ],
            0,
        ),
        (
            vec!["bench", "golad-step", "--seconds", "0.05", "--samples", "1"],
            0,
        ),
        // Its answer is wrong (one `pass` for eleven requests): exit 1, quietly.
        (vec!["check-answers", "--transcript", t, "--answers", a], 1),
        (
            vec![
                "referee",
                "golad",
                "--bot",
                &bot,
                "--bot",
                &bot,
                "--games",
                "2",
                "--max-rounds",
                "5",
            ],
            0,
        ),
    ];
    for (args, want) in cases {
        let (code, err) = run_closed(&args, d);
        assert_quiet(&args.join(" "), code, &err, want);
    }
}

/// `ladderbot ... | head -1`: the first line is read, then the pipe closes.
fn first_line_then_close(args: &[&str], dir: &Path) -> (String, Option<i32>, String, Duration) {
    let mut c = bin();
    c.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let t0 = Instant::now();
    let mut child = c.spawn().unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader (and the pipe with it) is dropped here.
    let out = wait_with_limit(child, LIMIT);
    (first, out.status.code(), stderr(&out), t0.elapsed())
}

#[test]
fn play_and_match_piped_into_head_end_quietly_with_whole_records() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 400 games would take minutes: a session whose reader is gone starts
    // no further game.
    let (first, code, err, took) = first_line_then_close(
        &[
            "play",
            "--profile",
            "four3d-pmc",
            "--games",
            "400",
            "--playouts",
            "300",
            "--records",
            "p.jsonl",
        ],
        d,
    );
    assert!(first.contains("vs house bot"), "{first}");
    assert_quiet("play | head -1", code, &err, 0);
    let played = whole_lines(&d.join("p.jsonl"));
    // The first result line finds the pipe closed: that game is recorded,
    // and at most the next one, which the server may have started already.
    assert!(
        (1..=2).contains(&played),
        "played {played} games after the reader left"
    );
    eprintln!("play: {played} game(s), {took:?}");

    // A match prints its report at the end: the records are all there.
    let (_, code, err, _) = first_line_then_close(
        &[
            "match",
            "four3d",
            "--a",
            "pmc",
            "--b",
            "random",
            "--games",
            "20",
            "--playouts",
            "50",
            "--seed",
            "3",
            "--out",
            "m.jsonl",
        ],
        d,
    );
    assert_quiet("match | head -1", code, &err, 0);
    assert_eq!(whole_lines(&d.join("m.jsonl")), 20);
}
