//! Helpers for tests that run the real `ladderbot` binary.
#![allow(dead_code)]

pub mod browser;
/// The process helpers the lab's tests use too.
#[path = "../support/process.rs"]
pub mod process;
/// The record checks the lab's tests use too.
#[path = "../support/records.rs"]
pub mod records;

#[allow(unused_imports)] // not every test binary uses each
pub use process::{last_json, stderr, stdout, wait_with_limit};

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The engine's binary, in a clean environment: no stray LADDERBOT_* or
/// RUST_LOG from the caller.
pub fn bin() -> Command {
    process::clean_command(env!("CARGO_BIN_EXE_ladderbot"))
}

/// Runs the binary to completion with a time limit (a hang fails the test).
pub fn run(args: &[&str], envs: &[(&str, &str)], dir: Option<&Path>, limit: Duration) -> Output {
    process::run_with(bin(), args, envs, dir, limit)
}

/// Records of `games` Score Four games between two `random` agents (seed
/// `seed`) written to `out`: quick test data for the commands that read
/// records. Fails the test if the match fails.
pub fn random_games(out: &Path, games: u32, seed: u64) {
    let args = process::random_games_args(out, games, seed);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args, &[], None, Duration::from_secs(120));
    assert!(o.status.success(), "match: {}", stderr(&o));
}

/// A `ladderbot serve` process; killed on drop.
pub struct ServerProc {
    pub child: Child,
    pub url: String,
}

impl ServerProc {
    pub fn start(extra: &[&str]) -> ServerProc {
        ServerProc::start_with_env(extra, &[])
    }

    /// [`ServerProc::start`] with `envs` set (`LADDERBOT_SERVER__...`).
    pub fn start_with_env(extra: &[&str], envs: &[(&str, &str)]) -> ServerProc {
        let mut c = bin();
        c.args(["serve", "--bind", "127.0.0.1:0"]).args(extra);
        c.envs(envs.iter().copied());
        c.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = c.spawn().expect("spawn server");
        let url = listening_url(&mut child);
        ServerProc { child, url }
    }
}

/// The `ws://` address a just-started `serve` prints on its first stdout
/// line (the rest of its stdout is drained in the background).
pub fn listening_url(child: &mut Child) -> String {
    let out = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(out).lines();
        if let Some(Ok(l)) = lines.next() {
            let _ = tx.send(l);
        }
        for _ in lines {}
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("server printed its address");
    line.strip_prefix("listening on ")
        .expect("listening line")
        .trim()
        .to_string()
}

impl Drop for ServerProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `sig` (`-TERM`, `-INT`, `-KILL`...) to `child` with kill(1).
pub fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .expect("run kill")
        .success();
    assert!(ok, "kill {sig}");
}

/// Kills the child when dropped, so a failing test leaves nothing behind.
pub struct Guard(pub Option<Child>);

impl Guard {
    /// Waits for the exit and the output, failing the test after `limit`.
    pub fn wait(mut self, limit: Duration) -> Output {
        wait_with_limit(self.0.take().expect("child"), limit)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(c) = &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// `serve-gat` on free loopback ports with a clock of `budget` seconds per
/// player, then `timeout` per move: its guard, its ports, and the rest of its
/// stdout line by line.
pub fn serve_gat(
    games: u32,
    out: &Path,
    budget: u64,
    timeout: u64,
) -> (Guard, [u16; 2], mpsc::Receiver<String>) {
    serve_gat_logged(games, out, budget, timeout, None)
}

/// [`serve_gat`] with its stderr (debug log) written to `log`.
pub fn serve_gat_logged(
    games: u32,
    out: &Path,
    budget: u64,
    timeout: u64,
    log: Option<&Path>,
) -> (Guard, [u16; 2], mpsc::Receiver<String>) {
    let mut c = bin();
    if let Some(log) = log {
        c.env("RUST_LOG", "ladderbot=debug")
            .stderr(std::fs::File::create(log).expect("create the log"));
    } else {
        c.stderr(Stdio::null());
    }
    c.args(["serve-gat", "--ports", "0,0", "--host", "127.0.0.1"])
        .args(["--games", &games.to_string()])
        .args(["--budget", &budget.to_string()])
        .args(["--timeout", &timeout.to_string()])
        .arg("--out")
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped());
    let mut g = Guard(Some(c.spawn().expect("start serve-gat")));
    let stdout = g.0.as_mut().unwrap().stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(l) = line else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let first = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("serve-gat did not start");
    let ports = first
        .strip_prefix("listening on ")
        .and_then(|p| p.split_once(','))
        .map(|(a, b)| [a.parse().unwrap(), b.parse().unwrap()])
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
    (g, ports, rx)
}

/// One plain HTTP request to `addr` (`HOST:PORT`; the server answers and
/// closes): the status and the body. `None` if the connection failed or
/// the answer is no HTTP.
pub fn try_http(addr: &str, method: &str, path: &str) -> Option<(u16, String)> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    write!(s, "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").ok()?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).ok()?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, body.to_string()))
}

/// [`try_http`] that must succeed.
pub fn http(addr: &str, method: &str, path: &str) -> (u16, String) {
    try_http(addr, method, path).unwrap_or_else(|| panic!("{method} {path}: no HTTP answer"))
}
