//! One WebSocket connection to the match server: connecting (message size
//! limits, a timeout), the `hello` we open with, sending a message, the
//! round trip measured with application pings ([`Rtt`]) and which errors
//! refuse a `hello`.

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use super::{ClientConfig, MAX_MESSAGE_BYTES};
use crate::platforms::ws::protocol::{
    encode_client, ClientMsg, ErrorCode, Hello, Resume, PROTOCOL_VERSION,
};

pub(super) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(super) async fn connect(config: &ClientConfig) -> Result<Ws, String> {
    // Nagle off: moves are small and latency counts against our clock.
    let ws_config = WebSocketConfig {
        max_message_size: Some(MAX_MESSAGE_BYTES),
        max_frame_size: Some(MAX_MESSAGE_BYTES),
        ..WebSocketConfig::default()
    };
    let attempt =
        tokio_tungstenite::connect_async_with_config(config.url.as_str(), Some(ws_config), true);
    match tokio::time::timeout(config.connect_timeout, attempt).await {
        Ok(Ok((ws, _response))) => Ok(ws),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!(
            "timed out after {} ms",
            config.connect_timeout.as_millis()
        )),
    }
}

pub(super) fn hello(
    config: &ClientConfig,
    game: &str,
    remaining: u32,
    resume: Option<Resume>,
) -> ClientMsg {
    ClientMsg::Hello(Hello {
        token: config.token.clone(),
        protocol: PROTOCOL_VERSION,
        name: config.name.clone(),
        game: game.to_string(),
        games: remaining.max(1),
        opponent: config.opponent,
        resume,
    })
}

pub(super) async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), String> {
    let text = encode_client(msg);
    tracing::debug!(msg = %text, "send");
    ws.send(Message::Text(text))
        .await
        .map_err(|e| e.to_string())
}

/// Round trips to the server, from our application pings.
#[derive(Default)]
pub(super) struct Rtt {
    next_id: u64,
    /// The ping in flight: its id and when it left.
    outstanding: Option<(u64, Instant)>,
    /// The last few round trips, newest last.
    samples: std::collections::VecDeque<Duration>,
}

impl Rtt {
    /// Round trips kept; the estimate is the largest of them.
    const KEEP: usize = 4;

    pub(super) async fn ping(&mut self, ws: &mut Ws) -> Result<(), String> {
        self.next_id += 1;
        let id = self.next_id;
        self.outstanding = Some((id, Instant::now()));
        send(
            ws,
            &ClientMsg::Ping {
                id: Some(serde_json::json!(format!("rtt-{id}"))),
            },
        )
        .await
    }

    pub(super) fn pong(&mut self, id: Option<&serde_json::Value>) {
        let Some((want, sent)) = self.outstanding else {
            return;
        };
        if id.and_then(|v| v.as_str()) == Some(format!("rtt-{want}").as_str()) {
            self.outstanding = None;
            if self.samples.len() == Self::KEEP {
                self.samples.pop_front();
            }
            self.samples.push_back(sent.elapsed());
            tracing::debug!(
                rtt_ms = sent.elapsed().as_millis() as u64,
                "round trip to the server"
            );
        }
    }

    /// The round trip to allow for: the largest recent one.
    pub(super) fn estimate(&self) -> Duration {
        self.samples.iter().copied().max().unwrap_or_default()
    }
}

/// Errors a server answers a bad `hello` with.
pub(super) fn is_hello_rejection(code: &str) -> bool {
    matches!(
        ErrorCode::from_wire(code),
        Some(
            ErrorCode::UnsupportedVersion
                | ErrorCode::UnknownGame
                | ErrorCode::HouseUnavailable
                | ErrorCode::BadField
                | ErrorCode::BadJson
                | ErrorCode::UnknownType
                | ErrorCode::Busy
                | ErrorCode::Unauthorized
        )
    )
}
