//! The games. Each game is a folder: its pure rules, its agents and its wire
//! mapping. [`PlayableGame`] is what runners, servers, clients and records
//! need of a game on top of its [`Model`]; [`GameKind`] names the games on
//! the command line.
//!
//! Adding a game: a folder `games/<name>/` whose type implements [`Model`]
//! (or the search core's [`crate::search::Game`], for an alternating
//! perfect-information game) and [`PlayableGame`] (with its drawing for
//! report pages, `view.js`), its `pub mod` line below, and one line in
//! [`registry!`]'s list.

pub mod floodit;
pub mod four3d;
pub mod geister;
pub mod golad;
pub mod goofspiel;
pub mod params;
pub mod puyo;

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::model::{Model, Seat};
use crate::search::Agent;

/// The agent name that means "the game's default agent" (four3d: `pmc`,
/// golad: `best`); every game's registry accepts it.
pub const DEFAULT_AGENT: &str = "default";

/// `name`, or the game's `default` agent when `name` is [`DEFAULT_AGENT`].
pub fn agent_name<'a>(name: &'a str, default: &'a str) -> &'a str {
    if name == DEFAULT_AGENT {
        default
    } else {
        name
    }
}

/// The error for an agent `name` that `game` does not have.
pub fn unknown_agent(game: &str, name: &str, known: &[&str]) -> String {
    format!(
        "unknown {game} agent '{name}' (known: {})",
        known.join(", ")
    )
}

/// Agent options from a profile's `[agent_params]` table.
pub type AgentParams = serde_json::Map<String, Value>;

/// Game options (`--size 14x14 --colours 6` for Flood-It), by name.
pub type GameOptions = serde_json::Map<String, Value>;

