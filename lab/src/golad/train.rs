//! The data behind `best`'s learned value model (`ladderbot-lab golad`):
//! positions from recorded games (the JSON lines `ladderbot match --out`
//! writes), labelled by the game's result for the side that just moved;
//! the fit of both heads; and the accuracy of a value at predicting the
//! results of held-out games.
//!
//! Deterministic: the same records give the same samples and weights.

use serde::Deserialize;

use ladderbot::games::golad::moves::Move;
use ladderbot::games::golad::territory::Territory;
use ladderbot::games::golad::value::{inputs, left, ValueModel, INPUTS};
use ladderbot::games::golad::GolState;
use ladderbot::model::Outcome;
use ladderbot::search::logistic::{self, fit_toward};

/// What a record must hold (other fields are ignored).
#[derive(Clone, Debug, Deserialize)]
pub struct GameRecord {
    pub game: String,
    /// The game's id, where the record has one.
    #[serde(default)]
    pub id: String,
    /// The players' names by seat (as `match` and `referee` write them).
    #[serde(default)]
    pub players: Vec<String>,
    pub start: serde_json::Value,
    pub moves: Vec<String>,
}

/// Replays the game `rec` (index `game`, for messages) as the engine does
/// (an unreadable or illegal move acts as a pass): `each(before, played,
/// after)` for every move, `played` the move when it was legal. Returns the
/// last position. A record of another game, a bad start or a move after
/// the end is an error.
pub fn replay(
    game: usize,
    rec: &GameRecord,
    mut each: impl FnMut(&GolState, Option<Move>, &GolState),
) -> Result<GolState, String> {
    if rec.game != "golad" {
        return Err(format!("game {game}: a {} record, not golad", rec.game));
    }
    let mut s = GolState::from_json(&rec.start).map_err(|e| format!("game {game}: {e}"))?;
    for text in &rec.moves {
        if s.outcome().is_some() {
            return Err(format!("game {game}: moves after the end"));
        }
        let mv = Move::parse_reply(text).ok().filter(|m| s.is_legal(m));
        let before = s;
        s.apply(mv.unwrap_or(Move::Pass));
        each(&before, mv, &s);
    }
    Ok(s)
}

/// One position after a move, from the side that moved.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The game's index among all records read (for held-out splits).
    pub game: usize,
    pub x: [f64; INPUTS],
    /// The side that moved won / lost the game.
    pub won: bool,
    pub lost: bool,
}

impl Sample {
    /// The game's score for the side that moved: 1, 1/2 or 0.
    pub fn score(&self) -> f64 {
        if self.won {
            1.0
        } else if self.lost {
            0.0
        } else {
            0.5
        }
    }
    /// The territory share the inputs hold.
    pub fn territory(&self) -> f64 {
        self.x[2] + 0.5
    }
}

/// The samples of one game: every position after a move that does not end
/// the game (the search scores finished games exactly), its inputs taken
/// as the search takes them (territory with tempo, decay 1/2, after `look`
/// pass generations). The label is the result the replay reaches.
pub fn samples_of(index: usize, rec: &GameRecord, look: usize) -> Result<Vec<Sample>, String> {
    if rec.game != "golad" {
        return Err(format!("game {index}: a {} record, not golad", rec.game));
    }
    let mut s = GolState::from_json(&rec.start).map_err(|e| format!("game {index}: {e}"))?;
    let territory = Territory::new(0.5);
    let mut seen = Vec::with_capacity(rec.moves.len());
    for (k, text) in rec.moves.iter().enumerate() {
        let mv = Move::parse_reply(text)
            .map_err(|e| format!("game {index} move {}: {text:?}: {e}", k + 1))?;
        if s.outcome().is_some() {
            return Err(format!("game {index}: moves after the end"));
        }
        let me = s.to_move;
        s.apply(mv);
        if s.outcome().is_none() {
            let f = s.field.steps(look);
            let share = territory.share(&f, me, Some(s.to_move));
            seen.push((me, inputs(share, &f, me, left(&s))));
        }
    }
    let winner = match s.outcome() {
        Some(Outcome::Win(w)) => Some(w),
        Some(Outcome::Draw) => None,
        None => return Err(format!("game {index}: the record ends before the game")),
    };
    Ok(seen
        .into_iter()
        .map(|(me, x)| Sample {
            game: index,
            x,
            won: winner == Some(me),
            lost: winner.is_some_and(|w| w != me),
        })
        .collect())
}

