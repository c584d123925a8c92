//! `best`'s tests: its moves, its time, its threads and its levers.

use super::config::HAND_WEIGHTS;
use super::eval::Weights;
use super::*;
use crate::games::AgentParams;

fn one_thread(params: &[(&str, u64)]) -> Best {
    let mut p = AgentParams::new();
    p.insert("threads".into(), 1.into());
    p.insert("tt_bits".into(), 14.into());
    for (k, v) in params {
        p.insert((*k).into(), (*v).into());
    }
    Best::new(BestConfig::from_params(&p).unwrap())
}

/// Issue 57: `best` declared the hand weights as its own although the
/// fitted evaluation never reads them. They are read exactly where the
/// declaration says: zeroed, they change what a fixed-node search finds
/// with `fitted=0` and nothing with the fitted evaluation.
#[test]
fn the_hand_weights_are_read_only_where_the_declaration_says() {
    use rand::{Rng, SeedableRng};
    let stop = AtomicBool::new(false);
    let decl = BestConfig::default().decl("best");
    let none = AgentParams::new();
    let mut hand = AgentParams::new();
    hand.insert("fitted".into(), 0.into());
    for w in HAND_WEIGHTS {
        assert!(decl.applies(w, &none).is_err(), "{w}");
        assert!(decl.applies(w, &hand).is_ok(), "{w}");
    }
    let zeroed = |fitted: u64| {
        let mut p: Vec<(&str, u64)> = HAND_WEIGHTS.iter().map(|w| (*w, 0)).collect();
        p.push(("fitted", fitted));
        p.push(("solve", 0));
        one_thread(&p)
    };
    let plain = |fitted: u64| one_thread(&[("fitted", fitted), ("solve", 0)]);
    let (mut same_fitted, mut differ_hand) = (true, 0);
    // Positions of 8 to 20 stones from a fixed sequence of drops.
    let mut rng = rand::rngs::SmallRng::seed_from_u64(57);
    for _ in 0..12 {
        let mut b = Board::new();
        for _ in 0..rng.gen_range(8..20) {
            let legal = b.legal_moves();
            b.play(legal[rng.gen_range(0..legal.len())]);
            if b.outcome().is_some() {
                break;
            }
        }
        if b.outcome().is_some() {
            continue;
        }
        let s = b.to_move();
        let (me, opp) = (b.stones(s), b.stones(1 - s));
        let RootMoves::Search(cells) = root_moves(me, opp) else {
            continue;
        };
        let find = |a: Best| a.search(me, opp, &cells, &Limits::playouts(3_000), &stop);
        let (f1, z1) = (find(plain(1)), find(zeroed(1)));
        same_fitted &= (f1.cell, f1.value) == (z1.cell, z1.value);
        let (f0, z0) = (find(plain(0)), find(zeroed(0)));
        differ_hand += usize::from((f0.cell, f0.value) != (z0.cell, z0.value));
    }
    assert!(same_fitted, "the fitted evaluation read a hand weight");
    assert!(differ_hand > 0, "the hand evaluation ignored its weights");
}

#[test]
fn parameters_are_validated() {
    assert!(BestConfig::from_params(&AgentParams::new()).is_ok());
    for bad in [
        r#"{"tt": 2}"#,
        r#"{"threads": 0}"#,
        r#"{"nope": 1}"#,
        r#"{"good": -1}"#,
    ] {
        let p: AgentParams = serde_json::from_str(bad).unwrap();
        assert!(BestConfig::from_params(&p).is_err(), "{bad}");
    }
}

#[test]
fn a_set_stop_flag_still_gives_a_searched_legal_move_within_one_poll() {
    // The deadline is polled every POLL_EVERY nodes: with the flag set
    // before the search, it ends at the first poll, after the first
    // iteration (which always completes) at the latest.
    let stop = AtomicBool::new(true);
    let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10)]).unwrap();
    let d = one_thread(&[]).select(&pos, &Limits::playouts(u64::MAX), &stop);
    assert!(pos.is_legal(d.mv));
    assert!(
        d.playouts <= SearchClock::POLL_EVERY,
        "{} nodes",
        d.playouts
    );
}

#[test]
fn an_expired_deadline_ends_every_thread_at_its_first_poll() {
    // Counted in nodes, not timed: with the deadline already passed,
    // the main thread finishes its first iteration (depth 1) and
    // starts no other; each helper (depth 2 or 3, more than
    // POLL_EVERY nodes from this position) stops at its first look at
    // the clock. A search that looked at the clock only between
    // iterations would run a helper's whole iteration.
    use crate::search::Deadline;
    use std::time::{Duration, Instant};
    let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10), Peg(6), Peg(9), Peg(15)]).unwrap();
    let stop = AtomicBool::new(false);
    for threads in [1, 2, 3] {
        let mut agent = Best::new(BestConfig {
            threads,
            tt_bits: 14,
            ..BestConfig::default()
        });
        let past = Deadline::per_move(Instant::now(), Duration::ZERO, Duration::ZERO);
        let d = agent.select(&pos, &Limits::deadline(past), &stop);
        assert!(pos.is_legal(d.mv));
        assert!(
            d.playouts <= threads as u64 * SearchClock::POLL_EVERY,
            "{threads} threads: {} nodes",
            d.playouts
        );
    }
}

