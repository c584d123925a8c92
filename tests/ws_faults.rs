//! Faults and limits of the WebSocket match server and client: a server
//! killed or stopped mid-game (the game aborted, not lost), a half-open
//! connection found by both heartbeats, a slow network, oversized and bad
//! frames, and abusers next to an honest game.

mod common;

use std::fs::File;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;

use common::*;
use ladderbot::games::four3d::Board;
use ladderbot::platforms::ws::client::{run_client, ClientConfig, GameFinished, Opponent};
use ladderbot::platforms::ws::protocol::{encode_server, parse_server, ClockInfo, ServerMsg};
use ladderbot::platforms::ws::server::{ClockConfig, Server, ServerConfig};
use ladderbot::records::{read_records, EndReason, GameRecord};

const LIMIT: Duration = Duration::from_secs(120);

// ---------------------------------------------------------------------------
// Helpers: the real binary.

/// `ladderbot serve` on a free port with its log (stderr) in `log`.
struct Serve {
    child: Guard,
    url: String,
}

fn serve(extra: &[&str], records: &Path, log: &Path) -> Serve {
    serve_with_env(extra, &[], records, log)
}

fn serve_with_env(extra: &[&str], envs: &[(&str, &str)], records: &Path, log: &Path) -> Serve {
    let mut c = bin();
    c.args(["serve", "--bind", "127.0.0.1:0"]);
    if !extra.contains(&"--house-agent") {
        c.args(["--house-agent", ""]);
    }
    c.arg("--records")
        .arg(records)
        .args(extra)
        .env("LADDERBOT_LOG__FILTER", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(File::create(log).unwrap()));
    for (k, v) in envs {
        c.env(k, v);
    }
    let mut child = c.spawn().expect("spawn serve");
    let url = common::listening_url(&mut child);
    Serve {
        child: Guard(Some(child)),
        url,
    }
}

/// A server (its records and log in `dir`) with `envs`, and two `play`
/// clients, alice and bob, wanting 20 games of four3d at 40 ms a move.
struct Table {
    srv_rec: PathBuf,
    log: PathBuf,
    server: Serve,
    a: Guard,
    b: Guard,
    a_rec: PathBuf,
    b_rec: PathBuf,
}

fn table(dir: &Path, envs: &[(&str, &str)]) -> Table {
    let (srv_rec, log) = (dir.join("server.jsonl"), dir.join("serve.log"));
    let server = serve_with_env(&["--time-per-move-ms", "1000"], envs, &srv_rec, &log);
    let (a_rec, b_rec) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    let a = play(&server.url, "alice", 20, &a_rec, 40);
    let b = play(&server.url, "bob", 20, &b_rec, 40);
    Table {
        srv_rec,
        log,
        server,
        a,
        b,
        a_rec,
        b_rec,
    }
}

/// Waits until a game is in progress with two to four turns played, as the
/// server's spectator list tells (`GET /api/games` on its port): a signal
/// sent then lands mid-game, whatever the length of the games before. No
/// game of Score Four ends before its seventh move, so at least three moves
/// (90 ms at the clients' 30 ms of search) separate the poll from the game's end: a
/// game seen later in its course could end by the rules in the moment
/// between the poll and the signal.
fn mid_game(ws_url: &str) {
    let addr = ws_url.trim_start_matches("ws://").to_string();
    wait_until("a game in progress", LIMIT, || {
        let Some((200, body)) = try_http(&addr, "GET", "/api/games") else {
            return false;
        };
        let list: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
        list["games"].as_array().is_some_and(|gs| {
            gs.iter()
                .any(|g| g["over"] == false && (2..=4).contains(&g["turns"].as_u64().unwrap_or(0)))
        })
    });
}

/// A `play four3d` client named `name` with its own records.
fn play(url: &str, name: &str, games: u32, records: &Path, time_ms: u32) -> Guard {
    let mut c = bin();
    c.args(["play", "four3d", "--server", url, "--agent", "pmc"])
        .args(["--time-ms", &time_ms.to_string(), "--name", name])
        .args(["--games", &games.to_string()])
        .arg("--records")
        .arg(records)
        .env("LADDERBOT_LOG__FILTER", "warn")
        // `play four3d` without a profile takes four3d-best's margin (40 ms),
        // which would leave no time at 40 ms a move: every move instant, the
        // games too short to be caught in their course.
        .env("LADDERBOT_SEARCH__MARGIN_MS", "10")
        // Give up on a vanished server quickly.
        .env("LADDERBOT_CLIENT__MAX_RECONNECTS", "2")
        .env("LADDERBOT_CLIENT__BACKOFF_INITIAL_MS", "50")
        .env("LADDERBOT_CLIENT__BACKOFF_MAX_MS", "100")
        .env("LADDERBOT_CLIENT__CONNECT_TIMEOUT_MS", "1000")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Guard(Some(c.spawn().expect("spawn play")))
}

