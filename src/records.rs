//! Game records: one JSON object per finished game, appended as one line to a
//! `.jsonl` file and flushed at once, so a crash never loses a finished game.
//! The server and the match runner write the same shape.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{Outcome, Seat};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The rules ended it (a line, a full board...).
    Rules,
    /// The loser sent an illegal or unreadable move.
    IllegalMove,
    /// The loser ran out of time.
    Timeout,
    /// The loser's connection closed.
    Disconnect,
    /// Nobody lost: the game was cut off (the server went away or shut
    /// down mid-game). `winner` is `None` and `result` is `*`, as in PGN;
    /// such a game counts neither as a win, a draw nor a loss.
    Aborted,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game name, e.g. "four3d".
    pub game: String,
    /// Unique id of this game on its server or in its match.
    pub id: String,
    /// Names of the players in seat 0 (moves first) and seat 1, as they
    /// gave them: two players may share a name, so only the seat tells
    /// them apart.
    pub players: [String; 2],
    /// The winning seat; `None` for a draw.
    pub winner: Option<Seat>,
    /// "1-0", "0-1" or "1/2-1/2", from seat 0's side.
    pub result: String,
    pub reason: EndReason,
    /// Human-readable detail (the illegal move, the time used...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The true start state (hidden parts included), in the game's wire
    /// format: with `moves` it replays the game ply by ply
    /// (`games::replay`).
    #[serde(default)]
    pub start: Value,
    /// Every move played, in the game's wire format, in the order applied
    /// (the two moves of a simultaneous turn seat 0 first).
    pub moves: Vec<Value>,
    /// Milliseconds each move took, as measured by whoever ran the game.
    pub move_ms: Vec<u64>,
    /// The opening the game started from, in a match with openings: the
    /// first `opening.moves.len()` entries of `moves` are the opening's
    /// (their `move_ms` are 0), the rest the players'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<Opening>,
    /// How the game ended, for games that say (Geister: `escape`,
    /// `blues_captured`, `reds_captured`, `draw`, or on a forfeit the reason:
    /// `illegal_move`, `timeout`, `disconnect`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    /// Unix time in milliseconds.
    pub started_ms: u64,
    pub finished_ms: u64,
    /// The match this game belongs to, for records written by `ladderbot
    /// match`: with it `ladderbot merge` rebuilds the report of a match
    /// from its shards' records.
    #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
    pub match_tag: Option<MatchTag>,
    /// `ladderbot analyze`'s values of the game's positions and its
    /// decisive move (`analysis::GameAnalysis`), in records it wrote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<Value>,
}

/// Where a game of a match belongs, and what each side spent on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchTag {
    /// A fingerprint of everything that decides the match's games (game,
    /// sides, seed, number of games, start options, openings): equal in
    /// every record of one match, whichever shard played it.
    pub key: String,
    /// Side A and side B, as described in the report.
    pub a: String,
    pub b: String,
    pub seed: u64,
    /// Games in the whole match.
    pub games: u32,
    /// This game's number in the match, from 0.
    pub index: u32,
    /// `[I, N]`: played by shard I of N (`match --shard I/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<[u32; 2]>,
    /// The match's SPRT bounds `[elo0, elo1]`, if it had any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<[f64; 2]>,
    /// The opening suite: its source, size and order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite: Option<SuiteTag>,
    /// How the game was played when not in-process (`gat-tcp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
    /// What sides A and B spent in this game.
    pub sides: [SideTotals; 2],
}

/// The opening suite of a match, as its records name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteTag {
    pub source: String,
    pub count: usize,
    /// `sequential` or `random`.
    pub order: String,
}

/// One side's decisions, playouts and thinking time in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideTotals {
    pub decisions: u64,
    pub playouts: u64,
    /// Milliseconds over all decisions.
    pub ms: f64,
    /// The longest decision, milliseconds.
    pub max_ms: f64,
}

/// One opening of a suite: moves played from the game's start before the
/// players take over, as the match runner reads them from a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    /// Its place in the suite, from 0.
    pub index: usize,
    /// Its line in the file, from 1.
    pub line: usize,
    /// The moves from the start, in the game's wire format (the actions of
    /// a simultaneous turn seat 0 first).
    pub moves: Vec<Value>,
}

