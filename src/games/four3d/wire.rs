//! Score Four on the wire (match server protocol v1, see protocol/):
//!
//! state: `{"cells": "<64 chars>", "to_move": 0|1, "ply": N, "legal": [pegs]}`
//! where `cells[x + 4y + 16z]` is `.` (empty), `X` (seat 0) or `O` (seat 1);
//! move: the peg number `x + 4y` (0..16) as a JSON integer.

use serde_json::{json, Value};

use super::bitboard::{Board, Peg};
use crate::search::Game;

pub fn cells_string(b: &Board) -> String {
    (0..64)
        .map(|i| {
            let bit = 1u64 << i;
            if b.stones(0) & bit != 0 {
                'X'
            } else if b.stones(1) & bit != 0 {
                'O'
            } else {
                '.'
            }
        })
        .collect()
}

pub fn state_to_json(b: &Board) -> Value {
    let legal: Vec<u8> = b.legal_moves().iter().map(|p| p.0).collect();
    json!({
        "cells": cells_string(b),
        "to_move": b.to_move(),
        "ply": b.ply(),
        "legal": legal,
    })
}

pub fn state_from_json(v: &Value) -> Result<Board, String> {
    let cells = v
        .get("cells")
        .and_then(Value::as_str)
        .ok_or("state.cells: expected a string of 64 cells")?;
    if cells.chars().count() != 64 {
        return Err(format!(
            "state.cells: expected 64 cells, got {}",
            cells.chars().count()
        ));
    }
    let (mut s0, mut s1) = (0u64, 0u64);
    for (i, c) in cells.chars().enumerate() {
        match c {
            '.' => {}
            'X' => s0 |= 1 << i,
            'O' => s1 |= 1 << i,
            other => {
                return Err(format!(
                    "state.cells[{i}]: unexpected {other:?} (want '.', 'X' or 'O')"
                ))
            }
        }
    }
    let b = Board::from_stones(s0, s1).map_err(|e| format!("state.cells: {e}"))?;
    if let Some(t) = v.get("to_move") {
        if t.as_u64() != Some(b.to_move() as u64) {
            return Err(format!("state.to_move: {t} does not match the bead counts"));
        }
    }
    Ok(b)
}

pub fn move_to_json(p: Peg) -> Value {
    json!(p.0)
}

pub fn move_from_json(v: &Value) -> Result<Peg, String> {
    match v.as_u64() {
        Some(n) if n < 16 => Ok(Peg(n as u8)),
        _ => Err(format!("move: expected a peg number 0..15, got {v}")),
    }
}

/// The board's cells as [`cells_string`] writes them, least under the 8
/// symmetries of the square of pegs (turns and reflections of x and y; the
/// height keeps its order, as gravity does): one key for every position
/// that is the same up to symmetry.
pub fn symmetric_key(b: &Board) -> String {
    let cells: Vec<char> = cells_string(b).chars().collect();
    type PegMap = fn(usize, usize) -> (usize, usize);
    let maps: [PegMap; 8] = [
        |x, y| (x, y),
        |x, y| (y, 3 - x),
        |x, y| (3 - x, 3 - y),
        |x, y| (3 - y, x),
        |x, y| (3 - x, y),
        |x, y| (x, 3 - y),
        |x, y| (y, x),
        |x, y| (3 - y, 3 - x),
    ];
    maps.iter()
        .map(|m| {
            let mut out = ['.'; 64];
            for (i, &c) in cells.iter().enumerate() {
                let (x, y, z) = (i % 4, (i / 4) % 4, i / 16);
                let (u, v) = m(x, y);
                out[u + 4 * v + 16 * z] = c;
            }
            out.iter().collect::<String>()
        })
        .min()
        .expect("eight symmetries")
}

/// A human-readable picture: the four layers side by side, bottom first.
pub fn render(b: &Board) -> String {
    let cells: Vec<char> = cells_string(b).chars().collect();
    let mut out = String::new();
    for y in (0..4).rev() {
        for z in 0..4 {
            for x in 0..4 {
                out.push(cells[x + 4 * y + 16 * z]);
            }
            out.push_str(if z < 3 { "  " } else { "\n" });
        }
    }
    out
}