fn records_of(path: &Path) -> Vec<GameRecord> {
    if !path.exists() {
        return Vec::new();
    }
    read_records(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn wait_until(what: &str, limit: Duration, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The client's output after it lost its server mid-game: exit 75, a
/// summary with one aborted game, records with every finished game once
/// and the aborted game last. Returns the aborted game's id.
fn check_client_after_lost_server(out: &std::process::Output, records: &Path) -> String {
    let text = stdout(out);
    assert_eq!(out.status.code(), Some(75), "{text}\n{}", stderr(out));
    assert!(stderr(out).contains("lost the server"), "{}", stderr(out));
    let recs = records_of(records);
    let (last, finished) = recs.split_last().expect("records");
    assert!(!finished.is_empty(), "no finished game before the cut");
    for r in finished {
        assert_ne!(r.reason, EndReason::Aborted, "{r:?}");
        assert_ne!(r.result, GameRecord::ABORTED);
    }
    let mut ids: Vec<&str> = recs.iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), recs.len(), "a game recorded twice");
    assert_eq!(last.reason, EndReason::Aborted, "{last:?}");
    assert_eq!(last.result, GameRecord::ABORTED);
    assert_eq!(last.winner, None);
    let summary = format!("summary: games {}, ", finished.len());
    let line = text
        .lines()
        .find(|l| l.starts_with("summary: "))
        .unwrap_or_else(|| panic!("no summary in {text}"));
    assert!(line.starts_with(&summary), "{line}");
    assert!(line.contains(", aborted 1 ("), "{line}");
    last.id.clone()
}

// ---------------------------------------------------------------------------
// 1. The server killed mid-game.

/// SIGKILL to the server in the middle of a game: both clients record the
/// finished games once each and the cut game as aborted (not lost), print
/// their summary and exit 75.
#[test]
fn a_killed_server_aborts_the_game_for_both_clients() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = table(dir.path(), &[]);
    wait_until("a finished game", LIMIT, || {
        !records_of(&t.a_rec).is_empty() && !records_of(&t.b_rec).is_empty()
    });
    mid_game(&t.server.url);
    let mut child = t.server.child.0.take().unwrap();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let (ao, bo) = (t.a.wait(LIMIT), t.b.wait(LIMIT));
    let a_cut = check_client_after_lost_server(&ao, &t.a_rec);
    let b_cut = check_client_after_lost_server(&bo, &t.b_rec);
    assert_eq!(a_cut, b_cut, "both clients abort the same game");
    // The server recorded only finished games, none of them the cut one.
    assert!(records_of(&t.srv_rec).iter().all(|r| r.id != a_cut));
}

// ---------------------------------------------------------------------------
// 2. SIGTERM to the server.

/// SIGTERM while a game runs: the server records that game as aborted
/// (players, the moves so far and their times) and exits 0; the clients,
/// told `shutting_down`, record the same game as aborted and exit 75.
#[test]
fn sigterm_records_the_game_in_progress_as_aborted() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &[]);
    let (srv_rec, log) = (&t.srv_rec, &t.log);
    wait_until("a finished game", LIMIT, || !records_of(srv_rec).is_empty());
    mid_game(&t.server.url);
    signal(t.server.child.0.as_ref().unwrap(), "-TERM");
    let sent = Instant::now();
    let so = t.server.child.wait(LIMIT);
    assert_eq!(so.status.code(), Some(0));
    assert!(
        sent.elapsed() < Duration::from_secs(8),
        "{:?}",
        sent.elapsed()
    );
    let recs = records_of(srv_rec);
    let (last, finished) = recs.split_last().unwrap();
    assert!(finished.iter().all(|r| r.reason == EndReason::Rules));
    assert_eq!(last.reason, EndReason::Aborted, "{last:?}");
    assert_eq!(
        (last.result.as_str(), last.winner),
        (GameRecord::ABORTED, None)
    );
    let mut players = last.players.to_vec();
    players.sort();
    assert_eq!(players, ["alice", "bob"]);
    assert!(!last.moves.is_empty(), "{last:?}");
    assert_eq!(last.moves.len(), last.move_ms.len());
    // The moves so far replay from the start.
    let replayed = ladderbot::games::GameKind::Four3d.visit(Replay(last.clone()));
    assert!(replayed, "{last:?}");
    let (ao, bo) = (t.a.wait(LIMIT), t.b.wait(LIMIT));
    assert_eq!(check_client_after_lost_server(&ao, &t.a_rec), last.id);
    assert_eq!(check_client_after_lost_server(&bo, &t.b_rec), last.id);
    let log = read_log(log);
    assert!(log.contains("shutting down"), "{log}");
}

