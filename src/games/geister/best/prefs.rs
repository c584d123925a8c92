//! Learned move preferences for the playouts and the tree: the weight of a
//! playout step is `exp(w . x)` over a few features `x` of the step that
//! the mover can see (its own colours, where every piece stands, what each
//! side has captured), so the move is drawn by the softmax of `w . x`.
//! Today's hand-set [`PlayoutPolicy`](super::policy::PlayoutPolicy) weights
//! are such a model over the first eight features; the learned one adds
//! features and fits all weights ([`crate::search::choice`], a conditional
//! logit) on the moves the search chose in recorded games (search labels:
//! `ladderbot geister-policy --train`). The model shipped is `prefs.json`
//! beside this file (docs/geister-results.md has the command).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::super::rules::{Geister, Move, Setup};
use super::board::{
    board_move, BMove, Board, MoveList, ADJACENT, ESCAPE, EXITS, EXIT_DISTANCE, WITHIN,
};
use super::policy::free_run;
use crate::search::choice::{self, Choice};

/// Features of a step.
pub const FEATURES: usize = 15;

/// Feature names, as the model file writes them.
pub const NAMES: [&str; FEATURES] = [
    "capture",
    "capture_per_red_taken",
    "capture_runner",
    "forward",
    "backward",
    "blue_closer",
    "blue_danger",
    "red_bait",
    "blue_captures",
    "keeper_leaves",
    "defend",
    "red_forward",
    "capture_at_home",
    "blue_flees",
    "blue_near_exit",
];

const CAPTURE: usize = 0;
const WARY: usize = 1;
const RUNNER: usize = 2;
const FORWARD: usize = 3;
const BACKWARD: usize = 4;
const BLUE_CLOSER: usize = 5;
const BLUE_DANGER: usize = 6;
const RED_BAIT: usize = 7;
const BLUE_CAPTURES: usize = 8;
const KEEPER_LEAVES: usize = 9;
const DEFEND: usize = 10;
const RED_FORWARD: usize = 11;
const CAPTURE_AT_HOME: usize = 12;
const BLUE_FLEES: usize = 13;
const BLUE_NEAR_EXIT: usize = 14;

/// What every step of one position shares: computed once per position.
#[derive(Clone, Copy, Debug)]
pub struct StepContext {
    side: usize,
    opp: u64,
    blue: u64,
    /// Reds of the other side this side has taken.
    reds_taken: u8,
    /// Our back corners and the squares next to them (where keepers stand).
    keeper_squares: u64,
    /// Whether an opponent piece is within three steps of our back corners.
    corner_threatened: bool,
    /// Opponent pieces within two steps of our back corners.
    threats: u64,
    /// Our two home rows.
    home: u64,
    forward_step: i8,
}

impl StepContext {
    /// The context of the side to move on `b`.
    #[inline]
    pub fn of(b: &Board) -> Self {
        let s = b.to_move as usize;
        let o = 1 - s;
        let corners = EXITS[o];
        let (c1, c2) = (
            corners.trailing_zeros() as usize,
            63 - corners.leading_zeros() as usize,
        );
        let opp = b.pieces(o);
        StepContext {
            side: s,
            opp,
            blue: b.blue[s],
            reds_taken: b.lost[o][0],
            keeper_squares: WITHIN[c1][1] | WITHIN[c2][1],
            corner_threatened: opp & (WITHIN[c1][3] | WITHIN[c2][3]) != 0,
            threats: opp & (WITHIN[c1][2] | WITHIN[c2][2]),
            home: if s == 0 { 0xfff << 24 } else { 0xfff },
            forward_step: if s == 0 { -6 } else { 6 },
        }
    }

