//! `best`'s static evaluation of a quiet position (neither side can win
//! with its next drop), from the side to move's view, in hundredths of a
//! sure threat.
//!
//! - **Open lines**: every line without an opponent bead counts `line[n]`
//!   for the side's `n` beads in it (1 or 2; three beads make a threat,
//!   scored below).
//! - **Threats** (empty cells that would complete a line), by how they
//!   can ever be played:
//!   - the height parity: each peg holds four beads, so a second player
//!     who always answers on the same peg gets every cell of heights 2 and
//!     4 (z = 1 and 3), and the first player those of heights 1 and 3
//!     (z = 0 and 2). A threat on a cell of its owner's parity is `good`,
//!     otherwise `bad` (in the zugzwang at the end of the game, good
//!     threats are the ones that fall to their owner);
//!   - a threat above an opponent threat in the same peg is `dead` (the
//!     peg is poisoned below it);
//!   - two threats of one side stacked on consecutive cells of a peg are
//!     `stacked` (filling the cell under them wins).

use super::threats::above;
use crate::games::four3d::lines::{CELL_LINE_IDS, LINES};
use crate::search::Seat;

/// The cells of each seat's height parity: z = 0 and 2 for the first
/// player, z = 1 and 3 for the second.
pub const PARITY: [u64; 2] = [0x0000_FFFF_0000_FFFF, 0xFFFF_0000_FFFF_0000];

/// The evaluation's weights (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// An open line holding one of the side's beads.
    pub line1: i32,
    /// An open line holding two.
    pub line2: i32,
    pub good: i32,
    pub bad: i32,
    pub dead: i32,
    pub stacked: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            line1: 2,
            line2: 10,
            good: 90,
            bad: 40,
            dead: 5,
            stacked: 200,
        }
    }
}

impl Weights {
    /// Line weights by bead count 0..=4 (0 for none, threats, and full).
    #[inline]
    fn by_count(&self) -> [i32; 5] {
        [0, self.line1, self.line2, 0, 0]
    }
}

/// The open-lines term for `me` against `opp`.
#[inline]
pub fn lines_term(me: u64, opp: u64, w: &Weights) -> i32 {
    let table = w.by_count();
    let mut s = 0;
    for &l in LINES.iter() {
        let a = (l & me).count_ones() as usize;
        let b = (l & opp).count_ones() as usize;
        if b == 0 {
            s += table[a];
        } else if a == 0 {
            s -= table[b];
        }
    }
    s
}

/// The bits of a sparse set, counted one by one (threat sets hold a few
/// cells; this needs no `popcnt` instruction, which the baseline x86-64
/// target lacks).
#[inline]
pub(super) fn sparse_count(mut x: u64) -> i32 {
    let mut n = 0;
    while x != 0 {
        x &= x - 1;
        n += 1;
    }
    n
}

/// `OPEN[n - 1][c0][c1]`: +1 for a line holding `n` beads of seat 0 and
/// none of seat 1, -1 for the reverse, else 0.
const OPEN: [[[i8; 5]; 5]; 2] = {
    let mut t = [[[0i8; 5]; 5]; 2];
    let mut n = 1;
    while n <= 2 {
        t[n - 1][n][0] = 1;
        t[n - 1][0][n] = -1;
        n += 1;
    }
    t
};

/// The open-lines term kept up to date drop by drop: the beads of each
/// seat in every line, and the term from seat 0's view. A drop changes
/// only the (at most seven) lines through its cell.
#[derive(Clone, Debug)]
pub struct LineCounts {
    counts: [[u8; 2]; 76],
    /// Open lines with one bead of seat 0 less those with one of seat 1.
    pub ones: i32,
    /// The same for two beads.
    pub twos: i32,
    /// `value[c0][c1]`: a line's share of the term (seat 0's view) with
    /// `c0` and `c1` beads of the two seats.
    value: [[i32; 5]; 5],
    /// The term from seat 0's view.
    pub term: i32,
}

impl LineCounts {
    /// The counts of a position (`stones[seat]`).
    pub fn new(stones: [u64; 2], w: &Weights) -> Self {
        let t = w.by_count();
        let mut value = [[0; 5]; 5];
        for (c0, row) in value.iter_mut().enumerate() {
            for (c1, v) in row.iter_mut().enumerate() {
                *v = if c1 == 0 {
                    t[c0]
                } else if c0 == 0 {
                    -t[c1]
                } else {
                    0
                };
            }
        }
        let mut counts = [[0u8; 2]; 76];
        let mut term = 0;
        let (mut ones, mut twos) = (0, 0);
        for (l, &mask) in LINES.iter().enumerate() {
            let c = [
                (mask & stones[0]).count_ones() as u8,
                (mask & stones[1]).count_ones() as u8,
            ];
            counts[l] = c;
            term += value[c[0] as usize][c[1] as usize];
            ones += OPEN[0][c[0] as usize][c[1] as usize] as i32;
            twos += OPEN[1][c[0] as usize][c[1] as usize] as i32;
        }
        LineCounts {
            counts,
            ones,
            twos,
            value,
            term,
        }
    }

    /// `seat` drops a bead on `cell`.
    #[inline]
    pub fn place(&mut self, cell: u32, seat: Seat) {
        let ids = &CELL_LINE_IDS[cell as usize];
        for &l in &ids.ids[..ids.len as usize] {
            let c = &mut self.counts[l as usize];
            let (a, b) = (c[0] as usize, c[1] as usize);
            self.term -= self.value[a][b];
            self.ones -= OPEN[0][a][b] as i32;
            self.twos -= OPEN[1][a][b] as i32;
            c[seat] += 1;
            let (a, b) = (c[0] as usize, c[1] as usize);
            self.term += self.value[a][b];
            self.ones += OPEN[0][a][b] as i32;
            self.twos += OPEN[1][a][b] as i32;
        }
    }

