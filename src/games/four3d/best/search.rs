//! `best`'s search: negamax alpha-beta with principal variation search,
//! iterative deepening, the shared transposition table, killer moves and
//! the history heuristic, on two bitboards (the side to move's beads and
//! the other side's).
//!
//! Every node first settles what the threats decide:
//! - a drop that completes a line wins now;
//! - an opponent threat on a droppable cell must be blocked: two of them
//!   lose, one is the only move, searched without using up depth (so a
//!   sequence of forcing threats is followed to its end, like a check
//!   extension in chess);
//! - a drop right under an opponent threat gives the opponent the win and
//!   is never searched; when every drop does that, the node is lost.
//!
//! Only then does a node at depth 0 take the static evaluation. A win at
//! ply `p` from the root is worth `WIN - p` (a loss the negation), so a
//! quicker win is a better one.

use super::eval::{evaluate_with, LineCounts, Weights};
use super::fitted::Model;
use super::nnue::{Accumulator, Net};
use super::position::{drops, from_table, settle, to_table, Settled, INF, STATIC, WON};
use super::threats::made_threats;
use super::tt::{key, Table};
use crate::search::Bound;
use crate::search::SearchClock;

/// The search's switches: each one a lever measured on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Probe and store the transposition table.
    pub tt: bool,
    /// Killer moves and the history heuristic (else the static order).
    pub ordering: bool,
    /// Null windows after the first move (principal variation search).
    pub pvs: bool,
    /// A forced block uses no depth.
    pub extend_forced: bool,
    /// Late move reductions: a quiet move late in the order (not the
    /// table's move or a killer, making no threat) is searched one ply
    /// shallower first (two when very late and deep), and again at full
    /// depth if it beats alpha.
    pub lmr: bool,
    /// At the leaves, follow our drops that make a threat the opponent
    /// must block at once, and the blocks, up to [`QUIESCE_PLIES`] plies
    /// (a threat-space quiescence search), standing pat on the
    /// evaluation otherwise.
    pub quiesce: bool,
}

/// How many plies the quiescence search follows forcing threats.
pub const QUIESCE_PLIES: i32 = 8;

impl Default for Features {
    fn default() -> Self {
        Features {
            tt: true,
            ordering: true,
            pvs: true,
            extend_forced: true,
            lmr: true,
            quiesce: true,
        }
    }
}

/// Late move reductions start at this move of the order (the first
/// three: the table's move and the two killers, usually).
pub const LMR_FROM: usize = 3;

/// From this move of the order (at a depth of 6 or more) a late move is
/// reduced two plies instead of one.
pub const LMR_DEEP_FROM: usize = 8;

/// The search's numbers that `tune` moves (`best`'s parameters
/// `lmr_from`, `lmr_deep_from`, `quiesce_plies` and `net_percent`); the
/// defaults are the constants every baseline (`ab-v1` to `ab-v4`) was
/// measured with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// Late move reductions start at this move of the order.
    pub lmr_from: usize,
    /// Two plies of reduction from this move (depth 6 or more).
    pub lmr_deep_from: usize,
    /// How many plies the quiescence search follows forcing threats.
    pub quiesce_plies: i32,
    /// The network's correction is added at this many percent.
    pub net_percent: i32,
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs {
            lmr_from: LMR_FROM,
            lmr_deep_from: LMR_DEEP_FROM,
            quiesce_plies: QUIESCE_PLIES,
            net_percent: 100,
        }
    }
}

pub struct Worker<'a> {
    pub weights: Weights,
    pub features: Features,
    pub knobs: Knobs,
    table: &'a Table,
    pub clock: SearchClock<'a>,
    pub nodes: u64,
    killers: [[u8; 2]; 66],
    history: [i32; 64],
    aborted: bool,
    /// The open-lines term of the current node, kept drop by drop.
    lines: LineCounts,
    /// The seat to move at the root.
    root_seat: usize,
    /// The fitted evaluation, if used (else the hand weights).
    model: Option<&'a Model>,
    /// The network that corrects the fitted evaluation, if used, and its
    /// accumulator, kept drop by drop as `lines` is.
    net: Option<&'a Net>,
    acc: Accumulator,
}

