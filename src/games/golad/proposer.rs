//! The learned proposer (issue 61): the pairwise proposer's terms
//! ([`super::propose`]) predicted from local features instead of measured
//! with the evaluation, so a proposal costs no evaluation before its first
//! birth is scored.
//!
//! An edit (a cell killed or brought to life by hand, or two of them) is
//! played forward [`GENERATIONS`] generations beside the unedited field;
//! its features are how many cells of each colour it adds or removes after
//! each generation (the neighbourhoods of both colours before and after the
//! next generations, counted). A linear model per kind of edit (a kill of
//! an own cell, a birth, and the two interactions the proposer uses: two
//! kills, a birth with a kill) turns them into the change of the
//! evaluation; its weights depend on the position through a small context
//! (the share of the game left, how few cells each side has), folded into
//! integer weights once per position, so each edit's prediction is an
//! integer dot product of a few small counts.
//!
//! The weights are data (`proposer-v1.json`, shipped, read at start),
//! fitted by `ladderbot golad-lab train-proposer` ([`samples`], [`fit`]) on
//! the changes the pairwise proposer measures in self-play positions.
//!
//! Pure: no clock, no randomness.

use serde::{Deserialize, Serialize};

use super::field::Field;
use super::moves::{Cell, Move, CELLS, HEIGHT};
use super::territory::{centre_thirds, dilate};
use super::value::left;
use super::GolState;
use crate::search::logistic::damped_newton;
use crate::search::Seat;

/// One cell set by hand: killed (`None`) or brought to life for a side.
pub type Edit = (Cell, Option<Seat>);

/// Generations an edit is played forward.
pub const GENERATIONS: usize = 3;
/// The generation whose field the evaluation floods (the move's own and
/// `look` = 1 more).
const FLOODED: usize = 2;
/// What is counted in the flooded field beyond the living cells: the
/// living cells weighted by their closeness to the centre (as the
/// territory weighs them); the dead cells one step from one side's cells
/// only, and two steps (the first steps of the territory's flood), and one
/// step from both, weighted the same way.
pub const FLOOD_COUNTS: usize = 7;
const FLOOD_NAMES: [&str; FLOOD_COUNTS] = [
    "own_w",
    "opp_w",
    "own_near",
    "opp_near",
    "own_far",
    "opp_far",
    "both_near",
];
/// The counts an edit changes: a constant, the mover's and the opponent's
/// living cells after each generation, then [`FLOOD_COUNTS`] after
/// generation [`FLOODED`].
pub const DELTAS: usize = 1 + 2 * GENERATIONS + FLOOD_COUNTS;

/// The deltas' names (`own2`: the mover's living cells after the second
/// generation; `near` one step away, `far` two).
pub fn delta_names() -> Vec<String> {
    let mut out = vec!["one".to_string()];
    for g in 1..=GENERATIONS {
        out.push(format!("own{g}"));
        out.push(format!("opp{g}"));
    }
    out.extend(FLOOD_NAMES.iter().map(|c| c.to_string()));
    out
}

/// The deltas after the constant of a field `f` played `g` (1-based)
/// generations forward for `me`, written into `d`.
#[inline]
fn count_into(f: &Field, me: Seat, g: usize, d: &mut [i32; DELTAS]) {
    d[2 * g - 1] = f.count(me) as i32;
    d[2 * g] = f.count(1 - me) as i32;
    if g == FLOODED {
        let w = flooded(f, me);
        d[1 + 2 * GENERATIONS..].copy_from_slice(&w);
    }
}

/// Centre weights are summed in these units.
const WEIGHT_UNIT: f64 = 64.0;

/// Each row's centre weights (the territory's closeness to the centre,
/// in [`WEIGHT_UNIT`]s) for every pattern of its three 6-column thirds.
fn centre_weights() -> &'static [[[u16; 64]; 3]; HEIGHT] {
    static W: std::sync::OnceLock<[[[u16; 64]; 3]; HEIGHT]> = std::sync::OnceLock::new();
    W.get_or_init(|| centre_thirds(WEIGHT_UNIT))
}