#[test]
fn a_node_budget_is_kept_and_the_same_budget_gives_the_same_move() {
    let stop = AtomicBool::new(false);
    let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10), Peg(6)]).unwrap();
    let a = one_thread(&[]).select(&pos, &Limits::playouts(50_000), &stop);
    let b = one_thread(&[]).select(&pos, &Limits::playouts(50_000), &stop);
    assert_eq!(a, b);
    assert!(a.playouts <= 50_000, "{}", a.playouts);
    // With more threads configured, a node budget is still one thread's:
    // the same move, the same count.
    let two = Best::new(BestConfig {
        threads: 2,
        tt_bits: 14,
        ..BestConfig::default()
    })
    .select(&pos, &Limits::playouts(50_000), &stop);
    assert_eq!(two, a);
}

#[test]
fn ab_v1_keeps_issue_15s_search_and_best_adds_the_new_levers() {
    let v1 = BestConfig::v1();
    assert_eq!(v1.model, None);
    assert_eq!(v1.solve_empties, 0);
    assert!(!v1.predict_time && !v1.features.lmr && !v1.features.quiesce);
    assert_eq!(v1.weights, Weights::default());
    let (tt, ordering, pvs, extend) = (true, true, true, true);
    assert_eq!(
        (
            v1.features.tt,
            v1.features.ordering,
            v1.features.pvs,
            v1.features.extend_forced
        ),
        (tt, ordering, pvs, extend)
    );
    let best = BestConfig::default();
    assert!(best.model.is_some() && best.solve_empties > 0 && best.predict_time);
    assert!(best.features.lmr && best.features.quiesce);
    // `best` is `ab-v4` with the tuned numbers, `ab-v4` is `ab-v3` with
    // the shipped network; `net` 0 gives `ab-v3`, and `ab-v3` is
    // `ab-v2` with `fall_time`.
    assert!(best.net.is_some() && BestConfig::v3().net.is_none());
    let mut p = AgentParams::new();
    for (k, v) in [
        ("net_percent", 100),
        ("quiesce_plies", 8),
        ("solve", 26),
        ("solve_share", 60),
        ("fall", 30),
    ] {
        p.insert(k.into(), v.into());
    }
    assert_eq!(BestConfig::from_params(&p).unwrap(), BestConfig::v4());
    p.insert("net".into(), 0.into());
    assert_eq!(BestConfig::from_params(&p).unwrap(), BestConfig::v3());
    p.insert("fall_time".into(), 0.into());
    assert_eq!(BestConfig::from_params(&p).unwrap(), BestConfig::v2());
    // Every lever can be switched off by name, which gives `ab-v1`.
    let mut p = AgentParams::new();
    for k in [
        "net",
        "fitted",
        "solve",
        "timing",
        "fall_time",
        "lmr",
        "quiesce",
    ] {
        p.insert(k.into(), 0.into());
    }
    // and the tuned numbers back at their old values.
    for (k, v) in [
        ("solve_share", 60),
        ("fall", 30),
        ("net_percent", 100),
        ("quiesce_plies", 8),
    ] {
        p.insert(k.into(), v.into());
    }
    assert_eq!(BestConfig::from_params(&p).unwrap(), v1);
}

