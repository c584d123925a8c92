//! Training of the network that `best` adds to its fitted evaluation
//! ([`ladderbot::games::four3d::best::nnue`]): examples of labelled
//! positions, and Adam on minibatches in floats; the engine quantizes the
//! result ([`FloatNet::quantize`]) into the network it ships.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use ladderbot::games::four3d::best::fitted::{fitted_value, Model, SCALE};
use ladderbot::games::four3d::best::nnue::{
    perspectives, FloatNet, Inputs, HIDDEN, MAX_B1, MAX_W1,
};
use ladderbot::games::four3d::Board;

/// One training position: both perspectives' inputs (the side to move's
/// first), the linear model's log-odds, and the label (the side to
/// move's result, or a win share).
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub inputs: [Vec<u16>; 2],
    pub base: f32,
    pub label: f32,
}

impl Example {
    pub fn new(b: &Board, label: f64, model: &Model, inputs: Inputs) -> Self {
        Example {
            inputs: perspectives(b, inputs),
            base: (fitted_value(model, b) / SCALE) as f32,
            label: label as f32,
        }
    }
}

/// How [`train`] runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step size.
    pub lr: f32,
    /// L2 penalty on the weights (not the biases).
    pub l2: f32,
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch: 256,
            lr: 0.002,
            l2: 1e-6,
            seed: 1,
        }
    }
}

