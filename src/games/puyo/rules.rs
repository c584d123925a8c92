//! The duel: two fields, the same pairs, both seats placing at once
//! ([`Turn::Both`]), attacks offset and the rest falling as ojama.
//!
//! One turn, for both seats at once: each drops its pair and resolves its
//! chain; each attack first cancels the ojama waiting for its own seat,
//! what is left of the two attacks offsets the other's, and the rest waits
//! for the other seat. Ojama that was already waiting when the turn began
//! then falls, at most [`MAX_DROP`] (five rows) per turn; what arrived in
//! this turn waits one turn (the time the attacker's chain takes in the
//! real game: the victim gets one placement to fire back). A seat whose
//! losing cell is filled after the turn loses; both at once is a draw; so
//! is reaching [`MAX_TURNS`].

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::board::{Board, Chain, Over, Pair, Placement, COLOURS, COLS};
use crate::model::{Joint, Model, Outcome, Seat, Turn};

/// Ojama that falls on one seat in one turn at most (five rows).
pub const MAX_DROP: u32 = 30;
/// Turns after which a duel is a draw.
pub const MAX_TURNS: u32 = 1000;
/// Pairs a seat sees: the current one and the next two.
pub const VISIBLE_PAIRS: usize = 3;

/// The `k`-th pair (0-based) of the sequence `seed` deals to both seats.
pub fn pair_at(seed: u64, k: u32) -> Pair {
    let mut rng = SmallRng::seed_from_u64(splitmix(seed ^ splitmix(k as u64 + 1)));
    Pair {
        axis: rng.gen_range(0..COLOURS as u8),
        child: rng.gen_range(0..COLOURS as u8),
    }
}

/// The pairs `k .. k + n` of sequence `seed`.
pub fn pairs_from(seed: u64, k: u32, n: usize) -> Vec<Pair> {
    (0..n as u32).map(|i| pair_at(seed, k + i)).collect()
}

/// The columns the odd ojama (fewer than a row) of `seat`'s drop in turn
/// `turn` fall into: a seeded shuffle of the six.
pub fn ojama_columns(seed: u64, turn: u32, seat: Seat) -> [usize; COLS] {
    let mut rng = SmallRng::seed_from_u64(splitmix(
        seed ^ 0x6a09_e667_f3bc_c909 ^ splitmix(((turn as u64) << 1) | seat as u64),
    ));
    let mut cols = [0, 1, 2, 3, 4, 5];
    cols.shuffle(&mut rng);
    cols
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A running total for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatStats {
    /// Tsu score.
    pub score: u32,
    /// Attack sent (before offsetting).
    pub attack: u32,
    /// Longest chain.
    pub max_chain: u8,
}

/// A duel position (the whole truth).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuyoDuel {
    pub seed: u64,
    /// Turns played: the current pair is `pair_at(seed, turn)`.
    pub turn: u32,
    pub boards: [Board; 2],
    /// Ojama waiting to fall on each seat.
    pub pending: [u32; 2],
    /// The part of `pending` that was waiting when the turn began (may fall
    /// at the end of this turn).
    pub ready: [u32; 2],
    pub stats: [SeatStats; 2],
    /// The chains of the last turn, by seat.
    pub last: [Chain; 2],
}

/// What a seat sees: both fields, the current pair and the next two, the
/// ojama waiting for each seat. Not the pairs after those.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuyoObs {
    pub seat: Seat,
    pub turn: u32,
    /// The current pair and the next two (empty once the game is over).
    pub pairs: Vec<Pair>,
    pub boards: [Board; 2],
    pub pending: [u32; 2],
    pub ready: [u32; 2],
    pub stats: [SeatStats; 2],
}

impl PuyoObs {
    /// The seat's own field.
    pub fn me(&self) -> &Board {
        &self.boards[self.seat]
    }
    /// The other seat's field.
    pub fn opponent(&self) -> &Board {
        &self.boards[1 - self.seat]
    }
}

