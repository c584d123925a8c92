//! Flat Monte Carlo over the root moves: the seed's "primitive Monte Carlo".
//! Written once, generic over `Game`.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::agent::{Agent, Decision};
use super::deadline::{Budget, Limits};
use super::game::Game;
use super::mcts::{PlayoutResult, Policy, RandomPolicy};

/// Statistics of one root candidate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ArmStats {
    pub playouts: u64,
    /// Sum of rewards for the player to move at the root.
    pub reward: f64,
}

impl ArmStats {
    pub fn mean(&self) -> f64 {
        if self.playouts == 0 {
            0.0
        } else {
            self.reward / self.playouts as f64
        }
    }
}

/// Index of the best mean (first one on ties); `None` if nothing was played.
pub fn best_arm(stats: &[ArmStats]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, s) in stats.iter().enumerate() {
        if s.playouts == 0 {
            continue;
        }
        if best.is_none_or(|b| s.mean() > stats[b].mean()) {
            best = Some(i);
        }
    }
    best
}

/// Primitive Monte Carlo: playouts are spread uniformly over the candidate
/// moves (round robin, so counts differ by at most one), and the candidate
/// with the best win rate is played. As in the seed, only wins count
/// (`draw_reward` = 0) unless configured otherwise.
pub struct PrimitiveMc {
    rng: SmallRng,
    pub draw_reward: f64,
}

impl PrimitiveMc {
    pub fn new(seed: u64) -> Self {
        PrimitiveMc {
            rng: SmallRng::seed_from_u64(seed),
            draw_reward: 0.0,
        }
    }

    /// Runs the search and returns the per-candidate statistics too.
    pub fn search<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> (Vec<G::Move>, Vec<ArmStats>) {
        self.search_with(pos, limits, stop, &mut RandomPolicy)
    }

    /// [`PrimitiveMc::search`] with the playouts of `policy`, scored by
    /// what they return (the end's result, or a value in 0..=1).
    pub fn search_with<G: Game, P: Policy<G>>(
        &mut self,
        pos: &G,
        limits: &Limits,
        stop: &AtomicBool,
        policy: &mut P,
    ) -> (Vec<G::Move>, Vec<ArmStats>) {
        let moves = pos.legal_moves();
        let me = pos.to_move();
        let mut stats = vec![ArmStats::default(); moves.len()];
        if moves.is_empty() {
            return (moves, stats);
        }
        let mut budget = Budget::new(limits, stop);
        let mut i = 0;
        while budget.tick() {
            let mut p = pos.clone();
            p.play(moves[i]);
            let r = match p.outcome() {
                Some(o) => PlayoutResult::End(o),
                None => policy.playout(&mut p, &mut self.rng),
            };
            stats[i].playouts += 1;
            stats[i].reward += r.reward_for(me, self.draw_reward);
            i += 1;
            if i == moves.len() {
                i = 0;
            }
        }
        (moves, stats)
    }
}

/// The decision of a flat search: the candidate with the best mean (the
/// first candidate if nothing was played).
pub fn decide<M: Copy>(moves: &[M], stats: &[ArmStats]) -> Decision<M> {
    assert!(!moves.is_empty(), "select called on a finished game");
    let playouts = stats.iter().map(|s| s.playouts).sum();
    match best_arm(stats) {
        Some(b) => Decision {
            mv: moves[b],
            playouts,
            value: Some(stats[b].mean()),
        },
        // Out of time before a single playout: any legal move beats none.
        None => Decision {
            mv: moves[0],
            playouts,
            value: None,
        },
    }
}

impl<G: Game> Agent<G> for PrimitiveMc {
    fn name(&self) -> &str {
        "pmc"
    }
    fn select(&mut self, pos: &G, limits: &Limits, stop: &AtomicBool) -> Decision<G::Move> {
        let (moves, stats) = self.search(pos, limits, stop);
        decide(&moves, &stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::Board;

    #[test]
    fn primitive_mc_spreads_playouts_evenly_and_plays_the_best_rate() {
        let mut a = PrimitiveMc::new(1);
        let stop = AtomicBool::new(false);
        let (moves, stats) = a.search(&Board::new(), &Limits::playouts(1_000), &stop);
        assert_eq!(moves.len(), 16);
        let counts: Vec<u64> = stats.iter().map(|s| s.playouts).collect();
        assert_eq!(counts.iter().sum::<u64>(), 1_000);
        assert!(
            counts.iter().max().unwrap() - counts.iter().min().unwrap() <= 1,
            "{counts:?}"
        );
        let best = best_arm(&stats).unwrap();
        assert!(stats.iter().all(|s| s.mean() <= stats[best].mean()));
    }

    #[test]
    fn best_arm_skips_unplayed_and_takes_the_first_of_equals() {
        let s = |p, r| ArmStats {
            playouts: p,
            reward: r,
        };
        assert_eq!(
            best_arm(&[s(0, 0.0), s(2, 1.0), s(4, 2.0), s(1, 0.0)]),
            Some(1)
        );
        assert_eq!(best_arm(&[s(0, 0.0)]), None);
    }
}