/// The summed centre weight of a set of cells.
#[inline]
fn weighed(rows: &[u32; HEIGHT]) -> i32 {
    let w = centre_weights();
    let mut sum = 0i32;
    for (y, &r) in rows.iter().enumerate() {
        sum += w[y][0][(r & 63) as usize] as i32
            + w[y][1][(r >> 6 & 63) as usize] as i32
            + w[y][2][(r >> 12 & 63) as usize] as i32;
    }
    sum
}

/// The 4-neighbours of a set of cells.
fn spread(a: &[u32; HEIGHT]) -> [u32; HEIGHT] {
    dilate(a, &[0; HEIGHT])
}

/// What [`FLOOD_NAMES`] names, in `f` for `me`.
fn flooded(f: &Field, me: Seat) -> [i32; FLOOD_COUNTS] {
    let (a, b) = (f.rows(me), f.rows(1 - me));
    let (na, nb) = (spread(a), spread(b));
    let (na2, nb2) = (spread(&na), spread(&nb));
    let mut e = [[0u32; HEIGHT]; 5];
    for y in 0..HEIGHT {
        let dead = !(a[y] | b[y]);
        e[0][y] = na[y] & !nb[y] & dead;
        e[1][y] = nb[y] & !na[y] & dead;
        let far = dead & !na[y] & !nb[y];
        e[2][y] = na2[y] & !nb2[y] & far;
        e[3][y] = nb2[y] & !na2[y] & far;
        e[4][y] = na[y] & nb[y] & dead;
    }
    [
        weighed(a),
        weighed(b),
        weighed(&e[0]),
        weighed(&e[1]),
        weighed(&e[2]),
        weighed(&e[3]),
        weighed(&e[4]),
    ]
}

/// What the weights depend on in a position.
pub const CONTEXT: usize = 4;
pub const CONTEXT_NAMES: [&str; CONTEXT] = ["one", "left", "own_few", "opp_few"];
/// A kind's inputs: every delta times every context value.
pub const INPUTS: usize = DELTAS * CONTEXT;

/// The kinds of edit the proposer asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An own cell killed (a sacrifice alone).
    Kill,
    /// A dead cell brought to life for the mover.
    Birth,
    /// Two own cells killed: what they change beyond the two kills.
    KillPair,
    /// A birth and a kill: what they change beyond the two.
    BirthKill,
}

pub const KINDS: [Kind; 4] = [Kind::Kill, Kind::Birth, Kind::KillPair, Kind::BirthKill];

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Kill => "kill",
            Kind::Birth => "birth",
            Kind::KillPair => "kill_pair",
            Kind::BirthKill => "birth_kill",
        }
    }

    fn of(edits: &[Edit]) -> Option<Kind> {
        match edits {
            [(_, None)] => Some(Kind::Kill),
            [(_, Some(_))] => Some(Kind::Birth),
            [(_, None), (_, None)] => Some(Kind::KillPair),
            [(_, Some(_)), (_, None)] | [(_, None), (_, Some(_))] => Some(Kind::BirthKill),
            _ => None,
        }
    }
}

/// The weights: for each kind, [`INPUTS`] of them (delta-major).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProposerModel {
    /// How the weights were made.
    pub about: String,
    pub deltas: Vec<String>,
    pub context: Vec<String>,
    pub kill: Vec<f64>,
    pub birth: Vec<f64>,
    pub kill_pair: Vec<f64>,
    pub birth_kill: Vec<f64>,
}

/// Integer weights are the model's times this.
const SCALE: f64 = (1u64 << 24) as f64;

impl ProposerModel {
    pub fn new(weights: [[f64; INPUTS]; 4], about: &str) -> Self {
        ProposerModel {
            about: about.into(),
            deltas: delta_names(),
            context: CONTEXT_NAMES.iter().map(|s| s.to_string()).collect(),
            kill: weights[0].to_vec(),
            birth: weights[1].to_vec(),
            kill_pair: weights[2].to_vec(),
            birth_kill: weights[3].to_vec(),
        }
    }