    /// Takes back `seat`'s bead on `cell`.
    #[inline]
    pub fn remove(&mut self, cell: u32, seat: Seat) {
        let ids = &CELL_LINE_IDS[cell as usize];
        for &l in &ids.ids[..ids.len as usize] {
            let c = &mut self.counts[l as usize];
            let (a, b) = (c[0] as usize, c[1] as usize);
            self.term -= self.value[a][b];
            self.ones -= OPEN[0][a][b] as i32;
            self.twos -= OPEN[1][a][b] as i32;
            c[seat] -= 1;
            let (a, b) = (c[0] as usize, c[1] as usize);
            self.term += self.value[a][b];
            self.ones += OPEN[0][a][b] as i32;
            self.twos += OPEN[1][a][b] as i32;
        }
    }

    /// The term for `seat`.
    #[inline]
    pub fn for_seat(&self, seat: Seat) -> i32 {
        if seat == 0 {
            self.term
        } else {
            -self.term
        }
    }
}

/// The threat term of one side: its threats `t` against the other side's
/// threats `t_other`, `seat` giving its parity.
#[inline]
pub fn threat_term(t: u64, t_other: u64, seat: Seat, w: &Weights) -> i32 {
    let shadow = above(t_other);
    let live = t & !shadow;
    let good = sparse_count(live & PARITY[seat]);
    let bad = sparse_count(live & !PARITY[seat]);
    let dead = sparse_count(t & shadow);
    let stacked = sparse_count(live & (live << 16));
    good * w.good + bad * w.bad + dead * w.dead + stacked * w.stacked
}

/// The value of a quiet position for the side to move (`me`, in `seat`),
/// given both sides' threats.
#[inline]
pub fn evaluate(me: u64, opp: u64, seat: Seat, t_me: u64, t_opp: u64, w: &Weights) -> i32 {
    evaluate_with(lines_term(me, opp, w), seat, t_me, t_opp, w)
}

/// [`evaluate`] with the open-lines term already known (`lines` for the
/// side to move, e.g. from [`LineCounts`]).
#[inline]
pub fn evaluate_with(lines: i32, seat: Seat, t_me: u64, t_opp: u64, w: &Weights) -> i32 {
    lines + threat_term(t_me, t_opp, seat, w) - threat_term(t_opp, t_me, 1 - seat, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::four3d::best::threats::threats;

    #[test]
    fn the_parities_split_the_board_by_height() {
        assert_eq!(PARITY[0] & PARITY[1], 0);
        assert_eq!(PARITY[0] | PARITY[1], u64::MAX);
        assert_eq!(PARITY[0] & 0xFFFF, 0xFFFF, "the first player owns z = 0");
    }

    #[test]
    fn symmetric_positions_score_zero_and_swapping_sides_negates() {
        let w = Weights::default();
        assert_eq!(evaluate(0, 0, 0, 0, 0, &w), 0);
        // me: (0,0,0),(1,0,0); opp: (0,3,0),(1,3,0): mirror images.
        let (me, opp) = (0b11, 0b11 << 12);
        assert_eq!(lines_term(me, opp, &w), 0);
        let (a, b) = (0b111 | 1 << 17, 1 << 5 | 1 << 21 | 1 << 9);
        assert_eq!(lines_term(a, b, &w), -lines_term(b, a, &w));
    }

    #[test]
    fn line_counts_follow_drops_and_take_backs() {
        use rand::{Rng, SeedableRng};
        let w = Weights::default();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
        for _ in 0..50 {
            let mut stones = [0u64; 2];
            let mut lc = LineCounts::new(stones, &w);
            let mut played = Vec::new();
            for ply in 0..40 {
                let free: Vec<u32> = (0..64)
                    .filter(|c| (stones[0] | stones[1]) & 1 << c == 0)
                    .collect();
                let c = free[rng.gen_range(0..free.len())];
                let seat = ply % 2;
                stones[seat] |= 1 << c;
                lc.place(c, seat);
                played.push((c, seat));
                assert_eq!(lc.term, lines_term(stones[0], stones[1], &w));
                let only = |line1, line2| Weights { line1, line2, ..w };
                assert_eq!(lc.ones, lines_term(stones[0], stones[1], &only(1, 0)));
                assert_eq!(lc.twos, lines_term(stones[0], stones[1], &only(0, 1)));
                assert_eq!(lc.for_seat(1), lines_term(stones[1], stones[0], &w));
            }
            while let Some((c, seat)) = played.pop() {
                stones[seat] &= !(1 << c);
                lc.remove(c, seat);
                assert_eq!(lc.term, lines_term(stones[0], stones[1], &w));
            }
        }
    }

    #[test]
    fn a_good_threat_beats_a_bad_one_and_a_stacked_pair_beats_both() {
        let w = Weights::default();
        // Seat 0 with three on the x-line at z = 2 (cells 32..34): the
        // threat at (3,0,2) is of the first player's parity.
        let me = 0b111 << 32;
        let t = threats(me, !me);
        assert_eq!(t, 1 << 35);
        assert_eq!(threat_term(t, 0, 0, &w), w.good);
        assert_eq!(threat_term(t, 0, 1, &w), w.bad);
        assert_eq!(threat_term(t, 1 << 19, 0, &w), w.dead);
        let stacked = 1 << 35 | 1 << 51;
        assert!(threat_term(stacked, 0, 0, &w) > 2 * w.good);
    }
}
