//! A move kept ready while a search runs.
//!
//! A search stops at its deadline, but a thread on a loaded machine can be
//! kept off its core past it: the answer then comes late. A client whose
//! platform will not wait (the Riddles engine's 100 ms) gives up on the
//! search a little before its limit; with a [`Ready`] slot it plays the
//! best move the search had found by then instead of a fallback (`pass`).
//!
//! The search thread opens the slot for each search ([`Ready::begin`],
//! with the search's ticket) and closes it when `select` returns; the agent
//! [`offer`](Ready::offer)s its best move so far as it improves; the client
//! reads the move for its own ticket ([`Ready::get`]), so a move offered by
//! an earlier search, or by a ponder (the slot is closed then), is never
//! taken for this one.

use std::sync::Mutex;

/// How the log line about a search that overran but had a move ready
/// begins (the move is answered: not a forced pass).
pub const LATE_SEARCH: &str = "the search overran";

/// The slot: the ticket of the search under way and its best move so far.
#[derive(Debug)]
pub struct Ready<M> {
    slot: Mutex<Slot<M>>,
}

#[derive(Debug)]
struct Slot<M> {
    ticket: u64,
    open: bool,
    mv: Option<M>,
}

impl<M: Copy> Default for Ready<M> {
    fn default() -> Self {
        Ready {
            slot: Mutex::new(Slot {
                ticket: 0,
                open: false,
                mv: None,
            }),
        }
    }
}

impl<M: Copy> Ready<M> {
    fn with<T>(&self, f: impl FnOnce(&mut Slot<M>) -> T) -> T {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut slot)
    }

    /// The search with `ticket` starts: nothing is ready for it yet.
    pub fn begin(&self, ticket: u64) {
        self.with(|s| {
            s.ticket = ticket;
            s.open = true;
            s.mv = None;
        });
    }

    /// The search has returned: offers are ignored until the next begins
    /// (a ponder runs the same code and must not offer its moves).
    pub fn end(&self) {
        self.with(|s| s.open = false);
    }

    /// The search's best move so far (ignored while no search is open).
    pub fn offer(&self, mv: M) {
        self.with(|s| {
            if s.open {
                s.mv = Some(mv);
            }
        });
    }

    /// The move the search with `ticket` offered last, if it offered one.
    pub fn get(&self, ticket: u64) -> Option<M> {
        self.with(|s| if s.ticket == ticket { s.mv } else { None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_read_only_by_the_search_that_offered_it() {
        let r = Ready::<u8>::default();
        r.offer(1);
        assert_eq!(r.get(0), None, "nothing is kept before a search opens");
        r.begin(7);
        assert_eq!(r.get(7), None);
        r.offer(2);
        r.offer(3);
        assert_eq!(r.get(7), Some(3), "the last offer is the one ready");
        assert_eq!(r.get(6), None, "another ticket finds nothing");
        r.end();
        r.offer(4);
        assert_eq!(
            r.get(7),
            Some(3),
            "offers after the end (a ponder) are ignored"
        );
        r.begin(8);
        assert_eq!(r.get(8), None, "a new search starts empty");
        assert_eq!(r.get(7), None);
    }
}
