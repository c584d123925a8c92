//! `best`'s build evaluation: the chain a few puyos dropped on one column
//! would start ([`potential`]), found by dropping them and resolving, and
//! the shape of the field ([`evaluate`]).

use crate::games::puyo::board::{
    bit, flood, neighbours, Board, Over, COLOURS, COLS, DEATH_COL, OJAMA, ROWS,
};

/// The longest chain that up to `max_need` puyos of one colour, dropped on
/// one column, start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Potential {
    /// Links (0 when no drop starts a chain).
    pub links: u8,
    /// Puyos dropped to start it.
    pub need: u8,
    /// Coloured puyos it clears (the dropped ones included).
    pub cleared: u8,
    /// The column they are dropped on.
    pub col: u8,
}

impl Potential {
    /// The puyos of `b` outside this chain (the dropped ones count in
    /// `cleared` and in `need`).
    pub fn waste(&self, b: &Board) -> u32 {
        (b.count() + self.need as u32).saturating_sub(self.cleared as u32)
    }

    /// Longer first, then fewer puyos needed, then more cleared.
    fn key(&self) -> (u8, std::cmp::Reverse<u8>, u8) {
        (self.links, std::cmp::Reverse(self.need), self.cleared)
    }
}

/// For every column and every colour next to the column's landing cell,
/// the chain that up to `max_need` puyos of that colour dropped there start
/// when their group vanishes; the longest (see [`Potential::key`]). The
/// dropped puyos vanish with the group, so what the chain does depends only
/// on the field's puyos in that group: each such set is resolved once.
pub fn potential(b: &Board, max_need: u8) -> Potential {
    let occ = b.occupied();
    let mut best = Potential::default();
    // Sets already resolved: (group, links, cleared less the dropped puyos).
    let mut done: [(u128, u8, u8); 24] = [(0, 0, 0); 24];
    let mut n_done = 0;
    for col in 0..COLS {
        let h = b.height(col);
        if h >= ROWS {
            continue;
        }
        let cell = bit(col, h);
        let near = neighbours(cell);
        for k in 0..COLOURS as u8 {
            let plane = b.plane(k);
            if plane & near == 0 {
                continue;
            }
            // The dropped puyos stand on each other in this column.
            let mut dropped = 0u128;
            let mut group = 0u128;
            let mut need = 0u8;
            for n in 1..=max_need {
                let r = h + n as usize - 1;
                if r >= ROWS {
                    break;
                }
                dropped |= bit(col, r);
                let g = flood(cell, plane | dropped);
                if g.count_ones() >= 4 {
                    group = g & !dropped;
                    need = n;
                    break;
                }
            }
            if need == 0 {
                continue;
            }
            // What vanishes of the field: the group and the ojama next to it
            // or to the dropped puyos.
            let key = group | (neighbours(group | dropped) & b.plane(OJAMA));
            let (links, cleared) = match done[..n_done].iter().find(|d| d.0 == key) {
                Some(d) => (d.1, d.2),
                // Nothing stands on what vanishes: one link.
                None if up(key) & occ & !key == 0 => (1, group.count_ones() as u8),
                None => {
                    let mut v = *b;
                    let chain = v.fire_group(group | dropped);
                    let found = (chain.links, (chain.total_cleared() - need as u32) as u8);
                    if n_done < done.len() {
                        done[n_done] = (key, found.0, found.1);
                        n_done += 1;
                    }
                    found
                }
            };
            let found = Potential {
                links,
                need,
                cleared: cleared + need,
                col: col as u8,
            };
            if found.key() > best.key() {
                best = found;
            }
        }
    }
    best
}

/// Every cell above a cell of `x` in its column.
fn up(x: u128) -> u128 {
    // Rows `s` and up of every column: a shift by `s` may not carry a
    // column's top into the next one.
    const fn rows_from(s: u32) -> u128 {
        let col = (0xffffu128 << s) & 0xffff;
        let mut m = 0u128;
        let mut c = 0;
        while c < COLS {
            m |= col << (16 * c);
            c += 1;
        }
        m
    }
    let mut y = (x << 1) & rows_from(1);
    y |= (y << 1) & rows_from(1);
    y |= (y << 2) & rows_from(2);
    y |= (y << 4) & rows_from(4);
    y |= (y << 8) & rows_from(8);
    y & crate::games::puyo::board::VALID
}

