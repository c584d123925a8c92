//! The GAT Geister transport over real loopback TCP: `serve-gat` with
//! `play geister` clients and raw hand-written clients.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{serve_gat, Guard};
use ladderbot::games::geister::GeisterGame;
use ladderbot::games::replay;
use ladderbot::model::Model;
use ladderbot::records::{read_records, EndReason};

const BIN: &str = env!("CARGO_BIN_EXE_ladderbot");
const LIMIT: Duration = Duration::from_secs(60);

fn client(port: u16, games: u32, seed: u64) -> Guard {
    let child = Command::new(BIN)
        .args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .args(["--agent", "random", "--time-ms", "50"])
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play geister");
    Guard(Some(child))
}

/// (games, wins, draws, losses) from a client's summary line.
fn summary(out: &Output) -> (u32, u32, u32, u32) {
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("summary: "))
        .unwrap_or_else(|| panic!("no summary in {text:?}"));
    let n: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2], n[3])
}

/// A hand-written client.
struct Raw {
    rd: BufReader<TcpStream>,
    wr: TcpStream,
}

impl Raw {
    fn connect(port: u16) -> Raw {
        let start = Instant::now();
        let s = loop {
            match TcpStream::connect(("127.0.0.1", port)) {
                Ok(s) => break s,
                Err(e) if start.elapsed() > Duration::from_secs(10) => panic!("connect: {e}"),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        };
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        Raw {
            rd: BufReader::new(s.try_clone().unwrap()),
            wr: s,
        }
    }
    fn line(&mut self) -> String {
        let mut l = String::new();
        self.rd.read_line(&mut l).expect("read from server");
        assert!(l.ends_with("\r\n"), "line without CRLF: {l:?}");
        l.trim_end_matches("\r\n").to_string()
    }
    fn send(&mut self, l: &str) {
        self.wr.write_all(format!("{l}\r\n").as_bytes()).unwrap();
    }
}

#[test]
fn three_games_in_a_row_with_reconnection() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(3, &out, 60, 5);
    let c0 = client(ports[0], 3, 1);
    let c1 = client(ports[1], 3, 2);
    let o0 = c0.wait(LIMIT);
    let o1 = c1.wait(LIMIT);
    assert!(
        o0.status.success(),
        "{}",
        String::from_utf8_lossy(&o0.stderr)
    );
    assert!(
        o1.status.success(),
        "{}",
        String::from_utf8_lossy(&o1.stderr)
    );
    let so = srv.wait(LIMIT);
    assert!(so.status.success());
    let (g0, w0, d0, l0) = summary(&o0);
    let (g1, w1, d1, l1) = summary(&o1);
    assert_eq!((g0, g1), (3, 3));
    assert_eq!((w0, d0, l0), (l1, d1, w1), "summaries must mirror");
    let games0 = String::from_utf8_lossy(&o0.stdout);
    assert_eq!(games0.lines().filter(|l| l.starts_with("game ")).count(), 3);
    assert!(games0.lines().all(|l| !l.contains("error")), "{games0}");
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), 3);
    for r in &recs {
        assert_eq!(r.game, "geister");
        assert_eq!(r.players, [ports[0].to_string(), ports[1].to_string()]);
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        assert_eq!(r.moves.len(), r.move_ms.len());
        let ending = r.ending.as_deref().unwrap_or_default();
        assert!(
            ["escape", "blues_captured", "reds_captured", "draw"].contains(&ending),
            "{r:?}"
        );
        assert_eq!(ending == "draw", r.winner.is_none(), "{r:?}");
        // The setups are the first two moves, and the record replays.
        for m in &r.moves[..2] {
            assert!(m.as_str().is_some_and(|s| s.starts_with("SET:")), "{r:?}");
        }
        let end = replay::<GeisterGame>(&r.start, &r.moves).expect("the record replays");
        assert_eq!(
            end.turn().outcome().map(|o| o.winner()),
            Some(r.winner),
            "{r:?}"
        );
    }
    let seat0_wins = recs.iter().filter(|r| r.winner == Some(0)).count() as u32;
    let draws = recs.iter().filter(|r| r.winner.is_none()).count() as u32;
    assert_eq!((seat0_wins, draws), (w0, d0));
}

#[test]
fn bad_set_is_refused_then_retried_and_a_disconnect_loses() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(1, &out, 60, 5);
    let other = client(ports[1], 1, 3);
    let mut raw = Raw::connect(ports[0]);
    assert_eq!(raw.line(), "SET?");
    raw.send("SET:ABC");
    assert_eq!(raw.line(), "NG ");
    raw.send("SET:AABC");
    assert_eq!(raw.line(), "NG ");
    raw.send("SET:ABCD");
    assert_eq!(raw.line(), "OK ");
    let board = raw.line();
    assert_eq!(
        board,
        "MOV?14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u"
    );
    raw.send("MOV:A,N");
    assert_eq!(raw.line(), "OK ");
    let next = raw.line();
    assert!(next.starts_with("MOV?13R"), "{next}");
    drop(raw);
    let o = other.wait(LIMIT);
    assert!(o.status.success());
    assert_eq!(summary(&o), (1, 1, 0, 0));
    assert!(srv.wait(LIMIT).status.success());
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].winner, Some(1));
    assert_eq!(recs[0].reason, EndReason::Disconnect);
    assert_eq!(recs[0].ending.as_deref(), Some("disconnect"));
    assert_eq!(recs[0].moves[0], "SET:ABCD");
    assert_eq!(recs[0].moves.len(), 4);
}

