//! Spectators on `ladderbot serve` (HTTP on the WebSocket port), through
//! the real binary: many spectators watch while two `play` clients play
//! at a short time limit, and nobody loses on time; a spectator of a
//! Geister game never sees a colour either seat may not see before the
//! game is over; spectators can only look.

mod common;

use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use ladderbot::records::{read_records, EndReason};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

/// `serve` with room for many connections from this one address.
fn server(extra: &[&str]) -> ServerProc {
    let mut args = vec!["--house-agent", ""];
    args.extend_from_slice(extra);
    ServerProc::start_with_env(
        &args,
        &[
            ("LADDERBOT_SERVER__MAX_CONNECTIONS", "400"),
            ("LADDERBOT_SERVER__MAX_CONNECTIONS_PER_IP", "300"),
        ],
    )
}

fn addr(url: &str) -> String {
    url.trim_start_matches("ws://").to_string()
}

fn get_json(addr: &str, path: &str) -> Value {
    let (status, body) = http(addr, "GET", path);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
}

fn client(url: &str, game: &str, name: &str, extra: &[&str]) -> Child {
    let mut c = bin();
    c.args(["play", game, "--server", url, "--name", name])
        .args(extra);
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c.spawn().expect("spawn client")
}

/// What one spectator saw of one game from its start to its end.
struct Watched {
    id: String,
    positions_while_running: Vec<Value>,
    turns_while_running: Vec<Value>,
    last: Value,
}

/// Follows game `id` with long polls until it is over, checking that every
/// answer continues the previous one.
fn follow(addr: &str, id: &str) -> Watched {
    let mut states: Vec<Value> = Vec::new();
    let mut turns: Vec<Value> = Vec::new();
    let until = Instant::now() + LIMIT;
    loop {
        assert!(Instant::now() < until, "game {id} did not end");
        let a = get_json(addr, &format!("/api/game/{id}?have={}", states.len()));
        if a["over"] == true {
            return Watched {
                id: id.to_string(),
                positions_while_running: states,
                turns_while_running: turns,
                last: a,
            };
        }
        assert_eq!(a["from"].as_u64(), Some(states.len() as u64), "{a}");
        let new = a["states"].as_array().unwrap();
        states.extend(new.iter().cloned());
        let tf = a["turns_from"].as_u64().unwrap() as usize;
        turns.truncate(tf);
        turns.extend(a["turns"].as_array().unwrap().iter().cloned());
        assert_eq!(turns.len() + 1, states.len(), "{a}");
    }
}

/// The id of a game in progress, waiting for one to start.
fn a_running_game(addr: &str, game: &str) -> String {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let list = get_json(addr, "/api/games");
        if let Some(g) = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["over"] == false && g["game"] == game)
        {
            return g["id"].as_str().unwrap().to_string();
        }
        assert!(Instant::now() < until, "no {game} game started: {list}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn many_spectators_watch_two_bots_at_a_short_time_limit_and_nobody_loses_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records.jsonl");
    let server = server(&[
        "--records",
        records.to_str().unwrap(),
        "--time-per-move-ms",
        "100",
    ]);
    let addr = addr(&server.url);
    let games = 4;
    let n = games.to_string();
    // Each bot searches 50 ms of its 100 ms a move.
    let bots = [
        client(
            &server.url,
            "four3d",
            "alice",
            &["--games", &n, "--agent", "uct", "--time-ms", "50"],
        ),
        client(
            &server.url,
            "four3d",
            "bob",
            &["--games", &n, "--agent", "uct", "--time-ms", "50"],
        ),
    ];
    let first = a_running_game(&addr, "four3d");
    let done = Arc::new(AtomicBool::new(false));
    let requests = Arc::new(AtomicUsize::new(0));
    // 40 followers (long polls, each a game from its start to its end) and
    // 20 that keep asking for the list and the pages.
    let followers: Vec<_> = (0..40)
        .map(|_| {
            let (addr, first) = (addr.clone(), first.clone());
            std::thread::spawn(move || {
                let mut seen = vec![follow(&addr, &first)];
                // Then the next game of the match, if it started.
                let list = get_json(&addr, "/api/games");
                if let Some(g) = list["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|g| g["over"] == false)
                {
                    seen.push(follow(&addr, g["id"].as_str().unwrap()));
                }
                seen
            })
        })
        .collect();
    let pollers: Vec<_> = (0..20)
        .map(|k| {
            let (addr, done, requests, first) =
                (addr.clone(), done.clone(), requests.clone(), first.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    let path = match k % 3 {
                        0 => "/".to_string(),
                        1 => "/api/games".to_string(),
                        _ => format!("/game/{first}"),
                    };
                    let (status, body) = http(&addr, "GET", &path);
                    assert_eq!(status, 200, "{path}: {body}");
                    requests.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(10));
                }
            })
        })
        .collect();
    let outs: Vec<_> = bots
        .into_iter()
        .map(|b| wait_with_limit(b, LIMIT))
        .collect();
    done.store(true, Ordering::Relaxed);
    for o in &outs {
        assert!(o.status.success(), "{}", stderr(o));
    }
    for p in pollers {
        p.join().expect("a page poller failed");
    }
    let watched: Vec<Vec<Watched>> = followers
        .into_iter()
        .map(|f| f.join().expect("a follower failed"))
        .collect();
    let recs = read_records(&records).unwrap();
    assert_eq!(recs.len(), games, "{recs:?}");
    for r in &recs {
        assert_eq!(
            r.reason,
            EndReason::Rules,
            "a game ended by {:?}: {:?}",
            r.reason,
            r.detail
        );
        assert!(r.move_ms.iter().all(|&ms| ms <= 100), "{:?}", r.move_ms);
    }
    // Every follower saw the first game to its end, as recorded.
    let rec = recs.iter().find(|r| r.id == first).unwrap();
    for seen in &watched {
        let w = &seen[0];
        assert_eq!(w.id, first);
        let states = w.last["states"].as_array().unwrap();
        assert_eq!(states.len(), rec.moves.len() + 1);
        assert_eq!(states[0], rec.start);
        let moves: Vec<Value> = w.last["turns"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["moves"].as_array().unwrap().clone())
            .collect();
        assert_eq!(moves, rec.moves);
        assert_eq!(w.last["end"]["result"], rec.result);
        // What it saw while the game ran is the game as it went (nothing
        // hidden in Score Four).
        let k = w.positions_while_running.len();
        assert!(k >= 1 && k <= states.len());
        assert_eq!(w.positions_while_running[..], states[..k]);
        assert_eq!(w.turns_while_running.len() + 1, k);
    }
    let asked = requests.load(Ordering::Relaxed);
    assert!(asked >= 100, "the pollers asked only {asked} times");
    eprintln!(
        "{} followers, {asked} page and list requests; moves by time: {:?}",
        watched.len(),
        recs.iter()
            .map(|r| r.move_ms.iter().max().copied().unwrap_or(0))
            .collect::<Vec<_>>()
    );
}

