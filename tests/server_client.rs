//! The match server and client libraries in-process: full matches, garbage
//! input, disconnects, timeouts, illegal moves, the house bot, heartbeats and
//! shutdown.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use ladderbot::games::four3d::Board;
use ladderbot::games::AgentParams;
use ladderbot::platforms::ws::client::{
    run_client, ClientConfig, ClientError, ClientSummary, GameFinished, Opponent,
};
use ladderbot::platforms::ws::protocol::{
    encode_client, parse_server, ClientMsg, Hello, Resume, ServerMsg, YourResult,
};
use ladderbot::platforms::ws::server::{
    ClockConfig, HouseConfig, Server, ServerConfig, ServerError,
};
use ladderbot::records::{read_records, EndReason};

const WAIT: Duration = Duration::from_secs(10);

struct Running {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServerError>>,
}

impl Running {
    fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }
    async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        tokio::time::timeout(WAIT, &mut self.task)
            .await
            .expect("server stops in time")
            .unwrap()
            .unwrap();
    }
}

fn server_config(records: Option<&Path>) -> ServerConfig {
    ServerConfig {
        bind: "127.0.0.1:0".into(),
        clock: ClockConfig {
            time_per_move_ms: Some(2000),
            time_bank_ms: None,
            increment_ms: 0,
        },
        records: records.map(Path::to_path_buf),
        heartbeat_interval: Duration::from_millis(100),
        heartbeat_timeout: Duration::from_secs(3),
        house: None,
        seed: 7,
        game_options: Default::default(),
        openings: Default::default(),
        token: None,
        limits: Default::default(),
        shutdown_grace: Duration::ZERO,
    }
}

async fn start(config: ServerConfig) -> Running {
    let server = Server::bind(config).await.expect("bind");
    let addr = server.local_addr();
    let (tx, rx) = oneshot::channel();
    let task = tokio::spawn(server.run(async move {
        let _ = rx.await;
    }));
    Running {
        addr,
        stop: Some(tx),
        task,
    }
}

fn client_config(url: &str, name: &str, agent: &str, games: u32, seed: u64) -> ClientConfig {
    ClientConfig {
        url: url.into(),
        name: name.into(),
        agent: agent.into(),
        params: AgentParams::new(),
        playouts: Some(200),
        time_ms: None,
        margin_ms: 5,
        games,
        opponent: Opponent::Any,
        connect_timeout: Duration::from_secs(2),
        backoff_initial: Duration::from_millis(10),
        backoff_max: Duration::from_millis(50),
        max_reconnects: 2,
        seed,
        ..ClientConfig::default()
    }
}

type Played = Arc<Mutex<Vec<GameFinished>>>;

/// Runs a client in a task; its finished games are collected.
fn spawn_client(config: ClientConfig) -> (JoinHandle<Result<ClientSummary, ClientError>>, Played) {
    let played: Played = Arc::default();
    let p = played.clone();
    let task = tokio::spawn(run_client::<Board>(config, move |g| {
        p.lock().unwrap().push(g.clone())
    }));
    (task, played)
}

async fn finish(task: JoinHandle<Result<ClientSummary, ClientError>>) -> ClientSummary {
    tokio::time::timeout(WAIT, task)
        .await
        .expect("client finishes in time")
        .unwrap()
        .expect("client succeeds")
}

/// A hand-driven protocol client.
struct Raw {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    log: Vec<String>,
}

impl Raw {
    /// Connects and reads the `welcome`.
    async fn connect(url: &str) -> Raw {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connect");
        let mut raw = Raw {
            ws,
            log: Vec::new(),
        };
        let welcome = raw.recv().await;
        assert!(
            matches!(welcome, ServerMsg::Welcome { protocol: 1, .. }),
            "{welcome:?}"
        );
        raw
    }

    async fn send_text(&mut self, text: &str) {
        self.log.push(format!("C: {text}"));
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    async fn send(&mut self, msg: &ClientMsg) {
        self.send_text(&encode_client(msg)).await;
    }

    async fn hello(&mut self, name: &str, games: u32, opponent: Opponent) {
        self.hello_game(name, "four3d", games, opponent).await;
    }

    async fn hello_game(&mut self, name: &str, game: &str, games: u32, opponent: Opponent) {
        self.send(&ClientMsg::Hello(Hello {
            protocol: 1,
            name: name.into(),
            game: game.into(),
            games,
            opponent,
            token: None,
            resume: None,
        }))
        .await;
    }

    /// Sends a move for `game_id`.
    async fn play(&mut self, game_id: &str, mv: Value) {
        self.send(&ClientMsg::Move {
            game_id: game_id.into(),
            mv,
        })
        .await;
    }

    /// Asserts that no protocol message arrives within `d` (WebSocket
    /// pings may).
    async fn silent_for(&mut self, d: Duration) {
        let until = tokio::time::Instant::now() + d;
        while let Ok(frame) = tokio::time::timeout_at(until, self.ws.next()).await {
            if let Some(Ok(Message::Text(t))) = frame {
                panic!("expected silence, got {t}");
            }
        }
    }

    /// The seat of the next `game_start`.
    async fn seat(&mut self) -> usize {
        match self
            .recv_until(|m| matches!(m, ServerMsg::GameStart { .. }))
            .await
        {
            ServerMsg::GameStart { seat, .. } => seat,
            _ => unreachable!(),
        }
    }

    /// The next protocol message (WebSocket pings are answered underneath).
    async fn recv(&mut self) -> ServerMsg {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time")
                .expect("connection open")
                .expect("readable frame");
            if let Message::Text(t) = frame {
                self.log.push(format!("S: {t}"));
                return parse_server(&t).expect("valid server message");
            }
        }
    }

    /// Skips messages until one matches.
    async fn recv_until(&mut self, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
    }

    async fn expect_error(&mut self, code: &str) -> String {
        match self.recv().await {
            ServerMsg::Error {
                code: c,
                message,
                fatal,
            } => {
                assert_eq!(c, code, "{message}");
                assert!(!fatal);
                message
            }
            other => panic!("expected error {code}, got {other:?}"),
        }
    }
}

fn is_move_request(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::MoveRequest { .. })
}

fn is_game_over(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::GameOver { .. })
}

fn records_path(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("records.jsonl")
}

