//! Score Four on two u64 bitboards, bit = x + 4y + 16z (z = height).

use rand::Rng;

use super::lines::completes_line as wins_through;
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

/// Uniform integer in 0..n (n <= 2^32) by multiply-shift.
#[inline]
fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((rng.next_u32() as u64 * n as u64) >> 32) as u32
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
        super::lines::LINES.iter().any(|&m| m & !s == 0)
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

    /// Uniformly random moves to the end, on local state: the open pegs in a
    /// list (a full peg is swap-removed) and each peg's height, so a move is
    /// one random index, one bit set and one line check.
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        if let Some(o) = self.outcome() {
            return o;
        }
        let occ = self.occupied();
        let mut heights = [0u8; 16];
        let mut open = [0u8; 16];
        let mut n = 0u32;
        for peg in 0..16u8 {
            let h = ((occ >> peg) & PEG_MASK).count_ones() as u8;
            heights[peg as usize] = h;
            if h < 4 {
                open[n as usize] = peg;
                n += 1;
            }
        }
        let mut stones = self.stones;
        let mut ply = self.ply;
        let outcome = loop {
            if n == 0 {
                break Outcome::Draw;
            }
            let i = below(rng, n) as usize;
            let peg = open[i];
            let h = heights[peg as usize];
            heights[peg as usize] = h + 1;
            if h == 3 {
                n -= 1;
                open[i] = open[n as usize];
            }
            let cell = peg as u32 + 16 * h as u32;
            let side = (ply & 1) as usize;
            stones[side] |= 1 << cell;
            ply += 1;
            if wins_through(stones[side], cell) {
                self.winner = side as u8;
                break Outcome::Win(side);
            }
        };
        self.stones = stones;
        self.ply = ply;
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_playout_from_a_midgame_position_keeps_it_and_ends_it() {
        use rand::SeedableRng;
        let start = Board::from_pegs(&[Peg(0), Peg(0), Peg(0), Peg(0), Peg(5), Peg(6)]).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for _ in 0..200 {
            let mut b = start;
            let o = b.random_playout(&mut rng);
            assert_eq!(b.outcome(), Some(o));
            assert_eq!(b.stones(0) & start.stones(0), start.stones(0));
            assert_eq!(b.stones(1) & start.stones(1), start.stones(1));
            assert_eq!(
                Board::from_stones(b.stones(0), b.stones(1)).map(|x| x.outcome()),
                Ok(Some(o))
            );
        }
    }

    #[test]
    fn playouts_pick_open_pegs_uniformly() {
        // `below(n)` is uniform in 0..n: 16,000 draws per n, each value
        // within 5 standard deviations of its expected count.
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for n in [1u32, 2, 5, 16] {
            let mut counts = vec![0u32; n as usize];
            let draws = 16_000;
            for _ in 0..draws {
                let v = below(&mut rng, n);
                assert!(v < n, "{v} of 0..{n}");
                counts[v as usize] += 1;
            }
            let mean = draws as f64 / n as f64;
            let sd = (mean * (1.0 - 1.0 / n as f64)).sqrt();
            for c in &counts {
                assert!(
                    (*c as f64 - mean).abs() <= 5.0 * sd + 1e-9,
                    "n {n}: {counts:?}"
                );
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
