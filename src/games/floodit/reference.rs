//! A deliberately plain two-player Flood-It: the board as one colour per
//! cell, territories found by breadth-first search from the pivots each
//! time they are needed. It checks the bitboard rules (property tests) and
//! is the bench's reference.

use std::collections::VecDeque;

use rand::Rng;

use crate::search::{Game, Outcome, Seat};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefFloodIt {
    pub rows: usize,
    pub cols: usize,
    pub colours: u8,
    /// Current colour of every cell, row-major, 0-based.
    pub cells: Vec<u8>,
    pub ply: u32,
}

impl RefFloodIt {
    pub fn new(rows: usize, cols: usize, colours: u8, cells: Vec<u8>) -> Self {
        RefFloodIt {
            rows,
            cols,
            colours,
            cells,
            ply: 0,
        }
    }

    fn pivot(&self, seat: Seat) -> usize {
        if seat == 0 {
            0
        } else {
            self.cells.len() - 1
        }
    }

    /// `seat`'s territory, by breadth-first search from its pivot.
    pub fn territory(&self, seat: Seat) -> Vec<bool> {
        let start = self.pivot(seat);
        let colour = self.cells[start];
        let mut seen = vec![false; self.cells.len()];
        let mut queue = VecDeque::new();
        seen[start] = true;
        queue.push_back(start);
        while let Some(i) = queue.pop_front() {
            let next = self.neighbours(i);
            for j in next {
                if !seen[j] && self.cells[j] == colour {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
        seen
    }

    /// The orthogonal neighbours of cell `i`.
    pub fn neighbours(&self, i: usize) -> Vec<usize> {
        let (r, c) = (i / self.cols, i % self.cols);
        let mut next = Vec::with_capacity(4);
        if r > 0 {
            next.push(i - self.cols);
        }
        if r + 1 < self.rows {
            next.push(i + self.cols);
        }
        if c > 0 {
            next.push(i - 1);
        }
        if c + 1 < self.cols {
            next.push(i + 1);
        }
        next
    }

    pub fn area(&self, seat: Seat) -> usize {
        self.territory(seat).iter().filter(|&&b| b).count()
    }
}

impl Game for RefFloodIt {
    type Move = u8;

    fn to_move(&self) -> Seat {
        (self.ply % 2) as Seat
    }
    /// Over when a territory touches no free cell (the free cells then
    /// count for the other side) or at the ply limit.
    fn outcome(&self) -> Option<Outcome> {
        let t = [self.territory(0), self.territory(1)];
        let free = |i: usize| !t[0][i] && !t[1][i];
        let enclosed = |s: usize| {
            (0..self.cells.len())
                .filter(|&i| t[s][i])
                .all(|i| self.neighbours(i).into_iter().all(|j| !free(j)))
        };
        let (e0, e1) = (enclosed(0), enclosed(1));
        let limit = 4 * self.cells.len() as u32;
        if !e0 && !e1 && self.ply < limit {
            return None;
        }
        let n_free = (0..self.cells.len()).filter(|&i| free(i)).count();
        let mut score = [self.area(0), self.area(1)];
        if e1 && !e0 {
            score[0] += n_free;
        }
        if e0 && !e1 {
            score[1] += n_free;
        }
        Some(if score[0] > score[1] {
            Outcome::Win(0)
        } else if score[1] > score[0] {
            Outcome::Win(1)
        } else {
            Outcome::Draw
        })
    }
    fn legal_moves(&self) -> Vec<u8> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let own = self.cells[self.pivot(0)];
        let other = self.cells[self.pivot(1)];
        (0..self.colours)
            .filter(|&c| c != own && c != other)
            .collect()
    }
    /// Recolours the mover's territory.
    fn play(&mut self, c: u8) {
        let me = self.to_move();
        let t = self.territory(me);
        for (i, owned) in t.into_iter().enumerate() {
            if owned {
                self.cells[i] = c;
            }
        }
        self.ply += 1;
    }
    /// Random allowed colours to the end, through [`Game::legal_moves`].
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        loop {
            if let Some(o) = self.outcome() {
                return o;
            }
            let moves = self.legal_moves();
            self.play(moves[rng.gen_range(0..moves.len())]);
        }
    }
}
