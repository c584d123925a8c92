//! GAT Geister: the server's lines as the client reads them
//! (`gat::codec::parse_server_line`), the 48-character board
//! (`GatBoard::parse`) and the message order (`Phase::on_server`).
//!
//! Input: any bytes, read as `gat::LineReader` does: invalid UTF-8 replaced,
//! one line per `\n` (kept with the line).
#![no_main]

use ladderbot::platforms::gat::codec::{format_server, parse_server_line, GatBoard, Phase};
use libfuzzer_sys::fuzz_target;

fn strip_eol(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut phase = Phase::default();
    for line in text.split_inclusive('\n') {
        if let Ok(b) = GatBoard::parse(line) {
            assert_eq!(b.to_string(), line, "a board prints back exactly");
        }
        match parse_server_line(line) {
            Ok(m) => {
                // Only the exact bytes parse, so formatting gives them back.
                let out = format_server(&m);
                assert_eq!(out, format!("{}\r\n", strip_eol(line)));
                assert_eq!(parse_server_line(&out).as_ref(), Ok(&m));
                phase = phase.on_server(&m).unwrap_or_default();
            }
            Err(e) => assert!(e.0.len() < 2048, "an error longer than a log line"),
        }
    }
});
