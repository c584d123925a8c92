//! Bot profiles: `LADDERBOT_*` environment variables through the `config`
//! crate into `Settings` (`config::load_from` with no profile text and an
//! environment map; `config::load` passes the process environment the same
//! way).
//!
//! Input: variables one a line, `NAME=VALUE` (invalid UTF-8 replaced). A name
//! without the `LADDERBOT_` prefix (in any case) gets it, unless the line
//! starts with `!` (then it is passed as it is, and must be ignored).
#![no_main]

use std::collections::HashMap;

use ladderbot::config::load_from;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut env = HashMap::new();
    for line in text.lines() {
        let (raw, line) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let (name, value) = line.split_once('=').unwrap_or((line, ""));
        // What a process environment can hold: no NUL, no `=` in a name.
        if name.is_empty() || name.contains('\0') || value.contains('\0') {
            continue;
        }
        let name = if raw || name.to_ascii_uppercase().starts_with("LADDERBOT_") {
            name.to_string()
        } else {
            format!("LADDERBOT_{name}")
        };
        env.insert(name, value.to_string());
    }
    let Ok(settings) = load_from(None, env) else {
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
