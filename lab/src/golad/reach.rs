//! How far a candidate generator reaches (issue 61): in a position, is a
//! given move (the one the opponent actually played) among the candidates,
//! and is the best move of a wide scoring among them; and the value lost by
//! searching the candidates instead of the whole move set.
//!
//! The wide scoring is every move that can matter, each scored by the same
//! evaluation the candidates are scored by (a ply deep): the pass, every
//! kill of any living cell, and every birth on a dead cell next to a living
//! one with every pair of the mover's own cells as its sacrifices.
//!
//! Pure: no clock, no randomness.

use ladderbot::games::golad::moves::Move;
use ladderbot::games::golad::propose::wide_moves;
use ladderbot::games::golad::GolState;

/// Values closer than this are the same value (the evaluation is exact to
/// far below it; a move that reaches the wide best's value within it is as
/// good a reply).
pub const SAME_VALUE: f64 = 1e-9;

/// Whether two moves are the same move: a birth's sacrifices in any order.
pub fn same_move(a: Move, b: Move) -> bool {
    match (a, b) {
        (
            Move::Birth {
                at: x,
                sacrifice: [p, q],
            },
            Move::Birth {
                at: y,
                sacrifice: [r, s],
            },
        ) => x == y && ((p == r && q == s) || (p == s && q == r)),
        _ => a == b,
    }
}

/// The wide scoring of one position, with the move played there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wide {
    /// Moves scored.
    pub moves: usize,
    /// The best value and its move (the first of the best, in
    /// [`wide_moves`]' order).
    pub best: f64,
    pub best_move: Move,
    /// The played move's value, and its rank (1: no move valued above it).
    pub played: Move,
    pub played_value: f64,
    pub played_rank: usize,
}

/// The wide scoring of `s`, where `played` was played; `value(s, m)` is the
/// mover's value after `m`. `None` when the game is over or `played` is
/// not legal.
pub fn wide(
    s: &GolState,
    played: Move,
    mut value: impl FnMut(&GolState, Move) -> f64,
) -> Option<Wide> {
    if s.outcome().is_some() || !s.is_legal(&played) {
        return None;
    }
    let played_value = value(s, played);
    let (mut moves, mut above) = (0, 0);
    let mut best: Option<(f64, Move)> = None;
    wide_moves(s, |m| {
        let v = value(s, m);
        moves += 1;
        if v > played_value + SAME_VALUE {
            above += 1;
        }
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, m));
        }
    });
    let (best, best_move) = best?;
    Some(Wide {
        moves,
        best,
        best_move,
        played,
        played_value,
        played_rank: above + 1,
    })
}

/// What one position says about a generator's candidates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// Candidates generated, and how many of them (the best first) the
    /// search looks at.
    pub generated: usize,
    pub searched: usize,
    /// The played move is among the generated / the searched candidates.
    pub played_generated: bool,
    pub played_searched: bool,
    /// The best value among the searched candidates.
    pub searched_best: f64,
    /// The wide scoring's best value.
    pub wide_best: f64,
}

impl Reach {
    /// The wide scoring's best value is reached by a searched candidate.
    pub fn best_reached(&self) -> bool {
        self.searched_best >= self.wide_best - SAME_VALUE
    }

    /// The value the searched candidates lose against the wide scoring
    /// (0 when the best is reached).
    pub fn lost(&self) -> f64 {
        (self.wide_best - self.searched_best).max(0.0)
    }
}