/// One root move with its last value (a bound for moves that failed low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub cell: u8,
    pub value: i32,
}

/// The outcome of one root iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub cell: u8,
    pub value: i32,
    /// Whether every root move was searched (else the first one was, and
    /// `cell` is the best of those searched).
    pub complete: bool,
}

const NO_CELL: u8 = 0xFF;

impl<'a> Worker<'a> {
    pub fn new(
        weights: Weights,
        features: Features,
        table: &'a Table,
        clock: SearchClock<'a>,
    ) -> Self {
        Worker {
            weights,
            features,
            knobs: Knobs::default(),
            table,
            clock,
            nodes: 0,
            killers: [[NO_CELL; 2]; 66],
            history: [0; 64],
            aborted: false,
            lines: LineCounts::new([0, 0], &weights),
            root_seat: 0,
            model: None,
            net: None,
            acc: Accumulator::default(),
        }
    }

    /// Adds `net` to the fitted evaluation (with a model only).
    pub fn with_net(mut self, net: Option<&'a Net>) -> Self {
        self.net = net;
        self
    }

    /// The search's numbers ([`Knobs`]) instead of the defaults.
    pub fn with_knobs(mut self, knobs: Knobs) -> Self {
        self.knobs = knobs;
        self
    }

    /// `seat` drops on `cell`: the incremental terms follow.
    #[inline]
    fn place(&mut self, cell: u32, seat: usize) {
        self.lines.place(cell, seat);
        if let Some(n) = self.net {
            n.place(&mut self.acc, cell, seat);
        }
    }

    /// The drop of `seat` on `cell` taken back.
    #[inline]
    fn remove(&mut self, cell: u32, seat: usize) {
        self.lines.remove(cell, seat);
        if let Some(n) = self.net {
            n.remove(&mut self.acc, cell, seat);
        }
    }

    /// Evaluates quiet positions with the fitted `model` instead of the
    /// hand weights.
    pub fn with_model(mut self, model: Option<&'a Model>) -> Self {
        self.model = model;
        self
    }

    /// Makes `me` to move against `opp` the root: the line counts are
    /// computed afresh (call before [`Worker::search`] or [`Worker::root`]).
    pub fn set_root(&mut self, me: u64, opp: u64) {
        let seat = ((me | opp).count_ones() & 1) as usize;
        let mut stones = [0; 2];
        stones[seat] = me;
        stones[1 - seat] = opp;
        self.lines = LineCounts::new(stones, &self.weights);
        if let Some(n) = self.net {
            self.acc = n.accumulate(stones);
        }
        self.root_seat = seat;
    }

