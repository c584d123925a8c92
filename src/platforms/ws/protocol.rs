//! The match-server WebSocket protocol, version 1, as a pure codec: message
//! types, parsing with classified errors, and encoding. No I/O happens here.
//!
//! Every message is one JSON object in one WebSocket text frame, tagged by its
//! `"type"` field. Game states and moves are opaque [`Value`]s produced by
//! [`crate::games::PlayableGame::state_to_json`] and
//! [`crate::games::PlayableGame::move_to_json`]. The written specification is
//! `protocol/ws-match-v1.md` at the repository root.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::records::EndReason;
use crate::search::Seat;

/// The protocol version this crate speaks. A server accepts a `hello` only
/// with exactly this version.
pub const PROTOCOL_VERSION: u32 = 1;

/// Most games one `hello` may ask for.
pub const MAX_GAMES_PER_HELLO: u32 = 10_000;

/// Longest accepted player name, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Longest `hello.resume.game_id` and `hello.resume.seat_token`, in bytes.
pub const MAX_ID_BYTES: usize = 128;

/// Whom a client wants to play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// The next client waiting for the same game.
    #[default]
    Any,
    /// The server's built-in bot.
    House,
}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Opponent::Any => "any",
            Opponent::House => "house",
        })
    }
}

impl std::str::FromStr for Opponent {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "any" => Ok(Opponent::Any),
            "house" => Ok(Opponent::House),
            other => Err(format!("unknown opponent '{other}' (known: any, house)")),
        }
    }
}

fn default_games() -> u32 {
    1
}

/// The client's request to play: sent first, and again after `match_over`
/// to play more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// Must equal [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The player's name (1..=64 characters), used in records.
    pub name: String,
    /// The game's wire name, e.g. "four3d".
    pub game: String,
    /// How many games the client wants (default 1).
    #[serde(default = "default_games")]
    pub games: u32,
    /// Whom to play (default "any").
    #[serde(default)]
    pub opponent: Opponent,
    /// The server's access token, when it asks for one (a ladder's or a
    /// tournament's secret); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Takes back a seat whose connection dropped mid-game, instead of
    /// asking for a new match (`games` and `opponent` are then ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Resume>,
}

/// What a `hello` needs to take back a seat: the game and the secret the
/// server gave that seat in its `game_start`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    pub game_id: String,
    pub seat_token: String,
}

/// A message from a client to the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Asks for a match.
    Hello(Hello),
    /// Answers a `move_request`.
    Move {
        game_id: String,
        #[serde(rename = "move")]
        mv: Value,
    },
    /// Ends the sender's match after the game in progress: no further game
    /// of it starts, and `match_over` follows that game's `game_over` (at
    /// once when no game is in progress).
    Leave,
    /// Application-level ping; the server answers `pong` with the same `id`.
    Ping {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
    },
    /// Answer to a server `ping`.
    Pong {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
    },
}

/// The clock settings of a game, as announced in `game_start`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockInfo {
    /// Most milliseconds any one move may take, if there is a per-move limit.
    pub time_per_move_ms: Option<u64>,
    /// Each player's starting bank in milliseconds, if there is a bank.
    pub time_bank_ms: Option<u64>,
    /// Milliseconds added to the mover's bank after each of its moves.
    pub increment_ms: u64,
}

/// A game's result from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum YourResult {
    Win,
    Loss,
    Draw,
}

impl YourResult {
    /// The result for `seat` given the winning seat (None = draw).
    pub fn for_seat(winner: Option<Seat>, seat: Seat) -> Self {
        match winner {
            None => YourResult::Draw,
            Some(w) if w == seat => YourResult::Win,
            Some(_) => YourResult::Loss,
        }
    }
}

impl fmt::Display for YourResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            YourResult::Win => "win",
            YourResult::Loss => "loss",
            YourResult::Draw => "draw",
        })
    }
}

