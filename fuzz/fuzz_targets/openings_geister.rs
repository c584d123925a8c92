//! Opening suites for Geister (`geister`: the two secret setups, then moves) as the match runner reads them
//! (`openings_check.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

mod openings_check;

fuzz_target!(|data: &[u8]| openings_check::check::<ladderbot::games::geister::GeisterGame>(data));
