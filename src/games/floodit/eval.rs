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

/// Like [`reach_first`], but the sides spread in turn, the seat to move
/// first, so a cell both could reach on the same step goes to the mover.
pub fn race(g: &FloodIt) -> [u32; 2] {
    use crate::search::Game;
    let w = g.layout().shape.words;
    let mut held = [*g.territory(0), *g.territory(1)];
    let mut open = g.free();
    let mut reach = [0u32; 2];
    let mut seat = g.to_move();
    let mut idle = 0;
    while idle < 2 {
        let got = one_step(g, &held[seat], &open);
        if got.is_empty(w) {
            idle += 1;
        } else {
            idle = 0;
            reach[seat] += got.count();
            held[seat] = held[seat].or(&got, w);
            open = open.and_not(&got, w);
        }
        seat = 1 - seat;
    }
    reach
}

/// Territory plus the cells won in [`race`], `seat`'s minus the opponent's.
pub fn territory_and_race(g: &FloodIt, seat: Seat) -> i32 {
    let r = race(g);
    (g.area(seat) + r[seat]) as i32 - (g.area(1 - seat) + r[1 - seat]) as i32
}

/// Territory plus the cells reached first, `seat`'s minus the opponent's.
pub fn territory_and_reach(g: &FloodIt, seat: Seat) -> i32 {
    let r = reach_first(g);
    let own = (g.area(seat) + r[seat]) as i32;
    let other = (g.area(1 - seat) + r[1 - seat]) as i32;
    own - other
}

/// Both sides take their largest immediate gain (the lowest colour among
/// equal gains) for up to `plies` plies, then [`territory_and_reach`] for
/// `seat` (or the final margin if the game ended).
pub fn greedy_then_reach(g: &FloodIt, seat: Seat, plies: u32) -> i32 {
    let mut p = g.clone();
    for _ in 0..plies {
        if p.is_over() {
            return p.score(seat) as i32 - p.score(1 - seat) as i32;
        }
        p.play_largest_gain();
    }
    territory_and_reach(&p, seat)
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
        // In the race the side to move (seat 0) takes the middle column.
        assert_eq!(race(&g), [4, 2]);
        assert_eq!(territory_and_race(&g, 0), 2);
    }
}