/// What runners, servers, clients and records need of a game, on top of
/// its rules ([`Model`]): its name, start, wire forms and agents.
pub trait PlayableGame: Model + fmt::Debug {
    /// The game's name on the wire and on the command line.
    const ID: &'static str;
    /// The agent names [`PlayableGame::build_agent`] accepts.
    fn agent_names() -> &'static [&'static str];
    /// The agent a house bot told `default` plays: one whose games against
    /// the game's default agent are real games, not a mirror image of it.
    /// By default the default agent itself (its games differ by its seed).
    fn house_agent() -> &'static str {
        DEFAULT_AGENT
    }
    /// The starting position (seeded for games with a random start).
    fn start(seed: u64) -> Self;
    /// The starting position under game options (Flood-It's board size and
    /// colours...), or why they are not valid. By default a game takes none.
    fn start_with(seed: u64, options: &GameOptions) -> Result<Self, String> {
        match options.keys().next() {
            Some(k) => Err(format!("game {} takes no option '{k}'", Self::ID)),
            None => Ok(Self::start(seed)),
        }
    }
    /// The true state (every hidden part included): records and replays.
    fn state_to_json(&self) -> Value;
    /// What everyone may see of the position while the game runs: the
    /// true state without anything either seat may not see (Geister's
    /// colours on the board, Puyo's seed, Goofspiel's prizes to come). A
    /// server's spectators get this until the game is over, then the true
    /// states. Drawn by the same [`PlayableGame::view_js`]. Required: a new
    /// game decides what it hides.
    fn public_json(&self) -> Value;
    fn state_from_json(v: &Value) -> Result<Self, String>;
    /// One seat's observation, as sent to that seat's client.
    fn obs_to_json(obs: &Self::Obs) -> Value;
    fn obs_from_json(v: &Value) -> Result<Self::Obs, String>;
    fn move_to_json(mv: Self::Action) -> Value;
    fn move_from_json(v: &Value) -> Result<Self::Action, String>;
    /// What `viewer` is shown of `mover`'s action `mv` once its turn has
    /// been applied to `self` (the position before the turn): `None` when
    /// the action is secret (Geister's setups). By default, the action.
    fn shown_move(&self, _viewer: Seat, _mover: Seat, mv: Self::Action) -> Option<Value> {
        Some(Self::move_to_json(mv))
    }
    /// A picture of the position for humans (logs, `play` output).
    fn render(&self) -> String;
    /// The game's drawing unit for `ladderbot report` pages
    /// (`games/<game>/view.js`, plain ES2017): it registers
    /// `LB.views["<ID>"] = function (state, el, ctx) {...}`, drawing the
    /// true state ([`PlayableGame::state_to_json`]) into the element `el`.
    /// Written `include_str!("view.js")`: a new game brings its drawing.
    fn view_js() -> &'static str;
    /// Whether every game starts from the same position under `options`
    /// (the seed changes nothing), so that an opening (moves played from
    /// the start) names one position. By default the true states of a few
    /// seeds' starts are compared.
    fn fixed_start(options: &GameOptions) -> Result<bool, String> {
        let first = Self::start_with(0, options)?.state_to_json();
        for seed in [1, 2, 0x5EED_0BE1] {
            if Self::start_with(seed, options)?.state_to_json() != first {
                return Ok(false);
            }
        }
        Ok(true)
    }
    /// A key equal for positions that are the same up to the game's
    /// symmetries (an opening suite keeps one of each); by default the
    /// true state's JSON, so only transpositions meet.
    fn position_key(&self) -> String {
        self.state_to_json().to_string()
    }
    /// About how many more moves the seat to move will make in this game
    /// (this one included), from what it observes: the horizon over which
    /// a game clock's bank is shared out ([`crate::search::Limits::on_game_clock`]).
    /// By default 20, a typical game's worth; a game that knows better
    /// (empty cells, rounds left) says so.
    fn moves_to_go(_obs: &Self::Obs) -> u32 {
        20
    }
    /// How a finished game ended, for games that report endings (a key of
    /// [`PlayableGame::ending_keys`]).
    fn ending(&self) -> Option<&'static str> {
        None
    }
    /// The ending keys every game of this kind reports: (wins, draws).
    fn ending_keys() -> Option<(&'static [&'static str], &'static [&'static str])> {
        None
    }
    fn build_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, String>;
    /// The agent `ladderbot analyze` asks for the value of a position it
    /// cannot solve: the game's strongest (`best` where there is one).
    fn reference_agent() -> &'static str {
        if Self::agent_names().contains(&"best") {
            "best"
        } else {
            DEFAULT_AGENT
        }
    }
    /// Whether the game has an exact solver ([`PlayableGame::solve_position`]).
    fn has_solver() -> bool {
        false
    }
    /// The exact value of this position for `seat` (to move): 1 won, 0.5
    /// drawn, 0 lost, with a move that keeps it, when the game's solver
    /// settles it within `max_nodes`. By default the game has none.
    fn solve_position(&self, _seat: Seat, _max_nodes: u64) -> Option<(f64, Self::Action)> {
        None
    }
    /// Whether a seat sees only part of the position (Geister's colours):
    /// `analyze` then takes every value from the seat's own information.
    fn hidden_information() -> bool {
        false
    }
    /// The phases of a game by ply (the index of a move in a record's
    /// `moves`): (first ply, name), in order, for `analyze`'s summaries.
    fn phase_bands() -> &'static [(usize, &'static str)] {
        &[(0, "opening"), (10, "middle game"), (40, "endgame")]
    }
    /// A one-player measure of strength, for games that have one (Puyo:
    /// the chain the agent fires alone on the pair sequence of `seed`):
    /// `ladderbot tune --objective solo` compares two settings by it. By
    /// default, none.
    fn solo_score(_agent: &str, _params: &AgentParams, _seed: u64) -> Option<Result<f64, String>> {
        None
    }
    /// The parameters of the agent `name` (`default` names the game's
    /// default agent), declared once ([`params::Decl`]): what
    /// [`PlayableGame::build_agent`] reads from `params`.
    fn agent_decl(name: &str) -> Result<params::Decl, String>;
}

/// Replays a game from its start state and the actions of its turns, in
/// order (the actions of a simultaneous turn seat 0 first): the position
/// after `moves`, or why they do not replay.
pub fn replay<G: PlayableGame>(start: &Value, moves: &[Value]) -> Result<G, String> {
    let mut pos = G::state_from_json(start)?;
    apply_moves(&mut pos, moves).map_err(|e| e.to_string())?;
    Ok(pos)
}

