//! `play` as a scheduled session: records of its own on a server, a time
//! limit, SIGTERM (the game in progress played out or abandoned, records
//! flushed, bounded exit), a server token, and exit codes a scheduler reads.

mod common;

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::*;
use ladderbot::records::{EndReason, GameRecord};

const LIMIT: Duration = Duration::from_secs(120);

/// A `play four3d` client of `url` named `name`, 100 ms a move.
fn client(url: &str, name: &str, games: u32, records: &Path, envs: &[(&str, &str)]) -> Child {
    let mut c = bin();
    c.args(["play", "four3d", "--server", url, "--agent", "pmc"])
        .args(["--time-ms", "100", "--name", name])
        .args(["--games", &games.to_string()])
        .arg("--records")
        .arg(records)
        // Only warnings: a full stderr pipe would stall the client.
        .env("LADDERBOT_LOG__FILTER", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in envs {
        c.env(k, v);
    }
    c.spawn().expect("spawn a client")
}

/// The session's last game was abandoned, and its output says so.
fn last_abandoned(records: &[GameRecord], out: &std::process::Output) {
    let last = records.last().unwrap();
    assert_eq!(last.reason, EndReason::Disconnect, "{last:?}");
    let detail = last.detail.as_deref().unwrap_or("");
    assert!(detail.starts_with("abandoned"), "{last:?}");
    assert!(stdout(out).contains("1 game(s) abandoned"));
}

/// SIGTERM to `child`, which must exit with 143 within `within`.
fn sigterm(child: Guard, within: Duration) -> std::process::Output {
    signal(child.0.as_ref().unwrap(), "-TERM");
    let sent = Instant::now();
    let out = child.wait(LIMIT);
    assert!(sent.elapsed() < within, "{:?}", sent.elapsed());
    assert_eq!(out.status.code(), Some(143), "{}", stderr(&out));
    out
}

/// Every line of `path` is one complete record.
fn complete_records(path: &Path) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    assert!(text.is_empty() || text.ends_with('\n'), "a torn last line");
    text.lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("not a whole record ({e}): {l}"))
        })
        .collect()
}

