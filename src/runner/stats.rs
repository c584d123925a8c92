//! Match statistics: score, Elo with a 95% interval, likelihood of
//! superiority and the sequential probability ratio test. Pure functions, no
//! dependencies.
//!
//! The interval and the SPRT rest on one model of the observations, as in
//! fishtest and fastchess ([`Model`]): each game scores 0, 1/2 or 1
//! (trinomial), or each pair of games from the same start with the seats
//! swapped scores 0, 1/4, 1/2, 3/4 or 1 (pentanomial, the pair's points
//! halved). A [`Sample`] holds the counts of each outcome. For a mean score
//! `s`, the maximum-likelihood distribution among those with mean `s` is
//! `p_i = p̂_i / (1 + λ (x_i - s))` (p̂ the observed frequencies, x_i the
//! outcome scores, λ from a 1-D root find; Van den Bergh's constrained MLE),
//! and [`Sample::deficit`] is how much lower its log-likelihood is than the
//! observed distribution's. Then
//! - the SPRT's log-likelihood ratio (the GSPRT of fishtest) is
//!   `deficit(s0) - deficit(s1)` for the expected scores s0, s1 of the two
//!   Elo bounds ([`Sample::llr`]);
//! - the 95% interval of the mean score is the likelihood-ratio one,
//!   `{s : 2 deficit(s) <= 3.8415}` ([`Sample::score_interval`]), mapped to
//!   Elo; for many games it is the usual mean ± 1.96 standard errors.
//!
//! Outcomes never seen count 0 in the likelihood but may carry mass in the
//! constrained distribution (5 wins out of 5 against `s = 0.5` puts half the
//! mass on losses), so every value stays finite: no variance estimate that
//! can be zero enters anywhere.
//!
//! Conventions:
//! - With no games the score is 0.5, the LLR 0 and the score interval 0..=1.
//! - [`elo_from_score`] caps Elo at ±[`ELO_CAP`] (scores 0 and 1 give ∓/± the
//!   cap); [`elo_from_score_uncapped`] gives ±infinity there.

use serde::Serialize;

/// Largest Elo difference reported; scores of exactly 0 or 1 map to ∓/± this.
pub const ELO_CAP: f64 = 1200.0;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% quantile of the chi-squared distribution with one degree of
/// freedom (Wilks' threshold for twice the log-likelihood deficit).
pub const CHI2_95: f64 = Z95 * Z95;

/// The error function, accurate to about 1e-15 absolute.
///
/// Uses the everywhere-convergent series of positive terms
/// `erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n 2^n x^(2n+1) / (1*3*...*(2n+1))`,
/// which has no cancellation; beyond |x| = 6, erf is ±1 to within 1e-16.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    if a >= 6.0 {
        return x.signum();
    }
    let two_x2 = 2.0 * a * a;
    let mut term = a;
    let mut sum = a;
    let mut n = 0u32;
    loop {
        n += 1;
        term *= two_x2 / (2 * n + 1) as f64;
        sum += term;
        if term <= sum * 1e-17 || n > 2000 {
            break;
        }
    }
    let r = (2.0 / std::f64::consts::PI.sqrt()) * (-a * a).exp() * sum;
    r.min(1.0).copysign(x)
}

/// The standard normal cumulative distribution function.
pub fn phi(z: f64) -> f64 {
    0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2))
}

/// Expected score for an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for a score in 0..=1: `-400 * log10(1/s - 1)`, so 0 and 1
/// give -infinity and +infinity (NaN gives 0). Never -0.0.
pub fn elo_from_score_uncapped(s: f64) -> f64 {
    if s.is_nan() {
        return 0.0;
    }
    let s = s.clamp(0.0, 1.0);
    // `+ 0.0` turns the -0.0 of an even score into 0.0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// [`elo_from_score_uncapped`] capped at ±[`ELO_CAP`] (so 0 and 1 give -cap
/// and +cap; NaN gives 0). Never -0.0.
pub fn elo_from_score(s: f64) -> f64 {
    elo_from_score_uncapped(s).clamp(-ELO_CAP, ELO_CAP)
}

/// Mean per-game score (win 1, draw 1/2, loss 0); 0.5 with no games.
pub fn score(wins: u32, draws: u32, losses: u32) -> f64 {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        0.5
    } else {
        (wins as f64 + 0.5 * draws as f64) / n
    }
}

/// Likelihood of superiority: `Phi((w - l) / sqrt(w + l))`, 0.5 when w + l = 0.
pub fn los(wins: u32, losses: u32) -> f64 {
    let decisive = (wins + losses) as f64;
    if decisive == 0.0 {
        0.5
    } else {
        phi((wins as f64 - losses as f64) / decisive.sqrt())
    }
}

