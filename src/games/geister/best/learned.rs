//! The learned belief model: the log-odds that an opponent piece is blue, a
//! linear function of its [`Evidence`] features, fitted on game records by
//! L2-regularised logistic regression ([`fit`], Newton's method:
//! deterministic, no learning rate to tune).
//!
//! Training samples come from replaying records ([`samples_from_game`]):
//! at every turn of the observing seat, each opponent piece on the board
//! gives its features as that seat saw them and its true colour. The model
//! shipped with ladderbot is `beliefs.json` beside this file, fitted by
//! `ladderbot-lab geister beliefs` (docs/geister-results.md has the command).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::search::logistic::{self, Labelled};

use super::super::rules::{Colour, Geister, Move, Setup, PIECES};
use super::super::view::View;
use super::evidence::{Evidence, Features, FEATURES, NAMES};

/// Weights of the log-odds, by feature name.
#[derive(Clone, Debug, PartialEq)]
pub struct BeliefModel {
    pub weights: [f64; FEATURES],
}

/// The file form: named weights and where they came from.
#[derive(Serialize, Deserialize)]
struct ModelFile {
    #[serde(default)]
    about: String,
    weights: std::collections::BTreeMap<String, f64>,
}

impl BeliefModel {
    /// Log-odds that a piece with features `f` is blue.
    pub fn log_odds(&self, f: &Features) -> f64 {
        self.weights.iter().zip(f).map(|(w, x)| w * x).sum()
    }

    /// Reads the JSON form; every feature must have a weight, and no other
    /// key may appear.
    pub fn from_json(text: &str) -> Result<BeliefModel, String> {
        let file: ModelFile =
            serde_json::from_str(text).map_err(|e| format!("belief model: {e}"))?;
        let mut weights = [0.0; FEATURES];
        for (i, name) in NAMES.iter().enumerate() {
            let w = file
                .weights
                .get(*name)
                .ok_or_else(|| format!("belief model: no weight for '{name}'"))?;
            if !w.is_finite() {
                return Err(format!("belief model: weight '{name}' is not finite"));
            }
            weights[i] = *w;
        }
        if let Some(k) = file.weights.keys().find(|k| !NAMES.contains(&k.as_str())) {
            return Err(format!("belief model: unknown feature '{k}'"));
        }
        Ok(BeliefModel { weights })
    }

    /// The JSON form, `about` saying how it was made.
    pub fn to_json(&self, about: &str) -> String {
        let file = ModelFile {
            about: about.to_string(),
            weights: NAMES
                .iter()
                .zip(self.weights)
                .map(|(n, w)| (n.to_string(), w))
                .collect(),
        };
        serde_json::to_string_pretty(&file).expect("a model serialises") + "\n"
    }

    /// `ismcts-v1`'s model (`beliefs-v1.json`), kept unchanged: fitted on
    /// 1,000 games, 600 of them against Naotti-2020.
    pub fn v1() -> &'static BeliefModel {
        static MODEL: OnceLock<BeliefModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            BeliefModel::from_json(include_str!("beliefs-v1.json"))
                .expect("the v1 belief model is valid (a unit test checks it)")
        })
    }

    /// The model `best` ships with (`beliefs.json`), fitted on games of
    /// ladderbot's own agents only (docs/geister-results.md).
    pub fn shipped() -> &'static BeliefModel {
        static MODEL: OnceLock<BeliefModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            BeliefModel::from_json(include_str!("beliefs.json"))
                .expect("the shipped belief model is valid (a unit test checks it)")
        })
    }
}

/// A model read from a JSON file, kept for the life of the process (each
/// path is read once).
pub fn load_file(path: &std::path::Path) -> Result<&'static BeliefModel, String> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static LOADED: OnceLock<Mutex<HashMap<std::path::PathBuf, &'static BeliefModel>>> =
        OnceLock::new();
    let mut loaded = LOADED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(m) = loaded.get(path) {
        return Ok(m);
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let model = BeliefModel::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let model: &'static BeliefModel = Box::leak(Box::new(model));
    loaded.insert(path.to_path_buf(), model);
    Ok(model)
}

/// One training sample: a piece's features and whether it was blue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub features: Features,
    pub blue: bool,
}

impl Labelled<FEATURES> for Sample {
    fn x(&self) -> &[f64; FEATURES] {
        &self.features
    }
    fn y(&self) -> f64 {
        if self.blue {
            1.0
        } else {
            0.0
        }
    }
}

/// The samples of one game seen by `observer`: the game starts from
/// `setups` (seat 0 moves first) and `moves` are every move in order. At
/// each of the observer's turns, every opponent piece on the board (and not
/// yet revealed) gives one sample. Stops at the first illegal move.
pub fn samples_from_game(setups: [Setup; 2], moves: &[Move], observer: usize) -> Vec<Sample> {
    let mut ev = Evidence::new();
    let mut out = Vec::new();
    each_turn_of(setups, moves, observer, |view, mv| {
        ev.observe(view);
        for p in 0..PIECES as u8 {
            if view.opp_colour(p).is_some() {
                continue;
            }
            if let Some(features) = ev.features(view, p) {
                let blue = setups[1 - observer].colour(p) == Colour::Blue;
                out.push(Sample { features, blue });
            }
        }
        ev.our_move(view, mv);
    });
    out
}