/// (a) pmc vs random: 4 full games, alternating seats, 4 records.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_clients_play_four_games_with_alternating_seats() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(server_config(Some(&records_path(&dir)))).await;
    let (a, a_games) = spawn_client(client_config(&server.url(), "pmc-bot", "pmc", 4, 1));
    let (b, b_games) = spawn_client(client_config(&server.url(), "random-bot", "random", 4, 2));
    let (sa, sb) = (finish(a).await, finish(b).await);
    assert_eq!(sa.games, 4);
    assert_eq!(sb.games, 4);
    assert_eq!(sa.wins, sb.losses);
    assert_eq!(sa.draws, sb.draws);
    assert!(
        sa.wins >= 3,
        "pmc should beat random: {sa:?} {:?}",
        a_games.lock().unwrap()
    );

    let a_games = a_games.lock().unwrap().clone();
    let b_games = b_games.lock().unwrap().clone();
    let seats: Vec<_> = a_games.iter().map(|g| g.seat).collect();
    let s0 = seats[0];
    assert_eq!(seats, [s0, 1 - s0, s0, 1 - s0]);
    for (ga, gb) in a_games.iter().zip(&b_games) {
        assert_eq!(ga.game_id, gb.game_id);
        assert_eq!(ga.seat, 1 - gb.seat);
        assert_eq!(ga.opponent, "random-bot");
        assert_eq!(gb.opponent, "pmc-bot");
        assert_eq!(ga.reason, EndReason::Rules);
        assert!(ga.moves >= 7, "{ga:?}");
    }
    assert_eq!(
        a_games.iter().map(|g| g.number).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );

    let records = read_records(records_path(&dir)).unwrap();
    assert_eq!(records.len(), 4);
    for (i, (r, g)) in records.iter().zip(&a_games).enumerate() {
        assert_eq!(r.id, g.game_id);
        assert_eq!(r.game, "four3d");
        assert_eq!(r.reason, EndReason::Rules);
        assert_eq!(r.moves.len(), g.moves as usize);
        assert_eq!(r.move_ms.len(), r.moves.len());
        assert_eq!(r.players[g.seat], "pmc-bot", "record {i}");
        assert_eq!(r.players[1 - g.seat], "random-bot", "record {i}");
        // Replaying the recorded moves gives the recorded result.
        let mut b = Board::new();
        for m in &r.moves {
            use ladderbot::games::PlayableGame;
            use ladderbot::search::Game;
            let mv = Board::move_from_json(m).unwrap();
            assert!(b.is_legal(mv));
            b.play(mv);
        }
        use ladderbot::search::{Game, Outcome};
        let winner = match b.outcome().expect("recorded game is over") {
            Outcome::Win(s) => Some(s),
            Outcome::Draw => None,
        };
        assert_eq!(r.winner, winner);
    }
    server.stop().await;
}

