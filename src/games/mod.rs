//! The games. Each game is a folder: its pure rules, its wire format and its
//! agents. [`PlayableGame`] is what the server, the client and the match
//! runner need of a game; [`GameKind`] names the games on the command line.

pub mod four3d;
pub mod geister;
pub mod golad;

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::search::{Agent, Game};

/// The agent name that means "the game's default agent" (four3d: `pmc`,
/// golad: `best`); every game's registry accepts it.
pub const DEFAULT_AGENT: &str = "default";

/// Agent options from a profile's `[agent_params]` table.
pub type AgentParams = serde_json::Map<String, Value>;

/// What the server, the client and the match runner need of a game.
pub trait PlayableGame: Game + fmt::Debug {
    /// The game's name on the wire and on the command line.
    const ID: &'static str;
    /// The agent names [`PlayableGame::build_agent`] accepts.
    fn agent_names() -> &'static [&'static str];
    /// The starting position (seeded for games with a random start).
    fn start(seed: u64) -> Self;
    fn state_to_json(&self) -> Value;
    fn state_from_json(v: &Value) -> Result<Self, String>;
    fn move_to_json(mv: Self::Move) -> Value;
    fn move_from_json(v: &Value) -> Result<Self::Move, String>;
    /// A picture of the position for humans (logs, `play` output).
    fn render(&self) -> String;
    fn build_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, String>;
}

impl PlayableGame for four3d::Board {
    const ID: &'static str = "four3d";
    fn agent_names() -> &'static [&'static str] {
        four3d::agents::NAMES
    }
    fn start(_seed: u64) -> Self {
        four3d::Board::new()
    }
    fn state_to_json(&self) -> Value {
        four3d::wire::state_to_json(self)
    }
    fn state_from_json(v: &Value) -> Result<Self, String> {
        four3d::wire::state_from_json(v)
    }
    fn move_to_json(mv: four3d::Peg) -> Value {
        four3d::wire::move_to_json(mv)
    }
    fn move_from_json(v: &Value) -> Result<four3d::Peg, String> {
        four3d::wire::move_from_json(v)
    }
    fn render(&self) -> String {
        four3d::wire::render(self)
    }
    fn build_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, String> {
        four3d::agents::build(name, params, seed)
    }
}

impl PlayableGame for golad::GolState {
    const ID: &'static str = "golad";
    fn agent_names() -> &'static [&'static str] {
        golad::agents::NAMES
    }
    fn start(seed: u64) -> Self {
        golad::GolState::start(seed, golad::rules::DEFAULT_MAX_ROUNDS)
    }
    fn state_to_json(&self) -> Value {
        self.to_json()
    }
    fn state_from_json(v: &Value) -> Result<Self, String> {
        golad::GolState::from_json(v)
    }
    /// The bot's reply line, e.g. `"kill 3,4"`.
    fn move_to_json(mv: golad::Move) -> Value {
        Value::String(mv.to_string())
    }
    fn move_from_json(v: &Value) -> Result<golad::Move, String> {
        let s = v
            .as_str()
            .ok_or_else(|| format!("move: expected a string like \"kill 3,4\", got {v}"))?;
        golad::Move::parse_reply(s).map_err(|e| format!("move: {e}"))
    }
    fn render(&self) -> String {
        golad::GolState::render(self)
    }
    fn build_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, String> {
        golad::agents::build(name, params, seed)
    }
}

/// The games, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Four3d,
    Golad,
}

impl GameKind {
    pub const ALL: &'static [GameKind] = &[GameKind::Four3d, GameKind::Golad];

    pub fn id(self) -> &'static str {
        match self {
            GameKind::Four3d => four3d::Board::ID,
            GameKind::Golad => golad::GolState::ID,
        }
    }

    /// Calls `v.visit::<G>()` with this kind's game type.
    pub fn visit<V: GameVisitor>(self, v: V) -> V::Output {
        match self {
            GameKind::Four3d => v.visit::<four3d::Board>(),
            GameKind::Golad => v.visit::<golad::GolState>(),
        }
    }
}

/// Every game ladderbot plays, by name (profiles, `play`, `match`): the
/// [`GameKind`]s, whose agents see the whole position, and Geister, whose
/// agents see only their own view and choose their own setup (played over
/// GAT TCP and by its own match driver).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyGame {
    Kind(GameKind),
    Geister,
}

