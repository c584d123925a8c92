//! `ladderbot analyze`, the real binary: the decisive move of a Score Four
//! game built on purpose (a side that was not lost plays a drop the solver
//! says loses), records of every game kind analysed, the analysis kept in
//! the output records and drawn by `report --html`, and a killed run
//! resumed.

mod common;

use std::path::Path;
use std::time::Duration;

use common::*;
use ladderbot::games::four3d::{Board, Peg};
use ladderbot::games::PlayableGame;
use ladderbot::records::{read_records, EndReason, GameRecord};
use ladderbot::search::Game;
use rand::{Rng, SeedableRng};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(180);
/// Solver nodes for each solve (the positions are 20 empty cells or fewer).
const NODES: u64 = 2_000_000;

/// The mover's exact value of each legal drop of `b` (1 won, 0.5 drawn, 0
/// lost), from the game's solver.
fn drop_values(b: &Board) -> Vec<(Peg, f64)> {
    let me = b.to_move();
    b.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut c = *b;
            c.play(mv);
            let v = match c.outcome() {
                Some(o) => o.reward_for(me, 0.5),
                None => 1.0 - c.solve_position(1 - me, NODES).expect("solved").0,
            };
            (mv, v)
        })
        .collect()
}

/// A game where a side that is not lost plays a drop that loses, then
/// loses: random drops up to ply 38 (where the solver takes over, 26 empty
/// cells), then the solver's best drops for both sides until a position
/// where the side to move is not lost and has a losing drop, which it
/// plays; the solver's drops after. No exact loss comes before it (the
/// solver's drops keep each side's value). Returns the record, the
/// blunder's ply and the drops that would have kept the position.
fn blunder_game() -> (GameRecord, usize, Vec<Value>) {
    const RANDOM: usize = 38;
    'seeds: for seed in 0.. {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut b = Board::new();
        let mut moves: Vec<Peg> = Vec::new();
        while moves.len() < RANDOM {
            let legal = b.legal_moves();
            let mv = legal[rng.gen_range(0..legal.len())];
            b.play(mv);
            moves.push(mv);
            if b.outcome().is_some() {
                continue 'seeds;
            }
        }
        let (ply, losing, keeping) = loop {
            let values = drop_values(&b);
            let best = values.iter().map(|v| v.1).fold(0.0, f64::max);
            let losing = values.iter().find(|v| v.1 == 0.0).map(|v| v.0);
            match losing {
                Some(l) if best >= 0.5 => {
                    let keeping: Vec<Value> = values
                        .iter()
                        .filter(|v| v.1 >= 0.5)
                        .map(|v| Board::move_to_json(v.0))
                        .collect();
                    break (moves.len(), l, keeping);
                }
                _ => {
                    let (_, mv) = b.solve_position(b.to_move(), NODES).expect("solved");
                    b.play(mv);
                    moves.push(mv);
                    if b.outcome().is_some() {
                        continue 'seeds;
                    }
                }
            }
        };
        let loser = b.to_move();
        b.play(losing);
        moves.push(losing);
        while b.outcome().is_none() {
            let (_, mv) = b.solve_position(b.to_move(), NODES).expect("solved");
            b.play(mv);
            moves.push(mv);
        }
        assert_eq!(b.outcome().unwrap().winner(), Some(1 - loser));
        let record = GameRecord {
            game: "four3d".into(),
            id: format!("blunder-{seed}"),
            players: ["first".into(), "second".into()],
            winner: Some(1 - loser),
            result: if loser == 1 { "1-0" } else { "0-1" }.into(),
            reason: EndReason::Rules,
            detail: None,
            start: Board::new().state_to_json(),
            moves: moves.iter().map(|&m| Board::move_to_json(m)).collect(),
            move_ms: vec![0; moves.len()],
            opening: None,
            ending: None,
            started_ms: 0,
            finished_ms: 0,
            match_tag: None,
            analysis: None,
        };
        return (record, ply, keeping);
    }
    unreachable!()
}

fn write_records(path: &Path, records: &[GameRecord]) {
    let text: String = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    std::fs::write(path, text).unwrap();
}

/// `analyze --json`'s per-game lines.
fn game_lines(out: &str) -> Vec<Value> {
    out.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "game")
        .collect()
}

