//! GOLAD agents by name.
//!
//! | name | what it is |
//! |---|---|
//! | `random` | kill, birth or pass at random, with random legal cells (never enumerates the births) |
//! | `pass` | always passes |
//! | `ai1` | the seed's simple MCTS on the plain array board, 100 playouts |
//! | `ai2` | the same on the bitboard, 100 playouts |
//! | `ai3` | the seed's improved MCTS (4 greedy children, pass-only playouts, randomised selection), 50 playouts |
//! | `mcts-v1` | `best` before issue 10: AI3's children from the cells that matter plus a second kill, UCB1, the whole time budget |
//! | `control` | a two-ply search over a territory (control) evaluation; parameters `look`, `decay`, `two` |
//! | `ab-v1` | `best` of issue 10: alpha-beta with iterative deepening over the territory evaluation |
//! | `ab-v2` | `best` of issue 33: `ab-v1`'s search scoring leaves by the learned value model |
//! | `best` | `ab-v2` with the faster integer flood (issue 48); see [`super::best::BestConfig::from_params`] |
//!
//! The seed agents take `playouts` (their seed value by default; 0 = no
//! playout cap, so only the time budget counts) and `exploration`.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::moves::Move;
use super::reference::{RefField, RefGame};
use super::rules::GolState;
use super::seed_agents::{improved_config, simple_config, ImprovedPolicy, SimplePolicy};
use crate::games::params::{Decl, Read};
use crate::games::AgentParams;
use crate::search::mcts::{Uct, UctConfig};
use crate::search::{Agent, Decision, Limits};

/// The agent `default` stands for.
pub const DEFAULT: &str = "best";

/// The agent names [`build`] accepts (and `default`).
pub const NAMES: &[&str] = &[
    "random", "pass", "ai1", "ai2", "ai3", "mcts-v1", "control", "ab-v1", "ab-v2", "best",
];

/// A seed agent: the caller's limits, with the agent's own playout cap.
struct Capped<A> {
    inner: A,
    cap: Option<u64>,
}

impl<A: Agent<GolState>> Agent<GolState> for Capped<A> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn new_game(&mut self) {
        self.inner.new_game()
    }
    fn select(&mut self, pos: &GolState, limits: &Limits, stop: &AtomicBool) -> Decision<Move> {
        let mut l = *limits;
        if let Some(cap) = self.cap {
            l.playouts = Some(l.playouts.map_or(cap, |p| p.min(cap)));
        }
        self.inner.select(pos, &l, stop)
    }
    fn work_unit(&self) -> &'static str {
        self.inner.work_unit()
    }
}

/// Runs an agent written for the array board ([`RefGame`]) on [`GolState`].
struct OnArrayBoard<A> {
    inner: A,
}

impl<A: Agent<RefGame>> Agent<GolState> for OnArrayBoard<A> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn select(&mut self, pos: &GolState, limits: &Limits, stop: &AtomicBool) -> Decision<Move> {
        let mut g = RefGame::new(RefField::from_field(&pos.field), pos.max_rounds);
        g.moves = 2 * (pos.round.max(1) - 1) + pos.to_move as u32;
        self.inner.select(&g, limits, stop)
    }
    fn work_unit(&self) -> &'static str {
        self.inner.work_unit()
    }
}

/// A seed agent's playout cap when the profile gives none (`ai3`: 50,
/// `ai1` and `ai2`: 100).
fn seed_cap(name: &str) -> u64 {
    if name == "ai3" {
        50
    } else {
        100
    }
}

/// A seed agent's tree settings (`ai3`: the improved ones).
fn seed_config(name: &str) -> UctConfig {
    if name == "ai3" {
        improved_config()
    } else {
        simple_config()
    }
}

fn seed_agent(name: &str, p: &Read, seed: u64) -> Box<dyn Agent<GolState>> {
    let cap = match p.u64("playouts") {
        Some(0) => None,
        Some(n) => Some(n),
        None => Some(seed_cap(name)),
    };
    let mut cfg = seed_config(name);
    if let Some(c) = p.f64("exploration") {
        cfg.exploration = c;
    }
    match name {
        "ai1" => Box::new(Capped {
            inner: OnArrayBoard {
                inner: Uct::new(name, cfg, SimplePolicy::new(seed), seed),
            },
            cap,
        }),
        "ai2" => Box::new(Capped {
            inner: Uct::new(name, cfg, SimplePolicy::new(seed), seed),
            cap,
        }),
        _ => Box::new(Capped {
            inner: Uct::new(name, cfg, ImprovedPolicy::default(), seed),
            cap,
        }),
    }
}

/// Random moves as [`GolState::random_move`] draws them.
pub struct RandomGolad {
    rng: SmallRng,
}

