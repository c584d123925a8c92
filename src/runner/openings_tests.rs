//! Matches from openings: each opening twice with the seats swapped,
//! records that name it and still replay, the report by opening and by
//! pairs; and generated suites.

use std::collections::{BTreeMap, HashSet};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::openings::{Book, OpeningOrder};
use super::report::pentanomial;
use super::suite::{self, SuiteConfig};
use super::{render_report, run_match, run_with, Playable, SideConfig};
use crate::games::four3d::Board;
use crate::games::geister::GeisterGame;
use crate::games::{replay, GameOptions, PlayableGame};
use crate::model::{Model, Outcome};
use crate::records::{read_records, EndReason, GameRecord};

use super::test_support::{config, index_of, quiet};

fn four3d_book(text: &str, order: OpeningOrder) -> Book {
    Book::parse::<Board>("suite.txt", text, &GameOptions::new(), order).unwrap()
}

fn sorted(path: &std::path::Path) -> Vec<GameRecord> {
    let mut v = read_records(path).unwrap();
    v.sort_by_key(index_of);
    v
}

#[test]
fn each_opening_is_played_twice_with_the_seats_swapped_and_cycles() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.jsonl");
    let book = four3d_book(
        "# three\n5 10 0\n\n6 9\n15 # one drop\n",
        OpeningOrder::Sequential,
    );
    let mut c = config(
        SideConfig::new("pmc").with_playouts(30),
        SideConfig::new("random"),
        10,
        2,
        4,
    );
    c.out = Some(out.clone());
    c.openings = Some(book.clone());
    let r = run_match::<Board>(&c, &quiet).unwrap();
    let recs = sorted(&out);
    assert_eq!(recs.len(), 10);
    for (i, rec) in recs.iter().enumerate() {
        let o = rec.opening.as_ref().expect("every game names its opening");
        // Pair k = games 2k and 2k+1 plays opening k mod 3.
        let want = &book.openings[(i / 2) % 3];
        assert_eq!(o, want, "game {i}");
        assert_eq!(rec.players[super::a_seat(i as u32)], "A:pmc");
        // The record holds the opening's moves first (no time spent on
        // them), then the players'; it replays from its start to its result.
        assert_eq!(&rec.moves[..o.moves.len()], &o.moves[..]);
        assert!(rec.move_ms[..o.moves.len()].iter().all(|&t| t == 0));
        assert_eq!(rec.moves.len(), rec.move_ms.len());
        assert!(rec.moves.len() > o.moves.len());
        assert_eq!(rec.start, Board::new().state_to_json());
        let end = replay::<Board>(&rec.start, &rec.moves).unwrap();
        assert_eq!(end.turn().outcome(), Some(rec.outcome()));
        assert_eq!(rec.reason, EndReason::Rules);
    }
    // The two games of a pair swap the seats.
    for k in 0..5 {
        let (x, y) = (&recs[2 * k], &recs[2 * k + 1]);
        assert_eq!(x.players, [y.players[1].clone(), y.players[0].clone()]);
    }
    // Opening moves are nobody's decisions: pmc spent exactly its budget on
    // every move it made.
    assert_eq!(r.a_playouts_per_move, 30.0);
    // The report lists every opening with its games, in suite order.
    let o = r.openings.as_ref().unwrap();
    assert_eq!((o.count, o.source.as_str()), (3, "suite.txt"));
    let games: Vec<(usize, usize, &str, Vec<u32>)> = o
        .played
        .iter()
        .map(|p| (p.index, p.line, p.moves.as_str(), p.games.clone()))
        .collect();
    assert_eq!(
        games,
        [
            (0, 2, "5 10 0", vec![0, 1, 6, 7]),
            (1, 4, "6 9", vec![2, 3, 8, 9]),
            (2, 5, "15", vec![4, 5]),
        ]
    );
    let (mut w, mut d, mut l) = (0, 0, 0);
    for p in &o.played {
        for (g, c) in p.games.iter().zip(p.results.chars()) {
            let rec = &recs[*g as usize];
            let a = super::a_seat(*g);
            let want = match rec.winner {
                None => 'D',
                Some(s) if s == a => 'W',
                Some(_) => 'L',
            };
            assert_eq!(c, want, "game {g}");
        }
        assert_eq!(
            p.pentanomial.iter().sum::<u32>() as usize,
            p.games.len() / 2
        );
        w += p.wins;
        d += p.draws;
        l += p.losses;
    }
    assert_eq!((w, d, l), (r.wins, r.draws, r.losses));
    assert_eq!(r.pentanomial.iter().sum::<u32>(), 5);
    let text = render_report(&r);
    assert!(
        text.contains("openings: 3 of 3 in suite.txt (sequential)"),
        "{text}"
    );
    assert!(
        text.contains("#1 (line 4) 6 9: games 2,3,8,9: A "),
        "{text}"
    );
    assert!(text.contains("Ptnml(0-2) ["), "{text}");
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["openings"]["played"][2]["moves"], "15");
    assert_eq!(v["openings"]["order"], "sequential");
    assert_eq!(v["pentanomial"].as_array().unwrap().len(), 5);
}

