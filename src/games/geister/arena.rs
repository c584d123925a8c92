//! Plays one Geister game between two [`GeisterAgent`]s in-process: each
//! agent picks its own setup and then sees only its own [`View`]. Pure apart
//! from the agents' own clocks: the match runner and the tests build on it.

use std::sync::atomic::AtomicBool;

use super::agents::GeisterAgent;
use super::rules::{Colour, Geister, Move, Place};
use crate::search::{Limits, Outcome, Seat};

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
/// `first` moves first. An agent's illegal move is an error naming the seat.
pub fn play_game(
    agents: [&mut dyn GeisterAgent; 2],
    limits: [&Limits; 2],
    first: Seat,
    stop: &AtomicBool,
) -> Result<Played, (Seat, String)> {
    let [a0, a1] = agents;
    let mut agents: [&mut dyn GeisterAgent; 2] = [a0, a1];
    for a in agents.iter_mut() {
        a.new_game();
    }
    let setups = [agents[0].setup(), agents[1].setup()];
    let mut game = Geister::with_first(setups, first);
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        let s = game.to_move();
        let mv = agents[s].choose(&game.view(s), limits[s], stop);
        game.try_play(mv).map_err(|e| (s, e))?;
        moves.push(mv);
    }
    let outcome = game.outcome().expect("loop ends with an outcome");
    let ending = ending(&game).expect("game over");
    Ok(Played {
        game,
        outcome,
        ending,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::agents::RandomGeister;
    use crate::games::geister::MAX_PLIES;

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
