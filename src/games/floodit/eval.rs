//! Evaluation: who can still reach the free cells first.
//!
//! A free cell is `d` moves from a territory when `d` recolourings can
//! absorb it (the distance over the board's colour regions). Both sides
//! spread one move at a time; a cell reached first by one side is that
//! side's, a cell both reach on the same step is nobody's and blocks both.
//! Bit-parallel: one step is, for every colour, the free cells of that
//! colour connected to the cells next to what a side holds.

use super::bits::Bits;
use super::rules::FloodIt;
use crate::search::Seat;

/// The `open` cells one recolouring step from `held`, whatever the
/// colour: every colour region of `open` that touches `held`.
fn one_step(g: &FloodIt, held: &Bits, open: &Bits) -> Bits {
    let l = g.layout();
    let shape = &l.shape;
    let w = shape.words;
    let edge = shape.dilate(held).and(open, w);
    let mut got = Bits::EMPTY;
    if edge.is_empty(w) {
        return got;
    }
    for m in &l.masks {
        let region = m.and(open, w);
        let seed = edge.and(&region, w);
        if !seed.is_empty(w) {
            got = got.or(&shape.grow(&seed, &region), w);
        }
    }
    got
}

/// Cells each side reaches first (its territory not included), and the
/// cells reached by neither (contested, or walled off).
pub fn reach_first(g: &FloodIt) -> [u32; 2] {
    let w = g.layout().shape.words;
    let mut held = [*g.territory(0), *g.territory(1)];
    let mut open = g.free();
    let mut reach = [0u32; 2];
    loop {
        let new = [one_step(g, &held[0], &open), one_step(g, &held[1], &open)];
        if new[0].is_empty(w) && new[1].is_empty(w) {
            return reach;
        }
        let both = new[0].and(&new[1], w);
        for seat in 0..2 {
            let mine = new[seat].and_not(&both, w);
            reach[seat] += mine.count();
            held[seat] = held[seat].or(&mine, w);
        }
        open = open.and_not(&new[0].or(&new[1], w), w);
    }
}

/// Territory plus the cells reached first, `seat`'s minus the opponent's.
pub fn territory_and_reach(g: &FloodIt, seat: Seat) -> i32 {
    let r = reach_first(g);
    let own = (g.area(seat) + r[seat]) as i32;
    let other = (g.area(1 - seat) + r[1 - seat]) as i32;
    own - other
}

#[cfg(test)]
mod tests {
    use super::super::rules::board;
    use super::*;

    #[test]
    fn the_nearer_side_reaches_a_region_first() {
        // Seat 0 holds (0,0); seat 1 the 2s of the last column. The 3s
        // touch seat 0 only, the 4s seat 1 only.
        let g = board(&["13442", "33442", "33442"]);
        assert_eq!(g.area(0), 1);
        assert_eq!(g.area(1), 3);
        assert_eq!(reach_first(&g), [5, 6]);
        assert_eq!(territory_and_reach(&g, 0), 6 - 9);
    }

    #[test]
    fn equal_distance_cells_go_to_nobody() {
        // Seat 0 holds the first column, seat 1 the last; the middle column
        // is two moves from both.
        let g = board(&["13432", "13432"]);
        let r = reach_first(&g);
        assert_eq!(r, [2, 2]);
        assert_eq!(territory_and_reach(&g, 0), 0);
    }
}
