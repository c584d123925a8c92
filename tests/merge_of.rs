//! `ladderbot merge --of NAME`: one player's results over records of any
//! origin, from a records file written by hand (the shape of a server's
//! records) and from a real `serve` with two `play` clients.

mod common;

use std::process::{Child, Stdio};
use std::time::Duration;

use common::*;
use ladderbot::runner::stats::Sample;

const LIMIT: Duration = Duration::from_secs(120);

/// One server record: only the keys a record needs.
fn line(id: u32, players: [&str; 2], winner: Option<u8>, result: &str, reason: &str) -> String {
    let winner = winner.map_or("null".to_string(), |w| w.to_string());
    format!(
        "{{\"game\":\"four3d\",\"id\":\"g{id}\",\"players\":[\"{}\",\"{}\"],\"winner\":{winner},\
         \"result\":\"{result}\",\"reason\":\"{reason}\",\"moves\":[0,1,2],\"move_ms\":[5,6,7],\
         \"started_ms\":1,\"finished_ms\":2}}\n",
        players[0], players[1]
    )
}

/// alice: a win on each seat, a draw, a loss on time, an aborted game; a
/// game without her; a torn last line.
fn records_text() -> String {
    let mut text = String::new();
    text += &line(1, ["alice", "bob"], Some(0), "1-0", "rules");
    text += &line(2, ["bob", "alice"], Some(1), "0-1", "rules");
    text += &line(3, ["alice", "bob"], None, "1/2-1/2", "rules");
    text += &line(4, ["carol", "alice"], Some(0), "1-0", "timeout");
    text += &line(5, ["alice", "bob"], None, "*", "aborted");
    text += &line(6, ["bob", "carol"], Some(0), "1-0", "rules");
    let torn = line(7, ["alice", "bob"], Some(0), "1-0", "rules");
    text + &torn[..40]
}

