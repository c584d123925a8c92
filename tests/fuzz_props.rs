//! The fuzz targets' properties (fuzz/fuzz_targets/) as property tests, for
//! CI: every codec and parser, fed arbitrary text and mutations of the seed
//! corpora in fuzz/corpus/, never panics, and where a parse succeeds the
//! cheap invariant of its fuzz target holds (the encoder's output parses
//! back to the same typed value, compared with `==`, not through the
//! encoder again). A few hundred cases each; the long runs are
//! `fuzz/run.sh` (cargo-fuzz).
//!
//! Those properties hold for a parser that refuses everything, so
//! `every_seed_parses_to_what_it_says` also reads every seed of
//! fuzz/corpus/ unmutated (the fuzz crate itself is not built by CI): each
//! must parse with the parser its target fuzzes, to the value its text says
//! (compared with an expectation taken from the text itself: the line
//! printed back byte for byte, the JSON object's fields, the TOML's keys),
//! except the few inputs the repository's protocol examples give on purpose
//! as ones to refuse, which must be refused for the documented reason.

use std::collections::HashMap;
use std::path::Path;

use proptest::prelude::*;
use proptest::sample::select;

use ladderbot::config::load_from;
use ladderbot::games::four3d::Board;
use ladderbot::games::geister::GeisterGame;
use ladderbot::games::golad::Move;
use ladderbot::games::{GameOptions, PlayableGame};
use ladderbot::platforms::gat::codec::{
    format_client, format_server, parse_client_line, parse_server_line, GatBoard, Phase, ServerMsg,
};
use ladderbot::platforms::riddles::codec::{is_move_request, parse_line, BotView};
use ladderbot::platforms::ws::protocol::{
    encode_client, encode_server, parse_client, parse_server,
};
use ladderbot::records::GameRecord;
use ladderbot::runner::openings::{split_line, Book, OpeningOrder};

/// The inputs to mutate for a fuzz target: its seed corpus and the inputs
/// of its findings (fuzz/found/, if any), every file as text (invalid UTF-8
/// replaced), in name order.
fn corpus(target: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let dir = root.join("corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    if let Ok(found) = std::fs::read_dir(root.join("found").join(target)) {
        files.extend(found.map(|e| e.unwrap().path()));
    }
    files.sort();
    files
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect()
}

/// Bytes that matter to these formats, and any byte.
fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        any::<u8>(),
        select(b" ,_-.:#\"\\{}[]=\r\n0123456789?ABHNSEWRBrbu".to_vec()),
    ]
}

/// One edit: insert, delete or replace a byte, cut the rest, or repeat a
/// slice.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, u8),
    Delete(usize),
    Replace(usize, u8),
    Truncate(usize),
    Repeat(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), byte()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), byte()).prop_map(|(i, b)| Edit::Replace(i, b)),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), 1..16usize).prop_map(|(i, n)| Edit::Repeat(i, n)),
    ]
}

