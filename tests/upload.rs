//! The upload: a ladder starts the binary with no arguments. It must find
//! its profile (ladderbot.toml in its folder, or LADDERBOT_PROFILE) and
//! play the engine protocol on stdin/stdout.

mod common;

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use common::*;
use ladderbot::platforms::riddles::check;

const TRANSCRIPT: &str =
    include_str!("../protocol/riddles-golad/transcripts/golad_seed_abc_player0.txt");

/// Feeds the engine's lines of a recorded game at once (as a pipe does) to
/// the binary started with no arguments in `dir`, and checks the answers on
/// the rules: a legal move for every `action move`, no forced pass in the
/// bot's log, and no `pass` at all unless `allow_pass` (for an agent that
/// may choose one).
fn play_transcript(dir: &std::path::Path, envs: &[(&str, &str)], allow_pass: bool) {
    let engine = check::engine_lines(TRANSCRIPT);
    let input = engine.join("\n") + "\n";
    let log = dir.join("bot.stderr");
    let mut c = bin();
    c.current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap());
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
    let err = std::fs::read_to_string(&log).unwrap();
    assert!(out.status.success(), "stderr: {err}");
    let replies: Vec<String> = stdout(&out).lines().map(String::from).collect();
    let c = check::check_answers(&engine, &replies, Some(&err), allow_pass);
    assert_eq!(c.requests, 11);
    assert!(c.ok(), "{c:?}\nstderr: {err}");
}

#[test]
fn no_arguments_run_the_ladderbot_toml_in_the_working_folder() {
    let dir = tempfile::tempdir().unwrap();
    let profile =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bots/golad-best.toml"))
            .unwrap();
    std::fs::write(dir.path().join("ladderbot.toml"), profile).unwrap();
    play_transcript(dir.path(), &[], false);
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
    // ai3 (the seed's agent) may choose to pass.
    play_transcript(
        dir.path(),
        &[("LADDERBOT_PROFILE", path.to_str().unwrap())],
        true,
    );
}

#[test]
fn no_arguments_and_no_profile_is_a_clear_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&[], &[], Some(dir.path()), Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ladderbot.toml"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}
