//! One connection's session: its event loop ([`Session::run`]) waits for
//! the next [`Event`] (a frame, a finished search, silence, a round-trip
//! ping, a stop) and hands it to its handler; the handlers of the server's
//! messages start searches under the move's clock and report games.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio_tungstenite::tungstenite::Message;

use super::connection::{hello, is_hello_rejection, send, Rtt, Ws};
use super::records::{Current, GameFinished, Progress};
use super::{ClientConfig, ClientError, ClockPolicy, MAX_MESSAGE_BYTES, RTT_PING_EVERY};
use crate::games::PlayableGame;
use crate::platforms::ws::protocol::{
    parse_server, ClientMsg, ErrorCode, Resume, ServerMsg, PROTOCOL_VERSION,
};

use crate::runtime::{wait_for_stop, SearchHandle, SearchThread, Stop};
use crate::search::{GameClock, Limits, Seat, LATE_SEARCH};

/// The bank the bot keeps for itself in the game in progress
/// ([`ClockPolicy::Bank`]'s `own`).
#[derive(Clone, Debug)]
struct OwnClock {
    game_id: String,
    clock: GameClock,
}

/// The search under way: the game it answers for, when its request
/// arrived and what it allowed (`your_time_ms`), when the client stops
/// waiting for it ([`give_up_at`]), and its handle.
struct Pending<A> {
    game_id: String,
    asked_at: Instant,
    your_time_ms: u64,
    give_up: Option<Instant>,
    handle: SearchHandle<A>,
}

/// When a client stops waiting for a search that should have answered by
/// its `hard` limit (a thread kept off its core on a loaded machine) and
/// plays the move it had ready instead: a quarter of the `margin` after
/// the hard limit, and never later than half the margin before the end of
/// the `allowance` (the rest is for writing the answer and its way to the
/// server), as the Riddles.io bot does.
fn give_up_at(start: Instant, hard: Instant, allowance: Duration, margin: Duration) -> Instant {
    (hard + margin / 4).min(start + allowance.saturating_sub(margin / 2))
}

/// How a session ended: `why` is empty when all games are done.
pub(super) struct Dropped {
    pub(super) welcomed: bool,
    pub(super) why: String,
    /// Ended because a stop was asked for.
    pub(super) stopped: bool,
    /// The game in progress was left unfinished on a stop.
    pub(super) abandoned: bool,
    /// The server said it is shutting down.
    pub(super) server_stopping: bool,
}

impl Dropped {
    pub(super) fn new(welcomed: bool, why: String) -> Self {
        Dropped {
            welcomed,
            why,
            stopped: false,
            abandoned: false,
            server_stopping: false,
        }
    }
}

enum Event<M> {
    Frame(Option<Result<Message, tokio_tungstenite::tungstenite::Error>>),
    Searched(Result<crate::search::Decision<M>, crate::runtime::SearchError>),
    Idle,
    /// Time to measure the round trip again.
    RttPing,
    /// A stop was asked for (or raised to `Abandon`).
    Stop(Stop),
    /// The grace after `Stop::Finish` ran out with the game unfinished.
    GraceOver,
    /// The search under way did not answer by its give-up time.
    GiveUp,
}

