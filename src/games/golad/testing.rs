//! Test helpers shared by the GOLAD agents' tests.

use std::sync::atomic::AtomicBool;

use super::moves::Move;
use super::GolState;
use crate::model::Outcome;
use crate::search::{Agent, Limits, Seat};

/// Plays the seeded game `seed` (`rounds` rounds) with `make()` on both
/// sides, checking every move is legal; then plays it again with fresh
/// agents and checks they choose the same moves. Returns the moves.
pub fn check_legal_and_repeatable<A: Agent<GolState>>(
    make: impl Fn() -> A,
    seed: u64,
    rounds: u32,
    limits: &Limits,
) -> Vec<Move> {
    let stop = AtomicBool::new(false);
    let mut a = make();
    let mut s = GolState::start(seed, rounds);
    let mut moves = Vec::new();
    while s.outcome().is_none() {
        let d = a.select(&s, limits, &stop);
        assert!(s.is_legal(&d.mv), "{:?}", d.mv);
        moves.push(d.mv);
        s.apply(d.mv);
    }
    // The same game again, move for move.
    let mut b = make();
    let mut t = GolState::start(seed, rounds);
    for m in &moves {
        assert_eq!(b.select(&t, limits, &stop).mv, *m);
        t.apply(*m);
    }
    moves
}

/// `games` games of `make()` against the seed's `ai3`, seats alternated
/// and start fields shared in pairs; asserts no game is lost and returns
/// the score.
pub fn score_against_ai3<A: Agent<GolState>>(
    make: impl Fn() -> A,
    games: u64,
    limits: &Limits,
) -> f64 {
    let stop = AtomicBool::new(false);
    let mut score = 0.0;
    for g in 0..games {
        let mut a = make();
        let mut b = super::agents::build("ai3", &Default::default(), g).unwrap();
        let mut s = GolState::start(g / 2, 100);
        let me = (g % 2) as Seat;
        while s.outcome().is_none() {
            let d = if s.to_move == me {
                a.select(&s, limits, &stop).mv
            } else {
                b.select(&s, limits, &stop).mv
            };
            s.apply(d);
        }
        score += s.outcome().unwrap().reward_for(me, 0.5);
        assert_ne!(s.outcome(), Some(Outcome::Win(1 - me)), "game {g}");
    }
    score
}
