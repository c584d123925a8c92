//! Plays one Geister game between two [`GeisterAgent`]s in-process: each
//! agent picks its own setup and then sees only its own [`View`]. Pure apart
//! from the agents' own clocks: the match runner and the tests build on it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::agents::GeisterAgent;
use super::rules::{Colour, Geister, Move, Place, Setup};
use crate::search::{panic_message, Limits, Outcome, Seat};

/// How a finished game ended, by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// A blue piece escaped through an exit.
    Escape,
    /// The loser's four blues were all captured.
    BluesCaptured,
    /// The winner's four reds were all captured (by the loser).
    RedsCaptured,
    /// 300 plies without a result.
    Draw,
}

impl Ending {
    pub const ALL: [Ending; 4] = [
        Ending::Escape,
        Ending::BluesCaptured,
        Ending::RedsCaptured,
        Ending::Draw,
    ];

    /// A short name for reports and records.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Escape => "escape",
            Ending::BluesCaptured => "blues captured",
            Ending::RedsCaptured => "reds captured",
            Ending::Draw => "draw",
        }
    }

    /// The name as a key for JSON (records, reports): `escape`,
    /// `blues_captured`, `reds_captured`, `draw`.
    pub fn key(self) -> &'static str {
        match self {
            Ending::Escape => "escape",
            Ending::BluesCaptured => "blues_captured",
            Ending::RedsCaptured => "reds_captured",
            Ending::Draw => "draw",
        }
    }
}

/// How `game` ended; `None` while it is still on.
pub fn ending(game: &Geister) -> Option<Ending> {
    match game.outcome()? {
        Outcome::Draw => Some(Ending::Draw),
        Outcome::Win(w) => {
            let l = 1 - w;
            Some(if game.places(w).contains(&Place::Escaped) {
                Ending::Escape
            } else if game.captured(l, Colour::Blue) >= 4 {
                Ending::BluesCaptured
            } else {
                Ending::RedsCaptured
            })
        }
    }
}

/// A game played to its end.
#[derive(Clone, Debug)]
pub struct Played {
    pub game: Geister,
    pub outcome: Outcome,
    pub ending: Ending,
    /// Every move, in order (seat `first` moved first).
    pub moves: Vec<Move>,
}

/// Plays a whole game: `agents[s]` sits in seat `s` with `limits[s]`;
/// `first` moves first. An agent's illegal move (or panic) is an error
/// naming the seat.
pub fn play_game(
    agents: [&mut dyn GeisterAgent; 2],
    limits: [&Limits; 2],
    first: Seat,
    stop: &AtomicBool,
) -> Result<Played, (Seat, String)> {
    let log = play_logged(agents, &mut |s, _| *limits[s], first, stop);
    if let Some(f) = log.forfeit {
        return Err((f.seat, f.detail));
    }
    match (log.game, log.ending) {
        (Some(game), Some(ending)) => Ok(Played {
            game,
            outcome: log.outcome,
            ending,
            moves: log.moves,
        }),
        _ => unreachable!("a game without a forfeit ends by the rules"),
    }
}

/// A seat that lost by breaking the rules of play rather than the game's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub seat: Seat,
    /// The agent panicked (rather than playing an illegal move).
    pub panicked: bool,
    /// e.g. `played the illegal move A,S at ply 3` or `panicked: ...`.
    pub detail: String,
}

/// A game played to its end or to a forfeit, with what a match runner
/// records: the setups, every move and how long each took.
#[derive(Clone, Debug)]
pub struct GameLog {
    /// The seat that moved first.
    pub first: Seat,
    /// Each seat's setup (`None` if its agent panicked choosing it).
    pub setups: [Option<Setup>; 2],
    /// Every legal move played, in order.
    pub moves: Vec<Move>,
    /// How long each move of `moves` took to choose.
    pub move_time: Vec<Duration>,
    /// The playouts behind each move of `moves` (see
    /// [`GeisterAgent::last_playouts`]).
    pub move_playouts: Vec<u64>,
    /// The last position (`None` if a setup failed).
    pub game: Option<Geister>,
    /// The result: by the rules, or a win for the other seat on a forfeit.
    pub outcome: Outcome,
    /// How the rules ended the game (`None` on a forfeit).
    pub ending: Option<Ending>,
    pub forfeit: Option<Forfeit>,
}

