//! The real binary over loopback: `ladderbot serve` with `ladderbot play`
//! clients, a client sending garbage, and a client that leaves mid-game.

mod common;

use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::Duration;

use common::*;
use ladderbot::records::{read_records, EndReason};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, Message, WebSocket};

const LIMIT: Duration = Duration::from_secs(120);

fn client(url: &str, name: &str, extra: &[&str]) -> Child {
    let mut c = bin();
    c.args(["play", "four3d", "--server", url, "--name", name])
        .args(extra);
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c.spawn().expect("spawn client")
}

type Raw = WebSocket<TcpStream>;

fn raw(url: &str) -> Raw {
    let stream = TcpStream::connect(url.trim_start_matches("ws://")).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let (ws, _) = tungstenite::client(url, stream).expect("websocket handshake");
    ws
}

fn send(ws: &mut Raw, text: &str) {
    ws.send(Message::text(text)).expect("send");
}

/// The next JSON text message (control frames are skipped).
fn recv(ws: &mut Raw) -> Value {
    loop {
        match ws.read().expect("read") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).expect("server sent JSON"),
            Message::Close(_) => panic!("server closed the connection"),
            _ => continue,
        }
    }
}

fn recv_type(ws: &mut Raw, ty: &str) -> Value {
    loop {
        let m = recv(ws);
        if m["type"] == ty {
            return m;
        }
    }
}

#[test]
fn a_server_and_two_clients_play_full_games_with_records() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records.jsonl");
    let server = ServerProc::start(&["--records", records.to_str().unwrap(), "--house-agent", ""]);
    let alice = client(
        &server.url,
        "alice",
        &["--games", "4", "--agent", "pmc", "--playouts", "300"],
    );
    let bob = client(&server.url, "bob", &["--games", "4", "--agent", "random"]);
    let (a, b) = (wait_with_limit(alice, LIMIT), wait_with_limit(bob, LIMIT));
    assert!(
        a.status.success() && b.status.success(),
        "{}\n{}",
        stderr(&a),
        stderr(&b)
    );
    let (ao, bo) = (stdout(&a), stdout(&b));
    assert_eq!(
        ao.lines().filter(|l| l.starts_with("game ")).count(),
        4,
        "{ao}"
    );
    assert!(
        ao.contains("summary: games 4,") && bo.contains("summary: games 4,"),
        "{ao}\n{bo}"
    );
    // Two clients on one terminal: each summary says whose it is.
    let last = |o: &str| {
        o.lines()
            .rfind(|l| l.starts_with("summary: "))
            .unwrap_or_default()
            .to_string()
    };
    assert!(last(&ao).ends_with(" (alice)"), "{ao}");
    assert!(last(&bo).ends_with(" (bob)"), "{bo}");

    let recs = read_records(&records).unwrap();
    assert_eq!(recs.len(), 4);
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r.game, "four3d");
        assert!(r.players.contains(&"alice".to_string()) && r.players.contains(&"bob".to_string()));
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        assert!(r.moves.len() >= 7);
        // Seats alternate: alice (first to join, or second) swaps seats every game.
        if i > 0 {
            assert_ne!(
                recs[i - 1].players[0],
                r.players[0],
                "seats did not alternate"
            );
        }
    }
    // Both sides printed the same results, mirrored.
    let wins = |out: &str, word: &str| {
        out.lines()
            .filter(|l| l.contains(&format!(": {word} ")))
            .count()
    };
    assert_eq!(wins(&ao, "win"), wins(&bo, "loss"));
    assert_eq!(wins(&ao, "loss"), wins(&bo, "win"));
}

#[test]
fn garbage_gets_errors_while_another_pair_plays_on() {
    let server = ServerProc::start(&["--records", "", "--house-agent", ""]);
    let mut junk = raw(&server.url);
    assert_eq!(recv(&mut junk)["type"], "welcome");
    // both think 100 ms a move, so the pair's games last seconds; the
    // garbage below arrives while one is being played.
    let t0 = std::time::Instant::now();
    let alice = client(&server.url, "alice", &["--games", "2", "--time-ms", "100"]);
    let bob = client(&server.url, "bob", &["--games", "2", "--time-ms", "100"]);
    std::thread::sleep(Duration::from_millis(300));
    for bad in [
        "not json",
        "{\"type\":\"nope\"}",
        "[1,2,3]",
        "{\"type\":\"move\",\"move\":3}",
        "{\"type\":\"move\",\"game_id\":\"x\",\"move\":3}",
    ] {
        send(&mut junk, bad);
        let m = recv_type(&mut junk, "error");
        assert_eq!(m["fatal"], false, "{bad}: {m}");
        assert!(m["code"].as_str().is_some_and(|c| !c.is_empty()), "{m}");
    }
    junk.send(Message::Binary(vec![0xff, 0x00])).unwrap();
    assert_eq!(recv_type(&mut junk, "error")["fatal"], false);
    // Still usable afterwards.
    send(&mut junk, "{\"type\":\"ping\",\"id\":7}");
    assert_eq!(recv_type(&mut junk, "pong")["id"], 7);
    let garbage_done = t0.elapsed();
    let (a, b) = (wait_with_limit(alice, LIMIT), wait_with_limit(bob, LIMIT));
    assert!(
        a.status.success() && b.status.success(),
        "{}\n{}",
        stderr(&a),
        stderr(&b)
    );
    assert!(stdout(&a).contains("summary: games 2,"), "{}", stdout(&a));
    // The games were still going when the garbage had been answered.
    assert!(
        t0.elapsed() > garbage_done + Duration::from_millis(200),
        "the pair finished before the garbage was sent"
    );
}

