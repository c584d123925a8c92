//! Helpers for the Geister unit tests: hand-made positions.

use super::rules::{Place, Square, PIECES};
use super::view::View;

/// A view from our 24-character half and the opponent's.
pub fn view(own: &str, opp: &str) -> View {
    View::from_gat(&format!("{own}{opp}")).unwrap()
}

/// Places from squares (pieces past the list are captured).
pub fn places(sqs: &[(u8, u8)]) -> [Place; PIECES] {
    let mut out = [Place::Captured; PIECES];
    for (i, &(x, y)) in sqs.iter().enumerate() {
        out[i] = Place::At(Square::new(x, y));
    }
    out
}

pub fn sq(x: u8, y: u8) -> Square {
    Square::new(x, y)
}
