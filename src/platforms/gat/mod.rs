//! The GAT Geister platform, as a folder: the pure wire codec ([`codec`],
//! tested on recorded server transcripts), a client that plays games against
//! a GAT server ([`client`]) and a GAT-compatible server ([`server`]). The
//! transports add only sockets and timing; the agent runs on the shared
//! search thread ([`crate::runtime::SearchThread`]).

pub mod client;
pub mod codec;
pub mod server;

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt};

/// The longest line either side accepts (a board line is 52 bytes).
pub const MAX_LINE: u64 = 512;

/// Reads one line (with its end of line), at most [`MAX_LINE`] bytes.
/// `Ok(None)` at the end of the stream; a longer line is an `InvalidData`
/// error. Bytes that are not UTF-8 are replaced, so the codec refuses them.
pub async fn read_line<R: AsyncBufRead + Unpin>(r: &mut R) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = (&mut *r).take(MAX_LINE).read_until(b'\n', &mut buf).await?;
    if n == 0 {
        return Ok(None);
    }
    if !buf.ends_with(b"\n") && n as u64 >= MAX_LINE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("line longer than {MAX_LINE} bytes"),
        ));
    }
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
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

    #[tokio::test]
    async fn read_line_limits_length_and_reports_eof() {
        let data = b"SET?\r\nMOV?x\n".to_vec();
        let mut r = tokio::io::BufReader::new(&data[..]);
        assert_eq!(
            read_line(&mut r).await.unwrap().as_deref(),
            Some("SET?\r\n")
        );
        assert_eq!(read_line(&mut r).await.unwrap().as_deref(), Some("MOV?x\n"));
        assert_eq!(read_line(&mut r).await.unwrap(), None);
        let long = vec![b'a'; 2000];
        let mut r = tokio::io::BufReader::new(&long[..]);
        assert!(read_line(&mut r).await.is_err());
    }
}
