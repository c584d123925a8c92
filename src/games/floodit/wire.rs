//! Flood-It on the match server and in records.
//!
//! - A move is the colour chosen, 1-based, a JSON number: `3`.
//! - The state (also each seat's observation: nothing is hidden):
//!   `{"rows":14,"cols":14,"colours":6,"ply":0,"board":["1526…", …]}`, one
//!   string per row, one digit (the cell's current colour, 1..=colours)
//!   per cell. The territories follow: each is its pivot's region (top-left
//!   for seat 0, bottom-right for seat 1); the seat to move is `ply % 2`.
//! - Game options: `size` (`"ROWSxCOLS"`, each 2..=32, default `14x14`) and
//!   `colours` (3..=8, default 6).
//!
//! Reading rejects unknown and missing keys and anything inconsistent, with
//! an error naming the key; it never panics.

use serde_json::{json, Map, Value};

use super::rules::{FloodIt, COLOURS, DEFAULT_COLOURS, DEFAULT_COLS, DEFAULT_ROWS};
use crate::games::{AgentParams, GameOptions, PlayableGame};
use crate::search::{Agent, Game};

const STATE_KEYS: &[&str] = &["rows", "cols", "colours", "ply", "board"];

impl PlayableGame for FloodIt {
    const ID: &'static str = "floodit";
    /// `best` (the default) is alpha-beta, which against itself plays the
    /// same game on a board: the house plays `mc`, the default before it.
    fn house_agent() -> &'static str {
        "mc"
    }
    fn agent_names() -> &'static [&'static str] {
        super::agents::NAMES
    }
    /// The default board: 14 x 14, 6 colours, from `seed`.
    fn start(seed: u64) -> Self {
        FloodIt::random(DEFAULT_ROWS, DEFAULT_COLS, DEFAULT_COLOURS, seed)
            .expect("the default board size is valid")
    }
    fn start_with(seed: u64, options: &GameOptions) -> Result<Self, String> {
        let (rows, cols, colours) = parse_options(options)?;
        FloodIt::random(rows, cols, colours, seed)
    }
    fn state_to_json(&self) -> Value {
        let cells = self.cells();
        let board: Vec<String> = cells
            .chunks(self.cols())
            .map(|r| r.iter().map(|&c| char::from(b'1' + c)).collect())
            .collect();
        json!({
            "rows": self.rows(),
            "cols": self.cols(),
            "colours": self.colours(),
            "ply": self.ply(),
            "board": board,
        })
    }
    /// Nothing is hidden: the true state.
    fn public_json(&self) -> Value {
        self.state_to_json()
    }
    fn state_from_json(v: &Value) -> Result<Self, String> {
        let m = object(v)?;
        let rows = uint(m, "rows")? as usize;
        let cols = uint(m, "cols")? as usize;
        let colours = uint(m, "colours")?;
        let ply = uint(m, "ply")?;
        if !(COLOURS.start().to_owned() as u64..=*COLOURS.end() as u64).contains(&colours) {
            return Err(format!("colours: {colours} outside 3..=8"));
        }
        let board = m
            .get("board")
            .and_then(Value::as_array)
            .ok_or("board: expected an array of strings")?;
        if board.len() != rows {
            return Err(format!("board: {} rows, expected {rows}", board.len()));
        }
        let mut cells = Vec::with_capacity(rows * cols);
        for (r, row) in board.iter().enumerate() {
            let s = row
                .as_str()
                .ok_or_else(|| format!("board[{r}]: expected a string"))?;
            if s.len() != cols {
                return Err(format!("board[{r}]: {} cells, expected {cols}", s.len()));
            }
            for b in s.bytes() {
                if !(b'1'..b'1' + colours as u8).contains(&b) {
                    return Err(format!(
                        "board[{r}]: '{}' is not a colour 1..={colours}",
                        char::from(b)
                    ));
                }
                cells.push(b - b'1');
            }
        }
        let ply = u32::try_from(ply).map_err(|_| format!("ply: {ply} is too large"))?;
        FloodIt::from_cells(rows, cols, colours as u8, &cells, ply)
            .map_err(|e| format!("board: {e}"))
    }
    fn obs_to_json(obs: &FloodIt) -> Value {
        obs.state_to_json()
    }
    fn obs_from_json(v: &Value) -> Result<FloodIt, String> {
        FloodIt::state_from_json(v)
    }
    /// The colour, 1-based.
    fn move_to_json(mv: u8) -> Value {
        json!(mv + 1)
    }
    fn move_from_json(v: &Value) -> Result<u8, String> {
        match v.as_u64() {
            Some(c @ 1..=8) => Ok(c as u8 - 1),
            _ => Err(format!("move: expected a colour 1..=8, got {v}")),
        }
    }
    fn render(&self) -> String {
        let mut s = format!(
            "floodit {}x{}, {} colours, ply {}: seat 0 (top-left, colour {}) {} cells, seat 1 (bottom-right, colour {}) {} cells{}\n",
            self.rows(),
            self.cols(),
            self.colours(),
            self.ply(),
            self.colour(0) + 1,
            self.area(0),
            self.colour(1) + 1,
            self.area(1),
            match self.outcome() {
                None => String::new(),
                Some(o) => match o.winner() {
                    Some(w) => format!("; over, seat {w} wins"),
                    None => "; over, a draw".into(),
                },
            }
        );
        let cells = self.cells();
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                let i = r * self.cols() + c;
                let owner = if self.territory(0).get(i) {
                    'A'
                } else if self.territory(1).get(i) {
                    'B'
                } else {
                    ' '
                };
                s.push(char::from(b'1' + cells[i]));
                s.push(owner);
            }
            s.push('\n');
        }
        s
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
    /// The first six moves, the middle, and from move 20 (a 14x14 board
    /// with 6 colours takes about 25-40 moves).
    fn phase_bands() -> &'static [(usize, &'static str)] {
        &[(0, "opening"), (6, "middle game"), (20, "endgame")]
    }
}