/// The reach of `candidates` (best first, as the generator sorts them, each
/// with its value by the evaluation `wide` used; the first `searched` of
/// them are searched) against the wide scoring of their position. `None`
/// when there are no candidates.
pub fn reach(wide: &Wide, candidates: &[(f64, Move)], searched: usize) -> Option<Reach> {
    if candidates.is_empty() {
        return None;
    }
    let searched = searched.clamp(1, candidates.len());
    let within = |n: usize| {
        candidates[..n]
            .iter()
            .any(|&(_, m)| same_move(m, wide.played))
    };
    Some(Reach {
        generated: candidates.len(),
        searched,
        played_generated: within(candidates.len()),
        played_searched: within(searched),
        searched_best: candidates[..searched]
            .iter()
            .map(|&(v, _)| v)
            .fold(f64::NEG_INFINITY, f64::max),
        wide_best: wide.best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladderbot::games::golad::field::frontier;
    use ladderbot::games::golad::moves::Cell;
    use ladderbot::games::golad::territory::{candidates, Territory, Width};

    fn cell(x: u8, y: u8) -> Cell {
        Cell { x, y }
    }

    #[test]
    fn a_birth_is_the_same_move_with_its_sacrifices_swapped() {
        let b = |p, q| Move::Birth {
            at: cell(3, 3),
            sacrifice: [p, q],
        };
        assert!(same_move(
            b(cell(1, 1), cell(2, 2)),
            b(cell(2, 2), cell(1, 1))
        ));
        assert!(!same_move(
            b(cell(1, 1), cell(2, 2)),
            b(cell(1, 1), cell(5, 2))
        ));
        assert!(!same_move(Move::Kill(cell(1, 1)), Move::Pass));
    }

    #[test]
    fn the_wide_scoring_holds_every_kill_and_every_birth_pair_on_the_frontier() {
        let s = GolState::start(7, 100);
        let own = s.field.count(s.to_move) as usize;
        let all = s.field.count_all() as usize;
        let spots = frontier(&s.field).len();
        let mut n = 0;
        let mut legal = true;
        wide_moves(&s, |m| {
            n += 1;
            legal &= s.is_legal(&m);
        });
        assert!(legal);
        assert_eq!(n, 1 + all + spots * own * (own - 1) / 2);
    }

    /// A value that knows nothing but a list of favoured moves.
    fn favour(good: Vec<Move>) -> impl FnMut(&GolState, Move) -> f64 {
        move |_, m| {
            good.iter()
                .position(|&g| same_move(g, m))
                .map_or(0.1, |i| 0.9 - 0.1 * i as f64)
        }
    }

    #[test]
    fn a_played_move_outside_the_candidates_is_found_out_and_ranked() {
        let s = GolState::start(7, 100);
        let own: Vec<Cell> = s.field.living(s.to_move).collect();
        let spot = frontier(&s.field)[0];
        let wide_best = Move::Birth {
            at: spot,
            sacrifice: [own[3], own[5]],
        };
        let played = Move::Birth {
            at: spot,
            sacrifice: [own[5], own[4]],
        };
        let kill = Move::Kill(s.field.living(1 - s.to_move).next().unwrap());
        // The candidates: the kill and the pass, not the births.
        let cands = vec![(0.7, kill), (0.1, Move::Pass)];
        let w = wide(&s, played, favour(vec![wide_best, kill, played])).unwrap();
        assert_eq!(w.played_rank, 3);
        assert!(same_move(w.best_move, wide_best));
        let r = reach(&w, &cands, 1).unwrap();
        assert!(!r.played_generated && !r.played_searched);
        assert!(!r.best_reached());
        assert!((r.lost() - 0.2).abs() < 1e-12);
        // With the wide best among the searched candidates, nothing is lost.
        let cands = vec![(0.9, wide_best), (0.7, kill), (0.6, played)];
        let r = reach(&w, &cands, 2).unwrap();
        assert!(r.best_reached() && r.lost() == 0.0);
        assert!(r.played_generated && !r.played_searched);
    }

    #[test]
    fn the_generators_own_best_is_reached_when_it_is_the_wide_best() {
        // With the territory share as the value, a generator as wide as the
        // wide scoring reaches its best; a narrow one may not, and never
        // does better than the wide best.
        let eval = Territory::new(0.5);
        let s = GolState::start(11, 100);
        let value = |p: &GolState, m: Move| {
            let mut t = *p;
            t.apply(m);
            eval.share(&t.field, p.to_move, None)
        };
        let own = s.field.count(s.to_move) as usize;
        let everything = Width {
            births: usize::MAX,
            sacrifices: own,
        };
        let all = candidates(&s, everything, value);
        let w = wide(&s, Move::Pass, value).unwrap();
        let r = reach(&w, &all, all.len()).unwrap();
        // The generator kills only the opponent's cells.
        let own_kill = matches!(w.best_move, Move::Kill(c) if s.field.get(c) == Some(s.to_move));
        assert!(r.best_reached() || own_kill, "{r:?}");
        let narrow = candidates(
            &s,
            Width {
                births: 2,
                sacrifices: 2,
            },
            value,
        );
        let r = reach(&w, &narrow, 1).unwrap();
        assert!(r.searched_best <= r.wide_best + SAME_VALUE);
        assert!(r.played_generated);
    }

    #[test]
    fn no_reach_for_an_illegal_played_move_or_no_candidates() {
        let s = GolState::start(7, 100);
        let dead = s.field.dead().next().unwrap();
        assert!(wide(&s, Move::Kill(dead), |_, _| 0.5).is_none());
        let w = wide(&s, Move::Pass, |_, _| 0.5).unwrap();
        assert!(reach(&w, &[], 1).is_none());
    }
}
