//! `ladderbot-lab four3d`: self-play, labels, the network and the offline
//! judge, the real binary.

use std::time::Duration;

use crate::common::*;

const LIMIT: Duration = Duration::from_secs(120);

/// Issue 59's lab end to end, small: self-play from the shipped openings,
/// labels by solves and deep searches, the network, and the offline
/// judgement of every evaluation with the first "lost" calls.
#[test]
fn labels_deep_trains_a_network_and_judges_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let openings = repo_file("openings/four3d.txt");
    let ok = |args: &[&str]| {
        let o = run(args, &[], Some(d), LIMIT);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        o
    };
    ok(&[
        "four3d",
        "selfplay",
        "--agent",
        "best",
        "--openings",
        &openings,
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
        "four3d",
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
                "four3d",
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
        "four3d",
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
        let base = ["four3d", "train-net", "--samples", "samples.jsonl"];
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
        "four3d",
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
        "four3d",
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
        (vec!["four3d", "judge"], "--samples"),
        (
            vec![
                "four3d",
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
                "four3d",
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
                "four3d",
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
                "four3d",
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