/// Resolves at `t`, or never without one.
async fn sleep_until_opt(t: Option<tokio::time::Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

/// Resolves with the pending search's result, or never if there is none.
async fn pending_search<M>(
    h: Option<&mut SearchHandle<M>>,
) -> Result<crate::search::Decision<M>, crate::runtime::SearchError> {
    match h {
        Some(h) => h.await,
        None => std::future::pending().await,
    }
}

/// One connection: plays until all games are done (`why` empty) or the
/// connection drops.
pub(super) async fn session<G: PlayableGame>(
    ws: Ws,
    config: &ClientConfig,
    search: &SearchThread<G>,
    progress: &mut Progress,
    stop: &mut Option<tokio::sync::watch::Receiver<Stop>>,
    on_game: &mut (impl FnMut(&GameFinished) + Send),
) -> Result<Dropped, ClientError> {
    let end = match Session::open(ws, config, search, progress, stop, on_game).await {
        Ok(s) => s.run().await,
        Err(why) => Ok(Dropped::new(false, why)),
    };
    // A closed connection, a stop, the last game over: nothing to ponder
    // for until the next request.
    search.stop_pondering();
    end
}

/// What a handler tells the event loop: wait for the next event, or end
/// the session with this.
enum Flow {
    Continue,
    End(Result<Dropped, ClientError>),
}

/// One connection's state: the event loop ([`Session::run`]) waits for the
/// next [`Event`] and hands it to its handler.
struct Session<'a, G: PlayableGame, F> {
    ws: Ws,
    config: &'a ClientConfig,
    search: &'a SearchThread<G>,
    progress: &'a mut Progress,
    stop: &'a mut Option<tokio::sync::watch::Receiver<Stop>>,
    on_game: &'a mut F,
    /// The server sent its `welcome`.
    welcomed: bool,
    /// After `Stop::Finish` with a game in progress: when it must end by.
    grace_end: Option<tokio::time::Instant>,
    /// Between a `game_start` and the `match_over` of its match.
    in_match: bool,
    /// The round trip to the server, measured with application pings: the
    /// server's clock runs from when it sends a request to when it reads our
    /// answer, so the whole round trip comes off each move's allowance.
    rtt: Rtt,
    /// A seat to take back first: the game (or match) we were cut from.
    resuming: Option<Resume>,
    /// Our `hello` is not answered yet (an error now is its rejection).
    hello_pending: bool,
    /// The search under way.
    pending: Option<Pending<G::Action>>,
    /// The game clock: the server's increment (from `game_start`) and the
    /// bank the bot keeps for itself, if any.
    increment: Duration,
    own: Option<OwnClock>,
    /// When the last frame came in.
    last_in: tokio::time::Instant,
    /// When to measure the round trip again.
    rtt_tick: tokio::time::Interval,
}

impl<'a, G: PlayableGame, F: FnMut(&GameFinished) + Send> Session<'a, G, F> {
    /// Opens the session on a new connection: a first round-trip ping, then
    /// our `hello` (resuming our seat if we were cut from one). Errs with
    /// why the connection failed.
    async fn open(
        mut ws: Ws,
        config: &'a ClientConfig,
        search: &'a SearchThread<G>,
        progress: &'a mut Progress,
        stop: &'a mut Option<tokio::sync::watch::Receiver<Stop>>,
        on_game: &'a mut F,
    ) -> Result<Self, String> {
        let remaining = config.games.saturating_sub(progress.summary.games);
        let mut rtt = Rtt::default();
        rtt.ping(&mut ws).await?;
        let resuming = progress.resume.clone();
        send(&mut ws, &hello(config, G::ID, remaining, resuming.clone())).await?;
        let hello_pending = resuming.is_none();
        let last_in = tokio::time::Instant::now();
        let mut rtt_tick =
            tokio::time::interval_at(tokio::time::Instant::now() + RTT_PING_EVERY, RTT_PING_EVERY);
        rtt_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Ok(Session {
            ws,
            config,
            search,
            progress,
            stop,
            on_game,
            welcomed: false,
            grace_end: None,
            in_match: false,
            rtt,
            resuming,
            hello_pending,
            pending: None,
            increment: Duration::ZERO,
            own: None,
            last_in,
            rtt_tick,
        })
    }

    /// The event loop: each event to its handler, until one ends the
    /// session.
    async fn run(mut self) -> Result<Dropped, ClientError> {
        loop {
            let event = self.next_event().await;
            let received_at = Instant::now();
            let flow = match event {
                Event::Frame(f) => self.on_frame(f, received_at).await,
                Event::Searched(r) => self.on_searched(r).await,
                Event::Idle => self.on_idle(),
                Event::RttPing => self.on_rtt_tick().await,
                Event::Stop(v) => self.on_stop(v).await,
                Event::GraceOver => self.on_grace_over().await,
                Event::GiveUp => self.on_give_up().await,
            };
            if let Flow::End(end) = flow {
                return end;
            }
        }
    }

