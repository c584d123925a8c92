//! Score Four agents by name.
//!
//! | name | what it is |
//! |---|---|
//! | `random` | uniformly random legal drops |
//! | `pmc` | the seed's primitive Monte Carlo (playouts spread evenly over the moves; `blunder` makes it play a random move at that rate) |
//! | `ucb1` | the seed's UCB1 Monte Carlo over the root moves |
//! | `uct` | the seed's UCT: UCB1 in a tree, a node expanded at 50 playouts |
//! | `uct-es` | the seed's proposal: `uct` whose playouts play the most important cell half the time |
//! | `uct-tactics` | `best` until issue 15: UCT with tactical children and playouts (win, block, never under the opponent's win) |
//! | `ab-v1` | `best` as issue 15 left it: alpha-beta with hand weights, no solver (a baseline) |
//! | `ab-v2` | `best` as issue 32 left it: the fitted evaluation, the solver from 26 empty cells (a baseline) |
//! | `ab-v3` | `best` before its network (issue 59): `ab-v2` with more time where the value falls (a baseline) |
//! | `ab-v4` | `best` before its search's numbers were tuned (issue 59): `ab-v3` with the network (a baseline) |
//! | `best` | alpha-beta with iterative deepening, a shared table, the fitted threat evaluation and a small network over the cells and pegs trained on solved positions (`super::best`) |

use crate::games::params::{Decl, Read};
use crate::games::AgentParams;
use crate::search::bandit::PrimitiveMc;
use crate::search::mcts::{FinalChoice, RandomPolicy, Selection, Uct, UctConfig};
use crate::search::{Agent, Blunder, RandomAgent};

use super::policies::{ImportancePlayout, TacticalPolicy};
use super::Board;

/// The agent `default` stands for.
pub const DEFAULT: &str = "best";

/// The agent names `build` accepts (and `default`).
pub const NAMES: &[&str] = &[
    "random",
    "pmc",
    "ucb1",
    "uct",
    "uct-es",
    "uct-tactics",
    "ab-v1",
    "ab-v2",
    "ab-v3",
    "ab-v4",
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

/// The UCT options of the tree agents, over `base`: `exploration`,
/// `draw_reward`, and for a tree `threshold` (UCB1 over the root alone has
/// none), and the final `choice` where `choice` is true.
fn uct_decl(d: Decl, base: &UctConfig, tree: bool, choice: bool) -> Decl {
    let mut d = d
        .float(
            "exploration",
            base.exploration,
            0.0..=100.0,
            0.1,
            "UCB1's exploration constant",
        )
        .float(
            "draw_reward",
            base.draw_reward,
            0.0..=1.0,
            0.05,
            "a drawn playout's reward",
        );
    if tree {
        d = d.int(
            "threshold",
            u64::from(base.expand_threshold),
            1..=1_000_000,
            1,
            "playouts through a leaf before it is expanded",
        );
    }
    if choice {
        let default = match base.choice {
            FinalChoice::Visits => "visits",
            FinalChoice::Mean => "mean",
        };
        d = d.choice(
            "choice",
            default,
            &["visits", "mean"],
            "the move played: most visited, or best mean",
        );
    }
    d
}

/// Reads the UCT options of [`uct_decl`] over `base`.
fn uct_config(p: &Read, mut base: UctConfig) -> UctConfig {
    if let Some(c) = p.f64("exploration") {
        base.exploration = c;
    }
    if let Some(d) = p.f64("draw_reward") {
        base.draw_reward = d;
    }
    if let Some(t) = p.u64("threshold") {
        base.expand_threshold = t as u32;
    }
    match p.choice("choice") {
        Some("mean") => base.choice = FinalChoice::Mean,
        Some(_) => base.choice = FinalChoice::Visits,
        None => {}
    }
    base
}

/// The parameters of every agent, declared once: what `build` reads,
/// `ladderbot agents --params` prints and `ladderbot tune` moves.
pub fn decl(name: &str) -> Result<Decl, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    let pmc = PrimitiveMc::new(0);
    Ok(match name {
        "random" => Decl::new(name),
        "pmc" => Decl::new(name)
            .float(
                "draw_reward",
                pmc.draw_reward,
                0.0..=1.0,
                0.05,
                "a drawn playout's reward",
            )
            .float(
                "blunder",
                0.0,
                0.0..=1.0,
                0.05,
                "the chance of playing a random move instead (a handicap; 0 is best)",
            ),
        "ucb1" => uct_decl(Decl::new(name), &UctConfig::ucb1(), false, true),
        "uct" => uct_decl(Decl::new(name), &UctConfig::seed_uct(), true, true),
        "uct-es" => uct_decl(Decl::new(name), &UctConfig::seed_uct(), true, false).float(
            "importance_prob",
            ImportancePlayout::default().importance_prob,
            0.0..=1.0,
            0.05,
            "how often a playout plays the most important cell",
        ),
        "uct-tactics" => uct_decl(Decl::new(name), &uct_tactics_config(), true, true),
        "ab-v1" => super::best::BestConfig::v1().decl(name),
        "ab-v2" => super::best::BestConfig::v2().decl(name),
        "ab-v3" => super::best::BestConfig::v3().decl(name),
        "ab-v4" => super::best::BestConfig::v4().decl(name),
        "best" => super::best::BestConfig::default().decl(name),
        other => return Err(crate::games::unknown_agent("four3d", other, NAMES)),
    })
}

