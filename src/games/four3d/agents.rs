//! Score Four agents by name.
//!
//! | name | what it is |
//! |---|---|
//! | `random` | uniformly random legal drops |
//! | `pmc` | the seed's primitive Monte Carlo (playouts spread evenly over the moves) |
//! | `ucb1` | the seed's UCB1 Monte Carlo over the root moves |
//! | `uct` | the seed's UCT: UCB1 in a tree, a node expanded at 50 playouts |
//! | `uct-es` | the seed's proposal: `uct` whose playouts play the most important cell half the time |
//! | `uct-tactics` | `best` until issue 15: UCT with tactical children and playouts (win, block, never under the opponent's win) |
//! | `ab-v1` | `best` as issue 15 left it: alpha-beta with hand weights, no solver (a baseline) |
//! | `best` | alpha-beta with iterative deepening, a shared table and a threat evaluation (`super::best`) |

use crate::games::{check_params, param_f64, param_u64, AgentParams};
use crate::search::bandit::PrimitiveMc;
use crate::search::mcts::{FinalChoice, RandomPolicy, Selection, Uct, UctConfig};
use crate::search::{Agent, RandomAgent};

use super::policies::{ImportancePlayout, TacticalPolicy};
use super::Board;

/// The agent `default` stands for.
pub const DEFAULT: &str = "pmc";

/// The agent names `build` accepts (and `default`).
pub const NAMES: &[&str] = &[
    "random",
    "pmc",
    "ucb1",
    "uct",
    "uct-es",
    "uct-tactics",
    "ab-v1",
    "best",
];

/// `uct-tactics`'s tree settings (chosen by matches when it was `best`,
/// see docs/four3d-results.md).
pub fn uct_tactics_config() -> UctConfig {
    UctConfig {
        exploration: 1.0,
        expand_threshold: 4,
        draw_reward: 0.5,
        choice: FinalChoice::Visits,
        selection: Selection::Ucb1,
    }
}

/// Reads the UCT options every tree agent accepts over `base`.
fn uct_config(params: &AgentParams, mut base: UctConfig, tree: bool) -> Result<UctConfig, String> {
    if let Some(c) = param_f64(params, "exploration", 0.0..=100.0)? {
        base.exploration = c;
    }
    if let Some(d) = param_f64(params, "draw_reward", 0.0..=1.0)? {
        base.draw_reward = d;
    }
    if tree {
        if let Some(t) = param_u64(params, "threshold", 1..=1_000_000)? {
            base.expand_threshold = t as u32;
        }
    }
    match params.get("choice").map(|v| v.as_str().unwrap_or("")) {
        None => {}
        Some("visits") => base.choice = FinalChoice::Visits,
        Some("mean") => base.choice = FinalChoice::Mean,
        Some(_) => return Err("agent_params.choice: expected \"visits\" or \"mean\"".into()),
    }
    Ok(base)
}

