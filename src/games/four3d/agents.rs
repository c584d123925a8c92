//! Score Four agents by name.

use crate::games::AgentParams;
use crate::search::bandit::PrimitiveMc;
use crate::search::{Agent, RandomAgent};

use super::Board;

/// The agent names `build` accepts.
pub const NAMES: &[&str] = &["random", "pmc"];

/// Builds a named agent; `params` are its options from the profile.
pub fn build(name: &str, params: &AgentParams, seed: u64) -> Result<Box<dyn Agent<Board>>, String> {
    match name {
        "random" => {
            crate::games::check_params(name, params, &[])?;
            Ok(Box::new(RandomAgent::new(seed)))
        }
        "pmc" => {
            crate::games::check_params(name, params, &["draw_reward"])?;
            let mut a = PrimitiveMc::new(seed);
            if let Some(d) = crate::games::param_f64(params, "draw_reward", 0.0..=1.0)? {
                a.draw_reward = d;
            }
            Ok(Box::new(a))
        }
        other => Err(format!(
            "unknown agent '{other}' for four3d (known: {})",
            NAMES.join(", ")
        )),
    }
}
