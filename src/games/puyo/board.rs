//! One player's field: 6 columns x 13 rows with gravity, as bitboards.
//!
//! Layout: one `u128` plane per kind of puyo (four colours and ojama);
//! column `c` (0 = left) owns bits `16c .. 16c + 13`, row 0 is the bottom.
//! The three spare bits above each column keep shifts from wrapping, so a
//! neighbour step is one shift and one mask, and resolving a chain never
//! allocates.

use std::fmt;

/// Columns of the field.
pub const COLS: usize = 6;
/// Rows of the field.
pub const ROWS: usize = 13;
/// Cells of the field.
pub const CELLS: usize = COLS * ROWS;
/// The puyo colours (0..COLOURS); ojama is [`OJAMA`].
pub const COLOURS: usize = 4;
/// The kind index of an ojama (garbage) puyo.
pub const OJAMA: u8 = 4;
/// Kinds of puyo: four colours and ojama.
pub const KINDS: usize = 5;
/// The cell whose filling loses the game (Tsu): column 3, row 12
/// (1-based), i.e. column index 2, row index 11.
pub const DEATH_COL: usize = 2;
pub const DEATH_ROW: usize = 11;
/// Most links a chain can have on this field: floor(78 / 4).
pub const MAX_CHAIN: usize = CELLS / 4;

const COL_BITS: u128 = (1 << ROWS) - 1;
/// Every valid cell.
pub const VALID: u128 = {
    let mut m = 0u128;
    let mut c = 0;
    while c < COLS {
        m |= COL_BITS << (16 * c);
        c += 1;
    }
    m
};

/// The bit of a cell.
#[inline]
pub const fn bit(col: usize, row: usize) -> u128 {
    1u128 << (16 * col + row)
}

/// The cell index 0..CELLS (`col * ROWS + row`) of a bit position.
#[inline]
pub fn cell_of_bitpos(pos: u32) -> usize {
    let col = (pos / 16) as usize;
    let row = (pos % 16) as usize;
    col * ROWS + row
}

/// The four orthogonal neighbours of every cell of `x`, within the field.
#[inline]
pub fn neighbours(x: u128) -> u128 {
    ((x << 1) | (x >> 1) | (x << 16) | (x >> 16)) & VALID
}

/// `x` grown by its neighbours inside `within`, until it stops growing.
#[inline]
pub fn flood(mut x: u128, within: u128) -> u128 {
    loop {
        let next = (x | neighbours(x)) & within;
        if next == x {
            return x;
        }
        x = next;
    }
}

/// What one chain did: its links and, per link, what vanished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chain {
    /// Links (0 when nothing vanished).
    pub links: u8,
    /// Coloured puyos cleared at each link (ojama not counted).
    pub cleared: [u8; MAX_CHAIN],
    /// Distinct colours cleared at each link.
    pub colours: [u8; MAX_CHAIN],
    /// Sum over the link's groups of the Tsu group bonus.
    pub group_bonus: [u16; MAX_CHAIN],
    /// Ojama cleared over the whole chain.
    pub ojama_cleared: u16,
}

impl Default for Chain {
    fn default() -> Self {
        Chain {
            links: 0,
            cleared: [0; MAX_CHAIN],
            colours: [0; MAX_CHAIN],
            group_bonus: [0; MAX_CHAIN],
            ojama_cleared: 0,
        }
    }
}

impl Chain {
    /// The seed's attack (ojama sent): `3N(N-1) + sum_i i * (c_i - 4)`,
    /// `c_i` the coloured puyos cleared at link `i` (1-based).
    pub fn attack(&self) -> u32 {
        let n = self.links as i64;
        if n == 0 {
            return 0;
        }
        let mut a = 3 * n * (n - 1);
        for i in 0..self.links as usize {
            a += (i as i64 + 1) * (self.cleared[i] as i64 - 4);
        }
        a.max(0) as u32
    }

