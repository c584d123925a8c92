//! Score Four on two u64 bitboards, bit = x + 4y + 16z (z = height).

use rand::Rng;

use super::lines::CELL_LINES;
use crate::search::{Game, Outcome, Seat};

/// A peg (column) index 0..16: x = peg % 4, y = peg / 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Peg(pub u8);

impl Peg {
    pub fn new(x: u8, y: u8) -> Self {
        Peg(x + 4 * y)
    }
    pub fn x(self) -> u8 {
        self.0 & 3
    }
    pub fn y(self) -> u8 {
        self.0 >> 2
    }
}

const NO_WINNER: u8 = 2;
const PEG_MASK: u64 = 0x0001_0001_0001_0001;
const TOP_LAYER_SHIFT: u32 = 48;

/// A Score Four position. Plain data: copy it freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    stones: [u64; 2],
    ply: u8,
    winner: u8,
}

impl Default for Board {
    fn default() -> Self {
        Self::new()
    }
}

/// `NTH[byte][k]`: position of the k-th set bit of `byte` (k < popcount).
static NTH: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Position of the `k`-th set bit of a 16-bit mask.
#[inline]
fn nth_set_bit16(mask: u32, k: u32) -> u32 {
    let lo = mask & 0xFF;
    let lo_count = lo.count_ones();
    if k < lo_count {
        NTH[lo as usize][k as usize] as u32
    } else {
        8 + NTH[(mask >> 8) as usize][(k - lo_count) as usize] as u32
    }
}

/// Uniform integer in 0..n (n <= 2^32) by multiply-shift.
#[inline]
fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
}

/// Whether the stones `own` complete a line through `cell`.
#[inline]
fn wins_through(own: u64, cell: u32) -> bool {
    let cl = &CELL_LINES[cell as usize];
    cl.masks[..cl.len as usize].iter().any(|&m| own & m == m)
}

impl Board {
    pub const fn new() -> Self {
        Board {
            stones: [0, 0],
            ply: 0,
            winner: NO_WINNER,
        }
    }

    /// Replays pegs from the start; the index of the first illegal one on error.
    pub fn from_pegs(pegs: &[Peg]) -> Result<Self, usize> {
        let mut b = Board::new();
        for (i, &p) in pegs.iter().enumerate() {
            if !b.is_legal(p) {
                return Err(i);
            }
            b.play(p);
        }
        Ok(b)
    }

    /// Builds a position from each seat's stones. Checks that no bead floats
    /// and that the counts fit alternate play; the winner is recomputed.
    pub fn from_stones(s0: u64, s1: u64) -> Result<Self, String> {
        if s0 & s1 != 0 {
            return Err("a cell holds two beads".into());
        }
        let occ = s0 | s1;
        // Every bead above the bottom layer must rest on one.
        if (occ >> 16) & !occ != 0 {
            return Err("a bead floats above an empty cell".into());
        }
        let (n0, n1) = (s0.count_ones(), s1.count_ones());
        if n0 != n1 && n0 != n1 + 1 {
            return Err(format!(
                "bead counts {n0} and {n1} do not fit alternate play"
            ));
        }
        let winner = match (Self::has_line(s0), Self::has_line(s1)) {
            (true, true) => return Err("both sides have a line".into()),
            (true, false) => 0,
            (false, true) => 1,
            (false, false) => NO_WINNER,
        };
        Ok(Board {
            stones: [s0, s1],
            ply: (n0 + n1) as u8,
            winner,
        })
    }

    fn has_line(s: u64) -> bool {
        super::lines::LINES.iter().any(|&m| s & m == m)
    }

