//! A plain reference for the field's rules: a grid of cells, gravity cell
//! by cell and groups found by breadth-first search. The property tests
//! check [`Board`](super::board::Board) against it.

use std::collections::VecDeque;

use super::board::{group_bonus, Board, Chain, COLOURS, COLS, OJAMA, ROWS};

/// A field as a grid: `cells[col][row]`, row 0 the bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub cells: [[Option<u8>; ROWS]; COLS],
}

impl Grid {
    pub fn from_board(b: &Board) -> Self {
        let mut cells = [[None; ROWS]; COLS];
        for (c, col) in cells.iter_mut().enumerate() {
            for (r, cell) in col.iter_mut().enumerate() {
                *cell = b.get(c, r);
            }
        }
        Grid { cells }
    }

    /// Drops one puyo on a column; false when the column is full.
    pub fn drop_puyo(&mut self, col: usize, kind: u8) -> bool {
        match self.cells[col].iter().position(|c| c.is_none()) {
            Some(r) => {
                self.cells[col][r] = Some(kind);
                true
            }
            None => false,
        }
    }

    fn group(&self, c: usize, r: usize, seen: &mut [[bool; ROWS]; COLS]) -> Vec<(usize, usize)> {
        let kind = self.cells[c][r];
        let mut out = vec![];
        let mut q = VecDeque::from([(c, r)]);
        seen[c][r] = true;
        while let Some((c, r)) = q.pop_front() {
            out.push((c, r));
            let mut next = vec![];
            if c > 0 {
                next.push((c - 1, r));
            }
            if c + 1 < COLS {
                next.push((c + 1, r));
            }
            if r > 0 {
                next.push((c, r - 1));
            }
            if r + 1 < ROWS {
                next.push((c, r + 1));
            }
            for (nc, nr) in next {
                if !seen[nc][nr] && self.cells[nc][nr] == kind {
                    seen[nc][nr] = true;
                    q.push_back((nc, nr));
                }
            }
        }
        out
    }

    /// Resolves the chain, link by link.
    pub fn resolve(&mut self) -> Chain {
        let mut chain = Chain::default();
        loop {
            let mut seen = [[false; ROWS]; COLS];
            let mut gone = vec![];
            let mut cleared = 0u8;
            let mut colours = [false; COLOURS];
            let mut bonus = 0u16;
            for c in 0..COLS {
                for r in 0..ROWS {
                    match self.cells[c][r] {
                        Some(k) if (k as usize) < COLOURS && !seen[c][r] => {
                            let g = self.group(c, r, &mut seen);
                            if g.len() >= 4 {
                                cleared += g.len() as u8;
                                colours[k as usize] = true;
                                bonus += group_bonus(g.len() as u32) as u16;
                                gone.extend(g);
                            }
                        }
                        _ => {}
                    }
                }
            }
            if gone.is_empty() {
                return chain;
            }
            let mut ojama = vec![];
            for &(c, r) in &gone {
                let around = [
                    (c.wrapping_sub(1), r),
                    (c + 1, r),
                    (c, r.wrapping_sub(1)),
                    (c, r + 1),
                ];
                for (nc, nr) in around {
                    if nc < COLS && nr < ROWS && self.cells[nc][nr] == Some(OJAMA) {
                        ojama.push((nc, nr));
                    }
                }
            }
            ojama.sort();
            ojama.dedup();
            let i = chain.links as usize;
            chain.cleared[i] = cleared;
            chain.colours[i] = colours.iter().filter(|&&x| x).count() as u8;
            chain.group_bonus[i] = bonus;
            chain.ojama_cleared += ojama.len() as u16;
            chain.links += 1;
            for (c, r) in gone.into_iter().chain(ojama) {
                self.cells[c][r] = None;
            }
            for col in &mut self.cells {
                let kept: Vec<u8> = col.iter().flatten().copied().collect();
                *col = [None; ROWS];
                for (r, k) in kept.into_iter().enumerate() {
                    col[r] = Some(k);
                }
            }
        }
    }
}