    /// The official Puyo Puyo Tsu score of the chain.
    pub fn tsu_score(&self) -> u32 {
        let mut total = 0u32;
        for i in 0..self.links as usize {
            let bonus = chain_power(i + 1)
                + colour_bonus(self.colours[i] as usize)
                + self.group_bonus[i] as u32;
            total += 10 * self.cleared[i] as u32 * bonus.max(1);
        }
        total
    }

    /// All coloured puyos the chain cleared.
    pub fn total_cleared(&self) -> u32 {
        self.cleared[..self.links as usize]
            .iter()
            .map(|&c| c as u32)
            .sum()
    }
}

/// Tsu chain power of link `n` (1-based): 0, 8, 16, 32, 64, 96, 128, then
/// +32 per link up to 512 at 19.
pub fn chain_power(n: usize) -> u32 {
    match n {
        0 | 1 => 0,
        2 => 8,
        3 => 16,
        4 => 32,
        5 => 64,
        6 => 96,
        _ => (128 + 32 * (n as u32 - 7)).min(512),
    }
}

/// Tsu colour bonus for `k` distinct colours cleared in one link.
pub fn colour_bonus(k: usize) -> u32 {
    [0, 0, 3, 6, 12, 24][k.min(5)]
}

/// Tsu group bonus for one group of `size` puyos.
pub fn group_bonus(size: u32) -> u32 {
    match size {
        0..=4 => 0,
        5..=10 => size - 3,
        _ => 10,
    }
}

/// Tsu points per ojama sent: 70.
pub const TSU_POINTS_PER_OJAMA: u32 = 70;

/// The top row (row index `ROWS - 1`) of every column.
const TOP_ROW: u128 = {
    let mut m = 0u128;
    let mut c = 0;
    while c < COLS {
        m |= bit(c, ROWS - 1);
        c += 1;
    }
    m
};

/// When a field is lost: a rule of the game (game option `over`), kept
/// by every field so that the rules, the agents and their searches ask
/// the same question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Over {
    /// Puyo Puyo Tsu: the third column's twelfth cell is filled.
    #[default]
    Cell,
    /// Any column reaches the top (13th) row.
    Top,
    /// No pair fits any more: no column with two free cells, no two
    /// neighbouring columns with one each (the field is full).
    Full,
}

impl Over {
    /// The rule's name in game options and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Over::Cell => "cell",
            Over::Top => "top",
            Over::Full => "full",
        }
    }
    /// Reads a name written by [`Over::name`].
    pub fn parse(s: &str) -> Result<Over, String> {
        match s {
            "cell" => Ok(Over::Cell),
            "top" => Ok(Over::Top),
            "full" => Ok(Over::Full),
            _ => Err(format!("over: '{s}' is not cell, top or full")),
        }
    }
}

/// One player's field.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    planes: [u128; KINDS],
    over: Over,
}

impl Board {
    /// An empty field under Tsu's rule ([`Over::Cell`]).
    pub fn empty() -> Self {
        Board::default()
    }

    /// An empty field lost by rule `over`.
    pub fn empty_with(over: Over) -> Self {
        Board {
            over,
            ..Board::default()
        }
    }

    /// The rule that loses this field.
    pub fn over(&self) -> Over {
        self.over
    }

    /// The same field under another rule.
    pub fn with_over(mut self, over: Over) -> Self {
        self.over = over;
        self
    }

    /// The plane of one kind (colour 0..4 or [`OJAMA`]).
    #[inline]
    pub fn plane(&self, kind: u8) -> u128 {
        self.planes[kind as usize]
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.planes.iter().fold(0, |a, &p| a | p)
    }

    /// The kind at a cell, if any.
    pub fn get(&self, col: usize, row: usize) -> Option<u8> {
        let b = bit(col, row);
        (0..KINDS as u8).find(|&k| self.planes[k as usize] & b != 0)
    }

