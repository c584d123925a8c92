//! Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012)
//! over the search [`Board`]: one tree of move sequences from our point of
//! view; every iteration draws the opponent's colours from the [`Belief`],
//! walks down the tree with those colours, plays out with the
//! [`PlayoutPolicy`] and backs the result up.
//!
//! Squares of all pieces after a move sequence do not depend on the colours,
//! so a node is the same position in every determinization; only escapes
//! (legal for blues on an exit) and the end of the game (which capture is the
//! fourth of a colour) do. A node's children are all its steps plus an
//! escape for every piece of the mover standing on an exit; a child is
//! *available* in an iteration if it is legal under that iteration's colours,
//! and UCB1 uses how often a child was available in place of the parent's
//! visits.
//!
//! At the opponent's nodes the opponent picks by its own UCB1 value, so the
//! tree treats it as knowing our colours (a cautious model); below the tree
//! the playout policy does not look at the other side's colours.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::Rng;

use super::belief::Belief;
use super::board::{BMove, Board, MoveList, ESCAPE, EXITS};
use super::policy::{reward, PlayoutPolicy};
use crate::search::{Budget, Limits};

/// The least time kept between the last iteration's start and the hard
/// deadline: an iteration (a playout of at most 300 plies) takes well under
/// 0.1 ms, and the clock is read every 16 iterations.
pub const HARD_SLACK: Duration = Duration::from_millis(2);

/// `limits` with the soft deadline moved to at least [`HARD_SLACK`], and at
/// least 1/25 of the whole allowance (for a busy machine), before the hard
/// one, so that the search ends before the hard deadline.
pub fn within_hard_limit(limits: &Limits) -> Limits {
    let mut l = *limits;
    if let Some(d) = l.deadline.as_mut() {
        let slack = HARD_SLACK.max((d.hard - d.start) / 25);
        let latest = d.hard.checked_sub(slack).unwrap_or(d.start).max(d.start);
        d.soft = d.soft.min(latest);
    }
    l
}

/// What a search runs from: the root position `base` (our turn; the
/// opponent's colours on it are ignored and drawn from `belief` every
/// iteration), the playout policy and the tree's settings.
#[derive(Clone, Copy)]
pub struct Root<'a> {
    pub base: &'a Board,
    pub belief: &'a Belief,
    pub policy: &'a PlayoutPolicy,
    pub tree: &'a TreeConfig,
}

/// Tunables of the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeConfig {
    /// UCB1 exploration constant.
    pub exploration: f64,
    /// A leaf is expanded once it has been visited this many times (the root
    /// always is); `u32::MAX`: never, i.e. flat Monte Carlo over our moves.
    pub expand_threshold: u32,
    /// No expansion once the tree holds this many nodes.
    pub max_nodes: usize,
    /// Keep the subtree of the move played and the opponent's answer for
    /// the next search ([`Search::played`]).
    pub reuse: bool,
}

impl Default for TreeConfig {
    fn default() -> Self {
        TreeConfig {
            exploration: 0.5,
            expand_threshold: 4,
            max_nodes: 1 << 20,
            reuse: false,
        }
    }
}

const NONE: u32 = u32::MAX;

/// A tree node: `mv` was played by `mover` (0 = us) to reach it; `reward`
/// sums the results from `mover`'s side.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub mv: BMove,
    pub mover: u8,
    pub visits: u32,
    /// Iterations in which this node's move was legal when its parent was left.
    pub available: u32,
    pub reward: f64,
    first: u32,
    count: u32,
}

impl Node {
    fn new(mv: BMove, mover: u8) -> Self {
        Node {
            mv,
            mover,
            visits: 0,
            available: 0,
            reward: 0.0,
            first: NONE,
            count: 0,
        }
    }
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / self.visits as f64
        }
    }
    fn expanded(&self) -> bool {
        self.first != NONE
    }
}

/// The tree search; keeps its node storage between moves.
#[derive(Clone, Debug, Default)]
pub struct Search {
    nodes: Vec<Node>,
    path: Vec<usize>,
    /// The last root's pieces (ours, the opponent's) and the move then
    /// played, for tree reuse.
    last_root: Option<(u64, u64)>,
    played: Option<BMove>,
    /// Scratch for re-rooting.
    spare: Vec<Node>,
}

