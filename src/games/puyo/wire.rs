//! Puyo duels on the match server and in records.
//!
//! - Colours are numbers 0..=3 (0 red, 1 green, 2 blue, 3 yellow); in
//!   field pictures `R G B Y`, `@` for ojama, `.` empty.
//! - A move: `{"col":0..=5,"rot":0..=3}`: the axis puyo's column (0 left)
//!   and where the child goes: 0 above, 1 right, 2 below, 3 left.
//! - A field: 13 strings of 6 cells, the top row first.
//! - The state (the whole truth): `{"seed":"12345","turn":7,"boards":[[13
//!   rows],[13 rows]],"pending":[0,12],"ready":[0,0],"stats":[{"score":0,
//!   "attack":0,"max_chain":0},{…}]}`; `seed` is a decimal string (it
//!   may not fit a JSON number exactly). The pairs come from the seed.
//! - An observation: `{"seat":0,"turn":7,"pairs":[[0,1],[2,2],[3,0]],
//!   "boards":[…],"pending":[…],"ready":[…],"stats":[…]}`: the current pair
//!   and the next two (`[axis, child]`; none once the game is over), never
//!   the pairs after them.
//!
//! Reading rejects unknown keys, missing keys and anything inconsistent
//! (a field that is not settled, `ready` above `pending`), with an error
//! naming the key; it never panics.

use serde_json::{json, Map, Value};

use super::board::{Board, Over, Pair, Placement, COLOURS, COLS, ROWS};
use super::rules::{PuyoDuel, PuyoObs, SeatStats, VISIBLE_PAIRS};
use crate::games::{AgentParams, GameOptions, PlayableGame};
use crate::model::Model;
use crate::search::Agent;

const STATE_KEYS: &[&str] = &[
    "seed", "turn", "boards", "pending", "ready", "stats", "pairs", "over",
];
const OBS_KEYS: &[&str] = &[
    "seat", "turn", "pairs", "boards", "pending", "ready", "stats", "over",
];

/// The rule sets (game option `rules`): Puyo Puyo Tsu's, the default, and
/// the seed's platform as `docs/puyo-results.md` reads it.
pub const RULE_SETS: &[(&str, Over)] = &[("tsu", Over::Cell), ("seed", Over::Full)];

/// The game-over rule from game options: `rules` (`tsu`, the default, or
/// `seed`) and `over` (`cell`, `top` or `full`; overrides the rule set's).
pub fn parse_options(options: &GameOptions) -> Result<Over, String> {
    let mut over = Over::Cell;
    let text = |k: &str, v: &Value| -> Result<String, String> {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{k}: expected a string, got {v}"))
    };
    if let Some(v) = options.get("rules") {
        let name = text("rules", v)?;
        over = RULE_SETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, o)| o)
            .ok_or_else(|| format!("rules: '{name}' is not tsu or seed"))?;
    }
    for (k, v) in options {
        match k.as_str() {
            "rules" => {}
            "over" => over = Over::parse(&text("over", v)?)?,
            other => {
                return Err(format!(
                    "game puyo: unknown option '{other}' (known: rules, over)"
                ))
            }
        }
    }
    Ok(over)
}

/// The rule key of a state or an observation: absent under Tsu's rule
/// (every record and transcript before the option).
fn over_to_json(m: &mut Value, over: Over) {
    if over != Over::Cell {
        m["over"] = json!(over.name());
    }
}

fn over_from_json(m: &Map<String, Value>) -> Result<Over, String> {
    match m.get("over") {
        None => Ok(Over::Cell),
        Some(Value::String(s)) => Over::parse(s),
        Some(v) => Err(format!("over: expected a string, got {v}")),
    }
}

