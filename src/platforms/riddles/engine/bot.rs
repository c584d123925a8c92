//! One bot process as the referee sees it: its stdin (async, bounded by
//! time), its stdout read line by line on a task that stamps each line with
//! the instant it was read, and its end (close stdin, wait a grace period,
//! kill). A bot that crashes, stops reading, floods its stdout or never
//! answers costs the referee at most its time bank. A line over
//! [`lines::MAX_LINE`] is an answer that cannot be a move
//! ([`Answer::TooLong`]); output that ends in the middle of a line is the bot
//! leaving ([`Answer::Gone`]); both are logged as warnings.
//!
//! Pipes are made async with `tokio::net::unix::pipe`, so this is Unix only.

use std::io;
use std::os::fd::OwnedFd;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::platforms::riddles::bot::lines;
pub use crate::platforms::riddles::bot::lines::MAX_LINE;

/// Lines the bot may write ahead unasked before further ones are dropped.
const QUEUE: usize = 256;

/// What came of one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The first line the bot wrote after the request, and how long it took
    /// from writing the request to reading that line.
    Line { text: String, elapsed: Duration },
    /// A line over [`lines::MAX_LINE`] (its length in bytes): not a move.
    TooLong { bytes: usize, elapsed: Duration },
    /// Nothing within the time bank: the bot has been killed.
    Timeout,
    /// The bot is gone (it exited or closed its pipes, or was killed before).
    Gone,
}

/// A running bot.
pub struct BotProcess {
    label: String,
    child: Option<Child>,
    stdin: Option<pipe::Sender>,
    /// Each line (or the length of one over the limit) and when it was read.
    lines: mpsc::Receiver<(Result<String, usize>, Instant)>,
    reader: JoinHandle<()>,
    gone: bool,
}

/// Where the bots' stderr goes. Two bots share it, so each of their lines
/// is written behind its bot's tag (`[bot A] `), whole, in one write.
#[derive(Clone, Debug)]
pub enum BotStderr {
    /// The referee's own stderr.
    Inherit,
    /// A file opened for appending (`referee --bot-stderr`).
    File(std::sync::Arc<std::fs::File>),
    /// Nowhere.
    Null,
}

impl BotStderr {
    /// Copies the lines of `from` to `self`, each behind `tag`, on a thread
    /// of its own that ends with the bot's stderr. A line over
    /// [`MAX_LINE`] is cut in pieces, each tagged.
    fn copy(&self, from: std::process::ChildStderr, tag: String) {
        use std::io::{BufRead, Read, Write};
        let to = self.clone();
        let copier = move || {
            let mut r = io::BufReader::new(from);
            let mut line = Vec::new();
            loop {
                line.clear();
                match (&mut r).take(MAX_LINE as u64).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if line.last() != Some(&b'\n') {
                    line.push(b'\n');
                }
                let mut out = Vec::with_capacity(tag.len() + line.len());
                out.extend_from_slice(tag.as_bytes());
                out.extend_from_slice(&line);
                let _ = match &to {
                    BotStderr::Inherit => io::stderr().lock().write_all(&out),
                    BotStderr::File(f) => (&**f).write_all(&out),
                    BotStderr::Null => Ok(()),
                };
            }
        };
        if let Err(e) = std::thread::Builder::new()
            .name("bot-stderr".into())
            .spawn(copier)
        {
            tracing::warn!(error = %e, "cannot copy a bot's stderr");
        }
    }
}

