//! Puyo Puyo duels (the seed: Tomizawa's template placement with relation
//! matrices, JAIST 2014; `docs/puyo-results.md`).
//!
//! # Rules
//!
//! - Each seat has a 6 x 13 field with gravity ([`board`]). A pair of two
//!   puyos (four colours) is rotated, shifted and dropped: up to 22
//!   placements; both puyos fall to the lowest free cells of their columns.
//! - Four or more same-coloured puyos connected orthogonally vanish; what
//!   was above falls; new groups vanish in turn: each round is one link of
//!   a chain. An ojama vanishes only next to a vanishing group.
//! - Attack (ojama sent) of an N-link chain clearing `c_i` at link `i`:
//!   `3N(N-1) + sum i (c_i - 4)` (the seed's formula). The official Tsu
//!   score is kept beside it ([`board::Chain::tsu_score`]).
//! - Both seats get the same pairs and see the current pair and the next
//!   two; both place at once ([`rules`]).
//!
//! # Choices where the seed is silent (Puyo Puyo Tsu conventions)
//!
//! - The game is lost when the third column's twelfth cell (column index 2,
//!   row index 11) is filled after a turn; both at once is a draw; 1,000
//!   turns is a draw. That is the default rule set (`tsu`); game options
//!   choose another ([`board::Over`], [`wire::parse_options`]): `over=top`
//!   (a column reaches the thirteenth row) or `over=full` (no pair fits any
//!   more), and `rules=seed`, the seed's platform as `docs/puyo-results.md`
//!   reads it (6 x 13, lost only when no pair fits).
//! - All 13 rows are playable and every row connects (Tsu's hidden 13th row
//!   does not connect; the seed's field has 13 plain rows). A placement is
//!   legal when both puyos land inside the field; there is no rule about
//!   passing over tall columns.
//! - Ojama falls Tsu style: whole rows of six first, then the odd ones one
//!   per column in a seeded shuffle of the columns; at most 30 (five rows)
//!   per turn; ojama that does not fit is lost.
//! - Offsetting: a seat's attack first cancels the ojama waiting for it;
//!   the two attacks of one turn offset each other; the rest waits for the
//!   other seat and falls at the end of the next turn (one placement to
//!   fire back), whether or not that seat fires then.
//! - Pairs: each colour uniform and independent, from a seeded generator
//!   ([`rules::pair_at`]); Tsu's "three colours in the first two pairs" is
//!   not used.
//!
//! # Files
//!
//! - [`board`]: one field as bitboards: drops, chains, attack and score.
//! - [`reference`]: a plain grid version that checks the bitboards.
//! - [`relation`]: state and template matrices and the match score (the
//!   seed's definition).
//! - [`template`]: the template compiler, the shipped sets
//!   (`templates/*.txt`) and the fast matcher.
//! - [`planner`]: the seed's choosers (template, potential, combined).
//! - [`best`]: our own agent (a beam search ten pairs deep over sampled
//!   pairs, valued by the chain a few dropped puyos start; firing policy).
//! - [`solo`]: one-player runs (a chooser alone until its final chain).
//! - [`rules`]: the duel ([`Model`](crate::model::Model)), pairs and ojama.
//! - [`agents`]: the agents by name.
//! - [`wire`]: [`PlayableGame`](crate::games::PlayableGame) (id `puyo`), JSON.

pub mod agents;
pub mod best;
pub mod board;
pub mod choosers;
pub mod planner;
pub mod reference;
pub mod relation;
pub mod rules;
pub mod solo;
pub mod template;
pub mod wire;

/// Agent options from `KEY=VALUE` pairs, as the command line reads them
/// (tests of the agents' settings).
#[cfg(test)]
pub(crate) fn test_params(kv: &[(&str, &str)]) -> crate::games::AgentParams {
    kv.iter()
        .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
        .collect()
}

pub use board::{Board, Chain, Pair, Placement};
pub use rules::{PuyoDuel, PuyoObs};

#[cfg(test)]
mod tests {
    use super::board::*;
    use super::reference::Grid;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random games of random pairs and ojama: after every drop the
        /// bitboard field and its chain equal the reference's.
        #[test]
        fn bitboards_match_the_reference(
            steps in prop::collection::vec((0u8..4, 0u8..4, 0usize..22, 0u32..9, any::<u64>()), 1..80)
        ) {
            let mut b = Board::empty();
            let mut g = Grid::from_board(&b);
            for (axis, child, p, ojama, shuffle) in steps {
                let at = Placement::ALL[p];
                let pair = Pair { axis, child };
                if ojama > 6 {
                    let mut cols: Vec<usize> = (0..COLS).collect();
                    cols.rotate_left((shuffle % 6) as usize);
                    let n = ojama;
                    b.drop_ojama(n, &cols);
                    for _ in 0..n / 6 {
                        for c in 0..COLS { g.drop_puyo(c, OJAMA); }
                    }
                    for &c in cols.iter().take((n % 6) as usize) { g.drop_puyo(c, OJAMA); }
                    prop_assert_eq!(&Grid::from_board(&b), &g);
                }
                if !b.fits(at) {
                    continue;
                }
                let (c0, c1) = at.columns();
                if at.rot == 2 {
                    g.drop_puyo(c1, child);
                    g.drop_puyo(c0, axis);
                } else {
                    g.drop_puyo(c0, axis);
                    g.drop_puyo(c1, child);
                }
                let chain = b.play(pair, at).unwrap();
                let expected = g.resolve();
                prop_assert_eq!(chain, expected);
                prop_assert_eq!(&Grid::from_board(&b), &g);
                prop_assert!(b.is_settled());
                prop_assert_eq!(b.would_vanish(), false);
            }
        }
    }
}
