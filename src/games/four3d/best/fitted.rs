//! `best`'s fitted evaluation (issue 32): the log-odds that the side to
//! move wins a quiet position, a linear function of threat and line
//! features whose weights change linearly with the game's ply, fitted by
//! logistic regression ([`crate::search::logistic`]) on positions labelled
//! by exact solves (late positions) and by self-play results (the rest).
//! `ladderbot-lab four3d train` fits it; the shipped weights are
//! `eval-v2.json` beside this file (docs/four3d-results.md has the
//! commands), read when the agent is built.
//!
//! The features, from the side to move's view (`me`, in `seat`):
//! - `ones`, `twos`: open lines (no opponent bead) holding one or two of
//!   my beads, less the opponent's;
//! - threats by height parity as in Allis's zugzwang analysis of Connect
//!   Four: a live threat (no opponent threat below it in its peg) on a
//!   cell of its owner's parity is `good` (the end-game zugzwang gives it
//!   to its owner), otherwise `bad`; a threat above an opponent threat is
//!   `dead`; two live threats of one side on consecutive cells of a peg
//!   are `stacked`. Each for me and for the opponent;
//! - `hot`: live threats right above a droppable cell (nobody may drop
//!   under them without giving them away);
//! - `safe`: the drops of a side that do not give the other an immediate
//!   win;
//! - `zug`: a side has a good threat and the other none (Allis's rule of
//!   thumb: the odd threat wins the zugzwang);
//! - `first` (I am the first player) and a constant.

use serde::{Deserialize, Serialize};

use super::eval::{sparse_count, LineCounts, Weights, PARITY};
use super::position::{drops, sides, WON};
use super::threats::{above, threats};
use crate::games::four3d::Board;
use crate::search::{Game as _, Seat};

/// Features per phase.
pub const FEATURES: usize = 18;
/// The model's inputs: each feature, and each feature times the phase
/// (ply / 64).
pub const INPUTS: usize = 2 * FEATURES;

/// The features' names, in order.
pub const NAMES: [&str; FEATURES] = [
    "ones",
    "twos",
    "good_me",
    "good_opp",
    "bad_me",
    "bad_opp",
    "dead_me",
    "dead_opp",
    "stacked_me",
    "stacked_opp",
    "hot_me",
    "hot_opp",
    "safe_me",
    "safe_opp",
    "zug_me",
    "zug_opp",
    "first",
    "bias",
];

/// Evaluation units per unit of log-odds (the search's values; `best`
/// reports `sigmoid(value / SCALE)` as its win share).
pub const SCALE: f64 = 200.0;

/// The bits of a sparse set, as a feature.
#[inline]
fn count(x: u64) -> f64 {
    sparse_count(x) as f64
}

/// The threat classes of one side: (good, bad, dead, stacked, hot) and
/// whether it has a live good threat.
#[inline]
fn classes(t: u64, t_other: u64, seat: Seat, droppable: u64) -> [f64; 5] {
    let shadow = above(t_other);
    let live = t & !shadow;
    [
        count(live & PARITY[seat]),
        count(live & !PARITY[seat]),
        count(t & shadow),
        count(live & (live << 16)),
        count(live & (droppable << 16)),
    ]
}

/// The features of a quiet position: `me` (in `seat`) to move against
/// `opp`, `ones` and `twos` from seat 0's view (see [`LineCounts`]), and
/// both sides' threats.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn features(
    ones: i32,
    twos: i32,
    seat: Seat,
    me: u64,
    opp: u64,
    t_me: u64,
    t_opp: u64,
) -> [f64; FEATURES] {
    let sign = if seat == 0 { 1.0 } else { -1.0 };
    let d = drops(me | opp);
    let a = classes(t_me, t_opp, seat, d);
    let b = classes(t_opp, t_me, 1 - seat, d);
    [
        sign * ones as f64,
        sign * twos as f64,
        a[0],
        b[0],
        a[1],
        b[1],
        a[2],
        b[2],
        a[3],
        b[3],
        a[4],
        b[4],
        count(d & !(t_opp >> 16)),
        count(d & !(t_me >> 16)),
        (a[0] > 0.0 && b[0] == 0.0) as u8 as f64,
        (b[0] > 0.0 && a[0] == 0.0) as u8 as f64,
        (seat == 0) as u8 as f64,
        1.0,
    ]
}