impl RandomGolad {
    pub fn new(seed: u64) -> Self {
        RandomGolad {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Agent<GolState> for RandomGolad {
    fn name(&self) -> &str {
        "random"
    }
    fn select(&mut self, pos: &GolState, _limits: &Limits, _stop: &AtomicBool) -> Decision<Move> {
        Decision {
            mv: pos.random_move(&mut self.rng),
            playouts: 0,
            value: None,
        }
    }
}

/// Always passes.
pub struct PassAgent;

impl Agent<GolState> for PassAgent {
    fn name(&self) -> &str {
        "pass"
    }
    fn select(&mut self, _pos: &GolState, _limits: &Limits, _stop: &AtomicBool) -> Decision<Move> {
        Decision {
            mv: Move::Pass,
            playouts: 0,
            value: None,
        }
    }
}

/// `control`'s settings when the profile gives none: `look` pass
/// generations, the flood's `decay` per step, `two` candidates looked at
/// two plies deep.
struct ControlParams {
    look: usize,
    decay: f64,
    two: usize,
}

const CONTROL: ControlParams = ControlParams {
    look: 1,
    decay: 0.5,
    two: 60,
};

/// The parameters of every agent, declared once: what [`build`] reads,
/// `ladderbot agents --params` prints and `ladderbot tune` moves.
pub fn decl(name: &str) -> Result<Decl, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    Ok(match name {
        "random" | "pass" => Decl::new(name),
        "ai1" | "ai2" | "ai3" => Decl::new(name)
            .int(
                "playouts",
                seed_cap(name),
                0..=100_000_000,
                0,
                "the playout cap of a move (0: none, only the time budget counts)",
            )
            .float(
                "exploration",
                seed_config(name).exploration,
                0.0..=100.0,
                0.1,
                "UCB1's exploration constant",
            ),
        "control" => Decl::new(name)
            .int(
                "look",
                CONTROL.look as u64,
                0..=10,
                1,
                "pass generations after the move's own before the evaluation",
            )
            .float(
                "decay",
                CONTROL.decay,
                0.0..=1.0,
                0.05,
                "the flood's decay per step",
            )
            .int(
                "two",
                CONTROL.two as u64,
                0..=1000,
                5,
                "the best candidates given a two-ply look",
            ),
        "best" => super::best::BestConfig::default().decl(name),
        "ab-v1" => super::best::BestConfig::v1().decl(name),
        "ab-v2" => super::best::BestConfig::v2().decl(name),
        "mcts-v1" => {
            let cfg = super::mcts_v1::mcts_v1_config();
            Decl::new(name)
                .float(
                    "exploration",
                    cfg.exploration,
                    0.0..=100.0,
                    0.05,
                    "UCB1's exploration constant",
                )
                .int(
                    "threshold",
                    u64::from(cfg.expand_threshold),
                    1..=1_000_000,
                    1,
                    "playouts through a leaf before it is expanded",
                )
        }
        other => return Err(crate::games::unknown_agent("golad", other, NAMES)),
    })
}

/// Builds a named agent; `params` are its options from the profile.
pub fn build(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<GolState>>, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    let d = decl(name)?;
    let p = d.read(params)?;
    match name {
        "random" => Ok(Box::new(RandomGolad::new(seed))),
        "pass" => Ok(Box::new(PassAgent)),
        "ai1" | "ai2" | "ai3" => Ok(seed_agent(name, &p, seed)),
        "control" => {
            let look = p.u64("look").map_or(CONTROL.look, |l| l as usize);
            let decay = p.f64("decay").unwrap_or(CONTROL.decay);
            let two = p.u64("two").map_or(CONTROL.two, |t| t as usize);
            Ok(Box::new(super::control::Control::new(look, decay, two)))
        }
        "best" => Ok(Box::new(super::best::Best::new(
            super::best::BestConfig::from_params(params)?,
        ))),
        "ab-v1" => Ok(Box::new(super::best::Best::named(
            "ab-v1",
            super::best::BestConfig::from_params_over(
                params,
                super::best::BestConfig::v1(),
                "ab-v1",
            )?,
        ))),
        "ab-v2" => Ok(Box::new(super::best::Best::named(
            "ab-v2",
            super::best::BestConfig::from_params_over(
                params,
                super::best::BestConfig::v2(),
                "ab-v2",
            )?,
        ))),
        "mcts-v1" => {
            let mut cfg = super::mcts_v1::mcts_v1_config();
            if let Some(c) = p.f64("exploration") {
                cfg.exploration = c;
            }
            if let Some(t) = p.u64("threshold") {
                cfg.expand_threshold = t as u32;
            }
            Ok(Box::new(Uct::new(
                name,
                cfg,
                super::mcts_v1::MctsV1Policy::default(),
                seed,
            )))
        }
        other => Err(crate::games::unknown_agent("golad", other, NAMES)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_builds_and_plays_legal_moves() {
        let stop = AtomicBool::new(false);
        let limits = Limits::playouts(1);
        for name in NAMES {
            let mut a = build(name, &AgentParams::new(), 1).unwrap();
            assert_eq!(a.name(), *name);
            let mut s = GolState::start(4, 100);
            while s.outcome().is_none() {
                let d = a.select(&s, &limits, &stop);
                assert!(s.is_legal(&d.mv), "{name}: {:?}", d.mv);
                s.apply(d.mv);
            }
        }
        assert!(build("nope", &AgentParams::new(), 1).is_err());
        let mut p = AgentParams::new();
        p.insert("x".into(), 1.into());
        assert!(build("random", &p, 1).is_err());
    }
}
