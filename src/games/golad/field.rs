//! The GOLAD field as bitboards, and one Life generation by bitwise adder
//! logic over whole rows.
//!
//! Layout: per player one `u32` per row, bit `x` of `rows[seat][y]` is cell
//! (x, y); only bits 0..18 are ever set, and the two players never share a
//! cell. 16 rows of 32 bits per player are 64 bytes, so a whole [`Field`] is
//! 128 bytes, `Copy`, and each step is a handful of row-wise operations that
//! the compiler vectorises (4 rows per SSE2 instruction).
//!
//! A generation (B3/S23, 8-neighbourhood, no wrap-around) counts every
//! cell's neighbours at once, bit-sliced: per row, the sum of the three
//! horizontal cells (`x-1, x, x+1`) as two bit-planes, and the sum of the two
//! side cells (`x-1, x+1`); a cell's neighbour count is then
//! `triple(y-1) + pair(y) + triple(y+1)`, added with full adders. Bits
//! shifted out of the 18 columns are masked off at the end; the missing rows
//! above row 0 and below row 15 are zero, so the edges are clipped. A birth
//! takes player 0's colour when at least 2 of its 3 neighbours are player
//! 0's, which needs only the low two bit-planes of player 0's own count.

use std::fmt;

use super::moves::{Cell, CELLS, HEIGHT, WIDTH};
use crate::search::Seat;

/// The 18 valid column bits of a row.
pub const ROW_MASK: u32 = (1 << WIDTH) - 1;

/// The field: which cells live, and whose they are.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    rows: [[u32; HEIGHT]; 2],
}

impl Default for Field {
    fn default() -> Self {
        Field::empty()
    }
}

/// Per row: bit-planes (`lo`, `hi`) of the number of set bits among columns
/// `x-1, x, x+1` (`triple`), or `x-1, x+1` (`pair`, `hi` = both).
#[inline(always)]
fn triple(r: u32) -> (u32, u32) {
    let (a, c) = (r << 1, r >> 1);
    (a ^ r ^ c, (a & r) | (c & (a | r)))
}

#[inline(always)]
fn pair(r: u32) -> (u32, u32) {
    let (a, c) = (r << 1, r >> 1);
    (a ^ c, a & c)
}

impl Field {
    /// No living cells.
    #[inline]
    pub const fn empty() -> Field {
        Field {
            rows: [[0; HEIGHT]; 2],
        }
    }

    /// A field from per-player row masks (bit x of row y). Errors if a row
    /// has bits beyond column 17 or the players share a cell.
    pub fn from_rows(p0: [u32; HEIGHT], p1: [u32; HEIGHT]) -> Result<Field, String> {
        for y in 0..HEIGHT {
            if (p0[y] | p1[y]) & !ROW_MASK != 0 {
                return Err(format!("row {y} has bits beyond column {}", WIDTH - 1));
            }
            if p0[y] & p1[y] != 0 {
                return Err(format!("row {y}: the players share a cell"));
            }
        }
        Ok(Field { rows: [p0, p1] })
    }

    /// Reads the protocol's field: 288 comma-separated cells `.`, `0` or
    /// `1`, row-major (y outer, x inner). Never panics.
    pub fn from_riddles(s: &str) -> Result<Field, String> {
        let s = s.trim_end_matches(['\r', '\n']);
        let mut f = Field::empty();
        let mut n = 0usize;
        for (i, tok) in s.split(',').enumerate() {
            if i >= CELLS {
                return Err(format!(
                    "field: more than {CELLS} cells ({} given)",
                    s.split(',').count()
                ));
            }
            let seat = match tok {
                "." => None,
                "0" => Some(0),
                "1" => Some(1),
                other => {
                    let shown: String = other.chars().take(20).collect();
                    return Err(format!(
                        "field cell {i}: unexpected {shown:?} (want '.', '0' or '1')"
                    ));
                }
            };
            f.set(Cell::from_index(i), seat);
            n += 1;
        }
        if n != CELLS {
            return Err(format!("field: expected {CELLS} cells, got {n}"));
        }
        Ok(f)
    }