/// SIGTERM with `server.shutdown_grace_ms`: no new game starts, the game in
/// progress is played to its end and recorded as usual, then the server
/// exits 0. The clients record the same finished games and no aborted one
/// (they then find no server to play the rest with: exit 75).
#[test]
fn sigterm_with_a_grace_lets_the_game_in_progress_finish() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(
        dir.path(),
        &[("LADDERBOT_SERVER__SHUTDOWN_GRACE_MS", "60000")],
    );
    wait_until("a finished game", LIMIT, || {
        !records_of(&t.srv_rec).is_empty()
    });
    mid_game(&t.server.url);
    signal(t.server.child.0.as_ref().unwrap(), "-TERM");
    let so = t.server.child.wait(LIMIT);
    assert_eq!(so.status.code(), Some(0));
    let recs = records_of(&t.srv_rec);
    // The game in progress at the signal was finished; no other started.
    assert!(recs.len() >= 2, "{recs:?}");
    assert!(recs.len() < 20);
    for r in &recs {
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
    }
    let log = read_log(&t.log);
    assert!(
        log.contains("letting the games in progress finish"),
        "{log}"
    );
    assert!(!log.contains("shutdown grace over"), "{log}");
    for (o, rec) in [(t.a.wait(LIMIT), &t.a_rec), (t.b.wait(LIMIT), &t.b_rec)] {
        assert_eq!(o.status.code(), Some(75), "{}", stderr(&o));
        let mine = records_of(rec);
        assert_eq!(mine.len(), recs.len());
        assert!(mine.iter().all(|r| r.reason == EndReason::Rules));
    }
}

/// Whether a record's moves replay legally from its start.
struct Replay(GameRecord);

impl ladderbot::games::GameVisitor for Replay {
    type Output = bool;
    fn visit<G: ladderbot::games::PlayableGame>(self) -> bool {
        ladderbot::games::replay::<G>(&self.0.start, &self.0.moves).is_ok()
    }
}

// ---------------------------------------------------------------------------
// In-process helpers: a server, clients and TCP proxies.

fn server_config() -> ServerConfig {
    ServerConfig {
        bind: "127.0.0.1:0".into(),
        clock: ClockConfig {
            time_per_move_ms: Some(5000),
            time_bank_ms: None,
            increment_ms: 0,
        },
        heartbeat_interval: Duration::from_millis(100),
        heartbeat_timeout: Duration::from_millis(800),
        seed: 3,
        ..ServerConfig::default()
    }
}

async fn start(config: ServerConfig) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let server = Server::bind(config).await.expect("bind");
    let addr = server.local_addr();
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(server.run(async move {
        let _ = rx.await;
    }));
    (addr, tx)
}

fn client(url: String, name: &str, seed: u64) -> ClientConfig {
    ClientConfig {
        url,
        name: name.into(),
        agent: "pmc".into(),
        playouts: Some(200),
        margin_ms: 20,
        games: 1,
        opponent: Opponent::Any,
        connect_timeout: Duration::from_millis(500),
        backoff_initial: Duration::from_millis(10),
        backoff_max: Duration::from_millis(50),
        max_reconnects: 1,
        seed,
        ..ClientConfig::default()
    }
}

type Played = Arc<Mutex<Vec<GameFinished>>>;

type ClientTask = tokio::task::JoinHandle<
    Result<
        ladderbot::platforms::ws::client::ClientSummary,
        ladderbot::platforms::ws::client::ClientError,
    >,
>;

/// Waits (at most 90 s each) for clients that each play one game.
async fn each_plays_one_game(clients: [ClientTask; 2]) {
    for t in clients {
        let s = tokio::time::timeout(Duration::from_secs(90), t)
            .await
            .expect("the game ends")
            .unwrap()
            .unwrap();
        assert_eq!(s.games, 1);
    }
}

fn spawn_client(
    cfg: ClientConfig,
) -> (
    tokio::task::JoinHandle<
        Result<
            ladderbot::platforms::ws::client::ClientSummary,
            ladderbot::platforms::ws::client::ClientError,
        >,
    >,
    Played,
) {
    let played: Played = Arc::default();
    let p = played.clone();
    let task = tokio::spawn(run_client::<Board>(cfg, move |g| {
        p.lock().unwrap().push(g.clone())
    }));
    (task, played)
}

