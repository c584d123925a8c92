//! Run-time plumbing shared by the server and the client.
//!
//! - [`search_thread`]: a dedicated OS thread that runs an agent's search, so
//!   CPU-bound work never blocks an async runtime's worker threads.

pub mod search_thread;

pub use search_thread::{PonderStats, SearchError, SearchHandle, SearchThread, PONDER_CAP};

use tokio::sync::watch;

/// What the owner of a client run (a session) wants of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stop {
    /// Play every game.
    #[default]
    Run,
    /// Finish the game in progress, start no other.
    Finish,
    /// Leave the game in progress now (it is recorded as abandoned).
    Abandon,
}

/// Resolves when the stop asked for reaches `level` (never without a stop
/// signal, or once its sender is gone).
pub async fn wait_for_stop(rx: &mut Option<watch::Receiver<Stop>>, level: Stop) -> Stop {
    let Some(rx) = rx else {
        return std::future::pending().await;
    };
    loop {
        let v = *rx.borrow_and_update();
        if v >= level {
            return v;
        }
        if rx.changed().await.is_err() {
            return std::future::pending().await;
        }
    }
}

/// Resolves when the game in progress must be left: at [`Stop::Abandon`],
/// or `grace` after [`Stop::Finish`].
pub async fn abandon_after(rx: Option<watch::Receiver<Stop>>, grace: std::time::Duration) {
    let (mut a, mut b) = (rx.clone(), rx);
    if wait_for_stop(&mut a, Stop::Finish).await == Stop::Abandon {
        return;
    }
    tokio::select! {
        _ = tokio::time::sleep(grace) => {}
        _ = wait_for_stop(&mut b, Stop::Abandon) => {}
    }
}
