//! What a move may spend: the budget of every move ([`MoveBudget`]: a
//! fixed time or a plan over the game's clock, and playouts), the slack
//! counted when booking the server's charge, and the logs of a time plan
//! and of what a game took.

use std::time::{Duration, Instant};

use super::records::GatGame;
use super::{GatClientConfig, DEFAULT_TIME_MS, MAX_TIME_MS};
use crate::platforms::gat::clock::GatPlan;
use crate::search::{Deadline, Limits};

/// Logs a time plan at the start of a session: what a move gets (info),
/// and a warning when the bank cannot be spent in whole seconds (every move
/// then takes its free second only, as without a plan).
pub fn log_plan(plan: &GatPlan, margin: Duration) {
    let s = plan.summary(margin);
    tracing::info!(
        bank_s = s.bank_s,
        free_second_ms = 1_000,
        margin_ms = margin.as_millis() as u64,
        first_move_ms = s.first_move.as_millis() as u64,
        extra_s_first_move = s.first_extra_s,
        extra_s_turning_move = s.turning_extra_s,
        turning_plies = format!("{}-{}", plan.turning.0, plan.turning.1),
        expected_moves = plan.expected_moves,
        "GAT time plan: each move its free second less the margin, plus whole seconds of the bank"
    );
    if !s.spends_the_bank() {
        tracing::warn!(
            bank_s = s.bank_s,
            first_move_ms = s.first_move.as_millis() as u64,
            least_bank_s = s.min_bank_s,
            "the bank cannot be spent in whole seconds: shared over {} moves it gives no move a whole second, so every move takes its free second only (the server charges whole seconds); a bank of at least {} s would be spent",
            plan.expected_moves,
            s.min_bank_s
        );
    }
}

/// Logs what a game took: with a plan, what the server charged the bank
/// (info); without, at debug level.
pub(super) fn log_spent(g: &GatGame) {
    let ours: Vec<u64> = g.our_move_ms().collect();
    let think_ms: u64 = ours.iter().sum();
    let longest_ms = ours.iter().copied().max().unwrap_or(0);
    match (g.bank_spent, g.bank_left) {
        (Some(spent), Some(left)) => tracing::info!(
            game = g.number,
            our_moves = g.our_moves,
            bank_spent_s = spent.as_secs(),
            bank_left_s = left.as_secs(),
            think_ms,
            longest_ms,
            "GAT time spent"
        ),
        _ => tracing::debug!(
            game = g.number,
            our_moves = g.our_moves,
            think_ms,
            longest_ms,
            "GAT time spent"
        ),
    }
}

/// What every move may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct MoveBudget {
    pub(super) time: Duration,
    pub(super) playouts: Option<u64>,
    pub(super) margin: Duration,
    pub(super) plan: Option<GatPlan>,
}

impl MoveBudget {
    pub(super) fn of(cfg: &GatClientConfig) -> Self {
        let ms = cfg.time_ms.unwrap_or(if cfg.playouts.is_some() {
            MAX_TIME_MS
        } else {
            DEFAULT_TIME_MS
        });
        MoveBudget {
            time: Duration::from_millis(ms.clamp(1, MAX_TIME_MS)),
            playouts: cfg.playouts,
            margin: Duration::from_millis(cfg.margin_ms),
            plan: cfg.plan,
        }
    }

    /// The limits of a move whose clock started at `start`: with a plan,
    /// the move `our_moves` (from 0) at `ply` with `left` of the bank.
    pub(super) fn limits(
        &self,
        start: Instant,
        left: Duration,
        our_moves: u32,
        ply: u32,
    ) -> Limits {
        let deadline = match self.plan {
            Some(p) => Deadline::per_move(
                start,
                p.move_time(left, our_moves, ply, self.margin),
                Duration::ZERO,
            ),
            None => Deadline::per_move(start, self.time, self.margin),
        };
        Limits {
            playouts: self.playouts,
            deadline: Some(deadline),
        }
    }

    /// The most a move may take before the fallback is played.
    pub(super) fn most(&self) -> Duration {
        match self.plan {
            Some(_) => GatPlan::CAP,
            None => self.time,
        }
    }
}

/// The time the server is taken to add to a move we measured, for
/// counting what it charges the bank ([`clock::charge`]).
pub(super) const CHARGE_SLACK: Duration = Duration::from_millis(20);
