//! PUCT (AlphaGo Zero's selection rule; Silver et al. 2017) written once,
//! generic over [`Game`] and a [`Guide`] that supplies what is the game's
//! own: a position's candidate moves with their prior and their value a ply
//! deep, and the position's value. No playouts: a leaf is valued when it is
//! expanded.
//!
//! - **Selection**: the child maximising `q + c p sqrt(n) / (1 + m)` (`n`
//!   the node's visits, `m` the child's, `p` its prior share); an unvisited
//!   child's `q` is the value the guide gave it, so the first visit goes to
//!   the move that looks best a ply deep, not to an arbitrary one.
//! - **Progressive widening**: a node with `n` visits selects only among
//!   its first `base + k n^e` children (the guide gives them best first), so
//!   a huge move set is opened as the node earns visits.
//! - **The tree is kept** between moves ([`PuctConfig::keep_tree`]): the
//!   next search starts from the node of the position it is asked about
//!   when the last tree holds it a ply or two below its root (our move and
//!   the opponent's reply), with its visits.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::agent::{Agent, Decision};
use super::deadline::{Budget, Limits};
use super::game::{Game, Seat};
use super::ready::Ready;

/// One candidate move of an expanded position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Child<M> {
    pub mv: M,
    /// Prior weight (> 0, any scale: shares are taken over the node).
    pub prior: f64,
    /// The mover's value after the move, a ply deep (0..=1).
    pub value: f64,
}

/// What the guide says of a live position.
#[derive(Clone, Debug, PartialEq)]
pub struct Expansion<M> {
    /// The candidates, best first (widening opens them in this order); at
    /// least one.
    pub children: Vec<Child<M>>,
    /// The position's value for its side to move (0..=1).
    pub value: f64,
}

/// What a game adds to the search.
pub trait Guide<G: Game>: Send {
    /// Expands `pos` (not finished), `ply` plies below the search's root.
    fn expand(&mut self, pos: &G, ply: usize) -> Expansion<G::Move>;
    /// The work done so far (a game's own unit: evaluations...), for reports.
    fn work(&self) -> u64 {
        0
    }
}

/// Tunables of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuctConfig {
    /// `c` in `q + c p sqrt(n) / (1 + m)`.
    pub c_puct: f64,
    /// Children a node selects among with `n` visits:
    /// `widen_base + widen_k n^widen_exp` (at least one).
    pub widen_base: f64,
    pub widen_k: f64,
    pub widen_exp: f64,
    /// Whether the next search starts from the kept subtree.
    pub keep_tree: bool,
    /// Weight `a` of the implicit minimax value in selection (Lanctot et
    /// al. 2014, "Monte Carlo Tree Search with heuristic evaluations using
    /// implicit minimax backups"): a child is selected by
    /// `(1 - a) q + a v + c p sqrt(n) / (1 + m)`, where `v` is the negamax
    /// of the guide's values over the tree below it. 0: plain PUCT.
    pub minimax: f64,
    /// The most nodes a tree holds; past it, leaves are valued without
    /// being stored (their parents' visits still count them).
    pub max_nodes: usize,
    /// Whether a playout budget ([`Limits::playouts`]) counts the guide's
    /// work ([`Guide::work`]: evaluations...) and one unit an iteration
    /// (a descent that ends in a finished game does no work) instead of
    /// iterations alone; the decision then reports that count.
    pub count_work: bool,
}

impl Default for PuctConfig {
    fn default() -> Self {
        PuctConfig {
            c_puct: 1.5,
            widen_base: 2.0,
            widen_k: 1.0,
            widen_exp: 0.5,
            keep_tree: true,
            minimax: 0.0,
            max_nodes: 2_000_000,
            count_work: false,
        }
    }
}

impl PuctConfig {
    /// How many children a node with `visits` visits selects among.
    pub fn open(&self, visits: u32) -> usize {
        let w = self.widen_base + self.widen_k * (visits as f64).powf(self.widen_exp);
        (w.floor() as usize).max(1)
    }
}

