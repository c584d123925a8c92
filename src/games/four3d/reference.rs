//! A deliberately simple Score Four: a 4x4x4 array of cells, gravity by
//! scanning a peg from the bottom, and a win check over an explicit list of
//! the 76 lines after every move. It exists to check the bitboard rules
//! (property tests, perft) and as the speed reference in benchmarks.

use rand::Rng;

use super::bitboard::Peg;
use crate::search::{Game, Outcome, Seat};

type Cell = (usize, usize, usize);

/// Every line of four cells in the cube, found by walking the 13 directions
/// from every cell (independent of the bitboard's family-by-family list).
pub fn all_lines() -> Vec<[Cell; 4]> {
    let mut lines: Vec<[Cell; 4]> = Vec::new();
    for dx in -1i32..=1 {
        for dy in -1i32..=1 {
            for dz in -1i32..=1 {
                if (dx, dy, dz) == (0, 0, 0) {
                    continue;
                }
                for x in 0..4i32 {
                    for y in 0..4i32 {
                        for z in 0..4i32 {
                            let cells: Vec<(i32, i32, i32)> = (0..4)
                                .map(|k| (x + k * dx, y + k * dy, z + k * dz))
                                .collect();
                            if cells.iter().all(|&(a, b, c)| {
                                (0..4).contains(&a) && (0..4).contains(&b) && (0..4).contains(&c)
                            }) {
                                let mut l: Vec<Cell> = cells
                                    .iter()
                                    .map(|&(a, b, c)| (a as usize, b as usize, c as usize))
                                    .collect();
                                l.sort();
                                let l = [l[0], l[1], l[2], l[3]];
                                if !lines.contains(&l) {
                                    lines.push(l);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    lines
}

/// The array board. `cells[x][y][z]` holds the seat whose bead is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub cells: [[[Option<Seat>; 4]; 4]; 4],
    pub moves_played: usize,
    pub winner: Option<Seat>,
    lines: std::sync::Arc<Vec<[Cell; 4]>>,
}

impl Default for RefBoard {
    fn default() -> Self {
        Self::new()
    }
}

impl RefBoard {
    pub fn new() -> Self {
        RefBoard {
            cells: [[[None; 4]; 4]; 4],
            moves_played: 0,
            winner: None,
            lines: std::sync::Arc::new(all_lines()),
        }
    }

    /// Height of the lowest empty cell of peg (x, y), or None if full.
    pub fn free_height(&self, x: usize, y: usize) -> Option<usize> {
        (0..4).find(|&z| self.cells[x][y][z].is_none())
    }

    fn find_winner(&self) -> Option<Seat> {
        for l in self.lines.iter() {
            let first = self.cells[l[0].0][l[0].1][l[0].2];
            if let Some(s) = first {
                if l.iter().all(|&(x, y, z)| self.cells[x][y][z] == Some(s)) {
                    return Some(s);
                }
            }
        }
        None
    }

    /// Pegs with room, without allocating; returns how many were written.
    fn legal_into(&self, out: &mut [Peg; 16]) -> usize {
        if self.winner.is_some() {
            return 0;
        }
        let mut n = 0;
        for y in 0..4 {
            for x in 0..4 {
                if self.cells[x][y][3].is_none() {
                    out[n] = Peg::new(x as u8, y as u8);
                    n += 1;
                }
            }
        }
        n
    }
}

impl Game for RefBoard {
    type Move = Peg;

    fn to_move(&self) -> Seat {
        self.moves_played % 2
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(s) => Some(Outcome::Win(s)),
            None if self.moves_played == 64 => Some(Outcome::Draw),
            None => None,
        }
    }

    fn legal_moves(&self) -> Vec<Peg> {
        let mut buf = [Peg(0); 16];
        let n = self.legal_into(&mut buf);
        buf[..n].to_vec()
    }

    fn play(&mut self, mv: Peg) {
        let (x, y) = (mv.x() as usize, mv.y() as usize);
        let z = self.free_height(x, y).expect("peg is full");
        self.cells[x][y][z] = Some(self.to_move());
        self.moves_played += 1;
        self.winner = self.find_winner();
    }

    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        let mut buf = [Peg(0); 16];
        loop {
            if let Some(o) = self.outcome() {
                return o;
            }
            let n = self.legal_into(&mut buf);
            self.play(buf[rng.gen_range(0..n)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walking_directions_finds_76_lines() {
        assert_eq!(all_lines().len(), 76);
    }
}
