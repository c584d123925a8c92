//! Explicit time: a `Deadline` (soft and hard limit less a safety margin) and a
//! `Budget` that the search polls every iteration and that reads the clock only
//! every `check_every` iterations.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// When a search must stop. `soft`: stop starting new work; `hard`: an answer
/// must be on its way. Both already have the I/O safety margin taken off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub start: Instant,
    pub soft: Instant,
    pub hard: Instant,
}

impl Deadline {
    /// `soft` and `hard` are durations from `start`; `margin` is taken off both
    /// (never going below `start`), and soft is capped at hard.
    pub fn new(start: Instant, soft: Duration, hard: Duration, margin: Duration) -> Self {
        let hard_d = hard.saturating_sub(margin);
        let soft_d = soft.saturating_sub(margin).min(hard_d);
        Deadline {
            start,
            soft: start + soft_d,
            hard: start + hard_d,
        }
    }

    /// A plain per-move budget: soft = hard = `per_move`, less `margin`.
    pub fn per_move(start: Instant, per_move: Duration, margin: Duration) -> Self {
        Self::new(start, per_move, per_move, margin)
    }

    /// A budget from a clock: this move may use `wanted`, but never more than
    /// `hard_cap` (what the platform allows for this move), both less `margin`.
    pub fn from_clock(
        start: Instant,
        wanted: Duration,
        hard_cap: Duration,
        margin: Duration,
    ) -> Self {
        Self::new(start, wanted.min(hard_cap), hard_cap, margin)
    }

    pub fn soft_passed_at(&self, now: Instant) -> bool {
        now >= self.soft
    }
    pub fn hard_passed_at(&self, now: Instant) -> bool {
        now >= self.hard
    }
    pub fn soft_passed(&self) -> bool {
        self.soft_passed_at(Instant::now())
    }
}

/// A time manager for a bank with an increment (sudden death plus a bonus
/// per move, as the Riddles.io engine's clock), in the spirit of
/// Stockfish's: `soft` is this move's fair share of the bank and of the
/// increments still to come over `moves_left` moves (this one included);
/// `hard` allows a critical move up to `stretch` times that, but never
/// more than `max_bank_share` of the bank, so the bank cannot run out
/// however many moves take the hard limit in a row (each adds the
/// increment back). Both before any I/O margin.
pub fn bank_budget(
    bank: Duration,
    increment: Duration,
    moves_left: u32,
    stretch: u32,
    max_bank_share: f64,
) -> (Duration, Duration) {
    let n = moves_left.max(1);
    let soft = (bank + increment * (n - 1)) / n;
    let cap = bank.mul_f64(max_bank_share.clamp(0.0, 1.0));
    let hard = (soft * stretch.max(1)).min(cap);
    (soft.min(hard), hard)
}

/// What a search may spend on one move: a playout count, a deadline, or both
/// (whichever ends first). With neither, `Limits::default_playouts` applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub playouts: Option<u64>,
    pub deadline: Option<Deadline>,
}

impl Limits {
    /// Used when a caller gives no limit at all, so that a search always ends.
    pub const DEFAULT_PLAYOUTS: u64 = 10_000;

    pub fn playouts(n: u64) -> Self {
        Limits {
            playouts: Some(n),
            deadline: None,
        }
    }
    pub fn deadline(d: Deadline) -> Self {
        Limits {
            playouts: None,
            deadline: Some(d),
        }
    }

    /// The most iterations (playouts, nodes) a search may run: the
    /// playouts given, else unbounded under a deadline, else
    /// [`Limits::DEFAULT_PLAYOUTS`].
    pub fn max_iterations(&self) -> u64 {
        match (self.playouts, self.deadline) {
            (Some(n), _) => n,
            (None, Some(_)) => u64::MAX,
            (None, None) => Self::DEFAULT_PLAYOUTS,
        }
    }

    /// One move under a platform's clock: the bot's own budget (`playouts`
    /// and/or `time_ms`; neither means [`Limits::DEFAULT_PLAYOUTS`]), and
    /// always a deadline at the clock's `allowance` less `margin`, so no
    /// budget can overrun the clock.
    pub fn under_clock(
        playouts: Option<u64>,
        time_ms: Option<u64>,
        start: Instant,
        allowance: Duration,
        margin: Duration,
    ) -> Self {
        let playouts = match (playouts, time_ms) {
            (None, None) => Some(Self::DEFAULT_PLAYOUTS),
            (p, _) => p,
        };
        let wanted = time_ms.map_or(allowance, Duration::from_millis);
        Limits {
            playouts,
            deadline: Some(Deadline::from_clock(start, wanted, allowance, margin)),
        }
    }
}

