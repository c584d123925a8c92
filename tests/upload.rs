//! The upload: a ladder starts the binary with no arguments. It must find
//! its profile (ladderbot.toml in its folder, or LADDERBOT_PROFILE) and
//! play the engine protocol on stdin/stdout.

mod common;

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use common::*;
use ladderbot::games::golad::Move;

const TRANSCRIPT: &str =
    include_str!("../protocol/riddles-golad/transcripts/golad_seed_abc_player0.txt");

/// The engine's lines of a recorded game, and how many moves it asked for.
fn engine_lines() -> (String, usize) {
    let lines: Vec<&str> = TRANSCRIPT
        .lines()
        .filter_map(|l| l.strip_prefix("< "))
        .collect();
    let asks = lines
        .iter()
        .filter(|l| l.starts_with("action move"))
        .count();
    (lines.join("\n") + "\n", asks)
}

fn play_transcript(dir: &std::path::Path, envs: &[(&str, &str)]) {
    let (input, asks) = engine_lines();
    let mut c = bin();
    c.current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in envs {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = wait_with_limit(child, Duration::from_secs(120));
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    let replies: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(
        replies.len(),
        asks,
        "one reply per `action move`: {replies:?}"
    );
    for r in &replies {
        assert!(Move::parse_reply(r).is_ok(), "not a move line: {r:?}");
    }
}

#[test]
fn no_arguments_run_the_ladderbot_toml_in_the_working_folder() {
    let dir = tempfile::tempdir().unwrap();
    let profile =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bots/golad-best.toml"))
            .unwrap();
    std::fs::write(dir.path().join("ladderbot.toml"), profile).unwrap();
    play_transcript(dir.path(), &[]);
}

#[test]
fn no_arguments_run_the_profile_named_by_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.toml");
    std::fs::write(
        &path,
        "game = \"golad\"\nagent = \"ai3\"\n[client]\nstdio = true\n",
    )
    .unwrap();
    play_transcript(dir.path(), &[("LADDERBOT_PROFILE", path.to_str().unwrap())]);
}

#[test]
fn no_arguments_and_no_profile_is_a_clear_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&[], &[], Some(dir.path()), Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ladderbot.toml"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}