/// The mean log loss of `sigmoid(base + net)` against the labels.
pub fn log_loss(net: &FloatNet, examples: &[Example]) -> f64 {
    let mut loss = 0.0;
    for e in examples {
        let y = sigmoid(e.base + net.log_odds(&e.inputs)).clamp(1e-7, 1.0 - 1e-7);
        loss -= f64::from(e.label * y.ln() + (1.0 - e.label) * (1.0 - y).ln());
    }
    loss / examples.len().max(1) as f64
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adam's moments of one parameter array.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Self {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One Adam step of `params` along `grads` (step `t` from 1).
    fn step(&mut self, params: &mut [f32], grads: &[f32], lr: f32, t: i32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grads)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// Trains a network reading `inputs` on `examples` (minibatches in an order shuffled each
/// epoch from the seed; deterministic), calling `epoch_done(epoch, loss,
/// net)` with the mean training loss of each epoch and the network after
/// it (for an early stop on a validation set).
pub fn train(
    examples: &[Example],
    inputs: Inputs,
    cfg: &TrainConfig,
    mut epoch_done: impl FnMut(usize, f64, &FloatNet),
) -> FloatNet {
    let mut net = FloatNet::new(cfg.seed, inputs);
    let rows = inputs.count();
    let mut rng = SmallRng::seed_from_u64(cfg.seed ^ 0x5eed);
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let (mut m_w1, mut m_b1, mut m_w2, mut m_b2) = (
        Moments::new(rows * HIDDEN),
        Moments::new(HIDDEN),
        Moments::new(2 * HIDDEN),
        Moments::new(1),
    );
    let mut g_w1 = vec![0f32; rows * HIDDEN];
    let mut t = 0;
    for epoch in 0..cfg.epochs {
        // Fisher-Yates from our generator (deterministic across platforms).
        for i in (1..order.len()).rev() {
            order.swap(i, rng.gen_range(0..=i));
        }
        let mut epoch_loss = 0.0;
        for batch in order.chunks(cfg.batch.max(1)) {
            g_w1.iter_mut().for_each(|g| *g = 0.0);
            let mut g_b1 = [0f32; HIDDEN];
            let mut g_w2 = [[0f32; HIDDEN]; 2];
            let mut g_b2 = 0f32;
            let scale = 1.0 / batch.len() as f32;
            for &k in batch {
                let e = &examples[k];
                let h = net.hidden(&e.inputs);
                let mut out = e.base + net.b2;
                for (hp, w2) in h.iter().zip(&net.w2) {
                    for (&a, &w) in hp.iter().zip(w2) {
                        out += a.clamp(0.0, 1.0) * w;
                    }
                }
                let y = sigmoid(out);
                let yc = y.clamp(1e-7, 1.0 - 1e-7);
                epoch_loss -= f64::from(e.label * yc.ln() + (1.0 - e.label) * (1.0 - yc).ln());
                let d = (y - e.label) * scale;
                g_b2 += d;
                for (p, hp) in h.iter().enumerate() {
                    for (j, &a) in hp.iter().enumerate() {
                        g_w2[p][j] += d * a.clamp(0.0, 1.0);
                        if a > 0.0 && a < 1.0 {
                            let g = d * net.w2[p][j];
                            g_b1[j] += g;
                            for &i in &e.inputs[p] {
                                g_w1[i as usize * HIDDEN + j] += g;
                            }
                        }
                    }
                }
            }
            t += 1;
            let mut w1: Vec<f32> = net.w1.iter().flatten().copied().collect();
            for (g, &w) in g_w1.iter_mut().zip(&w1) {
                *g += cfg.l2 * w;
            }
            m_w1.step(&mut w1, &g_w1, cfg.lr, t);
            for (row, chunk) in net.w1.iter_mut().zip(w1.chunks(HIDDEN)) {
                for (w, &x) in row.iter_mut().zip(chunk) {
                    *w = x.clamp(-MAX_W1, MAX_W1);
                }
            }
            m_b1.step(&mut net.b1, &g_b1, cfg.lr, t);
            net.b1
                .iter_mut()
                .for_each(|b| *b = b.clamp(-MAX_B1, MAX_B1));
            let mut w2: Vec<f32> = net.w2.iter().flatten().copied().collect();
            let mut gw2: Vec<f32> = g_w2.iter().flatten().copied().collect();
            for (g, &w) in gw2.iter_mut().zip(&w2) {
                *g += cfg.l2 * w;
            }
            m_w2.step(&mut w2, &gw2, cfg.lr, t);
            for (row, chunk) in net.w2.iter_mut().zip(w2.chunks(HIDDEN)) {
                row.copy_from_slice(chunk);
            }
            let mut b2 = [net.b2];
            m_b2.step(&mut b2, &[g_b2], cfg.lr, t);
            net.b2 = b2[0];
        }
        epoch_done(epoch, epoch_loss / examples.len().max(1) as f64, &net);
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladderbot::games::four3d::best::fitted::FEATURES;
    use ladderbot::search::Game as _;

    #[test]
    fn training_learns_what_the_linear_model_misses() {
        // Labels that depend on one cell only, which no linear feature
        // sees: the side to move wins when it holds cell 5. The network
        // learns it; its loss falls well below the start's.
        let zero = [0.0; FEATURES];
        let model = Model::new(zero, zero);
        let mut rng = SmallRng::seed_from_u64(2);
        let mut boards = Vec::new();
        let mut examples = Vec::new();
        while examples.len() < 2000 {
            let mut b = Board::new();
            let n = rng.gen_range(4..20);
            while b.ply() < n && b.outcome().is_none() {
                let m = b.legal_moves();
                b.play(m[rng.gen_range(0..m.len())]);
            }
            if b.outcome().is_some() {
                continue;
            }
            let holds = b.stones(b.to_move()) >> 5 & 1 == 1;
            examples.push(Example::new(
                &b,
                if holds { 0.9 } else { 0.1 },
                &model,
                Inputs::Cells,
            ));
            boards.push((b, holds));
        }
        let cfg = TrainConfig {
            epochs: 15,
            batch: 32,
            lr: 0.01,
            ..TrainConfig::default()
        };
        let start = log_loss(&FloatNet::new(cfg.seed, Inputs::Cells), &examples);
        let mut losses = Vec::new();
        let mut after = Vec::new();
        let net = train(&examples, Inputs::Cells, &cfg, |_, l, n| {
            losses.push(l);
            after.push(n.clone());
        });
        assert_eq!(losses.len(), 15);
        let end = log_loss(&net, &examples);
        // The best possible is the labels' entropy, 0.325.
        assert!(end < 0.36 && start > 0.6, "{start} -> {end}");
        // Deterministic.
        assert_eq!(train(&examples, Inputs::Cells, &cfg, |_, _, _| ()), net);
        // The network handed over after the last epoch is the one returned,
        // and the first epoch's is another.
        assert_eq!(after.last(), Some(&net));
        assert_ne!(after[0], net);
        // The integer network, run as the search runs it, tells the two
        // apart: positive when the side to move holds cell 5.
        let q = net.quantize();
        let right = boards
            .iter()
            .filter(|(b, holds)| (q.value_of(b) > 0) == *holds)
            .count();
        assert!(
            right * 100 >= boards.len() * 97,
            "{right} of {}",
            boards.len()
        );
    }
}
