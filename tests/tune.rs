//! `ladderbot tune`, the real binary: SPSA finds a known optimum (Score
//! Four's `pmc` plays a random move at the rate `blunder`, so 0 is best),
//! refuses ranges its agent does not declare, and a run killed with
//! SIGKILL resumes from its saved iteration to the very end an unbroken run
//! reaches (playout budgets); its profile plays a match.

mod common;

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(180);

fn state(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("tune.json")).unwrap()).unwrap()
}

fn tuned_value(v: &Value, name: &str) -> f64 {
    v["spsa"]["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap()["value"]
        .as_f64()
        .unwrap()
}

/// From a poor start (blunder 0.8: four moves in five random), 2000 games
/// (1000 iterations) at 100 playouts a move take `blunder` under 0.1, for
/// every seed tried. Measured: 20 seeds ended at 0 to 0.036.
#[test]
fn tune_recovers_a_known_optimum_from_a_poor_start() {
    for seed in ["1", "2", "3"] {
        let dir = tempfile::tempdir().unwrap();
        let o = run(
            &[
                "tune",
                "four3d",
                "--agent",
                "pmc",
                "--param",
                "blunder",
                "--set",
                "blunder=0.8",
                "--games",
                "2000",
                "--playouts",
                "100",
                "--r-end",
                "0.05",
                "--seed",
                seed,
                "--out",
                dir.path().to_str().unwrap(),
            ],
            &[],
            None,
            LIMIT,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let s = state(dir.path());
        assert_eq!(s["done"], 1000);
        assert_eq!(s["games"], 2000);
        let b = tuned_value(&s, "blunder");
        assert!(b < 0.1, "seed {seed}: blunder {b}");
        // The history holds every iteration, and the path went down.
        let h = s["history"].as_array().unwrap();
        assert_eq!(h.len(), 1000);
        let at = |k: usize| h[k]["values"][0].as_f64().unwrap();
        assert!(
            at(99) < 0.8 && at(999) <= at(99) + 0.1,
            "{} {}",
            at(99),
            at(999)
        );
        // The profile and the plot are written.
        let profile = std::fs::read_to_string(dir.path().join("tuned.toml")).unwrap();
        assert!(profile.contains("agent = \"pmc\""), "{profile}");
        assert!(profile.contains("blunder = "), "{profile}");
        let html = std::fs::read_to_string(dir.path().join("tune.html")).unwrap();
        assert!(html.contains("<h2>blunder</h2>") && html.contains("<polyline"));
        assert!(stdout(&o).contains("tune: 1000 of 1000 iterations, 2000 games: blunder="));
    }
}

#[test]
fn ranges_outside_the_declaration_are_refused() {
    for (param, says) in [
        ("blunder=0:2", "outside the declared range 0..=1"),
        ("nope", "has no such parameter"),
        ("blunder=0.5:0.2", "is empty"),
    ] {
        let o = run(
            &[
                "tune", "four3d", "--agent", "pmc", "--param", param, "--games", "10",
            ],
            &[],
            None,
            LIMIT,
        );
        assert_eq!(o.status.code(), Some(2), "{param}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{param}: {}", stderr(&o));
    }
    // `best`'s thread count is declared without a step: not tuned unless given one.
    let o = run(
        &[
            "tune", "four3d", "--agent", "best", "--param", "threads", "--games", "10",
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no tuning step"), "{}", stderr(&o));
    // `agents --params` shows the declarations the tuner reads.
    let o = run(&["agents", "four3d", "--params"], &[], None, LIMIT);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("blunder (float 0..=1, default 0.0, step 0.05)"),
        "{}",
        stdout(&o)
    );
}

fn tune_args(dir: &Path) -> Vec<String> {
    [
        "tune",
        "four3d",
        "--agent",
        "pmc",
        "--param",
        "blunder",
        "--param",
        "draw_reward=0:1:0.1",
        "--set",
        "blunder=0.5",
        "--games",
        "400",
        "--playouts",
        "3000",
        "--r-end",
        "0.05",
        "--seed",
        "9",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(std::iter::once(dir.display().to_string()))
    .collect()
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_end_of_an_unbroken_run() {
    let whole = tempfile::tempdir().unwrap();
    let args = tune_args(whole.path());
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&argv, &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let unbroken = state(whole.path());

    let broken = tempfile::tempdir().unwrap();
    let args = tune_args(broken.path());
    let mut child = bin()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once some iterations are saved, before the end.
    let t0 = Instant::now();
    let killed_at = loop {
        if let Ok(text) = std::fs::read_to_string(broken.path().join("tune.json")) {
            if let Ok(v) = serde_json::from_str::<Value>(&text) {
                if v["done"].as_u64() >= Some(10) {
                    child.kill().unwrap();
                    break v["done"].as_u64().unwrap();
                }
            }
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
        assert!(t0.elapsed() < LIMIT, "no progress");
        std::thread::sleep(Duration::from_millis(5));
    };
    child.wait().unwrap();
    let saved = state(broken.path());
    assert!(saved["done"].as_u64().unwrap() >= killed_at);
    assert!(
        saved["done"].as_u64().unwrap() < 200,
        "killed before the end"
    );
    let mut resume = args.clone();
    resume.push("--resume".into());
    let argv: Vec<&str> = resume.iter().map(String::as_str).collect();
    let o = run(&argv, &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("tune: resuming at iteration"),
        "{}",
        stderr(&o)
    );
    let resumed = state(broken.path());
    assert_eq!(resumed["done"], 200);
    assert_eq!(
        resumed["spsa"], unbroken["spsa"],
        "the same parameters at the end"
    );
    assert_eq!(resumed["history"], unbroken["history"], "the same path");

    // Without --resume an existing run is not overwritten.
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&argv, &[], None, LIMIT);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--resume continues that run"),
        "{}",
        stderr(&o)
    );

    // The tuned profile plays a match (the way to judge it: SPRT against the defaults).
    let profile = broken.path().join("tuned.toml");
    let o = run(
        &[
            "match",
            "four3d",
            "--a-profile",
            profile.to_str().unwrap(),
            "--b",
            "pmc",
            "--games",
            "2",
            "--playouts",
            "100",
            "--json",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let r = last_json(&o);
    assert!(r["a"].as_str().unwrap().starts_with("pmc(blunder="), "{r}");
}

/// Puyo's one-player measure (the solo chain) as the objective; a game
/// without one says so.
#[test]
fn the_solo_chain_can_be_the_objective() {
    let o = run(
        &[
            "tune",
            "puyo",
            "--agent",
            "potential",
            "--objective",
            "solo",
            "--param",
            "full_at",
            "--games",
            "20",
            "--seed",
            "1",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("tune: 10 of 10 iterations, 20 games: full_at="),
        "{}",
        stdout(&o)
    );
    let o = run(
        &[
            "tune",
            "four3d",
            "--agent",
            "pmc",
            "--objective",
            "solo",
            "--games",
            "20",
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("four3d: no one-player measure"),
        "{}",
        stderr(&o)
    );
}

/// Against a fixed opponent (`--vs`: each setting plays a pair against it,
/// four games an iteration) the parameter moves toward its optimum too.
#[test]
fn against_a_fixed_opponent_each_setting_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        &[
            "tune",
            "four3d",
            "--agent",
            "pmc",
            "--vs",
            "pmc",
            "--vs-param",
            "blunder=0.3",
            "--param",
            "blunder",
            "--set",
            "blunder=0.5",
            "--games",
            "400",
            "--playouts",
            "100",
            "--r-end",
            "0.2",
            "--seed",
            "3",
            "--out",
            dir.path().to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = state(dir.path());
    assert_eq!(
        (s["done"].as_u64(), s["games"].as_u64()),
        (Some(100), Some(400))
    );
    let b = tuned_value(&s, "blunder");
    assert!(b < 0.45, "blunder {b} did not move down from 0.5");
}

/// A population (`--vs` repeated): iteration k plays the k-th opponent in
/// turn. Against `random` both settings win every game and the iteration
/// says nothing; against `pmc` the better setting wins more: the parameter
/// still moves toward its optimum, and the run's key names the population.
#[test]
fn against_a_population_each_iteration_plays_the_next_opponent() {
    let dir = tempfile::tempdir().unwrap();
    let population = ["--vs", "pmc", "--vs", "random", "--r-end", "0.2"];
    let o = pmc_blunder(dir.path(), "800", "100", "3", &population);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = state(dir.path());
    assert_eq!(
        s["key"]["vs"],
        serde_json::json!(["pmc(playouts=100)", "random(playouts=100)"])
    );
    assert_eq!(s["done"].as_u64(), Some(200));
    // The iterations against random (the even ones) are mostly ties: both
    // settings win (measured, this seed: 9 of 100 not, against 31 of 100
    // against pmc).
    let history = s["history"].as_array().unwrap();
    let decided = |odd: u64| {
        history
            .iter()
            .filter(|h| h["k"].as_u64().unwrap() % 2 == odd)
            .filter(|h| h["result"].as_f64() != Some(0.0))
            .count()
    };
    assert!(2 * decided(0) < decided(1), "{} {}", decided(0), decided(1));
    let b = tuned_value(&s, "blunder");
    assert!(b < 0.45, "blunder {b} did not move down from 0.5");
}

/// `tune four3d --agent pmc --param blunder` from 0.5, `games` games at
/// `playouts` a move, seed `seed`, into `dir`, with `extra` arguments.
fn pmc_blunder(dir: &Path, games: &str, playouts: &str, seed: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "tune",
        "four3d",
        "--agent",
        "pmc",
        "--param",
        "blunder",
        "--set",
        "blunder=0.5",
        "--games",
        games,
        "--playouts",
        playouts,
        "--seed",
        seed,
        "--out",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args, &[], None, LIMIT)
}

fn tiny(dir: &Path, playouts: &str, extra: &[&str]) -> Output {
    pmc_blunder(dir, "20", playouts, "5", extra)
}

/// Issue 57: with OpenBench's 0.002 as the default, the README's 400-game
/// run ended where it started (`good` within 89.7-90.4 over 200
/// iterations). The default rate now follows the run's length: 200 games
/// without `--r-end` take `blunder` (best at 0) down from 0.5, and the end
/// says how far each parameter went.
#[test]
fn the_default_rate_moves_the_parameters_of_a_short_run() {
    for seed in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let o = pmc_blunder(dir.path(), "200", "100", seed, &[]);
        assert!(o.status.success(), "{}", stderr(&o));
        let s = state(dir.path());
        let b = tuned_value(&s, "blunder");
        assert!(
            b < 0.4,
            "seed {seed}: blunder {b} did not move down from 0.5"
        );
        assert!(
            stderr(&o).contains("r_end 0.2 (scaled to the run)"),
            "{}",
            stderr(&o)
        );
        let out = stdout(&o);
        let line = out
            .lines()
            .find(|l| l.starts_with("tune: blunder 0.5 -> "))
            .unwrap_or_else(|| panic!("no summary line: {out}"));
        assert!(line.contains(" steps; explored "), "{line}");
        assert!(line.ends_with(" of 0..=1)"), "{line}");
        // The profile ends its last line.
        let profile = std::fs::read_to_string(dir.path().join("tuned.toml")).unwrap();
        assert!(profile.ends_with('\n'), "{profile:?}");
    }
}

/// Issue 57: Score Four's `best` declared six hand weights that its fitted
/// evaluation never reads, and `tune --agent best` tuned them by default.
/// Now the default list leaves them out and asking for one is refused.
#[test]
fn a_parameter_the_agent_does_not_read_is_not_tuned() {
    let o = run(
        &[
            "tune", "four3d", "--agent", "best", "--param", "good", "--games", "10",
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("agent 'best' reads good only with fitted=0, no eval_file (here fitted=1)"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--set fitted=0"), "{}", stderr(&o));
    // With the hand evaluation chosen, the weight is tuned.
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        &[
            "tune",
            "four3d",
            "--agent",
            "best",
            "--games",
            "20",
            "--playouts",
            "200",
            "--set",
            "threads=1",
            "--out",
            dir.path().to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let names: Vec<String> = state(dir.path())["spsa"]["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    for hand in ["line1", "line2", "good", "bad", "dead", "stacked"] {
        assert!(!names.iter().any(|n| n == hand), "{hand} tuned: {names:?}");
    }
    assert!(names.iter().any(|n| n == "solve"), "{names:?}");
    let o = run(&["agents", "four3d", "--params"], &[], None, LIMIT);
    assert!(
        stdout(&o).contains(
            "good (int 0..=10000, default 90, step 10; read only with fitted=0, no eval_file)"
        ),
        "{}",
        stdout(&o)
    );
}

/// Issue 57: a resume with other settings said only "game, agent,
/// parameters, opponent, budget, games, gains or seed differ"; a finished
/// run resumed said "resuming at iteration 3 of 2" (of a run of 2).
#[test]
fn a_resume_names_what_differs_and_a_finished_run_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let o = tiny(dir.path(), "10", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tiny(dir.path(), "20", &["--resume"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--playouts: was 10, now 20"), "{err}");
    assert!(!err.contains("--r-end"), "{err}");
    let o = tiny(dir.path(), "10", &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("the run is finished (10 of 10 iterations, 20 games)"),
        "{err}"
    );
    assert!(!err.contains("iteration 11"), "{err}");
}

/// Issue 57: Ctrl-C on `tune` printed "error: stopped by SIGINT; records
/// flushed": it is no error and tune keeps no records.
#[test]
fn ctrl_c_stops_tune_quietly_with_its_state_saved() {
    let dir = tempfile::tempdir().unwrap();
    let child = bin()
        .args([
            "tune",
            "four3d",
            "--agent",
            "pmc",
            "--param",
            "blunder",
            "--games",
            "4000",
            "--playouts",
            "200",
            "--out",
            dir.path().to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !dir.path().join("tune.json").exists() {
        assert!(t0.elapsed() < LIMIT, "no iteration saved");
        std::thread::sleep(Duration::from_millis(20));
    }
    signal(&child, "-INT");
    let o = wait_with_limit(child, LIMIT);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.contains("error"), "{err}");
    assert!(!err.contains("records"), "{err}");
    assert!(
        err.contains("tune: stopped by SIGINT after iteration"),
        "{err}"
    );
    assert!(err.contains("--resume continues it"), "{err}");
}