/// Builds a named agent; `params` are its options from the profile.
pub fn build(name: &str, params: &AgentParams, seed: u64) -> Result<Box<dyn Agent<Board>>, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    let d = decl(name)?;
    let p = d.read(params)?;
    match name {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        "pmc" => {
            let mut a = PrimitiveMc::new(seed);
            if let Some(d) = p.f64("draw_reward") {
                a.draw_reward = d;
            }
            match p.f64("blunder") {
                Some(b) if b > 0.0 => Ok(Box::new(Blunder::new(Box::new(a), b, seed))),
                _ => Ok(Box::new(a)),
            }
        }
        "ucb1" => {
            let cfg = uct_config(&p, UctConfig::ucb1());
            Ok(Box::new(Uct::new(name, cfg, RandomPolicy, seed)))
        }
        "uct" => {
            let cfg = uct_config(&p, UctConfig::seed_uct());
            Ok(Box::new(Uct::new(name, cfg, RandomPolicy, seed)))
        }
        "uct-es" => {
            let cfg = uct_config(&p, UctConfig::seed_uct());
            let mut policy = ImportancePlayout::default();
            if let Some(x) = p.f64("importance_prob") {
                policy.importance_prob = x;
            }
            Ok(Box::new(Uct::new(name, cfg, policy, seed)))
        }
        "uct-tactics" => {
            let cfg = uct_config(&p, uct_tactics_config());
            Ok(Box::new(Uct::new(name, cfg, TacticalPolicy, seed)))
        }
        "ab-v1" => baseline("ab-v1", super::best::BestConfig::v1(), params),
        "ab-v2" => baseline("ab-v2", super::best::BestConfig::v2(), params),
        "ab-v3" => baseline("ab-v3", super::best::BestConfig::v3(), params),
        "ab-v4" => baseline("ab-v4", super::best::BestConfig::v4(), params),
        "best" => {
            let cfg = super::best::BestConfig::from_params(params)?;
            Ok(Box::new(super::best::Best::new(cfg)))
        }
        other => Err(crate::games::unknown_agent("four3d", other, NAMES)),
    }
}

/// A kept earlier `best` (`ab-v1` to `ab-v4`): its config `base`
/// changed by `params`, under its own name.
fn baseline(
    name: &'static str,
    base: super::best::BestConfig,
    params: &AgentParams,
) -> Result<Box<dyn Agent<Board>>, String> {
    let cfg = super::best::BestConfig::from_params_over(params, base, name)?;
    Ok(Box::new(crate::search::Renamed {
        name,
        inner: Box::new(super::best::Best::new(cfg)),
    }))
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
