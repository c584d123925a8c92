//! `ladderbot referee golad`, the real binary, with our own `--stdio` bot and
//! a tiny Python Riddles bot (`tests/fixtures/tiny_golad_bot.py`): results,
//! time bank, timeouts, garbage, crashes, and the exact line structure a bot
//! receives compared with the recorded engine transcripts.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use common::*;
use ladderbot::games::golad::{Field, Move};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

fn python_bot(extra: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_golad_bot.py");
    assert!(
        std::process::Command::new("python3")
            .arg("--version")
            .output()
            .is_ok(),
        "these tests need python3 on PATH"
    );
    format!("python3 '{}' {extra}", script.display())
}

fn our_bot() -> String {
    format!("'{}' play golad --stdio", env!("CARGO_BIN_EXE_ladderbot"))
}

/// Runs the referee; the bots' stderr goes to a file (a piped stderr that
/// nobody reads while the referee runs could fill up and stall it).
fn referee(a: &str, b: &str, extra: &[&str]) -> Output {
    referee_with_log(a, b, extra).0
}

fn referee_with_log(a: &str, b: &str, extra: &[&str]) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("bots.stderr");
    let log_arg = log.display().to_string();
    let mut args = vec![
        "referee",
        "golad",
        "--bot",
        a,
        "--bot",
        b,
        "--json",
        "--bot-stderr",
        &log_arg,
    ];
    args.extend_from_slice(extra);
    let o = run(&args, &[], None, LIMIT);
    assert!(
        o.status.success(),
        "referee failed: {o:?}\nstderr:\n{}",
        stderr(&o)
    );
    (o, std::fs::read_to_string(&log).unwrap_or_default())
}

/// Every stdout line is a JSON object: games first, the totals last.
fn games_and_totals(o: &Output) -> (Vec<Value>, Value) {
    let lines: Vec<Value> = stdout(o)
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {l}"))
        })
        .collect();
    let (last, games) = lines.split_last().expect("no output");
    assert_eq!(last, &last_json(o));
    assert_eq!(last["type"], "totals");
    assert!(games.iter().all(|g| g["type"] == "game"));
    (games.to_vec(), last.clone())
}

fn log_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn our_bot_against_the_python_bot_two_games() {
    let (o, log) = referee_with_log(
        &our_bot(),
        &python_bot("--seed 3"),
        &["--games", "2", "--seed", "11"],
    );
    let (games, t) = games_and_totals(&o);
    assert_eq!(games.len(), 2);
    assert_eq!(t["games"], 2);
    let n = |k: &str| t[k].as_u64().unwrap_or_else(|| panic!("{k} missing: {t}"));
    assert_eq!(n("wins") + n("draws") + n("losses"), 2);
    assert_eq!(
        (n("b_wins"), n("b_draws"), n("b_losses")),
        (n("losses"), n("draws"), n("wins"))
    );
    let score = (n("wins") as f64 + 0.5 * n("draws") as f64) / 2.0;
    assert_eq!(t["score"].as_f64(), Some(score));
    assert_eq!(t["b_score"].as_f64(), Some(1.0 - score));
    for k in [
        "timeouts",
        "illegal_moves",
        "crashes",
        "b_timeouts",
        "b_illegal_moves",
        "b_crashes",
    ] {
        assert_eq!(n(k), 0, "{k}: {t}");
    }
    // Same start field for the pair, seats swapped.
    assert_eq!(games[0]["start_seed"], 11);
    assert_eq!(games[1]["start_seed"], 11);
    assert_eq!(
        (games[0]["a_seat"].as_u64(), games[1]["a_seat"].as_u64()),
        (Some(0), Some(1))
    );
    let answers: u64 = games
        .iter()
        .map(|g| g["a"]["answers"].as_u64().unwrap())
        .sum();
    assert_eq!(answers, n("answers"));
    assert!(answers > 0);
    for g in &games {
        let moves = g["moves"].as_u64().unwrap();
        let a = g["a"]["answers"].as_u64().unwrap();
        let b = g["b"]["answers"].as_u64().unwrap();
        assert_eq!(a + b, moves, "{g}");
    }
    // Our bot answers within the project's 100 ms (including its start-up;
    // an unoptimised build only within a loose bound).
    let limit = if cfg!(debug_assertions) {
        1000.0
    } else {
        100.0
    };
    let max = t["max_latency_ms"].as_f64().unwrap();
    assert!(max > 0.0 && max < limit, "{t}");
    assert!(t["p99_latency_ms"].as_f64().unwrap() <= max);
    // In time because searched, not because the fallback `pass` was quick:
    // our bot never passes (its agent does not choose to), and its log
    // reports no forced pass.
    assert_eq!(n("passes"), 0, "{t}");
    assert_eq!(
        ladderbot::platforms::riddles::check::forced_passes_in_log(&log),
        0,
        "{log}"
    );
}