/// (b) Garbage gets `error` replies, the connection stays usable, and other
/// games go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn garbage_gets_errors_and_other_games_go_on() {
    let server = start(server_config(None)).await;
    let (a, _) = spawn_client(client_config(&server.url(), "a", "random", 3, 1));
    let (b, _) = spawn_client(client_config(&server.url(), "b", "random", 3, 2));

    let mut raw = Raw::connect(&server.url()).await;
    raw.send_text("not json").await;
    raw.expect_error("bad_json").await;
    raw.send_text(r#"{"type":"nope"}"#).await;
    raw.expect_error("unknown_type").await;
    raw.send_text(r#"{"type":"move","game_id":"x","move":3}"#)
        .await;
    raw.expect_error("no_game").await;
    raw.send_text(r#"{"type":"move","move":3}"#).await;
    raw.expect_error("bad_field").await;
    raw.send_text(r#"{"type":"hello","protocol":1,"name":"g","game":"chess"}"#)
        .await;
    raw.expect_error("unknown_game").await;
    raw.send_text(r#"{"type":"hello","protocol":2,"name":"g","game":"four3d"}"#)
        .await;
    raw.expect_error("unsupported_version").await;
    raw.send_text(r#"{"type":"hello","protocol":1,"name":"g","game":"four3d","opponent":"house"}"#)
        .await;
    raw.expect_error("house_unavailable").await;
    raw.ws.send(Message::Binary(vec![1, 2, 3])).await.unwrap();
    raw.expect_error("bad_json").await;
    raw.send_text(r#"{"type":"ping","id":42}"#).await;
    assert_eq!(
        raw.recv().await,
        ServerMsg::Pong {
            id: Some(json!(42))
        }
    );
    raw.send_text(r#"{"type":"ping"}"#).await;
    assert_eq!(raw.recv().await, ServerMsg::Pong { id: None });

    let (sa, sb) = (finish(a).await, finish(b).await);
    assert_eq!((sa.games, sb.games), (3, 3));
    assert_eq!(sa.wins, sb.losses);
    // Still usable after all that.
    raw.send_text(r#"{"type":"ping","id":"again"}"#).await;
    assert_eq!(
        raw.recv().await,
        ServerMsg::Pong {
            id: Some(json!("again"))
        }
    );
    for line in &raw.log {
        println!("{line}");
    }
    server.stop().await;
}

/// Starts `raw` waiting first (so it sits in seat 0 of game 1), then a
/// random client that wants `games` games; the game's id and `raw`'s seat
/// token.
async fn raw_then_client(
    server: &Running,
    raw_name: &str,
    games: u32,
) -> (
    Raw,
    JoinHandle<Result<ClientSummary, ClientError>>,
    Played,
    String,
    String,
) {
    let mut raw = Raw::connect(&server.url()).await;
    raw.hello(raw_name, 1, Opponent::Any).await;
    assert!(matches!(raw.recv().await, ServerMsg::Waiting { .. }));
    let (task, played) = spawn_client(client_config(&server.url(), "opponent", "random", games, 3));
    let (game_id, token) = match raw.recv().await {
        ServerMsg::GameStart {
            game_id,
            seat,
            opponent,
            number,
            of,
            seat_token,
            resumed: false,
            ..
        } => {
            assert_eq!((seat, number, of), (0, 1, 1));
            assert_eq!(opponent, "opponent");
            (game_id, seat_token.unwrap_or_default())
        }
        other => panic!("expected game_start, got {other:?}"),
    };
    (raw, task, played, game_id, token)
}

/// (c) A client that closes mid-game and does not resume its seat within
/// the resume window loses by disconnect; it is recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn closing_mid_game_loses_by_disconnect() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = server_config(Some(&records_path(&dir)));
    config.limits.resume_window = Duration::from_millis(300);
    let server = start(config).await;
    let (mut raw, task, played, game_id, _) = raw_then_client(&server, "quitter", 1).await;
    let req = raw.recv().await;
    assert!(is_move_request(&req), "{req:?}");
    let closed = Instant::now();
    raw.ws.close(None).await.unwrap();

    let s = finish(task).await;
    assert_eq!((s.games, s.wins), (1, 1));
    let g = played.lock().unwrap()[0].clone();
    assert_eq!(g.your_result, Some(YourResult::Win));
    assert_eq!(g.reason, EndReason::Disconnect);
    assert_eq!(g.game_id, game_id);
    let records = read_records(records_path(&dir)).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].reason, EndReason::Disconnect);
    assert_eq!(records[0].winner, Some(1));
    assert_eq!(
        records[0].players,
        ["quitter".to_string(), "opponent".into()]
    );
    assert!(records[0].moves.is_empty());
    // Judged at the window's end (300 ms), before the move's 2 s clock.
    let detail = records[0].detail.clone().unwrap_or_default();
    assert!(
        detail.contains("did not come back within 300 ms"),
        "{detail}"
    );
    let waited = closed.elapsed();
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(waited < Duration::from_millis(1900), "{waited:?}");
    server.stop().await;
}

/// (d) A client that never answers loses on time, no earlier than its limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_silent_client_loses_by_timeout() {
    let mut config = server_config(None);
    config.clock.time_per_move_ms = Some(300);
    let server = start(config).await;
    let (mut raw, task, played, _, _) = raw_then_client(&server, "sleeper", 1).await;
    let req = raw.recv().await;
    let asked = Instant::now();
    match &req {
        ServerMsg::MoveRequest {
            your_time_ms,
            remaining_ms,
            time_per_move_ms,
            ply,
            state,
            ..
        } => {
            assert_eq!(
                (*your_time_ms, *remaining_ms, *time_per_move_ms),
                (300, None, Some(300))
            );
            assert_eq!(*ply, 0);
            assert_eq!(state["cells"], ".".repeat(64));
        }
        other => panic!("expected move_request, got {other:?}"),
    }
    let over = raw.recv_until(is_game_over).await;
    let waited = asked.elapsed();
    match over {
        ServerMsg::GameOver {
            reason,
            your_result,
            winner,
            result,
            ..
        } => {
            assert_eq!(reason, EndReason::Timeout);
            assert_eq!(your_result, YourResult::Loss);
            assert_eq!((winner, result.as_str()), (Some(1), "0-1"));
        }
        other => panic!("{other:?}"),
    }
    assert!(waited >= Duration::from_millis(250), "{waited:?}");
    assert!(waited < Duration::from_millis(2000), "{waited:?}");
    let s = finish(task).await;
    assert_eq!(s.wins, 1);
    assert_eq!(played.lock().unwrap()[0].reason, EndReason::Timeout);
    assert!(matches!(
        raw.recv().await,
        ServerMsg::MatchOver {
            games: 1,
            losses: 1,
            ..
        }
    ));
    server.stop().await;
}

/// (e) Unreadable, illegal and wrong-game moves lose with `illegal_move`;
/// `hello` again after `match_over` starts a new match.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn illegal_moves_lose() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(server_config(Some(&records_path(&dir)))).await;

    // An unreadable move.
    let (mut raw, task, played, game_id, _) = raw_then_client(&server, "cheat", 1).await;
    assert!(is_move_request(&raw.recv().await));
    raw.send(&ClientMsg::Move {
        game_id: game_id.clone(),
        mv: json!(99),
    })
    .await;
    let over = raw.recv_until(is_game_over).await;
    let ServerMsg::GameOver {
        reason,
        detail,
        your_result,
        ..
    } = over
    else {
        unreachable!()
    };
    assert_eq!(
        (reason, your_result),
        (EndReason::IllegalMove, YourResult::Loss)
    );
    assert!(detail.as_deref().unwrap_or("").contains("99"), "{detail:?}");
    assert_eq!(finish(task).await.wins, 1);
    assert_eq!(played.lock().unwrap()[0].reason, EndReason::IllegalMove);
    assert!(matches!(raw.recv().await, ServerMsg::MatchOver { .. }));

    // Same connection, a new match: a move for the wrong game.
    raw.hello("cheat", 1, Opponent::Any).await;
    assert!(matches!(raw.recv().await, ServerMsg::Waiting { .. }));
    let (task, _) = spawn_client(client_config(&server.url(), "opponent2", "random", 1, 4));
    let gid = match raw.recv().await {
        ServerMsg::GameStart {
            game_id, seat: 0, ..
        } => game_id,
        other => panic!("{other:?}"),
    };
    assert_ne!(gid, game_id);
    assert!(is_move_request(&raw.recv().await));
    raw.send(&ClientMsg::Move {
        game_id: "bogus".into(),
        mv: json!(0),
    })
    .await;
    let ServerMsg::GameOver { reason, detail, .. } = raw.recv_until(is_game_over).await else {
        unreachable!()
    };
    assert_eq!(reason, EndReason::IllegalMove);
    assert!(detail.unwrap_or_default().contains("bogus"));
    assert_eq!(finish(task).await.wins, 1);

    // A well-formed move the rules forbid: two raw players fill peg 0,
    // then seat 0 plays it again.
    raw.recv_until(|m| matches!(m, ServerMsg::MatchOver { .. }))
        .await;
    raw.hello("cheat", 1, Opponent::Any).await;
    assert!(matches!(raw.recv().await, ServerMsg::Waiting { .. }));
    let mut other = Raw::connect(&server.url()).await;
    other.hello("filler", 1, Opponent::Any).await;
    let mut players = [raw, other];
    let mut gid = String::new();
    for p in players.iter_mut() {
        match p.recv().await {
            ServerMsg::GameStart { game_id, .. } => gid = game_id,
            m => panic!("{m:?}"),
        }
    }
    for ply in 0..5 {
        let p = &mut players[ply % 2];
        let req = p.recv_until(is_move_request).await;
        let ServerMsg::MoveRequest { state, .. } = req else {
            unreachable!()
        };
        let open = state["legal"].as_array().unwrap().contains(&json!(0));
        assert_eq!(open, ply < 4, "peg 0 is full after 4 moves");
        p.send(&ClientMsg::Move {
            game_id: gid.clone(),
            mv: json!(0),
        })
        .await;
    }
    for (seat, p) in players.iter_mut().enumerate() {
        let ServerMsg::GameOver {
            reason,
            detail,
            your_result,
            moves,
            ..
        } = p.recv_until(is_game_over).await
        else {
            unreachable!()
        };
        assert_eq!((reason, moves), (EndReason::IllegalMove, 4));
        assert_eq!(
            your_result,
            if seat == 0 {
                YourResult::Loss
            } else {
                YourResult::Win
            }
        );
        assert!(detail
            .unwrap_or_default()
            .contains("illegal move 0 at ply 4"));
    }
    let records = read_records(records_path(&dir)).unwrap();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0].reason, EndReason::IllegalMove);
    assert!(records.iter().all(|r| r.reason == EndReason::IllegalMove));
    assert_eq!(records[2].moves, vec![json!(0); 4]);
    server.stop().await;
}

/// (f) The house bot plays a client's 2 games; unknown house agents and a
/// missing house bot are reported to the client.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn house_bot_plays_and_bad_house_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = server_config(Some(&records_path(&dir)));
    config.house = Some(HouseConfig {
        name: "house".into(),
        agent: "pmc".into(),
        params: AgentParams::new(),
        playouts: Some(100),
        time_ms: None,
    });
    let server = start(config).await;
    let mut cfg = client_config(&server.url(), "visitor", "random", 2, 9);
    cfg.opponent = Opponent::House;
    let (task, played) = spawn_client(cfg);
    let s = finish(task).await;
    assert_eq!(s.games, 2);
    let played = played.lock().unwrap().clone();
    assert_eq!(played[0].opponent, "house");
    assert_eq!((played[0].seat, played[1].seat), (0, 1));
    assert!(played.iter().all(|g| g.reason == EndReason::Rules));
    let records = read_records(records_path(&dir)).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].players, ["visitor".to_string(), "house".into()]);
    assert_eq!(records[1].players, ["house".to_string(), "visitor".into()]);
    server.stop().await;

    let mut config = server_config(None);
    config.house = Some(HouseConfig {
        name: "house".into(),
        agent: "no-such-agent".into(),
        params: AgentParams::new(),
        playouts: None,
        time_ms: None,
    });
    let server = start(config).await;
    let mut cfg = client_config(&server.url(), "visitor", "random", 1, 9);
    cfg.opponent = Opponent::House;
    let e = run_client::<Board>(cfg, |_| {}).await.unwrap_err();
    match e {
        ClientError::Rejected { code, message } => {
            assert_eq!(code, "house_unavailable");
            assert!(message.contains("no-such-agent"), "{message}");
        }
        other => panic!("{other}"),
    }
    server.stop().await;
}

/// A connection that stops reading (so never answers pings) is closed
/// after the heartbeat timeout and loses by disconnect.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_dead_peer_is_dropped_by_the_heartbeat() {
    let mut config = server_config(None);
    config.clock.time_per_move_ms = Some(20_000);
    config.heartbeat_interval = Duration::from_millis(50);
    config.heartbeat_timeout = Duration::from_millis(400);
    config.limits.resume_window = Duration::from_millis(200);
    let server = start(config).await;
    let (mut raw, task, played, _, _) = raw_then_client(&server, "frozen", 1).await;
    assert!(is_move_request(&raw.recv().await));
    let frozen = Instant::now();
    // Stop reading: no pong is ever sent, though the socket stays open.
    let s = finish(task).await;
    assert_eq!(s.wins, 1);
    assert_eq!(played.lock().unwrap()[0].reason, EndReason::Disconnect);
    let waited = frozen.elapsed();
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    drop(raw);
    server.stop().await;
}

