//! The games of a run, one connection each: connecting with retries
//! within a window ([`connect_retrying`]), a connection the server closes
//! before its first line tried again, a stop between connections, and each
//! game's end reported.

use std::time::{Duration, Instant};

use tokio::net::TcpStream;

use super::budget::{log_plan, log_spent, MoveBudget};
use super::records::{GatGame, GatSummary};
use super::session::{play_game, Broke};
use super::GatClientConfig;
use crate::games::geister::GeisterGame;
use crate::runtime::{abandon_after, wait_for_stop, SearchThread, Stop};

/// Connects, retrying with a short backoff for up to `window`.
///
/// Each retry is a warning, or with `quiet` (our own server, whose ports
/// are closed between games) a debug line.
pub async fn connect_retrying(
    addr: &str,
    attempt_timeout: Duration,
    window: Duration,
    quiet: bool,
) -> Result<TcpStream, String> {
    let start = Instant::now();
    let mut backoff = Duration::from_millis(50);
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let last = match tokio::time::timeout(attempt_timeout, TcpStream::connect(addr)).await {
            Ok(Ok(s)) => return Ok(s),
            Ok(Err(e)) => e.to_string(),
            Err(_) => "connection attempt timed out".to_string(),
        };
        if start.elapsed() >= window {
            return Err(format!(
                "cannot connect to {addr}: {last} (retried for {:.1} s)",
                start.elapsed().as_secs_f64()
            ));
        }
        // Each retry is told (a client silent for the whole window looks hung).
        let giving_up_in_s = format!(
            "{:.1}",
            window.saturating_sub(start.elapsed()).as_secs_f64()
        );
        let retry_in_ms = backoff.as_millis() as u64;
        if quiet {
            tracing::debug!(%addr, error = %last, attempt, retry_in_ms, giving_up_in_s, "cannot connect to the GAT server; retrying");
        } else {
            tracing::warn!(%addr, error = %last, attempt, retry_in_ms, giving_up_in_s, "cannot connect to the GAT server; retrying");
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(1));
    }
}

/// The games of a run, one connection each.
pub(super) async fn games_of(
    cfg: &GatClientConfig,
    agent: &SearchThread<GeisterGame>,
    mut on_game: impl FnMut(&GatGame),
) -> Result<GatSummary, String> {
    let budget = MoveBudget::of(cfg);
    if let (Some(plan), 1) = (cfg.plan, cfg.first_game) {
        log_plan(&plan, budget.margin);
    }
    let mut summary = GatSummary::default();
    let first = cfg.first_game.max(1);
    for number in first..first.saturating_add(cfg.games) {
        if stop_asked(cfg) {
            summary.stopped = true;
            break;
        }
        let (mut game, played) =
            match connect_and_play(cfg, agent, budget, number, number == first).await {
                Ok(g) => g,
                Err(SessionEnd::Stopped) => {
                    summary.stopped = true;
                    return Ok(summary);
                }
                Err(SessionEnd::ServerLost(e)) => {
                    summary.server_lost = Some(e);
                    return Ok(summary);
                }
                Err(SessionEnd::Unreachable(e)) => return Err(e),
            };
        if let Err(e) = played {
            tracing::error!(game = number, error = %e, aborted = game.aborted, "game broke off");
            eprintln!("game {number}: error: {e}");
            game.error = Some(e);
        }
        game.finished_ms = crate::records::now_ms();
        log_spent(&game);
        summary.add(&game);
        on_game(&game);
        if game.abandoned || stop_asked(cfg) {
            summary.stopped = true;
            break;
        }
    }
    Ok(summary)
}

/// Whether a stop has been asked for.
fn stop_asked(cfg: &GatClientConfig) -> bool {
    cfg.stop.as_ref().is_some_and(|s| *s.borrow() != Stop::Run)
}

/// Why a session ends before its games are all played (other than by a
/// game's own end).
enum SessionEnd {
    /// A stop was asked for between connections.
    Stopped,
    /// The server could not be reached again for a later game (why).
    ServerLost(String),
    /// The server could not be reached for the session's first game.
    Unreachable(String),
}