/// SPRT bounds on the log-likelihood ratio: (ln(beta/(1-alpha)), ln((1-beta)/alpha)).
/// Below the lower one H0 is accepted, above the upper one H1.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// How the observations of a match are modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// One observation per game: A scores 0, 1/2 or 1.
    Trinomial,
    /// One observation per pair of games (the same start, seats swapped):
    /// A's points in the pair halved, 0, 1/4, 1/2, 3/4 or 1.
    Pentanomial,
}

impl Model {
    /// The score of each outcome, ascending.
    pub fn scores(self) -> &'static [f64] {
        match self {
            Model::Trinomial => &[0.0, 0.5, 1.0],
            Model::Pentanomial => &[0.0, 0.25, 0.5, 0.75, 1.0],
        }
    }

    /// What `count` observations are: `games` or `pairs` (`game` or `pair`
    /// for one).
    pub fn unit(self, count: u64) -> &'static str {
        match (self, count) {
            (Model::Trinomial, 1) => "game",
            (Model::Trinomial, _) => "games",
            (Model::Pentanomial, 1) => "pair",
            (Model::Pentanomial, _) => "pairs",
        }
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Model::Trinomial => "trinomial",
            Model::Pentanomial => "pentanomial",
        })
    }
}

/// Scores this close to 0 or 1 stand for them (so that a target score of
/// exactly 0 or 1, from an extreme Elo bound, still gives finite values).
const SCORE_EDGE: f64 = f64::EPSILON;

/// The observations of a match in one [`Model`]: how many of each outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    model: Model,
    /// By outcome, in the order of [`Model::scores`]; unused entries 0.
    counts: [u32; 5],
}

impl Sample {
    /// Games won, drawn and lost.
    pub fn trinomial(wins: u32, draws: u32, losses: u32) -> Self {
        Sample {
            model: Model::Trinomial,
            counts: [losses, draws, wins, 0, 0],
        }
    }

    /// Pairs scoring 0, 1/2, 1, 3/2 and 2 points (fastchess's `Ptnml(0-2)`).
    pub fn pentanomial(pairs: [u32; 5]) -> Self {
        Sample {
            model: Model::Pentanomial,
            counts: pairs,
        }
    }

    /// A match's sample: the pentanomial one of its complete pairs when there
    /// is at least one, else the trinomial one of its games.
    pub fn of_match(wins: u32, draws: u32, losses: u32, pairs: [u32; 5]) -> Self {
        if pairs.iter().any(|&n| n > 0) {
            Sample::pentanomial(pairs)
        } else {
            Sample::trinomial(wins, draws, losses)
        }
    }

    pub fn model(&self) -> Model {
        self.model
    }