    /// The shipped model (`proposer-v1.json`).
    pub fn shipped() -> &'static ProposerModel {
        static MODEL: std::sync::OnceLock<ProposerModel> = std::sync::OnceLock::new();
        MODEL.get_or_init(|| {
            ProposerModel::from_json(include_str!("proposer-v1.json"))
                .unwrap_or_else(|e| panic!("the shipped proposer-v1.json does not load: {e}"))
        })
    }

    /// Reads a model, checking its inputs are this build's.
    pub fn from_json(text: &str) -> Result<ProposerModel, String> {
        let m: ProposerModel =
            serde_json::from_str(text).map_err(|e| format!("a proposer model: {e}"))?;
        if m.deltas != delta_names() || m.context != CONTEXT_NAMES {
            return Err(format!(
                "a proposer model for other inputs (deltas {:?}, context {:?}; this build reads {:?} and {:?})",
                m.deltas,
                m.context,
                delta_names(),
                CONTEXT_NAMES
            ));
        }
        for k in KINDS {
            let w = m.weights(k);
            if w.len() != INPUTS || w.iter().any(|x| !x.is_finite()) {
                return Err(format!(
                    "a proposer model: {} needs {INPUTS} finite weights, has {}",
                    k.name(),
                    w.len()
                ));
            }
        }
        Ok(m)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn weights(&self, k: Kind) -> &[f64] {
        match k {
            Kind::Kill => &self.kill,
            Kind::Birth => &self.birth,
            Kind::KillPair => &self.kill_pair,
            Kind::BirthKill => &self.birth_kill,
        }
    }
}

/// The unedited field played forward, and what the weights depend on.
struct Base {
    field: Field,
    me: Seat,
    /// The unedited field's counts (as [`count_into`] writes them).
    counts: [i32; DELTAS],
    context: [f64; CONTEXT],
}

impl Base {
    fn new(s: &GolState) -> Base {
        let me = s.to_move;
        let mut counts = [0; DELTAS];
        let mut f = s.field;
        for g in 1..=GENERATIONS {
            f = f.step();
            count_into(&f, me, g, &mut counts);
        }
        let mut after = *s;
        after.apply(Move::Pass);
        let [a, b] = [counts[2 * FLOODED - 1], counts[2 * FLOODED]];
        Base {
            field: s.field,
            me,
            counts,
            context: [
                1.0,
                left(&after),
                1.0 / (a as f64 + 1.0),
                1.0 / (b as f64 + 1.0),
            ],
        }
    }

    /// What `edits` change: 1, then the mover's and the opponent's living
    /// cells after each generation, less the unedited field's.
    fn deltas(&self, edits: &[Edit]) -> [i32; DELTAS] {
        let mut f = self.field;
        for &(c, v) in edits {
            f.set(c, v);
        }
        let mut d = [0; DELTAS];
        for g in 1..=GENERATIONS {
            f = f.step();
            count_into(&f, self.me, g, &mut d);
        }
        for (x, base) in d.iter_mut().zip(&self.counts) {
            *x -= base;
        }
        d[0] = 1;
        d
    }

    /// A kind's inputs for the deltas `d`.
    fn inputs(&self, d: &[i32; DELTAS]) -> [f64; INPUTS] {
        let mut x = [0.0; INPUTS];
        for (k, &dk) in d.iter().enumerate() {
            for (j, &c) in self.context.iter().enumerate() {
                x[k * CONTEXT + j] = dk as f64 * c;
            }
        }
        x
    }
}

/// A pair's deltas beyond its two edits' (the constant stays 0).
fn beyond(joint: [i32; DELTAS], a: [i32; DELTAS], b: [i32; DELTAS]) -> [i32; DELTAS] {
    let mut d = [0; DELTAS];
    for k in 1..DELTAS {
        d[k] = joint[k] - a[k] - b[k];
    }
    d
}

/// The model's predictions in one position: the proposer's `change`.
pub struct Predictor {
    base: Base,
    /// Per kind, the weights of each delta in this position, times
    /// [`SCALE`].
    weights: [[i64; DELTAS]; 4],
    /// Each cell's single edit's deltas, once asked (a cell has one: its
    /// kill if it lives, its birth if not).
    singles: Vec<Option<[i32; DELTAS]>>,
}

impl Predictor {
    pub fn new(model: &ProposerModel, s: &GolState) -> Predictor {
        let base = Base::new(s);
        let mut weights = [[0i64; DELTAS]; 4];
        for (slot, k) in weights.iter_mut().zip(KINDS) {
            let w = model.weights(k);
            for (d, out) in slot.iter_mut().enumerate() {
                let v: f64 = (0..CONTEXT)
                    .map(|j| w[d * CONTEXT + j] * base.context[j])
                    .sum();
                *out = (v * SCALE).round() as i64;
            }
        }
        Predictor {
            base,
            weights,
            singles: vec![None; CELLS],
        }
    }