    /// The features of the step `from` -> `to` (not an escape): a bit per
    /// indicator, and the count feature (`capture_per_red_taken`) apart.
    #[inline]
    pub fn bits(&self, from: u8, to: u8) -> (u32, u8) {
        let (s, o) = (self.side, 1 - self.side);
        let mut x = 0u32;
        let blue = self.blue >> from & 1 == 1;
        let capture = self.opp >> to & 1 == 1;
        let near_opp_after = ADJACENT[to as usize] & self.opp != 0;
        let step = to as i8 - from as i8;
        if capture {
            x |= 1 << CAPTURE;
            if EXIT_DISTANCE[o][to as usize] == 1 {
                x |= 1 << RUNNER;
            }
            if blue {
                x |= 1 << BLUE_CAPTURES;
            }
            if self.home >> to & 1 == 1 {
                x |= 1 << CAPTURE_AT_HOME;
            }
        }
        if step == self.forward_step {
            x |= 1 << FORWARD;
            if !blue && !capture {
                x |= 1 << RED_FORWARD;
            }
        } else if step == -self.forward_step {
            x |= 1 << BACKWARD;
        }
        if blue {
            let (d_from, d_to) = (
                EXIT_DISTANCE[s][from as usize],
                EXIT_DISTANCE[s][to as usize],
            );
            if d_to < d_from {
                x |= 1 << BLUE_CLOSER;
            }
            if d_to <= 1 {
                x |= 1 << BLUE_NEAR_EXIT;
            }
            if !capture && near_opp_after {
                x |= 1 << BLUE_DANGER;
            }
            if !capture && !near_opp_after && ADJACENT[from as usize] & self.opp != 0 {
                x |= 1 << BLUE_FLEES;
            }
        } else if !capture && near_opp_after {
            x |= 1 << RED_BAIT;
        }
        if self.corner_threatened
            && self.keeper_squares >> from & 1 == 1
            && self.keeper_squares >> to & 1 == 0
        {
            x |= 1 << KEEPER_LEAVES;
        }
        if !capture
            && ADJACENT[to as usize] & self.threats != 0
            && ADJACENT[from as usize] & self.threats == 0
        {
            x |= 1 << DEFEND;
        }
        let wary = if capture { self.reds_taken } else { 0 };
        (x, wary)
    }

    /// The features as a vector (for fitting).
    pub fn features(&self, from: u8, to: u8) -> [f64; FEATURES] {
        let (bits, wary) = self.bits(from, to);
        let mut x = [0.0; FEATURES];
        for (i, v) in x.iter_mut().enumerate() {
            *v = f64::from(bits >> i & 1);
        }
        x[WARY] = f64::from(wary);
        x
    }
}

/// A model of move preferences: a weight (log-factor) per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Prefs {
    pub weights: [f64; FEATURES],
    /// `exp` of each weight, as the playouts multiply them.
    factors: [f32; FEATURES],
}

/// The file form: named weights and where they came from.
#[derive(Serialize, Deserialize)]
struct PrefsFile {
    #[serde(default)]
    about: String,
    weights: std::collections::BTreeMap<String, f64>,
}

impl Prefs {
    pub fn new(weights: [f64; FEATURES]) -> Self {
        let mut factors = [1f32; FEATURES];
        for (f, w) in factors.iter_mut().zip(weights) {
            *f = w.exp() as f32;
        }
        Prefs { weights, factors }
    }

    /// Today's hand-set playout weights (`ismcts-v2`'s) as a model: the
    /// prior the fit starts from and is pulled toward.
    pub fn hand() -> Self {
        let mut w = [0.0; FEATURES];
        w[CAPTURE] = 2f64.ln();
        w[WARY] = 0.3f64.ln();
        w[RUNNER] = 4f64.ln();
        w[FORWARD] = 2f64.ln();
        w[BLUE_CLOSER] = 4f64.ln();
        w[BLUE_DANGER] = 0.5f64.ln();
        w[RED_BAIT] = 3f64.ln();
        Prefs::new(w)
    }

