//! A match split into shards (`match --shard I/N`), played by separate
//! processes at once and joined by `ladderbot merge`, equals the match
//! played whole: game for game and in its report.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use common::*;
use ladderbot::records::{read_records, GameRecord};

const LIMIT: Duration = Duration::from_secs(240);

fn shipped_openings() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("openings/four3d.txt")
        .display()
        .to_string()
}

/// The match every test here plays: uct against pmc with playout budgets
/// (reproducible), from the shipped opening suite, random order.
fn match_args(games: u32, seed: u32) -> Vec<String> {
    [
        "match",
        "four3d",
        "--a",
        "uct",
        "--b",
        "pmc",
        "--a-playouts",
        "300",
        "--b-playouts",
        "200",
        "--games",
        &games.to_string(),
        "--seed",
        &seed.to_string(),
        "--openings",
        &shipped_openings(),
        "--opening-order",
        "random",
        "--jobs",
        "1",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn by_index(records: Vec<GameRecord>) -> BTreeMap<u32, GameRecord> {
    let mut m = BTreeMap::new();
    for r in records {
        let i = r
            .match_tag
            .as_ref()
            .expect("a match record has its tag")
            .index;
        assert!(m.insert(i, r).is_none(), "game {i} recorded twice");
    }
    m
}

/// Plays the match whole into `dir/whole.jsonl` and as `n` shard processes
/// running at once into `dir/shard-I.jsonl`; returns the whole match's
/// report and the shard files.
fn play_whole_and_shards(
    dir: &Path,
    games: u32,
    seed: u32,
    n: u32,
) -> (serde_json::Value, Vec<PathBuf>) {
    let whole = dir.join("whole.jsonl");
    let mut args = match_args(games, seed);
    args.extend(["--out".into(), whole.display().to_string()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&refs, &[], None, LIMIT);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = last_json(&out);

    let mut children = Vec::new();
    let mut files = Vec::new();
    for i in 0..n {
        let file = dir.join("shards").join(format!("shard-{i}.jsonl"));
        let mut args = match_args(games, seed);
        args.extend([
            "--shard".into(),
            format!("{i}/{n}"),
            "--out".into(),
            file.display().to_string(),
        ]);
        let child = bin()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn a shard");
        children.push(child);
        files.push(file);
    }
    for (i, c) in children.into_iter().enumerate() {
        let out = wait_with_limit(c, LIMIT);
        assert!(out.status.success(), "shard {i}: {}", stderr(&out));
        let shard = last_json(&out);
        // Each shard played exactly its pairs: a quarter of the games.
        let played = read_records(&files[i]).unwrap();
        assert_eq!(shard["games"].as_u64().unwrap() as usize, played.len());
        for r in &played {
            let t = r.match_tag.as_ref().unwrap();
            assert_eq!((t.index / 2) % n, i as u32, "game {} in shard {i}", t.index);
            assert_eq!(t.shard, Some([i as u32, n]));
        }
    }
    (report, files)
}

#[test]
fn four_shards_merged_equal_the_whole_match_game_for_game() {
    let dir = tempfile::tempdir().unwrap();
    let (games, n) = (24, 4);
    let (whole_report, files) = play_whole_and_shards(dir.path(), games, 11, n);

    // Game for game: the same start, opening, seats, moves and result.
    let whole = by_index(read_records(dir.path().join("whole.jsonl")).unwrap());
    let mut sharded = Vec::new();
    for f in &files {
        sharded.extend(read_records(f).unwrap());
    }
    let sharded = by_index(sharded);
    assert_eq!(whole.len(), games as usize);
    assert_eq!(
        whole.keys().collect::<Vec<_>>(),
        sharded.keys().collect::<Vec<_>>()
    );
    for (i, w) in &whole {
        let s = &sharded[i];
        assert_eq!(w.id, s.id, "game {i}");
        assert_eq!(w.players, s.players, "game {i}");
        assert_eq!(w.start, s.start, "game {i}");
        assert_eq!(w.opening, s.opening, "game {i}");
        assert_eq!(w.moves, s.moves, "game {i}");
        assert_eq!((w.winner, w.reason), (s.winner, s.reason), "game {i}");
        let (wt, st) = (w.match_tag.as_ref().unwrap(), s.match_tag.as_ref().unwrap());
        assert_eq!(wt.key, st.key);
        for k in 0..2 {
            assert_eq!(wt.sides[k].decisions, st.sides[k].decisions, "game {i}");
            assert_eq!(wt.sides[k].playouts, st.sides[k].playouts, "game {i}");
        }
    }
    // The games are not all alike (the comparison above is not vacuous).
    let distinct: std::collections::HashSet<_> = whole.values().map(|r| &r.moves).collect();
    assert!(distinct.len() > games as usize / 2);

    // The merged report equals the whole match's, but for time and jobs.
    let paths: Vec<String> = files
        .iter()
        .rev()
        .map(|p| p.display().to_string())
        .collect();
    let mut args = vec!["merge", "--json"];
    args.extend(paths.iter().map(String::as_str));
    let out = run(&args, &[], None, LIMIT);
    assert!(out.status.success(), "{}", stderr(&out));
    // Every game is there: no warning of a partial match.
    assert!(!stderr(&out).contains("partial"), "{}", stderr(&out));
    let merged = last_json(&out);
    for key in [
        "game",
        "a",
        "b",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "elo",
        "elo_lo",
        "elo_hi",
        "los",
        "pentanomial",
        "openings",
        "a_playouts_per_move",
        "b_playouts_per_move",
        "seed",
    ] {
        assert_eq!(merged[key], whole_report[key], "{key}");
    }
    assert_eq!(merged["games"], games);
    // A folder of shard files merges as the files do; what is not a
    // `.jsonl` file there (notes, a log, a folder) is not read.
    let shards = dir.path().join("shards");
    std::fs::write(shards.join("notes.txt"), "not a record\n").unwrap();
    std::fs::write(shards.join("match.log"), "INFO a log line\n").unwrap();
    std::fs::create_dir(shards.join("old.jsonl")).unwrap();
    let out = run(
        &[
            "merge",
            "--json",
            &dir.path().join("shards").display().to_string(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_json(&out)["wins"], whole_report["wins"]);
    assert_eq!(last_json(&out)["pentanomial"], whole_report["pentanomial"]);
    // The merged text report names the same totals.
    let text = run(
        &["merge", &paths[0], &paths[1], &paths[2], &paths[3]],
        &[],
        None,
        LIMIT,
    );
    assert!(stdout(&text).contains(&format!(
        "{} wins, {} draws, {} losses",
        whole_report["wins"], whole_report["draws"], whole_report["losses"]
    )));
}

#[test]
fn merge_refuses_another_match_a_repeated_game_and_missing_games() {
    let dir = tempfile::tempdir().unwrap();
    let (_, files) = play_whole_and_shards(dir.path(), 8, 5, 2);
    let f: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();

    // A game twice: the same shard given twice.
    let out = run(&["merge", &f[0], &f[1], &f[0]], &[], None, LIMIT);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("appears twice"), "{}", stderr(&out));
    // Both places are named, file and line.
    let twice = format!("{}:1 and {}:1", f[0], f[0]);
    assert!(stderr(&out).contains(&twice), "{}", stderr(&out));

    // A missing shard: refused, unless --partial.
    let out = run(&["merge", &f[0]], &[], None, LIMIT);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("4 of the match's 8 games are missing"),
        "{}",
        stderr(&out)
    );
    let out = run(&["merge", "--partial", "--json", &f[0]], &[], None, LIMIT);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_json(&out)["games"], 4);
    assert!(
        stderr(&out).contains("merging a partial match"),
        "{}",
        stderr(&out)
    );

    // Another match: the same agents with another seed.
    let other = dir.path().join("other.jsonl");
    let mut args = match_args(8, 6);
    args.extend([
        "--shard".into(),
        "1/2".into(),
        "--out".into(),
        other.display().to_string(),
    ]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(run(&refs, &[], None, LIMIT).status.success());
    let out = run(
        &["merge", &f[0], &other.display().to_string()],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("belongs to another match"),
        "{}",
        stderr(&out)
    );
    // The first record of the other match is named, file and line.
    let at = format!("{}:1: game", other.display());
    assert!(stderr(&out).contains(&at), "{}", stderr(&out));

    // A record not written by `match` (a server's), and a broken line.
    let foreign = dir.path().join("foreign.jsonl");
    let mut rec: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&files[0])
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    rec.as_object_mut().unwrap().remove("match");
    std::fs::write(&foreign, format!("{rec}\n")).unwrap();
    let out = run(&["merge", &foreign.display().to_string()], &[], None, LIMIT);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no `match` tag"), "{}", stderr(&out));
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(&broken, "{\"game\": \"four3d\", \"id\"\n").unwrap();
    let out = run(&["merge", &broken.display().to_string()], &[], None, LIMIT);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("broken.jsonl:1"), "{}", stderr(&out));

    // A shard without records is refused before it plays.
    let out = run(
        &[
            "match", "four3d", "--a", "random", "--b", "random", "--shard", "0/2",
        ],
        &[],
        None,
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(2));
    for bad in ["2/2", "x/2", "1", "0/0"] {
        let out = run(
            &[
                "match", "four3d", "--a", "random", "--b", "random", "--shard", bad, "--out",
                "x.jsonl",
            ],
            &[],
            None,
            LIMIT,
        );
        assert_eq!(out.status.code(), Some(2), "--shard {bad}");
    }
}