const NONE: u32 = u32::MAX;

/// One tree node; `mover` made `mv` to reach it; `sum` adds the backed-up
/// values from `mover`'s side.
#[derive(Clone, Debug)]
pub struct Node<M> {
    pub mv: Option<M>,
    pub mover: Seat,
    pub visits: u32,
    pub sum: f64,
    /// Prior share among its siblings.
    pub prior: f64,
    /// The guide's value of the move for `mover` (the `q` of an unvisited node).
    pub init: f64,
    /// The implicit minimax value for `mover`: `init` until the node is
    /// expanded, then one minus its best child's; exact at a game's end.
    pub mm: f64,
    /// Index of the first child; children are contiguous. `NONE`: not expanded.
    pub first_child: u32,
    pub n_children: u32,
}

impl<M> Node<M> {
    pub fn is_expanded(&self) -> bool {
        self.first_child != NONE
    }
    /// The mean backed-up value for `mover`, or the guide's value unvisited.
    pub fn q(&self) -> f64 {
        if self.visits == 0 {
            self.init
        } else {
            self.sum / self.visits as f64
        }
    }
}

/// The searcher. `P` is the game's guide.
pub struct Puct<G: Game, P: Guide<G>> {
    pub config: PuctConfig,
    pub guide: P,
    name: String,
    tree: Vec<Node<G::Move>>,
    /// The position at the tree's root.
    root: Option<G>,
    /// Visits the last search found in the kept tree.
    reused: u32,
    ready: Option<Arc<Ready<G::Move>>>,
}

impl<G: Game + PartialEq, P: Guide<G>> Puct<G, P> {
    pub fn new(name: impl Into<String>, config: PuctConfig, guide: P) -> Self {
        Puct {
            config,
            guide,
            name: name.into(),
            tree: Vec::new(),
            root: None,
            reused: 0,
            ready: None,
        }
    }

    /// The tree of the last search (index 0 is the root).
    pub fn tree(&self) -> &[Node<G::Move>] {
        &self.tree
    }

    /// The root's visits the last search started with (from the kept tree).
    pub fn reused(&self) -> u32 {
        self.reused
    }

    /// Children of node `i`.
    pub fn children_of(&self, i: usize) -> &[Node<G::Move>] {
        let n = &self.tree[i];
        if !n.is_expanded() {
            return &[];
        }
        &self.tree[n.first_child as usize..(n.first_child + n.n_children) as usize]
    }

    /// Stores the guide's children of node `i` (at `pos`); returns the
    /// position's value for its side to move.
    fn expand(&mut self, i: usize, pos: &G, ply: usize) -> f64 {
        let e = self.guide.expand(pos, ply);
        debug_assert!(!e.children.is_empty(), "guide gave no children");
        let total: f64 = e.children.iter().map(|c| c.prior.max(0.0)).sum();
        let n = e.children.len().max(1) as f64;
        let first = self.tree.len() as u32;
        let mover = pos.to_move();
        self.tree.extend(e.children.iter().map(|c| Node {
            mv: Some(c.mv),
            mover,
            visits: 0,
            sum: 0.0,
            prior: if total > 0.0 {
                c.prior.max(0.0) / total
            } else {
                1.0 / n
            },
            init: c.value.clamp(0.0, 1.0),
            mm: c.value.clamp(0.0, 1.0),
            first_child: NONE,
            n_children: 0,
        }));
        let count = self.tree.len() as u32 - first;
        let node = &mut self.tree[i];
        node.first_child = first;
        node.n_children = count;
        self.tree[i].mm = 1.0 - self.best_mm(i);
        e.value.clamp(0.0, 1.0)
    }

    /// The largest implicit minimax value among node `i`'s children.
    fn best_mm(&self, i: usize) -> f64 {
        let n = &self.tree[i];
        let f = n.first_child as usize;
        self.tree[f..f + n.n_children as usize]
            .iter()
            .map(|c| c.mm)
            .fold(0.0, f64::max)
    }