/// A full game against the house, checking the order of messages and the
/// bank clock; prints the transcript (see `--nocapture`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transcript_against_the_house() {
    let mut config = server_config(None);
    config.clock = ClockConfig {
        time_per_move_ms: Some(1000),
        time_bank_ms: Some(5000),
        increment_ms: 100,
    };
    config.house = Some(HouseConfig {
        name: "house".into(),
        agent: "random".into(),
        params: AgentParams::new(),
        playouts: None,
        time_ms: None,
    });
    let server = start(config).await;
    let mut raw = Raw::connect(&server.url()).await;
    raw.send_text(r#"{"type":"ping","id":1}"#).await;
    assert_eq!(raw.recv().await, ServerMsg::Pong { id: Some(json!(1)) });
    raw.hello("demo", 1, Opponent::House).await;
    let ServerMsg::GameStart {
        game_id,
        seat,
        clock,
        ..
    } = raw.recv().await
    else {
        panic!("expected game_start")
    };
    assert_eq!(seat, 0);
    assert_eq!(clock.time_bank_ms, Some(5000));
    let mut last_bank = None;
    let mut moves_seen = 0;
    let over = loop {
        match raw.recv().await {
            ServerMsg::MoveRequest {
                game_id: g,
                state,
                remaining_ms,
                your_time_ms,
                ..
            } => {
                assert_eq!(g, game_id);
                let [mine, _] = remaining_ms.expect("a bank");
                assert_eq!(your_time_ms, mine.min(1000));
                if let Some(prev) = last_bank {
                    // Each of our moves costs little and earns 100 ms.
                    assert!(mine + 50 >= prev, "{mine} vs {prev}");
                }
                last_bank = Some(mine);
                let first_legal = state["legal"][0].clone();
                raw.send(&ClientMsg::Move {
                    game_id: game_id.clone(),
                    mv: first_legal,
                })
                .await;
            }
            ServerMsg::MovePlayed { .. } => moves_seen += 1,
            m @ ServerMsg::GameOver { .. } => break m,
            other => panic!("unexpected {other:?}"),
        }
    };
    let ServerMsg::GameOver { moves, reason, .. } = over else {
        unreachable!()
    };
    assert_eq!(reason, EndReason::Rules);
    assert_eq!(moves, moves_seen);
    assert!(matches!(
        raw.recv().await,
        ServerMsg::MatchOver { games: 1, .. }
    ));
    for line in &raw.log {
        println!("{line}");
    }
    server.stop().await;
}

/// Shutting the server down tells connected clients and ends `run`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_notifies_clients() {
    let server = start(server_config(None)).await;
    let mut raw = Raw::connect(&server.url()).await;
    raw.hello("early", 1, Opponent::Any).await;
    assert!(matches!(raw.recv().await, ServerMsg::Waiting { .. }));
    server.stop().await;
    match raw.recv().await {
        ServerMsg::Error { code, fatal, .. } => {
            assert_eq!(code, "shutting_down");
            assert!(fatal);
        }
        other => panic!("{other:?}"),
    }
}

/// Values in records and messages are plain JSON (no Rust-specific shapes).
#[test]
fn clock_info_is_plain_json() {
    let info = ClockConfig {
        time_per_move_ms: Some(5),
        time_bank_ms: None,
        increment_ms: 0,
    }
    .info();
    let v: Value = serde_json::to_value(info).unwrap();
    assert_eq!(
        v,
        json!({"time_per_move_ms": 5, "time_bank_ms": null, "increment_ms": 0})
    );
}

/// A TCP proxy to `target` whose first connection is cut right after the
/// server sends it a chunk holding `after` (e.g. `"game_start"`): the
/// client sees the message, then EOF.
async fn cutting_proxy(target: SocketAddr, after: &'static str) -> SocketAddr {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut first = true;
        while let Ok((client, _)) = listener.accept().await {
            let server = TcpStream::connect(target).await.unwrap();
            let _ = (client.set_nodelay(true), server.set_nodelay(true));
            let cut = std::mem::take(&mut first);
            tokio::spawn(async move {
                let (mut cr, mut cw) = client.into_split();
                let (mut sr, mut sw) = server.into_split();
                let up = tokio::spawn(async move {
                    let _ = tokio::io::copy(&mut cr, &mut sw).await;
                });
                let mut buf = vec![0u8; 64 * 1024];
                loop {
                    let n = match sr.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    if cw.write_all(&buf[..n]).await.is_err() {
                        break;
                    }
                    let text = String::from_utf8_lossy(&buf[..n]);
                    if cut && text.contains(after) {
                        // FIN to the client; the server side is dropped.
                        let _ = cw.shutdown().await;
                        up.abort();
                        return;
                    }
                }
                let _ = cw.shutdown().await;
                let _ = up.await;
            });
        }
    });
    addr
}

/// Two random clients play 2 games; "flaky" reaches the server through a
/// proxy that cuts its first connection after a chunk holding `cut_after`.
/// Their summaries and games.
async fn flaky_and_steady(
    server: &Running,
    cut_after: &'static str,
) -> (
    ClientSummary,
    ClientSummary,
    Vec<GameFinished>,
    Vec<GameFinished>,
) {
    let proxy = cutting_proxy(server.addr, cut_after).await;
    let (a, a_games) = spawn_client(client_config(
        &format!("ws://{proxy}"),
        "flaky",
        "random",
        2,
        1,
    ));
    let (b, b_games) = spawn_client(client_config(&server.url(), "steady", "random", 2, 2));
    let (sa, sb) = (finish(a).await, finish(b).await);
    let a_games = a_games.lock().unwrap().clone();
    let b_games = b_games.lock().unwrap().clone();
    (sa, sb, a_games, b_games)
}

/// On a server that allows no resume (`resume_window` 0), a client whose
/// connection drops mid-game counts that game as lost by disconnect,
/// reconnects and plays its remaining games.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn client_reconnects_after_a_drop_and_finishes_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = server_config(Some(&records_path(&dir)));
    config.limits.resume_window = Duration::ZERO;
    let server = start(config).await;
    let (sa, sb, a_games, b_games) = flaky_and_steady(&server, "\"game_start\"").await;
    assert_eq!((sa.games, sb.games), (2, 2));
    assert_eq!(a_games[0].reason, EndReason::Disconnect);
    assert_eq!(a_games[0].your_result, Some(YourResult::Loss));
    assert_eq!(b_games[0].reason, EndReason::Disconnect);
    assert_eq!(b_games[0].your_result, Some(YourResult::Win));
    assert_eq!(a_games[0].game_id, b_games[0].game_id);
    // The second game was played in full on a new connection.
    assert_eq!(a_games[1].game_id, b_games[1].game_id);
    assert_eq!(a_games[1].reason, EndReason::Rules);
    let records = read_records(records_path(&dir)).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].reason, EndReason::Disconnect);
    assert_eq!(records[1].reason, EndReason::Rules);
    server.stop().await;
}

