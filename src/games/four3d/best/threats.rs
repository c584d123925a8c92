//! Threats on the bitboard: the empty cells where a side would complete a
//! line, for all 76 lines at once with shifts.
//!
//! The lines fall into 13 families of parallel lines, each with its own
//! step between consecutive cells (1 along x, 4 along y, 16 along z, 5 and
//! 3 for the diagonals of the horizontal planes, ...; the four space
//! diagonals are families of one). For a family with step `s`, `masks[k]`
//! holds the `k`-th cell (in increasing bit order) of each of its lines;
//! the `k`-th cell is a threat when the other three cells of its line,
//! `(j - k) * s` bits away, are all the side's.

use crate::games::four3d::lines::LINES;

/// One family of parallel lines.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    pub step: u32,
    pub masks: [u64; 4],
}

const fn build_families() -> [Family; 13] {
    let mut out = [Family {
        step: 0,
        masks: [0; 4],
    }; 13];
    let mut n = 0;
    let mut l = 0;
    while l < 76 {
        let line = LINES[l];
        let first = line.trailing_zeros();
        let rest = line & (line - 1);
        let step = rest.trailing_zeros() - first;
        // The family of this step, or a new one.
        let mut f = 0;
        while f < n && out[f].step != step {
            f += 1;
        }
        if f == n {
            out[f].step = step;
            n += 1;
        }
        let mut k = 0;
        while k < 4 {
            out[f].masks[k] |= 1u64 << (first + step * k as u32);
            k += 1;
        }
        l += 1;
    }
    assert!(n == 13, "13 families of parallel lines");
    out
}

/// The 13 families of parallel lines.
pub const FAMILIES: [Family; 13] = build_families();

/// The threats of one family: the step and masks are constants, so every
/// shift is by a constant.
macro_rules! family {
    ($own:ident, $i:expr) => {{
        const S: u32 = FAMILIES[$i].step;
        const M: [u64; 4] = FAMILIES[$i].masks;
        let c0 = $own & M[0];
        let c1 = $own & M[1];
        let c2 = $own & M[2];
        let c3 = $own & M[3];
        // Cell k sees cell j (j > k) at (j - k) * S bits above it.
        (M[0] & (c1 >> S) & (c2 >> (2 * S)) & (c3 >> (3 * S)))
            | (M[1] & (c0 << S) & (c2 >> S) & (c3 >> (2 * S)))
            | (M[2] & (c0 << (2 * S)) & (c1 << S) & (c3 >> S))
            | (M[3] & (c0 << (3 * S)) & (c1 << (2 * S)) & (c2 << S))
    }};
}

/// Every cell (occupied or not) whose line's other three cells are all in
/// `own`; `& empty` gives the side's threats.
#[inline]
pub fn three_of_four(own: u64) -> u64 {
    family!(own, 0)
        | family!(own, 1)
        | family!(own, 2)
        | family!(own, 3)
        | family!(own, 4)
        | family!(own, 5)
        | family!(own, 6)
        | family!(own, 7)
        | family!(own, 8)
        | family!(own, 9)
        | family!(own, 10)
        | family!(own, 11)
        | family!(own, 12)
}

/// The empty cells where `own` would complete a line.
#[inline]
pub fn threats(own: u64, empty: u64) -> u64 {
    three_of_four(own) & empty
}

/// The same, line by line: the reference the shifts are checked against.
pub fn threats_by_lines(own: u64, empty: u64) -> u64 {
    let mut t = 0;
    for &l in LINES.iter() {
        let missing = l & !own;
        if missing.count_ones() == 1 {
            t |= missing;
        }
    }
    t & empty
}

/// The cells that become threats of `me` when it drops on `cell`: the
/// empty last cells of the lines through `cell` that then hold three of
/// `me`'s beads and none of `opp`'s (threats `me` had before included).
#[inline]
pub fn made_threats(me: u64, opp: u64, cell: u8) -> u64 {
    use crate::games::four3d::lines::CELL_LINE_IDS;
    let after = me | 1u64 << cell;
    let ids = &CELL_LINE_IDS[cell as usize];
    let mut made = 0u64;
    for &l in &ids.ids[..ids.len as usize] {
        let line = LINES[l as usize];
        if line & opp == 0 {
            let rest = line & !after;
            if rest != 0 && rest & (rest - 1) == 0 {
                made |= rest;
            }
        }
    }
    made
}

/// Every cell strictly above one of `cells` in the same peg.
#[inline]
pub fn above(cells: u64) -> u64 {
    cells << 16 | cells << 32 | cells << 48
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn families_cover_every_line_once() {
        let starts: u32 = FAMILIES.iter().map(|f| f.masks[0].count_ones()).sum();
        assert_eq!(starts, 76);
        for f in FAMILIES.iter() {
            for k in 1..4 {
                assert_eq!(f.masks[k], f.masks[0] << (k as u32 * f.step));
            }
        }
    }

    #[test]
    fn shifts_agree_with_the_lines_on_random_positions() {
        let mut rng = SmallRng::seed_from_u64(11);
        for _ in 0..20_000 {
            let density = rng.gen_range(0.05..0.8);
            let (mut own, mut other) = (0u64, 0u64);
            for c in 0..64 {
                if rng.gen_bool(density) {
                    if rng.gen_bool(0.5) {
                        own |= 1 << c;
                    } else {
                        other |= 1 << c;
                    }
                }
            }
            let empty = !(own | other);
            assert_eq!(threats(own, empty), threats_by_lines(own, empty));
        }
    }

    #[test]
    fn made_threats_are_the_new_threats_through_the_cell() {
        let mut rng = SmallRng::seed_from_u64(12);
        for _ in 0..5000 {
            let (mut me, mut opp) = (0u64, 0u64);
            for c in 0..64 {
                match rng.gen_range(0..5) {
                    0 => me |= 1 << c,
                    1 => opp |= 1 << c,
                    _ => {}
                }
            }
            let empty = !(me | opp);
            let cell = rng.gen_range(0..64u8);
            if empty & 1 << cell == 0 {
                continue;
            }
            let after = me | 1 << cell;
            let new = threats(after, empty & !(1 << cell)) & !threats(me, empty);
            let made = made_threats(me, opp, cell);
            assert_eq!(made & !threats(me, empty), new);
        }
    }

    #[test]
    fn above_stays_in_the_peg() {
        assert_eq!(above(1), 1 << 16 | 1 << 32 | 1 << 48);
        assert_eq!(above(1 << 48), 0);
    }
}