/// What a search found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchResult {
    /// The root move to play; `None` if no iteration ran.
    pub best: Option<BMove>,
    /// Its visits and mean reward.
    pub visits: u32,
    pub value: f64,
    /// Iterations (playouts) run.
    pub iterations: u64,
    /// Visits the root inherited from the previous search (tree reuse).
    pub reused: u32,
}

/// The root moves of `searches` (searched from the same position, so their
/// root children are the same moves in the same order) with their visits
/// and rewards summed.
pub fn merged_root(searches: &[Search]) -> Vec<(BMove, u32, f64)> {
    let mut sums: Vec<(BMove, u32, f64)> = Vec::new();
    for s in searches {
        let kids = s.root_children();
        if sums.is_empty() {
            sums = kids.iter().map(|n| (n.mv, 0, 0.0)).collect();
        }
        for (acc, n) in sums.iter_mut().zip(kids) {
            if acc.0 == n.mv {
                acc.1 += n.visits;
                acc.2 += n.reward;
            }
        }
    }
    sums
}

/// The move with the most visits summed over the roots of `searches`
/// ([`merged_root`]; ties go to the higher mean reward).
pub fn merge_roots(searches: &[Search], iterations: u64) -> SearchResult {
    let sums = merged_root(searches);
    let best = sums.iter().filter(|a| a.1 > 0).max_by(|a, b| {
        a.1.cmp(&b.1)
            .then((a.2 / a.1 as f64).total_cmp(&(b.2 / b.1 as f64)))
    });
    SearchResult {
        best: best.map(|a| a.0),
        visits: best.map_or(0, |a| a.1),
        value: best.map_or(0.0, |a| a.2 / a.1 as f64),
        iterations,
        reused: 0,
    }
}

impl Search {
    pub fn new() -> Self {
        Self::default()
    }

    /// The root's children after a search.
    pub fn root_children(&self) -> &[Node] {
        match self.nodes.first() {
            Some(r) if r.expanded() => &self.nodes[r.first as usize..(r.first + r.count) as usize],
            _ => &[],
        }
    }

    /// Node count of the last tree.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Tells the search which move was played from its last root, so that
    /// the next search can start from the subtree below it and the
    /// opponent's answer.
    pub fn played(&mut self, m: BMove) {
        self.played = Some(m);
    }

    /// Forgets the tree (a new game).
    pub fn forget(&mut self) {
        self.nodes.clear();
        self.last_root = None;
        self.played = None;
    }

    /// The child of `i` playing `m`, if `i` is expanded and has one.
    fn child(&self, i: usize, m: BMove) -> Option<usize> {
        let n = &self.nodes[i];
        if !n.expanded() {
            return None;
        }
        (n.first as usize..(n.first + n.count) as usize).find(|&k| self.nodes[k].mv == m)
    }

    /// Makes the node for `base` (our move played from the last root, then
    /// the opponent's answer, read off the squares) the new root, keeping
    /// only its subtree; false if there is none.
    fn reroot(&mut self, base: &Board) -> bool {
        let (Some((own, opp)), Some(m)) = (self.last_root.take(), self.played.take()) else {
            return false;
        };
        if self.nodes.is_empty() || m.to == ESCAPE {
            return false;
        }
        // The squares after our move.
        let own_after = own & !(1u64 << m.from) | 1u64 << m.to;
        let opp_after = opp & !(1u64 << m.to);
        // The opponent's answer: the one square it left and the one it
        // reached (an escape ends the game: nothing to search).
        let (left, reached) = (opp_after & !base.pieces(1), base.pieces(1) & !opp_after);
        if left.count_ones() != 1 || reached.count_ones() != 1 {
            return false;
        }
        // Our pieces are as we left them, but for one it may have taken.
        if base.pieces(0) & !own_after != 0 || (own_after & !base.pieces(0)) & !reached != 0 {
            return false;
        }
        let answer = BMove {
            from: left.trailing_zeros() as u8,
            to: reached.trailing_zeros() as u8,
        };
        let Some(new_root) = self.child(0, m).and_then(|k| self.child(k, answer)) else {
            return false;
        };
        // Copy the subtree breadth first; children stay contiguous.
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        out.push(self.nodes[new_root]);
        let mut next = 0;
        while next < out.len() {
            let n = out[next];
            if n.expanded() {
                let first = out.len() as u32;
                out.extend_from_slice(&self.nodes[n.first as usize..(n.first + n.count) as usize]);
                out[next].first = first;
            }
            next += 1;
        }
        out[0].mover = 1;
        self.spare = std::mem::replace(&mut self.nodes, out);
        true
    }