fn wait_for_lines(path: &Path, n: usize, limit: Duration) {
    let start = Instant::now();
    while complete_records(path).len() < n {
        assert!(
            start.elapsed() < limit,
            "{} has fewer than {n} records",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `summary: games N, ...` from the client's stdout.
fn summary_games(out: &str) -> usize {
    let line = out
        .lines()
        .find(|l| l.starts_with("summary: games "))
        .unwrap_or_else(|| panic!("no summary line in:\n{out}"));
    line["summary: games ".len()..]
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// alice (with `alice_env`) and bob, 50 games each on `server`, each with
/// its records file in `dir`; SIGTERM to alice once her first game is
/// recorded and the next one has started: her output, how long she took
/// to exit, and bob, still running.
fn sigterm_alice_in_her_second_game(
    server: &ServerProc,
    dir: &Path,
    alice_env: &[(&str, &str)],
) -> (std::process::Output, Duration, Guard) {
    let (a_rec, b_rec) = (dir.join("alice.jsonl"), dir.join("bob.jsonl"));
    let alice = Guard(Some(client(&server.url, "alice", 50, &a_rec, alice_env)));
    let bob = Guard(Some(client(&server.url, "bob", 50, &b_rec, &[])));
    // Games take seconds at 100 ms a move.
    wait_for_lines(&a_rec, 1, LIMIT);
    std::thread::sleep(Duration::from_millis(400));
    let sent = Instant::now();
    let out = sigterm(alice, Duration::from_secs(15));
    (out, sent.elapsed(), bob)
}

#[test]
fn sigterm_finishes_the_game_in_progress_flushes_the_records_and_starts_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let server_records = dir.path().join("server.jsonl");
    let server = ServerProc::start(&["--records", server_records.to_str().unwrap()]);
    let (a_rec, b_rec) = (dir.path().join("alice.jsonl"), dir.path().join("bob.jsonl"));
    let (out, took, bob) = sigterm_alice_in_her_second_game(&server, dir.path(), &[]);
    // The game in progress is played out within the grace (10 s by default).
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert_eq!(out.status.code(), Some(143), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("session: stopped early by SIGTERM; 0 game(s) abandoned"),
        "{text}"
    );
    let records = complete_records(&a_rec);
    assert_eq!(summary_games(&text), records.len());
    assert!(records.len() >= 2, "the game in progress was played out");
    assert!(
        records.iter().all(|r| r.reason == EndReason::Rules),
        "{records:?}"
    );
    // Each record names both players and holds the moves as played.
    for r in &records {
        assert!(r.players.contains(&"alice".to_string()) && r.players.contains(&"bob".to_string()));
        assert!(!r.moves.is_empty());
        assert_eq!(r.moves.len(), r.move_ms.len());
    }
    // No phantom game: the server started none after alice's last one, so
    // bob's side of the story has the same games, none lost by disconnect.
    sigterm(bob, Duration::from_secs(5));
    let bob_records = complete_records(&b_rec);
    assert_eq!(
        bob_records.iter().map(|r| &r.id).collect::<Vec<_>>(),
        records.iter().map(|r| &r.id).collect::<Vec<_>>()
    );
    let served = complete_records(&server_records);
    assert_eq!(served.len(), records.len(), "{served:?}");
    assert!(served.iter().all(|r| r.reason == EndReason::Rules));
}

#[test]
fn a_second_sigterm_or_the_end_of_the_grace_abandons_the_game_and_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProc::start(&[]);
    let (a_rec, b_rec) = (dir.path().join("alice.jsonl"), dir.path().join("bob.jsonl"));
    // A grace of 1 ms: the game in progress is abandoned at once.
    let grace = [("LADDERBOT_CLIENT__STOP_GRACE_MS", "1")];
    let (out, took, bob) = sigterm_alice_in_her_second_game(&server, dir.path(), &grace);
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(out.status.code(), Some(143), "{}", stderr(&out));
    let records = complete_records(&a_rec);
    assert_eq!(summary_games(&stdout(&out)), records.len());
    last_abandoned(&records, &out);
    // Bob wins that game by disconnect and goes on waiting: SIGTERM ends
    // his wait at once.
    wait_for_lines(&b_rec, records.len(), LIMIT);
    let out = sigterm(bob, Duration::from_secs(5));
    assert_eq!(summary_games(&stdout(&out)), complete_records(&b_rec).len());
}

/// Milliseconds since the Unix epoch (the clock records use).
fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

#[test]
fn a_time_limit_ends_the_session_with_exit_0_after_the_game_in_progress() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("house.jsonl");
    let start = Instant::now();
    let start_ms = unix_ms();
    // Against the in-process house bot: the records are the server's.
    let out = run(
        &[
            "play",
            "four3d",
            "--agent",
            "pmc",
            "--time-ms",
            "50",
            "--games",
            "1000",
            "--time-limit-s",
            "2",
            "--records",
            rec.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    let took = start.elapsed();
    let end_ms = unix_ms();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("stopped early by the time limit"), "{text}");
    let n = summary_games(&text);
    assert!((1..1000).contains(&n));
    let records = complete_records(&rec);
    assert_eq!(records.len(), n);
    // src/cli/play.rs: when the limit (2 s, timed from the session's
    // start) passes, no new game starts, the game in progress is played out
    // (at most client.stop_grace_ms, 10 s), then the session ends. So the
    // last game started within the limit, was played to its end by the
    // rules, and the process ended right after it: within the limit plus
    // that game plus a little. SLACK covers starting the process (before
    // the limit's clock starts) and stopping it, on busy cores.
    const SLACK: u64 = 1_500;
    let last = records.last().unwrap();
    assert!(
        last.started_ms <= start_ms + 2_000 + SLACK,
        "a game started {} ms into a 2 s session: {last:?}",
        last.started_ms.saturating_sub(start_ms)
    );
    assert_eq!(last.reason, EndReason::Rules, "{last:?}");
    assert!(
        end_ms <= last.finished_ms + SLACK,
        "the session ended {} ms after its last game",
        end_ms.saturating_sub(last.finished_ms)
    );
    let game = Duration::from_millis(last.finished_ms - last.started_ms);
    assert!(
        took <= Duration::from_millis(2_000 + 2 * SLACK) + game,
        "{took:?} for a 2 s limit and a last game of {game:?}"
    );
}

#[test]
fn exit_codes_tell_a_scheduler_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    // Nobody listens: worth retrying later (75).
    let out = run(
        &[
            "play",
            "four3d",
            "--server",
            "ws://127.0.0.1:9",
            "--games",
            "1",
        ],
        &[("LADDERBOT_CLIENT__MAX_RECONNECTS", "0")],
        None,
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    assert!(stderr(&out).contains("worth retrying"));
    // A records file that cannot be written: bad configuration (2), before
    // connecting.
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "").unwrap();
    let bad = blocker.join("records.jsonl");
    let out = run(
        &[
            "play",
            "four3d",
            "--server",
            "ws://127.0.0.1:9",
            "--records",
            bad.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("client.records"));
    // A bad value in the environment: 2.
    let out = run(
        &["play", "four3d"],
        &[("LADDERBOT_CLIENT__TIME_LIMIT_S", "soon")],
        None,
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_server_with_a_token_refuses_clients_without_it() {
    let mut c = bin();
    c.args(["serve", "--bind", "127.0.0.1:0", "--house-agent", "random"])
        .env("LADDERBOT_SERVER__TOKEN", "s3cret")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut server = Guard(Some(c.spawn().unwrap()));
    let url = {
        use std::io::BufRead;
        let out = server.0.as_mut().unwrap().stdout.take().unwrap();
        let mut line = String::new();
        std::io::BufReader::new(out).read_line(&mut line).unwrap();
        line.trim()
            .strip_prefix("listening on ")
            .unwrap()
            .to_string()
    };
    let play = |token: Option<&str>| {
        let mut envs = vec![];
        if let Some(t) = token {
            envs.push(("LADDERBOT_CLIENT__TOKEN", t));
        }
        run(
            &[
                "play",
                "four3d",
                "--server",
                &url,
                "--opponent",
                "house",
                "--agent",
                "random",
            ],
            &envs,
            None,
            LIMIT,
        )
    };
    let out = play(None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("unauthorized"), "{}", stderr(&out));
    let out = play(Some("wrong"));
    assert_eq!(out.status.code(), Some(2));
    let out = play(Some("s3cret"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(summary_games(&stdout(&out)), 1);
    drop(server);
}

/// `play geister` as a GAT client of `port`, 40 ms a move.
fn gat_client(port: u16, games: u32, records: &Path, grace_ms: &str) -> Child {
    bin()
        .args(["play", "geister", "--agent", "best", "--time-ms", "40"])
        .args(["--server", &format!("127.0.0.1:{port}")])
        .args(["--games", &games.to_string()])
        .arg("--records")
        .arg(records)
        .env("LADDERBOT_CLIENT__RECONNECT_WINDOW_MS", "2000")
        .env("LADDERBOT_CLIENT__STOP_GRACE_MS", grace_ms)
        // Only warnings: a full stderr pipe would stall the client.
        .env("LADDERBOT_LOG__FILTER", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn a GAT client")
}

#[test]
fn a_gat_session_keeps_its_records_and_stops_on_sigterm_after_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let served = dir.path().join("served.jsonl");
    let (srv, ports, _lines) = serve_gat(20, &served, 60, 5);
    let (a_rec, b_rec) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    let a = Guard(Some(gat_client(ports[0], 20, &a_rec, "10000")));
    let b = Guard(Some(gat_client(ports[1], 20, &b_rec, "500")));
    wait_for_lines(&a_rec, 1, LIMIT);
    let out = sigterm(a, Duration::from_secs(15));
    let ours = complete_records(&a_rec);
    assert_eq!(summary_games(&stdout(&out)), ours.len());
    assert!(
        ours.iter().all(|r| r.reason == EndReason::Rules),
        "{ours:?}"
    );
    assert!(ours
        .iter()
        .all(|r| r.game == "geister" && r.players.contains(&"ladderbot".into())));
    // The other client is connected for the next game, which the server
    // cannot start: SIGTERM, and after its grace it abandons that game and
    // records it so.
    std::thread::sleep(Duration::from_millis(300));
    let out = sigterm(b, Duration::from_secs(5));
    let theirs = complete_records(&b_rec);
    assert_eq!(summary_games(&stdout(&out)), theirs.len());
    // (Had it not connected yet, it stops with no game in progress.)
    if theirs.len() > ours.len() {
        assert_eq!(theirs.len(), ours.len() + 1, "{theirs:?}");
        last_abandoned(&theirs, &out);
    }
    assert!(theirs.len() >= ours.len());
    // The server's records agree game for game on the winners.
    drop(srv);
    let served = complete_records(&served);
    assert!(served.len() >= ours.len());
    for (s, o) in served.iter().zip(&ours) {
        assert_eq!(s.winner, o.winner, "{s:?} {o:?}");
    }
}