#[test]
fn merge_of_judges_a_player_over_server_records() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.jsonl");
    std::fs::write(&file, records_text()).unwrap();
    let f = file.to_str().unwrap();

    let out = run(
        &["merge", "--of", "alice", f, "--sprt", "0,20"],
        &[],
        None,
        LIMIT,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("games.jsonl:7: the last line is torn"),
        "{}",
        stderr(&out)
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "alice: 4 games of four3d, from 6 records in 1 file"
    );
    assert_eq!(lines[1], "against: bob 3 (+2 =1 -0), carol 1 (+0 =0 -1)");
    assert_eq!(
        lines[2],
        "alice: 2 wins, 1 draw, 1 loss; score 0.6250 (62.5%)"
    );
    assert!(
        lines[3].starts_with("Elo alice-opponents: +88.7, 95% interval [")
            && lines[3].ends_with("] (trinomial, 4 games); LOS 71.81%"),
        "{text}"
    );
    assert_eq!(lines[4], "seats: alice had seat 0 in 2 games, seat 1 in 2");
    assert_eq!(
        lines[5],
        "endings: rules 3, timeout 1, illegal move 0, disconnect 0 (alice lost by timeout 1)"
    );
    assert_eq!(
        lines[6],
        "left out: 1 aborted, 1 skipped (1 without alice, 0 with alice in both seats)"
    );
    let llr = Sample::trinomial(2, 1, 1).llr(0.0, 20.0);
    assert_eq!(
        lines[7],
        format!(
            "SPRT elo0=0 elo1=20 (trinomial, 4 games): LLR {llr:.3} in [-2.944, 2.944] -> undecided"
        )
    );
    assert_eq!(lines.len(), 8, "{text}");

    // --json: one object with the same counts; the folder reads as its file.
    let folder = dir.path().to_str().unwrap();
    let out = run(
        &["merge", "--of", "bob", folder, "--json", "--sprt", "0,20"],
        &[],
        None,
        LIMIT,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let j = last_json(&out);
    let counts = |k: &str| j[k].as_u64().unwrap();
    // bob: lost 1 and 2, drew 3, won 6 against carol; 5 aborted; 4 not his.
    assert_eq!(
        ["games", "wins", "draws", "losses", "aborted", "skipped"].map(counts),
        [4, 1, 1, 2, 1, 1]
    );
    assert_eq!(j["player"], "bob");
    assert_eq!(j["seats"], serde_json::json!([2, 2]));
    assert_eq!(j["score"], 0.375);
    assert_eq!(j["model"], "trinomial");
    assert_eq!(j["opponents"]["alice"]["losses"], 2);
    assert_eq!(j["opponents"]["carol"]["wins"], 1);
    assert_eq!(j["endings"]["rules"], 4);
    assert_eq!(j["forfeited"], serde_json::json!({}));
    assert_eq!(j["sprt"]["decision"], "undecided");
    assert_eq!(
        j["sprt"]["llr"].as_f64().unwrap(),
        Sample::trinomial(1, 1, 2).llr(0.0, 20.0)
    );
    assert!(j.get("pentanomial").is_none());
    for k in ["elo", "elo_lo", "elo_hi", "score_lo", "score_hi", "los"] {
        assert!(j[k].as_f64().is_some_and(f64::is_finite), "{k}: {j}");
    }

    // Nobody of that name: exit 2, naming the players seen.
    let out = run(&["merge", "--of", "dave", f], &[], None, LIMIT);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim_end().lines().last().unwrap(),
        "error: merge --of dave: no game has a player named dave (players seen: alice, bob, carol)"
    );
    // An unreadable file: exit 2 as without --of.
    let missing = dir.path().join("missing.jsonl");
    let out = run(
        &["merge", "--of", "alice", missing.to_str().unwrap()],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
    // Earlier totals: alice's 2-1-1 and 3-0-2 known only by their totals
    // judge as 5-1-3 would.
    let out = run(
        &[
            "merge", "--of", "alice", f, "--prior", "3,0,2", "--sprt", "0,20", "--json",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let j: serde_json::Value = serde_json::from_str(stdout(&out).lines().last().unwrap()).unwrap();
    assert_eq!(
        (&j["games"], &j["wins"], &j["draws"], &j["losses"]),
        (&9.into(), &5.into(), &1.into(), &3.into())
    );
    assert_eq!(j["prior"]["games"], 5);
    assert_eq!(
        j["sprt"]["llr"].as_f64().unwrap(),
        Sample::trinomial(5, 1, 3).llr(0.0, 20.0)
    );
    // Not three counts, or without --of: exit 2.
    for args in [
        vec!["merge", "--of", "alice", f, "--prior", "3,0"],
        vec!["merge", "--of", "alice", f, "--prior", "3,x,1"],
        vec!["merge", f, "--prior", "3,0,2"],
    ] {
        let out = run(&args, &[], None, LIMIT);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // --partial is a match's: refused with --of.
    let out = run(
        &["merge", "--of", "alice", "--partial", f],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(2));
    // Without --of, the server's records are still refused.
    let out = run(&["merge", f], &[], None, LIMIT);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no `match` tag"), "{}", stderr(&out));
}

fn client(url: &str, name: &str) -> Child {
    let mut c = bin();
    c.args(["play", "four3d", "--server", url, "--name", name])
        .args(["--games", "4", "--agent", "random"]);
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c.spawn().expect("spawn client")
}

#[test]
fn merge_of_reads_the_records_of_a_real_server() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    let server = ServerProc::start(&["--records", records.to_str().unwrap(), "--house-agent", ""]);
    let (a, b) = (client(&server.url, "a"), client(&server.url, "b"));
    let (a, b) = (wait_with_limit(a, LIMIT), wait_with_limit(b, LIMIT));
    assert!(
        a.status.success() && b.status.success(),
        "{}\n{}",
        stderr(&a),
        stderr(&b)
    );
    drop(server);
    let f = records.to_str().unwrap();
    let judge = |name: &str| {
        let out = run(&["merge", "--of", name, f, "--json"], &[], None, LIMIT);
        assert!(out.status.success(), "{}", stderr(&out));
        last_json(&out)
    };
    let (ja, jb) = (judge("a"), judge("b"));
    assert_eq!(ja["games"], 4);
    // Seats alternate on the server: two games each.
    assert_eq!(ja["seats"], serde_json::json!([2, 2]));
    // b's results are a's mirrored.
    assert_eq!(ja["wins"], jb["losses"]);
    assert_eq!(ja["draws"], jb["draws"]);
    assert_eq!(ja["losses"], jb["wins"]);
    assert_eq!(ja["opponents"]["b"]["games"], 4);
}