/// A message from the server to a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Sent once when the connection opens.
    Welcome {
        protocol: u32,
        /// Server software and version.
        server: String,
        /// Wire names of the games this server runs.
        games: Vec<String>,
        /// Whether a house bot is available.
        house: bool,
    },
    /// The `hello` was accepted; waiting for an opponent.
    Waiting { game: String },
    /// A game begins.
    GameStart {
        game_id: String,
        game: String,
        /// 1-based number of this game within the match.
        number: u32,
        /// How many games the match has (fewer are played if a player leaves).
        of: u32,
        /// The receiver's seat: 0 moves first.
        seat: Seat,
        /// The opponent's name.
        opponent: String,
        clock: ClockInfo,
        /// This seat's secret for the whole match: a `hello` with
        /// `resume: {game_id, seat_token}` on a new connection takes the
        /// seat back after a dropped connection. Never sent to the other
        /// seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat_token: Option<String>,
        /// Sent again to a seat that resumed: the `move_played` of the game
        /// so far and the pending `move_request` (if any) follow.
        #[serde(default, skip_serializing_if = "is_false")]
        resumed: bool,
    },
    /// The receiver must move.
    MoveRequest {
        game_id: String,
        /// Moves played so far in this game.
        ply: u32,
        /// The position as the receiver's seat observes it, in the game's
        /// wire format: the whole position in a perfect-information game,
        /// never what the seat may not know.
        state: Value,
        /// The most milliseconds this move may take.
        your_time_ms: u64,
        /// Banks of seat 0 and seat 1 before this move; null without a bank.
        remaining_ms: Option<[u64; 2]>,
        /// The per-move limit, if any.
        time_per_move_ms: Option<u64>,
    },
    /// A move was played (sent to both players).
    MovePlayed {
        game_id: String,
        /// Ply of the move (0 = the first move; the moves of a simultaneous
        /// turn are numbered seat 0 first).
        ply: u32,
        /// The seat that moved.
        seat: Seat,
        /// The move as the receiver may see it; null when it is hidden.
        #[serde(rename = "move")]
        mv: Value,
        /// Milliseconds the move took on the server's clock.
        ms: u64,
        /// The receiver may not see this move (e.g. the opponent's Geister
        /// setup); `move` is null. Absent when false.
        #[serde(default, skip_serializing_if = "is_false")]
        hidden: bool,
    },
    /// A game ended.
    GameOver {
        game_id: String,
        /// The winning seat; null for a draw.
        winner: Option<Seat>,
        /// "1-0", "0-1" or "1/2-1/2" from seat 0's side.
        result: String,
        reason: EndReason,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        your_result: YourResult,
        /// Moves played in the game.
        moves: u32,
    },
    /// The match asked for by `hello` is over; the client may `hello` again.
    MatchOver {
        /// Games played in this match.
        games: u32,
        wins: u32,
        draws: u32,
        losses: u32,
    },
    /// Something went wrong; see [`ErrorCode`] for the codes.
    Error {
        code: String,
        message: String,
        /// True if the server closes the connection after this message.
        fatal: bool,
    },
    /// Application-level ping; the client answers `pong` with the same `id`.
    Ping {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
    },
    /// Answer to a client `ping`.
    Pong {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
    },
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl ServerMsg {
    /// An `error` message with `code`.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> Self {
        ServerMsg::Error {
            code: code.as_str().to_string(),
            message: message.into(),
            fatal: code.is_fatal(),
        }
    }

    /// The message's `"type"` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            ServerMsg::Welcome { .. } => "welcome",
            ServerMsg::Waiting { .. } => "waiting",
            ServerMsg::GameStart { .. } => "game_start",
            ServerMsg::MoveRequest { .. } => "move_request",
            ServerMsg::MovePlayed { .. } => "move_played",
            ServerMsg::GameOver { .. } => "game_over",
            ServerMsg::MatchOver { .. } => "match_over",
            ServerMsg::Error { .. } => "error",
            ServerMsg::Ping { .. } => "ping",
            ServerMsg::Pong { .. } => "pong",
        }
    }
}

/// The `"type"` tags a client may send.
pub const CLIENT_TYPES: &[&str] = &["hello", "move", "leave", "ping", "pong"];
/// The `"type"` tags a server may send.
pub const SERVER_TYPES: &[&str] = &[
    "welcome",
    "waiting",
    "game_start",
    "move_request",
    "move_played",
    "game_over",
    "match_over",
    "error",
    "ping",
    "pong",
];

