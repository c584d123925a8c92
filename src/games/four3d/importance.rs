//! Cell importance from the Erdos-Selfridge potential, as the seed defines
//! it: number each cell, weigh each winning line by the product of its
//! cells' numbers, and sum the weights of the lines through a free cell.
//!
//! - Maker importance (for the side to move): own cell 2, opponent 0, empty 1.
//! - Breaker importance: own 0, opponent 2, empty 1.
//!
//! The free cell itself counts 1, so a line through it weighs `2^k` where k
//! is the count of the numbered-2 stones on it, or 0 if it holds a stone
//! numbered 0. With bitboards that is a mask test and a popcount per line.

use rand::Rng;

use super::bitboard::{Board, Peg};
use super::lines::{CELL_LINES, CELL_LINE_IDS, LINES, LINE_CELLS};
use crate::search::Game;

/// Maker importance of the free cell `cell` for the side owning `me`.
#[inline]
pub fn maker(me: u64, opp: u64, cell: u32) -> u32 {
    let cl = &CELL_LINES[cell as usize];
    let mut sum = 0;
    for &line in &cl.masks[..cl.len as usize] {
        if line & opp == 0 {
            sum += 1 << (line & me).count_ones();
        }
    }
    sum
}

/// Breaker importance of the free cell `cell` for the side owning `me`.
#[inline]
pub fn breaker(me: u64, opp: u64, cell: u32) -> u32 {
    maker(opp, me, cell)
}

/// Maker + Breaker importance, computed over each line once.
#[inline]
pub fn importance(me: u64, opp: u64, cell: u32) -> u32 {
    let cl = &CELL_LINES[cell as usize];
    let mut sum = 0;
    for &line in &cl.masks[..cl.len as usize] {
        let (m, o) = (line & me, line & opp);
        if o == 0 {
            sum += 1 << m.count_ones();
        }
        if m == 0 {
            sum += 1 << o.count_ones();
        }
    }
    sum
}

/// The peg whose landing cell has the largest Maker + Breaker importance
/// for the side to move; ties are broken uniformly at random.
pub fn most_important_peg<R: Rng + ?Sized>(b: &Board, rng: &mut R) -> Option<Peg> {
    let seat = b.to_move();
    let (me, opp) = (b.stones(seat), b.stones(1 - seat));
    let mut cells = b.drop_cells();
    let (mut best, mut best_v, mut ties) = (None, 0u32, 0u32);
    while cells != 0 {
        let cell = cells.trailing_zeros();
        cells &= cells - 1;
        let v = importance(me, opp, cell);
        if best.is_none() || v > best_v {
            (best, best_v, ties) = (Some(cell), v, 1);
        } else if v == best_v {
            // Reservoir sampling over the tied cells.
            ties += 1;
            if rng.gen_range(0..ties) == 0 {
                best = Some(cell);
            }
        }
    }
    best.map(|c| Peg((c & 15) as u8))
}

/// Weight of a line for Maker + Breaker, given the two sides' stone counts
/// on it: `2^a` if the other side has none, plus `2^b` if this side has none.
/// Symmetric in the two sides, so the importance of a cell does not depend
/// on who is to move.
#[inline]
fn line_weight(a: u8, b: u8) -> i32 {
    (if b == 0 { 1 << a } else { 0 }) + (if a == 0 { 1 << b } else { 0 })
}

/// Maker + Breaker importance of every cell, kept up to date move by move:
/// a drop changes only the (at most 7) lines through its cell, so a move
/// costs at most 28 additions instead of recomputing 16 cells x 7 lines.
#[derive(Clone, Debug)]
pub struct ImportanceMap {
    counts: [[u8; 2]; 76],
    value: [i32; 64],
}

impl ImportanceMap {
    pub fn new(b: &Board) -> Self {
        let mut m = ImportanceMap {
            counts: [[0; 2]; 76],
            value: [0; 64],
        };
        for (l, &line) in LINES.iter().enumerate() {
            let c = [
                (line & b.stones(0)).count_ones() as u8,
                (line & b.stones(1)).count_ones() as u8,
            ];
            m.counts[l] = c;
            let w = line_weight(c[0], c[1]);
            for &cell in &LINE_CELLS[l] {
                m.value[cell as usize] += w;
            }
        }
        m
    }

    /// Importance of `cell` (meaningful while it is free).
    #[inline]
    pub fn get(&self, cell: u32) -> u32 {
        self.value[cell as usize] as u32
    }

    /// Records a bead of `seat` on `cell`.
    #[inline]
    pub fn place(&mut self, cell: u32, seat: usize) {
        let ids = &CELL_LINE_IDS[cell as usize];
        for &l in &ids.ids[..ids.len as usize] {
            let c = &mut self.counts[l as usize];
            let old = line_weight(c[0], c[1]);
            c[seat] += 1;
            let delta = line_weight(c[0], c[1]) - old;
            if delta != 0 {
                for &x in &LINE_CELLS[l as usize] {
                    self.value[x as usize] += delta;
                }
            }
        }
    }

