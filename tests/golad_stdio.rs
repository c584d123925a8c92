//! `ladderbot play golad --stdio`, the real binary, fed the engine's side of
//! every recorded Riddles.io transcript (both players), with garbage lines
//! interleaved, and timed per request.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::*;
use ladderbot::games::golad::{Field, GolState, Move};
use ladderbot::platforms::riddles::check::{check_answers, forced_passes_in_log};
use serde_json::Value;

/// How long one answer may take before the test calls it a hang.
const HANG: Duration = Duration::from_secs(10);
/// The project rule for every answer (a sanity bound, not a benchmark). An
/// unoptimised build (plain `cargo test`) is only held to a loose bound: its
/// agents are many times slower and overrun their clock checks.
const ANSWER_LIMIT: Duration = if cfg!(debug_assertions) {
    Duration::from_millis(1000)
} else {
    Duration::from_millis(100)
};

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/riddles-golad/transcripts");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    assert_eq!(v.len(), 8, "expected 4 games x 2 players: {v:?}");
    v
}

/// The engine's lines (`< `) of a transcript, in order.
fn engine_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("< "))
        .map(str::to_string)
        .collect()
}

/// A bot process: stdin to feed, stdout lines on a channel, stderr in a file.
struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: mpsc::Receiver<String>,
    stderr: PathBuf,
    _dir: tempfile::TempDir,
}

impl Bot {
    fn start(extra: &[&str]) -> Bot {
        let dir = tempfile::tempdir().unwrap();
        let stderr = dir.path().join("stderr.jsonl");
        let mut c = bin();
        c.args(["--log-format", "json", "play", "golad", "--stdio"])
            .args(extra)
            // The "move request" lines the tests read are at info.
            .env("LADDERBOT_LOG__FILTER", "info")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap());
        let mut child = c.spawn().expect("spawn ladderbot");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                match l {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Bot {
            stdin: child.stdin.take(),
            child,
            replies: rx,
            stderr,
            _dir: dir,
        }
    }

    fn feed(&mut self, line: &str) {
        let w = self.stdin.as_mut().unwrap();
        w.write_all(line.as_bytes()).unwrap();
        w.write_all(b"\n").unwrap();
    }

    /// Sends `action move` and returns the reply with its latency.
    fn ask(&mut self, line: &str) -> (String, Duration) {
        self.feed(line);
        self.stdin.as_mut().unwrap().flush().unwrap();
        let t0 = Instant::now();
        let r = self.replies.recv_timeout(HANG).unwrap_or_else(|_| {
            let _ = self.child.kill();
            panic!(
                "no answer to '{line}' within {HANG:?}\nstderr:\n{}",
                self.stderr_text()
            )
        });
        (r, t0.elapsed())
    }

    fn stderr_text(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// Closes stdin and checks a clean exit 0 with nothing more on stdout.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let start = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > HANG {
                let _ = self.child.kill();
                panic!("the bot did not exit at the end of stdin");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let err = self.stderr_text();
        assert!(status.success(), "exit {status:?}\nstderr:\n{err}");
        assert!(
            self.replies.recv_timeout(Duration::from_secs(2)).is_err(),
            "unexpected output after EOF"
        );
        err
    }
}

/// What the test knows from the raw lines of one turn, read without the codec.
#[derive(Clone, Debug, Default)]
struct Turn {
    me: usize,
    max_rounds: u32,
    round: u32,
    field: String,
    living: [u32; 2],
    opponent: String,
}

fn note(turn: &mut Turn, line: &str) {
    let t: Vec<&str> = line.split(' ').collect();
    match t.as_slice() {
        ["settings", "your_botid", id] => turn.me = id.parse().unwrap(),
        ["settings", "max_rounds", n] => turn.max_rounds = n.parse().unwrap(),
        ["update", "game", "round", r] => turn.round = r.parse().unwrap(),
        ["update", "game", "field", f] => turn.field = f.to_string(),
        ["update", p, "living_cells", n] => {
            turn.living[(p == &"player1") as usize] = n.parse().unwrap()
        }
        ["update", _, "move", m] => turn.opponent = m.to_string(),
        _ => {}
    }
}

