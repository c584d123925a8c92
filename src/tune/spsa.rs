//! Simultaneous perturbation stochastic approximation (Spall 1992), with
//! the per-parameter gains of OpenBench's tuner. Pure: no clock, no I/O, the
//! random signs drawn from a seed.
//!
//! Iteration `k` (1-based) of `N` perturbs every parameter at once by
//! `± c_k` (one random sign per parameter), plays the two settings against
//! each other (or each against a fixed opponent), and moves every parameter
//! by `a_k / c_k · result · sign`, where `result` is the `+` setting's
//! wins minus losses. The gain sequences are the literature's:
//!
//! - `c_k = c / k^γ` with `γ = 0.101`, and `c = c_end · N^γ` so that the
//!   last perturbation is the parameter's `c_end` (its declared step);
//! - `a_k = a / (A + k)^α` with `α = 0.602`, `A` a tenth of `N` (a
//!   stability constant: the first steps are not the largest), and
//!   `a = r_end · c_end² · (A + N)^α`, so that `a_N / c_N² = r_end`, the
//!   final learning rate (OpenBench's `R_end`).
//!
//! A parameter stays within its range; a whole-number parameter moves as a
//! real number and is rounded only when an agent is built.
//!
//! OpenBench's `r_end` of 0.002 suits its runs of 10,000 iterations and
//! more; over a run of a few hundred it moves nothing. [`Gains::r_end_for`]
//! scales it to the run: the distance a parameter could travel if one
//! setting won every pair by one game (the sum of `a_k / c_k`, about `1.48
//! N r_end` steps) is kept at what such a long run allows.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::seed::derive_seed;

/// The literature's exponents and OpenBench's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gains {
    /// `a_k`'s decay exponent.
    pub alpha: f64,
    /// `c_k`'s decay exponent.
    pub gamma: f64,
    /// `A` as a share of the iterations.
    pub a_share: f64,
    /// The final learning rate `r_end = a_N / c_N²`.
    pub r_end: f64,
}

/// Iterations of the run OpenBench's `r_end` (0.002) is made for.
pub const LONG_RUN: u32 = 10_000;

impl Gains {
    /// The default `r_end` of a run of `iterations`: OpenBench's 0.002 for
    /// runs of [`LONG_RUN`] iterations or more, and `0.002 * LONG_RUN / N`
    /// for shorter ones, so that a short run can move a parameter as many
    /// steps as a long one (about 30 if one setting won every pair by a
    /// game).
    pub fn r_end_for(iterations: u32) -> f64 {
        let base = Gains::default().r_end;
        base * f64::from(LONG_RUN) / f64::from(iterations.clamp(1, LONG_RUN))
    }
}

impl Default for Gains {
    fn default() -> Self {
        Gains {
            alpha: 0.602,
            gamma: 0.101,
            a_share: 0.1,
            r_end: 0.002,
        }
    }
}

/// One parameter being tuned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    pub name: String,
    pub lo: f64,
    pub hi: f64,
    /// The last perturbation, `c_end` (the declared or given step).
    pub c_end: f64,
    /// A whole number (rounded when given to an agent).
    pub int: bool,
    /// The current value.
    pub value: f64,
}

impl Tuned {
    fn clamp(&self, x: f64) -> f64 {
        x.clamp(self.lo, self.hi)
    }

    /// The value an agent is given for `x`: clamped, rounded if whole.
    pub fn shown(&self, x: f64) -> f64 {
        let x = self.clamp(x);
        if self.int {
            x.round()
        } else {
            x
        }
    }
}

/// The tuner's state between iterations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    pub params: Vec<Tuned>,
    pub gains: Gains,
    /// Iterations planned, `N`.
    pub iterations: u32,
    /// The seed of the random signs.
    pub seed: u64,
}

/// One iteration's two settings and signs.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub k: u32,
    /// +1 or -1 for each parameter.
    pub signs: Vec<f64>,
    /// The values of the `+` and `-` settings (clamped, not rounded).
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

impl Spsa {
    fn n(&self) -> f64 {
        f64::from(self.iterations.max(1))
    }

    fn big_a(&self) -> f64 {
        self.gains.a_share * self.n()
    }

    /// `c_k` of parameter `p`.
    pub fn c_k(&self, p: &Tuned, k: u32) -> f64 {
        let g = self.gains.gamma;
        p.c_end * self.n().powf(g) / f64::from(k.max(1)).powf(g)
    }

    /// `a_k` of parameter `p`.
    pub fn a_k(&self, p: &Tuned, k: u32) -> f64 {
        let (al, big_a) = (self.gains.alpha, self.big_a());
        let a = self.gains.r_end * p.c_end * p.c_end * (big_a + self.n()).powf(al);
        a / (big_a + f64::from(k.max(1))).powf(al)
    }

    /// How far (in steps `c_end`) a parameter could travel over the whole
    /// run if the `+` setting won every iteration by one game: the sum of
    /// `a_k / c_k`, over `c_end`.
    pub fn travel(&self) -> f64 {
        let unit = Tuned {
            name: String::new(),
            lo: 0.0,
            hi: 1.0,
            c_end: 1.0,
            int: false,
            value: 0.0,
        };
        (1..=self.iterations.max(1))
            .map(|k| self.a_k(&unit, k) / self.c_k(&unit, k))
            .sum()
    }

