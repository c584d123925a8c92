//! The README's exit-code table on bad inputs, through the real binary:
//! `analyze`, `match`, `latency` and `report` given an unknown parameter, an
//! empty records file, a torn last line, a bad line in the middle, an output
//! that cannot be written. A usage error exits 2 with one line on stderr
//! (naming the file and line where there is one); a torn last line is
//! skipped with a warning naming its line; nothing analysed is an error.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use common::*;

const LIMIT: Duration = Duration::from_secs(120);

/// The analysis flags that keep a run short.
const QUICK: [&str; 6] = [
    "--playouts",
    "20",
    "--solve-nodes",
    "2000",
    "--rollouts",
    "2",
];

struct Files {
    _dir: tempfile::TempDir,
    dir: PathBuf,
    /// Three whole games of a random match.
    good: PathBuf,
    empty: PathBuf,
    /// The first two games, then the third cut off before its end.
    torn: PathBuf,
    /// The first game, a broken line (line 2), the second game.
    bad: PathBuf,
    /// An output path under a regular file: no folder can be made there,
    /// whoever runs the test (root too).
    unwritable: PathBuf,
}

fn files() -> Files {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let good = dir.join("good.jsonl");
    random_games(&good, 3, 1);
    let text = std::fs::read_to_string(&good).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let torn = dir.join("torn.jsonl");
    std::fs::write(
        &torn,
        format!(
            "{}\n{}\n{}",
            lines[0],
            lines[1],
            &lines[2][..lines[2].len() / 2]
        ),
    )
    .unwrap();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, format!("{}\n{{\"game\": \n{}\n", lines[0], lines[1])).unwrap();
    std::fs::write(dir.join("plain-file"), "").unwrap();
    let unwritable = dir.join("plain-file").join("out");
    Files {
        _dir: tmp,
        dir,
        good,
        empty,
        torn,
        bad,
        unwritable,
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit 2 with exactly one line on stderr, holding each of `needles`.
fn usage_error(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in: {err}");
    }
}

/// Exit 0, the torn line named in a warning on stderr.
fn torn_skipped(o: &Output, at: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(0), "stderr: {err}");
    assert!(
        err.lines()
            .any(|l| l.contains("WARN") && l.contains(at) && l.contains("torn")),
        "no warning naming {at}: {err}"
    );
}

fn analyze(extra: &[&str]) -> Output {
    let mut args = vec!["analyze"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&QUICK);
    run(&args, &[], None, LIMIT)
}

#[test]
fn analyze_refuses_bad_inputs_once_and_skips_a_torn_last_line() {
    let f = files();
    let torn_at = format!("{}:3", f.torn.display());
    // A parameter the reference does not know: refused once, before any
    // game, not a "skipped" line per game.
    let o = analyze(&[s(&f.good), "--param", "nosuch=1"]);
    usage_error(&o, &["nosuch", "unknown parameter"]);
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    // An agent that does not exist, the same.
    usage_error(&analyze(&[s(&f.good), "--agent", "nosuch"]), &["nosuch"]);
    // An empty file, as `merge` says it.
    usage_error(
        &analyze(&[s(&f.empty)]),
        &["the files hold no game records"],
    );
    // A bad line in the middle: its file and line.
    usage_error(
        &analyze(&[s(&f.bad)]),
        &[&format!("{}:2: not a game record", f.bad.display())],
    );
    // A torn last line: skipped with a warning, the other two analysed.
    let o = analyze(&[s(&f.torn)]);
    torn_skipped(&o, &torn_at);
    assert!(
        stdout(&o).contains("four3d: 2 games analysed"),
        "{}",
        stdout(&o)
    );
    // An output that cannot be written: --out and --html alike.
    let out = f.unwritable.join("a.jsonl");
    usage_error(&analyze(&[s(&f.good), "--out", s(&out)]), &[s(&out)]);
    let html = f.unwritable.join("a.html");
    let o = analyze(&[s(&f.good), "--html", s(&html)]);
    usage_error(&o, &[s(&html)]);
    assert!(stdout(&o).is_empty(), "refused before any game");
}

