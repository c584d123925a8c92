//! GOLAD on the match server and in records: the state's JSON (see
//! [`GolState::to_json`]) and moves as the bot's reply line (`"kill 3,4"`).

use serde_json::Value;

use super::{GolState, Move};
use crate::games::{AgentParams, PlayableGame};
use crate::search::Agent;

impl PlayableGame for GolState {
    const ID: &'static str = "golad";
    fn agent_names() -> &'static [&'static str] {
        super::agents::NAMES
    }
    fn start(seed: u64) -> Self {
        GolState::start(seed, super::rules::DEFAULT_MAX_ROUNDS)
    }
    fn state_to_json(&self) -> Value {
        self.to_json()
    }
    /// Nothing is hidden: the true state.
    fn public_json(&self) -> Value {
        self.state_to_json()
    }
    fn state_from_json(v: &Value) -> Result<Self, String> {
        GolState::from_json(v)
    }
    /// A seat observes the whole field: the state's own JSON.
    fn obs_to_json(obs: &GolState) -> Value {
        obs.to_json()
    }
    fn obs_from_json(v: &Value) -> Result<GolState, String> {
        GolState::from_json(v)
    }
    /// The bot's reply line, e.g. `"kill 3,4"`.
    fn move_to_json(mv: Move) -> Value {
        Value::String(mv.to_string())
    }
    fn move_from_json(v: &Value) -> Result<Move, String> {
        let s = v
            .as_str()
            .ok_or_else(|| format!("move: expected a string like \"kill 3,4\", got {v}"))?;
        Move::parse_reply(s).map_err(|e| format!("move: {e}"))
    }
    fn render(&self) -> String {
        GolState::render(self)
    }
    fn view_js() -> &'static str {
        include_str!("view.js")
    }
    fn build_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, String> {
        super::agents::build(name, params, seed)
    }
    fn agent_decl(name: &str) -> Result<crate::games::params::Decl, String> {
        super::agents::decl(name)
    }
    /// A game is at most 100 rounds (200 moves): the first ten rounds, the
    /// middle, and the last 40 rounds.
    fn phase_bands() -> &'static [(usize, &'static str)] {
        &[(0, "opening"), (20, "middle game"), (120, "endgame")]
    }
}