    /// The weight of a step with features `(bits, wary)`.
    #[inline]
    pub fn weight(&self, bits: u32, wary: u8) -> f32 {
        let mut w = 1f32;
        let mut b = bits;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            w *= self.factors[i];
        }
        if wary > 0 {
            w *= self.factors[WARY].powi(i32::from(wary));
        }
        w
    }

    /// Reads the JSON form; every feature must have a finite weight, and no
    /// other key may appear.
    pub fn from_json(text: &str) -> Result<Prefs, String> {
        let file: PrefsFile =
            serde_json::from_str(text).map_err(|e| format!("policy model: {e}"))?;
        let mut weights = [0.0; FEATURES];
        for (i, name) in NAMES.iter().enumerate() {
            let w = file
                .weights
                .get(*name)
                .ok_or_else(|| format!("policy model: no weight for '{name}'"))?;
            if !w.is_finite() || w.abs() > 20.0 {
                return Err(format!(
                    "policy model: weight '{name}' must be finite and within +-20"
                ));
            }
            weights[i] = *w;
        }
        if let Some(k) = file.weights.keys().find(|k| !NAMES.contains(&k.as_str())) {
            return Err(format!("policy model: unknown feature '{k}'"));
        }
        Ok(Prefs::new(weights))
    }

    /// The JSON form, `about` saying how it was made.
    pub fn to_json(&self, about: &str) -> String {
        let file = PrefsFile {
            about: about.to_string(),
            weights: NAMES
                .iter()
                .zip(self.weights)
                .map(|(n, w)| (n.to_string(), w))
                .collect(),
        };
        serde_json::to_string_pretty(&file).expect("a model serialises") + "\n"
    }

    /// The model shipped with ladderbot (`prefs.json`).
    pub fn shipped() -> &'static Prefs {
        static SHIPPED: OnceLock<Prefs> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            Prefs::from_json(include_str!("prefs.json")).expect("the shipped policy model parses")
        })
    }

    /// [`Prefs::hand`], kept for the process.
    pub fn hand_static() -> &'static Prefs {
        static HAND: OnceLock<Prefs> = OnceLock::new();
        HAND.get_or_init(Prefs::hand)
    }
}

/// A model read from a JSON file, kept for the life of the process.
pub fn load_file(path: &std::path::Path) -> Result<&'static Prefs, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let model = Prefs::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Box::leak(Box::new(model)))
}

/// Whether the playout's fixed rules decide the move of the side to move
/// (an escape, a capture on one of the other side's exits, a free run):
/// the learned weights are not asked there.
pub fn ruled(b: &Board) -> bool {
    let s = b.to_move as usize;
    let o = 1 - s;
    if b.blue[s] & EXITS[s] != 0 {
        return true;
    }
    let own = b.pieces(s);
    let mut threats = b.pieces(o) & EXITS[o];
    while threats != 0 {
        let t = threats.trailing_zeros() as usize;
        threats &= threats - 1;
        if ADJACENT[t] & own != 0 {
            return true;
        }
    }
    free_run(b, s).is_some()
}

/// The decisions of the seats `movers` in one recorded game, as the mover
/// saw them (its own colours, the squares, the captures), with the move it
/// played: one [`Choice`] per turn the fixed rules do not decide. Stops at
/// the end of the game or the first illegal move.
pub fn choices_from_game(
    setups: [Setup; 2],
    moves: &[Move],
    movers: &[usize],
) -> Vec<Choice<FEATURES>> {
    let mut g = Geister::new(setups);
    let mut out = Vec::new();
    let mut list = MoveList::default();
    for &mv in moves {
        if g.outcome().is_some() || !g.is_legal(mv) {
            break;
        }
        let seat = g.to_move();
        if movers.contains(&seat) {
            let view = g.view(seat);
            // The opponent's colours are not looked at: any will do.
            let b = Board::from_view(&view, 0);
            if let Some(played) = board_move(&view, mv) {
                if played.to != ESCAPE && !ruled(&b) {
                    b.moves_into(&mut list);
                    let steps: Vec<BMove> = list
                        .as_slice()
                        .iter()
                        .copied()
                        .filter(|m| m.to != ESCAPE)
                        .collect();
                    let ctx = StepContext::of(&b);
                    if let Some(chosen) = steps.iter().position(|&m| m == played) {
                        out.push(Choice {
                            alternatives: steps
                                .iter()
                                .map(|m| ctx.features(m.from, m.to))
                                .collect(),
                            chosen,
                        });
                    }
                }
            }
        }
        g.play(mv);
    }
    out
}

/// Fits a model on `choices`, pulled toward `prior` with `l2`.
pub fn fit(choices: &[Choice<FEATURES>], prior: &Prefs, l2: f64) -> Prefs {
    Prefs::new(choice::fit_toward(choices, &prior.weights, l2))
}

/// Mean log loss and top-one agreement of `model` on `choices`.
pub fn score(model: &Prefs, choices: &[Choice<FEATURES>]) -> (f64, f64) {
    (
        choice::log_loss(&model.weights, choices),
        choice::top_one(&model.weights, choices),
    )
}