impl AnyGame {
    pub const ALL: &'static [AnyGame] = &[
        AnyGame::Kind(GameKind::Four3d),
        AnyGame::Kind(GameKind::Golad),
        AnyGame::Geister,
    ];

    pub fn id(self) -> &'static str {
        match self {
            AnyGame::Kind(k) => k.id(),
            AnyGame::Geister => "geister",
        }
    }

    /// The full-information game, if it is one.
    pub fn kind(self) -> Option<GameKind> {
        match self {
            AnyGame::Kind(k) => Some(k),
            AnyGame::Geister => None,
        }
    }

    /// The agent names the game's registry accepts.
    pub fn agent_names(self) -> &'static [&'static str] {
        struct Names;
        impl GameVisitor for Names {
            type Output = &'static [&'static str];
            fn visit<G: PlayableGame>(self) -> Self::Output {
                G::agent_names()
            }
        }
        match self {
            AnyGame::Kind(k) => k.visit(Names),
            AnyGame::Geister => geister::agents::NAMES,
        }
    }

    /// Builds the agent once to check its name and parameters; its real
    /// name (`default` resolved) on success.
    pub fn check_agent(self, name: &str, params: &AgentParams) -> Result<String, String> {
        struct Check<'a>(&'a str, &'a AgentParams);
        impl GameVisitor for Check<'_> {
            type Output = Result<String, String>;
            fn visit<G: PlayableGame>(self) -> Self::Output {
                G::build_agent(self.0, self.1, 0).map(|a| a.name().to_string())
            }
        }
        match self {
            AnyGame::Kind(k) => k.visit(Check(name, params)),
            AnyGame::Geister => {
                geister::agents::build(name, params, 0).map(|a| a.name().to_string())
            }
        }
    }
}

impl From<GameKind> for AnyGame {
    fn from(k: GameKind) -> Self {
        AnyGame::Kind(k)
    }
}

impl fmt::Display for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for AnyGame {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        AnyGame::ALL
            .iter()
            .copied()
            .find(|g| g.id() == s)
            .ok_or_else(|| {
                format!(
                    "unknown game '{s}' (known: {})",
                    AnyGame::ALL
                        .iter()
                        .map(|g| g.id())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }
}

impl serde::Serialize for AnyGame {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// Code generic over the game, run for a [`GameKind`] chosen at run time.
pub trait GameVisitor {
    type Output;
    fn visit<G: PlayableGame>(self) -> Self::Output;
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for GameKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.id() == s)
            .ok_or_else(|| {
                format!(
                    "unknown game '{s}' (known: {})",
                    GameKind::ALL
                        .iter()
                        .map(|k| k.id())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }
}

/// Errors if `params` has a key `agent` does not know.
pub fn check_params(agent: &str, params: &AgentParams, known: &[&str]) -> Result<(), String> {
    match params.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) if known.is_empty() => Err(format!(
            "agent_params.{k}: agent '{agent}' takes no parameters"
        )),
        Some(k) => Err(format!(
            "agent_params.{k}: unknown parameter for agent '{agent}' (known: {})",
            known.join(", ")
        )),
        None => Ok(()),
    }
}

/// A float parameter within `range`, if present. Accepts numbers and numeric
/// strings (environment variables arrive as strings).
pub fn param_f64(
    params: &AgentParams,
    key: &str,
    range: std::ops::RangeInclusive<f64>,
) -> Result<Option<f64>, String> {
    let Some(v) = params.get(key) else {
        return Ok(None);
    };
    let x = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| format!("agent_params.{key}: expected a number, got {v}"))?;
    if !range.contains(&x) {
        return Err(format!(
            "agent_params.{key}: {x} is outside {}..={}",
            range.start(),
            range.end()
        ));
    }
    Ok(Some(x))
}

/// An unsigned integer parameter within `range`, if present.
pub fn param_u64(
    params: &AgentParams,
    key: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<Option<u64>, String> {
    let Some(v) = params.get(key) else {
        return Ok(None);
    };
    let x = match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| format!("agent_params.{key}: expected a whole number, got {v}"))?;
    if !range.contains(&x) {
        return Err(format!(
            "agent_params.{key}: {x} is outside {}..={}",
            range.start(),
            range.end()
        ));
    }
    Ok(Some(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_parses_by_its_name_and_checks_agents() {
        for g in AnyGame::ALL {
            assert_eq!(g.id().parse::<AnyGame>().unwrap(), *g);
            assert_eq!(g.to_string(), g.id());
            assert!(!g.agent_names().is_empty());
            for name in g.agent_names() {
                assert_eq!(g.check_agent(name, &AgentParams::new()).unwrap(), *name);
            }
            assert!(g.check_agent("default", &AgentParams::new()).is_ok());
            let e = g.check_agent("nobody", &AgentParams::new()).unwrap_err();
            assert!(e.contains("nobody"), "{e}");
        }
        assert_eq!(AnyGame::Geister.kind(), None);
        assert_eq!(AnyGame::from(GameKind::Golad).kind(), Some(GameKind::Golad));
        let e = "chess".parse::<AnyGame>().unwrap_err();
        assert!(e.contains("geister") && e.contains("four3d"), "{e}");
        assert_eq!(
            serde_json::to_value(AnyGame::Geister).unwrap(),
            serde_json::json!("geister")
        );
    }
}