    /// The child of `i` to descend into: the best PUCT value among the
    /// first [`PuctConfig::open`] children.
    pub fn select_child(&self, i: usize) -> usize {
        let n = &self.tree[i];
        let first = n.first_child as usize;
        let open = self.config.open(n.visits).min(n.n_children as usize);
        let root_n = (n.visits.max(1) as f64).sqrt();
        let c = self.config.c_puct;
        let a = self.config.minimax;
        let mut best = first;
        let mut best_v = f64::NEG_INFINITY;
        for k in first..first + open {
            let ch = &self.tree[k];
            let q = (1.0 - a) * ch.q() + a * ch.mm;
            let v = q + c * ch.prior * root_n / (1.0 + ch.visits as f64);
            if v > best_v {
                best_v = v;
                best = k;
            }
        }
        best
    }

    /// One iteration: descend, expand (or reach an end), back up.
    fn iterate(&mut self, root: &G, path: &mut Vec<usize>) {
        let mut pos = root.clone();
        path.clear();
        path.push(0);
        let mut i = 0;
        // The value, for seat 0, of where the descent stopped.
        let v0 = loop {
            if let Some(o) = pos.outcome() {
                let n = &mut self.tree[i];
                n.mm = o.reward_for(n.mover, 0.5);
                break o.reward_for(0, 0.5);
            }
            if !self.tree[i].is_expanded() {
                let ply = path.len() - 1;
                let v = if self.tree.len() < self.config.max_nodes {
                    self.expand(i, &pos, ply)
                } else {
                    self.guide.expand(&pos, ply).value.clamp(0.0, 1.0)
                };
                break if pos.to_move() == 0 { v } else { 1.0 - v };
            }
            i = self.select_child(i);
            pos.play(self.tree[i].mv.expect("children carry moves"));
            path.push(i);
        };
        for &k in path.iter() {
            let n = &mut self.tree[k];
            n.visits += 1;
            n.sum += if n.mover == 0 { v0 } else { 1.0 - v0 };
        }
        // The minimax values up the path (each node's children are all
        // unchanged but the one on the path).
        for &k in path.iter().rev().skip(1) {
            self.tree[k].mm = 1.0 - self.best_mm(k);
        }
    }

    /// The node of the kept tree whose position is `pos`, one or two plies
    /// below the kept root, if any.
    fn find(&self, pos: &G) -> Option<usize> {
        let kept = self.root.as_ref()?;
        if self.tree.is_empty() {
            return None;
        }
        if kept == pos {
            return Some(0);
        }
        let n = &self.tree[0];
        if !n.is_expanded() {
            return None;
        }
        for a in n.first_child..n.first_child + n.n_children {
            let a = a as usize;
            let mut p1 = kept.clone();
            p1.play(self.tree[a].mv?);
            if &p1 == pos {
                return Some(a);
            }
            let na = &self.tree[a];
            if !na.is_expanded() || na.visits == 0 {
                continue;
            }
            for b in na.first_child..na.first_child + na.n_children {
                let b = b as usize;
                if self.tree[b].visits == 0 {
                    continue;
                }
                let mut p2 = p1.clone();
                p2.play(self.tree[b].mv?);
                if &p2 == pos {
                    return Some(b);
                }
            }
        }
        None
    }

    /// The subtree under node `top` as a tree of its own (children kept
    /// contiguous), `top` its root.
    fn subtree(&self, top: usize) -> Vec<Node<G::Move>> {
        let mut out = Vec::new();
        let mut root = self.tree[top].clone();
        root.mv = None;
        out.push(root);
        // Breadth first: each copied node's children are copied together.
        let mut next = 0;
        while next < out.len() {
            let n = &out[next];
            if n.is_expanded() {
                let (f, c) = (n.first_child as usize, n.n_children as usize);
                let first = out.len() as u32;
                let kids: Vec<Node<G::Move>> = self.tree[f..f + c].to_vec();
                out.extend(kids);
                out[next].first_child = first;
            }
            next += 1;
        }
        out
    }