/// Fits both heads with an L2 penalty `l2`.
pub fn fit(samples: &[Sample], l2: f64, about: &str) -> Result<ValueModel, String> {
    if samples.is_empty() {
        return Err("no samples to fit".into());
    }
    let head = |f: fn(&Sample) -> bool| -> Vec<([f64; INPUTS], f64)> {
        samples
            .iter()
            .map(|s| (s.x, if f(s) { 1.0 } else { 0.0 }))
            .collect()
    };
    let (w, l) = (head(|s| s.won), head(|s| s.lost));
    Ok(ValueModel::new(
        fit_toward(&w, &[0.0; INPUTS], l2),
        fit_toward(&l, &[0.0; INPUTS], l2),
        about,
    ))
}

/// How well a value predicts the held-out games' results.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Accuracy {
    pub positions: usize,
    /// Mean squared error of the value against the game's score (1, 1/2, 0).
    pub brier: f64,
    /// Positions of won or lost games whose value is on the winner's side
    /// of 1/2, as a share of those positions.
    pub winner_right: f64,
    /// Mean log loss of P(win) and of P(loss), when the value has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_loss_win: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_loss_loss: Option<f64>,
}

/// The accuracy of `value` (the expected score for the side that moved).
pub fn accuracy(samples: &[&Sample], value: impl Fn(&Sample) -> f64) -> Accuracy {
    let n = samples.len().max(1) as f64;
    let brier = samples
        .iter()
        .map(|s| (value(s) - s.score()).powi(2))
        .sum::<f64>()
        / n;
    let decisive: Vec<&&Sample> = samples.iter().filter(|s| s.won || s.lost).collect();
    let right = decisive
        .iter()
        .filter(|s| (value(s) > 0.5) == s.won && value(s) != 0.5)
        .count();
    Accuracy {
        positions: samples.len(),
        brier,
        winner_right: right as f64 / decisive.len().max(1) as f64,
        log_loss_win: None,
        log_loss_loss: None,
    }
}

/// [`accuracy`] of a two-head model over inputs `x_of` a sample, with the
/// heads' log losses.
pub fn model_accuracy<const N: usize>(
    samples: &[&Sample],
    win: &[f64; N],
    loss: &[f64; N],
    x_of: impl Fn(&Sample) -> [f64; N],
) -> Accuracy {
    let value = |s: &Sample| {
        let x = x_of(s);
        let (pw, pl) = (
            logistic::sigmoid(logistic::dot(win, &x)),
            logistic::sigmoid(logistic::dot(loss, &x)),
        );
        0.5 + 0.5 * (pw - pl)
    };
    let mut a = accuracy(samples, value);
    let heads = |f: fn(&Sample) -> bool| -> Vec<([f64; N], f64)> {
        samples
            .iter()
            .map(|s| (x_of(s), if f(s) { 1.0 } else { 0.0 }))
            .collect()
    };
    a.log_loss_win = Some(logistic::log_loss(win, &heads(|s| s.won)));
    a.log_loss_loss = Some(logistic::log_loss(loss, &heads(|s| s.lost)));
    a
}

/// The territory share's own inputs for a calibrated comparison: the
/// constant and the share.
pub fn territory_inputs(s: &Sample) -> [f64; 2] {
    [1.0, s.x[2]]
}

