//! The pairwise move proposer (issue 61): which births to score, from the
//! changes each part of a birth makes and how the parts that are close
//! together change each other.
//!
//! Today's generator ([`super::territory::candidates`]) ranks the
//! sacrifices one at a time and the birth cells with the first pair, so a
//! birth whose parts only pay together (two neighbouring sacrifices that
//! kill a group, a sacrifice beside the birth cell that lets it live) is
//! never generated: against eric-clinch/Golad, the wide scoring's best
//! reply was among the replies in 64% of positions. A Life generation is
//! local, so a birth's value is close to the sum of its parts' changes
//! except where the parts are near each other. The proposer measures,
//! with the evaluation itself:
//!
//! - `dk(c)`: the change of killing each own cell (a sacrifice alone);
//! - `db(at)`: the change of bringing each frontier cell to life alone;
//! - `j(a, b)`: for own cells within `radius` of each other, what killing
//!   both changes beyond the sum of the two;
//! - `i(at, c)`: for the `births` best birth cells and each own cell within
//!   `radius`, what the birth with that sacrifice changes beyond the sum;
//!
//! predicts every birth `(at, a, b)` it considers as `db(at) + dk(a) +
//! dk(b) + j(a, b) + i(at, a) + i(at, b)` (the three-way term is left out),
//! and keeps the `keep` best predictions, which the caller scores exactly.
//! The births considered: every frontier cell with the `pairs` best pairs
//! by `dk(a) + dk(b) + j(a, b)`; and for the `births` best birth cells,
//! each near own cell paired with the `sacrifices` best single sacrifices
//! and with every other near one.
//!
//! Pure: no clock, no randomness; the same position gives the same births
//! in the same order.

use std::ops::ControlFlow;

use super::field::frontier;
use super::moves::{Cell, Move};
use super::territory::{best_until, sorted};
use super::GolState;
use crate::search::Seat;

/// One cell set by hand: killed (`None`) or brought to life for a side.
pub type Edit = (Cell, Option<Seat>);

/// How wide the proposer looks (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairwise {
    /// Cells this close (the larger of the column and row distances)
    /// change each other's value: their joint change is measured.
    pub radius: u8,
    /// Birth cells, the best by their own change, whose interactions with
    /// the near sacrifices are measured.
    pub births: usize,
    /// Sacrifice pairs, the best by their joint change, tried with every
    /// birth cell.
    pub pairs: usize,
    /// Single sacrifices, the best by their change, paired with each near
    /// own cell of a measured birth cell.
    pub sacrifices: usize,
    /// Births kept: the best predictions, best first.
    pub keep: usize,
}

impl Default for Pairwise {
    /// The widths chosen on the candidate table (issue 61): radius 3, 24
    /// birth cells, 80 pairs, 10 sacrifices, 300 births kept.
    fn default() -> Self {
        Pairwise {
            radius: 3,
            births: 24,
            pairs: 80,
            sacrifices: 10,
            keep: 300,
        }
    }
}

/// The larger of the column and row distances.
fn near(a: Cell, b: Cell, radius: u8) -> bool {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)) <= radius
}

/// The births of the side to move in `s` the proposer keeps, best
/// predicted first, each with its prediction. `value(t, Move::Pass)` is
/// asked for fields changed by hand (a cell killed or born without the
/// rest of a move); it must be the mover's value after the move as the
/// caller scores moves. Empty once the game is over or with fewer than two
/// own cells.
pub fn propose(
    s: &GolState,
    p: Pairwise,
    mut value: impl FnMut(&GolState, Move) -> f64,
) -> Vec<(f64, Move)> {
    propose_by(s, p, |edits| value(&edited(s, edits), Move::Pass))
}

/// `s` with `edits` made by hand (the same side to move).
pub fn edited(s: &GolState, edits: &[Edit]) -> GolState {
    let mut t = *s;
    for &(c, v) in edits {
        t.field.set(c, v);
    }
    t
}

