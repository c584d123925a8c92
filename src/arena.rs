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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::model::{Model, Outcome, Seat, Turn};
use crate::search::{panic_message, Agent, Deadline, Limits};

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

/// How the seats' actions are timed: the limits of an action, what it
/// took, and whether a seat thinks on the other's time. A closure
/// `FnMut(Seat, Instant) -> Limits` is one (fixed limits, no pondering).
pub trait Timing<G: Model> {
    /// The limits of `seat`'s action from `obs`, its clock starting at
    /// `start`.
    fn limits(&mut self, seat: Seat, obs: &G::Obs, start: Instant) -> Limits;
    /// `seat`'s action took `time` (a game clock books it).
    fn spent(&mut self, _seat: Seat, _time: Duration) {}
    /// Whether `seat` ponders: after each of its actions it searches the
    /// replies ([`Agent::ponder`]) while the other seat chooses one.
    fn ponders(&self, _seat: Seat) -> bool {
        false
    }
}

impl<G: Model, F: FnMut(Seat, Instant) -> Limits> Timing<G> for F {
    fn limits(&mut self, seat: Seat, _obs: &G::Obs, start: Instant) -> Limits {
        self(seat, start)
    }
}

/// A seat's last action, kept for it to ponder on while the other seat
/// chooses: its observation then, and the action.
struct Pondering<G: Model> {
    seat: Seat,
    obs: G::Obs,
    action: G::Action,
}

impl<G: Model> Clone for Pondering<G> {
    fn clone(&self) -> Self {
        Pondering {
            seat: self.seat,
            obs: self.obs.clone(),
            action: self.action,
        }
    }
}

/// The longest one ponder may run (the other seat's answer ends it first).
const PONDER_CAP: Duration = Duration::from_secs(60);

/// Asks `agents[seat]` for its action from `obs` under `lim`; while it
/// thinks, the seat of `ponder` (the other one) ponders on its last action
/// on a thread of its own, stopped as soon as the answer is in. A panic
/// while pondering is logged and changes nothing.
fn select_pondered<G: Model>(
    agents: &mut [&mut dyn Agent<G>; 2],
    seat: Seat,
    obs: &G::Obs,
    lim: &Limits,
    stop: &AtomicBool,
    ponder: Option<Pondering<G>>,
) -> std::thread::Result<crate::search::Decision<G::Action>> {
    let Some(p) = ponder.filter(|p| p.seat != seat) else {
        let agent = &mut agents[seat];
        return catch_unwind(AssertUnwindSafe(|| agent.select(obs, lim, stop)));
    };
    let [first, second] = agents;
    let (mover, ponderer) = if seat == 0 {
        (first, second)
    } else {
        (second, first)
    };
    let halt = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let flag = halt.clone();
        let thinker = scope.spawn(move || {
            let plim = Limits::deadline(Deadline::per_move(
                Instant::now(),
                PONDER_CAP,
                Duration::ZERO,
            ));
            let run = catch_unwind(AssertUnwindSafe(|| {
                ponderer.ponder(&p.obs, &p.action, &plim, &flag)
            }));
            if let Err(e) = run {
                tracing::warn!(seat = p.seat, panic = %panic_message(e.as_ref()), "an agent panicked while pondering");
            }
        });
        let d = catch_unwind(AssertUnwindSafe(|| mover.select(obs, lim, stop)));
        halt.store(true, Ordering::SeqCst);
        let _ = thinker.join();
        d
    })
}

