//! The playout policy. Each side knows its own colours and not the other's:
//! no decision looks at the opponent's (determinized) colours. In order:
//! 1. a blue on an exit escapes;
//! 2. an opponent piece on one of its exits (it escapes next move if blue)
//!    is captured when a piece of ours touches it;
//! 3. a blue with a free run (the seed's forced-win pattern 1: no opponent
//!    piece as close to the exit as it is) steps toward that exit;
//! 4. otherwise a random move, weighted: captures (more so of a piece one
//!    step from its exit: `guard`), forward steps and blues closing in on
//!    an exit are more likely, a blue stepping next to an opponent piece
//!    less likely.
//!
//! A playout stops at the end of the game or after `depth` plies, where the
//! position is scored by [`evaluate`].

use rand::Rng;

use super::board::{
    distance, BMove, Board, ADJACENT, ESCAPE, EXITS, EXIT_DISTANCE, NEIGHBOURS, WITHIN,
};
use crate::search::Outcome;

/// Weights of the playout moves (multiplied together) and the depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutPolicy {
    /// A capture.
    pub capture: f32,
    /// A step toward the opponent.
    pub forward: f32,
    /// A blue getting closer to its nearest exit.
    pub blue_run: f32,
    /// A blue stepping (without capturing) next to an opponent piece.
    pub blue_danger: f32,
    /// A red stepping (without capturing) next to an opponent piece: a red
    /// offered as bait (1: no preference).
    pub red_bait: f32,
    /// A capture's weight is multiplied by this once for every red of the
    /// other side already taken: a side that has taken three reds is wary
    /// of a fourth (1: no wariness).
    pub caution: f32,
    /// A capture of a piece one step from one of its exits (a runner about
    /// to reach it; 1: no preference).
    pub guard: f32,
    /// Plies before the playout is cut and evaluated (0: to the end).
    pub depth: u32,
}

impl Default for PlayoutPolicy {
    fn default() -> Self {
        PlayoutPolicy {
            capture: 2.0,
            forward: 2.0,
            blue_run: 4.0,
            blue_danger: 0.5,
            red_bait: 1.0,
            caution: 1.0,
            guard: 1.0,
            depth: 0,
        }
    }
}

