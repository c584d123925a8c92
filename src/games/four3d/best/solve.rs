//! `best`'s exact endgame solver (issue 32): the game-theoretic value of
//! a position, with the distance to the end (a win at ply `p` from the
//! root is `WIN - p`, as in the search), or nothing when the clock stops
//! it first.
//!
//! - **Threat-space pruning.** Every node is first settled by the threats
//!   as in the search (a winning drop wins, two opponent threats lose, one
//!   is the only move, a drop right under an opponent threat is never
//!   tried). Then the values the threats still allow bound the window: a
//!   side with no line free of the other's beads can at best draw, and no
//!   win comes sooner than the side's next drop (mate-distance pruning).
//! - **Move order for a solver**: the table's move, then drops that make a
//!   threat the opponent must answer at once, then drops that make threats
//!   (of the owner's height parity first), then the history heuristic;
//!   drops right under one of our own threats (they let the opponent
//!   block it) last.
//! - **The transposition table** is the search's: a solved entry is stored
//!   with depth [`SOLVED`], so the search trusts it at any depth, and the
//!   solver trusts any entry searched to the end of the game.
//! - **At the root**, null windows around the draw first settle win, draw
//!   or loss; then a win is searched again for the fewest moves and a loss
//!   for the most.

use super::position::{drops, from_table, settle, to_table, Settled, INF, WIN};
use super::threats::{made_threats, three_of_four};
use super::tt::{key, Table};
use crate::search::{Bound, Limits, SearchClock};
use std::sync::atomic::AtomicBool;

/// The table depth of a solved entry: deeper than any search.
pub const SOLVED: i32 = 120;

const NO_CELL: u8 = 0xFF;

/// Whether some line holds none of `blocked`'s cells (a side whose
/// opponent holds `blocked` can still complete it).
#[inline]
pub fn any_open_line(blocked: u64) -> bool {
    // A line is open when all four of its cells are free of `blocked`:
    // three of them free and the fourth free too.
    let free = !blocked;
    three_of_four(free) & free != 0
}

/// Whether `beads` hold a whole line.
#[inline]
pub fn has_line(beads: u64) -> bool {
    three_of_four(beads) & beads != 0
}

/// The cells of layers 0 and 2 (a peg's first and third cells).
const EVEN_LAYERS: u64 = 0x0000_FFFF_0000_FFFF;

/// Static zugzwang bounds by *claimeven* (Allis's rule for Connect Four,
/// on pegs of height 4): when every peg has an even number of free cells,
/// the side not to move can answer every drop on the same peg, and then
/// the mover gets exactly the free cells of layers 0 and 2 and the other
/// side those of layers 1 and 3, whatever the order. So if that final
/// filling gives the mover no line, the mover cannot win (at best a draw;
/// a loss by the last drop when the other side's filling holds a line).
/// With exactly one peg of odd free cells the mover can drop there first
/// and take the answering role itself: a filling with no line for the
/// other side is at least a draw (a win by the last drop when the
/// mover's holds one). Returns `(lo, hi)` for `me` to move at `ply` with
/// `empties` free cells, or the full window when no rule applies. Exact
/// game values lie inside, the distances included.
#[inline]
pub fn claimeven_bounds(me: u64, opp: u64, ply: i32, empties: i32) -> (i32, i32) {
    let occ = me | opp;
    let free = !occ;
    // A peg of odd height has exactly one of its layer pairs (0-1, 2-3)
    // half filled: one bit per such peg, in layer 0 or 2.
    let odd = (occ ^ (occ >> 16)) & EVEN_LAYERS;
    let last = WIN - ply - empties;
    match odd.count_ones() {
        0 => {
            if has_line(me | (free & EVEN_LAYERS)) {
                (-INF, INF)
            } else if has_line(opp | (free & !EVEN_LAYERS)) {
                (-INF, -last)
            } else {
                (-INF, 0)
            }
        }
        1 => {
            // The drop on the odd peg: its lowest free cell.
            let peg = (odd | odd >> 32) & 0xFFFF;
            let spread = peg | peg << 16 | peg << 32 | peg << 48;
            let c = drops(occ) & spread;
            let rest = free & !c;
            if has_line(opp | (rest & EVEN_LAYERS)) {
                (-INF, INF)
            } else if has_line(me | c | (rest & !EVEN_LAYERS)) {
                (last, INF)
            } else {
                (0, INF)
            }
        }
        _ => (-INF, INF),
    }
}

