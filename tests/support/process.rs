//! Helpers for the tests that run a program of this repository, the
//! engine's `ladderbot` (tests/common/) or the lab's `ladderbot-lab`
//! (lab/tests/lab/common/), which both include this file with `#[path]`.
//! No program is named here: the callers pass a `Command` (or a function
//! that makes one) for their binary.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `program` in a clean environment: no stray LADDERBOT_* or RUST_LOG from
/// the caller.
pub fn clean_command(program: impl AsRef<OsStr>) -> Command {
    let mut c = Command::new(program);
    for (k, _) in std::env::vars() {
        if k.starts_with("LADDERBOT_") || k == "RUST_LOG" {
            c.env_remove(k);
        }
    }
    c
}

/// Runs `c` with `args` and `envs` (in `dir`, if given) to completion with a
/// time limit (a hang fails the test).
pub fn run_with(
    mut c: Command,
    args: &[&str],
    envs: &[(&str, &str)],
    dir: Option<&Path>,
    limit: Duration,
) -> Output {
    c.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in envs {
        c.env(k, v);
    }
    if let Some(d) = dir {
        c.current_dir(d);
    }
    let child = c
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {}: {e}", c.get_program().to_string_lossy()));
    wait_with_limit(child, limit)
}

/// The child's exit and output; after `limit` it is killed and the test
/// fails (with what it printed). Its stdout and stderr (where piped) are
/// read while it runs: a child that writes more than a pipe holds (64 KiB
/// of logs) would otherwise block on its write and never finish.
pub fn wait_with_limit(mut child: Child, limit: Duration) -> Output {
    fn drain<R: std::io::Read + Send + 'static>(
        pipe: Option<R>,
    ) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    }
    let start = Instant::now();
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let collect = |status| Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    };
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return collect(status);
        }
        if start.elapsed() > limit {
            let pid = child.id();
            let _ = child.kill();
            let o = collect(child.wait().expect("wait"));
            panic!(
                "the program (pid {pid}) did not finish within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The last stdout line, parsed as JSON.
pub fn last_json(o: &Output) -> serde_json::Value {
    let out = stdout(o);
    let line = out
        .lines()
        .last()
        .unwrap_or_else(|| panic!("no output; stderr: {}", stderr(o)));
    serde_json::from_str(line).unwrap_or_else(|e| panic!("last line is not JSON ({e}): {line}"))
}

/// The engine's arguments for `games` Score Four games between two
/// `random` agents (seed `seed`) written to `out`: quick test data for the
/// commands (and the lab's tasks) that read records.
pub fn random_games_args(out: &Path, games: u32, seed: u64) -> Vec<String> {
    let line = format!("match four3d --a random --b random --games {games} --seed {seed} --out");
    let mut args: Vec<String> = line.split_whitespace().map(String::from).collect();
    args.push(s(out).to_string());
    args
}

/// A path as a string.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// How long a command [`refused`] or [`ok`] runs may take.
pub const MESSAGE_LIMIT: Duration = Duration::from_secs(120);

/// Runs `c` with `args`: exit 2, one `error: ...` line holding each of
/// `needles`; that line.
pub fn refused(c: Command, args: &[&str], needles: &[&str]) -> String {
    let o = run_with(c, args, &[], None, MESSAGE_LIMIT);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {n:?} not in {err}");
    }
    err
}

/// Runs `c` with `args` (in `dir`, if given): it must succeed.
pub fn ok(c: Command, args: &[&str], dir: Option<&Path>) -> Output {
    let o = run_with(c, args, &[], dir, MESSAGE_LIMIT);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

// ---------------------------------------------------------------------------
// Stdout closed by its reader (`| head -1`).

/// Runs `c` with `args` in `dir` with stdout a pipe whose reading end is
/// closed at once (before the program can have written); returns (exit
/// code, stderr).
pub fn run_closed(
    mut c: Command,
    args: &[&str],
    dir: &Path,
    limit: Duration,
) -> (Option<i32>, String) {
    c.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    // The only reading end: from now on every write fails (broken pipe).
    drop(child.stdout.take());
    let out = wait_with_limit(child, limit);
    (out.status.code(), stderr(&out))
}

/// `what` ended quietly: no panic, no "Broken pipe", exit `want`.
pub fn assert_quiet(what: &str, code: Option<i32>, err: &str, want: i32) {
    assert!(!err.contains("panicked"), "{what}: panicked:\n{err}");
    assert!(!err.contains("Broken pipe"), "{what}: {err}");
    assert_eq!(code, Some(want), "{what}: exit {code:?}\n{err}");
}

/// Every line of a JSON-lines file (records...) is a whole JSON object;
/// their number.
pub fn whole_lines(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        assert!(
            line.ends_with('\n'),
            "{}: line {} is torn",
            path.display(),
            i + 1
        );
        let v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}: line {}: {e}", path.display(), i + 1));
        assert!(v.is_object());
    }
    text.lines().count()
}