    /// Waits for the next thing to happen.
    async fn next_event(&mut self) -> Event<G::Action> {
        let stop_at = if self.grace_end.is_some() {
            Stop::Abandon
        } else {
            Stop::Finish
        };
        let give_up = self
            .pending
            .as_ref()
            .and_then(|p| p.give_up)
            .map(Into::into);
        tokio::select! {
            f = self.ws.next() => Event::Frame(f),
            r = pending_search(self.pending.as_mut().map(|p| &mut p.handle)) => Event::Searched(r),
            _ = tokio::time::sleep_until(self.last_in + self.config.heartbeat_timeout) => Event::Idle,
            _ = self.rtt_tick.tick() => Event::RttPing,
            v = wait_for_stop(self.stop, stop_at) => Event::Stop(v),
            _ = sleep_until_opt(self.grace_end) => Event::GraceOver,
            _ = sleep_until_opt(give_up) => Event::GiveUp,
        }
    }

    /// The session ends with the connection gone: `why` (empty: all games
    /// are done).
    fn dropped(&self, why: String) -> Flow {
        Flow::End(Ok(Dropped::new(self.welcomed, why)))
    }

    /// Sends `msg`; a failed send ends the session.
    async fn send(&mut self, msg: &ClientMsg) -> Flow {
        match send(&mut self.ws, msg).await {
            Ok(()) => Flow::Continue,
            Err(e) => self.dropped(e),
        }
    }

    /// Closes the connection, waiting at most half a second.
    async fn close(&mut self) {
        let _ = tokio::time::timeout(Duration::from_millis(500), self.ws.close(None)).await;
    }

    /// Cancels the search under way, if any.
    fn cancel_search(&mut self) {
        if self.pending.take().is_some() {
            self.search.cancel();
        }
    }

    /// No frame for `heartbeat_timeout`: the connection is dead.
    fn on_idle(&self) -> Flow {
        let why = format!(
            "no frame from the server for {} ms (client.heartbeat_timeout_ms): a dead or half-open connection",
            self.config.heartbeat_timeout.as_millis()
        );
        tracing::warn!(url = %self.config.url, "{why}");
        self.dropped(why)
    }

    /// Time to measure the round trip again.
    async fn on_rtt_tick(&mut self) -> Flow {
        match self.rtt.ping(&mut self.ws).await {
            Ok(()) => Flow::Continue,
            Err(e) => self.dropped(e),
        }
    }

    /// A stop was asked for: `Finish` with a game or match in progress plays
    /// it out within the grace; otherwise we leave at once.
    async fn on_stop(&mut self, v: Stop) -> Flow {
        if matches!(v, Stop::Finish) && (self.progress.current.is_some() || self.in_match) {
            let grace = self.config.stop_grace;
            tracing::info!(
                grace_ms = grace.as_millis() as u64,
                "stop asked for: finishing the game in progress"
            );
            self.grace_end = Some(tokio::time::Instant::now() + grace);
            // The server starts no further game of this match.
            return self.send(&ClientMsg::Leave).await;
        }
        self.leave("stop asked for").await
    }

    /// The grace after `Stop::Finish` ran out with the game unfinished.
    async fn on_grace_over(&mut self) -> Flow {
        self.leave("the game did not end within the stop grace")
            .await
    }

    /// Leaves on a stop, the game in progress (if any) abandoned.
    async fn leave(&mut self, why: &str) -> Flow {
        self.cancel_search();
        self.close().await;
        Flow::End(Ok(Dropped {
            welcomed: self.welcomed,
            why: why.into(),
            stopped: true,
            abandoned: self.progress.current.is_some(),
            server_stopping: false,
        }))
    }