/// The eight symmetries of the 4x4 grid of pegs (the height is never
/// moved: gravity fixes it), on a whole bitboard at once. Symmetry `s`
/// mirrors x (bit 0 of `s`), then y (bit 1), then swaps x and y (bit 2).
/// The training lab turns its positions with them.
pub mod symmetry {
    const X_LO: u64 = 0x1111_1111_1111_1111;
    const Y_LO: u64 = 0x000F_000F_000F_000F;

    /// x -> 3 - x: the bits of every nibble reversed.
    #[inline]
    fn mirror_x(b: u64) -> u64 {
        (b >> 3 & X_LO) | (b >> 1 & X_LO << 1) | (b << 1 & X_LO << 2) | (b << 3 & X_LO << 3)
    }

    /// y -> 3 - y: the nibbles of every 16-bit layer reversed.
    #[inline]
    fn mirror_y(b: u64) -> u64 {
        (b >> 12 & Y_LO) | (b >> 4 & Y_LO << 4) | (b << 4 & Y_LO << 8) | (b << 12 & Y_LO << 12)
    }

    /// x <-> y: every layer's 4x4 block transposed (two delta swaps).
    #[inline]
    fn transpose(mut b: u64) -> u64 {
        let t = (b ^ b >> 3) & 0x0A0A_0A0A_0A0A_0A0A;
        b ^= t ^ t << 3;
        let t = (b ^ b >> 6) & 0x00CC_00CC_00CC_00CC;
        b ^ t ^ t << 6
    }

    /// The image of `b` under symmetry `s` (0..8).
    #[inline]
    pub fn apply(s: u8, mut b: u64) -> u64 {
        if s & 1 != 0 {
            b = mirror_x(b);
        }
        if s & 2 != 0 {
            b = mirror_y(b);
        }
        if s & 4 != 0 {
            b = transpose(b);
        }
        b
    }
}

/// One solving thread.
pub struct Solver<'a> {
    table: &'a Table,
    pub clock: SearchClock<'a>,
    pub nodes: u64,
    history: [i32; 64],
    aborted: bool,
    /// Levers, each measured on its own (`bench four3d-solve`'s note).
    pub bounds: bool,
    pub ordering: bool,
    /// The static zugzwang bounds ([`claimeven_bounds`]; off by default:
    /// the agents solve without them, the labelling lab's
    /// [`solve_wdl`] with them).
    pub zugzwang: bool,
    /// Enhanced transposition cutoffs ([`ETC_EMPTIES`]): before searching
    /// a node's moves, the table is probed for each position they lead
    /// to, and a stored value that already refutes the window cuts the
    /// node (off by default, as above).
    pub etc: bool,
    /// The fewest empty cells at which the cutoffs are tried
    /// ([`ETC_EMPTIES`]).
    pub etc_from: i32,
    /// The root settles win, draw or loss only ([`Solver::solve_root`]'s
    /// first pass), not the distance to the end (off by default).
    pub wdl: bool,
}

/// Enhanced transposition cutoffs are tried at nodes with at least this
/// many empty cells: below, the subtrees are too small to pay for a probe
/// per move.
pub const ETC_EMPTIES: i32 = 10;

/// A solved root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    pub cell: u8,
    /// Exact: `WIN - p` for a win at ply `p`, 0 for a draw, `-(WIN - p)`
    /// for a loss.
    pub value: i32,
}