    /// Whether the clock stopped the search.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The value of the position for the side to move (`me`), searched
    /// `depth` plies, within `(alpha, beta)` (fail-soft).
    pub fn search(
        &mut self,
        me: u64,
        opp: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.clock.poll(self.nodes) {
            self.aborted = true;
            return 0;
        }
        let (moves, forced, t_me, t_opp) = match settle(me, opp, ply) {
            Settled::Value(v) => return v,
            Settled::Open {
                moves,
                forced,
                t_me,
                t_opp,
            } => (moves, forced, t_me, t_opp),
        };
        let ext = if forced {
            self.features.extend_forced as i32
        } else {
            0
        };
        let seat = self.root_seat ^ (ply as usize & 1);
        if depth + ext <= 0 {
            if self.features.quiesce {
                let settled = (moves, forced, t_me, t_opp);
                return self.quiet(me, opp, alpha, beta, ply, settled, self.knobs.quiesce_plies);
            }
            return self.eval(seat, me, opp, t_me, t_opp);
        }

        let k = key(me, opp);
        let mut tt_cell = NO_CELL;
        let use_tt = self.features.tt && depth >= 2;
        if use_tt {
            if let Some(e) = self.table.probe(k) {
                tt_cell = e.cell.unwrap_or(NO_CELL);
                if e.depth >= depth {
                    let v = from_table(e.value, ply);
                    if e.bound.cuts(v, alpha, beta) {
                        return v;
                    }
                }
            }
        }

        let mut list = [(0i32, 0u8); 16];
        let n = self.order(moves, t_me, tt_cell, ply, &mut list);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_cell = NO_CELL;
        for (i, &(_, c)) in list[..n].iter().enumerate() {
            let (cm, co) = (opp, me | 1u64 << c);
            let d = depth - 1 + ext;
            self.place(c as u32, seat);
            let reduce = if self.features.lmr
                && i >= self.knobs.lmr_from
                && depth >= 3
                && !forced
                && made_threats(me, opp, c) == 0
            {
                if i >= self.knobs.lmr_deep_from && depth >= 6 {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            let v = if i == 0 || !self.features.pvs {
                -self.search(cm, co, d, -beta, -alpha, ply + 1)
            } else {
                let mut v = -self.search(cm, co, d - reduce, -alpha - 1, -alpha, ply + 1);
                if reduce > 0 && v > alpha && !self.aborted {
                    v = -self.search(cm, co, d, -alpha - 1, -alpha, ply + 1);
                }
                if v > alpha && v < beta && !self.aborted {
                    -self.search(cm, co, d, -beta, -alpha, ply + 1)
                } else {
                    v
                }
            };
            self.remove(c as u32, seat);
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
                    if self.features.ordering {
                        let kl = &mut self.killers[ply as usize];
                        if kl[0] != c {
                            kl[1] = kl[0];
                            kl[0] = c;
                        }
                        let h = &mut self.history[c as usize];
                        *h = (*h + depth * depth).min(1 << 20);
                    }
                    break;
                }
            }
        }
        if use_tt {
            let bound = Bound::of(best, alpha0, beta);
            let cell = (best_cell != NO_CELL && best > alpha0).then_some(best_cell);
            self.table.store(k, to_table(best, ply), depth, bound, cell);
        }
        best
    }

    /// The static value of a quiet position for the side to move.
    #[inline]
    fn eval(&self, seat: usize, me: u64, opp: u64, t_me: u64, t_opp: u64) -> i32 {
        if let Some(m) = self.model {
            let v = m.value(&self.lines, seat, me, opp, t_me, t_opp);
            return match self.net {
                Some(n) => {
                    // Exact at 100 percent (an integer times 100, over 100).
                    let c = n.value(&self.acc, seat, me | opp, t_me, t_opp)
                        * self.knobs.net_percent
                        / 100;
                    (v + c).clamp(-(WON - 1), WON - 1)
                }
                None => v,
            };
        }
        evaluate_with(self.lines.for_seat(seat), seat, t_me, t_opp, &self.weights)
    }

    /// The quiescence search of a node (see [`Features::quiesce`]), `left`
    /// plies still allowed.
    fn quiesce(&mut self, me: u64, opp: u64, alpha: i32, beta: i32, ply: i32, left: i32) -> i32 {
        self.nodes += 1;
        if self.clock.poll(self.nodes) {
            self.aborted = true;
            return 0;
        }
        match settle(me, opp, ply) {
            Settled::Value(v) => v,
            Settled::Open {
                moves,
                forced,
                t_me,
                t_opp,
            } => self.quiet(
                me,
                opp,
                alpha,
                beta,
                ply,
                (moves, forced, t_me, t_opp),
                left,
            ),
        }
    }