    /// The search under way did not answer by its give-up time: the move
    /// it had ready goes to the server and the search is stopped; with
    /// none ready, the client waits for its answer.
    async fn on_give_up(&mut self) -> Flow {
        let Some(p) = self.pending.as_mut() else {
            return Flow::Continue;
        };
        p.give_up = None;
        let Some(mv) = self.search.ready(p.handle.ticket()) else {
            tracing::warn!(
                game_id = p.game_id,
                your_time_ms = p.your_time_ms,
                "{LATE_SEARCH}: no move ready; waiting for its answer"
            );
            return Flow::Continue;
        };
        let p = self.pending.take().expect("a pending search");
        self.search.cancel();
        tracing::warn!(
            game_id = p.game_id,
            your_time_ms = p.your_time_ms,
            "{LATE_SEARCH}: answering its best move so far"
        );
        let d = crate::search::Decision {
            mv,
            playouts: 0,
            value: None,
        };
        self.send_answer(p, d).await
    }

    /// A search finished: its move goes to the server ([`Self::send_answer`]).
    async fn on_searched(
        &mut self,
        r: Result<crate::search::Decision<G::Action>, crate::runtime::SearchError>,
    ) -> Flow {
        let Some(p) = self.pending.take() else {
            return Flow::Continue;
        };
        match r {
            Ok(d) => self.send_answer(p, d).await,
            Err(e) => {
                tracing::error!(error = %e, "search failed; no move sent");
                Flow::Continue
            }
        }
    }

    /// Sends our answer to the request `p` searched for, and charges the
    /// time it took to the bank the bot keeps for itself. The one place an
    /// answer goes out (with [`Self::on_move_request`], where a search
    /// starts).
    async fn send_answer(
        &mut self,
        p: Pending<G::Action>,
        d: crate::search::Decision<G::Action>,
    ) -> Flow {
        let mv = ClientMsg::Move {
            game_id: p.game_id.clone(),
            mv: G::move_to_json(d.mv),
        };
        if let end @ Flow::End(_) = self.send(&mv).await {
            return end;
        }
        // On our own clock, from the request's arrival to the answer's
        // writing: a move the server calls late while this is short was
        // late in transit (or on the server).
        let took = p.asked_at.elapsed();
        if let Some(o) = self.own.as_mut().filter(|o| o.game_id == p.game_id) {
            o.clock = o.clock.after(took);
        }
        let took_ms = took.as_secs_f64() * 1e3;
        let game_id = p.game_id;
        if took >= Duration::from_millis(p.your_time_ms) {
            tracing::warn!(
                game_id,
                took_ms,
                your_time_ms = p.your_time_ms,
                playouts = d.playouts,
                "an answer written after the move's time"
            );
        } else {
            // Its own target, for a log of every answer's time alone
            // (`LADDERBOT_LOG__FILTER=warn,ladderbot::answers=debug`).
            tracing::debug!(
                target: "ladderbot::answers",
                game_id,
                took_ms,
                your_time_ms = p.your_time_ms,
                playouts = d.playouts,
                "answer written"
            );
        }
        Flow::Continue
    }

    /// A frame from the server (`None`: the connection closed), received
    /// at `received_at`.
    async fn on_frame(
        &mut self,
        f: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
        received_at: Instant,
    ) -> Flow {
        match f {
            None => self.dropped("connection closed".into()),
            Some(Err(e)) => {
                let why = match e {
                    tokio_tungstenite::tungstenite::Error::Capacity(c) => format!(
                        "the server sent a message over our limit of {MAX_MESSAGE_BYTES} bytes ({c})"
                    ),
                    e => e.to_string(),
                };
                tracing::warn!(url = %self.config.url, why, "connection to the server failed");
                self.dropped(why)
            }
            Some(Ok(m)) => {
                self.last_in = tokio::time::Instant::now();
                match m {
                    Message::Text(t) => self.on_text(&t, received_at).await,
                    Message::Close(_) => self.dropped("connection closed by the server".into()),
                    _ => Flow::Continue,
                }
            }
        }
    }

