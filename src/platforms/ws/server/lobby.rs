//! Clients waiting for an opponent, per game, and starting matches.

use std::collections::HashMap;
use std::sync::Arc;

use crate::games::{GameKind, GameVisitor, PlayableGame};

use super::game_loop::{run_match, SeatLink};
use super::{house, Shared};

/// A client that said `hello` and waits for an opponent.
pub(crate) struct Waiter {
    pub conn_id: u64,
    pub games: u32,
    pub link: SeatLink,
}

/// Waiting clients by game name, first come first served.
#[derive(Default)]
pub(crate) struct Lobby {
    waiting: HashMap<String, Vec<Waiter>>,
}

impl Lobby {
    /// Takes the longest-waiting client for `game`, if any.
    pub fn take(&mut self, game: &str) -> Option<Waiter> {
        let q = self.waiting.get_mut(game)?;
        // Skip waiters whose connection is already gone.
        while !q.is_empty() {
            let w = q.remove(0);
            if !w.link.out.is_closed() {
                return Some(w);
            }
        }
        None
    }

    pub fn push(&mut self, game: &str, w: Waiter) {
        self.waiting.entry(game.to_string()).or_default().push(w);
    }

    /// Forgets every waiting client (the server is stopping).
    pub fn clear(&mut self) {
        self.waiting.clear();
    }

    /// Forgets connection `conn_id` (it closed while waiting).
    pub fn remove(&mut self, conn_id: u64) {
        for q in self.waiting.values_mut() {
            q.retain(|w| w.conn_id != conn_id);
        }
        self.waiting.retain(|_, q| !q.is_empty());
    }
}

/// Starts a match of `games` games: `first` (the earlier joiner, seat 0 in
/// game 1) against `second`, or against the house bot when `second` is None.
/// Errors (only for the house) with a message for the client.
pub(crate) fn start_match(
    shared: &Arc<Shared>,
    kind: GameKind,
    first: SeatLink,
    second: Option<SeatLink>,
    games: u32,
) -> Result<(), String> {
    kind.visit(StartMatch {
        shared: shared.clone(),
        first,
        second,
        games,
    })
}

struct StartMatch {
    shared: Arc<Shared>,
    first: SeatLink,
    second: Option<SeatLink>,
    games: u32,
}

impl GameVisitor for StartMatch {
    type Output = Result<(), String>;
    fn visit<G: PlayableGame>(self) -> Result<(), String> {
        let second = match self.second {
            Some(s) => s,
            None => {
                let n = self
                    .shared
                    .next_game
                    .load(std::sync::atomic::Ordering::Relaxed);
                house::spawn::<G>(&self.shared, self.shared.config.seed ^ n.rotate_left(17))?
            }
        };
        let slot = self.shared.match_slot();
        tokio::spawn(run_match::<G>(
            self.shared,
            [self.first, second],
            self.games,
            slot,
        ));
        Ok(())
    }
}