    /// Adds `i`'s children for the position `b` (its mover to move): every
    /// step, and an escape for each of the mover's pieces on an exit (ours
    /// only if blue: we know our colours).
    fn expand(&mut self, i: usize, b: &Board, list: &mut MoveList) {
        let s = b.to_move as usize;
        b.moves_into(list);
        let first = self.nodes.len() as u32;
        for &m in list.as_slice() {
            if m.to != ESCAPE {
                self.nodes.push(Node::new(m, s as u8));
            }
        }
        let runners = if s == 0 { b.blue[0] } else { b.pieces(1) };
        let mut bits = runners & EXITS[s];
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            self.nodes
                .push(Node::new(BMove { from, to: ESCAPE }, s as u8));
        }
        let count = self.nodes.len() as u32 - first;
        let n = &mut self.nodes[i];
        n.first = first;
        n.count = count;
    }

    /// The available child of `i` with the best UCB1 value under `b`'s
    /// colours (an untried one first); counts availability.
    fn select(&mut self, i: usize, b: &Board, c: f64) -> Option<usize> {
        let s = b.to_move as usize;
        let (first, count) = (self.nodes[i].first as usize, self.nodes[i].count as usize);
        let mut untried = None;
        for k in first..first + count {
            let n = &mut self.nodes[k];
            if n.mv.to == ESCAPE && b.blue[s] >> n.mv.from & 1 == 0 {
                continue;
            }
            n.available += 1;
            if n.visits == 0 && untried.is_none() {
                untried = Some(k);
            }
        }
        if untried.is_some() {
            return untried;
        }
        let mut best = None;
        let mut best_v = f64::NEG_INFINITY;
        for k in first..first + count {
            let n = &self.nodes[k];
            if n.mv.to == ESCAPE && b.blue[s] >> n.mv.from & 1 == 0 {
                continue;
            }
            let m = n.visits as f64;
            let v = n.reward / m + c * ((n.available as f64).ln() / m).sqrt();
            if v > best_v {
                best_v = v;
                best = Some(k);
            }
        }
        best
    }

    /// Searches from `root` within `limits`.
    pub fn run<R: Rng + ?Sized>(
        &mut self,
        root: Root<'_>,
        limits: &Limits,
        stop: &AtomicBool,
        rng: &mut R,
    ) -> SearchResult {
        let Root {
            base,
            belief,
            tree: cfg,
            ..
        } = root;
        let reused = cfg.reuse && self.reroot(base);
        self.played = None;
        self.last_root = Some((base.pieces(0), base.pieces(1)));
        if !reused {
            self.nodes.clear();
            self.nodes.push(Node::new(BMove { from: 0, to: 0 }, 1));
        }
        // Room for a typical 100 ms tree, so that it rarely moves mid-search.
        self.nodes.reserve(1 << 15);
        let reused = self.nodes[0].visits;
        let mut list = MoveList::default();
        if base.outcome.is_some() || belief.is_empty() {
            return SearchResult::default();
        }
        if !self.nodes[0].expanded() {
            self.expand(0, base, &mut list);
        }
        let mut budget = Budget::new(&within_hard_limit(limits), stop).with_check_every(16);
        let mut path = std::mem::take(&mut self.path);
        while budget.tick() {
            self.iterate(root, None, &mut path, &mut list, rng);
        }
        self.path = path;
        let iterations = budget.done();
        let best = self
            .root_children()
            .iter()
            .filter(|n| n.visits > 0)
            .max_by(|a, b| a.visits.cmp(&b.visits).then(a.mean().total_cmp(&b.mean())));
        SearchResult {
            best: best.map(|n| n.mv),
            visits: best.map_or(0, |n| n.visits),
            value: best.map_or(0.0, |n| n.mean()),
            iterations,
            reused,
        }
    }

    /// One iteration from the root `base`: a determinization drawn from
    /// `belief`, a walk down the tree (through the root's child `forced`
    /// when given), an expansion, a playout, the result backed up.
    fn iterate<R: Rng + ?Sized>(
        &mut self,
        root: Root<'_>,
        forced: Option<usize>,
        path: &mut Vec<usize>,
        list: &mut MoveList,
        rng: &mut R,
    ) {
        let Root {
            base,
            belief,
            policy,
            tree: cfg,
        } = root;
        let colouring = belief.sample(rng);
        let mut b = *base;
        b.blue[1] = colouring.blue_squares;
        b.red[1] = base.pieces(1) & !colouring.blue_squares;
        path.clear();
        path.push(0);
        let mut i = 0;
        let r = loop {
            if let Some(o) = b.outcome {
                break reward(o);
            }
            if !self.nodes[i].expanded() {
                let grow = i == 0
                    || (self.nodes[i].visits >= cfg.expand_threshold
                        && self.nodes.len() < cfg.max_nodes);
                if !grow {
                    break policy.playout(&mut b, rng);
                }
                self.expand(i, &b, list);
            }
            let next = match forced {
                Some(k) if i == 0 => {
                    self.nodes[k].available += 1;
                    Some(k)
                }
                _ => self.select(i, &b, cfg.exploration),
            };
            let Some(k) = next else {
                break policy.playout(&mut b, rng);
            };
            b.play(self.nodes[k].mv);
            path.push(k);
            i = k;
        };
        for &k in path.iter() {
            let n = &mut self.nodes[k];
            n.visits += 1;
            n.reward += if n.mover == 0 { r } else { 1.0 - r };
        }
    }

    /// Thinks on the opponent's time: grows the subtree below the move
    /// told by [`Search::played`] from the last `root` (the search's own
    /// root, with the same belief), which the next search keeps when the
    /// opponent's answer is in it. Returns the iterations run (0: no tree,
    /// no move told, or the move ends the game).
    pub fn ponder<R: Rng + ?Sized>(
        &mut self,
        root: Root<'_>,
        limits: &Limits,
        stop: &AtomicBool,
        rng: &mut R,
    ) -> u64 {
        let Root { base, belief, .. } = root;
        let Some(m) = self.played else {
            return 0;
        };
        if m.to == ESCAPE
            || belief.is_empty()
            || self.last_root != Some((base.pieces(0), base.pieces(1)))
        {
            return 0;
        }
        let Some(k) = self.child(0, m) else {
            return 0;
        };
        let mut list = MoveList::default();
        let mut budget = Budget::new(limits, stop).with_check_every(16);
        let mut path = std::mem::take(&mut self.path);
        while budget.tick() {
            self.iterate(root, Some(k), &mut path, &mut list, rng);
        }
        self.path = path;
        budget.done()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::view::View;
    use crate::search::Deadline;
    use std::time::Instant;

    #[test]
    fn the_soft_deadline_keeps_clear_of_the_hard_one() {
        let t = Instant::now();
        let ms = Duration::from_millis;
        let l = within_hard_limit(&Limits::deadline(Deadline::per_move(t, ms(100), ms(0))));
        let d = l.deadline.unwrap();
        assert_eq!((d.soft - t, d.hard - t), (ms(96), ms(100)));
        let l = within_hard_limit(&Limits::deadline(Deadline::per_move(t, ms(20), ms(0))));
        assert_eq!(l.deadline.unwrap().soft - t, ms(18));
        let l = Limits::deadline(Deadline::new(t, ms(50), ms(1000), ms(0)));
        assert_eq!(within_hard_limit(&l), l);
        let l = within_hard_limit(&Limits::deadline(Deadline::per_move(t, ms(1), ms(0))));
        assert_eq!(l.deadline.unwrap().soft, t);
        assert_eq!(within_hard_limit(&Limits::playouts(5)), Limits::playouts(5));
    }

    /// The belief over `v`'s colourings with the opponent's `a` at
    /// likelihood `la` and the others at 0.
    fn belief_of_a(v: &View, la: f64) -> Belief {
        let mut l = [0.0; crate::games::geister::rules::PIECES];
        l[0] = la;
        Belief::new(v, &l, 1.0)
    }

    /// A search from `v` under `belief` with the default playouts and
    /// `tree`, `playouts` iterations, seed `seed`.
    fn search_from(
        v: &View,
        belief: &Belief,
        tree: TreeConfig,
        playouts: u64,
        seed: u64,
    ) -> (Search, SearchResult) {
        use rand::rngs::SmallRng;
        use rand::SeedableRng;
        let mut s = Search::new();
        let r = s.run(
            Root {
                base: &Board::from_view(v, 0),
                belief,
                policy: &PlayoutPolicy::default(),
                tree: &tree,
            },
            &Limits::playouts(playouts),
            &AtomicBool::new(false),
            &mut SmallRng::seed_from_u64(seed),
        );
        (s, r)
    }

    /// Escapes of opponent pieces on an exit, in the tree, under a belief
    /// that makes the piece on our corner (0,5) red or blue.
    fn opponent_escapes(likelihood_a: f64) -> (u32, u32) {
        use crate::games::geister::testing::view;
        let v = view("14R24R34R44R15B25B35B45B", "05u31u21u11u40u30u20u10u");
        let belief = belief_of_a(&v, likelihood_a);
        let (s, r) = search_from(&v, &belief, TreeConfig::default(), 3000, 1);
        assert_eq!(r.iterations, 3000);
        assert_eq!(s.nodes[0].visits, 3000);
        let kids: u32 = s.root_children().iter().map(|n| n.visits).sum();
        assert_eq!(kids, 3000);
        s.nodes
            .iter()
            .filter(|n| {
                n.mover == 1
                    && n.mv
                        == BMove {
                            from: 30,
                            to: ESCAPE,
                        }
            })
            .fold((0, 0), |(v, a), n| (v + n.visits, a + n.available))
    }

    #[test]
    fn an_escape_is_only_tried_when_the_colouring_allows_it() {
        // a surely red: its escape is in the tree but never legal.
        let (visits, available) = opponent_escapes(-1000.0);
        assert_eq!((visits, available), (0, 0));
        // a surely blue: it escapes whenever we leave it on the exit.
        let (visits, available) = opponent_escapes(1000.0);
        assert!(visits > 0 && available >= visits, "{visits} {available}");
    }

    /// `half` (a view's 24-character half) with the piece on `m.from`
    /// moved to `m.to`.
    fn moved(half: &str, m: BMove) -> String {
        let at = |sq: u8| format!("{}{}", sq % 6, sq / 6);
        let mut out = String::new();
        for p in half.as_bytes().chunks(3) {
            let p = std::str::from_utf8(p).unwrap();
            if p[..2] == at(m.from) {
                out += &format!("{}{}", at(m.to), &p[2..]);
            } else {
                out += p;
            }
        }
        out
    }

    #[test]
    fn the_subtree_below_our_move_and_the_answer_is_searched_on() {
        use crate::games::geister::rules::PIECES;
        use crate::games::geister::testing::view;
        use rand::rngs::SmallRng;
        use rand::SeedableRng;
        let (own, opp) = ("14R24R34R44R15B25B35B45B", "41u31u21u11u40u30u20u10u");
        let v1 = view(own, opp);
        let l = [0.0; PIECES];
        let policy = PlayoutPolicy::default();
        let never = AtomicBool::new(false);
        let mut rng = SmallRng::seed_from_u64(3);
        let search = |s: &mut Search, v: &View, reuse: bool, rng: &mut SmallRng| {
            let cfg = TreeConfig {
                reuse,
                ..TreeConfig::default()
            };
            let belief = Belief::new(v, &l, 1.0);
            let b = Board::from_view(v, 0);
            s.run(
                Root {
                    base: &b,
                    belief: &belief,
                    policy: &policy,
                    tree: &cfg,
                },
                &Limits::playouts(4000),
                &never,
                rng,
            )
        };
        let mut s = Search::new();
        let r = search(&mut s, &v1, true, &mut rng);
        assert_eq!(r.reused, 0);
        let ours = r.best.unwrap();
        let k = s.child(0, ours).unwrap();
        let node = s.nodes[k];
        let answer = s.nodes[node.first as usize..(node.first + node.count) as usize]
            .iter()
            .max_by_key(|n| n.visits)
            .copied()
            .unwrap();
        assert!(answer.visits > 10, "{answer:?}");
        let below: u32 = s.nodes[answer.first as usize..(answer.first + answer.count) as usize]
            .iter()
            .map(|n| n.visits)
            .sum();
        let v2 = view(&moved(own, ours), &moved(opp, answer.mv));
        // Told the move played, the next search starts from the answer's
        // node with its visits and adds its own playouts.
        let mut kept = s.clone();
        kept.played(ours);
        let r = search(&mut kept, &v2, true, &mut rng);
        assert_eq!(r.reused, answer.visits);
        assert_eq!(r.iterations, 4000);
        assert_eq!(kept.nodes[0].visits, answer.visits + 4000);
        let kids: u32 = kept.root_children().iter().map(|n| n.visits).sum();
        // (the answer's first visits were playouts before it was expanded)
        assert_eq!(kids, below + 4000);
        // Without reuse, not told the move, or told another one: a fresh tree.
        for (reuse, told) in [(false, Some(ours)), (true, None), (true, Some(answer.mv))] {
            let mut fresh = s.clone();
            if let Some(m) = told {
                fresh.played(m);
            }
            let r = search(&mut fresh, &v2, reuse, &mut rng);
            assert_eq!(
                (r.reused, fresh.nodes[0].visits),
                (0, 4000),
                "{reuse} {told:?}"
            );
        }
    }

    #[test]
    fn a_ponder_grows_the_subtree_below_our_move_that_the_next_search_keeps() {
        use crate::games::geister::rules::PIECES;
        use crate::games::geister::testing::view;
        use rand::rngs::SmallRng;
        use rand::SeedableRng;
        let (own, opp) = ("14R24R34R44R15B25B35B45B", "41u31u21u11u40u30u20u10u");
        let v1 = view(own, opp);
        let belief = Belief::new(&v1, &[0.0; PIECES], 1.0);
        let policy = PlayoutPolicy::default();
        let cfg = TreeConfig {
            reuse: true,
            ..TreeConfig::default()
        };
        let never = AtomicBool::new(false);
        let mut rng = SmallRng::seed_from_u64(5);
        let base = Board::from_view(&v1, 0);
        let mut s = Search::new();
        let limits = Limits::playouts(2000);
        let root = Root {
            base: &base,
            belief: &belief,
            policy: &policy,
            tree: &cfg,
        };
        let r = s.run(root, &limits, &never, &mut rng);
        let ours = r.best.unwrap();
        let k = s.child(0, ours).unwrap();
        let before = s.nodes[k].visits;
        // Not told the move: nothing to ponder.
        assert_eq!(s.clone().ponder(root, &limits, &never, &mut rng), 0);
        s.played(ours);
        let n = s.ponder(root, &limits, &never, &mut rng);
        assert_eq!(n, 2000);
        // Every ponder iteration went through our move.
        assert_eq!(s.nodes[k].visits, before + 2000);
        // A raised flag ends it within one look at the clock (16 iterations).
        let raised = AtomicBool::new(true);
        let n = s
            .clone()
            .ponder(root, &Limits::playouts(u64::MAX), &raised, &mut rng);
        assert!(n <= 16, "{n}");
        // The next search starts from the answer's node, ponder visits and all.
        let node = s.nodes[k];
        let answer = s.nodes[node.first as usize..(node.first + node.count) as usize]
            .iter()
            .max_by_key(|n| n.visits)
            .copied()
            .unwrap();
        let v2 = view(&moved(own, ours), &moved(opp, answer.mv));
        let b2 = Board::from_view(&v2, 0);
        let belief2 = Belief::new(&v2, &[0.0; PIECES], 1.0);
        let root2 = Root {
            base: &b2,
            belief: &belief2,
            ..root
        };
        let r = s.run(root2, &limits, &never, &mut rng);
        assert_eq!(r.reused, answer.visits);
        assert!(answer.visits > 200, "{answer:?}");
    }
}