/// Replays the game from `setups` through `moves` (seat 0 first), calling
/// `turn(view, move)` at each of `observer`'s turns with its view and the
/// move it played; stops at the end of the game or the first illegal move.
pub fn each_turn_of(
    setups: [Setup; 2],
    moves: &[Move],
    observer: usize,
    mut turn: impl FnMut(&View, Move),
) {
    let mut g = Geister::new(setups);
    for &mv in moves {
        if g.outcome().is_some() || !g.is_legal(mv) {
            break;
        }
        if g.to_move() == observer {
            turn(&g.view(observer), mv);
        }
        g.play(mv);
    }
}

/// Mean log loss (natural log) of `model` on `samples`.
pub fn log_loss(model: &BeliefModel, samples: &[Sample]) -> f64 {
    logistic::log_loss(&model.weights, samples)
}

/// Fits the model by Newton's method on the mean log loss plus `l2`/2 times
/// the squared weights, from all-zero weights.
pub fn fit(samples: &[Sample], l2: f64) -> BeliefModel {
    fit_toward(samples, &[0.0; FEATURES], l2)
}

/// Fits the model by Newton's method on the mean log loss plus `l2`/2 times
/// the squared distance of the weights from `prior` (a Gaussian prior
/// centred there), starting at `prior`, until a step changes no weight by
/// more than 1e-9 (at most 50 steps).
#[allow(clippy::needless_range_loop)] // index algebra reads best as indices
pub fn fit_toward(samples: &[Sample], prior: &[f64; FEATURES], l2: f64) -> BeliefModel {
    BeliefModel {
        weights: logistic::fit_toward(samples, prior, l2),
    }
}

/// A model that keeps learning the opponent it plays: after each game, the
/// game's samples (labelled by the colours the end of the game reveals) are
/// added to those of the earlier games, and the model is refitted toward
/// the `prior` model with a penalty worth `strength` samples
/// ([`fit_toward`] with `l2 = strength / samples`). The oldest samples are
/// dropped past [`Adaptive::MAX_SAMPLES`].
#[derive(Clone, Debug)]
pub struct Adaptive {
    prior: BeliefModel,
    strength: f64,
    samples: Vec<Sample>,
    current: BeliefModel,
    games: usize,
}

impl Adaptive {
    /// The most samples kept (about 100 games).
    pub const MAX_SAMPLES: usize = 60_000;

    pub fn new(prior: BeliefModel, strength: f64) -> Self {
        Adaptive {
            current: prior.clone(),
            prior,
            strength,
            samples: Vec::new(),
            games: 0,
        }
    }

    /// The model as it stands.
    pub fn model(&self) -> &BeliefModel {
        &self.current
    }

