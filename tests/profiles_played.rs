//! What a user runs is what was measured: a side of `match` given a
//! profile plays the profile's whole budget (its `[search]`: time or bank,
//! playouts, margin, pondering) and says so in its header; `play GAME` with
//! no profile plays the game's shipped best profile; `agents` lists the
//! shipped profiles with their budgets and measured strength; pondering
//! asked of an agent that cannot ponder is a warning.

mod common;

use std::time::Duration;

use common::*;

const LIMIT: Duration = Duration::from_secs(120);

/// A profile file in `dir`.
fn profile(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// `ladderbot match ARGS --json`, which must succeed: its report.
fn match_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = run(&all, &[], None, LIMIT);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    last_json(&o)
}

#[test]
fn a_profile_side_plays_the_profiles_search_budget() {
    // Playouts make the budget exact: the report's work per move is the
    // profile's, where the generic budget is 10,000.
    let dir = tempfile::tempdir().unwrap();
    let p = profile(
        dir.path(),
        "pmc.toml",
        "game = \"four3d\"\nagent = \"pmc\"\n[search]\nplayouts = 77\nmargin_ms = 7\n",
    );
    let r = match_json(&[
        "four3d",
        "--a-profile",
        &p,
        "--b",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
    ]);
    assert_eq!(r["a_playouts_per_move"].as_f64(), Some(77.0), "{r}");
    assert_eq!(
        r["budgets"][0].as_str(),
        Some("77 playouts a move, margin 7 ms"),
        "{r}"
    );
    assert_eq!(r["budgets"][1].as_str(), Some("the agent's own budget"));
    // A flag for the side overrides the profile's value, and only it.
    let r = match_json(&[
        "four3d",
        "--a-profile",
        &p,
        "--b",
        "random",
        "--a-playouts",
        "33",
        "--games",
        "2",
    ]);
    assert_eq!(r["a_playouts_per_move"].as_f64(), Some(33.0), "{r}");
    assert_eq!(
        r["budgets"][0].as_str(),
        Some("33 playouts a move, margin 7 ms")
    );
}

#[test]
fn the_shipped_best_profile_plays_at_its_time_with_pondering_and_says_so() {
    let o = run(
        &[
            "match",
            "four3d",
            "--a-profile",
            "four3d-best",
            "--b-profile",
            "four3d-best",
            "--games",
            "2",
            "--jobs",
            "1",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "budgets: A 100 ms a move, margin 40 ms, pondering; B 100 ms a move, margin 40 ms, \
             pondering"
        ),
        "{out}"
    );
    assert!(
        out.contains("A = best(time_ms=100, margin_ms=40, ponder)"),
        "{out}"
    );
    // The time is spent: far more than the 2-4 ms of the generic budget.
    let ms: f64 = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("A: ")?
                .split(", ")
                .find_map(|f| f.strip_suffix(" ms/move"))?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no A ms/move in {out}"));
    assert!(ms > 10.0, "A took {ms} ms a move: {out}");
}

#[test]
fn a_bank_profile_plays_a_bank_in_a_match() {
    // A profile's own bank (`bank_ms`, `increment_ms`): each move a share of
    // what is left of it (GOLAD's bank profile: the Riddles.io engine's,
    // src/cli/match_cmd.rs's unit test).
    let dir = tempfile::tempdir().unwrap();
    let p = profile(
        dir.path(),
        "bank.toml",
        "game = \"four3d\"\nagent = \"pmc\"\n[search]\ntime_policy = \"bank\"\nbank_ms = 900\nincrement_ms = 10\nplayouts = 50\n",
    );
    let side_a = |more: &[&str]| {
        let mut args = vec!["four3d", "--a-profile", &p, "--b", "random", "--games", "2"];
        args.extend_from_slice(more);
        match_json(&args)["budgets"][0]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        side_a(&[]),
        "a bank of 900 ms + 10 ms a move, 50 playouts a move, margin 30 ms"
    );
    // A time flag for that side plays a fixed time instead.
    assert_eq!(
        side_a(&["--a-time-ms", "20"]),
        "20 ms a move, 50 playouts a move, margin 30 ms"
    );
    // A bank with nothing to take it from is refused, naming the profile.
    let q = profile(
        dir.path(),
        "server-bank.toml",
        "game = \"four3d\"\nagent = \"pmc\"\n[search]\ntime_policy = \"bank\"\n",
    );
    let o = run(
        &[
            "match",
            "four3d",
            "--a-profile",
            &q,
            "--b",
            "random",
            "--games",
            "2",
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("search.bank_ms"), "{}", stderr(&o));
}

#[test]
fn play_with_no_profile_plays_the_games_shipped_best_profile() {
    let o = run(&["play", "four3d", "--playouts", "300"], &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "plays the shipped profile four3d-best (best; 100 ms a move, 300 playouts a move, \
             margin 40 ms, pondering)"
        ),
        "{out}"
    );
    assert!(out.contains("summary: games 1,"), "{out}");
    // Another agent keeps the profile's budget; pondering it cannot do is
    // dropped without a word, as it was never asked for.
    let o = run(&["play", "four3d", "--agent", "random"], &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("(random; 100 ms a move, margin 40 ms)"),
        "{}",
        stdout(&o)
    );
    assert!(!stderr(&o).contains("ponder"), "{}", stderr(&o));
}

#[test]
fn pondering_asked_of_an_agent_that_cannot_ponder_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let p = profile(
        dir.path(),
        "r.toml",
        "game = \"four3d\"\nagent = \"random\"\n[search]\nponder = true\n",
    );
    for args in [
        vec!["play", "four3d", "--agent", "random", "--ponder", "on"],
        vec!["play", "--profile", p.as_str()],
    ] {
        let o = run(&args, &[], None, LIMIT);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("the four3d agent random does not think on the opponent's time"),
            "{args:?}: {err}"
        );
    }
    // An agent that ponders: no warning.
    let o = run(
        &[
            "play",
            "four3d",
            "--agent",
            "best",
            "--ponder",
            "on",
            "--playouts",
            "200",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("does not think"), "{}", stderr(&o));
}

#[test]
fn agents_lists_each_games_shipped_profiles_with_budget_and_strength() {
    let o = run(&["agents", "golad"], &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // The game's own profile first, with its parameters and budget, then
    // its measured strength.
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("golad-best:"))
        .unwrap_or_else(|| panic!("no golad-best in {out}"));
    assert_eq!(
        lines[at].trim(),
        "golad-best: best (pw_pairs=40, pw_reply=150, pw_root=300), 100 ms a move, margin 40 ms"
    );
    assert!(lines[at + 1].contains("eric-clinch/Golad"), "{out}");
    assert!(out.contains("golad-best-bank: best"), "{out}");
    assert!(out.contains("the platform's bank, margin 30 ms"), "{out}");
    // Every shipped profile of every game is listed.
    let all = stdout(&run(&["agents"], &[], None, LIMIT));
    for entry in
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bots")).unwrap()
    {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            all.contains(&format!("    {name}: ")),
            "{name} not in {all}"
        );
    }
}
