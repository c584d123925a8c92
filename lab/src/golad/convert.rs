//! The conversion measure (`ladderbot-lab golad convert`): positions taken
//! from recorded draws at chosen rounds, each played out to the game's last
//! round by an agent (on the seat of the records' player) against another,
//! at a fixed number of evaluations a move, so that a seed gives the same
//! games. What it counts: how often the side to convert empties the other's
//! board, and in how many rounds.
//!
//! The positions and the play-out are pure functions of the records, the
//! agents' settings and the seed.

use std::sync::atomic::AtomicBool;

use ladderbot::games::golad::agents;
use ladderbot::games::golad::GolState;
use ladderbot::games::AgentParams;
use ladderbot::model::{Outcome, Seat};
use ladderbot::search::Limits;

use super::draws::leads;
use super::train::{replay, GameRecord};

/// A position to play out: the state at the start of round `round` (seat 0
/// to move), and which seat is ours.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// Index of the game among the records read.
    pub game: usize,
    pub round: u32,
    pub ours: Seat,
    pub state: GolState,
}

/// Who leads at a start, from our seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lead {
    Ours,
    Even,
    Theirs,
}

impl Lead {
    pub const ALL: [Lead; 3] = [Lead::Ours, Lead::Even, Lead::Theirs];

    pub fn of(s: &Start) -> Lead {
        let (o, t) = (s.state.field.count(s.ours), s.state.field.count(1 - s.ours));
        if leads(o, t) {
            Lead::Ours
        } else if leads(t, o) {
            Lead::Theirs
        } else {
            Lead::Even
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Lead::Ours => "we lead",
            Lead::Even => "even",
            Lead::Theirs => "they lead",
        }
    }
}

/// The starts of the game `rec` (index `game`) at each of `rounds` that it
/// reached unfinished, with `ours` the seat of our player (an unreadable or
/// illegal move acts as a pass, the engine's rule).
pub fn starts_of(
    game: usize,
    rec: &GameRecord,
    ours: Seat,
    rounds: &[u32],
) -> Result<Vec<Start>, String> {
    let mut out = Vec::new();
    let mut take = |s: &GolState| {
        if s.to_move == 0 && s.outcome().is_none() && rounds.contains(&s.round) {
            out.push(Start {
                game,
                round: s.round,
                ours,
                state: *s,
            });
        }
    };
    // The start, then the position after each move (a record without
    // moves: its start is its last position).
    let mut first = true;
    let last = replay(game, rec, |before, _, after| {
        if std::mem::take(&mut first) {
            take(before);
        }
        take(after);
    })?;
    if first {
        take(&last);
    }
    Ok(out)
}

/// How a play-out ended, from our seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub outcome: Outcome,
    /// Rounds played from the start to the end.
    pub rounds: u32,
    pub won: bool,
    pub lost: bool,
}

/// Plays `start` out: `ours` (an agent name and its parameters) on our
/// seat, `theirs` on the other, `evals` evaluations a move (ours, theirs),
/// the agents seeded with `seed`.
pub fn play_out(
    start: &Start,
    ours: (&str, &AgentParams),
    theirs: (&str, &AgentParams),
    evals: (u64, u64),
    seed: u64,
) -> Result<Played, String> {
    let mut sides = [None, None];
    sides[start.ours] = Some(agents::build(ours.0, ours.1, seed)?);
    sides[1 - start.ours] = Some(agents::build(theirs.0, theirs.1, seed ^ 0x9e37_79b9)?);
    let stop = AtomicBool::new(false);
    let mut limits = [Limits::playouts(evals.1); 2];
    limits[start.ours] = Limits::playouts(evals.0);
    let mut s = start.state;
    loop {
        if let Some(outcome) = s.outcome() {
            return Ok(Played {
                outcome,
                rounds: s.rounds_played() + 1 - start.round,
                won: outcome == Outcome::Win(start.ours),
                lost: outcome == Outcome::Win(1 - start.ours),
            });
        }
        let agent = sides[s.to_move]
            .as_mut()
            .ok_or_else(|| "no agent".to_string())?;
        let mv = agent.select(&s, &limits[s.to_move], &stop).mv;
        s.apply(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladderbot::games::golad::moves::Move;

    fn record(moves: usize) -> (GolState, GameRecord) {
        let start = GolState::start(9, 100);
        let rec = GameRecord {
            game: "golad".into(),
            id: "g".into(),
            players: vec!["A:x".into(), "B:y".into()],
            start: start.to_json(),
            moves: vec!["pass".to_string(); moves],
        };
        (start, rec)
    }

    #[test]
    fn starts_are_the_positions_at_the_start_of_each_round_asked() {
        let (start, rec) = record(10);
        let got = starts_of(3, &rec, 1, &[1, 3, 6, 50]).unwrap();
        let rounds: Vec<u32> = got.iter().map(|s| s.round).collect();
        assert_eq!(rounds, vec![1, 3, 6], "round 6 starts after the 10th move");
        let mut s = start;
        for _ in 0..4 {
            s.apply(Move::Pass);
        }
        assert_eq!(got[1].state, s);
        assert!(got
            .iter()
            .all(|g| g.game == 3 && g.ours == 1 && g.state.to_move == 0));
    }

    #[test]
    fn a_play_out_is_deterministic_for_a_seed_and_ends_the_game() {
        let (start, _) = record(0);
        let mut state = start;
        state.round = 97;
        let st = Start {
            game: 0,
            round: 97,
            ours: 0,
            state,
        };
        let mut p = AgentParams::new();
        p.insert("threads".into(), 1.into());
        let none = AgentParams::new();
        let a = play_out(&st, ("best", &p), ("random", &none), (200, 200), 5).unwrap();
        let b = play_out(&st, ("best", &p), ("random", &none), (200, 200), 5).unwrap();
        assert_eq!(a, b);
        assert!(a.rounds >= 1 && a.rounds <= 4, "{a:?}");
        assert_eq!(a.won, a.outcome == Outcome::Win(0));
        // Against the pass agent from an empty opposing side: already won.
        let mut won = st.clone();
        let theirs: Vec<_> = won.state.field.living(1).collect();
        for c in theirs {
            won.state.field.set(c, None);
        }
        let w = play_out(&won, ("pass", &none), ("pass", &none), (10, 10), 1).unwrap();
        assert!(w.won && !w.lost && w.rounds == 0, "{w:?}");
        assert!(play_out(&st, ("nobody", &none), ("pass", &none), (10, 10), 1).is_err());
    }
}