    fn single(&mut self, e: Edit) -> [i32; DELTAS] {
        let i = e.0.index();
        if let Some(d) = self.singles[i] {
            return d;
        }
        let d = self.base.deltas(&[e]);
        self.singles[i] = Some(d);
        d
    }

    fn dot(&self, k: Kind, d: &[i32; DELTAS]) -> i64 {
        let w = &self.weights[k as usize];
        w.iter().zip(d).map(|(&w, &d)| w * d as i64).sum()
    }

    /// The predicted change of the mover's value by `edits` (one or two
    /// cells; more are predicted as the sum of their parts).
    pub fn change(&mut self, edits: &[Edit]) -> f64 {
        self.change_int(edits) as f64 / SCALE
    }

    /// The predicted change of the two edits beyond their own changes.
    pub fn beyond(&mut self, a: Edit, b: Edit) -> f64 {
        let edits = [a, b];
        let Some(k) = Kind::of(&edits) else {
            return 0.0;
        };
        let (da, db) = (self.single(a), self.single(b));
        let joint = self.base.deltas(&edits);
        self.dot(k, &beyond(joint, da, db)) as f64 / SCALE
    }

    fn change_int(&mut self, edits: &[Edit]) -> i64 {
        match (edits, Kind::of(edits)) {
            ([e], Some(k)) => {
                let d = self.single(*e);
                self.dot(k, &d)
            }
            ([a, b], Some(k)) => {
                let (da, db) = (self.single(*a), self.single(*b));
                let ka = Kind::of(&[*a]).unwrap_or(Kind::Kill);
                let kb = Kind::of(&[*b]).unwrap_or(Kind::Kill);
                let joint = self.base.deltas(edits);
                self.dot(ka, &da) + self.dot(kb, &db) + self.dot(k, &beyond(joint, da, db))
            }
            _ => edits.iter().map(|e| self.change_int(&[*e])).sum(),
        }
    }
}

/// One training sample: a kind, its inputs, and the measured change (for
/// a pair, beyond its two edits' measured changes).
pub type Sample = (Kind, [f64; INPUTS], f64);

/// The samples of one position: every edit the pairwise proposer measures
/// there with the evaluation `value` (as [`super::propose::propose`] asks
/// it), with the model's inputs.
pub fn samples(
    s: &GolState,
    p: super::propose::Pairwise,
    mut value: impl FnMut(&GolState, Move) -> f64,
) -> Vec<Sample> {
    let base = Base::new(s);
    let mut measured: Vec<(Vec<Edit>, f64)> = Vec::new();
    super::propose::propose_by(s, p, |edits| {
        let v = value(&super::propose::edited(s, edits), Move::Pass);
        measured.push((edits.to_vec(), v));
        v
    });
    // The first measurement is the unedited field's (no edits).
    let Some((none, base_value)) = measured.first().cloned() else {
        return Vec::new();
    };
    debug_assert!(none.is_empty());
    let mut single = vec![None; CELLS];
    let mut out = Vec::new();
    for (edits, v) in &measured {
        let change = v - base_value;
        match (edits.as_slice(), Kind::of(edits)) {
            ([e], Some(k)) => {
                let d = base.deltas(edits);
                single[e.0.index()] = Some((d, change));
                out.push((k, base.inputs(&d), change));
            }
            ([a, b], Some(k)) => {
                if let (Some((da, va)), Some((db, vb))) = (single[a.0.index()], single[b.0.index()])
                {
                    let d = beyond(base.deltas(edits), da, db);
                    out.push((k, base.inputs(&d), change - va - vb));
                }
            }
            _ => {}
        }
    }
    out
}

