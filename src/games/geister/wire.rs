//! Geister on the wire and in the registry: [`PlayableGame`] for
//! [`GeisterGame`] (the JSON of states, observations and actions that the
//! match server, records and replays read; the agents by name; endings).
//! The wire forms are described in [`super::game`].

use serde_json::{json, Value};

use super::game::{Action, GeisterGame, Obs, DRAW_KEYS, WIN_KEYS};
use super::rules::{Geister, Move, Place, Setup, Square, PIECES, SIZE};
use super::view::View;
use crate::games::{AgentParams, PlayableGame};
use crate::model::Seat;
use crate::search::Agent;

/// A piece's place as two characters: `xy` on the board (absolute), `88`
/// escaped, `99` captured (as on the GAT board).
fn place_code(p: Place) -> String {
    match p {
        Place::At(sq) => format!("{}{}", sq.x(), sq.y()),
        Place::Escaped => "88".into(),
        Place::Captured => "99".into(),
    }
}

fn parse_place(code: &[u8]) -> Result<Place, String> {
    match code {
        b"88" => Ok(Place::Escaped),
        b"99" => Ok(Place::Captured),
        [x, y] if (b'0'..b'0' + SIZE).contains(x) && (b'0'..b'0' + SIZE).contains(y) => {
            Ok(Place::At(Square::new(x - b'0', y - b'0')))
        }
        other => Err(format!(
            "place '{}': expected xy on the board, 88 or 99",
            String::from_utf8_lossy(other)
        )),
    }
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("missing '{key}'"))
}

fn field_u64(v: &Value, key: &str) -> Result<u64, String> {
    field(v, key)?
        .as_u64()
        .ok_or_else(|| format!("'{key}': expected a whole number"))
}

fn field_str<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| format!("'{key}': expected a string"))
}

fn phase(v: &Value) -> Result<&str, String> {
    field_str(v, "phase").map_err(|e| format!("geister: {e}"))
}

