//! The GAT Geister platform, as a folder: the pure wire codec ([`codec`],
//! tested on recorded server transcripts), a client that plays games against
//! a GAT server ([`client`]), a GAT-compatible server ([`server`]) and the
//! session of `play` on GAT ([`session`]: a server's client, or against the
//! house bot of an in-process server). The transports add only sockets and
//! timing; the agent runs on the shared search thread
//! ([`crate::runtime::SearchThread`]).

pub mod client;
pub mod clock;
pub mod codec;
pub mod server;
pub mod session;

use std::io;

use crate::games::GameKind;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The game GAT serves.
pub const GAME: GameKind = GameKind::Geister;

/// The longest line either side accepts, its end of line included (a board
/// line is 52 bytes).
pub const MAX_LINE: usize = 512;

/// Reads GAT lines from a buffered stream, at most [`MAX_LINE`] bytes each.
///
/// [`LineReader::next_line`] is cancel safe: the bytes of a line not yet
/// complete stay here, so it can wait in a `select!` or under a timeout and
/// be called again without losing them.
pub struct LineReader<R> {
    r: R,
    pending: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(r: R) -> Self {
        LineReader {
            r,
            pending: Vec::new(),
        }
    }

    /// The next line, with its end of line. `Ok(None)` at the end of the
    /// stream. A line longer than [`MAX_LINE`] is an `InvalidData` error
    /// naming the limit; a stream that ends in the middle of a line is an
    /// `UnexpectedEof` error (a line counts only with its `\n`). Bytes that
    /// are not UTF-8 are replaced, so the codec refuses them.
    pub async fn next_line(&mut self) -> io::Result<Option<String>> {
        loop {
            let avail = self.r.fill_buf().await?;
            if avail.is_empty() {
                if self.pending.is_empty() {
                    return Ok(None);
                }
                let n = self.pending.len();
                self.pending.clear();
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("the stream ended in the middle of a line ({n} bytes without an end of line)"),
                ));
            }
            let room = MAX_LINE - self.pending.len();
            let window = &avail[..avail.len().min(room)];
            if let Some(i) = window.iter().position(|&b| b == b'\n') {
                self.pending.extend_from_slice(&window[..=i]);
                self.r.consume(i + 1);
                let line = String::from_utf8_lossy(&self.pending).into_owned();
                self.pending.clear();
                return Ok(Some(line));
            }
            let n = window.len();
            self.pending.extend_from_slice(window);
            self.r.consume(n);
            if self.pending.len() >= MAX_LINE {
                self.pending.clear();
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a line longer than the limit of {MAX_LINE} bytes"),
                ));
            }
        }
    }
}

/// A line for logs: without its end of line, shortened, escaped.
pub fn show_line(line: &str) -> String {
    let t = line.trim_end_matches(['\r', '\n']);
    let mut s: String = t.chars().take(60).collect();
    if t.chars().count() > 60 {
        s.push_str("...");
    }
    s.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines_of(data: &[u8]) -> Vec<Result<String, io::ErrorKind>> {
        // A tiny buffer: lines arrive in pieces.
        let mut r = LineReader::new(tokio::io::BufReader::with_capacity(3, data));
        let mut got = Vec::new();
        loop {
            match r.next_line().await {
                Ok(Some(l)) => got.push(Ok(l)),
                Ok(None) => return got,
                Err(e) => {
                    got.push(Err(e.kind()));
                    if e.kind() != io::ErrorKind::InvalidData {
                        return got;
                    }
                }
            }
        }
    }

    #[tokio::test]
    async fn lines_are_limited_and_a_partial_last_line_is_an_error() {
        assert_eq!(
            lines_of(b"SET?\r\nMOV?x\n").await,
            vec![Ok("SET?\r\n".to_string()), Ok("MOV?x\n".to_string())]
        );
        let mut long = vec![b'a'; 2000];
        long.push(b'\n');
        let got = lines_of(&long).await;
        assert_eq!(got[0], Err(io::ErrorKind::InvalidData));
        let exact = [vec![b'a'; MAX_LINE - 1], vec![b'\n']].concat();
        assert_eq!(lines_of(&exact).await.len(), 1);
        assert!(lines_of(&exact).await[0].is_ok());
        let over = [vec![b'a'; MAX_LINE], vec![b'\n']].concat();
        assert_eq!(lines_of(&over).await[0], Err(io::ErrorKind::InvalidData));
        assert_eq!(
            lines_of(b"OK \r\nMOV:A,N").await,
            vec![Ok("OK \r\n".to_string()), Err(io::ErrorKind::UnexpectedEof)]
        );
        let err = LineReader::new(&over[..]).next_line().await.unwrap_err();
        assert!(err.to_string().contains("512 bytes"), "{err}");
    }

    #[tokio::test]
    async fn a_line_read_in_pieces_survives_a_cancelled_read() {
        let (mut tx, rx) = tokio::io::duplex(64);
        let mut r = LineReader::new(tokio::io::BufReader::new(rx));
        use tokio::io::AsyncWriteExt;
        tx.write_all(b"MOV:A").await.unwrap();
        // The read is cut off (as by a timeout) while the line is partial.
        let cut = tokio::time::timeout(std::time::Duration::from_millis(20), r.next_line()).await;
        assert!(cut.is_err());
        tx.write_all(b",N\r\n").await.unwrap();
        assert_eq!(r.next_line().await.unwrap().as_deref(), Some("MOV:A,N\r\n"));
    }
}
