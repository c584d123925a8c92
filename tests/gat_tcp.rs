//! The GAT Geister transport over real loopback TCP: `serve-gat` with
//! `play geister` clients and raw hand-written clients.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{serve_gat, serve_gat_logged, Guard};
use ladderbot::games::geister::GeisterGame;
use ladderbot::games::replay;
use ladderbot::model::Model;
use ladderbot::records::{read_records, EndReason};

const BIN: &str = env!("CARGO_BIN_EXE_ladderbot");
const LIMIT: Duration = Duration::from_secs(120);

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

fn stdout_of(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
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
    /// A seat on `port` whose first line was `SET?`: a connection the server
    /// closes before its first line (still finishing the last game, it
    /// turns extra connections away) is retried, as a GAT client does.
    fn seated(port: u16) -> Raw {
        let start = Instant::now();
        loop {
            let mut raw = Raw::connect(port);
            match raw.try_line() {
                Some(l) => {
                    assert_eq!(l, "SET?");
                    return raw;
                }
                None if start.elapsed() < Duration::from_secs(10) => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                None => panic!("no SET? on port {port} within 10 s"),
            }
        }
    }
    /// The next line, or `None` at the end of the stream (or on a reset).
    fn try_line(&mut self) -> Option<String> {
        let mut l = String::new();
        match self.rd.read_line(&mut l) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(l.trim_end_matches("\r\n").to_string()),
        }
    }
    /// Both seats, each past its `SET:` (`OK ` received). A connection the
    /// server resets or closes before its first line (made before it
    /// closed its ports after the last game, as the real server does) is
    /// made again for that seat alone, as a GAT client does; the other
    /// seat keeps its place.
    fn pair_set(ports: [u16; 2], log: &std::path::Path) -> (Raw, Raw) {
        let start = Instant::now();
        let mut seats = [Raw::connect(ports[0]), Raw::connect(ports[1])];
        let mut seated = [false; 2];
        for s in &seats {
            s.wr.set_read_timeout(Some(Duration::from_millis(50)))
                .unwrap();
        }
        while !(seated[0] && seated[1]) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "no game within 20 s (seated: {seated:?}); the server's log:\n{}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
            for k in 0..2 {
                if seated[k] {
                    continue;
                }
                let mut l = String::new();
                match seats[k].rd.read_line(&mut l) {
                    Ok(n) if n > 0 => {
                        assert_eq!(l, "SET?\r\n");
                        seated[k] = true;
                    }
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ) => {}
                    // Closed or reset before the first line: no game yet.
                    _ => {
                        seats[k] = Raw::connect(ports[k]);
                        seats[k]
                            .wr
                            .set_read_timeout(Some(Duration::from_millis(50)))
                            .unwrap();
                    }
                }
            }
        }
        let [mut a, mut b] = seats;
        for r in [&mut a, &mut b] {
            r.wr.set_read_timeout(Some(Duration::from_secs(20)))
                .unwrap();
            r.send("SET:ABCD");
            assert_eq!(r.line(), "OK ");
        }
        (a, b)
    }
    /// Answers `SET?` and returns the first line after `OK `.
    fn set(&mut self) {
        assert_eq!(self.line(), "SET?");
        self.send("SET:ABCD");
        assert_eq!(self.line(), "OK ");
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
    // The server broke the game off: aborted, not lost; worth retrying.
    assert_eq!(o.status.code(), Some(75), "{o:?}");
    assert_eq!(summary(&o), (0, 0, 0, 0));
    assert!(stdout_of(&o).contains(", aborted 1"), "{}", stdout_of(&o));
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

#[test]
fn a_line_over_the_limit_loses_and_a_partial_line_is_no_move_and_the_server_serves_on() {
    let dir = tempfile::tempdir().unwrap();
    let (out, log) = (dir.path().join("games.jsonl"), dir.path().join("serve.log"));
    let (srv, ports, _lines) = serve_gat_logged(3, &out, 0, 1, Some(&log));
    // Game 1: a 1,000-byte line instead of a move.
    let (mut first, mut second) = (Raw::connect(ports[0]), Raw::connect(ports[1]));
    first.set();
    second.set();
    assert!(first.line().starts_with("MOV?"));
    first.send(&"x".repeat(1000));
    assert_eq!(first.line(), "NG ");
    assert!(first.line().starts_with("LST:"));
    assert!(second.line().starts_with("WON:"));
    drop((first, second));
    // Game 2: a move without its end of line, then silence: lost on time.
    // (A connection made before the server closed its ports after game 1
    // is reset, as on the real server: `seated` connects again.)
    // The server closes its ports once both have closed: let it.
    std::thread::sleep(Duration::from_millis(300));
    let (mut first, mut second) = Raw::pair_set(ports, &log);
    assert!(first.line().starts_with("MOV?"));
    first.wr.write_all(b"MOV:C,N").unwrap();
    assert!(first.line().starts_with("LST:"));
    assert!(second.line().starts_with("WON:"));
    drop((first, second));
    // Game 3: a move without its end of line, then the end of the stream.
    // The server closes its ports once both have closed: let it.
    std::thread::sleep(Duration::from_millis(300));
    let (mut first, mut second) = Raw::pair_set(ports, &log);
    assert!(first.line().starts_with("MOV?"));
    first.wr.write_all(b"MOV:C,N").unwrap();
    first.wr.shutdown(std::net::Shutdown::Write).unwrap();
    assert!(second.line().starts_with("WON:"));
    drop((first, second));
    assert!(srv.wait(LIMIT).status.success());
    let recs = read_records(&out).unwrap();
    let got: Vec<_> = recs.iter().map(|r| (r.winner, r.reason)).collect();
    assert_eq!(
        got,
        [
            (Some(1), EndReason::IllegalMove),
            (Some(1), EndReason::Timeout),
            (Some(1), EndReason::Disconnect)
        ]
    );
    let detail = recs[0].detail.as_deref().unwrap_or_default();
    assert!(detail.contains("limit of 512 bytes"), "{detail}");
    // The partial move was never played: only the two setups.
    assert_eq!(recs[2].moves.len(), 2, "{:?}", recs[2].moves);
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("WARN") && l.contains("limit of 512 bytes")),
        "{log}"
    );
    assert!(log.contains("in the middle of a line"), "{log}");
}

