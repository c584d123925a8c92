//! The games of a run, connection after connection: a dropped or failed
//! connection is retried with capped exponential backoff
//! ([`backoff_delay`]), and a game cut off by a drop is judged once the
//! client knows whether the server is still there.

use std::time::Duration;

use super::connection::connect;
use super::records::{GameFinished, Progress};
use super::session::{session, Dropped};
use super::{ClientConfig, ClientError, ClientSummary};
use crate::games::PlayableGame;
use crate::runtime::{wait_for_stop, SearchThread, Stop};

/// The wait before reconnect attempt `failures` (1-based): `initial`
/// doubled per earlier failure, capped at `max`.
pub fn backoff_delay(initial: Duration, max: Duration, failures: u32) -> Duration {
    let factor = 1u32
        .checked_shl(failures.saturating_sub(1))
        .unwrap_or(u32::MAX);
    initial.saturating_mul(factor).min(max)
}

/// The games of a run, connection after connection (reconnecting).
pub(super) async fn connections<G: PlayableGame>(
    config: &ClientConfig,
    search: &SearchThread<G>,
    mut on_game: impl FnMut(&GameFinished) + Send,
) -> Result<ClientSummary, ClientError> {
    let mut progress = Progress::default();
    let mut stop = config.stop.clone();
    let mut failures = 0u32;
    while progress.summary.games < config.games {
        if stop.as_ref().is_some_and(|s| *s.borrow() != Stop::Run) {
            progress.summary.stopped = true;
            break;
        }
        let end = match connect(config).await {
            Ok(ws) => {
                session::<G>(ws, config, search, &mut progress, &mut stop, &mut on_game).await?
            }
            Err(e) => Dropped::new(false, e),
        };
        if let Some(cur) = progress.current.take() {
            if end.abandoned || end.stopped {
                // We left: the server scores the game as lost by disconnect.
                let detail = if end.abandoned {
                    format!("abandoned: {}", end.why)
                } else {
                    format!("connection lost: {}", end.why)
                };
                progress.finish_lost(cur, detail, end.abandoned, &mut on_game);
            } else if end.server_stopping {
                let why = format!("the server shut down mid-game: {}", end.why);
                progress.abort(cur, why.clone(), &mut on_game);
                progress.summary.server_lost = Some(why);
                return Ok(progress.summary);
            } else {
                // Judged once we know whether the server is still there.
                progress.interrupted = Some((cur, end.why.clone()));
            }
        }
        if end.stopped {
            progress.summary.stopped = true;
            break;
        }
        if end.why.is_empty() {
            break;
        }
        if progress.summary.games >= config.games {
            break;
        }
        if end.welcomed {
            // The connection worked: start counting failures afresh.
            failures = 0;
        } else {
            failures += 1;
            if failures > config.max_reconnects {
                if let Some((cur, why)) = progress.interrupted.take() {
                    let why = format!(
                        "lost the server mid-game ({why}), then {failures} connection attempts in a row failed (last: {})",
                        end.why
                    );
                    progress.abort(cur, why.clone(), &mut on_game);
                    progress.summary.server_lost = Some(why);
                    return Ok(progress.summary);
                }
                return Err(ClientError::Connect {
                    url: config.url.clone(),
                    attempts: failures,
                    last: end.why,
                });
            }
        }
        if progress.resume.is_some() && failures == 0 {
            // A seat to take back, its clock running: at once.
            tracing::warn!(url = %config.url, why = %end.why, "connection lost mid-match; reconnecting at once to resume our seat");
            continue;
        }
        let wait = backoff_delay(config.backoff_initial, config.backoff_max, failures.max(1));
        tracing::warn!(url = %config.url, why = %end.why, wait_ms = wait.as_millis() as u64, "connection lost or refused; reconnecting");
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = wait_for_stop(&mut stop, Stop::Finish) => {}
        }
    }
    if let Some((cur, why)) = progress.interrupted.take() {
        // Stopped before the server could be reached again: nobody knows.
        progress.abort(
            cur,
            format!("connection lost ({why}); stopped before reconnecting"),
            &mut on_game,
        );
    }
    Ok(progress.summary)
}