    pub fn stones(&self, seat: Seat) -> u64 {
        self.stones[seat]
    }
    pub fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }
    pub fn ply(&self) -> u32 {
        self.ply as u32
    }

    /// The seat whose bead is on (x, y, z), if any.
    pub fn at(&self, x: usize, y: usize, z: usize) -> Option<Seat> {
        let b = 1u64 << super::lines::bit(x, y, z);
        (0..2).find(|&s| self.stones[s] & b != 0)
    }

    /// Pegs that still have room, as a 16-bit mask (bit = peg index).
    #[inline]
    pub fn legal_mask(&self) -> u32 {
        if self.winner != NO_WINNER {
            return 0;
        }
        (!(self.occupied() >> TOP_LAYER_SHIFT) & 0xFFFF) as u32
    }

    /// The lowest free cell of every peg, as a 64-bit mask.
    #[inline]
    pub fn drop_cells(&self) -> u64 {
        let occ = self.occupied();
        ((occ << 16) | 0xFFFF) & !occ
    }

    /// The cell a bead dropped on `peg` would land on.
    #[inline]
    pub fn landing_cell(&self, peg: Peg) -> Option<u32> {
        let m = self.drop_cells() & (PEG_MASK << peg.0);
        (m != 0).then(|| m.trailing_zeros())
    }

    /// Drops a bead for the side to move; returns the cell it landed on.
    #[inline]
    fn drop_bead(&mut self, peg: u32) -> u32 {
        let seat = (self.ply & 1) as usize;
        let cell_bit = self.drop_cells() & (PEG_MASK << peg);
        debug_assert!(cell_bit != 0, "peg {peg} is full");
        let cell = cell_bit.trailing_zeros();
        self.stones[seat] |= cell_bit;
        self.ply += 1;
        if wins_through(self.stones[seat], cell) {
            self.winner = seat as u8;
        }
        cell
    }
}

impl Game for Board {
    type Move = Peg;

    #[inline]
    fn to_move(&self) -> Seat {
        (self.ply & 1) as Seat
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.winner != NO_WINNER {
            Some(Outcome::Win(self.winner as Seat))
        } else if self.ply == 64 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn legal_moves(&self) -> Vec<Peg> {
        let mut m = self.legal_mask();
        let mut v = Vec::with_capacity(m.count_ones() as usize);
        while m != 0 {
            v.push(Peg(m.trailing_zeros() as u8));
            m &= m - 1;
        }
        v
    }

    #[inline]
    fn play(&mut self, mv: Peg) {
        self.drop_bead(mv.0 as u32);
    }

    #[inline]
    fn is_legal(&self, mv: Peg) -> bool {
        mv.0 < 16 && self.legal_mask() & (1 << mv.0) != 0
    }

    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        loop {
            if self.winner != NO_WINNER {
                return Outcome::Win(self.winner as Seat);
            }
            let free = self.legal_mask();
            if free == 0 {
                return Outcome::Draw;
            }
            let peg = nth_set_bit16(free, below(rng, free.count_ones()));
            self.drop_bead(peg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_set_bit_matches_a_loop() {
        for mask in [1u32, 0xFFFF, 0x8001, 0x0F0F, 0xA5A5, 0x0100] {
            let bits: Vec<u32> = (0..16).filter(|i| mask & (1 << i) != 0).collect();
            for (k, &b) in bits.iter().enumerate() {
                assert_eq!(nth_set_bit16(mask, k as u32), b);
            }
        }
    }

    #[test]
    fn beads_stack_and_a_full_peg_is_illegal() {
        let mut b = Board::new();
        for i in 0..4 {
            assert_eq!(b.landing_cell(Peg(5)), Some(5 + 16 * i));
            b.play(Peg(5));
        }
        assert!(!b.is_legal(Peg(5)));
        assert_eq!(b.legal_moves().len(), 15);
        assert_eq!(b.at(1, 1, 3), Some(1));
    }

    #[test]
    fn vertical_four_wins() {
        // Seat 0 stacks peg 0, seat 1 plays peg 1.
        let b =
            Board::from_pegs(&[Peg(0), Peg(1), Peg(0), Peg(1), Peg(0), Peg(1), Peg(0)]).unwrap();
        assert_eq!(b.outcome(), Some(Outcome::Win(0)));
        assert!(b.legal_moves().is_empty());
    }

    #[test]
    fn from_stones_rejects_floating_beads() {
        assert!(Board::from_stones(1 << 16, 0).is_err());
        assert!(Board::from_stones(1, 1 << 16).is_ok());
        assert!(Board::from_stones(0, 1).is_err());
    }
}