/// The colours of the pieces out of the board (letters of red pieces).
fn places(state: &Value, seat: usize) -> Vec<String> {
    let p = state["places"].as_str().unwrap();
    (0..8)
        .map(|i| p[(seat * 8 + i) * 2..(seat * 8 + i) * 2 + 2].to_string())
        .collect()
}

#[test]
fn a_geister_spectator_sees_no_colour_before_the_end_then_every_colour() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records.jsonl");
    let server = server(&[
        "--records",
        records.to_str().unwrap(),
        "--time-per-move-ms",
        "2000",
    ]);
    let addr = addr(&server.url);
    // A slow searcher so the game lasts while we watch: at 20 ms a move a
    // short game on a loaded machine was over before the first look (CI,
    // 2026-12-05), so 100 ms: even a game of ten plies lasts half a second.
    let bots = [
        client(
            &server.url,
            "geister",
            "alice",
            &["--games", "1", "--agent", "rule"],
        ),
        client(
            &server.url,
            "geister",
            "bob",
            &["--games", "1", "--agent", "dmc-v1", "--time-ms", "100"],
        ),
    ];
    let id = a_running_game(&addr, "geister");
    let w = follow(&addr, &id);
    for b in bots {
        let o = wait_with_limit(b, LIMIT);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let rec = read_records(&records).unwrap().remove(0);
    assert!(
        w.positions_while_running.len() > 3,
        "the game went by too fast to watch: {} positions",
        w.positions_while_running.len()
    );
    let truth = w.last["states"].as_array().unwrap();
    for (k, s) in w.positions_while_running.iter().enumerate() {
        if s["phase"] == "setup" {
            continue;
        }
        for seat in 0..2 {
            let on_board: String = places(s, seat)
                .iter()
                .enumerate()
                .filter(|(_, p)| *p != "88" && *p != "99")
                .map(|(i, _)| char::from(b'A' + i as u8))
                .collect();
            assert_eq!(s["unknown"][seat], on_board.as_str(), "position {k}: {s}");
            let reds = s["setups"][seat].as_str().unwrap();
            for c in reds.chars() {
                assert!(
                    !on_board.contains(c),
                    "position {k} shows a red on the board: {s}"
                );
            }
            // The red pieces shown are the true ones out of the board.
            let true_reds = truth[k]["setups"][seat].as_str().unwrap();
            let out_reds: String = true_reds
                .chars()
                .filter(|c| !on_board.contains(*c))
                .collect();
            assert_eq!(reds, out_reds, "position {k}");
        }
    }
    // The setups are moves nobody else may see while the game runs.
    assert!(w.turns_while_running[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(Value::is_null));
    // Once over: the true states and every move, as recorded.
    assert_eq!(truth.len(), w.last["turns"].as_array().unwrap().len() + 1);
    assert_eq!(truth.last().unwrap()["setups"].as_array().unwrap().len(), 2);
    assert!(truth[1].get("unknown").is_none());
    let moves: Vec<Value> = w.last["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["moves"].as_array().unwrap().clone())
        .collect();
    assert_eq!(moves, rec.moves);
}

#[test]
fn spectators_can_only_look() {
    let server = server(&[]);
    let addr = addr(&server.url);
    let (status, body) = http(&addr, "GET", "/");
    assert_eq!(status, 200);
    assert!(body.contains("/api/games"), "{body}");
    assert_eq!(get_json(&addr, "/api/games")["games"], Value::Array(vec![]));
    for method in ["POST", "PUT", "DELETE"] {
        assert_eq!(http(&addr, method, "/api/games").0, 405, "{method}");
    }
    assert_eq!(http(&addr, "GET", "/api/game/nope").0, 404);
    assert_eq!(http(&addr, "GET", "/game/nope").0, 404);
    assert_eq!(http(&addr, "GET", "/etc/passwd").0, 404);
    let (status, body) = http(&addr, "HEAD", "/");
    assert_eq!((status, body.as_str()), (200, ""));
    // A WebSocket client on the same port is still a player.
    let stream = TcpStream::connect(&addr).unwrap();
    let (mut ws, _) = tokio_tungstenite::tungstenite::client(server.url.as_str(), stream)
        .expect("websocket handshake");
    let welcome = ws.read().unwrap();
    assert!(welcome.to_text().unwrap().contains("\"welcome\""));
}