/// Plays a whole game: `agents[s]` sits in seat `s`; `limits(seat, start)`
/// gives the limits of a move whose clock starts at `start`; `first` moves
/// first. An agent that panics (in `setup` or `choose`) or returns an
/// illegal move loses at once; this function itself never panics.
pub fn play_logged(
    agents: [&mut dyn GeisterAgent; 2],
    limits: &mut dyn FnMut(Seat, Instant) -> Limits,
    first: Seat,
    stop: &AtomicBool,
) -> GameLog {
    let [a0, a1] = agents;
    let mut agents: [&mut dyn GeisterAgent; 2] = [a0, a1];
    let mut log = GameLog {
        first,
        setups: [None; 2],
        moves: Vec::new(),
        move_time: Vec::new(),
        move_playouts: Vec::new(),
        game: None,
        outcome: Outcome::Draw,
        ending: None,
        forfeit: None,
    };
    fn forfeit(log: &mut GameLog, seat: Seat, panicked: bool, detail: String) {
        log.outcome = Outcome::Win(1 - seat);
        log.forfeit = Some(Forfeit {
            seat,
            panicked,
            detail,
        });
    }
    for (s, agent) in agents.iter_mut().enumerate() {
        match catch_unwind(AssertUnwindSafe(|| {
            agent.new_game();
            agent.setup()
        })) {
            Ok(setup) => log.setups[s] = Some(setup),
            Err(p) => {
                let detail = format!("panicked in setup: {}", panic_message(p.as_ref()));
                forfeit(&mut log, s, true, detail);
                return log;
            }
        }
    }
    let (Some(s0), Some(s1)) = (log.setups[0], log.setups[1]) else {
        unreachable!("both setups are set above")
    };
    let mut game = Geister::with_first([s0, s1], first.min(1));
    while game.outcome().is_none() {
        let s = game.to_move();
        let view = game.view(s);
        let t0 = Instant::now();
        let lim = limits(s, t0);
        let agent = &mut agents[s];
        let chosen = catch_unwind(AssertUnwindSafe(|| agent.choose(&view, &lim, stop)));
        let took = t0.elapsed();
        let mv = match chosen {
            Ok(mv) => mv,
            Err(p) => {
                let detail = format!("panicked: {}", panic_message(p.as_ref()));
                log.game = Some(game);
                forfeit(&mut log, s, true, detail);
                return log;
            }
        };
        if (mv.piece as usize) >= super::PIECES || game.try_play(mv).is_err() {
            let detail = format!(
                "played the illegal move {} at ply {}",
                if (mv.piece as usize) < super::PIECES {
                    mv.to_gat()
                } else {
                    format!("{mv:?}")
                },
                game.ply()
            );
            log.game = Some(game);
            forfeit(&mut log, s, false, detail);
            return log;
        }
        log.moves.push(mv);
        log.move_time.push(took);
        log.move_playouts.push(agents[s].last_playouts());
    }
    log.outcome = game.outcome().expect("loop ends with an outcome");
    log.ending = ending(&game);
    log.game = Some(game);
    log
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::agents::RandomGeister;
    use crate::games::geister::MAX_PLIES;

    #[test]
    fn play_logged_asks_the_mover_for_limits_and_times_every_move() {
        let stop = AtomicBool::new(false);
        for first in 0..2 {
            let mut a = RandomGeister::new(7);
            let mut b = RandomGeister::new(8);
            let mut asked = Vec::new();
            let log = play_logged(
                [&mut a, &mut b],
                &mut |s, start| {
                    asked.push(s);
                    Limits::deadline(crate::search::Deadline::per_move(
                        start,
                        Duration::from_secs(1),
                        Duration::ZERO,
                    ))
                },
                first,
                &stop,
            );
            assert!(log.forfeit.is_none());
            let game = log.game.expect("played");
            assert_eq!(game.first(), first);
            assert_eq!(log.first, first);
            assert_eq!(log.moves.len(), log.move_time.len());
            assert_eq!(asked.len(), log.moves.len());
            for (ply, s) in asked.iter().enumerate() {
                assert_eq!(*s, (first + ply) % 2);
            }
            assert_eq!(log.setups, [Some(game.setup(0)), Some(game.setup(1))]);
            assert_eq!(Some(log.outcome), game.outcome());
            assert_eq!(log.ending, ending(&game));
            // The same agents and seeds give the same game through play_game.
            let mut a = RandomGeister::new(7);
            let mut b = RandomGeister::new(8);
            let l = Limits::playouts(1);
            let p = play_game([&mut a, &mut b], [&l, &l], first, &stop).unwrap();
            assert_eq!(p.moves, log.moves);
            assert_eq!(Some(p.ending), log.ending);
        }
    }

    #[test]
    fn random_games_end_with_a_consistent_ending() {
        let stop = AtomicBool::new(false);
        let limits = Limits::playouts(1);
        let mut seen = std::collections::HashSet::new();
        for g in 0..300u64 {
            let mut a = RandomGeister::new(2 * g);
            let mut b = RandomGeister::new(2 * g + 1);
            let p = play_game([&mut a, &mut b], [&limits, &limits], (g % 2) as Seat, &stop)
                .expect("random agents play legal moves");
            assert_eq!(Some(p.outcome), p.game.outcome());
            assert_eq!(p.moves.len() as u32, p.game.ply());
            match (p.outcome, p.ending) {
                (Outcome::Draw, Ending::Draw) => assert_eq!(p.game.ply(), MAX_PLIES),
                (Outcome::Win(w), Ending::Escape) => assert_eq!(p.game.escaped(w), 1),
                (Outcome::Win(w), Ending::BluesCaptured) => {
                    assert_eq!(p.game.captured(1 - w, Colour::Blue), 4)
                }
                (Outcome::Win(w), Ending::RedsCaptured) => {
                    assert_eq!(p.game.captured(w, Colour::Red), 4)
                }
                other => panic!("inconsistent {other:?}"),
            }
            seen.insert(p.ending);
        }
        // Random play reaches every kind of win within 300 games.
        for e in [Ending::Escape, Ending::BluesCaptured, Ending::RedsCaptured] {
            assert!(seen.contains(&e), "{} never seen", e.name());
        }
    }
}
