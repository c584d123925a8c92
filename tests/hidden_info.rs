//! A seat is never sent what it may not see: Geister through `serve`, every
//! message the server sent read back from its debug log (the `send` lines),
//! checked for the opponent's colours and setup before the game is over.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use common::{bin, wait_with_limit, Guard};
use serde_json::Value;

/// The opponent's pieces still on the board whose colour a GAT board string
/// (from its viewer's side: the viewer's 8 pieces, then the opponent's 8,
/// `xyC` each) shows; captured ones (off the board) are revealed by the
/// rules.
fn leaked(board: &str) -> Vec<String> {
    let b = board.as_bytes();
    (8..16)
        .filter_map(|i| {
            let p = b.get(i * 3..i * 3 + 3)?;
            let (x, y, c) = (p[0], p[1], p[2]);
            let on_board = x < b'6' && y < b'6';
            (on_board && c != b'u').then(|| String::from_utf8_lossy(p).into_owned())
        })
        .collect()
}

#[test]
fn the_checker_sees_a_leak() {
    let fine = "14B24R34R44R15B25B35R45B41u31u21u11u40u30u20u10u";
    assert!(leaked(fine).is_empty());
    let leak = "14B24R34R44R15B25B35R45B41u31R21u11u40u30u20u99r";
    assert_eq!(leaked(leak), vec!["31R".to_string()]);
}

#[test]
fn a_geister_seat_never_sees_the_other_colours_or_setup_before_the_end() {
    let mut c = bin();
    c.args(["serve", "--bind", "127.0.0.1:0", "--records", ""])
        .args(["--log-format", "json"])
        .env(
            "LADDERBOT_LOG__FILTER",
            "warn,ladderbot::platforms::ws::server::conn=debug",
        )
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut server = c.spawn().expect("spawn serve");
    let out = server.stdout.take().unwrap();
    let err = server.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        BufReader::new(err)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<_>>()
    });
    let mut first = String::new();
    BufReader::new(out).read_line(&mut first).unwrap();
    let url = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_string();
    let server = Guard(Some(server));

    let client = |name: &str| {
        let mut c = bin();
        c.args(["play", "geister", "--server", &url, "--name", name])
            .args(["--agent", "random", "--games", "3", "--seed", "7"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c.spawn().expect("spawn client")
    };
    let (x, y) = (client("x"), client("y"));
    let (x, y) = (
        wait_with_limit(x, Duration::from_secs(60)),
        wait_with_limit(y, Duration::from_secs(60)),
    );
    assert!(x.status.success() && y.status.success());
    let mut server = server;
    let mut child = server.0.take().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let lines = log.join().unwrap();

    // Every message sent, in order, per connection.
    let mut sent: HashMap<u64, Vec<Value>> = HashMap::new();
    for l in &lines {
        let Ok(v) = serde_json::from_str::<Value>(l) else {
            continue;
        };
        let f = &v["fields"];
        if f["message"] != "send" {
            continue;
        }
        let msg: Value = serde_json::from_str(f["msg"].as_str().unwrap()).unwrap();
        sent.entry(f["conn"].as_u64().unwrap())
            .or_default()
            .push(msg);
    }
    assert_eq!(sent.len(), 2, "two connections");
    let (mut requests, mut setups_hidden, mut revealed_at_end) = (0, 0, 0);
    for msgs in sent.values() {
        // This connection's seat in each game, from its `game_start`.
        let mut seat: HashMap<String, u64> = HashMap::new();
        for m in msgs {
            let game = m["game_id"].as_str().unwrap_or("").to_string();
            match m["type"].as_str().unwrap() {
                "game_start" => {
                    seat.insert(game, m["seat"].as_u64().unwrap());
                }
                "move_request" if m["state"]["phase"] == "play" => {
                    requests += 1;
                    assert_eq!(seat.get(&game), m["state"]["seat"].as_u64().as_ref());
                    let board = m["state"]["board"].as_str().unwrap();
                    assert!(leaked(board).is_empty(), "colours leaked: {m}");
                }
                "move_played" if m["ply"].as_u64() < Some(2) => {
                    // The setups: a seat sees its own, never the other's.
                    let me = *seat.get(&game).expect("game_start first");
                    if m["seat"].as_u64() != Some(me) {
                        assert_eq!(m["hidden"], true, "{m}");
                        assert_eq!(m["move"], Value::Null, "{m}");
                        setups_hidden += 1;
                    } else {
                        assert!(m["move"].as_str().unwrap().starts_with("SET:"), "{m}");
                    }
                }
                "game_over" => revealed_at_end += 1,
                _ => {}
            }
        }
    }
    assert!(requests > 20, "only {requests} move requests checked");
    assert_eq!(setups_hidden, 6, "each seat's view of the other's 3 setups");
    assert_eq!(revealed_at_end, 6);
}