/// The fit of one kind: least squares with an L2 penalty `l2`, by the
/// damped Newton steps the logistic models use (one step solves it).
pub fn fit_kind(samples: &[&[f64; INPUTS]], targets: &[f64], l2: f64) -> [f64; INPUTS] {
    let n = samples.len().max(1) as f64;
    let loss = |w: &[f64; INPUTS]| -> f64 {
        samples
            .iter()
            .zip(targets)
            .map(|(x, y)| {
                let r = dot(w, x) - y;
                r * r
            })
            .sum::<f64>()
            / n
    };
    damped_newton(
        &[0.0; INPUTS],
        l2,
        |w| {
            let mut grad = [0.0; INPUTS];
            let mut hess = [[0.0; INPUTS]; INPUTS];
            for (x, y) in samples.iter().zip(targets) {
                let r = dot(w, x) - y;
                for i in 0..INPUTS {
                    if x[i] == 0.0 {
                        continue;
                    }
                    grad[i] += 2.0 * r * x[i] / n;
                    for j in i..INPUTS {
                        hess[i][j] += 2.0 * x[i] * x[j] / n;
                    }
                }
            }
            (grad, hess)
        },
        loss,
    )
}

fn dot(w: &[f64; INPUTS], x: &[f64; INPUTS]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// Fits every kind on `samples`.
pub fn fit(samples: &[Sample], l2: f64, about: &str) -> ProposerModel {
    let mut weights = [[0.0; INPUTS]; 4];
    for (slot, k) in weights.iter_mut().zip(KINDS) {
        let (xs, ys): (Vec<&[f64; INPUTS]>, Vec<f64>) = samples
            .iter()
            .filter(|s| s.0 == k)
            .map(|s| (&s.1, s.2))
            .unzip();
        if !xs.is_empty() {
            *slot = fit_kind(&xs, &ys, l2);
        }
    }
    ProposerModel::new(weights, about)
}

/// How well a model predicts held-out samples of one kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fit {
    pub kind: &'static str,
    pub samples: usize,
    /// The share of the targets' variance the predictions explain.
    pub r2: f64,
    /// Mean absolute error, and the targets' mean absolute size.
    pub mae: f64,
    pub target_mean_abs: f64,
}

