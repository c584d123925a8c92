//! Geister as one [`Model`]: a simultaneous setup turn (each seat picks its
//! four reds, unseen by the other), then alternating moves with seat 0
//! first, as the GAT server's first port. A seat observes its own
//! [`View`]: its own colours, the opponent's only once revealed.
//!
//! Wire forms (match server, records): an action is `"SET:ABCD"` (the red
//! pieces) or a GAT move `"A,N"` in the mover's own frame; an observation is
//! `{"phase":"setup"}` or `{"phase":"play","seat":s,"ply":p,"my_turn":b,
//! "board":"<GAT 48 characters>"}`; the true state adds both setups and
//! every piece's absolute place.

use serde_json::Value;

use super::ending::{self, Ending};
use super::rules::{Geister, Move, Setup, PIECES};
use super::view::View;
use crate::games::PlayableGame;
use crate::model::{Joint, Model, Seat, Turn};
use crate::search::Decision;

/// A whole Geister game: before or after the setups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GeisterGame {
    /// Both seats must choose their setups.
    Setup,
    /// The game proper (seat 0 moved first).
    Play(Geister),
}

/// One seat's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Which four pieces are red (the setup turn).
    Setup(Setup),
    /// A move (every later turn).
    Move(Move),
}

/// What one seat observes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Obs {
    /// The setup turn: nothing is on the board yet.
    Setup,
    /// The seat's own view of the game.
    Play(View),
}

/// The ending keys of a game won by the rules, in report order.
pub const WIN_KEYS: &[&str] = &["escape", "blues_captured", "reds_captured"];
/// The ending keys of a drawn game.
pub const DRAW_KEYS: &[&str] = &["draw"];

impl GeisterGame {
    /// The game after both setups (seat 0 to move).
    pub fn with_setups(setups: [Setup; 2]) -> Self {
        GeisterGame::Play(Geister::new(setups))
    }

    /// The game proper, once the setups are in.
    pub fn game(&self) -> Option<&Geister> {
        match self {
            GeisterGame::Setup => None,
            GeisterGame::Play(g) => Some(g),
        }
    }

    /// How the rules ended the game, once over.
    pub fn ending(&self) -> Option<Ending> {
        self.game().and_then(ending::ending)
    }
}

/// The two setups and the moves of a game recorded from its setup turn
/// (the records of the match runner and of `serve-gat`): `moves` starts
/// with seat 0's and seat 1's `SET:` actions.
pub fn record_setups_and_moves(
    start: &Value,
    moves: &[Value],
) -> Result<([Setup; 2], Vec<Move>), String> {
    if !matches!(GeisterGame::state_from_json(start)?, GeisterGame::Setup) {
        return Err("the record does not start at the setup turn".into());
    }
    let mut setups = [None, None];
    let mut out = Vec::with_capacity(moves.len().saturating_sub(2));
    for (i, v) in moves.iter().enumerate() {
        match (i, GeisterGame::move_from_json(v)?) {
            (0 | 1, Action::Setup(s)) => setups[i] = Some(s),
            (2.., Action::Move(m)) => out.push(m),
            _ => return Err(format!("move {i}: {v} is out of place")),
        }
    }
    match setups {
        [Some(a), Some(b)] => Ok(([a, b], out)),
        _ => Err("the record has no setups".into()),
    }
}

impl Model for GeisterGame {
    type Action = Action;
    type Obs = Obs;

    fn turn(&self) -> Turn {
        match self {
            GeisterGame::Setup => Turn::Both,
            GeisterGame::Play(g) => match g.outcome() {
                Some(o) => Turn::Over(o),
                None => Turn::One(g.to_move()),
            },
        }
    }

