//! `ladderbot play geister` against the real GAT server
//! (miyo/geister_server.java, `TCPServerWithBlock`, the server the GAT
//! tournaments use), as a user runs it: a session of 20 games, every one
//! with its result and how it ended, none phantom.
//!
//! The real server is not in this repository and nothing here builds it:
//! build it in a scratch folder as docs/geister-results.md says, and set
//! `LADDERBOT_GAT_SERVER` to the command that starts it (it listens on ports
//! 10000 and 10001). Without it the test says so and passes: CI tests the
//! same session against `serve-gat`, which closes and opens its ports
//! between games as the real server does (tests/gat_tcp.rs).

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Guard;

const BIN: &str = env!("CARGO_BIN_EXE_ladderbot");

fn client(port: u16, games: u32, agent: &str) -> Guard {
    let child = Command::new(BIN)
        .args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .args(["--agent", agent, "--time-ms", "50"])
        .args(["--games", &games.to_string()])
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

#[test]
fn a_twenty_game_session_on_the_real_gat_server() {
    let Ok(cmd) = std::env::var("LADDERBOT_GAT_SERVER") else {
        eprintln!(
            "skipped: LADDERBOT_GAT_SERVER is not set (the command that starts the real GAT \
             server; see docs/geister-results.md)"
        );
        return;
    };
    let server = Command::new("sh")
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
    let games = 20;
    let a = client(10000, games, "rule");
    let b = client(10001, games, "random");
    let limit = Duration::from_secs(600);
    let (oa, ob) = (a.wait(limit), b.wait(limit));
    drop(server);
    for (o, who) in [(&oa, "seat 0's client"), (&ob, "seat 1's client")] {
        let text = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{who}: {text}\n{err}");
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(lines.len(), games as usize, "{who}: {text}");
        for l in &lines {
            assert!(!l.contains("error"), "{who}: a phantom game: {l}");
        }
        let endings = lines
            .iter()
            .filter(|l| {
                ["escape", "blues_captured", "reds_captured", "the ply limit"]
                    .iter()
                    .any(|e| l.contains(&format!(" by {e} ")))
            })
            .count();
        eprintln!("{who}: {games} games, {endings} with an ending read off the board");
        assert!(
            text.contains(&format!("summary: games {games},")),
            "{who}: {text}"
        );
    }
}