    /// [`Worker::quiesce`] once the node is settled (`settled`: its moves,
    /// whether they are a forced block, both sides' threats).
    #[allow(clippy::too_many_arguments)]
    fn quiet(
        &mut self,
        me: u64,
        opp: u64,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        settled: (u64, bool, u64, u64),
        left: i32,
    ) -> i32 {
        let (moves, forced, t_me, t_opp) = settled;
        let seat = self.root_seat ^ (ply as usize & 1);
        if forced {
            if left <= 0 {
                return self.eval(seat, me, opp, t_me, t_opp);
            }
            let c = moves.trailing_zeros();
            self.place(c, seat);
            let v = -self.quiesce(opp, me | 1u64 << c, -beta, -alpha, ply + 1, left - 1);
            self.remove(c, seat);
            return v;
        }
        let stand = self.eval(seat, me, opp, t_me, t_opp);
        if stand >= beta || left <= 0 {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let occ = me | opp;
        let mut m = moves;
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            let made = made_threats(me, opp, c) & !t_me;
            if made & drops(occ | 1u64 << c) == 0 {
                continue;
            }
            self.place(c as u32, seat);
            let v = -self.quiesce(opp, me | 1u64 << c, -beta, -alpha, ply + 1, left - 1);
            self.remove(c as u32, seat);
            if self.aborted {
                return 0;
            }
            // Only a proven win counts: a threat that is merely blocked
            // leaves the position to the evaluation.
            if v >= WON && v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Fills `list` with the cells of `moves`, best first: the table's move,
    /// the two killers of this ply, then by history and the static order;
    /// a drop right under one of our own threats (it lets the opponent
    /// block it) goes last. Returns how many.
    #[inline]
    fn order(
        &self,
        mut moves: u64,
        t_me: u64,
        tt_cell: u8,
        ply: i32,
        list: &mut [(i32, u8); 16],
    ) -> usize {
        let kl = if self.features.ordering {
            self.killers[ply as usize]
        } else {
            [NO_CELL; 2]
        };
        let wastes = t_me >> 16;
        let mut n = 0;
        while moves != 0 {
            let c = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let mut s = if c == tt_cell {
                1 << 30
            } else if c == kl[0] {
                1 << 29
            } else if c == kl[1] {
                1 << 28
            } else if self.features.ordering {
                self.history[c as usize] * 8 + STATIC[c as usize]
            } else {
                STATIC[c as usize]
            };
            if wastes & (1u64 << c) != 0 {
                s -= 1 << 27;
            }
            // Insertion, highest first.
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

    /// One iteration over the root moves (searched in order, principal
    /// variation first), `depth` plies deep. Each move's value is written
    /// back; the moves are then sorted best first for the next iteration.
    /// `None` when the clock stopped it before the first move was done.
    pub fn root(
        &mut self,
        me: u64,
        opp: u64,
        moves: &mut [RootMove],
        depth: i32,
    ) -> Option<Iteration> {
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<(u8, i32)> = None;
        let mut done = 0;
        self.set_root(me, opp);
        let seat = self.root_seat;
        for (i, m) in moves.iter_mut().enumerate() {
            let c = m.cell;
            let (cm, co) = (opp, me | 1u64 << c);
            self.place(c as u32, seat);
            let v = if i == 0 || !self.features.pvs {
                -self.search(cm, co, depth - 1, -beta, -alpha, 1)
            } else {
                let v = -self.search(cm, co, depth - 1, -alpha - 1, -alpha, 1);
                if v > alpha && !self.aborted {
                    -self.search(cm, co, depth - 1, -beta, -alpha, 1)
                } else {
                    v
                }
            };
            self.remove(c as u32, seat);
            if self.aborted {
                break;
            }
            m.value = v;
            done = i + 1;
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((c, v));
            }
            alpha = alpha.max(v);
        }
        let (cell, value) = best?;
        // Best first, then the rest by value (stable: ties keep their order).
        if let Some(p) = moves[..done].iter().position(|m| m.cell == cell) {
            moves[..=p].rotate_right(1);
        }
        moves[1..done].sort_by_key(|m| std::cmp::Reverse(m.value));
        Some(Iteration {
            cell,
            value,
            complete: done == moves.len(),
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::plain::plain_alphabeta;
    use super::super::position::{root_moves, RootMoves};
    use super::super::threats::threats;
    use super::*;
    use crate::games::four3d::{Board, Peg};
    use crate::search::{Game, Limits};
    use std::sync::atomic::AtomicBool;

    fn sides(b: &Board) -> (u64, u64) {
        let s = b.to_move();
        (b.stones(s), b.stones(1 - s))
    }

    /// Exact game value by plain minimax over every legal drop (for tiny
    /// endgames only): +1 win, 0 draw, -1 loss for the side to move.
    fn minimax(b: &Board) -> i32 {
        if let Some(o) = b.outcome() {
            return match o.winner() {
                None => 0,
                Some(w) if w == b.to_move() => 1,
                Some(_) => -1,
            };
        }
        b.legal_moves()
            .into_iter()
            .map(|m| {
                let mut c = *b;
                c.play(m);
                -minimax(&c)
            })
            .max()
            .unwrap()
    }

    /// A random position `empty` cells from the end, still undecided.
    pub(in super::super) fn late_position(seed: u64, empty: u32) -> Board {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        loop {
            let mut b = Board::new();
            while b.outcome().is_none() && b.ply() < 64 - empty {
                let m = b.legal_moves();
                b.play(m[rng.gen_range(0..m.len())]);
            }
            if b.outcome().is_none() {
                return b;
            }
        }
    }

    #[test]
    fn the_network_in_the_search_is_the_one_computed_afresh() {
        use super::super::nnue::{FloatNet, Inputs};
        use rand::{Rng, SeedableRng};
        // A network with large random output weights, so that it matters;
        // with the peg inputs, which are computed at each evaluation.
        let mut f = FloatNet::new(11, Inputs::Pegs);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(12);
        for w in f.w2.iter_mut().flatten() {
            *w = rng.gen_range(-3.0..3.0);
        }
        let net = f.quantize();
        let model = Model::shipped();
        let table = Table::new(12);
        let stop = AtomicBool::new(false);
        for seed in 0..10 {
            let b = late_position(seed, 30);
            let (me, opp) = sides(&b);
            let clock = SearchClock::new(&Limits::playouts(u64::MAX), &stop);
            let mut w = Worker::new(Weights::default(), Features::default(), &table, clock)
                .with_model(Some(model))
                .with_net(Some(&net));
            w.set_root(me, opp);
            let seat = b.to_move();
            let mut m = drops(me | opp);
            while m != 0 {
                // Down two drops and back, as the search goes: each
                // position's value is the network's afresh.
                let c = m.trailing_zeros();
                m &= m - 1;
                let mut first = b;
                first.play(Peg((c & 15) as u8));
                if first.outcome().is_some() {
                    continue;
                }
                w.place(c, seat);
                let after = me | 1u64 << c;
                let mut n = drops(opp | after);
                while n != 0 {
                    let d = n.trailing_zeros();
                    n &= n - 1;
                    w.place(d, 1 - seat);
                    let (me2, opp2) = (after, opp | 1u64 << d);
                    let empty = !(me2 | opp2);
                    let v = w.eval(seat, me2, opp2, threats(me2, empty), threats(opp2, empty));
                    let mut pos = first;
                    pos.play(Peg((d & 15) as u8));
                    assert_eq!(pos.stones(seat), me2);
                    let fresh = net.with_model_value(model, &pos);
                    // The search's fitted value is an f32 cut to an integer,
                    // the lab's an f64.
                    assert!((f64::from(v) - fresh).abs() <= 1.5, "{v} vs {fresh}");
                    w.remove(d, 1 - seat);
                }
                w.remove(c, seat);
            }
            // Without the network, the fitted value alone.
            let mut plain = Worker::new(
                Weights::default(),
                Features::default(),
                &table,
                SearchClock::new(&Limits::playouts(u64::MAX), &stop),
            )
            .with_model(Some(model));
            plain.set_root(me, opp);
            let empty = !(me | opp);
            let (t_me, t_opp) = (threats(me, empty), threats(opp, empty));
            let with = w.eval(seat, me, opp, t_me, t_opp);
            let without = plain.eval(seat, me, opp, t_me, t_opp);
            let acc = net.accumulate([b.stones(0), b.stones(1)]);
            assert_eq!(
                with,
                (without + net.value(&acc, seat, me | opp, t_me, t_opp)).clamp(-(WON - 1), WON - 1)
            );
        }
    }

    #[test]
    fn a_search_to_the_end_finds_the_exact_value() {
        let table = Table::new(12);
        let stop = AtomicBool::new(false);
        for seed in 0..40 {
            let b = late_position(seed, 9);
            let (me, opp) = sides(&b);
            let exact = minimax(&b);
            for features in [
                Features::default(),
                Features {
                    tt: false,
                    ordering: false,
                    pvs: false,
                    extend_forced: false,
                    lmr: false,
                    quiesce: false,
                },
            ] {
                let clock = SearchClock::new(&Limits::playouts(u64::MAX), &stop);
                let mut w = Worker::new(Weights::default(), features, &table, clock);
                w.set_root(me, opp);
                let v = w.search(me, opp, 12, -INF, INF, 0);
                let sign = if v >= WON {
                    1
                } else if v <= -WON {
                    -1
                } else {
                    0
                };
                assert_eq!(sign, exact, "seed {seed}: value {v} ({features:?})");
            }
            let mut nodes = 0;
            let v = plain_alphabeta(me, opp, 12, -INF, INF, 0, &Weights::default(), &mut nodes);
            let sign = if v >= WON {
                1
            } else if v <= -WON {
                -1
            } else {
                0
            };
            assert_eq!(sign, exact, "seed {seed}: plain value {v}");
        }
    }

    #[test]
    fn the_table_and_ordering_keep_the_plain_value_at_a_fixed_depth() {
        let stop = AtomicBool::new(false);
        for seed in 0..12 {
            let b = late_position(100 + seed, 40);
            let (me, opp) = sides(&b);
            let mut nodes = 0;
            let plain = plain_alphabeta(me, opp, 4, -INF, INF, 0, &Weights::default(), &mut nodes);
            // Without the extension the full-window value is the plain one,
            // with or without the table and the ordering.
            for (tt, ordering) in [(false, false), (false, true), (true, true)] {
                let table = Table::new(12);
                let clock = SearchClock::new(&Limits::playouts(u64::MAX), &stop);
                let f = Features {
                    tt,
                    ordering,
                    pvs: true,
                    extend_forced: false,
                    lmr: false,
                    quiesce: false,
                };
                let mut w = Worker::new(Weights::default(), f, &table, clock);
                w.set_root(me, opp);
                assert_eq!(
                    w.search(me, opp, 4, -INF, INF, 0),
                    plain,
                    "seed {seed} {f:?}"
                );
            }
        }
    }

    #[test]
    fn root_moves_settle_wins_blocks_and_lost_positions() {
        // Seat 0 to move with (0,0,0),(1,0,0),(2,0,0): peg 3 wins.
        let b = Board::from_pegs(&[Peg(0), Peg(5), Peg(1), Peg(10), Peg(2), Peg(15)]).unwrap();
        let (me, opp) = sides(&b);
        assert_eq!(root_moves(me, opp), RootMoves::Only(3));
        // Seat 1 must block it.
        let b = Board::from_pegs(&[Peg(0), Peg(5), Peg(1), Peg(10), Peg(2)]).unwrap();
        let (me, opp) = sides(&b);
        assert_eq!(root_moves(me, opp), RootMoves::Only(3));
        // Two threats to block: lost.
        let b = Board::from_pegs(&[
            Peg(0),
            Peg(5),
            Peg(1),
            Peg(10),
            Peg(2),
            Peg(15),
            Peg(4),
            Peg(6),
            Peg(8),
        ])
        .unwrap();
        let (me, opp) = sides(&b);
        assert!(
            matches!(root_moves(me, opp), RootMoves::Lost(_)),
            "{:?}",
            root_moves(me, opp)
        );
        assert!(matches!(root_moves(0, 0), RootMoves::Search(ref v) if v.len() == 16));
    }
}
