//! Match statistics, all from the counts of wins, draws and losses of one
//! side (A): score, Elo with a 95% interval, likelihood of superiority and the
//! sequential probability ratio test. Pure functions, no dependencies.
//!
//! Conventions (so that every value is finite and JSON stays valid):
//! - With no games the score is 0.5.
//! - Elo is capped at ±[`ELO_CAP`]: a score of 0 or 1 maps to ∓/± the cap.
//! - With no games the Elo interval is the whole capped range.

/// Largest Elo difference reported; scores of exactly 0 or 1 map to ∓/± this.
pub const ELO_CAP: f64 = 1200.0;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

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

/// Elo difference for a score in 0..=1: `-400 * log10(1/s - 1)`, capped at
/// ±[`ELO_CAP`] (so 0 and 1 give -cap and +cap; NaN gives 0).
pub fn elo_from_score(s: f64) -> f64 {
    if s.is_nan() {
        return 0.0;
    }
    let s = s.clamp(0.0, 1.0);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-ELO_CAP, ELO_CAP)
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

/// Sum over games of (score - mean)^2 (trinomial: 1, 1/2, 0).
fn sum_sq_dev(wins: u32, draws: u32, losses: u32) -> f64 {
    let s = score(wins, draws, losses);
    wins as f64 * (1.0 - s).powi(2) + draws as f64 * (0.5 - s).powi(2) + losses as f64 * s * s
}

/// Per-game score variance (population form, divided by the game count);
/// 0 with no games.
pub fn score_variance(wins: u32, draws: u32, losses: u32) -> f64 {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        0.0
    } else {
        sum_sq_dev(wins, draws, losses) / n
    }
}

/// 95% interval of the Elo difference: the mean score ± 1.96 standard errors
/// (per-game variance / games, normal approximation), clamped to 0..=1 and
/// mapped through [`elo_from_score`]. With no games: (-cap, +cap).
pub fn elo_interval(wins: u32, draws: u32, losses: u32) -> (f64, f64) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (-ELO_CAP, ELO_CAP);
    }
    let s = score(wins, draws, losses);
    let half = Z95 * (score_variance(wins, draws, losses) / n).sqrt();
    (
        elo_from_score((s - half).max(0.0)),
        elo_from_score((s + half).min(1.0)),
    )
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

/// Log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`) in the
/// normal-approximation (GSPRT) form: with per-game scores x_i, expected
/// scores s0, s1 from the logistic model and per-game variance v,
/// `LLR = (s1 - s0) * (2 * sum(x_i) - N * (s0 + s1)) / (2 * v)`.
///
/// Convention for small samples: `v` counts one extra virtual game of the
/// largest possible variance (1/4), `v = (sum (x_i - mean)^2 + 1/4) / (N + 1)`,
/// so a zero-variance start (e.g. only wins) cannot cross a bound after one
/// game; the effect vanishes as N grows. 0 with no games.
pub fn sprt_llr(wins: u32, draws: u32, losses: u32, elo0: f64, elo1: f64) -> f64 {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    let total = wins as f64 + 0.5 * draws as f64;
    let v = (sum_sq_dev(wins, draws, losses) + 0.25) / (n + 1.0);
    (s1 - s0) * (2.0 * total - n * (s0 + s1)) / (2.0 * v)
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
    fn score_variance_and_interval_by_hand() {
        // 6 wins, 2 draws, 2 losses: mean 0.7;
        // sum of squares 6*0.09 + 2*0.04 + 2*0.49 = 1.6; variance 0.16.
        close(score(6, 2, 2), 0.7, 1e-15);
        close(score_variance(6, 2, 2), 0.16, 1e-15);
        // half width = 1.959964 * sqrt(0.016) = 0.24791802...
        // -> scores 0.45208198 and 0.94791802.
        let (lo, hi) = elo_interval(6, 2, 2);
        close(lo, -33.399_350_001_688_85, 1e-6);
        close(hi, 504.033_292_244_989_87, 1e-6);
        assert_eq!(score(0, 0, 0), 0.5);
        assert_eq!(elo_interval(0, 0, 0), (-ELO_CAP, ELO_CAP));
        // Only wins: variance 0, the interval is the capped point.
        assert_eq!(elo_interval(5, 0, 0), (ELO_CAP, ELO_CAP));
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
    fn sprt_by_hand() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        close(lo, -2.9444389791664403, 1e-12); // ln(0.05/0.95)
        close(hi, 2.9444389791664403, 1e-12); // ln(0.95/0.05)
                                              // 6/2/2 with elo0 = 0, elo1 = 50: s0 = 0.5, s1 = 0.5714631174,
                                              // v = (1.6 + 0.25) / 11, total score 7,
                                              // LLR = (s1 - s0) * (14 - 10 (s0 + s1)) / (2 v).
        close(sprt_llr(6, 2, 2, 0.0, 50.0), 0.698_002_616_080_846, 1e-9);
        // Symmetric: the mirrored result gives the mirrored ratio around the
        // midpoint, and an even score against elo0 = -elo1 gives 0.
        close(sprt_llr(3, 4, 3, -20.0, 20.0), 0.0, 1e-12);
        assert_eq!(sprt_llr(0, 0, 0, 0.0, 50.0), 0.0);
        // All wins: v = 0.25 / (n + 1), LLR = (s1 - s0)(2n - n(s0 + s1)) (n + 1) / 0.5.
        let n = 5.0;
        let s1 = score_from_elo(50.0);
        let want = (s1 - 0.5) * (2.0 * n - n * (0.5 + s1)) * (n + 1.0) / 0.5;
        close(sprt_llr(5, 0, 0, 0.0, 50.0), want, 1e-12);
        assert!(sprt_llr(5, 0, 0, 0.0, 50.0) > hi);
        assert!(sprt_llr(1, 0, 0, 0.0, 50.0) < hi);
        assert!(sprt_llr(0, 0, 5, 0.0, 50.0) < lo);
    }
}
