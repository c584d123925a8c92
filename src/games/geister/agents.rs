//! Geister agents by name. Every agent is an [`Agent`] of
//! [`GeisterGame`]: on the setup turn it picks its reds, then it sees only
//! its own [`View`] (hidden opponent colours, its own frame) and keeps
//! whatever history it needs between calls; `new_game` starts a fresh game.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::game::GeisterGame;
use super::rules::{Move, Setup};
use super::view::View;
use crate::games::params::Decl;
use crate::games::AgentParams;
use crate::search::{Agent, Limits};

/// Random setup, uniformly random legal moves.
pub struct RandomGeister {
    rng: SmallRng,
}

impl RandomGeister {
    /// Nothing to forget between games.
    pub fn new_game(&mut self) {}

    /// It runs no playouts.
    pub fn last_playouts(&self) -> u64 {
        0
    }

    /// No estimate of the position's value.
    pub fn last_value(&self) -> Option<f64> {
        None
    }

    pub fn new(seed: u64) -> Self {
        RandomGeister {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl RandomGeister {
    pub fn setup(&mut self) -> Setup {
        Setup::random(&mut self.rng)
    }
    pub fn choose(&mut self, view: &View, _limits: &Limits, _stop: &AtomicBool) -> Move {
        let moves = view.legal_moves();
        assert!(!moves.is_empty(), "choose called with no legal move");
        moves[self.rng.gen_range(0..moves.len())]
    }
}

/// The agent names [`build`] accepts (and `default`).
pub const NAMES: &[&str] = &[
    "random",
    "charge",
    "rule",
    "dmc-v1",
    "ismcts-v1",
    "ismcts-v2",
    "best",
    "style-reds",
    "style-blues",
    "style-mixed",
    "style-corners",
];

/// The agent `default` stands for.
pub const DEFAULT: &str = "best";

/// The parameters of every agent, declared once: what [`build`] reads,
/// `ladderbot agents --params` prints and `ladderbot tune` moves.
pub fn decl(name: &str) -> Result<Decl, String> {
    use super::best::BestConfig;
    let name = crate::games::agent_name(name, DEFAULT);
    Ok(match name {
        "random" | "charge" | "rule" => Decl::new(name),
        n if super::styles::Kind::from_name(n).is_some() => Decl::new(n),
        "dmc-v1" => BestConfig::dmc_v1().decl(name),
        "ismcts-v1" => BestConfig::ismcts_v1().decl(name),
        "ismcts-v2" => BestConfig::ismcts_v2().decl(name),
        "best" => BestConfig::default().decl(name),
        other => return Err(crate::games::unknown_agent("geister", other, NAMES)),
    })
}

/// The settings of `best` or of one of the earlier `best`s kept under
/// their own names (`ismcts-v2`, `ismcts-v1`, `dmc-v1`), with `params`.
pub fn best_config(name: &str, params: &AgentParams) -> Result<super::best::BestConfig, String> {
    use super::best::BestConfig;
    let name = crate::games::agent_name(name, DEFAULT);
    match name {
        "best" => BestConfig::from_params(params),
        "dmc-v1" => BestConfig::from_params_over(name, BestConfig::dmc_v1(), params),
        "ismcts-v1" => BestConfig::from_params_over(name, BestConfig::ismcts_v1(), params),
        "ismcts-v2" => BestConfig::from_params_over(name, BestConfig::ismcts_v2(), params),
        other => Err(format!(
            "{other} is not `best` nor one of the earlier bests (ismcts-v2, ismcts-v1, dmc-v1)"
        )),
    }
}

/// Builds a named agent; `params` are its options from the profile.
pub fn build(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<GeisterGame>>, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    let d = decl(name)?;
    d.read(params)?;
    match name {
        "random" => Ok(Box::new(RandomGeister::new(seed))),
        "charge" => Ok(Box::new(super::charge::Charge::new(seed))),
        "rule" => Ok(Box::new(super::rule_agent::RuleAgent::new(seed))),
        "dmc-v1" | "ismcts-v1" | "ismcts-v2" => {
            // Earlier `best`s, kept fixed under their own names.
            let name = match name {
                "dmc-v1" => "dmc-v1",
                "ismcts-v1" => "ismcts-v1",
                _ => "ismcts-v2",
            };
            let config = best_config(name, params)?;
            Ok(Box::new(crate::search::Renamed {
                name,
                inner: Box::new(super::best::Best::new(config, seed)),
            }))
        }
        "best" => {
            let config = best_config(name, params)?;
            Ok(Box::new(super::best::Best::new(config, seed)))
        }
        n => match super::styles::Kind::from_name(n) {
            Some(kind) => Ok(Box::new(crate::search::Renamed {
                name: kind.name(),
                inner: Box::new(super::styles::Style::new(kind, seed)),
            })),
            None => Err(crate::games::unknown_agent("geister", n, NAMES)),
        },
    }
}

geister_agent!(RandomGeister, "random");