#[test]
fn the_decisive_move_of_a_game_built_on_purpose_is_found_with_the_move_that_kept_it() {
    let (record, ply, keeping) = blunder_game();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.jsonl");
    write_records(&file, std::slice::from_ref(&record));
    let o = run(
        &[
            "analyze",
            file.to_str().unwrap(),
            "--playouts",
            "2000",
            "--json",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let games = game_lines(&stdout(&o));
    assert_eq!(games.len(), 1, "{}", stdout(&o));
    let d = &games[0]["decisive"];
    assert_eq!(d["ply"], ply, "{}", games[0]);
    assert_eq!(d["kind"], "lost", "{d}");
    assert_eq!(d["seat"], record.winner.map(|w| 1 - w).unwrap(), "{d}");
    assert_eq!(d["played"], record.moves[ply], "{d}");
    assert!(
        keeping.contains(&d["preferred"]),
        "{d}: not one of {keeping:?}"
    );
    assert!(
        d["before"].as_f64().unwrap() >= 0.5 && d["after"] == 0.0,
        "{d}"
    );
    assert_eq!(d["phase"], "endgame");
    // The summary counts it as settled by exact values.
    let summary = stdout(&o)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "summary")
        .unwrap();
    assert_eq!(summary["exact"], 1, "{summary}");
    assert_eq!(summary["by_phase"]["endgame"], 1, "{summary}");
}

#[test]
fn records_of_every_game_kind_are_analysed_kept_and_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut files = Vec::new();
    for (game, a, b) in [
        ("four3d", "best", "pmc"),
        ("golad", "best", "ai1"),
        ("geister", "best", "rule"),
        ("floodit", "best", "greedy"),
        ("puyo", "best", "combined"),
        ("goofspiel", "match", "random"),
    ] {
        let f = d.join(format!("{game}.jsonl"));
        let o = run(
            &[
                "match",
                game,
                "--a",
                a,
                "--b",
                b,
                "--games",
                "2",
                "--playouts",
                "200",
                "--seed",
                "5",
                "--out",
                f.to_str().unwrap(),
            ],
            &[],
            None,
            LIMIT,
        );
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        files.push(f);
    }
    let out = d.join("analysed.jsonl");
    let html = d.join("report.html");
    let mut args = vec!["analyze".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(
        [
            "--playouts",
            "200",
            "--rollouts",
            "8",
            "--jobs",
            "2",
            "--out",
            out.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&argv, &[], None, LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let analysed = read_records(&out).unwrap();
    assert_eq!(analysed.len(), 12, "{text}");
    for game in ["four3d", "golad", "geister", "floodit", "puyo", "goofspiel"] {
        assert!(
            text.contains(&format!("{game}: 2 games analysed")),
            "{game}: {text}"
        );
        for r in analysed.iter().filter(|r| r.game == game) {
            let a = r.analysis.as_ref().unwrap();
            let values = a["values"].as_array().unwrap();
            assert!(!values.is_empty(), "{game}: {a}");
            for v in values {
                for k in ["before", "after"] {
                    if let Some(x) = v[k].as_f64() {
                        assert!((0.0..=1.0).contains(&x), "{game}: {v}");
                    }
                }
            }
            // Geister's values come from each seat's own information.
            let info = if game == "geister" {
                "own_seat"
            } else {
                "full"
            };
            assert_eq!(a["information"], info, "{game}");
        }
    }
    // The page draws the value curve of each analysed game.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("valuePlot"), "the page's script draws values");
    assert!(
        page.contains("\"analysis\":{"),
        "the page's data holds the analyses"
    );
    // `report` draws the same from the output records.
    let html2 = d.join("report2.html");
    let o = run(
        &[
            "report",
            out.to_str().unwrap(),
            "--html",
            html2.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&html2)
        .unwrap()
        .contains("\"decisive\":{"));
}

#[test]
fn a_killed_run_resumes_with_the_games_not_yet_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let games = d.join("g.jsonl");
    let o = run(
        &[
            "match",
            "four3d",
            "--a",
            "ab-v1",
            "--b",
            "pmc",
            "--games",
            "6",
            "--playouts",
            "500",
            "--seed",
            "2",
            "--out",
            games.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = d.join("a.jsonl");
    let analyze = |extra: &[&str]| {
        let mut args = vec![
            "analyze",
            games.to_str().unwrap(),
            "--playouts",
            "300",
            // One search thread: `best` is then reproducible at a node budget.
            "--param",
            "threads=1",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        run(&args, &[], None, LIMIT)
    };
    let full = analyze(&[]);
    assert!(full.status.success(), "{}", stderr(&full));
    let all = read_records(&out).unwrap();
    assert_eq!(all.len(), 6);
    // A run killed after three games: its output holds those three.
    let text = std::fs::read_to_string(&out).unwrap();
    let kept: String = text.split_inclusive('\n').take(3).collect();
    std::fs::write(&out, kept).unwrap();
    // Without --resume an existing output is refused.
    let refused = analyze(&[]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let resumed = analyze(&["--resume"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains("3 games already in the output"),
        "{}",
        stderr(&resumed)
    );
    let again = read_records(&out).unwrap();
    assert_eq!(again.len(), 6);
    // The same analyses as the unbroken run (playout budgets: reproducible).
    for r in &all {
        let same = again.iter().find(|x| x.id == r.id).unwrap();
        assert_eq!(same.analysis, r.analysis, "{}", r.id);
    }
}

/// One numbering of moves (the ply: the index in the record's `moves`, from
/// 0) in each game's line, the JSON and the page; and the page carries the
/// summary the terminal shows.
#[test]
fn the_decisive_move_is_named_by_its_ply_everywhere_and_the_page_has_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let games = d.join("g.jsonl");
    random_games(&games, 2, 2);
    let (out, html) = (d.join("a.jsonl"), d.join("a.html"));
    let o = run(
        &[
            "analyze",
            games.to_str().unwrap(),
            "--playouts",
            "50",
            "--solve-nodes",
            "20000",
            "--rollouts",
            "4",
            "--out",
            out.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut named = 0;
    for r in read_records(&out).unwrap() {
        let d = &r.analysis.as_ref().unwrap()["decisive"];
        let Some(ply) = d["ply"].as_u64() else {
            continue;
        };
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{} (", r.id)))
            .unwrap_or_else(|| panic!("no line for {}: {text}", r.id));
        assert!(
            line.contains(&format!(": decisive move at ply {ply} by ")),
            "{line} / {d}"
        );
        assert_eq!(d["played"], r.moves[ply as usize], "{d}");
        named += 1;
    }
    assert!(named > 0, "{text}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("Decisive move at ply "), "the page's note");
    assert!(!page.contains("Decisive move: turn"));
    // The terminal's summary, in the page.
    let summary = text
        .lines()
        .find(|l| l.starts_with("four3d: 2 games analysed"))
        .unwrap_or_else(|| panic!("{text}"));
    let at = page
        .find("<pre class=\"analysis-summary\">")
        .expect("the page has the summary");
    let shown = &page[at..];
    assert!(shown.contains(summary), "{summary}");
    assert!(shown.contains("drops (moves by the value they cost"));
}