/// Builds a named agent; `params` are its options from the profile.
pub fn build(name: &str, params: &AgentParams, seed: u64) -> Result<Box<dyn Agent<Board>>, String> {
    let name = if name == crate::games::DEFAULT_AGENT {
        DEFAULT
    } else {
        name
    };
    const TREE: &[&str] = &["threshold", "exploration", "draw_reward", "choice"];
    match name {
        "random" => {
            check_params(name, params, &[])?;
            Ok(Box::new(RandomAgent::new(seed)))
        }
        "pmc" => {
            check_params(name, params, &["draw_reward"])?;
            let mut a = PrimitiveMc::new(seed);
            if let Some(d) = param_f64(params, "draw_reward", 0.0..=1.0)? {
                a.draw_reward = d;
            }
            Ok(Box::new(a))
        }
        "ucb1" => {
            check_params(name, params, &["exploration", "draw_reward", "choice"])?;
            let cfg = uct_config(params, UctConfig::ucb1(), false)?;
            Ok(Box::new(Uct::new(name, cfg, RandomPolicy, seed)))
        }
        "uct" => {
            check_params(name, params, TREE)?;
            let cfg = uct_config(params, UctConfig::seed_uct(), true)?;
            Ok(Box::new(Uct::new(name, cfg, RandomPolicy, seed)))
        }
        "uct-es" => {
            check_params(
                name,
                params,
                &["threshold", "exploration", "draw_reward", "importance_prob"],
            )?;
            let cfg = uct_config(params, UctConfig::seed_uct(), true)?;
            let mut policy = ImportancePlayout::default();
            if let Some(p) = param_f64(params, "importance_prob", 0.0..=1.0)? {
                policy.importance_prob = p;
            }
            Ok(Box::new(Uct::new(name, cfg, policy, seed)))
        }
        "uct-tactics" => {
            check_params(name, params, TREE)?;
            let cfg = uct_config(params, uct_tactics_config(), true)?;
            Ok(Box::new(Uct::new(name, cfg, TacticalPolicy, seed)))
        }
        "ab-v1" => {
            use super::best::BestConfig;
            let cfg = BestConfig::from_params_over(params, BestConfig::v1(), name)?;
            Ok(Box::new(crate::search::Renamed {
                name: "ab-v1",
                inner: Box::new(super::best::Best::new(cfg)),
            }))
        }
        "best" => {
            let cfg = super::best::BestConfig::from_params(params)?;
            Ok(Box::new(super::best::Best::new(cfg)))
        }
        other => Err(format!(
            "unknown agent '{other}' for four3d (known: {})",
            NAMES.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::Peg;
    use crate::search::{Game, Limits};
    use std::sync::atomic::AtomicBool;

    fn choose(name: &str, pos: &Board, playouts: u64) -> Peg {
        let mut a = build(name, &AgentParams::new(), 3).unwrap();
        a.select(pos, &Limits::playouts(playouts), &AtomicBool::new(false))
            .mv
    }

    #[test]
    fn every_agent_builds_and_plays_a_legal_move() {
        for name in NAMES {
            let pos = Board::from_pegs(&[Peg(0), Peg(5)]).unwrap();
            assert!(pos.is_legal(choose(name, &pos, 300)), "{name}");
        }
        assert!(build("nope", &AgentParams::new(), 0).is_err());
        let bad: AgentParams = serde_json::from_str(r#"{"threshold": 0}"#).unwrap();
        assert!(build("uct", &bad, 0).err().unwrap().contains("threshold"));
        assert!(
            build("ucb1", &bad, 0).err().unwrap().contains("threshold"),
            "ucb1 has no tree"
        );
    }

    #[test]
    fn best_and_uct_tactics_take_an_immediate_win() {
        // Seat 0 to move with (0,0,0),(1,0,0),(2,0,0): peg 3 wins.
        let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(1), Peg(10), Peg(2), Peg(15)]).unwrap();
        for name in ["uct-tactics", "best"] {
            for playouts in [1, 50, 2_000] {
                assert_eq!(choose(name, &pos, playouts), Peg(3), "{name}");
            }
        }
    }

    #[test]
    fn best_and_uct_tactics_block_an_immediate_loss() {
        // Seat 1 to move; seat 0 threatens peg 3 and seat 1 has no win.
        let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(1), Peg(10), Peg(2)]).unwrap();
        for name in ["uct-tactics", "best"] {
            for playouts in [1, 50, 2_000] {
                assert_eq!(choose(name, &pos, playouts), Peg(3), "{name}");
            }
        }
    }

    #[test]
    fn best_and_uct_tactics_do_not_drop_under_the_opponents_winning_cell() {
        // Seat 1 wins on (3,0,1) once (3,0,0) is filled; seat 0 to move.
        let pos = Board::from_pegs(&[
            Peg(0),
            Peg(0),
            Peg(5),
            Peg(1),
            Peg(2),
            Peg(1),
            Peg(12),
            Peg(2),
        ])
        .unwrap();
        for name in ["uct-tactics", "best"] {
            for playouts in [1, 2_000] {
                assert_ne!(choose(name, &pos, playouts), Peg(3), "{name}");
            }
        }
    }
}