/// A TCP proxy to `target` that forwards both ways until the server has
/// sent its first `move_played`; then it stops forwarding in both
/// directions without closing anything, and every later connection is
/// accepted and left hanging: a half-open path.
async fn freezing_proxy(target: SocketAddr) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let frozen = Arc::new(AtomicBool::new(false));
    let held: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            if frozen.load(Ordering::SeqCst) {
                held.lock().unwrap().push(client);
                continue;
            }
            let server = TcpStream::connect(target).await.unwrap();
            let (mut cr, mut cw) = client.into_split();
            let (mut sr, mut sw) = server.into_split();
            let f = frozen.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                loop {
                    let n = match cr.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => n,
                    };
                    if f.load(Ordering::SeqCst) {
                        break;
                    }
                    if sw.write_all(&buf[..n]).await.is_err() {
                        return;
                    }
                }
                // Frozen: hold both halves, read nothing more.
                std::future::pending::<()>().await;
                drop((cr, sw));
            });
            let f = frozen.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                loop {
                    if f.load(Ordering::SeqCst) {
                        break;
                    }
                    let n = match sr.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => n,
                    };
                    if cw.write_all(&buf[..n]).await.is_err() {
                        return;
                    }
                    if String::from_utf8_lossy(&buf[..n]).contains("\"move_played\"") {
                        f.store(true, Ordering::SeqCst);
                    }
                }
                std::future::pending::<()>().await;
                drop((sr, cw));
            });
        }
    });
    addr
}

/// A TCP proxy to `target` that delivers every chunk `delay` late, in
/// both directions (a slow network, order kept).
async fn slow_proxy(target: SocketAddr, delay: Duration) -> SocketAddr {
    async fn pipe(
        mut from: tokio::net::tcp::OwnedReadHalf,
        mut to: tokio::net::tcp::OwnedWriteHalf,
        delay: Duration,
    ) {
        let (tx, mut rx) =
            tokio::sync::mpsc::unbounded_channel::<(tokio::time::Instant, Vec<u8>)>();
        tokio::spawn(async move {
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                match from.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        let due = tokio::time::Instant::now() + delay;
                        if tx.send((due, buf[..n].to_vec())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        while let Some((due, bytes)) = rx.recv().await {
            tokio::time::sleep_until(due).await;
            if to.write_all(&bytes).await.is_err() {
                return;
            }
        }
        let _ = to.shutdown().await;
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let server = TcpStream::connect(target).await.unwrap();
            let _ = (client.set_nodelay(true), server.set_nodelay(true));
            let (cr, cw) = client.into_split();
            let (sr, sw) = server.into_split();
            tokio::spawn(pipe(cr, sw, delay));
            tokio::spawn(pipe(sr, cw, delay));
        }
    });
    addr
}

// ---------------------------------------------------------------------------
// 3. A half-open connection.

/// The path to one client stops carrying bytes both ways, sockets open.
/// The server's heartbeat drops that seat (lost by disconnect; the honest
/// opponent wins and the server records it), and the client's own heartbeat
/// (`client.heartbeat_timeout_ms`) finds the dead connection: with the
/// server unreachable again, it records the game as aborted and ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_half_open_connection_is_found_by_both_heartbeats() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("server.jsonl");
    let (addr, _stop) = start(ServerConfig {
        records: Some(rec.clone()),
        ..server_config()
    })
    .await;
    let proxy = freezing_proxy(addr).await;
    let (b, b_played) = spawn_client(client(format!("ws://{addr}"), "honest", 2));
    // The honest client waits first: it is seat 0 and moves first, so the
    // first move_played reaches the proxied client at once.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (a, a_played) = spawn_client(ClientConfig {
        heartbeat_timeout: Duration::from_millis(1500),
        ..client(format!("ws://{proxy}"), "frozen", 1)
    });
    let started = Instant::now();
    let sb = tokio::time::timeout(Duration::from_secs(30), b)
        .await
        .expect("the honest client finishes")
        .unwrap()
        .unwrap();
    assert_eq!((sb.games, sb.wins), (1, 1), "{sb:?}");
    let bg = b_played.lock().unwrap()[0].clone();
    assert_eq!(bg.reason, EndReason::Disconnect, "{bg:?}");
    let sa = tokio::time::timeout(Duration::from_secs(30), a)
        .await
        .expect("the frozen client notices")
        .unwrap()
        .unwrap();
    // The client's heartbeat timeout, then one reconnect attempt (500 ms).
    assert!(
        started.elapsed() >= Duration::from_millis(1400),
        "{:?}",
        started.elapsed()
    );
    assert_eq!((sa.games, sa.aborted), (0, 1), "{sa:?}");
    assert!(
        sa.server_lost
            .as_deref()
            .unwrap_or("")
            .contains("heartbeat"),
        "{sa:?}"
    );
    let ag = a_played.lock().unwrap()[0].clone();
    assert_eq!(ag.reason, EndReason::Aborted);
    assert_eq!(
        (ag.your_result, ag.winner, ag.result.as_str()),
        (None, None, "*")
    );
    assert_eq!(ag.game_id, bg.game_id);
    let recs = read_records(&rec).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].reason, EndReason::Disconnect);
    assert_eq!(recs[0].winner, Some(bg.seat));
}