impl<'a> Solver<'a> {
    pub fn new(table: &'a Table, clock: SearchClock<'a>) -> Self {
        Solver {
            table,
            clock,
            nodes: 0,
            history: [0; 64],
            aborted: false,
            bounds: true,
            ordering: true,
            zugzwang: false,
            etc: false,
            etc_from: ETC_EMPTIES,
            wdl: false,
        }
    }

    /// Whether the clock stopped the solver.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The exact value of `me` to move against `opp` (`ply` from the root)
    /// within `(alpha, beta)`, fail-soft; 0 and [`Solver::aborted`] when the
    /// clock stopped it.
    pub fn solve(&mut self, me: u64, opp: u64, mut alpha: i32, mut beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if self.clock.poll(self.nodes) {
            self.aborted = true;
            return 0;
        }
        let (moves, t_me) = match settle(me, opp, ply) {
            Settled::Value(v) => return v,
            Settled::Open { moves, t_me, .. } => (moves, t_me),
        };
        let empties = 64 - (me | opp).count_ones() as i32;
        if self.bounds {
            // No immediate win (settled above): the soonest win is at our
            // next drop, the soonest loss at the opponent's next one.
            let mut hi = WIN - ply - 3;
            let mut lo = -(WIN - ply - 2);
            if !any_open_line(opp) {
                hi = hi.min(0);
            }
            if !any_open_line(me) {
                lo = lo.max(0);
            }
            if self.zugzwang {
                let (zlo, zhi) = claimeven_bounds(me, opp, ply, empties);
                lo = lo.max(zlo);
                hi = hi.min(zhi);
            }
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let k = key(me, opp);
        let mut tt_cell = NO_CELL;
        if let Some(e) = self.table.probe(k) {
            tt_cell = e.cell.unwrap_or(NO_CELL);
            if e.depth >= empties {
                let v = from_table(e.value, ply);
                if e.bound.cuts(v, alpha, beta) {
                    return v;
                }
            }
        }
        let mut list = [(0i32, 0u8); 16];
        let n = self.order(me, opp, moves, t_me, tt_cell, &mut list);
        if self.etc && empties >= self.etc_from {
            if let Some(v) = self.etc_cut(me, opp, k, &list[..n], beta, ply) {
                return v;
            }
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_cell = NO_CELL;
        for (i, &(_, c)) in list[..n].iter().enumerate() {
            let (cm, co) = (opp, me | 1u64 << c);
            let v = if i == 0 {
                -self.solve(cm, co, -beta, -alpha, ply + 1)
            } else {
                let v = -self.solve(cm, co, -alpha - 1, -alpha, ply + 1);
                if v > alpha && v < beta && !self.aborted {
                    -self.solve(cm, co, -beta, -alpha, ply + 1)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_cell = c;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    if self.ordering {
                        let h = &mut self.history[c as usize];
                        *h = (*h + empties * empties).min(1 << 20);
                    }
                    break;
                }
            }
        }
        let bound = Bound::of(best, alpha0, beta);
        let cell = (best_cell != NO_CELL && best > alpha0).then_some(best_cell);
        self.table
            .store(k, to_table(best, ply), SOLVED, bound, cell);
        best
    }

    /// The enhanced transposition cutoff (`k` the node's own key): a value
    /// `>= beta` when the table
    /// already proves that one of `list`'s moves reaches it (the position
    /// after it stored with an upper bound, or exactly, at most `-beta`
    /// for the opponent), stored as a lower bound like a searched cut.
    #[inline]
    fn etc_cut(
        &mut self,
        me: u64,
        opp: u64,
        k: u64,
        list: &[(i32, u8)],
        beta: i32,
        ply: i32,
    ) -> Option<i32> {
        let empties = 63 - (me | opp).count_ones() as i32;
        for &(_, c) in list {
            let Some(e) = self.table.probe(key(opp, me | 1u64 << c)) else {
                continue;
            };
            if e.depth < empties || e.bound == Bound::Lower {
                continue;
            }
            let v = -from_table(e.value, ply + 1);
            if v >= beta {
                self.table
                    .store(k, to_table(v, ply), SOLVED, Bound::Lower, Some(c));
                return Some(v);
            }
        }
        None
    }

    /// Fills `list` with the cells of `moves`, best first (see the module
    /// documentation); returns how many.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn order(
        &self,
        me: u64,
        opp: u64,
        mut moves: u64,
        t_me: u64,
        tt_cell: u8,
        list: &mut [(i32, u8); 16],
    ) -> usize {
        let occ = me | opp;
        let seat = (occ.count_ones() & 1) as usize;
        let wastes = t_me >> 16;
        let mut n = 0;
        while moves != 0 {
            let c = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let mut s = if c == tt_cell { 1 << 30 } else { 0 };
            if self.ordering {
                // The threats this drop makes: the lines through it that
                // then hold three of ours and no opponent bead.
                let mut made = made_threats(me, opp, c);
                made &= !t_me;
                // A threat on a cell the opponent can drop on next must be
                // answered at once.
                let next_drops = drops(occ | 1u64 << c);
                if made & next_drops != 0 {
                    s += 1 << 24;
                }
                s += (made.count_ones() as i32) << 20;
                s += ((made & super::eval::PARITY[seat]).count_ones() as i32) << 19;
                // Taking a cell that one of the opponent's lines needs.
                if (1u64 << c) & three_of_four(opp | 1u64 << c) & !opp != 0 {
                    s += 1 << 18;
                }
                s += self.history[c as usize];
            }
            if wastes & (1u64 << c) != 0 {
                s -= 1 << 28;
            }
            let mut j = n;
            while j > 0 && list[j - 1].0 < s {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = (s, c);
            n += 1;
        }
        n
    }

    /// Solves the root (`me` to move, `cells` its moves in the order to try
    /// them): the best move and its exact value, or `None` when the clock
    /// stopped it before win, draw or loss was settled. A win is searched
    /// again for the fewest moves and a loss for the most, as long as the
    /// clock allows (else the first move found to win, or any move, is
    /// kept).
    pub fn solve_root(&mut self, me: u64, opp: u64, cells: &[u8]) -> Option<Solved> {
        // Win, draw or loss: null windows around the draw.
        let (mut alpha, beta) = (-1, 1);
        let mut best: Option<Solved> = None;
        for &c in cells {
            let v = -self.solve(opp, me | 1u64 << c, -beta, -alpha, 1);
            if self.aborted {
                return None;
            }
            if best.is_none_or(|b| v > b.value) {
                best = Some(Solved { cell: c, value: v });
            }
            alpha = alpha.max(v);
            if v >= beta {
                break;
            }
        }
        let mut found = best?;
        if found.value == 0 || self.wdl {
            return Some(found);
        }
        // The exact distance: wins only (a window above the draw) or
        // losses only (below it).
        let (mut alpha, beta) = if found.value > 0 { (0, INF) } else { (-INF, 0) };
        let mut exact: Option<Solved> = None;
        for &c in cells {
            let v = -self.solve(opp, me | 1u64 << c, -beta, -alpha, 1);
            if self.aborted {
                return Some(found);
            }
            if v > alpha {
                alpha = v;
                exact = Some(Solved { cell: c, value: v });
            }
        }
        if let Some(e) = exact {
            found = e;
        }
        Some(found)
    }
}

/// The levers of a solve, each measured on its own (`bench
/// four3d-solve-deep`): off in the agents, on in the labelling lab's
/// [`solve_wdl`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Levers {
    /// The static zugzwang bounds on every thread ([`Solver::zugzwang`]).
    pub zugzwang: bool,
    /// Enhanced transposition cutoffs ([`Solver::etc`]).
    pub etc: bool,
    /// Win, draw or loss only, not the distance ([`Solver::wdl`]).
    pub wdl: bool,
}

impl Levers {
    /// A solving thread with these levers.
    pub fn solver<'a>(&self, table: &'a Table, clock: SearchClock<'a>) -> Solver<'a> {
        let mut s = Solver::new(table, clock);
        s.zugzwang = self.zugzwang;
        s.etc = self.etc;
        s.wdl = self.wdl;
        s
    }
}

/// A root solve on the main thread (`limits`, `stop`) with `helpers`
/// more threads sharing `table` (`helper_limits`, stopped when the main
/// thread is done).
pub struct RootSolve<'a> {
    pub table: &'a Table,
    pub helpers: usize,
    pub limits: &'a Limits,
    pub helper_limits: &'a Limits,
    pub stop: &'a AtomicBool,
    pub levers: Levers,
}