#[test]
fn an_illegal_move_gets_ng_and_loses() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(1, &out, 60, 5);
    let other = client(ports[1], 1, 4);
    let mut raw = Raw::connect(ports[0]);
    assert_eq!(raw.line(), "SET?");
    raw.send("SET:EFGH");
    assert_eq!(raw.line(), "OK ");
    assert!(raw.line().starts_with("MOV?"));
    // A (1,4) south is E's square (1,5): onto an own piece.
    raw.send("MOV:A,S");
    assert_eq!(raw.line(), "NG ");
    let end = raw.line();
    assert!(end.starts_with("LST:"), "{end}");
    let o = other.wait(LIMIT);
    assert!(o.status.success());
    assert_eq!(summary(&o), (1, 1, 0, 0));
    assert!(srv.wait(LIMIT).status.success());
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].winner, Some(1));
    assert_eq!(recs[0].reason, EndReason::IllegalMove);
    assert_eq!(recs[0].ending.as_deref(), Some("illegal_move"));
    let detail = recs[0].detail.clone().unwrap_or_default();
    assert!(detail.contains("MOV:A,S"), "{detail}");
}

#[test]
fn garbage_instead_of_a_move_loses_and_the_client_survives_garbage() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(1, &out, 60, 5);
    let other = client(ports[1], 1, 5);
    let mut raw = Raw::connect(ports[0]);
    assert_eq!(raw.line(), "SET?");
    raw.send("SET:ABCD");
    assert_eq!(raw.line(), "OK ");
    assert!(raw.line().starts_with("MOV?"));
    raw.send("\u{1}\u{2}garbage");
    assert_eq!(raw.line(), "NG ");
    assert!(raw.line().starts_with("LST:"));
    assert_eq!(summary(&other.wait(LIMIT)), (1, 1, 0, 0));
    assert!(srv.wait(LIMIT).status.success());
    assert_eq!(
        read_records(&out).unwrap()[0].reason,
        EndReason::IllegalMove
    );
}

#[test]
fn a_client_survives_a_malformed_server() {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let c = client(port, 1, 6);
    let (mut s, _) = l.accept().unwrap();
    s.write_all(b"SET?\r\nnonsense\r\n").unwrap();
    let o = c.wait(LIMIT);
    assert!(o.status.success());
    assert_eq!(summary(&o), (1, 0, 0, 1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("error"), "{err}");
}

#[test]
fn an_unreachable_server_is_a_clear_error() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let child = Command::new(BIN)
        .args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .env("LADDERBOT_CLIENT__RECONNECT_WINDOW_MS", "1000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = Guard(Some(child)).wait(LIMIT);
    // Worth retrying later (EX_TEMPFAIL), as for a match server.
    assert_eq!(o.status.code(), Some(75));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot connect"), "{err}");
}

#[test]
fn a_silent_mover_loses_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(1, &out, 0, 1);
    let other = client(ports[1], 1, 7);
    let mut raw = Raw::connect(ports[0]);
    assert_eq!(raw.line(), "SET?");
    raw.send("SET:ABCD");
    assert_eq!(raw.line(), "OK ");
    assert!(raw.line().starts_with("MOV?"));
    let t0 = Instant::now();
    assert!(raw.line().starts_with("LST:"));
    assert!(t0.elapsed() >= Duration::from_millis(900));
    assert_eq!(summary(&other.wait(LIMIT)), (1, 1, 0, 0));
    assert!(srv.wait(LIMIT).status.success());
    assert_eq!(read_records(&out).unwrap()[0].reason, EndReason::Timeout);
}

/// The local address (hex, as /proc/net/tcp writes it) of the socket
/// listening on `port`.
fn listening_address(port: u16) -> Option<String> {
    let table = std::fs::read_to_string("/proc/net/tcp").ok()?;
    table.lines().skip(1).find_map(|l| {
        let cols: Vec<&str> = l.split_whitespace().collect();
        let (addr, p) = cols.get(1)?.split_once(':')?;
        (cols.get(3) == Some(&"0A") && u16::from_str_radix(p, 16).ok()? == port)
            .then(|| addr.to_string())
    })
}

#[test]
fn serve_gat_listens_on_loopback_unless_told_otherwise() {
    let mut child = Command::new(BIN)
        .args(["serve-gat", "--ports", "0,0", "--games", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let guard = Guard(Some(child));
    let ports: Vec<u16> = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .split(',')
        .map(|p| p.parse().unwrap())
        .collect();
    for p in ports {
        // 127.0.0.1, little-endian hex.
        assert_eq!(
            listening_address(p).as_deref(),
            Some("0100007F"),
            "port {p}"
        );
    }
    drop(guard);
}

#[test]
fn a_move_sent_before_its_mov_request_loses_as_the_protocol_says() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(1, &out, 60, 5);
    let mut first = Raw::connect(ports[0]);
    let mut second = Raw::connect(ports[1]);
    for c in [&mut first, &mut second] {
        assert_eq!(c.line(), "SET?");
        c.send("SET:ABCD");
        assert_eq!(c.line(), "OK ");
    }
    assert!(first.line().starts_with("MOV?"));
    // The second seat moves while it is the first seat's turn.
    second.send("MOV:A,N");
    assert_eq!(second.line(), "NG ");
    assert!(second.line().starts_with("LST:"));
    assert!(first.line().starts_with("WON:"));
    drop((first, second));
    assert!(srv.wait(LIMIT).status.success());
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].winner, Some(0));
    assert_eq!(recs[0].reason, EndReason::IllegalMove);
    let detail = recs[0].detail.as_deref().unwrap_or_default();
    assert!(detail.contains("out of order"), "{detail}");
}