/// [`Fit`] of `model` on `samples`, per kind.
pub fn accuracy(model: &ProposerModel, samples: &[Sample]) -> Vec<Fit> {
    KINDS
        .iter()
        .map(|&k| {
            let w: [f64; INPUTS] = model.weights(k).try_into().unwrap_or([0.0; INPUTS]);
            let mine: Vec<&Sample> = samples.iter().filter(|s| s.0 == k).collect();
            let n = mine.len().max(1) as f64;
            let mean = mine.iter().map(|s| s.2).sum::<f64>() / n;
            let (mut se, mut var, mut ae, mut size) = (0.0, 0.0, 0.0, 0.0);
            for s in &mine {
                let r = dot(&w, &s.1) - s.2;
                se += r * r;
                ae += r.abs();
                var += (s.2 - mean) * (s.2 - mean);
                size += s.2.abs();
            }
            Fit {
                kind: k.name(),
                samples: mine.len(),
                r2: if var > 0.0 { 1.0 - se / var } else { 0.0 },
                mae: ae / n,
                target_mean_abs: size / n,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::golad::propose::{self, Pairwise, Terms};
    use std::ops::ControlFlow;

    /// A model whose only weight is `w` on the delta `name` (context
    /// "one") for every kind.
    fn only(name: &str, w: f64) -> ProposerModel {
        let k = delta_names().iter().position(|n| n == name).unwrap();
        let mut x = [0.0; INPUTS];
        x[k * CONTEXT] = w;
        ProposerModel::new([x; 4], "test")
    }

    fn position(seed: u64, plies: usize) -> GolState {
        use rand::{rngs::SmallRng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut s = GolState::start(seed, 100);
        for _ in 0..plies {
            let m = s.random_move(&mut rng);
            s.apply(m);
        }
        s
    }

    #[test]
    fn the_shipped_model_loads_and_a_model_for_other_inputs_does_not() {
        let m = ProposerModel::shipped();
        assert_eq!(ProposerModel::from_json(&m.to_json()).as_ref(), Ok(m));
        assert!(m.about.contains("train-proposer"), "{}", m.about);
        let mut other = m.clone();
        other.deltas[1] = "elsewhere".into();
        assert!(ProposerModel::from_json(&other.to_json()).is_err());
        let mut short = m.clone();
        short.birth.pop();
        let e = ProposerModel::from_json(&short.to_json()).unwrap_err();
        assert!(e.contains("birth"), "{e}");
        assert!(ProposerModel::from_json("{").is_err());
    }

    #[test]
    fn a_prediction_is_the_weighted_count_the_edit_changes() {
        // With one weight on the mover's living cells after two
        // generations, a kill's predicted change is that weight times what
        // the kill changes there, counted here by playing the fields.
        let model = only("own2", 0.25);
        for seed in 1..6 {
            let s = position(seed, 6);
            let me = s.to_move;
            let mut predict = Predictor::new(&model, &s);
            let base = s.field.steps(2).count(me) as f64;
            let own: Vec<Cell> = s.field.living(me).collect();
            for &c in own.iter().take(8) {
                let mut f = s.field;
                f.set(c, None);
                let want = 0.25 * (f.steps(2).count(me) as f64 - base);
                assert!((predict.change(&[(c, None)]) - want).abs() < 1e-6);
            }
            // A pair: its two kills plus what they change beyond them, so
            // the whole joint change.
            let (a, b) = (own[0], own[1]);
            let mut f = s.field;
            f.set(a, None);
            f.set(b, None);
            let want = 0.25 * (f.steps(2).count(me) as f64 - base);
            let got = predict.change(&[(a, None), (b, None)]);
            assert!((got - want).abs() < 1e-6, "{got} vs {want}");
        }
    }

    #[test]
    fn the_fit_recovers_weights_that_made_the_targets() {
        // Targets made by known weights from varied inputs come back.
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(9);
        let mut truth = [0.0; INPUTS];
        for (i, w) in truth.iter_mut().enumerate() {
            *w = if i % 3 == 0 {
                0.0
            } else {
                rng.gen_range(-0.05..0.05)
            };
        }
        let xs: Vec<[f64; INPUTS]> = (0..2000)
            .map(|_| std::array::from_fn(|_| rng.gen_range(-4..=4) as f64))
            .collect();
        let ys: Vec<f64> = xs.iter().map(|x| dot(&truth, x)).collect();
        let refs: Vec<&[f64; INPUTS]> = xs.iter().collect();
        let w = fit_kind(&refs, &ys, 1e-12);
        for (a, b) in w.iter().zip(&truth) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
    }

    #[test]
    fn samples_are_the_edits_the_proposer_measures_with_their_changes() {
        let s = position(4, 8);
        let p = Pairwise::default();
        // A value that is the mover's living cells after the generation.
        let value = |t: &GolState, m: Move| {
            let mut u = *t;
            u.apply(m);
            u.field.count(t.to_move) as f64
        };
        let mut asked = 0usize;
        propose::propose(&s, p, |t, m| {
            asked += 1;
            value(t, m)
        });
        let got = samples(&s, p, value);
        // Every measurement but the unedited field's is a sample.
        assert_eq!(got.len(), asked - 1);
        let own = s.field.count(s.to_move) as usize;
        let kills = got.iter().filter(|x| x.0 == Kind::Kill).count();
        assert_eq!(kills, own);
        assert!(got.iter().any(|x| x.0 == Kind::KillPair));
        assert!(got.iter().any(|x| x.0 == Kind::BirthKill));
        // A single kill's target is its change of the value.
        let base = value(&s, Move::Pass);
        let c = s.field.living(s.to_move).next().unwrap();
        let mut t = s;
        t.field.set(c, None);
        let first = got.iter().find(|x| x.0 == Kind::Kill).unwrap();
        assert_eq!(first.2, value(&t, Move::Pass) - base);
    }

    #[test]
    fn the_learned_proposer_scores_its_first_birth_without_measuring_first() {
        // Measured, the proposal evaluates every part before its first
        // birth is scored; learned, the first birth comes right after the
        // pass and the kills.
        let s = position(2, 10);
        let kills = s.field.count(1 - s.to_move) as usize;
        let before_first_birth = |terms: Terms| {
            let mut evals = 0usize;
            let p = Pairwise {
                terms,
                ..Pairwise::default()
            };
            propose::generate(
                &s,
                p,
                |_, _| {
                    evals += 1;
                    0.5
                },
                |_, m| {
                    if matches!(m, Move::Birth { .. }) {
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                },
            );
            evals
        };
        let learned = before_first_birth(Terms::Learned(ProposerModel::shipped()));
        let measured = before_first_birth(Terms::Measured);
        assert_eq!(learned, 1 + kills + 1);
        assert!(measured > learned + 100, "{measured} vs {learned}");
    }
}