/// The error codes of `error` messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The frame is not a JSON object (or is a binary frame).
    BadJson,
    /// The `"type"` tag is not one this side accepts.
    UnknownType,
    /// A field is missing, of the wrong type, out of range, or unexpected.
    BadField,
    /// `hello.protocol` is not [`PROTOCOL_VERSION`].
    UnsupportedVersion,
    /// `hello.game` is not a game this server runs.
    UnknownGame,
    /// A house bot was asked for but this server has none, or it cannot
    /// play that game.
    HouseUnavailable,
    /// A `hello` arrived while a match is pending or in progress.
    Busy,
    /// A `move` arrived while the sender has no game in progress.
    NoGame,
    /// A `move` arrived while it is the opponent's turn.
    NotYourTurn,
    /// A `move` for an earlier game of this match; ignored.
    StaleMove,
    /// No frame arrived within the heartbeat timeout (fatal).
    HeartbeatTimeout,
    /// The server is shutting down (fatal).
    ShuttingDown,
    /// `hello.token` is missing or wrong on a server that asks for one.
    Unauthorized,
    /// A message over the server's size limit (fatal: the connection closes).
    MessageTooBig,
    /// More messages than the server's rate limit allows; the message was
    /// dropped (fatal once the abuse persists).
    RateLimited,
    /// No accepted `hello` within the server's hello timeout (fatal).
    HelloTimeout,
    /// Another connection resumed this connection's seat (fatal).
    Replaced,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::BadJson,
        ErrorCode::UnknownType,
        ErrorCode::BadField,
        ErrorCode::UnsupportedVersion,
        ErrorCode::UnknownGame,
        ErrorCode::HouseUnavailable,
        ErrorCode::Busy,
        ErrorCode::NoGame,
        ErrorCode::NotYourTurn,
        ErrorCode::StaleMove,
        ErrorCode::HeartbeatTimeout,
        ErrorCode::ShuttingDown,
        ErrorCode::Unauthorized,
        ErrorCode::MessageTooBig,
        ErrorCode::RateLimited,
        ErrorCode::HelloTimeout,
        ErrorCode::Replaced,
    ];

    /// The code's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadJson => "bad_json",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::BadField => "bad_field",
            ErrorCode::UnsupportedVersion => "unsupported_version",
            ErrorCode::UnknownGame => "unknown_game",
            ErrorCode::HouseUnavailable => "house_unavailable",
            ErrorCode::Busy => "busy",
            ErrorCode::NoGame => "no_game",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::StaleMove => "stale_move",
            ErrorCode::HeartbeatTimeout => "heartbeat_timeout",
            ErrorCode::ShuttingDown => "shutting_down",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::MessageTooBig => "message_too_big",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::HelloTimeout => "hello_timeout",
            ErrorCode::Replaced => "replaced",
        }
    }

    /// Whether the server closes the connection after sending this code.
    pub fn is_fatal(self) -> bool {
        matches!(
            self,
            ErrorCode::HeartbeatTimeout
                | ErrorCode::ShuttingDown
                | ErrorCode::MessageTooBig
                | ErrorCode::HelloTimeout
                | ErrorCode::Replaced
        )
    }

    /// The code with this wire name.
    pub fn from_wire(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.as_str() == s)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a frame could not be parsed: a code (one of `bad_json`,
/// `unknown_type`, `bad_field`) and a human-readable message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ParseError {
    pub code: ErrorCode,
    pub message: String,
}

impl ParseError {
    fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ParseError {
            code,
            message: message.into(),
        }
    }

    /// The `error` message a server answers this with.
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::error(self.code, self.message.clone())
    }
}

/// Checks the frame is a JSON object with a known string `"type"`.
fn classify(text: &str, known: &[&str]) -> Result<Value, ParseError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| ParseError::new(ErrorCode::BadJson, format!("not valid JSON: {e}")))?;
    let Some(obj) = v.as_object() else {
        return Err(ParseError::new(
            ErrorCode::BadJson,
            "expected a JSON object with a \"type\" field",
        ));
    };
    match obj.get("type") {
        None => Err(ParseError::new(ErrorCode::BadField, "type: missing")),
        Some(Value::String(t)) if known.contains(&t.as_str()) => Ok(v),
        Some(Value::String(t)) => Err(ParseError::new(
            ErrorCode::UnknownType,
            format!("unknown message type '{t}' (known: {})", known.join(", ")),
        )),
        Some(other) => Err(ParseError::new(
            ErrorCode::BadField,
            format!("type: expected a string, got {other}"),
        )),
    }
}

