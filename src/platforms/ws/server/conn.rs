//! One task per connection: reads frames, answers what it can itself
//! (pings, errors, `hello`), forwards moves to its match, writes what its
//! match sends, and keeps the heartbeat.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::str::FromStr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use crate::games::GameKind;
use crate::platforms::ws::protocol::{
    encode_server, parse_client, ClientMsg, ErrorCode, Hello, Opponent, Resume, ServerMsg,
    PROTOCOL_VERSION,
};

use super::game_loop::{SeatEvent, SeatLink};
use super::http::Sniffed;
use super::lobby::{start_match, Waiter};
use super::{shutdown_signal, ConnSlot, Shared};

/// Largest inbound message accepted (bigger ones close the connection).
pub(crate) const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// Bad messages on one connection logged as warnings; later ones go to the
/// debug log, so a misbehaving peer cannot flood the log.
const WARN_BAD_MESSAGES: u32 = 3;

/// A token bucket: `rate` tokens a second, at most `burst` saved up.
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
    /// Messages dropped in a row (over the limit).
    dropped: u32,
    /// When `rate_limited` was last sent.
    told: Option<Instant>,
}

impl Bucket {
    fn new(rate: u32, burst: u32) -> Self {
        Bucket {
            tokens: f64::from(burst),
            rate: f64::from(rate),
            burst: f64::from(burst),
            last: Instant::now(),
            dropped: 0,
            told: None,
        }
    }

    /// Takes a token if there is one.
    fn take(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.dropped = 0;
            true
        } else {
            self.dropped = self.dropped.saturating_add(1);
            false
        }
    }
}

/// What to do with an inbound frame over the rate limit.
enum Over {
    /// Drop it; tell the peer (`Some`) or not (already told this second).
    Drop(Option<Box<ServerMsg>>),
    /// The abuse persists: close the connection.
    Close,
}

type Ws = WebSocketStream<TcpStream>;

/// Serves one TCP connection until it closes; `_slot` holds its place in
/// the connection count.
pub(crate) async fn serve(
    shared: Arc<Shared>,
    stream: TcpStream,
    peer: SocketAddr,
    _slot: ConnSlot,
) {
    let cfg = WebSocketConfig {
        max_message_size: Some(MAX_MESSAGE_BYTES),
        max_frame_size: Some(MAX_MESSAGE_BYTES),
        ..WebSocketConfig::default()
    };
    let limit = shared
        .config
        .heartbeat_timeout
        .min(shared.config.limits.hello_timeout);
    // A request that is no WebSocket upgrade is a spectator's (HTTP).
    match super::http::sniff(&stream, limit).await {
        Sniffed::WebSocket => {}
        Sniffed::Http { request, len } => {
            tracing::debug!(%peer, method = %request.method, path = %request.path, "http request");
            return super::http::answer(&shared, stream, request, len).await;
        }
        Sniffed::TooBig => {
            let _ = stream
                .try_write(b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            return;
        }
        Sniffed::Closed => {
            // A TCP health check (Kubernetes' tcpSocket probe) connects and
            // closes without a request.
            tracing::debug!(%peer, "closed before a request");
            return;
        }
        Sniffed::TimedOut => {
            tracing::warn!(%peer, limit_ms = limit.as_millis() as u64, "no request within the handshake limit");
            return;
        }
    }
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(cfg));
    let ws = match tokio::time::timeout(limit, handshake).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            // Debug only: a TCP health check (Kubernetes' tcpSocket probe)
            // connects and closes without a handshake.
            tracing::debug!(%peer, error = %e, "websocket handshake failed");
            return;
        }
        Err(_) => {
            tracing::warn!(%peer, limit_ms = limit.as_millis() as u64, "websocket handshake timed out");
            return;
        }
    };
    let id = shared.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out_tx, out_rx) = mpsc::unbounded_channel();
    let limits = shared.config.limits;
    let mut conn = Conn {
        shared,
        id,
        peer,
        out_tx,
        session: None,
        bucket: Bucket::new(limits.rate_per_s, limits.rate_burst),
        owed_moves: 0,
        games: HashSet::new(),
        bad: 0,
        said_hello: false,
    };
    tracing::debug!(conn = id, %peer, "connection opened");
    let why = conn.run(ws, out_rx).await;
    tracing::debug!(conn = id, %peer, why, "connection closed");
    if let Some(tx) = conn.session.take() {
        let _ = tx.send(SeatEvent::Gone {
            conn: id,
            detail: why.to_string(),
        });
    }
    lock_lobby(&conn.shared).remove(id);
}

