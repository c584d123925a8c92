//! `--time-policy bank` on a match server: each move a share of a game
//! clock, the bot's own (`--bank-ms`) on a server with per-move limits
//! only, or the server's bank and increment. The totals are the server's
//! (records' `move_ms`, from sending a request to reading the answer).

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::*;
use ladderbot::records::GameRecord;

const LIMIT: Duration = Duration::from_secs(120);

fn records(path: &Path) -> Vec<GameRecord> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `name`'s moves in `r`: (total ms, longest ms, moves).
fn spent(r: &GameRecord, name: &str) -> (u64, u64, usize) {
    let seat = r.players.iter().position(|p| p == name).unwrap();
    let mine: Vec<u64> = r
        .move_ms
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 2 == seat)
        .map(|(_, &ms)| ms)
        .collect();
    (
        mine.iter().sum(),
        mine.iter().copied().max().unwrap_or(0),
        mine.len(),
    )
}

/// Plays `games` games of Score Four between two `play` clients on
/// `server`, `a` with `a_args`, `b` with `b_args`; `a`'s stderr, with the
/// client's debug lines (each move's plan).
fn play_pair(url: &str, games: &str, a_args: &[&str], b_args: &[&str]) -> String {
    let client = |name: &str, extra: &[&str]| {
        bin()
            .args([
                "play", "four3d", "--server", url, "--games", games, "--name", name,
            ])
            .args(extra)
            .env(
                "LADDERBOT_LOG__FILTER",
                "warn,ladderbot::platforms::ws::client=debug",
            )
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let a = client("a", a_args);
    let b = client("b", b_args);
    let mut a_err = String::new();
    for (name, c) in [("a", a), ("b", b)] {
        let o = wait_with_limit(c, LIMIT);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        if name == "a" {
            a_err = stderr(&o);
        }
    }
    a_err
}

/// The `soft_ms` of each "move planned" line, by game, in order.
fn planned_soft(log: &str) -> Vec<Vec<u64>> {
    let mut games: Vec<(String, Vec<u64>)> = Vec::new();
    for line in log.lines().filter(|l| l.contains("move planned")) {
        let field = |key: &str| {
            let at = line.find(&format!("{key}=")).unwrap() + key.len() + 1;
            line[at..]
                .split([' ', '"'])
                .find(|s| !s.is_empty())
                .unwrap()
                .to_string()
        };
        let (game, soft) = (field("game_id"), field("soft_ms").parse().unwrap());
        match games.last_mut() {
            Some((g, v)) if *g == game => v.push(soft),
            _ => games.push((game, vec![soft])),
        }
    }
    games.into_iter().map(|(_, v)| v).collect()
}

#[test]
fn an_own_bank_is_shared_over_the_game_and_never_overspent() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let server = ServerProc::start(&[
        "--time-per-move-ms",
        "60000",
        "--house-agent",
        "",
        "--records",
        rec.to_str().unwrap(),
    ]);
    let log = play_pair(
        &server.url,
        "2",
        &["--agent", "best", "--bank-ms", "1500"],
        &["--agent", "ab-v2", "--time-ms", "20"],
    );
    let rs = records(&rec);
    assert_eq!(rs.len(), 2);
    // The plan: a small share early (1500 ms over 47 drops' worth, less
    // the 30 ms margin), a larger one in the late middle game (plies
    // 28-39: four times the weight) whatever was spent before.
    let plans = planned_soft(&log);
    assert_eq!(plans.len(), 2, "{log}");
    for (plan, r) in plans.iter().zip(&rs) {
        assert!(plan[0] <= 1500 / 47, "{plan:?}");
        let (_, _, moves) = spent(r, "a");
        assert_eq!(plan.len(), moves);
        if moves > 16 {
            let late = plan[14..16].iter().max().unwrap();
            assert!(*late >= 2 * plan[0], "{plan:?}");
        }
    }
    for r in &rs {
        assert_ne!(r.reason, ladderbot::records::EndReason::Timeout);
        let (total, longest, moves) = spent(r, "a");
        // Our clock runs from reading the request to sending the answer;
        // the server's adds the round trip on localhost (a few ms a move).
        let slack = 3 * moves as u64;
        assert!(total <= 1500 + slack, "{total} ms over a 1500 ms bank");
        // No move takes more than a quarter of what was left.
        assert!(longest <= 1500 / 4 + 3, "a move of {longest} ms");
    }
}

#[test]
fn the_servers_bank_and_increment_are_spent_without_a_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.jsonl");
    let server = ServerProc::start(&[
        "--time-per-move-ms",
        "0",
        "--time-bank-ms",
        "1200",
        "--increment-ms",
        "10",
        "--house-agent",
        "",
        "--records",
        rec.to_str().unwrap(),
    ]);
    let bank = ["--agent", "best", "--time-policy", "bank"];
    let log = play_pair(&server.url, "2", &bank, &bank);
    // Planned from the server's bank: never more than it leaves.
    let plans = planned_soft(&log);
    assert_eq!(plans.len(), 2, "{log}");
    assert!(plans.iter().flatten().all(|&s| s <= 1200), "{plans:?}");
    let rs = records(&rec);
    assert_eq!(rs.len(), 2);
    for r in &rs {
        assert_ne!(r.reason, ladderbot::records::EndReason::Timeout, "{r:?}");
        for name in ["a", "b"] {
            let (total, _, moves) = spent(r, name);
            assert!(
                total <= 1200 + 10 * moves as u64,
                "{name}: {total} ms in {moves} moves"
            );
        }
    }
}
