//! UCT (Kocsis & Szepesvari; Gelly et al.) written once, generic over
//! [`Game`] and a [`Policy`] that supplies what is the game's own: which
//! moves a node gets as children, and how a playout is played.
//!
//! UCB1 over the root moves is the same search with expansion switched off
//! below the root ([`UctConfig::ucb1`]).

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::agent::{Agent, Decision};
use super::deadline::{Budget, Limits};
use super::game::{Game, Outcome, Seat};

/// What a playout found: the end of the game, or, for a playout cut short,
/// how good the position it stopped in is for seat 0 (in 0..=1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayoutResult {
    End(Outcome),
    Value(f64),
}

impl PlayoutResult {
    /// Reward in 0..=1 for `seat` (`draw` for a drawn end).
    #[inline]
    pub fn reward_for(self, seat: Seat, draw: f64) -> f64 {
        match self {
            PlayoutResult::End(o) => o.reward_for(seat, draw),
            PlayoutResult::Value(v) if seat == 0 => v,
            PlayoutResult::Value(v) => 1.0 - v,
        }
    }
}

impl From<Outcome> for PlayoutResult {
    fn from(o: Outcome) -> Self {
        PlayoutResult::End(o)
    }
}

/// What a game adds to the search.
pub trait Policy<G: Game>: Send {
    /// The moves a node is expanded with (default: every legal move). May
    /// prune, but must return at least one move when the game is not over.
    fn children(&mut self, pos: &G) -> Vec<G::Move> {
        pos.legal_moves()
    }
    /// Plays `pos` (not finished) to the end, or evaluates where it stops.
    fn playout(&mut self, pos: &mut G, rng: &mut SmallRng) -> PlayoutResult {
        pos.random_playout(rng).into()
    }
}

/// Uniformly random playouts, every legal move a child.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPolicy;
impl<G: Game> Policy<G> for RandomPolicy {}

/// Tunables of the tree search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctConfig {
    /// Exploration constant `c` in `w/m + c sqrt(ln n / m)`; sqrt(2) is UCB1's.
    pub exploration: f64,
    /// A leaf is expanded once it has been played out this many times
    /// (the root is always expanded). `u32::MAX`: never, i.e. UCB1 at the root.
    pub expand_threshold: u32,
    /// Reward of a drawn playout (the seed counts wins only: 0).
    pub draw_reward: f64,
    /// How the move is chosen once the search ends.
    pub choice: FinalChoice,
    /// The value a child is selected by.
    pub selection: Selection,
}

/// The value maximised when a child is selected (`n` = parent visits,
/// `m` = child visits, `w/m` = child mean reward, `c` = exploration).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// UCB1: `w/m + c sqrt(ln n / m)`, unvisited children first.
    Ucb1,
    /// The GOLAD seed's randomised value:
    /// `w/m + c sqrt(ln(n + e) / (m + e)) + r e` with `r` uniform in [0, 1).
    Randomized { epsilon: f64 },
}

/// How the root move is chosen after the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalChoice {
    /// The most-visited child (best mean on ties): robust, the usual choice.
    Visits,
    /// The child with the best mean reward.
    Mean,
}

impl UctConfig {
    /// The seed's UCT: UCB1 constant, threshold 50, wins only.
    pub fn seed_uct() -> Self {
        UctConfig {
            exploration: std::f64::consts::SQRT_2,
            expand_threshold: 50,
            draw_reward: 0.0,
            choice: FinalChoice::Visits,
            selection: Selection::Ucb1,
        }
    }
    /// The seed's UCB1 Monte Carlo: the root's moves as a bandit.
    pub fn ucb1() -> Self {
        UctConfig {
            expand_threshold: u32::MAX,
            ..Self::seed_uct()
        }
    }
}

const NONE: u32 = u32::MAX;

/// One tree node; `mover` made `mv` to reach it, and `reward` is the sum of
/// playout rewards from `mover`'s side.
#[derive(Clone, Debug)]
pub struct Node<M> {
    pub mv: Option<M>,
    pub mover: Seat,
    pub visits: u32,
    pub reward: f64,
    /// Index of the first child; children are contiguous. `NONE` if not expanded.
    pub first_child: u32,
    pub n_children: u32,
}

