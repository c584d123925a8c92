//! Scoring of belief sources on recorded games, and the features a fit may
//! leave out: what `ladderbot-lab geister beliefs` measures the shipped
//! belief model ([`ladderbot::games::geister::best::learned`]) with.

use ladderbot::games::geister::best::belief::Belief;
use ladderbot::games::geister::best::evidence::{Evidence, FEATURES, NAMES};
use ladderbot::games::geister::best::learned::{each_turn_of, BeliefModel, Sample};
use ladderbot::games::geister::likelihood::BlueLikelihood;
use ladderbot::games::geister::rules::{Colour, Move, Setup, PIECES};

/// How well three belief sources predict the colours in one game, seen by
/// one observer: the uniform prior, the seed's table at inverse temperature
/// `seed_beta`, and a learned model. Each source's per-piece likelihoods
/// become the count-conditioned [`Belief`] the agent samples from; its
/// marginal blue probabilities are scored.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scores {
    /// Pieces scored (unrevealed opponent pieces at the observer's turns).
    pub samples: usize,
    /// Observer turns with at least one unknown red and one unknown blue.
    pub turns: usize,
    /// Summed log loss of the marginal blue probabilities, per source.
    pub loss: [f64; 3],
    /// Turns where the piece the source finds least likely blue is red.
    pub reddest_right: [usize; 3],
}

impl Scores {
    pub fn add(&mut self, o: &Scores) {
        self.samples += o.samples;
        self.turns += o.turns;
        for i in 0..3 {
            self.loss[i] += o.loss[i];
            self.reddest_right[i] += o.reddest_right[i];
        }
    }
}

/// [`Scores`] of one game (as [`samples_from_game`] replays it).
pub fn score_game(
    setups: [Setup; 2],
    moves: &[Move],
    observer: usize,
    seed_beta: f64,
    model: &BeliefModel,
) -> Scores {
    let mut ev = Evidence::new();
    let mut seed = BlueLikelihood::new();
    let mut out = Scores::default();
    each_turn_of(setups, moves, observer, |view, mv| {
        ev.observe(view);
        seed.observe(view);
        let mut learned = [f64::NEG_INFINITY; PIECES];
        for (p, l) in learned.iter_mut().enumerate() {
            let p = p as u8;
            if ev.marked_red(p) {
                *l = -1000.0;
            } else if let Some(f) = ev.features(view, p) {
                *l = model.log_odds(&f);
            }
        }
        let sources = [
            Belief::new(view, &[0.0; PIECES], 0.0),
            Belief::new(view, &seed.likelihoods(view), seed_beta),
            Belief::new(view, &learned, 1.0),
        ];
        let unknown: Vec<u8> = (0..PIECES as u8)
            .filter(|&p| view.opp(p).on_board() && view.opp_colour(p).is_none())
            .collect();
        let is_blue = |p: u8| setups[1 - observer].colour(p) == Colour::Blue;
        let mixed = unknown.iter().any(|&p| is_blue(p)) && unknown.iter().any(|&p| !is_blue(p));
        out.samples += unknown.len();
        out.turns += mixed as usize;
        for (k, b) in sources.iter().enumerate() {
            let probs = b.blue_probabilities();
            for &p in &unknown {
                let q = probs[p as usize].clamp(1e-6, 1.0 - 1e-6);
                out.loss[k] -= if is_blue(p) { q.ln() } else { (1.0 - q).ln() };
            }
            if mixed {
                let reddest = unknown
                    .iter()
                    .copied()
                    .min_by(|&a, &c| probs[a as usize].total_cmp(&probs[c as usize]))
                    .expect("unknown is not empty");
                out.reddest_right[k] += !is_blue(reddest) as usize;
            }
        }
        ev.our_move(view, mv);
        seed.our_move(view, mv);
    });
    out
}

/// Sets to 0, in every sample, the features whose names start with one of
/// `prefixes`, so that a fit leaves their weights at 0; the names dropped,
/// or an error for a prefix that names no feature.
pub fn without_features(
    samples: &mut [Sample],
    prefixes: &[String],
) -> Result<Vec<&'static str>, String> {
    let mut dropped = Vec::new();
    for prefix in prefixes {
        let hits: Vec<usize> = (0..FEATURES)
            .filter(|&i| NAMES[i].starts_with(prefix.as_str()))
            .collect();
        if hits.is_empty() {
            return Err(format!(
                "--without {prefix}: no feature's name starts with it"
            ));
        }
        if hits.contains(&0) {
            return Err(format!("--without {prefix}: the bias stays"));
        }
        for i in hits {
            for s in samples.iter_mut() {
                s.features[i] = 0.0;
            }
            dropped.push(NAMES[i]);
        }
    }
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladderbot::games::geister::best::learned::fit;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn a_fit_without_some_features_leaves_their_weights_at_zero() {
        let mut rng = SmallRng::seed_from_u64(9);
        let slot_a = NAMES.iter().position(|&n| n == "slot_a").unwrap();
        let mut samples: Vec<Sample> = (0..2000)
            .map(|_| {
                let mut features = [0.0; FEATURES];
                features[0] = 1.0;
                features[1] = rng.gen_range(0.0..3.0);
                let slot = rng.gen_range(0..PIECES);
                features[slot_a + slot] = 1.0;
                // Blue on slot a mostly, and with feature 1.
                let z: f64 = features[1] - 1.5 + if slot == 0 { 3.0 } else { 0.0 };
                let blue = rng.gen::<f64>() < 1.0 / (1.0 + (-z).exp());
                Sample { features, blue }
            })
            .collect();
        assert!(
            fit(&samples, 0.01).weights[slot_a] > 1.0,
            "learnt with the slots"
        );
        let dropped = without_features(&mut samples, &["slot_".to_string()]).unwrap();
        assert_eq!(dropped, NAMES[slot_a..slot_a + PIECES].to_vec());
        let m = fit(&samples, 0.01);
        assert!(
            m.weights[slot_a..slot_a + PIECES].iter().all(|&w| w == 0.0),
            "{m:?}"
        );
        assert!(m.weights[1] > 0.5, "{m:?}");
        for bad in ["nothing", "bi"] {
            assert!(
                without_features(&mut samples, &[bad.to_string()]).is_err(),
                "{bad}"
            );
        }
    }
}