    /// The protocol's field string (see [`Field::from_riddles`]).
    pub fn to_riddles(&self) -> String {
        let mut s = String::with_capacity(2 * CELLS);
        for i in 0..CELLS {
            if i > 0 {
                s.push(',');
            }
            s.push(match self.get(Cell::from_index(i)) {
                None => '.',
                Some(0) => '0',
                Some(_) => '1',
            });
        }
        s
    }

    /// Who owns `c`, if it lives.
    #[inline]
    pub fn get(&self, c: Cell) -> Option<Seat> {
        let bit = 1u32 << c.x;
        let y = c.y as usize;
        if self.rows[0][y] & bit != 0 {
            Some(0)
        } else if self.rows[1][y] & bit != 0 {
            Some(1)
        } else {
            None
        }
    }

    /// Makes `c` dead (`None`) or living for `seat` (`Some(0|1)`; any other
    /// seat number counts as player 1).
    #[inline]
    pub fn set(&mut self, c: Cell, seat: Option<Seat>) {
        let bit = 1u32 << c.x;
        let y = c.y as usize;
        self.rows[0][y] &= !bit;
        self.rows[1][y] &= !bit;
        if let Some(s) = seat {
            self.rows[(s != 0) as usize][y] |= bit;
        }
    }

    /// Living cells of `seat`.
    #[inline]
    pub fn count(&self, seat: Seat) -> u32 {
        self.rows[seat & 1].iter().map(|r| r.count_ones()).sum()
    }

    /// Living cells of both players.
    #[inline]
    pub fn count_all(&self) -> u32 {
        self.count(0) + self.count(1)
    }

    /// `seat`'s row masks (bit x of row y).
    #[inline]
    pub fn rows(&self, seat: Seat) -> &[u32; HEIGHT] {
        &self.rows[seat & 1]
    }

    /// Row `y`'s living cells of both players.
    #[inline]
    pub fn occupied_row(&self, y: usize) -> u32 {
        self.rows[0][y] | self.rows[1][y]
    }