#[test]
fn analyze_that_analyses_nothing_fails() {
    let f = files();
    let records = ladderbot::records::read_records(&f.good).unwrap();
    // Records with no moves to replay (a GAT session's): nothing to do.
    let no_moves = f.dir.join("no-moves.jsonl");
    let mut text = String::new();
    for r in &records {
        let mut r = r.clone();
        r.start = serde_json::Value::Null;
        text.push_str(&(serde_json::to_string(&r).unwrap() + "\n"));
    }
    std::fs::write(&no_moves, &text).unwrap();
    usage_error(
        &analyze(&[s(&no_moves)]),
        &["no game to analyse", "3 record(s)"],
    );
    // Records that each fail to replay: a failure, not a success.
    let illegal = f.dir.join("illegal.jsonl");
    let mut text = String::new();
    for r in &records {
        let mut r = r.clone();
        r.moves.insert(0, serde_json::json!(99));
        text.push_str(&(serde_json::to_string(&r).unwrap() + "\n"));
    }
    std::fs::write(&illegal, &text).unwrap();
    let o = analyze(&[s(&illegal)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let last = stderr(&o).lines().last().unwrap_or_default().to_string();
    assert!(
        last.starts_with("error: analyze: no game analysed"),
        "{last}"
    );
}

#[test]
fn latency_and_report_read_records_by_the_same_rule() {
    let f = files();
    let torn_at = format!("{}:3", f.torn.display());
    let bad_at = format!("{}:2: not a game record", f.bad.display());
    let latency = |file: &Path| run(&["latency", s(file)], &[], None, LIMIT);
    usage_error(
        &latency(&f.empty),
        &["latency: the files hold no game records"],
    );
    usage_error(&latency(&f.bad), &[&bad_at]);
    let o = latency(&f.torn);
    torn_skipped(&o, &torn_at);
    assert!(stdout(&o).starts_with("2 games"), "{}", stdout(&o));

    let html = f.dir.join("r.html");
    let report =
        |file: &Path, html: &Path| run(&["report", s(file), "--html", s(html)], &[], None, LIMIT);
    usage_error(
        &report(&f.empty, &html),
        &["report: the files hold no game records"],
    );
    usage_error(&report(&f.bad, &html), &[&bad_at]);
    assert!(!html.exists(), "nothing written on a usage error");
    let o = report(&f.torn, &html);
    torn_skipped(&o, &torn_at);
    assert!(stdout(&o).contains("2 game(s)"), "{}", stdout(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(&torn_at), "the page lists the torn line");
    let out = f.unwritable.join("r.html");
    usage_error(&report(&f.good, &out), &[s(&out)]);
}

fn four3d_match(extra: &[&str]) -> Output {
    let mut args = vec![
        "match", "four3d", "--a", "random", "--b", "random", "--games", "3", "--seed", "1",
    ];
    args.extend_from_slice(extra);
    run(&args, &[], None, LIMIT)
}

#[test]
fn match_refuses_bad_inputs_and_resumes_past_a_torn_last_line() {
    let f = files();
    usage_error(&four3d_match(&["--a-param", "nosuch=1"]), &["nosuch"]);
    // An --out that cannot be written: exit 2 before any game, as analyze.
    let out = f.unwritable.join("m.jsonl");
    usage_error(&four3d_match(&["--out", s(&out)]), &[s(&out)]);
    // A folder nobody can write in, root included (today's runner opened it
    // only after the checks, and exited 1).
    if Path::new("/proc/self").is_dir() {
        let out = Path::new("/proc/m.jsonl");
        let o = four3d_match(&["--out", s(out), "--json"]);
        usage_error(&o, &["/proc/m.jsonl"]);
        assert!(stdout(&o).is_empty(), "refused before any game");
    }
    // A bad line in the middle of the records to resume: named, exit 2.
    usage_error(
        &four3d_match(&["--out", s(&f.bad), "--resume"]),
        &[&format!("{}:2: not a game record", f.bad.display())],
    );
    // A torn last line: skipped with a warning naming it, cut off, and the
    // game it held played again.
    let o = four3d_match(&["--out", s(&f.torn), "--resume", "--json"]);
    torn_skipped(&o, &format!("{}:3", f.torn.display()));
    assert_eq!(last_json(&o)["games"], 3, "{}", stdout(&o));
    let again = ladderbot::records::read_records(&f.torn).unwrap();
    assert_eq!(again.len(), 3);
    let text = std::fs::read_to_string(&f.torn).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
}