    /// Observations: games (trinomial) or pairs (pentanomial).
    pub fn len(&self) -> u64 {
        self.counts.iter().map(|&n| u64::from(n)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// (score, count) of every outcome observed at least once.
    fn observed(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.model
            .scores()
            .iter()
            .zip(self.counts)
            .filter(|(_, n)| *n > 0)
            .map(|(&x, n)| (x, f64::from(n)))
    }

    /// Mean score per game; 0.5 with no observations.
    pub fn mean(&self) -> f64 {
        let n = self.len();
        if n == 0 {
            return 0.5;
        }
        self.observed().map(|(x, c)| x * c).sum::<f64>() / n as f64
    }

    /// `sum_i n_i (x_i - s) / (1 + λ (x_i - s))`, strictly decreasing in λ
    /// (unless every observation scores exactly `s`); ±infinity where a
    /// denominator is not positive (λ outside the admissible interval).
    fn slope(&self, s: f64, lambda: f64) -> f64 {
        let mut sum = 0.0;
        for (x, n) in self.observed() {
            let a = x - s;
            let d = 1.0 + lambda * a;
            if d <= 0.0 {
                return if a < 0.0 {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
            }
            sum += n * a / d;
        }
        sum
    }

    /// The multiplier λ of the constrained MLE for mean score `s` in (0, 1).
    ///
    /// Every outcome (observed or not) needs `1 + λ (x - s) >= 0`, that is λ
    /// in `[-1/(1-s), 1/s]`. The root of [`Self::slope`] inside it gives the
    /// MLE. When there is none, the MLE sits at the end of the interval where
    /// the denominator of an unobserved extreme outcome (score 0 or 1)
    /// vanishes, and that outcome takes the mass the others leave. (Where
    /// the extreme outcome was observed, its term makes the slope +infinity
    /// at `lo`, -infinity at `hi`, or as good as: the MLE is never there.)
    fn multiplier(&self, s: f64) -> f64 {
        let (lo, hi) = (-1.0 / (1.0 - s), 1.0 / s);
        if self.slope(s, lo) <= 0.0 {
            return lo;
        }
        if self.slope(s, hi) >= 0.0 {
            return hi;
        }
        // Bisection: the slope is positive at `a`, negative at `b`.
        let (mut a, mut b) = (lo, hi);
        loop {
            let mid = a + 0.5 * (b - a);
            if mid <= a || mid >= b || b - a <= f64::EPSILON * (1.0 + mid.abs()) {
                return mid;
            }
            if self.slope(s, mid) > 0.0 {
                a = mid;
            } else {
                b = mid;
            }
        }
    }

    /// The maximum-likelihood distribution over the outcomes (in the order
    /// of [`Model::scores`]) among those with mean score `s`. With no
    /// observations, all mass on the two ends.
    pub fn constrained_mle(&self, s: f64) -> Vec<f64> {
        let xs = self.model.scores();
        let s = s.clamp(SCORE_EDGE, 1.0 - SCORE_EDGE);
        let mut p = vec![0.0; xs.len()];
        let n = self.len() as f64;
        if n == 0.0 {
            p[0] = 1.0 - s;
            p[xs.len() - 1] = s;
            return p;
        }
        let lambda = self.multiplier(s);
        // An outcome never observed gets 0 here (0 / a positive number).
        for (i, (&x, &c)) in xs.iter().zip(&self.counts).enumerate() {
            p[i] = f64::from(c) / n / (1.0 + lambda * (x - s)).max(f64::MIN_POSITIVE);
        }
        // At an end of λ's interval (only where that extreme outcome was
        // never observed: `multiplier`) the extreme outcome takes the rest.
        let rest = (1.0 - p.iter().sum::<f64>()).max(0.0);
        if lambda == -1.0 / (1.0 - s) {
            p[xs.len() - 1] = rest;
        } else if lambda == 1.0 / s {
            p[0] = rest;
        }
        p
    }

    /// `ℓ(p̂) - ℓ(p_s)`: the log-likelihood of the observed frequencies p̂
    /// less that of the constrained MLE p_s for mean score `s`, which is
    /// `sum_i n_i ln(1 + λ (x_i - s))`. Zero at the observed mean, growing on
    /// either side; finite for every `s` (scores beyond [`SCORE_EDGE`] of 0
    /// or 1 count as that close), 0 with no observations.
    pub fn deficit(&self, s: f64) -> f64 {
        if self.is_empty() || s.is_nan() {
            return 0.0;
        }
        let s = s.clamp(SCORE_EDGE, 1.0 - SCORE_EDGE);
        let lambda = self.multiplier(s);
        let sum: f64 = self
            .observed()
            .map(|(x, n)| n * (1.0 + lambda * (x - s)).max(f64::MIN_POSITIVE).ln())
            .sum();
        sum.max(0.0)
    }

    /// The SPRT's log-likelihood ratio of H1 (Elo = `elo1`) against H0
    /// (Elo = `elo0`), logistic Elo: the generalized SPRT of fishtest and
    /// fastchess, `N sum_i p̂_i ln(p1_i / p0_i)` with p0, p1 the constrained
    /// MLEs for the expected scores of `elo0` and `elo1`, that is
    /// `deficit(s0) - deficit(s1)`. 0 with no observations.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        self.deficit(score_from_elo(elo0)) - self.deficit(score_from_elo(elo1))
    }

    /// The 95% likelihood-ratio (profile likelihood) interval of the mean
    /// score: every `s` with `2 deficit(s) <= CHI2_95`. Its upper end is 1
    /// exactly when every observation scored 1 (no upper bound on Elo), its
    /// lower end 0 when every one scored 0. (0, 1) with no observations.
    pub fn score_interval(&self) -> (f64, f64) {
        if self.is_empty() {
            return (0.0, 1.0);
        }
        // Where every observation scored 0 (1) the mean is exactly 0 (1)
        // and `edge` returns it at once.
        let mean = self.mean();
        (self.edge(mean, 0.0), self.edge(mean, 1.0))
    }

    /// The point between `inside` (the mean, deficit 0) and `outside` (0 or
    /// 1, where the deficit grows without bound) where `2 deficit` reaches
    /// [`CHI2_95`], by bisection.
    fn edge(&self, mut inside: f64, mut outside: f64) -> f64 {
        loop {
            let mid = 0.5 * (inside + outside);
            if mid == inside || mid == outside || (outside - inside).abs() <= 1e-15 {
                return mid;
            }
            if 2.0 * self.deficit(mid) <= CHI2_95 {
                inside = mid;
            } else {
                outside = mid;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b} (tolerance {tol})");
    }

    #[test]
    fn erf_and_phi_match_tabulated_values() {
        // Values to 16 digits from standard tables.
        close(erf(0.0), 0.0, 1e-15);
        close(erf(0.1), 0.1124629160182849, 1e-12);
        close(erf(0.5), 0.5204998778130465, 1e-12);
        close(erf(1.0), 0.8427007929497149, 1e-12);
        close(erf(2.0), 0.9953222650189527, 1e-12);
        close(erf(3.0), 0.9999779095030014, 1e-12);
        close(erf(-1.5), -0.9661051464753108, 1e-12);
        close(erf(5.9), 1.0, 1e-15);
        assert_eq!(erf(40.0), 1.0);
        assert_eq!(erf(-40.0), -1.0);
        close(phi(0.0), 0.5, 1e-15);
        close(phi(1.0), 0.8413447460685429, 1e-10);
        close(phi(-1.0), 0.15865525393145707, 1e-10);
        close(phi(Z95), 0.975, 1e-10);
        close(phi(-3.0), 0.0013498980316301, 1e-10);
    }

    #[test]
    fn elo_from_score_and_back() {
        // -400 * log10(1/0.75 - 1) = 400 * log10(3).
        close(elo_from_score(0.75), 190.84850188786497, 1e-9);
        close(elo_from_score(0.25), -190.84850188786497, 1e-9);
        close(elo_from_score(0.5), 0.0, 1e-12);
        assert_eq!(elo_from_score(1.0), ELO_CAP);
        assert_eq!(elo_from_score(0.0), -ELO_CAP);
        assert_eq!(elo_from_score(f64::NAN), 0.0);
        // 10^(-50/400) = 0.7498942093324559.
        close(score_from_elo(50.0), 0.5714631174083814, 1e-12);
        close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12);
    }

    #[test]
    fn score_counts_a_draw_half() {
        assert_eq!(score(0, 0, 0), 0.5);
        assert_eq!(score(3, 0, 1), 0.75);
        assert_eq!(score(1, 2, 1), 0.5);
        close(score(2, 1, 0), 2.5 / 3.0, 1e-15);
        assert_eq!(score(0, 0, 4), 0.0);
        assert_eq!(score(0, 4, 0), 0.5);
        assert_eq!(score(5, 0, 0), 1.0);
    }

    #[test]
    fn models_and_units_are_named() {
        assert_eq!(Model::Trinomial.to_string(), "trinomial");
        assert_eq!(Model::Pentanomial.to_string(), "pentanomial");
        assert_eq!(Model::Trinomial.unit(1), "game");
        assert_eq!(Model::Trinomial.unit(0), "games");
        assert_eq!(Model::Trinomial.unit(7), "games");
        assert_eq!(Model::Pentanomial.unit(1), "pair");
        assert_eq!(Model::Pentanomial.unit(2), "pairs");
    }

    #[test]
    fn a_sample_is_empty_only_without_observations() {
        assert!(Sample::trinomial(0, 0, 0).is_empty());
        assert!(Sample::pentanomial([0; 5]).is_empty());
        assert!(!Sample::trinomial(0, 1, 0).is_empty());
        assert!(!Sample::pentanomial([0, 0, 0, 0, 1]).is_empty());
    }

    #[test]
    fn the_slope_is_infinite_where_a_denominator_vanishes() {
        // s = 1/2: lambda's interval is [-2, 2]. At -2 the win's
        // denominator 1 - 2 (1 - 1/2) is 0: +infinity, the win's term
        // pulling up; at 2 the loss's is 0: -infinity.
        let s = Sample::trinomial(1, 1, 1);
        assert_eq!(s.slope(0.5, -2.0), f64::INFINITY);
        assert_eq!(s.slope(0.5, 2.0), f64::NEG_INFINITY);
        assert_eq!(s.slope(0.5, 0.0), 0.0);
        // Beyond the ends too.
        assert_eq!(s.slope(0.5, -3.0), f64::INFINITY);
        assert_eq!(s.slope(0.5, 5.0), f64::NEG_INFINITY);
    }

    #[test]
    fn the_constrained_mle_at_a_score_of_0_or_1_is_the_edge_s() {
        // Targets of exactly 0 or 1 (from an extreme Elo bound) count as
        // SCORE_EDGE inside: a finite distribution with that mean.
        for sample in [
            Sample::trinomial(2, 1, 1),
            Sample::pentanomial([1, 0, 2, 1, 0]),
        ] {
            for (s, want) in [(1.0, 1.0 - SCORE_EDGE), (0.0, SCORE_EDGE)] {
                let p = sample.constrained_mle(s);
                assert!(p.iter().all(|q| q.is_finite() && *q >= 0.0), "{p:?}");
                close(p.iter().sum::<f64>(), 1.0, 1e-9);
                let mean: f64 = sample
                    .model()
                    .scores()
                    .iter()
                    .zip(&p)
                    .map(|(x, q)| x * q)
                    .sum();
                close(mean, want, 1e-9);
                assert!(sample.deficit(s).is_finite());
            }
        }
    }

    #[test]
    fn a_score_that_is_not_a_number_has_no_deficit() {
        let s = Sample::trinomial(3, 1, 2);
        assert_eq!(s.deficit(f64::NAN), 0.0);
        assert_eq!(Sample::trinomial(0, 0, 0).deficit(0.3), 0.0);
    }

    #[test]
    fn los_by_hand() {
        // Phi(4 / sqrt(8)) = Phi(sqrt 2) = (1 + erf(1)) / 2.
        close(los(6, 2), 0.9213503964748575, 1e-10);
        close(los(2, 6), 1.0 - 0.9213503964748575, 1e-10);
        assert_eq!(los(0, 0), 0.5);
        close(los(3, 3), 0.5, 1e-15);
    }

    #[test]
    fn elo_is_never_negative_zero() {
        assert!(elo_from_score(0.5).is_sign_positive());
        assert!(elo_from_score_uncapped(0.5).is_sign_positive());
        assert_eq!(elo_from_score_uncapped(1.0), f64::INFINITY);
        assert_eq!(elo_from_score_uncapped(0.0), f64::NEG_INFINITY);
        close(
            elo_from_score_uncapped(0.999_9),
            1_599.982_627_352_221,
            1e-6,
        );
        assert_eq!(elo_from_score(0.999_9), ELO_CAP);
        close(CHI2_95, 3.841_458_820_694_124, 1e-14);
    }

    #[test]
    fn sprt_bounds_by_hand() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        close(lo, -2.9444389791664403, 1e-12); // ln(0.05/0.95)
        close(hi, 2.9444389791664403, 1e-12); // ln(0.95/0.05)
    }

    /// s1 for elo1 = 50: 1 / (1 + 10^(-1/8)).
    const S50: f64 = 0.571_463_117_408_381_4;

    #[test]
    fn all_wins_closed_form() {
        // Reference, in closed form. With only wins (or only pairs won
        // twice), n of them, the likelihood of a distribution p is p_1^n,
        // and the best p with mean s puts s on a win and 1 - s on a loss
        // (any mass on a draw would have to come off the wins), so
        // deficit(s) = -n ln s, the LLR is n ln(s1 / s0), and the interval
        // is [exp(-CHI2_95 / (2 n)), 1]: Elo from a finite bound to +inf.
        for n in 1..=12u32 {
            let nf = f64::from(n);
            for sample in [
                Sample::trinomial(n, 0, 0),
                Sample::pentanomial([0, 0, 0, 0, n]),
            ] {
                for s in [0.01, 0.3, 0.5, S50, 0.9, 0.999] {
                    close(sample.deficit(s), -nf * s.ln(), 1e-12 * nf);
                }
                let (lo, hi) = sample.score_interval();
                close(lo, (-CHI2_95 / (2.0 * nf)).exp(), 1e-12);
                assert_eq!(hi, 1.0);
                // All losses: the mirror image.
                let mirrored = match sample.model() {
                    Model::Trinomial => Sample::trinomial(0, 0, n),
                    Model::Pentanomial => Sample::pentanomial([n, 0, 0, 0, 0]),
                };
                close(mirrored.deficit(0.2), -nf * 0.8f64.ln(), 1e-12 * nf);
                let (lo, hi) = mirrored.score_interval();
                assert_eq!(lo, 0.0);
                close(hi, 1.0 - (-CHI2_95 / (2.0 * nf)).exp(), 1e-12);
            }
        }
        // 5-0 against (0, 50): 5 ln(s1 / (1/2)) = 0.6679592313091607.
        let five = Sample::trinomial(5, 0, 0);
        close(five.llr(0.0, 50.0), 0.667_959_231_309_160_7, 1e-12);
        let p = five.constrained_mle(0.5);
        close(p[0], 0.5, 1e-12); // the loss the data never showed
        close(p[1], 0.0, 0.0);
        close(p[2], 0.5, 1e-12);
        // Against ±ln 19 (alpha = beta = 0.05): 22 straight wins give
        // 22 * 0.13359184626183213 = 2.939 (continue), 23 give 3.073 (H1).
        let (_, upper) = sprt_bounds(0.05, 0.05);
        assert!(Sample::trinomial(22, 0, 0).llr(0.0, 50.0) < upper);
        assert!(Sample::trinomial(23, 0, 0).llr(0.0, 50.0) > upper);
        close(
            Sample::trinomial(23, 0, 0).llr(0.0, 50.0),
            3.072_612_464_022_139,
            1e-11,
        );
        // 4-0: lower end exp(-CHI2_95 / 8) = 0.618670565341409, that is
        // +84.06364975535848 Elo; upper end +inf.
        let (lo, hi) = Sample::trinomial(4, 0, 0).score_interval();
        close(lo, 0.618_670_565_341_409, 1e-12);
        close(elo_from_score(lo), 84.063_649_755_358_48, 1e-8);
        assert_eq!(elo_from_score_uncapped(hi), f64::INFINITY);
    }

    #[test]
    fn all_draws_closed_form() {
        // Reference, in closed form. With only draws (or only pairs scoring
        // 1), n of them, the best p with mean s >= 1/2 keeps 2 (1 - s) on a
        // draw and puts the rest on a win (the cheapest way to raise the
        // mean), so deficit(s) = -n ln(2 (1 - s)); below 1/2, -n ln(2 s).
        // The interval is 1/2 ± (1 - exp(-CHI2_95 / (2 n))) / 2; for 6
        // draws ±0.13696961716544293, that is ±97.6702975028822 Elo.
        for n in 1..=12u32 {
            let nf = f64::from(n);
            let half = (1.0 - (-CHI2_95 / (2.0 * nf)).exp()) / 2.0;
            for sample in [
                Sample::trinomial(0, n, 0),
                Sample::pentanomial([0, 0, n, 0, 0]),
            ] {
                for s in [0.5, S50, 0.8, 0.999] {
                    close(sample.deficit(s), -nf * (2.0 * (1.0 - s)).ln(), 1e-12 * nf);
                    close(
                        sample.deficit(1.0 - s),
                        -nf * (2.0 * (1.0 - s)).ln(),
                        1e-12 * nf,
                    );
                }
                let (lo, hi) = sample.score_interval();
                close(lo, 0.5 - half, 1e-12);
                close(hi, 0.5 + half, 1e-12);
            }
        }
        let (lo, hi) = Sample::trinomial(0, 6, 0).score_interval();
        close(elo_from_score(lo), -97.670_297_502_882_26, 1e-8);
        close(elo_from_score(hi), 97.670_297_502_882_2, 1e-8);
        // 6 draws against (0, 50): 0 - (-6 ln(2 (1 - s1))).
        close(
            Sample::trinomial(0, 6, 0).llr(0.0, 50.0),
            6.0 * (2.0 * (1.0 - S50)).ln(),
            1e-12,
        );
    }

    /// `n ln(p / q)`, 0 when n = 0.
    fn n_ln(n: f64, p: f64, q: f64) -> f64 {
        if n == 0.0 {
            0.0
        } else {
            n * (p / q).ln()
        }
    }

    #[test]
    fn wins_and_losses_only_is_the_bernoulli_case() {
        // Reference, in closed form. Without draws the best p with mean s is
        // Bernoulli: s on a win, 1 - s on a loss (mass on a draw would come
        // off both), so with W wins, L losses and w = W / (W + L)
        // deficit(s) = W ln(w / s) + L ln((1 - w) / (1 - s)) and the LLR is
        // Wald's for a coin: W ln(s1 / s0) + L ln((1 - s1) / (1 - s0)).
        // The same holds in pairs for pairs scoring only 0 or 2.
        for (w, l) in [(1u32, 1u32), (7, 3), (3, 9), (40, 1), (1, 60), (250, 180)] {
            let (wf, lf) = (f64::from(w), f64::from(l));
            let mean = wf / (wf + lf);
            let want = |s: f64| n_ln(wf, mean, s) + n_ln(lf, 1.0 - mean, 1.0 - s);
            for sample in [
                Sample::trinomial(w, 0, l),
                Sample::pentanomial([l, 0, 0, 0, w]),
            ] {
                for s in [0.02, 0.25, 0.5, S50, 0.75, 0.98] {
                    close(sample.deficit(s), want(s), 1e-10 * (wf + lf));
                }
                let s0 = score_from_elo(-20.0);
                let wald = wf * (S50 / s0).ln() + lf * ((1.0 - S50) / (1.0 - s0)).ln();
                close(sample.llr(-20.0, 50.0), wald, 1e-10 * (wf + lf));
                // The interval's ends solve 2 deficit = CHI2_95.
                let (lo, hi) = sample.score_interval();
                assert!(lo < mean && mean < hi);
                close(2.0 * want(lo), CHI2_95, 1e-9);
                close(2.0 * want(hi), CHI2_95, 1e-9);
            }
        }
    }

    #[test]
    fn mixed_cases_match_an_independent_computation() {
        // Reference values from scripts/stats_reference.py (Python, standard
        // library only), which maximises the likelihood over the
        // distributions with mean s directly instead of through λ: over the
        // draw mass by golden-section search (trinomial), over the three
        // middle masses by Newton steps (pentanomial); then the LLR is the
        // difference of the maxima at s1 and s0, and the interval's ends are
        // found by bisection on s.
        let cases: [(Sample, [f64; 5]); 2] = [
            (
                // W = 30, D = 40, L = 20.
                Sample::trinomial(30, 40, 20),
                [
                    0.922_477_116_415_990_4, // LLR(0, 50)
                    0.478_636_144_570_966_37,
                    0.630_592_355_698_907_5,
                    -14.854_171_186_952_64,
                    92.897_129_407_553_88,
                ],
            ),
            (
                Sample::trinomial(6, 2, 2),
                [
                    0.595_563_939_679_575_3,
                    0.426_092_997_274_159_3,
                    0.895_393_569_105_504_2,
                    -51.734_850_892_153_18,
                    372.982_234_550_003_8,
                ],
            ),
        ];
        for (sample, [llr, lo, hi, elo_lo, elo_hi]) in cases {
            close(sample.llr(0.0, 50.0), llr, 1e-9);
            let (l, h) = sample.score_interval();
            close(l, lo, 1e-9);
            close(h, hi, 1e-9);
            close(elo_from_score(l), elo_lo, 1e-6);
            close(elo_from_score(h), elo_hi, 1e-6);
        }
        // Pentanomial: pairs scoring 0, 1/2, 1, 3/2, 2: 3, 9, 21, 12, 5.
        let pairs = Sample::pentanomial([3, 9, 21, 12, 5]);
        close(pairs.mean(), 0.535, 1e-15);
        close(pairs.llr(0.0, 50.0), -0.045_031_306_312_026_23, 1e-9);
        close(pairs.llr(-10.0, 10.0), 0.756_864_627_929_914_5, 1e-9);
        let (l, h) = pairs.score_interval();
        close(l, 0.463_016_357_979_071_15, 1e-9);
        close(h, 0.606_103_695_105_004_5, 1e-9);
        close(elo_from_score(l), -25.745_888_625_677_427, 1e-6);
        close(elo_from_score(h), 74.866_009_975_321_16, 1e-6);
    }

    /// The largest log-likelihood of `losses, draws, wins` among the
    /// distributions with mean `s`, found without λ: they are
    /// `(1 - s - d/2, d, s - d/2)` for a draw mass d in [0, 2 min(s, 1 - s)],
    /// and the log-likelihood is concave in d (golden-section search).
    fn direct_profile(l: f64, d: f64, w: f64, s: f64) -> f64 {
        let ll = |m: f64| {
            let term = |n: f64, p: f64| if n == 0.0 { 0.0 } else { n * p.ln() };
            term(w, s - m / 2.0) + term(d, m) + term(l, 1.0 - s - m / 2.0)
        };
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (0.0, 2.0 * s.min(1.0 - s));
        let (mut c, mut e) = (b - g * (b - a), a + g * (b - a));
        let (mut fc, mut fe) = (ll(c), ll(e));
        for _ in 0..200 {
            if fc < fe {
                (a, c, fc) = (c, e, fe);
                e = a + g * (b - a);
                fe = ll(e);
            } else {
                (b, e, fe) = (e, c, fc);
                c = b - g * (b - a);
                fc = ll(c);
            }
        }
        fc.max(fe)
    }

    #[test]
    fn trinomial_deficit_matches_a_direct_maximisation() {
        let mut checked = 0;
        for w in 0..=5u32 {
            for d in 0..=5u32 {
                for l in 0..=5u32 {
                    let sample = Sample::trinomial(w, d, l);
                    let n = f64::from(w + d + l);
                    if n == 0.0 {
                        continue;
                    }
                    let (wf, df, lf) = (f64::from(w), f64::from(d), f64::from(l));
                    let top = n_ln(wf, wf, n) + n_ln(df, df, n) + n_ln(lf, lf, n);
                    for s in [0.03, 0.2, 0.45, 0.5, S50, 0.8, 0.97] {
                        let want = top - direct_profile(lf, df, wf, s);
                        close(sample.deficit(s), want, 1e-9 * n);
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 215 * 7);
    }

    #[test]
    fn large_samples_agree_with_the_normal_approximation() {
        // For many observations the GSPRT approaches its normal form,
        // LLR ≈ N (s1 - s0) (2 m - s0 - s1) / (2 v) (m and v the mean and
        // variance of one observation's score), and the interval approaches
        // m ± Z95 sqrt(v / N). With s0 = m - 3 se and s1 = m + se
        // (se = sqrt(v / N)) the normal LLR is (3^2 - 1^2) / 2 = 4 for every
        // N; the exact one differs by a relative O(1 / sqrt N): here by 3%
        // at 90 games, 8% at 50 pairs, and about ten times less for every
        // hundredfold N (the interval's ends likewise, relative to its
        // half-width).
        for base in [
            Sample::trinomial(30, 40, 20),
            Sample::pentanomial([3, 9, 21, 12, 5]),
        ] {
            let mut errors = Vec::new();
            for k in [1u32, 100, 10_000] {
                let counts = base.counts.map(|c| c * k);
                let sample = Sample { counts, ..base };
                let n = sample.len() as f64;
                let m = sample.mean();
                let v = sample
                    .observed()
                    .map(|(x, c)| c * (x - m).powi(2))
                    .sum::<f64>()
                    / n;
                let se = (v / n).sqrt();
                let elo0 = elo_from_score_uncapped(m - 3.0 * se);
                let elo1 = elo_from_score_uncapped(m + se);
                let llr = sample.llr(elo0, elo1);
                let (lo, hi) = sample.score_interval();
                let half = Z95 * se;
                let error = [
                    (llr - 4.0).abs() / 4.0,
                    (lo - (m - half)).abs() / half,
                    (hi - (m + half)).abs() / half,
                ];
                errors.push(error);
            }
            for e in &errors[0] {
                assert!(*e < 0.1, "{base:?}: {errors:?}");
            }
            for pair in errors.windows(2) {
                for (big, small) in pair[0].iter().zip(&pair[1]) {
                    assert!(*small < 0.15 * big, "{base:?}: {errors:?}");
                }
            }
            for e in &errors[2] {
                assert!(*e < 5e-4, "{base:?}: {errors:?}");
            }
        }
    }

    #[test]
    fn every_value_is_finite_and_ordered() {
        let mut samples = Vec::new();
        for w in 0..=4 {
            for d in 0..=4 {
                for l in 0..=4 {
                    samples.push(Sample::trinomial(w, d, l));
                }
            }
        }
        for code in 0..3u32.pow(5) {
            let mut pairs = [0u32; 5];
            for (k, p) in pairs.iter_mut().enumerate() {
                *p = code / 3u32.pow(k as u32) % 3;
            }
            samples.push(Sample::pentanomial(pairs));
        }
        samples.push(Sample::trinomial(u32::MAX / 4, 1, 0));
        for sample in samples {
            for (e0, e1) in [(0.0, 50.0), (-1e6, 1e6), (1199.0, 1200.0), (-5.0, -4.0)] {
                let llr = sample.llr(e0, e1);
                assert!(llr.is_finite(), "{sample:?} {e0} {e1}: {llr}");
            }
            let (lo, hi) = sample.score_interval();
            let m = sample.mean();
            assert!(
                0.0 <= lo && lo <= m && m <= hi && hi <= 1.0,
                "{sample:?}: {lo} {m} {hi}"
            );
            assert!(sample.is_empty() || lo < hi, "{sample:?}: zero width");
            let p = sample.constrained_mle(0.3);
            let mean: f64 = p
                .iter()
                .zip(sample.model().scores())
                .map(|(p, x)| p * x)
                .sum();
            close(p.iter().sum::<f64>(), 1.0, 1e-9);
            close(mean, 0.3, 1e-9);
        }
        assert_eq!(Sample::trinomial(0, 0, 0).llr(0.0, 50.0), 0.0);
        assert_eq!(Sample::trinomial(0, 0, 0).score_interval(), (0.0, 1.0));
    }

    #[test]
    fn a_match_uses_its_pairs_when_it_has_some() {
        let s = Sample::of_match(5, 1, 2, [0, 1, 1, 1, 1]);
        assert_eq!(s.model(), Model::Pentanomial);
        assert_eq!(s.len(), 4);
        let s = Sample::of_match(1, 0, 0, [0; 5]);
        assert_eq!(s.model(), Model::Trinomial);
        assert_eq!(s.len(), 1);
    }
}
