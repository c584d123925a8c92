//! The house bot as a seat: a task that reads the same messages a remote
//! client would and answers `move_request`s by searching on a dedicated
//! search thread (never on a tokio worker).

use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::games::PlayableGame;
use crate::platforms::ws::protocol::ServerMsg;
use crate::runtime::SearchThread;
use crate::search::{Agent, Limits};

use super::game_loop::{SeatEvent, SeatLink, HOUSE_CONN};
use super::Shared;

/// Safety margin the house keeps from its allowance: a tenth of it, at most
/// 50 ms.
fn margin(cap: Duration) -> Duration {
    (cap / 10).min(Duration::from_millis(50))
}

/// Builds the house agent for `G` and starts its seat task. Errors with a
/// message for the client if there is no house bot or it cannot play `G`.
pub(crate) fn spawn<G: PlayableGame>(shared: &Shared, seed: u64) -> Result<SeatLink, String> {
    let Some(h) = &shared.config.house else {
        return Err("this server has no house bot".into());
    };
    let name = if h.agent == crate::games::DEFAULT_AGENT {
        G::house_agent()
    } else {
        h.agent.as_str()
    };
    let agent = G::build_agent(name, &h.params, seed)
        .map_err(|e| format!("the house bot cannot play {}: {e}", G::ID))?;
    let (out, out_rx) = mpsc::unbounded_channel();
    let link = SeatLink::new(h.name.replace("{agent}", agent.name()), HOUSE_CONN, out);
    tokio::spawn(run::<G>(
        agent,
        h.playouts,
        h.time_ms,
        out_rx,
        link.tx.clone(),
    ));
    Ok(link)
}

async fn run<G: PlayableGame>(
    agent: Box<dyn Agent<G>>,
    playouts: Option<u64>,
    time_ms: Option<u64>,
    mut out_rx: mpsc::UnboundedReceiver<ServerMsg>,
    ev_tx: mpsc::UnboundedSender<SeatEvent>,
) {
    let search = SearchThread::<G>::spawn(agent);
    while let Some(msg) = out_rx.recv().await {
        match msg {
            ServerMsg::GameStart { .. } => search.new_game(),
            ServerMsg::MoveRequest {
                game_id,
                ply,
                state,
                your_time_ms,
                ..
            } => {
                let at = Instant::now();
                // Our clock runs from here, as a connection's from writing the request.
                let asked = SeatEvent::Asked {
                    conn: HOUSE_CONN,
                    game_id: game_id.clone(),
                    ply,
                    at,
                };
                if ev_tx.send(asked).is_err() {
                    break;
                }
                let obs = match G::obs_from_json(&state) {
                    Ok(o) => o,
                    Err(e) => {
                        tracing::error!(game_id, error = %e, "house bot got a bad observation");
                        continue;
                    }
                };
                let cap = Duration::from_millis(your_time_ms);
                let limits = Limits::under_clock(playouts, time_ms, at, cap, margin(cap));
                match search.search(obs, limits).await {
                    Ok(d) => {
                        let ev = SeatEvent::Move {
                            conn: HOUSE_CONN,
                            game_id,
                            mv: G::move_to_json(d.mv),
                            at: Instant::now(),
                        };
                        if ev_tx.send(ev).is_err() {
                            break;
                        }
                    }
                    Err(e) => tracing::error!(game_id, error = %e, "house bot search failed"),
                }
            }
            _ => {}
        }
    }
}