impl PuyoDuel {
    /// The pairs both seats see now: the current one and the next ones
    /// (none once the game is over).
    pub fn visible_pairs(&self) -> Vec<Pair> {
        if self.outcome().is_some() {
            vec![]
        } else {
            pairs_from(self.seed, self.turn, VISIBLE_PAIRS)
        }
    }

    /// A new duel on pair sequence `seed` (Tsu's rules).
    pub fn new(seed: u64) -> Self {
        Self::with_over(seed, Over::Cell)
    }

    /// A new duel on pair sequence `seed` whose fields are lost by rule
    /// `over`.
    pub fn with_over(seed: u64, over: Over) -> Self {
        PuyoDuel {
            seed,
            turn: 0,
            boards: [Board::empty_with(over); 2],
            pending: [0; 2],
            ready: [0; 2],
            stats: [SeatStats::default(); 2],
            last: [Chain::default(); 2],
        }
    }

    /// The current pair.
    pub fn pair(&self) -> Pair {
        pair_at(self.seed, self.turn)
    }

    /// The outcome, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        let dead = [self.boards[0].is_dead(), self.boards[1].is_dead()];
        match dead {
            [true, true] => Some(Outcome::Draw),
            [true, false] => Some(Outcome::Win(1)),
            [false, true] => Some(Outcome::Win(0)),
            [false, false] if self.turn >= MAX_TURNS => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Plays one turn with both placements (no legality check beyond the
    /// fit: a placement that does not fit leaves that field unchanged).
    pub fn play_turn(&mut self, moves: [Placement; 2]) {
        let pair = self.pair();
        let mut attack = [0u32; 2];
        for s in 0..2 {
            let chain = self.boards[s].play(pair, moves[s]).unwrap_or_default();
            attack[s] = chain.attack();
            let st = &mut self.stats[s];
            st.score += chain.tsu_score();
            st.attack += attack[s];
            st.max_chain = st.max_chain.max(chain.links);
            self.last[s] = chain;
        }
        // Each attack cancels its own seat's waiting ojama first.
        let mut out = [0u32; 2];
        for s in 0..2 {
            let cancel = attack[s].min(self.pending[s]);
            self.pending[s] -= cancel;
            self.ready[s] = self.ready[s].min(self.pending[s]);
            out[s] = attack[s] - cancel;
        }
        // Then the two attacks offset each other.
        let m = out[0].min(out[1]);
        out[0] -= m;
        out[1] -= m;
        // Ojama announced before this turn falls now.
        for s in 0..2 {
            let n = self.ready[s].min(MAX_DROP);
            if n > 0 {
                let cols = ojama_columns(self.seed, self.turn, s);
                self.boards[s].drop_ojama(n, &cols);
                self.pending[s] -= n;
            }
        }
        self.pending[1] += out[0];
        self.pending[0] += out[1];
        self.ready = self.pending;
        self.turn += 1;
    }
}

impl Model for PuyoDuel {
    type Action = Placement;
    type Obs = PuyoObs;

    fn turn(&self) -> Turn {
        match self.outcome() {
            Some(o) => Turn::Over(o),
            None => Turn::Both,
        }
    }

    fn observe(&self, seat: Seat) -> PuyoObs {
        PuyoObs {
            seat,
            turn: self.turn,
            pairs: self.visible_pairs(),
            boards: self.boards,
            pending: self.pending,
            ready: self.ready,
            stats: self.stats,
        }
    }

    /// Every placement that fits (both orders of a one-colour pair).
    fn legal_actions(&self, seat: Seat) -> Vec<Placement> {
        if seat > 1 || self.outcome().is_some() {
            return vec![];
        }
        Placement::ALL
            .iter()
            .copied()
            .filter(|&p| self.boards[seat].fits(p))
            .collect()
    }

    fn is_legal_action(&self, seat: Seat, action: Placement) -> bool {
        seat <= 1 && self.outcome().is_none() && self.boards[seat].fits(action)
    }

    /// Plays the turn when both placements are there and fit; otherwise
    /// leaves the position unchanged.
    fn apply(&mut self, joint: Joint<Placement>) {
        if let [Some(a), Some(b)] = joint {
            if self.is_legal_action(0, a) && self.is_legal_action(1, b) {
                self.play_turn([a, b]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_seats_get_the_same_pairs_and_sequences_differ_by_seed() {
        let a = pairs_from(7, 0, 50);
        assert_eq!(a, pairs_from(7, 0, 50));
        assert_ne!(a, pairs_from(8, 0, 50));
        let g = PuyoDuel::new(7);
        assert_eq!(g.observe(0).pairs, g.observe(1).pairs);
        assert_eq!(g.observe(0).pairs, a[..3].to_vec());
        // Every colour shows up.
        for c in 0..COLOURS as u8 {
            assert!(a.iter().any(|p| p.axis == c || p.child == c));
        }
    }

    #[test]
    fn a_live_field_always_has_a_placement() {
        let mut g = PuyoDuel::new(1);
        let mut turns = 0;
        while g.outcome().is_none() {
            for s in 0..2 {
                assert!(!g.legal_actions(s).is_empty());
            }
            // Both stack column 2 upright: it fills and both die together.
            g.apply([
                Some(Placement { col: 2, rot: 0 }),
                Some(Placement { col: 2, rot: 0 }),
            ]);
            turns += 1;
            assert!(turns < 100);
        }
        assert_eq!(g.turn(), Turn::Over(Outcome::Draw));
        assert!(g.legal_actions(0).is_empty());
    }

    #[test]
    fn an_attack_waits_a_turn_then_falls_five_rows_at_most() {
        let mut g = PuyoDuel::new(3);
        // Seat 0 fires a prepared 2-link chain (attack 7) in turn 0.
        g.boards[0] = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        g.seed = (0..)
            .find(|&s| pair_at(s, 0) == Pair { axis: 0, child: 0 })
            .unwrap();
        let before = g.boards[1].count();
        g.play_turn([Placement { col: 1, rot: 0 }, Placement { col: 5, rot: 0 }]);
        assert_eq!(g.last[0].links, 2);
        assert_eq!(g.pending, [0, 7]);
        assert_eq!(g.boards[1].count(), before + 2, "nothing fell yet");
        g.play_turn([Placement { col: 5, rot: 0 }, Placement { col: 5, rot: 0 }]);
        assert_eq!(g.pending, [0, 0]);
        assert_eq!(g.boards[1].count(), before + 4 + 7);
        // 31 waiting: 30 fall, one stays.
        let mut g2 = PuyoDuel::new(4);
        g2.pending = [0, 31];
        g2.ready = [0, 31];
        g2.play_turn([Placement { col: 0, rot: 0 }, Placement { col: 0, rot: 0 }]);
        assert_eq!(g2.boards[1].count(), 2 + 30);
        assert_eq!(g2.pending, [0, 1]);
        assert_eq!(g2.ready, [0, 1]);
    }

    #[test]
    fn attacks_cancel_waiting_ojama_then_offset_each_other() {
        let mut g = PuyoDuel::new(5);
        let fire = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        g.boards = [fire, fire];
        g.seed = (0..)
            .find(|&s| pair_at(s, 0) == Pair { axis: 0, child: 0 })
            .unwrap();
        g.pending = [3, 0];
        g.ready = [3, 0];
        g.play_turn([Placement { col: 1, rot: 0 }, Placement { col: 1, rot: 0 }]);
        // Both attack 7: seat 0 cancels its 3 and sends 4; seat 1 sends 7;
        // 4 offsets 4, so 3 wait for seat 0.
        assert_eq!(g.pending, [3, 0]);
        assert_eq!(g.boards[0].count(), 0, "the cancelled ojama did not fall");
    }
}