    /// Puts `kind` at a cell, without gravity (tests, reading positions).
    pub fn set(&mut self, col: usize, row: usize, kind: Option<u8>) {
        let b = bit(col, row);
        for p in &mut self.planes {
            *p &= !b;
        }
        if let Some(k) = kind {
            self.planes[k as usize] |= b;
        }
    }

    /// The stack height of a column.
    #[inline]
    pub fn height(&self, col: usize) -> usize {
        ((self.occupied() >> (16 * col)) & COL_BITS).count_ones() as usize
    }

    /// Number of puyos on the field.
    pub fn count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// Whether every column is a stack from the floor (no floating puyo).
    pub fn is_settled(&self) -> bool {
        let occ = self.occupied();
        (0..COLS).all(|c| {
            let col = (occ >> (16 * c)) & COL_BITS;
            col & (col + 1) == 0
        })
    }

    /// Whether the field is lost under its rule ([`Over`]).
    #[inline]
    pub fn is_dead(&self) -> bool {
        let occ = self.occupied();
        match self.over {
            Over::Cell => occ & bit(DEATH_COL, DEATH_ROW) != 0,
            Over::Top => occ & TOP_ROW != 0,
            Over::Full => {
                // Settled columns: a free cell in the row below the top
                // means two free cells; a free top cell means one.
                let top = !occ & TOP_ROW;
                let second = !occ & (TOP_ROW >> 1);
                second == 0 && top & (top >> 16) == 0
            }
        }
    }

    /// Rows the rule's danger column can still grow before the field is
    /// lost: Tsu's third column up to its twelfth cell, the tallest column
    /// up to the top row; `None` when only a full field loses.
    pub fn rows_to_death(&self) -> Option<usize> {
        match self.over {
            Over::Cell => Some((DEATH_ROW + 1).saturating_sub(self.height(DEATH_COL))),
            Over::Top => Some(ROWS - (0..COLS).map(|c| self.height(c)).max().unwrap_or(0)),
            Over::Full => None,
        }
    }

    /// Drops one puyo onto a column; false (and no change) when it is full.
    #[inline]
    pub fn drop_puyo(&mut self, col: usize, kind: u8) -> bool {
        let h = self.height(col);
        if h >= ROWS {
            return false;
        }
        self.planes[kind as usize] |= bit(col, h);
        true
    }

    /// Groups of four or more of one colour that hold a cell of `seeds`,
    /// with the ojama next to them: the cells that vanish now (0 when
    /// none), and the link's record.
    fn vanishing(&self, seeds: u128) -> (u128, u8, u8, u16) {
        let mut clear = 0u128;
        let mut cleared = 0u8;
        let mut colours = 0u8;
        let mut bonus = 0u16;
        for c in 0..COLOURS {
            let p = self.planes[c];
            // A cell in a group of 4+ has a same-coloured neighbour.
            let mut cand = p & neighbours(p) & seeds;
            let mut any = false;
            while cand != 0 {
                let seed = cand & cand.wrapping_neg();
                let group = flood(seed, p);
                cand &= !group;
                let n = group.count_ones();
                if n >= 4 {
                    clear |= group;
                    cleared += n as u8;
                    bonus += group_bonus(n) as u16;
                    any = true;
                }
            }
            colours += any as u8;
        }
        if clear != 0 {
            clear |= neighbours(clear) & self.planes[OJAMA as usize];
        }
        (clear, cleared, colours, bonus)
    }

    /// Whether anything would vanish now.
    pub fn would_vanish(&self) -> bool {
        for c in 0..COLOURS {
            let p = self.planes[c];
            let mut cand = p & neighbours(p);
            while cand != 0 {
                let seed = cand & cand.wrapping_neg();
                let group = flood(seed, p);
                if group.count_ones() >= 4 {
                    return true;
                }
                cand &= !group;
            }
        }
        false
    }