/// The reward of an outcome for side 0 (draw 1/2).
#[inline]
pub fn reward(o: Outcome) -> f64 {
    match o {
        Outcome::Win(0) => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// A rough value of an unfinished position for side 0, in 0..1: pieces
/// taken (blues we took and reds they took help us), and each side's
/// blue closest to an exit.
pub fn evaluate(b: &Board) -> f64 {
    let took_blue = b.lost[1][1] as f64 - b.lost[0][1] as f64;
    let gave_red = b.lost[0][0] as f64 - b.lost[1][0] as f64;
    let closest = |s: usize| {
        let mut bits = b.blue[s];
        let mut best = 10u8;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            best = best.min(EXIT_DISTANCE[s][sq]);
        }
        best as f64
    };
    let race = closest(1) - closest(0);
    let x = 0.6 * took_blue + 0.4 * gave_red + 0.15 * race;
    1.0 / (1.0 + (-x).exp())
}

/// The first step of side `s`'s quickest free run: a blue `k` steps from
/// one of its exits with no opponent piece within `k` steps of that exit
/// and a first step toward it not blocked by its own pieces.
#[inline]
pub fn free_run(b: &Board, s: usize) -> Option<BMove> {
    let own = b.pieces(s);
    let opp = b.pieces(1 - s);
    let mut best: Option<(u8, BMove)> = None;
    let mut exits = EXITS[s];
    while exits != 0 {
        let e = exits.trailing_zeros() as u8;
        exits &= exits - 1;
        let mut blues = b.blue[s];
        while blues != 0 {
            let from = blues.trailing_zeros() as u8;
            blues &= blues - 1;
            let k = distance(from, e);
            if opp & WITHIN[e as usize][k as usize] != 0 || best.is_some_and(|(d, _)| d <= k) {
                continue;
            }
            let step = NEIGHBOURS[from as usize]
                .iter()
                .copied()
                .find(|&to| to != u8::MAX && own >> to & 1 == 0 && distance(to, e) < k);
            if let Some(to) = step {
                best = Some((k, BMove { from, to }));
            }
        }
    }
    best.map(|(_, m)| m)
}

impl PlayoutPolicy {
    /// The playout move of the side to move (the game is not over).
    #[inline]
    pub fn choose<R: Rng + ?Sized>(&self, b: &Board, rng: &mut R) -> BMove {
        let s = b.to_move as usize;
        let o = 1 - s;
        let runners = b.blue[s] & EXITS[s];
        if runners != 0 {
            return BMove {
                from: runners.trailing_zeros() as u8,
                to: ESCAPE,
            };
        }
        let own = b.pieces(s);
        let opp = b.pieces(o);
        let mut threats = opp & EXITS[o];
        while threats != 0 {
            let t = threats.trailing_zeros() as u8;
            threats &= threats - 1;
            let guards = ADJACENT[t as usize] & own;
            if guards != 0 {
                return BMove {
                    from: guards.trailing_zeros() as u8,
                    to: t,
                };
            }
        }
        if let Some(m) = free_run(b, s) {
            return m;
        }
        let mut moves = [BMove { from: 0, to: 0 }; 32];
        let mut weights = [0f32; 32];
        let mut n = 0;
        let mut total = 0f32;
        let mut bits = own;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            for &to in &NEIGHBOURS[from as usize] {
                if to == u8::MAX || own >> to & 1 == 1 {
                    continue;
                }
                let w = self.weight(b, from, to);
                moves[n] = BMove { from, to };
                weights[n] = w;
                total += w;
                n += 1;
            }
        }
        debug_assert!(n > 0, "a side with pieces always has a step");
        let mut r = rng.gen::<f32>() * total;
        for k in 0..n {
            r -= weights[k];
            if r < 0.0 {
                return moves[k];
            }
        }
        moves[n.saturating_sub(1)]
    }

    /// The weight of the step `from` -> `to` of the side to move on `b`
    /// (step 4).
    #[inline]
    fn weight(&self, b: &Board, from: u8, to: u8) -> f32 {
        let s = b.to_move as usize;
        let o = 1 - s;
        let opp = b.pieces(o);
        let forward_step: i8 = if s == 0 { -6 } else { 6 };
        let blue = b.blue[s] >> from & 1 == 1;
        let mut w = 1f32;
        let capture = opp >> to & 1 == 1;
        if capture {
            w *= self.capture * self.caution.powi(b.lost[o][0] as i32);
            if EXIT_DISTANCE[o][to as usize] == 1 {
                w *= self.guard;
            }
        }
        if to as i8 - from as i8 == forward_step {
            w *= self.forward;
        }
        if blue {
            if EXIT_DISTANCE[s][to as usize] < EXIT_DISTANCE[s][from as usize] {
                w *= self.blue_run;
            }
            if !capture && ADJACENT[to as usize] & opp != 0 {
                w *= self.blue_danger;
            }
        } else if !capture && ADJACENT[to as usize] & opp != 0 {
            w *= self.red_bait;
        }
        w
    }

    /// Plays `b` out; the reward for side 0.
    pub fn playout<R: Rng + ?Sized>(&self, b: &mut Board, rng: &mut R) -> f64 {
        let mut plies = 0;
        loop {
            if let Some(o) = b.outcome {
                return reward(o);
            }
            if self.depth > 0 && plies >= self.depth {
                return evaluate(b);
            }
            let m = self.choose(b, rng);
            b.play(m);
            plies += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::best::board::MoveList;
    use crate::games::geister::testing::view;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn board(own: &str, opp: &str, opp_red: u8) -> Board {
        Board::from_view(&view(own, opp), opp_red)
    }

    #[test]
    fn escapes_and_guards_exits() {
        let p = PlayoutPolicy::default();
        let mut rng = SmallRng::seed_from_u64(1);
        // Our blue E on the exit (0,0) escapes.
        let b = board("14R24R34R44R00B25B35B45B", "41u31u21u11u40u30u20u10u", 0x0f);
        assert_eq!(
            p.choose(&b, &mut rng),
            BMove {
                from: 0,
                to: ESCAPE
            }
        );
        // An opponent piece on our corner (0,5), our F on (1,5) takes it.
        let b = board("14R24R34R44R03B15B35B45B", "05u31u21u11u40u30u20u10u", 0x0f);
        let take = BMove { from: 31, to: 30 };
        for _ in 0..50 {
            assert_eq!(p.choose(&b, &mut rng), take);
        }
    }

    #[test]
    fn runners_one_step_from_an_exit_are_taken_more_often_with_guard() {
        // Opponent piece on (0,4), one step from its exit (0,5), next to
        // our red on (1,4); another on (2,3), next to our red on (2,4).
        let b = board("14R24R34R44R15B25B35B45B", "41u31u23u04u40u30u20u10u", 0x0f);
        let runner = BMove { from: 25, to: 24 };
        let other = BMove { from: 26, to: 20 };
        let count = |guard: f32, m: BMove| {
            let p = PlayoutPolicy {
                guard,
                ..PlayoutPolicy::default()
            };
            let mut rng = SmallRng::seed_from_u64(7);
            (0..4000).filter(|_| p.choose(&b, &mut rng) == m).count()
        };
        let (plain, guarded) = (count(1.0, runner), count(8.0, runner));
        assert!(plain > 50, "{plain}");
        assert!(guarded > 3 * plain, "{plain} -> {guarded}");
        // The other capture is not favoured: it only loses share.
        assert!(count(8.0, other) < count(1.0, other));
    }

    #[test]
    fn playout_moves_are_legal_and_end() {
        let p = PlayoutPolicy::default();
        let mut rng = SmallRng::seed_from_u64(2);
        let mut list = MoveList::default();
        let start = board("14R24R34R44R15B25B35B45B", "41u31u21u11u40u30u20u10u", 0x0f);
        let mut total = 0.0;
        for _ in 0..200 {
            let mut b = start;
            while b.outcome.is_none() {
                let m = p.choose(&b, &mut rng);
                b.moves_into(&mut list);
                assert!(list.as_slice().contains(&m), "{m:?}");
                b.play(m);
            }
            total += reward(b.outcome.unwrap());
        }
        // Symmetric start: neither side wins nearly always.
        assert!((40.0..160.0).contains(&total), "{total}");
    }

    #[test]
    fn evaluation_prefers_material_and_the_race() {
        let even = board("14R24R34R44R15B25B35B45B", "41u31u21u11u40u30u20u10u", 0x0f);
        assert!((evaluate(&even) - 0.5).abs() < 1e-9);
        let took_blue = board("14R24R34R44R15B25B35B45B", "41u31u21u11u99b30u20u10u", 0x0f);
        assert!(evaluate(&took_blue) > 0.6);
        let lost_blue = board("14R24R34R44R99b25B35B45B", "41u31u21u11u40u30u20u10u", 0x0f);
        assert!(evaluate(&lost_blue) < 0.4);
    }
}
