//! Puyo agents by name.
//!
//! | name | what it is |
//! |---|---|
//! | `random` | a uniformly random placement that fits |
//! | `template` | the seed's template placement (relation matrices, depth 3) |
//! | `potential` | the seed's potential maximisation |
//! | `combined` (default) | templates until the best match exceeds 0.9, then potential |
//! | `best` | our design ([`super::best`]) |
//! | `beam-v1` | issue 34's `best`, frozen ([`super::best::BestSettings::v1`]) |
//!
//! Parameters: see [`super::choosers::build_chooser`] and [`decl`]. `best` keeps within
//! the move's soft deadline as well as its own `ms` budget.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::best::{BestPlanner, BestSettings};
use super::choosers::{chooser_decl, chooser_from};
use super::planner::{Chooser, View};
use super::rules::{PuyoDuel, PuyoObs};
use crate::games::params::Decl;
use crate::games::AgentParams;
use crate::search::{Agent, Decision, Limits};

/// The agent `default` stands for.
pub const DEFAULT: &str = "best";

/// The agent names [`build`] accepts (and `default`).
pub const NAMES: &[&str] = &[
    "random",
    "template",
    "potential",
    "combined",
    "best",
    "beam-v1",
];

/// The parameters of every agent, declared once: what [`build`] reads,
/// `ladderbot agents --params` prints and `ladderbot tune` moves (the
/// choosers' own: [`super::choosers::chooser_decl`]).
pub fn decl(name: &str) -> Result<Decl, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    match name {
        "random" => Ok(Decl::new(name)),
        "template" | "potential" | "combined" | "best" | "beam-v1" => chooser_decl(name),
        other => Err(crate::games::unknown_agent("puyo", other, NAMES)),
    }
}

/// Builds a named agent.
pub fn build(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<PuyoDuel>>, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    let d = decl(name)?;
    let p = d.read(params)?;
    match name {
        "random" => Ok(Box::new(RandomPlacer {
            rng: SmallRng::seed_from_u64(seed),
        })),
        "best" | "beam-v1" => {
            // The agent keeps its own planner; its seed by default.
            let settings = BestSettings::named(name).over(&p);
            let seed = p.u64("seed").unwrap_or(seed);
            Ok(Box::new(BestAgent {
                name: if name == "best" { "best" } else { "beam-v1" },
                planner: BestPlanner::new(settings, seed),
            }))
        }
        "template" | "potential" | "combined" => Ok(Box::new(ChooserAgent {
            name: NAMES.iter().find(|n| **n == name).unwrap(),
            chooser: chooser_from(name, &p)?,
        })),
        other => Err(crate::games::unknown_agent("puyo", other, NAMES)),
    }
}

/// A uniformly random placement that fits.
pub struct RandomPlacer {
    rng: SmallRng,
}

impl Agent<PuyoDuel> for RandomPlacer {
    fn name(&self) -> &str {
        "random"
    }
    fn select(&mut self, obs: &PuyoObs, _: &Limits, _: &AtomicBool) -> Decision<super::Placement> {
        let pair = obs.pairs[0];
        let moves: Vec<_> = obs.me().placements(pair).collect();
        let mv = moves
            .choose(&mut self.rng)
            .copied()
            .unwrap_or_else(|| super::planner::any_move(obs.me(), pair));
        Decision {
            mv,
            playouts: 0,
            value: None,
        }
    }
}

/// One of the seed's choosers playing a duel seat.
pub struct ChooserAgent {
    name: &'static str,
    chooser: Box<dyn Chooser>,
}

impl Agent<PuyoDuel> for ChooserAgent {
    fn name(&self) -> &str {
        self.name
    }
    fn new_game(&mut self) {
        self.chooser.reset();
    }
    fn select(&mut self, obs: &PuyoObs, _: &Limits, _: &AtomicBool) -> Decision<super::Placement> {
        Decision {
            mv: self.chooser.choose(&View::of(obs)),
            playouts: 0,
            value: None,
        }
    }
}

/// `best` (or `beam-v1`) on a duel seat, within the move's soft deadline.
pub struct BestAgent {
    name: &'static str,
    planner: BestPlanner,
}

impl Agent<PuyoDuel> for BestAgent {
    fn name(&self) -> &str {
        self.name
    }
    fn select(
        &mut self,
        obs: &PuyoObs,
        limits: &Limits,
        _: &AtomicBool,
    ) -> Decision<super::Placement> {
        self.planner.deadline = limits.deadline.map(|d| d.soft);
        let mv = self.planner.choose(&View::of(obs));
        self.planner.deadline = None::<Instant>;
        Decision {
            mv,
            playouts: 0,
            value: None,
        }
    }
}
