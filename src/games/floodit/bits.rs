//! A fixed-size bitset of up to 1024 cells (a 32 x 32 board), row-major:
//! cell (r, c) of a board `cols` wide is bit `r * cols + c`. Operations take
//! the number of words in use, so a 14 x 14 board touches 4 words, not 16.

/// Words of [`Bits`]: 16 x 64 = 1024 cells.
pub const WORDS: usize = 16;

/// A set of cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; WORDS]);

impl Default for Bits {
    fn default() -> Self {
        Bits([0; WORDS])
    }
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bits({} cells)", self.count())
    }
}

impl Bits {
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// The cells `0..n`.
    pub fn first(n: usize) -> Bits {
        let mut b = Bits::EMPTY;
        for i in 0..n {
            b.set(i);
        }
        b
    }
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    pub fn is_empty(&self, words: usize) -> bool {
        self.0[..words].iter().all(|&w| w == 0)
    }
    #[inline]
    pub fn and(&self, o: &Bits, words: usize) -> Bits {
        let mut r = Bits::EMPTY;
        for i in 0..words {
            r.0[i] = self.0[i] & o.0[i];
        }
        r
    }
    #[inline]
    pub fn or(&self, o: &Bits, words: usize) -> Bits {
        let mut r = Bits::EMPTY;
        for i in 0..words {
            r.0[i] = self.0[i] | o.0[i];
        }
        r
    }
    /// `self & !o`.
    #[inline]
    pub fn and_not(&self, o: &Bits, words: usize) -> Bits {
        let mut r = Bits::EMPTY;
        for i in 0..words {
            r.0[i] = self.0[i] & !o.0[i];
        }
        r
    }
    /// Every bit moved `s` places up (0 < s < 64).
    #[inline]
    fn shl(&self, s: u32, words: usize) -> Bits {
        let mut r = Bits::EMPTY;
        r.0[0] = self.0[0] << s;
        for i in 1..words {
            r.0[i] = self.0[i] << s | self.0[i - 1] >> (64 - s);
        }
        r
    }
    /// Every bit moved `s` places down (0 < s < 64).
    #[inline]
    fn shr(&self, s: u32, words: usize) -> Bits {
        let mut r = Bits::EMPTY;
        for i in 0..words {
            let hi = if i + 1 < words {
                self.0[i + 1] << (64 - s)
            } else {
                0
            };
            r.0[i] = self.0[i] >> s | hi;
        }
        r
    }
    /// Iterates over the set cells, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + b)
            })
        })
    }
}

/// What dilation needs to know of a board's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
    /// Words in use.
    pub words: usize,
    /// Every cell of the board.
    pub full: Bits,
    /// Cells not in the last column (they may move one step east).
    pub not_last_col: Bits,
    /// Cells not in the first column (they may move one step west).
    pub not_first_col: Bits,
}

impl Shape {
    /// A `rows` x `cols` board (each 1..=32).
    pub fn new(rows: usize, cols: usize) -> Shape {
        assert!((1..=32).contains(&rows) && (1..=32).contains(&cols));
        let n = rows * cols;
        let full = Bits::first(n);
        let mut not_last_col = Bits::EMPTY;
        let mut not_first_col = Bits::EMPTY;
        for i in 0..n {
            if i % cols != cols - 1 {
                not_last_col.set(i);
            }
            if i % cols != 0 {
                not_first_col.set(i);
            }
        }
        Shape {
            rows,
            cols,
            words: n.div_ceil(64),
            full,
            not_last_col,
            not_first_col,
        }
    }

    /// `s` and its orthogonal neighbours on the board.
    #[inline]
    pub fn dilate(&self, s: &Bits) -> Bits {
        let w = self.words;
        let east = s.and(&self.not_last_col, w).shl(1, w);
        let west = s.and(&self.not_first_col, w).shr(1, w);
        let south = s.shl(self.cols as u32, w);
        let north = s.shr(self.cols as u32, w);
        let mut r = Bits::EMPTY;
        for i in 0..w {
            r.0[i] = (s.0[i] | east.0[i] | west.0[i] | south.0[i] | north.0[i]) & self.full.0[i];
        }
        r
    }

    /// `seed` grown through `mask`: every cell of `mask` connected to
    /// `seed` through cells of `mask`, and `seed` itself.
    #[inline]
    pub fn grow(&self, seed: &Bits, mask: &Bits) -> Bits {
        let w = self.words;
        let mut t = *seed;
        loop {
            let d = self.dilate(&t);
            let mut n = Bits::EMPTY;
            let mut changed = false;
            for i in 0..w {
                n.0[i] = d.0[i] & mask.0[i] | t.0[i];
                changed |= n.0[i] != t.0[i];
            }
            if !changed {
                return t;
            }
            t = n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilation_stays_on_the_board_and_does_not_wrap_rows() {
        let s = Shape::new(3, 5);
        let mut b = Bits::EMPTY;
        b.set(4); // (0, 4): the east edge
        let d = s.dilate(&b);
        let cells: Vec<usize> = d.iter().collect();
        assert_eq!(cells, vec![3, 4, 9]);
        let mut b = Bits::EMPTY;
        b.set(10); // (2, 0)
        let cells: Vec<usize> = s.dilate(&b).iter().collect();
        assert_eq!(cells, vec![5, 10, 11]);
    }

    #[test]
    fn shifts_carry_across_words() {
        let s = Shape::new(32, 32);
        let mut b = Bits::EMPTY;
        b.set(32); // (1, 0): its west is off the board, not cell 31
        b.set(1000); // (31, 8): the last row, its south is off the board
        let d = s.dilate(&b);
        for c in [0, 32, 33, 64, 1000, 999, 1001, 968] {
            assert!(d.get(c), "cell {c}");
        }
        assert!(!d.get(31));
        assert_eq!(d.count(), 8);
    }
}