// ---------------------------------------------------------------------------
// 4. A slow server.

/// Every frame arrives 60 ms late in each direction. The server's clock
/// runs from sending a request to reading the answer, so each move loses a
/// whole round trip (120 ms) on the way; the client measures it with pings
/// and takes it off every allowance: a game at 400 ms a move with the
/// agents using all of their time has no timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_slow_network_costs_no_timeout() {
    let (addr, _stop) = start(ServerConfig {
        clock: ClockConfig {
            time_per_move_ms: Some(400),
            time_bank_ms: None,
            increment_ms: 0,
        },
        ..server_config()
    })
    .await;
    let proxy = slow_proxy(addr, Duration::from_millis(60)).await;
    // No playout limit: each search runs to its deadline.
    let full = |url: String, name: &str, seed| ClientConfig {
        playouts: None,
        time_ms: Some(10_000),
        margin_ms: 50,
        ..client(url, name, seed)
    };
    let (a, a_played) = spawn_client(full(format!("ws://{proxy}"), "far", 1));
    let (b, b_played) = spawn_client(full(format!("ws://{addr}"), "near", 2));
    each_plays_one_game([a, b]).await;
    for played in [a_played, b_played] {
        let g = played.lock().unwrap()[0].clone();
        assert_eq!(g.reason, EndReason::Rules, "{g:?}");
        assert!(g.moves >= 7);
    }
}

/// An agent whose search never looks at its clock (a thread kept off its
/// core past its deadline, made permanent): it keeps its move ready and
/// answers only when stopped, or after 5 s.
struct Overrunning {
    ready: Option<Arc<ladderbot::search::Ready<ladderbot::games::four3d::Peg>>>,
    searches: Arc<Mutex<u32>>,
}

impl ladderbot::search::Agent<Board> for Overrunning {
    fn name(&self) -> &str {
        "overrunning"
    }
    fn keep_ready(&mut self, ready: Arc<ladderbot::search::Ready<ladderbot::games::four3d::Peg>>) {
        self.ready = Some(ready);
    }
    fn select(
        &mut self,
        pos: &Board,
        _limits: &ladderbot::search::Limits,
        stop: &AtomicBool,
    ) -> ladderbot::search::Decision<ladderbot::games::four3d::Peg> {
        use ladderbot::search::Game;
        *self.searches.lock().unwrap() += 1;
        let moves = pos.legal_moves();
        if let Some(r) = &self.ready {
            r.offer(moves[0]);
        }
        let start = Instant::now();
        while !stop.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(1));
        }
        // Not the ready move: an answer that arrives is told apart.
        ladderbot::search::Decision {
            mv: *moves.last().unwrap(),
            playouts: 0,
            value: None,
        }
    }
}

/// A search that overruns its deadline does not lose on time: the client
/// gives up on it a little before the move's time and answers the move it
/// had ready (then stops it, so the next search starts on time).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_overrunning_search_answers_its_ready_move_in_time() {
    let (addr, _stop) = start(ServerConfig {
        clock: ClockConfig {
            time_per_move_ms: Some(300),
            time_bank_ms: None,
            increment_ms: 0,
        },
        ..server_config()
    })
    .await;
    let searches = Arc::new(Mutex::new(0));
    let agent = Overrunning {
        ready: None,
        searches: searches.clone(),
    };
    let played: Played = Arc::default();
    let p = played.clone();
    let cfg = ClientConfig {
        time_ms: Some(300),
        margin_ms: 60,
        ..client(format!("ws://{addr}"), "overrunning", 1)
    };
    let a = tokio::spawn(ladderbot::platforms::ws::client::run_client_with::<Board>(
        cfg,
        Box::new(agent),
        move |g| p.lock().unwrap().push(g.clone()),
    ));
    let (b, _) = spawn_client(client(format!("ws://{addr}"), "pmc", 2));
    each_plays_one_game([a, b]).await;
    let g = played.lock().unwrap()[0].clone();
    assert_eq!(g.reason, EndReason::Rules, "{g:?}");
    assert!(*searches.lock().unwrap() >= 4, "{g:?}");
}

