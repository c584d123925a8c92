//! Cheap floors under the figures the README claims (issue 45), so that a
//! build that breaks one of them fails CI instead of only making a results
//! page wrong: the bench ratios (Flood-It playouts 48x, GOLAD step 172x), the
//! Puyo templates' time a move (at most 7.3 ms), Geister `best` keeping to a
//! short move budget, and `best`'s strength in every game it has one.
//!
//! Each floor is loose, far under its claim: a working build passes it
//! (the figures each test gives were measured on the shared 2-core machine
//! while other builds ran), a random mover or a broken implementation does
//! not. Matches use node or playout budgets where the agents have them, so
//! they are deterministic for their seed and load cannot change them. The
//! tests take one lock, so the timed ones never share the cores with
//! another test of this file; the file takes about 13-16 s in all (release,
//! measured with two busy loops beside it too).
//! Debug builds measure nothing worth a floor: these tests are ignored
//! there (`cargo test --release --test claims`).

mod common;

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use common::{last_json, run, stderr};
use ladderbot::records::read_records;

const LIMIT: Duration = Duration::from_secs(180);

/// One test of this file at a time.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs the binary with `args`; its last stdout line as JSON.
fn ladderbot(args: &[&str]) -> serde_json::Value {
    let o = run(args, &[], None, LIMIT);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    last_json(&o)
}

/// `ladderbot bench NAME --json`: the fast side's ratio to its reference,
/// measured in the same run (interleaved samples, medians), after checking
/// that both sides measured something.
fn bench_ratio(name: &str) -> f64 {
    bench_ratio_of(name, 3, "0.2")
}