    /// `seat`'s living cells, row by row, left to right.
    pub fn living(&self, seat: Seat) -> impl Iterator<Item = Cell> + '_ {
        bits_of(self.rows[seat & 1])
    }

    /// The dead cells, row by row, left to right.
    pub fn dead(&self) -> impl Iterator<Item = Cell> {
        let mut free = [0u32; HEIGHT];
        for (y, f) in free.iter_mut().enumerate() {
            *f = !self.occupied_row(y) & ROW_MASK;
        }
        bits_of(free)
    }

    /// The `k`-th (0-based, in [`Field::living`] order) living cell of `seat`.
    #[inline]
    pub fn nth_living(&self, seat: Seat, k: u32) -> Option<Cell> {
        nth_bit(&self.rows[seat & 1], k, |r| r)
    }

    /// The `k`-th dead cell in row-major order.
    #[inline]
    pub fn nth_dead(&self, k: u32) -> Option<Cell> {
        let mut free = [0u32; HEIGHT];
        for (y, f) in free.iter_mut().enumerate() {
            *f = !self.occupied_row(y) & ROW_MASK;
        }
        nth_bit(&free, k, |r| r)
    }

    /// The `k`-th living cell of either player in row-major order.
    #[inline]
    pub fn nth_occupied(&self, k: u32) -> Option<Cell> {
        let mut all = [0u32; HEIGHT];
        for (y, a) in all.iter_mut().enumerate() {
            *a = self.occupied_row(y);
        }
        nth_bit(&all, k, |r| r)
    }

    /// The next generation (B3/S23, no wrap-around, majority colour births).
    #[inline]
    pub fn step(&self) -> Field {
        let p0 = &self.rows[0];
        let p1 = &self.rows[1];
        // Horizontal sums, padded with an empty row above and below.
        let mut t_lo = [0u32; HEIGHT + 2];
        let mut t_hi = [0u32; HEIGHT + 2];
        let mut q_lo = [0u32; HEIGHT + 2];
        let mut q_hi = [0u32; HEIGHT + 2];
        let mut all = [0u32; HEIGHT];
        let mut pr_lo = [0u32; HEIGHT];
        let mut pr_hi = [0u32; HEIGHT];
        let mut pq_lo = [0u32; HEIGHT];
        let mut pq_hi = [0u32; HEIGHT];
        for y in 0..HEIGHT {
            let a = p0[y] | p1[y];
            all[y] = a;
            let (l, h) = triple(a);
            t_lo[y + 1] = l;
            t_hi[y + 1] = h;
            let (l, h) = pair(a);
            pr_lo[y] = l;
            pr_hi[y] = h;
            // The same for player 0 alone (only mod 4 is needed).
            let (l, h) = triple(p0[y]);
            q_lo[y + 1] = l;
            q_hi[y + 1] = h;
            let (l, h) = pair(p0[y]);
            pq_lo[y] = l;
            pq_hi[y] = h;
        }
        let mut out = Field::empty();
        for y in 0..HEIGHT {
            // All neighbours: triple(y-1) + triple(y+1) + pair(y), 0..=8.
            let (a0, a1, b0, b1) = (t_lo[y], t_hi[y], t_lo[y + 2], t_hi[y + 2]);
            let s0 = a0 ^ b0;
            let k0 = a0 & b0;
            let s1 = a1 ^ b1 ^ k0;
            let s2 = (a1 & b1) | (k0 & (a1 ^ b1));
            let (c0, c1) = (pr_lo[y], pr_hi[y]);
            let n0 = s0 ^ c0;
            let k1 = s0 & c0;
            let n1 = s1 ^ c1 ^ k1;
            let k2 = (s1 & c1) | (k1 & (s1 ^ c1));
            let four_plus = s2 | k2;
            // Exactly 2 or 3 neighbours: survives; exactly 3: born if dead.
            let two_or_three = n1 & !four_plus;
            let three = two_or_three & n0;
            // Player 0's neighbours, bit 1 of the count mod 4: with exactly
            // 3 neighbours in all this is "player 0 holds 2 or 3 of them".
            let (a0, a1, b0, b1) = (q_lo[y], q_hi[y], q_lo[y + 2], q_hi[y + 2]);
            let s0 = a0 ^ b0;
            let s1 = a1 ^ b1 ^ (a0 & b0);
            let (c0, c1) = (pq_lo[y], pq_hi[y]);
            let m1 = s1 ^ c1 ^ (s0 & c0);
            let born = three & !all[y] & ROW_MASK;
            out.rows[0][y] = (p0[y] & two_or_three) | (born & m1);
            out.rows[1][y] = (p1[y] & two_or_three) | (born & !m1);
        }
        out
    }

    /// The field after `n` generations.
    pub fn steps(&self, n: usize) -> Field {
        let mut f = *self;
        for _ in 0..n {
            f = f.step();
        }
        f
    }
}

/// The cells of a set of row masks, row-major.
fn bits_of(rows: [u32; HEIGHT]) -> impl Iterator<Item = Cell> {
    rows.into_iter().enumerate().flat_map(|(y, mut r)| {
        std::iter::from_fn(move || {
            (r != 0).then(|| {
                let x = r.trailing_zeros();
                r &= r - 1;
                Cell {
                    x: x as u8,
                    y: y as u8,
                }
            })
        })
    })
}

/// The `k`-th set bit (row-major) of `f(rows[y])`.
#[inline]
fn nth_bit(rows: &[u32; HEIGHT], mut k: u32, f: impl Fn(u32) -> u32) -> Option<Cell> {
    for (y, &row) in rows.iter().enumerate() {
        let mut r = f(row);
        let n = r.count_ones();
        if k < n {
            for _ in 0..k {
                r &= r - 1;
            }
            return Some(Cell {
                x: r.trailing_zeros() as u8,
                y: y as u8,
            });
        }
        k -= n;
    }
    None
}