/// [`propose`] with the terms from `measure(edits)`: the mover's value of
/// the field with `edits` made by hand, up to a constant (asked first with
/// no edits). [`propose`] measures it with the evaluation.
pub fn propose_by(
    s: &GolState,
    p: Pairwise,
    mut measure: impl FnMut(&[Edit]) -> f64,
) -> Vec<(f64, Move)> {
    let me = s.to_move;
    let own: Vec<Cell> = s.field.living(me).collect();
    let spots = frontier(&s.field);
    if s.outcome().is_some() || own.len() < 2 || spots.is_empty() || p.keep == 0 {
        return Vec::new();
    }
    let base = measure(&[]);
    let mut changed = |edits: &[Edit]| measure(edits) - base;
    let dk: Vec<f64> = own.iter().map(|&c| changed(&[(c, None)])).collect();
    let db: Vec<f64> = spots.iter().map(|&at| changed(&[(at, Some(me))])).collect();
    let n = own.len();
    // pair[i * n + j]: dk(i) + dk(j) + j(i, j).
    let mut pair = vec![0.0f64; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let mut v = dk[i] + dk[j];
            if near(own[i], own[j], p.radius) {
                v = changed(&[(own[i], None), (own[j], None)]);
            }
            pair[i * n + j] = v;
            pair[j * n + i] = v;
        }
    }
    let mut best_pairs: Vec<(f64, usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .map(|(i, j)| (pair[i * n + j], i, j))
        .collect();
    best_pairs.sort_by(|x, y| y.0.total_cmp(&x.0));
    best_pairs.truncate(p.pairs);
    let mut singles: Vec<usize> = (0..n).collect();
    singles.sort_by(|&i, &j| dk[j].total_cmp(&dk[i]));
    singles.truncate(p.sacrifices);
    let mut spot_order: Vec<usize> = (0..spots.len()).collect();
    spot_order.sort_by(|&i, &j| db[j].total_cmp(&db[i]));

    let mut out: Vec<(f64, Move)> = Vec::new();
    let mut inter = vec![0.0f64; n];
    let mut seen = vec![false; n * n];
    let mut touched: Vec<usize> = Vec::new();
    let mut near_cells: Vec<usize> = Vec::new();
    for (rank, &k) in spot_order.iter().enumerate() {
        let at = spots[k];
        near_cells.clear();
        if rank < p.births {
            for (i, &c) in own.iter().enumerate() {
                if near(c, at, p.radius) {
                    let whole = changed(&[(at, Some(me)), (c, None)]);
                    inter[i] = whole - db[k] - dk[i];
                    near_cells.push(i);
                }
            }
        }
        let mut add = |i: usize, j: usize, out: &mut Vec<(f64, Move)>| {
            let (i, j) = (i.min(j), i.max(j));
            if i == j || seen[i * n + j] {
                return;
            }
            seen[i * n + j] = true;
            touched.push(i * n + j);
            let v = db[k] + pair[i * n + j] + inter[i] + inter[j];
            out.push((
                v,
                Move::Birth {
                    at,
                    sacrifice: [own[i], own[j]],
                },
            ));
        };
        for &(_, i, j) in &best_pairs {
            add(i, j, &mut out);
        }
        for (x, &c) in near_cells.iter().enumerate() {
            for &o in &singles {
                add(c, o, &mut out);
            }
            for &d in &near_cells[x + 1..] {
                add(c, d, &mut out);
            }
        }
        for &i in &near_cells {
            inter[i] = 0.0;
        }
        for t in touched.drain(..) {
            seen[t] = false;
        }
    }
    if out.len() > p.keep {
        out.select_nth_unstable_by(p.keep - 1, |x, y| y.0.total_cmp(&x.0));
        out.truncate(p.keep);
    }
    out.sort_by(|x, y| y.0.total_cmp(&x.0));
    out
}

