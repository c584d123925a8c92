//! A small network over the board for `best`'s evaluation (issue 59), in
//! the manner of NNUE: integer inference on an accumulator kept drop by
//! drop, added to the fitted linear evaluation ([`super::fitted`]), whose
//! log-odds it corrects.
//!
//! **Inputs**, from the point of view of a seat `p` (a *perspective*):
//! p's beads on each of the 64 cells, the other side's beads, p's threats
//! (empty cells that would complete a line of p's) and the other side's,
//! and one input that is on when p is the first player: 257 in all. A
//! cell's index carries its height, so the threats' height parity, which
//! decides the zugzwang at the end, is in the inputs.
//!
//! **Peg inputs** (a network's file says `"inputs": "pegs"`; the 257 above
//! alone are `"cells"`): for each peg holding a threat, one input for what
//! the zugzwang at the end turns on, shared by all 16 pegs: whether p is
//! the first player, how high the peg is filled, and the height of p's
//! lowest threat on it and of the other side's (or none). A peg's input is
//! the same wherever the peg stands, so what one peg teaches holds for
//! all: 108 more inputs, an input counted once per peg that has it.
//!
//! **The network**: each perspective's active inputs summed into
//! [`HIDDEN`] units (one weight matrix for both perspectives), clipped to
//! 0..=1, then one output over the side to move's units and the other's.
//! Its output is added to the linear model's log-odds, and the sum, in
//! evaluation units (`200 *` log-odds), is the position's value.
//!
//! **The accumulator** holds each perspective's sums of the bead inputs;
//! a drop adds two rows of weights (the mover's "mine" row to its own
//! perspective, its "theirs" row to the other's) and taking it back
//! subtracts them. The threats change all over the board with a drop, so
//! they are added at evaluation time: a few rows, as there are few
//! threats.
//!
//! **Integers**: the weights into the hidden units are `i16` at scale
//! [`QA`] (a unit's 1.0 is 127), the output's at scale [`QB`]; the sum is
//! an `i32`. Training is in floats ([`train`], ours: the network is two
//! small sparse layers, whose forward and backward passes and Adam take
//! fewer lines than wiring a general crate, and build nothing more).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::fitted::{Model, SCALE};
use super::position::WON;
use super::threats::threats;
use crate::games::four3d::Board;
use crate::search::Game as _;

/// Hidden units per perspective.
pub const HIDDEN: usize = 32;
/// Inputs per perspective.
pub const INPUTS: usize = 257;
const MINE: usize = 0;
const THEIRS: usize = 64;
const MY_THREATS: usize = 128;
const THEIR_THREATS: usize = 192;
const FIRST: usize = 256;
/// A hidden unit's 1.0 (where it is clipped).
pub const QA: i32 = 127;
/// The output weights' scale.
pub const QB: i32 = 64;
/// The peg inputs per first-player flag: fill height `h` (0 to 3), then
/// the lowest threats' heights (none, or `h` to 3) of p and of the other.
pub const PEG_CONFIGS: usize = 25 + 16 + 9 + 4;
/// The peg inputs, after the [`INPUTS`] of the cells.
pub const PEG_INPUTS: usize = 2 * PEG_CONFIGS;
const PEGS: usize = INPUTS;
/// Where each fill height's configurations start.
const PEG_OFFSET: [usize; 4] = [0, 25, 41, 50];

/// Which inputs a network reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Inputs {
    /// The cells and threats of each colour and the first-player input.
    #[default]
    Cells,
    /// Those and the peg inputs.
    Pegs,
}

impl Inputs {
    /// The number of input rows.
    pub fn count(self) -> usize {
        match self {
            Inputs::Cells => INPUTS,
            Inputs::Pegs => INPUTS + PEG_INPUTS,
        }
    }

    /// `cells` or `pegs`.
    pub fn parse(name: &str) -> Option<Inputs> {
        match name {
            "cells" => Some(Inputs::Cells),
            "pegs" => Some(Inputs::Pegs),
            _ => None,
        }
    }
}