impl<M> Node<M> {
    pub fn is_expanded(&self) -> bool {
        self.first_child != NONE
    }
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / self.visits as f64
        }
    }
}

/// The UCT searcher. `P` is the game's policy.
pub struct Uct<G: Game, P: Policy<G>> {
    pub config: UctConfig,
    pub policy: P,
    name: String,
    rng: SmallRng,
    tree: Vec<Node<G::Move>>,
}

impl<G: Game, P: Policy<G>> Uct<G, P> {
    pub fn new(name: impl Into<String>, config: UctConfig, policy: P, seed: u64) -> Self {
        Uct {
            config,
            policy,
            name: name.into(),
            rng: SmallRng::seed_from_u64(seed),
            tree: Vec::new(),
        }
    }

    /// The tree of the last search (index 0 is the root).
    pub fn tree(&self) -> &[Node<G::Move>] {
        &self.tree
    }

    /// Children of node `i`.
    pub fn children_of(&self, i: usize) -> &[Node<G::Move>] {
        let n = &self.tree[i];
        if !n.is_expanded() {
            return &[];
        }
        &self.tree[n.first_child as usize..(n.first_child + n.n_children) as usize]
    }

    fn expand(&mut self, i: usize, pos: &G) {
        let moves = self.policy.children(pos);
        debug_assert!(
            !moves.is_empty(),
            "policy gave no children for a live position"
        );
        let first = self.tree.len() as u32;
        let mover = pos.to_move();
        self.tree.extend(moves.into_iter().map(|mv| Node {
            mv: Some(mv),
            mover,
            visits: 0,
            reward: 0.0,
            first_child: NONE,
            n_children: 0,
        }));
        let count = self.tree.len() as u32 - first;
        let n = &mut self.tree[i];
        n.first_child = first;
        n.n_children = count;
    }

    /// The child of `i` with the best selection value (with UCB1, unvisited
    /// children first, in order).
    fn select_child(&mut self, i: usize) -> usize {
        let n = &self.tree[i];
        let (first, count) = (n.first_child as usize, n.n_children as usize);
        let c = self.config.exploration;
        let mut best = first;
        let mut best_v = f64::NEG_INFINITY;
        match self.config.selection {
            Selection::Ucb1 => {
                let log_n = (n.visits.max(1) as f64).ln();
                for k in first..first + count {
                    let ch = &self.tree[k];
                    if ch.visits == 0 {
                        return k;
                    }
                    let m = ch.visits as f64;
                    let v = ch.reward / m + c * (log_n / m).sqrt();
                    if v > best_v {
                        best_v = v;
                        best = k;
                    }
                }
            }
            Selection::Randomized { epsilon: e } => {
                let log_n = (n.visits as f64 + e).ln();
                for k in first..first + count {
                    let ch = &self.tree[k];
                    let m = ch.visits as f64;
                    let mean = if ch.visits == 0 { 0.0 } else { ch.reward / m };
                    let v = mean + c * (log_n / (m + e)).sqrt() + self.rng.gen::<f64>() * e;
                    if v > best_v {
                        best_v = v;
                        best = k;
                    }
                }
            }
        }
        best
    }

    /// One iteration: select, expand at the threshold, play out, back up.
    fn iterate(&mut self, root: &G, path: &mut Vec<usize>) {
        let mut pos = root.clone();
        path.clear();
        path.push(0);
        let mut i = 0;
        let result = loop {
            if let Some(o) = pos.outcome() {
                break PlayoutResult::End(o);
            }
            if !self.tree[i].is_expanded() {
                if i == 0 || self.tree[i].visits >= self.config.expand_threshold {
                    self.expand(i, &pos);
                } else {
                    break self.policy.playout(&mut pos, &mut self.rng);
                }
            }
            i = self.select_child(i);
            pos.play(self.tree[i].mv.expect("children carry moves"));
            path.push(i);
        };
        let draw = self.config.draw_reward;
        for &k in path.iter() {
            let n = &mut self.tree[k];
            n.visits += 1;
            n.reward += result.reward_for(n.mover, draw);
        }
    }

