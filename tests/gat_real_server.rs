//! `ladderbot play geister` against the real GAT server
//! (miyo/geister_server.java, `TCPServerWithBlock`, the server the GAT
//! tournaments use), as a user runs it: a session of 20 games, every one
//! with its result and how it ended, none phantom.
//!
//! The real server is not in this repository and nothing here builds it, so
//! the test is ignored by default (CI tests the same session against
//! `serve-gat`, which closes and opens its ports between games as the real
//! server does: tests/gat_tcp.rs). To run it, build the server in a scratch
//! folder as docs/geister-results.md says, set `LADDERBOT_GAT_SERVER` to the
//! command that starts it (it listens on ports 10000 and 10001), and run
//! `cargo test --release --test gat_real_server -- --ignored`. Run without
//! the variable, it fails.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{bin, Guard};
use ladderbot::records::{read_records, EndReason, GameRecord};

/// How a game can end with a verdict, as the client reads it off the end
/// board (`platforms::gat::client::ending_of`).
const ENDINGS: [&str; 4] = ["escape", "blues_captured", "reds_captured", "draw"];

fn client(port: u16, games: u32, agent: &str, name: &str, records: &Path) -> Guard {
    let child = bin()
        .args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .args(["--agent", agent, "--time-ms", "50", "--name", name])
        .args(["--games", &games.to_string()])
        .arg("--records")
        .arg(records)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play geister");
    Guard(Some(child))
}

/// Whether some socket listens on TCP `port` (Linux's /proc/net/tcp{,6}).
fn listening(port: u16) -> bool {
    let hex = format!(":{port:04X}");
    ["/proc/net/tcp", "/proc/net/tcp6"].iter().any(|f| {
        std::fs::read_to_string(f).is_ok_and(|t| {
            t.lines().skip(1).any(|l| {
                let cols: Vec<&str> = l.split_whitespace().collect();
                cols.len() > 3 && cols[1].ends_with(&hex) && cols[3] == "0A"
            })
        })
    })
}

/// The seat (0 moved first) the client named `name` had in `r`.
fn seat_of(r: &GameRecord, name: &str) -> usize {
    r.players
        .iter()
        .position(|p| p == name)
        .unwrap_or_else(|| panic!("{name} is not a player of {r:?}"))
}

/// One client's game, checked on its own: a verdict by the rules, one of
/// the known endings, a result that fits it, and a console line that says
/// the same.
fn check_game(r: &GameRecord, line: &str, name: &str) {
    assert_eq!(r.game, "geister", "{r:?}");
    assert_eq!(r.reason, EndReason::Rules, "{name}: no verdict: {r:?}");
    let ending = r.ending.as_deref().unwrap_or("none");
    assert!(ENDINGS.contains(&ending), "{name}: ending {ending}: {r:?}");
    // A draw is the ply limit and nothing else; a win has a winner.
    assert_eq!(ending == "draw", r.winner.is_none(), "{name}: {r:?}");
    assert_eq!(r.result, GameRecord::result_string(r.winner), "{r:?}");
    let seat = seat_of(r, name);
    let result = match r.winner {
        None => "draw",
        Some(w) if w == seat => "win",
        Some(_) => "loss",
    };
    let by = if ending == "draw" {
        "the ply limit".to_string()
    } else {
        ending.to_string()
    };
    assert!(
        line.starts_with("game ")
            && line.contains(&format!(": seat {seat}: {result} by {by} after ")),
        "{name}: the console says {line:?}, the record {r:?}"
    );
}

#[test]
#[ignore = "needs the real GAT server: set LADDERBOT_GAT_SERVER to the command that starts it \
            (docs/geister-results.md) and run with --ignored"]
fn a_twenty_game_session_on_the_real_gat_server() {
    let cmd = std::env::var("LADDERBOT_GAT_SERVER").unwrap_or_else(|_| {
        panic!(
            "LADDERBOT_GAT_SERVER is not set: it must be the command that starts the real GAT \
             server (see docs/geister-results.md); this test plays on nothing else"
        )
    });
    let server = std::process::Command::new("sh")
        .args(["-c", &format!("exec {cmd}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the real GAT server");
    let server = Guard(Some(server));
    // Wait for its ports to listen (read off /proc: a probe connection
    // would take a seat and leave the other one waiting).
    let start = Instant::now();
    while !listening(10000) || !listening(10001) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the real server did not open ports 10000 and 10001"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let dir = tempfile::tempdir().unwrap();
    let games = 20;
    let names = ["rule-client", "random-client"];
    let files = [dir.path().join("a.jsonl"), dir.path().join("b.jsonl")];
    let a = client(10000, games, "rule", names[0], &files[0]);
    let b = client(10001, games, "random", names[1], &files[1]);
    let limit = Duration::from_secs(600);
    let outs = [a.wait(limit), b.wait(limit)];
    drop(server);
    let mut records = Vec::new();
    for ((o, name), file) in outs.iter().zip(names).zip(&files) {
        let text = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{name}: {text}\n{err}");
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(lines.len(), games as usize, "{name}: {text}");
        let recs = read_records(file).unwrap();
        assert_eq!(recs.len(), games as usize, "{name}: {recs:?}");
        for (r, line) in recs.iter().zip(&lines) {
            check_game(r, line, name);
        }
        // The summary counts what the games say.
        let count = |want: &str| lines.iter().filter(|l| l.contains(want)).count();
        assert!(
            text.contains(&format!(
                "summary: games {games}, wins {}, draws {}, losses {},",
                count(": win by "),
                count(": draw by "),
                count(": loss by ")
            )),
            "{name}: {text}"
        );
        records.push(recs);
    }
    // Game k of one client is game k of the other (the server plays one
    // game at a time): opposite seats, the same winner and ending.
    for (k, (ra, rb)) in records[0].iter().zip(&records[1]).enumerate() {
        let (sa, sb) = (seat_of(ra, names[0]), seat_of(rb, names[1]));
        assert_ne!(sa, sb, "game {}: both clients in seat {sa}", k + 1);
        assert_eq!(ra.winner, rb.winner, "game {}: {ra:?} vs {rb:?}", k + 1);
        assert_eq!(ra.ending, rb.ending, "game {}: {ra:?} vs {rb:?}", k + 1);
    }
}
