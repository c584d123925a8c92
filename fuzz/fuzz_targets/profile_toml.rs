//! Bot profiles: a profile's TOML text through the `config` crate into
//! `Settings`, checked (`config::load_from`, which `config::load` uses for a
//! profile file).
//!
//! Input: the profile's text. A profile file is read as UTF-8, so other bytes
//! are skipped.
#![no_main]

use std::collections::HashMap;

use ladderbot::config::load_from;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(settings) = load_from(Some(text), HashMap::new()) else {
        return;
    };
    // Settings written back as a profile load as the same settings (when
    // TOML can hold them: no integer above i64::MAX, for one).
    if let Ok(written) = toml::to_string(&settings) {
        let again = load_from(Some(&written), HashMap::new())
            .unwrap_or_else(|e| panic!("{text:?} -> {written:?} does not load: {e}"));
        assert_eq!(toml::to_string(&again).as_ref(), Ok(&written), "{text:?}");
    }
});