    /// Searches `pos` within `limits`; the root's children hold the result.
    pub fn search(&mut self, pos: &G, limits: &Limits, stop: &AtomicBool) -> u64 {
        self.tree.clear();
        self.tree.push(Node {
            mv: None,
            mover: 1 - pos.to_move(),
            visits: 0,
            reward: 0.0,
            first_child: NONE,
            n_children: 0,
        });
        if pos.outcome().is_some() {
            return 0;
        }
        self.expand(0, pos);
        let mut budget = Budget::new(limits, stop);
        let mut path = Vec::with_capacity(80);
        while budget.tick() {
            self.iterate(pos, &mut path);
        }
        budget.done()
    }

    /// The root child to play, by [`UctConfig::choice`] (the first on full ties).
    pub fn best_root_child(&self) -> Option<&Node<G::Move>> {
        let better = |a: &Node<G::Move>, b: &Node<G::Move>| match self.config.choice {
            FinalChoice::Visits => a.visits.cmp(&b.visits).then(a.mean().total_cmp(&b.mean())),
            FinalChoice::Mean => a.mean().total_cmp(&b.mean()).then(a.visits.cmp(&b.visits)),
        };
        self.children_of(0)
            .iter()
            .reduce(|best, c| if better(c, best).is_gt() { c } else { best })
    }
}

