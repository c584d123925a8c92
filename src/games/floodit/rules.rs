//! The two-player Flood-It position: the board's free cells by colour, both
//! territories as bitsets, both pivot colours, and the ply. Pure data and
//! functions; territory growth is a masked dilation ([`Shape::grow`]).

use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::bits::{Bits, Shape};
use crate::search::{Game, Outcome, Seat};

/// Default board: 14 x 14 with 6 colours.
pub const DEFAULT_ROWS: usize = 14;
pub const DEFAULT_COLS: usize = 14;
pub const DEFAULT_COLOURS: u8 = 6;
/// Board sides and colour counts the rules accept.
pub const SIDES: std::ops::RangeInclusive<usize> = 2..=32;
pub const COLOURS: std::ops::RangeInclusive<u8> = 3..=8;

/// What never changes during a game: the shape, the colour count, and the
/// colour of every cell that is not (yet) in a territory, as one mask per
/// colour. A territory's cells take their owner's colour; the masks keep the
/// colour they had before, which no rule reads again.
#[derive(Debug, PartialEq, Eq)]
pub struct Layout {
    pub shape: Shape,
    pub colours: u8,
    pub masks: Vec<Bits>,
    /// The game ends after this many plies whatever the board (4 x cells).
    pub max_plies: u32,
}

/// A two-player Flood-It position. Colours are 0-based here (1-based on the
/// wire). Seat 0's pivot is the top-left cell, seat 1's the bottom-right.
#[derive(Clone, Debug)]
pub struct FloodIt {
    layout: Arc<Layout>,
    terr: [Bits; 2],
    colour: [u8; 2],
    ply: u32,
}

impl PartialEq for FloodIt {
    fn eq(&self, o: &Self) -> bool {
        self.cells() == o.cells()
            && self.ply == o.ply
            && self.rows() == o.rows()
            && self.colours() == o.colours()
    }
}

impl FloodIt {
    /// A seeded random board: every cell's colour uniform in 0..colours
    /// (`SmallRng::seed_from_u64(seed)`, row by row); if the two pivots
    /// drew the same colour, the bottom-right pivot takes the next colour.
    pub fn random(rows: usize, cols: usize, colours: u8, seed: u64) -> Result<FloodIt, String> {
        check_size(rows, cols, colours)?;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut cells: Vec<u8> = (0..rows * cols)
            .map(|_| rng.gen_range(0..colours))
            .collect();
        let last = cells.len() - 1;
        if cells[last] == cells[0] {
            cells[last] = (cells[0] + 1) % colours;
        }
        FloodIt::from_cells(rows, cols, colours, &cells, 0)
    }

    /// The position whose cells have the colours `cells` (row-major,
    /// 0-based) after `ply` plies: each territory is its pivot's connected
    /// region of the pivot's colour. The pivots must differ in colour.
    pub fn from_cells(
        rows: usize,
        cols: usize,
        colours: u8,
        cells: &[u8],
        ply: u32,
    ) -> Result<FloodIt, String> {
        check_size(rows, cols, colours)?;
        if cells.len() != rows * cols {
            return Err(format!("{} cells for a {rows} x {cols} board", cells.len()));
        }
        if let Some(c) = cells.iter().find(|&&c| c >= colours) {
            return Err(format!("colour {} outside 1..={colours}", c + 1));
        }
        let last = cells.len() - 1;
        if cells[0] == cells[last] {
            return Err("the two pivots have the same colour".into());
        }
        let shape = Shape::new(rows, cols);
        let mut masks = vec![Bits::EMPTY; colours as usize];
        for (i, &c) in cells.iter().enumerate() {
            masks[c as usize].set(i);
        }
        let max_plies = 4 * (rows * cols) as u32;
        if ply > max_plies {
            return Err(format!("ply {ply} beyond the limit {max_plies}"));
        }
        let pivot = |i: usize| {
            let mut b = Bits::EMPTY;
            b.set(i);
            shape.grow(&b, &masks[cells[i] as usize])
        };
        let terr = [pivot(0), pivot(last)];
        Ok(FloodIt {
            layout: Arc::new(Layout {
                shape,
                colours,
                masks,
                max_plies,
            }),
            terr,
            colour: [cells[0], cells[last]],
            ply,
        })
    }

