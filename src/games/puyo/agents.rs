//! Puyo agents by name.
//!
//! | name | what it is |
//! |---|---|
//! | `random` | a uniformly random placement that fits |
//! | `template` | the seed's template placement (relation matrices, depth 3) |
//! | `potential` | the seed's potential maximisation |
//! | `combined` (default) | templates until the best match exceeds 0.9, then potential |
//! | `best` | our design ([`super::best`]) |
//!
//! Parameters: see [`super::planner::build_chooser`]. `best` keeps within
//! the move's soft deadline as well as its own `ms` budget.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::best::{BestPlanner, BestSettings};
use super::planner::{build_chooser, Chooser, View};
use super::rules::{PuyoDuel, PuyoObs};
use crate::games::{check_params, AgentParams, DEFAULT_AGENT};
use crate::search::{Agent, Decision, Limits};

/// The agent `default` stands for.
pub const DEFAULT: &str = "combined";

/// The agent names [`build`] accepts (and `default`).
pub const NAMES: &[&str] = &["random", "template", "potential", "combined", "best"];

/// Builds a named agent.
pub fn build(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<PuyoDuel>>, String> {
    let name = if name == DEFAULT_AGENT { DEFAULT } else { name };
    match name {
        "random" => {
            check_params(name, params, &[])?;
            Ok(Box::new(RandomPlacer {
                rng: SmallRng::seed_from_u64(seed),
            }))
        }
        "best" => {
            let mut params = params.clone();
            params
                .entry("seed".to_string())
                .or_insert_with(|| serde_json::json!(seed));
            // Validates the parameters; the agent keeps its own planner.
            build_chooser(name, &params)?;
            Ok(Box::new(BestAgent {
                planner: best_planner(&params)?,
            }))
        }
        "template" | "potential" | "combined" => Ok(Box::new(ChooserAgent {
            name: NAMES.iter().find(|n| **n == name).unwrap(),
            chooser: build_chooser(name, params)?,
        })),
        other => Err(format!(
            "unknown puyo agent '{other}' (known: {})",
            NAMES.join(", ")
        )),
    }
}

fn best_planner(params: &AgentParams) -> Result<BestPlanner, String> {
    let seed = crate::games::param_u64(params, "seed", 0..=u64::MAX)?.unwrap_or(0);
    Ok(BestPlanner::new(BestSettings::from_params(params)?, seed))
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

/// `best` on a duel seat, within the move's soft deadline.
pub struct BestAgent {
    planner: BestPlanner,
}

impl Agent<PuyoDuel> for BestAgent {
    fn name(&self) -> &str {
        "best"
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
