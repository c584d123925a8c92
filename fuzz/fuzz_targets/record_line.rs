//! Game records: a `.jsonl` file as `records::read_records` and
//! `ladderbot merge` read it (each non-blank line one `GameRecord`).
//!
//! Input: the file's text. The readers use `read_to_string`, which refuses
//! invalid UTF-8, so such input is skipped.
#![no_main]

use ladderbot::records::GameRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(r) = serde_json::from_str::<GameRecord>(line) else {
            continue;
        };
        let _ = r.outcome();
        if let Some(o) = &r.opening {
            let _ = o.text();
        }
        // What a writer appends reads back as the same record.
        let out = serde_json::to_string(&r).expect("a record serializes");
        assert!(!out.contains('\n'));
        let again: GameRecord = serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("{line:?} -> {out:?} does not parse: {e}"));
        // Compared as records (`PartialEq`), not through the serializer
        // again: a field the writer drops or the reader ignores shows.
        assert_eq!(again, r, "{line:?} -> {out:?}");
    }
});