/// Checks the reply against the state the bot was given (rebuilt with the
/// rules API) and returns the state.
fn check_reply(turn: &Turn, reply: &str, context: &str) -> GolState {
    let field = Field::from_riddles(&turn.field).unwrap_or_else(|e| panic!("{context}: {e}"));
    assert_eq!(
        [field.count(0), field.count(1)],
        turn.living,
        "{context}: field vs living_cells lines"
    );
    let state = GolState::from_protocol(field, turn.round, turn.me, turn.max_rounds);
    let mv = Move::parse_reply(reply).unwrap_or_else(|e| panic!("{context}: reply '{reply}': {e}"));
    assert!(state.is_legal(&mv), "{context}: illegal reply '{reply}'");
    // `pass` is always legal and always quick: the fallback of a search
    // that failed or overran. The agent these tests run never chooses it.
    assert_ne!(mv, Move::Pass, "{context}: a `pass`, not a searched move");
    state
}

/// The bot's "move request" log entries (JSON log on stderr).
fn logged_requests(stderr: &str) -> Vec<Value> {
    stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["fields"]["message"] == "move request")
        .map(|v| v["fields"].clone())
        .collect()
}

/// Feeds one transcript's engine lines; returns (turns, max latency).
fn replay(path: &Path, garbage: &[&str]) -> (usize, Duration) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut bot = Bot::start(&[]);
    let mut turn = Turn {
        max_rounds: 100,
        ..Default::default()
    };
    let mut turns: Vec<Turn> = Vec::new();
    let mut worst = Duration::ZERO;
    for (i, line) in engine_lines(path).iter().enumerate() {
        for g in garbage {
            bot.feed(g);
        }
        if line.starts_with("action move") {
            let (reply, took) = bot.ask(line);
            let context = format!("{name} line {i}");
            check_reply(&turn, &reply, &context);
            assert!(took < ANSWER_LIMIT, "{context}: answer took {took:?}");
            worst = worst.max(took);
            turns.push(turn.clone());
        } else {
            note(&mut turn, line);
            bot.feed(line);
        }
    }
    let err = bot.finish();
    assert_eq!(
        forced_passes_in_log(&err),
        0,
        "{name}: forced passes\n{err}"
    );
    // The bot parsed each turn as the lines say.
    let logged = logged_requests(&err);
    assert_eq!(
        logged.len(),
        turns.len(),
        "{name}: one 'move request' log per action move\n{err}"
    );
    for (t, l) in turns.iter().zip(&logged) {
        assert_eq!(l["round"], t.round, "{name}: {l}");
        assert_eq!(l["me"], t.me, "{name}: {l}");
        assert_eq!(l["cells0"], t.living[0], "{name}: {l}");
        assert_eq!(l["cells1"], t.living[1], "{name}: {l}");
        assert_eq!(
            l["living0"],
            format!("Some({})", t.living[0]),
            "{name}: {l}"
        );
        assert_eq!(
            l["living1"],
            format!("Some({})", t.living[1]),
            "{name}: {l}"
        );
        assert_eq!(l["opponent"], t.opponent, "{name}: {l}");
    }
    (turns.len(), worst)
}

#[test]
fn every_transcript_is_answered_legally_in_time_and_the_bot_exits_0() {
    let mut total = 0;
    for path in transcripts() {
        let (n, worst) = replay(&path, &[]);
        eprintln!("{}: {n} answers, slowest {worst:?}", path.display());
        assert!(n > 0);
        total += n;
    }
    // 4 games: 11 + 11, 13 + 13, 5 + 5, 2 + 12 requests.
    assert_eq!(total, 72);
}

#[test]
fn garbage_and_unknown_lines_are_skipped_and_every_request_answered() {
    let long = "x".repeat(200_000);
    let garbage = [
        "hello",
        "",
        "update player7 living_cells 3",
        "update game field 2,2,2",
        "update player0 move kill_99,99",
        "settings colour red",
        "action skip 100",
        "\u{1}\u{7f} \t",
        long.as_str(),
    ];
    let paths = transcripts();
    for name in [
        "golad_seed_abc_player0.txt",
        "golad_seed_def_illegal_p0_player1.txt",
    ] {
        let path = paths.iter().find(|p| p.ends_with(name)).unwrap();
        let (n, _) = replay(path, &garbage);
        assert!(n > 10);
    }
}

