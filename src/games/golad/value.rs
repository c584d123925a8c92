//! `best`'s learned value model (issue 33): how likely the side that just
//! moved is to win and to lose the game from here, by two logistic models
//! over a few features of the position, fitted offline on recorded games
//! (`ladderbot-lab golad train`).
//!
//! The features know the time left: the engine calls the game a draw after
//! round 100 whatever the cell counts, so a lead is worth a win only when
//! there are moves enough to wipe the other side out. Each lead feature
//! comes twice, on its own and times the share of the game still to play,
//! and the cell counts of the weaker side enter as `1/(n+1)` (a side with
//! a handful of cells is about to die).
//!
//! The value the search uses is the expected score `1/2 + (P(win) -
//! P(loss))/2`, in 0..1: a draw at round 100 is worth 1/2, as the engine
//! scores it.
//!
//! Pure: the weights are data (`value-v1.json`, shipped, read at start).

use serde::{Deserialize, Serialize};

use super::field::Field;
use super::GolState;
use crate::search::logistic::{dot, sigmoid};
use crate::search::Seat;

/// The number of inputs (features, with the constant first).
pub const INPUTS: usize = 12;

/// The inputs' names, in order (the weights file lists them).
pub const NAMES: [&str; INPUTS] = [
    "bias",
    "left",
    "territory",
    "territory_x_left",
    "material",
    "material_x_left",
    "log_ratio",
    "log_ratio_x_left",
    "opp_few",
    "own_few",
    "first_player",
    "density",
];

/// The share of the game's moves still to be played after `t` (1 at the
/// start, 0 after the last move of round `max_rounds`).
pub fn left(t: &GolState) -> f64 {
    let total = 2 * t.max_rounds.max(1);
    let made = 2 * t.round.saturating_sub(1) + t.to_move as u32;
    total.saturating_sub(made) as f64 / total as f64
}

/// The inputs for `me`, who just moved: `territory` is `me`'s territory
/// share of `f` (the field the search evaluates, after the move's
/// generation and its look-ahead), `left` the share of moves still to play.
pub fn inputs(territory: f64, f: &Field, me: Seat, left: f64) -> [f64; INPUTS] {
    let a = f.count(me) as f64;
    let b = f.count(1 - me) as f64;
    let material = if a + b > 0.0 { a / (a + b) - 0.5 } else { 0.0 };
    let share = territory - 0.5;
    let ratio = ((a + 1.0) / (b + 1.0)).ln();
    [
        1.0,
        left,
        share,
        share * left,
        material,
        material * left,
        ratio,
        ratio * left,
        1.0 / (b + 1.0),
        1.0 / (a + 1.0),
        if me == 0 { 0.5 } else { -0.5 },
        (a + b) / 100.0,
    ]
}

/// The two logistic models: the log-odds of a win and of a loss for the
/// side that just moved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueModel {
    /// How the weights were made (free text).
    #[serde(default)]
    pub about: String,
    /// Feature names, in order; must equal [`NAMES`].
    pub inputs: Vec<String>,
    pub win: Vec<f64>,
    pub loss: Vec<f64>,
    /// Fixed-size copies of `win` and `loss` for the hot path.
    #[serde(skip)]
    w: [f64; INPUTS],
    #[serde(skip)]
    l: [f64; INPUTS],
}

impl ValueModel {
    pub fn new(win: [f64; INPUTS], loss: [f64; INPUTS], about: &str) -> Self {
        ValueModel {
            about: about.into(),
            inputs: NAMES.iter().map(|s| s.to_string()).collect(),
            win: win.to_vec(),
            loss: loss.to_vec(),
            w: win,
            l: loss,
        }
    }

