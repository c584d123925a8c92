//! The GAT game clock and a time plan over it (pure: no clock is read
//! here; the client passes what it measured).
//!
//! What the real server does (miyo/geister_server.java,
//! `TCPServerWithBlock`, read and run): each player has a bank for the
//! whole game (`--budget`, 600 s by default). A move is timed from the
//! server sending `MOV?` to its reading the answer, and the bank loses that
//! time **in whole seconds rounded down**: a move under one second costs the
//! bank nothing. While the bank is not spent a move may take the bank plus
//! the timeout (`--timeout`, 10 s); once it is spent, the timeout alone.
//! Running over loses the game.
//!
//! The plan ([`GatPlan`]): every move takes its free second (less the I/O
//! margin), and spends whole seconds of the bank on top: the bank left
//! shared over the moves still expected, more in the plies where games turn
//! (`turning`, `turning_weight`), never more than a quarter of what is left
//! and never past [`GatPlan::CAP`] in all, so that no move can reach the
//! 10 s timeout even with the bank spent.

use std::time::Duration;

/// A time plan over a GAT game clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GatPlan {
    /// The bank this bot spends in a game (at most the server's).
    pub bank: Duration,
    /// Our moves a game is expected to last: the bank is shared over the
    /// ones still to come (at least [`GatPlan::MIN_TO_GO`]).
    pub expected_moves: u32,
    /// Plies (both players counted, from 0) where games turn: moves there
    /// get `turning_weight` times their share.
    pub turning: (u32, u32),
    pub turning_weight: f64,
}

impl GatPlan {
    /// The most any move takes, bank or not: under the server's 10 s.
    pub const CAP: Duration = Duration::from_millis(9_000);
    /// The bank is never shared over fewer moves than this.
    pub const MIN_TO_GO: u32 = 10;
    /// The GAT default bank.
    pub const GAT_BANK: Duration = Duration::from_secs(600);

    /// The plan the client follows with a bank of `bank`: the bank shared
    /// over 60 moves of ours (three games in four end sooner), half as
    /// much again in plies 10-60, where the analysis of our losses saw
    /// them decided (docs/geister-results.md).
    pub fn with_bank(bank: Duration) -> Self {
        GatPlan {
            bank,
            expected_moves: 60,
            turning: (10, 60),
            turning_weight: 1.5,
        }
    }

    /// Whole seconds of the bank the move at `ply` (our `our_moves`-th,
    /// from 0) spends, `left` being what is left of our bank.
    pub fn extra_seconds(&self, left: Duration, our_moves: u32, ply: u32) -> u64 {
        let to_go = self
            .expected_moves
            .saturating_sub(our_moves)
            .max(Self::MIN_TO_GO);
        let weight = if (self.turning.0..self.turning.1).contains(&ply) {
            self.turning_weight.max(0.0)
        } else {
            1.0
        };
        let left_s = left.min(self.bank).as_secs();
        let share = (left_s as f64 / f64::from(to_go) * weight).floor() as u64;
        share
            .min(left_s / 4)
            .min(Self::CAP.as_secs().saturating_sub(1))
    }

    /// The time the move may take, measured from our reading of `MOV?`:
    /// its free second and its extra seconds, less `margin` (the time the
    /// answer takes to reach the server, and what the server's own timing
    /// adds), never past [`GatPlan::CAP`].
    pub fn move_time(
        &self,
        left: Duration,
        our_moves: u32,
        ply: u32,
        margin: Duration,
    ) -> Duration {
        let extra = Duration::from_secs(self.extra_seconds(left, our_moves, ply));
        (Duration::from_secs(1) + extra)
            .saturating_sub(margin)
            .min(Self::CAP)
            .max(Duration::from_millis(1))
    }
}

/// What a plan gives the moves of a game, for the log at the start of a
/// session ([`GatPlan::summary`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanSummary {
    /// The plan's bank, whole seconds.
    pub bank_s: u64,
    /// The first move's time (ply 0, the whole bank left): its free second
    /// less the margin, plus its extra seconds.
    pub first_move: Duration,
    /// Whole seconds of the bank the first move gets.
    pub first_extra_s: u64,
    /// Whole seconds of the bank the first move in the turning plies gets,
    /// the whole bank still left (the most any move of the game gets).
    pub turning_extra_s: u64,
    /// The smallest bank, in whole seconds, of which this plan spends
    /// anything (a move at the start gets an extra second).
    pub min_bank_s: u64,
}

impl PlanSummary {
    /// Whether the plan spends the bank at all: `false` when every move
    /// gets its free second only (the bank is too small to give any move a
    /// whole second, and the server charges only whole seconds).
    pub fn spends_the_bank(&self) -> bool {
        self.first_extra_s > 0 || self.turning_extra_s > 0
    }
}