#[test]
fn requests_without_a_position_are_answered_pass_and_bad_bytes_do_not_stop_the_bot() {
    let mut bot = Bot::start(&[]);
    let (r, _) = bot.ask("action move 10000");
    assert_eq!(r, "pass");
    bot.feed("settings your_botid 1");
    bot.stdin
        .as_mut()
        .unwrap()
        .write_all(b"\xff\xfe garbage\r\n")
        .unwrap();
    let (r, _) = bot.ask("action move soon");
    assert_eq!(r, "pass");
    let err = bot.finish();
    assert!(err.contains("skipping a line"), "{err}");
}

/// A full game from the recorded start, one request at a time, each
/// asked `pause` after the previous answer (the opponent's turn): the
/// answer times and the bot's stderr.
fn one_game_timed(extra: &[&str], pause: Duration, context: &str) -> (Vec<Duration>, String) {
    let path = transcripts()
        .into_iter()
        .find(|p| p.ends_with("golad_seed_abc_player0.txt"))
        .unwrap();
    let lines = engine_lines(&path);
    let mut bot = Bot::start(extra);
    let mut turn = Turn {
        max_rounds: 100,
        ..Default::default()
    };
    let mut times = Vec::new();
    for l in &lines {
        if l.starts_with("action move") {
            std::thread::sleep(pause);
            let (reply, took) = bot.ask(l);
            check_reply(&turn, &reply, context);
            times.push(took);
        } else {
            note(&mut turn, l);
            bot.feed(l);
        }
    }
    let err = bot.finish();
    eprintln!("latencies: {times:?}");
    (times, err)
}

#[test]
fn answers_are_within_100_ms_of_the_request() {
    let (times, _) = one_game_timed(&[], Duration::ZERO, "abc player0");
    let worst = times.iter().max().copied().unwrap();
    assert!(worst < ANSWER_LIMIT, "slowest answer {worst:?}");
}

#[test]
fn a_line_over_the_limit_is_skipped_with_a_warning_and_a_partial_last_line_is_ignored() {
    let mut bot = Bot::start(&[]);
    bot.feed("settings your_botid 0");
    // 80,000 bytes: over the 64 KiB limit, skipped (not read as a field).
    bot.feed(&format!("update game field {}", "0,".repeat(40_000)));
    // A request over the limit is still answered, with `pass`.
    let (r, _) = bot.ask(&format!("action move 10000{}", " ".repeat(70_000)));
    assert_eq!(r, "pass");
    let (r, _) = bot.ask("action move 10000");
    assert_eq!(r, "pass");
    // The input ends in the middle of a request: no answer, a clean exit.
    bot.stdin
        .as_mut()
        .unwrap()
        .write_all(b"action move 10000")
        .unwrap();
    let err = bot.finish();
    assert_eq!(
        err.matches("over the limit of 65536 bytes").count(),
        2,
        "{err}"
    );
    assert!(err.contains("in the middle of a line"), "{err}");
}

/// A whole transcript piped at once (as the README shows and CI's upload
/// check does): every request is already waiting when the previous answer
/// is written. Each is timed from that answer, as an engine would have sent
/// it, so each gets a searched move (once, every answer after the fourth
/// was the overrun fallback `pass`). The same check fails on the `pass`
/// agent.
#[test]
fn a_transcript_piped_at_once_gets_a_searched_move_for_every_request() {
    let path = transcripts()
        .into_iter()
        .find(|p| p.ends_with("golad_seed_abc_player0.txt"))
        .unwrap();
    let engine = engine_lines(&path);
    let input = engine.join("\n") + "\n";
    for (agent, good) in [("best", true), ("pass", false)] {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("stderr");
        let mut c = bin();
        c.args([
            "play",
            "golad",
            "--stdio",
            "--profile",
            "golad-best",
            "--agent",
            agent,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap());
        let mut child = c.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = wait_with_limit(child, Duration::from_secs(60));
        assert!(out.status.success(), "{agent}: {out:?}");
        let answers: Vec<String> = stdout(&out).lines().map(String::from).collect();
        let err = std::fs::read_to_string(&log).unwrap();
        let c = check_answers(&engine, &answers, Some(&err), false);
        assert_eq!(c.requests, 11);
        assert_eq!(c.ok(), good, "{agent}: {c:?}\n{err}");
        if good {
            assert_eq!(c.moves, 11, "{c:?}");
            assert_eq!(c.forced, Some(0));
        } else {
            assert_eq!(c.passes, 11, "{c:?}");
        }
    }
}