#[test]
fn a_bot_past_its_bank_is_killed_and_passes_for_the_rest_of_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let (la, lb) = (dir.path().join("a.log"), dir.path().join("b.log"));
    let a = python_bot(&format!("--mode pass --log '{}'", la.display()));
    let b = python_bot(&format!(
        "--seed 2 --sleep-turn 2 --sleep-secs 1.5 --log '{}'",
        lb.display()
    ));
    let o = referee(
        &a,
        &b,
        &[
            "--games",
            "1",
            "--seed",
            "5",
            "--timebank",
            "1000",
            "--max-rounds",
            "20",
        ],
    );
    let (games, t) = games_and_totals(&o);
    assert_eq!(t["b_timeouts"], 1, "{t}");
    assert_eq!(t["b_crashes"], 0, "{t}");
    assert_eq!(t["timeouts"], 0, "{t}");
    let moves = games[0]["moves"].as_u64().unwrap();
    assert!(moves > 4, "the game went on: {}", games[0]);
    // B (player1) was asked twice, then never again: it was killed (no EOF).
    let b_log = log_lines(&lb);
    assert_eq!(
        b_log
            .iter()
            .filter(|l| l.starts_with("< action move"))
            .count(),
        2
    );
    assert!(!b_log.iter().any(|l| l == "# EOF"), "{b_log:?}");
    // A was told null before B's first move, then B's move, then null for
    // every move of B from the timeout on.
    let a_log = log_lines(&la);
    let told: Vec<&String> = a_log
        .iter()
        .filter(|l| l.starts_with("< update player1 move"))
        .collect();
    assert!(told.len() >= 3, "{told:?}");
    assert_eq!(told[0], "< update player1 move null");
    assert_ne!(told[1], "< update player1 move null");
    assert!(
        told[2..].iter().all(|l| *l == "< update player1 move null"),
        "{told:?}"
    );
    // A still gets EOF at the end.
    assert_eq!(log_lines(&la).last().map(String::as_str), Some("# EOF"));
}

/// The `action move` banks a bot was told, in order.
fn banks(log: &[String]) -> Vec<u64> {
    log.iter()
        .filter_map(|l| l.strip_prefix("< action move "))
        .map(|t| t.parse().unwrap())
        .collect()
}

#[test]
fn the_time_bank_follows_the_engine_arithmetic() {
    let dir = tempfile::tempdir().unwrap();
    let la = dir.path().join("a.log");
    let a = python_bot(&format!(
        "--sleep-turn 1 --sleep-secs 0.5 --log '{}'",
        la.display()
    ));
    let o = referee(
        &a,
        &python_bot("--mode pass"),
        // A bank of 2 s: room for the 0.5 s sleep on a machine under load.
        &["--games", "1", "--timebank", "2000", "--max-rounds", "8"],
    );
    let (_, t) = games_and_totals(&o);
    assert_eq!(t["timeouts"], 0, "{t}");
    // Every answer of the passing bot is counted as a pass.
    assert_eq!(t["b_passes"], t["b_answers"], "{t}");
    assert!(t["b_passes"].as_u64() > Some(0), "{t}");
    let b = banks(&log_lines(&la));
    assert!(b.len() >= 3, "{b:?}");
    // bank = min(max(bank - elapsed, 0) + 100, 2000); the first answer took >= 500 ms.
    assert_eq!(b[0], 2000);
    assert!((100..=1600).contains(&b[1]), "{b:?}");
    // Each later answer refills at most 100 ms; quick ones do refill.
    for w in b[1..].windows(2) {
        assert!((100..=w[0] + 100).contains(&w[1]), "{b:?}");
    }
    assert!(b[2..].iter().max() > Some(&b[1]), "{b:?}");
}

