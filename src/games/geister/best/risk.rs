//! The piece a capture would take, when its colour is unknown: what the
//! capture probe ([`super::probe`]) asks about.

use super::super::rules::{step, Move};
use super::super::view::View;

/// The opponent piece `mv` would take, if its colour is unknown.
pub fn unknown_target(view: &View, mv: Move) -> Option<u8> {
    let from = view.own(mv.piece).square()?;
    let to = step(from, mv.dir, 0)?;
    let q = view.opp_at(to)?;
    view.opp_colour(q).is_none().then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::rules::Dir;

    #[test]
    fn a_capture_names_the_unknown_piece_it_takes() {
        // Our A on (2,2) faces the opponent's piece on (2,1); our B on (4,4)
        // takes nothing. Three of the opponent's reds are taken.
        let v = View::from_gat("22R44R34R14R15B25B35B45B21u31u41u11u40u99r99r99r").unwrap();
        assert_eq!(unknown_target(&v, Move::new(0, Dir::N)), Some(0));
        assert_eq!(unknown_target(&v, Move::new(1, Dir::N)), None);
    }
}