fn lock_lobby(shared: &Shared) -> std::sync::MutexGuard<'_, super::lobby::Lobby> {
    shared.lobby.lock().unwrap_or_else(|p| p.into_inner())
}

struct Conn {
    shared: Arc<Shared>,
    id: u64,
    peer: SocketAddr,
    /// Cloned into matches; the connection writes what arrives here.
    out_tx: mpsc::UnboundedSender<ServerMsg>,
    /// Where this connection's moves go while a match is pending or running
    /// (closed once the match is over).
    session: Option<mpsc::UnboundedSender<SeatEvent>>,
    /// The message rate limit.
    bucket: Bucket,
    /// `move_request`s sent and not yet answered: their answers are free.
    owed_moves: u32,
    /// Ids of the games this connection has played or plays.
    games: HashSet<String>,
    /// Bad messages received so far.
    bad: u32,
    /// A `hello` of this connection was accepted.
    said_hello: bool,
}

impl Conn {
    /// The frame loop; returns why the connection ended.
    async fn run(
        &mut self,
        mut ws: Ws,
        mut out_rx: mpsc::UnboundedReceiver<ServerMsg>,
    ) -> &'static str {
        let shared = self.shared.clone();
        let cfg = &shared.config;
        let (interval, timeout) = (cfg.heartbeat_interval, cfg.heartbeat_timeout);
        let mut shutdown = self.shared.shutdown.clone();
        let mut draining = self.shared.draining.clone();
        let mut drain_seen = false;
        let welcome = ServerMsg::Welcome {
            protocol: PROTOCOL_VERSION,
            server: format!("ladderbot {}", env!("CARGO_PKG_VERSION")),
            games: GameKind::ALL.iter().map(|k| k.id().to_string()).collect(),
            house: cfg.house.is_some(),
        };
        if self.send(&mut ws, &welcome, timeout).await.is_err() {
            return "write failed";
        }
        let mut heartbeat =
            tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
        heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last_in = tokio::time::Instant::now();
        let hello_by = tokio::time::Instant::now() + cfg.limits.hello_timeout;
        let why = loop {
            let idle = tokio::time::sleep_until(last_in + timeout);
            let hello_wait = (!self.said_hello).then_some(hello_by);
            let no_hello = async move {
                match hello_wait {
                    Some(t) => tokio::time::sleep_until(t).await,
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                frame = ws.next() => {
                    last_in = tokio::time::Instant::now();
                    let at = Instant::now();
                    let replies = match frame {
                        None => break "closed",
                        Some(Err(tokio_tungstenite::tungstenite::Error::Capacity(e))) => {
                            tracing::warn!(conn = self.id, peer = %self.peer, error = %e, limit = MAX_MESSAGE_BYTES, "message over the size limit; closing the connection");
                            let msg = ServerMsg::error(
                                ErrorCode::MessageTooBig,
                                format!("messages may have at most {MAX_MESSAGE_BYTES} bytes ({e})"),
                            );
                            let _ = self.send(&mut ws, &msg, Duration::from_millis(200)).await;
                            let close = ws.send(Message::Close(Some(CloseFrame {
                                code: CloseCode::Size,
                                reason: "message too big".into(),
                            })));
                            let _ = tokio::time::timeout(Duration::from_millis(200), close).await;
                            linger(&mut ws).await;
                            return "message too big";
                        }
                        Some(Err(e)) => {
                            tracing::debug!(conn = self.id, error = %e, "read failed");
                            break "read failed";
                        }
                        Some(Ok(Message::Close(_))) => break "closed by the client",
                        // Answers to our pings cost nothing.
                        Some(Ok(Message::Pong(_))) | Some(Ok(Message::Frame(_))) => Vec::new(),
                        Some(Ok(Message::Ping(_))) => match self.charge(None, at) {
                            Ok(()) => Vec::new(),
                            Err(Over::Drop(r)) => r.into_iter().map(|m| *m).collect(),
                            Err(Over::Close) => break self.close_abuser(&mut ws).await,
                        },
                        Some(Ok(Message::Text(text))) => {
                            let parsed = parse_client(&text);
                            match self.charge(Some(&parsed), at) {
                                Ok(()) => self.on_msg(&text, parsed, at),
                                Err(Over::Drop(r)) => r.into_iter().map(|m| *m).collect(),
                                Err(Over::Close) => break self.close_abuser(&mut ws).await,
                            }
                        }
                        Some(Ok(Message::Binary(_))) => match self.charge(None, at) {
                            Ok(()) => {
                                self.bad_message("a binary frame");
                                vec![ServerMsg::error(
                                    ErrorCode::BadJson,
                                    "binary frames are not supported; send JSON text frames",
                                )]
                            }
                            Err(Over::Drop(r)) => r.into_iter().map(|m| *m).collect(),
                            Err(Over::Close) => break self.close_abuser(&mut ws).await,
                        },
                    };
                    for r in replies {
                        if self.send(&mut ws, &r, timeout).await.is_err() {
                            return "write failed";
                        }
                    }
                    if self.idle_while_draining() {
                        return self.going_away(&mut ws, &mut out_rx).await;
                    }
                }
                Some(msg) = out_rx.recv() => {
                    match &msg {
                        ServerMsg::MoveRequest { .. } => self.owed_moves += 1,
                        ServerMsg::GameStart { game_id, .. } => {
                            self.games.insert(game_id.clone());
                        }
                        ServerMsg::GameOver { .. } => self.owed_moves = 0,
                        _ => {}
                    }
                    if self.send(&mut ws, &msg, timeout).await.is_err() {
                        break "write failed";
                    }
                    if let ServerMsg::MoveRequest { game_id, ply, .. } = &msg {
                        // The mover's clock runs from now (`TurnClock`).
                        if let Some(tx) = self.active_session() {
                            let _ = tx.send(SeatEvent::Asked {
                                conn: self.id,
                                game_id: game_id.clone(),
                                ply: *ply,
                                at: Instant::now(),
                            });
                        }
                    }
                    if matches!(&msg, ServerMsg::Error { code, .. } if code == ErrorCode::Replaced.as_str()) {
                        // Another connection holds our seat now.
                        self.session = None;
                        linger(&mut ws).await;
                        break "replaced by a resuming connection";
                    }
                    if self.idle_while_draining() {
                        return self.going_away(&mut ws, &mut out_rx).await;
                    }
                }
                _ = shutdown_signal(&mut draining), if !drain_seen => {
                    drain_seen = true;
                    if self.idle_while_draining() {
                        return self.going_away(&mut ws, &mut out_rx).await;
                    }
                }
                _ = no_hello => {
                    tracing::warn!(conn = self.id, peer = %self.peer, limit_ms = cfg.limits.hello_timeout.as_millis() as u64, "no hello within the hello timeout; closing the connection");
                    let msg = ServerMsg::error(
                        ErrorCode::HelloTimeout,
                        format!("no hello within {} ms", cfg.limits.hello_timeout.as_millis()),
                    );
                    let _ = self.send(&mut ws, &msg, Duration::from_millis(200)).await;
                    linger(&mut ws).await;
                    break "hello timeout";
                }
                _ = heartbeat.tick() => {
                    let ping = ws.send(Message::Ping(Vec::new()));
                    if !matches!(tokio::time::timeout(timeout, ping).await, Ok(Ok(()))) {
                        break "write failed";
                    }
                }
                _ = idle => {
                    tracing::warn!(conn = self.id, peer = %self.peer, timeout_ms = timeout.as_millis() as u64, "no frame within the heartbeat timeout; closing the connection");
                    let msg = ServerMsg::error(
                        ErrorCode::HeartbeatTimeout,
                        format!("no frame received for {} ms", timeout.as_millis()),
                    );
                    let _ = self.send(&mut ws, &msg, Duration::from_millis(200)).await;
                    break "heartbeat timeout";
                }
                _ = shutdown_signal(&mut shutdown) => return self.going_away(&mut ws, &mut out_rx).await,
            }
        };
        let _ = tokio::time::timeout(Duration::from_millis(200), ws.close(None)).await;
        why
    }