#[test]
fn garbage_answers_are_illegal_moves_and_the_opponent_is_told_null() {
    let dir = tempfile::tempdir().unwrap();
    let la = dir.path().join("a.log");
    let a = python_bot(&format!("--mode pass --log '{}'", la.display()));
    let o = referee(
        &a,
        &python_bot("--mode garbage"),
        &["--games", "1", "--max-rounds", "6"],
    );
    let (games, t) = games_and_totals(&o);
    let b_answers = t["b_answers"].as_u64().unwrap();
    assert!(b_answers > 0);
    assert_eq!(t["b_illegal_moves"].as_u64(), Some(b_answers), "{t}");
    assert_eq!(t["illegal_moves"], 0);
    assert_eq!(games[0]["b"]["illegal_moves"].as_u64(), Some(b_answers));
    let told: Vec<String> = log_lines(&la)
        .into_iter()
        .filter(|l| l.starts_with("< update player1 move"))
        .collect();
    assert!(!told.is_empty());
    assert!(
        told.iter().all(|l| l == "< update player1 move null"),
        "{told:?}"
    );
}

#[test]
fn a_bot_that_exits_mid_game_is_a_crash_and_the_referee_carries_on() {
    let o = referee(
        &our_bot(),
        // It leaves on its second request, in the first round: a game won
        // before the bot's third request (our bot can wipe a random mover
        // out in two rounds) once made a crash at its third a coin flip.
        &python_bot("--exit-turn 2"),
        &["--games", "2", "--max-rounds", "10", "--seed", "11"],
    );
    let (games, t) = games_and_totals(&o);
    assert_eq!(games.len(), 2);
    assert_eq!(t["b_crashes"], 2, "{t}");
    assert_eq!(t["b_timeouts"], 0, "{t}");
    assert_eq!(t["crashes"], 0, "{t}");
    for g in &games {
        assert_eq!(g["b"]["answers"], 1, "{g}");
        assert_eq!(g["b"]["crashes"], 1, "{g}");
    }
}

#[test]
fn a_bot_that_cannot_start_is_an_error_not_a_hang() {
    let o = run(
        &[
            "referee",
            "golad",
            "--bot",
            "/nonexistent/bot",
            "--bot",
            &our_bot(),
            "--json",
        ],
        &[],
        None,
        LIMIT,
    );
    // A program that is not there is bad configuration, found before any
    // game: exit 2 (issue 83: it was 1, from the first game).
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        stderr(&o).contains("bot A") && stderr(&o).contains("/nonexistent/bot"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let o = run(&["referee", "golad", "--bot", "x"], &[], None, LIMIT);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

/// A line's structure: numbers, fields and moves replaced, `null` kept.
fn shape(line: &str) -> String {
    let Some(l) = line.strip_prefix("< ") else {
        let reply = line
            .strip_prefix("> ")
            .unwrap_or_else(|| panic!("unexpected log line {line:?}"));
        assert!(Move::parse_reply(reply).is_ok(), "{line}");
        return "> <reply>".into();
    };
    let t: Vec<&str> = l.split(' ').collect();
    match t.as_slice() {
        ["update", "game", "field", f] => {
            assert!(Field::from_riddles(f).is_ok(), "{line}");
            "< update game field <cells>".into()
        }
        ["update", p, "living_cells", n] => {
            n.parse::<u32>().unwrap();
            format!("< update {p} living_cells <n>")
        }
        ["update", p, "move", "null"] => format!("< update {p} move null"),
        ["update", p, "move", m] => {
            assert!(Move::parse_with(m, '_').is_ok(), "{line}");
            format!("< update {p} move <move>")
        }
        ["action", "move", t] => {
            assert!(t.parse::<u64>().unwrap() <= 10_000, "{line}");
            "< action move <bank>".into()
        }
        _ => line.to_string(),
    }
}

fn transcript(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("protocol/riddles-golad/transcripts")
        .join(name)
}

#[test]
fn each_player_receives_the_lines_of_the_recorded_engine_in_the_same_order() {
    let dir = tempfile::tempdir().unwrap();
    let (la, lb) = (dir.path().join("a.log"), dir.path().join("b.log"));
    let a = python_bot(&format!("--seed 1 --log '{}'", la.display()));
    let b = python_bot(&format!("--seed 2 --log '{}'", lb.display()));
    referee(&a, &b, &["--games", "1", "--seed", "21"]);
    for (log, recorded) in [
        (la, "golad_seed_abc_player0.txt"),
        (lb, "golad_seed_abc_player1.txt"),
    ] {
        let ours: Vec<String> = log_lines(&log);
        assert_eq!(
            ours.last().map(String::as_str),
            Some("# EOF"),
            "{recorded}: stdin closed at the end"
        );
        let ours: Vec<&String> = ours.iter().filter(|l| !l.starts_with('#')).collect();
        let theirs: Vec<String> = log_lines(&transcript(recorded))
            .into_iter()
            .filter(|l| !l.starts_with('#'))
            .collect();
        let n = ours.len().min(theirs.len());
        assert!(n > 8 + 2 * 7, "{recorded}: only {n} lines to compare");
        for i in 0..n {
            assert_eq!(
                shape(ours[i]),
                shape(&theirs[i]),
                "{recorded} line {i}: ours '{}' vs recorded '{}'",
                ours[i],
                theirs[i]
            );
        }
        // Round numbers agree too (the recorded game lasted 11 rounds).
        let rounds = |v: Vec<&str>| -> Vec<String> {
            v.into_iter()
                .filter(|l| l.starts_with("< update game round"))
                .map(str::to_string)
                .collect()
        };
        let r_ours = rounds(ours.iter().map(|s| s.as_str()).collect());
        let r_theirs = rounds(theirs.iter().map(|s| s.as_str()).collect());
        let k = r_ours.len().min(r_theirs.len());
        assert_eq!(r_ours[..k], r_theirs[..k]);
        // The game ends after a reply: the last line received is `action move`.
        let last_in = ours.iter().rev().find(|l| l.starts_with("< ")).unwrap();
        assert!(
            last_in.starts_with("< action move"),
            "{recorded}: last line in is {last_in}"
        );
    }
}

#[test]
fn a_game_ends_after_max_rounds_as_a_draw_when_both_live() {
    let pass = python_bot("--mode pass");
    let o = referee(
        &our_bot_with("--agent pass"),
        &pass,
        &["--games", "1", "--seed", "4", "--max-rounds", "5"],
    );
    let (games, t) = games_and_totals(&o);
    let g = &games[0];
    let cells = [
        g["cells"][0].as_u64().unwrap(),
        g["cells"][1].as_u64().unwrap(),
    ];
    assert!(
        cells.iter().all(|&c| c > 0),
        "pick a seed where both live: {g}"
    );
    assert_eq!(g["moves"], 10, "{g}");
    assert_eq!(g["rounds"], 5, "{g}");
    assert_eq!(g["result"], "draw", "{g}");
    assert_eq!(t["draws"], 1);
}

fn our_bot_with(extra: &str) -> String {
    format!("{} {extra}", our_bot())
}

/// Whether process `pid` still runs (a zombie waiting to be reaped does not).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
    }
}