    /// Removes `mask` and lets everything above fall; returns the cells
    /// whose puyo moved (only groups holding one of them can be new).
    fn remove_and_fall(&mut self, mask: u128) -> u128 {
        for p in &mut self.planes {
            *p &= !mask;
        }
        // Columns 0-3 live in the low 64 bits, 4-5 in the high ones: the
        // shifts below stay within one u64.
        let mut halves = [[0u64; KINDS]; 2];
        for (k, p) in self.planes.iter().enumerate() {
            halves[0][k] = *p as u64;
            halves[1][k] = (*p >> 64) as u64;
        }
        let mut moved = [0u64; 2];
        for c in 0..COLS {
            let (half, shift) = (c / 4, 16 * (c % 4) as u32);
            let mut removed = ((mask >> (16 * c)) as u32) & COL_BITS as u32;
            if removed == 0 {
                continue;
            }
            let planes = &mut halves[half];
            let lowest = removed.trailing_zeros();
            let column = (COL_BITS as u64) << shift;
            // Close each run of removed cells, the highest first, so the
            // lower rows stay where they are.
            while removed != 0 {
                let top = 31 - removed.leading_zeros();
                let kept_below = !removed & ((1u32 << top) - 1);
                let lo = 32 - kept_below.leading_zeros();
                let n = top + 1 - lo;
                removed &= (1u32 << lo) - 1;
                let stay = ((1u64 << lo) - 1) << shift;
                let fall = (((1u64 << (ROWS as u32 - n)) - 1) & !((1u64 << lo) - 1)) << shift;
                for p in planes.iter_mut() {
                    *p = (*p & !column) | (*p & stay) | ((*p >> n) & fall);
                }
            }
            // Everything at or above the lowest removed cell moved.
            let occ = planes.iter().fold(0, |a, p| a | p);
            moved[half] |= occ & column & !(((1u64 << lowest) - 1) << shift);
        }
        for (k, p) in self.planes.iter_mut().enumerate() {
            *p = halves[0][k] as u128 | ((halves[1][k] as u128) << 64);
        }
        moved[0] as u128 | ((moved[1] as u128) << 64)
    }

    /// Resolves every chain link until nothing vanishes.
    pub fn resolve(&mut self) -> Chain {
        self.resolve_from(VALID)
    }

    /// [`Board::resolve`] on a field where only groups holding a cell of
    /// `seeds` can vanish now (the cells just dropped or uncovered); after
    /// each link only the puyos that fell are looked at.
    pub fn resolve_from(&mut self, seeds: u128) -> Chain {
        let mut chain = Chain::default();
        self.resolve_into(seeds, &mut chain);
        chain
    }

    /// The chain that starts when `group`, a group of four or more of one
    /// colour, vanishes: its first link clears `group` and the ojama next
    /// to it, then the rest resolves. Cells of `group` may be empty: puyos
    /// that would be dropped there and vanish at once (they count as
    /// cleared), so one field can be asked what any trigger would start.
    pub fn fire_group(&mut self, group: u128) -> Chain {
        let mut chain = Chain::default();
        let n = group.count_ones();
        let clear = group | (neighbours(group) & self.planes[OJAMA as usize]);
        chain.links = 1;
        chain.cleared[0] = n as u8;
        chain.colours[0] = 1;
        chain.group_bonus[0] = group_bonus(n) as u16;
        chain.ojama_cleared = (clear & self.planes[OJAMA as usize]).count_ones() as u16;
        let moved = self.remove_and_fall(clear);
        self.resolve_into(moved, &mut chain);
        chain
    }

    fn resolve_into(&mut self, mut seeds: u128, chain: &mut Chain) {
        loop {
            let (clear, cleared, colours, bonus) = self.vanishing(seeds);
            if clear == 0 {
                return;
            }
            let i = chain.links as usize;
            chain.cleared[i] = cleared;
            chain.colours[i] = colours;
            chain.group_bonus[i] = bonus;
            chain.ojama_cleared += (clear & self.planes[OJAMA as usize]).count_ones() as u16;
            chain.links += 1;
            seeds = self.remove_and_fall(clear);
        }
    }

