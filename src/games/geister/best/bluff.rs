//! The bluffing lever: what our moves tell an opponent about our colours.
//!
//! [`Exposure`] follows the game as the opponent sees it
//! ([`View::seen_by_opponent`]) with the same [`Evidence`] tracker `best`
//! keeps on the opponent's pieces, so that a belief model (by default
//! `best`'s own shipped one, a stand-in for an opponent that reads moves the
//! way `best` does) can score how *readable* we are after a move: the log
//! likelihood it gives our true colours. Among root moves the search finds
//! nearly as good as its choice, `best` with `bluff` > 0 plays the one that
//! leaves us least readable.

use super::super::rules::{Colour, Move, PIECES};
use super::super::view::View;
use super::evidence::Evidence;
use super::learned::BeliefModel;

/// The opponent's-eye evidence on our pieces.
#[derive(Clone, Debug, Default)]
pub struct Exposure {
    ev: Evidence,
}

/// The opponent's view right after our move `mv` in `view` (our turn),
/// `None` if `mv` is not legal there. A capture's colour is not known before
/// the server says it; a placeholder that does not end the game stands in
/// (it does not change what our pieces did).
fn after(view: &View, mv: Move) -> Option<View> {
    let mut v = *view;
    let placeholder = if view.opp_captured(Colour::Red) < 3 {
        Colour::Red
    } else {
        Colour::Blue
    };
    v.play(mv, Some(placeholder)).ok()?;
    Some(v.seen_by_opponent())
}

impl Exposure {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forget the previous game.
    pub fn reset(&mut self) {
        self.ev.reset();
    }

    /// Our turn in `view`: the opponent has just moved (or the game starts).
    pub fn our_turn(&mut self, view: &View) {
        self.ev.after_own_move(&view.seen_by_opponent());
    }

    /// We play `mv` in `view`: the opponent sees it.
    pub fn our_move(&mut self, view: &View, mv: Move) {
        if let Some(seen) = after(view, mv) {
            self.ev.observe(&seen);
        }
    }

    /// How readable our pieces are after `mv` in `view`: the sum, over our
    /// pieces on the board, of the log-probability `model` gives each
    /// piece's true colour from what the opponent has seen (0 = read
    /// perfectly; lower = better hidden). `None` if `mv` is not legal.
    pub fn readability(&self, view: &View, mv: Move, model: &BeliefModel) -> Option<f64> {
        let seen = after(view, mv)?;
        let mut ev = self.ev.clone();
        ev.observe(&seen);
        let mut total = 0.0;
        for p in 0..PIECES as u8 {
            let Some(f) = ev.features(&seen, p) else {
                continue;
            };
            let z = model.log_odds(&f);
            let z = if view.own_colour(p) == Colour::Blue {
                z
            } else {
                -z
            };
            // ln sigmoid(z), stable for large |z|.
            total -= (-z).exp().ln_1p().max(-z);
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::rules::Dir;
    use crate::games::geister::testing::view;

    #[test]
    fn the_opponents_view_mirrors_ours() {
        let v = view("14R24R34R44R15B25B35B45B", "41u31u21u11u40u30u20u10u");
        let o = v.seen_by_opponent();
        assert_eq!((o.seat(), o.my_turn(), o.ply()), (1, false, 0));
        for p in 0..PIECES as u8 {
            assert_eq!(o.own(p), v.opp(p).rotated());
            assert_eq!(o.opp(p), v.own(p).rotated());
            assert_eq!(o.opp_colour(p), None, "our pieces on the board are hidden");
        }
        assert_eq!(o.seen_by_opponent().own_places(), v.own_places());
    }

    #[test]
    fn a_step_forward_gives_a_blue_away_and_hides_a_red() {
        let model = BeliefModel::shipped();
        // Our blue E on (0,3), in front, and red A on (1,4).
        let v = view("14R24R34R44R03B25B35B45B", "41u31u21u11u40u30u20u10u");
        let mut e = Exposure::new();
        e.our_turn(&v);
        let blue_forward = e.readability(&v, Move::new(4, Dir::N), model).unwrap();
        let red_forward = e.readability(&v, Move::new(0, Dir::N), model).unwrap();
        assert!(blue_forward <= 0.0 && red_forward <= 0.0);
        // The model reads forward steps as blue: the red's step misleads it.
        assert!(red_forward < blue_forward, "{red_forward} {blue_forward}");
        // An illegal move has no readability.
        assert!(e.readability(&v, Move::new(4, Dir::E), model).is_some());
        assert!(e.readability(&v, Move::new(0, Dir::E), model).is_none());
        // The move played is counted: the red that stepped forward stays
        // misread at the next turn, whatever we play then.
        e.our_move(&v, Move::new(0, Dir::N));
        let mut next = v;
        next.play(Move::new(0, Dir::N), None).unwrap();
        // (the opponent's answer does not matter here: our turn again)
        next.set_context(0, 2, true);
        e.our_turn(&next);
        let mut fresh = Exposure::new();
        fresh.our_turn(&next);
        let seen = |x: &Exposure| x.readability(&next, Move::new(7, Dir::E), model);
        let (counted, not) = (seen(&e).unwrap(), seen(&fresh).unwrap());
        assert!(counted < not, "{counted} {not}");
    }
}
