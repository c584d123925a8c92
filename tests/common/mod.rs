//! Helpers for tests that run the real `ladderbot` binary.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ladderbot"));
    // A clean environment: no stray LADDERBOT_* or RUST_LOG from the caller.
    for (k, _) in std::env::vars() {
        if k.starts_with("LADDERBOT_") || k == "RUST_LOG" {
            c.env_remove(k);
        }
    }
    c
}

/// Runs the binary to completion with a time limit (a hang fails the test).
pub fn run(args: &[&str], envs: &[(&str, &str)], dir: Option<&Path>, limit: Duration) -> Output {
    let mut c = bin();
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
    let child = c.spawn().expect("spawn ladderbot");
    wait_with_limit(child, limit)
}

pub fn wait_with_limit(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("try_wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "ladderbot did not finish within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
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

/// A `ladderbot serve` process; killed on drop.
pub struct ServerProc {
    pub child: Child,
    pub url: String,
}

impl ServerProc {
    pub fn start(extra: &[&str]) -> ServerProc {
        let mut c = bin();
        c.args(["serve", "--bind", "127.0.0.1:0"]).args(extra);
        c.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = c.spawn().expect("spawn server");
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
        let url = line
            .strip_prefix("listening on ")
            .expect("listening line")
            .trim()
            .to_string();
        ServerProc { child, url }
    }
}

impl Drop for ServerProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