#[test]
fn a_client_that_crashes_or_hangs_loses_and_the_server_serves_the_next_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(4, &out, 0, 2);
    let honest = client(ports[1], 4, 21);
    // Game 1: seat 0 crashes mid-game; its unread lines make the close a reset.
    let mut raw = Raw::connect(ports[0]);
    assert_eq!(raw.line(), "SET?");
    raw.send("SET:ABCD");
    std::thread::sleep(Duration::from_millis(300));
    drop(raw);
    // Game 2: seat 0 never answers SET?.
    let t0 = Instant::now();
    let mut raw = Raw::seated(ports[0]);
    assert!(raw.line().starts_with("LST:"));
    assert!(t0.elapsed() < Duration::from_secs(15));
    drop(raw);
    // Game 3: seat 0 hangs, connected and silent, at its first move.
    let mut raw = Raw::seated(ports[0]);
    raw.send("SET:ABCD");
    assert_eq!(raw.line(), "OK ");
    assert!(raw.line().starts_with("MOV?"));
    assert!(raw.line().starts_with("LST:"));
    drop(raw);
    // Game 4: an honest client on the same port plays normally.
    let other = client(ports[0], 1, 22);
    let o = other.wait(LIMIT);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(summary(&o).0, 1);
    let h = honest.wait(LIMIT);
    assert!(h.status.success(), "{h:?}");
    let (games, wins, _, _) = summary(&h);
    assert_eq!(games, 4);
    assert!(wins >= 3, "{}", stdout_of(&h));
    assert!(srv.wait(LIMIT).status.success());
    let recs = read_records(&out).unwrap();
    let got: Vec<_> = recs.iter().map(|r| (r.winner, r.reason)).collect();
    assert_eq!(
        got[..3],
        [
            (Some(1), EndReason::Disconnect),
            (Some(1), EndReason::Timeout),
            (Some(1), EndReason::Timeout)
        ]
    );
    assert!(
        recs[1]
            .detail
            .as_deref()
            .unwrap_or_default()
            .contains("no SET within 2 s"),
        "{:?}",
        recs[1].detail
    );
    assert_eq!(recs[3].reason, EndReason::Rules, "{:?}", recs[3]);
}