/// The candidates in the order pass, kills of the opponent's cells, then
/// the proposed births (best predicted first), each with `value(s, m)`,
/// handed to `emit` until it breaks. The kills come first and cost one
/// evaluation each, so a kill that is enough spares the proposal.
pub fn generate(
    s: &GolState,
    p: Pairwise,
    mut value: impl FnMut(&GolState, Move) -> f64,
    mut emit: impl FnMut(f64, Move) -> ControlFlow<()>,
) {
    if s.outcome().is_some() {
        return;
    }
    if emit(value(s, Move::Pass), Move::Pass).is_break() {
        return;
    }
    for c in s.field.living(1 - s.to_move) {
        if emit(value(s, Move::Kill(c)), Move::Kill(c)).is_break() {
            return;
        }
    }
    for (_, m) in propose(s, p, &mut value) {
        if emit(value(s, m), m).is_break() {
            return;
        }
    }
}

/// Every candidate of [`generate`] with its value, best first (ties keep
/// the generation order).
pub fn candidates(
    s: &GolState,
    p: Pairwise,
    value: impl FnMut(&GolState, Move) -> f64,
) -> Vec<(f64, Move)> {
    sorted(|emit| generate(s, p, value, emit))
}

/// The best value among [`generate`]'s candidates, stopping as soon as one
/// reaches `enough` (as [`super::territory::best_value`]). `None` once the
/// game is over.
pub fn best_value(
    s: &GolState,
    p: Pairwise,
    enough: f64,
    value: impl FnMut(&GolState, Move) -> f64,
) -> Option<(f64, Move)> {
    best_until(enough, |emit| generate(s, p, value, emit))
}