impl PlayableGame for PuyoDuel {
    const ID: &'static str = "puyo";
    fn agent_names() -> &'static [&'static str] {
        super::agents::NAMES
    }
    /// Both sides get the same pairs: `combined` (the default, and
    /// deterministic) against itself plays both fields alike to the move
    /// limit, always a draw.
    fn house_agent() -> &'static str {
        "template"
    }
    fn start(seed: u64) -> Self {
        PuyoDuel::new(seed)
    }
    /// Game options `rules` (`tsu`, `seed`) and `over` (`cell`, `top`,
    /// `full`): [`parse_options`].
    fn start_with(seed: u64, options: &GameOptions) -> Result<Self, String> {
        Ok(PuyoDuel::with_over(seed, parse_options(options)?))
    }
    /// The true state: `seed` decides every pair to come; `pairs` (the
    /// ones the seats see, from the seed) is there for readers and views.
    fn state_to_json(&self) -> Value {
        let mut v = json!({
            "seed": self.seed.to_string(),
            "turn": self.turn,
            "boards": boards_to_json(&self.boards),
            "pending": self.pending,
            "ready": self.ready,
            "stats": stats_to_json(&self.stats),
            "pairs": pairs_to_json(&self.visible_pairs()),
        });
        over_to_json(&mut v, self.boards[0].over());
        v
    }
    /// The state without its seed (every pair to come): the pairs the
    /// seats see stay (`pairs`, the current one first).
    fn public_json(&self) -> Value {
        let mut v = self.state_to_json();
        if let Some(m) = v.as_object_mut() {
            m.remove("seed");
        }
        v
    }
    fn state_from_json(v: &Value) -> Result<Self, String> {
        let m = object(v, "state", STATE_KEYS)?;
        let seed = match field(m, "seed")? {
            Value::String(s) => s
                .parse::<u64>()
                .map_err(|_| format!("seed: '{s}' is not a whole number"))?,
            other => return Err(format!("seed: expected a decimal string, got {other}")),
        };
        let over = over_from_json(m)?;
        let mut g = PuyoDuel::with_over(seed, over);
        g.turn = uint(field(m, "turn")?, "turn")? as u32;
        g.boards = boards_from_json(field(m, "boards")?, over)?;
        g.pending = pair_u32(field(m, "pending")?, "pending")?;
        g.ready = pair_u32(field(m, "ready")?, "ready")?;
        check_ready(g.pending, g.ready)?;
        g.stats = stats_from_json(field(m, "stats")?)?;
        // Optional (older records have none), but never other pairs than
        // the seed's.
        if let Some(p) = m.get("pairs") {
            if *p != pairs_to_json(&g.visible_pairs()) {
                return Err("pairs: not the pairs the seed gives at this turn".into());
            }
        }
        Ok(g)
    }
    fn obs_to_json(obs: &PuyoObs) -> Value {
        let mut v = json!({
            "seat": obs.seat,
            "turn": obs.turn,
            "pairs": pairs_to_json(&obs.pairs),
            "boards": boards_to_json(&obs.boards),
            "pending": obs.pending,
            "ready": obs.ready,
            "stats": stats_to_json(&obs.stats),
        });
        over_to_json(&mut v, obs.boards[0].over());
        v
    }
    fn obs_from_json(v: &Value) -> Result<PuyoObs, String> {
        let m = object(v, "observation", OBS_KEYS)?;
        let seat = uint(field(m, "seat")?, "seat")?;
        if seat > 1 {
            return Err(format!("seat: {seat} is not 0 or 1"));
        }
        let pairs_v = field(m, "pairs")?
            .as_array()
            .ok_or("pairs: expected an array of [axis, child]")?;
        if pairs_v.len() > VISIBLE_PAIRS {
            return Err(format!(
                "pairs: {} pairs, at most {VISIBLE_PAIRS}",
                pairs_v.len()
            ));
        }
        let mut pairs = vec![];
        for (i, p) in pairs_v.iter().enumerate() {
            match p.as_array().map(Vec::as_slice) {
                Some([a, c]) => pairs.push(Pair {
                    axis: colour(a, &format!("pairs[{i}]"))?,
                    child: colour(c, &format!("pairs[{i}]"))?,
                }),
                _ => return Err(format!("pairs[{i}]: expected [axis, child], got {p}")),
            }
        }
        let pending = pair_u32(field(m, "pending")?, "pending")?;
        let ready = pair_u32(field(m, "ready")?, "ready")?;
        check_ready(pending, ready)?;
        Ok(PuyoObs {
            seat: seat as usize,
            turn: uint(field(m, "turn")?, "turn")? as u32,
            pairs,
            boards: boards_from_json(field(m, "boards")?, over_from_json(m)?)?,
            pending,
            ready,
            stats: stats_from_json(field(m, "stats")?)?,
        })
    }
    fn move_to_json(mv: Placement) -> Value {
        json!({"col": mv.col, "rot": mv.rot})
    }
    fn move_from_json(v: &Value) -> Result<Placement, String> {
        let m = object(v, "move", &["col", "rot"])?;
        let col = uint(field(m, "col")?, "move.col")?;
        let rot = uint(field(m, "rot")?, "move.rot")?;
        if col >= COLS as u64 {
            return Err(format!("move.col: {col} is not 0..={}", COLS - 1));
        }
        if rot > 3 {
            return Err(format!("move.rot: {rot} is not 0..=3"));
        }
        Ok(Placement {
            col: col as u8,
            rot: rot as u8,
        })
    }
    fn render(&self) -> String {
        let mut s = format!("puyo, turn {}", self.turn + 1);
        match self.turn().outcome() {
            Some(o) => {
                s += &format!(
                    ": over, {}\n",
                    match o.winner() {
                        Some(w) => format!("seat {w} wins"),
                        None => "a draw".to_string(),
                    }
                )
            }
            None => {
                let p = self.pair();
                s += &format!(
                    ", pair {}{}\n",
                    super::board::KIND_CHARS[p.axis as usize],
                    super::board::KIND_CHARS[p.child as usize]
                );
            }
        }
        let rows = [self.boards[0].rows(), self.boards[1].rows()];
        for (a, b) in rows[0].iter().zip(&rows[1]) {
            s += &format!("|{a}|   |{b}|\n");
        }
        for seat in 0..2 {
            let st = &self.stats[seat];
            s += &format!(
                "seat {seat}: score {}, attack sent {}, longest chain {}, ojama waiting {}\n",
                st.score, st.attack, st.max_chain, self.pending[seat]
            );
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
    /// The links of the chain the agent fires alone on the pair sequence of
    /// `seed` under Tsu's rules (`ladderbot-lab puyo solo`'s measure).
    fn solo_score(agent: &str, params: &AgentParams, seed: u64) -> Option<Result<f64, String>> {
        Some(
            super::choosers::build_chooser(agent, params).map(|mut c| {
                f64::from(super::solo::solo_run(c.as_mut(), seed, Over::default()).chain)
            }),
        )
    }
    /// Moves of both fields (two a turn): the first 10 pairs, the build up
    /// to pair 30, then the firing and what follows.
    fn phase_bands() -> &'static [(usize, &'static str)] {
        &[(0, "opening"), (20, "middle game"), (60, "endgame")]
    }
}