fn apply(seed: &str, edits: &[Edit]) -> String {
    let mut b = seed.as_bytes().to_vec();
    for e in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
        match *e {
            Edit::Insert(i, x) => b.insert(i % (b.len() + 1), x),
            Edit::Delete(i) if !b.is_empty() => {
                b.remove(at(i, b.len()));
            }
            Edit::Replace(i, x) if !b.is_empty() => {
                let i = at(i, b.len());
                b[i] = x;
            }
            Edit::Truncate(i) => b.truncate(i % (b.len() + 1)),
            Edit::Repeat(i, n) if !b.is_empty() => {
                let i = at(i, b.len());
                let part = b[i..(i + n).min(b.len())].to_vec();
                b.splice(i..i, part);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Arbitrary text, arbitrary bytes, or a seed of `target` with a few edits.
fn input(target: &str) -> impl Strategy<Value = String> {
    let seeds = corpus(target);
    prop_oneof![
        1 => "\\PC{0,120}",
        1 => proptest::collection::vec(byte(), 0..160)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        4 => (select(seeds), proptest::collection::vec(edit(), 0..6))
            .prop_map(|(s, e)| apply(&s, &e)),
    ]
}

fn check_riddles(text: &str) {
    let mut view = BotView::new();
    for line in text.split('\n') {
        let _ = is_move_request(line);
        match parse_line(line) {
            Ok(ev) => {
                let printed = ev.to_string();
                assert_eq!(parse_line(&printed).as_ref(), Ok(&ev), "{line:?}");
                if let Some(Ok(req)) = view.apply(ev) {
                    assert_eq!(view.me(), Some(req.me));
                }
            }
            Err(e) => assert!(e.0.chars().count() < 400, "{line:?}: {e}"),
        }
        if let Ok(m) = Move::parse_reply(line) {
            assert_eq!(Move::parse_reply(&m.to_string()), Ok(m), "{line:?}");
            assert_eq!(Move::parse_with(&m.to_engine_string(), '_'), Ok(m));
        }
    }
}

fn check_gat_server(text: &str) {
    let mut phase = Phase::default();
    for line in text.split_inclusive('\n') {
        if let Ok(b) = GatBoard::parse(line) {
            assert_eq!(b.to_string(), line);
        }
        let parsed = parse_server_line(line);
        if let Err(e) = &parsed {
            assert!(e.0.len() < 2048, "{line:?}: {e}");
        }
        if let Ok(m) = parsed {
            let body = line.strip_suffix('\n').unwrap_or(line);
            let body = body.strip_suffix('\r').unwrap_or(body);
            let out = format_server(&m);
            assert_eq!(out, format!("{body}\r\n"));
            assert_eq!(parse_server_line(&out).as_ref(), Ok(&m));
            phase = phase.on_server(&m).unwrap_or_default();
        }
    }
}

fn check_gat_client(text: &str) {
    for line in text.split_inclusive('\n') {
        let parsed = parse_client_line(line);
        if let Err(e) = &parsed {
            assert!(e.0.len() < 2048, "{line:?}: {e}");
        }
        if let Ok(m) = parsed {
            let out = format_client(&m);
            assert_eq!(parse_client_line(&out), Ok(m), "{line:?} -> {out:?}");
            let _ = Phase::MustMove.on_client(&m);
        }
    }
}

fn check_ws_client(text: &str) {
    match parse_client(text) {
        Ok(m) => {
            let out = encode_client(&m);
            let again = parse_client(&out).unwrap();
            assert_eq!(again, m, "{text:?} -> {out:?}");
        }
        Err(e) => {
            let answer = e.to_msg();
            assert_eq!(parse_server(&encode_server(&answer)), Ok(answer));
        }
    }
}

fn check_ws_server(text: &str) {
    if let Ok(m) = parse_server(text) {
        let out = encode_server(&m);
        let again = parse_server(&out).unwrap();
        assert_eq!(again, m, "{text:?} -> {out:?}");
    }
}

fn check_records(text: &str) {
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Ok(r) = serde_json::from_str::<GameRecord>(line) {
            let out = serde_json::to_string(&r).unwrap();
            let again: GameRecord = serde_json::from_str(&out).unwrap();
            assert_eq!(again, r, "{line:?}");
        }
    }
}

fn check_openings<G: PlayableGame>(text: &str) {
    for line in text.lines() {
        let _ = split_line(line);
    }
    let options = GameOptions::new();
    let order = OpeningOrder::Random;
    if let Ok(book) = Book::parse::<G>("p.txt", text, &options, order) {
        let written: String = book.openings.iter().map(|o| o.text() + "\n").collect();
        let again = Book::parse::<G>("p.txt", &written, &options, order).unwrap();
        assert_eq!(again.openings.len(), book.openings.len());
        for (a, b) in again.openings.iter().zip(&book.openings) {
            assert_eq!(a.moves, b.moves);
        }
        for pair in [0, 7, u32::MAX] {
            assert!(book.for_pair(pair, 1).index < book.openings.len());
        }
    }
}

/// `NAME=VALUE` lines as the fuzz target `profile_env` reads them.
fn env_of(text: &str) -> HashMap<String, String> {
    let mut env = HashMap::new();
    for line in text.lines() {
        let (raw, line) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let (name, value) = line.split_once('=').unwrap_or((line, ""));
        if name.is_empty() || name.contains('\0') || value.contains('\0') {
            continue;
        }
        let name = if raw || name.to_ascii_uppercase().starts_with("LADDERBOT_") {
            name.to_string()
        } else {
            format!("LADDERBOT_{name}")
        };
        env.insert(name, value.to_string());
    }
    env
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn riddles_engine_lines(text in input("riddles_engine_line")) {
        check_riddles(&text);
    }

    #[test]
    fn gat_server_lines(text in input("gat_server_line")) {
        check_gat_server(&text);
    }

    #[test]
    fn gat_client_lines(text in input("gat_client_line")) {
        check_gat_client(&text);
    }

    #[test]
    fn ws_client_messages(text in input("ws_client_msg")) {
        check_ws_client(&text);
    }

    #[test]
    fn ws_server_messages(text in input("ws_server_msg")) {
        check_ws_server(&text);
    }

    #[test]
    fn record_lines(text in input("record_line")) {
        check_records(&text);
    }

    #[test]
    fn four3d_openings(text in input("openings_four3d")) {
        check_openings::<Board>(&text);
    }

    #[test]
    fn geister_openings(text in input("openings_geister")) {
        check_openings::<GeisterGame>(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn profiles(text in input("profile_toml")) {
        if let Ok(s) = load_from(Some(&text), HashMap::new()) {
            prop_assert!(s.validate().is_ok());
            // The environment overrides the profile.
            let env = HashMap::from([("LADDERBOT_NAME".to_string(), "x".to_string())]);
            let over = load_from(Some(&text), env).unwrap();
            prop_assert_eq!(over.name, "x");
        }
    }

    #[test]
    fn environments(text in input("profile_env")) {
        let env = env_of(&text);
        if let Ok(s) = load_from(None, env.clone()) {
            prop_assert!(s.validate().is_ok());
            // The same settings, read again, are the same.
            prop_assert_eq!(load_from(None, env).unwrap(), s);
        }
    }
}

/// Names with array subscripts are refused before the `config` crate sees
/// them: 0.14 panicked on a negative index (rust-cli/config-rs#619), and a
/// large index makes it allocate that many elements (18 GB for
/// `x[100000000]`, measured with config 0.15.27).
#[test]
fn subscripts_in_names_are_refused() {
    let env = HashMap::from([("LADDERBOT_X[-1]".to_string(), "1".to_string())]);
    assert!(load_from(None, env).is_err());
    assert!(load_from(Some("\"x[-1]\" = 1\n"), HashMap::new()).is_err());
    let env = HashMap::from([("LADDERBOT_X[100000000]".to_string(), "1".to_string())]);
    let e = load_from(None, env).unwrap_err();
    assert!(e.0.contains("not a setting"), "{e}");
    let e = load_from(Some("[search]\n\"x[100000000]\" = 1\n"), HashMap::new()).unwrap_err();
    assert!(e.0.contains("search.x[100000000]: not a setting"), "{e}");
}

/// serde_json reads back exactly the float it wrote (its `float_roundtrip`
/// feature is on: without it, 0.0013620000000000001 read back as 0.001362).
#[test]
fn floats_round_trip() {
    let written: f64 = "0.0013620000000000001".parse().unwrap();
    assert_eq!(
        serde_json::to_string(&written).unwrap(),
        "0.0013620000000000001"
    );
    let read: f64 = serde_json::from_str("0.0013620000000000001").unwrap();
    assert_eq!(read, written);
}

/// Inputs of the seed corpora that the repository's own examples give as
/// ones to refuse: (target, input, a piece of the refusal). Each must be in
/// its corpus, and refused for that reason.
const REFUSED_SEEDS: &[(&str, &str, &str)] = &[
    // protocol/riddles-golad/transcripts/ (`seed_def_illegal_p0`): player 0
    // answers `kill 99,99` and `hello`.
    (
        "riddles_engine_line",
        "kill 99,99",
        "99,99 is not a point on the field",
    ),
    (
        "riddles_engine_line",
        "hello",
        "failed to parse move 'hello'",
    ),
    // protocol/gat-geister/transcripts/ (`game5_bad_set_then_good`): three
    // reds, answered `NG `.
    ("gat_client_line", "SET:ABC\r\n", "expected 4 reds, got 3"),
    // protocol/ws-match-v1.md's examples of refused frames.
    ("ws_client_msg", r#"{"type":"nope"}"#, "unknown_type"),
    ("ws_client_msg", r#"{"type":"move","move":3}"#, "bad_field"),
    ("ws_client_msg", "not json", "bad_json"),
];

/// The refusal `input` of `target` must give, if it is one of
/// [`REFUSED_SEEDS`].
fn refusal(target: &str, input: &str) -> Option<&'static str> {
    REFUSED_SEEDS
        .iter()
        .find(|(t, i, _)| *t == target && *i == input)
        .map(|(_, _, why)| *why)
}

/// Asserts that `got` is a refusal mentioning `why`.
fn refused<T: std::fmt::Debug, E: std::fmt::Display>(got: Result<T, E>, why: &str, what: &str) {
    match got {
        Ok(v) => panic!("{what}: a seed to refuse parsed as {v:?}"),
        Err(e) => assert!(
            e.to_string().contains(why),
            "{what}: refused ({e}), not for {why:?}"
        ),
    }
}

/// Every field `expected` (JSON) gives is in `got` with the same value;
/// `got` may have more (defaults the writer adds).
fn fields_kept(expected: &serde_json::Value, got: &serde_json::Value, what: &str) {
    match (expected, got) {
        (serde_json::Value::Object(e), serde_json::Value::Object(g)) => {
            for (k, v) in e {
                let Some(gv) = g.get(k) else {
                    panic!("{what}: field {k} lost (got {got})");
                };
                fields_kept(v, gv, &format!("{what}.{k}"));
            }
        }
        _ => assert_eq!(got, expected, "{what}"),
    }
}

/// The seed corpus of `target` as (file name, text).
fn seed_files(target: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
        .iter()
        .map(|p| {
            let name = format!("{target}/{}", p.file_name().unwrap().to_string_lossy());
            let bytes = std::fs::read(p).unwrap();
            let text = String::from_utf8(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, text)
        })
        .collect()
}

fn seeds_riddles() -> usize {
    let mut folded = 0;
    for (name, text) in seed_files("riddles_engine_line") {
        let lines: Vec<&str> = text.split('\n').filter(|l| !l.is_empty()).collect();
        let mut view = BotView::new();
        let mut last = None;
        for line in &lines {
            let what = format!("{name}: {line:?}");
            if let Some(why) = refusal("riddles_engine_line", line) {
                refused(parse_line(line), "unknown line", &what);
                refused(Move::parse_reply(line), why, &what);
            } else if let Ok(ev) = parse_line(line) {
                // The engine's own line: printed back byte for byte.
                assert_eq!(ev.to_string(), *line, "{what}");
                last = view.apply(ev);
            } else {
                // A bot's reply.
                let m = Move::parse_reply(line).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(m.to_string(), *line, "{what}");
            }
        }
        // A transcript's settings and first turn fold into a move request.
        if lines.len() > 1 {
            let req = last
                .unwrap_or_else(|| panic!("{name}: no move request at the end"))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(view.me(), Some(req.me), "{name}");
            folded += 1;
        }
    }
    folded
}

fn seeds_gat() {
    for (name, text) in seed_files("gat_server_line") {
        for line in text.split_inclusive('\n') {
            let m = parse_server_line(line).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(format_server(&m), line, "{name}");
            if let ServerMsg::MoveQuestion(b) | ServerMsg::End(_, b) = &m {
                assert_eq!(line[4..].trim_end(), b.to_string(), "{name}");
            }
        }
    }
    for (name, text) in seed_files("gat_client_line") {
        for line in text.split_inclusive('\n') {
            let what = format!("{name}: {line:?}");
            match refusal("gat_client_line", line) {
                Some(why) => refused(parse_client_line(line), why, &what),
                None => {
                    let m = parse_client_line(line).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(format_client(&m), line, "{what}");
                }
            }
        }
    }
}

fn seeds_ws() {
    for (name, text) in seed_files("ws_client_msg") {
        if let Some(why) = refusal("ws_client_msg", &text) {
            refused(parse_client(&text), why, &name);
            continue;
        }
        let m = parse_client(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected: serde_json::Value = serde_json::from_str(&text).unwrap();
        let out = encode_client(&m);
        fields_kept(&expected, &serde_json::from_str(&out).unwrap(), &name);
        assert_eq!(parse_client(&out).as_ref(), Ok(&m), "{name}");
    }
    for (name, text) in seed_files("ws_server_msg") {
        let m = parse_server(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(m.kind(), expected["type"], "{name}");
        let out = encode_server(&m);
        fields_kept(&expected, &serde_json::from_str(&out).unwrap(), &name);
        assert_eq!(parse_server(&out).as_ref(), Ok(&m), "{name}");
    }
}

fn seeds_records() {
    for (name, text) in seed_files("record_line") {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let r: GameRecord =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}: {e}"));
            let expected: serde_json::Value = serde_json::from_str(line).unwrap();
            fields_kept(&expected, &serde_json::to_value(&r).unwrap(), &name);
            assert_eq!(r.moves.len(), expected["moves"].as_array().unwrap().len());
        }
    }
}

/// Every opening line of a seed is an opening of the book, with the moves
/// the line gives; a seed of only comments and blanks has none, and is
/// refused as such.
fn seeds_openings<G: PlayableGame>(target: &str) -> usize {
    let mut books = 0;
    for (name, text) in seed_files(target) {
        let lines: Vec<(usize, Vec<serde_json::Value>)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                (
                    i + 1,
                    split_line(l).unwrap_or_else(|e| panic!("{name}: {e}")),
                )
            })
            .filter(|(_, moves)| !moves.is_empty())
            .collect();
        let got = Book::parse::<G>(
            "p.txt",
            &text,
            &GameOptions::new(),
            OpeningOrder::Sequential,
        );
        if lines.is_empty() {
            refused(got, "no openings", &name);
            continue;
        }
        let book = got.unwrap_or_else(|e| panic!("{name}: {e}"));
        let read: Vec<(usize, Vec<serde_json::Value>)> = book
            .openings
            .iter()
            .map(|o| (o.line, o.moves.clone()))
            .collect();
        assert_eq!(read, lines, "{name}");
        books += 1;
    }
    books
}

/// The value at `path` (keys) of a JSON tree.
fn at<'a>(v: &'a serde_json::Value, path: &[String]) -> Option<&'a serde_json::Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

/// A setting's value as the text of a profile or a variable gives it.
fn as_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn seeds_profiles() {
    for (name, text) in seed_files("profile_toml") {
        let s = load_from(Some(&text), HashMap::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected: toml::Table = toml::from_str(&text).unwrap();
        let expected = serde_json::to_value(expected).unwrap();
        fields_kept(&expected, &serde_json::to_value(&s).unwrap(), &name);
    }
    for (name, text) in seed_files("profile_env") {
        let env = env_of(&text);
        let s = load_from(None, env.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = serde_json::to_value(&s).unwrap();
        for (var, value) in &env {
            let path: Vec<String> = var
                .strip_prefix("LADDERBOT_")
                .unwrap()
                .split("__")
                .map(|k| k.to_ascii_lowercase())
                .collect();
            let setting = at(&got, &path).unwrap_or_else(|| panic!("{name}: {var} is no setting"));
            assert_eq!(&as_text(setting), value, "{name}: {var}");
        }
    }
}

#[test]
fn every_seed_parses_to_what_it_says() {
    for (target, input, _) in REFUSED_SEEDS {
        let texts: Vec<String> = seed_files(target).into_iter().map(|(_, t)| t).collect();
        let found = texts
            .iter()
            .any(|t| t == input || t.split_inclusive('\n').any(|l| l == *input));
        assert!(found, "{target}: {input:?} is in no seed");
    }
    assert!(seeds_riddles() >= 2, "transcript heads folded");
    seeds_gat();
    seeds_ws();
    seeds_records();
    assert!(seeds_openings::<Board>("openings_four3d") >= 10);
    assert!(seeds_openings::<GeisterGame>("openings_geister") >= 3);
    seeds_profiles();
}