    fn observe(&self, seat: Seat) -> Obs {
        match self {
            GeisterGame::Setup => Obs::Setup,
            GeisterGame::Play(g) => Obs::Play(g.view(seat)),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        match self {
            GeisterGame::Setup => Setup::all().map(Action::Setup).collect(),
            GeisterGame::Play(g) if g.outcome().is_none() && g.to_move() == seat => {
                g.legal_moves().into_iter().map(Action::Move).collect()
            }
            GeisterGame::Play(_) => Vec::new(),
        }
    }

    fn is_legal_action(&self, seat: Seat, action: Action) -> bool {
        match (self, action) {
            (GeisterGame::Setup, Action::Setup(_)) => seat < 2,
            (GeisterGame::Play(g), Action::Move(m)) => {
                g.outcome().is_none()
                    && g.to_move() == seat
                    && (m.piece as usize) < PIECES
                    && g.is_legal(m)
            }
            _ => false,
        }
    }

    fn apply(&mut self, joint: Joint<Action>) {
        match self {
            GeisterGame::Setup => {
                if let [Some(Action::Setup(a)), Some(Action::Setup(b))] = joint {
                    *self = GeisterGame::with_setups([a, b]);
                }
            }
            GeisterGame::Play(g) => {
                let s = g.to_move();
                if let Some(Action::Move(m)) = joint[s] {
                    g.play(m);
                }
            }
        }
    }
}

/// The decision of an agent that counts no playouts.
pub fn decided(action: Action, playouts: u64) -> Decision<Action> {
    Decision {
        mv: action,
        playouts,
        value: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::replay;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use serde_json::json;

    #[test]
    fn setup_is_one_simultaneous_turn_then_seat_zero_moves() {
        let mut g = GeisterGame::start(1);
        assert_eq!(g.turn(), Turn::Both);
        assert_eq!(g.observe(0), Obs::Setup);
        assert_eq!(g.legal_actions(1).len(), 70);
        let a = Setup::from_letters("ABCD").unwrap();
        let b = Setup::from_letters("EFGH").unwrap();
        assert!(g.is_legal_action(0, Action::Setup(a)));
        assert!(!g.is_legal_action(0, Action::Move(Move::parse_gat("A,N").unwrap())));
        g.apply([Some(Action::Setup(a)), Some(Action::Setup(b))]);
        assert_eq!(g.turn(), Turn::One(0));
        assert!(!g.is_legal_action(0, Action::Setup(a)));
        assert!(!g.is_legal_action(1, Action::Move(Move::parse_gat("A,N").unwrap())));
        assert!(g.is_legal_action(0, Action::Move(Move::parse_gat("A,N").unwrap())));
    }

    #[test]
    fn a_seat_never_sees_the_other_setup() {
        let g = GeisterGame::start(0);
        let a = Action::Setup(Setup::from_letters("BCDE").unwrap());
        assert_eq!(g.shown_move(1, 0, a), None);
        assert_eq!(g.shown_move(0, 0, a), Some(json!("SET:BCDE")));
        let mut g = g;
        g.apply([
            Some(a),
            Some(Action::Setup(Setup::from_letters("ABCD").unwrap())),
        ]);
        // Seat 1's observation: every opponent piece unknown.
        let Obs::Play(v) = g.observe(1) else {
            panic!("play phase")
        };
        assert!(v.to_gat().matches('u').count() == PIECES);
        let o = GeisterGame::obs_to_json(&g.observe(1));
        assert!(!o.to_string().contains("BCDE"));
    }

    #[test]
    fn random_games_round_trip_and_replay() {
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..50 {
            let mut g = GeisterGame::start(0);
            let start = g.state_to_json();
            let mut moves = Vec::new();
            while g.turn().outcome().is_none() {
                let mut joint = [None, None];
                for &s in g.turn().movers() {
                    let acts = g.legal_actions(s);
                    let a = acts[rng.gen_range(0..acts.len())];
                    assert!(g.is_legal_action(s, a));
                    assert_eq!(
                        GeisterGame::move_from_json(&GeisterGame::move_to_json(a)),
                        Ok(a)
                    );
                    moves.push(GeisterGame::move_to_json(a));
                    joint[s] = Some(a);
                }
                g.apply(joint);
                let back = GeisterGame::state_from_json(&g.state_to_json()).unwrap();
                assert_eq!(back, g);
                for s in 0..2 {
                    let o = g.observe(s);
                    assert_eq!(
                        GeisterGame::obs_from_json(&GeisterGame::obs_to_json(&o)),
                        Ok(o)
                    );
                }
            }
            assert_eq!(replay::<GeisterGame>(&start, &moves).unwrap(), g);
            assert!(PlayableGame::ending(&g).is_some());
        }
    }

    #[test]
    fn bad_json_is_an_error() {
        for v in [
            json!(null),
            json!({"phase": "dance"}),
            json!({"phase": "play"}),
            json!({"phase": "play", "setups": ["ABCD"], "places": "", "ply": 0, "first": 0}),
            json!({"phase": "play", "setups": ["ABCD", "ABCD"], "places": "x", "ply": 0, "first": 0}),
        ] {
            assert!(GeisterGame::state_from_json(&v).is_err(), "{v}");
            assert!(GeisterGame::obs_from_json(&v).is_err(), "{v}");
        }
        for v in [json!(3), json!("SET:ABC"), json!("Z,N"), json!("A,Q")] {
            assert!(GeisterGame::move_from_json(&v).is_err(), "{v}");
        }
        let bad_obs = json!({"phase": "play", "seat": 2, "ply": 0, "my_turn": true, "board": ""});
        assert!(GeisterGame::obs_from_json(&bad_obs).is_err());
    }

    #[test]
    fn the_game_loop_asks_each_mover_for_limits_and_times_every_action() {
        use crate::games::geister::agents::RandomGeister;
        use crate::search::{Deadline, Limits};
        use std::sync::atomic::AtomicBool;
        use std::time::Duration;
        let stop = AtomicBool::new(false);
        let mut a = RandomGeister::new(7);
        let mut b = RandomGeister::new(8);
        let mut asked = Vec::new();
        let log = crate::arena::play_logged(
            GeisterGame::start(0),
            [&mut a, &mut b],
            &mut |s, start| {
                asked.push(s);
                Limits::deadline(Deadline::per_move(
                    start,
                    Duration::from_secs(1),
                    Duration::ZERO,
                ))
            },
            &stop,
        );
        assert!(log.forfeits.is_empty());
        assert_eq!(asked.len(), log.moves.len());
        // The setup turn asks both seats, then seat 0 moves first.
        assert_eq!(&asked[..2], &[0, 1]);
        for (ply, s) in asked.iter().enumerate().skip(2) {
            assert_eq!(*s, ply % 2);
            assert_eq!(log.moves[ply].seat, *s);
        }
        let g = log.end.game().unwrap();
        assert_eq!(log.moves[0].action, Action::Setup(g.setup(0)));
        assert_eq!(log.moves[1].action, Action::Setup(g.setup(1)));
        assert_eq!(Some(log.outcome), g.outcome());
        // The same agents and seeds give the same game again.
        let mut a = RandomGeister::new(7);
        let mut b = RandomGeister::new(8);
        let l = Limits::playouts(1);
        let again =
            crate::arena::play_game(GeisterGame::start(0), [&mut a, &mut b], [&l, &l], &stop)
                .unwrap();
        assert_eq!(again.moves.len(), log.moves.len());
        assert!(again
            .moves
            .iter()
            .zip(&log.moves)
            .all(|(x, y)| x.action == y.action));
    }

    #[test]
    fn random_games_end_with_a_consistent_ending() {
        use crate::games::geister::agents::RandomGeister;
        use crate::games::geister::testing::play_game;
        use crate::games::geister::{Colour, MAX_PLIES};
        use crate::model::Outcome;
        use crate::search::Limits;
        use std::sync::atomic::AtomicBool;
        let stop = AtomicBool::new(false);
        let limits = Limits::playouts(1);
        let mut seen = std::collections::HashSet::new();
        for g in 0..300u64 {
            let mut a = RandomGeister::new(2 * g);
            let mut b = RandomGeister::new(2 * g + 1);
            let p = play_game([&mut a, &mut b], [&limits, &limits], &stop)
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