fn pids(path: &Path) -> Vec<u32> {
    log_lines(path).iter().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn a_hung_bot_is_killed_and_the_referee_goes_on_to_the_next_game() {
    let dir = tempfile::tempdir().unwrap();
    let (pa, pb) = (dir.path().join("a.pids"), dir.path().join("b.pids"));
    // B stops reading and answering on its second request and ignores
    // SIGTERM; A plays on but does not exit when its stdin closes.
    let a = python_bot(&format!(
        "--mode pass --ignore-eof --pid-file '{}'",
        pa.display()
    ));
    let b = python_bot(&format!("--hang-turn 2 --pid-file '{}'", pb.display()));
    let o = referee(
        &a,
        &b,
        &[
            "--games",
            "2",
            "--timebank",
            "1000",
            "--max-rounds",
            "10",
            "--grace-ms",
            "200",
        ],
    );
    let (games, t) = games_and_totals(&o);
    assert_eq!(games.len(), 2);
    assert_eq!(t["b_timeouts"], 2, "{t}");
    assert_eq!(t["b_crashes"], 0, "{t}");
    assert_eq!(
        (t["timeouts"].as_u64(), t["crashes"].as_u64()),
        (Some(0), Some(0)),
        "{t}"
    );
    for g in &games {
        assert_eq!(g["b"]["answers"], 1, "{g}");
        assert!(g["moves"].as_u64().unwrap() > 4, "the game went on: {g}");
    }
    // One process per bot and game, none left running.
    let (a_pids, b_pids) = (pids(&pa), pids(&pb));
    assert_eq!((a_pids.len(), b_pids.len()), (2, 2));
    for pid in a_pids.into_iter().chain(b_pids) {
        assert!(!running(pid), "bot process {pid} survived the referee");
    }
}

#[test]
fn a_reply_over_the_limit_is_an_illegal_move_and_a_partial_reply_then_exit_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let la = dir.path().join("a.log");
    let a = python_bot(&format!("--mode pass --log '{}'", la.display()));
    let b = python_bot("--mode pass --long-turn 1 --partial-exit-turn 3");
    let o = referee(&a, &b, &["--games", "1", "--max-rounds", "10"]);
    let (games, t) = games_and_totals(&o);
    assert_eq!(t["b_illegal_moves"], 1, "{t}");
    assert_eq!(t["b_crashes"], 1, "{t}");
    assert_eq!(t["b_timeouts"], 0, "{t}");
    // The long line and the legal pass were answers; the partial one not.
    assert_eq!(games[0]["b"]["answers"], 2, "{}", games[0]);
    let err = stderr(&o);
    assert!(err.contains("over the limit of 65536 bytes"), "{err}");
    assert!(err.contains("in the middle of a line"), "{err}");
    // A was told `null` for B's first move and played to the end.
    let told: Vec<String> = log_lines(&la)
        .into_iter()
        .filter(|l| l.starts_with("< update player1 move"))
        .collect();
    assert_eq!(
        told.first().map(String::as_str),
        Some("< update player1 move null")
    );
    assert_eq!(log_lines(&la).last().map(String::as_str), Some("# EOF"));
}

