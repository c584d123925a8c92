//! Where GOLAD's draws are (`ladderbot-lab golad draws`): each recorded
//! game replayed, both sides' living cells counted after every round, and
//! each draw put in one class by who led at round 100 and whether the side
//! behind was ever within the leader's reach (no more cells than the
//! leader's moves left: one kill a move empties it even if Life kills
//! nothing).
//!
//! Pure: records in, counts and classes out; deterministic.

use ladderbot::model::{Outcome, Seat};

use super::train::{replay, GameRecord};

/// A side leads when it has at least this many times the other's cells...
pub const LEAD_RATIO: f64 = 1.5;
/// ...and at least this many more.
pub const LEAD_CELLS: u32 = 3;
/// The side behind counts as within reach only from this round on (earlier
/// the rounds left are more than any side's cells).
pub const REACH_FROM: u32 = 50;

/// One replayed game: the cells of both seats after each round.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// `cells[r]`: seat 0's and seat 1's living cells after round `r + 1`
    /// (both moves played; the last entry may follow only seat 0's move
    /// when the game ended there).
    pub cells: Vec<[u32; 2]>,
    pub max_rounds: u32,
    pub outcome: Outcome,
    /// Moves that were not legal (each acted as a pass).
    pub illegal: usize,
}

/// The game `rec` replayed (an unreadable or illegal move acts as a pass,
/// the engine's rule).
pub fn trace(index: usize, rec: &GameRecord) -> Result<Trace, String> {
    let mut cells = Vec::new();
    let mut illegal = 0;
    let s = replay(index, rec, |before, mv, after| {
        illegal += usize::from(mv.is_none());
        if before.to_move == 1 || after.outcome().is_some() {
            cells.push([after.field.count(0), after.field.count(1)]);
        }
    })?;
    let outcome = s
        .outcome()
        .ok_or_else(|| format!("game {index}: the record ends before the game"))?;
    Ok(Trace {
        cells,
        max_rounds: s.max_rounds,
        outcome,
        illegal,
    })
}

/// Where a draw stands, seen from one seat ("ours").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// We led at round 100 and the side behind was within reach at some
    /// round from [`REACH_FROM`] on while we led: a lead not converted.
    OursInReach,
    /// We led at round 100 but the side behind always kept more cells than
    /// our moves left: a lead the rounds left could not convert.
    OursOutOfReach,
    /// Neither side led at round 100.
    Even,
    /// They led at round 100 and we were within their reach: we survived.
    TheirsInReach,
    /// They led at round 100, we kept more cells than their moves left.
    TheirsOutOfReach,
}

impl Class {
    pub const ALL: [Class; 5] = [
        Class::OursInReach,
        Class::OursOutOfReach,
        Class::Even,
        Class::TheirsInReach,
        Class::TheirsOutOfReach,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::OursInReach => "ours_lead_in_reach",
            Class::OursOutOfReach => "ours_lead_out_of_reach",
            Class::Even => "even",
            Class::TheirsInReach => "theirs_lead_in_reach",
            Class::TheirsOutOfReach => "theirs_lead_out_of_reach",
        }
    }

    pub fn about(self) -> &'static str {
        match self {
            Class::OursInReach => {
                "we led at round 100, they were within reach: a lead not converted"
            }
            Class::OursOutOfReach => {
                "we led at round 100, they kept more cells than our moves left"
            }
            Class::Even => "neither side led at round 100",
            Class::TheirsInReach => "they led at round 100, we were within their reach",
            Class::TheirsOutOfReach => {
                "they led at round 100, we kept more cells than their moves left"
            }
        }
    }
}

/// Whether `a` cells lead `b` cells.
pub fn leads(a: u32, b: u32) -> bool {
    f64::from(a) >= LEAD_RATIO * f64::from(b) && a >= b + LEAD_CELLS
}

/// The round (from [`REACH_FROM`]) at which the side `leader` led and the
/// other had no more cells than `leader`'s moves left, the first one.
pub fn in_reach(t: &Trace, leader: Seat) -> Option<u32> {
    let other = 1 - leader;
    t.cells.iter().enumerate().find_map(|(r, c)| {
        let round = r as u32 + 1;
        let left = t.max_rounds.saturating_sub(round);
        (round >= REACH_FROM && leads(c[leader], c[other]) && c[other] <= left).then_some(round)
    })
}