fn field_error(kind: &str, e: serde_json::Error) -> ParseError {
    ParseError::new(ErrorCode::BadField, format!("{kind}: {e}"))
}

/// Parses a client's text frame, checking field values too (name length,
/// game count). Structural problems are `bad_json`, `unknown_type` or
/// `bad_field`.
pub fn parse_client(text: &str) -> Result<ClientMsg, ParseError> {
    let v = classify(text, CLIENT_TYPES)?;
    let kind = v["type"].as_str().unwrap_or_default().to_string();
    let msg: ClientMsg = serde_json::from_value(v).map_err(|e| field_error(&kind, e))?;
    if let ClientMsg::Hello(h) = &msg {
        let n = h.name.chars().count();
        if n == 0 || n > MAX_NAME_CHARS || h.name.chars().any(char::is_control) {
            return Err(ParseError::new(
                ErrorCode::BadField,
                format!("hello.name: expected 1..={MAX_NAME_CHARS} printable characters"),
            ));
        }
        if let Some(r) = &h.resume {
            if r.game_id.len() > MAX_ID_BYTES || r.seat_token.len() > MAX_ID_BYTES {
                return Err(ParseError::new(
                    ErrorCode::BadField,
                    format!(
                        "hello.resume: game_id and seat_token have at most {MAX_ID_BYTES} bytes"
                    ),
                ));
            }
        }
        if h.games == 0 || h.games > MAX_GAMES_PER_HELLO {
            return Err(ParseError::new(
                ErrorCode::BadField,
                format!(
                    "hello.games: expected 1..={MAX_GAMES_PER_HELLO}, got {}",
                    h.games
                ),
            ));
        }
    }
    Ok(msg)
}

/// Parses a server's text frame.
pub fn parse_server(text: &str) -> Result<ServerMsg, ParseError> {
    let v = classify(text, SERVER_TYPES)?;
    let kind = v["type"].as_str().unwrap_or_default().to_string();
    serde_json::from_value(v).map_err(|e| field_error(&kind, e))
}

fn encode<T: Serialize>(msg: &T) -> String {
    // These types hold only strings, numbers and JSON values with string
    // keys, so serialization cannot fail.
    serde_json::to_string(msg).unwrap_or_else(|e| {
        format!(
            r#"{{"type":"error","code":"bad_json","message":"encoding failed: {}","fatal":false}}"#,
            e.to_string().replace('"', "'")
        )
    })
}

/// Encodes a client message as the text of one frame.
pub fn encode_client(msg: &ClientMsg) -> String {
    encode(msg)
}

