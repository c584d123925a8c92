//! The one in-process game loop, for every game of every kind: two agents
//! play one game of a [`Model`], each seeing only its own seat's
//! observation. A simultaneous turn asks both seats (each on its own clock)
//! before either action is applied. The match runner and the agents' tests
//! build on it.
//!
//! An agent that panics or returns an illegal action forfeits: the other
//! seat wins (both seats of a simultaneous turn at fault: a draw). This
//! function itself never panics.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::model::{Model, Outcome, Seat, Turn};
use crate::search::{panic_message, Agent, Limits};

/// A seat that broke the rules of play rather than lost by the game's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit<A> {
    pub seat: Seat,
    /// The agent panicked (`detail` is the panic's message); otherwise it
    /// chose `action`, which was illegal.
    pub panicked: bool,
    pub action: Option<A>,
    /// The number of actions applied before it.
    pub ply: usize,
    pub detail: String,
}

/// One action as played.
#[derive(Clone, Debug, PartialEq)]
pub struct Played<A> {
    pub seat: Seat,
    pub action: A,
    /// How long the agent took to choose it.
    pub time: Duration,
    /// The playouts (or iterations) it reported.
    pub playouts: u64,
}

/// A game played to its end, or to a forfeit.
#[derive(Clone, Debug)]
pub struct GameLog<G: Model> {
    /// Every legal action applied, in order (the two actions of a
    /// simultaneous turn seat 0 first).
    pub moves: Vec<Played<G::Action>>,
    /// The last position.
    pub end: G,
    /// The result: by the rules, or on a forfeit.
    pub outcome: Outcome,
    /// Who forfeited (empty when the rules ended the game).
    pub forfeits: Vec<Forfeit<G::Action>>,
}

/// Plays a game from `start` to its end: `agents[s]` sits in seat `s`;
/// `limits(seat, start)` gives the limits of an action whose clock starts at
/// `start`. Both agents are told a new game starts first.
pub fn play_logged<G: Model>(
    start: G,
    agents: [&mut dyn Agent<G>; 2],
    limits: &mut dyn FnMut(Seat, Instant) -> Limits,
    stop: &AtomicBool,
) -> GameLog<G> {
    let mut agents = agents;
    let mut pos = start;
    let mut moves = Vec::new();
    let mut forfeits = Vec::new();
    for (seat, agent) in agents.iter_mut().enumerate() {
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| agent.new_game())) {
            forfeits.push(Forfeit {
                seat,
                panicked: true,
                action: None,
                ply: 0,
                detail: panic_message(p.as_ref()),
            });
        }
    }
    loop {
        if !forfeits.is_empty() {
            break;
        }
        let turn = pos.turn();
        if let Turn::Over(outcome) = turn {
            for (seat, agent) in agents.iter_mut().enumerate() {
                let obs = pos.observe(seat);
                if let Err(p) = catch_unwind(AssertUnwindSafe(|| agent.game_over(&obs))) {
                    // The game is decided: the result stands.
                    tracing::warn!(
                        seat,
                        panic = %panic_message(p.as_ref()),
                        "an agent panicked when told the game was over"
                    );
                }
            }
            return GameLog {
                moves,
                end: pos,
                outcome,
                forfeits,
            };
        }
        let mut joint = [None, None];
        let mut chosen = Vec::with_capacity(2);
        for &seat in turn.movers() {
            let obs = pos.observe(seat);
            let t0 = Instant::now();
            let lim = limits(seat, t0);
            let agent = &mut agents[seat];
            let d = catch_unwind(AssertUnwindSafe(|| agent.select(&obs, &lim, stop)));
            let time = t0.elapsed();
            match d {
                Err(p) => forfeits.push(Forfeit {
                    seat,
                    panicked: true,
                    action: None,
                    ply: moves.len(),
                    detail: panic_message(p.as_ref()),
                }),
                Ok(d) if !pos.is_legal_action(seat, d.mv) => forfeits.push(Forfeit {
                    seat,
                    panicked: false,
                    action: Some(d.mv),
                    ply: moves.len(),
                    detail: format!("illegal {:?}", d.mv),
                }),
                Ok(d) => {
                    joint[seat] = Some(d.mv);
                    chosen.push(Played {
                        seat,
                        action: d.mv,
                        time,
                        playouts: d.playouts,
                    });
                }
            }
        }
        if forfeits.is_empty() {
            pos.apply(joint);
            moves.extend(chosen);
        }
    }
    let outcome = match forfeits.as_slice() {
        [one] => Outcome::Win(1 - one.seat),
        _ => Outcome::Draw,
    };
    GameLog {
        moves,
        end: pos,
        outcome,
        forfeits,
    }
}

/// Plays a whole game with fixed limits per seat; the forfeit, if any, as
/// an error naming the seat.
pub fn play_game<G: Model>(
    start: G,
    agents: [&mut dyn Agent<G>; 2],
    limits: [&Limits; 2],
    stop: &AtomicBool,
) -> Result<GameLog<G>, (Seat, String)> {
    let log = play_logged(start, agents, &mut |s, _| *limits[s], stop);
    match log.forfeits.first() {
        Some(f) => Err((f.seat, f.detail.clone())),
        None => Ok(log),
    }
}