    /// The server is stopping with a grace and this connection has no
    /// match left to play.
    fn idle_while_draining(&self) -> bool {
        *self.shared.draining.borrow() && self.active_session().is_none()
    }

    /// Tells the peer the server is stopping and closes, after what its
    /// match has already queued for it (a `game_over`, `match_over`); the
    /// close reason.
    async fn going_away(
        &self,
        ws: &mut Ws,
        out_rx: &mut mpsc::UnboundedReceiver<ServerMsg>,
    ) -> &'static str {
        while let Ok(queued) = out_rx.try_recv() {
            if self
                .send(ws, &queued, Duration::from_millis(200))
                .await
                .is_err()
            {
                return "write failed";
            }
        }
        let msg = ServerMsg::error(ErrorCode::ShuttingDown, "the server is shutting down");
        let _ = self.send(ws, &msg, Duration::from_millis(200)).await;
        let close = ws.send(Message::Close(Some(CloseFrame {
            code: CloseCode::Away,
            reason: "server shutting down".into(),
        })));
        let _ = tokio::time::timeout(Duration::from_millis(200), close).await;
        "server shutting down"
    }

    async fn send(&self, ws: &mut Ws, msg: &ServerMsg, limit: Duration) -> Result<(), ()> {
        let text = encode_server(msg);
        tracing::debug!(conn = self.id, msg = %text, "send");
        match tokio::time::timeout(limit, ws.send(Message::Text(text))).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(()),
        }
    }

    /// The connection's live session, if its match is pending or running.
    fn active_session(&self) -> Option<&mpsc::UnboundedSender<SeatEvent>> {
        self.session.as_ref().filter(|tx| !tx.is_closed())
    }

    /// Charges an inbound frame (`parsed` for a text frame) to the rate
    /// limit: an answer to a `move_request` is free, anything else takes a
    /// token.
    fn charge(
        &mut self,
        parsed: Option<&Result<ClientMsg, crate::platforms::ws::protocol::ParseError>>,
        at: Instant,
    ) -> Result<(), Over> {
        if self.owed_moves > 0 && matches!(parsed, Some(Ok(ClientMsg::Move { .. }))) {
            self.owed_moves -= 1;
            return Ok(());
        }
        if self.bucket.take(at) {
            return Ok(());
        }
        let limits = self.shared.config.limits;
        if self.bucket.dropped >= limits.rate_burst {
            return Err(Over::Close);
        }
        let tell = self
            .bucket
            .told
            .is_none_or(|t| at.saturating_duration_since(t) >= Duration::from_secs(1));
        if !tell {
            return Err(Over::Drop(None));
        }
        if self.bucket.told.is_none() {
            tracing::warn!(conn = self.id, peer = %self.peer, rate_per_s = limits.rate_per_s, burst = limits.rate_burst, "message rate over the limit; messages dropped");
        }
        self.bucket.told = Some(at);
        Err(Over::Drop(Some(Box::new(ServerMsg::error(
            ErrorCode::RateLimited,
            format!(
                "more than {} messages a second (burst {}); message dropped",
                limits.rate_per_s, limits.rate_burst
            ),
        )))))
    }

    /// Tells a peer that keeps flooding why it is dropped; the close reason.
    async fn close_abuser(&self, ws: &mut Ws) -> &'static str {
        tracing::warn!(conn = self.id, peer = %self.peer, dropped = self.bucket.dropped, "message rate over the limit for too long; closing the connection");
        let msg = ServerMsg::Error {
            code: ErrorCode::RateLimited.as_str().to_string(),
            message: format!(
                "{} messages in a row over the rate limit; closing",
                self.bucket.dropped
            ),
            fatal: true,
        };
        let _ = self.send(ws, &msg, Duration::from_millis(200)).await;
        linger(ws).await;
        "rate limited"
    }

    /// Logs a bad message (as a warning for the first few).
    fn bad_message(&mut self, why: &str) {
        self.bad = self.bad.saturating_add(1);
        if self.bad <= WARN_BAD_MESSAGES {
            tracing::warn!(conn = self.id, peer = %self.peer, why, "bad message");
            if self.bad == WARN_BAD_MESSAGES {
                tracing::warn!(conn = self.id, peer = %self.peer, "further bad messages on this connection are logged at debug level");
            }
        } else {
            tracing::debug!(conn = self.id, peer = %self.peer, why, "bad message");
        }
    }

    /// Handles one parsed text frame; returns the immediate replies.
    fn on_msg(
        &mut self,
        text: &str,
        parsed: Result<ClientMsg, crate::platforms::ws::protocol::ParseError>,
        at: Instant,
    ) -> Vec<ServerMsg> {
        tracing::debug!(conn = self.id, msg = %text, "recv");
        match parsed {
            Err(e) => {
                self.bad_message(&e.to_string());
                vec![e.to_msg()]
            }
            Ok(ClientMsg::Ping { id }) => vec![ServerMsg::Pong { id }],
            Ok(ClientMsg::Pong { .. }) => Vec::new(),
            Ok(ClientMsg::Leave) => {
                // Without a match there is nothing to leave.
                if let Some(tx) = self.active_session() {
                    let _ = tx.send(SeatEvent::Leave { conn: self.id });
                }
                Vec::new()
            }
            Ok(ClientMsg::Move { game_id, mv }) => {
                if !self.games.contains(&game_id) {
                    // Not a game of this connection: it cannot touch that
                    // game (moves go only to this connection's own match).
                    tracing::warn!(conn = self.id, peer = %self.peer, game_id, "move for a game this connection does not play");
                }
                let ev = SeatEvent::Move {
                    conn: self.id,
                    game_id,
                    mv,
                    at,
                };
                match self.active_session().map(|tx| tx.send(ev)) {
                    Some(Ok(())) => Vec::new(),
                    _ => vec![ServerMsg::error(
                        ErrorCode::NoGame,
                        "no game in progress; send hello first",
                    )],
                }
            }
            Ok(ClientMsg::Hello(h)) => match self.on_hello(h) {
                Ok(replies) => {
                    self.said_hello = true;
                    replies
                }
                Err((code, message)) => vec![ServerMsg::error(code, message)],
            },
        }
    }

    /// Handles a `hello`: the immediate replies, or an error to send.
    fn on_hello(&mut self, h: Hello) -> Result<Vec<ServerMsg>, (ErrorCode, String)> {
        if *self.shared.draining.borrow() {
            return Err((
                ErrorCode::ShuttingDown,
                "the server is shutting down; no new match starts".into(),
            ));
        }
        if self.active_session().is_some() {
            return Err((
                ErrorCode::Busy,
                "a match is already pending or in progress on this connection".into(),
            ));
        }
        if let Some(want) = &self.shared.config.token {
            if !same_secret(h.token.as_deref().unwrap_or(""), want) {
                tracing::warn!(conn = self.id, peer = %self.peer, name = %h.name, "hello without the server's token refused");
                return Err((
                    ErrorCode::Unauthorized,
                    "this server needs its token in hello.token".into(),
                ));
            }
        }
        if h.protocol != PROTOCOL_VERSION {
            return Err((
                ErrorCode::UnsupportedVersion,
                format!(
                    "protocol {} is not supported (this server speaks {PROTOCOL_VERSION})",
                    h.protocol
                ),
            ));
        }
        if let Some(r) = h.resume {
            return self.on_resume(r);
        }
        let kind = GameKind::from_str(&h.game).map_err(|e| (ErrorCode::UnknownGame, e))?;
        let link = SeatLink::new(h.name.clone(), self.id, self.out_tx.clone());
        let ev_tx = link.tx.clone();
        tracing::debug!(conn = self.id, name = %h.name, game = %h.game, games = h.games, opponent = %h.opponent, "hello");
        let replies = match h.opponent {
            Opponent::House => {
                start_match(&self.shared, kind, link, None, h.games)
                    .map_err(|e| (ErrorCode::HouseUnavailable, e))?;
                Vec::new()
            }
            Opponent::Any => {
                let mut lobby = lock_lobby(&self.shared);
                match lobby.take(kind.id()) {
                    Some(w) => {
                        drop(lobby);
                        let games = w.games.min(h.games);
                        // Only the house can fail to start.
                        let _ = start_match(&self.shared, kind, w.link, Some(link), games);
                        Vec::new()
                    }
                    None => {
                        lobby.push(
                            kind.id(),
                            Waiter {
                                conn_id: self.id,
                                games: h.games,
                                link,
                            },
                        );
                        vec![ServerMsg::Waiting {
                            game: kind.id().to_string(),
                        }]
                    }
                }
            }
        };
        self.session = Some(ev_tx);
        Ok(replies)
    }

    /// Takes back the seat whose token `r` shows, in the match that plays
    /// (or played) game `r.game_id`. The match then sends the game so far.
    fn on_resume(&mut self, r: Resume) -> Result<Vec<ServerMsg>, (ErrorCode, String)> {
        if self.shared.config.limits.resume_window.is_zero() {
            return Err((
                ErrorCode::NoGame,
                "this server resumes no seat (server.resume_window_ms is 0)".into(),
            ));
        }
        let registry = self.shared.lock_resumable();
        let Some(seats) = registry.get(&r.game_id) else {
            tracing::info!(conn = self.id, peer = %self.peer, game_id = %r.game_id, "resume of a game that is over or unknown refused");
            return Err((
                ErrorCode::NoGame,
                format!(
                    "game '{}' is over or unknown: there is no seat to resume",
                    r.game_id
                ),
            ));
        };
        // Both compared, whichever matches.
        let found: Vec<usize> = (0..2)
            .filter(|&p| same_secret(&r.seat_token, &seats.tokens[p]))
            .collect();
        let Some(&player) = found.first() else {
            tracing::warn!(conn = self.id, peer = %self.peer, game_id = %r.game_id, "resume with a wrong seat token refused");
            return Err((
                ErrorCode::Unauthorized,
                format!("wrong seat token for game '{}'", r.game_id),
            ));
        };
        let tx = seats.tx[player].clone();
        let rebind = SeatEvent::Rebind {
            conn: self.id,
            out: self.out_tx.clone(),
        };
        if tx.send(rebind).is_err() {
            return Err((
                ErrorCode::NoGame,
                format!("the match of game '{}' is over", r.game_id),
            ));
        }
        drop(registry);
        tracing::info!(conn = self.id, peer = %self.peer, game_id = %r.game_id, "seat resumed by a new connection");
        self.games.insert(r.game_id);
        self.session = Some(tx);
        Ok(Vec::new())
    }
}

