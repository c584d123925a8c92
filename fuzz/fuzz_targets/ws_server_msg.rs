//! Match server (WebSocket, protocol v1): a server's text frame as the client
//! reads it (`ws::protocol::parse_server`).
//!
//! Input: one text frame. WebSocket text frames are UTF-8 (tungstenite
//! refuses others), so other bytes are skipped.
#![no_main]

use ladderbot::platforms::ws::protocol::{encode_server, parse_server};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = parse_server(text) {
        let out = encode_server(&m);
        let again = parse_server(&out)
            .unwrap_or_else(|e| panic!("{text:?} -> {out:?} does not parse: {e}"));
        // Compared as messages (`PartialEq`), not through the encoder again.
        assert_eq!(again, m, "{text:?} -> {out:?}");
        assert!(!m.kind().is_empty());
    }
});