#[test]
fn a_flood_out_of_turn_loses_and_the_server_serves_the_next_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = serve_gat(2, &out, 60, 5);
    let (mut first, mut second) = (Raw::connect(ports[0]), Raw::connect(ports[1]));
    first.set();
    second.set();
    assert!(first.line().starts_with("MOV?"));
    // 10,000 lines while it is the other seat's turn (the server may close
    // before all are written).
    let flood = "MOV:A,N\r\n".repeat(10_000);
    let _ = second.wr.write_all(flood.as_bytes());
    assert!(first.line().starts_with("WON:"));
    drop((first, second));
    let a = client(ports[0], 1, 31);
    let b = client(ports[1], 1, 32);
    for c in [a, b] {
        let o = c.wait(LIMIT);
        assert!(o.status.success(), "{o:?}");
        assert_eq!(summary(&o).0, 1);
    }
    assert!(srv.wait(LIMIT).status.success());
    let recs = read_records(&out).unwrap();
    assert_eq!(
        (recs[0].winner, recs[0].reason),
        (Some(0), EndReason::IllegalMove)
    );
    assert!(recs[0]
        .detail
        .as_deref()
        .unwrap_or_default()
        .contains("out of order"));
    assert_eq!(recs[1].reason, EndReason::Rules);
}

#[test]
fn connections_to_taken_ports_are_refused_and_floods_do_not_disturb_an_honest_game() {
    let dir = tempfile::tempdir().unwrap();
    let (out, log) = (dir.path().join("games.jsonl"), dir.path().join("serve.log"));
    let (srv, ports, _lines) = serve_gat_logged(1, &out, 60, 5, Some(&log));
    // Two honest clients that take a little time per move.
    let honest = |port: u16, seed: u64| {
        let child = Command::new(BIN)
            .args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
            .args(["--agent", "dmc-v1", "--time-ms", "60"])
            .args(["--games", "1", "--seed", &seed.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start play geister");
        Guard(Some(child))
    };
    let (a, b) = (honest(ports[0], 41), honest(ports[1], 42));
    let start = Instant::now();
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("both players connected")
    {
        assert!(start.elapsed() < LIMIT, "the game did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    // While the game runs: extra connections to both ports, each closed at
    // once, each flooding what it can.
    let flood = "MOV:A,N\r\n".repeat(10_000);
    for i in 0..6 {
        let mut s = TcpStream::connect(("127.0.0.1", ports[i % 2])).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = s.write_all(flood.as_bytes());
        let mut buf = [0u8; 64];
        let n = std::io::Read::read(&mut s, &mut buf);
        assert!(
            matches!(n, Ok(0) | Err(_)),
            "an extra connection was served: {n:?}"
        );
    }
    for c in [a, b] {
        let o = c.wait(LIMIT);
        assert!(o.status.success(), "{o:?}");
        assert_eq!(summary(&o).0, 1, "{}", stdout_of(&o));
    }
    assert!(srv.wait(LIMIT).status.success());
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].reason, EndReason::Rules, "{:?}", recs[0]);
    assert!(recs[0].moves.len() > 4);
    let log = std::fs::read_to_string(&log).unwrap();
    let refused = log
        .lines()
        .filter(|l| l.contains("WARN") && l.contains("refused a connection"))
        .count();
    assert_eq!(refused, 6, "{log}");
}

#[test]
fn sigterm_records_the_game_in_progress_as_aborted_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, lines) = serve_gat(0, &out, 60, 5);
    let (mut first, mut second) = (Raw::connect(ports[0]), Raw::connect(ports[1]));
    first.set();
    second.set();
    assert!(first.line().starts_with("MOV?"));
    first.send("MOV:C,N");
    assert_eq!(first.line(), "OK ");
    assert!(second.line().starts_with("MOV?"));
    common::signal(srv.0.as_ref().unwrap(), "-TERM");
    let o = srv.wait(LIMIT);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    // No verdict for either seat: the connections just close.
    assert_eq!(first.try_line(), None);
    assert_eq!(second.try_line(), None);
    let printed: Vec<String> = lines.try_iter().collect();
    assert!(
        printed.iter().any(|l| l == "stopped by SIGTERM"),
        "{printed:?}"
    );
    assert!(
        printed.iter().any(|l| l.contains("* by aborted")),
        "{printed:?}"
    );
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!(
        (r.reason, r.result.as_str(), r.winner),
        (EndReason::Aborted, "*", None)
    );
    // The two setups and the one move played.
    assert_eq!(r.moves.len(), 3, "{:?}", r.moves);
    assert_eq!(r.moves[2], "C,N");
}