impl RootSolve<'_> {
    /// Solves the root (`me` to move, `cells` its moves in order): each
    /// helper tries all the root moves in another order and only the main
    /// thread's answer counts. Gives the answer and the nodes of all
    /// threads.
    pub fn solve(&self, me: u64, opp: u64, cells: &[u8]) -> (Option<Solved>, u64) {
        let mut main = self
            .levers
            .solver(self.table, SearchClock::new(self.limits, self.stop));
        let (solved, helper_nodes) = super::with_helpers(
            self.helpers,
            || main.solve_root(me, opp, cells),
            |i, halt| {
                let mut s = self
                    .levers
                    .solver(self.table, SearchClock::new(self.helper_limits, halt));
                let mut order = cells.to_vec();
                order.rotate_left((i + 1) % cells.len());
                s.solve_root(me, opp, &order);
                s.nodes
            },
        );
        (solved, main.nodes + helper_nodes)
    }
}

/// Solves `me` to move against `opp` exactly within `max_nodes` (one
/// thread, `table` shared with earlier solves): `None` when the cap
/// stopped it.
pub fn solve_exact(table: &Table, me: u64, opp: u64, max_nodes: u64) -> Option<i32> {
    capped_solve(
        Levers::default(),
        (-WIN - 1, WIN + 1),
        table,
        me,
        opp,
        max_nodes,
    )
}