/// A client that keeps reading (so its WebSocket library answers pings)
/// stays connected through long silences, and pings are really sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reading_peer_survives_the_heartbeat() {
    let mut config = server_config(None);
    config.heartbeat_interval = Duration::from_millis(50);
    config.heartbeat_timeout = Duration::from_millis(300);
    let server = start(config).await;
    let mut raw = Raw::connect(&server.url()).await;
    raw.hello("patient", 1, Opponent::Any).await;
    assert!(matches!(raw.recv().await, ServerMsg::Waiting { .. }));
    let mut pings = 0;
    let quiet_until = Instant::now() + Duration::from_millis(1000);
    while let Ok(frame) = tokio::time::timeout_at(quiet_until.into(), raw.ws.next()).await {
        match frame.expect("still open").expect("readable") {
            Message::Ping(_) => pings += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(pings >= 10, "{pings} pings");
    raw.send_text(r#"{"type":"ping","id":"still here"}"#).await;
    assert_eq!(
        raw.recv().await,
        ServerMsg::Pong {
            id: Some(json!("still here"))
        }
    );
    server.stop().await;
}

/// The (game id, observation) of the next `move_request`.
async fn next_request(c: &mut Raw) -> (String, Value) {
    match c
        .recv_until(|m| is_move_request(m) || is_game_over(m))
        .await
    {
        ServerMsg::MoveRequest { game_id, state, .. } => (game_id, state),
        other => panic!(
            "expected a move_request, got {other:?}\n{}",
            c.log.join("\n")
        ),
    }
}

/// A Goofspiel bid from an observation: the lowest card in hand.
fn lowest_card(obs: &Value) -> Value {
    let hand = obs["hand"].as_array().expect("a hand in the observation");
    json!(hand
        .iter()
        .filter_map(|c| c.as_u64())
        .min()
        .expect("a card"))
}

/// (d) Simultaneous turns: both seats asked at once, neither move shown
/// before both are in, each seat on its own clock, a second move refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_turns_hide_each_move_until_both_are_in() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(server_config(Some(&records_path(&dir)))).await;
    let mut a = Raw::connect(&server.url()).await;
    let mut b = Raw::connect(&server.url()).await;
    a.hello_game("a", "goofspiel", 1, Opponent::Any).await;
    b.hello_game("b", "goofspiel", 1, Opponent::Any).await;
    // Both seats get a move request for the same turn.
    let (gid, obs_a) = next_request(&mut a).await;
    let (gid_b, obs_b) = next_request(&mut b).await;
    assert_eq!(gid, gid_b);
    for obs in [&obs_a, &obs_b] {
        assert_eq!(obs["round"], 0, "{obs}");
        // An observation never holds the face-down prize cards.
        assert!(obs.get("deck").is_none(), "{obs}");
    }
    assert_ne!(obs_a["seat"], obs_b["seat"]);
    // A answers at once; B hears nothing of it while B thinks.
    let bid_a = lowest_card(&obs_a);
    a.play(&gid, bid_a.clone()).await;
    b.silent_for(Duration::from_millis(300)).await;
    // A second move in the same turn is refused; the first stands.
    a.play(&gid, json!(13)).await;
    a.expect_error("not_your_turn").await;
    let bid_b = lowest_card(&obs_b);
    b.play(&gid, bid_b.clone()).await;
    // Then both moves are shown to both, seat 0's first, each with its own time.
    let mut shown = Vec::new();
    for c in [&mut a, &mut b] {
        let mut got = Vec::new();
        for _ in 0..2 {
            match c
                .recv_until(|m| matches!(m, ServerMsg::MovePlayed { .. }))
                .await
            {
                ServerMsg::MovePlayed {
                    ply,
                    seat,
                    mv,
                    ms,
                    hidden,
                    ..
                } => got.push((ply, seat, mv, ms, hidden)),
                _ => unreachable!(),
            }
        }
        shown.push(got);
    }
    assert_eq!(shown[0], shown[1]);
    let got = &shown[0];
    assert_eq!((got[0].0, got[0].1, got[1].0, got[1].1), (0, 0, 1, 1));
    assert!(!got[0].4 && !got[1].4);
    let a_seat = obs_a["seat"].as_u64().unwrap() as usize;
    assert_eq!(got[a_seat].2, bid_a);
    assert_eq!(got[1 - a_seat].2, bid_b);
    // A's clock stopped when A answered; B's ran on for its own 300 ms.
    assert!(got[a_seat].3 < 250, "{got:?}");
    assert!(got[1 - a_seat].3 >= 300, "{got:?}");
    // Play the game out, both seats bidding their lowest card each turn.
    let over = loop {
        let ra = a
            .recv_until(|m| is_move_request(m) || is_game_over(m))
            .await;
        if let ServerMsg::GameOver { .. } = ra {
            break ra;
        }
        let ServerMsg::MoveRequest { state, .. } = ra else {
            unreachable!()
        };
        a.play(&gid, lowest_card(&state)).await;
        let (_, sb) = next_request(&mut b).await;
        b.play(&gid, lowest_card(&sb)).await;
    };
    // Equal bids every round: every prize discarded, a draw by the rules.
    let ServerMsg::GameOver {
        winner,
        reason,
        moves,
        ..
    } = over
    else {
        unreachable!()
    };
    assert_eq!((winner, reason, moves), (None, EndReason::Rules, 26));
    server.stop().await;
    let recs = read_records(records_path(&dir)).unwrap();
    assert_eq!(recs.len(), 1);
    let end: ladderbot::games::goofspiel::Goofspiel =
        ladderbot::games::replay(&recs[0].start, &recs[0].moves).expect("the record replays");
    use ladderbot::model::Model;
    assert_eq!(end.turn().outcome().map(|o| o.winner()), Some(None));
}

/// (e) A seat that misses its own deadline in a simultaneous turn loses by
/// timeout, though the other seat answered; both late: a draw.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_timeouts_lose_or_draw() {
    let mut config = server_config(None);
    config.clock.time_per_move_ms = Some(300);
    let server = start(config).await;
    for both_late in [false, true] {
        let mut a = Raw::connect(&server.url()).await;
        let mut b = Raw::connect(&server.url()).await;
        a.hello_game("a", "goofspiel", 1, Opponent::Any).await;
        b.hello_game("b", "goofspiel", 1, Opponent::Any).await;
        let (gid, obs_a) = next_request(&mut a).await;
        let (_, obs_b) = next_request(&mut b).await;
        if !both_late {
            a.play(&gid, lowest_card(&obs_a)).await;
        }
        let start = Instant::now();
        for c in [&mut a, &mut b] {
            match c.recv_until(is_game_over).await {
                ServerMsg::GameOver {
                    winner,
                    reason,
                    detail,
                    ..
                } => {
                    assert_eq!(reason, EndReason::Timeout, "{detail:?}");
                    let b_seat = obs_b["seat"].as_u64().unwrap() as usize;
                    if both_late {
                        assert_eq!(winner, None, "{detail:?}");
                    } else {
                        assert_eq!(winner, Some(1 - b_seat), "{detail:?}");
                        let d = detail.unwrap();
                        assert!(d.contains(&format!("seat {b_seat}")), "{d}");
                    }
                }
                _ => unreachable!(),
            }
        }
        assert!(start.elapsed() < Duration::from_secs(3));
    }
    server.stop().await;
}

