//! The fast offline measure of judgement (issue 59), run on labelled
//! positions before any match: how often an evaluation predicts the
//! result (win, draw or loss for the side to move) that the label gives,
//! and its log loss, per band of plies and per kind of label
//! ([`LabelKind`]); and, in games one side lost, the first ply at which a
//! search calls that side's position lost.

use serde::Serialize;

use super::train::{replay, LabelKind, PlayedGame, Sample};
use ladderbot::games::four3d::Board;
use ladderbot::search::logistic;
use ladderbot::search::Game as _;

/// A band of plies, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Band {
    pub from: u32,
    pub to: u32,
}

impl Band {
    /// `FROM-TO` bands separated by commas (`0-19,20-27,28-36,37-63`).
    pub fn parse_list(text: &str) -> Result<Vec<Band>, String> {
        text.split(',')
            .map(|b| {
                let bad = || format!("band '{b}': expected FROM-TO, plies 0..=63, FROM <= TO");
                let (from, to) = b.trim().split_once('-').ok_or_else(bad)?;
                let (from, to): (u32, u32) = (
                    from.trim().parse().map_err(|_| bad())?,
                    to.trim().parse().map_err(|_| bad())?,
                );
                if from > to || to > 63 {
                    return Err(bad());
                }
                Ok(Band { from, to })
            })
            .collect()
    }

    pub fn contains(&self, ply: u32) -> bool {
        (self.from..=self.to).contains(&ply)
    }
}

impl std::fmt::Display for Band {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// The bands `judge` prints by default: the opening, the early middle
/// game, the late middle game where issue 47 found the games turn, and
/// the end.
pub const DEFAULT_BANDS: &str = "0-19,20-27,28-36,37-63";

/// The result a win share stands for: 2 a win, 1 a draw, 0 a loss.
fn result_of_share(share: f64) -> u8 {
    if share > 0.5 {
        2
    } else if share < 0.5 {
        0
    } else {
        1
    }
}

/// An evaluation's figures on one set of positions.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Figures {
    pub positions: usize,
    /// The share of positions whose result the evaluation's sign predicts
    /// (above 0 a win, below a loss, 0 a draw) as the label gives it (a
    /// solved or game result; a deep search's win share above, below or
    /// at 1/2).
    pub accuracy: f64,
    /// The mean log loss of the evaluation's win share, `sigmoid(value /
    /// 200)`, against the label.
    pub log_loss: f64,
}

/// One line of the table: the positions of a band with one kind of label.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub band: Band,
    pub kind: LabelKind,
    pub figures: Figures,
}

/// Judges `value` (evaluation units for the side to move) on `samples`:
/// a row for each band and kind of label with positions, bands in the
/// given order and kinds solved, deep, result.
pub fn judge(
    samples: &[&Sample],
    bands: &[Band],
    mut value: impl FnMut(&Board) -> f64,
) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let values: Vec<f64> = samples
        .iter()
        .map(|s| Ok(value(&replay(&s.pegs)?)))
        .collect::<Result<_, String>>()?;
    for band in bands {
        for kind in [LabelKind::Solved, LabelKind::Deep, LabelKind::Result] {
            let (mut n, mut right, mut loss) = (0usize, 0usize, 0.0);
            for (s, &v) in samples.iter().zip(&values) {
                if s.kind() != kind || !band.contains(s.ply()) {
                    continue;
                }
                n += 1;
                let predicted = if v > 0.0 {
                    2
                } else if v < 0.0 {
                    0
                } else {
                    1
                };
                right += usize::from(predicted == result_of_share(s.label));
                let p = logistic::sigmoid(v / ladderbot::games::four3d::best::fitted::SCALE)
                    .clamp(1e-12, 1.0 - 1e-12);
                loss -= s.label * p.ln() + (1.0 - s.label) * (1.0 - p).ln();
            }
            if n > 0 {
                rows.push(Row {
                    band: *band,
                    kind,
                    figures: Figures {
                        positions: n,
                        accuracy: right as f64 / n as f64,
                        log_loss: loss / n as f64,
                    },
                });
            }
        }
    }
    Ok(rows)
}

/// The loser of a decided game (its seat), if the game was decided.
pub fn loser(game: &PlayedGame) -> Option<usize> {
    game.winner.map(|w| 1 - w as usize)
}

/// In a game one side lost, the first ply from `from` on at which the
/// loser is to move and `share` (its win share as a search sees it;
/// `None` where nothing is searched: a forced drop) is at most
/// `threshold`: where the search first calls the game lost. `None` for a
/// drawn game and for one the search never calls lost. (The lab's `judge
/// --lost` calls [`first_call`] with the loser it knows.)
#[cfg(test)]
pub fn first_lost_call(
    game: &PlayedGame,
    from: u32,
    threshold: f64,
    share: impl FnMut(&Board) -> Option<f64>,
) -> Result<Option<u32>, String> {
    match loser(game) {
        Some(seat) => first_call(game, seat, from, threshold, share),
        None => Ok(None),
    }
}