#[test]
fn out_writes_each_game_as_a_record_that_replays_to_its_result_and_analyzes() {
    use ladderbot::games::golad::GolState;
    use ladderbot::games::PlayableGame;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let out_arg = out.display().to_string();
    // Our bot against a random one, then against one that answers garbage
    // (its moves are recorded as the passes the engine applied).
    let ai3 = our_bot_with("--agent ai3");
    let o = referee(
        &ai3,
        &python_bot("--seed 3"),
        &[
            "--games",
            "2",
            "--seed",
            "5",
            "--max-rounds",
            "30",
            "--out",
            &out_arg,
        ],
    );
    let (mut games, _) = games_and_totals(&o);
    let o = referee(
        &ai3,
        &python_bot("--mode garbage"),
        &[
            "--games",
            "1",
            "--seed",
            "6",
            "--max-rounds",
            "6",
            "--out",
            &out_arg,
        ],
    );
    games.extend(games_and_totals(&o).0);
    let records = ladderbot::records::read_records(&out).unwrap();
    assert_eq!(records.len(), 3);
    for (r, g) in records.iter().zip(&games) {
        assert_eq!(r.game, "golad");
        assert_eq!(r.moves.len() as u64, g["moves"].as_u64().unwrap(), "{g}");
        assert_eq!(r.move_ms.len(), r.moves.len());
        let a_seat = g["a_seat"].as_u64().unwrap() as usize;
        assert!(r.players[a_seat].starts_with("A:"), "{:?}", r.players);
        assert!(r.players[1 - a_seat].starts_with("B:"), "{:?}", r.players);
        // The start field is the referee's, and the moves replay legally
        // to the result it reported.
        let mut s = GolState::state_from_json(&r.start).unwrap();
        let seed = g["start_seed"].as_u64().unwrap();
        assert_eq!(s, GolState::start(seed, s.max_rounds));
        for m in &r.moves {
            let mv = GolState::move_from_json(m).unwrap();
            assert!(s.is_legal(&mv), "{mv} in game {}", r.id);
            s.apply(mv);
        }
        let o = s.outcome().expect("the replay ends the game");
        assert_eq!(r.winner, o.winner(), "{}", r.id);
        let for_a = match o.winner() {
            None => "draw",
            Some(w) if w == a_seat => "win",
            Some(_) => "loss",
        };
        assert_eq!(g["result"], for_a, "{g}");
        assert_eq!(
            [s.field.count(a_seat), s.field.count(1 - a_seat)],
            [
                g["cells"][0].as_u64().unwrap() as u32,
                g["cells"][1].as_u64().unwrap() as u32
            ]
        );
    }
    // The garbage bot's every move went in as a pass.
    let last = &records[2];
    let garbage_seat = 1 - games[2]["a_seat"].as_u64().unwrap() as usize;
    assert!(last
        .moves
        .iter()
        .skip(garbage_seat)
        .step_by(2)
        .all(|m| m == "pass"));
    // `analyze` reads them.
    let a = run(
        &[
            "analyze",
            &out_arg,
            "--playouts",
            "300",
            "--rollouts",
            "0",
            "--json",
        ],
        &[],
        None,
        LIMIT,
    );
    assert!(a.status.success(), "analyze: {}", stderr(&a));
    let lines: Vec<Value> = stdout(&a)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "three games and the summary: {lines:?}");
}