/// Issue 59's search numbers (`tune`'s parameters): each is read, and
/// at the edge where it turns its lever off the search is exactly the
/// search with the lever off (the same moves, the same node counts).
#[test]
fn the_search_numbers_are_read_and_their_edges_are_the_levers_off() {
    assert_eq!(
        BestConfig::from_params(&AgentParams::new()).unwrap(),
        BestConfig::default()
    );
    let stop = AtomicBool::new(false);
    let positions = [
        Board::from_pegs(&[Peg(0), Peg(5), Peg(10), Peg(6)]).unwrap(),
        Board::from_pegs(&[Peg(5), Peg(6), Peg(9), Peg(10), Peg(5), Peg(0), Peg(15)]).unwrap(),
        Board::from_pegs(&[
            Peg(3),
            Peg(3),
            Peg(12),
            Peg(6),
            Peg(9),
            Peg(6),
            Peg(5),
            Peg(10),
        ])
        .unwrap(),
    ];
    // To a fixed depth, so that the node counts show the tree searched.
    let limits = Limits::playouts(20_000_000);
    let run = |params: &[(&str, u64)]| -> Vec<Decision<Peg>> {
        let mut params = params.to_vec();
        params.push(("depth", 7));
        let mut agent = one_thread(&params);
        positions
            .iter()
            .map(|pos| {
                agent.clear_table();
                agent.select(pos, &limits, &stop)
            })
            .collect()
    };
    let plain = run(&[]);
    // The network at 0 percent is no network; its default is `best`.
    assert_eq!(run(&[("net_percent", 0)]), run(&[("net", 0)]));
    let net_percent = BestConfig::default().knobs.net_percent as u64;
    assert_eq!(run(&[("net_percent", net_percent)]), plain);
    assert_ne!(run(&[("net_percent", 300)]), plain);
    // Reductions from the 16th move (the last) are no reductions.
    assert_eq!(run(&[("lmr_from", 16)]), run(&[("lmr", 0)]));
    assert_ne!(run(&[("lmr_from", 1)]), plain);
    assert_ne!(run(&[("lmr_deep_from", 3)]), plain);
    assert_ne!(run(&[("quiesce_plies", 1)]), plain);
    // They are refused where they are not read (tune relies on it).
    let decl = BestConfig::v1().decl("ab-v1");
    for k in ["lmr_from", "lmr_deep_from", "quiesce_plies", "net_percent"] {
        assert!(decl.applies(k, &AgentParams::new()).is_err(), "{k}");
        assert!(BestConfig::default()
            .decl("best")
            .applies(k, &AgentParams::new())
            .is_ok());
    }
    let mut p = AgentParams::new();
    p.insert("solve_share".into(), 35.into());
    p.insert("fall".into(), 55.into());
    let c = BestConfig::from_params(&p).unwrap();
    assert_eq!((c.solve_share, c.fall), (35, 55));
}

