//! Replaying a record turn by turn, in Rust: the true state after every
//! turn, for the page's replay (the page's JavaScript only draws them).

use serde_json::Value;

use crate::games::{apply_moves, GameKind, GameVisitor, PlayableGame};
use crate::model::Seat;
use crate::records::GameRecord;

/// One turn of a replayed game: who moved, their moves (seat order) and
/// the milliseconds each took.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnData {
    /// The seats that moved, ascending (one, or both in a simultaneous turn).
    pub movers: Vec<Seat>,
    /// Where the turn's first move is in the record's `moves`.
    pub first: usize,
    /// The moves, as recorded, in the order of `movers`.
    pub moves: Vec<Value>,
    /// `move_ms` of each move (`None` when the record has fewer times).
    pub ms: Vec<Option<u64>>,
}

/// A record replayed: the states from its start, one more than its turns,
/// and the error that stopped the replay, if any (then `states` and
/// `turns` hold what replayed before it).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Replayed {
    /// `state_to_json()` of the start, then after each turn.
    pub states: Vec<Value>,
    pub turns: Vec<TurnData>,
    /// Whether the last state is a finished game by the rules.
    pub over: bool,
    pub error: Option<String>,
}

impl Replayed {
    fn failed(error: String) -> Self {
        Replayed {
            error: Some(error),
            ..Replayed::default()
        }
    }

    /// The seat that made each move of the record (as far as it replayed).
    pub fn seats_of_moves(&self) -> Vec<(Seat, Option<u64>)> {
        self.turns
            .iter()
            .flat_map(|t| t.movers.iter().copied().zip(t.ms.iter().copied()))
            .collect()
    }
}

/// Replays `record` from its `start` with the game its `game` field names.
/// Never panics: a record that does not replay (unknown game, bad start, a
/// move that does not apply, even a panic in the rules) gives its error.
pub fn replay_record(record: &GameRecord) -> Replayed {
    let kind: GameKind = match record.game.parse() {
        Ok(k) => k,
        Err(e) => return Replayed::failed(e),
    };
    let run = std::panic::AssertUnwindSafe(|| kind.visit(Replay(record)));
    std::panic::catch_unwind(run).unwrap_or_else(|p| {
        Replayed::failed(format!(
            "the replay panicked: {}",
            crate::search::panic_message(&*p)
        ))
    })
}

struct Replay<'a>(&'a GameRecord);

impl GameVisitor for Replay<'_> {
    type Output = Replayed;
    fn visit<G: PlayableGame>(self) -> Replayed {
        let r = self.0;
        let mut pos = match G::state_from_json(&r.start) {
            Ok(p) => p,
            Err(e) => return Replayed::failed(format!("start: {e}")),
        };
        let mut out = Replayed {
            states: vec![pos.state_to_json()],
            ..Replayed::default()
        };
        let mut i = 0;
        while i < r.moves.len() {
            let movers = pos.turn().movers();
            if movers.is_empty() {
                out.error = Some(format!("move {i}: the game is already over"));
                break;
            }
            let end = (i + movers.len()).min(r.moves.len());
            let moves = &r.moves[i..end];
            // One turn at a time through the library's own check.
            if let Err(e) = apply_moves(&mut pos, moves) {
                out.error = Some(format!("move {}: {}", i + e.index, e.message));
                break;
            }
            out.states.push(pos.state_to_json());
            out.turns.push(TurnData {
                movers: movers.to_vec(),
                first: i,
                moves: moves.to_vec(),
                ms: (i..end).map(|k| r.move_ms.get(k).copied()).collect(),
            });
            i = end;
        }
        out.over = pos.turn().movers().is_empty();
        out
    }
}