/// Plays a game from `start` to its end: `agents[s]` sits in seat `s`;
/// `timing` gives the limits of each action (a closure `(seat, start) ->
/// Limits` will do) and says which seats ponder. Both agents are told a new
/// game starts first.
pub fn play_logged<G: Model>(
    start: G,
    agents: [&mut dyn Agent<G>; 2],
    timing: &mut dyn Timing<G>,
    stop: &AtomicBool,
) -> GameLog<G> {
    let mut agents = agents;
    let mut pos = start;
    let mut moves = Vec::new();
    let mut forfeits = Vec::new();
    let mut last: Option<Pondering<G>> = None;
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
        let ponder = last.take();
        for &seat in turn.movers() {
            let obs = pos.observe(seat);
            let t0 = Instant::now();
            let lim = timing.limits(seat, &obs, t0);
            // Only an alternating turn leaves the other seat free to ponder.
            let p = ponder.as_ref().filter(|_| turn.movers().len() == 1);
            let d = select_pondered(&mut agents, seat, &obs, &lim, stop, p.cloned());
            let time = t0.elapsed();
            timing.spent(seat, time);
            if turn.movers().len() == 1 && timing.ponders(seat) {
                if let Ok(d) = &d {
                    last = Some(Pondering {
                        seat,
                        obs: obs.clone(),
                        action: d.mv,
                    });
                }
            }
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
    let log = play_logged(start, agents, &mut |s: Seat, _: Instant| *limits[s], stop);
    match log.forfeits.first() {
        Some(f) => Err((f.seat, f.detail.clone())),
        None => Ok(log),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::{Board, Peg};
    use crate::search::{Decision, RandomAgent};
    use std::sync::Mutex;

    /// Seat 0 ponders (or not), seat 1 never; both play fixed limits.
    struct Ponders(bool);
    impl Timing<Board> for Ponders {
        fn limits(&mut self, _seat: Seat, _obs: &Board, _start: Instant) -> Limits {
            Limits::playouts(1)
        }
        fn ponders(&self, seat: Seat) -> bool {
            seat == 0 && self.0
        }
    }

    /// Random moves; each ponder is logged (the position, our move) and runs
    /// until its stop flag is raised, with `busy` up meanwhile.
    struct Ponderer {
        inner: RandomAgent,
        busy: Arc<AtomicBool>,
        log: Arc<Mutex<PonderLog>>,
    }
    impl Agent<Board> for Ponderer {
        fn name(&self) -> &str {
            "ponderer"
        }
        fn select(&mut self, obs: &Board, l: &Limits, stop: &AtomicBool) -> Decision<Peg> {
            Agent::<Board>::select(&mut self.inner, obs, l, stop)
        }
        fn ponders(&self) -> bool {
            true
        }
        fn ponder(&mut self, obs: &Board, ours: &Peg, _l: &Limits, stop: &Arc<AtomicBool>) -> u64 {
            self.busy.store(true, Ordering::SeqCst);
            let t0 = Instant::now();
            while !stop.load(Ordering::SeqCst) && t0.elapsed() < Duration::from_secs(10) {
                std::thread::yield_now();
            }
            let stopped = stop.load(Ordering::SeqCst);
            self.busy.store(false, Ordering::SeqCst);
            self.log.lock().unwrap().push((obs.ply(), *ours, stopped));
            1
        }
    }

    /// Random moves, each chosen only once the other seat is seen
    /// pondering (or after `patience`): whether it was, by move.
    struct Waiter {
        inner: RandomAgent,
        busy: Arc<AtomicBool>,
        patience: Duration,
        saw: Vec<bool>,
    }
    impl Agent<Board> for Waiter {
        fn name(&self) -> &str {
            "waiter"
        }
        fn select(&mut self, obs: &Board, l: &Limits, stop: &AtomicBool) -> Decision<Peg> {
            let t0 = Instant::now();
            while !self.busy.load(Ordering::SeqCst) && t0.elapsed() < self.patience {
                std::thread::yield_now();
            }
            self.saw.push(self.busy.load(Ordering::SeqCst));
            Agent::<Board>::select(&mut self.inner, obs, l, stop)
        }
    }

    /// Each ponder: the position's ply, our move, whether its flag stopped it.
    type PonderLog = Vec<(u32, Peg, bool)>;

    fn game(ponder: bool) -> (GameLog<Board>, PonderLog, Vec<bool>) {
        let busy = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut a = Ponderer {
            inner: RandomAgent::new(1),
            busy: busy.clone(),
            log: log.clone(),
        };
        let mut b = Waiter {
            inner: RandomAgent::new(2),
            busy,
            // Long enough for a ponder thread to start on a loaded machine.
            patience: Duration::from_millis(if ponder { 2000 } else { 5 }),
            saw: Vec::new(),
        };
        let played = play_logged(
            Board::default(),
            [&mut a, &mut b],
            &mut Ponders(ponder),
            &AtomicBool::new(false),
        );
        let log = log.lock().unwrap().clone();
        (played, log, b.saw)
    }

    #[test]
    fn a_seat_that_ponders_thinks_on_each_of_its_moves_while_the_other_chooses() {
        let (played, ponders, saw) = game(true);
        assert!(played.forfeits.is_empty());
        // Seat 1 chose every move while seat 0 was pondering.
        assert!(!saw.is_empty() && saw.iter().all(|&s| s), "{saw:?}");
        // One ponder per move of seat 0 that seat 1 answered, on the
        // position seat 0 answered and with the move it chose, each
        // stopped by the answer.
        let ours: Vec<(u32, Peg)> = played
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.seat == 0)
            .map(|(ply, m)| (ply as u32, m.action))
            .take(saw.len())
            .collect();
        let got: Vec<(u32, Peg)> = ponders.iter().map(|&(p, m, _)| (p, m)).collect();
        assert_eq!(got, ours);
        assert!(ponders.iter().all(|&(_, _, stopped)| stopped));
    }

    #[test]
    fn a_seat_that_does_not_ponder_never_does() {
        let (played, ponders, saw) = game(false);
        assert!(played.forfeits.is_empty());
        assert!(ponders.is_empty());
        assert!(saw.iter().all(|&s| !s));
    }
}
