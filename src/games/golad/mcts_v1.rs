//! `mcts-v1`: the GOLAD agent that was `best` before issue 10, kept as the
//! baseline its successor is measured against. It runs on the same UCT core
//! as the seed's agents.
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

use super::field::{frontier, Field};
use super::moves::{Cell, Move};
use super::seed_agents::{greedy_birth_from, pass_playout, share, steps, LifePosition, Part};
use crate::search::mcts::{FinalChoice, PlayoutResult, Policy, Selection, UctConfig};
use crate::search::Seat;

/// `mcts-v1`'s tree settings.
pub fn mcts_v1_config() -> UctConfig {
    UctConfig {
        exploration: 0.3,
        expand_threshold: 4,
        draw_reward: 0.5,
        choice: FinalChoice::Visits,
        selection: Selection::Ucb1,
    }
}

/// `mcts-v1`'s children and playouts.
#[derive(Clone, Copy, Debug)]
pub struct MctsV1Policy {
    pub playout_turns: u32,
    pub kills: usize,
}

impl Default for MctsV1Policy {
    fn default() -> Self {
        MctsV1Policy {
            playout_turns: 5,
            kills: 2,
        }
    }
}

impl MctsV1Policy {
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

impl<G: LifePosition<Board = Field>> Policy<G> for MctsV1Policy {
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
    fn children_are_legal_and_distinct() {
        let g = GolState::start(5, 100);
        let kids = MctsV1Policy::default().children_of(&g.field, 0);
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
