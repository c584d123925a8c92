//! A time manager for iterative-deepening searches, in the spirit of
//! Stockfish's: a [`Deadline`]'s soft limit is the time this move should
//! take, its hard limit the most it may take.
//!
//! - A new iteration starts only while less than `start_share` of the
//!   current soft limit has passed (the next iteration would usually not
//!   finish in the rest).
//! - Inside an iteration the search stops at the current soft limit. That
//!   limit starts at the deadline's soft limit; when an iteration changes
//!   the best move ([`SearchClock::unstable`]) it moves half way towards the
//!   hard limit, never past `stretch` times the soft one.
//! - Nothing ever passes the hard limit, and the search reads the clock
//!   every [`SearchClock::POLL_EVERY`] nodes, so one poll is a fraction of
//!   a millisecond from the next.
//! - A node limit (from [`Limits::playouts`]) and the `stop` flag end the
//!   search too; without any limit the search stops after
//!   [`Limits::DEFAULT_PLAYOUTS`] nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::deadline::{Deadline, Limits};

/// When an iterative-deepening search stops (see the module documentation).
#[derive(Debug)]
pub struct SearchClock<'a> {
    deadline: Option<Deadline>,
    /// The current stop time inside an iteration (soft, perhaps extended).
    limit: Option<Instant>,
    max_nodes: u64,
    stop: &'a AtomicBool,
    /// Share of the soft limit after which no iteration starts.
    pub start_share: f64,
    /// The soft limit is never extended past this many times itself.
    pub stretch: f64,
    stopped: bool,
}

impl<'a> SearchClock<'a> {
    /// Nodes between two looks at the clock and the stop flag.
    pub const POLL_EVERY: u64 = 1024;

    pub fn new(limits: &Limits, stop: &'a AtomicBool) -> Self {
        let max_nodes = limits.max_iterations();
        SearchClock {
            deadline: limits.deadline,
            limit: limits.deadline.map(|d| d.soft.min(d.hard)),
            max_nodes,
            stop,
            start_share: 0.5,
            stretch: 2.0,
            stopped: false,
        }
    }

    /// Whether the search must stop now, `nodes` searched so far. Reads
    /// the clock only when `nodes` is a multiple of [`Self::POLL_EVERY`];
    /// once it says stop it keeps saying so.
    #[inline]
    pub fn poll(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if nodes >= self.max_nodes {
            self.stopped = true;
        } else if nodes % Self::POLL_EVERY == 0 {
            self.stopped = self.stop.load(Ordering::Relaxed)
                || self.limit.is_some_and(|l| Instant::now() >= l);
        }
        self.stopped
    }

    /// Whether a poll has said stop.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Stops the search from outside the node loop (a proven result).
    pub fn halt(&mut self) {
        self.stopped = true;
    }

    /// Whether a new iteration may start (`nodes` searched so far).
    pub fn may_start_iteration(&mut self, nodes: u64) -> bool {
        self.may_start_iteration_at(nodes, self.start_share)
    }

    /// Whether a new iteration may start while less than `share` of the
    /// soft limit has passed (and no other limit says stop).
    pub fn may_start_iteration_at(&mut self, nodes: u64, share: f64) -> bool {
        if self.stopped || nodes >= self.max_nodes || self.stop.load(Ordering::Relaxed) {
            return false;
        }
        match self.deadline {
            None => true,
            Some(d) => {
                let now = Instant::now();
                let soft = d.soft.min(d.hard);
                let share = (soft - d.start).mul_f64(share);
                now < d.start + share && now < d.hard
            }
        }
    }

    /// The last iteration changed the best move: the stop time moves half
    /// way towards the hard limit (at most `stretch` times the soft one).
    pub fn unstable(&mut self) {
        if let Some(d) = self.deadline {
            let soft = d.soft.min(d.hard) - d.start;
            let hard = d.hard - d.start;
            let to = (soft + (hard - soft) / 2).min(soft.mul_f64(self.stretch));
            let extended = d.start + to.max(soft);
            self.limit = Some(self.limit.map_or(extended, |l| l.max(extended)));
        }
    }

    /// The time from the move's start to the current stop time, if there
    /// is a deadline.
    pub fn budget(&self) -> Option<Duration> {
        match (self.deadline, self.limit) {
            (Some(d), Some(l)) => Some(l.saturating_duration_since(d.start)),
            _ => None,
        }
    }

    /// The time since the move started, if there is a deadline.
    pub fn elapsed(&self) -> Option<Duration> {
        self.deadline.map(|d| d.start.elapsed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_limit_stops_exactly_and_the_flag_within_one_poll() {
        let stop = AtomicBool::new(false);
        let mut c = SearchClock::new(&Limits::playouts(5000), &stop);
        assert!((1..5000).all(|n| !c.poll(n)));
        assert!(c.poll(5000));
        assert!(c.poll(1), "once stopped, stopped");
        let mut c = SearchClock::new(&Limits::playouts(1 << 40), &stop);
        stop.store(true, Ordering::Relaxed);
        let first = (1..).find(|&n| c.poll(n)).unwrap();
        assert_eq!(first, SearchClock::POLL_EVERY);
        assert!(!c.may_start_iteration(0));
    }

    #[test]
    fn instability_moves_the_limit_towards_hard_but_not_past_the_stretch() {
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let ms = Duration::from_millis;
        let d = Deadline::new(t, ms(100), ms(10_000), ms(0));
        let mut c = SearchClock::new(&Limits::deadline(d), &stop);
        assert_eq!(c.limit, Some(t + ms(100)));
        c.unstable();
        assert_eq!(c.limit, Some(t + ms(200)), "stretch 2 caps half way (5 s)");
        let d = Deadline::new(t, ms(100), ms(140), ms(0));
        let mut c = SearchClock::new(&Limits::deadline(d), &stop);
        c.unstable();
        assert_eq!(c.limit, Some(t + ms(120)), "half way to hard");
        let d = Deadline::per_move(t, ms(80), ms(0));
        let mut c = SearchClock::new(&Limits::deadline(d), &stop);
        c.unstable();
        assert_eq!(c.limit, Some(t + ms(80)), "soft = hard: no room");
    }

    #[test]
    fn no_iteration_starts_once_the_share_of_soft_is_gone() {
        let stop = AtomicBool::new(false);
        let past = Deadline::per_move(Instant::now(), Duration::ZERO, Duration::ZERO);
        let mut c = SearchClock::new(&Limits::deadline(past), &stop);
        assert!(!c.may_start_iteration(0));
        let later = Deadline::per_move(Instant::now(), Duration::from_secs(60), Duration::ZERO);
        let mut c = SearchClock::new(&Limits::deadline(later), &stop);
        assert!(c.may_start_iteration(0));
        let mut c = SearchClock::new(&Limits::default(), &stop);
        assert!(c.may_start_iteration(Limits::DEFAULT_PLAYOUTS - 1));
        assert!(!c.may_start_iteration(Limits::DEFAULT_PLAYOUTS));
    }
}
