//! Board geometry shared by the rule-based pieces of the Geister agents,
//! in a player's own frame ([`super::View`]): y = 0 is the opponent's back
//! row, our exits are its corners, the opponent's exits ours.

use super::rules::{step, Dir, Place, Square, PIECES};

/// Manhattan distance.
pub fn dist(a: Square, b: Square) -> u8 {
    a.x().abs_diff(b.x()) + a.y().abs_diff(b.y())
}

pub fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    Dir::ALL.into_iter().filter_map(move |d| step(sq, d, 0))
}

pub fn occupied(places: &[Place; PIECES], sq: Square) -> bool {
    places.contains(&Place::At(sq))
}

/// How many of the four sides of `sq` touch one of `pieces`.
pub fn contacts(sq: Square, pieces: &[Place; PIECES]) -> u32 {
    neighbours(sq).filter(|&n| occupied(pieces, n)).count() as u32
}

/// Our exits (the opponent's back corners) and the opponent's (ours).
pub const OUR_EXITS: [Square; 2] = [Square(0), Square(5)];
pub const THEIR_EXITS: [Square; 2] = [Square(30), Square(35)];