/// Two heads over the territory share alone, fitted on `samples`: the
/// territory evaluation made into probabilities as fairly as the learned
/// model is.
pub fn fit_territory(samples: &[Sample], l2: f64) -> ([f64; 2], [f64; 2]) {
    let head = |f: fn(&Sample) -> bool| -> Vec<([f64; 2], f64)> {
        samples
            .iter()
            .map(|s| (territory_inputs(s), if f(s) { 1.0 } else { 0.0 }))
            .collect()
    };
    (
        fit_toward(&head(|s| s.won), &[0.0; 2], l2),
        fit_toward(&head(|s| s.lost), &[0.0; 2], l2),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladderbot::games::golad::agents;
    use ladderbot::games::AgentParams;
    use ladderbot::search::Limits;
    use std::sync::atomic::AtomicBool;

    /// A recorded game between two built-in agents at small budgets.
    fn record(a: &str, b: &str, seed: u64) -> GameRecord {
        let stop = AtomicBool::new(false);
        let mut p = AgentParams::new();
        p.insert("threads".into(), 1.into());
        let mut agents = [a, b].map(|n| {
            let params = if n.starts_with("ab") || n == "best" {
                p.clone()
            } else {
                AgentParams::new()
            };
            agents::build(n, &params, seed).unwrap()
        });
        let start = GolState::start(seed, 100);
        let mut s = start;
        let mut moves = Vec::new();
        while s.outcome().is_none() {
            let m = agents[s.to_move]
                .select(&s, &Limits::playouts(300), &stop)
                .mv;
            moves.push(m.to_string());
            s.apply(m);
        }
        GameRecord {
            game: "golad".into(),
            id: String::new(),
            players: Vec::new(),
            start: start.to_json(),
            moves,
        }
    }

    #[test]
    fn samples_carry_the_replayed_result_for_the_side_that_moved() {
        let rec = record("ab-v1", "random", 3);
        let samples = samples_of(7, &rec, 1).unwrap();
        assert!(!samples.is_empty());
        // ab-v1 moved first and beats random moves: its samples are wins,
        // random's are losses, one per move that did not end the game.
        assert!(samples.len() >= rec.moves.len() - 1);
        for (k, s) in samples.iter().enumerate() {
            assert_eq!(s.game, 7);
            assert_eq!((s.won, s.lost), (k % 2 == 0, k % 2 == 1), "{k}");
            assert_eq!(s.x[10], if k % 2 == 0 { 0.5 } else { -0.5 });
        }
        let mut bad = rec.clone();
        bad.moves.truncate(3);
        assert!(samples_of(0, &bad, 1).is_err());
        bad.moves.push("birth x".into());
        assert!(samples_of(0, &bad, 1).is_err());
    }

    #[test]
    fn a_fit_on_small_data_predicts_its_games_better_than_no_model() {
        let mut samples = Vec::new();
        for (i, (a, b)) in [("ab-v1", "random"), ("random", "ab-v1"), ("ab-v1", "pass")]
            .into_iter()
            .enumerate()
        {
            samples.extend(samples_of(i, &record(a, b, i as u64 + 1), 1).unwrap());
        }
        let m = fit(&samples, 1e-3, "test").unwrap();
        let all: Vec<&Sample> = samples.iter().collect();
        let fitted = accuracy(&all, |s| m.value(&s.x));
        let none = accuracy(&all, |_| 0.5);
        assert!(fitted.brier < none.brier, "{fitted:?} {none:?}");
        assert!(fitted.winner_right > 0.8, "{fitted:?}");
        // The model file round-trips.
        assert_eq!(ValueModel::from_json(&m.to_json()).unwrap(), m);
        let (w, l) = fit_territory(&samples, 1e-3);
        let t = model_accuracy(&all, &w, &l, territory_inputs);
        assert!(t.log_loss_win.is_some() && t.brier < none.brier, "{t:?}");
        assert!(fit(&[], 1e-3, "").is_err());
    }
}
