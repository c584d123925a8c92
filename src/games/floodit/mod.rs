//! Two-player Flood-It (the seed: a Monte Carlo AI for two-player
//! Flood-It; `docs/floodit-results.md`).
//!
//! # Rules
//!
//! - A `rows` x `cols` board (each 2..=32), every cell one of `colours`
//!   colours (3..=8); the default is 14 x 14 with 6 colours.
//! - Seat 0's pivot is the top-left cell, seat 1's the bottom-right cell. A
//!   seat's territory is the set of cells connected to its pivot through
//!   orthogonal neighbours of the pivot's colour.
//! - Seats alternate, seat 0 first. A move chooses a colour: the mover's
//!   whole territory takes it, and so absorbs the free cells of that colour
//!   connected to it. The mover may choose neither its own current colour
//!   nor the opponent's (as in "Filler" and "7 Colors": choosing the
//!   opponent's would merge the territories).
//! - The game ends when every cell belongs to a territory; the larger
//!   territory wins, equal is a draw.
//! - It also ends as soon as a territory touches no free cell: that seat
//!   can never grow again, and every free cell can only go to the other
//!   seat, so they are counted for it (its score is its territory plus the
//!   free cells). Without this rule a side sure to win could play colours
//!   that absorb nothing for ever; it ends the game with the result full
//!   play would reach. When every cell is owned both sides are enclosed
//!   and the scores are the territories.
//!
//! # Choices the seed leaves open
//!
//! - Boards are random from the seed: each cell uniform over the colours
//!   (`SmallRng::seed_from_u64(seed)`, row by row). If both pivots drew the
//!   same colour (their territories would touch and could merge), the
//!   bottom-right pivot takes the next colour. A board whose pivots share a
//!   colour is refused when read.
//! - A move that absorbs nothing is legal (the colour changes).
//! - As a safety net against endless play, the game also ends after
//!   4 x cells plies, scored the same way (larger territory wins). No game
//!   of our 400-game matches came near it (at most 52 plies on 14 x 14).
//! - Colours are 0-based inside the code and 1-based on the wire.
//!
//! # Files
//!
//! - [`bits`]: the bitset and the masked dilation every rule uses.
//! - [`rules`]: the position and the search core's [`Game`](crate::search::Game).
//! - [`reference`]: a plain breadth-first version that checks the rules.
//! - [`eval`]: territory plus the cells each side reaches first (and the
//!   variants `best` can be asked for).
//! - [`agents`]: the agents by name.
//! - [`wire`]: [`PlayableGame`](crate::games::PlayableGame) (id `floodit`),
//!   JSON, game options.

pub mod agents;
pub mod bits;
pub mod eval;
pub mod reference;
pub mod rules;
pub mod wire;

pub use rules::{FloodIt, DEFAULT_COLOURS, DEFAULT_COLS, DEFAULT_ROWS};

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::reference::RefFloodIt;
    use super::rules::FloodIt;
    use crate::search::Game;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random boards and random games: the bitboard rules and the
        /// breadth-first reference agree on every territory, every legal
        /// move list and the outcome, move after move.
        #[test]
        fn bitboard_rules_match_the_breadth_first_reference(
            rows in 2usize..=32, cols in 2usize..=32, colours in 3u8..=8, seed in any::<u64>()
        ) {
            let g0 = FloodIt::random(rows, cols, colours, seed).unwrap();
            let mut g = g0.clone();
            let mut r = RefFloodIt::new(rows, cols, colours, g0.cells());
            let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
            loop {
                for seat in 0..2 {
                    let t = r.territory(seat);
                    for (i, &owned) in t.iter().enumerate() {
                        prop_assert_eq!(g.territory(seat).get(i), owned, "seat {} cell {}", seat, i);
                    }
                }
                prop_assert_eq!(g.cells(), r.cells.clone());
                prop_assert_eq!(g.outcome(), r.outcome());
                let moves = g.legal_moves();
                prop_assert_eq!(&moves, &r.legal_moves());
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                g.play(mv);
                r.play(mv);
            }
        }
    }
}
