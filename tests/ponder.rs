//! Thinking on the opponent's time (`search.ponder`) on a platform: the
//! answers of a pondering client meet the same deadlines as without, and
//! the ponder is really done (the summary counts it).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;

use tokio::sync::oneshot;

use ladderbot::games::four3d::Board;
use ladderbot::games::AgentParams;
use ladderbot::platforms::ws::client::{run_client, ClientConfig, ClientSummary, Opponent};
use ladderbot::platforms::ws::server::{ClockConfig, Server, ServerConfig};
use ladderbot::records::{read_records, EndReason};

/// The server's limit per move, and what each client asks for.
const LIMIT_MS: u64 = 200;
const TIME_MS: u64 = 60;

fn server_config(records: &Path) -> ServerConfig {
    ServerConfig {
        bind: "127.0.0.1:0".into(),
        clock: ClockConfig {
            time_per_move_ms: Some(LIMIT_MS),
            time_bank_ms: None,
            increment_ms: 0,
        },
        records: Some(records.to_path_buf()),
        heartbeat_interval: Duration::from_millis(200),
        heartbeat_timeout: Duration::from_secs(5),
        house: None,
        seed: 3,
        game_options: Default::default(),
        token: None,
        limits: Default::default(),
        shutdown_grace: Duration::ZERO,
        openings: Default::default(),
    }
}

fn client(url: &str, name: &str, ponder: bool, seed: u64) -> ClientConfig {
    let mut params = AgentParams::new();
    params.insert("threads".into(), 1.into());
    ClientConfig {
        url: url.into(),
        name: name.into(),
        agent: "best".into(),
        params,
        time_ms: Some(TIME_MS),
        margin_ms: 20,
        games: 2,
        opponent: Opponent::Any,
        seed,
        ponder,
        ..ClientConfig::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pondering_client_answers_within_the_same_deadline_and_ponders() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games.jsonl");
    let server = Server::bind(server_config(&records)).await.unwrap();
    let url = format!("ws://{}", server.local_addr());
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    let play = |cfg: ClientConfig| tokio::spawn(run_client::<Board>(cfg, |_| {}));
    let (a, b) = (
        play(client(&url, "ponders", true, 1)),
        play(client(&url, "does-not", false, 2)),
    );
    let wait = |t: tokio::task::JoinHandle<_>| async move {
        let r: Result<ClientSummary, _> = tokio::time::timeout(Duration::from_secs(120), t)
            .await
            .expect("the client finishes")
            .unwrap();
        r.expect("the client succeeds")
    };
    let (sa, sb) = (wait(a).await, wait(b).await);
    let _ = stop.send(());
    let _ = task.await;
    assert_eq!((sa.games, sb.games), (2, 2));
    // The pondering side pondered after its answers, the other never.
    assert!(sa.pondered.runs >= 5, "{:?}", sa.pondered);
    assert!(sa.pondered.work > 0 && sa.pondered.time > Duration::ZERO);
    assert_eq!(sb.pondered.runs, 0);
    // Every game ended by the rules (no loss on time), and the pondering
    // side's answers, timed by the server, kept inside the same limit as
    // the other side's.
    let games = read_records(&records).unwrap();
    assert_eq!(games.len(), 2);
    let mut worst = [0u64; 2];
    for g in &games {
        assert_eq!(g.reason, EndReason::Rules, "{g:?}");
        let ponders = g.players.iter().position(|p| p == "ponders").unwrap();
        for (i, ms) in g.move_ms.iter().enumerate() {
            let side = usize::from((i % 2) != ponders);
            worst[side] = worst[side].max(*ms);
        }
    }
    assert!(
        worst[0] < LIMIT_MS,
        "pondering side's slowest answer: {worst:?}"
    );
    assert!(worst[1] < LIMIT_MS, "{worst:?}");
}

/// A `play geister` client of a GAT port, `best` on one thread at 100 ms a
/// move, pondering or not.
fn gat_client(port: u16, ponder: &str, seed: u64) -> common::Guard {
    let child = Command::new(env!("CARGO_BIN_EXE_ladderbot"))
        .args(["play", "geister", "--server", &format!("127.0.0.1:{port}")])
        .args([
            "--agent",
            "best",
            "--param",
            "threads=1",
            "--time-ms",
            "100",
        ])
        .args([
            "--ponder",
            ponder,
            "--games",
            "1",
            "--seed",
            &seed.to_string(),
        ])
        .env("LADDERBOT_LOG__FILTER", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play geister");
    common::Guard(Some(child))
}

#[test]
fn a_pondering_gat_client_answers_in_its_time_and_ponders() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (srv, ports, _lines) = common::serve_gat(1, &out, 60, 5);
    let on = gat_client(ports[0], "on", 1);
    let off = gat_client(ports[1], "off", 2);
    let limit = Duration::from_secs(300);
    let (o_on, o_off) = (on.wait(limit), off.wait(limit));
    let err = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o_on.status.success(), "{}", err(&o_on));
    assert!(o_off.status.success(), "{}", err(&o_off));
    assert!(srv.wait(limit).status.success());
    // The pondering client says what its ponders did; the other never pondered.
    let said = err(&o_on);
    let line = said
        .lines()
        .find(|l| l.contains("pondered on the opponent's time"))
        .unwrap_or_else(|| panic!("no ponder summary in {said}"));
    assert!(!line.contains("ponders=0"), "{line}");
    assert!(!err(&o_off).contains("pondered on the opponent's time"));
    // Every game ended by the rules, and every answer of either side (the
    // setups left out), on the server's clock, within 100 ms and the slack
    // of a loaded machine.
    let games = read_records(&out).unwrap();
    assert_eq!(games.len(), 1);
    for g in &games {
        assert_eq!(g.reason, EndReason::Rules, "{g:?}");
        let slowest = g.move_ms[2..].iter().max().copied().unwrap_or(0);
        assert!(
            slowest < 400,
            "slowest answer {slowest} ms: {:?}",
            g.move_ms
        );
    }
}