impl PlayableGame for GeisterGame {
    const ID: &'static str = "geister";
    /// The house keeps `random`, the default before `best`: a quick
    /// opponent for trying a client out (`server.house_agent` names
    /// another).
    fn house_agent() -> &'static str {
        "random"
    }

    fn agent_names() -> &'static [&'static str] {
        super::agents::NAMES
    }

    fn start(_seed: u64) -> Self {
        GeisterGame::Setup
    }

    /// `{"phase":"setup"}`, or `{"phase":"play","first":0,"ply":p,
    /// "setups":["ABCD","EFGH"],"places":"<16 places, seat 0's A..H then
    /// seat 1's, absolute>"}`.
    fn state_to_json(&self) -> Value {
        match self {
            GeisterGame::Setup => json!({"phase": "setup"}),
            GeisterGame::Play(g) => {
                let places: String = (0..2)
                    .flat_map(|s| g.places(s).iter().map(|&p| place_code(p)))
                    .collect();
                json!({
                    "phase": "play",
                    "first": g.first(),
                    "ply": g.ply(),
                    "setups": [g.setup(0).to_letters(), g.setup(1).to_letters()],
                    "places": places,
                })
            }
        }
    }

    /// The state with the colours of the pieces on the board hidden: each
    /// seat's `setups` letters hold only its red pieces out of the board
    /// (captured: shown to both), `unknown` the letters of its pieces on
    /// the board.
    fn public_json(&self) -> Value {
        let GeisterGame::Play(g) = self else {
            return self.state_to_json();
        };
        let split = |s: Seat| {
            let (mut reds, mut unknown) = (String::new(), String::new());
            let red = g.setup(s).to_letters();
            for (i, p) in g.places(s).iter().enumerate() {
                let letter = char::from(b'A' + i as u8);
                match p {
                    Place::At(_) => unknown.push(letter),
                    _ if red.contains(letter) => reds.push(letter),
                    _ => {}
                }
            }
            (reds, unknown)
        };
        let ((r0, u0), (r1, u1)) = (split(0), split(1));
        let mut v = self.state_to_json();
        v["setups"] = json!([r0, r1]);
        v["unknown"] = json!([u0, u1]);
        v
    }

    fn state_from_json(v: &Value) -> Result<Self, String> {
        match phase(v)? {
            "setup" => Ok(GeisterGame::Setup),
            "play" => {
                let err = |e: String| format!("geister state: {e}");
                let setups = field(v, "setups")
                    .map_err(err)?
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .ok_or_else(|| err("'setups': expected two strings".into()))?;
                let setup = |i: usize| {
                    setups[i]
                        .as_str()
                        .ok_or_else(|| err("'setups': expected two strings".into()))
                        .and_then(|s| Setup::from_letters(s).map_err(err))
                };
                let setups = [setup(0)?, setup(1)?];
                let codes = field_str(v, "places").map_err(err)?.as_bytes();
                if codes.len() != 4 * PIECES {
                    return Err(err(format!("'places': expected {} characters", 4 * PIECES)));
                }
                let mut places = [[Place::Captured; PIECES]; 2];
                for (i, code) in codes.chunks(2).enumerate() {
                    places[i / PIECES][i % PIECES] = parse_place(code).map_err(err)?;
                }
                let ply = u32::try_from(field_u64(v, "ply").map_err(err)?)
                    .map_err(|_| err("'ply' is too large".into()))?;
                let first = field_u64(v, "first").map_err(err)?;
                if first > 1 {
                    return Err(err(format!("'first': seat {first} out of range")));
                }
                Geister::from_position(places, setups, ply, first as Seat)
                    .map(GeisterGame::Play)
                    .map_err(err)
            }
            other => Err(format!("geister: unknown phase '{other}'")),
        }
    }

    fn obs_to_json(obs: &Obs) -> Value {
        match obs {
            Obs::Setup => json!({"phase": "setup"}),
            Obs::Play(view) => json!({
                "phase": "play",
                "seat": view.seat(),
                "ply": view.ply(),
                "my_turn": view.my_turn(),
                "board": view.to_gat(),
            }),
        }
    }

    fn obs_from_json(v: &Value) -> Result<Obs, String> {
        match phase(v)? {
            "setup" => Ok(Obs::Setup),
            "play" => {
                let err = |e: String| format!("geister observation: {e}");
                let seat = field_u64(v, "seat").map_err(err)?;
                if seat > 1 {
                    return Err(err(format!("'seat': {seat} out of range")));
                }
                let ply = u32::try_from(field_u64(v, "ply").map_err(err)?)
                    .ok()
                    .filter(|&p| p <= super::MAX_PLIES)
                    .ok_or_else(|| err("'ply' out of range".into()))?;
                let my_turn = field(v, "my_turn")
                    .map_err(err)?
                    .as_bool()
                    .ok_or_else(|| err("'my_turn': expected true or false".into()))?;
                let mut view = View::from_gat(field_str(v, "board").map_err(err)?).map_err(err)?;
                view.set_context(seat as Seat, ply, my_turn);
                Ok(Obs::Play(view))
            }
            other => Err(format!("geister: unknown phase '{other}'")),
        }
    }

    fn move_to_json(mv: Action) -> Value {
        match mv {
            Action::Setup(s) => Value::String(format!("SET:{}", s.to_letters())),
            Action::Move(m) => Value::String(m.to_gat()),
        }
    }

    fn move_from_json(v: &Value) -> Result<Action, String> {
        let s = v.as_str().ok_or_else(|| {
            format!("move: expected a string like \"SET:ABCD\" or \"A,N\", got {v}")
        })?;
        if s.starts_with("SET:") {
            Setup::from_letters(s)
                .map(Action::Setup)
                .map_err(|e| format!("move: {e}"))
        } else {
            Move::parse_gat(s)
                .map(Action::Move)
                .map_err(|e| format!("move: {e}"))
        }
    }

    /// A seat never sees the other's setup.
    fn shown_move(&self, viewer: Seat, mover: Seat, mv: Action) -> Option<Value> {
        match mv {
            Action::Setup(_) if viewer != mover => None,
            _ => Some(Self::move_to_json(mv)),
        }
    }

    fn render(&self) -> String {
        match self {
            GeisterGame::Setup => "geister: both seats choose their setups".into(),
            GeisterGame::Play(g) => g.render(),
        }
    }

    fn view_js() -> &'static str {
        include_str!("view.js")
    }

    fn ending(&self) -> Option<&'static str> {
        GeisterGame::ending(self).map(|e| e.key())
    }

    fn ending_keys() -> Option<(&'static [&'static str], &'static [&'static str])> {
        Some((WIN_KEYS, DRAW_KEYS))
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
    /// A seat never sees the other's colours: `analyze` takes every value
    /// from the seat's own information.
    fn hidden_information() -> bool {
        true
    }
    /// Plies of a record, setups included (the two setups are plies 0 and
    /// 1): the opening up to the 20th move, the endgame from ply 120 (most
    /// games that end by the rules end before the 300-ply limit).
    fn phase_bands() -> &'static [(usize, &'static str)] {
        &[(0, "opening"), (22, "middle game"), (120, "endgame")]
    }
}