// ---------------------------------------------------------------------------
// 5. Oversized and bad frames.

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn ws_connect(url: &str) -> Ws {
    let (ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connect");
    ws
}

/// The next text message, or None once the connection ends.
async fn next_text(ws: &mut Ws) -> Option<ServerMsg> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return Some(parse_server(&t).expect("valid")),
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => return None,
            Ok(Some(Ok(_))) => continue,
            Err(_) => panic!("nothing within 10 s"),
        }
    }
}

/// Reads until an `error` with `code` (Some(fatal)) or the end (None).
async fn error_or_end(ws: &mut Ws, code: &str) -> Option<bool> {
    while let Some(m) = next_text(ws).await {
        if let ServerMsg::Error { code: c, fatal, .. } = m {
            if c == code {
                return Some(fatal);
            }
        }
    }
    None
}

/// Malformed JSON and a frame over 1 MiB: a warning naming the peer and
/// why in the server's log, a clear `error` to the client, and the
/// connection closed for the oversized one.
#[test]
fn bad_and_oversized_frames_are_refused_and_logged() {
    let dir = tempfile::tempdir().unwrap();
    let (rec, log) = (
        dir.path().join("server.jsonl"),
        dir.path().join("serve.log"),
    );
    let server = serve(&[], &rec, &log);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut ws = ws_connect(&server.url).await;
        assert!(matches!(
            next_text(&mut ws).await,
            Some(ServerMsg::Welcome { .. })
        ));
        ws.send(Message::Text("{not json".into())).await.unwrap();
        match next_text(&mut ws).await {
            Some(ServerMsg::Error { code, fatal, .. }) => {
                assert_eq!((code.as_str(), fatal), ("bad_json", false));
            }
            other => panic!("{other:?}"),
        }
        // Still usable.
        ws.send(Message::Text(r#"{"type":"ping","id":5}"#.into()))
            .await
            .unwrap();
        assert!(matches!(
            next_text(&mut ws).await,
            Some(ServerMsg::Pong { .. })
        ));
        let big = format!(r#"{{"type":"ping","id":"{}"}}"#, "x".repeat(2 << 20));
        // The server may close before the whole frame is written.
        let _ = ws.send(Message::Text(big)).await;
        // A fatal message_too_big, or the connection just ends; never more.
        if let Some(fatal) = error_or_end(&mut ws, "message_too_big").await {
            assert!(fatal);
            assert!(next_text(&mut ws).await.is_none(), "closed after the error");
        }
    });
    let peer_log = read_log(&log);
    assert!(peer_log.contains("bad message"), "{peer_log}");
    assert!(peer_log.contains("not valid JSON"), "{peer_log}");
    assert!(
        peer_log.contains("message over the size limit"),
        "{peer_log}"
    );
    assert!(
        peer_log
            .lines()
            .filter(|l| l.contains("WARN") && l.contains("peer=127.0.0.1:"))
            .count()
            >= 2,
        "{peer_log}"
    );
}

/// A server that sends a message over the client's 1 MiB limit mid-game:
/// the client drops the connection with a clear reason (no panic), cannot
/// reach the server again and records the game as aborted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_frame_from_the_server_is_a_clear_error() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let fake = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        drop(listener); // no second connection
        let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
        let send = |m: ServerMsg| Message::Text(encode_server(&m));
        ws.send(send(ServerMsg::Welcome {
            protocol: 1,
            server: "fake".into(),
            games: vec!["four3d".into()],
            house: false,
        }))
        .await
        .unwrap();
        // Wait for the hello.
        while let Some(Ok(m)) = ws.next().await {
            if matches!(&m, Message::Text(t) if t.contains("\"hello\"")) {
                break;
            }
        }
        ws.send(send(ServerMsg::GameStart {
            game_id: "g-1".into(),
            game: "four3d".into(),
            number: 1,
            of: 1,
            seat: 1,
            opponent: "someone".into(),
            clock: ClockInfo {
                time_per_move_ms: Some(1000),
                time_bank_ms: None,
                increment_ms: 0,
            },
            seat_token: None,
            resumed: false,
        }))
        .await
        .unwrap();
        let huge = format!(r#"{{"type":"pong","id":"{}"}}"#, "y".repeat(2 << 20));
        let _ = ws.send(Message::Text(huge)).await;
        // Keep the socket until the client has gone.
        while let Some(Ok(_)) = ws.next().await {}
    });
    let (task, played) = spawn_client(ClientConfig {
        max_reconnects: 0,
        ..client(format!("ws://{addr}"), "victim", 1)
    });
    let s = tokio::time::timeout(Duration::from_secs(20), task)
        .await
        .expect("the client ends")
        .unwrap()
        .unwrap();
    assert_eq!((s.games, s.aborted), (0, 1), "{s:?}");
    let why = s.server_lost.unwrap_or_default();
    assert!(why.contains("over our limit"), "{why}");
    let g = played.lock().unwrap()[0].clone();
    assert_eq!((g.reason, g.game_id.as_str()), (EndReason::Aborted, "g-1"));
    let _ = tokio::time::timeout(Duration::from_secs(5), fake).await;
}

