//! A simultaneous-move game through the one game loop and the match runner
//! (Goofspiel): both seats asked before either bid applies, neither seeing
//! the other's bid of the turn, each with limits from its own clock.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::arena;
use crate::games::goofspiel::{agents, GoofObs, Goofspiel};
use crate::games::{replay, PlayableGame};
use crate::model::{Model, Turn};
use crate::records::read_records;
use crate::runner::{run_with, Playable, SideConfig};
use crate::search::{Agent, Decision, Limits};

use crate::runner::test_support::{config, index_of, quiet};

/// Bids like `match` and keeps every observation it was given.
struct Spy {
    inner: Box<dyn Agent<Goofspiel>>,
    seen: Arc<Mutex<Vec<GoofObs>>>,
}

impl Agent<Goofspiel> for Spy {
    fn name(&self) -> &str {
        "spy"
    }
    fn select(&mut self, obs: &GoofObs, limits: &Limits, stop: &AtomicBool) -> Decision<u8> {
        self.seen.lock().unwrap().push(obs.clone());
        self.inner.select(obs, limits, stop)
    }
}

#[test]
fn both_seats_bid_before_either_bid_is_applied_or_seen() {
    let seen: [Arc<Mutex<Vec<GoofObs>>>; 2] = Default::default();
    let mut spies: Vec<Spy> = (0..2)
        .map(|s| Spy {
            inner: agents::build("match", &Default::default(), s as u64).unwrap(),
            seen: seen[s].clone(),
        })
        .collect();
    let (s0, s1) = spies.split_at_mut(1);
    let start = Goofspiel::start(3);
    assert_eq!(start.turn(), Turn::Both);
    let mut asked = Vec::new();
    let t0 = Instant::now();
    let log = arena::play_logged(
        start.clone(),
        [&mut s0[0], &mut s1[0]],
        &mut |seat, at| {
            asked.push((seat, at));
            Limits::playouts(1)
        },
        &AtomicBool::new(false),
    );
    assert!(log.forfeits.is_empty());
    assert_eq!(log.moves.len(), 26);
    // Every round asks seat 0 then seat 1, each with its own clock start.
    assert_eq!(asked.len(), 26);
    for (i, (seat, at)) in asked.iter().enumerate() {
        assert_eq!(*seat, i % 2);
        assert!(*at >= t0);
        if i % 2 == 1 {
            assert!(
                *at >= asked[i - 1].1,
                "seat 1's clock starts after seat 0 answered"
            );
        }
    }
    // Seat 1 decided each round without seat 0's bid of that round: both saw
    // the same history, one round per turn.
    let (a, b) = (seen[0].lock().unwrap(), seen[1].lock().unwrap());
    assert_eq!(a.len(), 13);
    for (round, (x, y)) in a.iter().zip(b.iter()).enumerate() {
        assert_eq!((x.round, y.round), (round, round));
        assert_eq!(x.history, y.history);
        assert_eq!(x.prize, y.prize);
        assert_eq!((x.seat, y.seat), (0, 1));
    }
    // The log replays.
    let moves: Vec<_> = log
        .moves
        .iter()
        .map(|m| Goofspiel::move_to_json(m.action))
        .collect();
    let end: Goofspiel = replay(&start.state_to_json(), &moves).unwrap();
    assert_eq!(end, log.end);
}

#[test]
fn goofspiel_matches_run_records_replay_and_do_not_depend_on_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let run = |jobs: usize| {
        let mut c = config(
            SideConfig::new("match"),
            SideConfig::new("random"),
            20,
            jobs,
            4,
        );
        let out = dir.path().join(format!("j{jobs}.jsonl"));
        c.out = Some(out.clone());
        let r = run_with(&Playable::<Goofspiel>::new(), &c, &quiet).unwrap();
        let mut recs = read_records(&out).unwrap();
        recs.sort_by_key(index_of);
        (r, recs)
    };
    let (r1, rec1) = run(1);
    let (r2, rec2) = run(2);
    assert_eq!(
        (r1.wins, r1.draws, r1.losses),
        (r2.wins, r2.draws, r2.losses)
    );
    assert_eq!(r1.game, "goofspiel");
    // `match` beats `random` clearly (0.98 over 400 games).
    assert!(r1.score > 0.75, "{}", crate::runner::render_report(&r1));
    for (x, y) in rec1.iter().zip(&rec2) {
        assert_eq!(x.moves, y.moves);
        assert_eq!(x.moves.len(), 26);
        let end: Goofspiel = replay(&x.start, &x.moves).unwrap();
        assert_eq!(end.turn().outcome().map(|o| o.winner()), Some(x.winner));
    }
    // Games 2k and 2k+1 deal the same prize order, seats swapped.
    assert_eq!(rec1[0].start, rec1[1].start);
    assert_ne!(rec1[0].start, rec1[2].start);
}