    /// The signs and the two settings of iteration `k` (from the seed and
    /// `k` alone: the same on a resumed run).
    pub fn perturb(&self, k: u32) -> Perturbation {
        let mut rng = SmallRng::seed_from_u64(derive_seed(self.seed, u64::from(k), 0x5B5A));
        let signs: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.gen_bool(0.5) { 1.0 } else { -1.0 })
            .collect();
        let (mut plus, mut minus) = (Vec::new(), Vec::new());
        for (p, s) in self.params.iter().zip(&signs) {
            let c = self.c_k(p, k);
            plus.push(p.clamp(p.value + c * s));
            minus.push(p.clamp(p.value - c * s));
        }
        Perturbation {
            k,
            signs,
            plus,
            minus,
        }
    }

    /// Moves every parameter by iteration `k`'s `result` (the `+`
    /// setting's wins minus losses against the `-` one).
    pub fn update(&mut self, pert: &Perturbation, result: f64) {
        let k = pert.k;
        let steps: Vec<f64> = self
            .params
            .iter()
            .zip(&pert.signs)
            .map(|(p, s)| self.a_k(p, k) / self.c_k(p, k) * result * s)
            .collect();
        for (p, step) in self.params.iter_mut().zip(steps) {
            p.value = p.clamp(p.value + step);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spsa(r_end: f64) -> Spsa {
        Spsa {
            params: vec![Tuned {
                name: "x".into(),
                lo: -10.0,
                hi: 10.0,
                c_end: 0.5,
                int: false,
                value: 5.0,
            }],
            gains: Gains {
                r_end,
                ..Gains::default()
            },
            iterations: 1000,
            seed: 7,
        }
    }

    #[test]
    fn the_gains_end_at_the_step_and_the_final_rate() {
        let s = spsa(0.002);
        let p = &s.params[0];
        assert!((s.c_k(p, 1000) - 0.5).abs() < 1e-12);
        assert!((s.a_k(p, 1000) / s.c_k(p, 1000).powi(2) - 0.002).abs() < 1e-12);
        // Both decrease with k; c_1 = c_end * N^gamma.
        assert!((s.c_k(p, 1) - 0.5 * 1000f64.powf(0.101)).abs() < 1e-12);
        assert!(s.a_k(p, 1) > s.a_k(p, 2) && s.c_k(p, 1) > s.c_k(p, 2));
    }

    #[test]
    fn perturbations_are_symmetric_clamped_and_repeatable() {
        let s = spsa(0.002);
        let a = s.perturb(3);
        assert_eq!(a, s.perturb(3));
        let c = s.c_k(&s.params[0], 3);
        assert!((a.plus[0] - (5.0 + c * a.signs[0])).abs() < 1e-12);
        assert!((a.minus[0] - (5.0 - c * a.signs[0])).abs() < 1e-12);
        let signs: Vec<f64> = (1..200).map(|k| s.perturb(k).signs[0]).collect();
        assert!(signs.contains(&1.0) && signs.contains(&-1.0));
        let mut edge = spsa(0.002);
        edge.params[0].value = 10.0;
        let e = edge.perturb(1);
        assert!(e.plus[0] <= 10.0 && e.minus[0] <= 10.0);
    }

    /// A noiseless objective with its optimum at 2: the `+` setting wins
    /// when it is nearer to 2. SPSA walks there from 5 and from -8.
    #[test]
    fn it_finds_the_optimum_of_a_known_objective() {
        for start in [5.0, -8.0] {
            let mut s = spsa(0.5);
            s.params[0].value = start;
            for k in 1..=1000 {
                let p = s.perturb(k);
                let d = |x: f64| (x - 2.0).abs();
                let result = (d(p.minus[0]) - d(p.plus[0])).signum();
                s.update(&p, result);
            }
            assert!(
                (s.params[0].value - 2.0).abs() < 0.6,
                "{start}: {}",
                s.params[0].value
            );
        }
    }

    /// OpenBench's 0.002 lets a 200-iteration run travel under one step
    /// (what a new user's `tune --games 400` met: nothing moved); the
    /// default scaled to the run lets every length travel as far as a
    /// 10,000-iteration run does.
    #[test]
    fn the_default_rate_lets_a_short_run_travel_as_far_as_a_long_one() {
        let travel = |n: u32, r_end: f64| {
            let mut s = spsa(r_end);
            s.iterations = n;
            s.travel()
        };
        assert!(travel(200, 0.002) < 1.0, "{}", travel(200, 0.002));
        let long = travel(LONG_RUN, 0.002);
        assert!((25.0..35.0).contains(&long), "{long}");
        for n in [10, 50, 200, 1000, 5000] {
            let t = travel(n, Gains::r_end_for(n));
            assert!((t / long - 1.0).abs() < 0.08, "{n}: {t} vs {long}");
        }
        assert_eq!(Gains::r_end_for(LONG_RUN), 0.002);
        assert_eq!(Gains::r_end_for(50_000), 0.002);
    }

    #[test]
    fn whole_numbers_are_rounded_when_shown() {
        let t = Tuned {
            name: "n".into(),
            lo: 1.0,
            hi: 9.0,
            c_end: 1.0,
            int: true,
            value: 3.0,
        };
        assert_eq!(t.shown(3.6), 4.0);
        assert_eq!(t.shown(12.0), 9.0);
    }
}
