//! Issue 83, items 4 and 7, for the lab: messages that say what is wrong
//! (a record of another game, a model file that is not one, an unknown
//! agent), and tables by default with the JSON behind `--json`.

use crate::common::process::{ok, refused, s};
use crate::common::*;
use ladderbot::games::GameKind;
use serde_json::Value;

/// Item 4: GOLAD's lab given Score Four records names the record and its
/// game (it said `invalid type: integer 12, expected a string`), and a
/// model file that is not one is named.
#[test]
fn golad_train_names_a_record_of_another_game_and_a_bad_model_file() {
    let tmp = tempfile::tempdir().unwrap();
    let four3d = tmp.path().join("four3d.jsonl");
    random_games(&four3d, 2, 3);
    refused(
        bin(),
        &["golad", "train", "--records", s(&four3d)],
        &[&format!("{}:1: a four3d game, not golad", four3d.display())],
    );
    let garbage = tmp.path().join("garbage.json");
    std::fs::write(&garbage, "garbage\n").unwrap();
    let records = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/golad-records/best-vs-ab-v2.jsonl"
    );
    refused(
        bin(),
        &[
            "golad",
            "train",
            "--records",
            records,
            "--model",
            s(&garbage),
        ],
        &[&format!("golad train: --model {}:", garbage.display())],
    );
}

/// Item 7: `puyo solo --agent nosuch` said "unknown puyo chooser" and
/// left out `random`: solo plays every Puyo agent and names them all (the
/// names `ladderbot agents puyo` lists).
#[test]
fn puyo_solo_plays_and_names_every_puyo_agent() {
    let err = refused(bin(), &["puyo", "solo", "--agent", "nosuch"], &["'nosuch'"]);
    let names = GameKind::Puyo.agent_names().join(", ");
    assert!(names.contains("random"), "{names}");
    assert!(err.contains(&names), "{names:?} not in {err}");
    let o = ok(
        bin(),
        &["puyo", "solo", "--agent", "random", "--sequences", "2"],
        None,
    );
    assert!(
        stdout(&o).starts_with("solo random: 2 sequences"),
        "{}",
        stdout(&o)
    );
}

/// Whether `text` is one JSON object.
fn is_json(text: &str) -> bool {
    serde_json::from_str::<Value>(text.trim()).is_ok_and(|v| v.is_object())
}

/// Item 7: the training commands of the labs printed raw JSON where their
/// siblings print tables: a table by default now, the JSON with --json.
#[test]
fn the_labs_training_commands_print_tables_and_json_behind_a_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let d = Some(tmp.path());
    let golad = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/golad-records/best-vs-ab-v2.jsonl"
    );
    ok(
        bin(),
        &[
            "four3d",
            "selfplay",
            "--games",
            "6",
            "--nodes",
            "200",
            "--out",
            "games.jsonl",
        ],
        d,
    );
    ok(
        bin(),
        &[
            "four3d",
            "label",
            "--games",
            "games.jsonl",
            "--solve-empties",
            "6",
            "--max-nodes",
            "2000",
            "--out",
            "samples.jsonl",
        ],
        d,
    );
    let commands: [(&[&str], &str, &str); 3] = [
        (
            &["golad", "train", "--records", golad],
            "learned model",
            "fitted_on",
        ),
        (
            &[
                "four3d",
                "train",
                "--samples",
                "samples.jsonl",
                "--holdout",
                "3",
            ],
            "sign right",
            "held_out_solved",
        ),
        (
            &[
                "four3d",
                "train-net",
                "--samples",
                "samples.jsonl",
                "--holdout",
                "3",
                "--epochs",
                "1",
                "--out",
                "net.json",
            ],
            "ab-v2+net",
            "held_out_log_loss",
        ),
    ];
    for (args, header, key) in commands {
        let table = stdout(&ok(bin(), args, d));
        assert!(!is_json(&table), "{args:?}: {table}");
        assert!(
            table.lines().any(|l| l.contains(header)),
            "{args:?}: {table}"
        );
        let mut with_json = args.to_vec();
        with_json.push("--json");
        let o = ok(bin(), &with_json, d);
        let v: Value = serde_json::from_str(stdout(&o).trim())
            .unwrap_or_else(|e| panic!("{with_json:?}: {e}: {}", stdout(&o)));
        assert!(!v[key].is_null(), "{with_json:?}: {v}");
    }
}
