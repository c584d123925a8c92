//! Match server (WebSocket, protocol v1): a client's text frame as the server
//! reads it (`ws::protocol::parse_client`).
//!
//! Input: one text frame. WebSocket text frames are UTF-8 (tungstenite
//! refuses others), so other bytes are skipped.
#![no_main]

use ladderbot::platforms::ws::protocol::{
    encode_client, encode_server, parse_client, parse_server,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_client(text) {
        Ok(m) => {
            let out = encode_client(&m);
            let again = parse_client(&out)
                .unwrap_or_else(|e| panic!("{text:?} -> {out:?} does not parse: {e}"));
            // Compared as messages (`PartialEq`), not through the encoder
            // again.
            assert_eq!(again, m, "{text:?} -> {out:?}");
        }
        Err(e) => {
            // The server answers with an `error` message: the client must
            // read it back as it was sent.
            let answer = e.to_msg();
            let out = encode_server(&answer);
            assert_eq!(parse_server(&out).as_ref(), Ok(&answer), "{out}");
        }
    }
});