/// The first ply from `from` on at which `seat` is to move and `share`
/// is at most `threshold` (for the winner of a game, a false call).
pub fn first_call(
    game: &PlayedGame,
    seat: usize,
    from: u32,
    threshold: f64,
    mut share: impl FnMut(&Board) -> Option<f64>,
) -> Result<Option<u32>, String> {
    let mut b = replay(&game.pegs[..(from as usize).min(game.pegs.len())])?;
    for n in from as usize..game.pegs.len() {
        if b.to_move() == seat && share(&b).is_some_and(|s| s <= threshold) {
            return Ok(Some(n as u32));
        }
        b.play(ladderbot::games::four3d::Peg(game.pegs[n]));
    }
    Ok(None)
}

/// The median of `xs` (the mean of the middle two of an even count).
pub fn median(xs: &[u32]) -> Option<f64> {
    let mut v = xs.to_vec();
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2] as f64),
        _ => Some((v[n / 2 - 1] + v[n / 2]) as f64 / 2.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(pegs: &[u8], label: f64, solved: bool, deep: Option<u64>) -> Sample {
        Sample {
            game: 0,
            pegs: pegs.to_vec(),
            label,
            solved,
            value: None,
            deep,
            result: None,
        }
    }

    #[test]
    fn bands_parse_and_bad_ones_are_refused() {
        let b = Band::parse_list(DEFAULT_BANDS).unwrap();
        assert_eq!(b.len(), 4);
        assert_eq!(
            (b[2].from, b[2].to, b[2].to_string()),
            (28, 36, "28-36".into())
        );
        assert!(b[2].contains(28) && b[2].contains(36) && !b[2].contains(37));
        for bad in ["", "5", "9-3", "0-64", "a-3", "1-2,"] {
            assert!(Band::parse_list(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn results_are_predicted_by_the_sign_and_counted_per_band_and_kind() {
        // Plies 1, 2, 3: the value is +100 at odd plies, -100 at even.
        let s = [
            sample(&[0], 1.0, true, None),           // ply 1, predicted win: right
            sample(&[0, 1], 1.0, true, None),        // ply 2, predicted loss: wrong
            sample(&[0, 1, 2], 0.5, true, None),     // ply 3, a draw: wrong
            sample(&[0, 1, 2], 0.7, false, Some(9)), // deep, share 0.7: right
            sample(&[0, 1], 0.0, false, None),       // result, a loss: right
        ];
        let refs: Vec<&Sample> = s.iter().collect();
        let bands = Band::parse_list("0-2,3-63").unwrap();
        let v = |b: &Board| if b.ply() % 2 == 1 { 100.0 } else { -100.0 };
        let rows = judge(&refs, &bands, v).unwrap();
        let got: Vec<(String, LabelKind, usize, f64)> = rows
            .iter()
            .map(|r| {
                (
                    r.band.to_string(),
                    r.kind,
                    r.figures.positions,
                    r.figures.accuracy,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("0-2".into(), LabelKind::Solved, 2, 0.5),
                ("0-2".into(), LabelKind::Result, 1, 1.0),
                ("3-63".into(), LabelKind::Solved, 1, 0.0),
                ("3-63".into(), LabelKind::Deep, 1, 1.0),
            ]
        );
        // Log loss against two wins: sigmoid(100 / 200) at ply 1 and
        // sigmoid(-100 / 200) at ply 2.
        let p: f64 = 1.0 / (1.0 + (-0.5f64).exp());
        let expect = (-p.ln() - (1.0 - p).ln()) / 2.0;
        assert!((rows[0].figures.log_loss - expect).abs() < 1e-9);
        // A zero value predicts a draw.
        let rows = judge(&refs, &bands, |_| 0.0).unwrap();
        assert_eq!(rows[2].figures.accuracy, 1.0);
    }

    #[test]
    fn the_first_lost_call_is_on_the_losers_move() {
        let game = PlayedGame {
            pegs: vec![0, 1, 2, 3, 4, 5, 6, 7],
            winner: Some(0),
            explored: vec![],
        };
        // The loser (seat 1) moves at odd plies; the search calls it lost
        // from ply 4 on (a share of 0.1), but ply 4 is the winner's move.
        let call = |b: &Board| Some(if b.ply() >= 4 { 0.1 } else { 0.6 });
        assert_eq!(first_lost_call(&game, 0, 0.15, call).unwrap(), Some(5));
        assert_eq!(first_lost_call(&game, 6, 0.15, call).unwrap(), Some(7));
        // Never called lost, or not searched: None.
        assert_eq!(
            first_lost_call(&game, 0, 0.15, |_| Some(0.5)).unwrap(),
            None
        );
        assert_eq!(first_lost_call(&game, 0, 0.15, |_| None).unwrap(), None);
        let drawn = PlayedGame {
            winner: None,
            ..game
        };
        assert_eq!(first_lost_call(&drawn, 0, 0.15, call).unwrap(), None);
        // The winner (seat 0) moves at even plies: called lost at 4.
        assert_eq!(first_call(&drawn, 0, 0, 0.15, call).unwrap(), Some(4));
        assert_eq!(median(&[36, 30, 34]), Some(34.0));
        assert_eq!(median(&[30, 35]), Some(32.5));
        assert_eq!(median(&[]), None);
    }
}
