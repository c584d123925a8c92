//! One match between two seats: its games, the clock, results and records.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc;

use crate::games::PlayableGame;
use crate::platforms::ws::protocol::{ErrorCode, ServerMsg, YourResult};
use crate::records::{now_ms, EndReason, GameRecord};
use crate::search::{Outcome, Seat};

use super::{shutdown_signal, Shared};

/// What a seat's connection (or the house task) tells its match.
#[derive(Debug)]
pub(crate) enum SeatEvent {
    /// A `move` message, with the time the server read it.
    Move {
        game_id: String,
        mv: Value,
        at: Instant,
    },
    /// The connection closed or timed out.
    Gone { detail: String },
}

/// A player as its match sees it: where to send messages, where its moves
/// arrive.
pub(crate) struct SeatLink {
    pub name: String,
    pub out: mpsc::UnboundedSender<ServerMsg>,
    pub inbox: mpsc::UnboundedReceiver<SeatEvent>,
}

impl SeatLink {
    fn send(&self, msg: ServerMsg) {
        // A closed connection is noticed through `inbox`.
        let _ = self.out.send(msg);
    }
}

/// How one game ended.
struct GameEnd {
    winner: Option<Seat>,
    reason: EndReason,
    detail: Option<String>,
}

#[derive(Clone, Copy, Default)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
}

/// Plays up to `games` games between `links[0]` (seat 0 in odd-numbered
/// games) and `links[1]`, then sends both `match_over`. A disconnect ends the
/// match after the game it ends.
pub(crate) async fn run_match<G: PlayableGame>(
    shared: Arc<Shared>,
    mut links: [SeatLink; 2],
    games: u32,
) {
    let mut shutdown = shared.shutdown.clone();
    // Anything that arrived before the match began.
    let mut gone: [Option<String>; 2] = [None, None];
    for (i, l) in links.iter_mut().enumerate() {
        while let Ok(ev) = l.inbox.try_recv() {
            match ev {
                SeatEvent::Move { .. } => l.send(ServerMsg::error(
                    ErrorCode::NoGame,
                    "no game in progress (the match had not started)",
                )),
                SeatEvent::Gone { detail } => gone[i] = Some(detail),
            }
        }
    }
    let mut tally = [Tally::default(); 2];
    let mut past_ids: Vec<String> = Vec::new();
    for number in 1..=games {
        // order[seat] = index into `links` of the player in that seat.
        let order = if number % 2 == 1 { [0, 1] } else { [1, 0] };
        let game = play_game::<G>(
            &shared, &mut links, order, number, games, &past_ids, &mut gone,
        );
        let (game_id, end) = tokio::select! {
            r = game => r,
            _ = shutdown_signal(&mut shutdown) => return,
        };
        for (seat, &p) in order.iter().enumerate() {
            let t = &mut tally[p];
            t.games += 1;
            match YourResult::for_seat(end.winner, seat) {
                YourResult::Win => t.wins += 1,
                YourResult::Draw => t.draws += 1,
                YourResult::Loss => t.losses += 1,
            }
        }
        past_ids.push(game_id);
        if end.reason == EndReason::Disconnect {
            break;
        }
    }
    // Drop the inboxes first: a `hello` right after `match_over` must find
    // its connection free.
    let outs = links.map(|l| l.out);
    for (p, out) in outs.iter().enumerate() {
        let t = tally[p];
        let _ = out.send(ServerMsg::MatchOver {
            games: t.games,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
        });
    }
}

enum Waited {
    Move {
        mv: Value,
        at: Instant,
    },
    Timeout,
    /// Player index (into links) whose connection went away.
    Gone {
        player: usize,
        detail: String,
    },
    WrongGame(String),
}