    /// Searches `pos` within `limits`; the root's children hold the result.
    /// Returns the iterations run (with `count_work`, the guide's work).
    pub fn search(&mut self, pos: &G, limits: &Limits, stop: &AtomicBool) -> u64 {
        let found = if self.config.keep_tree {
            self.find(pos)
        } else {
            None
        };
        self.tree = match found {
            Some(k) => self.subtree(k),
            None => Vec::new(),
        };
        if self.tree.is_empty() {
            self.tree.push(Node {
                mv: None,
                mover: 1 - pos.to_move(),
                visits: 0,
                sum: 0.0,
                prior: 1.0,
                init: 0.5,
                mm: 0.5,
                first_child: NONE,
                n_children: 0,
            });
        }
        self.reused = self.tree[0].visits;
        self.root = Some(pos.clone());
        if pos.outcome().is_some() {
            return 0;
        }
        let work0 = self.guide.work();
        // The root is always expanded: a move is ready before the clock is read.
        if !self.tree[0].is_expanded() {
            let v = self.expand(0, pos, 0);
            let n = &mut self.tree[0];
            n.visits += 1;
            n.sum += 1.0 - v;
        }
        self.offer();
        // The work cap, when the budget counts work: iterations are then
        // bounded by the deadline and the stop flag alone.
        let cap = limits.playouts.filter(|_| self.config.count_work);
        let iterations = if cap.is_some() {
            Limits {
                playouts: Some(u64::MAX),
                ..*limits
            }
        } else {
            *limits
        };
        let mut budget = Budget::new(&iterations, stop).with_check_every(1);
        let mut path = Vec::with_capacity(64);
        let mut offered = self.best_root_index();
        let mut ran = 0u64;
        while budget.tick() {
            // One unit an iteration too: a descent that ends in a finished
            // game does no work, and must not run forever.
            if cap.is_some_and(|c| self.guide.work() - work0 + ran >= c) {
                break;
            }
            self.iterate(pos, &mut path);
            ran += 1;
            let best = self.best_root_index();
            if best != offered {
                offered = best;
                self.offer();
            }
        }
        if self.config.count_work {
            self.guide.work() - work0 + ran
        } else {
            ran
        }
    }

    fn best_root_index(&self) -> Option<usize> {
        let n = self.tree.first()?;
        if !n.is_expanded() {
            return None;
        }
        let f = n.first_child as usize;
        (f..f + n.n_children as usize).reduce(|b, k| {
            let (x, y) = (&self.tree[k], &self.tree[b]);
            if x.visits
                .cmp(&y.visits)
                .then(x.q().total_cmp(&y.q()))
                .is_gt()
            {
                k
            } else {
                b
            }
        })
    }

    /// The root child to play: the most visited (the best `q` on ties, so
    /// before any visit the guide's best).
    pub fn best_root_child(&self) -> Option<&Node<G::Move>> {
        self.best_root_index().map(|k| &self.tree[k])
    }

    fn offer(&self) {
        if let (Some(r), Some(n)) = (&self.ready, self.best_root_child()) {
            if let Some(mv) = n.mv {
                r.offer(mv);
            }
        }
    }
}