#[test]
fn a_server_lost_mid_game_is_aborted_not_lost_and_a_closed_connection_is_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("ours.jsonl");
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let child = Command::new(BIN)
        .args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .args(["--agent", "random", "--games", "2", "--seed", "3"])
        .arg("--records")
        .arg(&records)
        .env("LADDERBOT_CLIENT__RECONNECT_WINDOW_MS", "1500")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let c = Guard(Some(child));
    // The first connection is closed at once, as a busy server does.
    drop(l.accept().unwrap());
    // The second one gets a game, and the server dies after one move.
    let mut raw = accept_and_set(&l);
    raw.send("MOV?14R24B34B44R15B25R35B45R41u31u21u11u40u30u20u10u");
    assert!(raw.line().starts_with("MOV:"));
    drop(raw);
    drop(l);
    let o = c.wait(LIMIT);
    let text = stdout_of(&o);
    // Printed as aborted, not counted as a loss; the summary, then exit 75.
    assert_eq!(o.status.code(), Some(75), "{o:?}");
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 1, "{text}");
    assert!(games[0].starts_with("game 1: seat 0: aborted"), "{text}");
    assert!(
        text.contains("summary: games 0, wins 0, draws 0, losses 0, score 0.000, aborted 1"),
        "{text}"
    );
    let recs = read_records(&records).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(
        (recs[0].reason, recs[0].result.as_str(), recs[0].winner),
        (EndReason::Aborted, "*", None)
    );
}

/// Forwards connections on a port of its own to `to`; when a client closes
/// its side, the server hears of it only `delay` later (a client slow to
/// close, as some GAT entries are).
fn slow_closing_proxy(to: u16, delay: Duration) -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in l.incoming().flatten() {
            let Ok(server) = TcpStream::connect(("127.0.0.1", to)) else {
                continue; // refused: the client sees its connection close
            };
            let (mut c_rd, mut c_wr) = (client.try_clone().unwrap(), client);
            let (mut s_rd, mut s_wr) = (server.try_clone().unwrap(), server);
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s_rd, &mut c_wr);
                let _ = c_wr.shutdown(std::net::Shutdown::Write);
            });
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut c_rd, &mut s_wr);
                std::thread::sleep(delay);
                let _ = s_wr.shutdown(std::net::Shutdown::Both);
            });
        }
    });
    port
}

/// Between games serve-gat closes its ports once both players have closed
/// and opens them again, as the real GAT server does: the quick client's
/// next connection, made while the slow one still holds its game open, is
/// reset (or refused). That is no game: the client connects again, and
/// both play their whole session, every game with its result and how it
/// ended.
#[test]
fn a_session_survives_the_ports_closing_and_reopening_between_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let games = 4;
    let (srv, ports, _lines) = serve_gat(games, &out, 60, 5);
    let slow = slow_closing_proxy(ports[1], Duration::from_millis(700));
    let quick = client(ports[0], games, 1);
    let late = client(slow, games, 2);
    let (oq, ol) = (quick.wait(LIMIT), late.wait(LIMIT));
    assert!(srv.wait(LIMIT).status.success());
    for o in [&oq, &ol] {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(summary(o).0, games);
        let text = stdout_of(o);
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(lines.len(), games as usize, "{text}");
        for l in &lines {
            assert!(!l.contains("error"), "a phantom game: {l}");
            assert!(
                ["escape", "blues_captured", "reds_captured", "the ply limit"]
                    .iter()
                    .any(|e| l.contains(&format!(" by {e} "))),
                "how it ended is not said: {l}"
            );
        }
    }
    // The quick client met the closed ports at least once, and took it for
    // no game.
    let err = String::from_utf8_lossy(&oq.stderr);
    assert!(
        err.contains("before the game began; reconnecting"),
        "the quick client never met the ports closing: {err}"
    );
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), games as usize);
    assert!(
        recs.iter().all(|r| r.reason == EndReason::Rules),
        "{recs:?}"
    );
}

