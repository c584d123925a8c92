//! `best`'s build evaluation: the chain a few puyos dropped on one column
//! would start ([`potential`]), found by dropping them and resolving, and
//! the shape of the field ([`evaluate`]).

use crate::games::puyo::board::{bit, flood, neighbours, Board, COLOURS, COLS, DEATH_COL, ROWS};

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
    /// Longer first, then fewer puyos needed, then more cleared.
    fn key(&self) -> (u8, std::cmp::Reverse<u8>, u8) {
        (self.links, std::cmp::Reverse(self.need), self.cleared)
    }
}

/// For every column and every colour next to the column's landing cell,
/// drops up to `max_need` puyos of that colour there until their group
/// vanishes, resolves, and keeps the longest chain (see
/// [`Potential::key`]). A drop that leaves the losing cell filled does not
/// count.
pub fn potential(b: &Board, max_need: u8) -> Potential {
    let mut best = Potential::default();
    for col in 0..COLS {
        let h = b.height(col);
        if h >= ROWS {
            continue;
        }
        let cell = bit(col, h);
        let near = neighbours(cell);
        for k in 0..COLOURS as u8 {
            if b.plane(k) & near == 0 {
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
                let chain = v.resolve_from(cell);
                if !v.is_dead() {
                    let found = Potential {
                        links: chain.links,
                        need,
                        cleared: chain.total_cleared() as u8,
                        col: col as u8,
                    };
                    if found.key() > best.key() {
                        best = found;
                    }
                }
                break;
            }
        }
    }
    best
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
    /// Per unit of squared distance of the heights from a U (sides two
    /// rows above the middle), in sixths of a row.
    pub shape: i32,
    /// Per row of the losing column above nine.
    pub death: i32,
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
            shape: 2,
            death: 2000,
            max_need: 2,
        }
    }
}

/// The U the heights are held to: rows above the middle columns.
const U: [i32; COLS] = [2, 1, 0, 0, 1, 2];

/// The build value of a settled, living field (higher is better).
pub fn evaluate(b: &Board, w: &Weights) -> i32 {
    let p = potential(b, w.max_need);
    let count = b.count() as i32;
    let waste = (count + p.need as i32 - p.cleared as i32).max(0);
    let mut v = p.links as i32 * w.chain - p.need as i32 * w.need - waste * w.waste
        + b.connections() as i32 * w.link;
    let mut hs = [0i32; COLS];
    for (c, h) in hs.iter_mut().enumerate() {
        *h = b.height(c) as i32;
    }
    // Squared distance from the U, all in sixths of a row.
    let sum: i32 = hs.iter().sum::<i32>() - U.iter().sum::<i32>();
    let mut dev = 0;
    for c in 0..COLS {
        let d = 6 * (hs[c] - U[c]) - sum;
        dev += d * d;
    }
    v -= dev / 6 * w.shape;
    let death = hs[DEATH_COL];
    if death > 9 {
        v -= (death - 9) * w.death;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puyo::board::Pair;

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

    #[test]
    fn the_potential_is_what_the_drops_really_fire() {
        // Fire every potential found on random fields and compare.
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(7);
        for _ in 0..200 {
            let mut b = Board::empty();
            for _ in 0..rand::Rng::gen_range(&mut rng, 5..30) {
                let pair = Pair {
                    axis: rand::Rng::gen_range(&mut rng, 0..4),
                    child: rand::Rng::gen_range(&mut rng, 0..4),
                };
                let moves: Vec<_> = b.placements(pair).collect();
                let at = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())];
                let mut next = b;
                next.play(pair, at);
                if !next.is_dead() {
                    b = next;
                }
            }
            let p = potential(&b, 2);
            if p.links == 0 {
                continue;
            }
            // The colour: the one whose drops fire exactly this chain.
            let fired = (0..COLOURS as u8).any(|k| {
                let mut v = b;
                for _ in 0..p.need {
                    v.drop_puyo(p.col as usize, k);
                }
                let chain = v.resolve();
                chain.links == p.links && chain.total_cleared() == p.cleared as u32
            });
            assert!(fired, "{p:?}\n{b:?}");
        }
    }

    #[test]
    fn a_chain_ready_field_outscores_a_scattered_one() {
        let w = Weights::default();
        let ready = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        let scattered = Board::from_rows(&["G.....", "R.....", "GR....", "RGR..."]).unwrap();
        assert!(evaluate(&ready, &w) > evaluate(&scattered, &w));
    }
}