/// The class of a drawn game from `ours`'s seat (`None` for a decided game).
pub fn classify(t: &Trace, ours: Seat) -> Option<Class> {
    if t.outcome != Outcome::Draw {
        return None;
    }
    let end = *t.cells.last()?;
    let theirs = 1 - ours;
    Some(if leads(end[ours], end[theirs]) {
        if in_reach(t, ours).is_some() {
            Class::OursInReach
        } else {
            Class::OursOutOfReach
        }
    } else if leads(end[theirs], end[ours]) {
        if in_reach(t, theirs).is_some() {
            Class::TheirsInReach
        } else {
            Class::TheirsOutOfReach
        }
    } else {
        Class::Even
    })
}

/// Cells of (ours, theirs) after round `round` (1-based), or after the
/// last round played when the game ended earlier.
pub fn cells_at(t: &Trace, ours: Seat, round: u32) -> Option<(u32, u32)> {
    let i = (round as usize).min(t.cells.len()).checked_sub(1)?;
    let c = t.cells[i];
    Some((c[ours], c[1 - ours]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladderbot::games::golad::moves::Move;
    use ladderbot::games::golad::GolState;

    fn t(cells: Vec<[u32; 2]>, outcome: Outcome) -> Trace {
        Trace {
            cells,
            max_rounds: 100,
            outcome,
            illegal: 0,
        }
    }

    #[test]
    fn a_lead_is_a_ratio_and_a_margin() {
        assert!(leads(30, 20));
        assert!(!leads(29, 20));
        assert!(leads(3, 0));
        assert!(!leads(2, 0), "three more cells at least");
        assert!(!leads(5, 3));
        assert!(leads(6, 3));
    }

    #[test]
    fn draws_are_classed_by_the_lead_at_the_end_and_the_reach() {
        // 100 rounds; seat 0 leads 40-30 until round 90, then 40-8.
        let mut cells: Vec<[u32; 2]> = (1..=100)
            .map(|r| if r < 90 { [40, 30] } else { [40, 8] })
            .collect();
        let draw = t(cells.clone(), Outcome::Draw);
        // At round 90, 8 cells behind and 10 moves left: in reach.
        assert_eq!(in_reach(&draw, 0), Some(90));
        assert_eq!(classify(&draw, 0), Some(Class::OursInReach));
        assert_eq!(classify(&draw, 1), Some(Class::TheirsInReach));
        // 12 cells behind at the end: never within the moves left.
        for c in &mut cells[89..] {
            c[1] = 12;
        }
        let draw = t(cells.clone(), Outcome::Draw);
        assert_eq!(in_reach(&draw, 0), None);
        assert_eq!(classify(&draw, 0), Some(Class::OursOutOfReach));
        assert_eq!(classify(&draw, 1), Some(Class::TheirsOutOfReach));
        // Within reach only before REACH_FROM does not count.
        let mut early = vec![[40, 2]; 49];
        early.extend(vec![[30, 29]; 51]);
        let draw = t(early, Outcome::Draw);
        assert_eq!(in_reach(&draw, 0), None);
        assert_eq!(classify(&draw, 1), Some(Class::Even));
        // Even at the end, whatever came before.
        cells[99] = [20, 15];
        assert_eq!(
            classify(&t(cells.clone(), Outcome::Draw), 0),
            Some(Class::Even)
        );
        assert_eq!(classify(&t(cells, Outcome::Win(0)), 0), None);
    }

    #[test]
    fn cells_at_a_round_stop_at_the_games_end() {
        let tr = t(vec![[1, 2], [3, 4], [5, 0]], Outcome::Win(0));
        assert_eq!(cells_at(&tr, 0, 1), Some((1, 2)));
        assert_eq!(cells_at(&tr, 1, 2), Some((4, 3)));
        assert_eq!(cells_at(&tr, 0, 100), Some((5, 0)));
        assert_eq!(cells_at(&tr, 0, 0), None);
    }

    #[test]
    fn a_replay_counts_cells_after_each_round() {
        let start = GolState::start(5, 3);
        let rec = GameRecord {
            game: "golad".into(),
            id: "g".into(),
            players: vec![],
            start: start.to_json(),
            moves: ["pass", "pass", "birth x", "pass", "pass", "pass"]
                .map(String::from)
                .to_vec(),
        };
        let tr = trace(0, &rec).unwrap();
        let mut s = start;
        let mut want = Vec::new();
        for _ in 0..3 {
            s.apply(Move::Pass);
            s.apply(Move::Pass);
            want.push([s.field.count(0), s.field.count(1)]);
        }
        assert_eq!(tr.cells, want);
        assert_eq!(tr.illegal, 1);
        assert_eq!(tr.max_rounds, 3);
        let mut short = rec.clone();
        short.moves.pop();
        assert!(trace(0, &short).is_err());
        let mut other = rec;
        other.game = "four3d".into();
        assert!(trace(0, &other).is_err());
    }
}