    pub fn rows(&self) -> usize {
        self.layout.shape.rows
    }
    pub fn cols(&self) -> usize {
        self.layout.shape.cols
    }
    pub fn colours(&self) -> u8 {
        self.layout.colours
    }
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    pub fn ply(&self) -> u32 {
        self.ply
    }
    /// `seat`'s territory.
    pub fn territory(&self, seat: Seat) -> &Bits {
        &self.terr[seat]
    }
    /// `seat`'s pivot colour (0-based).
    pub fn colour(&self, seat: Seat) -> u8 {
        self.colour[seat]
    }
    /// `seat`'s territory size.
    pub fn area(&self, seat: Seat) -> u32 {
        self.terr[seat].count()
    }
    /// The cells in neither territory.
    pub fn free(&self) -> Bits {
        let w = self.layout.shape.words;
        self.layout
            .shape
            .full
            .and_not(&self.terr[0].or(&self.terr[1], w), w)
    }
    /// The current colour of every cell, row-major, 0-based.
    pub fn cells(&self) -> Vec<u8> {
        let n = self.rows() * self.cols();
        let mut out = vec![0u8; n];
        for (c, m) in self.layout.masks.iter().enumerate() {
            for i in m.iter() {
                out[i] = c as u8;
            }
        }
        for seat in 0..2 {
            for i in self.terr[seat].iter() {
                out[i] = self.colour[seat];
            }
        }
        out
    }
    /// Whether `c` is a colour the seat to move may choose.
    #[inline]
    pub fn allowed(&self, c: u8) -> bool {
        c < self.layout.colours && c != self.colour[0] && c != self.colour[1]
    }
    /// The territory the seat to move would have after choosing `c`.
    #[inline]
    pub fn grown(&self, c: u8) -> Bits {
        let me = self.to_move();
        let l = &*self.layout;
        let w = l.shape.words;
        let mask = l.masks[c as usize].and_not(&self.terr[1 - me], w);
        l.shape.grow(&self.terr[me], &mask)
    }
    /// Cells the seat to move gains by choosing `c`.
    pub fn gain(&self, c: u8) -> u32 {
        self.grown(c).count() - self.terr[self.to_move()].count()
    }
    /// Whether `seat`'s territory touches no free cell: it can never grow
    /// again, and every free cell can only go to the other seat.
    #[inline]
    pub fn enclosed(&self, seat: Seat) -> bool {
        let sh = &self.layout.shape;
        let w = sh.words;
        let touch = sh.dilate(&self.terr[seat]);
        (0..w).all(|i| touch.0[i] & !self.terr[0].0[i] & !self.terr[1].0[i] == 0)
    }
    /// `seat`'s score: its territory, plus the free cells once the other
    /// seat is enclosed (they can only be `seat`'s).
    pub fn score(&self, seat: Seat) -> u32 {
        let free = self.free().count();
        if free > 0 && self.enclosed(1 - seat) && !self.enclosed(seat) {
            self.area(seat) + free
        } else {
            self.area(seat)
        }
    }
    fn result(&self) -> Outcome {
        let (a, b) = (self.score(0), self.score(1));
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
    /// Whether the game is over: a seat is enclosed (which includes every
    /// cell being owned), or the ply limit.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.ply >= self.layout.max_plies || self.enclosed(0) || self.enclosed(1)
    }

    /// The `i`-th allowed colour (0 <= i < colours - 2), ascending.
    #[inline]
    pub fn nth_allowed(&self, i: u8) -> u8 {
        let (lo, hi) = if self.colour[0] < self.colour[1] {
            (self.colour[0], self.colour[1])
        } else {
            (self.colour[1], self.colour[0])
        };
        let mut c = i;
        if c >= lo {
            c += 1;
        }
        if c >= hi {
            c += 1;
        }
        c
    }
}

fn check_size(rows: usize, cols: usize, colours: u8) -> Result<(), String> {
    if !SIDES.contains(&rows) || !SIDES.contains(&cols) {
        return Err(format!(
            "board {rows} x {cols}: each side must be in {}..={}",
            SIDES.start(),
            SIDES.end()
        ));
    }
    if !COLOURS.contains(&colours) {
        return Err(format!(
            "{colours} colours: must be in {}..={}",
            COLOURS.start(),
            COLOURS.end()
        ));
    }
    Ok(())
}

impl Game for FloodIt {
    type Move = u8;

