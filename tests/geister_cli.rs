//! Geister from the command line, with the real binary: a full `rule` vs
//! `rule` session through `serve-gat` and two `play geister` clients, a
//! profile started with no arguments, `play geister` against the house bot,
//! and `match geister` in-process and over GAT TCP.

mod common;

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use common::records::check_geister_records;
use common::*;
use ladderbot::records::{read_records, EndReason, GameRecord};

const LIMIT: Duration = Duration::from_secs(120);

/// A `play geister` client process.
fn play_geister(port: u16, agent: &str, games: u32, seed: u64) -> Guard {
    let mut c = bin();
    c.args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .args(["--agent", agent, "--time-ms", "200"])
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Guard(Some(c.spawn().expect("start play geister")))
}

/// Runs the binary with the words of `line` (split on spaces) as its
/// arguments.
fn cli(line: &str) -> Output {
    let args: Vec<&str> = line.split_whitespace().collect();
    run(&args, &[], None, LIMIT)
}

/// (games, wins, draws, losses) from a client's `summary:` line.
fn summary(o: &Output) -> (u32, u32, u32, u32) {
    let text = stdout(o);
    let line = text
        .lines()
        .find(|l| l.starts_with("summary: "))
        .unwrap_or_else(|| panic!("no summary in {text:?}; stderr: {}", stderr(o)));
    let n: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2], n[3])
}

/// (seat 0 wins, draws, seat 1 wins) in the records.
fn by_seat(recs: &[GameRecord]) -> (u32, u32, u32) {
    let count = |w: Option<usize>| recs.iter().filter(|r| r.winner == w).count() as u32;
    (count(Some(0)), count(None), count(Some(1)))
}

#[test]
fn a_rule_vs_rule_session_through_serve_gat_records_every_game() {
    const N: u32 = 10;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("session.jsonl");
    let (srv, ports, lines) = serve_gat(N, &out, 60, 5);
    let c0 = play_geister(ports[0], "rule", N, 1);
    let c1 = play_geister(ports[1], "rule", N, 2);
    let o0 = c0.wait(LIMIT);
    let o1 = c1.wait(LIMIT);
    assert!(o0.status.success(), "{}", stderr(&o0));
    assert!(o1.status.success(), "{}", stderr(&o1));
    let so = srv.wait(LIMIT);
    assert!(so.status.success());
    let served: Vec<String> = lines.try_iter().collect();

    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), N as usize, "{served:?}");
    check_geister_records(&recs);
    // Two rule agents never break the rules of play.
    assert!(
        recs.iter().all(|r| r.reason == EndReason::Rules),
        "{recs:?}"
    );
    // Both clients' summaries agree with the records, seat by seat.
    let (w0, d, w1) = by_seat(&recs);
    assert_eq!(summary(&o0), (N, w0, d, w1));
    assert_eq!(summary(&o1), (N, w1, d, w0));
    // The server printed one line per game with its ending, then the count.
    let games: Vec<&String> = served.iter().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), N as usize, "{served:?}");
    for (line, r) in games.iter().zip(&recs) {
        let ending = r.ending.as_deref().unwrap().replace('_', " ");
        assert!(
            line.contains(&format!("{} by {ending} after", r.result)),
            "{line}"
        );
    }
    assert_eq!(
        served.last().map(String::as_str),
        Some(format!("served {N} games").as_str())
    );
}

#[test]
fn a_geister_profile_plays_when_started_with_no_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let profile = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/geister-rule.toml");
    std::fs::copy(&profile, dir.path().join("ladderbot.toml")).unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(2, &out, 60, 5);
    let other = play_geister(ports[1], "random", 2, 3);
    let port0 = format!("127.0.0.1:{}", ports[0]);
    let us = run(
        &[],
        &[
            ("LADDERBOT_CLIENT__SERVER", port0.as_str()),
            ("LADDERBOT_CLIENT__GAMES", "2"),
            ("LADDERBOT_SEARCH__SEED", "4"),
        ],
        Some(dir.path()),
        LIMIT,
    );
    assert!(us.status.success(), "{}", stderr(&us));
    let them = other.wait(LIMIT);
    assert!(srv.wait(LIMIT).status.success());
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), 2);
    check_geister_records(&recs);
    let (w0, d, w1) = by_seat(&recs);
    assert_eq!(summary(&us), (2, w0, d, w1));
    assert_eq!(summary(&them), (2, w1, d, w0));
}