    /// Whether the puyo at `cell` (a bit) belongs to a group of four or
    /// more of its colour.
    #[inline]
    pub fn in_big_group(&self, cell: u128, kind: u8) -> bool {
        kind != OJAMA && flood(cell, self.planes[kind as usize]).count_ones() >= 4
    }

    /// Drops one puyo and says whether it makes a group vanish, on a field
    /// where nothing vanished before (then only the new puyo's group can).
    #[inline]
    pub fn drop_and_check(&mut self, col: usize, kind: u8) -> Option<bool> {
        let h = self.height(col);
        if h >= ROWS {
            return None;
        }
        let b = bit(col, h);
        self.planes[kind as usize] |= b;
        Some(self.in_big_group(b, kind))
    }

    /// Drops a pair and resolves the chain it starts. On a settled field
    /// where nothing vanishes (every field between moves), only the new
    /// puyos' groups are looked at before resolving.
    pub fn play(&mut self, pair: Pair, at: Placement) -> Option<Chain> {
        if !self.fits(at) {
            return None;
        }
        let (c0, c1) = at.columns();
        let (first, second) = if at.rot == 2 {
            ((c1, pair.child), (c0, pair.axis))
        } else {
            ((c0, pair.axis), (c1, pair.child))
        };
        let h0 = self.height(first.0);
        let a = self.drop_and_check(first.0, first.1).unwrap_or(false);
        let h1 = self.height(second.0);
        let b = self.drop_and_check(second.0, second.1).unwrap_or(false);
        // (A first puyo's group that the second joins is the second's.)
        if a || b {
            let seeds = (bit(first.0, h0) | bit(second.0, h1)) & VALID;
            Some(self.resolve_from(seeds))
        } else {
            Some(Chain::default())
        }
    }

    /// Whether a placement fits: both puyos land inside the field.
    pub fn fits(&self, at: Placement) -> bool {
        if at.col as usize >= COLS || at.rot > 3 {
            return false;
        }
        let (c0, c1) = at.columns();
        if c1 >= COLS {
            return false;
        }
        if c0 == c1 {
            self.height(c0) + 2 <= ROWS
        } else {
            self.height(c0) < ROWS && self.height(c1) < ROWS
        }
    }

    /// The placements that fit, with a pair of one colour's mirror
    /// placements left out (they give the same field).
    pub fn placements(&self, pair: Pair) -> impl Iterator<Item = Placement> + '_ {
        Placement::ALL
            .iter()
            .copied()
            .filter(move |&p| self.fits(p) && (pair.axis != pair.child || p.rot < 2))
    }

    /// Drops `n` ojama, Tsu style: whole rows of six first, then the rest
    /// one per column in the columns `cols` (distinct, in order). Cells
    /// that do not fit are lost. Returns how many landed.
    pub fn drop_ojama(&mut self, n: u32, cols: &[usize]) -> u32 {
        let mut landed = 0;
        for _ in 0..n / COLS as u32 {
            for c in 0..COLS {
                landed += self.drop_puyo(c, OJAMA) as u32;
            }
        }
        for &c in cols.iter().take((n % COLS as u32) as usize) {
            landed += self.drop_puyo(c, OJAMA) as u32;
        }
        landed
    }

    /// Same-colour orthogonal neighbour pairs (coloured puyos only).
    pub fn connections(&self) -> u32 {
        let mut n = 0;
        for c in 0..COLOURS {
            let p = self.planes[c];
            n += (p & (p >> 1) & VALID).count_ones() + (p & (p >> 16)).count_ones();
        }
        n
    }

    /// Rows of text, top row first: `RGBY` colours, `@` ojama, `.` empty.
    pub fn rows(&self) -> Vec<String> {
        (0..ROWS)
            .rev()
            .map(|r| {
                (0..COLS)
                    .map(|c| match self.get(c, r) {
                        Some(k) => KIND_CHARS[k as usize],
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// Reads rows of text (top first, any number up to [`ROWS`], the last
    /// one the bottom row), as written by [`Board::rows`]. The field must
    /// be settled.
    pub fn from_rows(rows: &[&str]) -> Result<Board, String> {
        if rows.len() > ROWS {
            return Err(format!("{} rows, at most {ROWS}", rows.len()));
        }
        let mut b = Board::empty();
        for (i, line) in rows.iter().enumerate() {
            let r = rows.len() - 1 - i;
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != COLS {
                return Err(format!(
                    "row '{line}': {} cells, expected {COLS}",
                    chars.len()
                ));
            }
            for (c, ch) in chars.into_iter().enumerate() {
                let kind = match ch {
                    '.' => None,
                    ch => Some(
                        KIND_CHARS
                            .iter()
                            .position(|&k| k == ch)
                            .ok_or_else(|| format!("row '{line}': unknown cell '{ch}'"))?
                            as u8,
                    ),
                };
                b.set(c, r, kind);
            }
        }
        if !b.is_settled() {
            return Err("a puyo floats above an empty cell".into());
        }
        Ok(b)
    }
}

/// The characters of the kinds in text pictures: red, green, blue, yellow, ojama.
pub const KIND_CHARS: [char; KINDS] = ['R', 'G', 'B', 'Y', '@'];

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.rows() {
            writeln!(f, "{r}")?;
        }
        Ok(())
    }
}

/// A pair of puyos: the axis and the child (colours 0..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    pub axis: u8,
    pub child: u8,
}

/// Where a pair goes: the axis's column and the child's side (`rot`):
/// 0 above the axis, 1 right of it, 2 below it, 3 left of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub col: u8,
    pub rot: u8,
}

