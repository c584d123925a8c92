//! Issue 83, items 4, 5 and 7: messages that say what is wrong, options
//! that no longer do nothing silently, and the smaller things (merge's
//! header, the referee's bot stderr; the lab's are in lab/tests/messages.rs).

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::process::{ok, refused, s};
use common::*;

const LIMIT: Duration = Duration::from_secs(120);

/// A temporary folder with a regular file `plain` in it.
fn scratch() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let plain = tmp.path().join("plain");
    std::fs::write(&plain, "").unwrap();
    (tmp, plain)
}

/// Item 4: every output under a regular file says so as `match`,
/// `analyze` and `report` do, naming the file in the way (they said `File
/// exists (os error 17)`).
#[test]
fn an_output_under_a_file_says_which_file_is_in_the_way() {
    let (_tmp, plain) = scratch();
    let under = |name: &str| plain.join("sub").join(name);
    let says = format!("{} is a file, not a folder", plain.display());
    let exe = env!("CARGO_BIN_EXE_ladderbot");
    let bot = format!("'{exe}' play golad --stdio --agent pass");
    let records = under("r.jsonl");
    refused(
        bin(),
        &["play", "four3d", "--records", s(&records)],
        &["client.records", s(&records), &says],
    );
    let tuned = under("tune");
    refused(
        bin(),
        &[
            "tune",
            "four3d",
            "--agent",
            "pmc",
            "--games",
            "20",
            "--playouts",
            "10",
            "--out",
            s(&tuned),
        ],
        &["tune --out", &says],
    );
    let games = under("g.jsonl");
    refused(
        bin(),
        &[
            "referee",
            "golad",
            "--bot",
            &bot,
            "--bot",
            &bot,
            "--games",
            "1",
            "--out",
            s(&games),
        ],
        &["referee", s(&games), &says],
    );
    let suite = under("o.txt");
    refused(
        bin(),
        &[
            "openings",
            "four3d",
            "--count",
            "1",
            "--judge-games",
            "0",
            "--out",
            s(&suite),
        ],
        &["openings", s(&suite), &says],
    );
}

/// Item 4: `play --records` into folders that do not exist makes them, as
/// lichess-bot makes its PGN folder, and says so (it did without a word).
#[test]
fn play_names_the_records_folder_it_makes() {
    let tmp = tempfile::tempdir().unwrap();
    let o = ok(
        bin(),
        &[
            "play",
            "four3d",
            "--records",
            "new/dir/games.jsonl",
            "--games",
            "1",
            "--playouts",
            "20",
        ],
        Some(tmp.path()),
    );
    let err = stderr(&o);
    assert!(
        err.lines()
            .any(|l| l.contains("WARN") && l.contains("created the folder new/dir")),
        "{err}"
    );
    let text = std::fs::read_to_string(tmp.path().join("new/dir/games.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
}

/// Item 5: `--increment-ms` adds to the bank the bot keeps for itself
/// (`--bank-ms`); alone it did nothing, silently. With a bank it is taken
/// (here the server is not there: worth retrying, 75).
#[test]
fn an_increment_without_a_bank_is_refused() {
    refused(
        bin(),
        &["play", "four3d", "--increment-ms", "100"],
        &["--increment-ms", "--bank-ms"],
    );
    let o = run(
        &[
            "play",
            "four3d",
            "--increment-ms",
            "100",
            "--bank-ms",
            "2000",
            "--server",
            "ws://127.0.0.1:9",
        ],
        &[("LADDERBOT_CLIENT__MAX_RECONNECTS", "0")],
        None,
        LIMIT,
    );
    assert_eq!(o.status.code(), Some(75), "{}", stderr(&o));
}

/// Item 5: `tune --games 3` played one iteration (two games rounded down)
/// and wrote a tuned profile from it. A run is whole iterations, at least
/// ten of them.
#[test]
fn tune_refuses_games_that_are_not_enough_whole_iterations() {
    fn tune(games: &str, vs: bool) -> Vec<&str> {
        let mut args = vec![
            "tune",
            "four3d",
            "--agent",
            "pmc",
            "--param",
            "blunder",
            "--playouts",
            "10",
            "--games",
            games,
        ];
        if vs {
            args.extend(["--vs", "random"]);
        }
        args
    }
    refused(bin(), &tune("3", false), &["--games 3", "multiple of 2"]);
    refused(bin(), &tune("18", false), &["at least 20 (10 iterations)"]);
    refused(bin(), &tune("20", true), &["multiple of 4, at least 40"]);
    let o = ok(bin(), &tune("20", false), None);
    assert!(
        stdout(&o).contains("tune: 10 of 10 iterations, 20 games"),
        "{}",
        stdout(&o)
    );
}

/// Item 7: `merge` said `1 jobs` of a match played on two threads: the
/// records do not say how many; the header counts the files merged.
#[test]
fn merge_counts_the_files_it_merged_not_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m.jsonl");
    ok(
        bin(),
        &[
            "match",
            "four3d",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "2",
            "--jobs",
            "2",
            "--seed",
            "1",
            "--out",
            s(&out),
        ],
        None,
    );
    let o = ok(bin(), &["merge", s(&out)], None);
    let text = stdout(&o);
    let head = text.lines().next().unwrap_or_default();
    assert!(
        head.ends_with("(seed 1, merged from 1 records file)"),
        "{head}"
    );
    assert!(!text.contains("jobs"), "{text}");
}

/// Item 7: the two bots' stderr went to one stream unlabelled; each line
/// now starts with its bot's tag.
#[test]
fn referee_tags_each_line_of_the_bots_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("bots.log");
    let exe = env!("CARGO_BIN_EXE_ladderbot");
    let bot = |word: &str| {
        format!("sh -c 'echo {word} >&2; exec \"{exe}\" play golad --stdio --agent pass'")
    };
    ok(
        bin(),
        &[
            "referee",
            "golad",
            "--bot",
            &bot("from-a"),
            "--bot",
            &bot("from-b"),
            "--games",
            "1",
            "--max-rounds",
            "2",
            "--seed",
            "1",
            "--bot-stderr",
            s(&log),
        ],
        None,
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"[bot A] from-a"), "{text}");
    assert!(lines.contains(&"[bot B] from-b"), "{text}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("[bot A] ") || l.starts_with("[bot B] ")),
        "{text}"
    );
}
