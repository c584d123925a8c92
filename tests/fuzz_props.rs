//! The fuzz targets' properties (fuzz/fuzz_targets/) as property tests, for
//! CI: every codec and parser, fed arbitrary text and mutations of the seed
//! corpora in fuzz/corpus/, never panics, and where a parse succeeds the
//! cheap invariant of its fuzz target holds (the encoder's output parses
//! back to the same value). A few hundred cases each; the long runs are
//! `fuzz/run.sh` (cargo-fuzz).

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
    format_client, format_server, parse_client_line, parse_server_line, GatBoard, Phase,
};
use ladderbot::platforms::riddles::codec::{is_move_request, parse_line, BotView};
use ladderbot::platforms::ws::protocol::{
    encode_client, encode_server, parse_client, parse_server,
};
use ladderbot::records::GameRecord;
use ladderbot::runner::openings::{split_line, Book, OpeningOrder};

/// The seed corpus of a fuzz target, every file as text (invalid UTF-8
/// replaced), in name order.
fn corpus(target: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let seeds: Vec<String> = files
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect();
    assert!(!seeds.is_empty(), "{} is empty", dir.display());
    seeds
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

/// Equal, except that two floats may differ in their last bits: serde_json
/// (without its `float_roundtrip` feature) reads some numbers one unit in the
/// last place off, its own output included (fuzz/README.md).
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            let d = (x - y).abs();
            d <= 1e-15 * x.abs().max(y.abs()) || d <= f64::MIN_POSITIVE
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

fn same<T: serde::Serialize>(a: &T, b: &T) -> bool {
    same_json(
        &serde_json::to_value(a).unwrap(),
        &serde_json::to_value(b).unwrap(),
    )
}

fn check_ws_client(text: &str) {
    match parse_client(text) {
        Ok(m) => {
            let out = encode_client(&m);
            let again = parse_client(&out).unwrap();
            assert!(same(&again, &m), "{text:?} -> {out:?}");
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
        assert!(same(&again, &m), "{text:?} -> {out:?}");
    }
}

fn check_records(text: &str) {
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Ok(r) = serde_json::from_str::<GameRecord>(line) {
            let out = serde_json::to_string(&r).unwrap();
            let again: GameRecord = serde_json::from_str(&out).unwrap();
            assert!(same(&again, &r), "{line:?}");
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

/// Whether a setting's name holds an array subscript that the `config`
/// crate (0.14) cannot take: a negative index panics
/// (rust-cli/config-rs#619) and a large one allocates that many elements.
/// See `known_config_crate_panic` below and fuzz/README.md.
fn config_subscript_bug(name: &str) -> bool {
    name.split('[').skip(1).any(|s| {
        let index = s.split(']').next().unwrap_or("").trim();
        index
            .parse::<i64>()
            .is_ok_and(|i| !(0..=10_000).contains(&i))
    })
}

/// Whether a profile may hit [`config_subscript_bug`]: only top-level keys
/// and table names are read as paths, but every line's key (or the whole
/// line, a table header) is checked here, having no TOML parser; a key with
/// an escape (`\u005b` is a bracket) is skipped too.
fn profile_hits_config_bug(text: &str) -> bool {
    text.lines()
        .map(|l| l.split_once('=').map_or(l, |(key, _)| key))
        .any(|k| config_subscript_bug(k) || k.contains('\\'))
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
        prop_assume!(!profile_hits_config_bug(&text));
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
        prop_assume!(!env.keys().any(|k| config_subscript_bug(k)));
        if let Ok(s) = load_from(None, env.clone()) {
            prop_assert!(s.validate().is_ok());
            // The same settings, read again, are the same.
            prop_assert_eq!(load_from(None, env).unwrap(), s);
        }
    }
}

/// The `config` crate (0.14.1) panics on a negative array index in a
/// setting's name, from the environment or a profile's top-level key
/// (`LADDERBOT_X[-1]=1`, `"x[-1]" = 1`): rust-cli/config-rs#619. Ignored
/// until the dependency is fixed or ladderbot refuses such names itself;
/// `cargo test --test fuzz_props -- --ignored` shows it.
#[test]
#[ignore = "config 0.14 panics on a negative index: rust-cli/config-rs#619"]
fn known_config_crate_panic() {
    let env = HashMap::from([("LADDERBOT_X[-1]".to_string(), "1".to_string())]);
    assert!(load_from(None, env).is_err());
    assert!(load_from(Some("\"x[-1]\" = 1\n"), HashMap::new()).is_err());
}

/// serde_json, as ladderbot builds it (without its `float_roundtrip`
/// feature), reads some floats one unit in the last place off: a record's
/// `ms` written as 0.0013620000000000001 reads back as 0.001362. Ignored
/// until the feature is on; `cargo test --test fuzz_props -- --ignored`
/// shows it.
#[test]
#[ignore = "serde_json without float_roundtrip reads some floats 1 ULP off"]
fn known_float_round_trip() {
    let written: f64 = "0.0013620000000000001".parse().unwrap();
    assert_eq!(
        serde_json::to_string(&written).unwrap(),
        "0.0013620000000000001"
    );
    let read: f64 = serde_json::from_str("0.0013620000000000001").unwrap();
    assert_eq!(read, written);
}