/// (f) Geister on the match server: a simultaneous, secret setup turn, then
/// each seat sees only its own colours.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn geister_setups_stay_hidden_on_the_match_server() {
    let server = start(server_config(None)).await;
    let mut a = Raw::connect(&server.url()).await;
    let mut b = Raw::connect(&server.url()).await;
    a.hello_game("a", "geister", 1, Opponent::Any).await;
    b.hello_game("b", "geister", 1, Opponent::Any).await;
    let (seat_a, seat_b) = (a.seat().await, b.seat().await);
    assert_eq!(seat_a + seat_b, 1);
    let (gid, obs_a) = next_request(&mut a).await;
    let (_, obs_b) = next_request(&mut b).await;
    assert_eq!(obs_a, json!({"phase": "setup"}));
    assert_eq!(obs_b, json!({"phase": "setup"}));
    a.play(&gid, json!("SET:ABCD")).await;
    b.play(&gid, json!("SET:EFGH")).await;
    // Each sees its own setup, never the other's.
    for (c, own) in [(&mut a, "SET:ABCD"), (&mut b, "SET:EFGH")] {
        let mut seen = Vec::new();
        for _ in 0..2 {
            if let ServerMsg::MovePlayed { mv, hidden, .. } = c
                .recv_until(|m| matches!(m, ServerMsg::MovePlayed { .. }))
                .await
            {
                seen.push((mv, hidden));
            }
        }
        assert!(seen.contains(&(json!(own), false)), "{seen:?}");
        assert!(seen.contains(&(Value::Null, true)), "{seen:?}");
    }
    // Seat 0 moves first, seeing the opponent's pieces as unknown.
    let (first, second) = if seat_a == 0 {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let (_, obs) = next_request(first).await;
    assert_eq!(obs["seat"], 0);
    let board = obs["board"].as_str().unwrap();
    assert_eq!(board[24..].matches('u').count(), 8, "{board}");
    assert!(
        board[..24].contains('R') && board[..24].contains('B'),
        "{board}"
    );
    first.play(&gid, json!("A,N")).await;
    let (_, obs) = next_request(second).await;
    assert_eq!(obs["seat"], 1);
    assert_eq!(obs["board"].as_str().unwrap()[24..].matches('u').count(), 8);
    server.stop().await;
}

/// (g) Real clients play Goofspiel and Geister through the server; every
/// record replays to its result.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn real_clients_play_simultaneous_and_hidden_games() {
    use ladderbot::games::geister::GeisterGame;
    use ladderbot::games::goofspiel::Goofspiel;
    use ladderbot::model::Model;
    let dir = tempfile::tempdir().unwrap();
    let server = start(server_config(Some(&records_path(&dir)))).await;
    let cfg = |name: &str, agent: &str, seed| {
        let mut c = client_config(&server.url(), name, agent, 4, seed);
        c.playouts = Some(50);
        c
    };
    let a = tokio::spawn(run_client::<Goofspiel>(cfg("m", "match", 1), |_| {}));
    let b = tokio::spawn(run_client::<Goofspiel>(cfg("r", "random", 2), |_| {}));
    let (sa, sb) = (finish(a).await, finish(b).await);
    assert_eq!((sa.games, sb.games), (4, 4));
    assert_eq!((sa.wins, sa.draws), (sb.losses, sb.draws));
    let a = tokio::spawn(run_client::<GeisterGame>(cfg("rule", "rule", 3), |_| {}));
    let b = tokio::spawn(run_client::<GeisterGame>(cfg("rnd", "random", 4), |_| {}));
    let (sa, sb) = (finish(a).await, finish(b).await);
    assert_eq!((sa.games, sb.games), (4, 4));
    assert_eq!(sa.wins, sb.losses);
    server.stop().await;
    let recs = read_records(records_path(&dir)).unwrap();
    assert_eq!(recs.len(), 8);
    for r in &recs {
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        let winner = match r.game.as_str() {
            "goofspiel" => {
                let g: Goofspiel = ladderbot::games::replay(&r.start, &r.moves).unwrap();
                g.turn().outcome().map(|o| o.winner())
            }
            "geister" => {
                let g: GeisterGame = ladderbot::games::replay(&r.start, &r.moves).unwrap();
                assert!(r.ending.is_some());
                g.turn().outcome().map(|o| o.winner())
            }
            other => panic!("unexpected game {other}"),
        };
        assert_eq!(winner, Some(r.winner), "{r:?}");
    }
}

/// (h) Flood-It on the match server with the server's board options: real
/// clients play, the records start on the configured board and replay to
/// their results; a bad option stops the server from starting.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn floodit_games_use_the_servers_board_options_and_replay() {
    use ladderbot::games::floodit::FloodIt;
    use ladderbot::model::Model;
    let dir = tempfile::tempdir().unwrap();
    let mut config = server_config(Some(&records_path(&dir)));
    let mut options = ladderbot::games::GameOptions::new();
    options.insert("size".into(), Value::from("6x9"));
    options.insert("colours".into(), Value::from(4));
    config.game_options.insert("floodit".into(), options);
    let server = start(config).await;
    let cfg = |name: &str, agent: &str, seed| {
        let mut c = client_config(&server.url(), name, agent, 2, seed);
        c.playouts = Some(100);
        c
    };
    let a = tokio::spawn(run_client::<FloodIt>(cfg("mc", "mc", 1), |_| {}));
    let b = tokio::spawn(run_client::<FloodIt>(cfg("greedy", "greedy", 2), |_| {}));
    let (sa, sb) = (finish(a).await, finish(b).await);
    assert_eq!((sa.games, sb.games), (2, 2));
    assert_eq!((sa.wins, sa.draws), (sb.losses, sb.draws));
    server.stop().await;
    let recs = read_records(records_path(&dir)).unwrap();
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.game, "floodit");
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        assert_eq!(
            (r.start["rows"].as_u64(), r.start["cols"].as_u64()),
            (Some(6), Some(9))
        );
        assert_eq!(r.start["colours"].as_u64(), Some(4));
        let g: FloodIt = ladderbot::games::replay(&r.start, &r.moves).unwrap();
        assert_eq!(
            g.turn().outcome().map(|o| o.winner()),
            Some(r.winner),
            "{r:?}"
        );
    }

    let mut bad = server_config(None);
    let mut options = ladderbot::games::GameOptions::new();
    options.insert("size".into(), Value::from("40x40"));
    bad.game_options.insert("floodit".into(), options);
    let err = Server::bind(bad)
        .await
        .err()
        .expect("a 40x40 board is refused");
    assert!(err.to_string().contains("game_options.floodit"), "{err}");
}

/// (i) Puyo duels on the match server: both seats place at once every
/// turn; real clients play, an illegal placement is refused, and the
/// records replay to their results.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn puyo_duels_play_through_the_server_and_replay() {
    use ladderbot::games::puyo::PuyoDuel;
    use ladderbot::model::Model;
    let dir = tempfile::tempdir().unwrap();
    let server = start(server_config(Some(&records_path(&dir)))).await;
    let cfg = |name: &str, agent: &str, seed| client_config(&server.url(), name, agent, 2, seed);
    let a = tokio::spawn(run_client::<PuyoDuel>(cfg("c", "combined", 1), |_| {}));
    let b = tokio::spawn(run_client::<PuyoDuel>(cfg("p", "potential", 2), |_| {}));
    let (sa, sb) = (finish(a).await, finish(b).await);
    assert_eq!((sa.games, sb.games), (2, 2));
    assert_eq!((sa.wins, sa.draws), (sb.losses, sb.draws));
    server.stop().await;
    let recs = read_records(records_path(&dir)).unwrap();
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.game, "puyo");
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        assert_eq!(r.moves.len() % 2, 0, "two placements a turn");
        let g: PuyoDuel = ladderbot::games::replay(&r.start, &r.moves).unwrap();
        assert_eq!(
            g.turn().outcome().map(|o| o.winner()),
            Some(r.winner),
            "{r:?}"
        );
    }

    // Raw seats: both asked at once with the same pairs; a placement off
    // the field loses with `illegal_move`.
    let server = start(server_config(None)).await;
    let mut a = Raw::connect(&server.url()).await;
    let mut b = Raw::connect(&server.url()).await;
    a.hello_game("a", "puyo", 1, Opponent::Any).await;
    b.hello_game("b", "puyo", 1, Opponent::Any).await;
    let (gid, obs_a) = next_request(&mut a).await;
    let (_, obs_b) = next_request(&mut b).await;
    assert_eq!(obs_a["pairs"], obs_b["pairs"]);
    assert_eq!(obs_a["pairs"].as_array().unwrap().len(), 3);
    assert!(obs_a.get("seed").is_none(), "the pairs to come stay hidden");
    a.play(&gid, json!({"col": 5, "rot": 1})).await;
    b.play(&gid, json!({"col": 0, "rot": 0})).await;
    let ServerMsg::GameOver {
        reason,
        your_result,
        ..
    } = a.recv_until(is_game_over).await
    else {
        unreachable!()
    };
    assert_eq!(
        (reason, your_result),
        (EndReason::IllegalMove, YourResult::Loss)
    );
    server.stop().await;
}

