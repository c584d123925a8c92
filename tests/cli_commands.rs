//! The real binary: play against the house bot, configuration errors, the
//! match runner, the benchmark and logging.

mod common;

use std::time::Duration;

use common::*;

const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn play_with_no_server_plays_a_full_game_against_the_house_bot() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        &["play", "four3d", "--playouts", "300"],
        &[],
        Some(dir.path()),
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("summary: games 1,"), "{out}");
    // One result line per game, and nothing written to the work folder.
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        1,
        "{out}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn play_several_games_with_a_profile_and_env_override() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("p.toml");
    std::fs::write(
        &profile,
        "game = \"four3d\"\nagent = \"pmc\"\n[search]\nplayouts = 200\n[client]\ngames = 3\n",
    )
    .unwrap();
    let o = run(
        &["play", "--profile", profile.to_str().unwrap()],
        &[("LADDERBOT_AGENT", "random"), ("LADDERBOT_NAME", "envbot")],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        3,
        "{out}"
    );
    assert!(out.contains("envbot (random)"), "{out}");
    assert!(out.contains("summary: games 3,"), "{out}");
}

#[test]
fn every_four3d_agent_plays_through_the_server() {
    for agent in ["random", "pmc", "ucb1", "uct", "uct-es", "best"] {
        let o = run(
            &[
                "play",
                "four3d",
                "--agent",
                agent,
                "--playouts",
                "300",
                "--games",
                "2",
            ],
            &[],
            None,
            LIMIT,
        );
        assert!(o.status.success(), "{agent}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("summary: games 2,"),
            "{agent}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn bad_configuration_is_one_clear_line_and_exit_code_2() {
    type Case<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case> = vec![
        (
            vec!["play", "four3d"],
            vec![("LADDERBOT_SEARCH__PLAYOUTS", "lots")],
            "search.playouts",
        ),
        (
            vec!["play", "four3d"],
            vec![("LADDERBOT_AGENT", "nosuchagent")],
            "agent",
        ),
        (
            vec!["play", "four3d"],
            vec![("LADDERBOT_CLIENT__OPPONENT", "everyone")],
            "client.opponent",
        ),
        (
            vec!["play", "four3d", "--profile", "no-such-profile"],
            vec![],
            "no-such-profile",
        ),
        (
            vec!["serve"],
            vec![("LADDERBOT_SERVER__TIME_PER_MOVE_MS", "0")],
            "server.time_per_move_ms",
        ),
        (
            vec![
                "match", "four3d", "--a", "pmc", "--b", "nope", "--games", "2",
            ],
            vec![],
            "nope",
        ),
    ];
    for (args, envs, key) in cases {
        let o = run(&args, &envs, None, LIMIT);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?} {envs:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one line expected: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(key),
            "{args:?}: {err}"
        );
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn pmc_beats_random_at_1000_playouts() {
    let o = run(
        &[
            "match",
            "four3d",
            "--a",
            "pmc",
            "--b",
            "random",
            "--games",
            "200",
            "--playouts",
            "1000",
            "--jobs",
            "2",
            "--seed",
            "7",
            "--json",
        ],
        &[],
        None,
        Duration::from_secs(600),
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let r = last_json(&o);
    for key in [
        "game", "a", "b", "games", "wins", "draws", "losses", "score", "elo", "elo_lo", "elo_hi",
        "los",
    ] {
        assert!(r.get(key).is_some(), "missing {key} in {r}");
    }
    assert_eq!(r["games"], 200);
    let score = r["score"].as_f64().unwrap();
    assert!(score >= 0.95, "pmc scored only {score}: {r}");
    assert!(r["elo_lo"].as_f64().unwrap() > 0.0, "{r}");
}

#[test]
fn match_is_reproducible_with_a_seed_and_writes_records() {
    let dir = tempfile::tempdir().unwrap();
    let out1 = dir.path().join("a.jsonl");
    let go = |jobs: &str, out: &std::path::Path| {
        let o = run(
            &[
                "match",
                "four3d",
                "--a",
                "pmc",
                "--b",
                "random",
                "--games",
                "10",
                "--playouts",
                "50",
                "--seed",
                "42",
                "--jobs",
                jobs,
                "--json",
                "--out",
                out.to_str().unwrap(),
            ],
            &[],
            None,
            LIMIT,
        );
        assert!(o.status.success(), "stderr: {}", stderr(&o));
        last_json(&o)
    };
    let r1 = go("1", &out1);
    let r2 = go("2", &dir.path().join("b.jsonl"));
    for k in ["wins", "draws", "losses"] {
        assert_eq!(r1[k], r2[k], "{k}: {r1} vs {r2}");
    }
    let lines = std::fs::read_to_string(&out1).unwrap();
    assert_eq!(lines.lines().count(), 10);
}

#[test]
fn bench_prints_a_json_line_with_the_documented_shape() {
    let o = run(
        &[
            "bench",
            "four3d-playouts",
            "--json",
            "--seconds",
            "0.1",
            "--samples",
            "3",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let r = last_json(&o);
    assert_eq!(r["bench"], "four3d-playouts");
    let (a, b, ratio) = (
        r["per_s"].as_f64().unwrap(),
        r["reference_per_s"].as_f64().unwrap(),
        r["ratio"].as_f64().unwrap(),
    );
    // The shape of the result, not a speed claim (tests/claims.rs keeps the
    // ratio's floor): both sides measured, finite rates under what any
    // machine reaches, the ratio of the two medians, the samples asked for.
    assert_eq!(r["samples"], 3, "{r}");
    assert_eq!(r["unit"], "playouts/s", "{r}");
    for x in [a, b] {
        assert!(x.is_finite() && x > 0.0 && x < 1e9, "{r}");
    }
    assert!((ratio - a / b).abs() < 1e-6 * ratio.max(1.0), "{r}");
}

#[test]
fn json_logs_go_to_stderr_and_stdout_has_only_results() {
    let o = run(
        &[
            "--log-format",
            "json",
            "play",
            "four3d",
            "--playouts",
            "100",
        ],
        &[("RUST_LOG", "debug")],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.trim().is_empty(), "expected logs on stderr");
    for line in err.lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(v.get("level").is_some(), "{line}");
    }
    for line in stdout(&o).lines() {
        assert!(!line.contains("\"level\""), "a log line on stdout: {line}");
    }
}

#[test]
fn help_works_for_every_subcommand() {
    for sub in ["play", "serve", "match", "openings", "bench", "agents"] {
        let o = run(&[sub, "--help"], &[], None, LIMIT);
        assert!(o.status.success(), "{sub}: {}", stderr(&o));
        assert!(stdout(&o).contains("Usage"), "{sub}");
    }
    let o = run(&["agents"], &[], None, LIMIT);
    assert!(
        stdout(&o).contains(
            "four3d: random, pmc, ucb1, uct, uct-es, uct-tactics, ab-v1, ab-v2, ab-v3, ab-v4, best"
        ),
        "{}",
        stdout(&o)
    );
}

#[test]
fn floodit_plays_against_the_house_and_matches_on_a_chosen_board() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        &["play", "floodit", "--agent", "greedy"],
        &[],
        Some(dir.path()),
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    assert!(stdout(&o).contains("summary: games 1,"), "{}", stdout(&o));

    let out = dir.path().join("f.jsonl");
    let o = run(
        &[
            "match",
            "floodit",
            "--a",
            "mc",
            "--b",
            "greedy",
            "--games",
            "4",
            "--playouts",
            "100",
            "--size",
            "8x10",
            "--colours",
            "4",
            "--seed",
            "3",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    assert_eq!(last_json(&o)["games"], 4);
    let recs = ladderbot::records::read_records(&out).unwrap();
    assert_eq!(recs.len(), 4);
    let start_of = |n: usize| {
        recs.iter()
            .find(|r| r.id.ends_with(&format!("-g{n}")))
            .unwrap()
            .start
            .clone()
    };
    for n in 0..4 {
        let s = start_of(n);
        assert_eq!(
            (s["rows"].as_u64(), s["cols"].as_u64()),
            (Some(8), Some(10))
        );
        assert_eq!(s["colours"].as_u64(), Some(4));
    }
    // Each board is played twice, seats swapped; the next pair has another.
    assert_eq!(start_of(0), start_of(1));
    assert_eq!(start_of(2), start_of(3));
    assert_ne!(start_of(0), start_of(2));
    for r in &recs {
        let g: ladderbot::games::floodit::FloodIt =
            ladderbot::games::replay(&r.start, &r.moves).unwrap();
        use ladderbot::model::Model;
        assert_eq!(g.turn().outcome().map(|o| o.winner()), Some(r.winner));
    }

    for bad in [["--size", "1x40"], ["--colours", "9"]] {
        let mut args = vec![
            "match", "floodit", "--a", "mc", "--b", "greedy", "--games", "2",
        ];
        args.extend(bad);
        let o = run(&args, &[], None, LIMIT);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("match:"), "{}", stderr(&o));
    }
}

#[test]
fn puyo_plays_against_the_house_matches_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        &["play", "puyo", "--agent", "potential"],
        &[],
        Some(dir.path()),
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    assert!(stdout(&o).contains("summary: games 1,"), "{}", stdout(&o));

    let out = dir.path().join("p.jsonl");
    let o = run(
        &[
            "match",
            "puyo",
            "--a",
            "combined",
            "--b",
            "potential",
            "--games",
            "4",
            "--seed",
            "3",
            "--json",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    assert_eq!(last_json(&o)["games"], 4);
    let recs = ladderbot::records::read_records(&out).unwrap();
    assert_eq!(recs.len(), 4);
    let start_of = |n: usize| {
        recs.iter()
            .find(|r| r.id.ends_with(&format!("-g{n}")))
            .unwrap()
            .start
            .clone()
    };
    // Each pair sequence is played twice, seats swapped.
    assert_eq!(start_of(0), start_of(1));
    assert_ne!(start_of(0), start_of(2));
    for r in &recs {
        let g: ladderbot::games::puyo::PuyoDuel =
            ladderbot::games::replay(&r.start, &r.moves).unwrap();
        use ladderbot::model::Model;
        assert_eq!(g.turn().outcome().map(|o| o.winner()), Some(r.winner));
    }
}