/// Calls `f` with each peg input of a perspective (its threats `t_mine`,
/// the other's `t_theirs`, the board's beads `occupied`, whether it is the
/// first player): one for each peg holding a threat.
#[inline]
pub fn for_each_peg_input(
    occupied: u64,
    t_mine: u64,
    t_theirs: u64,
    first: bool,
    mut f: impl FnMut(usize),
) {
    // The peg's four cells (bits i, i + 16, i + 32, i + 48) as a nibble.
    let column = |bits: u64, i: u32| -> u32 {
        let c = bits >> i;
        (c & 1 | (c >> 15) & 2 | (c >> 30) & 4 | (c >> 45) & 8) as u32
    };
    let t = t_mine | t_theirs;
    let mut pegs = (t | t >> 16 | t >> 32 | t >> 48) & 0xffff;
    let base = PEGS + usize::from(first) * PEG_CONFIGS;
    while pegs != 0 {
        let i = pegs.trailing_zeros();
        pegs &= pegs - 1;
        // Beads fill a peg from the bottom; threats are empty cells, so above.
        let h = column(occupied, i).count_ones() as usize;
        let lowest = |bits: u64| match column(bits, i) {
            0 => 0,
            c => c.trailing_zeros() as usize - h + 1,
        };
        f(base + PEG_OFFSET[h] + lowest(t_mine) * (5 - h) + lowest(t_theirs));
    }
}

/// The largest input weight, as trained (so that the accumulator of 64
/// beads stays within `i16`).
pub const MAX_W1: f32 = 2.0;
/// The largest hidden bias, as trained.
pub const MAX_B1: f32 = 8.0;

/// The inputs on for perspective `p` (its beads `mine`, the other's
/// `theirs`, their threats `t_mine` and `t_theirs`, whether p is the first
/// player) of the network reading `inputs`, in increasing order (a peg
/// input as often as pegs have it).
pub fn active(
    inputs: Inputs,
    mine: u64,
    theirs: u64,
    t_mine: u64,
    t_theirs: u64,
    first: bool,
) -> Vec<u16> {
    let mut out = Vec::with_capacity(48);
    for (base, bits) in [
        (MINE, mine),
        (THEIRS, theirs),
        (MY_THREATS, t_mine),
        (THEIR_THREATS, t_theirs),
    ] {
        let mut b = bits;
        while b != 0 {
            out.push((base + b.trailing_zeros() as usize) as u16);
            b &= b - 1;
        }
    }
    if first {
        out.push(FIRST as u16);
    }
    if inputs == Inputs::Pegs {
        let cells = out.len();
        for_each_peg_input(mine | theirs, t_mine, t_theirs, first, |i| {
            out.push(i as u16)
        });
        out[cells..].sort_unstable();
    }
    out
}

/// Both perspectives' inputs in `b` for a network reading `inputs`: the
/// side to move's, then the other side's.
pub fn perspectives(b: &Board, inputs: Inputs) -> [Vec<u16>; 2] {
    let s = b.to_move();
    let (me, opp) = (b.stones(s), b.stones(1 - s));
    let empty = !(me | opp);
    let (t_me, t_opp) = (threats(me, empty), threats(opp, empty));
    [
        active(inputs, me, opp, t_me, t_opp, s == 0),
        active(inputs, opp, me, t_opp, t_me, s == 1),
    ]
}

/// The network in integers, as `best` runs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    inputs: Inputs,
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    /// The side to move's half, then the other's.
    w2: [[i16; HIDDEN]; 2],
    /// At scale `QA * QB`.
    b2: i32,
}

/// Each perspective's (each seat's) sums of its bead inputs and bias.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    h: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            h: [[0; HIDDEN]; 2],
        }
    }
}

/// The network's file: the integer weights, with where they came from.
#[derive(Serialize, Deserialize)]
struct NetFile {
    #[serde(default)]
    about: String,
    /// Absent in the files of the first networks, which read the cells.
    #[serde(default)]
    inputs: Inputs,
    hidden: usize,
    qa: i32,
    qb: i32,
    w1: Vec<Vec<i16>>,
    b1: Vec<i16>,
    w2: Vec<Vec<i16>>,
    b2: i32,
}