    /// The free landing cell of `b` with the largest importance; ties
    /// broken uniformly at random with one random number.
    #[inline]
    pub fn best_drop<R: Rng + ?Sized>(&self, b: &Board, rng: &mut R) -> Option<u32> {
        let mut cells = b.drop_cells();
        let mut ties = [0u32; 16];
        let (mut n, mut best_v) = (0usize, -1i32);
        while cells != 0 {
            let c = cells.trailing_zeros();
            cells &= cells - 1;
            let v = self.value[c as usize];
            if v > best_v {
                best_v = v;
                n = 0;
            }
            if v == best_v {
                ties[n] = c;
                n += 1;
            }
        }
        match n {
            0 => None,
            1 => Some(ties[0]),
            _ => Some(ties[rng.gen_range(0..n)]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::lines::bit;

    fn cells(list: &[(usize, usize, usize)]) -> u64 {
        list.iter().fold(0, |m, &(x, y, z)| m | 1 << bit(x, y, z))
    }

    #[test]
    fn empty_board_importance_is_twice_the_line_count() {
        // Every line weighs 1 for Maker and 1 for Breaker.
        assert_eq!(importance(0, 0, bit(0, 0, 0) as u32), 14); // corner: 7 lines
        assert_eq!(importance(0, 0, bit(1, 0, 0) as u32), 8); // edge: 4 lines
        assert_eq!(importance(0, 0, bit(1, 1, 0) as u32), 8); // bottom face centre: 4 lines
        assert_eq!(importance(0, 0, bit(1, 1, 1) as u32), 14); // inner cell: 7 lines
    }

    #[test]
    #[allow(clippy::identity_op)] // the sums spell out the four lines
    fn hand_calculated_position() {
        // Free cell (1,0,0); me on (0,0,0) and (2,0,0), opponent on (1,1,0).
        // The four lines through (1,0,0), with (Maker, Breaker) weights:
        //   x-row    (0..3,0,0): two of mine, none of theirs -> (2*2 = 4, 0)
        //   y-row    (1,0..3,0): one of theirs                -> (0, 2)
        //   vertical (1,0,0..3): empty                        -> (1, 1)
        //   yz-diag  (1,i,i):    empty                        -> (1, 1)
        let me = cells(&[(0, 0, 0), (2, 0, 0)]);
        let opp = cells(&[(1, 1, 0)]);
        let c = bit(1, 0, 0) as u32;
        assert_eq!(CELL_LINES[c as usize].len, 4);
        assert_eq!(maker(me, opp, c), 4 + 0 + 1 + 1);
        assert_eq!(breaker(me, opp, c), 0 + 2 + 1 + 1);
        assert_eq!(importance(me, opp, c), 6 + 4);
    }

    #[test]
    fn a_line_with_both_colours_counts_for_nobody() {
        let me = cells(&[(0, 0, 0)]);
        let opp = cells(&[(2, 0, 0)]);
        // x-row through (1,0,0) holds both: 0; the other three lines are empty: 1+1 each side.
        assert_eq!(importance(me, opp, bit(1, 0, 0) as u32), 6);
    }

    #[test]
    fn the_incremental_map_matches_the_definition_in_random_games() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for _ in 0..300 {
            let mut b = Board::new();
            let mut map = ImportanceMap::new(&b);
            while b.outcome().is_none() {
                let mut free = !b.occupied();
                while free != 0 {
                    let c = free.trailing_zeros();
                    free &= free - 1;
                    let s = b.to_move();
                    assert_eq!(map.get(c), importance(b.stones(s), b.stones(1 - s), c));
                    assert_eq!(
                        map.get(c),
                        importance(b.stones(1 - s), b.stones(s), c),
                        "symmetric"
                    );
                }
                let pegs = b.legal_moves();
                let p = pegs[rand::Rng::gen_range(&mut rng, 0..pegs.len())];
                let cell = b.landing_cell(p).unwrap();
                map.place(cell, b.to_move());
                b.play(p);
            }
        }
    }

    #[test]
    fn most_important_peg_prefers_the_winning_and_blocking_cells() {
        // Seat 0 to move with three in a row on the bottom: (0..3,0,0) -> the
        // fourth cell weighs 8 for Maker.
        let b = Board::from_pegs(&[Peg(0), Peg(5), Peg(1), Peg(10), Peg(2), Peg(15)]).unwrap();
        let mut rng = rand::rngs::mock::StepRng::new(0, 1);
        assert_eq!(most_important_peg(&b, &mut rng), Some(Peg(3)));
    }
}
