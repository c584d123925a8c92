//! One match between two seats: its games, the clock, results and records.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::mpsc;

use crate::games::PlayableGame;
use crate::model::{Seat, Turn};
use crate::platforms::ws::protocol::{ErrorCode, ServerMsg, YourResult};
use crate::records::{now_ms, EndReason, GameRecord};

use super::{shutdown_signal, MatchSlot, Shared};

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
    /// The player asked to end its match after the game in progress.
    Leave,
}

/// A player as its match sees it: where to send messages, where its moves
/// arrive.
pub(crate) struct SeatLink {
    pub name: String,
    pub out: mpsc::UnboundedSender<ServerMsg>,
    pub inbox: mpsc::UnboundedReceiver<SeatEvent>,
    /// The player sent `leave`: no game of this match starts after the
    /// one in progress.
    pub leaving: bool,
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
/// match after the game it ends; so does the server's shutdown, which
/// records the game in progress as aborted. `_slot` counts the match as
/// running until it returns.
pub(crate) async fn run_match<G: PlayableGame>(
    shared: Arc<Shared>,
    mut links: [SeatLink; 2],
    games: u32,
    _slot: MatchSlot,
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
                SeatEvent::Leave => l.leaving = true,
            }
        }
    }
    let mut tally = [Tally::default(); 2];
    let mut past_ids: Vec<String> = Vec::new();
    for number in 1..=games {
        if links.iter().any(|l| l.leaving) || *shutdown.borrow() || *shared.draining.borrow() {
            break;
        }
        // order[seat] = index into `links` of the player in that seat.
        let order = if number % 2 == 1 { [0, 1] } else { [1, 0] };
        let (game_id, end) = play_game::<G>(
            &shared,
            &mut links,
            order,
            number,
            games,
            &past_ids,
            &mut gone,
            &mut shutdown,
        )
        .await;
        if end.reason == EndReason::Aborted {
            // The server is stopping: its connections are closing.
            return;
        }
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

/// Plays one game; returns its id and how it ended (already recorded and
/// announced). Every turn asks the seats that must act (one, or both at
/// once), each with its own observation and its own clock; the actions of a
/// turn are applied, and shown, only once all of them are in. A shutdown
/// ends the game as aborted: recorded with the moves so far, not announced
/// (the connections are told `shutting_down`).
#[allow(clippy::too_many_arguments)]
async fn play_game<G: PlayableGame>(
    shared: &Shared,
    links: &mut [SeatLink; 2],
    order: [usize; 2],
    number: u32,
    of: u32,
    past_ids: &[String],
    gone: &mut [Option<String>; 2],
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
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
    let seed = shared.config.seed.wrapping_add(n);
    // The options were checked when the server started.
    let mut pos = match shared.config.game_options.get(G::ID) {
        Some(options) => G::start_with(seed, options).unwrap_or_else(|e| {
            tracing::error!(game = G::ID, error = %e, "game options refused: default start");
            G::start(seed)
        }),
        None => G::start(seed),
    };
    let start = pos.state_to_json();
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
            let turn = pos.turn();
            if let Turn::Over(o) = turn {
                break 'game GameEnd {
                    winner: o.winner(),
                    reason: EndReason::Rules,
                    detail: None,
                };
            }
            let movers = turn.movers();
            let ply = moves.len() as u32;
            let mut allowance = [0u64; 2];
            let mut deadline: [Option<Instant>; 2] = [None, None];
            let mut sent = [Instant::now(); 2];
            for &s in movers {
                allowance[s] = clock.allowance_ms(bank[s]);
                links[order[s]].send(ServerMsg::MoveRequest {
                    game_id: game_id.clone(),
                    ply,
                    state: G::obs_to_json(&pos.observe(s)),
                    your_time_ms: allowance[s],
                    remaining_ms: match bank {
                        [Some(a), Some(b)] => Some([a, b]),
                        _ => None,
                    },
                    time_per_move_ms: clock.time_per_move_ms,
                });
                sent[s] = Instant::now();
                deadline[s] = Some(sent[s] + Duration::from_millis(allowance[s]));
            }
            let got =
                match wait_for_moves(links, order, &game_id, past_ids, deadline, shutdown).await {
                    Ok(got) => got,
                    Err(Waited::Shutdown) => {
                        break 'game GameEnd {
                            winner: None,
                            reason: EndReason::Aborted,
                            detail: Some(format!(
                                "the server shut down at ply {ply}; nobody at fault"
                            )),
                        };
                    }
                    Err(Waited::Timeout(seats)) => {
                        let late: Vec<String> = seats
                            .iter()
                            .map(|&s| format!("seat {s} made no move within {} ms", allowance[s]))
                            .collect();
                        break 'game GameEnd {
                            // Both seats of a simultaneous turn late: a draw.
                            winner: if seats.len() == 1 {
                                Some(1 - seats[0])
                            } else {
                                None
                            },
                            reason: EndReason::Timeout,
                            detail: Some(late.join("; ")),
                        };
                    }
                    Err(Waited::Gone { player, detail }) => {
                        gone[player] = Some(detail.clone());
                        break 'game GameEnd {
                            winner: Some(1 - seat_of(player)),
                            reason: EndReason::Disconnect,
                            detail: Some(format!("seat {}: {detail}", seat_of(player))),
                        };
                    }
                    Err(Waited::WrongGame { seat: s, other }) => {
                        break 'game GameEnd {
                            winner: Some(1 - s),
                            reason: EndReason::IllegalMove,
                            detail: Some(format!(
                                "seat {s} sent a move for game '{other}' instead of '{game_id}'"
                            )),
                        }
                    }
                };
            // Judge every mover's answer; a fault loses (both at fault: a draw).
            let mut joint = [None, None];
            let mut used_ms = [0u64; 2];
            let mut faults: Vec<(Seat, EndReason, String)> = Vec::new();
            for &s in movers {
                let Some((mv, at)) = &got[s] else {
                    continue;
                };
                let used = at.saturating_duration_since(sent[s]);
                used_ms[s] = used.as_millis() as u64;
                if used > Duration::from_millis(allowance[s]) {
                    faults.push((
                        s,
                        EndReason::Timeout,
                        format!(
                            "seat {s} took {} ms, allowed {} ms",
                            used.as_millis(),
                            allowance[s]
                        ),
                    ));
                    continue;
                }
                match G::move_from_json(mv) {
                    Ok(m) if pos.is_legal_action(s, m) => joint[s] = Some(m),
                    Ok(_) => faults.push((
                        s,
                        EndReason::IllegalMove,
                        format!("seat {s} played illegal move {mv} at ply {ply}"),
                    )),
                    Err(e) => faults.push((
                        s,
                        EndReason::IllegalMove,
                        format!("seat {s} sent an unreadable move at ply {ply}: {e}"),
                    )),
                }
            }
            if let Some((s, reason, _)) = faults.first() {
                break 'game GameEnd {
                    winner: if faults.len() == 1 { Some(1 - s) } else { None },
                    reason: *reason,
                    detail: Some(
                        faults
                            .iter()
                            .map(|f| f.2.clone())
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                };
            }
            // What each viewer is shown, judged on the position before the turn.
            let shown: Vec<[Option<Value>; 2]> = movers
                .iter()
                .map(|&s| {
                    std::array::from_fn(|viewer| {
                        joint[s].and_then(|m| pos.shown_move(viewer, s, m))
                    })
                })
                .collect();
            pos.apply(joint);
            for (k, &s) in movers.iter().enumerate() {
                let Some((mv, _)) = &got[s] else {
                    continue;
                };
                bank[s] = clock.bank_after(bank[s], used_ms[s]);
                moves.push(mv.clone());
                move_ms.push(used_ms[s]);
                for viewer in 0..2 {
                    let shown = shown[k][viewer].clone();
                    links[order[viewer]].send(ServerMsg::MovePlayed {
                        game_id: game_id.clone(),
                        ply: ply + k as u32,
                        seat: s,
                        hidden: shown.is_none(),
                        mv: shown.unwrap_or(Value::Null),
                        ms: used_ms[s],
                    });
                }
            }
        }
    };

    let aborted = end.reason == EndReason::Aborted;
    let result = if aborted {
        GameRecord::ABORTED
    } else {
        GameRecord::result_string(end.winner)
    };
    tracing::info!(game_id, game = G::ID, result, reason = ?end.reason, detail = ?end.detail, moves = moves.len(), "game over");
    for seat in (0..2).filter(|_| !aborted) {
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
        let ending = match end.reason {
            EndReason::Rules => pos.ending().map(str::to_string),
            other => G::ending_keys().map(|_| other.key().to_string()),
        };
        let record = GameRecord {
            game: G::ID.to_string(),
            id: game_id.clone(),
            players: names,
            winner: end.winner,
            result: result.to_string(),
            reason: end.reason,
            detail: end.detail.clone(),
            start,
            moves,
            move_ms,
            opening: None,
            ending,
            started_ms,
            finished_ms: now_ms(),
            match_tag: None,
        };
        if let Err(e) = w.append(&record) {
            tracing::error!(game_id, path = %w.path().display(), error = %e, "cannot write the game record");
        }
    }
    (game_id, end)
}