    /// A text frame: parsed, and the message to its handler.
    async fn on_text(&mut self, text: &str, received_at: Instant) -> Flow {
        tracing::debug!(msg = %text, "recv");
        let msg = match parse_server(text) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(error = %e, "unreadable message from the server; ignored");
                return Flow::Continue;
            }
        };
        match msg {
            ServerMsg::Welcome { protocol, .. } => self.on_welcome(protocol),
            ServerMsg::Waiting { game } => self.on_waiting(game),
            ServerMsg::GameStart { .. } => self.on_game_start(msg),
            ServerMsg::MoveRequest {
                game_id,
                state,
                your_time_ms,
                remaining_ms,
                ..
            } => self.on_move_request(game_id, &state, your_time_ms, remaining_ms, received_at),
            ServerMsg::MovePlayed {
                game_id, mv, ms, ..
            } => self.on_move_played(game_id, mv, ms),
            ServerMsg::GameOver { .. } => self.on_game_over(msg),
            ServerMsg::MatchOver { .. } => self.on_match_over().await,
            ServerMsg::Error {
                code,
                message,
                fatal,
            } => self.on_error(code, message, fatal).await,
            ServerMsg::Ping { id } => self.send(&ClientMsg::Pong { id }).await,
            ServerMsg::Pong { id } => {
                self.rtt.pong(id.as_ref());
                Flow::Continue
            }
        }
    }

    fn on_welcome(&mut self, protocol: u32) -> Flow {
        if protocol != PROTOCOL_VERSION {
            return Flow::End(Err(ClientError::Protocol(format!(
                "the server speaks protocol {protocol}, we speak {PROTOCOL_VERSION}"
            ))));
        }
        self.welcomed = true;
        if self.resuming.is_none() {
            if let Some((cur, why)) = self.progress.interrupted.take() {
                // The server is there: it scored the game we were cut from
                // as lost by disconnect.
                self.progress.finish_lost(
                    cur,
                    format!("connection lost: {why}"),
                    false,
                    &mut *self.on_game,
                );
            }
        }
        Flow::Continue
    }

    fn on_waiting(&mut self, game: String) -> Flow {
        self.hello_pending = false;
        tracing::info!(game, "waiting for an opponent");
        Flow::Continue
    }

    /// A `game_start` (only that message comes here).
    fn on_game_start(&mut self, msg: ServerMsg) -> Flow {
        let ServerMsg::GameStart {
            game_id,
            seat,
            opponent,
            number,
            of,
            seat_token,
            resumed,
            clock,
            ..
        } = msg
        else {
            return Flow::Continue;
        };
        self.hello_pending = false;
        self.in_match = true;
        self.start_clocks(&game_id, clock.increment_ms);
        if self.resuming.take().is_some() {
            self.progress.summary.resumed += 1;
            tracing::info!(game_id, resumed, "seat taken back on a new connection");
        }
        tracing::info!(game_id, seat, opponent, number, of, resumed, "game started");
        self.progress.resume = seat_token.map(|seat_token| Resume {
            game_id: game_id.clone(),
            seat_token,
        });
        if resumed && self.progress.last_done.as_deref() == Some(game_id.as_str()) {
            // A game we already reported, sent again: its end is ours
            // already.
            return Flow::Continue;
        }
        self.search.new_game();
        self.track_game(game_id, seat, opponent, resumed);
        Flow::Continue
    }

    /// The clocks of the game `game_id` starting: the server's increment,
    /// and a fresh bank of our own unless this game already has one (a
    /// resume).
    fn start_clocks(&mut self, game_id: &str, increment_ms: u64) {
        self.increment = Duration::from_millis(increment_ms);
        if let ClockPolicy::Bank { own: Some(c) } = self.config.clock_policy {
            if self.own.as_ref().is_none_or(|o| o.game_id != game_id) {
                self.own = Some(OwnClock {
                    game_id: game_id.to_string(),
                    clock: c,
                });
            }
        }
    }

    /// Makes the started game the one in progress; a game we were cut from
    /// goes on (the same game, resumed) or is reported as lost by
    /// disconnect.
    fn track_game(&mut self, game_id: String, seat: Seat, opponent: String, resumed: bool) {
        let mut cur = Current::new(game_id.clone(), seat, opponent);
        if let Some((old, why)) = self.progress.interrupted.take() {
            if resumed && old.game_id == game_id {
                // The moves so far follow again.
                cur.started_ms = old.started_ms;
            } else {
                self.progress.finish_lost(
                    old,
                    format!("connection lost: {why}"),
                    false,
                    &mut *self.on_game,
                );
            }
        }
        self.progress.current = Some(cur);
    }

    /// A `move_request`, received at `received_at`: the search it asks for
    /// is submitted (one still under way is cancelled first). The one place
    /// a search starts (its answer goes out in [`Self::send_answer`]).
    fn on_move_request(
        &mut self,
        game_id: String,
        state: &serde_json::Value,
        your_time_ms: u64,
        remaining_ms: Option<[u64; 2]>,
        received_at: Instant,
    ) -> Flow {
        let obs = match G::obs_from_json(state) {
            Ok(obs) => obs,
            Err(e) => {
                return Flow::End(Err(ClientError::Protocol(format!(
                    "bad state in move_request: {e}"
                ))))
            }
        };
        self.cancel_search();
        let (limits, give_up) =
            self.move_limits(&game_id, &obs, your_time_ms, remaining_ms, received_at);
        self.pending = Some(Pending {
            game_id,
            asked_at: received_at,
            your_time_ms,
            give_up,
            handle: self.search.submit(obs, limits),
        });
        Flow::Continue
    }

    /// The limits of the search for a request of `game_id` that allows
    /// `your_time_ms`, received at `received_at`, and when to stop waiting
    /// for it ([`give_up_at`]; none for a search without a deadline).
    fn move_limits(
        &mut self,
        game_id: &str,
        obs: &G::Obs,
        your_time_ms: u64,
        remaining_ms: Option<[u64; 2]>,
        received_at: Instant,
    ) -> (Limits, Option<Instant>) {
        // The request spent part of the round trip reaching us and the
        // answer spends the rest reaching the server. At most half the
        // allowance goes, so that one slow ping cannot leave the agent no
        // time at all.
        let allowance = Duration::from_millis(your_time_ms);
        let allowance = allowance.saturating_sub(self.rtt.estimate().min(allowance / 2));
        let margin = Duration::from_millis(self.config.margin_ms);
        let clock = self.move_clock(game_id, remaining_ms);
        let playouts = self.config.playouts;
        let limits = match clock {
            Some(c) => Limits::on_game_clock(
                playouts,
                received_at,
                c,
                G::moves_to_go(obs),
                allowance,
                margin,
            ),
            None => Limits::under_clock(
                playouts,
                self.config.time_ms,
                received_at,
                allowance,
                margin,
            ),
        };
        if let Some(d) = limits.deadline {
            tracing::debug!(
                game_id,
                soft_ms = (d.soft - d.start).as_millis() as u64,
                hard_ms = (d.hard - d.start).as_millis() as u64,
                bank_ms = clock.map(|c| c.bank.as_millis() as u64),
                "move planned"
            );
        }
        let give_up = limits
            .deadline
            .map(|d| give_up_at(received_at, d.hard, allowance, margin));
        (limits, give_up)
    }

    /// The game clock a move of `game_id` is planned on ([`ClockPolicy`]):
    /// none when fixed; with a bank, the server's (`remaining_ms`, our
    /// seat's) or our own, the smaller when both.
    fn move_clock(&self, game_id: &str, remaining_ms: Option<[u64; 2]>) -> Option<GameClock> {
        match self.config.clock_policy {
            ClockPolicy::Fixed => None,
            ClockPolicy::Bank { .. } => {
                let seat = self
                    .progress
                    .current
                    .as_ref()
                    .filter(|c| c.game_id == game_id)
                    .map_or(0, |c| c.seat);
                let server = remaining_ms.map(|b| GameClock {
                    bank: Duration::from_millis(b[seat & 1]),
                    increment: self.increment,
                });
                let own = self.own.as_ref().filter(|o| o.game_id == game_id);
                match (server, own.map(|o| o.clock)) {
                    (Some(s), Some(o)) => Some(if s.bank <= o.bank { s } else { o }),
                    (s, o) => s.or(o),
                }
            }
        }
    }

    fn on_move_played(&mut self, game_id: String, mv: serde_json::Value, ms: u64) -> Flow {
        if let Some(cur) = self
            .progress
            .current
            .as_mut()
            .filter(|c| c.game_id == game_id)
        {
            cur.moves += 1;
            cur.move_list.push(mv);
            cur.move_ms.push(ms);
        }
        Flow::Continue
    }

    /// A `game_over` (only that message comes here): the game is reported,
    /// once.
    fn on_game_over(&mut self, msg: ServerMsg) -> Flow {
        let ServerMsg::GameOver {
            game_id,
            winner,
            result,
            reason,
            detail,
            your_result,
            moves,
        } = msg
        else {
            return Flow::Continue;
        };
        if self.pending.as_ref().is_some_and(|p| p.game_id == game_id) {
            self.pending = None;
            self.search.cancel();
        }
        self.search.stop_pondering();
        if self.progress.last_done.as_deref() == Some(game_id.as_str()) {
            return Flow::Continue;
        }
        self.progress.last_done = Some(game_id.clone());
        let cur = self
            .progress
            .current
            .take()
            .filter(|c| c.game_id == game_id)
            .unwrap_or_else(|| Current::new(game_id, 0, String::new()));
        let summary = &mut self.progress.summary;
        let mut g = cur.finish(
            summary.games + summary.aborted + 1,
            winner,
            Some(your_result),
            reason,
            detail,
            false,
        );
        g.result = result;
        g.moves = moves;
        summary.add(Some(your_result));
        (self.on_game)(&g);
        // After a stop, `match_over` follows (our `leave`); a game the
        // server started before it read `leave` is played too, within the
        // grace.
        Flow::Continue
    }

    /// The match is over: the session ends after a stop, else goes on to
    /// the next match ([`Self::next_match`]).
    async fn on_match_over(&mut self) -> Flow {
        self.in_match = false;
        self.progress.resume = None;
        if self.resuming.take().is_some() {
            // Taken back between games, and the match ended.
            self.progress.summary.resumed += 1;
        }
        if self.grace_end.is_some() {
            self.close().await;
            return Flow::End(Ok(Dropped {
                welcomed: self.welcomed,
                why: String::new(),
                stopped: true,
                abandoned: false,
                server_stopping: false,
            }));
        }
        self.next_match().await
    }

    /// Between matches: done when every game is played, else a `hello` for
    /// the games still to play.
    async fn next_match(&mut self) -> Flow {
        let remaining = self
            .config
            .games
            .saturating_sub(self.progress.summary.games);
        if remaining == 0 {
            self.close().await;
            return self.dropped(String::new());
        }
        let hello = hello(self.config, G::ID, remaining, None);
        if let end @ Flow::End(_) = self.send(&hello).await {
            return end;
        }
        self.hello_pending = true;
        Flow::Continue
    }

    /// An `error`: a refused resume, a refused `hello`, the server shutting
    /// down mid-game, or a warning.
    async fn on_error(&mut self, code: String, message: String, fatal: bool) -> Flow {
        if let Some(r) = self.resuming.take() {
            if !fatal {
                return self.on_resume_refused(code, message, r).await;
            }
        }
        if self.hello_pending && is_hello_rejection(&code) {
            return Flow::End(Err(ClientError::Rejected { code, message }));
        }
        tracing::warn!(code, message, fatal, "error from the server");
        if code == ErrorCode::ShuttingDown.as_str() && self.progress.current.is_some() {
            self.cancel_search();
            self.close().await;
            return Flow::End(Ok(Dropped {
                server_stopping: true,
                ..Dropped::new(self.welcomed, message)
            }));
        }
        Flow::Continue
    }

    /// The seat `r` cannot be taken back (the game ended while we were
    /// away): the server scored it; on to the next match.
    async fn on_resume_refused(&mut self, code: String, message: String, r: Resume) -> Flow {
        tracing::warn!(
            code,
            message,
            game_id = r.game_id,
            "could not resume our seat"
        );
        self.progress.resume = None;
        self.in_match = false;
        if let Some((cur, why)) = self.progress.interrupted.take() {
            self.progress.finish_lost(
                cur,
                format!("connection lost ({why}); the game ended before we could resume it"),
                false,
                &mut *self.on_game,
            );
        }
        self.next_match().await
    }
}