/// Encodes a server message as the text of one frame.
pub fn encode_server(msg: &ServerMsg) -> String {
    encode(msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn hello() -> Hello {
        Hello {
            protocol: PROTOCOL_VERSION,
            name: "bot".into(),
            game: "four3d".into(),
            games: 3,
            opponent: Opponent::House,
            token: None,
            resume: None,
        }
    }

    #[test]
    fn client_messages_round_trip() {
        let msgs = [
            ClientMsg::Hello(hello()),
            ClientMsg::Hello(Hello {
                resume: Some(Resume {
                    game_id: "g1".into(),
                    seat_token: "00ff".into(),
                }),
                ..hello()
            }),
            ClientMsg::Move {
                game_id: "g1".into(),
                mv: json!(5),
            },
            ClientMsg::Ping { id: Some(json!(7)) },
            ClientMsg::Ping { id: None },
            ClientMsg::Pong { id: None },
        ];
        for m in msgs {
            let text = encode_client(&m);
            assert_eq!(parse_client(&text).unwrap(), m, "{text}");
        }
    }

    #[test]
    fn server_messages_round_trip() {
        let msgs = [
            ServerMsg::Welcome {
                protocol: 1,
                server: "x".into(),
                games: vec!["four3d".into()],
                house: true,
            },
            ServerMsg::Waiting {
                game: "four3d".into(),
            },
            ServerMsg::GameStart {
                game_id: "g".into(),
                game: "four3d".into(),
                number: 1,
                of: 2,
                seat: 1,
                opponent: "o".into(),
                clock: ClockInfo {
                    time_per_move_ms: Some(100),
                    time_bank_ms: None,
                    increment_ms: 0,
                },
                seat_token: None,
                resumed: false,
            },
            ServerMsg::GameStart {
                game_id: "g".into(),
                game: "four3d".into(),
                number: 1,
                of: 2,
                seat: 0,
                opponent: "o".into(),
                clock: ClockInfo::default(),
                seat_token: Some("3f".into()),
                resumed: true,
            },
            ServerMsg::MoveRequest {
                game_id: "g".into(),
                ply: 3,
                state: json!({"cells": "."}),
                your_time_ms: 100,
                remaining_ms: Some([1, 2]),
                time_per_move_ms: None,
            },
            ServerMsg::MovePlayed {
                game_id: "g".into(),
                ply: 0,
                seat: 0,
                mv: json!(3),
                ms: 4,
                hidden: false,
            },
            ServerMsg::MovePlayed {
                game_id: "g".into(),
                ply: 1,
                seat: 1,
                mv: Value::Null,
                ms: 5,
                hidden: true,
            },
            ServerMsg::GameOver {
                game_id: "g".into(),
                winner: None,
                result: "1/2-1/2".into(),
                reason: EndReason::Rules,
                detail: Some("full".into()),
                your_result: YourResult::Draw,
                moves: 64,
            },
            ServerMsg::MatchOver {
                games: 2,
                wins: 1,
                draws: 0,
                losses: 1,
            },
            ServerMsg::error(ErrorCode::NoGame, "no"),
            ServerMsg::Ping {
                id: Some(json!("a")),
            },
            ServerMsg::Pong { id: None },
        ];
        for m in msgs {
            let text = encode_server(&m);
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["type"], m.kind());
            assert_eq!(parse_server(&text).unwrap(), m, "{text}");
        }
    }

    #[test]
    fn wire_shapes_are_as_documented() {
        let v: Value = serde_json::from_str(&encode_client(&ClientMsg::Move {
            game_id: "g".into(),
            mv: json!(2),
        }))
        .unwrap();
        assert_eq!(v, json!({"type": "move", "game_id": "g", "move": 2}));
        let v: Value =
            serde_json::from_str(&encode_server(&ServerMsg::error(ErrorCode::BadJson, "m")))
                .unwrap();
        assert_eq!(
            v,
            json!({"type": "error", "code": "bad_json", "message": "m", "fatal": false})
        );
        let v: Value = serde_json::from_str(&encode_server(&ServerMsg::MoveRequest {
            game_id: "g".into(),
            ply: 0,
            state: json!({}),
            your_time_ms: 9,
            remaining_ms: None,
            time_per_move_ms: Some(9),
        }))
        .unwrap();
        assert_eq!(v["remaining_ms"], Value::Null);
    }

    #[test]
    fn hello_defaults() {
        let m =
            parse_client(r#"{"type":"hello","protocol":1,"name":"a","game":"four3d"}"#).unwrap();
        let ClientMsg::Hello(h) = m else {
            panic!("not a hello")
        };
        assert_eq!(h.games, 1);
        assert_eq!(h.opponent, Opponent::Any);
    }

    #[test]
    fn parse_errors_are_classified() {
        let code = |t: &str| parse_client(t).unwrap_err().code;
        assert_eq!(code("not json"), ErrorCode::BadJson);
        assert_eq!(code("[1,2]"), ErrorCode::BadJson);
        assert_eq!(code("{}"), ErrorCode::BadField);
        assert_eq!(code(r#"{"type":3}"#), ErrorCode::BadField);
        assert_eq!(code(r#"{"type":"nope"}"#), ErrorCode::UnknownType);
        assert_eq!(code(r#"{"type":"welcome"}"#), ErrorCode::UnknownType);
        assert_eq!(code(r#"{"type":"hello"}"#), ErrorCode::BadField);
        assert_eq!(code(r#"{"type":"move","move":3}"#), ErrorCode::BadField);
        // Unknown fields are ignored (forward compatibility).
        assert!(parse_client(r#"{"type":"move","game_id":"g","move":3,"extra":1}"#).is_ok());
        assert_eq!(
            code(r#"{"type":"hello","protocol":1,"name":"","game":"four3d"}"#),
            ErrorCode::BadField
        );
        assert_eq!(
            code(r#"{"type":"hello","protocol":1,"name":"a","game":"four3d","games":0}"#),
            ErrorCode::BadField
        );
        assert_eq!(
            code(r#"{"type":"hello","protocol":1,"name":"a","game":"x","opponent":"me"}"#),
            ErrorCode::BadField
        );
        let e = parse_client(r#"{"type":"hello","protocol":1}"#).unwrap_err();
        assert!(e.message.contains("name"), "{e}");
        assert_eq!(
            parse_server(r#"{"type":"hello"}"#).unwrap_err().code,
            ErrorCode::UnknownType
        );
    }

    #[test]
    fn hello_limits_hold_at_their_bounds() {
        let hello_with = |name: &str, resume: Option<(usize, usize)>| {
            let mut h = json!({"type": "hello", "protocol": 1, "name": name, "game": "four3d"});
            if let Some((g, t)) = resume {
                h["resume"] = json!({"game_id": "g".repeat(g), "seat_token": "t".repeat(t)});
            }
            parse_client(&h.to_string())
        };
        // Names: 1 to MAX_NAME_CHARS characters (not bytes), none a control character.
        assert!(hello_with(&"é".repeat(MAX_NAME_CHARS), None).is_ok());
        assert!(hello_with(&"a".repeat(MAX_NAME_CHARS + 1), None).is_err());
        assert!(hello_with("a\tb", None).is_err());
        assert!(hello_with("bot\n", None).is_err());
        // Resume ids: at most MAX_ID_BYTES bytes each.
        let max = MAX_ID_BYTES;
        assert!(hello_with("a", Some((max, max))).is_ok());
        assert!(hello_with("a", Some((max + 1, 1))).is_err());
        assert!(hello_with("a", Some((1, max + 1))).is_err());
        let e = hello_with("a", Some((1, max + 1))).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadField);
        assert!(e.message.starts_with("hello.resume"), "{e}");
        // Games: 1 to MAX_GAMES_PER_HELLO.
        let games = |n: u32| {
            parse_client(
                &json!({"type": "hello", "protocol": 1, "name": "a", "game": "four3d", "games": n})
                    .to_string(),
            )
        };
        assert!(games(1).is_ok());
        assert!(games(MAX_GAMES_PER_HELLO).is_ok());
        assert!(games(MAX_GAMES_PER_HELLO + 1).is_err());
        assert!(games(0).is_err());
    }

    #[test]
    fn false_flags_are_absent_from_the_wire() {
        let start = |resumed| ServerMsg::GameStart {
            game_id: "g".into(),
            game: "four3d".into(),
            number: 1,
            of: 1,
            seat: 0,
            opponent: "o".into(),
            clock: ClockInfo::default(),
            seat_token: None,
            resumed,
        };
        let played = |hidden| ServerMsg::MovePlayed {
            game_id: "g".into(),
            ply: 0,
            seat: 0,
            mv: json!(1),
            ms: 1,
            hidden,
        };
        let wire = |m: &ServerMsg| serde_json::from_str::<Value>(&encode_server(m)).unwrap();
        assert_eq!(wire(&start(false)).get("resumed"), None);
        assert_eq!(wire(&start(true))["resumed"], json!(true));
        assert_eq!(wire(&played(false)).get("hidden"), None);
        assert_eq!(wire(&played(true))["hidden"], json!(true));
    }

    #[test]
    fn names_print_as_on_the_wire() {
        for o in [Opponent::Any, Opponent::House] {
            assert_eq!(json!(o.to_string()), serde_json::to_value(o).unwrap());
            assert_eq!(o.to_string().parse::<Opponent>(), Ok(o));
        }
        assert!("me".parse::<Opponent>().is_err());
        for r in [YourResult::Win, YourResult::Loss, YourResult::Draw] {
            assert_eq!(json!(r.to_string()), serde_json::to_value(r).unwrap());
        }
        for c in ErrorCode::ALL {
            assert_eq!(c.to_string(), c.as_str());
        }
    }

    #[test]
    fn error_codes_have_unique_names() {
        for c in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_wire(c.as_str()), Some(*c));
        }
        assert!(ErrorCode::ShuttingDown.is_fatal());
        assert!(!ErrorCode::BadJson.is_fatal());
    }

    #[test]
    fn your_result_for_seat() {
        assert_eq!(YourResult::for_seat(Some(0), 0), YourResult::Win);
        assert_eq!(YourResult::for_seat(Some(0), 1), YourResult::Loss);
        assert_eq!(YourResult::for_seat(None, 1), YourResult::Draw);
    }
}