/// The evaluation's weights (see [`evaluate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per link of the potential chain.
    pub chain: i32,
    /// Per puyo its trigger needs.
    pub need: i32,
    /// Per puyo outside the potential chain.
    pub waste: i32,
    /// Per pair of same-coloured neighbours.
    pub link: i32,
    /// Per unit of room beside the trigger's column ([`room`]).
    pub room: i32,
    /// Per row of the trigger's column.
    pub trigger_y: i32,
    /// Per unit of squared distance of the heights from a U (sides two
    /// rows above the middle), in sixths of a row.
    pub shape: i32,
    /// Per row of the losing column above `death_at`.
    pub death: i32,
    /// Rows the losing column may have before [`Weights::death`] counts.
    pub death_at: i32,
    /// Links a chain fired short of the target is worth less (search).
    pub short: i32,
    /// Per unit of squared step between neighbouring columns beyond two
    /// rows (a well or a cliff that pairs cannot fill).
    pub tear: i32,
    /// Per group of two same-coloured puyos (issue 49's whole-field
    /// terms: [`groups_value`]).
    pub link2: i32,
    /// Per group of three.
    pub link3: i32,
    /// Per coloured puyo with no same-coloured neighbour.
    pub lone: i32,
    /// Per row of difference between neighbouring columns.
    pub bump: i32,
    /// Per puyo the potential chain clears beyond four a link (a chain
    /// that spends more puyos than it needs fills the field sooner).
    pub excess: i32,
    /// Most puyos a trigger may need.
    pub max_need: u8,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            chain: 1000,
            need: 250,
            waste: 40,
            link: 30,
            room: 150,
            trigger_y: 100,
            shape: 2,
            death: 2000,
            death_at: 9,
            short: 3,
            tear: 0,
            link2: 0,
            link3: 0,
            lone: 0,
            bump: 0,
            excess: 0,
            max_need: 2,
        }
    }
}

/// Coloured groups of one, two and three puyos (orthogonally connected,
/// one colour): `[lone, twos, threes]`. Groups of four or more do not
/// stand on a settled field.
pub fn small_groups(b: &Board) -> [u32; 3] {
    let mut n = [0u32; 3];
    for k in 0..COLOURS as u8 {
        let plane = b.plane(k);
        // Puyos with no same-coloured neighbour, at once.
        let lone = plane & !neighbours(plane);
        n[0] += lone.count_ones();
        let mut rest = plane & !lone;
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let g = flood(seed, plane);
            rest &= !g;
            match g.count_ones() {
                2 => n[1] += 1,
                3 => n[2] += 1,
                _ => {}
            }
        }
    }
    n
}

/// The whole-field group terms: lone puyos, groups of two and three
/// (zero when their weights are). The bumps are in [`shape_value`].
pub fn groups_value(b: &Board, w: &Weights) -> i32 {
    if w.link2 == 0 && w.link3 == 0 && w.lone == 0 {
        return 0;
    }
    let [lone, twos, threes] = small_groups(b);
    twos as i32 * w.link2 + threes as i32 * w.link3 - lone as i32 * w.lone
}

/// The U the heights are held to: rows above the middle columns.
const U: [i32; COLS] = [2, 1, 0, 0, 1, 2];

/// Room to extend a chain from its trigger's column: on each side, the
/// columns next to it (up to the first taller one) count once, and once
/// more while they are lower.
pub fn room(hs: &[i32; COLS], col: usize) -> i32 {
    let h = hs[col];
    let mut room = 0;
    for side in [
        &mut (col + 1..COLS) as &mut dyn Iterator<Item = usize>,
        &mut (0..col).rev(),
    ] {
        let mut lower = true;
        for c in side {
            if hs[c] > h {
                break;
            }
            lower &= hs[c] < h;
            room += 1 + lower as i32;
        }
    }
    room
}

/// The build value of a settled, living field (higher is better).
pub fn evaluate(b: &Board, w: &Weights) -> i32 {
    let p = potential(b, w.max_need);
    let waste = p.waste(b) as i32;
    let mut v = p.links as i32 * w.chain - p.need as i32 * w.need - waste * w.waste;
    if p.links > 0 {
        let excess = (p.cleared as i32 - 4 * p.links as i32).max(0);
        v -= excess * w.excess;
    }
    let hs = heights(b);
    if p.links > 0 {
        v += room(&hs, p.col as usize) * w.room + hs[p.col as usize] * w.trigger_y;
    }
    v + shape_value(b, w) + groups_value(b, w)
}