// ---------------------------------------------------------------------------
// 8. Abusers next to an honest game.

/// The server's log without colour codes.
fn read_log(log: &Path) -> String {
    let raw = std::fs::read_to_string(log).unwrap_or_default();
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // ESC [ ... m
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn server_log_has(log: &Path, what: &str) -> bool {
    read_log(log).contains(what)
}

/// The id of the first game the server started, from its log.
fn first_game_id(log: &Path) -> Option<String> {
    let text = read_log(log);
    let line = text.lines().find(|l| l.contains("game started"))?;
    let rest = &line[line.find("game_id=")? + "game_id=".len()..];
    Some(
        rest.split_whitespace()
            .next()?
            .trim_matches('"')
            .to_string(),
    )
}

/// An honest game (two `play` clients, four3d at 100 ms a move) while other
/// connections send an oversized frame, flood pings, open too many
/// connections from one address, idle without `hello`, send moves for
/// the honest game from outside it (with no match, and from a match of its
/// own against the house), and try to take a seat of it with guessed seat
/// tokens. The honest games end by the rules with
/// no timeout and the same records on all sides; every abuser is refused
/// or closed, and each abuse is a warning in the server's log.
#[test]
fn abusers_do_not_disturb_an_honest_game() {
    let dir = tempfile::tempdir().unwrap();
    let (srv_rec, log) = (
        dir.path().join("server.jsonl"),
        dir.path().join("serve.log"),
    );
    // Tight limits (the defaults are 256, 16, 20/s, 100, 30 s).
    let server = serve_with_env(
        &["--time-per-move-ms", "100", "--house-agent", "random"],
        &[
            ("LADDERBOT_SERVER__MAX_CONNECTIONS", "32"),
            ("LADDERBOT_SERVER__MAX_CONNECTIONS_PER_IP", "8"),
            ("LADDERBOT_SERVER__RATE_LIMIT_PER_S", "20"),
            ("LADDERBOT_SERVER__RATE_LIMIT_BURST", "40"),
            ("LADDERBOT_SERVER__HELLO_TIMEOUT_MS", "1000"),
        ],
        &srv_rec,
        &log,
    );
    let (a_rec, b_rec) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    let a = play(&server.url, "alice", 4, &a_rec, 60);
    let b = play(&server.url, "bob", 4, &b_rec, 60);
    wait_until("the honest game to start", LIMIT, || {
        first_game_id(&log).is_some()
    });
    let game_id = first_game_id(&log).unwrap();
    let (url, gid, logp) = (server.url.clone(), game_id.clone(), log.clone());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async move {
        let game_id = gid;
        // A stranger's moves for the honest game: refused, no effect.
        let mut s = ws_connect(&url).await;
        assert!(matches!(
            next_text(&mut s).await,
            Some(ServerMsg::Welcome { .. })
        ));
        for mv in 0..3 {
            let m = format!(r#"{{"type":"move","game_id":"{game_id}","move":{mv}}}"#);
            s.send(Message::Text(m)).await.unwrap();
            match next_text(&mut s).await {
                Some(ServerMsg::Error { code, .. }) => assert_eq!(code, "no_game"),
                other => panic!("{other:?}"),
            }
        }
        // The stranger tries to take a seat of the honest game with guessed
        // seat tokens: refused every time (each a warning in the log).
        for guess in ["", "00000000000000000000000000000000", "x"] {
            let m = format!(
                r#"{{"type":"hello","protocol":1,"name":"stranger","game":"four3d","resume":{{"game_id":"{game_id}","seat_token":"{guess}"}}}}"#
            );
            s.send(Message::Text(m)).await.unwrap();
            match next_text(&mut s).await {
                Some(ServerMsg::Error { code, fatal, .. }) => {
                    assert_eq!((code.as_str(), fatal), ("unauthorized", false))
                }
                other => panic!("{other:?}"),
            }
        }
        drop(s);

        // A stranger in a match of its own (against the house) answers its
        // own move request with the honest game's id: its own game is lost
        // (illegal_move), the honest game is untouched.
        let mut s = ws_connect(&url).await;
        assert!(matches!(next_text(&mut s).await, Some(ServerMsg::Welcome { .. })));
        let hello = r#"{"type":"hello","protocol":1,"name":"stranger","game":"four3d","games":1,"opponent":"house"}"#;
        s.send(Message::Text(hello.into())).await.unwrap();
        loop {
            match next_text(&mut s).await {
                Some(ServerMsg::GameStart { .. }) | Some(ServerMsg::MovePlayed { .. }) => {}
                Some(ServerMsg::MoveRequest { .. }) => break,
                other => panic!("{other:?}"),
            }
        }
        let m = format!(r#"{{"type":"move","game_id":"{game_id}","move":0}}"#);
        s.send(Message::Text(m)).await.unwrap();
        match next_text(&mut s).await {
            Some(ServerMsg::GameOver {
                reason,
                game_id: own,
                ..
            }) => {
                assert_eq!(reason, EndReason::IllegalMove);
                assert_ne!(own, game_id);
            }
            other => panic!("{other:?}"),
        }
        drop(s);

        // An oversized frame: closed.
        let mut big = ws_connect(&url).await;
        let _ = big
            .send(Message::Text(format!(
                r#"{{"type":"ping","id":"{}"}}"#,
                "z".repeat(3 << 20)
            )))
            .await;
        if let Some(fatal) = error_or_end(&mut big, "message_too_big").await {
            assert!(fatal);
        }

        // A ping flood: rate_limited, then closed.
        let mut flood = ws_connect(&url).await;
        let mut sent = 0;
        for i in 0..2000 {
            let ping = if i % 2 == 0 {
                Message::Text(format!(r#"{{"type":"ping","id":{i}}}"#))
            } else {
                Message::Ping(Vec::new())
            };
            if flood.send(ping).await.is_err() {
                break;
            }
            sent += 1;
        }
        let (mut limited, mut closed_fatal) = (false, false);
        while let Some(m) = next_text(&mut flood).await {
            if let ServerMsg::Error { code, fatal, .. } = m {
                if code == "rate_limited" {
                    limited = true;
                    closed_fatal |= fatal;
                }
            }
        }
        assert!(
            limited && closed_fatal,
            "sent {sent}: limited {limited}, fatal {closed_fatal}\n{}",
            read_log(&logp)
        );

        // Too many connections from one address (8 allowed, 2 honest):
        // the extra ones are refused; the held ones, silent, are closed by
        // the hello timeout.
        let mut held = Vec::new();
        let mut refused = 0;
        for _ in 0..10 {
            match tokio_tungstenite::connect_async(url.as_str()).await {
                Ok((ws, _)) => held.push(ws),
                Err(_) => refused += 1,
            }
        }
        assert!(refused >= 4, "{refused} refused, {} held", held.len());
        assert!(!held.is_empty());
        for mut ws in held {
            assert_eq!(error_or_end(&mut ws, "hello_timeout").await, Some(true));
        }
    });
    let (ao, bo) = (a.wait(LIMIT), b.wait(LIMIT));
    for (o, rec) in [(&ao, &a_rec), (&bo, &b_rec)] {
        assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(o), stderr(o));
        let recs = records_of(rec);
        assert_eq!(recs.len(), 4);
        for r in &recs {
            assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        }
        assert!(
            stdout(o).contains("summary: games 4, wins"),
            "{}",
            stdout(o)
        );
    }
    let (srv, stranger): (Vec<GameRecord>, Vec<GameRecord>) = records_of(&srv_rec)
        .into_iter()
        .partition(|r| !r.players.contains(&"stranger".to_string()));
    assert_eq!(stranger.len(), 1);
    assert_eq!(stranger[0].reason, EndReason::IllegalMove);
    assert_eq!(srv.len(), 4);
    for r in &srv {
        assert_eq!(r.reason, EndReason::Rules, "{r:?}");
        assert!(r.move_ms.iter().all(|&ms| ms <= 100), "{r:?}");
    }
    assert_eq!(srv[0].id, game_id);
    for what in [
        "move for a game this connection does not play",
        "resume with a wrong seat token refused",
        "message over the size limit",
        "message rate over the limit",
        "too many connections from 127.0.0.1",
        "no hello within the hello timeout",
    ] {
        assert!(
            server_log_has(&log, what),
            "no '{what}' in the log:\n{}",
            read_log(&log)
        );
    }
}