/// Settles `me` to move against `opp` as a win (1), draw (0) or loss (-1)
/// within `max_nodes` (one thread, `table` shared with earlier solves of
/// this kind): a null window around the draw, with the solver's claimeven
/// bounds and transposition cutoffs, which change its speed, not its
/// values.
pub fn solve_wdl(table: &Table, me: u64, opp: u64, max_nodes: u64) -> Option<i32> {
    let levers = Levers {
        zugzwang: true,
        etc: true,
        wdl: true,
    };
    capped_solve(levers, (-1, 1), table, me, opp, max_nodes).map(i32::signum)
}

/// `me` to move against `opp` solved within `window` by a solver with
/// `levers` under a cap of `max_nodes`; `None` when the cap stopped it.
fn capped_solve(
    levers: Levers,
    (alpha, beta): (i32, i32),
    table: &Table,
    me: u64,
    opp: u64,
    max_nodes: u64,
) -> Option<i32> {
    let stop = AtomicBool::new(false);
    let mut s = levers.solver(table, SearchClock::new(&Limits::playouts(max_nodes), &stop));
    let v = s.solve(me, opp, alpha, beta, 0);
    (!s.aborted()).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::super::plain::plain_solve;
    use super::super::search::tests::late_position;
    use super::*;
    use crate::search::{Game, Limits};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn an_open_line_is_one_free_of_the_blocking_beads() {
        use rand::{Rng, SeedableRng};
        assert!(any_open_line(0));
        assert!(!any_open_line(u64::MAX));
        assert!(any_open_line(0xFFFF | 0xFFFF << 48));
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        use crate::games::four3d::lines::LINES;
        let mut open = [0; 2];
        for _ in 0..5000 {
            let p = rng.gen_range(0.1..0.6);
            let blocked = (0..64).fold(0u64, |b, c| b | (rng.gen_bool(p) as u64) << c);
            let by_lines = LINES.iter().any(|&l| l & blocked == 0);
            assert_eq!(any_open_line(blocked), by_lines, "{blocked:#x}");
            open[by_lines as usize] += 1;
        }
        assert!(open[0] > 100 && open[1] > 100, "{open:?}");
    }

    #[test]
    fn the_solver_agrees_with_the_plain_search_to_the_end() {
        let stop = AtomicBool::new(false);
        for seed in 0..30 {
            let b = late_position(500 + seed, 10 + (seed % 3) as u32);
            let s = b.to_move();
            let (me, opp) = (b.stones(s), b.stones(1 - s));
            let mut n = 0;
            let plain = plain_solve(me, opp, &mut n);
            for (bounds, ordering, zugzwang, etc) in [
                (true, true, true, false),
                (true, true, false, false),
                (false, false, false, false),
                (true, false, true, false),
                (true, true, true, true),
                (true, true, false, true),
            ] {
                let table = Table::new(14);
                let clock = SearchClock::new(&Limits::playouts(u64::MAX), &stop);
                let mut sv = Solver::new(&table, clock);
                sv.bounds = bounds;
                sv.ordering = ordering;
                sv.zugzwang = zugzwang;
                sv.etc = etc;
                // The cutoffs at every node of these small trees.
                sv.etc_from = 2;
                // A null window, then the whole window on the same table:
                // the second solve meets the first one's bounds (the
                // cutoffs' case).
                let v = sv.solve(me, opp, -1, 1, 0).signum();
                assert_eq!(v, plain.signum(), "seed {seed} etc {etc}: the null window");
                let v = sv.solve(me, opp, -INF, INF, 0);
                assert_eq!(
                    v, plain,
                    "seed {seed} bounds {bounds} ordering {ordering} zugzwang {zugzwang} etc {etc}"
                );
            }
        }
    }

    #[test]
    fn claimeven_bounds_hold_the_exact_value_and_cut_below_the_root() {
        // The shipped endgames (positions of real self-play games with
        // their solved values) and every position one or two drops after
        // them: the value lies inside the static bounds; the rule bounds
        // some of them (random positions hold lines for both sides too
        // often for it to fire).
        use super::super::endgames::shipped_endgames;
        let (mut bounded, mut all) = (0, 0);
        for e in shipped_endgames().iter().filter(|e| e.empties() <= 12) {
            let b = e.board();
            let s = b.to_move();
            let (me, opp) = (b.stones(s), b.stones(1 - s));
            let mut check = |me: u64, opp: u64| {
                let empties = 64 - (me | opp).count_ones() as i32;
                if has_line(me) || has_line(opp) || empties == 0 {
                    return;
                }
                let mut n = 0;
                let v = plain_solve(me, opp, &mut n);
                let (lo, hi) = claimeven_bounds(me, opp, 0, empties);
                assert!(lo <= v && v <= hi, "{v} outside [{lo}, {hi}]");
                bounded += (lo > -INF || hi < INF) as usize;
                all += 1;
            };
            check(me, opp);
            let mut first = drops(me | opp);
            while first != 0 {
                let c = first.trailing_zeros();
                first &= first - 1;
                let (me2, opp2) = (opp, me | 1u64 << c);
                check(me2, opp2);
                let mut second = drops(me2 | opp2);
                while second != 0 {
                    let d = second.trailing_zeros();
                    second &= second - 1;
                    check(opp2, me2 | 1u64 << d);
                }
            }
        }
        assert!(all > 400, "{all}");
        assert!(bounded * 20 >= all, "bounded {bounded} of {all}");
    }

    #[test]
    fn the_root_plays_the_fastest_win_and_the_slowest_loss() {
        use super::super::position::{root_moves, RootMoves};
        let stop = AtomicBool::new(false);
        let mut checked = 0;
        for seed in 0..2000 {
            if checked == 25 {
                break;
            }
            let b = late_position(900 + seed, 11);
            let s = b.to_move();
            let (me, opp) = (b.stones(s), b.stones(1 - s));
            let RootMoves::Search(cells) = root_moves(me, opp) else {
                continue;
            };
            let table = Table::new(14);
            let clock = SearchClock::new(&Limits::playouts(u64::MAX), &stop);
            let got = Solver::new(&table, clock)
                .solve_root(me, opp, &cells)
                .unwrap();
            // The plain value of every root move.
            let values: Vec<i32> = cells
                .iter()
                .map(|&c| {
                    let mut n = 0;
                    let w = super::super::eval::Weights::default();
                    -super::super::plain::plain_alphabeta(
                        opp,
                        me | 1 << c,
                        64,
                        -INF,
                        INF,
                        1,
                        &w,
                        &mut n,
                    )
                })
                .collect();
            let top = *values.iter().max().unwrap();
            assert_eq!(got.value, top, "seed {seed}");
            // Win, draw or loss only: the sign, and a move that keeps it.
            let table = Table::new(14);
            let mut sv = Solver::new(&table, SearchClock::new(&Limits::playouts(u64::MAX), &stop));
            sv.wdl = true;
            let wdl = sv.solve_root(me, opp, &cells).unwrap();
            assert_eq!(wdl.value.signum(), top.signum(), "seed {seed} wdl");
            let i = cells.iter().position(|&c| c == wdl.cell).unwrap();
            assert_eq!(values[i].signum(), top.signum(), "seed {seed} wdl move");
            let i = cells.iter().position(|&c| c == got.cell).unwrap();
            assert_eq!(values[i], top, "seed {seed}: the move has the value");
            // The same with a helper thread beside the main one (solving
            // every root move in its own order).
            let unlimited = Limits::playouts(u64::MAX);
            let (helpers, table) = (1, Table::new(14));
            let levers = Levers {
                zugzwang: seed % 2 == 0,
                etc: seed % 4 < 2,
                wdl: false,
            };
            let (shared, nodes) = RootSolve {
                table: &table,
                helpers,
                limits: &unlimited,
                helper_limits: &unlimited,
                stop: &stop,
                levers,
            }
            .solve(me, opp, &cells);
            let shared = shared.unwrap();
            let what = format!("seed {seed}, {helpers} helper");
            assert_eq!(shared.value, top, "{what}");
            let i = cells.iter().position(|&c| c == shared.cell).unwrap();
            assert_eq!(values[i], top, "{what}: the move has the value");
            assert!(nodes > 0);
            // Win, draw or loss only: the sign, and a move that keeps it.
            table.clear();
            let (wdl, _) = RootSolve {
                table: &table,
                helpers,
                limits: &unlimited,
                helper_limits: &unlimited,
                stop: &stop,
                levers: Levers {
                    wdl: true,
                    ..levers
                },
            }
            .solve(me, opp, &cells);
            let wdl = wdl.unwrap();
            assert_eq!(wdl.value.signum(), top.signum(), "{what}, wdl");
            let i = cells.iter().position(|&c| c == wdl.cell).unwrap();
            assert_eq!(values[i].signum(), top.signum(), "{what}, wdl move");
            checked += 1;
        }
        assert_eq!(checked, 25);
    }

    #[test]
    fn the_eight_symmetries_keep_lines_and_pegs() {
        use crate::games::four3d::lines::LINES;
        let images: Vec<[u64; 64]> = (0..8u8)
            .map(|s| std::array::from_fn(|c| symmetry::apply(s, 1u64 << c)))
            .collect();
        for s in 0..8u8 {
            let img = &images[s as usize];
            // A permutation of the cells that keeps each cell's height.
            let all = img.iter().fold(0u64, |a, &b| a | b);
            assert_eq!(all, u64::MAX, "symmetry {s}");
            for (c, &b) in img.iter().enumerate() {
                assert_eq!(b.count_ones(), 1);
                assert_eq!(
                    b.trailing_zeros() / 16,
                    c as u32 / 16,
                    "symmetry {s} cell {c}"
                );
            }
            // Lines to lines.
            for &l in LINES.iter() {
                assert!(
                    LINES.contains(&symmetry::apply(s, l)),
                    "symmetry {s} line {l:#x}"
                );
            }
        }
        // Eight different maps.
        for a in 0..8 {
            for b in 0..a {
                assert_ne!(images[a], images[b], "{a} and {b}");
            }
        }
    }
}
