//! A match that is killed (SIGKILL) or interrupted (SIGINT, SIGTERM) and
//! rerun with `--resume` ends with every game recorded exactly once, and
//! with the report of the match played in one go.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::*;
use ladderbot::records::GameRecord;

const LIMIT: Duration = Duration::from_secs(300);
const GAMES: u32 = 30;

/// The match every test here plays, with playout budgets (reproducible).
fn args(out: &Path) -> Vec<String> {
    let mut v: Vec<String> = [
        "match",
        "four3d",
        "--a",
        "uct",
        "--b",
        "pmc",
        "--a-playouts",
        "4000",
        "--b-playouts",
        "3000",
        "--games",
        "30",
        "--seed",
        "9",
        "--jobs",
        "1",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(["--out".into(), out.display().to_string()]);
    v
}

fn start(args: &[String]) -> Child {
    bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn a match")
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.matches('\n').count())
        .unwrap_or(0)
}

fn wait_for_games(path: &Path, n: usize) {
    let t0 = Instant::now();
    while lines(path) < n {
        assert!(t0.elapsed() < LIMIT, "{} games never came", n);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Every game of the match exactly once, each line a whole record.
fn check_once_each(path: &Path) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.ends_with('\n'));
    let records: Vec<GameRecord> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let numbers: BTreeSet<u32> = records
        .iter()
        .map(|r| r.match_tag.as_ref().unwrap().index)
        .collect();
    assert_eq!(records.len(), GAMES as usize, "a game twice or missing");
    assert_eq!(numbers, (0..GAMES).collect());
    records
}

/// The report of the match played in one go, in `dir/whole.jsonl`.
fn whole_match(dir: &Path) -> serde_json::Value {
    let refs = args(&dir.join("whole.jsonl"));
    let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
    let out = run(&refs, &[], None, LIMIT);
    assert!(out.status.success(), "{}", stderr(&out));
    last_json(&out)
}

fn same_results(a: &serde_json::Value, b: &serde_json::Value) {
    for key in [
        "games",
        "wins",
        "draws",
        "losses",
        "elo",
        "pentanomial",
        "a_playouts_per_move",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
}

#[test]
fn a_match_killed_and_resumed_records_every_game_once_with_the_same_results() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("killed.jsonl");
    let mut child = start(&args(&out));
    wait_for_games(&out, 5);
    child.kill().unwrap();
    child.wait().unwrap();
    let before = lines(&out);
    assert!(before < GAMES as usize, "the match ended before the kill");
    // A record torn by the kill: half a line at the end.
    let torn = std::fs::read_to_string(&out).unwrap();
    let first = torn.lines().next().unwrap();
    std::fs::write(&out, format!("{torn}{}", &first[..first.len() / 2])).unwrap();

    // Rerun without --resume: refused, nothing appended.
    let a = args(&out);
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    let refused = run(&refs, &[], None, LIMIT);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("--resume"),
        "{}",
        stderr(&refused)
    );

    // --resume with another --games than the run that wrote them: refused,
    // naming both, instead of playing the whole match again beside them.
    let mut other: Vec<&str> = refs.clone();
    let g = other.iter().position(|a| *a == "--games").unwrap();
    other[g + 1] = "31";
    other.push("--resume");
    let refused = run(&other, &[], None, LIMIT);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let e = stderr(&refused);
    assert!(e.contains("30 games") && e.contains("31 games"), "{e}");
    assert_eq!(lines(&out), before);
    // Another opening suite (here: one where the records had none): the
    // refusal names the suite asked for, the one field that differs.
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/four3d.txt");
    let mut other: Vec<&str> = refs.clone();
    other.extend(["--openings", suite, "--resume"]);
    let refused = run(&other, &[], None, LIMIT);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let e = stderr(&refused);
    assert!(e.contains(&format!("openings {suite} (")), "{e}");
    assert_eq!(lines(&out), before);

    let mut resumed: Vec<&str> = refs.clone();
    resumed.push("--resume");
    let o = run(&resumed, &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = last_json(&o);
    check_once_each(&out);
    // The same results as the match played in one go.
    same_results(&report, &whole_match(dir.path()));
    // Resuming a finished match plays nothing more.
    let again = run(&resumed, &[], None, LIMIT);
    assert!(again.status.success());
    same_results(&last_json(&again), &report);
    assert_eq!(lines(&out), GAMES as usize);
}

#[test]
fn sigint_and_sigterm_print_the_result_so_far_and_resume_finishes_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("interrupted.jsonl");
    let mut resumed_args = args(&out);
    resumed_args.push("--resume".into());
    for (sig, code) in [("-INT", 130), ("-TERM", 143)] {
        let child = start(&resumed_args);
        let at = lines(&out);
        wait_for_games(&out, at + 3);
        signal(&child, sig);
        let o = wait_with_limit(child, LIMIT);
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
        let report = last_json(&o);
        // The report is of every game recorded so far (this run's and the
        // earlier ones), the games in progress played out.
        assert_eq!(report["games"].as_u64().unwrap() as usize, lines(&out));
        assert!(lines(&out) < GAMES as usize);
        assert!(stderr(&o).contains("interrupted by SIG"), "{}", stderr(&o));
        assert!(stderr(&o).contains("--resume plays the rest"));
    }
    let refs: Vec<&str> = resumed_args.iter().map(String::as_str).collect();
    let o = run(&refs, &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    check_once_each(&out);
    same_results(&last_json(&o), &whole_match(dir.path()));
}