/// The model's inputs for features `f` at `ply` (beads on the board).
pub fn inputs(f: &[f64; FEATURES], ply: u32) -> [f64; INPUTS] {
    let t = ply as f64 / 64.0;
    let mut x = [0.0; INPUTS];
    for i in 0..FEATURES {
        x[i] = f[i];
        x[FEATURES + i] = f[i] * t;
    }
    x
}

/// The fitted evaluation: weights at ply 0 (`base`) and their change per
/// ply / 64 (`slope`), in log-odds.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub base: [f64; FEATURES],
    pub slope: [f64; FEATURES],
    /// The weights of every ply 0..=64 in evaluation units.
    per_ply: Vec<[f32; FEATURES]>,
}

/// The file form.
#[derive(Serialize, Deserialize)]
struct ModelFile {
    #[serde(default)]
    about: String,
    base: std::collections::BTreeMap<String, f64>,
    slope: std::collections::BTreeMap<String, f64>,
}

impl Model {
    pub fn new(base: [f64; FEATURES], slope: [f64; FEATURES]) -> Self {
        let per_ply = (0..=64)
            .map(|p| {
                let t = p as f64 / 64.0;
                let mut w = [0f32; FEATURES];
                for i in 0..FEATURES {
                    w[i] = ((base[i] + slope[i] * t) * SCALE) as f32;
                }
                w
            })
            .collect();
        Model {
            base,
            slope,
            per_ply,
        }
    }

    /// From the model's inputs' weights (as [`crate::search::logistic`]
    /// fits them on [`inputs`]).
    pub fn from_inputs(w: &[f64; INPUTS]) -> Self {
        let mut base = [0.0; FEATURES];
        let mut slope = [0.0; FEATURES];
        base.copy_from_slice(&w[..FEATURES]);
        slope.copy_from_slice(&w[FEATURES..]);
        Model::new(base, slope)
    }

    /// The weights as inputs' weights (the inverse of [`Model::from_inputs`]).
    pub fn to_inputs(&self) -> [f64; INPUTS] {
        let mut w = [0.0; INPUTS];
        w[..FEATURES].copy_from_slice(&self.base);
        w[FEATURES..].copy_from_slice(&self.slope);
        w
    }

    /// The model shipped with ladderbot (`eval-v2.json`).
    pub fn shipped() -> &'static Model {
        static SHIPPED: std::sync::OnceLock<Model> = std::sync::OnceLock::new();
        SHIPPED.get_or_init(|| {
            Model::from_json(include_str!("eval-v2.json"))
                .unwrap_or_else(|e| panic!("the shipped eval-v2.json is broken: {e}"))
        })
    }

    /// Reads the JSON form; every feature must have both weights, and no
    /// other key may appear.
    pub fn from_json(text: &str) -> Result<Model, String> {
        let file: ModelFile =
            serde_json::from_str(text).map_err(|e| format!("four3d evaluation: {e}"))?;
        let mut out = [[0.0; FEATURES]; 2];
        for (k, map) in [&file.base, &file.slope].into_iter().enumerate() {
            for (i, name) in NAMES.iter().enumerate() {
                let w = map
                    .get(*name)
                    .ok_or_else(|| format!("four3d evaluation: no weight for '{name}'"))?;
                if !w.is_finite() {
                    return Err(format!("four3d evaluation: weight '{name}' is not finite"));
                }
                out[k][i] = *w;
            }
            if let Some(extra) = map.keys().find(|k| !NAMES.contains(&k.as_str())) {
                return Err(format!("four3d evaluation: unknown feature '{extra}'"));
            }
        }
        Ok(Model::new(out[0], out[1]))
    }

    /// The JSON form, with `about` saying where the weights came from.
    pub fn to_json(&self, about: &str) -> String {
        let map = |w: &[f64; FEATURES]| {
            NAMES
                .iter()
                .zip(w)
                .map(|(n, v)| (n.to_string(), (v * 1e6).round() / 1e6))
                .collect()
        };
        let file = ModelFile {
            about: about.to_string(),
            base: map(&self.base),
            slope: map(&self.slope),
        };
        serde_json::to_string_pretty(&file).unwrap_or_default() + "\n"
    }

    /// The log-odds of features `f` at `ply`.
    pub fn log_odds(&self, f: &[f64; FEATURES], ply: u32) -> f64 {
        crate::search::logistic::dot(&self.to_inputs(), &inputs(f, ply))
    }

    /// The value of a quiet position for the side to move, in evaluation
    /// units, kept inside the non-proven range.
    #[inline]
    pub fn value(
        &self,
        lines: &LineCounts,
        seat: Seat,
        me: u64,
        opp: u64,
        t_me: u64,
        t_opp: u64,
    ) -> i32 {
        let f = features(lines.ones, lines.twos, seat, me, opp, t_me, t_opp);
        let ply = ((me | opp).count_ones() as usize).min(64);
        let w = &self.per_ply[ply];
        let mut s = 0f32;
        for i in 0..FEATURES {
            s += w[i] * f[i] as f32;
        }
        (s as i32).clamp(-(WON - 1), WON - 1)
    }
}

