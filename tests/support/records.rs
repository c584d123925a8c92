//! Checks of the records the engine writes, for the engine's tests
//! (tests/common/) and the lab's (lab/tests/lab/common/), which both
//! include this file with `#[path]`.
#![allow(dead_code)]

use ladderbot::records::{EndReason, GameRecord};

/// How a Geister game ends by the rules.
pub const GEISTER_ENDINGS: [&str; 4] = ["escape", "blues_captured", "reds_captured", "draw"];

/// Every record is a finished Geister game with a result, a reason and an
/// ending that fit together.
pub fn check_geister_records(recs: &[GameRecord]) {
    for r in recs {
        assert_eq!(r.game, "geister");
        assert_eq!(r.result, GameRecord::result_string(r.winner), "{r:?}");
        let ending = r
            .ending
            .as_deref()
            .unwrap_or_else(|| panic!("no ending: {r:?}"));
        match r.reason {
            EndReason::Rules => {
                assert!(GEISTER_ENDINGS.contains(&ending), "{r:?}");
                assert_eq!(ending == "draw", r.winner.is_none(), "{r:?}");
            }
            other => assert_eq!(ending, other.key(), "{r:?}"),
        }
        assert_eq!(r.moves.len(), r.move_ms.len());
        // The setup turn comes first: both seats' reds.
        for m in &r.moves[..2] {
            let m = m.as_str().unwrap_or_default();
            assert!(m.starts_with("SET:") && m.len() == 8, "{r:?}");
        }
    }
}