/// A move that does not apply: its index in the list and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub index: usize,
    pub message: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {}: {}", self.index, self.message)
    }
}

/// Plays `moves` (wire forms, the actions of a simultaneous turn seat 0
/// first) on `pos`, checking that each reads and is legal. On an error
/// `pos` is the position before the bad move's turn.
pub fn apply_moves<G: PlayableGame>(pos: &mut G, moves: &[Value]) -> Result<(), MoveError> {
    let err = |index: usize, message: String| MoveError { index, message };
    let mut it = moves.iter().enumerate();
    while let Some((i, first)) = it.next() {
        let turn = pos.turn();
        if turn.movers().is_empty() {
            return Err(err(i, "the game is already over".into()));
        }
        let mut joint = [None, None];
        for (k, &seat) in turn.movers().iter().enumerate() {
            let (j, v) = if k == 0 {
                (i, first)
            } else {
                it.next()
                    .ok_or_else(|| err(i, "the turn's other move is missing".into()))?
            };
            let mv = G::move_from_json(v).map_err(|e| err(j, e))?;
            if !pos.is_legal_action(seat, mv) {
                return Err(err(j, format!("{v} is not legal for seat {seat}")));
            }
            joint[seat] = Some(mv);
        }
        pos.apply(joint);
    }
    Ok(())
}

/// Declares the registered games: [`GameKind`], its names and its visitor.
macro_rules! registry {
    ($($variant:ident => $ty:ty),* $(,)?) => {
        /// The games, by name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($variant),*
        }

        impl GameKind {
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            pub fn id(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <$ty as PlayableGame>::ID),*
                }
            }

            /// Calls `v.visit::<G>()` with this kind's game type.
            pub fn visit<V: GameVisitor>(self, v: V) -> V::Output {
                match self {
                    $(GameKind::$variant => v.visit::<$ty>()),*
                }
            }
        }
    };
}

// The one line per game.
registry! {
    Four3d => four3d::Board,
    Golad => golad::GolState,
    Geister => geister::GeisterGame,
    Goofspiel => goofspiel::Goofspiel,
    FloodIt => floodit::FloodIt,
    Puyo => puyo::PuyoDuel,
}

impl GameKind {
    /// The agent names the game's registry accepts.
    pub fn agent_names(self) -> &'static [&'static str] {
        struct Names;
        impl GameVisitor for Names {
            type Output = &'static [&'static str];
            fn visit<G: PlayableGame>(self) -> Self::Output {
                G::agent_names()
            }
        }
        self.visit(Names)
    }

    /// What agent `agent` counts in its playouts
    /// ([`crate::search::Agent::work_unit`]); `playouts` for a name the
    /// game does not know.
    pub fn work_unit(self, agent: &str) -> &'static str {
        struct Unit<'a>(&'a str);
        impl GameVisitor for Unit<'_> {
            type Output = &'static str;
            fn visit<G: PlayableGame>(self) -> Self::Output {
                G::build_agent(self.0, &AgentParams::new(), 0).map_or("playouts", |a| a.work_unit())
            }
        }
        self.visit(Unit(agent))
    }

    /// The agent a house bot told `agent` plays: `default` is
    /// [`PlayableGame::house_agent`], any other name itself.
    pub fn house_agent(self, agent: &str) -> String {
        struct House;
        impl GameVisitor for House {
            type Output = &'static str;
            fn visit<G: PlayableGame>(self) -> Self::Output {
                G::house_agent()
            }
        }
        if agent == DEFAULT_AGENT {
            self.visit(House).to_string()
        } else {
            agent.to_string()
        }
    }

    /// Checks game options by building a start position with them.
    pub fn check_options(self, options: &GameOptions) -> Result<(), String> {
        struct Check<'a>(&'a GameOptions);
        impl GameVisitor for Check<'_> {
            type Output = Result<(), String>;
            fn visit<G: PlayableGame>(self) -> Self::Output {
                G::start_with(0, self.0).map(|_| ())
            }
        }
        self.visit(Check(options))
    }

    /// The declared parameters of the agent `name`.
    pub fn agent_decl(self, name: &str) -> Result<params::Decl, String> {
        struct D<'a>(&'a str);
        impl GameVisitor for D<'_> {
            type Output = Result<params::Decl, String>;
            fn visit<G: PlayableGame>(self) -> Self::Output {
                G::agent_decl(self.0)
            }
        }
        self.visit(D(name))
    }

    /// Whether the agent `name` with `params` thinks on the opponent's
    /// time ([`crate::search::Agent::ponders`]); false for one that does
    /// not build.
    pub fn agent_ponders(self, name: &str, params: &AgentParams) -> bool {
        struct Ponders<'a>(&'a str, &'a AgentParams);
        impl GameVisitor for Ponders<'_> {
            type Output = bool;
            fn visit<G: PlayableGame>(self) -> Self::Output {
                G::build_agent(self.0, self.1, 0).is_ok_and(|a| a.ponders())
            }
        }
        self.visit(Ponders(name, params))
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
        self.visit(Check(name, params))
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

impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A parameter naming a file that `parse` reads (a model's weights), if
/// present: read once per agent, kept for the life of the process.
pub fn param_file<T>(
    params: &AgentParams,
    key: &str,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<&'static T>, String> {
    let Some(v) = params.get(key) else {
        return Ok(None);
    };
    let path = v
        .as_str()
        .ok_or_else(|| format!("agent_params.{key}: expected a file path"))?;
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("agent_params.{key}: {path}: {e}"))?;
    let value = parse(&text).map_err(|e| format!("agent_params.{key}: {path}: {e}"))?;
    Ok(Some(Box::leak(Box::new(value))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_parses_by_its_name_and_checks_agents() {
        for g in GameKind::ALL {
            assert_eq!(g.id().parse::<GameKind>().unwrap(), *g);
            assert_eq!(g.to_string(), g.id());
            assert!(!g.agent_names().is_empty());
            for name in g.agent_names() {
                assert_eq!(g.check_agent(name, &AgentParams::new()).unwrap(), *name);
            }
            assert!(g.check_agent("default", &AgentParams::new()).is_ok());
            let e = g.check_agent("nobody", &AgentParams::new()).unwrap_err();
            assert!(e.contains("nobody"), "{e}");
            assert_eq!(serde_json::to_value(g).unwrap(), serde_json::json!(g.id()));
        }
        let e = "chess".parse::<GameKind>().unwrap_err();
        assert!(e.contains("golad") && e.contains("four3d"), "{e}");
    }

    /// Issue 57: `play geister` was `random` against `random`, Score Four's
    /// default `pmc`: a game's default agent is its strongest, `best`
    /// (Goofspiel has none: `match`). The house bot keeps an agent whose
    /// games against the default are not one game over and over.
    #[test]
    fn every_games_default_agent_is_its_best() {
        for g in GameKind::ALL {
            let default = g.check_agent(DEFAULT_AGENT, &AgentParams::new()).unwrap();
            let want = if g.agent_names().contains(&"best") {
                "best"
            } else {
                "match"
            };
            assert_eq!(default, want, "{g}");
        }
        let house = |g: GameKind| {
            g.check_agent(&g.house_agent(DEFAULT_AGENT), &AgentParams::new())
                .unwrap()
        };
        assert_eq!(house(GameKind::Four3d), "pmc");
        assert_eq!(house(GameKind::FloodIt), "mc");
        assert_eq!(house(GameKind::Geister), "random");
    }

    /// Every agent declares the parameters it reads: each builds with its
    /// declared parameters given at their defaults, refuses an undeclared
    /// one, and each tunable default lies in its range.
    #[test]
    fn every_agent_declares_what_it_reads() {
        use params::Kind;
        for g in GameKind::ALL {
            let names = g.agent_names().iter().copied().chain([DEFAULT_AGENT]);
            for name in names {
                let d = g
                    .agent_decl(name)
                    .unwrap_or_else(|e| panic!("{g} {name}: {e}"));
                let mut given = AgentParams::new();
                for p in &d.params {
                    if matches!(p.kind, Kind::File | Kind::Text) || p.default.is_null() {
                        continue;
                    }
                    let v = match p.kind {
                        Kind::Float | Kind::Int | Kind::Flag => {
                            p.value_of(p.default_f64().expect("a numeric default"))
                        }
                        _ => p.default.clone(),
                    };
                    given.insert(p.name.to_string(), v);
                    if p.tunable() {
                        let x = p.default_f64().unwrap();
                        assert!(
                            (p.lo..=p.hi).contains(&x),
                            "{g} {name}: {} default {x} outside {}..={}",
                            p.name,
                            p.lo,
                            p.hi
                        );
                        assert!(
                            p.step <= p.hi - p.lo,
                            "{g} {name}: {} step {} wider than its range",
                            p.name,
                            p.step
                        );
                    }
                }
                if let Err(e) = g.check_agent(name, &given) {
                    panic!("{g} {name} with its defaults {given:?}: {e}");
                }
                let mut bad = AgentParams::new();
                bad.insert("no_such_param".into(), 1.into());
                let e = g.check_agent(name, &bad).unwrap_err();
                assert!(
                    e.contains("unknown parameter") || e.contains("takes no parameters"),
                    "{g} {name}: {e}"
                );
            }
        }
    }

    /// Random games of every kind: at every position the public JSON
    /// hides what the game hides, and shows everything else.
    #[test]
    fn public_states_hide_only_what_the_seats_cannot_see() {
        use rand::{Rng, SeedableRng};
        struct Check;
        impl GameVisitor for Check {
            type Output = usize;
            fn visit<G: PlayableGame>(self) -> usize {
                let mut rng = rand::rngs::StdRng::seed_from_u64(7);
                let mut checked = 0;
                for seed in 0..3 {
                    let mut pos = G::start(seed);
                    for _ in 0..400 {
                        let (public, truth) = (pos.public_json(), pos.state_to_json());
                        check_public(G::ID, &public, &truth);
                        checked += 1;
                        let movers = pos.turn().movers();
                        if movers.is_empty() {
                            break;
                        }
                        let mut joint = [None, None];
                        for &s in movers {
                            let legal = pos.legal_actions(s);
                            joint[s] = Some(legal[rng.gen_range(0..legal.len())]);
                        }
                        pos.apply(joint);
                    }
                }
                checked
            }
        }
        for g in GameKind::ALL {
            assert!(g.visit(Check) > 3, "{g}");
        }
    }

    fn check_public(game: &str, public: &Value, truth: &Value) {
        match game {
            "puyo" => {
                assert!(public.get("seed").is_none(), "{public}");
                assert_eq!(public["pairs"], truth["pairs"]);
                assert_eq!(public["boards"], truth["boards"]);
                let over = public["pairs"].as_array().unwrap().is_empty();
                assert!(over || public["pairs"].as_array().unwrap().len() == 3);
            }
            "goofspiel" => {
                let deck = truth["deck"].as_array().unwrap();
                assert_eq!(
                    public["deck"].as_array().unwrap()[..],
                    deck[..deck.len().min(1)]
                );
                assert_eq!(public["prizes_hidden"], deck.len().saturating_sub(1));
                assert_eq!(public["history"], truth["history"]);
            }
            "geister" if truth["phase"] == "play" => {
                assert_eq!(public["places"], truth["places"]);
                for seat in 0..2 {
                    let places = truth["places"].as_str().unwrap();
                    for (i, letter) in ('A'..='H').enumerate() {
                        let at = &places[(seat * 8 + i) * 2..(seat * 8 + i) * 2 + 2];
                        let on_board = at != "88" && at != "99";
                        let unknown = public["unknown"][seat].as_str().unwrap().contains(letter);
                        let red_shown = public["setups"][seat].as_str().unwrap().contains(letter);
                        let red = truth["setups"][seat].as_str().unwrap().contains(letter);
                        assert_eq!(unknown, on_board, "{public}");
                        assert_eq!(red_shown, red && !on_board, "{public}");
                    }
                }
            }
            _ => assert_eq!(public, truth, "{game}: nothing is hidden"),
        }
    }
}