/// On a real GAT server an answer sent before the server's timer thread has
/// started leaves that timer running, and it later declares a timeout
/// against us (seen on the real server). `play geister` therefore holds
/// even an instant answer (a random move, a forced win) for MIN_ANSWER
/// after its `MOV?`.
#[test]
fn instant_answers_are_held_until_the_servers_timer_has_started() {
    let (c, mut raw) = scripted("4", &[]);
    // A blue on the exit: the forced win is an instant escape.
    for board in [
        "14R24B34B44R15B25R35B45R41u31u21u11u40u30u20u10u",
        "14R24B34B44R05B25R35B45R41u31u21u11u40u30u20u10u",
        "14R24B34B44R00B25R35B45R41u31u21u11u40u30u20u10u",
    ] {
        let asked = Instant::now();
        raw.send(&format!("MOV?{board}"));
        assert!(raw.line().starts_with("MOV:"));
        let took = asked.elapsed();
        assert!(
            took >= ladderbot::platforms::gat::client::MIN_ANSWER,
            "answered {took:?} after MOV?"
        );
        raw.send("OK ");
    }
    raw.send("WON:14R24B34B44R88b25R35B45R41r31r21r11r40b30b20b10b");
    drop(raw);
    let o = c.wait(LIMIT);
    assert!(stdout_of(&o).contains("game 1: seat 0: win"), "{o:?}");
}

/// The real server (miyo/geister_server.java) sends a verdict from its timer
/// threads and when the other player's connection closes, whatever the
/// phase: seen on it, a `WON:` in place of the `OK ` to our move (the other
/// player's timer had fired while we thought). The verdict is the game's
/// result; the move it never played leaves the record, and the detail says
/// why.
#[test]
fn a_verdict_in_place_of_our_moves_acknowledgement_is_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("r.jsonl");
    let (c, mut raw) = scripted("5", &["--records".as_ref(), records.as_os_str()]);
    raw.send("MOV?14R24B34B44R15B25R35B45R41u31u21u11u40u30u20u10u");
    assert!(raw.line().starts_with("MOV:"));
    // Our move, answered by the verdict alone.
    raw.send("WON:14R24B34B44R15B25R35B45R41r31r21b11b40b30b20r10r");
    drop(raw);
    let o = c.wait(LIMIT);
    let out = stdout_of(&o);
    assert!(out.contains("game 1: seat 0: win"), "{o:?}");
    assert!(out.contains("summary: games 1, wins 1"), "{out}");
    let recs = read_records(&records).unwrap();
    assert_eq!(recs.len(), 1);
    let r = &recs[0];
    assert_eq!((r.result.as_str(), r.reason), ("1-0", EndReason::Rules));
    let detail = r.detail.clone().unwrap_or_default();
    assert!(
        detail.contains("in place of the acknowledgement of our move 1"),
        "{detail}"
    );
    // The two setups, not our move, which the server never played.
    assert_eq!(r.moves.len(), 2, "{:?}", r.moves);
}

/// `play geister` (one game of `random`, seed `seed`, and `extra`
/// arguments) against a hand-written server, the setup done: the server's
/// side is `Raw`, to script.
fn scripted(seed: &str, extra: &[&std::ffi::OsStr]) -> (Guard, Raw) {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let child = Command::new(BIN)
        .args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .args(["--agent", "random", "--games", "1", "--seed", seed])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let c = Guard(Some(child));
    (c, accept_and_set(&l))
}

/// The next client of `l`, its setup asked and accepted: the server's side
/// as `Raw`, to script.
fn accept_and_set(l: &std::net::TcpListener) -> Raw {
    let (s, _) = l.accept().unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut raw = Raw {
        rd: BufReader::new(s.try_clone().unwrap()),
        wr: s,
    };
    raw.send("SET?");
    assert!(raw.line().starts_with("SET:"));
    raw.send("OK ");
    raw
}
