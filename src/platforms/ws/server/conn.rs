//! One task per connection: reads frames, answers what it can itself
//! (pings, errors, `hello`), forwards moves to its match, writes what its
//! match sends, and keeps the heartbeat.

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
    encode_server, parse_client, ClientMsg, ErrorCode, Hello, Opponent, ServerMsg, PROTOCOL_VERSION,
};

use super::game_loop::{SeatEvent, SeatLink};
use super::lobby::{start_match, Waiter};
use super::{shutdown_signal, Shared};

/// Largest inbound message accepted (bigger ones close the connection).
pub(crate) const MAX_MESSAGE_BYTES: usize = 1 << 20;

type Ws = WebSocketStream<TcpStream>;

/// Serves one TCP connection until it closes.
pub(crate) async fn serve(shared: Arc<Shared>, stream: TcpStream, peer: SocketAddr) {
    let cfg = WebSocketConfig {
        max_message_size: Some(MAX_MESSAGE_BYTES),
        max_frame_size: Some(MAX_MESSAGE_BYTES),
        ..WebSocketConfig::default()
    };
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(cfg));
    let ws = match tokio::time::timeout(shared.config.heartbeat_timeout, handshake).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            tracing::debug!(%peer, error = %e, "websocket handshake failed");
            return;
        }
        Err(_) => {
            tracing::debug!(%peer, "websocket handshake timed out");
            return;
        }
    };
    let id = shared.next_conn.fetch_add(1, Ordering::Relaxed);
    let (out_tx, out_rx) = mpsc::unbounded_channel();
    let mut conn = Conn {
        shared,
        id,
        peer,
        out_tx,
        session: None,
    };
    tracing::debug!(conn = id, %peer, "connection opened");
    let why = conn.run(ws, out_rx).await;
    tracing::debug!(conn = id, %peer, why, "connection closed");
    if let Some(tx) = conn.session.take() {
        let _ = tx.send(SeatEvent::Gone {
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
}

impl Conn {
    /// The frame loop; returns why the connection ended.
    async fn run(
        &mut self,
        mut ws: Ws,
        mut out_rx: mpsc::UnboundedReceiver<ServerMsg>,
    ) -> &'static str {
        let cfg = &self.shared.config;
        let (interval, timeout) = (cfg.heartbeat_interval, cfg.heartbeat_timeout);
        let mut shutdown = self.shared.shutdown.clone();
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
        let why = loop {
            let idle = tokio::time::sleep_until(last_in + timeout);
            tokio::select! {
                frame = ws.next() => {
                    last_in = tokio::time::Instant::now();
                    let replies = match frame {
                        None => break "closed",
                        Some(Err(e)) => {
                            tracing::debug!(conn = self.id, error = %e, "read failed");
                            break "read failed";
                        }
                        Some(Ok(Message::Close(_))) => break "closed by the client",
                        Some(Ok(Message::Text(text))) => self.on_text(&text, Instant::now()),
                        Some(Ok(Message::Binary(_))) => vec![ServerMsg::error(
                            ErrorCode::BadJson,
                            "binary frames are not supported; send JSON text frames",
                        )],
                        Some(Ok(_)) => Vec::new(),
                    };
                    for r in replies {
                        if self.send(&mut ws, &r, timeout).await.is_err() {
                            return "write failed";
                        }
                    }
                }
                Some(msg) = out_rx.recv() => {
                    if self.send(&mut ws, &msg, timeout).await.is_err() {
                        break "write failed";
                    }
                }
                _ = heartbeat.tick() => {
                    let ping = ws.send(Message::Ping(Vec::new()));
                    if !matches!(tokio::time::timeout(timeout, ping).await, Ok(Ok(()))) {
                        break "write failed";
                    }
                }
                _ = idle => {
                    let msg = ServerMsg::error(
                        ErrorCode::HeartbeatTimeout,
                        format!("no frame received for {} ms", timeout.as_millis()),
                    );
                    let _ = self.send(&mut ws, &msg, Duration::from_millis(200)).await;
                    break "heartbeat timeout";
                }
                _ = shutdown_signal(&mut shutdown) => {
                    let msg = ServerMsg::error(ErrorCode::ShuttingDown, "the server is shutting down");
                    let _ = self.send(&mut ws, &msg, Duration::from_millis(200)).await;
                    let close = ws.send(Message::Close(Some(CloseFrame {
                        code: CloseCode::Away,
                        reason: "server shutting down".into(),
                    })));
                    let _ = tokio::time::timeout(Duration::from_millis(200), close).await;
                    return "server shutting down";
                }
            }
        };
        let _ = tokio::time::timeout(Duration::from_millis(200), ws.close(None)).await;
        why
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

    /// Handles one text frame; returns the immediate replies.
    fn on_text(&mut self, text: &str, at: Instant) -> Vec<ServerMsg> {
        tracing::debug!(conn = self.id, msg = %text, "recv");
        match parse_client(text) {
            Err(e) => {
                tracing::debug!(conn = self.id, peer = %self.peer, error = %e, "bad message");
                vec![e.to_msg()]
            }
            Ok(ClientMsg::Ping { id }) => vec![ServerMsg::Pong { id }],
            Ok(ClientMsg::Pong { .. }) => Vec::new(),
            Ok(ClientMsg::Leave) => {
                // Without a match there is nothing to leave.
                if let Some(tx) = self.active_session() {
                    let _ = tx.send(SeatEvent::Leave);
                }
                Vec::new()
            }
            Ok(ClientMsg::Move { game_id, mv }) => {
                let ev = SeatEvent::Move { game_id, mv, at };
                match self.active_session().map(|tx| tx.send(ev)) {
                    Some(Ok(())) => Vec::new(),
                    _ => vec![ServerMsg::error(
                        ErrorCode::NoGame,
                        "no game in progress; send hello first",
                    )],
                }
            }
            Ok(ClientMsg::Hello(h)) => match self.on_hello(h) {
                Ok(replies) => replies,
                Err((code, message)) => vec![ServerMsg::error(code, message)],
            },
        }
    }

    /// Handles a `hello`: the immediate replies, or an error to send.
    fn on_hello(&mut self, h: Hello) -> Result<Vec<ServerMsg>, (ErrorCode, String)> {
        if self.active_session().is_some() {
            return Err((
                ErrorCode::Busy,
                "a match is already pending or in progress on this connection".into(),
            ));
        }
        if let Some(want) = &self.shared.config.token {
            if !same_secret(h.token.as_deref().unwrap_or(""), want) {
                tracing::warn!(conn = self.id, name = %h.name, "hello without the server's token refused");
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
        let kind = GameKind::from_str(&h.game).map_err(|e| (ErrorCode::UnknownGame, e))?;
        let (ev_tx, inbox) = mpsc::unbounded_channel();
        let link = SeatLink {
            name: h.name.clone(),
            out: self.out_tx.clone(),
            inbox,
            leaving: false,
        };
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