/// Game `number` (the session's first with `first`): connects and plays it.
/// A connection the server closes before its first line is no game (a
/// server busy with another game refuses extra connections so): we
/// reconnect, within the same window as for connecting. The game, with why
/// it broke off if it did.
async fn connect_and_play(
    cfg: &GatClientConfig,
    agent: &SearchThread<GeisterGame>,
    budget: MoveBudget,
    number: u32,
    first: bool,
) -> Result<(GatGame, Result<(), String>), SessionEnd> {
    let window_start = Instant::now();
    loop {
        // A stop asked for while we were between connections: no new
        // connection (one the server seated would lose its game).
        if stop_asked(cfg) {
            return Err(SessionEnd::Stopped);
        }
        let window = cfg.reconnect_window.saturating_sub(window_start.elapsed());
        let stream = match connect_unless_stopped(cfg, window).await {
            None => return Err(SessionEnd::Stopped),
            Some(Ok(s)) => s,
            // Not a single game yet: the server is not there.
            Some(Err(e)) if first => return Err(SessionEnd::Unreachable(e)),
            Some(Err(e)) => {
                tracing::error!(game = number, error = %e, "the server is gone");
                return Err(SessionEnd::ServerLost(e));
            }
        };
        let (mut game, played) = play_connected(cfg, agent, budget, stream, number).await;
        match played {
            Err(Broke::NoGame(e)) => {
                if cfg.own_server {
                    tracing::debug!(game = number, error = %e, "the server closed the connection before the game began; reconnecting");
                } else {
                    tracing::warn!(game = number, error = %e, "the server closed the connection before the game began; reconnecting");
                }
                if window_start.elapsed() >= cfg.reconnect_window {
                    let e = format!(
                        "{e} (retried for {:.1} s)",
                        window_start.elapsed().as_secs_f64()
                    );
                    return Err(if first {
                        SessionEnd::Unreachable(e)
                    } else {
                        SessionEnd::ServerLost(e)
                    });
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(Broke::Server(e)) => {
                game.aborted = true;
                return Ok((game, Err(e)));
            }
            Err(Broke::Ours(e)) => return Ok((game, Err(e))),
            Ok(()) => return Ok((game, Ok(()))),
        }
    }
}

/// Connects within `window`; `None` if a stop comes first.
async fn connect_unless_stopped(
    cfg: &GatClientConfig,
    window: Duration,
) -> Option<Result<TcpStream, String>> {
    let mut stop = cfg.stop.clone();
    // A connection made is used even if a stop came meanwhile: the server
    // may have seated it already, and dropping it would lose that game
    // (the stop then ends the session after it).
    tokio::select! {
        biased;
        s = connect_retrying(&cfg.addr, cfg.connect_timeout, window, cfg.own_server) => Some(s),
        _ = wait_for_stop(&mut stop, Stop::Finish) => None,
    }
}

/// Plays game `number` on `stream`, leaving it on a stop
/// ([`GatClientConfig::stop`]).
async fn play_connected(
    cfg: &GatClientConfig,
    agent: &SearchThread<GeisterGame>,
    budget: MoveBudget,
    stream: TcpStream,
    number: u32,
) -> (GatGame, Result<(), Broke>) {
    let _ = stream.set_nodelay(true);
    agent.new_game();
    let mut game = GatGame::new(number);
    let played = tokio::select! {
        r = play_game(stream, agent, budget, cfg.min_answer, &mut game) => r,
        _ = abandon_after(cfg.stop.clone(), cfg.stop_grace) => {
            // Dropping the game closes its connection: the server
            // scores it as lost by disconnect.
            agent.cancel();
            game.abandoned = true;
            Err(Broke::Ours("abandoned: stop asked for".to_string()))
        }
    };
    // The game is over (or its connection gone): nothing to ponder for.
    agent.stop_pondering();
    (game, played)
}