impl GatPlan {
    /// What the plan gives at the start of a game, `margin` being kept
    /// out of every move.
    pub fn summary(&self, margin: Duration) -> PlanSummary {
        let at_start = |p: &GatPlan| {
            let first = p.extra_seconds(p.bank, 0, 0);
            let ply = p.turning.0;
            (first, p.extra_seconds(p.bank, ply / 2, ply))
        };
        let (first_extra_s, turning_extra_s) = at_start(self);
        // The smallest bank that gives a move at the start a whole second
        // (none: a plan that never spends, as with a weight of 0 and few
        // moves expected).
        let min_bank_s = (1..=Self::GAT_BANK.as_secs() * 10)
            .find(|&b| {
                let p = GatPlan {
                    bank: Duration::from_secs(b),
                    ..*self
                };
                let (a, t) = at_start(&p);
                a > 0 || t > 0
            })
            .unwrap_or(0);
        PlanSummary {
            bank_s: self.bank.as_secs(),
            first_move: self.move_time(self.bank, 0, 0, margin),
            first_extra_s,
            turning_extra_s,
            min_bank_s,
        }
    }
}

/// What the server takes off the bank for a move we measured as `used`
/// (whole seconds rounded down), counted as if the move had taken `slack`
/// longer, for the time the answer took to reach the server.
pub fn charge(used: Duration, slack: Duration) -> Duration {
    Duration::from_secs((used + slack).as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> GatPlan {
        GatPlan {
            bank: GatPlan::GAT_BANK,
            expected_moves: 60,
            turning: (20, 80),
            turning_weight: 1.5,
        }
    }

    #[test]
    fn a_move_takes_its_free_second_and_a_share_of_the_bank() {
        let p = plan();
        let ms = |d: Duration| d.as_millis() as u64;
        let margin = Duration::from_millis(50);
        // 600 s over 60 moves: 10 a move, capped at 8 extra (9 s in all).
        assert_eq!(p.extra_seconds(p.bank, 0, 0), 8);
        assert_eq!(ms(p.move_time(p.bank, 0, 0, margin)), 8_950);
        // 100 s left, 20 moves to go: 5; in the turning plies 7.
        let left = Duration::from_secs(100);
        assert_eq!(p.extra_seconds(left, 40, 100), 5);
        assert_eq!(p.extra_seconds(left, 40, 79), 7);
        // Past the expected moves the bank is shared over 10: 3 s of 30.
        assert_eq!(p.extra_seconds(Duration::from_secs(30), 90, 180), 3);
        // A spent bank: the free second only.
        assert_eq!(p.extra_seconds(Duration::ZERO, 10, 21), 0);
        assert_eq!(ms(p.move_time(Duration::ZERO, 10, 21, margin)), 950);
        // Never more than a quarter of what is left.
        let eager = GatPlan {
            turning_weight: 4.0,
            ..p
        };
        assert_eq!(eager.extra_seconds(Duration::from_secs(12), 55, 30), 3);
        assert_eq!(eager.extra_seconds(Duration::from_secs(12), 55, 90), 1);
        // A bot's own bank smaller than the server's caps what it spends.
        let own = GatPlan {
            bank: Duration::from_secs(60),
            ..p
        };
        assert_eq!(own.extra_seconds(Duration::from_secs(600), 0, 0), 1);
    }

    #[test]
    fn the_summary_says_when_a_bank_cannot_be_spent_in_whole_seconds() {
        let margin = Duration::from_millis(69);
        // Issue 57: 20 s over 60 moves, 1.5 times in plies 10-60, rounds
        // down to 0 whole seconds a move: every move its free second.
        let small = GatPlan::with_bank(Duration::from_secs(20)).summary(margin);
        assert_eq!((small.first_extra_s, small.turning_extra_s), (0, 0));
        assert!(!small.spends_the_bank());
        assert_eq!(small.first_move, Duration::from_millis(931));
        // 37 s is the least that gives a turning move a second.
        assert_eq!(small.min_bank_s, 37);
        let just = GatPlan::with_bank(Duration::from_secs(37)).summary(margin);
        assert_eq!((just.first_extra_s, just.turning_extra_s), (0, 1));
        assert!(just.spends_the_bank());
        let gat = GatPlan::with_bank(GatPlan::GAT_BANK).summary(margin);
        assert_eq!(
            (gat.bank_s, gat.first_extra_s, gat.turning_extra_s),
            (600, 8, 8)
        );
        assert_eq!(gat.first_move, Duration::from_millis(8_931));
    }

    #[test]
    fn the_bank_never_runs_out_and_no_move_reaches_the_timeout() {
        // A whole 150-move game, every move taking all it was given: the
        // bank charged as the server charges it never goes below zero and
        // no move takes 10 s.
        for weight in [0.0, 1.0, 1.5, 4.0] {
            let p = GatPlan {
                turning_weight: weight,
                ..plan()
            };
            let mut left = GatPlan::GAT_BANK;
            for k in 0..150u32 {
                let t = p.move_time(left, k, 2 * k, Duration::from_millis(50));
                assert!(t < Duration::from_secs(10), "move {k}: {t:?}");
                let c = charge(t, Duration::from_millis(30));
                // The free second is free.
                assert_eq!(c.as_secs(), p.extra_seconds(left, k, 2 * k));
                assert!(c <= left, "move {k}: {c:?} of {left:?}");
                left -= c;
            }
        }
        assert_eq!(
            charge(Duration::from_millis(999), Duration::ZERO),
            Duration::ZERO
        );
        assert_eq!(
            charge(Duration::from_millis(1_980), Duration::from_millis(30)),
            Duration::from_secs(2)
        );
    }
}