/// Every move of the wide scoring in `s`, in a fixed order: the pass,
/// every kill of a living cell of either side, then every birth cell next
/// to a living one with every pair of the mover's own cells. None once the
/// game is over.
pub fn wide_moves(s: &GolState, mut each: impl FnMut(Move)) {
    if s.outcome().is_some() {
        return;
    }
    each(Move::Pass);
    for seat in [s.to_move, 1 - s.to_move] {
        for c in s.field.living(seat) {
            each(Move::Kill(c));
        }
    }
    let own: Vec<Cell> = s.field.living(s.to_move).collect();
    for at in frontier(&s.field) {
        for i in 0..own.len() {
            for j in i + 1..own.len() {
                each(Move::Birth {
                    at,
                    sacrifice: [own[i], own[j]],
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::golad::Field;

    fn cell(x: u8, y: u8) -> Cell {
        Cell { x, y }
    }

    /// A position from own (player 0, to move) and opponent cells.
    fn position(own: &[(u8, u8)], opp: &[(u8, u8)]) -> GolState {
        let mut f = Field::empty();
        for &(x, y) in own {
            f.set(cell(x, y), Some(0));
        }
        for &(x, y) in opp {
            f.set(cell(x, y), Some(1));
        }
        GolState::new(f, 100)
    }

    /// The field after `m`'s own change, without the generation.
    fn edited(s: &GolState, m: Move) -> Field {
        let mut f = s.field;
        match m {
            Move::Kill(c) => f.set(c, None),
            Move::Birth { at, sacrifice } => {
                f.set(at, Some(s.to_move));
                for c in sacrifice {
                    f.set(c, None);
                }
            }
            Move::Pass => {}
        }
        f
    }

    /// A value that is a sum over the mover's cells (a weight by column
    /// and row), plus `bonus` when both cells of `pair` are dead.
    fn value_with(pair: Option<[Cell; 2]>, bonus: f64) -> impl Fn(&GolState, Move) -> f64 {
        move |s, m| {
            let f = edited(s, m);
            let mut v: f64 = f
                .living(s.to_move)
                .map(|c| 1.0 + 0.1 * c.x as f64 + 0.01 * c.y as f64)
                .sum();
            if let Some([a, b]) = pair {
                if f.get(a).is_none() && f.get(b).is_none() {
                    v += bonus;
                }
            }
            v
        }
    }

    fn spread() -> GolState {
        position(
            &[
                (1, 1),
                (2, 1),
                (8, 2),
                (14, 3),
                (3, 9),
                (4, 9),
                (12, 12),
                (15, 14),
                (16, 14),
            ],
            &[(9, 6), (10, 6), (10, 7)],
        )
    }

    #[test]
    fn an_additive_value_is_predicted_exactly_and_its_best_birth_comes_first() {
        let s = spread();
        let value = value_with(None, 0.0);
        let p = Pairwise::default();
        let births = propose(&s, p, &value);
        assert!(!births.is_empty() && births.len() <= p.keep);
        for w in births.windows(2) {
            assert!(w[0].0 >= w[1].0, "best predicted first");
        }
        for &(predicted, m) in &births {
            assert!(s.is_legal(&m), "{m:?}");
            // Predictions are changes from the pass.
            let exact = value(&s, m) - value(&s, Move::Pass);
            assert!((predicted - exact).abs() < 1e-9, "{m:?}");
        }
        let mut best = (f64::NEG_INFINITY, Move::Pass);
        wide_moves(&s, |m| {
            if matches!(m, Move::Birth { .. }) {
                let v = value(&s, m);
                if v > best.0 {
                    best = (v, m);
                }
            }
        });
        assert!((value(&s, births[0].1) - best.0).abs() < 1e-9);
        // Deterministic.
        assert_eq!(births, propose(&s, p, &value));
    }

    #[test]
    fn two_sacrifices_that_only_pay_together_are_found_within_the_radius() {
        // (15,14) and (16,14) are the two dearest cells to lose alone (the
        // rightmost); a bonus pays only when both die, and makes them the
        // best pair.
        let s = spread();
        let pair = [cell(15, 14), cell(16, 14)];
        let value = value_with(Some(pair), 10.0);
        let uses_pair = |m: Move| match m {
            Move::Birth { sacrifice, .. } => {
                sacrifice.contains(&pair[0]) && sacrifice.contains(&pair[1])
            }
            _ => false,
        };
        let p = Pairwise {
            pairs: 1,
            sacrifices: 2,
            births: 2,
            keep: 3,
            radius: 1,
        };
        let births = propose(&s, p, &value);
        assert!(uses_pair(births[0].1), "{:?}", births[0]);
        let exact = value(&s, births[0].1) - value(&s, Move::Pass);
        assert!((births[0].0 - exact).abs() < 1e-9);
        // At radius 0 no two cells are measured together: the pair is the
        // worst by its parts and is not proposed.
        let blind = propose(&s, Pairwise { radius: 0, ..p }, &value);
        assert!(!blind.iter().any(|&(_, m)| uses_pair(m)), "{blind:?}");
    }

    #[test]
    fn generation_comes_in_order_and_stops_when_enough() {
        let s = spread();
        let value = value_with(None, 0.0);
        let p = Pairwise::default();
        let mut order = Vec::new();
        generate(&s, p, &value, |_, m| {
            order.push(m);
            ControlFlow::Continue(())
        });
        assert_eq!(order[0], Move::Pass);
        assert!(order[1..4].iter().all(|m| matches!(m, Move::Kill(_))));
        assert!(order[4..].iter().all(|m| matches!(m, Move::Birth { .. })));
        let all = candidates(&s, p, &value);
        assert_eq!(all.len(), order.len());
        let top = all[0].0;
        assert_eq!(
            best_value(&s, p, f64::INFINITY, &value).map(|x| x.0),
            Some(top)
        );
        // Enough at once: the pass is the answer.
        let pass = value(&s, Move::Pass);
        assert_eq!(best_value(&s, p, pass, &value), Some((pass, Move::Pass)));
        // Over: nothing; one own cell: no birth.
        let lone = position(&[(3, 3)], &[(9, 9)]);
        assert!(propose(&lone, p, &value).is_empty());
    }
}