impl<G: Game + PartialEq, P: Guide<G>> Agent<G> for Puct<G, P> {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self) {
        self.tree.clear();
        self.root = None;
    }
    fn select(&mut self, pos: &G, limits: &Limits, stop: &AtomicBool) -> Decision<G::Move> {
        let iterations = self.search(pos, limits, stop);
        let best = self
            .best_root_child()
            .expect("select called on a finished game");
        Decision {
            mv: best.mv.expect("children carry moves"),
            playouts: iterations,
            value: Some(best.q()),
        }
    }
    fn work_unit(&self) -> &'static str {
        if self.config.count_work {
            "evaluations"
        } else {
            "iterations"
        }
    }
    fn keep_ready(&mut self, ready: Arc<Ready<G::Move>>) {
        self.ready = Some(ready);
    }
    /// Searches the position our move `ours` leaves (the opponent to move)
    /// until `stop`: the next search starts from the reply's node when the
    /// opponent plays one this tree holds.
    fn ponder(&mut self, obs: &G, ours: &G::Move, limits: &Limits, stop: &Arc<AtomicBool>) -> u64 {
        if obs.outcome().is_some() || !obs.is_legal(*ours) {
            return 0;
        }
        let mut after = obs.clone();
        after.play(*ours);
        if after.outcome().is_some() {
            return 0;
        }
        self.search(&after, limits, stop)
    }
    fn ponders(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::{Board, Peg};
    use crate::model::Outcome;

    /// Every legal move, equal priors, value 1/2 (a win is found only by
    /// reaching the end).
    struct Flat;
    impl Guide<Board> for Flat {
        fn expand(&mut self, pos: &Board, _ply: usize) -> Expansion<Peg> {
            Expansion {
                children: pos
                    .legal_moves()
                    .into_iter()
                    .map(|mv| Child {
                        mv,
                        prior: 1.0,
                        value: 0.5,
                    })
                    .collect(),
                value: 0.5,
            }
        }
    }

    /// Seat 0 to move, holding three of the bottom row along x (pegs 0-2):
    /// peg 3 wins.
    fn win_in_one() -> Board {
        let mut b = Board::new();
        for (ours, theirs) in [(0, 5), (1, 6), (2, 9)] {
            b.play(Peg(ours));
            b.play(Peg(theirs));
        }
        b
    }

    fn searched(cfg: PuctConfig, n: u64, pos: &Board) -> Puct<Board, Flat> {
        let mut p = Puct::new("t", cfg, Flat);
        let stop = AtomicBool::new(false);
        assert_eq!(p.search(pos, &Limits::playouts(n), &stop), n);
        p
    }

    #[test]
    fn visits_add_up_and_widening_opens_children_in_order() {
        let cfg = PuctConfig::default();
        let p = searched(cfg, 3_000, &Board::new());
        let t = p.tree();
        // The root's expansion counts once; every iteration goes through one child.
        let kids: u64 = p.children_of(0).iter().map(|c| c.visits as u64).sum();
        assert_eq!(t[0].visits as u64, kids + 1);
        for (i, n) in t.iter().enumerate() {
            if !n.is_expanded() {
                continue;
            }
            let kids = p.children_of(i);
            // Only the first `open(n)` children were ever selected (a node's
            // count when a child was chosen was below its count now).
            let open = cfg.open(n.visits).min(kids.len());
            assert!(
                kids[open..].iter().all(|c| c.visits == 0),
                "node {i}: {} visits, open {open}",
                n.visits
            );
        }
        // The root opened more than its base, fewer than all 16 at 3,000 visits? No:
        // 2 + sqrt(3000) > 16, so every peg was tried.
        assert!(p.children_of(0).iter().all(|c| c.visits > 0));
    }

    #[test]
    fn the_puct_value_weighs_value_prior_and_visits() {
        let mut p: Puct<Board, Flat> = Puct::new("t", PuctConfig::default(), Flat);
        let node = |mv: Option<Peg>, visits, sum, prior, init| Node {
            mv,
            mover: 0,
            visits,
            sum,
            prior,
            init,
            mm: init,
            first_child: NONE,
            n_children: 0,
        };
        p.tree = vec![
            node(None, 16, 0.0, 1.0, 0.5),
            node(Some(Peg(0)), 10, 6.0, 0.5, 0.5),
            node(Some(Peg(1)), 0, 0.0, 0.5, 0.4),
        ];
        p.tree[0].mover = 1;
        p.tree[0].first_child = 1;
        p.tree[0].n_children = 2;
        // 0.6 + 1.5 * 0.5 * 4 / 11 = 0.873 against 0.4 + 1.5 * 0.5 * 4 = 3.4.
        assert_eq!(p.select_child(0), 2);
        // With a tiny prior the visited child's mean wins: 0.4 + 1.5 * 0.01 * 4 = 0.46.
        p.tree[2].prior = 0.01;
        assert_eq!(p.select_child(0), 1);
        // Widening: with a single open child only the first is selected.
        p.config.widen_base = 1.0;
        p.config.widen_k = 0.0;
        p.tree[2].prior = 0.99;
        assert_eq!(p.select_child(0), 1);
        // Implicit minimax: both open, equal priors and visits; the first
        // has the better mean (0.6 against 0.4), the second the better
        // minimax value (0.5 against 0.2).
        p.config.widen_base = 2.0;
        p.tree[2] = node(Some(Peg(1)), 10, 4.0, 0.5, 0.4);
        p.tree[1].mm = 0.2;
        p.tree[2].mm = 0.5;
        assert_eq!(p.select_child(0), 1);
        p.config.minimax = 1.0;
        assert_eq!(p.select_child(0), 2);
        // Half and half: 0.4 against 0.45.
        p.config.minimax = 0.5;
        assert_eq!(p.select_child(0), 2);
    }

    #[test]
    fn the_minimax_values_are_the_negamax_of_the_guides_values() {
        let cfg = PuctConfig {
            minimax: 0.5,
            ..PuctConfig::default()
        };
        let p = searched(cfg, 3_000, &Board::new());
        let mut checked = 0;
        for i in 0..p.tree().len() {
            if p.tree()[i].is_expanded() {
                let best = p.children_of(i).iter().map(|c| c.mm).fold(0.0, f64::max);
                assert!((p.tree()[i].mm - (1.0 - best)).abs() < 1e-12, "node {i}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
        // A win in one: the root's side finds it and its minimax value is exact.
        let b = win_in_one();
        let p = searched(cfg, 400, &b);
        let win = p.best_root_child().unwrap();
        assert_eq!(win.mv, Some(Peg(3)));
        assert_eq!(win.mm, 1.0);
        assert_eq!(p.tree()[0].mm, 0.0);
    }

    #[test]
    fn it_finds_a_win_in_one_with_flat_priors() {
        let b = win_in_one();
        assert!(b.outcome().is_none());
        let mut p = Puct::new("t", PuctConfig::default(), Flat);
        let stop = AtomicBool::new(false);
        let d = p.select(&b, &Limits::playouts(400), &stop);
        let mut after = b;
        after.play(d.mv);
        assert_eq!(after.outcome(), Some(Outcome::Win(0)), "{:?}", d.mv);
        assert!(d.value.unwrap() > 0.9);
    }

    #[test]
    fn the_tree_is_kept_two_plies_down_and_dropped_elsewhere() {
        let start = Board::new();
        let mut p = Puct::new("t", PuctConfig::default(), Flat);
        let stop = AtomicBool::new(false);
        p.search(&start, &Limits::playouts(2_000), &stop);
        assert_eq!(p.reused(), 0);
        // Our most visited move and its most visited reply.
        let a = p.best_root_index().unwrap();
        let ours = p.tree()[a].mv.unwrap();
        let (f, c) = (p.tree()[a].first_child as usize, p.tree()[a].n_children);
        let b = (f..f + c as usize)
            .max_by_key(|&k| p.tree()[k].visits)
            .unwrap();
        let (reply, had) = (p.tree()[b].mv.unwrap(), p.tree()[b].visits);
        assert!(had > 1);
        let mut pos = start;
        pos.play(ours);
        pos.play(reply);
        p.search(&pos, &Limits::playouts(10), &stop);
        assert_eq!(p.reused(), had);
        assert_eq!(p.tree()[0].visits, had + 10);
        let kids: u32 = p.children_of(0).iter().map(|c| c.visits).sum();
        assert_eq!(p.tree()[0].visits, kids + 1);
        // A position the tree does not hold starts afresh.
        let mut far = pos;
        for m in [Peg(3), Peg(12), Peg(3), Peg(12)] {
            far.play(m);
        }
        p.search(&far, &Limits::playouts(10), &stop);
        assert_eq!(p.reused(), 0);
        // Switched off, the same position starts afresh too.
        p.config.keep_tree = false;
        p.search(&far, &Limits::playouts(10), &stop);
        assert_eq!(p.reused(), 0);
    }

    #[test]
    fn a_ponder_grows_the_tree_the_next_search_starts_from() {
        let start = Board::new();
        let mut p = Puct::new("t", PuctConfig::default(), Flat);
        let stop = AtomicBool::new(false);
        let d = p.select(&start, &Limits::playouts(50), &stop);
        let flag = Arc::new(AtomicBool::new(false));
        assert!(p.ponders());
        assert_eq!(
            p.ponder(&start, &d.mv, &Limits::playouts(2_000), &flag),
            2_000
        );
        let mut after = start;
        after.play(d.mv);
        // The ponder's root is the position our move left.
        assert_eq!(p.tree()[0].visits, p.reused() + 2_000);
        let reply = p.children_of(0).iter().max_by_key(|c| c.visits).unwrap();
        let (mv, had) = (reply.mv.unwrap(), reply.visits);
        assert!(had > 100, "{had}");
        after.play(mv);
        p.select(&after, &Limits::playouts(10), &stop);
        assert_eq!(p.reused(), had);
        // A raised flag ends a ponder after at most one iteration.
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(p.ponder(&after, &Peg(0), &Limits::playouts(2_000), &flag) <= 1);
    }

    /// [`Flat`], counting 10 units of work per expansion.
    struct Counted(u64);
    impl Guide<Board> for Counted {
        fn expand(&mut self, pos: &Board, ply: usize) -> Expansion<Peg> {
            self.0 += 10;
            Flat.expand(pos, ply)
        }
        fn work(&self) -> u64 {
            self.0
        }
    }

    #[test]
    fn a_work_budget_counts_the_guides_work_not_iterations() {
        let cfg = PuctConfig {
            count_work: true,
            ..PuctConfig::default()
        };
        let mut p = Puct::new("t", cfg, Counted(500));
        let stop = AtomicBool::new(false);
        // The root's expansion (10) and 9 iterations that each expand a
        // node (none reaches an end this early): 100 units of work and 9
        // iterations.
        assert_eq!(p.search(&Board::new(), &Limits::playouts(100), &stop), 109);
        assert_eq!(p.tree()[0].visits, 10);
        assert_eq!(p.work_unit(), "evaluations");
        p.config.count_work = false;
        assert_eq!(p.search(&Board::new(), &Limits::playouts(100), &stop), 100);
        assert_eq!(p.work_unit(), "iterations");
    }

    #[test]
    fn a_work_budget_ends_when_every_descent_reaches_an_end() {
        // Seat 0 wins in one: the search soon descends only into the win,
        // which costs no work; the iterations still count.
        let b = win_in_one();
        let cfg = PuctConfig {
            count_work: true,
            ..PuctConfig::default()
        };
        let mut p = Puct::new("t", cfg, Counted(0));
        let stop = AtomicBool::new(false);
        let done = p.search(&b, &Limits::playouts(5_000), &stop);
        // The last iteration may add an expansion's 10 units past the cap.
        assert!((5_000..5_011).contains(&done), "{done}");
        // Most descents ended in the win (no work): far more iterations
        // than expansions.
        let iterations = p.tree()[0].visits as u64 - 1;
        assert!(iterations > 2_500, "{iterations}");
    }

    #[test]
    fn a_stopped_search_still_gives_a_legal_move() {
        let mut p = Puct::new("t", PuctConfig::default(), Flat);
        let stop = AtomicBool::new(true);
        let d = p.select(&Board::new(), &Limits::playouts(1_000_000), &stop);
        assert!(d.playouts <= 1);
        assert!(Board::new().is_legal(d.mv));
    }
}
