//! `best`: ladderbot's own GOLAD agent, on the same UCT core as the seed's.
//!
//! What it changes from AI3:
//! - Birth candidates are the dead cells next to a living cell (a birth
//!   anywhere else dies in the next generation), so expanding a node costs
//!   a fraction of AI3's full scan and the time goes to playouts.
//! - Five children: AI3's three greedy births and its best kill, plus the
//!   second-best kill.
//! - A node is expanded at its 4th visit, and the exploration constant suits
//!   share-valued rewards (differences of a few percent).
//! - It searches for its whole time budget (no playout cap).

use rand::rngs::SmallRng;

use super::field::{Field, ROW_MASK};
use super::moves::{Cell, Move, HEIGHT};
use super::seed_agents::{greedy_birth_from, pass_playout, share, steps, LifePosition, Part};
use crate::search::mcts::{FinalChoice, PlayoutResult, Policy, Selection, UctConfig};
use crate::search::Seat;

/// `best`'s tree settings.
pub fn best_config() -> UctConfig {
    UctConfig {
        exploration: 0.3,
        expand_threshold: 4,
        draw_reward: 0.5,
        choice: FinalChoice::Visits,
        selection: Selection::Ucb1,
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

/// `best`'s children and playouts.
#[derive(Clone, Copy, Debug)]
pub struct BestPolicy {
    pub playout_turns: u32,
    pub kills: usize,
}

impl Default for BestPolicy {
    fn default() -> Self {
        BestPolicy {
            playout_turns: 5,
            kills: 2,
        }
    }
}

impl BestPolicy {
    pub fn children_of(&self, f: &Field, me: Seat) -> Vec<Move> {
        use Part::{Birth as Bi, Sacrifice as Sa};
        let dead = frontier(f);
        let own: Vec<Cell> = f.living(me).collect();
        let mut out: Vec<Move> = Vec::with_capacity(3 + self.kills);
        for order in [[Bi, Sa, Sa], [Sa, Bi, Sa], [Sa, Sa, Bi]] {
            if let Some(m) = greedy_birth_from(f, me, order, &dead, &own) {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        let mut kills: Vec<(f64, Cell)> = f
            .living(me)
            .chain(f.living(1 - me))
            .map(|c| {
                let mut g = *f;
                g.set(c, None);
                (share(&steps(&g, 4), me), c)
            })
            .collect();
        kills.sort_by(|a, b| b.0.total_cmp(&a.0));
        out.extend(kills.iter().take(self.kills).map(|&(_, c)| Move::Kill(c)));
        if out.is_empty() {
            out.push(Move::Pass);
        }
        out
    }
}

impl<G: LifePosition<Board = Field>> Policy<G> for BestPolicy {
    fn children(&mut self, pos: &G) -> Vec<Move> {
        self.children_of(pos.board(), pos.to_move())
    }
    fn playout(&mut self, pos: &mut G, _rng: &mut SmallRng) -> PlayoutResult {
        pass_playout(pos, self.playout_turns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::golad::GolState;

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
    }

    #[test]
    fn children_are_legal_and_distinct() {
        let g = GolState::start(5, 100);
        let kids = BestPolicy::default().children_of(&g.field, 0);
        assert!(kids.len() >= 3, "{kids:?}");
        assert!(
            kids.iter().any(|m| matches!(m, Move::Birth { .. })),
            "{kids:?}"
        );
        for (i, m) in kids.iter().enumerate() {
            assert!(g.is_legal(m), "{m:?}");
            assert!(!kids[..i].contains(m));
        }
    }
}
