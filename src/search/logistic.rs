//! L2-regularised logistic regression fitted by damped Newton steps
//! (deterministic, no learning rate to tune), written once for every game
//! that fits a linear model of log-odds: Geister's belief model and Score
//! Four's evaluation.
//!
//! A sample is a feature vector and a target in `0..=1` (a label, or a
//! soft one such as a drawn game's 1/2).

/// One training sample of `N` features.
pub trait Labelled<const N: usize> {
    fn x(&self) -> &[f64; N];
    /// The target probability, in `0..=1`.
    fn y(&self) -> f64;
}

impl<const N: usize> Labelled<N> for ([f64; N], f64) {
    fn x(&self) -> &[f64; N] {
        &self.0
    }
    fn y(&self) -> f64 {
        self.1
    }
}

/// The logistic function, stable for large `|z|`.
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// `w . x`.
#[inline]
pub fn dot<const N: usize>(w: &[f64; N], x: &[f64; N]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// Mean log loss (natural log) of weights `w` on `samples`.
pub fn log_loss<const N: usize, S: Labelled<N>>(w: &[f64; N], samples: &[S]) -> f64 {
    let mut total = 0.0;
    for s in samples {
        let p = sigmoid(dot(w, s.x())).clamp(1e-12, 1.0 - 1e-12);
        let y = s.y();
        total -= if y >= 1.0 {
            p.ln()
        } else if y <= 0.0 {
            (1.0 - p).ln()
        } else {
            y * p.ln() + (1.0 - y) * (1.0 - p).ln()
        };
    }
    total / samples.len().max(1) as f64
}

/// The mean log loss plus `reg`/2 times the squared distance of `w` from
/// `prior`: what [`fit_toward`] minimises.
pub fn objective<const N: usize, S: Labelled<N>>(
    samples: &[S],
    w: &[f64; N],
    prior: &[f64; N],
    reg: f64,
) -> f64 {
    let penalty: f64 = w.iter().zip(prior).map(|(a, b)| (a - b) * (a - b)).sum();
    log_loss(w, samples) + 0.5 * reg * penalty
}

/// Fits the weights by Newton's method on the mean log loss plus `l2`/2
/// times the squared distance of the weights from `prior` (a Gaussian prior
/// centred there), starting at `prior`, until a step changes no weight by
/// more than 1e-9 (at most 50 steps).
#[allow(clippy::needless_range_loop)] // index algebra reads best as indices
pub fn fit_toward<const N: usize, S: Labelled<N>>(
    samples: &[S],
    prior: &[f64; N],
    l2: f64,
) -> [f64; N] {
    let n = samples.len().max(1) as f64;
    damped_newton(
        prior,
        l2,
        |w| {
            let mut grad = [0.0; N];
            let mut hess = [[0.0; N]; N];
            for s in samples {
                let x = s.x();
                let p = sigmoid(dot(w, x));
                let r = p - s.y();
                let h = p * (1.0 - p);
                for i in 0..N {
                    if x[i] == 0.0 {
                        continue;
                    }
                    grad[i] += r * x[i] / n;
                    for j in i..N {
                        hess[i][j] += h * x[i] * x[j] / n;
                    }
                }
            }
            (grad, hess)
        },
        |w| log_loss(w, samples),
    )
}

/// Minimises `loss(w)` plus `l2`/2 times the squared distance of `w` from
/// `prior` by damped Newton steps from `prior`: `derivatives(w)` gives the
/// loss's gradient and the upper triangle of its Hessian; each step is
/// halved until the objective does not grow (a plain Newton step can
/// overshoot from a start far from the optimum, e.g. a prior that is
/// confidently wrong on the data), until no weight moves by more than 1e-9
/// (at most 50 steps). Shared by every model fitted this way.
#[allow(clippy::needless_range_loop)]
pub(crate) fn damped_newton<const N: usize>(
    prior: &[f64; N],
    l2: f64,
    derivatives: impl Fn(&[f64; N]) -> ([f64; N], [[f64; N]; N]),
    loss: impl Fn(&[f64; N]) -> f64,
) -> [f64; N] {
    // A whisker of ridge keeps the system solvable with l2 = 0.
    let reg = l2.max(1e-9);
    let objective = |w: &[f64; N]| {
        let penalty: f64 = w.iter().zip(prior).map(|(a, b)| (a - b) * (a - b)).sum();
        loss(w) + 0.5 * reg * penalty
    };
    let mut w = *prior;
    for _ in 0..50 {
        let (mut grad, mut hess) = derivatives(&w);
        for i in 0..N {
            for j in 0..i {
                hess[i][j] = hess[j][i];
            }
            grad[i] += reg * (w[i] - prior[i]);
            hess[i][i] += reg;
        }
        let step = solve(hess, grad);
        let before = objective(&w);
        let mut t = 1.0;
        let mut next = w;
        loop {
            for i in 0..N {
                next[i] = w[i] - t * step[i];
            }
            if objective(&next) <= before || t < 1e-6 {
                break;
            }
            t *= 0.5;
        }
        let largest = (0..N)
            .map(|i| (next[i] - w[i]).abs())
            .fold(0.0f64, f64::max);
        w = next;
        if largest < 1e-9 {
            break;
        }
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is
/// symmetric positive definite here); a singular pivot gives a zero step.
#[allow(clippy::needless_range_loop)]
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-15 {
            continue;
        }
        for row in col + 1..N {
            let f = a[row][col] / d;
            if f == 0.0 {
                continue;
            }
            for k in col..N {
                a[row][k] -= f * a[col][k];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; N];
    for col in (0..N).rev() {
        let d = a[col][col];
        if d.abs() < 1e-15 {
            continue;
        }
        let s: f64 = (col + 1..N).map(|k| a[col][k] * x[k]).sum();
        x[col] = (b[col] - s) / d;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn a_fit_recovers_the_weights_that_drew_the_labels() {
        let truth = [0.5, -1.5, 2.0];
        let mut rng = SmallRng::seed_from_u64(3);
        let samples: Vec<([f64; 3], f64)> = (0..20_000)
            .map(|_| {
                let x = [1.0, rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)];
                let y = (rng.gen::<f64>() < sigmoid(dot(&truth, &x))) as u8 as f64;
                (x, y)
            })
            .collect();
        let w = fit_toward(&samples, &[0.0; 3], 0.0);
        for (a, b) in w.iter().zip(&truth) {
            assert!((a - b).abs() < 0.15, "{w:?} vs {truth:?}");
        }
        assert!(log_loss(&w, &samples) <= log_loss(&truth, &samples) + 1e-9);
    }

    #[test]
    fn soft_targets_of_one_half_pull_towards_even_odds() {
        // Every sample has the same feature and a target of 1/2: the fitted
        // log-odds is 0.
        let samples: Vec<([f64; 1], f64)> = (0..100).map(|_| ([1.0], 0.5)).collect();
        let w = fit_toward(&samples, &[3.0], 0.0);
        assert!(w[0].abs() < 1e-6, "{w:?}");
    }
}