/// [`bench_ratio`] over `samples` interleaved samples of `seconds` each:
/// more of them where a ratio is noisy (a median of three is one sample).
fn bench_ratio_of(name: &str, samples: usize, seconds: &str) -> f64 {
    let r = ladderbot(&[
        "bench",
        name,
        "--json",
        "--seconds",
        seconds,
        "--samples",
        &samples.to_string(),
    ]);
    assert_eq!(r["bench"], name, "{r}");
    let (fast, reference, ratio) = (
        r["per_s"].as_f64().unwrap(),
        r["reference_per_s"].as_f64().unwrap(),
        r["ratio"].as_f64().unwrap(),
    );
    assert!(fast > 0.0 && reference > 0.0 && ratio.is_finite(), "{r}");
    assert!((ratio - fast / reference).abs() <= 1e-9 * ratio, "{r}");
    eprintln!("{name}: {fast:.0} vs {reference:.0} a second, ratio {ratio:.1}");
    ratio
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a speed claim: cargo test --release")]
fn floodit_bitboard_playouts_keep_a_fifth_of_their_48x() {
    let _one = one_at_a_time();
    // README and docs/floodit-results.md: 48x the breadth-first reference.
    // Measured here 40-52x; the reference run on both sides would give 1x.
    let ratio = bench_ratio("floodit-playouts");
    assert!(
        ratio >= 48.0 / 5.0,
        "floodit-playouts: {ratio:.1}x, claimed 48x"
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a speed claim: cargo test --release")]
fn golad_step_keeps_a_fifth_of_its_172x() {
    let _one = one_at_a_time();
    // README and docs/golad-results.md: 172x the array reference (other runs
    // 209x, 223x). Measured here 177-203x.
    let ratio = bench_ratio("golad-step");
    assert!(
        ratio >= 172.0 / 5.0,
        "golad-step: {ratio:.1}x, claimed 172x"
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a speed claim: cargo test --release")]
fn golad_integer_flood_stays_faster_than_the_exact_one() {
    let _one = one_at_a_time();
    // docs/golad-results.md (issue 48): the integer flood 1.6x the exact
    // one's floods per second, the same fields, interleaved samples. The
    // floor is well below that and above 1: a flood that lost its table in
    // L1 or went back to swapping references runs at 0.6-0.7x.
    let ratio = bench_ratio("golad-flood");
    assert!(ratio >= 1.2, "golad-flood: {ratio:.2}x, claimed 1.6x");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a speed claim: cargo test --release")]
fn puyo_best_values_more_fields_than_beam_v1() {
    let _one = one_at_a_time();
    // docs/puyo-results.md (issue 49): best's two threads value about twice
    // beam-v1's fields per second at the same 35 ms budget. The floor is
    // well under that and above what one thread can do: a best that lost
    // its second thread (or stopped searching) is at 1.0x or below. Two
    // threads against one are the noisiest ratio here (1.2x to 2.0x in
    // medians of three samples on a quiet machine), so seven samples.
    let ratio = bench_ratio_of("puyo-best", 7, "0.3");
    assert!(ratio >= 1.3, "puyo-best: {ratio:.2}x, claimed about 2x");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a speed claim: cargo test --release")]
fn puyo_template_moves_stay_within_three_times_the_claimed_7_3_ms() {
    use ladderbot::games::puyo::board::{Board, Over};
    use ladderbot::games::puyo::choosers::template_planner;
    use ladderbot::games::puyo::solo::MAX_MOVES;
    // The lab's mark of a completed template (`ladderbot-lab puyo completion`).
    const COMPLETE_AT: f64 = 0.95;
    use ladderbot::games::puyo::planner::tidy_move;
    use ladderbot::games::puyo::rules::{pairs_from, VISIBLE_PAIRS};
    let _one = one_at_a_time();
    // README and docs/puyo-results.md: all 23 templates (`ladderbot-lab puyo
    // completion --templates all`, depth 3) take at most 7.3 ms a move. The
    // runs of `ladderbot-lab puyo completion` (the lab's completion_run) on
    // sequences 1-10; each move timed three times and its least time kept,
    // so that a try the scheduler interrupted does not count as the move's
    // own time. Measured here: at most 5-11 ms (the most of one try: 26 ms,
    // on busy cores).
    let mut params = ladderbot::games::AgentParams::new();
    params.insert("templates".into(), "all".into());
    params.insert("depth".into(), 3.into());
    let planner = template_planner(&params).unwrap();
    let (mut worst, mut moves, mut completed) = (Duration::ZERO, 0, 0);
    for seed in 1..=10 {
        let mut board = Board::empty_with(Over::Cell);
        for k in 0..MAX_MOVES {
            let pairs = pairs_from(seed, k, VISIBLE_PAIRS);
            let mut least = Duration::MAX;
            let mut at = None;
            for _ in 0..3 {
                let t0 = Instant::now();
                let chosen = planner.choose(&board, &pairs);
                least = least.min(t0.elapsed());
                at = Some(chosen.map_or_else(|| tidy_move(&board, pairs[0]), |c| c.at));
            }
            worst = worst.max(least);
            moves += 1;
            board.play(pairs[0], at.unwrap());
            if board.is_dead() {
                break;
            }
            if planner.best_match(&board) >= COMPLETE_AT {
                completed += 1;
                break;
            }
        }
    }
    eprintln!("puyo templates: {moves} moves, the longest {worst:?}");
    // The runs are the real ones: every sequence completes its template.
    assert_eq!(completed, 10, "{moves} moves");
    assert!(
        worst <= Duration::from_micros(3 * 7_300),
        "a template move took {worst:?} (claimed at most 7.3 ms)"
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a time claim: cargo test --release")]
fn geister_best_keeps_to_a_20_ms_move_budget() {
    let _one = one_at_a_time();
    // The match runner times every move (`move_ms` in the records). At
    // `--time-ms 20` best (two threads) aims at the hard limit 15 ms (the
    // runner's margin is a quarter of the move) and stops its threads
    // there. Measured over 4 games (105-160 moves of best): median 13-16
    // ms, at most 17-28 ms; with two busy loops on the 2 cores: median up
    // to 20 ms, at most 51 ms. A best that ignored the deadline would search
    // as with no limit: 107 ms a move on average, up to 296 ms; one that
    // slept 40 ms before searching gave a median of 40 ms.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("geister.jsonl");
    let j = ladderbot(&[
        "match",
        "geister",
        "--a",
        "best",
        "--b",
        "rule",
        "--time-ms",
        "20",
        "--games",
        "4",
        "--jobs",
        "1",
        "--seed",
        "1",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(j["games"], 4, "{j}");
    let mut ms: Vec<u64> = Vec::new();
    for r in read_records(&out).unwrap() {
        let seat = r.players.iter().position(|p| p.starts_with("A:")).unwrap();
        // Both setups first (plies 0 and 1), then the seats alternate.
        ms.extend(r.move_ms.iter().skip(2 + seat).step_by(2));
    }
    ms.sort_unstable();
    let (median, max) = (ms[ms.len() / 2], ms[ms.len() - 1]);
    eprintln!(
        "geister best at 20 ms: {} moves, median {median} ms, max {max} ms",
        ms.len()
    );
    assert!(ms.len() >= 40, "{ms:?}");
    assert!(
        median <= 20 + 5,
        "median {median} ms at a 20 ms budget: {ms:?}"
    );
    assert!(
        max <= 20 + 40,
        "a move of {max} ms at a 20 ms budget: {ms:?}"
    );
}

/// A 20-game match of `game`, side A `a` against `b` with `budget`
/// (e.g. `--playouts N`), seats alternated: side A's score.
fn score(game: &str, a: &str, b: &str, budget: &[&str]) -> f64 {
    let mut args = vec!["match", game, "--a", a, "--b", b, "--games", "20"];
    args.extend_from_slice(&["--jobs", "2", "--seed", "1", "--json"]);
    args.extend_from_slice(budget);
    let j = ladderbot(&args);
    assert_eq!(j["games"], 20, "{j}");
    let s = j["score"].as_f64().unwrap();
    eprintln!("{game}: {a} vs {b} {budget:?}: {s}");
    s
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "strength at a node budget: cargo test --release"
)]
fn four3d_best_is_not_weaker_than_ab_v1() {
    let _one = one_at_a_time();
    // docs/four3d-results.md: best 0.825 against ab-v1 at 100 ms a move.
    // At 20,000 nodes a move each, from the shipped suite in random order,
    // seeds 1-8 gave best 0.60-0.85 (seed 1: 0.60); random scores 0.0.
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/four3d.txt");
    let budget = ["--playouts", "20000", "--openings", suite];
    let budget = [&budget[..], &["--opening-order", "random"]].concat();
    let s = score("four3d", "best", "ab-v1", &budget);
    assert!(s >= 0.5, "best scored {s} against ab-v1 (claimed 0.825)");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "strength at a playout budget: cargo test --release"
)]
fn golad_best_beats_ai3() {
    let _one = one_at_a_time();
    // docs/golad-results.md: best 0.99 against ai3 (100 games through the
    // referee). At 200 playouts a move each, seeds 1-8 gave 0.75-0.925
    // (seed 1: 0.925); random scores 0.0.
    let s = score("golad", "best", "ai3", &["--playouts", "200"]);
    assert!(s >= 0.6, "best scored {s} against ai3 (claimed 0.99)");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "strength at a playout budget: cargo test --release"
)]
fn floodit_best_beats_mc() {
    let _one = one_at_a_time();
    // README: best 0.6775 against mc (400 games). At 200 playouts a move
    // each, seeds 1-8 gave 0.60-0.775 (seed 1: 0.65); greedy scores
    // 0.25-0.40 against mc (seeds 1-10), random 0.0.
    let s = score("floodit", "best", "mc", &["--playouts", "200"]);
    assert!(s >= 0.5, "best scored {s} against mc (claimed 0.6775)");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "strength at a time budget: cargo test --release"
)]
fn puyo_best_beats_combined() {
    let _one = one_at_a_time();
    // README: best 0.98 against combined at 50 ms a move. best plans by
    // time only; at 10 ms a move seeds 1-5 gave 0.95-1.0; random scores
    // 0.05-0.15. The floor is the target, 0.75.
    let s = score("puyo", "best", "combined", &["--time-ms", "10"]);
    assert!(s >= 0.75, "best scored {s} against combined (claimed 0.98)");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "strength at a playout budget: cargo test --release"
)]
fn geister_best_beats_rule() {
    let _one = one_at_a_time();
    // README: best 0.9775 against rule over a 200-game session at 100 ms.
    // At 1,000 playouts a move, fresh agents, seeds 1-8 gave 0.70-0.95
    // (seed 1: 0.70); random scores 0.0-0.45 against rule (seeds 1-20).
    let s = score("geister", "best", "rule", &["--playouts", "1000"]);
    assert!(s >= 0.6, "best scored {s} against rule (claimed 0.9775)");
}