/// `size` and `colours` from game options (defaults 14x14 and 6).
pub fn parse_options(options: &GameOptions) -> Result<(usize, usize, u8), String> {
    let (mut rows, mut cols, mut colours) = (DEFAULT_ROWS, DEFAULT_COLS, DEFAULT_COLOURS);
    for (k, v) in options {
        match k.as_str() {
            "size" => {
                let s = v
                    .as_str()
                    .ok_or_else(|| format!("size: expected \"ROWSxCOLS\", got {v}"))?;
                let (r, c) = s
                    .split_once(['x', 'X'])
                    .ok_or_else(|| format!("size: expected ROWSxCOLS, got '{s}'"))?;
                rows = r
                    .trim()
                    .parse()
                    .map_err(|_| format!("size: '{r}' is not a number"))?;
                cols = c
                    .trim()
                    .parse()
                    .map_err(|_| format!("size: '{c}' is not a number"))?;
            }
            "colours" => {
                let n = match v {
                    Value::Number(n) => n.as_u64(),
                    Value::String(s) => s.trim().parse().ok(),
                    _ => None,
                }
                .ok_or_else(|| format!("colours: expected a number, got {v}"))?;
                colours = u8::try_from(n).map_err(|_| format!("colours: {n} outside 3..=8"))?;
            }
            other => {
                return Err(format!(
                    "game floodit: unknown option '{other}' (known: size, colours)"
                ))
            }
        }
    }
    Ok((rows, cols, colours))
}

fn object(v: &Value) -> Result<&Map<String, Value>, String> {
    let m = v.as_object().ok_or("state: expected an object")?;
    if let Some(k) = m.keys().find(|k| !STATE_KEYS.contains(&k.as_str())) {
        return Err(format!("state: unknown key '{k}'"));
    }
    Ok(m)
}

fn uint(m: &Map<String, Value>, key: &str) -> Result<u64, String> {
    m.get(key)
        .ok_or_else(|| format!("{key}: missing"))?
        .as_u64()
        .ok_or_else(|| format!("{key}: expected a whole number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_round_trip_through_json_mid_game() {
        let mut g = FloodIt::random(7, 9, 5, 3).unwrap();
        for _ in 0..6 {
            let mv = g.legal_moves()[1];
            g.play(mv);
            let v = g.state_to_json();
            let h = FloodIt::state_from_json(&v).unwrap();
            assert_eq!(h, g);
            assert_eq!(h.area(0), g.area(0));
            assert_eq!(h.area(1), g.area(1));
            assert_eq!(h.state_to_json(), v);
        }
    }

    #[test]
    fn bad_states_moves_and_options_are_errors() {
        let good = FloodIt::random(4, 4, 3, 1).unwrap().state_to_json();
        let mut bad = good.clone();
        bad["board"][0] = json!("1239");
        assert!(FloodIt::state_from_json(&bad)
            .unwrap_err()
            .contains("board[0]"));
        let mut bad = good.clone();
        bad["extra"] = json!(1);
        assert!(FloodIt::state_from_json(&bad).is_err());
        let mut bad = good.clone();
        bad["rows"] = json!(40);
        assert!(FloodIt::state_from_json(&bad).is_err());
        let mut bad = good;
        bad["board"] = json!(["1111", "1111", "1111", "1111"]);
        assert!(FloodIt::state_from_json(&bad)
            .unwrap_err()
            .contains("same colour"));
        assert!(FloodIt::move_from_json(&json!(0)).is_err());
        assert!(FloodIt::move_from_json(&json!("2")).is_err());
        assert_eq!(FloodIt::move_from_json(&json!(2)).unwrap(), 1);
        let opts = |v: Value| v.as_object().unwrap().clone();
        let g = FloodIt::start_with(1, &opts(json!({"size": "5x20", "colours": "4"}))).unwrap();
        assert_eq!((g.rows(), g.cols(), g.colours()), (5, 20, 4));
        for bad in [
            json!({"size": "5x"}),
            json!({"size": "1x5"}),
            json!({"colours": 9}),
            json!({"colour": 4}),
        ] {
            assert!(FloodIt::start_with(1, &opts(bad.clone())).is_err(), "{bad}");
        }
    }
}
