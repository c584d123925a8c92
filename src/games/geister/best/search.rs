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
}

impl Default for TreeConfig {
    fn default() -> Self {
        TreeConfig {
            exploration: 0.5,
            expand_threshold: 4,
            max_nodes: 1 << 20,
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
}

/// The move with the most visits summed over the roots of `searches`
/// (searched from the same position, so their root children are the same
/// moves in the same order; ties go to the higher mean reward).
pub fn merge_roots(searches: &[Search], iterations: u64) -> SearchResult {
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
    let best = sums.iter().filter(|a| a.1 > 0).max_by(|a, b| {
        a.1.cmp(&b.1)
            .then((a.2 / a.1 as f64).total_cmp(&(b.2 / b.1 as f64)))
    });
    SearchResult {
        best: best.map(|a| a.0),
        visits: best.map_or(0, |a| a.1),
        value: best.map_or(0.0, |a| a.2 / a.1 as f64),
        iterations,
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

    /// Searches `base` (our turn; the opponent's colours on `base` are
    /// ignored and drawn from `belief` every iteration) within `limits`.
    #[allow(clippy::too_many_arguments)]
    pub fn run<R: Rng + ?Sized>(
        &mut self,
        base: &Board,
        belief: &Belief,
        policy: &PlayoutPolicy,
        cfg: &TreeConfig,
        limits: &Limits,
        stop: &AtomicBool,
        rng: &mut R,
    ) -> SearchResult {
        self.nodes.clear();
        // Room for a typical 100 ms tree, so that it rarely moves mid-search.
        self.nodes.reserve(1 << 15);
        self.nodes.push(Node::new(BMove { from: 0, to: 0 }, 1));
        let mut list = MoveList::default();
        if base.outcome.is_some() || belief.is_empty() {
            return SearchResult::default();
        }
        self.expand(0, base, &mut list);
        let opp = base.pieces(1);
        let mut budget = Budget::new(&within_hard_limit(limits), stop).with_check_every(16);
        let mut path = std::mem::take(&mut self.path);
        while budget.tick() {
            let colouring = belief.sample(rng);
            let mut b = *base;
            b.blue[1] = colouring.blue_squares;
            b.red[1] = opp & !colouring.blue_squares;
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
                    self.expand(i, &b, &mut list);
                }
                let Some(k) = self.select(i, &b, cfg.exploration) else {
                    break policy.playout(&mut b, rng);
                };
                b.play(self.nodes[k].mv);
                path.push(k);
                i = k;
            };
            for &k in &path {
                let n = &mut self.nodes[k];
                n.visits += 1;
                n.reward += if n.mover == 0 { r } else { 1.0 - r };
            }
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    /// Escapes of opponent pieces on an exit, in the tree, under a belief
    /// that makes the piece on our corner (0,5) red or blue.
    fn opponent_escapes(likelihood_a: f64) -> (u32, u32) {
        use crate::games::geister::rules::PIECES;
        use crate::games::geister::testing::view;
        use rand::rngs::SmallRng;
        use rand::SeedableRng;
        let v = view("14R24R34R44R15B25B35B45B", "05u31u21u11u40u30u20u10u");
        let mut l = [0.0; PIECES];
        l[0] = likelihood_a;
        let belief = Belief::new(&v, &l, 1.0);
        let mut s = Search::new();
        let r = s.run(
            &Board::from_view(&v, 0),
            &belief,
            &PlayoutPolicy::default(),
            &TreeConfig::default(),
            &Limits::playouts(3000),
            &AtomicBool::new(false),
            &mut SmallRng::seed_from_u64(1),
        );
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
}
