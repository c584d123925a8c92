//! One match between two seats: its games, the clock, results and records.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::games::PlayableGame;
use crate::model::{Seat, Turn};
use crate::platforms::ws::protocol::{ErrorCode, ServerMsg, YourResult};
use crate::records::{now_ms, EndReason, GameRecord, Opening};

use super::spectate::Started;
use super::{shutdown_signal, MatchSlot, Shared};

/// What a seat's connection (or the house task) tells its match; `conn`
/// is the sending connection's id: only the connection that holds the seat
/// is heard.
#[derive(Debug)]
pub(crate) enum SeatEvent {
    /// A `move` message, with the time the server read it.
    Move {
        conn: u64,
        game_id: String,
        mv: Value,
        at: Instant,
    },
    /// The connection wrote the `move_request` of `ply` in `game_id` to its
    /// socket at `at` (the house task: took it at `at`): the mover's clock
    /// runs from then, not from when the match queued it.
    Asked {
        conn: u64,
        game_id: String,
        ply: u32,
        at: Instant,
    },
    /// The connection closed or timed out.
    Gone { conn: u64, detail: String },
    /// The player asked to end its match after the game in progress.
    Leave { conn: u64 },
    /// Connection `conn` showed the seat's token (`hello.resume`): it
    /// holds the seat from now on, and `out` reaches it.
    Rebind {
        conn: u64,
        out: mpsc::UnboundedSender<ServerMsg>,
    },
}

/// The id the house task's events carry.
pub(crate) const HOUSE_CONN: u64 = u64::MAX;

/// A player as its match sees it: where to send messages, where its moves
/// arrive.
pub(crate) struct SeatLink {
    pub name: String,
    pub out: mpsc::UnboundedSender<ServerMsg>,
    pub inbox: mpsc::UnboundedReceiver<SeatEvent>,
    /// A sender into `inbox`, handed to a connection that resumes the seat.
    pub tx: mpsc::UnboundedSender<SeatEvent>,
    /// The connection holding the seat; `None` while it is away.
    pub conn: Option<u64>,
    /// Since when, and why, the seat has been away (its connection went).
    pub away: Option<(Instant, String)>,
    /// The player sent `leave`: no game of this match starts after the
    /// one in progress.
    pub leaving: bool,
    /// What the seat was sent of the game in progress (or just over):
    /// `game_start`, `move_played`, `game_over`; sent again on a resume.
    replay: Vec<ServerMsg>,
    /// The `move_request` the seat has not answered yet, and its deadline.
    request: Option<(ServerMsg, Instant)>,
}

impl SeatLink {
    /// A link held by connection (or house task) `conn`.
    pub fn new(name: String, conn: u64, out: mpsc::UnboundedSender<ServerMsg>) -> Self {
        let (tx, inbox) = mpsc::unbounded_channel();
        SeatLink {
            name,
            out,
            inbox,
            tx,
            conn: Some(conn),
            away: None,
            leaving: false,
            replay: Vec::new(),
            request: None,
        }
    }

    /// Sends `msg` to the seat (kept for a resume if it is part of the
    /// game's story). A closed connection is noticed through `inbox`.
    fn send(&mut self, msg: ServerMsg) {
        if matches!(
            msg,
            ServerMsg::GameStart { .. } | ServerMsg::MovePlayed { .. } | ServerMsg::GameOver { .. }
        ) {
            self.replay.push(msg.clone());
        }
        let _ = self.out.send(msg);
    }

    /// Sends a `move_request` due by `deadline`.
    fn ask(&mut self, request: ServerMsg, deadline: Instant) {
        let _ = self.out.send(request.clone());
        self.request = Some((request, deadline));
    }

    /// The pending request's clock starts again at `deadline` (its request
    /// reached the connection later than it was queued).
    fn restart(&mut self, deadline: Instant) {
        if let Some((_, d)) = &mut self.request {
            *d = deadline;
        }
    }

