//! A model of choices (a conditional logit): each alternative of a decision
//! has a feature vector, and the probability of choosing one is the softmax
//! of `w . x` over the decision's alternatives. Fitted, like
//! [`super::logistic`], by damped Newton steps on the mean log loss of the
//! choices made plus an L2 pull towards a prior: deterministic, no
//! learning rate. Written once for every game whose move preferences are
//! learned (Geister's playout policy).

use super::logistic::{damped_newton, dot};

/// One decision: its alternatives' features and the one chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<const N: usize> {
    pub alternatives: Vec<[f64; N]>,
    pub chosen: usize,
}

/// The probabilities the weights `w` give the alternatives.
pub fn probabilities<const N: usize>(w: &[f64; N], alternatives: &[[f64; N]]) -> Vec<f64> {
    let z: Vec<f64> = alternatives.iter().map(|x| dot(w, x)).collect();
    let top = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|v| (v - top).exp()).collect();
    let total: f64 = e.iter().sum();
    e.into_iter().map(|v| v / total).collect()
}

/// Mean log loss (natural log) of the choices under `w`; decisions with
/// fewer than two alternatives tell nothing and are skipped.
pub fn log_loss<const N: usize>(w: &[f64; N], choices: &[Choice<N>]) -> f64 {
    let mut total = 0.0;
    let mut n = 0usize;
    for c in choices.iter().filter(|c| c.alternatives.len() > 1) {
        let p = probabilities(w, &c.alternatives);
        total -= p[c.chosen].max(1e-300).ln();
        n += 1;
    }
    total / n.max(1) as f64
}

/// The share of decisions whose chosen alternative is the one `w` prefers.
pub fn top_one<const N: usize>(w: &[f64; N], choices: &[Choice<N>]) -> f64 {
    let mut hit = 0usize;
    let mut n = 0usize;
    for c in choices.iter().filter(|c| c.alternatives.len() > 1) {
        let p = probabilities(w, &c.alternatives);
        let best = (0..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b]));
        hit += usize::from(best == Some(c.chosen));
        n += 1;
    }
    hit as f64 / n.max(1) as f64
}

/// Fits the weights by damped Newton steps on the mean log loss of the
/// choices plus `l2`/2 times the squared distance from `prior`, starting at
/// `prior` ([`super::logistic::damped_newton`]). A constant feature cannot
/// be learned (the softmax cancels it): the L2 term keeps it at its prior.
#[allow(clippy::needless_range_loop)] // index algebra reads best as indices
pub fn fit_toward<const N: usize>(choices: &[Choice<N>], prior: &[f64; N], l2: f64) -> [f64; N] {
    let used: Vec<Choice<N>> = choices
        .iter()
        .filter(|c| c.alternatives.len() > 1 && c.chosen < c.alternatives.len())
        .cloned()
        .collect();
    let n = used.len().max(1) as f64;
    damped_newton(
        prior,
        l2,
        |w| {
            let mut grad = [0.0; N];
            let mut hess = [[0.0; N]; N];
            for c in &used {
                let p = probabilities(w, &c.alternatives);
                // Mean features under the model.
                let mut mean = [0.0; N];
                for (x, pk) in c.alternatives.iter().zip(&p) {
                    for i in 0..N {
                        mean[i] += pk * x[i];
                    }
                }
                let chosen = &c.alternatives[c.chosen];
                for i in 0..N {
                    grad[i] += (mean[i] - chosen[i]) / n;
                }
                // The covariance of the features under the model.
                for (x, pk) in c.alternatives.iter().zip(&p) {
                    for i in 0..N {
                        let di = x[i] - mean[i];
                        if di == 0.0 {
                            continue;
                        }
                        for j in i..N {
                            hess[i][j] += pk * di * (x[j] - mean[j]) / n;
                        }
                    }
                }
            }
            (grad, hess)
        },
        |w| log_loss(w, &used),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Decisions among 2..8 alternatives with random features, chosen by
    /// the softmax of `truth`.
    fn drawn(truth: &[f64; 3], n: usize, seed: u64) -> Vec<Choice<3>> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let k = rng.gen_range(2..8);
                let alternatives: Vec<[f64; 3]> = (0..k)
                    .map(|_| {
                        [
                            f64::from(rng.gen::<bool>()),
                            rng.gen_range(-1.0..1.0),
                            f64::from(rng.gen::<bool>()),
                        ]
                    })
                    .collect();
                let p = probabilities(truth, &alternatives);
                let mut r = rng.gen::<f64>();
                let chosen = p
                    .iter()
                    .position(|&q| {
                        r -= q;
                        r < 0.0
                    })
                    .unwrap_or(k - 1);
                Choice {
                    alternatives,
                    chosen,
                }
            })
            .collect()
    }

    #[test]
    fn a_fit_recovers_the_weights_that_drew_the_choices() {
        let truth = [1.2, -0.8, 0.4];
        let choices = drawn(&truth, 20_000, 5);
        let w = fit_toward(&choices, &[0.0; 3], 0.0);
        for (a, b) in w.iter().zip(&truth) {
            assert!((a - b).abs() < 0.12, "{w:?} vs {truth:?}");
        }
        assert!(log_loss(&w, &choices) <= log_loss(&truth, &choices) + 1e-9);
        assert!(log_loss(&w, &choices) < log_loss(&[0.0; 3], &choices));
        assert!(top_one(&w, &choices) > top_one(&[-1.2, 0.8, -0.4], &choices));
    }

    #[test]
    fn a_strong_pull_keeps_the_prior_and_single_alternatives_are_skipped() {
        let choices = drawn(&[2.0, 0.0, 0.0], 2_000, 6);
        let prior = [0.5, 0.1, -0.2];
        let w = fit_toward(&choices, &prior, 1e6);
        for (a, b) in w.iter().zip(&prior) {
            assert!((a - b).abs() < 1e-3, "{w:?}");
        }
        let lone = vec![Choice {
            alternatives: vec![[1.0, 1.0, 1.0]],
            chosen: 0,
        }];
        assert_eq!(fit_toward(&lone, &prior, 0.1), prior);
        assert_eq!(log_loss(&prior, &lone), 0.0);
    }
}
