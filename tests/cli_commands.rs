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

#[test]
fn puyo_lab_reports_completion_and_solo_runs() {
    // Template completion on pair sequences 1-20, near the figures of
    // docs/puyo-results.md (200 sequences: the domino 21.35 moves, the
    // stairs 24.83 with 8.5% over 30). Windows of 20 sequences (1, 21, ...,
    // 181, 1001, 1021) measured 19.85-22.30 (domino, 0-5% over 30) and
    // 22.55-26.40 (stairs, 0-20% over 30), every run completed; the bounds
    // leave about a move either side of those. Planning one pair ahead
    // (`--depth 1`) gives 33.1 and 49.4 (20 and 59 runs of 200 never
    // complete); a planner that never completes gives 100.
    for (templates, moves, over30) in [("domino", 19.0..=23.5, 0.1), ("stairs", 21.5..=27.5, 0.25)]
    {
        let o = run(
            &[
                "puyo-lab",
                "completion",
                "--templates",
                templates,
                "--sequences",
                "20",
                "--json",
            ],
            &[],
            None,
            LIMIT,
        );
        assert!(o.status.success(), "stderr: {}", stderr(&o));
        let j = last_json(&o);
        assert_eq!(j["sequences"], 20);
        assert_eq!(
            (&j["completed"], &j["failed"]),
            (&20.into(), &0.into()),
            "{j}"
        );
        let mean = j["mean_moves"].as_f64().unwrap();
        assert!(
            moves.contains(&mean),
            "{templates}: {mean} moves, not in {moves:?}: {j}"
        );
        let share = j["over30_share"].as_f64().unwrap();
        assert!(share <= over30, "{templates}: {share} over 30 moves: {j}");
    }

    let o = run(
        &[
            "puyo-lab",
            "solo",
            "--agent",
            "potential",
            "--sequences",
            "3",
            "--seed",
            "7",
            "--json",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let j = last_json(&o);
    for key in [
        "mean_chain",
        "mean_attack",
        "mean_score",
        "mean_fire_move",
        "mean_ms_per_move",
    ] {
        assert!(j[key].is_number(), "{key}: {j}");
    }
    // The run ends at the first chain of two links or more.
    let chain = j["mean_chain"].as_f64().unwrap();
    assert!(chain == 0.0 || chain >= 2.0 / 3.0, "{j}");

    // Runs under --short links are read for why (issue 49), the same
    // runs whether one or two threads play the sequences.
    let solo = |jobs: &str| {
        let o = run(
            &[
                "puyo-lab",
                "solo",
                "--agent",
                "potential",
                "--sequences",
                "6",
                "--seed",
                "11",
                "--short",
                "12",
                "--jobs",
                jobs,
                "--json",
            ],
            &[],
            None,
            LIMIT,
        );
        assert!(o.status.success(), "stderr: {}", stderr(&o));
        last_json(&o)
    };
    let (one, two) = (solo("1"), solo("2"));
    assert_eq!(one["chains"], two["chains"]);
    assert_eq!(one["failures"], two["failures"]);
    let chains: Vec<u64> = one["chains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    let short = chains.iter().filter(|&&c| c < 12).count() as u64;
    assert!(
        short > 0,
        "potential fires under 12 links on some of these: {one}"
    );
    let counted: u64 = one["failures"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(counted, short, "{one}");
    let failed = one["failed_runs"].as_array().unwrap();
    assert_eq!(failed.len() as u64, short);
    for f in failed {
        let d = &f["diagnosis"];
        assert!(d["chain"].as_u64().unwrap() < 12, "{f}");
        assert!(
            d["peak"].as_u64().unwrap() >= d["chain"].as_u64().unwrap().min(1),
            "{f}"
        );
        assert!(
            ["died", "broken", "tall", "full", "early"].contains(&d["failure"].as_str().unwrap()),
            "{f}"
        );
    }

    // The seed's alternative choice rule and pair weights are options.
    let o = run(
        &[
            "puyo-lab",
            "completion",
            "--templates",
            "stairs",
            "--sequences",
            "2",
            "--param",
            "choice=mean",
            "--param",
            "weights=mean",
            "--json",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let j = last_json(&o);
    assert_eq!(
        j["params"],
        serde_json::json!(["choice=mean", "weights=mean"])
    );
    // An 8-chain needs 32 puyos: 16 moves at least.
    assert!(j["mean_moves"].as_f64().unwrap() >= 16.0, "{j}");

    for bad in [
        vec!["puyo-lab", "completion", "--templates", "spiral"],
        vec!["puyo-lab", "completion", "--depth", "4"],
        vec!["puyo-lab", "completion", "--param", "choice=first"],
        vec!["puyo-lab", "completion", "--param", "depth=2"],
        vec!["puyo-lab", "completion", "--param", "kill=known"],
        vec![
            "puyo-lab",
            "solo",
            "--agent",
            "potential",
            "--param",
            "kill=later",
        ],
        vec!["puyo-lab", "solo", "--agent", "nobody"],
        vec!["puyo-lab", "solo", "--agent", "best", "--param", "beam=0"],
        vec!["puyo-lab", "solo", "--agent", "potential", "--jobs", "0"],
        vec![
            "puyo-lab",
            "solo",
            "--agent",
            "potential",
            "--jobs",
            "2",
            "--trace",
        ],
    ] {
        let o = run(&bad, &[], None, LIMIT);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
    }
}

/// Issue 59's lab end to end, small: self-play from the shipped openings,
/// labels by solves and deep searches, the network, and the offline
/// judgement of every evaluation with the first "lost" calls.
#[test]
fn four3d_lab_labels_deep_trains_a_network_and_judges_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let openings = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/four3d.txt");
    let ok = |args: &[&str]| {
        let o = run(args, &[], Some(d), LIMIT);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        o
    };
    ok(&[
        "four3d-lab",
        "selfplay",
        "--agent",
        "best",
        "--openings",
        openings.to_str().unwrap(),
        "--random-plies",
        "1",
        "--games",
        "6",
        "--nodes",
        "300",
        "--out",
        "games.jsonl",
    ]);
    let lines = |name: &str| -> Vec<serde_json::Value> {
        std::fs::read_to_string(d.join(name))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let games = lines("games.jsonl");
    assert_eq!(games.len(), 6);
    // Game 0 starts from the first opening of the suite (`11 11`).
    assert_eq!(games[0]["pegs"][0], 11);
    assert_eq!(games[0]["pegs"][1], 11);
    assert!(games.iter().all(|g| g.get("explored").is_none()));
    // Exploratory drops: each game records its plies, inside the span.
    let o = ok(&[
        "four3d-lab",
        "selfplay",
        "--agent",
        "best",
        "--random-plies",
        "1",
        "--explore",
        "2",
        "--explore-plies",
        "6-9",
        "--games",
        "3",
        "--nodes",
        "300",
        "--out",
        "explored.jsonl",
    ]);
    assert!(stderr(&o).contains("6 exploratory drops"), "{}", stderr(&o));
    for g in lines("explored.jsonl") {
        let plies: Vec<u64> = g["explored"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        assert_eq!(plies.len(), 2, "{g}");
        assert!(plies.iter().all(|p| (6..=9).contains(p)), "{g}");
    }
    for span in ["9-6", "6", "six-9"] {
        let o = run(
            &[
                "four3d-lab",
                "selfplay",
                "--explore-plies",
                span,
                "--out",
                "x.jsonl",
            ],
            &[],
            Some(d),
            LIMIT,
        );
        assert_eq!(o.status.code(), Some(2), "{span}: {}", stderr(&o));
        assert!(stderr(&o).contains("--explore-plies"), "{}", stderr(&o));
    }
    let o = ok(&[
        "four3d-lab",
        "label",
        "--games",
        "games.jsonl",
        "--solve-empties",
        "10",
        "--deep-nodes",
        "500",
        "--deep-from",
        "16",
        "--jobs",
        "2",
        "--out",
        "samples.jsonl",
    ]);
    assert!(stderr(&o).contains("by deep searches"), "{}", stderr(&o));
    let samples = lines("samples.jsonl");
    assert!(samples.iter().any(|s| s["deep"] == 500));
    assert!(samples.iter().all(|s| s["result"].is_number()));
    // Games 0 and 3 held out.
    let train_net = |more: &[&str]| {
        let base = ["four3d-lab", "train-net", "--samples", "samples.jsonl"];
        let args: Vec<&str> = base
            .iter()
            .chain(["--holdout", "3", "--json"].iter())
            .chain(more)
            .copied()
            .collect();
        ok(&args)
    };
    // With the peg inputs: the file says so, and `judge` below runs it in
    // its searches.
    train_net(&["--epochs", "2", "--inputs", "pegs", "--out", "net.json"]);
    let net: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("net.json")).unwrap()).unwrap();
    assert_eq!(net["inputs"], "pegs");
    assert_eq!(net["w1"].as_array().unwrap().len(), 257 + 108);
    // An early stop on validation games (odd indexes of those not held out:
    // games 1 and 5), the network of the epoch with the lowest loss there.
    let o = train_net(&["--epochs", "3", "--validate", "2", "--out", "net-v.json"]);
    let fig: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let in_games = |g: &[u64]| {
        samples
            .iter()
            .filter(|s| g.contains(&s["game"].as_u64().unwrap()))
            .count() as u64
    };
    assert_eq!(fig["validation"].as_u64(), Some(in_games(&[1, 5])), "{fig}");
    assert_eq!(fig["trained_on"].as_u64(), Some(in_games(&[2, 4])), "{fig}");
    let kept = fig["epoch_kept"].as_u64().unwrap();
    assert!((1..=3).contains(&kept), "{fig}");
    assert!(fig["validation_log_loss"].as_f64().unwrap() > 0.0, "{fig}");
    assert_eq!(
        stderr(&o).matches(", validation ").count(),
        3,
        "{}",
        stderr(&o)
    );
    // Too few games to validate on: a warning, and the last epoch's network.
    let o = train_net(&["--epochs", "2", "--validate", "50", "--out", "net-w.json"]);
    let fig: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (fig["validation"].as_u64(), fig["epoch_kept"].as_u64()),
        (Some(0), Some(2))
    );
    assert!(
        stderr(&o).contains("no game to validate on"),
        "{}",
        stderr(&o)
    );
    let o = ok(&[
        "four3d-lab",
        "judge",
        "--samples",
        "samples.jsonl",
        "--holdout",
        "3",
        "--net",
        "net.json",
        "--lost",
        "games.jsonl",
        "--lost-nodes",
        "300",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let held = &report["held-out games"];
    for eval in ["ab-v1", "ab-v2", "ab-v2+net"] {
        let rows = held[eval]
            .as_array()
            .unwrap_or_else(|| panic!("{eval}: {report}"));
        assert!(!rows.is_empty());
        let n: u64 = rows
            .iter()
            .map(|r| r["figures"]["positions"].as_u64().unwrap())
            .sum();
        // Games 0 and 3 are held out: all their positions, each in one row.
        let expect = samples
            .iter()
            .filter(|s| s["game"].as_u64().unwrap() % 3 == 0)
            .count();
        assert_eq!(n as usize, expect, "{eval}");
        for r in rows {
            let a = r["figures"]["accuracy"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&a), "{r}");
        }
    }
    let lost = &report["lost"]["searches"];
    assert!(lost["ab-v3"]["games"].as_u64().unwrap() > 0, "{report}");
    assert!(lost["ab-v3 with ab-v2+net"].is_object(), "{report}");
    // The text form names the bands and every evaluation.
    let o = ok(&[
        "four3d-lab",
        "judge",
        "--samples",
        "samples.jsonl",
        "--holdout",
        "3",
        "--bands",
        "0-27,28-63",
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("| 0-27 |") && text.contains("ab-v2: accuracy"),
        "{text}"
    );
    // Bad input: exit 2 with one line naming the fault.
    for (args, key) in [
        (vec!["four3d-lab", "judge"], "--samples"),
        (
            vec![
                "four3d-lab",
                "judge",
                "--samples",
                "samples.jsonl",
                "--bands",
                "9-3",
            ],
            "band",
        ),
        (
            vec![
                "four3d-lab",
                "judge",
                "--net",
                "games.jsonl",
                "--samples",
                "samples.jsonl",
            ],
            "network",
        ),
        (
            vec![
                "four3d-lab",
                "train-net",
                "--samples",
                "samples.jsonl",
                "--epochs",
                "0",
                "--out",
                "x.json",
            ],
            "--epochs",
        ),
        (
            vec![
                "four3d-lab",
                "train-net",
                "--samples",
                "samples.jsonl",
                "--validate",
                "1",
                "--out",
                "x.json",
            ],
            "--validate",
        ),
    ] {
        let o = run(&args, &[], Some(d), LIMIT);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(key), "{args:?}: {}", stderr(&o));
    }
}
