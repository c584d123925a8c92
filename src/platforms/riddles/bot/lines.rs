//! Reading text lines from pipes that may carry anything: a line is kept up
//! to a maximum length (the rest up to the newline is read and dropped, and
//! the line is reported as too long), a trailing `\r` is dropped and invalid
//! UTF-8 is replaced, so no input can exhaust memory or stop the reader. A
//! last line without its newline is reported as such: the caller decides
//! (it is not a line of the protocol).

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// Longest line kept, in bytes (a GOLAD field line is under 600 bytes).
pub const MAX_LINE: usize = 64 * 1024;

/// One line as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, without its end of line.
    Full(String),
    /// A line longer than the limit: its first bytes (up to the limit) and
    /// its whole length in bytes, end of line excluded. The rest was read
    /// and dropped.
    TooLong { start: String, bytes: usize },
    /// The input ended in the middle of a line: what came after the last
    /// newline.
    Unterminated(String),
}

impl Line {
    /// The text of a whole line, `None` otherwise.
    pub fn full(self) -> Option<String> {
        match self {
            Line::Full(s) => Some(s),
            _ => None,
        }
    }
}

fn text(mut buf: Vec<u8>, bytes: usize) -> String {
    buf.truncate(bytes);
    String::from_utf8_lossy(&buf).into_owned()
}

/// A line being read.
struct Acc {
    buf: Vec<u8>,
    bytes: usize,
    /// The last byte read of the line (to leave a final `\r` out of its
    /// length).
    last: Option<u8>,
    any: bool,
    max: usize,
}

impl Acc {
    fn new(max: usize) -> Self {
        Acc {
            buf: Vec::new(),
            bytes: 0,
            last: None,
            any: false,
            max,
        }
    }

    fn keep(&mut self, chunk: &[u8]) {
        let room = self.max.saturating_sub(self.buf.len());
        self.buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        self.bytes += chunk.len();
        if let Some(&b) = chunk.last() {
            self.last = Some(b);
        }
    }

    /// Takes what `avail` holds; returns how much to consume and whether
    /// the line is complete.
    fn take(&mut self, avail: &[u8]) -> (usize, bool) {
        self.any = true;
        match avail.iter().position(|&b| b == b'\n') {
            Some(i) => {
                self.keep(&avail[..i]);
                (i + 1, true)
            }
            None => {
                self.keep(avail);
                (avail.len(), false)
            }
        }
    }

    fn finish(self, ended: bool) -> Option<Line> {
        let bytes = self.bytes - usize::from(self.last == Some(b'\r'));
        if bytes > self.max {
            return Some(Line::TooLong {
                start: text(self.buf, bytes),
                bytes,
            });
        }
        match (ended, self.any) {
            (true, _) => Some(Line::Full(text(self.buf, bytes))),
            (false, true) => Some(Line::Unterminated(text(self.buf, bytes))),
            (false, false) => None,
        }
    }
}

/// The next line of `r`, at most `max` bytes kept; `None` at the end of
/// input.
pub async fn read_line_async<R: AsyncBufRead + Unpin>(
    r: &mut R,
    max: usize,
) -> io::Result<Option<Line>> {
    let mut acc = Acc::new(max);
    loop {
        let avail = r.fill_buf().await?;
        if avail.is_empty() {
            return Ok(acc.finish(false));
        }
        let (n, ended) = acc.take(avail);
        r.consume(n);
        if ended {
            return Ok(acc.finish(true));
        }
    }
}

/// [`read_line_async`] for a blocking reader.
pub fn read_line_blocking<R: io::BufRead>(r: &mut R, max: usize) -> io::Result<Option<Line>> {
    let mut acc = Acc::new(max);
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(acc.finish(false));
        }
        let (n, ended) = acc.take(avail);
        r.consume(n);
        if ended {
            return Ok(acc.finish(true));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &[u8] = b"one\r\ntwo\n\n\xffbad\nxxxxxxxxxxxxxxxxxxxx\n12345678\r\nlast";

    fn expected() -> Vec<Line> {
        vec![
            Line::Full("one".into()),
            Line::Full("two".into()),
            Line::Full("".into()),
            Line::Full("\u{fffd}bad".into()),
            Line::TooLong {
                start: "xxxxxxxx".into(),
                bytes: 20,
            },
            Line::Full("12345678".into()),
            Line::Unterminated("last".into()),
        ]
    }

    #[test]
    fn blocking_lines_are_cut_cleaned_and_end_at_eof() {
        let mut r = io::BufReader::with_capacity(3, INPUT);
        let mut got = Vec::new();
        while let Some(l) = read_line_blocking(&mut r, 8).unwrap() {
            got.push(l);
        }
        assert_eq!(got, expected());
    }

    #[tokio::test]
    async fn async_lines_are_cut_cleaned_and_end_at_eof() {
        let mut r = tokio::io::BufReader::with_capacity(3, INPUT);
        let mut got = Vec::new();
        while let Some(l) = read_line_async(&mut r, 8).await.unwrap() {
            got.push(l);
        }
        assert_eq!(got, expected());
        let mut r = tokio::io::BufReader::new(&b"0123456789"[..]);
        assert_eq!(
            read_line_async(&mut r, 8).await.unwrap(),
            Some(Line::TooLong {
                start: "01234567".into(),
                bytes: 10
            })
        );
    }
}