/// Plays one game; returns its id and how it ended (already recorded and
/// announced).
async fn play_game<G: PlayableGame>(
    shared: &Shared,
    links: &mut [SeatLink; 2],
    order: [usize; 2],
    number: u32,
    of: u32,
    past_ids: &[String],
    gone: &mut [Option<String>; 2],
) -> (String, GameEnd) {
    let n = shared.next_game.fetch_add(1, Ordering::Relaxed);
    let game_id = format!("{}-{n}", shared.id_prefix);
    let clock = shared.config.clock;
    let names = [links[order[0]].name.clone(), links[order[1]].name.clone()];
    for seat in 0..2 {
        links[order[seat]].send(ServerMsg::GameStart {
            game_id: game_id.clone(),
            game: G::ID.to_string(),
            number,
            of,
            seat,
            opponent: names[1 - seat].clone(),
            clock: clock.info(),
        });
    }
    tracing::info!(game_id, game = G::ID, seat0 = %names[0], seat1 = %names[1], number, of, "game started");
    let started_ms = now_ms();
    let mut pos = G::start(shared.config.seed.wrapping_add(n));
    let mut bank = [clock.time_bank_ms; 2];
    let mut moves: Vec<Value> = Vec::new();
    let mut move_ms: Vec<u64> = Vec::new();
    let seat_of = |player: usize| if order[0] == player { 0 } else { 1 };

    let end = 'game: {
        for (player, g) in gone.iter().enumerate() {
            if let Some(detail) = g {
                break 'game GameEnd {
                    winner: Some(1 - seat_of(player)),
                    reason: EndReason::Disconnect,
                    detail: Some(detail.clone()),
                };
            }
        }
        loop {
            if let Some(o) = pos.outcome() {
                break 'game GameEnd {
                    winner: match o {
                        Outcome::Win(s) => Some(s),
                        Outcome::Draw => None,
                    },
                    reason: EndReason::Rules,
                    detail: None,
                };
            }
            let s = pos.to_move();
            let (p, q) = (order[s], order[1 - s]);
            let allowance = clock.allowance_ms(bank[s]);
            let ply = moves.len() as u32;
            links[p].send(ServerMsg::MoveRequest {
                game_id: game_id.clone(),
                ply,
                state: pos.state_to_json(),
                your_time_ms: allowance,
                remaining_ms: match bank {
                    [Some(a), Some(b)] => Some([a, b]),
                    _ => None,
                },
                time_per_move_ms: clock.time_per_move_ms,
            });
            let sent = Instant::now();
            let limit = Duration::from_millis(allowance);
            let waited = wait_for_move(links, p, q, &game_id, past_ids, sent + limit).await;
            let (mv, at) = match waited {
                Waited::Move { mv, at } => (mv, at),
                Waited::Timeout => {
                    break 'game GameEnd {
                        winner: Some(1 - s),
                        reason: EndReason::Timeout,
                        detail: Some(format!("seat {s} made no move within {allowance} ms")),
                    }
                }
                Waited::Gone { player, detail } => {
                    gone[player] = Some(detail.clone());
                    break 'game GameEnd {
                        winner: Some(1 - seat_of(player)),
                        reason: EndReason::Disconnect,
                        detail: Some(format!("seat {}: {detail}", seat_of(player))),
                    };
                }
                Waited::WrongGame(other) => {
                    break 'game GameEnd {
                        winner: Some(1 - s),
                        reason: EndReason::IllegalMove,
                        detail: Some(format!(
                            "seat {s} sent a move for game '{other}' instead of '{game_id}'"
                        )),
                    }
                }
            };
            let used = at.saturating_duration_since(sent);
            if used > limit {
                break 'game GameEnd {
                    winner: Some(1 - s),
                    reason: EndReason::Timeout,
                    detail: Some(format!(
                        "seat {s} took {} ms, allowed {allowance} ms",
                        used.as_millis()
                    )),
                };
            }
            let m = match G::move_from_json(&mv) {
                Ok(m) if pos.is_legal(m) => m,
                Ok(_) => {
                    break 'game GameEnd {
                        winner: Some(1 - s),
                        reason: EndReason::IllegalMove,
                        detail: Some(format!("seat {s} played illegal move {mv} at ply {ply}")),
                    }
                }
                Err(e) => {
                    break 'game GameEnd {
                        winner: Some(1 - s),
                        reason: EndReason::IllegalMove,
                        detail: Some(format!(
                            "seat {s} sent an unreadable move at ply {ply}: {e}"
                        )),
                    }
                }
            };
            let used_ms = used.as_millis() as u64;
            pos.play(m);
            bank[s] = clock.bank_after(bank[s], used_ms);
            moves.push(mv.clone());
            move_ms.push(used_ms);
            for seat in 0..2 {
                links[order[seat]].send(ServerMsg::MovePlayed {
                    game_id: game_id.clone(),
                    ply,
                    seat: s,
                    mv: mv.clone(),
                    ms: used_ms,
                });
            }
        }
    };

    let result = GameRecord::result_string(end.winner);
    tracing::info!(game_id, game = G::ID, result, reason = ?end.reason, detail = ?end.detail, moves = moves.len(), "game over");
    for seat in 0..2 {
        links[order[seat]].send(ServerMsg::GameOver {
            game_id: game_id.clone(),
            winner: end.winner,
            result: result.to_string(),
            reason: end.reason,
            detail: end.detail.clone(),
            your_result: YourResult::for_seat(end.winner, seat),
            moves: moves.len() as u32,
        });
    }
    if let Some(w) = &shared.records {
        let record = GameRecord {
            game: G::ID.to_string(),
            id: game_id.clone(),
            players: names,
            winner: end.winner,
            result: result.to_string(),
            reason: end.reason,
            detail: end.detail.clone(),
            moves,
            move_ms,
            ending: None,
            setups: None,
            started_ms,
            finished_ms: now_ms(),
        };
        if let Err(e) = w.append(&record) {
            tracing::error!(game_id, path = %w.path().display(), error = %e, "cannot write the game record");
        }
    }
    (game_id, end)
}