/// A game clock as the mover sees it before a move: what is left of its
/// bank and what each of its moves adds back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub bank: Duration,
    pub increment: Duration,
}

impl GameClock {
    /// A critical move may take up to this many times its fair share...
    pub const STRETCH: u32 = 4;
    /// ...but never more than this share of the bank.
    pub const MAX_BANK_SHARE: f64 = 0.25;

    /// The bank after a move that took `used`.
    pub fn after(self, used: Duration) -> Self {
        GameClock {
            bank: self.bank.saturating_sub(used) + self.increment,
            ..self
        }
    }
}

impl Limits {
    /// One move on a game clock (a bank and an increment), as the
    /// strongest engines plan it: the optimum (soft limit) is this move's
    /// fair share of the bank and of the increments still to come over
    /// `moves_to_go` moves (this one included), the maximum (hard limit)
    /// [`GameClock::STRETCH`] times that but at most
    /// [`GameClock::MAX_BANK_SHARE`] of the bank, and never past the
    /// platform's `allowance` for this move; `margin` comes off both. The
    /// search itself decides where between the two it stops (earlier on a
    /// clear or forced move, later when its best move changes or its value
    /// falls), so the bank cannot run out: every move leaves at least three
    /// quarters of it.
    pub fn on_game_clock(
        playouts: Option<u64>,
        start: Instant,
        clock: GameClock,
        moves_to_go: u32,
        allowance: Duration,
        margin: Duration,
    ) -> Self {
        let (soft, hard) = bank_budget(
            clock.bank,
            clock.increment,
            moves_to_go,
            GameClock::STRETCH,
            GameClock::MAX_BANK_SHARE,
        );
        let hard = hard.min(allowance);
        Limits {
            playouts,
            deadline: Some(Deadline::new(start, soft.min(hard), hard, margin)),
        }
    }
}

/// Polled by a search loop: `while budget.tick() { ...one iteration... }`.
/// Reads the clock and the stop flag every `check_every` iterations only.
pub struct Budget<'a> {
    max: u64,
    deadline: Option<Deadline>,
    stop: &'a AtomicBool,
    done: u64,
    check_every: u64,
    stopped: bool,
}

impl<'a> Budget<'a> {
    /// How many iterations pass between two looks at the clock.
    pub const CHECK_EVERY: u64 = 64;

    pub fn new(limits: &Limits, stop: &'a AtomicBool) -> Self {
        let max = limits.max_iterations();
        Budget {
            max,
            deadline: limits.deadline,
            stop,
            done: 0,
            check_every: Self::CHECK_EVERY,
            stopped: false,
        }
    }

    /// Look at the clock every `n` iterations (n >= 1).
    pub fn with_check_every(mut self, n: u64) -> Self {
        self.check_every = n.max(1);
        self
    }

    /// True if one more iteration may run; counts it.
    #[inline]
    pub fn tick(&mut self) -> bool {
        if self.stopped || self.done >= self.max {
            return false;
        }
        if self.done % self.check_every == 0 && self.done > 0 && self.out_of_time() {
            self.stopped = true;
            return false;
        }
        self.done += 1;
        true
    }

