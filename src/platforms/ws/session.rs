//! A `play` session on our match server: the client's settings from what
//! the settings ask of the session ([`PlaySession`]).

use std::time::Duration;

use super::client::{ClientConfig, ClockPolicy, Opponent};
use crate::config::OpponentChoice;
use crate::platforms::PlaySession;
use crate::search::GameClock;

/// The client settings for the match server at `url` from a session's
/// (`stop` unset).
pub fn client_config(s: &PlaySession, url: String) -> ClientConfig {
    ClientConfig {
        url,
        name: s.name.clone(),
        agent: s.agent.clone(),
        params: s.params.clone(),
        playouts: s.playouts,
        time_ms: s.time_ms,
        margin_ms: s.margin_ms,
        clock_policy: if s.bank {
            ClockPolicy::Bank {
                own: s.bank_ms.map(|b| GameClock {
                    bank: Duration::from_millis(b),
                    increment: Duration::from_millis(s.increment_ms),
                }),
            }
        } else {
            ClockPolicy::Fixed
        },
        games: s.games,
        opponent: match s.opponent {
            OpponentChoice::Any => Opponent::Any,
            OpponentChoice::House => Opponent::House,
        },
        connect_timeout: s.connect_timeout,
        backoff_initial: s.backoff_initial,
        backoff_max: s.backoff_max,
        max_reconnects: s.max_reconnects,
        seed: s.seed,
        token: Some(s.token.clone()).filter(|t| !t.is_empty()),
        stop: None,
        stop_grace: s.stop_grace,
        heartbeat_timeout: s.heartbeat_timeout,
        ponder: s.ponder,
    }
}
