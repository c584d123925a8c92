//! `ladderbot-lab puyo`: template completion and solo runs, the real
//! binary.

use std::time::Duration;

use crate::common::*;

const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn reports_completion_and_solo_runs() {
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
                "puyo",
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
            "puyo",
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
                "puyo",
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
            "puyo",
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
        vec!["puyo", "completion", "--templates", "spiral"],
        vec!["puyo", "completion", "--depth", "4"],
        vec!["puyo", "completion", "--param", "choice=first"],
        vec!["puyo", "completion", "--param", "depth=2"],
        vec!["puyo", "completion", "--param", "kill=known"],
        vec![
            "puyo",
            "solo",
            "--agent",
            "potential",
            "--param",
            "kill=later",
        ],
        vec!["puyo", "solo", "--agent", "nobody"],
        vec!["puyo", "solo", "--agent", "best", "--param", "beam=0"],
        vec!["puyo", "solo", "--agent", "potential", "--jobs", "0"],
        vec![
            "puyo",
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