    fn out_of_time(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| d.soft_passed())
    }

    /// Iterations granted so far.
    pub fn done(&self) -> u64 {
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bank_budget_shares_the_bank_and_never_runs_it_dry() {
        let ms = Duration::from_millis;
        // A full Riddles.io bank at round 1: (10 000 + 99 x 100) / 100.
        let (soft, hard) = bank_budget(ms(10_000), ms(100), 100, 3, 0.25);
        assert_eq!(soft, ms(199));
        assert_eq!(hard, ms(597));
        // The last move may use the bank's share, no more.
        let (soft, hard) = bank_budget(ms(300), ms(100), 1, 3, 0.25);
        assert_eq!((soft, hard), (ms(75), ms(75)));
        // Every move at its hard limit, 100 moves in a row: the bank (capped
        // at 10 s, +100 ms per answer) never goes below zero.
        let mut bank = ms(10_000);
        for left in (1..=100).rev() {
            let (soft, hard) = bank_budget(bank, ms(100), left, 3, 0.25);
            assert!(
                soft <= hard && hard <= bank,
                "{left}: {soft:?} {hard:?} {bank:?}"
            );
            bank = (bank - hard + ms(100)).min(ms(10_000));
            assert!(bank > Duration::ZERO);
        }
        // An empty bank gives nothing to spend.
        assert_eq!(
            bank_budget(Duration::ZERO, ms(100), 5, 3, 0.25).1,
            Duration::ZERO
        );
    }

    #[test]
    fn margin_is_taken_off_and_soft_never_exceeds_hard() {
        let t = Instant::now();
        let d = Deadline::new(
            t,
            Duration::from_millis(500),
            Duration::from_millis(100),
            Duration::from_millis(10),
        );
        assert_eq!(d.hard - t, Duration::from_millis(90));
        assert_eq!(d.soft - t, Duration::from_millis(90));
        let d = Deadline::per_move(t, Duration::from_millis(5), Duration::from_millis(10));
        assert_eq!(d.hard, t);
        assert!(d.hard_passed_at(t));
    }

    #[test]
    fn under_clock_always_caps_by_the_allowance() {
        let t = Instant::now();
        let (sec, ms) = (Duration::from_secs(1), Duration::from_millis(10));
        let l = Limits::under_clock(None, None, t, sec, ms);
        assert_eq!(l.playouts, Some(Limits::DEFAULT_PLAYOUTS));
        assert_eq!(l.deadline.unwrap().hard - t, Duration::from_millis(990));
        let l = Limits::under_clock(Some(5), None, t, sec, ms);
        assert_eq!(l.playouts, Some(5));
        let l = Limits::under_clock(None, Some(5000), t, sec, ms);
        assert_eq!(l.playouts, None);
        assert_eq!(l.deadline.unwrap().soft - t, Duration::from_millis(990));
        let l = Limits::under_clock(None, Some(100), t, sec, ms);
        assert_eq!(l.deadline.unwrap().soft - t, Duration::from_millis(90));
        assert_eq!(l.deadline.unwrap().hard - t, Duration::from_millis(990));
    }

    #[test]
    fn budget_counts_playouts_exactly() {
        let stop = AtomicBool::new(false);
        let mut b = Budget::new(&Limits::playouts(1000), &stop);
        let mut n = 0;
        while b.tick() {
            n += 1;
        }
        assert_eq!(n, 1000);
        assert_eq!(b.done(), 1000);
    }

    #[test]
    fn budget_stops_on_flag_within_check_interval() {
        let stop = AtomicBool::new(false);
        let mut b = Budget::new(&Limits::playouts(1_000_000), &stop).with_check_every(10);
        let mut n = 0;
        while b.tick() {
            n += 1;
            if n == 25 {
                stop.store(true, Ordering::Relaxed);
            }
        }
        assert_eq!(n, 30);
    }

    #[test]
    fn budget_stops_at_a_passed_deadline() {
        let stop = AtomicBool::new(false);
        let past = Deadline::per_move(Instant::now(), Duration::ZERO, Duration::ZERO);
        let mut b = Budget::new(&Limits::deadline(past), &stop).with_check_every(4);
        let mut n = 0;
        while b.tick() {
            n += 1;
        }
        // The first check happens after `check_every` iterations.
        assert_eq!(n, 4);
    }

    #[test]
    fn no_limits_means_the_default_playout_count() {
        let stop = AtomicBool::new(false);
        let mut b = Budget::new(&Limits::default(), &stop);
        while b.tick() {}
        assert_eq!(b.done(), Limits::DEFAULT_PLAYOUTS);
    }

    #[test]
    fn a_game_clock_plans_a_fair_share_and_never_empties_the_bank() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let clock = GameClock {
            bank: ms(8000),
            increment: ms(0),
        };
        // 8 s over 32 moves: 250 ms, up to 1 s (4x, within a quarter of 8 s).
        let l = Limits::on_game_clock(None, t0, clock, 32, ms(60_000), ms(20));
        let d = l.deadline.unwrap();
        assert_eq!((d.soft - t0, d.hard - t0), (ms(230), ms(980)));
        assert_eq!(l.playouts, None);
        // The platform's allowance caps both.
        let d = Limits::on_game_clock(None, t0, clock, 2, ms(500), ms(20))
            .deadline
            .unwrap();
        assert_eq!((d.soft - t0, d.hard - t0), (ms(480), ms(480)));
        // Every move taking its whole hard limit: the bank shrinks by a
        // quarter at most each time and is never empty.
        let mut c = GameClock {
            bank: ms(8000),
            increment: ms(50),
        };
        for left in (1..=40).rev() {
            let d = Limits::on_game_clock(None, t0, c, left, ms(60_000), ms(0))
                .deadline
                .unwrap();
            assert!(d.hard - t0 <= c.bank.mul_f64(0.25) + ms(1));
            c = c.after(d.hard - t0);
            assert!(c.bank > ms(0));
        }
        // An increment is spent as it comes.
        let d = Limits::on_game_clock(
            None,
            t0,
            GameClock {
                bank: ms(1000),
                increment: ms(100),
            },
            10,
            ms(60_000),
            ms(0),
        )
        .deadline
        .unwrap();
        assert_eq!(d.soft - t0, ms(190));
    }
}