impl BotProcess {
    /// Starts `argv` with piped stdin/stdout; its stderr goes to `stderr`,
    /// each line behind `tag` (e.g. `[bot A] `). Must run inside a tokio
    /// runtime.
    pub fn spawn(
        label: &str,
        argv: &[String],
        stderr: &BotStderr,
        tag: &str,
    ) -> io::Result<BotProcess> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty bot command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                BotStderr::Null => Stdio::null(),
                _ => Stdio::piped(),
            })
            .spawn()?;
        if let Some(from) = child.stderr.take() {
            stderr.copy(from, tag.to_string());
        }
        let pipes = (|| {
            let stdin = child
                .stdin
                .take()
                .ok_or_else(|| io::Error::other("no stdin pipe"))?;
            let stdout = child
                .stdout
                .take()
                .ok_or_else(|| io::Error::other("no stdout pipe"))?;
            Ok::<_, io::Error>((
                pipe::Sender::from_owned_fd(OwnedFd::from(stdin))?,
                pipe::Receiver::from_owned_fd(OwnedFd::from(stdout))?,
            ))
        })();
        let (stdin, stdout) = match pipes {
            Ok(p) => p,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let (tx, rx) = mpsc::channel(QUEUE);
        let who = label.to_string();
        let reader = tokio::spawn(async move {
            let mut r = tokio::io::BufReader::new(stdout);
            let mut dropped = 0u64;
            loop {
                let line = match lines::read_line_async(&mut r, lines::MAX_LINE).await {
                    Ok(Some(lines::Line::Full(l))) => Ok(Some(Ok(l))),
                    Ok(Some(lines::Line::TooLong { bytes, .. })) => {
                        tracing::warn!(bot = %who, bytes, limit = lines::MAX_LINE,
                            "the bot wrote a line over the limit of {} bytes; it is not a move", lines::MAX_LINE);
                        Ok(Some(Err(bytes)))
                    }
                    Ok(Some(lines::Line::Unterminated(l))) => {
                        tracing::warn!(bot = %who, bytes = l.len(),
                            "the bot's output ended in the middle of a line; it is out of the game");
                        Ok(None)
                    }
                    Ok(None) => Ok(None),
                    Err(e) => Err(e),
                };
                match line {
                    Ok(Some(line)) => match tx.try_send((line, Instant::now())) {
                        Ok(()) => {}
                        Err(mpsc::error::TrySendError::Full(_)) => {
                            dropped += 1;
                            if dropped == 1 {
                                tracing::warn!(bot = %who, "bot floods its stdout; dropping lines");
                            }
                        }
                        Err(mpsc::error::TrySendError::Closed(_)) => break,
                    },
                    Ok(None) => break,
                    Err(e) => {
                        tracing::debug!(bot = %who, error = %e, "cannot read the bot's stdout");
                        break;
                    }
                }
            }
        });
        tracing::debug!(bot = label, pid = child.id(), command = ?argv, "bot started");
        Ok(BotProcess {
            label: label.to_string(),
            child: Some(child),
            stdin: Some(stdin),
            lines: rx,
            reader,
            gone: false,
        })
    }

    /// Whether the bot is out of the game (exited, killed or unreachable).
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// Writes `text` within `limit`. On failure the bot is out of the game
    /// (killed if it was too slow); returns whether it worked.
    pub async fn send(&mut self, text: &str, limit: Duration) -> bool {
        let Some(stdin) = self.stdin.as_mut() else {
            self.gone = true;
            return false;
        };
        match tokio::time::timeout(limit, stdin.write_all(text.as_bytes())).await {
            Ok(Ok(())) => true,
            Ok(Err(e)) => {
                tracing::warn!(bot = %self.label, error = %e, "cannot write to the bot; it is out of the game");
                self.stdin = None;
                self.gone = true;
                false
            }
            Err(_) => {
                tracing::warn!(bot = %self.label, "the bot does not read its input; killing it");
                self.kill().await;
                false
            }
        }
    }

    /// Sends a request (`text` ends with `action move`) and waits up to
    /// `bank` for the first line written after it. Lines the bot wrote
    /// before the request are discarded. On a timeout the bot is killed.
    pub async fn ask(&mut self, text: &str, bank: Duration) -> Answer {
        if self.gone {
            return Answer::Gone;
        }
        while let Ok((line, _)) = self.lines.try_recv() {
            let shown = line.map_or_else(|n| format!("({n} bytes)"), |l| short(&l));
            tracing::debug!(bot = %self.label, line = %shown, "ignoring a line written unasked");
        }
        let start = Instant::now();
        if !self.send(text, bank).await {
            return if self.gone && start.elapsed() >= bank {
                Answer::Timeout
            } else {
                Answer::Gone
            };
        }
        let sent = Instant::now();
        match tokio::time::timeout_at((sent + bank).into(), self.lines.recv()).await {
            Ok(Some((Ok(text), at))) => Answer::Line {
                text,
                elapsed: at.saturating_duration_since(sent),
            },
            Ok(Some((Err(bytes), at))) => Answer::TooLong {
                bytes,
                elapsed: at.saturating_duration_since(sent),
            },
            Ok(None) => {
                tracing::warn!(bot = %self.label, "the bot closed its output; it is out of the game");
                self.gone = true;
                self.stdin = None;
                Answer::Gone
            }
            Err(_) => {
                tracing::warn!(bot = %self.label, bank_ms = bank.as_millis() as u64, "no answer within the time bank; killing the bot");
                self.kill().await;
                Answer::Timeout
            }
        }
    }

    /// Kills the bot now and marks it out of the game.
    pub async fn kill(&mut self) {
        self.gone = true;
        self.stdin = None;
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            reap(&self.label, &mut child, Duration::from_secs(1)).await;
        }
        self.reader.abort();
    }

    /// Ends the bot: closes its stdin, waits up to `grace` for it to exit,
    /// then kills it.
    pub async fn shutdown(mut self, grace: Duration) {
        self.stdin = None;
        if let Some(mut child) = self.child.take() {
            if !reap(&self.label, &mut child, grace).await {
                tracing::debug!(bot = %self.label, "the bot did not exit at the end of its input; killing it");
                let _ = child.kill();
                reap(&self.label, &mut child, Duration::from_secs(1)).await;
            }
        }
        self.reader.abort();
    }
}

/// Waits up to `limit` for `child` to exit, without blocking the runtime.
async fn reap(label: &str, child: &mut Child, limit: Duration) -> bool {
    let until = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                tracing::debug!(bot = label, %status, "bot exited");
                return true;
            }
            Ok(None) if Instant::now() < until => {
                tokio::time::sleep(Duration::from_millis(5)).await
            }
            Ok(None) => return false,
            Err(e) => {
                tracing::debug!(bot = label, error = %e, "cannot wait for the bot");
                return false;
            }
        }
    }
}

fn short(line: &str) -> String {
    line.chars().take(80).collect()
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.try_wait();
        }
        self.reader.abort();
    }
}