fn check_ready(pending: [u32; 2], ready: [u32; 2]) -> Result<(), String> {
    if ready[0] > pending[0] || ready[1] > pending[1] {
        return Err(format!("ready: {ready:?} above pending {pending:?}"));
    }
    Ok(())
}

fn pairs_to_json(pairs: &[Pair]) -> Value {
    pairs.iter().map(|p| json!([p.axis, p.child])).collect()
}

fn boards_to_json(b: &[Board; 2]) -> Value {
    json!([b[0].rows(), b[1].rows()])
}

fn boards_from_json(v: &Value, over: Over) -> Result<[Board; 2], String> {
    let arr = v.as_array().ok_or("boards: expected [field, field]")?;
    if arr.len() != 2 {
        return Err(format!("boards: {} fields, expected 2", arr.len()));
    }
    let mut out = [Board::empty(); 2];
    for (i, f) in arr.iter().enumerate() {
        let rows: Vec<&str> = f
            .as_array()
            .ok_or_else(|| format!("boards[{i}]: expected {ROWS} row strings"))?
            .iter()
            .map(|r| {
                r.as_str()
                    .ok_or_else(|| format!("boards[{i}]: a row is not a string"))
            })
            .collect::<Result<_, _>>()?;
        if rows.len() != ROWS {
            return Err(format!("boards[{i}]: {} rows, expected {ROWS}", rows.len()));
        }
        out[i] = Board::from_rows(&rows)
            .map_err(|e| format!("boards[{i}]: {e}"))?
            .with_over(over);
    }
    Ok(out)
}

fn stats_to_json(s: &[SeatStats; 2]) -> Value {
    json!(s
        .iter()
        .map(|st| json!({"score": st.score, "attack": st.attack, "max_chain": st.max_chain}))
        .collect::<Vec<_>>())
}