#[test]
fn a_random_order_depends_on_the_seed_only() {
    let text = "0\n1\n2\n3\n4\n5\n6\n7\n";
    let run = |jobs: usize, seed: u64| {
        let mut c = config(
            SideConfig::new("random"),
            SideConfig::new("random"),
            16,
            jobs,
            seed,
        );
        c.openings = Some(four3d_book(text, OpeningOrder::Random));
        let r = run_match::<Board>(&c, &quiet).unwrap();
        let o = r.openings.unwrap();
        assert_eq!(o.played.len(), 8, "every opening once in the first pass");
        let mut by_game = BTreeMap::new();
        for p in &o.played {
            assert_eq!(p.games.len(), 2);
            assert_eq!(p.games[1], p.games[0] + 1, "a pair plays one opening");
            by_game.insert(p.games[0], p.index);
        }
        by_game.into_values().collect::<Vec<_>>()
    };
    let a = run(1, 5);
    assert_eq!(run(2, 5), a);
    assert_ne!(a, (0..8).collect::<Vec<_>>());
    assert!((6..12).any(|s| run(1, s) != a));
}

#[test]
fn pentanomial_counts_complete_pairs_by_a_points() {
    use Outcome::{Draw, Win};
    // A's results, by game: A sits in seat 0 in even games, and `Win(0)`
    // here is a win for A (the runner keeps results from A's side).
    let results: BTreeMap<u32, Outcome> = [
        (0, Win(0)),
        (1, Win(1)), // win + loss: 1 point
        (2, Draw),
        (3, Draw), // two draws: 1 point
        (4, Win(0)),
        (5, Draw), // 1.5
        (6, Win(1)),
        (7, Win(1)), // 0
        (8, Win(0)),
        (9, Win(0)), // 2
        (10, Draw),
        (11, Win(1)), // 0.5
        (12, Win(0)), // its pair is not finished: not counted
        (15, Win(0)),
    ]
    .into_iter()
    .collect();
    assert_eq!(pentanomial(&results, |_| true), [1, 1, 2, 1, 1]);
    assert_eq!(pentanomial(&results, |p| p == 4), [0, 0, 0, 0, 1]);
}

/// A random legal opening of `plies` turns for `G` from its fixed start.
fn random_opening<G: PlayableGame>(plies: usize, seed: u64) -> String {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = G::start(0);
    let mut words = Vec::new();
    for _ in 0..plies {
        let mut joint = [None, None];
        for &s in pos.turn().movers() {
            let legal = pos.legal_actions(s);
            let a = legal[rng.gen_range(0..legal.len())];
            words.push(G::move_to_json(a).to_string());
            joint[s] = Some(a);
        }
        pos.apply(joint);
    }
    words.join(" ")
}

#[test]
fn geister_plays_from_setups_and_moves_in_the_opening() {
    // The secret simultaneous setup is the opening's first turn (seat 0's
    // setup, then seat 1's), then two moves; the agents take over from
    // their own views.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.jsonl");
    let text = format!(
        "{}\n{}\n",
        random_opening::<GeisterGame>(3, 1),
        random_opening::<GeisterGame>(3, 2)
    );
    assert!(text.starts_with("\"SET:"), "{text}");
    let book = Book::parse::<GeisterGame>(
        "g.txt",
        &text,
        &GameOptions::new(),
        OpeningOrder::Sequential,
    )
    .unwrap();
    for (a, b) in [("rule", "charge"), ("best", "random")] {
        let mut c = config(SideConfig::new(a), SideConfig::new(b), 4, 2, 3);
        c.a.playouts = Some(50);
        c.out = Some(out.clone());
        c.openings = Some(book.clone());
        let r = run_with(&Playable::<GeisterGame>::new(), &c, &quiet).unwrap();
        assert_eq!(r.games, 4);
    }
    let recs = read_records(&out).unwrap();
    assert_eq!(recs.len(), 8);
    for rec in &recs {
        assert_eq!(rec.reason, EndReason::Rules, "{:?}", rec.detail);
        let o = rec.opening.as_ref().unwrap();
        assert_eq!(o.moves.len(), 4, "two setups and two moves");
        assert_eq!(&rec.moves[..4], &o.moves[..]);
        let end = replay::<GeisterGame>(&rec.start, &rec.moves).unwrap();
        assert_eq!(end.turn().outcome(), Some(rec.outcome()));
    }
}