#[test]
fn play_geister_without_a_server_plays_the_house_bot_with_seats_alternating() {
    let o = run(
        &[
            "play", "geister", "--agent", "rule", "--games", "4", "--seed", "9",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // No profile: `geister-best`'s budget, with the agent asked for.
    assert!(
        text.starts_with(
            "play: no profile given: ladderbot plays the shipped profile geister-best (rule; \
             1000 ms a move, margin 30 ms)\nladderbot (rule) vs house bot (random) on GAT \
             127.0.0.1:"
        ),
        "{text}"
    );
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 4, "{text}");
    for (i, g) in games.iter().enumerate() {
        assert!(
            g.starts_with(&format!("game {}: seat {}: ", i + 1, i % 2)),
            "{g}"
        );
    }
    let (n, w, d, l) = summary(&o);
    assert_eq!((n, w + d + l), (4, 4));
}

#[test]
fn play_geister_refuses_a_bad_server_and_a_bad_agent() {
    let o = run(
        &["play", "geister", "--server", "http://127.0.0.1:8765"],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("client.server"), "{}", stderr(&o));
    // A ws:// URL is the match server (Geister plays there too): a closed
    // port is a clear error, not a panic.
    let o = run(
        &[
            "play",
            "geister",
            "--server",
            "ws://127.0.0.1:9",
            "--param",
            "x=1",
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(
        &[
            "play",
            "geister",
            "--server",
            "127.0.0.1:10000",
            "--agent",
            "pmc",
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("pmc"), "{}", stderr(&o));
}

/// The `--json` report of a `match geister` run.
fn match_json(extra: &[&str], out: &Path) -> serde_json::Value {
    let mut args = vec![
        "match", "geister", "--a", "charge", "--b", "random", "--games", "24", "--seed", "3",
        "--jobs", "2", "--json", "--out",
    ];
    let out_s = out.to_str().unwrap();
    args.push(out_s);
    args.extend_from_slice(extra);
    let o = run(&args, &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    last_json(&o)
}

#[test]
fn match_geister_in_process_and_over_gat_play_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let local = match_json(&[], &dir.path().join("local.jsonl"));
    let tcp = match_json(&["--over-gat"], &dir.path().join("tcp.jsonl"));
    assert_eq!(local["game"], "geister");
    assert_eq!(local["games"], 24);
    assert!(local.get("transport").is_none());
    assert_eq!(tcp["transport"], "gat-tcp");
    // charge and random do not look at the clock: the same seeds give the
    // same games whether the moves travel over TCP or not.
    for key in ["wins", "draws", "losses", "endings"] {
        assert_eq!(local[key], tcp[key], "{key}: {local} vs {tcp}");
    }
    let e = &local["endings"];
    let total: u64 = ["a", "b", "draws"]
        .iter()
        .flat_map(|s| e[s].as_object().unwrap().values())
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(total, 24, "{e}");
    let wins: u64 = e["a"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(wins, local["wins"].as_u64().unwrap());
    let key = |r: &GameRecord| r.id.rsplit_once("-g").unwrap().1.parse::<u32>().unwrap();
    let mut a = read_records(dir.path().join("local.jsonl")).unwrap();
    let mut b = read_records(dir.path().join("tcp.jsonl")).unwrap();
    a.sort_by_key(key);
    b.sort_by_key(key);
    assert_eq!(a.len(), 24);
    check_geister_records(&a);
    check_geister_records(&b);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            (&x.id, &x.players, &x.start, &x.moves, &x.ending),
            (&y.id, &y.players, &y.start, &y.moves, &y.ending)
        );
    }
    // Moves are in GAT form.
    assert!(
        a[0].moves[2].as_str().unwrap().contains(','),
        "{:?}",
        a[0].moves
    );
}

#[test]
fn match_geister_human_report_shows_endings_and_bad_usage_is_exit_2() {
    let o = run(
        &[
            "match", "geister", "--a", "rule", "--b", "random", "--games", "20", "--seed", "1",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("geister: A = rule vs B = random, 20 games"),
        "{text}"
    );
    assert!(
        text.contains("endings (A/B wins): escape ") && text.contains("; draws "),
        "{text}"
    );
    for args in [
        &[
            "match",
            "four3d",
            "--a",
            "pmc",
            "--b",
            "random",
            "--over-gat",
        ][..],
        &["match", "geister", "--a", "rule", "--b", "pmc"][..],
        &[
            "match",
            "geister",
            "--a",
            "rule",
            "--b",
            "random",
            "--over-gat",
            "--time-ms",
            "20000",
        ][..],
    ] {
        let o = run(args, &[], None, LIMIT);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
}

#[test]
fn match_geister_over_gat_plays_a_program_and_names_it_in_the_records() {
    // The program is this binary's own GAT client: started afresh for every
    // game with the seat's port, as a tournament entry would be.
    let exe = env!("CARGO_BIN_EXE_ladderbot");
    let program = format!("{exe} play geister --server {{host}}:{{port}} --agent random --games 1");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let o = run(
        &[
            "match",
            "geister",
            "--a",
            "charge",
            "--b-cmd",
            &program,
            "--over-gat",
            "--games",
            "6",
            "--seed",
            "4",
            "--jobs",
            "2",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let r = last_json(&o);
    assert_eq!(r["games"], 6, "{r}");
    let (w, d, l) = (
        r["wins"].as_u64().unwrap(),
        r["draws"].as_u64().unwrap(),
        r["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 6, "{r}");
    assert_eq!(r["b"], format!("cmd({program})"), "{r}");
    assert!(r["b_max_ms"].as_f64().unwrap() >= r["b_ms_per_move"].as_f64().unwrap());
    let mut recs = read_records(&out).unwrap();
    recs.sort_by_key(|r| r.id.rsplit_once("-g").unwrap().1.parse::<u32>().unwrap());
    assert_eq!(recs.len(), 6);
    check_geister_records(&recs);
    for (i, rec) in recs.iter().enumerate() {
        // Seats alternate: A moves first in even games.
        assert_eq!(rec.players[i % 2], "A:charge", "{rec:?}");
        assert_eq!(rec.players[1 - i % 2], format!("B:cmd({program})"));
        assert_eq!(rec.reason, EndReason::Rules, "{rec:?}");
    }
    let a_wins = recs
        .iter()
        .enumerate()
        .filter(|(i, r)| r.winner == Some(i % 2))
        .count() as u64;
    assert_eq!(a_wins, w);
}

#[test]
fn a_program_that_exits_without_playing_stops_the_match_with_an_error() {
    let o = cli("match geister --a rule --b-cmd true --over-gat --games 2 --jobs 1");
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("side B's program exited") && err.contains("before its game ended"),
        "{err}"
    );
    // Programs only play geister over GAT; a missing program is an error too.
    for line in [
        "match geister --a rule --b-cmd true",
        "match four3d --a pmc --b-cmd true --over-gat",
    ] {
        let o = cli(line);
        assert_eq!(o.status.code(), Some(2), "{line}: {}", stderr(&o));
    }
    // A program that is not there is bad configuration, found before any game.
    let o =
        cli("match geister --a rule --b-cmd /nonexistent/gat-bot --over-gat --games 2 --jobs 1");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no program /nonexistent/gat-bot"),
        "{}",
        stderr(&o)
    );
}

/// A `play geister` client of `serve-gat` that keeps its own records.
fn play_geister_recording(port: u16, agent: &str, games: u32, seed: u64, records: &Path) -> Guard {
    let mut c = bin();
    c.args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .args(["--agent", agent, "--time-ms", "50"])
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .arg("--records")
        .arg(records)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Guard(Some(c.spawn().expect("start play geister")))
}

#[test]
fn gat_client_records_carry_every_move_and_its_time_and_read_in_report_and_latency() {
    const N: u32 = 2;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("served.jsonl");
    let mine = [dir.path().join("c0.jsonl"), dir.path().join("c1.jsonl")];
    let (srv, ports, _lines) = serve_gat(N, &out, 60, 5);
    let c0 = play_geister_recording(ports[0], "rule", N, 1, &mine[0]);
    let c1 = play_geister_recording(ports[1], "random", N, 2, &mine[1]);
    for o in [c0.wait(LIMIT), c1.wait(LIMIT)] {
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert!(srv.wait(LIMIT).status.success());
    let served = read_records(&out).unwrap();
    assert_eq!(served.len(), N as usize);
    for (seat, path) in mine.iter().enumerate() {
        let recs = read_records(path).unwrap();
        assert_eq!(recs.len(), N as usize);
        check_geister_records(&recs);
        for (r, s) in recs.iter().zip(&served) {
            // The same game as the server's record: the start, both
            // setups (the opponent's read off the end board) and every
            // move of both seats, each with a time.
            assert_eq!(r.players[seat], "ladderbot", "{r:?}");
            assert_eq!(r.winner, s.winner, "{r:?}");
            assert_eq!(r.start, s.start);
            assert_eq!(r.moves, s.moves, "seat {seat}");
            assert_eq!(r.move_ms.len(), r.moves.len());
            assert!(r.moves.len() > 2, "{r:?}");
            let replayed = ladderbot::report::replay_record(r);
            assert!(replayed.error.is_none(), "{:?}", replayed.error);
        }
    }
    // report draws them all (none "not replayed"), latency counts their moves.
    let html = dir.path().join("r.html");
    let (a, b) = (mine[0].to_str().unwrap(), mine[1].to_str().unwrap());
    let o = run(
        &["report", a, b, "--html", html.to_str().unwrap()],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("{} game(s)", 2 * N)),
        "{}",
        stdout(&o)
    );
    assert!(!stderr(&o).contains("do not replay"), "{}", stderr(&o));
    let o = run(&["latency", a, "--skip", "2", "--json"], &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let moves: usize = read_records(&mine[0])
        .unwrap()
        .iter()
        .map(|r| r.moves.len() - 2)
        .sum();
    assert_eq!(v["moves"], moves, "{v}");
}

/// `play geister` against its in-process server at `--time-policy bank`
/// with a bank of `bank_ms`, every move kept short (the margin), logging at
/// info level: its stderr.
fn bank_session(bank_ms: &str) -> String {
    let o = run(
        &[
            "play",
            "geister",
            "--agent",
            "rule",
            "--games",
            "1",
            "--seed",
            "3",
            "--time-policy",
            "bank",
            "--bank-ms",
            bank_ms,
        ],
        &[
            ("LADDERBOT_LOG__FILTER", "info"),
            ("LADDERBOT_SEARCH__MARGIN_MS", "960"),
        ],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    stderr(&o)
}

#[test]
fn a_gat_bank_client_logs_its_plan_and_what_it_spent_and_warns_when_it_cannot_spend() {
    // Issue 57: 20 s over 60 moves rounds down to no whole second a move.
    let log = bank_session("20000");
    let plan = log
        .lines()
        .find(|l| l.contains("GAT time plan"))
        .unwrap_or_else(|| panic!("no plan in {log}"));
    assert!(plan.contains("INFO"), "{plan}");
    for field in [
        "bank_s=20",
        "free_second_ms=1000",
        "margin_ms=960",
        "first_move_ms=40",
        "extra_s_first_move=0",
    ] {
        assert!(plan.contains(field), "{field} in {plan}");
    }
    let warn = log
        .lines()
        .find(|l| l.contains("cannot be spent in whole seconds"))
        .unwrap_or_else(|| panic!("no warning in {log}"));
    assert!(
        warn.contains("WARN") && warn.contains("least_bank_s=37"),
        "{warn}"
    );
    let spent = log
        .lines()
        .find(|l| l.contains("GAT time spent"))
        .unwrap_or_else(|| panic!("no spend in {log}"));
    assert!(
        spent.contains("game=1") && spent.contains("bank_spent_s=0"),
        "{spent}"
    );
    // One plan a session, one spend line a game; a bank that can be spent
    // is no warning.
    assert_eq!(log.matches("GAT time plan").count(), 1, "{log}");
    let log = bank_session("120000");
    assert!(
        log.contains("GAT time plan") && log.contains("bank_s=120"),
        "{log}"
    );
    assert!(!log.contains("cannot be spent"), "{log}");
}

#[test]
fn play_geister_against_its_own_server_reconnects_silently_and_numbers_games() {
    let o = run(
        &[
            "play",
            "geister",
            "--agent",
            "rule",
            "--games",
            "4",
            "--seed",
            "9",
            "--time-ms",
            "50",
        ],
        &[("LADDERBOT_LOG__FILTER", "debug")],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let log = stderr(&o);
    assert!(!log.contains("WARN"), "{log}");
    // Whatever debug lines name a game name the game being played, not
    // always the first.
    for l in log.lines().filter(|l| l.contains("reconnecting")) {
        assert!(l.contains("DEBUG"), "{l}");
    }
    let numbered: std::collections::BTreeSet<String> = log
        .lines()
        .filter(|l| l.contains("GAT time spent"))
        .filter_map(|l| l.split("game=").nth(1))
        .map(|rest| rest.split(' ').next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(numbered.len(), 4, "{log}");
}