/// Empty cells from which `analyze` asks the exact solver (as `best` does).
pub const SOLVE_FROM: u32 = 26;

impl crate::games::PlayableGame for Board {
    const ID: &'static str = "four3d";
    /// `best` (the default) is alpha-beta, which against itself plays the
    /// same game every time: the house plays `pmc`, the default before it.
    fn house_agent() -> &'static str {
        "pmc"
    }
    fn agent_names() -> &'static [&'static str] {
        super::agents::NAMES
    }
    fn start(_seed: u64) -> Self {
        Board::new()
    }
    fn state_to_json(&self) -> Value {
        state_to_json(self)
    }
    /// Nothing is hidden: the true state.
    fn public_json(&self) -> Value {
        self.state_to_json()
    }
    fn state_from_json(v: &Value) -> Result<Self, String> {
        state_from_json(v)
    }
    /// A seat observes the whole board: the state's own JSON.
    fn obs_to_json(obs: &Board) -> Value {
        state_to_json(obs)
    }
    fn obs_from_json(v: &Value) -> Result<Board, String> {
        state_from_json(v)
    }
    fn move_to_json(mv: Peg) -> Value {
        move_to_json(mv)
    }
    fn move_from_json(v: &Value) -> Result<Peg, String> {
        move_from_json(v)
    }
    fn render(&self) -> String {
        render(self)
    }
    fn view_js() -> &'static str {
        include_str!("view.js")
    }
    /// The same for positions equal up to the square's 8 symmetries.
    fn position_key(&self) -> String {
        symmetric_key(self)
    }
    /// The bank is shared out by phase, where the games are decided: an
    /// analysis of 83 lost games against yonmoku (docs/four3d-results.md)
    /// found the reference's value still even at ply 32-34 and lost by ply
    /// 35-36, every one of them already lost when the solver's reach (26
    /// empty cells, ply 38) came. So a drop weighs 1 before ply 16, 2 to
    /// ply 28, 4 to ply 40 and 1 after (the solver's, quick when it
    /// finishes), the plan ending at ply 46 (`PLAN_END`); this move's
    /// share is its weight over the weights of our drops to come.
    fn moves_to_go(obs: &Board) -> u32 {
        moves_to_go_at(obs.ply())
    }
    fn build_agent(
        name: &str,
        params: &crate::games::AgentParams,
        seed: u64,
    ) -> Result<Box<dyn crate::search::Agent<Self>>, String> {
        super::agents::build(name, params, seed)
    }
    fn agent_decl(name: &str) -> Result<crate::games::params::Decl, String> {
        super::agents::decl(name)
    }
    fn has_solver() -> bool {
        true
    }
    /// `best`'s exact solver, from [`SOLVE_FROM`] empty cells: each drop's
    /// exact value in turn (a table shared by the drops), the best kept.
    fn solve_position(&self, seat: crate::model::Seat, max_nodes: u64) -> Option<(f64, Peg)> {
        use super::best::position::{result_of, sides};
        use super::best::{solve::solve_exact, tt::Table};
        if self.to_move() != seat || self.outcome().is_some() || 64 - self.ply() > SOLVE_FROM {
            return None;
        }
        let table = Table::new(20);
        let mut best: Option<(f64, Peg)> = None;
        for mv in self.legal_moves() {
            let mut b = *self;
            b.play(mv);
            let v = match b.outcome() {
                Some(o) => o.reward_for(seat, 0.5),
                None => {
                    let (me, opp) = sides(&b);
                    1.0 - result_of(solve_exact(&table, me, opp, max_nodes)?)
                }
            };
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, mv));
            }
            if v >= 1.0 {
                break;
            }
        }
        best
    }
    /// The opening (the first 12 drops), the middle game, and the endgame
    /// from 26 empty cells, where `best`'s solver takes over.
    fn phase_bands() -> &'static [(usize, &'static str)] {
        &[(0, "opening"), (12, "middle game"), (38, "endgame")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips() {
        let b = Board::from_pegs(&[Peg(0), Peg(0), Peg(5), Peg(15), Peg(0)]).unwrap();
        let v = state_to_json(&b);
        assert_eq!(v["ply"], 5);
        assert_eq!(v["to_move"], 1);
        assert_eq!(state_from_json(&v).unwrap(), b);
    }

    #[test]
    fn symmetric_positions_share_a_key_and_others_do_not() {
        let key = |pegs: &[u8]| {
            let pegs: Vec<Peg> = pegs.iter().map(|&p| Peg(p)).collect();
            symmetric_key(&Board::from_pegs(&pegs).unwrap())
        };
        // Peg x + 4y: a corner, then an edge peg next to it, under every turn
        // and reflection of the square.
        let all = [
            key(&[0, 1]),
            key(&[3, 7]),
            key(&[15, 14]),
            key(&[12, 8]),
            key(&[3, 2]),
            key(&[12, 13]),
            key(&[0, 4]),
            key(&[15, 11]),
        ];
        assert!(all.iter().all(|k| k == &all[0]), "{all:?}");
        // Who dropped where matters, and so does the height.
        assert_ne!(key(&[0, 1]), key(&[1, 0]));
        assert_ne!(key(&[0, 1]), key(&[0, 5]));
        assert_ne!(key(&[0, 0, 1]), key(&[0, 1, 0]));
        assert_eq!(key(&[5, 6, 9]), key(&[6, 5, 10]));
    }

    #[test]
    fn bad_states_and_moves_are_errors() {
        assert!(state_from_json(&json!({"cells": "X"})).is_err());
        assert!(state_from_json(&json!({"cells": "?".repeat(64)})).is_err());
        assert!(state_from_json(&json!({})).is_err());
        assert!(move_from_json(&json!(16)).is_err());
        assert!(move_from_json(&json!("3")).is_err());
        assert_eq!(move_from_json(&json!(3)).unwrap(), Peg(3));
    }
}

/// The ply by which the game clock's plan means to have spent the bank:
/// from ply 38 on the solver decides most moves at once (against yonmoku
/// every game was already solved by then), and a forced block takes no
/// time, so a plan to the mean game length (58) left 40% of the bank
/// unspent. Later drops get what is left, and never less than a share.
const PLAN_END: u32 = 46;

/// The weight of a drop at `ply` in the game clock's plan (see
/// `moves_to_go`).
fn time_weight(ply: u32) -> u32 {
    match ply {
        0..16 => 1,
        16..28 => 2,
        28..40 => 4,
        _ => 1,
    }
}

/// Our drops to come from `ply` (this one included) in units of this
/// drop's weight: how many moves of this one's size the bank is shared
/// over.
fn moves_to_go_at(ply: u32) -> u32 {
    let end = if ply < PLAN_END { PLAN_END } else { 64 };
    let total: u32 = (ply..end).step_by(2).map(time_weight).sum();
    total.div_ceil(time_weight(ply)).max(1)
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    #[test]
    fn the_bank_goes_to_the_late_middle_game() {
        // Early drops get a small share, the plies where games turn the
        // largest, and the last drops all that is left.
        assert_eq!(moves_to_go_at(0), 47);
        assert_eq!(moves_to_go_at(30), 6);
        assert_eq!(moves_to_go_at(44), 1);
        assert_eq!(moves_to_go_at(56), 4);
        assert_eq!(moves_to_go_at(63), 1);
        let share = |ply| 1.0 / f64::from(moves_to_go_at(ply));
        assert!(share(0) < share(20) && share(20) < share(30));
        // Over a whole game the plan spends a bank of 1 about once.
        let mut bank = 1.0f64;
        for ply in (0..PLAN_END).step_by(2) {
            bank -= bank * share(ply);
        }
        assert!(bank < 0.05, "{bank} of the bank left at the end");
    }
}
