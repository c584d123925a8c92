//! `best`: ladderbot's own Geister agent.
//!
//! Each turn:
//! 1. **Solver shortcut**: if the seed's forced-win table ([`forced_win`]:
//!    a blue on an exit, a free run that wins the race, patterns 2-4) names a
//!    move, it is played without searching.
//! 2. **Beliefs**: the seed's blue-likelihood of each opponent piece
//!    ([`BlueLikelihood`], updated from every opponent move; -1000 for a piece
//!    that skipped a sure escape) becomes a distribution over the colourings
//!    that fit what is known, i.e. the right number of blues among the pieces
//!    on the board, each colouring weighted `exp(belief * sum of the
//!    likelihoods of its blues)` ([`belief::Belief`]).
//! 3. **Search**: single-observer information-set MCTS ([`search`]): one tree
//!    of move sequences, a colouring drawn from the belief for every
//!    iteration, UCB1 at both sides' nodes (the opponent is treated as
//!    knowing our colours: a cautious model), on a bitboard copy of the
//!    position ([`board::Board`]).
//! 4. **Playouts** ([`policy::PlayoutPolicy`]), where neither side looks at
//!    the other's colours: a blue on an exit escapes; an opponent piece on
//!    its exit is captured if we touch it; a blue with a free run to an exit
//!    takes it; otherwise a weighted random move (captures, forward steps and
//!    blues closing in on an exit favoured; blues stepping next to an
//!    opponent piece not). To the end of the game, or `depth` plies and a
//!    material-and-race evaluation.
//! 5. **Time**: the search polls a [`Budget`](crate::search::Budget)
//!    (playouts, soft deadline, stop flag, the clock every 16 iterations)
//!    and stops starting iterations [`search::HARD_SLACK`] before the hard
//!    deadline; the most-visited move is played, and a move is ready even if
//!    no iteration ran.
//!
//! Placement: the seed's layouts ([`random_placement`]).
//!
//! Parameters (`--param KEY=VALUE`, `[agent_params]`): `exploration` (UCB1
//! constant, 0.5), `threshold` (visits before a leaf is expanded, 4),
//! `belief` (inverse temperature of the likelihoods, 0.15; 0 = uniform over
//! consistent colourings), `depth` (playout plies before evaluating, 0 = to
//! the end), and the playout weights `capture` (2), `forward` (2), `run`
//! (4: a blue closing in on an exit) and `danger` (0.5: a blue stepping next
//! to an opponent piece).

pub mod belief;
pub mod board;
pub mod policy;
pub mod search;

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::likelihood::BlueLikelihood;
use super::patterns::forced_win;
use super::rule_agent::random_placement;
use super::rules::{Dir, Move, Setup};
use super::view::View;
use crate::games::{check_params, param_f64, param_u64, AgentParams};
use crate::search::Limits;

use belief::Belief;
use board::{board_move, real_move, Board, ESCAPE};
use policy::PlayoutPolicy;
use search::{Search, TreeConfig};

/// `best`'s settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BestConfig {
    pub tree: TreeConfig,
    pub belief: f64,
    pub policy: PlayoutPolicy,
}

impl Default for BestConfig {
    fn default() -> Self {
        BestConfig {
            tree: TreeConfig::default(),
            belief: 0.15,
            policy: PlayoutPolicy::default(),
        }
    }
}

impl BestConfig {
    /// The parameter names [`BestConfig::from_params`] accepts.
    pub const PARAMS: &'static [&'static str] = &[
        "exploration",
        "threshold",
        "belief",
        "depth",
        "capture",
        "forward",
        "run",
        "danger",
    ];

    /// The defaults with `params` applied; unknown names are errors.
    pub fn from_params(params: &AgentParams) -> Result<Self, String> {
        check_params("best", params, Self::PARAMS)?;
        let mut c = BestConfig::default();
        if let Some(x) = param_f64(params, "exploration", 0.0..=10.0)? {
            c.tree.exploration = x;
        }
        if let Some(x) = param_u64(params, "threshold", 1..=u32::MAX as u64)? {
            c.tree.expand_threshold = x as u32;
        }
        if let Some(x) = param_f64(params, "belief", 0.0..=10.0)? {
            c.belief = x;
        }
        if let Some(x) = param_u64(params, "depth", 0..=300)? {
            c.policy.depth = x as u32;
        }
        let weights = [
            ("capture", &mut c.policy.capture),
            ("forward", &mut c.policy.forward),
            ("run", &mut c.policy.blue_run),
            ("danger", &mut c.policy.blue_danger),
        ];
        for (key, w) in weights {
            if let Some(x) = param_f64(params, key, 0.0..=1000.0)? {
                *w = x as f32;
            }
        }
        Ok(c)
    }
}

/// What the last `choose` did, for tests and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LastChoice {
    /// Playouts run (0 for a forced win or a single legal move).
    pub iterations: u64,
    /// Whether the forced-win table decided.
    pub forced: bool,
}

/// The `best` agent.
pub struct Best {
    rng: SmallRng,
    config: BestConfig,
    likelihood: BlueLikelihood,
    search: Search,
    pub last: LastChoice,
}

impl Best {
    pub fn new(config: BestConfig, seed: u64) -> Self {
        Best {
            rng: SmallRng::seed_from_u64(seed),
            config,
            likelihood: BlueLikelihood::new(),
            search: Search::new(),
            last: LastChoice::default(),
        }
    }

    /// The move for `view` (our turn, game on), and the likelihoods as they
    /// stand; does not update them.
    fn decide(&mut self, view: &View, limits: &Limits, stop: &AtomicBool) -> Move {
        self.last = LastChoice::default();
        let legal = view.legal_moves();
        if let Some(mv) = forced_win(view) {
            self.last.forced = true;
            return mv;
        }
        if legal.len() <= 1 {
            return self.fallback(view, &legal);
        }
        let l = self.likelihood.likelihoods(view);
        let belief = Belief::new(view, &l, self.config.belief);
        let base = Board::from_view(view, 0);
        let r = self.search.run(
            &base,
            &belief,
            &self.config.policy,
            &self.config.tree,
            limits,
            stop,
            &mut self.rng,
        );
        self.last.iterations = r.iterations;
        r.best
            .and_then(|m| real_move(view, m))
            .filter(|&mv| view.is_legal(mv))
            .unwrap_or_else(|| self.fallback(view, &legal))
    }

    /// A move without search: a forward step if any, else any legal move.
    fn fallback(&mut self, view: &View, legal: &[Move]) -> Move {
        let forward: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&mv| {
                board_move(view, mv).is_some_and(|m| m.to == ESCAPE || m.to + 6 == m.from)
            })
            .collect();
        let pool = if forward.is_empty() { legal } else { &forward };
        match pool.len() {
            // Only reachable if called without a legal move (the game is over).
            0 => Move::new(0, Dir::N),
            n => pool[self.rng.gen_range(0..n)],
        }
    }
}

impl Best {
    pub fn new_game(&mut self) {
        self.likelihood.reset();
    }
    pub fn setup(&mut self) -> Setup {
        self.new_game();
        random_placement(&mut self.rng)
    }
    pub fn last_playouts(&self) -> u64 {
        self.last.iterations
    }
    pub fn choose(&mut self, view: &View, limits: &Limits, stop: &AtomicBool) -> Move {
        if view.ply() <= 1 {
            self.new_game();
        }
        self.likelihood.observe(view);
        let mv = self.decide(view, limits, stop);
        self.likelihood.our_move(view, mv);
        mv
    }
}

geister_agent!(Best, "best");

#[cfg(test)]
mod tests;