fn heights(b: &Board) -> [i32; COLS] {
    let mut hs = [0i32; COLS];
    for (c, h) in hs.iter_mut().enumerate() {
        *h = b.height(c) as i32;
    }
    hs
}

/// The part of [`evaluate`] that needs no chain: same-coloured
/// neighbours, the U and the losing column's height.
pub fn shape_value(b: &Board, w: &Weights) -> i32 {
    let mut v = b.connections() as i32 * w.link;
    let hs = heights(b);
    // Squared distance from the U, all in sixths of a row.
    let sum: i32 = hs.iter().sum::<i32>() - U.iter().sum::<i32>();
    let mut dev = 0;
    for c in 0..COLS {
        let d = 6 * (hs[c] - U[c]) - sum;
        dev += d * d;
    }
    v -= dev / 6 * w.shape;
    if w.tear != 0 || w.bump != 0 {
        let (mut tear, mut bumps) = (0, 0);
        for c in 1..COLS {
            let diff = (hs[c] - hs[c - 1]).abs();
            bumps += diff;
            let step = diff - 2;
            if step > 0 {
                tear += step * step;
            }
        }
        v -= tear * w.tear + bumps * w.bump;
    }
    // The danger column's height on Tsu's scale (the losing cell is its
    // twelfth row): Tsu's third column, or under the top-row rule the
    // tallest column less one; a rule that loses only full fields has none.
    let death = match b.over() {
        Over::Cell => Some(hs[DEATH_COL]),
        Over::Top => hs.iter().max().map(|h| h - 1),
        Over::Full => None,
    };
    if let Some(death) = death.filter(|&d| d > w.death_at) {
        v -= (death - w.death_at) * w.death;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puyo::board::Pair;

    #[test]
    fn the_losing_column_costs_only_under_a_rule_that_has_one() {
        let mut b = Board::empty();
        for k in 0..11 {
            b.drop_puyo(DEATH_COL, k % 4);
        }
        let w = Weights::default();
        let full = shape_value(&b.with_over(Over::Full), &w);
        // Eleven high: two rows above `death_at` (9) under Tsu; under the
        // top-row rule the tallest column less one, one row above it.
        assert_eq!(full - shape_value(&b, &w), 2 * w.death);
        assert_eq!(full - shape_value(&b.with_over(Over::Top), &w), w.death);
    }

    #[test]
    fn a_chain_that_spends_more_than_four_a_link_costs_its_excess() {
        // Two reds on each side of column 1: one red there clears five,
        // one link, one puyo beyond four.
        let five = Board::from_rows(&["R.R...", "R.R..."]).unwrap();
        let p = potential(&five, 2);
        assert_eq!((p.links, p.need, p.cleared, p.col), (1, 1, 5, 1));
        let w = Weights::default();
        let spend = Weights { excess: 70, ..w };
        assert_eq!(evaluate(&five, &w) - evaluate(&five, &spend), 70);
        // Exactly four a link: nothing.
        let four = Board::from_rows(&["R.....", "R.....", "R....."]).unwrap();
        assert_eq!(evaluate(&four, &w), evaluate(&four, &spend));
    }

    #[test]
    fn small_groups_are_counted_by_size() {
        // Reds: a group of three (L) and a lone one; greens: a group of
        // two and a lone one; a lone blue and a lone yellow.
        let b = Board::from_rows(&[
            "....B.", //
            "R..GG.", //
            "RR.YRG",
        ])
        .unwrap();
        assert_eq!(small_groups(&b), [4, 1, 1]);
        let w = Weights::default();
        assert_eq!(groups_value(&b, &w), 0);
        let whole = Weights {
            link2: 10,
            link3: 100,
            lone: 1000,
            bump: 10_000,
            ..w
        };
        assert_eq!(groups_value(&b, &whole), 10 + 100 - 4 * 1000);
        // Heights 2, 1, 0, 2, 3, 1: bumps 1 + 1 + 2 + 1 + 2 = 7 (in
        // shape_value); the terms move the whole evaluation by as much.
        assert_eq!(shape_value(&b, &w) - shape_value(&b, &whole), 7 * 10_000);
        assert_eq!(
            evaluate(&b, &whole) - evaluate(&b, &w),
            10 + 100 - 4 * 1000 - 7 * 10_000
        );
    }

    #[test]
    fn a_cliff_costs_only_with_the_tear_weight() {
        // Column 0 five high beside empty columns: a step of five rows.
        let mut b = Board::empty();
        for k in 0..5 {
            b.drop_puyo(0, k % 4);
        }
        let flat = Weights::default();
        let torn = Weights { tear: 100, ..flat };
        assert_eq!(shape_value(&b, &flat) - shape_value(&b, &torn), 9 * 100);
        // Steps of two rows at most cost nothing.
        let mut s = Board::empty();
        s.drop_puyo(0, 0);
        s.drop_puyo(0, 1);
        assert_eq!(shape_value(&s, &flat), shape_value(&s, &torn));
    }

    #[test]
    fn a_hand_built_two_link_chain_is_found_with_its_trigger() {
        // A red dropped on column 1 completes the reds; the green on top
        // of them falls onto the three greens.
        let b = Board::from_rows(&[
            "G.....", //
            "R.....", //
            "RG....", //
            "RGG...",
        ])
        .unwrap();
        let p = potential(&b, 2);
        assert_eq!(
            p,
            Potential {
                links: 2,
                need: 1,
                cleared: 8,
                col: 1
            }
        );
        // One puyo fewer: no drop of one or two starts anything.
        let mut two = Board::from_rows(&["RR...."]).unwrap();
        assert_eq!(potential(&two, 1), Potential::default());
        let p = potential(&two, 2);
        assert_eq!((p.links, p.need), (1, 2));
        two.drop_puyo(5, 1);
        assert_eq!(potential(&two, 2).links, 1);
    }

    /// The plain definition: drop the puyos on the field and resolve.
    fn potential_by_drops(b: &Board, max_need: u8) -> Potential {
        let mut best = Potential::default();
        for col in 0..COLS {
            let h = b.height(col);
            if h >= ROWS {
                continue;
            }
            let cell = bit(col, h);
            for k in 0..COLOURS as u8 {
                if b.plane(k) & neighbours(cell) == 0 {
                    continue;
                }
                let mut v = *b;
                for need in 1..=max_need {
                    if !v.drop_puyo(col, k) {
                        break;
                    }
                    if flood(cell, v.plane(k)).count_ones() < 4 {
                        continue;
                    }
                    let chain = v.resolve();
                    assert!(!v.is_dead());
                    let found = Potential {
                        links: chain.links,
                        need,
                        cleared: chain.total_cleared() as u8,
                        col: col as u8,
                    };
                    if found.key() > best.key() {
                        best = found;
                    }
                    break;
                }
            }
        }
        best
    }

    #[test]
    fn the_potential_is_what_dropping_the_puyos_fires() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let mut found = 0;
        for _ in 0..400 {
            let mut b = Board::empty();
            for _ in 0..rng.gen_range(5..36) {
                if rng.gen_bool(0.1) {
                    let mut cols = [0, 1, 2, 3, 4, 5];
                    cols.rotate_left(rng.gen_range(0..6));
                    let mut next = b;
                    next.drop_ojama(rng.gen_range(1..4), &cols);
                    if !next.is_dead() {
                        b = next;
                    }
                }
                let pair = Pair {
                    axis: rng.gen_range(0..4),
                    child: rng.gen_range(0..4),
                };
                let moves: Vec<_> = b.placements(pair).collect();
                if moves.is_empty() {
                    break;
                }
                let mut next = b;
                next.play(pair, moves[rng.gen_range(0..moves.len())]);
                if !next.is_dead() {
                    b = next;
                }
            }
            for need in 1..=3 {
                let p = potential(&b, need);
                assert_eq!(p, potential_by_drops(&b, need), "need {need}\n{b:?}");
                found += (p.links >= 2) as u32;
            }
        }
        assert!(found > 50, "{found}");
    }

    #[test]
    fn room_counts_the_lower_columns_beside_the_trigger() {
        let hs = [5, 3, 4, 2, 6, 1];
        // Right of column 2: column 3 (lower: 2), then column 4 is taller.
        // Left: column 1 (lower: 2), column 0 is taller.
        assert_eq!(room(&hs, 2), 4);
        // Column 4: everything to its left is lower until the end, and
        // column 5 too.
        assert_eq!(room(&hs, 4), 2 * 4 + 2);
        assert_eq!(room(&[3; COLS], 0), 5);
    }

    #[test]
    fn a_chain_ready_field_outscores_a_scattered_one() {
        let w = Weights::default();
        let ready = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        let scattered = Board::from_rows(&["G.....", "R.....", "GR....", "RGR..."]).unwrap();
        assert!(evaluate(&ready, &w) > evaluate(&scattered, &w));
    }
}
