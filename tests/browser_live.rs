//! The live spectator pages of `ladderbot serve` in a real headless
//! Chromium (tests/common/browser.rs): the list page links a game in
//! progress; its live page follows a Score Four game move by move, driven
//! by this test as one of the players, to its end; every other game is
//! drawn live, Geister with its colours hidden until the end. The pages use
//! no network but the server's own address and log no error. Screenshots go
//! to target/browser-artifacts/; with LADDERBOT_DOCS_SCREENSHOTS=1,
//! docs/live.png is written too.
//!
//! Without Chromium the tests are skipped (a line on stderr), except under
//! `CI`, where they fail.

mod common;

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::browser::{png_size, Browser, Page};
use common::*;
use ladderbot::records::read_records;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, Message, WebSocket};

const LIMIT: Duration = Duration::from_secs(120);
const WAIT: Duration = Duration::from_secs(20);

fn server(extra: &[&str]) -> ServerProc {
    ServerProc::start(extra)
}

fn http_base(ws_url: &str) -> String {
    format!("http://{}", ws_url.trim_start_matches("ws://"))
}

fn artifacts() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-artifacts");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn check_png(path: &Path) {
    let (w, h) = png_size(path).unwrap_or_else(|e| panic!("{e}"));
    assert!(w >= 300 && h >= 200 && w <= 5000 && h <= 5000, "{w}x{h}");
}

type Raw = WebSocket<TcpStream>;

fn recv(ws: &mut Raw) -> Value {
    loop {
        match ws.read().expect("read") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
            Message::Close(_) => panic!("server closed the connection"),
            _ => continue,
        }
    }
}

/// The live page's numbers: its status, the viewer's position and last
/// position, and its board's markup.
fn live(page: &Page) -> Value {
    page.eval(
        "(() => { const s = document.getElementById('status'); const v = LB.viewer;
           const b = document.querySelector('#game-1 .board');
           return { state: s ? s.dataset.state : null, status: s ? s.textContent : '',
             i: v ? v.i : -1, last: v ? v.last : -1,
             pos: v ? document.querySelector('#game-1 .pos').textContent : '',
             board: b ? b.innerHTML : '', svg: !!(b && b.querySelector('svg')),
             error: !!(b && b.querySelector('p.error, pre.state')),
             info: v ? document.querySelector('#game-1 .info').textContent : '' }; })()",
    )
}

fn check_clean(page: &Page, base: &str) {
    let other: Vec<String> = page
        .requests()
        .into_iter()
        .filter(|r| !r.starts_with(base) && !r.starts_with("data:"))
        .collect();
    assert!(other.is_empty(), "the page requested {other:?}");
    let errors = page.console_errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
}