#[test]
fn a_client_that_leaves_mid_game_loses_and_the_game_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records.jsonl");
    let server = ServerProc::start(&["--records", records.to_str().unwrap(), "--house-agent", ""]);
    let mut quitter = raw(&server.url);
    assert_eq!(recv(&mut quitter)["type"], "welcome");
    send(
        &mut quitter,
        &json!({"type": "hello", "protocol": 1, "name": "quitter", "game": "four3d", "games": 1})
            .to_string(),
    );
    let alice = client(&server.url, "alice", &["--games", "1", "--playouts", "200"]);
    let start = recv_type(&mut quitter, "game_start");
    let request = recv_type(&mut quitter, "move_request");
    assert_eq!(request["game_id"], start["game_id"]);
    // Leave without answering, mid-game.
    drop(quitter);
    let a = wait_with_limit(alice, LIMIT);
    assert!(a.status.success(), "{}", stderr(&a));
    let out = stdout(&a);
    assert!(
        out.contains(": win ") && out.contains("by disconnect"),
        "{out}"
    );
    let recs = read_records(&records).unwrap();
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(r.reason, EndReason::Disconnect);
    let quitter_seat = r.players.iter().position(|p| p == "quitter").unwrap();
    assert_eq!(r.winner, Some(1 - quitter_seat));
}

/// A listener that answers every connection with a non-WebSocket, non-TLS reply.
fn junk_listener() -> std::net::SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut s in l.incoming().flatten() {
            use std::io::{Read, Write};
            let mut buf = [0u8; 1024];
            let _ = s.read(&mut buf);
            let _ = s.write_all(b"HTTP/1.1 400 nope\r\n\r\n");
        }
    });
    addr
}

#[test]
fn unreachable_or_broken_servers_give_a_clear_error_not_a_panic() {
    let addr = junk_listener();
    // A free port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    for url in [
        format!("wss://{addr}"),
        format!("ws://{addr}"),
        format!("ws://{closed}"),
    ] {
        let o = run(
            &["play", "four3d", "--server", &url],
            &[
                ("LADDERBOT_CLIENT__MAX_RECONNECTS", "2"),
                ("LADDERBOT_CLIENT__BACKOFF_INITIAL_MS", "10"),
            ],
            None,
            LIMIT,
        );
        let err = stderr(&o);
        // Worth retrying later: EX_TEMPFAIL.
        assert_eq!(o.status.code(), Some(75), "{url}: {err}");
        assert!(!err.contains("panicked"), "{url}: {err}");
        assert!(
            err.lines()
                .last()
                .unwrap_or("")
                .starts_with("error: cannot connect"),
            "{url}: {err}"
        );
    }
}

/// A client of `game` on `url` playing `games` games with `agent`.
fn game_client(game: &str, url: &str, name: &str, agent: &str, games: &str) -> Child {
    let mut c = bin();
    c.args(["play", game, "--server", url, "--name", name])
        .args(["--agent", agent, "--games", games, "--playouts", "50"]);
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c.spawn().expect("spawn client")
}

/// Geister (hidden colours, a secret setup turn) and Goofspiel
/// (simultaneous bids) through the real binary: `serve` and two `play`
/// clients each, records that replay.
#[test]
fn geister_and_goofspiel_play_through_serve_with_records() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records.jsonl");
    let server = ServerProc::start(&["--records", records.to_str().unwrap(), "--house-agent", ""]);
    for (game, a, b) in [
        ("geister", "rule", "random"),
        ("goofspiel", "match", "random"),
    ] {
        let x = game_client(game, &server.url, "x", a, "2");
        let y = game_client(game, &server.url, "y", b, "2");
        let (x, y) = (wait_with_limit(x, LIMIT), wait_with_limit(y, LIMIT));
        assert!(
            x.status.success() && y.status.success(),
            "{game}\n{}\n{}",
            stderr(&x),
            stderr(&y)
        );
        assert!(stdout(&x).contains("summary: games 2"), "{}", stdout(&x));
    }
    let recs = read_records(&records).unwrap();
    assert_eq!(recs.len(), 4);
    for r in &recs {
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        match r.game.as_str() {
            "geister" => {
                let g: ladderbot::games::geister::GeisterGame =
                    ladderbot::games::replay(&r.start, &r.moves).unwrap();
                assert_eq!(
                    ladderbot::games::PlayableGame::ending(&g),
                    r.ending.as_deref()
                );
            }
            "goofspiel" => {
                let g: ladderbot::games::goofspiel::Goofspiel =
                    ladderbot::games::replay(&r.start, &r.moves).unwrap();
                assert_eq!(g.round(), 13);
            }
            other => panic!("unexpected game {other}"),
        }
    }
}