/// After a fatal error: ends our side of the connection and reads (and
/// drops) what the peer still sends, for at most a second and a bounded
/// number of bytes, so that the peer can read our last message (a socket
/// closed with unread input resets the connection, and the peer's kernel
/// may then discard what we sent).
async fn linger(ws: &mut Ws) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let tcp = ws.get_mut();
    let _ = tokio::time::timeout(Duration::from_millis(200), tcp.shutdown()).await;
    let mut buf = vec![0u8; 64 * 1024];
    let mut left = 8 * MAX_MESSAGE_BYTES;
    let until = tokio::time::Instant::now() + Duration::from_secs(1);
    while left > 0 {
        match tokio::time::timeout_at(until, tcp.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => left = left.saturating_sub(n),
            _ => break,
        }
    }
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(got: &str, want: &str) -> bool {
    let (a, b) = (got.as_bytes(), want.as_bytes());
    let mut diff = u8::from(a.len() != b.len());
    for (i, &w) in b.iter().enumerate() {
        diff |= a.get(i).copied().unwrap_or(0) ^ w;
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_refills_at_its_rate_up_to_its_burst() {
        let mut b = Bucket::new(2, 3);
        let t0 = b.last;
        assert!((0..3).all(|_| b.take(t0)));
        assert!(!b.take(t0));
        assert!(!b.take(t0));
        assert_eq!(b.dropped, 2);
        // Half a second at 2 a second: one token.
        let t1 = t0 + Duration::from_millis(500);
        assert!(b.take(t1));
        assert_eq!(b.dropped, 0);
        assert!(!b.take(t1));
        // A long pause fills the bucket to its burst, no more.
        let t2 = t1 + Duration::from_secs(60);
        assert!((0..3).all(|_| b.take(t2)));
        assert!(!b.take(t2));
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abd", "abc"));
        assert!(!same_secret("ab", "abc"));
        assert!(!same_secret("abcd", "abc"));
    }
}