/// Why a turn's moves did not all arrive.
enum Waited {
    /// The server is shutting down.
    Shutdown,
    /// These seats (one, or both at the same instant) ran out of time.
    Timeout(Vec<Seat>),
    /// Player index (into links) whose connection went away.
    Gone { player: usize, detail: String },
    /// A seat that must move sent a move for another game.
    WrongGame { seat: Seat, other: String },
}

/// A move as read, with the time the server read it.
type Arrived = Option<(Value, Instant)>;

/// Waits until every seat with a `deadline` has sent its move for this
/// turn, each by its own deadline, answering anything else meanwhile: a
/// move from a seat that need not (or already did) move is ignored with
/// `not_your_turn`, and a move for an earlier game with `stale_move`.
async fn wait_for_moves(
    links: &mut [SeatLink; 2],
    order: [usize; 2],
    game_id: &str,
    past_ids: &[String],
    deadline: [Option<Instant>; 2],
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
) -> Result<[Arrived; 2], Waited> {
    let mut got: [Arrived; 2] = [None, None];
    let pending = |got: &[Arrived; 2]| -> Vec<Seat> {
        (0..2)
            .filter(|&s| deadline[s].is_some() && got[s].is_none())
            .collect()
    };
    let (a, b) = links.split_at_mut(1);
    let (l0, l1) = (&mut a[0], &mut b[0]);
    // By seat.
    let (s0, s1) = if order[0] == 0 { (l0, l1) } else { (l1, l0) };
    loop {
        let waiting = pending(&got);
        if waiting.is_empty() {
            return Ok(got);
        }
        let next = waiting
            .iter()
            .filter_map(|&s| deadline[s])
            .min()
            .expect("a pending seat has a deadline");
        let sleep = tokio::time::sleep_until(tokio::time::Instant::from_std(next));
        let (seat, ev) = tokio::select! {
            biased;
            _ = shutdown_signal(shutdown) => return Err(Waited::Shutdown),
            ev = s0.inbox.recv() => (0, ev),
            ev = s1.inbox.recv() => (1, ev),
            _ = sleep => {
                let now = Instant::now();
                let late: Vec<Seat> = waiting
                    .into_iter()
                    .filter(|&s| deadline[s].is_some_and(|d| d <= now))
                    .collect();
                if late.is_empty() {
                    continue;
                }
                return Err(Waited::Timeout(late));
            }
        };
        let link = if seat == 0 { &*s0 } else { &*s1 };
        // A connection closed by the shutdown is no player's fault.
        if matches!(ev, None | Some(SeatEvent::Gone { .. })) && *shutdown.borrow() {
            return Err(Waited::Shutdown);
        }
        match ev {
            None => {
                return Err(Waited::Gone {
                    player: order[seat],
                    detail: "connection closed".into(),
                })
            }
            Some(SeatEvent::Leave) => {
                if seat == 0 {
                    s0.leaving = true
                } else {
                    s1.leaving = true
                }
            }
            Some(SeatEvent::Gone { detail }) => {
                return Err(Waited::Gone {
                    player: order[seat],
                    detail,
                })
            }
            Some(SeatEvent::Move {
                game_id: gid,
                mv,
                at,
            }) => {
                let must_move = deadline[seat].is_some() && got[seat].is_none();
                if past_ids.contains(&gid) {
                    link.send(stale(&gid));
                } else if !must_move {
                    link.send(ServerMsg::error(
                        ErrorCode::NotYourTurn,
                        format!("it is not your turn in game '{game_id}'; move ignored"),
                    ));
                } else if gid != game_id {
                    return Err(Waited::WrongGame { seat, other: gid });
                } else {
                    got[seat] = Some((mv, at));
                }
            }
        }
    }
}

fn stale(gid: &str) -> ServerMsg {
    ServerMsg::error(
        ErrorCode::StaleMove,
        format!("game '{gid}' is over; move ignored"),
    )
}