#[test]
fn a_suite_that_does_not_fit_the_game_or_the_transport_is_refused() {
    // A Score Four suite given to Geister: checked before any game.
    let mut c = config(
        SideConfig::new("random"),
        SideConfig::new("random"),
        2,
        1,
        1,
    );
    c.openings = Some(four3d_book("5 10\n", OpeningOrder::Sequential));
    let e = run_with(&Playable::<GeisterGame>::new(), &c, &quiet).unwrap_err();
    assert!(
        e.contains("opening 0 (line 1)") && e.contains("geister"),
        "{e}"
    );
    let e = run_with(&super::gat::OverGat::default(), &c, &quiet).unwrap_err();
    assert!(e.contains("openings cannot be played over GAT"), "{e}");
}

fn suite_cfg(count: usize, jobs: usize, seed: u64) -> SuiteConfig {
    SuiteConfig {
        plies: (2, 4),
        count,
        seed,
        judge: SideConfig::new("pmc").with_playouts(40),
        judge_games: 6,
        band: 0.2,
        jobs,
        max_tries: 1000,
        game_options: GameOptions::new(),
    }
}

#[test]
fn a_generated_suite_is_reproducible_balanced_and_without_repeats() {
    let s1 = suite::generate::<Board>(&suite_cfg(8, 1, 21), &|_| {}).unwrap();
    let s3 = suite::generate::<Board>(&suite_cfg(8, 3, 21), &|_| {}).unwrap();
    assert_eq!(s1, s3, "the same suite whatever the jobs");
    assert_eq!(s1.kept.len(), 8);
    assert_eq!(
        s1.tried,
        s1.ended + s1.duplicates + s1.unbalanced + s1.kept.len() as u64
    );
    let other = suite::generate::<Board>(&suite_cfg(8, 2, 22), &|_| {}).unwrap();
    assert_ne!(other.kept, s1.kept);
    let mut keys = HashSet::new();
    for k in &s1.kept {
        let score = k.score.unwrap();
        assert!((0.3..=0.7).contains(&score), "{score}");
        assert!((2..=4).contains(&k.moves.len()));
        let pos = crate::games::replay::<Board>(&Board::new().state_to_json(), &k.moves).unwrap();
        assert!(keys.insert(pos.position_key()), "a repeated position");
    }
    // The file it renders reads back as the same openings.
    let cfg = suite_cfg(8, 1, 21);
    let text = suite::render(&s1, &cfg, "ladderbot openings four3d ...");
    assert!(text.contains("# generated by: ladderbot openings four3d ..."));
    let book =
        Book::parse::<Board>("x", &text, &GameOptions::new(), OpeningOrder::Sequential).unwrap();
    let moves: Vec<&Vec<Value>> = book.openings.iter().map(|o| &o.moves).collect();
    let want: Vec<&Vec<Value>> = s1.kept.iter().map(|k| &k.moves).collect();
    assert_eq!(moves, want);
}

#[test]
fn a_narrow_band_rejects_and_a_tiny_space_runs_out() {
    // Band 0: only exactly even candidates (3 of 6 judge games) stay.
    let mut cfg = suite_cfg(3, 2, 5);
    cfg.band = 0.0;
    let s = suite::generate::<Board>(&cfg, &|_| {}).unwrap();
    assert!(s.kept.iter().all(|k| k.score == Some(0.5)));
    assert!(s.unbalanced > 0, "{s:?}");
    // One ply, unjudged: 16 drops, but only 3 up to symmetry (corner, edge,
    // centre), so a suite of 5 runs out of candidates.
    let mut cfg = suite_cfg(5, 2, 5);
    cfg.plies = (1, 1);
    cfg.judge_games = 0;
    cfg.max_tries = 200;
    let s = suite::generate::<Board>(&cfg, &|_| {}).unwrap();
    assert_eq!(s.kept.len(), 3);
    assert_eq!(s.tried, 200);
    assert_eq!(s.duplicates, 197);
    assert!(s.kept.iter().all(|k| k.score.is_none()));
    // Games with a seeded start, a time budget or a bad judge are refused.
    let mut cfg = suite_cfg(1, 1, 1);
    cfg.judge.time_ms = Some(5);
    assert!(suite::check::<Board>(&cfg)
        .unwrap_err()
        .contains("playout budget"));
    let mut cfg = suite_cfg(1, 1, 1);
    cfg.judge.agent = "nobody".into();
    assert!(suite::check::<Board>(&cfg).unwrap_err().contains("judge"));
    let e = suite::check::<crate::games::golad::GolState>(&suite_cfg(1, 1, 1)).unwrap_err();
    assert!(e.starts_with("golad: openings need a start"), "{e}");
}