#[test]
fn a_solvable_position_gets_the_solvers_exact_move() {
    use super::endgames::shipped_endgames;
    use super::plain::plain_solve;
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for e in shipped_endgames().iter().filter(|e| e.empties() <= 12) {
        let b = e.board();
        let s = b.to_move();
        let (me, opp) = (b.stones(s), b.stones(1 - s));
        let RootMoves::Search(cells) = root_moves(me, opp) else {
            continue;
        };
        let agent = one_thread(&[]);
        let f = agent.search(me, opp, &cells, &Limits::playouts(10_000_000), &stop);
        assert_eq!(f.value, e.value, "{}", e.to_line());
        assert_eq!(f.depth, e.empties() as i32, "solved, not searched");
        // The move keeps the value: the position after it, solved by
        // the plain search, is worth the same to the opponent.
        let mut n = 0;
        let after = -plain_solve(opp, me | 1 << f.cell, &mut n);
        // A win at ply p from the root is one ply nearer from the child.
        assert_eq!(after, e.value + e.value.signum(), "{}", e.to_line());
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn an_iteration_starts_only_when_it_is_likely_to_finish() {
    use crate::search::Deadline;
    use std::time::Instant;
    let stop = AtomicBool::new(false);
    let ms = Duration::from_millis;
    // Whether the next iteration starts: the last two iterations' times,
    // (iterations with the same best move, unclear).
    let starts = |clock: &mut SearchClock, times: (u64, u64), settled| {
        let (last, before) = (Some(ms(times.0)), Some(ms(times.1)));
        likely_to_finish(clock, 0, last, before, settled)
    };
    // A move that started 35 ms ago with an 80 ms budget.
    let start = Instant::now() - ms(35);
    let limits = Limits::deadline(Deadline::per_move(start, ms(80), ms(0)));
    let mut clock = SearchClock::new(&limits, &stop);
    // The last iteration took 10 ms, the one before 4: the next should
    // take 25 ms and end near 60 ms: it starts for an unclear move
    // (the whole budget) and a fairly clear one (0.9 of it).
    assert!(starts(&mut clock, (10, 4), (0, true)));
    assert!(starts(&mut clock, (10, 4), (1, false)));
    // The last took 20 ms after 5: the next would take 80 ms.
    assert!(!starts(&mut clock, (20, 5), (0, true)));
    // Early in the budget an iteration starts anyway.
    let early = Limits::deadline(Deadline::per_move(Instant::now(), ms(80), ms(0)));
    let mut clock = SearchClock::new(&early, &stop);
    assert!(starts(&mut clock, (20, 5), (0, true)));
    // A clear move stops sooner than an unclear one.
    let start = Instant::now() - ms(40);
    let limits = Limits::deadline(Deadline::per_move(start, ms(80), ms(0)));
    let mut clock = SearchClock::new(&limits, &stop);
    // The next would end near 60 ms: past a clear move's 56.
    assert!(starts(&mut clock, (10, 5), (0, true)));
    assert!(!starts(&mut clock, (10, 5), (5, false)));
    assert!(!starts(&mut clock, (60, 15), (0, true)));
    // Not past the limit.
    let over = Instant::now() - ms(90);
    let limits = Limits::deadline(Deadline::per_move(over, ms(80), ms(0)));
    let mut clock = SearchClock::new(&limits, &stop);
    assert!(!starts(&mut clock, (10, 5), (0, true)));
}

#[test]
fn it_plays_the_drop_that_makes_two_threats_at_once() {
    // Seat 0 holds cells 1, 2 (x-line y = 0) and 4, 8 (y-line x = 0):
    // dropping on cell 0 threatens cells 3 and 12 at once, a win in
    // three plies; seat 1 (5, 10, 7, 13) threatens nothing.
    let pos = Board::from_pegs(&[
        Peg(1),
        Peg(5),
        Peg(2),
        Peg(10),
        Peg(4),
        Peg(7),
        Peg(8),
        Peg(13),
    ])
    .unwrap();
    assert_eq!(pos.to_move(), 0);
    let stop = AtomicBool::new(false);
    let d = one_thread(&[("depth", 4)]).select(&pos, &Limits::playouts(u64::MAX), &stop);
    assert_eq!(d.mv, Peg(0));
    assert_eq!(d.value, Some(1.0));
}

#[test]
fn a_ponder_fills_the_table_the_next_move_searches_from() {
    let mut pos = Board::new();
    for c in [0u8, 15, 3, 12] {
        pos.play(Peg(c));
    }
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    // `ab-v4`'s numbers, which this position and budget were chosen
    // for: with the tuned ones both searches reach depth 7 here (at
    // 20,000 and at 40,000 nodes), so the depth says nothing of the table.
    let fixed = [
        ("tt_bits", 20),
        ("net_percent", 100),
        ("quiesce_plies", 8),
        ("solve", 26),
        ("solve_share", 60),
        ("fall", 30),
    ];
    let (mut pondered, mut plain) = (one_thread(&fixed), one_thread(&fixed));
    let budget = Limits::playouts(20_000);
    let ours = pondered.select(&pos, &budget, &stop).mv;
    assert_eq!(plain.select(&pos, &budget, &stop).mv, ours);
    let work = pondered.ponder(&pos, &ours, &Limits::playouts(400_000), &stop);
    assert!(work > 300_000, "{work}");
    // The opponent answers as a third program would.
    let mut next = pos;
    next.play(ours);
    next.play(one_thread(&fixed).select(&next, &budget, &stop).mv);
    let s = next.to_move();
    let (me, opp) = (next.stones(s), next.stones(1 - s));
    let RootMoves::Search(cells) = root_moves(me, opp) else {
        panic!("a position with a search");
    };
    let a = pondered.search(me, opp, &cells, &budget, &stop);
    let b = plain.search(me, opp, &cells, &budget, &stop);
    // The same nodes go deeper from the pondered table.
    assert!(a.depth > b.depth, "{a:?} vs {b:?}");
    // A raised flag ends a ponder at once.
    stop.store(true, Ordering::SeqCst);
    let start = std::time::Instant::now();
    pondered.ponder(&next, &Peg(a.cell & 15), &Limits::playouts(u64::MAX), &stop);
    assert!(start.elapsed() < Duration::from_millis(500));
}

/// A `select` keeps its best move so far ready for a client that cannot
/// wait: by its return the slot holds the move it answers; a ponder (the
/// slot closed) offers nothing.
#[test]
fn select_keeps_its_best_move_ready_and_a_ponder_does_not() {
    let stop = AtomicBool::new(false);
    let ready = Arc::new(Ready::default());
    let mut agent = one_thread(&[]);
    agent.keep_ready(ready.clone());
    for pegs in [
        &[Peg(0), Peg(5), Peg(10)][..],
        &[Peg(0), Peg(5), Peg(10), Peg(6), Peg(9), Peg(15)][..],
        &[Peg(3), Peg(3), Peg(12), Peg(1), Peg(7)][..],
    ] {
        let pos = Board::from_pegs(pegs).unwrap();
        ready.begin(1);
        let d = agent.select(&pos, &Limits::playouts(20_000), &stop);
        assert_eq!(ready.get(1), Some(d.mv), "{pegs:?}");
        ready.end();
        let pondered = Arc::new(AtomicBool::new(false));
        ready.begin(2);
        ready.end();
        agent.ponder(&pos, &d.mv, &Limits::playouts(5_000), &pondered);
        assert_eq!(ready.get(2), None, "a ponder offered a move");
    }
}
