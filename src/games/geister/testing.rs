//! Helpers for the Geister unit tests: hand-made positions.

use super::rules::{Place, Square, PIECES};
use super::view::View;

/// A view from our 24-character half and the opponent's.
pub fn view(own: &str, opp: &str) -> View {
    View::from_gat(&format!("{own}{opp}")).unwrap()
}

/// Places from squares (pieces past the list are captured).
pub fn places(sqs: &[(u8, u8)]) -> [Place; PIECES] {
    let mut out = [Place::Captured; PIECES];
    for (i, &(x, y)) in sqs.iter().enumerate() {
        out[i] = Place::At(Square::new(x, y));
    }
    out
}

pub fn sq(x: u8, y: u8) -> Square {
    Square::new(x, y)
}

/// A game played to its end by [`play_game`].
pub struct Played {
    pub game: super::Geister,
    pub outcome: crate::search::Outcome,
    pub ending: super::ending::Ending,
    pub moves: Vec<super::Move>,
}

/// Plays a whole game through the one game loop ([`crate::arena`]):
/// `agents[s]` in seat `s` with `limits[s]`, seat 0 first. An illegal move
/// or a panic is an error naming the seat.
pub fn play_game(
    agents: [&mut dyn crate::search::Agent<super::GeisterGame>; 2],
    limits: [&crate::search::Limits; 2],
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Played, (crate::search::Seat, String)> {
    use crate::games::PlayableGame;
    let log = crate::arena::play_game(super::GeisterGame::start(0), agents, limits, stop)?;
    let game = *log.end.game().expect("a finished game is past its setups");
    let moves = log
        .moves
        .iter()
        .filter_map(|m| match m.action {
            super::Action::Move(mv) => Some(mv),
            super::Action::Setup(_) => None,
        })
        .collect();
    Ok(Played {
        game,
        outcome: log.outcome,
        ending: log.end.ending().expect("a finished game has an ending"),
        moves,
    })
}

/// An agent's setup, through the agent interface.
pub fn setup_of(agent: &mut dyn crate::search::Agent<super::GeisterGame>) -> super::Setup {
    let never = std::sync::atomic::AtomicBool::new(false);
    match agent
        .select(
            &super::Obs::Setup,
            &crate::search::Limits::playouts(1),
            &never,
        )
        .mv
    {
        super::Action::Setup(s) => s,
        other => panic!("a setup was asked, got {other:?}"),
    }
}

/// An agent's move for `view`, through the agent interface.
pub fn move_of(
    agent: &mut dyn crate::search::Agent<super::GeisterGame>,
    view: &View,
    limits: &crate::search::Limits,
    stop: &std::sync::atomic::AtomicBool,
) -> super::Move {
    match agent.select(&super::Obs::Play(*view), limits, stop).mv {
        super::Action::Move(m) => m,
        other => panic!("a move was asked, got {other:?}"),
    }
}