impl Net {
    /// The accumulator of a position whose seats hold `stones`.
    pub fn accumulate(&self, stones: [u64; 2]) -> Accumulator {
        let mut acc = Accumulator { h: [self.b1; 2] };
        add(&mut acc.h[0], &self.w1[FIRST]);
        for (seat, &bits) in stones.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                self.place(&mut acc, b.trailing_zeros(), seat);
                b &= b - 1;
            }
        }
        acc
    }

    /// `seat` drops on `cell`.
    #[inline]
    pub fn place(&self, acc: &mut Accumulator, cell: u32, seat: usize) {
        add(&mut acc.h[seat], &self.w1[MINE + cell as usize]);
        add(&mut acc.h[1 - seat], &self.w1[THEIRS + cell as usize]);
    }

    /// The drop of `seat` on `cell` taken back.
    #[inline]
    pub fn remove(&self, acc: &mut Accumulator, cell: u32, seat: usize) {
        sub(&mut acc.h[seat], &self.w1[MINE + cell as usize]);
        sub(&mut acc.h[1 - seat], &self.w1[THEIRS + cell as usize]);
    }

    /// The inputs this network reads.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The network's correction of the linear log-odds for `seat` to move
    /// (its threats `t_me`, the other's `t_opp`; the beads of both
    /// `occupied`), in evaluation units.
    #[inline]
    pub fn value(
        &self,
        acc: &Accumulator,
        seat: usize,
        occupied: u64,
        t_me: u64,
        t_opp: u64,
    ) -> i32 {
        let mut out = self.b2;
        for (half, (p, t_mine, t_theirs)) in [(seat, t_me, t_opp), (1 - seat, t_opp, t_me)]
            .into_iter()
            .enumerate()
        {
            let mut h = [0i32; HIDDEN];
            for (x, &a) in h.iter_mut().zip(&acc.h[p]) {
                *x = i32::from(a);
            }
            for (base, bits) in [(MY_THREATS, t_mine), (THEIR_THREATS, t_theirs)] {
                let mut b = bits;
                while b != 0 {
                    let row = &self.w1[base + b.trailing_zeros() as usize];
                    for (x, &w) in h.iter_mut().zip(row) {
                        *x += i32::from(w);
                    }
                    b &= b - 1;
                }
            }
            if self.inputs == Inputs::Pegs {
                for_each_peg_input(occupied, t_mine, t_theirs, p == 0, |i| {
                    for (x, &w) in h.iter_mut().zip(&self.w1[i]) {
                        *x += i32::from(w);
                    }
                });
            }
            for (x, &w) in h.iter().zip(&self.w2[half]) {
                out += (*x).clamp(0, QA) * i32::from(w);
            }
        }
        (i64::from(out) * SCALE as i64 / i64::from(QA * QB)) as i32
    }

    /// The correction of the position `b` computed afresh.
    pub fn value_of(&self, b: &Board) -> i32 {
        let s = b.to_move();
        let (me, opp) = (b.stones(s), b.stones(1 - s));
        let empty = !(me | opp);
        let acc = self.accumulate([b.stones(0), b.stones(1)]);
        self.value(&acc, s, me | opp, threats(me, empty), threats(opp, empty))
    }

    /// The value `best` gives the quiet position `b` with `model` and this
    /// network, in evaluation units, inside the non-proven range.
    pub fn with_model_value(&self, model: &Model, b: &Board) -> f64 {
        let linear = super::fitted::fitted_value(model, b);
        (linear + f64::from(self.value_of(b))).clamp(-f64::from(WON - 1), f64::from(WON - 1))
    }

    /// The network shipped with ladderbot (`net-pegs-1.json`, issue 59:
    /// peg inputs, trained on solved positions), `best`'s by default.
    pub fn shipped() -> &'static Net {
        static SHIPPED: std::sync::OnceLock<Net> = std::sync::OnceLock::new();
        SHIPPED.get_or_init(|| {
            Net::from_json(include_str!("net-pegs-1.json"))
                .unwrap_or_else(|e| panic!("the shipped net-pegs-1.json is broken: {e}"))
        })
    }

    /// Reads the JSON form of [`Net::to_json`]; the sizes must be these,
    /// and the weights within what training allows (so that no sum can
    /// overflow).
    pub fn from_json(text: &str) -> Result<Net, String> {
        let f: NetFile = serde_json::from_str(text).map_err(|e| format!("four3d network: {e}"))?;
        let bad = |what: &str| Err(format!("four3d network: {what}"));
        if f.hidden != HIDDEN || f.qa != QA || f.qb != QB {
            return bad(&format!(
                "hidden {}, qa {}, qb {}: this build reads hidden {HIDDEN}, qa {QA}, qb {QB}",
                f.hidden, f.qa, f.qb
            ));
        }
        let rows = f.inputs.count();
        if f.w1.len() != rows || f.w1.iter().any(|r| r.len() != HIDDEN) {
            return bad(&format!(
                "w1 must be {rows} rows of {HIDDEN} for inputs {:?}",
                f.inputs
            ));
        }
        if f.b1.len() != HIDDEN || f.w2.len() != 2 || f.w2.iter().any(|r| r.len() != HIDDEN) {
            return bad(&format!("b1 must hold {HIDDEN}, w2 two rows of {HIDDEN}"));
        }
        let max_w1 = (MAX_W1 * QA as f32).round() as i16;
        let max_b1 = (MAX_B1 * QA as f32).round() as i16;
        if f.w1
            .iter()
            .flatten()
            .any(|w| w.unsigned_abs() > max_w1.unsigned_abs())
            || f.b1
                .iter()
                .any(|b| b.unsigned_abs() > max_b1.unsigned_abs())
        {
            return bad(&format!(
                "an input weight over {max_w1} or a bias over {max_b1}"
            ));
        }
        let row = |r: &[i16]| {
            let mut a = [0i16; HIDDEN];
            a.copy_from_slice(r);
            a
        };
        Ok(Net {
            inputs: f.inputs,
            w1: f.w1.iter().map(|r| row(r.as_slice())).collect(),
            b1: row(f.b1.as_slice()),
            w2: [row(f.w2[0].as_slice()), row(f.w2[1].as_slice())],
            b2: f.b2,
        })
    }

    /// The JSON form, with `about` saying where the weights came from.
    pub fn to_json(&self, about: &str) -> String {
        let file = NetFile {
            about: about.to_string(),
            inputs: self.inputs,
            hidden: HIDDEN,
            qa: QA,
            qb: QB,
            w1: self.w1.iter().map(|r| r.to_vec()).collect(),
            b1: self.b1.to_vec(),
            w2: self.w2.iter().map(|r| r.to_vec()).collect(),
            b2: self.b2,
        };
        serde_json::to_string(&file).unwrap_or_default() + "\n"
    }
}

