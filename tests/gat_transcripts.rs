//! Every line of the recorded GAT Geister transcripts in
//! `protocol/gat-geister/transcripts/` parses and formats back to the same
//! bytes, every game follows the documented message order, and the two
//! players' views and the server's log agree.

use std::fs;
use std::path::{Path, PathBuf};

use ladderbot::platforms::gat::codec::{
    format_client, format_server, parse_client_line, parse_server_line, ClientMsg, GatBoard,
    Outcome, Phase, Place, ServerMsg, PIECES, SIZE,
};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/gat-geister/transcripts")
}

/// Undoes Python's `repr` of a str: `'...'` or `"..."` with backslash escapes.
fn unrepr(s: &str) -> String {
    let s = s.trim_end();
    let q = s.chars().next().expect("empty repr");
    assert!(
        (q == '\'' || q == '"') && s.len() >= 2 && s.ends_with(q),
        "not a repr: {s}"
    );
    let mut out = String::new();
    let mut it = s[1..s.len() - 1].chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = it.next().expect("dangling backslash");
        match e {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '\\' | '\'' | '"' => out.push(e),
            'x' | 'u' => {
                let n = if e == 'x' { 2 } else { 4 };
                let hex: String = it.by_ref().take(n).collect();
                let v = u32::from_str_radix(&hex, 16).expect("bad hex escape");
                out.push(char::from_u32(v).expect("bad code point"));
            }
            other => panic!("unexpected escape \\{other} in {s}"),
        }
    }
    out
}

#[derive(Debug)]
enum Line {
    Recv(String),
    Sent(String),
}

struct Transcript {
    name: String,
    lines: Vec<Line>,
    result: Option<String>,
}

fn load(path: &Path) -> Transcript {
    let text = fs::read_to_string(path).unwrap();
    let mut lines = Vec::new();
    let mut result = None;
    for l in text.lines() {
        if let Some(r) = l.strip_prefix("< ") {
            lines.push(Line::Recv(unrepr(r)));
        } else if let Some(r) = l.strip_prefix("> ") {
            lines.push(Line::Sent(unrepr(r)));
        } else if let Some(r) = l.strip_prefix("# result ") {
            result = Some(r.trim().to_string());
        } else {
            assert!(l.starts_with('#') || l.is_empty(), "{path:?}: odd line {l}");
        }
    }
    Transcript {
        name: path.file_name().unwrap().to_string_lossy().into_owned(),
        lines,
        result,
    }
}

/// The games: name prefix -> (player 0 transcript, player 1 transcript).
fn games() -> Vec<(String, Transcript, Transcript)> {
    let mut names: Vec<String> = fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix("_serverlog.txt").map(|g| g.to_string()))
        .collect();
    names.sort();
    assert_eq!(names.len(), 5, "{names:?}");
    names
        .into_iter()
        .map(|g| {
            let p0 = load(&dir().join(format!("{g}_player0_port10000.txt")));
            let p1 = load(&dir().join(format!("{g}_player1_port10001.txt")));
            (g, p0, p1)
        })
        .collect()
}

/// The one line in the transcripts that is not a valid message.
const BAD_SET: &str = "SET:ABC\r\n";

#[test]
fn every_line_round_trips_byte_identically() {
    let mut count = 0;
    for (_, p0, p1) in games() {
        for t in [&p0, &p1] {
            for l in &t.lines {
                count += 1;
                match l {
                    Line::Recv(s) => {
                        assert!(s.ends_with("\r\n"), "{}: {s:?}", t.name);
                        let m = parse_server_line(s).unwrap_or_else(|e| panic!("{}: {e}", t.name));
                        assert_eq!(&format_server(&m), s, "{}", t.name);
                    }
                    Line::Sent(s) if s == BAD_SET => {
                        assert!(parse_client_line(s).is_err(), "{}", t.name);
                    }
                    Line::Sent(s) => {
                        assert!(s.ends_with("\r\n"), "{}: {s:?}", t.name);
                        let m = parse_client_line(s).unwrap_or_else(|e| panic!("{}: {e}", t.name));
                        assert_eq!(&format_client(&m), s, "{}", t.name);
                    }
                }
            }
        }
    }
    assert!(count > 400, "{count}");
}

/// Runs the state machine over one transcript; returns the outcome and the
/// final board.
fn run(t: &Transcript) -> (Outcome, GatBoard) {
    let mut phase = Phase::default();
    let mut end = None;
    for l in &t.lines {
        assert!(end.is_none(), "{}: a line after the end", t.name);
        phase = match l {
            Line::Recv(s) => {
                let m = parse_server_line(s).unwrap();
                if let ServerMsg::End(o, b) = m {
                    end = Some((o, b));
                }
                phase.on_server(&m)
            }
            Line::Sent(s) => match parse_client_line(s) {
                Ok(m) => phase.on_client(&m),
                Err(_) => phase.on_client_unparsed(),
            },
        }
        .unwrap_or_else(|e| panic!("{}: {e}", t.name));
    }
    let (o, b) = end.unwrap_or_else(|| panic!("{}: no end message", t.name));
    assert_eq!(phase, Phase::Over(o));
    let word = match o {
        Outcome::Won => "WON",
        Outcome::Lost => "LST",
        Outcome::Draw => "DRW",
    };
    assert_eq!(t.result.as_deref(), Some(word), "{}", t.name);
    (o, b)
}

fn mirror(p: Place) -> Place {
    match p {
        Place::At { x, y } => Place::At {
            x: SIZE - 1 - x,
            y: SIZE - 1 - y,
        },
        other => other,
    }
}