    /// The shipped model (`value-v1.json`).
    pub fn shipped() -> &'static ValueModel {
        static MODEL: std::sync::OnceLock<ValueModel> = std::sync::OnceLock::new();
        MODEL.get_or_init(|| {
            ValueModel::from_json(include_str!("value-v1.json"))
                .unwrap_or_else(|e| panic!("the shipped value-v1.json does not load: {e}"))
        })
    }

    /// Reads a model written by [`ValueModel::to_json`]; checks the inputs.
    pub fn from_json(text: &str) -> Result<ValueModel, String> {
        let m: ValueModel = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if m.inputs != NAMES {
            return Err(format!(
                "inputs {:?} are not this version's {:?}",
                m.inputs, NAMES
            ));
        }
        let fixed = |v: &[f64], what: &str| -> Result<[f64; INPUTS], String> {
            if v.iter().any(|x| !x.is_finite()) {
                return Err(format!("{what}: a weight is not a finite number"));
            }
            v.try_into()
                .map_err(|_| format!("{what}: {} weights, expected {INPUTS}", v.len()))
        };
        let (w, l) = (fixed(&m.win, "win")?, fixed(&m.loss, "loss")?);
        Ok(ValueModel::new(w, l, &m.about))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The win head's and the loss head's weights.
    pub fn heads(&self) -> (&[f64; INPUTS], &[f64; INPUTS]) {
        (&self.w, &self.l)
    }

    /// P(win) and P(loss) for the inputs' side.
    #[inline]
    pub fn probabilities(&self, x: &[f64; INPUTS]) -> (f64, f64) {
        (sigmoid(dot(&self.w, x)), sigmoid(dot(&self.l, x)))
    }

    /// The expected score `1/2 + (P(win) - P(loss))/2`.
    #[inline]
    pub fn value(&self, x: &[f64; INPUTS]) -> f64 {
        let (w, l) = self.probabilities(x);
        (0.5 + 0.5 * (w - l)).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::golad::Cell;

    #[test]
    fn left_runs_from_one_to_zero() {
        let mut s = GolState::start(1, 100);
        assert_eq!(left(&s), 1.0);
        s.to_move = 1;
        assert!((left(&s) - 199.0 / 200.0).abs() < 1e-12);
        s.round = 101;
        s.to_move = 0;
        assert_eq!(left(&s), 0.0);
    }

    #[test]
    fn inputs_see_a_side_about_to_die() {
        let mut f = Field::empty();
        for x in 0..10 {
            f.set(Cell { x, y: 3 }, Some(0));
        }
        f.set(Cell { x: 5, y: 10 }, Some(1));
        let x = inputs(0.9, &f, 0, 0.25);
        assert_eq!(x[0], 1.0);
        assert!((x[2] - 0.4).abs() < 1e-12 && (x[3] - 0.1).abs() < 1e-12);
        assert!((x[4] - (10.0 / 11.0 - 0.5)).abs() < 1e-12);
        assert_eq!(x[8], 0.5);
        assert!((x[9] - 1.0 / 11.0).abs() < 1e-12);
        let y = inputs(0.1, &f, 1, 0.25);
        assert_eq!(y[8], x[9]);
        assert_eq!(y[6], -x[6]);
        assert_eq!(y[10], -x[10]);
    }

    #[test]
    fn the_shipped_model_loads_and_values_a_big_late_lead_below_an_early_one() {
        let m = ValueModel::shipped();
        let mut f = Field::empty();
        for x in 0..12 {
            for y in 0..2 {
                f.set(Cell { x, y }, Some(0));
            }
        }
        for x in 5..7 {
            f.set(Cell { x, y: 12 }, Some(1));
        }
        // The same lead, early and on the last move: late, the engine's
        // draw at round 100 is near, so the lead is worth less.
        let early = m.value(&inputs(0.8, &f, 0, 0.8));
        let late = m.value(&inputs(0.8, &f, 0, 0.0));
        assert!(early > late && early > 0.5, "{early} {late}");
        let json = m.to_json();
        assert_eq!(&ValueModel::from_json(&json).unwrap(), m);
    }

    #[test]
    fn bad_weight_files_are_refused() {
        let m = ValueModel::new([0.0; INPUTS], [0.0; INPUTS], "zero");
        assert_eq!(m.value(&[1.0; INPUTS]), 0.5);
        let mut v: serde_json::Value = serde_json::from_str(&m.to_json()).unwrap();
        v["win"] = serde_json::json!([1.0, 2.0]);
        assert!(ValueModel::from_json(&v.to_string()).is_err());
        let mut v: serde_json::Value = serde_json::from_str(&m.to_json()).unwrap();
        v["inputs"][3] = "other".into();
        assert!(ValueModel::from_json(&v.to_string()).is_err());
        assert!(ValueModel::from_json("{").is_err());
    }
}
