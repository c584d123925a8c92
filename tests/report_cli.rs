//! `ladderbot report` through the real binary: records written by `match`
//! become one self-contained HTML page; a missing input is a usage error.

mod common;

use std::time::Duration;

use common::*;

const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn report_writes_one_self_contained_page_of_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("m.jsonl");
    let html = dir.path().join("out/m.html");
    let (records_s, html_s) = (records.to_str().unwrap(), html.to_str().unwrap());
    let o = run(
        &[
            "match", "four3d", "--a", "random", "--b", "random", "--games", "2", "--out", records_s,
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "match: {}", stderr(&o));
    let o = run(
        &["report", records_s, "--html", html_s, "--limit-ms", "50"],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "report: {}", stderr(&o));
    assert!(stdout(&o).contains("2 game(s)"), "{}", stdout(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("id=\"game-1\"") && page.contains("id=\"game-2\""));
    assert!(page.contains("<script type=\"application/json\" id=\"data\">"));
    assert!(!page.contains("http://") && !page.contains("https://"));
}

#[test]
fn report_exits_2_on_a_missing_input_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("m.html");
    let missing = dir.path().join("none.jsonl");
    let o = run(
        &[
            "report",
            missing.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("none.jsonl"), "{}", stderr(&o));
    assert!(!html.exists());
}

#[test]
fn report_shows_bad_lines_and_still_writes_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("bad.jsonl");
    std::fs::write(&records, "{not a record\n").unwrap();
    let html = dir.path().join("bad.html");
    let o = run(
        &[
            "report",
            records.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("no game record"), "{}", stderr(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("bad.jsonl:1"));
}