/// A `hello` that takes back seat `token` of `game_id`.
fn resume_hello(name: &str, game_id: &str, token: &str) -> ClientMsg {
    ClientMsg::Hello(Hello {
        protocol: 1,
        name: name.into(),
        game: "four3d".into(),
        games: 1,
        opponent: Opponent::Any,
        token: None,
        resume: Some(Resume {
            game_id: game_id.into(),
            seat_token: token.into(),
        }),
    })
}

/// The first legal move of a `move_request`'s state.
fn first_legal(req: &ServerMsg) -> Value {
    match req {
        ServerMsg::MoveRequest { state, .. } => state["legal"][0].clone(),
        other => panic!("expected move_request, got {other:?}"),
    }
}

/// A seat whose connection drops mid-game is taken back on a new
/// connection with its seat token: the game so far is sent again (its
/// `game_start` marked resumed, every `move_played`) and then the pending
/// request, with the time its clock has left. A wrong token, an unknown
/// game, or a connection already in a match cannot take the seat; the game
/// ends by the rules and is recorded once, with no disconnect.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_dropped_seat_is_taken_back_only_with_its_token() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(server_config(Some(&records_path(&dir)))).await;
    let (mut raw, task, played, game_id, token) = raw_then_client(&server, "phoenix", 1).await;
    assert_eq!(token.len(), 32, "128 bits in hex: {token}");
    let req = raw.recv().await;
    raw.play(&game_id, first_legal(&req)).await;
    // Our move and the opponent's, then our next request: dropped unread.
    let mut seen = Vec::new();
    loop {
        match raw.recv().await {
            ServerMsg::MovePlayed { mv, .. } => seen.push(mv),
            ServerMsg::MoveRequest { ply: 2, .. } => break,
            other => panic!("{other:?}"),
        }
    }
    drop(raw);
    let dropped = Instant::now();

    // A stranger: the right game and a wrong token; a wrong game.
    let mut thief = Raw::connect(&server.url()).await;
    thief
        .send(&resume_hello("thief", &game_id, &"0".repeat(32)))
        .await;
    thief.expect_error("unauthorized").await;
    thief
        .send(&resume_hello("thief", "no-such-game", &token))
        .await;
    thief.expect_error("no_game").await;
    // The thief's moves for the game go nowhere.
    thief.play(&game_id, json!(0)).await;
    thief.expect_error("no_game").await;

    // The owner comes back.
    let mut back = Raw::connect(&server.url()).await;
    back.send(&resume_hello("phoenix", &game_id, &token)).await;
    match back.recv().await {
        ServerMsg::GameStart {
            game_id: g,
            seat: 0,
            seat_token: Some(t),
            resumed: true,
            ..
        } => assert_eq!((g.as_str(), t.as_str()), (game_id.as_str(), token.as_str())),
        other => panic!("{other:?}"),
    }
    for (ply, mv) in seen.iter().enumerate() {
        match back.recv().await {
            ServerMsg::MovePlayed { ply: p, mv: m, .. } => {
                assert_eq!((p as usize, &m), (ply, mv));
            }
            other => panic!("{other:?}"),
        }
    }
    let mut req = back.recv().await;
    match &req {
        ServerMsg::MoveRequest {
            ply: 2,
            your_time_ms,
            ..
        } => {
            let left = 2000u64.saturating_sub(dropped.elapsed().as_millis() as u64);
            assert!(
                *your_time_ms <= 2000 && *your_time_ms + 5 >= left,
                "{your_time_ms} vs {left}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Already in a match: this connection cannot resume another seat.
    back.send(&resume_hello("phoenix", &game_id, &token)).await;
    back.expect_error("busy").await;
    // Play on to the end.
    let over = loop {
        back.play(&game_id, first_legal(&req)).await;
        let next = back
            .recv_until(|m| {
                matches!(
                    m,
                    ServerMsg::MoveRequest { .. } | ServerMsg::GameOver { .. }
                )
            })
            .await;
        match next {
            ServerMsg::MoveRequest { .. } => req = next,
            other => break other,
        }
    };
    assert!(
        matches!(
            over,
            ServerMsg::GameOver {
                reason: EndReason::Rules,
                ..
            }
        ),
        "{over:?}"
    );
    let s = finish(task).await;
    assert_eq!(s.games, 1);
    assert_eq!(played.lock().unwrap()[0].reason, EndReason::Rules);
    let records = read_records(records_path(&dir)).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].reason, EndReason::Rules);
    assert_eq!(records[0].id, game_id);
    // The resume, as in the protocol's example (see `--nocapture`).
    for line in thief.log.iter().chain(back.log.iter().take(9)) {
        println!("{line}");
    }
    server.stop().await;
}

/// The client takes its seat back by itself: its connection is cut right
/// after the first `move_played` of its first game; it reconnects at once,
/// resumes, and both games end by the rules. Its own record of the
/// resumed game holds every move, as the server's does.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_client_takes_its_seat_back_after_a_drop() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(server_config(Some(&records_path(&dir)))).await;
    let (sa, sb, a_games, b_games) = flaky_and_steady(&server, "\"move_played\"").await;
    assert_eq!((sa.games, sb.games), (2, 2));
    assert_eq!((sa.resumed, sb.resumed), (1, 0));
    let records = read_records(records_path(&dir)).unwrap();
    assert_eq!(records.len(), 2);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        assert_eq!(a_games[i].reason, EndReason::Rules);
        assert_eq!(b_games[i].reason, EndReason::Rules);
        assert_eq!(a_games[i].game_id, r.id);
        assert_eq!(a_games[i].move_list, r.moves, "game {i}");
    }
    server.stop().await;
}

/// A resume while the seat's old connection still looks alive (a
/// half-open path the server has not noticed yet): the old connection is
/// told `replaced` and closed; its moves no longer count.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_resume_replaces_a_connection_still_open() {
    let server = start(server_config(None)).await;
    let (mut old, task, _, game_id, token) = raw_then_client(&server, "twin", 1).await;
    let req = old.recv().await;
    assert!(is_move_request(&req));
    let mut new = Raw::connect(&server.url()).await;
    new.send(&resume_hello("twin", &game_id, &token)).await;
    assert!(matches!(
        new.recv().await,
        ServerMsg::GameStart { resumed: true, .. }
    ));
    let again = new.recv().await;
    assert!(is_move_request(&again), "{again:?}");
    // The old connection is told, then closed.
    match old.recv().await {
        ServerMsg::Error { code, fatal, .. } => {
            assert_eq!((code.as_str(), fatal), ("replaced", true))
        }
        other => panic!("{other:?}"),
    }
    let end = tokio::time::timeout(WAIT, old.ws.next())
        .await
        .expect("closed in time");
    assert!(!matches!(end, Some(Ok(Message::Text(_)))), "{end:?}");
    // The new connection plays the move.
    new.play(&game_id, first_legal(&again)).await;
    let m = new.recv().await;
    assert!(
        matches!(
            m,
            ServerMsg::MovePlayed {
                ply: 0,
                seat: 0,
                ..
            }
        ),
        "{m:?}"
    );
    drop(new);
    task.abort();
    server.stop().await;
}