#[test]
fn games_follow_the_state_machine_and_views_agree() {
    for (g, p0, p1) in games() {
        let (o0, b0) = run(&p0);
        let (o1, b1) = run(&p1);
        let expected = match o0 {
            Outcome::Won => Outcome::Lost,
            Outcome::Lost => Outcome::Won,
            Outcome::Draw => Outcome::Draw,
        };
        assert_eq!(o1, expected, "{g}");
        // Each client sees itself at the bottom: the end boards are each
        // other's mirror image, with every colour revealed.
        for (me, other) in [(&b0, &b1), (&b1, &b0)] {
            for i in 0..PIECES {
                let mine = me.own(i);
                let theirs = other.opponent(i);
                assert_eq!(mirror(mine.place), theirs.place, "{g}: piece {i}");
                assert_eq!(mine.colour, theirs.colour, "{g}: piece {i}");
            }
        }
    }
}

#[test]
fn first_board_has_the_pieces_on_their_start_squares() {
    for (g, p0, p1) in games() {
        for t in [&p0, &p1] {
            let b = t
                .lines
                .iter()
                .find_map(|l| match l {
                    Line::Recv(s) => match parse_server_line(s).unwrap() {
                        ServerMsg::MoveQuestion(b) => Some(b),
                        _ => None,
                    },
                    Line::Sent(_) => None,
                })
                .unwrap();
            // The first player's own pieces have not moved yet; the second
            // player's first board shows the opponent's first move.
            for i in 0..PIECES {
                let x = 1 + (i % 4) as u8;
                let y = 4 + (i / 4) as u8;
                assert_eq!(b.own(i).place, Place::At { x, y }, "{g} {}", t.name);
            }
        }
    }
}

#[test]
fn client_lines_match_the_server_log() {
    for (g, p0, p1) in games() {
        let log = fs::read_to_string(dir().join(format!("{g}_serverlog.txt"))).unwrap();
        let mut logged: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        let mut winner = None;
        for l in log.lines() {
            if let Some(r) = l.strip_prefix("player=") {
                let (k, line) = r.split_once(',').unwrap();
                logged[k.parse::<usize>().unwrap()].push(format!("{line}\r\n"));
            } else if let Some(w) = l.strip_prefix("winner=") {
                winner = Some(w.trim().parse::<usize>().unwrap());
            }
        }
        for (k, t) in [&p0, &p1].into_iter().enumerate() {
            let sent: Vec<String> = t
                .lines
                .iter()
                .filter_map(|l| match l {
                    Line::Sent(s) => Some(s.clone()),
                    Line::Recv(_) => None,
                })
                .collect();
            assert_eq!(sent, logged[k], "{g}: player {k}");
        }
        if let Some(w) = winner {
            let t = if w == 0 { &p0 } else { &p1 };
            assert_eq!(t.result.as_deref(), Some("WON"), "{g}");
        }
    }
}

fn received(t: &Transcript) -> Vec<ServerMsg> {
    t.lines
        .iter()
        .filter_map(|l| match l {
            Line::Recv(s) => Some(parse_server_line(s).unwrap()),
            Line::Sent(_) => None,
        })
        .collect()
}

#[test]
fn illegal_move_ends_with_ng_then_a_loss() {
    let (_, p0, p1) = games()
        .into_iter()
        .find(|(g, ..)| g.contains("illegal_move"))
        .unwrap();
    let r1 = received(&p1);
    let n = r1.len();
    assert_eq!(r1[n - 2], ServerMsg::Ng);
    assert!(matches!(r1[n - 1], ServerMsg::End(Outcome::Lost, _)));
    // The refused move was a real move line, well formed.
    let last_sent = p1
        .lines
        .iter()
        .rev()
        .find_map(|l| match l {
            Line::Sent(s) => Some(s.clone()),
            Line::Recv(_) => None,
        })
        .unwrap();
    assert!(matches!(
        parse_client_line(&last_sent),
        Ok(ClientMsg::Move { .. })
    ));
    let r0 = received(&p0);
    assert!(matches!(r0.last(), Some(ServerMsg::End(Outcome::Won, _))));
    // NG appears nowhere else in that game.
    assert_eq!(r1.iter().filter(|m| **m == ServerMsg::Ng).count(), 1);
    assert!(!r0.contains(&ServerMsg::Ng));
}

#[test]
fn bad_set_is_retried_after_ng() {
    let (_, p0, _) = games()
        .into_iter()
        .find(|(g, ..)| g.contains("bad_set"))
        .unwrap();
    let head: Vec<&Line> = p0.lines.iter().take(5).collect();
    assert!(matches!(head[0], Line::Recv(s) if s == "SET?\r\n"));
    assert!(matches!(head[1], Line::Sent(s) if s == BAD_SET));
    assert!(matches!(head[2], Line::Recv(s) if s == "NG \r\n"));
    match head[3] {
        Line::Sent(s) => assert!(matches!(parse_client_line(s), Ok(ClientMsg::Set(_)))),
        other => panic!("expected a second SET, got {other:?}"),
    }
    assert!(matches!(head[4], Line::Recv(s) if s == "OK \r\n"));
}

#[test]
fn unrepr_undoes_python_quoting() {
    assert_eq!(unrepr(r"'OK \r\n'"), "OK \r\n");
    assert_eq!(unrepr(r#""it's\\x""#), "it's\\x");
    assert_eq!(unrepr(r"'\x41\u00e9'"), "Aé");
}