// ---------------------------------------------------------------------------
// Every command, as `--help` lists them, given bad input.

/// The commands the `Commands:` section of `c ARGS --help` lists, but
/// `help` (`c` run within `limit`; it must succeed).
pub fn commands_of(c: Command, args: &[&str], limit: Duration) -> Vec<String> {
    let mut all = args.to_vec();
    all.push("--help");
    let o = run_with(c, &all, &[], None, limit);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    let out = stdout(&o);
    let mut names = Vec::new();
    let mut inside = false;
    for line in out.lines() {
        if line.trim_end() == "Commands:" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if line.trim().is_empty() {
            break;
        }
        // `  name   what it does`; a wrapped description is indented further.
        if let Some(rest) = line.strip_prefix("  ") {
            if !rest.starts_with(' ') {
                let name = rest.split_whitespace().next().unwrap_or_default();
                if name != "help" {
                    names.push(name.to_string());
                }
            }
        }
    }
    names
}

/// One bad input and what it must give.
pub struct Case {
    pub args: Vec<String>,
    pub code: i32,
    /// Text the stderr must hold.
    pub says: &'static str,
    /// Whether stderr must be exactly one `error: ...` line (clap's own
    /// usage errors add a hint line).
    pub one_line: bool,
}

pub fn case(args: &[&str], code: i32, says: &'static str) -> Case {
    Case {
        args: args.iter().map(|a| a.to_string()).collect(),
        code,
        says,
        one_line: true,
    }
}

/// Every path of `paths` (`COMMAND SUB`, `GAME TASK`...) has a case, and
/// every case (`covered`: the path each case runs) is of a path; `what`
/// names them (`command`, `task`), `file` the test that lists the cases.
pub fn assert_every_path_has_a_case(
    paths: &BTreeSet<String>,
    covered: impl IntoIterator<Item = String>,
    what: &str,
    file: &str,
) {
    let covered: BTreeSet<String> = covered.into_iter().collect();
    let uncovered: Vec<&String> = paths.iter().filter(|p| !covered.contains(*p)).collect();
    assert!(
        uncovered.is_empty(),
        "{what}s without a bad-input case in {file}: {uncovered:?}"
    );
    let unknown: Vec<&String> = covered.iter().filter(|p| !paths.contains(*p)).collect();
    assert!(unknown.is_empty(), "cases of no {what}: {unknown:?}");
}

/// Runs every case at once in `dir` with the program `bin` makes, and
/// reports every failure at once: a wrong code, not one clear `error: ...`
/// line, a case that takes longer than `limit` (which `slow` explains), a
/// walk longer than a minute.
pub fn assert_cases_pass(
    cases: &[Case],
    bin: fn() -> Command,
    dir: &Path,
    limit: Duration,
    slow: &str,
) {
    let started = Instant::now();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .iter()
            .map(|c| scope.spawn(move || check(c, bin(), dir, limit)))
            .collect();
        handles
            .into_iter()
            .zip(cases)
            .filter_map(|(h, c)| match h.join() {
                Ok(r) => r.err(),
                Err(_) => Some(format!(
                    "{}: did not finish within {limit:?} ({slow})",
                    c.args.join(" ")
                )),
            })
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the walk took {:?}",
        started.elapsed()
    );
}

/// Runs one case with `c` in `dir`: its code, and its one clear line.
pub fn check(c: &Case, bin: Command, dir: &Path, limit: Duration) -> Result<(), String> {
    let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
    let o = run_with(bin, &args, &[], Some(dir), limit);
    let err = stderr(&o);
    let name = c.args.join(" ");
    if o.status.code() != Some(c.code) {
        return Err(format!(
            "{name}: exit {:?}, not {}: {err}",
            o.status.code(),
            c.code
        ));
    }
    if !err.starts_with("error: ") || (c.one_line && err.lines().count() != 1) {
        return Err(format!("{name}: not one `error: ...` line: {err}"));
    }
    if !err.contains(c.says) {
        return Err(format!("{name}: {:?} not in: {err}", c.says));
    }
    Ok(())
}
