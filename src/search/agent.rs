//! The agent interface: every bot brain, whatever the game, answers `select`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::deadline::Limits;
use super::game::Game;
use super::ready::Ready;
use crate::model::Model;

/// What an agent decided, with the work it did for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision<M> {
    pub mv: M,
    /// Playouts (or iterations) spent on this move; for an agent whose
    /// [`Agent::work_unit`] says otherwise, that unit (nodes...).
    pub playouts: u64,
    /// Estimated value of the chosen move for the mover, in 0..=1, when known.
    pub value: Option<f64>,
}

/// The one agent interface, for every game of every kind: an agent acts
/// for one seat, from that seat's observation only. Built per game (or per
/// match) by the game's agent registry; `select` must always return a legal
/// action when one exists.
pub trait Agent<G: Model>: Send {
    fn name(&self) -> &str;
    /// Called when a new game starts (drop any reused tree, history...).
    fn new_game(&mut self) {}
    /// Chooses an action for the seat that observes `obs` (it must act now)
    /// within `limits`, giving up early when `stop` is set. In a
    /// perfect-information game `obs` is the whole position.
    fn select(&mut self, obs: &G::Obs, limits: &Limits, stop: &AtomicBool) -> Decision<G::Action>;
    /// Called when a game ends, with the seat's observation of the final
    /// position (in a hidden-information game, what the end reveals).
    /// Agents that learn from game to game use it; the rest ignore it.
    fn game_over(&mut self, _obs: &G::Obs) {}
    /// What [`Decision::playouts`] counts, plural, for reports
    /// (`playouts/move`): `playouts` (or iterations) for Monte Carlo
    /// agents, `nodes` for alpha-beta, `evaluations` for a search that
    /// counts its evaluations.
    fn work_unit(&self) -> &'static str {
        "playouts"
    }
    /// Thinks on the opponent's time: `obs` is the observation we just
    /// answered and `ours` the action we chose for it; the agent searches
    /// what follows (the opponent's replies) until `stop` is set or
    /// `limits` run out, keeping what it finds for its next `select`.
    /// Returns the work done, in [`Agent::work_unit`]s (0: it does not
    /// ponder, or there was nothing to think about). It must notice `stop`
    /// within about a millisecond: a request is waiting for it (the flag
    /// comes shared, for agents that keep it to look at deep inside).
    fn ponder(
        &mut self,
        _obs: &G::Obs,
        _ours: &G::Action,
        _limits: &Limits,
        _stop: &Arc<AtomicBool>,
    ) -> u64 {
        0
    }
    /// Whether [`Agent::ponder`] does anything (for logs and reports).
    fn ponders(&self) -> bool {
        false
    }
    /// Gives the agent the slot where its searches keep their best move so
    /// far ([`Ready::offer`]), once, before the first search: a client
    /// that cannot wait for a late `select` (a thread kept off its core on
    /// a loaded machine) plays that move instead of a fallback. Agents that
    /// offer nothing ignore it.
    fn keep_ready(&mut self, _ready: Arc<Ready<G::Action>>) {}
}

/// Another agent under another name (a baseline kept under its own name
/// that is built from a newer agent's code with older settings).
pub struct Renamed<G: Model> {
    pub name: &'static str,
    pub inner: Box<dyn Agent<G>>,
}

impl<G: Model> Agent<G> for Renamed<G> {
    fn name(&self) -> &str {
        self.name
    }
    fn new_game(&mut self) {
        self.inner.new_game()
    }
    fn select(&mut self, obs: &G::Obs, limits: &Limits, stop: &AtomicBool) -> Decision<G::Action> {
        self.inner.select(obs, limits, stop)
    }
    fn game_over(&mut self, obs: &G::Obs) {
        self.inner.game_over(obs)
    }
    fn work_unit(&self) -> &'static str {
        self.inner.work_unit()
    }
    fn ponder(
        &mut self,
        obs: &G::Obs,
        ours: &G::Action,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
    ) -> u64 {
        self.inner.ponder(obs, ours, limits, stop)
    }
    fn ponders(&self) -> bool {
        self.inner.ponders()
    }
    fn keep_ready(&mut self, ready: Arc<Ready<G::Action>>) {
        self.inner.keep_ready(ready)
    }
}

/// Uniformly random legal moves.
pub struct RandomAgent {
    rng: SmallRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }
    fn select(&mut self, pos: &G, _limits: &Limits, _stop: &AtomicBool) -> Decision<G::Move> {
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "select called on a finished game");
        Decision {
            mv: moves[self.rng.gen_range(0..moves.len())],
            playouts: 0,
            value: None,
        }
    }
}

/// Another agent that, with probability `p`, plays a uniformly random legal
/// move instead: a handicapped bot of the same kind, and an agent whose
/// best setting is known (`p` = 0) for testing a tuner.
pub struct Blunder<G: Game> {
    pub inner: Box<dyn Agent<G>>,
    pub p: f64,
    rng: SmallRng,
}

impl<G: Game> Blunder<G> {
    pub fn new(inner: Box<dyn Agent<G>>, p: f64, seed: u64) -> Self {
        Blunder {
            inner,
            p,
            rng: SmallRng::seed_from_u64(seed ^ 0xB1_0DE2),
        }
    }
}

impl<G: Game> Agent<G> for Blunder<G> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn new_game(&mut self) {
        self.inner.new_game()
    }
    fn select(&mut self, pos: &G, limits: &Limits, stop: &AtomicBool) -> Decision<G::Move> {
        if self.p > 0.0 && self.rng.gen_bool(self.p.min(1.0)) {
            let moves = pos.legal_moves();
            if !moves.is_empty() {
                return Decision {
                    mv: moves[self.rng.gen_range(0..moves.len())],
                    playouts: 0,
                    value: None,
                };
            }
        }
        self.inner.select(pos, limits, stop)
    }
    fn game_over(&mut self, obs: &G) {
        self.inner.game_over(obs)
    }
    fn work_unit(&self) -> &'static str {
        self.inner.work_unit()
    }
    fn ponder(&mut self, obs: &G, ours: &G::Move, limits: &Limits, stop: &Arc<AtomicBool>) -> u64 {
        self.inner.ponder(obs, ours, limits, stop)
    }
    fn ponders(&self) -> bool {
        self.inner.ponders()
    }
    fn keep_ready(&mut self, ready: Arc<Ready<G::Move>>) {
        self.inner.keep_ready(ready)
    }
}

/// The message of a caught panic (from `catch_unwind` or a joined thread).
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