#[test]
fn the_live_page_follows_a_game_move_by_move_to_its_end() {
    let Some(browser) = Browser::launch() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("r.jsonl");
    let server = server(&[
        "--records",
        records.to_str().unwrap(),
        "--house-agent",
        "random",
        "--time-per-move-ms",
        "30000",
    ]);
    let base = http_base(&server.url);
    // This test is one of the players: the game goes at its pace.
    let stream = TcpStream::connect(server.url.trim_start_matches("ws://")).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let (mut ws, _) = tungstenite::client(server.url.as_str(), stream).unwrap();
    assert_eq!(recv(&mut ws)["type"], "welcome");
    let hello = json!({"type": "hello", "protocol": 1, "name": "tester", "game": "four3d",
        "games": 1, "opponent": "house"});
    ws.send(Message::text(hello.to_string())).unwrap();
    let start = loop {
        let m = recv(&mut ws);
        if m["type"] == "game_start" {
            break m;
        }
    };
    let id = start["game_id"].as_str().unwrap().to_string();
    // The list page links the game in progress; a real click opens it.
    let page = browser.new_page();
    page.goto(&format!("{base}/"));
    let row = format!("#running tr[data-id=\"{id}\"] a");
    page.wait_for(&format!("document.querySelector('{row}')"), WAIT);
    page.click(&row);
    page.wait_for(
        "location.pathname.startsWith('/game/') && document.getElementById('status') && document.getElementById('status').dataset.state === 'live'",
        WAIT,
    );
    assert_eq!(page.eval_str("location.pathname"), format!("/game/{id}"));
    let mut boards = vec![live(&page)["board"].as_str().unwrap().to_string()];
    let mut moves = 0;
    let over = loop {
        let m = recv(&mut ws);
        match m["type"].as_str().unwrap() {
            "move_request" => {
                // The page shows every turn before this request, and sits
                // on the last one (it follows).
                let ply = m["ply"].as_u64().unwrap();
                page.wait_for(&format!("LB.viewer && LB.viewer.last === {ply}"), WAIT);
                let l = live(&page);
                assert_eq!(l["i"], l["last"], "the page does not follow: {l}");
                assert_eq!(l["state"], "live", "{l}");
                assert_eq!(l["pos"], format!("turn {ply} / {ply}"));
                assert!(l["svg"] == true && l["error"] == false, "{l}");
                let b = l["board"].as_str().unwrap().to_string();
                if ply > 0 {
                    assert_ne!(
                        &b,
                        boards.last().unwrap(),
                        "the board did not change at ply {ply}"
                    );
                }
                boards.push(b);
                let legal = m["state"]["legal"].as_array().unwrap();
                let mv = legal[(ply as usize * 7) % legal.len()].clone();
                let msg = json!({"type": "move", "game_id": id, "move": mv});
                ws.send(Message::text(msg.to_string())).unwrap();
                moves += 1;
            }
            "game_over" => break m,
            _ => {}
        }
    };
    let total = over["moves"].as_u64().unwrap();
    page.wait_for(
        "document.getElementById('status').dataset.state === 'over'",
        WAIT,
    );
    let l = live(&page);
    assert_eq!(l["pos"], format!("turn {total} / {total}"), "{l}");
    let result = over["result"].as_str().unwrap();
    assert!(l["info"].as_str().unwrap().contains(result), "{l}");
    assert!(l["status"].as_str().unwrap().contains("game over"), "{l}");
    // Stepping back and forth on the finished game.
    for (key, at) in [("Home", 0), ("ArrowRight", 1), ("End", total)] {
        page.key(key);
        page.wait_for(
            &format!(
                "document.querySelector('#game-1 .pos').textContent === 'turn {at} / {total}'"
            ),
            WAIT,
        );
    }
    let png = artifacts().join("live-follow-four3d.png");
    page.screenshot(&png);
    check_png(&png);
    check_clean(&page, &base);
    assert!(moves >= 4, "only {moves} moves played");
    let recs = read_records(&records).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].moves.len() as u64, total);
}

fn player(url: &str, game: &str, args: &[&str]) -> Child {
    let mut c = bin();
    c.args([
        "play",
        game,
        "--server",
        url,
        "--games",
        "1",
        "--opponent",
        "house",
    ])
    .args(args)
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    c.spawn().expect("spawn play")
}

