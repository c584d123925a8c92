//! Opening suites for Score Four (`four3d`, moves are peg numbers) as the match runner reads them
//! (`openings_check.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

mod openings_check;

fuzz_target!(|data: &[u8]| openings_check::check::<ladderbot::games::four3d::Board>(data));