impl Placement {
    /// All 22 placements on a 6-wide field: 12 upright, 10 lying.
    pub const ALL: [Placement; 22] = {
        let mut all = [Placement { col: 0, rot: 0 }; 22];
        let mut i = 0;
        let mut rot = 0;
        while rot < 4 {
            let mut col = 0;
            while col < COLS {
                let ok = !(rot == 1 && col == COLS - 1) && !(rot == 3 && col == 0);
                if ok {
                    all[i] = Placement {
                        col: col as u8,
                        rot: rot as u8,
                    };
                    i += 1;
                }
                col += 1;
            }
            rot += 1;
        }
        all
    };

    /// The axis's column and the child's column (saturating: a placement
    /// off the field gives a column >= COLS).
    #[inline]
    pub fn columns(self) -> (usize, usize) {
        let c = self.col as usize;
        match self.rot {
            1 => (c, c + 1),
            3 => (c, c.wrapping_sub(1)),
            _ => (c, c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_two_placements_and_their_fit() {
        assert_eq!(Placement::ALL.len(), 22);
        let b = Board::empty();
        assert_eq!(b.placements(Pair { axis: 0, child: 1 }).count(), 22);
        assert_eq!(b.placements(Pair { axis: 2, child: 2 }).count(), 11);
        let mut b = Board::empty();
        for _ in 0..12 {
            b.drop_puyo(0, OJAMA);
        }
        // One cell left in column 0: nothing upright fits there.
        let fits: Vec<_> = b.placements(Pair { axis: 0, child: 1 }).collect();
        assert!(!fits.contains(&Placement { col: 0, rot: 0 }));
        assert!(fits.contains(&Placement { col: 0, rot: 1 }));
        assert!(fits.contains(&Placement { col: 1, rot: 3 }));
        assert_eq!(fits.len(), 20);
    }

    #[test]
    fn a_two_link_chain_scores_as_the_formulas_say() {
        let mut b = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        assert!(!b.would_vanish());
        let chain = b
            .play(Pair { axis: 0, child: 0 }, Placement { col: 1, rot: 0 })
            .unwrap();
        assert_eq!(chain.links, 2, "{b:?}");
        assert_eq!(&chain.cleared[..2], &[5, 4]);
        assert_eq!(chain.attack(), 6 + 1);
        assert_eq!(chain.tsu_score(), 10 * 5 * 2 + 10 * 4 * 8);
        assert_eq!(b.count(), 0, "{b:?}");
    }

    #[test]
    fn ojama_next_to_a_vanishing_group_goes_too() {
        let mut b = Board::from_rows(&["@.....", "R@....", "RR@..."]).unwrap();
        let chain = b
            .play(Pair { axis: 0, child: 1 }, Placement { col: 0, rot: 0 })
            .unwrap();
        // Reds (0,0),(0,1),(1,0) + the new red at (0,3)? No: the axis lands on top of the ojama.
        assert_eq!(chain.links, 0);
        let mut b = Board::from_rows(&["R@....", "RR@..."]).unwrap();
        let chain = b
            .play(Pair { axis: 0, child: 1 }, Placement { col: 2, rot: 3 })
            .unwrap();
        assert_eq!(chain.links, 0, "{b:?}");
        let mut b = Board::from_rows(&["R.....", "RR@..."]).unwrap();
        let chain = b
            .play(Pair { axis: 0, child: 1 }, Placement { col: 1, rot: 0 })
            .unwrap();
        assert_eq!(chain.links, 1, "{b:?}");
        assert_eq!(chain.ojama_cleared, 1);
        assert_eq!(b.rows()[ROWS - 1], ".G....");
    }

    #[test]
    fn each_rule_loses_the_field_when_it_says() {
        // Column 3 twelve high: Tsu's losing cell; the others live on.
        let mut b = Board::empty();
        for _ in 0..12 {
            b.drop_puyo(DEATH_COL, OJAMA);
        }
        assert!(b.is_dead());
        assert!(!b.with_over(Over::Top).is_dead());
        assert!(!b.with_over(Over::Full).is_dead());
        assert_eq!(b.rows_to_death(), Some(0));
        assert_eq!(b.with_over(Over::Top).rows_to_death(), Some(1));
        assert_eq!(b.with_over(Over::Full).rows_to_death(), None);
        // The thirteenth row: lost under `top`.
        b.drop_puyo(DEATH_COL, OJAMA);
        assert!(b.with_over(Over::Top).is_dead());
        assert!(!b.with_over(Over::Full).is_dead());
        // `full`: lost only when no pair fits.
        let mut f = Board::empty_with(Over::Full);
        for c in 0..COLS {
            for _ in 0..ROWS - 1 {
                f.drop_puyo(c, OJAMA);
            }
        }
        // One free cell per column: a lying pair still fits.
        assert!(!f.is_dead());
        for c in [0, 2, 4] {
            f.drop_puyo(c, OJAMA);
        }
        // Free cells in columns 1, 3, 5 only: no two neighbours, no column
        // with two free cells.
        assert!(f.is_dead());
        assert_eq!(f.placements(Pair { axis: 0, child: 1 }).count(), 0);
        let mut g = Board::empty_with(Over::Full);
        for _ in 0..ROWS - 2 {
            g.drop_puyo(4, OJAMA);
        }
        assert!(!g.is_dead());
        assert_eq!(Over::parse("full"), Ok(Over::Full));
        assert!(Over::parse("x").is_err());
    }

    #[test]
    fn formulas() {
        let mut c = Chain {
            links: 1,
            ..Default::default()
        };
        c.cleared[0] = 4;
        c.colours[0] = 1;
        assert_eq!(c.attack(), 0);
        assert_eq!(c.tsu_score(), 40);
        c.links = 2;
        c.cleared[1] = 4;
        c.colours[1] = 1;
        assert_eq!(c.attack(), 6);
        assert_eq!(c.tsu_score(), 40 + 10 * 4 * 8);
        assert_eq!(chain_power(19), 512);
        assert_eq!(chain_power(8), 160);
        assert_eq!(group_bonus(11), 10);
        assert_eq!(group_bonus(5), 2);
        assert_eq!(group_bonus(10), 7);
    }
}