/// The id of the newest game of kind `game`.
fn game_id(base_addr: &str, game: &str) -> String {
    let until = Instant::now() + WAIT;
    loop {
        let (_, body) = http(base_addr, "GET", "/api/games");
        let list: Value = serde_json::from_str(&body).unwrap();
        if let Some(g) = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["game"] == game)
        {
            return g["id"].as_str().unwrap().to_string();
        }
        assert!(Instant::now() < until, "no {game} game: {list}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn every_game_is_drawn_live_and_geister_hides_its_colours_until_the_end() {
    let Some(browser) = Browser::launch() else {
        return;
    };
    // Geister first, on a server of its own whose house thinks 200 ms a
    // move (as the player does), so that it still runs when the page opens.
    let gserver = server(&[
        "--time-per-move-ms",
        "5000",
        "--house-agent",
        "dmc-v1",
        "--house-time-ms",
        "200",
    ]);
    let base = http_base(&gserver.url);
    let addr = gserver.url.trim_start_matches("ws://").to_string();
    let geister = player(
        &gserver.url,
        "geister",
        &["--agent", "dmc-v1", "--time-ms", "200"],
    );
    let id = game_id(&addr, "geister");
    let page = browser.new_page();
    page.goto(&format!("{base}/game/{id}"));
    // While it runs: pieces on the board drawn grey with a "?", and no
    // colour of a piece on the board anywhere in the page's data.
    let snapshot = "(() => { const g = LB.viewer && LB.viewer.g; if (!g) return null;
           const s = g.states[g.states.length - 1];
           const texts = Array.from(document.querySelectorAll('#game-1 .board svg text')).map(t => t.textContent);
           const cap = document.querySelector('#game-1 .board .lb-caption');
           return { state: document.getElementById('status').dataset.state, phase: s.phase,
             unknown: s.unknown, setups: s.setups, places: s.places,
             marked: texts.filter(t => /^[A-Ha-h]\\?$/.test(t)).length,
             caption: cap ? cap.textContent : '', hiddenSetups: g.turns.length ? g.turns[0].moves : null }; })()";
    page.wait_for(
        &format!("(s => s && s.state === 'live' && s.phase === 'play')({snapshot})"),
        WAIT,
    );
    let during = page.eval(snapshot);
    assert_eq!(
        during["state"], "live",
        "the game ended while we looked: {during}"
    );
    assert!(during["marked"].as_u64().unwrap() >= 8, "{during}");
    assert!(
        during["caption"].as_str().unwrap().contains("grey"),
        "{during}"
    );
    assert_eq!(during["hiddenSetups"], json!([null, null]), "{during}");
    if std::env::var("LADDERBOT_DOCS_SCREENSHOTS").as_deref() == Ok("1") {
        page.set_viewport(1200, 900);
        let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/live.png");
        page.screenshot(&png);
        check_png(&png);
        eprintln!("wrote {}", png.display());
    }
    let png = artifacts().join("live-geister.png");
    page.screenshot(&png);
    check_png(&png);
    page.wait_for(
        "document.getElementById('status').dataset.state === 'over'",
        LIMIT,
    );
    let after = page.eval(
        "(() => { const g = LB.viewer.g; const s = g.states[g.states.length - 1];
           const texts = Array.from(document.querySelectorAll('#game-1 .board svg text')).map(t => t.textContent);
           return { unknown: s.unknown || null, setups: s.setups,
             marked: texts.filter(t => /^[A-Ha-h]\\?$/.test(t)).length, setupMoves: g.turns[0].moves }; })()",
    );
    assert!(after["unknown"].is_null(), "{after}");
    assert_eq!(after["marked"], 0, "{after}");
    assert_eq!(after["setups"][0].as_str().unwrap().len(), 4, "{after}");
    assert!(after["setupMoves"][0].is_string(), "{after}");
    check_clean(&page, &base);
    let o = wait_with_limit(geister, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let server = server(&["--time-per-move-ms", "5000"]);
    let base = http_base(&server.url);
    let addr = server.url.trim_start_matches("ws://").to_string();
    // The other games, each drawn live by its own view.
    for (game, args) in [
        ("golad", &["--agent", "best", "--time-ms", "20"][..]),
        ("floodit", &["--agent", "mc", "--time-ms", "20"][..]),
        ("puyo", &["--agent", "combined", "--time-ms", "20"][..]),
        ("goofspiel", &["--agent", "match", "--time-ms", "20"][..]),
        ("four3d", &["--agent", "uct", "--time-ms", "20"][..]),
    ] {
        let p = player(&server.url, game, args);
        let id = game_id(&addr, game);
        let page = browser.new_page();
        page.goto(&format!("{base}/game/{id}"));
        page.wait_for(
            "LB.viewer && document.querySelector('#game-1 .board svg')",
            WAIT,
        );
        let l = live(&page);
        assert!(l["svg"] == true && l["error"] == false, "{game}: {l}");
        page.wait_for(
            "document.getElementById('status').dataset.state === 'over'",
            LIMIT,
        );
        let l = live(&page);
        assert!(l["svg"] == true && l["error"] == false, "{game}: {l}");
        assert_eq!(l["i"], l["last"], "{game}: {l}");
        let png = artifacts().join(format!("live-{game}.png"));
        page.screenshot(&png);
        check_png(&png);
        check_clean(&page, &base);
        let o = wait_with_limit(p, LIMIT);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
    }
}
