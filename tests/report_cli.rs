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
fn report_refuses_a_bad_line_and_lists_a_torn_last_line() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("bad.jsonl");
    let html = dir.path().join("bad.html");
    let report = |records: &std::path::Path| {
        run(
            &[
                "report",
                records.to_str().unwrap(),
                "--html",
                html.to_str().unwrap(),
            ],
            &[],
            None,
            LIMIT,
        )
    };
    // A line that is no record, ended by its newline: named, exit 2.
    std::fs::write(&records, "{not a record\n").unwrap();
    let o = report(&records);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.jsonl:1: not a game record"),
        "{}",
        stderr(&o)
    );
    assert!(!html.exists());
    // A record, then a torn last line: the page, with the torn line listed.
    random_games(&records.with_file_name("one.jsonl"), 1, 1);
    let one = std::fs::read_to_string(records.with_file_name("one.jsonl")).unwrap();
    std::fs::write(&records, format!("{one}{}", &one[..30])).unwrap();
    let o = report(&records);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.jsonl:2: the last line is torn"),
        "{}",
        stderr(&o)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("bad.jsonl:2"));
}

/// The report's Elo of a match is the match's own: the same pentanomial
/// pairs and the same interval, computed again from the records alone.
#[test]
fn report_pairs_a_matchs_games_as_the_match_did() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("m.jsonl");
    let html = dir.path().join("m.html");
    let (records_s, html_s) = (records.to_str().unwrap(), html.to_str().unwrap());
    let o = run(
        &[
            "match",
            "four3d",
            "--a",
            "pmc",
            "--b",
            "pmc",
            "--games",
            "12",
            "--a-playouts",
            "20",
            "--b-playouts",
            "10",
            "--seed",
            "5",
            "--json",
            "--out",
            records_s,
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "match: {}", stderr(&o));
    let m = last_json(&o);
    assert_eq!(m["model"], "pentanomial", "{m}");
    let o = run(&["report", records_s, "--html", html_s], &[], None, LIMIT);
    assert_eq!(o.status.code(), Some(0), "report: {}", stderr(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    let p: Vec<u64> = m["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    // The report names the better scorer first: then A's counts read
    // backwards and its interval is negated.
    let counts = format!(
        "6 pairs: 0:{} ½:{} 1:{} 1½:{} 2:{}",
        p[0], p[1], p[2], p[3], p[4]
    );
    let mirrored = format!(
        "6 pairs: 0:{} ½:{} 1:{} 1½:{} 2:{}",
        p[4], p[3], p[2], p[1], p[0]
    );
    let a_first = page.contains(&counts);
    assert!(
        a_first || page.contains(&mirrored),
        "neither {counts} nor {mirrored} in the page"
    );
    // `match` caps its Elo at ±1200 where the report says ±∞.
    let fmt = |x: f64| {
        if x.is_infinite() || x.abs() >= 1200.0 {
            if x > 0.0 { "+∞" } else { "−∞" }.to_string()
        } else {
            let r = x.round();
            if r == 0.0 {
                "0".into()
            } else if r > 0.0 {
                format!("+{r}")
            } else {
                format!("−{}", -r)
            }
        }
    };
    let mut lo = m["elo_lo"].as_f64().unwrap_or(f64::NEG_INFINITY);
    let mut hi = m["elo_hi"].as_f64().unwrap_or(f64::INFINITY);
    if !a_first {
        (lo, hi) = (-hi, -lo);
    }
    let interval = format!("[{}, {}]", fmt(lo), fmt(hi));
    assert!(page.contains(&interval), "{interval} not in the page");
}