impl<G: Game, P: Policy<G>> Agent<G> for Uct<G, P> {
    fn name(&self) -> &str {
        &self.name
    }
    fn select(&mut self, pos: &G, limits: &Limits, stop: &AtomicBool) -> Decision<G::Move> {
        let playouts = self.search(pos, limits, stop);
        let best = self
            .best_root_child()
            .expect("select called on a finished game");
        Decision {
            mv: best.mv.expect("children carry moves"),
            playouts,
            value: (best.visits > 0).then(|| best.mean()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::{Board, Peg};

    fn run(cfg: UctConfig, playouts: u64, pos: &Board) -> Uct<Board, RandomPolicy> {
        let mut u = Uct::new("t", cfg, RandomPolicy, 5);
        let stop = AtomicBool::new(false);
        assert_eq!(u.search(pos, &Limits::playouts(playouts), &stop), playouts);
        u
    }

    #[test]
    fn uct_expands_a_node_only_at_the_threshold() {
        let cfg = UctConfig::seed_uct();
        let u = run(cfg, 20_000, &Board::new());
        let t = cfg.expand_threshold;
        let (mut expanded, mut waiting) = (0, 0);
        for (i, n) in u.tree().iter().enumerate().skip(1) {
            if n.is_expanded() {
                // Expanded when its count reached t, then visited once more.
                assert!(n.visits > t, "node {i} expanded at {} visits", n.visits);
                expanded += 1;
            } else {
                assert!(
                    n.visits <= t,
                    "node {i} has {} visits but no children",
                    n.visits
                );
                waiting += 1;
            }
        }
        assert!(
            expanded > 10 && waiting > 100,
            "{expanded} expanded, {waiting} leaves"
        );
        // The root's count is the sum of its children's.
        let root = &u.tree()[0];
        assert_eq!(
            root.visits as u64,
            u.children_of(0)
                .iter()
                .map(|c| c.visits as u64)
                .sum::<u64>()
        );
    }

    #[test]
    fn ucb1_plays_each_move_once_then_never_grows_a_tree() {
        let u = run(UctConfig::ucb1(), 16, &Board::new());
        assert!(u.children_of(0).iter().all(|c| c.visits == 1));
        let u = run(UctConfig::ucb1(), 5_000, &Board::new());
        assert_eq!(u.tree().len(), 17, "root + 16 moves only");
        // UCB1 spends more on better moves: the counts are not uniform.
        let v: Vec<u32> = u.children_of(0).iter().map(|c| c.visits).collect();
        assert!(v.iter().max() > v.iter().min(), "{v:?}");
    }

    #[test]
    fn the_ucb_value_picks_the_largest_bound() {
        // Two children: one 3/4 after 4 visits, one 1/1 after 1: with n = 5 the
        // second has w/m + sqrt(2 ln 5 / m) = 1 + 1.794 > 0.75 + 0.897.
        let mut u: Uct<Board, RandomPolicy> = Uct::new("t", UctConfig::seed_uct(), RandomPolicy, 1);
        u.tree = vec![
            Node {
                mv: None,
                mover: 1,
                visits: 5,
                reward: 0.0,
                first_child: 1,
                n_children: 2,
            },
            Node {
                mv: Some(Peg(0)),
                mover: 0,
                visits: 4,
                reward: 3.0,
                first_child: NONE,
                n_children: 0,
            },
            Node {
                mv: Some(Peg(1)),
                mover: 0,
                visits: 1,
                reward: 1.0,
                first_child: NONE,
                n_children: 0,
            },
        ];
        assert_eq!(u.select_child(0), 2);
        u.tree[2].reward = 0.0; // 0 + 1.794 > 1.647
        assert_eq!(u.select_child(0), 2);
        u.tree[1].reward = 4.0; // 1 + 0.897 > 1.794
        assert_eq!(u.select_child(0), 1);
    }

    #[test]
    fn the_final_choice_is_by_visits_or_by_mean() {
        let mut u: Uct<Board, RandomPolicy> = Uct::new("t", UctConfig::seed_uct(), RandomPolicy, 1);
        u.tree = vec![
            Node {
                mv: None,
                mover: 1,
                visits: 12,
                reward: 0.0,
                first_child: 1,
                n_children: 2,
            },
            Node {
                mv: Some(Peg(0)),
                mover: 0,
                visits: 10,
                reward: 6.0,
                first_child: NONE,
                n_children: 0,
            },
            Node {
                mv: Some(Peg(1)),
                mover: 0,
                visits: 2,
                reward: 2.0,
                first_child: NONE,
                n_children: 0,
            },
        ];
        assert_eq!(u.best_root_child().unwrap().mv, Some(Peg(0)));
        u.config.choice = FinalChoice::Mean;
        assert_eq!(u.best_root_child().unwrap().mv, Some(Peg(1)));
    }

    #[test]
    fn the_randomized_value_is_finite_for_unvisited_children_and_noisy() {
        let mut cfg = UctConfig::seed_uct();
        cfg.selection = Selection::Randomized { epsilon: 1.0 };
        let mut u: Uct<Board, RandomPolicy> = Uct::new("t", cfg, RandomPolicy, 1);
        u.tree = vec![
            Node {
                mv: None,
                mover: 1,
                visits: 10,
                reward: 0.0,
                first_child: 1,
                n_children: 2,
            },
            Node {
                mv: Some(Peg(0)),
                mover: 0,
                visits: 9,
                reward: 9.0,
                first_child: NONE,
                n_children: 0,
            },
            Node {
                mv: Some(Peg(1)),
                mover: 0,
                visits: 1,
                reward: 0.0,
                first_child: NONE,
                n_children: 0,
            },
        ];
        // Peg 0: 1 + sqrt2 sqrt(ln 11 / 10) = 1.69 + r; peg 1: 0 + sqrt2 sqrt(ln 11 / 2) = 2.19 + r.
        // With r uniform in [0, 1) each wins sometimes.
        let picks: Vec<usize> = (0..400).map(|_| u.select_child(0)).collect();
        let ones = picks.iter().filter(|&&k| k == 1).count();
        assert!(ones > 20 && ones < 380, "{ones} of 400");
    }

    #[test]
    fn share_values_back_up_from_each_movers_side() {
        assert_eq!(PlayoutResult::Value(0.75).reward_for(0, 0.5), 0.75);
        assert_eq!(PlayoutResult::Value(0.75).reward_for(1, 0.5), 0.25);
        assert_eq!(PlayoutResult::End(Outcome::Draw).reward_for(1, 0.5), 0.5);
    }

    #[test]
    fn a_time_budget_stops_the_search_and_still_gives_a_move() {
        let mut u: Uct<Board, RandomPolicy> = Uct::new("t", UctConfig::seed_uct(), RandomPolicy, 1);
        let stop = AtomicBool::new(true);
        let d = u.select(&Board::new(), &Limits::playouts(1_000_000), &stop);
        assert!(d.playouts <= crate::search::Budget::CHECK_EVERY);
        assert!(Board::new().is_legal(d.mv));
    }
}
