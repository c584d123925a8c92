//! The 76 winning lines of Score Four as bit masks (bit = x + 4y + 16z),
//! built family by family, and for each cell the lines through it.

/// Bit index of cell (x, y, z).
pub const fn bit(x: usize, y: usize, z: usize) -> usize {
    x + 4 * y + 16 * z
}

const fn line(cells: [(usize, usize, usize); 4]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < 4 {
        let (x, y, z) = cells[i];
        m |= 1u64 << bit(x, y, z);
        i += 1;
    }
    m
}

const fn build_lines() -> [u64; 76] {
    let mut out = [0u64; 76];
    let mut n = 0;
    // Straight lines along x, y and z: 16 each.
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 4 {
            out[n] = line([(0, a, b), (1, a, b), (2, a, b), (3, a, b)]);
            out[n + 1] = line([(a, 0, b), (a, 1, b), (a, 2, b), (a, 3, b)]);
            out[n + 2] = line([(a, b, 0), (a, b, 1), (a, b, 2), (a, b, 3)]);
            n += 3;
            b += 1;
        }
        a += 1;
    }
    // Two diagonals in every axis-aligned plane: 8 per orientation.
    let mut c = 0;
    while c < 4 {
        out[n] = line([(0, 0, c), (1, 1, c), (2, 2, c), (3, 3, c)]);
        out[n + 1] = line([(0, 3, c), (1, 2, c), (2, 1, c), (3, 0, c)]);
        out[n + 2] = line([(0, c, 0), (1, c, 1), (2, c, 2), (3, c, 3)]);
        out[n + 3] = line([(0, c, 3), (1, c, 2), (2, c, 1), (3, c, 0)]);
        out[n + 4] = line([(c, 0, 0), (c, 1, 1), (c, 2, 2), (c, 3, 3)]);
        out[n + 5] = line([(c, 0, 3), (c, 1, 2), (c, 2, 1), (c, 3, 0)]);
        n += 6;
        c += 1;
    }
    // The four space diagonals.
    out[n] = line([(0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3)]);
    out[n + 1] = line([(3, 0, 0), (2, 1, 1), (1, 2, 2), (0, 3, 3)]);
    out[n + 2] = line([(0, 3, 0), (1, 2, 1), (2, 1, 2), (3, 0, 3)]);
    out[n + 3] = line([(3, 3, 0), (2, 2, 1), (1, 1, 2), (0, 0, 3)]);
    out
}

/// All 76 winning lines.
pub const LINES: [u64; 76] = build_lines();

/// Pads [`CellLines::masks`]: no position can hold all 64 cells for one
/// side, so `own & NEVER == NEVER` is always false and every cell can be
/// checked with the same seven comparisons, without branches.
pub const NEVER: u64 = u64::MAX;

/// Lines through each cell (at most 7), padded with [`NEVER`].
pub struct CellLines {
    pub masks: [u64; 7],
    pub len: u8,
}

const fn build_cell_lines() -> [CellLines; 64] {
    let mut out = [const {
        CellLines {
            masks: [NEVER; 7],
            len: 0,
        }
    }; 64];
    let mut cell = 0;
    while cell < 64 {
        let mut i = 0;
        while i < 76 {
            if LINES[i] & (1u64 << cell) != 0 {
                let k = out[cell].len as usize;
                out[cell].masks[k] = LINES[i];
                out[cell].len += 1;
            }
            i += 1;
        }
        cell += 1;
    }
    out
}

/// For each cell, the winning lines through it.
pub static CELL_LINES: [CellLines; 64] = build_cell_lines();

const fn build_line_cells() -> [[u8; 4]; 76] {
    let mut out = [[0u8; 4]; 76];
    let mut l = 0;
    while l < 76 {
        let mut k = 0;
        let mut cell = 0;
        while cell < 64 {
            if LINES[l] & (1u64 << cell) != 0 {
                out[l][k] = cell as u8;
                k += 1;
            }
            cell += 1;
        }
        l += 1;
    }
    out
}

/// The four cells of each line, by line index.
pub static LINE_CELLS: [[u8; 4]; 76] = build_line_cells();

/// Indices (into [`LINES`]) of the lines through each cell.
pub struct CellLineIds {
    pub ids: [u8; 7],
    pub len: u8,
}

const fn build_cell_line_ids() -> [CellLineIds; 64] {
    let mut out = [const {
        CellLineIds {
            ids: [0; 7],
            len: 0,
        }
    }; 64];
    let mut cell = 0;
    while cell < 64 {
        let mut l = 0;
        while l < 76 {
            if LINES[l] & (1u64 << cell) != 0 {
                let k = out[cell].len as usize;
                out[cell].ids[k] = l as u8;
                out[cell].len += 1;
            }
            l += 1;
        }
        cell += 1;
    }
    out
}

/// For each cell, the indices of the lines through it.
pub static CELL_LINE_IDS: [CellLineIds; 64] = build_cell_line_ids();

/// Whether the stones `own` complete a line through `cell`: seven
/// comparisons, no branches (unused slots hold a mask that never matches).
#[inline]
pub fn completes_line(own: u64, cell: u32) -> bool {
    let m = &CELL_LINES[cell as usize].masks;
    ((own & m[0] == m[0]) as u8
        | (own & m[1] == m[1]) as u8
        | (own & m[2] == m[2]) as u8
        | (own & m[3] == m[3]) as u8
        | (own & m[4] == m[4]) as u8
        | (own & m[5] == m[5]) as u8
        | (own & m[6] == m[6]) as u8)
        != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seventy_six_distinct_lines_of_four() {
        let mut v = LINES.to_vec();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), 76);
        assert!(LINES.iter().all(|l| l.count_ones() == 4));
    }

    #[test]
    fn sixteen_cells_on_seven_lines_forty_eight_on_four() {
        let sevens = CELL_LINES.iter().filter(|c| c.len == 7).count();
        let fours = CELL_LINES.iter().filter(|c| c.len == 4).count();
        assert_eq!((sevens, fours), (16, 48));
    }
}
