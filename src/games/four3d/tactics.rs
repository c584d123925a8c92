//! One-move tactics on the bitboard: immediate wins, forced blocks, and not
//! dropping a bead right under a cell where the opponent would win.

use rand::Rng;

use super::bitboard::{Board, Peg};
use super::lines::completes_line;
use crate::search::{Game, Seat};

/// Landing cells (as a mask) where `seat` would complete a line.
#[inline]
pub fn winning_drops(b: &Board, seat: Seat) -> u64 {
    let own = b.stones(seat);
    let mut cells = b.drop_cells();
    let mut wins = 0;
    while cells != 0 {
        let c = cells.trailing_zeros();
        cells &= cells - 1;
        if completes_line(own | 1 << c, c) {
            wins |= 1 << c;
        }
    }
    wins
}

/// Landing cells whose cell above is not a winning cell for `seat`'s
/// opponent (dropping there would hand them the win).
#[inline]
pub fn safe_drops(b: &Board, seat: Seat) -> u64 {
    let opp = b.stones(1 - seat);
    let mut cells = b.drop_cells();
    let mut safe = 0;
    while cells != 0 {
        let c = cells.trailing_zeros();
        cells &= cells - 1;
        let above = c + 16;
        if above >= 64 || !completes_line(opp | 1 << above, above) {
            safe |= 1 << c;
        }
    }
    safe
}

/// The moves worth considering for the side to move: a winning drop if
/// there is one; else the drops that block the opponent's wins; else the
/// safe drops; else every drop.
pub fn candidate_cells(b: &Board) -> u64 {
    let seat = b.to_move();
    let wins = winning_drops(b, seat);
    if wins != 0 {
        return wins & wins.wrapping_neg();
    }
    let blocks = winning_drops(b, 1 - seat);
    if blocks != 0 {
        return blocks;
    }
    let safe = safe_drops(b, seat);
    if safe != 0 {
        safe
    } else {
        b.drop_cells()
    }
}

/// The pegs of a cell mask, in order.
pub fn pegs_of(mut cells: u64) -> Vec<Peg> {
    let mut v = Vec::with_capacity(cells.count_ones() as usize);
    while cells != 0 {
        v.push(Peg((cells.trailing_zeros() & 15) as u8));
        cells &= cells - 1;
    }
    v
}

/// A uniformly random cell of a non-empty mask, as a peg.
#[inline]
pub fn random_peg_of<R: Rng + ?Sized>(mut cells: u64, rng: &mut R) -> Peg {
    let k = rng.gen_range(0..cells.count_ones());
    for _ in 0..k {
        cells &= cells - 1;
    }
    Peg((cells.trailing_zeros() & 15) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_win_the_block_and_the_trap() {
        // Seat 0: (0,0,0),(1,0,0),(2,0,0); seat 1: (1,1,0),(2,2,0),(3,3,0)... seat 0 to move.
        let b = Board::from_pegs(&[Peg(0), Peg(5), Peg(1), Peg(10), Peg(2), Peg(15)]).unwrap();
        assert_eq!(pegs_of(winning_drops(&b, 0)), vec![Peg(3)]);
        assert_eq!(pegs_of(candidate_cells(&b)), vec![Peg(3)]);
        // Seat 1 to move, seat 0 threatens peg 3: the only candidate blocks it.
        let b = Board::from_pegs(&[Peg(0), Peg(5), Peg(1), Peg(10), Peg(2)]).unwrap();
        assert_eq!(pegs_of(candidate_cells(&b)), vec![Peg(3)]);
    }

    #[test]
    fn never_drops_under_the_opponents_winning_cell() {
        // Seat 1 gets (0,0,1), (1,0,1), (2,0,1): it would win on (3,0,1),
        // which needs a bead on (3,0,0) first. Seat 0 (on (0,0,0), (1,1,0),
        // (2,0,0), (0,3,0): no three anywhere) is to move and must not play peg 3.
        let b = Board::from_pegs(&[
            Peg(0),
            Peg(0),
            Peg(5),
            Peg(1),
            Peg(2),
            Peg(1),
            Peg(12),
            Peg(2),
        ])
        .unwrap();
        assert_eq!(b.to_move(), 0);
        assert_eq!(
            winning_drops(&b, 1),
            0,
            "the winning cell is not reachable yet"
        );
        let safe = pegs_of(safe_drops(&b, 0));
        assert!(!safe.contains(&Peg(3)), "{safe:?}");
        assert!(!pegs_of(candidate_cells(&b)).contains(&Peg(3)));
    }
}
