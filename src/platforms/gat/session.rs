//! A `play` session on GAT: a client of a GAT server (`HOST:PORT`),
//! reconnecting for each game, or, with no server, of an in-process GAT
//! server on loopback against its house bot, seats alternating (our client
//! moves first in game 1). The command line gives the session
//! ([`PlaySession`]), prints the lines it reports and the summary.

use std::time::Duration;

use super::client::{run_client, GatClientConfig, GatSummary, MIN_ANSWER};
use super::clock::GatPlan;
use super::codec::{DEFAULT_BUDGET_S, DEFAULT_TIMEOUT_S};
use super::server::{GatServer, GatServerConfig};
use super::GAME;
use crate::platforms::{open_records, PlaySession, SessionError};
use crate::runtime::Stop;
use crate::seed::derive_seed;

/// The GAT client settings for `addr` from a session's: one game each
/// `games`, our seed.
fn client_config(s: &PlaySession, addr: String, games: u32, seed: u64) -> GatClientConfig {
    GatClientConfig {
        addr,
        agent: s.agent.clone(),
        params: s.params.clone(),
        time_ms: s.time_ms,
        playouts: s.playouts,
        margin_ms: s.margin_ms,
        plan: s.bank.then(|| {
            GatPlan::with_bank(s.bank_ms.map_or(GatPlan::GAT_BANK, Duration::from_millis))
        }),
        min_answer: MIN_ANSWER,
        games,
        seed,
        connect_timeout: s.connect_timeout,
        reconnect_window: s.reconnect_window,
        stop: None,
        stop_grace: s.stop_grace,
        first_game: 1,
        own_server: false,
        ponder: s.ponder,
    }
}

/// Plays the session: against `s.server`, our own records (`s.records`)
/// written after every game; without a server, against the house bot of an
/// in-process server, which writes the records. `say` gets each line of
/// output (the opening line against a house bot, one line per game).
pub async fn play(
    s: &PlaySession,
    stop: tokio::sync::watch::Receiver<Stop>,
    mut say: impl FnMut(String),
) -> Result<GatSummary, SessionError> {
    match s.server.clone() {
        Some(addr) => {
            let writer = open_records(&s.records)?;
            let mut write_error = None;
            let cfg = GatClientConfig {
                stop: Some(stop),
                ..client_config(s, addr, s.games, s.seed)
            };
            let summary = run_client(cfg, |g| {
                say(g.describe());
                if let Some(w) = &writer {
                    if let Err(e) = w.append(&g.record(&s.name, s.seed)) {
                        tracing::error!(error = %e, file = %w.path().display(), "cannot write the game's record");
                        write_error.get_or_insert(e.to_string());
                    }
                }
            })
            .await
            .map_err(SessionError::Retry)?;
            if let Some(e) = write_error {
                return Err(SessionError::Failed(format!("client.records: {e}")));
            }
            Ok(summary)
        }
        None => play_house(s, stop, say).await,
    }
}

/// A session the GAT server cut short (a game broken off, or the server
/// gone before the next game) ends in an error after its summary: worth
/// retrying.
pub fn end(s: &GatSummary) -> Result<(), SessionError> {
    match (&s.server_lost, s.aborted) {
        (Some(e), _) => Err(SessionError::Retry(format!(
            "the GAT server is gone after {} game(s): {e}",
            s.games + s.aborted
        ))),
        (None, n) if n > 0 => Err(SessionError::Retry(format!(
            "the GAT server broke off {n} game(s)"
        ))),
        _ => Ok(()),
    }
}

async fn play_house(
    settings: &PlaySession,
    stop: tokio::sync::watch::Receiver<Stop>,
    mut say: impl FnMut(String),
) -> Result<GatSummary, SessionError> {
    let house = &settings.house.agent;
    if house.is_empty() {
        return Err(SessionError::Config(
            "play: no server given and server.house_agent is empty: nobody to play".into(),
        ));
    }
    let games = settings.games;
    let seed = settings.seed;
    let server = GatServer::bind(GatServerConfig {
        host: "127.0.0.1".into(),
        ports: [0, 0],
        budget: Duration::from_secs(DEFAULT_BUDGET_S),
        timeout: Duration::from_secs(DEFAULT_TIMEOUT_S),
        games,
        out: Some(settings.records.clone())
            .filter(|r| !r.is_empty())
            .map(Into::into),
    })
    .await
    .map_err(|e| SessionError::Failed(format!("cannot start a GAT server on loopback: {e}")))?;
    let ports = server
        .local_ports()
        .map_err(|e| SessionError::Failed(e.to_string()))?;
    let shown = |name: &str| {
        GAME.check_agent(name, &Default::default())
            .unwrap_or_else(|_| name.to_string())
    };
    say(format!(
        "{} ({}) vs house bot ({}) on GAT 127.0.0.1:{},{}",
        settings.name,
        shown(&settings.agent),
        shown(&GAME.house_agent(house)),
        ports[0],
        ports[1]
    ));
    let server = tokio::spawn(server.run(|_| {}));
    let house_settings = PlaySession {
        agent: GAME.house_agent(house),
        params: Default::default(),
        playouts: settings.house.playouts,
        time_ms: settings.house.time_ms,
        ponder: false,
        ..settings.clone()
    };
    let mut summary = GatSummary::default();
    for n in 1..=games {
        if *stop.borrow() != Stop::Run {
            summary.stopped = true;
            break;
        }
        // Our client moves first in odd-numbered games.
        let seat = ((n - 1) % 2) as usize;
        let game_seed = derive_seed(seed, n as u64, 1);
        let house_seed = derive_seed(seed, n as u64, 2);
        // Both clients of our own server: its ports turn over between
        // games silently, and the games keep their session numbers.
        let ours = GatClientConfig {
            stop: Some(stop.clone()),
            first_game: n,
            own_server: true,
            ..client_config(settings, format!("127.0.0.1:{}", ports[seat]), 1, game_seed)
        };
        // The house bot plays its own time a move (server.house_time_ms),
        // not our time plan.
        let theirs = GatClientConfig {
            first_game: n,
            own_server: true,
            plan: None,
            ..client_config(
                &house_settings,
                format!("127.0.0.1:{}", ports[1 - seat]),
                1,
                house_seed,
            )
        };
        let mut finished = None;
        let (r, h) = tokio::join!(
            run_client(ours, |g| finished = Some(g.clone())),
            run_client(theirs, |_| {})
        );
        r.map_err(SessionError::Failed)?;
        h.map_err(|e| SessionError::Failed(format!("house bot: {e}")))?;
        if let Some(g) = finished {
            say(g.describe());
            summary.add(&g);
        }
    }
    if summary.stopped {
        // The server would wait for the games not played.
        server.abort();
    }
    let _ = server.await;
    Ok(summary)
}