#[inline]
fn add(h: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (x, &d) in h.iter_mut().zip(w) {
        *x = x.wrapping_add(d);
    }
}

#[inline]
fn sub(h: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (x, &d) in h.iter_mut().zip(w) {
        *x = x.wrapping_sub(d);
    }
}

/// The network in floats, as trained.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub inputs: Inputs,
    pub w1: Vec<[f32; HIDDEN]>,
    pub b1: [f32; HIDDEN],
    pub w2: [[f32; HIDDEN]; 2],
    pub b2: f32,
}

impl FloatNet {
    /// Small random weights from `seed` for a network reading `inputs`;
    /// the biases put the hidden units inside their unclipped range.
    pub fn new(seed: u64, inputs: Inputs) -> Self {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut w = |scale: f32| rng.gen_range(-scale..scale);
        let w1 = (0..inputs.count())
            .map(|_| std::array::from_fn(|_| w(0.1)))
            .collect();
        let w2 = [
            std::array::from_fn(|_| w(0.1)),
            std::array::from_fn(|_| w(0.1)),
        ];
        FloatNet {
            inputs,
            w1,
            b1: [0.25; HIDDEN],
            w2,
            b2: 0.0,
        }
    }

    /// Each perspective's hidden sums for the inputs `x`.
    pub fn hidden(&self, x: &[Vec<u16>; 2]) -> [[f32; HIDDEN]; 2] {
        let mut h = [self.b1; 2];
        for (hp, xp) in h.iter_mut().zip(x) {
            for &i in xp {
                for (a, &w) in hp.iter_mut().zip(&self.w1[i as usize]) {
                    *a += w;
                }
            }
        }
        h
    }