    /// Sends a connection that just resumed the seat the game so far (its
    /// `game_start` marked `resumed`) and the pending request, if any, with
    /// the time left on its clock.
    fn resend(&self) {
        for msg in &self.replay {
            let msg = match msg {
                ServerMsg::GameStart { .. } => {
                    let mut m = msg.clone();
                    if let ServerMsg::GameStart { resumed, .. } = &mut m {
                        *resumed = true;
                    }
                    m
                }
                other => other.clone(),
            };
            let _ = self.out.send(msg);
        }
        if let Some((request, deadline)) = &self.request {
            let mut m = request.clone();
            if let ServerMsg::MoveRequest { your_time_ms, .. } = &mut m {
                *your_time_ms = deadline
                    .saturating_duration_since(Instant::now())
                    .as_millis() as u64;
            }
            let _ = self.out.send(m);
        }
    }

    /// Applies an event that is not a move; returns a move from the
    /// connection holding the seat (`None`: nothing to judge) and whether
    /// a connection just took the seat back.
    fn absorb(&mut self, ev: SeatEvent, what: &str) -> (Option<(String, Value, Instant)>, bool) {
        match ev {
            SeatEvent::Move {
                conn,
                game_id,
                mv,
                at,
            } => {
                if self.conn == Some(conn) {
                    return (Some((game_id, mv, at)), false);
                }
                tracing::debug!(conn, player = %self.name, "move from a connection that no longer holds the seat; ignored");
            }
            SeatEvent::Gone { conn, detail } => {
                if self.conn == Some(conn) {
                    tracing::info!(conn, player = %self.name, detail, during = what, "seat's connection went; it may resume with its seat token");
                    self.conn = None;
                    self.away = Some((Instant::now(), detail));
                }
            }
            SeatEvent::Leave { conn } => {
                if self.conn == Some(conn) {
                    self.leaving = true;
                }
            }
            // Heard by the turn it belongs to (`wait_for_moves`); a late one is moot.
            SeatEvent::Asked { .. } => {}
            SeatEvent::Rebind { conn, out } => {
                if self.conn.is_some() {
                    // A live connection is replaced (half-open, or a
                    // client that reconnected before the server noticed).
                    self.send(ServerMsg::error(
                        ErrorCode::Replaced,
                        "another connection resumed this seat with its token",
                    ));
                }
                let away_ms = self
                    .away
                    .as_ref()
                    .map(|(t, _)| t.elapsed().as_millis() as u64);
                tracing::info!(conn, player = %self.name, away_ms, during = what, "seat resumed");
                self.out = out;
                self.conn = Some(conn);
                self.away = None;
                self.resend();
                return (None, true);
            }
        }
        (None, false)
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

/// A match's players as a resuming connection finds them: by player (index
/// into the match's links, not seat), the secret each was given and where
/// its events go.
pub(crate) struct Resumable {
    pub tokens: [String; 2],
    pub tx: [mpsc::UnboundedSender<SeatEvent>; 2],
}

/// A fresh seat token: 128 random bits from the operating system's
/// generator, in hex.
fn new_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Keeps a match's game ids in the server's resume registry while the match
/// runs; removes them when dropped.
struct Registered<'a> {
    shared: &'a Shared,
    ids: Vec<String>,
}

impl Registered<'_> {
    fn add(&mut self, game_id: &str, seats: &Arc<Resumable>) {
        self.shared
            .lock_resumable()
            .insert(game_id.to_string(), seats.clone());
        self.ids.push(game_id.to_string());
    }
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        let mut map = self.shared.lock_resumable();
        for id in &self.ids {
            map.remove(id);
        }
    }
}