    #[inline]
    fn to_move(&self) -> Seat {
        (self.ply & 1) as Seat
    }
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.result())
    }
    fn legal_moves(&self) -> Vec<u8> {
        if self.is_over() {
            return Vec::new();
        }
        (0..self.layout.colours)
            .filter(|&c| self.allowed(c))
            .collect()
    }
    #[inline]
    fn play(&mut self, c: u8) {
        let me = self.to_move();
        self.terr[me] = self.grown(c);
        self.colour[me] = c;
        self.ply += 1;
    }
    #[inline]
    fn is_legal(&self, c: u8) -> bool {
        !self.is_over() && self.allowed(c)
    }
    /// Uniformly random allowed colours to the end, no allocation.
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        let choices = self.layout.colours - 2;
        while !self.is_over() {
            let c = self.nth_allowed(rng.gen_range(0..choices));
            self.play(c);
        }
        self.result()
    }
}

/// A board drawn as rows of 1-based colour digits (tests): as many colours
/// as the largest digit, at least 3.
#[cfg(test)]
pub(crate) fn board(rows: &[&str]) -> FloodIt {
    let cols = rows[0].len();
    let cells: Vec<u8> = rows
        .iter()
        .flat_map(|r| r.bytes().map(|b| b - b'1'))
        .collect();
    let k = (*cells.iter().max().unwrap() + 1).max(3);
    FloodIt::from_cells(rows.len(), cols, k, &cells, 0).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn territories_start_as_the_pivot_regions() {
        let g = board(&["1123", "1223", "3332"]);
        assert_eq!(g.area(0), 3);
        assert_eq!(g.area(1), 1); // (2,3) alone: its neighbours are colour 3
        assert_eq!(g.colour(0), 0);
        assert_eq!(g.colour(1), 1);
    }

    #[test]
    fn a_move_absorbs_the_connected_cells_of_the_new_colour() {
        let g = board(&["1123", "1223", "3332"]);
        // Seat 0 (colour 1) may choose neither 1 nor 2 (seat 1's): only 3.
        assert_eq!(g.legal_moves(), vec![2]);
        let mut h = g.clone();
        h.play(2);
        // (0,0),(0,1),(1,0) plus the 3s touching them: (2,0),(2,1),(2,2).
        assert_eq!(h.area(0), 6);
        assert_eq!(h.colour(0), 2);
        assert_eq!(h.to_move(), 1);
        assert_eq!(h.cells()[0], 2);
    }

    #[test]
    fn the_game_ends_when_every_cell_is_owned_and_the_larger_side_wins() {
        let mut g = board(&["12", "32"]);
        // Seat 0: {(0,0)}; seat 1: {(0,1), (1,1)}; (1,0) is free, colour 3.
        assert!(g.outcome().is_none());
        g.play(2);
        assert_eq!(g.area(0), 2);
        assert_eq!(g.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn an_enclosed_territory_ends_the_game_and_the_free_cells_go_to_the_other() {
        // Seat 1 (the bottom-right 2) touches only seat 0's cells and the
        // edge once seat 0 takes the 3s around it; the two 4s left free
        // can only be seat 0's.
        let mut g = board(&["134", "333", "432"]);
        assert!(!g.is_over());
        assert_eq!(g.area(1), 1);
        g.play(2);
        assert_eq!(g.area(0), 6);
        assert!(g.enclosed(1));
        assert!(g.is_over());
        let free = g.free().count();
        assert!(free > 0);
        assert_eq!(g.score(0), g.area(0) + free);
        assert_eq!(g.score(1), 1);
        assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    }

    #[test]
    fn pivots_of_one_colour_are_refused_and_random_boards_avoid_them() {
        assert!(FloodIt::from_cells(2, 2, 3, &[0, 1, 1, 0], 0).is_err());
        for seed in 0..200 {
            let g = FloodIt::random(5, 7, 3, seed).unwrap();
            assert_ne!(g.colour(0), g.colour(1));
        }
        assert!(FloodIt::random(1, 7, 3, 0).is_err());
        assert!(FloodIt::random(7, 33, 3, 0).is_err());
        assert!(FloodIt::random(7, 7, 9, 0).is_err());
        assert!(FloodIt::random(7, 7, 2, 0).is_err());
    }

    #[test]
    fn nth_allowed_lists_the_allowed_colours() {
        for seed in 0..50 {
            let mut g = FloodIt::random(6, 6, 6, seed).unwrap();
            let mut rng = SmallRng::seed_from_u64(seed);
            while !g.is_over() {
                let listed: Vec<u8> = (0..4).map(|i| g.nth_allowed(i)).collect();
                assert_eq!(listed, g.legal_moves());
                let mv = listed[rng.gen_range(0..4)];
                g.play(mv);
            }
        }
    }
}
