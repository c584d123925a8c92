//! How a Geister game ended, by the rules: the keys reports and records
//! count.

use super::rules::{Colour, Geister, Place};
use crate::search::Outcome;

/// How a finished game ended, by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// A blue piece escaped through an exit.
    Escape,
    /// The loser's four blues were all captured.
    BluesCaptured,
    /// The winner's four reds were all captured (by the loser).
    RedsCaptured,
    /// 300 plies without a result.
    Draw,
}

impl Ending {
    pub const ALL: [Ending; 4] = [
        Ending::Escape,
        Ending::BluesCaptured,
        Ending::RedsCaptured,
        Ending::Draw,
    ];

    /// A short name for reports and records.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Escape => "escape",
            Ending::BluesCaptured => "blues captured",
            Ending::RedsCaptured => "reds captured",
            Ending::Draw => "draw",
        }
    }

    /// The name as a key for JSON (records, reports): `escape`,
    /// `blues_captured`, `reds_captured`, `draw`.
    pub fn key(self) -> &'static str {
        match self {
            Ending::Escape => "escape",
            Ending::BluesCaptured => "blues_captured",
            Ending::RedsCaptured => "reds_captured",
            Ending::Draw => "draw",
        }
    }
}

/// How `game` ended; `None` while it is still on.
pub fn ending(game: &Geister) -> Option<Ending> {
    match game.outcome()? {
        Outcome::Draw => Some(Ending::Draw),
        Outcome::Win(w) => {
            let l = 1 - w;
            Some(if game.places(w).contains(&Place::Escaped) {
                Ending::Escape
            } else if game.captured(l, Colour::Blue) >= 4 {
                Ending::BluesCaptured
            } else {
                Ending::RedsCaptured
            })
        }
    }
}