    /// The correction's log-odds for the inputs `x`.
    pub fn log_odds(&self, x: &[Vec<u16>; 2]) -> f32 {
        let h = self.hidden(x);
        let mut out = self.b2;
        for (hp, w2) in h.iter().zip(&self.w2) {
            for (&a, &w) in hp.iter().zip(w2) {
                out += a.clamp(0.0, 1.0) * w;
            }
        }
        out
    }

    /// The integer network.
    pub fn quantize(&self) -> Net {
        let q = |x: f32, scale: i32, max: f32| (x.clamp(-max, max) * scale as f32).round() as i16;
        let row = |r: &[f32; HIDDEN], scale: i32, max: f32| {
            let mut a = [0i16; HIDDEN];
            for (o, &x) in a.iter_mut().zip(r) {
                *o = q(x, scale, max);
            }
            a
        };
        let max_w2 = i16::MAX as f32 / QB as f32;
        Net {
            inputs: self.inputs,
            w1: self.w1.iter().map(|r| row(r, QA, MAX_W1)).collect(),
            b1: row(&self.b1, QA, MAX_B1),
            w2: [row(&self.w2[0], QB, max_w2), row(&self.w2[1], QB, max_w2)],
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::best::position::replay;
    use crate::games::four3d::Peg;

    /// A network reading `inputs` with random weights of the trained sizes.
    fn random_net(seed: u64, inputs: Inputs) -> Net {
        let mut f = FloatNet::new(seed, inputs);
        let mut rng = SmallRng::seed_from_u64(seed + 1);
        for w in f.w2.iter_mut().flatten() {
            *w = rng.gen_range(-3.0..3.0);
        }
        for w in f.w1.iter_mut().flatten() {
            *w = rng.gen_range(-0.5..0.5);
        }
        f.b2 = 0.3;
        f.quantize()
    }

    #[test]
    fn the_accumulator_kept_drop_by_drop_is_the_one_computed_afresh() {
        let net = random_net(1, Inputs::Cells);
        let mut rng = SmallRng::seed_from_u64(9);
        for _ in 0..20 {
            let mut b = Board::new();
            let mut acc = net.accumulate([0, 0]);
            let mut drops = Vec::new();
            while b.outcome().is_none() && b.ply() < 40 {
                let m = b.legal_moves();
                let peg = m[rng.gen_range(0..m.len())];
                let before = b.stones(0) | b.stones(1);
                let seat = b.to_move();
                b.play(peg);
                let cell = ((b.stones(0) | b.stones(1)) & !before).trailing_zeros();
                net.place(&mut acc, cell, seat);
                drops.push((cell, seat));
                assert_eq!(acc, net.accumulate([b.stones(0), b.stones(1)]));
            }
            // Taken back in reverse: the empty board's accumulator again.
            for &(cell, seat) in drops.iter().rev() {
                net.remove(&mut acc, cell, seat);
            }
            assert_eq!(acc, net.accumulate([0, 0]));
        }
    }

    /// The float network whose weights are `q`'s exactly.
    fn dequantized(q: &Net) -> FloatNet {
        let row = |r: &[i16; HIDDEN], scale: i32| r.map(|w| f32::from(w) / scale as f32);
        FloatNet {
            inputs: q.inputs,
            w1: q.w1.iter().map(|r| row(r, QA)).collect(),
            b1: row(&q.b1, QA),
            w2: [row(&q.w2[0], QB), row(&q.w2[1], QB)],
            b2: q.b2 as f32 / (QA * QB) as f32,
        }
    }

    #[test]
    fn the_integer_network_computes_what_its_weights_say() {
        for (inputs, pegs) in [Inputs::Cells, Inputs::Pegs].into_iter().flat_map(|i| {
            [
                vec![],
                vec![0u8, 5, 5, 10, 15],
                vec![3, 3, 3, 2, 1, 0, 6, 9, 12],
                // Threats of both sides at several heights.
                vec![0, 0, 1, 1, 2, 2, 4, 5, 4, 5, 8, 10, 8, 10],
            ]
            .map(|p| (i, p))
        }) {
            let mut f = FloatNet::new(3, inputs);
            let mut rng = SmallRng::seed_from_u64(4);
            for w in f.w2.iter_mut().flatten() {
                *w = rng.gen_range(-2.0..2.0);
            }
            let q = f.quantize();
            let exact = dequantized(&q);
            let b = replay(&pegs).unwrap();
            let x = perspectives(&b, inputs);
            let int = q.value_of(&b) as f32;
            // The integer sums are exact; only the last division rounds.
            let same = exact.log_odds(&x) * SCALE as f32;
            assert!((same - int).abs() <= 1.01, "{pegs:?}: {same} vs {int}");
            // Against the float weights before rounding: near.
            let float = f.log_odds(&x) * SCALE as f32;
            assert!((float - int).abs() < 40.0, "{pegs:?}: {float} vs {int}");
        }
    }

    #[test]
    fn the_side_to_move_and_the_perspectives_swap() {
        // The same beads, each side to move in turn: the inputs of the
        // side to move in one are the other side's in the next.
        let b = replay(&[0, 1, 2]).unwrap();
        let mut c = b;
        c.play(Peg(3));
        let x = perspectives(&b, Inputs::Cells);
        let y = perspectives(&c, Inputs::Cells);
        assert_eq!((b.to_move(), c.to_move()), (1, 0));
        assert!(!x[0].contains(&(FIRST as u16)) && x[1].contains(&(FIRST as u16)));
        assert!(y[0].contains(&(FIRST as u16)) && !y[1].contains(&(FIRST as u16)));
        // Seat 1 to move in b: its beads are "mine" (cell 1) in x[0].
        assert!(x[0].contains(&(MINE as u16 + 1)) && x[1].contains(&(THEIRS as u16 + 1)));
    }

    #[test]
    fn the_kept_peg_network_reads() {
        // The network of the figures in docs/four3d-results.md (issue 59),
        // `best`'s by default.
        let net = Net::shipped();
        assert_eq!(net.inputs(), Inputs::Pegs);
        // It is not all zeros: it moves some position's value.
        let b = replay(&[0, 0, 1, 1, 2, 2, 4, 5, 4, 5, 8, 10, 8, 10]).unwrap();
        assert_ne!(net.value_of(&b), 0);
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let pegs = random_net(6, Inputs::Pegs);
        let text = pegs.to_json("test");
        assert_eq!(Net::from_json(&text).unwrap(), pegs);
        assert_eq!(pegs.inputs(), Inputs::Pegs);
        // A file that says pegs must hold their rows.
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["w1"].as_array_mut().unwrap().truncate(INPUTS);
        assert!(Net::from_json(&v.to_string()).unwrap_err().contains("Pegs"));
        let net = random_net(5, Inputs::Cells);
        let text = net.to_json("test");
        assert_eq!(Net::from_json(&text).unwrap(), net);
        // The first networks' files name no inputs: they read the cells.
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v.as_object_mut().unwrap().remove("inputs");
        assert_eq!(Net::from_json(&v.to_string()).unwrap(), net);
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["hidden"] = 16.into();
        assert!(Net::from_json(&v.to_string())
            .unwrap_err()
            .contains("hidden"));
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["w1"][3][0] = 30000.into();
        assert!(Net::from_json(&v.to_string()).is_err());
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["w1"].as_array_mut().unwrap().pop();
        assert!(Net::from_json(&v.to_string()).is_err());
        assert!(Net::from_json("{").is_err());
    }

    /// The peg inputs of a perspective computed the slow way, cell by cell
    /// from coordinates, for [`for_each_peg_input`] to be checked against.
    fn peg_inputs_by_cells(occupied: u64, t_mine: u64, t_theirs: u64, first: bool) -> Vec<usize> {
        let mut out = Vec::new();
        for peg in 0..16u32 {
            let at = |bits: u64, z: u32| bits >> (peg + 16 * z) & 1 == 1;
            let h = (0..4).filter(|&z| at(occupied, z)).count() as u32;
            let lowest = |bits: u64| (0..4).find(|&z| at(bits, z));
            let (m, t) = (lowest(t_mine), lowest(t_theirs));
            if m.is_none() && t.is_none() {
                continue;
            }
            // The index by enumeration: fill heights below, then (m, t).
            let mut index = if first { PEG_CONFIGS } else { 0 };
            index += (0..h).map(|g| ((5 - g) * (5 - g)) as usize).sum::<usize>();
            let rank = |z: Option<u32>| z.map_or(0, |z| z - h + 1) as usize;
            index += rank(m) * (5 - h as usize) + rank(t);
            out.push(INPUTS + index);
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn peg_inputs_say_each_pegs_fill_and_lowest_threats() {
        // By hand: seat 0 holds cells 0, 1, 2 (a threat on cell 3, peg 3,
        // at height 0) and seat 1 cells 16, 17, 18 above them (a threat on
        // cell 19, peg 3 at height 1). Peg 3 is empty: fill 0, seat 0's
        // lowest threat at height 0 (rank 1), seat 1's at 1 (rank 2).
        let (a, b) = (0b111u64, 0b111u64 << 16);
        let empty = !(a | b);
        let (ta, tb) = (threats(a, empty), threats(b, empty));
        assert_eq!((ta, tb), (1 << 3, 1 << 19));
        let mut got = Vec::new();
        for_each_peg_input(a | b, ta, tb, true, |i| got.push(i));
        assert_eq!(got, vec![INPUTS + PEG_CONFIGS + 5 + 2]);
        got.clear();
        for_each_peg_input(a | b, tb, ta, false, |i| got.push(i));
        assert_eq!(got, vec![INPUTS + 2 * 5 + 1]);
        // Against the slow way on positions of random games, both seats.
        let mut rng = SmallRng::seed_from_u64(21);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..300 {
            let mut b = Board::new();
            let n = rng.gen_range(10..50);
            while b.ply() < n && b.outcome().is_none() {
                let m = b.legal_moves();
                b.play(m[rng.gen_range(0..m.len())]);
            }
            let (s0, s1) = (b.stones(0), b.stones(1));
            let empty = !(s0 | s1);
            let (t0, t1) = (threats(s0, empty), threats(s1, empty));
            for (mine, theirs, first) in [(t0, t1, true), (t1, t0, false)] {
                let mut fast = Vec::new();
                for_each_peg_input(s0 | s1, mine, theirs, first, |i| fast.push(i));
                fast.sort_unstable();
                assert_eq!(fast, peg_inputs_by_cells(s0 | s1, mine, theirs, first));
                assert!(fast.iter().all(|&i| i < Inputs::Pegs.count()));
                seen.extend(fast);
            }
            // The network's inputs hold them after the cells'.
            let x = perspectives(&b, Inputs::Pegs);
            let cells = perspectives(&b, Inputs::Cells);
            assert_eq!(x[0][..cells[0].len()], cells[0][..]);
        }
        // Many configurations met, not a few.
        assert!(seen.len() > 40, "{}", seen.len());
    }
}
