//! GAT Geister: the clients' lines as the server reads them
//! (`gat::codec::parse_client_line`) and the message order
//! (`Phase::on_client`).
//!
//! Input: any bytes, read as `gat::LineReader` does: invalid UTF-8 replaced,
//! one line per `\n` (kept with the line).
#![no_main]

use ladderbot::platforms::gat::codec::{format_client, parse_client_line, Phase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.split_inclusive('\n') {
        match parse_client_line(line) {
            Ok(m) => {
                let out = format_client(&m);
                assert!(out.ends_with("\r\n") && out.len() <= 12, "{out:?}");
                assert_eq!(parse_client_line(&out), Ok(m), "{line:?} -> {out:?}");
                for p in [Phase::MustSet, Phase::MustMove, Phase::Waiting] {
                    let _ = p.on_client(&m);
                }
            }
            Err(e) => assert!(e.0.len() < 2048, "an error longer than a log line"),
        }
    }
});
