//! What the opponent's hidden colours may be: every assignment consistent
//! with the view (the right number of blues among the opponent's pieces on
//! the board), weighted by the blue-likelihoods. An assignment's weight is
//! `exp(beta * sum of the likelihoods of the pieces it makes blue)`: each
//! piece is blue with odds `exp(beta * likelihood)`, conditioned on the
//! count. A piece marked -1000 (it skipped a sure escape) is red in all but
//! a vanishing share, unless the count forces it blue. `beta` = 0 samples
//! uniformly, as [`View::sample_opponent_reds`] does.

use rand::Rng;

use super::super::rules::{Colour, PIECES};
use super::super::view::View;

/// One consistent colouring of the opponent's pieces on the board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colouring {
    /// Bit i: opponent piece i is blue (pieces on the board only).
    pub blue_pieces: u8,
    /// The squares (our frame) of the opponent's blue pieces.
    pub blue_squares: u64,
}

/// The distribution over [`Colouring`]s, ready to sample.
#[derive(Clone, Debug)]
pub struct Belief {
    colourings: Vec<Colouring>,
    /// Cumulative weights, the last one 1.
    cumulative: Vec<f64>,
}

impl Belief {
    /// The colourings consistent with `view`, weighted by `likelihood` (per
    /// opponent piece, higher = more likely blue) at inverse temperature `beta`.
    pub fn new(view: &View, likelihood: &[f64; PIECES], beta: f64) -> Belief {
        let on_board: Vec<u8> = (0..PIECES as u8)
            .filter(|&p| view.opp(p).on_board())
            .collect();
        let blues = (view.opp_remaining(Colour::Blue) as usize).min(on_board.len());
        let n = on_board.len();
        let mut colourings = Vec::new();
        let mut log_w = Vec::new();
        for subset in 0u32..1 << n {
            if subset.count_ones() as usize != blues {
                continue;
            }
            let mut c = Colouring {
                blue_pieces: 0,
                blue_squares: 0,
            };
            let mut lw = 0.0;
            for (k, &p) in on_board.iter().enumerate() {
                if subset >> k & 1 == 1 {
                    c.blue_pieces |= 1 << p;
                    if let Some(sq) = view.opp(p).square() {
                        c.blue_squares |= 1 << sq.0;
                    }
                    let l = likelihood[p as usize];
                    lw += beta
                        * if l.is_finite() {
                            l.clamp(-1e3, 1e3)
                        } else {
                            0.0
                        };
                }
            }
            colourings.push(c);
            log_w.push(lw);
        }
        let top = log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        let mut cumulative = Vec::with_capacity(log_w.len());
        for lw in log_w {
            total += (lw - top).exp();
            cumulative.push(total);
        }
        for c in cumulative.iter_mut() {
            *c /= total;
        }
        Belief {
            colourings,
            cumulative,
        }
    }

    /// How many colourings there are.
    pub fn len(&self) -> usize {
        self.colourings.len()
    }
    pub fn is_empty(&self) -> bool {
        self.colourings.is_empty()
    }

    /// A colouring drawn from the distribution.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Colouring {
        let r: f64 = rng.gen();
        let i = self.cumulative.partition_point(|&c| c <= r);
        self.colourings[i.min(self.colourings.len() - 1)]
    }

    /// The probability that each opponent piece is blue (0 for pieces off
    /// the board).
    pub fn blue_probabilities(&self) -> [f64; PIECES] {
        let mut out = [0.0; PIECES];
        let mut prev = 0.0;
        for (c, &cum) in self.colourings.iter().zip(&self.cumulative) {
            let w = cum - prev;
            prev = cum;
            for (p, o) in out.iter_mut().enumerate() {
                if c.blue_pieces >> p & 1 == 1 {
                    *o += w;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::testing::view;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn uniform_without_evidence() {
        let v = view("14R24R34R44R15B25B35B45B", "41u31u21u11u40u30u20u10u");
        let b = Belief::new(&v, &[0.0; PIECES], 0.5);
        assert_eq!(b.len(), 70);
        for p in b.blue_probabilities() {
            assert!((p - 0.5).abs() < 1e-9);
        }
    }

    #[test]
    fn counts_and_evidence_shape_the_colourings() {
        // Two opponent blues and one red captured: 2 blues among 5 pieces.
        let v = view("14R24R34R44R15B25B35B45B", "41u31u99b21u99b11u99r40u");
        let mut l = [0.0; PIECES];
        l[0] = 4.0;
        l[3] = -1000.0;
        let b = Belief::new(&v, &l, 0.5);
        assert_eq!(b.len(), 10);
        let p = b.blue_probabilities();
        assert_eq!((p[2], p[4], p[6]), (0.0, 0.0, 0.0));
        assert!((p.iter().sum::<f64>() - 2.0).abs() < 1e-9);
        assert!(p[0] > 0.85, "{p:?}");
        assert!(p[3] < 1e-9, "{p:?}");
        // Sampling follows the weights and only gives consistent colourings.
        let mut rng = SmallRng::seed_from_u64(1);
        let n = 20_000;
        let mut blue_a = 0;
        for _ in 0..n {
            let c = b.sample(&mut rng);
            assert_eq!(c.blue_pieces.count_ones(), 2);
            assert_eq!(c.blue_pieces & 0b0101_0100, 0);
            assert_eq!(c.blue_squares.count_ones(), 2);
            blue_a += (c.blue_pieces & 1) as u32;
        }
        let f = blue_a as f64 / n as f64;
        assert!((f - p[0]).abs() < 0.01, "{f} vs {}", p[0]);
        // A piece marked red is still blue when the count forces it.
        let v = view("14R24R34R44R15B25B35B45B", "41u99b99b99b99r99r99r99r");
        let b = Belief::new(&v, &[-1000.0; PIECES], 0.5);
        assert_eq!(b.len(), 1);
        assert_eq!(b.blue_probabilities()[0], 1.0);
    }
}