/// A Score Four opening suite read as `serve --openings` reads one.
fn four3d_book(text: &str) -> ladderbot::runner::openings::Book {
    use ladderbot::runner::openings::{Book, OpeningOrder};
    Book::parse::<Board>(
        "suite.txt",
        text,
        &ladderbot::games::GameOptions::new(),
        OpeningOrder::Sequential,
    )
    .unwrap()
}

/// (o) A server with an opening suite: each pair of games of a match
/// starts from the next opening, once with each seat; a second match goes
/// on through the suite; the records start from the game's start with the
/// opening's moves first (0 ms each, named in `opening`) and replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pairs_of_games_start_from_the_servers_openings_with_both_seats() {
    use ladderbot::games::{replay, GameOptions, PlayableGame};
    use ladderbot::model::Model;
    let dir = tempfile::tempdir().unwrap();
    let mut config = server_config(Some(&records_path(&dir)));
    config.openings.insert(
        "four3d".into(),
        four3d_book("# three\n5 10 0\n\n6 9  # two drops\n3\n"),
    );
    let server = start(config).await;
    let (a, a_games) = spawn_client(client_config(&server.url(), "a", "random", 4, 1));
    let (b, _) = spawn_client(client_config(&server.url(), "b", "random", 4, 2));
    let (sa, sb) = (finish(a).await, finish(b).await);
    assert_eq!((sa.games, sb.games), (4, 4));
    // A second match on the same server: the suite goes on.
    let (c, _) = spawn_client(client_config(&server.url(), "c", "random", 2, 3));
    let (d, _) = spawn_client(client_config(&server.url(), "d", "random", 2, 4));
    let (sc, sd) = (finish(c).await, finish(d).await);
    assert_eq!((sc.games, sd.games), (2, 2));
    server.stop().await;

    let records = read_records(records_path(&dir)).unwrap();
    assert_eq!(records.len(), 6);
    let start = <Board as PlayableGame>::start_with(0, &GameOptions::new())
        .unwrap()
        .state_to_json();
    let want = [
        (0, 2, "5 10 0"),
        (0, 2, "5 10 0"),
        (1, 4, "6 9"),
        (1, 4, "6 9"),
        (2, 5, "3"),
        (2, 5, "3"),
    ];
    for (i, r) in records.iter().enumerate() {
        let o = r
            .opening
            .as_ref()
            .unwrap_or_else(|| panic!("record {i} names no opening: {r:?}"));
        assert_eq!((o.index, o.line, o.text().as_str()), want[i], "record {i}");
        assert_eq!(r.start, start, "record {i} starts from the game's start");
        let n = o.moves.len();
        assert_eq!(&r.moves[..n], &o.moves[..], "record {i}");
        assert_eq!(&r.move_ms[..n], &vec![0; n][..], "record {i}");
        assert_eq!(r.move_ms.len(), r.moves.len());
        assert!(r.moves.len() > n, "record {i}: nobody played: {r:?}");
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        let end: Board = replay(&r.start, &r.moves).unwrap();
        assert_eq!(
            end.turn().outcome().map(|o| o.winner()),
            Some(r.winner),
            "record {i}"
        );
    }
    // Each pair: one opening, the seats swapped.
    for p in 0..3 {
        let (g1, g2) = (&records[2 * p], &records[2 * p + 1]);
        assert_ne!(g1.players[0], g1.players[1]);
        assert_eq!(g1.players[0], g2.players[1], "pair {p}");
        assert_eq!(g1.players[1], g2.players[0], "pair {p}");
    }
    // The clients were shown the players' moves only; `game_over.moves`
    // counts the opening's too, as the record does.
    let a_games = a_games.lock().unwrap().clone();
    for (g, r) in a_games.iter().zip(&records) {
        assert_eq!(g.game_id, r.id);
        assert_eq!(g.moves as usize, r.moves.len());
        let n = r.opening.as_ref().unwrap().moves.len();
        assert_eq!(g.move_list, r.moves[n..], "{}", g.game_id);
    }
}

/// One HTTP GET to the server's spectator port: the body as JSON.
async fn get_json(addr: SocketAddr, path: &str) -> Value {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut raw))
        .await
        .expect("an HTTP answer in time")
        .unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// (p) With an opening, the first move request is for the position after
/// it (ply 3, seat 1 to move), spectators start there too, and the next
/// move is judged on it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_first_move_request_and_spectators_start_after_the_opening() {
    use ladderbot::games::{apply_moves, GameOptions, PlayableGame};
    use ladderbot::model::Model;
    let mut config = server_config(None);
    config
        .openings
        .insert("four3d".into(), four3d_book("5 10 0\n"));
    let server = start(config).await;
    let mut p = Raw::connect(&server.url()).await;
    p.hello("p", 1, Opponent::Any).await;
    let mut q = Raw::connect(&server.url()).await;
    q.hello("q", 1, Opponent::Any).await;
    let (sp, _) = (p.seat().await, q.seat().await);
    let mover = if sp == 1 { &mut p } else { &mut q };
    let (game_id, ply, state) = match mover.recv_until(is_move_request).await {
        ServerMsg::MoveRequest {
            game_id,
            ply,
            state,
            ..
        } => (game_id, ply, state),
        _ => unreachable!(),
    };
    assert_eq!(ply, 3);
    let mut after = <Board as PlayableGame>::start_with(0, &GameOptions::new()).unwrap();
    apply_moves(&mut after, &[json!(5), json!(10), json!(0)]).unwrap();
    assert_eq!(state, Board::obs_to_json(&after.observe(1)));
    let seen = get_json(server.addr, &format!("/api/game/{game_id}?have=0")).await;
    assert_eq!(seen["states"][0], after.public_json(), "{seen}");
    // Peg 5 holds one bead of the opening: a second one is legal, and is ply 3.
    mover.play(&game_id, json!(5)).await;
    let m = mover.recv().await;
    assert!(
        matches!(
            m,
            ServerMsg::MovePlayed {
                ply: 3,
                seat: 1,
                ..
            }
        ),
        "{m:?}"
    );
    server.stop().await;
}

/// (q) A suite that does not fit its game is refused when the server
/// starts: an illegal move, or a game whose start is drawn from the seed.
#[tokio::test]
async fn a_suite_that_does_not_fit_its_game_is_refused_at_bind() {
    use ladderbot::records::Opening;
    let mut illegal = four3d_book("5\n");
    illegal.openings.push(Opening {
        index: 1,
        line: 2,
        moves: vec![json!(3), json!(16)],
    });
    let mut config = server_config(None);
    config.openings.insert("four3d".into(), illegal);
    let err = Server::bind(config).await.err().expect("refused");
    let e = err.to_string();
    assert!(
        e.contains("openings.four3d: suite.txt:2: move 2 (16):"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    let mut config = server_config(None);
    config.openings.insert("golad".into(), four3d_book("5\n"));
    let e = Server::bind(config)
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains("openings.golad: golad: openings need a start"),
        "{e}"
    );
    let mut config = server_config(None);
    config.openings.insert("chess".into(), four3d_book("5\n"));
    let e = Server::bind(config)
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains("unknown game 'chess'"), "{e}");
}