impl Opening {
    /// The moves as written in a suite file: each move's JSON, separated by
    /// spaces (`5 10 0`).
    pub fn text(&self) -> String {
        self.moves
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl EndReason {
    /// The reason as a key for JSON, as it is serialized (`illegal_move`...).
    pub fn key(self) -> &'static str {
        match self {
            EndReason::Rules => "rules",
            EndReason::IllegalMove => "illegal_move",
            EndReason::Timeout => "timeout",
            EndReason::Disconnect => "disconnect",
            EndReason::Aborted => "aborted",
        }
    }
}

impl GameRecord {
    /// The result string for a winner (None = draw).
    pub fn result_string(winner: Option<Seat>) -> &'static str {
        match winner {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The result string of a game cut off before its end.
    pub const ABORTED: &'static str = "*";

    /// Whether the game was cut off rather than played to a result.
    pub fn is_aborted(&self) -> bool {
        self.reason == EndReason::Aborted
    }

    pub fn outcome(&self) -> Outcome {
        match self.winner {
            Some(s) => Outcome::Win(s),
            None => Outcome::Draw,
        }
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Appends records to a `.jsonl` file, one line each, flushed per record.
/// Safe to share between threads.
pub struct RecordWriter {
    path: PathBuf,
    file: Mutex<File>,
}

impl RecordWriter {
    /// Opens (creating if needed) `path` for appending.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let path = path.as_ref().to_path_buf();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(&path)?;
        Ok(RecordWriter {
            path,
            file: Mutex::new(file),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one record as one line and flushes it to the OS.
    pub fn append(&self, record: &GameRecord) -> io::Result<()> {
        let mut line = serde_json::to_vec(record).map_err(io::Error::other)?;
        line.push(b'\n');
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        // One write call per line keeps lines whole even with other writers.
        f.write_all(&line)?;
        f.flush()
    }
}

/// Reads every record of a `.jsonl` file (for tests and tools).
pub fn read_records(path: impl AsRef<Path>) -> io::Result<Vec<GameRecord>> {
    let text = std::fs::read_to_string(path)?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(io::Error::other))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str) -> GameRecord {
        GameRecord {
            game: "four3d".into(),
            id: id.into(),
            players: ["a".into(), "b".into()],
            winner: Some(1),
            result: GameRecord::result_string(Some(1)).into(),
            reason: EndReason::Timeout,
            detail: None,
            start: serde_json::json!({"cells": ""}),
            moves: vec![serde_json::json!(3)],
            move_ms: vec![12],
            opening: None,
            ending: None,
            started_ms: 1,
            finished_ms: 2,
            match_tag: None,
            analysis: None,
        }
    }

    #[test]
    fn records_append_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/records.jsonl");
        let w = RecordWriter::open(&path).unwrap();
        w.append(&record("g1")).unwrap();
        w.append(&record("g2")).unwrap();
        drop(w);
        let w = RecordWriter::open(&path).unwrap();
        w.append(&record("g3")).unwrap();
        let back = read_records(&path).unwrap();
        assert_eq!(
            back.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            ["g1", "g2", "g3"]
        );
        assert_eq!(back[0], record("g1"));
        assert_eq!(back[0].outcome(), Outcome::Win(1));
    }

    #[test]
    fn ending_is_written_only_when_known() {
        let plain = serde_json::to_value(record("g")).unwrap();
        assert!(plain.get("ending").is_none());
        assert_eq!(plain["start"], serde_json::json!({"cells": ""}));
        let mut r = record("g");
        r.ending = Some("escape".into());
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["ending"], "escape");
        let back: GameRecord = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
        // Lines without the optional keys still read.
        let back: GameRecord = serde_json::from_value(plain).unwrap();
        assert_eq!(back, record("g"));
        let mut old = serde_json::to_value(record("g")).unwrap();
        old.as_object_mut().unwrap().remove("start");
        let back: GameRecord = serde_json::from_value(old).unwrap();
        assert_eq!(back.start, Value::Null);
        for (reason, key) in [
            (EndReason::Rules, "rules"),
            (EndReason::IllegalMove, "illegal_move"),
            (EndReason::Timeout, "timeout"),
            (EndReason::Disconnect, "disconnect"),
        ] {
            assert_eq!(reason.key(), key);
            assert_eq!(serde_json::to_value(reason).unwrap(), key);
        }
    }
}