/// Plays up to `games` games between `links[0]` (seat 0 in odd-numbered
/// games) and `links[1]`, then sends both `match_over`. A player whose
/// connection drops may resume its seat (`hello.resume`) within the
/// server's resume window and its clock; a game that ends with a player
/// still away ends the match once the window has passed. The server's
/// shutdown records the game in progress as aborted. `_slot` counts the
/// match as running until it returns.
pub(crate) async fn run_match<G: PlayableGame>(
    shared: Arc<Shared>,
    mut links: [SeatLink; 2],
    games: u32,
    _slot: MatchSlot,
) {
    let mut shutdown = shared.shutdown.clone();
    let seats = Arc::new(Resumable {
        tokens: [new_token(), new_token()],
        tx: [links[0].tx.clone(), links[1].tx.clone()],
    });
    let mut registered = Registered {
        shared: &shared,
        ids: Vec::new(),
    };
    // Anything that arrived before the match began.
    for l in links.iter_mut() {
        while let Ok(ev) = l.inbox.try_recv() {
            if l.absorb(ev, "the match start").0.is_some() {
                l.send(ServerMsg::error(
                    ErrorCode::NoGame,
                    "no game in progress (the match had not started)",
                ));
            }
        }
    }
    let mut tally = [Tally::default(); 2];
    // The opening of the pair of games in progress (games 2k-1 and 2k of
    // the match, the seats swapped), with an opening suite for the game.
    let mut opening: Option<&Opening> = None;
    for number in 1..=games {
        if links.iter().any(|l| l.leaving) || *shutdown.borrow() || *shared.draining.borrow() {
            break;
        }
        // order[seat] = index into `links` of the player in that seat.
        let order = if number % 2 == 1 { [0, 1] } else { [1, 0] };
        if number % 2 == 1 {
            opening = shared.next_opening(G::ID);
        }
        let n = shared.next_game.fetch_add(1, Ordering::Relaxed);
        let game_id = format!("{}-{n}", shared.id_prefix);
        registered.add(&game_id, &seats);
        let end = play_game::<G>(
            &shared,
            &mut links,
            Game {
                id: &game_id,
                n,
                order,
                number,
                of: games,
                tokens: &seats.tokens,
                past_ids: &registered.ids,
                opening,
            },
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
        // A player that did not come back in time ends the match; one away
        // when the game ended for another reason may still come back.
        if end.reason == EndReason::Disconnect
            || !await_return(&shared, &mut links, &registered.ids, &mut shutdown).await
        {
            break;
        }
    }
    // No connection can resume a seat of this match from here on; take in
    // what was sent before that, so `match_over` reaches the connection
    // that holds each seat.
    drop(registered);
    for l in links.iter_mut() {
        while let Ok(ev) = l.inbox.try_recv() {
            if let (Some((gid, _, _)), _) = l.absorb(ev, "the match end") {
                l.send(stale(&gid));
            }
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

/// After a game: waits for any player who is away to resume, until its
/// resume window has passed. True when both players are there (the match
/// may go on).
async fn await_return(
    shared: &Shared,
    links: &mut [SeatLink; 2],
    past_ids: &[String],
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
) -> bool {
    let window = shared.config.limits.resume_window;
    for l in links.iter_mut() {
        while let Some((since, _)) = &l.away {
            let until = *since + window;
            let ev = tokio::select! {
                biased;
                _ = shutdown_signal(shutdown) => return false,
                ev = l.inbox.recv() => ev,
                _ = tokio::time::sleep_until(tokio::time::Instant::from_std(until)) => return false,
            };
            let Some(ev) = ev else { return false };
            if let (Some((gid, _, _)), _) = l.absorb(ev, "the pause between games") {
                if past_ids.contains(&gid) {
                    l.send(stale(&gid));
                }
            }
        }
    }
    true
}

/// Which game of a match to play.
struct Game<'a> {
    id: &'a str,
    /// The server's game counter (seeds the start).
    n: u64,
    /// order[seat] = index into the links of the player in that seat.
    order: [usize; 2],
    number: u32,
    of: u32,
    /// Seat tokens by player.
    tokens: &'a [String; 2],
    /// This match's games so far, this one last.
    past_ids: &'a [String],
    /// The moves the game starts after (an opening of the server's suite
    /// for the game): played on the start before anyone is asked, and
    /// recorded as the first moves (0 ms each) with the record's `opening`.
    opening: Option<&'a Opening>,
}

/// Plays one game; returns how it ended (already recorded and announced).
/// Every turn asks the seats that must act (one, or both at once), each
/// with its own observation and its own clock; the actions of a turn are
/// applied, and shown, only once all of them are in. A shutdown ends the
/// game as aborted: recorded with the moves so far, not announced (the
/// connections are told `shutting_down`).
async fn play_game<G: PlayableGame>(
    shared: &Shared,
    links: &mut [SeatLink; 2],
    game: Game<'_>,
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
) -> GameEnd {
    let Game {
        id: game_id,
        n,
        order,
        number,
        of,
        tokens,
        past_ids,
        opening,
    } = game;
    let game_id = game_id.to_string();
    let clock = shared.config.clock;
    let names = [links[order[0]].name.clone(), links[order[1]].name.clone()];
    for seat in 0..2 {
        let link = &mut links[order[seat]];
        link.replay.clear();
        link.request = None;
        link.send(ServerMsg::GameStart {
            game_id: game_id.clone(),
            game: G::ID.to_string(),
            number,
            of,
            seat,
            opponent: names[1 - seat].clone(),
            clock: clock.info(),
            // No token where no resume is allowed.
            seat_token: (!shared.config.limits.resume_window.is_zero())
                .then(|| tokens[order[seat]].clone()),
            resumed: false,
        });
    }
    tracing::info!(game_id, game = G::ID, seat0 = %names[0], seat1 = %names[1], number, of, opening = opening.map(|o| o.index), "game started");
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
    // The record's start is the game's; an opening's moves come first in
    // its `moves`, as in `ladderbot match --openings`.
    let start = pos.state_to_json();
    let mut moves: Vec<Value> = Vec::new();
    let mut move_ms: Vec<u64> = Vec::new();
    let opening = opening.filter(|o| {
        let mut after = pos.clone();
        match crate::games::apply_moves(&mut after, &o.moves) {
            Ok(()) => {
                pos = after;
                moves.extend(o.moves.iter().cloned());
                move_ms.resize(moves.len(), 0);
                true
            }
            Err(e) => {
                // Cannot happen: the suite was checked when the server started.
                tracing::error!(game_id, game = G::ID, opening = o.index, line = o.line, error = %e.message, "the opening does not apply: the game starts from the start");
                false
            }
        }
    });
    // Spectators, like the players, start from the position after the
    // opening (if any).
    shared.spectators.start(Started {
        n,
        id: &game_id,
        game: G::ID,
        players: names.clone(),
        number,
        of,
        started_ms,
        public: &pos.public_json(),
        truth: &pos.state_to_json(),
    });
    let mut bank = [clock.time_bank_ms; 2];
    let past = &past_ids[..past_ids.len().saturating_sub(1)];

    let end = 'game: {
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
            let mut turn_clock = TurnClock::new();
            for &s in movers {
                let allowance = clock.allowance_ms(bank[s]);
                let request = ServerMsg::MoveRequest {
                    game_id: game_id.clone(),
                    ply,
                    state: G::obs_to_json(&pos.observe(s)),
                    your_time_ms: allowance,
                    remaining_ms: match bank {
                        [Some(a), Some(b)] => Some([a, b]),
                        _ => None,
                    },
                    time_per_move_ms: clock.time_per_move_ms,
                };
                let link = &mut links[order[s]];
                let deadline = turn_clock.ask(s, allowance, link.conn);
                link.ask(request, deadline);
            }
            let allowance = turn_clock.allowance;
            let window = shared.config.limits.resume_window;
            let turn = Turned {
                game_id: &game_id,
                ply,
                past_ids: past,
            };
            let got = match wait_for_moves(links, order, &turn, &mut turn_clock, window, shutdown)
                .await
            {
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
                    // A seat away when its time ran out lost by disconnect.
                    let away: Vec<&(Instant, String)> = seats
                        .iter()
                        .filter_map(|&s| links[order[s]].away.as_ref())
                        .collect();
                    let reason = if away.len() == seats.len() {
                        EndReason::Disconnect
                    } else {
                        EndReason::Timeout
                    };
                    let late: Vec<String> = seats
                        .iter()
                        .map(|&s| match &links[order[s]].away {
                            Some((_, why)) => format!(
                                "seat {s} left ({why}) and did not come back within its {} ms",
                                allowance[s]
                            ),
                            None => format!(
                                "seat {s} made no move within {} ms{}",
                                allowance[s],
                                turn_clock.held(s)
                            ),
                        })
                        .collect();
                    break 'game GameEnd {
                        // Both seats of a simultaneous turn late: a draw.
                        winner: if seats.len() == 1 {
                            Some(1 - seats[0])
                        } else {
                            None
                        },
                        reason,
                        detail: Some(late.join("; ")),
                    };
                }
                Err(Waited::Gone { seat, detail }) => {
                    break 'game GameEnd {
                        winner: Some(1 - seat),
                        reason: EndReason::Disconnect,
                        detail: Some(if window.is_zero() {
                            format!("seat {seat}: {detail}")
                        } else {
                            format!(
                                "seat {seat} left ({detail}) and did not come back within {} ms",
                                window.as_millis()
                            )
                        }),
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
                let used = at.saturating_duration_since(turn_clock.sent[s]);
                used_ms[s] = used.as_millis() as u64;
                if used > Duration::from_millis(allowance[s]) {
                    faults.push((
                        s,
                        EndReason::Timeout,
                        format!(
                            "seat {s} took {} ms, allowed {} ms{}",
                            used.as_millis(),
                            allowance[s],
                            turn_clock.held(s)
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
            let first = moves.len();
            let (mut seen, mut full, mut ms) = (Vec::new(), Vec::new(), Vec::new());
            for (k, &s) in movers.iter().enumerate() {
                let Some((mv, _)) = &got[s] else {
                    continue;
                };
                // Spectators see what the mover's opponent sees.
                seen.push(shown[k][1 - s].clone().unwrap_or(Value::Null));
                full.push(mv.clone());
                ms.push(used_ms[s]);
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
            let turn = |moves: Vec<Value>| json!({"movers": movers, "first": first, "moves": moves, "ms": ms});
            shared.spectators.turn(
                n,
                &turn(seen),
                &turn(full),
                &pos.public_json(),
                &pos.state_to_json(),
            );
        }
    };

    let aborted = end.reason == EndReason::Aborted;
    let result = if aborted {
        GameRecord::ABORTED
    } else {
        GameRecord::result_string(end.winner)
    };
    tracing::info!(game_id, game = G::ID, result, reason = ?end.reason, detail = ?end.detail, moves = moves.len(), "game over");
    let n_moves = moves.len() as u32;
    let ending = match end.reason {
        EndReason::Rules => pos.ending().map(str::to_string),
        other => G::ending_keys().map(|_| other.key().to_string()),
    };
    // The record is written before the game is announced: a client that
    // sees its game over finds the game in the records.
    if let Some(w) = &shared.records {
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
            opening: opening.cloned(),
            ending: ending.clone(),
            started_ms,
            finished_ms: now_ms(),
            match_tag: None,
            analysis: None,
        };
        if let Err(e) = w.append(&record) {
            tracing::error!(game_id, path = %w.path().display(), error = %e, "cannot write the game record");
        }
    }
    for seat in (0..2).filter(|_| !aborted) {
        let link = &mut links[order[seat]];
        link.request = None;
        link.send(ServerMsg::GameOver {
            game_id: game_id.clone(),
            winner: end.winner,
            result: result.to_string(),
            reason: end.reason,
            detail: end.detail.clone(),
            your_result: YourResult::for_seat(end.winner, seat),
            moves: n_moves,
        });
    }
    shared.spectators.end(
        n,
        json!({
            "winner": end.winner,
            "result": result,
            "reason": end.reason.key(),
            "detail": end.detail,
            "ending": ending,
        }),
    );
    end
}

/// Why a turn's moves did not all arrive.
enum Waited {
    /// The server is shutting down.
    Shutdown,
    /// These seats (one, or both at the same instant) ran out of time.
    Timeout(Vec<Seat>),
    /// This seat's connection went and it did not resume within the
    /// resume window.
    Gone { seat: Seat, detail: String },
    /// A seat that must move sent a move for another game.
    WrongGame { seat: Seat, other: String },
}

/// A move as read, with the time the server read it.
type Arrived = Option<(Value, Instant)>;

/// The turn a [`wait_for_moves`] waits on: its game, its first ply, and the
/// games of the match already over.
struct Turned<'a> {
    game_id: &'a str,
    ply: u32,
    past_ids: &'a [String],
}

/// The clocks of one turn's requests. A mover's allowance runs from when
/// its connection wrote the request to its socket ([`SeatEvent::Asked`]),
/// like a referee that starts an engine's clock once its command is
/// written: a request the server holds in its own queue (a loaded server
/// can, for a few milliseconds) costs the player nothing. Until the
/// connection says so, the clock runs from when the request was queued,
/// and a seat whose request its connection has not written yet is never
/// timed out (that connection either writes it or goes).
struct TurnClock {
    /// Each mover's allowance (ms); 0 for a seat that does not move.
    allowance: [u64; 2],
    /// When each mover's request was queued.
    queued: [Instant; 2],
    /// When each mover's clock started: queued, then written.
    sent: [Instant; 2],
    /// Movers: the connection their request went to (`None`: the seat was
    /// away, its clock running).
    to: [Option<Option<u64>>; 2],
    /// The request's connection said it was written.
    written: [bool; 2],
}

impl TurnClock {
    fn new() -> Self {
        let now = Instant::now();
        TurnClock {
            allowance: [0; 2],
            queued: [now; 2],
            sent: [now; 2],
            to: [None; 2],
            written: [false; 2],
        }
    }

    /// Seat `s` is asked to move within `allowance_ms`, its request queued
    /// now for connection `conn`; the deadline as it stands.
    fn ask(&mut self, s: Seat, allowance_ms: u64, conn: Option<u64>) -> Instant {
        self.allowance[s] = allowance_ms;
        self.queued[s] = Instant::now();
        self.sent[s] = self.queued[s];
        self.to[s] = Some(conn);
        self.deadline(s).unwrap_or(self.sent[s])
    }

    /// The seat must move by then (`None`: it does not move this turn).
    fn deadline(&self, s: Seat) -> Option<Instant> {
        self.to[s].map(|_| self.sent[s] + Duration::from_millis(self.allowance[s]))
    }

    /// Connection `conn` wrote seat `s`'s request at `at`: the new deadline
    /// if the clock starts again (only the first word from the connection
    /// the request went to counts).
    fn written(&mut self, s: Seat, conn: u64, at: Instant) -> Option<Instant> {
        if self.to[s] != Some(Some(conn)) || self.written[s] {
            return None;
        }
        self.written[s] = true;
        if at > self.sent[s] {
            self.sent[s] = at;
        }
        self.deadline(s)
    }

    /// For a timeout's detail: how long the server held seat `s`'s request
    /// before its connection wrote it, or that it never said it did.
    fn held(&self, s: Seat) -> String {
        if self.written[s] {
            format!(
                " (its request written {:.1} ms after it was queued)",
                (self.sent[s] - self.queued[s]).as_secs_f64() * 1e3
            )
        } else {
            " (its request's writing not confirmed: timed from its queueing)".into()
        }
    }

    /// Whether seat `s`'s clock can run out, its seat now held by `holder`:
    /// the request was written, or the connection it went to no longer
    /// holds the seat (or there was none).
    fn running(&self, s: Seat, holder: Option<u64>) -> bool {
        self.written[s] || self.to[s].is_some_and(|to| to.is_none() || to != holder)
    }
}

/// Waits until every seat with a deadline ([`TurnClock`]) has sent its
/// move for this turn, each by its own deadline, answering anything else
/// meanwhile: a move from a seat that need not (or already did) move is
/// ignored with `not_your_turn`, and a move for an earlier game with
/// `stale_move`. A seat whose connection goes stays in the game, its clock
/// running, for at most `window`: a connection that resumes it gets the
/// game so far and the pending request again.
async fn wait_for_moves(
    links: &mut [SeatLink; 2],
    order: [usize; 2],
    turn: &Turned<'_>,
    clock: &mut TurnClock,
    window: Duration,
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
) -> Result<[Arrived; 2], Waited> {
    let game_id = turn.game_id;
    let mut got: [Arrived; 2] = [None, None];
    let (a, b) = links.split_at_mut(1);
    let (l0, l1) = (&mut a[0], &mut b[0]);
    // By seat.
    let (s0, s1) = if order[0] == 0 { (l0, l1) } else { (l1, l0) };
    loop {
        let waiting: Vec<Seat> = (0..2)
            .filter(|&s| clock.deadline(s).is_some() && got[s].is_none())
            .collect();
        if waiting.is_empty() {
            return Ok(got);
        }
        let holder = |s: Seat| if s == 0 { s0.conn } else { s1.conn };
        // A seat away past the window is gone, whether it must move or not.
        let back_by = |l: &SeatLink| l.away.as_ref().map(|(t, _)| *t + window);
        let next = waiting
            .iter()
            .filter(|&&s| clock.running(s, holder(s)))
            .filter_map(|&s| clock.deadline(s))
            .chain(back_by(s0))
            .chain(back_by(s1))
            .min();
        // Nothing to time: a request not written yet, whose connection
        // will write it or go.
        let sleep = async move {
            match next {
                Some(t) => tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await,
                None => std::future::pending::<()>().await,
            }
        };
        let (seat, ev) = tokio::select! {
            biased;
            _ = shutdown_signal(shutdown) => return Err(Waited::Shutdown),
            ev = s0.inbox.recv() => (0, ev),
            ev = s1.inbox.recv() => (1, ev),
            _ = sleep => {
                let now = Instant::now();
                let late: Vec<Seat> = waiting
                    .into_iter()
                    .filter(|&s| {
                        clock.running(s, holder(s))
                            && clock.deadline(s).is_some_and(|d| d <= now)
                    })
                    .collect();
                if !late.is_empty() {
                    return Err(Waited::Timeout(late));
                }
                for (s, l) in [(0, &*s0), (1, &*s1)] {
                    if let Some((since, why)) = &l.away {
                        if *since + window <= now {
                            return Err(Waited::Gone { seat: s, detail: why.clone() });
                        }
                    }
                }
                continue;
            }
        };
        // A connection closed by the shutdown is no player's fault.
        if matches!(ev, None | Some(SeatEvent::Gone { .. })) && *shutdown.borrow() {
            return Err(Waited::Shutdown);
        }
        let link = if seat == 0 { &mut *s0 } else { &mut *s1 };
        let Some(ev) = ev else {
            // Every sender is gone (cannot happen while the link holds one).
            return Err(Waited::Gone {
                seat,
                detail: "connection closed".into(),
            });
        };
        if let SeatEvent::Asked {
            conn,
            game_id: gid,
            ply,
            at,
        } = &ev
        {
            if gid == game_id && *ply == turn.ply {
                if let Some(deadline) = clock.written(seat, *conn, *at) {
                    link.restart(deadline);
                }
            }
            continue;
        }
        let (Some((gid, mv, at)), _) = link.absorb(ev, game_id) else {
            continue;
        };
        let must_move = clock.deadline(seat).is_some() && got[seat].is_none();
        if turn.past_ids.contains(&gid) {
            link.send(stale(&gid));
        } else if !must_move {
            link.send(ServerMsg::error(
                ErrorCode::NotYourTurn,
                format!("it is not your turn in game '{game_id}'; move ignored"),
            ));
        } else if gid != game_id {
            return Err(Waited::WrongGame { seat, other: gid });
        } else {
            link.request = None;
            got[seat] = Some((mv, at));
        }
    }
}

fn stale(gid: &str) -> ServerMsg {
    ServerMsg::error(
        ErrorCode::StaleMove,
        format!("game '{gid}' is over; move ignored"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seat event made from the instant the turn's request was queued.
    type Event = Box<dyn FnOnce(Instant) -> SeatEvent + Send>;

    /// Seat 0 of two links (connections 7 and 8) asked to move within
    /// `allowance_ms`; what `wait_for_moves` returns when `events` reach
    /// seat 0's inbox, each after its delay from the start.
    async fn turn_with(
        allowance_ms: u64,
        events: Vec<(u64, Event)>,
    ) -> Result<[Arrived; 2], Waited> {
        let (out0, _rx0) = mpsc::unbounded_channel();
        let (out1, _rx1) = mpsc::unbounded_channel();
        let mut links = [
            SeatLink::new("a".into(), 7, out0),
            SeatLink::new("b".into(), 8, out1),
        ];
        let mut clock = TurnClock::new();
        let t0 = clock.ask(0, allowance_ms, links[0].conn) - Duration::from_millis(allowance_ms);
        let tx = links[0].tx.clone();
        tokio::spawn(async move {
            let mut waited = 0;
            for (after, ev) in events {
                tokio::time::sleep(Duration::from_millis(after - waited)).await;
                waited = after;
                let _ = tx.send(ev(t0));
            }
        });
        let (_stop, mut shutdown) = tokio::sync::watch::channel(false);
        let turn = Turned {
            game_id: "g",
            ply: 4,
            past_ids: &[],
        };
        wait_for_moves(
            &mut links,
            [0, 1],
            &turn,
            &mut clock,
            Duration::ZERO,
            &mut shutdown,
        )
        .await
    }

    fn asked(conn: u64, ply: u32, after_ms: u64) -> Event {
        Box::new(move |t0| SeatEvent::Asked {
            conn,
            game_id: "g".into(),
            ply,
            at: t0 + Duration::from_millis(after_ms),
        })
    }

    fn a_move() -> Event {
        Box::new(|_| SeatEvent::Move {
            conn: 7,
            game_id: "g".into(),
            mv: json!(3),
            at: Instant::now(),
        })
    }

    #[tokio::test]
    async fn the_clock_runs_from_the_written_request() {
        // Control: the request written at once, the move 300 ms later, 50 ms allowed.
        let r = turn_with(50, vec![(0, asked(7, 4, 0)), (300, a_move())]).await;
        assert!(
            matches!(r, Err(Waited::Timeout(ref s)) if s == &[0]),
            "a late move times out"
        );
        // The connection wrote the request 400 ms after it was queued: the
        // same move, 300 ms after the queueing, is in time.
        let r = turn_with(50, vec![(0, asked(7, 4, 400)), (300, a_move())]).await;
        let got =
            r.unwrap_or_else(|_| panic!("the move arrives within the written request's time"));
        assert_eq!(got[0].as_ref().map(|m| m.0.clone()), Some(json!(3)));
    }

    #[tokio::test]
    async fn only_the_requests_own_writing_restarts_its_clock() {
        // Another ply, another connection: neither restarts the clock.
        for other in [asked(7, 5, 400), asked(9, 4, 400)] {
            let r = turn_with(50, vec![(0, other), (300, a_move())]).await;
            let unwritten_then_moved = matches!(r, Ok(ref got) if got[0].is_some());
            // The request's own connection has not said it wrote it: the
            // seat is not timed out while it may, and its move is judged on
            // the clock from the queueing (`TurnClock::sent` unchanged).
            assert!(unwritten_then_moved, "an unwritten request is waited for");
        }
    }

    #[test]
    fn a_turn_clock_starts_once_from_the_first_writing() {
        let mut c = TurnClock::new();
        let d = c.ask(1, 100, Some(7));
        assert_eq!(c.deadline(0), None, "seat 0 does not move");
        assert_eq!(d, c.sent[1] + Duration::from_millis(100));
        assert!(
            !c.running(1, Some(7)),
            "not written, its connection holds the seat"
        );
        assert!(c.running(1, None), "its connection went: the clock runs");
        assert!(c.running(1, Some(9)), "another connection holds the seat");
        let at = c.sent[1] + Duration::from_millis(30);
        assert_eq!(c.written(1, 9, at), None, "not the request's connection");
        assert_eq!(c.written(1, 7, at), Some(at + Duration::from_millis(100)));
        assert!(c.running(1, Some(7)));
        assert!(c.held(1).contains("30.0 ms"), "{}", c.held(1));
        let later = at + Duration::from_millis(500);
        assert_eq!(
            c.written(1, 7, later),
            None,
            "only the first writing counts"
        );
        assert_eq!(c.deadline(1), Some(at + Duration::from_millis(100)));
        // A writing stamped before the queueing never shortens the clock.
        let mut c = TurnClock::new();
        let d = c.ask(0, 100, Some(7));
        assert_eq!(
            c.written(0, 7, c.sent[0] - Duration::from_millis(5)),
            Some(d)
        );
        // A seat asked while away: its clock runs from the start.
        let mut c = TurnClock::new();
        c.ask(0, 100, None);
        assert!(c.running(0, None) && c.running(0, Some(7)));
        assert!(c.held(0).contains("not confirmed"));
    }
}
