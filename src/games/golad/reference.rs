//! A deliberately simple GOLAD implementation: a plain array of cells and
//! eight neighbour reads per cell. It checks the bitboard [`Field`] and
//! [`GolState`](super::rules::GolState) in the tests, is the reference side
//! of the `golad-step` benchmark, and is the "plain array board" of the
//! seed's AI1.

use super::field::Field;
use super::moves::{Cell, Move, HEIGHT, WIDTH};
use crate::search::{Outcome, Seat};

/// The field as an array, `cells[y][x]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefField {
    pub cells: [[Option<Seat>; WIDTH]; HEIGHT],
}

impl Default for RefField {
    fn default() -> Self {
        RefField {
            cells: [[None; WIDTH]; HEIGHT],
        }
    }
}

impl RefField {
    pub fn from_field(f: &Field) -> RefField {
        let mut r = RefField::default();
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                r.cells[y][x] = f.get(Cell {
                    x: x as u8,
                    y: y as u8,
                });
            }
        }
        r
    }

    pub fn to_field(&self) -> Field {
        let mut f = Field::empty();
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                f.set(
                    Cell {
                        x: x as u8,
                        y: y as u8,
                    },
                    self.cells[y][x],
                );
            }
        }
        f
    }

    pub fn get(&self, c: Cell) -> Option<Seat> {
        self.cells[c.y as usize][c.x as usize]
    }

    pub fn set(&mut self, c: Cell, seat: Option<Seat>) {
        self.cells[c.y as usize][c.x as usize] = seat;
    }

    pub fn count(&self, seat: Seat) -> u32 {
        self.cells
            .iter()
            .flatten()
            .filter(|&&c| c == Some(seat))
            .count() as u32
    }

    /// The next generation: for each cell, read its (up to) 8 neighbours.
    pub fn step(&self) -> RefField {
        let mut next = RefField::default();
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let (mut total, mut zeros) = (0, 0);
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        if dx == 0 && dy == 0 {
                            continue;
                        }
                        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                        if nx < 0 || ny < 0 || nx >= WIDTH as i32 || ny >= HEIGHT as i32 {
                            continue;
                        }
                        match self.cells[ny as usize][nx as usize] {
                            Some(0) => {
                                total += 1;
                                zeros += 1;
                            }
                            Some(_) => total += 1,
                            None => {}
                        }
                    }
                }
                next.cells[y][x] = match self.cells[y][x] {
                    Some(s) if total == 2 || total == 3 => Some(s),
                    Some(_) => None,
                    None if total == 3 => Some(if zeros >= 2 { 0 } else { 1 }),
                    None => None,
                };
            }
        }
        next
    }

    /// Whether `seat` may play `mv` here (kill: a living cell; birth: a
    /// dead cell and two different living cells of `seat`; pass: always).
    pub fn is_legal(&self, seat: Seat, mv: &Move) -> bool {
        match *mv {
            Move::Pass => true,
            Move::Kill(c) => self.get(c).is_some(),
            Move::Birth {
                at,
                sacrifice: [a, b],
            } => {
                self.get(at).is_none()
                    && a != b
                    && self.get(a) == Some(seat)
                    && self.get(b) == Some(seat)
            }
        }
    }

    /// Plays `mv` for `seat` if legal (without the generation); returns
    /// whether it was.
    pub fn play(&mut self, seat: Seat, mv: &Move) -> bool {
        if !self.is_legal(seat, mv) {
            return false;
        }
        match *mv {
            Move::Pass => {}
            Move::Kill(c) => self.set(c, None),
            Move::Birth {
                at,
                sacrifice: [a, b],
            } => {
                self.set(at, Some(seat));
                self.set(a, None);
                self.set(b, None);
            }
        }
        true
    }
}

/// A whole game on the array field, written from the spec independently of
/// [`GolState`](super::rules::GolState).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefGame {
    pub field: RefField,
    /// Moves played so far (two per round).
    pub moves: u32,
    pub max_rounds: u32,
}

impl RefGame {
    pub fn new(field: RefField, max_rounds: u32) -> RefGame {
        RefGame {
            field,
            moves: 0,
            max_rounds,
        }
    }

    pub fn to_move(&self) -> Seat {
        (self.moves % 2) as Seat
    }

    /// The round being played (1-based).
    pub fn round(&self) -> u32 {
        self.moves / 2 + 1
    }

    pub fn outcome(&self) -> Option<Outcome> {
        let (a, b) = (self.field.count(0) > 0, self.field.count(1) > 0);
        match (a, b) {
            (false, false) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Win(0)),
            (false, true) => Some(Outcome::Win(1)),
            (true, true) if self.moves >= 2 * self.max_rounds => Some(Outcome::Draw),
            (true, true) => None,
        }
    }

    /// The move (an illegal one acts as a pass), then one generation.
    /// Returns whether the move was legal; does nothing once the game is over.
    pub fn apply(&mut self, mv: &Move) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        let legal = self.field.play(self.to_move(), mv);
        self.field = self.field.step();
        self.moves += 1;
        legal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_blinker() {
        let mut r = RefField::default();
        for x in 3..6 {
            r.set(Cell { x, y: 7 }, Some(1));
        }
        assert_eq!(r.count(1), 3);
        assert_eq!(RefField::from_field(&r.to_field()), r);
        let n = r.step();
        assert_eq!(n.count(1), 3);
        for y in 6..9 {
            assert_eq!(n.get(Cell { x: 4, y }), Some(1));
        }
        assert_eq!(n.step(), r);
    }
}