fn stats_from_json(v: &Value) -> Result<[SeatStats; 2], String> {
    let arr = v.as_array().ok_or("stats: expected two objects")?;
    if arr.len() != 2 {
        return Err(format!("stats: {} entries, expected 2", arr.len()));
    }
    let mut out = [SeatStats::default(); 2];
    for (i, s) in arr.iter().enumerate() {
        let what = format!("stats[{i}]");
        let m = object(s, &what, &["score", "attack", "max_chain"])?;
        out[i] = SeatStats {
            score: uint(field(m, "score")?, &what)? as u32,
            attack: uint(field(m, "attack")?, &what)? as u32,
            max_chain: uint(field(m, "max_chain")?, &what)?.min(u8::MAX as u64) as u8,
        };
    }
    Ok(out)
}

fn object<'a>(v: &'a Value, what: &str, keys: &[&str]) -> Result<&'a Map<String, Value>, String> {
    let m = v
        .as_object()
        .ok_or_else(|| format!("{what}: expected an object, got {v}"))?;
    if let Some(k) = m.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(format!("{what}: unknown key '{k}'"));
    }
    Ok(m)
}

fn field<'a>(m: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    m.get(key).ok_or_else(|| format!("missing key '{key}'"))
}

fn uint(v: &Value, what: &str) -> Result<u64, String> {
    v.as_u64()
        .filter(|&x| x <= u32::MAX as u64)
        .ok_or_else(|| format!("{what}: expected a whole number, got {v}"))
}

fn pair_u32(v: &Value, what: &str) -> Result<[u32; 2], String> {
    match v.as_array().map(Vec::as_slice) {
        Some([a, b]) => Ok([uint(a, what)? as u32, uint(b, what)? as u32]),
        _ => Err(format!("{what}: expected [n, n], got {v}")),
    }
}