    /// Games learned from so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Learns from one more game's samples.
    pub fn learn(&mut self, game: &[Sample]) {
        if game.is_empty() {
            return;
        }
        self.games += 1;
        self.samples.extend_from_slice(game);
        if self.samples.len() > Self::MAX_SAMPLES {
            let cut = self.samples.len() - Self::MAX_SAMPLES;
            self.samples.drain(..cut);
        }
        let l2 = self.strength / self.samples.len() as f64;
        self.current = fit_toward(&self.samples, &self.prior.weights, l2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::logistic::sigmoid;

    /// Mean log loss of weights `w` on `samples` plus `reg`/2 times their
    /// squared distance from `prior`: what [`fit_toward`] minimises.
    fn objective(
        samples: &[Sample],
        w: &[f64; FEATURES],
        prior: &[f64; FEATURES],
        reg: f64,
    ) -> f64 {
        logistic::objective(samples, w, prior, reg)
    }
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_shipped_model_loads_and_round_trips() {
        let m = BeliefModel::shipped();
        assert!(m.weights.iter().all(|w| w.is_finite()));
        assert!(m.weights.iter().any(|&w| w != 0.0), "a fitted model");
        let again = BeliefModel::from_json(&m.to_json("test")).unwrap();
        assert_eq!(&again, m);
    }

    #[test]
    fn bad_model_files_are_errors() {
        let mut m = BeliefModel::shipped().to_json("x");
        assert!(BeliefModel::from_json("{").is_err());
        m = m.replacen("\"bias\"", "\"bias2\"", 1);
        let e = BeliefModel::from_json(&m).unwrap_err();
        assert!(e.contains("no weight for 'bias'"), "{e}");
    }

    #[test]
    fn fit_recovers_the_weights_that_made_the_data() {
        // Labels drawn from a known model over two informative features.
        let mut truth = [0.0; FEATURES];
        truth[0] = -0.5;
        truth[1] = 1.5;
        truth[8] = -2.0;
        let truth = BeliefModel { weights: truth };
        // 100,000 samples: the standard error of each weight is below 0.03.
        let mut rng = SmallRng::seed_from_u64(3);
        let samples: Vec<Sample> = (0..100_000)
            .map(|_| {
                let mut f = [0.0; FEATURES];
                f[0] = 1.0;
                f[1] = rng.gen_range(0..4) as f64;
                f[8] = rng.gen_range(0..3) as f64;
                f[13] = rng.gen::<f64>();
                let p = sigmoid(truth.log_odds(&f));
                Sample {
                    features: f,
                    blue: rng.gen::<f64>() < p,
                }
            })
            .collect();
        let m = fit(&samples, 1e-4);
        for (i, (&w, &t)) in m.weights.iter().zip(&truth.weights).enumerate() {
            assert!(
                (w - t).abs() < 0.1,
                "weight {} ({}): {w} vs {t}",
                i,
                NAMES[i]
            );
        }
        assert!(log_loss(&m, &samples) <= log_loss(&truth, &samples) + 1e-9);
        assert!(
            log_loss(&m, &samples)
                < log_loss(
                    &BeliefModel {
                        weights: [0.0; FEATURES]
                    },
                    &samples
                )
        );
    }

    #[test]
    fn an_adaptive_model_moves_from_its_prior_toward_the_games() {
        // The games say feature 8 is strongly red; the prior says nothing.
        let mut rng = SmallRng::seed_from_u64(9);
        let game = |rng: &mut SmallRng| -> Vec<Sample> {
            (0..300)
                .map(|_| {
                    let mut f = [0.0; FEATURES];
                    f[0] = 1.0;
                    f[8] = rng.gen_range(0..3) as f64;
                    let p = sigmoid(0.5 - 1.5 * f[8]);
                    Sample {
                        features: f,
                        blue: rng.gen::<f64>() < p,
                    }
                })
                .collect()
        };
        let prior = BeliefModel {
            weights: [0.0; FEATURES],
        };
        let mut strong = Adaptive::new(prior.clone(), 1e6);
        let mut weak = Adaptive::new(prior.clone(), 10.0);
        assert_eq!(weak.model(), &prior);
        weak.learn(&[]);
        assert_eq!(weak.games(), 0, "an empty game is no game");
        for _ in 0..5 {
            let g = game(&mut rng);
            strong.learn(&g);
            weak.learn(&g);
        }
        assert_eq!(weak.games(), 5);
        let (w, s) = (weak.model().weights[8], strong.model().weights[8]);
        assert!(
            (w + 1.5).abs() < 0.3,
            "the games dominate a weak prior: {w}"
        );
        assert!(s.abs() < 0.05, "a strong prior holds: {s}");
    }

    #[test]
    fn a_refit_from_a_confidently_wrong_prior_still_converges() {
        // The prior is sure feature 8 means blue; the games say it means red.
        // A plain Newton step from there overshoots by orders of magnitude
        // (the loss is flat where the prior saturates); the damped fit must
        // end at the minimum of its objective, below where it started.
        let mut rng = SmallRng::seed_from_u64(5);
        let samples: Vec<Sample> = (0..1500)
            .map(|_| {
                let mut f = [0.0; FEATURES];
                f[0] = 1.0;
                f[8] = rng.gen_range(0..3) as f64;
                Sample {
                    features: f,
                    blue: rng.gen::<f64>() < sigmoid(1.0 - 2.0 * f[8]),
                }
            })
            .collect();
        let mut prior = [0.0; FEATURES];
        prior[8] = 30.0;
        let reg = 10.0 / samples.len() as f64;
        let m = fit_toward(&samples, &prior, reg);
        let at = |w: &[f64; FEATURES]| objective(&samples, w, &prior, reg);
        assert!(m.weights.iter().all(|w| w.is_finite()));
        assert!(at(&m.weights) < at(&prior), "the refit made things worse");
        for i in [0, 8] {
            for d in [-0.01, 0.01] {
                let mut w = m.weights;
                w[i] += d;
                assert!(
                    at(&m.weights) <= at(&w) + 1e-12,
                    "not at the minimum along weight {i}"
                );
            }
        }
        // The pull of the prior (reg * 30) keeps it from the data's -2, but
        // the data still flips its sign.
        assert!(m.weights[8] < 0.0, "feature 8 still blue: {}", m.weights[8]);
    }

    #[test]
    fn samples_carry_the_true_colours_of_unrevealed_pieces() {
        let setups = [
            Setup::from_letters("ABCD").unwrap(),
            Setup::from_letters("EFGH").unwrap(),
        ];
        let moves: Vec<Move> = ["A,N", "A,N", "B,N", "B,N"]
            .iter()
            .map(|m| Move::parse_gat(m).unwrap())
            .collect();
        let s = samples_from_game(setups, &moves, 0);
        // Seat 0 moves twice, and sees 8 unrevealed opponent pieces each time.
        assert_eq!(s.len(), 16);
        // Seat 1's reds are E..H (slots 4..7): blue exactly for slots 0..3.
        for x in &s {
            let slot = (0..PIECES).find(|&p| x.features[16 + p] == 1.0).unwrap();
            assert_eq!(x.blue, slot < 4);
        }
        // An illegal move stops the replay.
        let bad = [Move::parse_gat("A,S").unwrap()];
        assert!(samples_from_game(setups, &bad, 0).is_empty());
    }
}