impl fmt::Debug for Field {
    /// 16 rows of `.`, `0` and `1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Field [\n")?;
        for y in 0..HEIGHT {
            f.write_str("  ")?;
            for x in 0..WIDTH {
                let c = Cell {
                    x: x as u8,
                    y: y as u8,
                };
                f.write_str(match self.get(c) {
                    None => ".",
                    Some(0) => "0",
                    Some(_) => "1",
                })?;
            }
            f.write_str("\n")?;
        }
        f.write_str("]")
    }
}

/// Dead cells with at least one living neighbour.
pub fn frontier(f: &Field) -> Vec<Cell> {
    let occ: Vec<u32> = (0..HEIGHT).map(|y| f.occupied_row(y)).collect();
    let mut out = Vec::new();
    for y in 0..HEIGHT {
        let mut near = occ[y];
        if y > 0 {
            near |= occ[y - 1];
        }
        if y + 1 < HEIGHT {
            near |= occ[y + 1];
        }
        let mut m = (near | near << 1 | near >> 1) & ROW_MASK & !occ[y];
        while m != 0 {
            let x = m.trailing_zeros();
            m &= m - 1;
            out.push(Cell {
                x: x as u8,
                y: y as u8,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frontier_is_the_dead_ring_around_living_cells() {
        let mut f = Field::empty();
        f.set(Cell { x: 0, y: 0 }, Some(0));
        f.set(Cell { x: 10, y: 8 }, Some(1));
        let fr = frontier(&f);
        assert_eq!(fr.len(), 3 + 8);
        assert!(
            fr.contains(&Cell { x: 1, y: 1 })
                && fr.contains(&Cell { x: 9, y: 7 })
                && fr.contains(&Cell { x: 11, y: 9 })
        );
        assert!(!fr.contains(&Cell { x: 0, y: 0 }) && !fr.contains(&Cell { x: 2, y: 0 }));
        // Crowded fields: exactly the dead cells with a living neighbour, in
        // row-major order.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..50 {
            let mut f = Field::empty();
            for y in 0..HEIGHT {
                for x in 0..WIDTH {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    if seed % 5 == 0 {
                        f.set(
                            Cell {
                                x: x as u8,
                                y: y as u8,
                            },
                            Some((seed >> 8) as usize & 1),
                        );
                    }
                }
            }
            let want: Vec<Cell> = (0..HEIGHT as i64)
                .flat_map(|y| (0..WIDTH as i64).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    let at = |x, y| Cell::new(x, y).and_then(|c| f.get(c));
                    at(x, y).is_none()
                        && (-1..=1)
                            .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
                            .any(|(dx, dy)| at(x + dx, y + dy).is_some())
                })
                .map(|(x, y)| Cell::new(x, y).unwrap())
                .collect();
            assert_eq!(frontier(&f), want, "{f:?}");
        }
        // The picture a failed assertion prints: 16 rows of 18 cells.
        let text = format!("{f:?}");
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!((rows[0], rows.len()), ("Field [", 18));
        assert_eq!(rows[1], "  0.................");
        assert_eq!(rows[9], "  ..........1.......");
        assert_eq!(rows[17], "]");
    }

    /// A field from a picture: rows of `.`, `0`, `1`, top row first; rows
    /// and columns not drawn are dead.
    pub(crate) fn pic(rows: &[&str]) -> Field {
        let mut f = Field::empty();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let seat = match ch {
                    '0' => Some(0),
                    '1' => Some(1),
                    _ => None,
                };
                f.set(Cell::new(x as i64, y as i64).unwrap(), seat);
            }
        }
        f
    }

    /// The same picture shifted by (dx, dy).
    fn pic_at(rows: &[&str], dx: usize, dy: usize) -> Field {
        let shifted: Vec<String> = rows
            .iter()
            .map(|r| format!("{}{r}", ".".repeat(dx)))
            .collect();
        let mut all = vec![String::new(); dy];
        all.extend(shifted);
        let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
        pic(&refs)
    }

    #[test]
    fn riddles_strings_round_trip_and_bad_ones_are_errors() {
        let f = pic(&[
            "01.",
            "..1",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "0................1",
        ]);
        let s = f.to_riddles();
        assert_eq!(s.len(), 2 * CELLS - 1);
        assert_eq!(Field::from_riddles(&s), Ok(f));
        assert_eq!(f.count(0), 2);
        assert_eq!(f.count(1), 3);
        let empty = vec!["."; CELLS].join(",");
        assert_eq!(Field::from_riddles(&empty), Ok(Field::empty()));
        for bad in [
            String::new(),
            vec!["."; CELLS - 1].join(","),
            vec!["."; CELLS + 1].join(","),
            empty.replacen('.', "2", 1),
            empty.replacen('.', "", 1),
            empty.replacen('.', "0>.", 1),
            format!("{empty},"),
            "é,".repeat(300),
        ] {
            assert!(Field::from_riddles(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn block_is_still_and_blinker_oscillates() {
        let block = pic_at(&["00", "00"], 5, 5);
        assert_eq!(block.step(), block);
        let blinker = pic_at(&["111"], 4, 4);
        let vertical = pic_at(&[".1", ".1", ".1"], 4, 3);
        assert_eq!(blinker.step(), vertical);
        assert_eq!(vertical.step(), blinker);
    }

    #[test]
    fn glider_moves_one_cell_diagonally_in_four_generations() {
        let g = [".0.", "..0", "000"];
        let f = pic_at(&g, 3, 2);
        assert_eq!(f.steps(4), pic_at(&g, 4, 3));
        assert_eq!(f.steps(4).count(0), 5);
    }

    #[test]
    fn edges_are_clipped_not_wrapped() {
        // A blinker on the left edge, vertical: with wrap-around the cells at
        // x = 17 would be born.
        let f = pic(&["", "0", "0", "0"]);
        let next = f.step();
        assert_eq!(next, pic(&["", "", "00"]));
        assert_eq!(next.step(), Field::empty());
        // A block in each corner stays put.
        let corners = pic(&[
            "00..............11",
            "00..............11",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "11..............00",
            "11..............00",
        ]);
        assert_eq!(corners.step(), corners);
        // A horizontal blinker on the right edge at the bottom row: the
        // column above survives, nothing appears at the top or the left.
        let f = pic(&[
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "...............111",
        ]);
        assert_eq!(
            f.step(),
            pic(&[
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "",
                "................1",
                "................1"
            ])
        );
    }

    #[test]
    fn births_take_the_majority_colour_and_survivors_keep_theirs() {
        // Three in a row: the middle survives (keeps its colour), the cells
        // above and below the middle are born.
        // 2 of player 0 vs 1 of player 1 -> player 0.
        let f = pic_at(&["010"], 4, 4);
        assert_eq!(f.step(), pic_at(&["0", "1", "0"], 5, 3));
        // 2 of player 1 vs 1 of player 0 -> player 1.
        let f = pic_at(&["101"], 4, 4);
        assert_eq!(f.step(), pic_at(&["1", "0", "1"], 5, 3));
        // 3 vs 0 each way.
        assert_eq!(
            pic_at(&["111"], 4, 4).step(),
            pic_at(&["1", "1", "1"], 5, 3)
        );
        assert_eq!(
            pic_at(&["000"], 4, 4).step(),
            pic_at(&["0", "0", "0"], 5, 3)
        );
        // An L-tromino: every birth sees 1/2 of the three cells.
        let f = pic_at(&["01", "1."], 4, 4);
        assert_eq!(f.step(), pic_at(&["01", "11"], 4, 4));
        let f = pic_at(&["10", "0."], 4, 4);
        assert_eq!(f.step(), pic_at(&["10", "00"], 4, 4));
    }

    #[test]
    fn every_neighbourhood_steps_by_the_rules() {
        // Every colouring of a 3x3 block (3^9), centred inside the field, on
        // each edge and in each corner: the centre's next state by counting
        // (B3/S23, a birth takes the colour of 2 or 3 of its 3 neighbours),
        // and nothing ever born beyond column 17.
        let spots = [
            (5, 5),
            (0, 7),
            (17, 7),
            (9, 0),
            (9, 15),
            (0, 0),
            (17, 15),
            (17, 0),
            (0, 15),
        ];
        for code in 0..3u32.pow(9) {
            for &(cx, cy) in &spots {
                let mut f = Field::empty();
                let (mut k, mut n, mut centre) = (code, [0u32; 2], None);
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        let v = k % 3;
                        k /= 3;
                        let (x, y) = (cx + dx, cy + dy);
                        if v == 0
                            || !(0..WIDTH as i32).contains(&x)
                            || !(0..HEIGHT as i32).contains(&y)
                        {
                            continue;
                        }
                        let seat = (v - 1) as Seat;
                        f.set(
                            Cell {
                                x: x as u8,
                                y: y as u8,
                            },
                            Some(seat),
                        );
                        if (dx, dy) == (0, 0) {
                            centre = Some(seat);
                        } else {
                            n[seat] += 1;
                        }
                    }
                }
                let want = match (centre, n[0] + n[1]) {
                    (Some(s), 2 | 3) => Some(s),
                    (None, 3) => Some(if n[0] >= 2 { 0 } else { 1 }),
                    _ => None,
                };
                let next = f.step();
                let at = Cell {
                    x: cx as u8,
                    y: cy as u8,
                };
                assert_eq!(next.get(at), want, "{code} at {at:?}:\n{f:?}");
                for seat in 0..2 {
                    assert!(next.rows(seat).iter().all(|r| r & !ROW_MASK == 0));
                }
            }
        }
    }

    #[test]
    fn crowded_and_lonely_cells_die() {
        // The centre of a plus has 4 neighbours and dies.
        let f = pic_at(&[".0.", "010", ".0."], 3, 3);
        let n = f.step();
        assert_eq!(n.get(Cell { x: 4, y: 4 }), None);
        // A lone cell dies.
        assert_eq!(pic_at(&["1"], 7, 7).step(), Field::empty());
        // Full field: only the four corners (3 neighbours) survive.
        let full = Field::from_rows([ROW_MASK; HEIGHT], [0; HEIGHT]).unwrap();
        let n = full.step();
        assert_eq!(n.count(0), 4);
        for (x, y) in [(0, 0), (17, 0), (0, 15), (17, 15)] {
            assert_eq!(n.get(Cell { x, y }), Some(0));
        }
    }

    #[test]
    fn nth_and_iterators_agree() {
        let f = pic(&["01.0", ".1..1", "", "0"]);
        let l0: Vec<Cell> = f.living(0).collect();
        assert_eq!(l0.len() as u32, f.count(0));
        for (k, c) in l0.iter().enumerate() {
            assert_eq!(f.nth_living(0, k as u32), Some(*c));
        }
        assert_eq!(f.nth_living(0, l0.len() as u32), None);
        let dead: Vec<Cell> = f.dead().collect();
        assert_eq!(dead.len() as u32, CELLS as u32 - f.count_all());
        assert_eq!(f.nth_dead(0), Some(Cell { x: 2, y: 0 }));
        assert_eq!(
            f.nth_dead(dead.len() as u32 - 1),
            Some(Cell { x: 17, y: 15 })
        );
        assert_eq!(f.nth_occupied(1), Some(Cell { x: 1, y: 0 }));
        // Each refusal says why, whichever player holds the stray bits.
        for (p0, p1, why) in [
            (1 << 18, 0, "row 0 has bits beyond column 17"),
            (0, 1 << 20, "row 0 has bits beyond column 17"),
            (1 << 18, 1 << 18, "row 0 has bits beyond column 17"),
            (1, 1, "row 0: the players share a cell"),
        ] {
            assert_eq!(
                Field::from_rows([p0; HEIGHT], [p1; HEIGHT]),
                Err(why.to_string())
            );
        }
    }
}