/// Waits for player `p`'s move until `deadline`, answering anything else
/// either player sends meanwhile.
async fn wait_for_move(
    links: &mut [SeatLink; 2],
    p: usize,
    q: usize,
    game_id: &str,
    past_ids: &[String],
    deadline: Instant,
) -> Waited {
    let (a, b) = links.split_at_mut(1);
    let (mover, other) = if p == 0 {
        (&mut a[0], &mut b[0])
    } else {
        (&mut b[0], &mut a[0])
    };
    let sleep = tokio::time::sleep_until(tokio::time::Instant::from_std(deadline));
    tokio::pin!(sleep);
    loop {
        tokio::select! {
            biased;
            ev = mover.inbox.recv() => match ev {
                None => return Waited::Gone { player: p, detail: "connection closed".into() },
                Some(SeatEvent::Gone { detail }) => return Waited::Gone { player: p, detail },
                Some(SeatEvent::Move { game_id: gid, mv, at }) => {
                    if gid == game_id {
                        return Waited::Move { mv, at };
                    }
                    if past_ids.contains(&gid) {
                        mover.send(stale(&gid));
                        continue;
                    }
                    return Waited::WrongGame(gid);
                }
            },
            ev = other.inbox.recv() => match ev {
                None => return Waited::Gone { player: q, detail: "connection closed".into() },
                Some(SeatEvent::Gone { detail }) => return Waited::Gone { player: q, detail },
                Some(SeatEvent::Move { game_id: gid, .. }) => {
                    if past_ids.contains(&gid) {
                        other.send(stale(&gid));
                    } else {
                        other.send(ServerMsg::error(
                            ErrorCode::NotYourTurn,
                            format!("it is not your turn in game '{game_id}'; move ignored"),
                        ));
                    }
                }
            },
            _ = &mut sleep => return Waited::Timeout,
        }
    }
}

fn stale(gid: &str) -> ServerMsg {
    ServerMsg::error(
        ErrorCode::StaleMove,
        format!("game '{gid}' is over; move ignored"),
    )
}