fn colour(v: &Value, what: &str) -> Result<u8, String> {
    match v.as_u64() {
        Some(c) if c < COLOURS as u64 => Ok(c as u8),
        _ => Err(format!("{what}: colour {v} is not 0..={}", COLOURS - 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::replay;

    fn played(turns: u32) -> (PuyoDuel, Vec<Value>) {
        let mut g = PuyoDuel::new(42);
        let mut moves = vec![];
        for k in 0..turns as usize {
            if g.turn().outcome().is_some() {
                break;
            }
            let a = g.legal_actions(0);
            let b = g.legal_actions(1);
            let ma = a[k % a.len()];
            let mb = b[(k * 7 + 3) % b.len()];
            moves.push(PuyoDuel::move_to_json(ma));
            moves.push(PuyoDuel::move_to_json(mb));
            g.apply([Some(ma), Some(mb)]);
        }
        (g, moves)
    }

    #[test]
    fn state_and_observation_round_trip_and_games_replay() {
        let (g, moves) = played(25);
        let v = g.state_to_json();
        let back = PuyoDuel::state_from_json(&v).unwrap();
        assert_eq!(back.state_to_json(), v);
        assert_eq!(back.boards, g.boards);
        for seat in 0..2 {
            let o = g.observe(seat);
            let ov = PuyoDuel::obs_to_json(&o);
            assert_eq!(PuyoDuel::obs_from_json(&ov).unwrap(), o);
        }
        let start = PuyoDuel::new(42).state_to_json();
        let r: PuyoDuel = replay(&start, &moves).unwrap();
        assert_eq!(r.state_to_json(), v);
        assert!(g.render().contains("seat 1"));
    }

    #[test]
    fn the_rule_set_is_a_game_option_kept_by_states_and_observations() {
        let opts = |kv: &[(&str, &str)]| -> GameOptions {
            kv.iter().map(|(k, v)| (k.to_string(), json!(v))).collect()
        };
        assert_eq!(parse_options(&opts(&[])), Ok(Over::Cell));
        assert_eq!(parse_options(&opts(&[("rules", "tsu")])), Ok(Over::Cell));
        assert_eq!(parse_options(&opts(&[("rules", "seed")])), Ok(Over::Full));
        assert_eq!(
            parse_options(&opts(&[("rules", "seed"), ("over", "top")])),
            Ok(Over::Top)
        );
        for (bad, key) in [
            (opts(&[("rules", "jaist")]), "rules"),
            (opts(&[("over", "never")]), "over"),
            (opts(&[("size", "7x11")]), "unknown option 'size'"),
        ] {
            let e = PuyoDuel::start_with(1, &bad).unwrap_err();
            assert!(e.contains(key), "{e}");
        }
        let g = PuyoDuel::start_with(9, &opts(&[("rules", "seed")])).unwrap();
        assert!(g.boards.iter().all(|b| b.over() == Over::Full));
        let v = g.state_to_json();
        assert_eq!(v["over"], json!("full"));
        let back = PuyoDuel::state_from_json(&v).unwrap();
        assert_eq!(back, g);
        let o = PuyoDuel::obs_to_json(&g.observe(1));
        assert_eq!(o["over"], json!("full"));
        assert_eq!(PuyoDuel::obs_from_json(&o).unwrap().me().over(), Over::Full);
        // Tsu states keep their old form (no key), and a bad key is named.
        assert!(PuyoDuel::new(9).state_to_json().get("over").is_none());
        let mut bad = v;
        bad["over"] = json!(3);
        assert!(PuyoDuel::state_from_json(&bad)
            .unwrap_err()
            .contains("over"));
    }

    #[test]
    fn bad_input_is_an_error_naming_the_key() {
        let v = PuyoDuel::new(1).state_to_json();
        let mut bad = v.clone();
        bad.as_object_mut().unwrap().remove("turn");
        assert!(PuyoDuel::state_from_json(&bad)
            .unwrap_err()
            .contains("turn"));
        // Pairs are optional (older records) but must be the seed's.
        let mut old = v.clone();
        old.as_object_mut().unwrap().remove("pairs");
        assert_eq!(PuyoDuel::state_from_json(&old).unwrap().state_to_json(), v);
        let mut bad = v.clone();
        bad["pairs"][0] = json!([3, 3]);
        bad["pairs"][1] = json!([3, 3]);
        bad["pairs"][2] = json!([3, 3]);
        assert!(PuyoDuel::state_from_json(&bad)
            .unwrap_err()
            .contains("pairs"));
        let mut bad = v.clone();
        bad["ready"] = json!([3, 0]);
        assert!(PuyoDuel::state_from_json(&bad)
            .unwrap_err()
            .contains("ready"));
        let mut bad = v.clone();
        bad["boards"][0][12] = json!("RX....");
        assert!(PuyoDuel::state_from_json(&bad)
            .unwrap_err()
            .contains("boards[0]"));
        let mut bad = v.clone();
        bad["boards"][1][0] = json!("R.....");
        let e = PuyoDuel::state_from_json(&bad).unwrap_err();
        assert!(e.contains("floats"), "{e}");
        let mut bad = v.clone();
        bad["seed"] = json!(5);
        assert!(PuyoDuel::state_from_json(&bad)
            .unwrap_err()
            .contains("seed"));
        let mut bad = v;
        bad["extra"] = json!(1);
        assert!(PuyoDuel::state_from_json(&bad)
            .unwrap_err()
            .contains("extra"));
        assert!(PuyoDuel::move_from_json(&json!({"col": 6, "rot": 0}))
            .unwrap_err()
            .contains("col"));
        assert!(PuyoDuel::move_from_json(&json!({"col": 1, "rot": 4}))
            .unwrap_err()
            .contains("rot"));
        assert!(PuyoDuel::move_from_json(&json!({"col": 1})).is_err());
        assert!(PuyoDuel::move_from_json(&json!("3,0")).is_err());
        assert!(PuyoDuel::move_from_json(&json!({"col": -1, "rot": 0})).is_err());
        let mut o = PuyoDuel::obs_to_json(&PuyoDuel::new(1).observe(0));
        o["pairs"] = json!([[0, 4]]);
        assert!(PuyoDuel::obs_from_json(&o)
            .unwrap_err()
            .contains("pairs[0]"));
        // An illegal move does not replay.
        let start = PuyoDuel::new(1).state_to_json();
        let m = json!({"col": 5, "rot": 1});
        assert!(replay::<PuyoDuel>(&start, &[m.clone(), m]).is_err());
    }
}