/// The fitted model's inputs of a position.
pub fn inputs_of(b: &Board) -> [f64; INPUTS] {
    let (me, opp) = sides(b);
    let seat = b.to_move();
    let empty = !(me | opp);
    let lc = LineCounts::new([b.stones(0), b.stones(1)], &Weights::default());
    let f = features(
        lc.ones,
        lc.twos,
        seat,
        me,
        opp,
        threats(me, empty),
        threats(opp, empty),
    );
    inputs(&f, b.ply())
}

/// The fitted model's value of a position, in evaluation units.
pub fn fitted_value(m: &Model, b: &Board) -> f64 {
    crate::search::logistic::dot(&m.to_inputs(), &inputs_of(b)) * SCALE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::best::eval::Weights;
    use crate::games::four3d::best::threats::threats;

    #[test]
    fn the_shipped_model_loads_and_round_trips() {
        let m = Model::shipped();
        assert!(m.base.iter().chain(&m.slope).any(|&w| w != 0.0));
        let back = Model::from_json(&m.to_json("test")).unwrap();
        for (a, b) in back.to_inputs().iter().zip(m.to_inputs()) {
            assert!((a - b).abs() < 1e-6);
        }
        assert!(Model::from_json(r#"{"base": {}, "slope": {}}"#).is_err());
    }

    #[test]
    fn value_is_the_log_odds_in_evaluation_units() {
        // A model with weight 1 on `good_me` and -0.5 + 1.0 * t on
        // `stacked_opp`.
        let mut base = [0.0; FEATURES];
        let mut slope = [0.0; FEATURES];
        base[2] = 1.0;
        base[9] = -0.5;
        slope[9] = 1.0;
        let m = Model::new(base, slope);
        // Seat 0 with three on the x-line at z = 2 (cells 32..34): a good
        // threat at (3,0,2); seat 1 has a few beads and no threat.
        let me: u64 = 0b111 << 32 | 0b111 | 0b111 << 16;
        let opp: u64 = 1 << 4 | 1 << 20 | 1 << 36 | 1 << 8 | 1 << 24 | 1 << 40 | 1 << 12;
        let seat = ((me | opp).count_ones() & 1) as usize;
        assert_eq!(seat, 0);
        let (t_me, t_opp) = (threats(me, !(me | opp)), threats(opp, !(me | opp)));
        let lc = LineCounts::new([me, opp], &Weights::default());
        let f = features(lc.ones, lc.twos, seat, me, opp, t_me, t_opp);
        assert!(f[2] >= 1.0, "{f:?}");
        let v = m.value(&lc, seat, me, opp, t_me, t_opp);
        let expect = m.log_odds(&f, (me | opp).count_ones()) * SCALE;
        assert!((v as f64 - expect).abs() <= 1.0, "{v} vs {expect}");
    }
}
