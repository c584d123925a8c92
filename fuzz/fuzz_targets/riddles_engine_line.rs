//! Riddles.io GOLAD: the engine's lines as the bot reads them
//! (`riddles::codec::parse_line`, folded into a `BotView`), and the bot's
//! reply lines as the engine reads them (`Move::parse_reply`).
//!
//! Input: any bytes, read as the bot reads its stdin
//! (`riddles::bot::lines`): invalid UTF-8 replaced, one line per `\n`.
#![no_main]

use ladderbot::games::golad::Move;
use ladderbot::platforms::riddles::codec::{is_move_request, parse_line, BotView};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut view = BotView::new();
    for line in text.split('\n') {
        let _ = is_move_request(line);
        match parse_line(line) {
            Ok(ev) => {
                // `Display` writes the line the engine would send: it must
                // read back as the same event.
                let printed = ev.to_string();
                let again = parse_line(&printed)
                    .unwrap_or_else(|e| panic!("{line:?} -> {printed:?} does not parse: {e}"));
                assert_eq!(again, ev, "{line:?} -> {printed:?}");
                if let Some(Ok(req)) = view.apply(ev) {
                    assert_eq!(view.me(), Some(req.me));
                }
            }
            Err(e) => assert!(
                e.0.chars().count() < 400,
                "an error longer than a log line: {} characters",
                e.0.chars().count()
            ),
        }
        if let Ok(m) = Move::parse_reply(line) {
            assert_eq!(Move::parse_reply(&m.to_string()), Ok(m), "{line:?}");
            let engine = m.to_engine_string();
            assert_eq!(Move::parse_with(&engine, '_'), Ok(m), "{line:?}");
        }
    }
});
