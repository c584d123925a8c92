//! Reading text lines from pipes that may carry anything: lines are cut at a
//! maximum length (the rest up to the newline is discarded), a trailing `\r`
//! is dropped and invalid UTF-8 is replaced, so no input can exhaust memory
//! or stop the reader.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// Longest line kept, in bytes (a GOLAD field line is under 600 bytes).
pub const MAX_LINE: usize = 64 * 1024;

fn finish(mut buf: Vec<u8>) -> String {
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    String::from_utf8_lossy(&buf).into_owned()
}

fn keep(buf: &mut Vec<u8>, chunk: &[u8], max: usize) {
    let room = max.saturating_sub(buf.len());
    buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
}

/// The next line of `r` (without its newline), at most `max` bytes; `None`
/// at the end of input. A last line without a newline is still returned.
pub async fn read_line_async<R: AsyncBufRead + Unpin>(
    r: &mut R,
    max: usize,
) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    let mut any = false;
    loop {
        let avail = r.fill_buf().await?;
        if avail.is_empty() {
            return Ok(any.then(|| finish(buf)));
        }
        any = true;
        match avail.iter().position(|&b| b == b'\n') {
            Some(i) => {
                keep(&mut buf, &avail[..i], max);
                r.consume(i + 1);
                return Ok(Some(finish(buf)));
            }
            None => {
                let n = avail.len();
                keep(&mut buf, avail, max);
                r.consume(n);
            }
        }
    }
}

/// [`read_line_async`] for a blocking reader.
pub fn read_line_blocking<R: io::BufRead>(r: &mut R, max: usize) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    let mut any = false;
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(any.then(|| finish(buf)));
        }
        any = true;
        match avail.iter().position(|&b| b == b'\n') {
            Some(i) => {
                keep(&mut buf, &avail[..i], max);
                r.consume(i + 1);
                return Ok(Some(finish(buf)));
            }
            None => {
                let n = avail.len();
                keep(&mut buf, avail, max);
                r.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &[u8] = b"one\r\ntwo\n\n\xffbad\nxxxxxxxxxxxxxxxxxxxx\nlast";

    fn expected() -> Vec<String> {
        vec![
            "one".into(),
            "two".into(),
            "".into(),
            "\u{fffd}bad".into(),
            "xxxxxxxx".into(),
            "last".into(),
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
    }
}
