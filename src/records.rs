//! Game records: one JSON object per finished game, appended as one line to a
//! `.jsonl` file and flushed at once, so a crash never loses a finished game.
//! The server and the match runner write the same shape.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::de::DeserializeOwned;
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

impl std::fmt::Display for SuiteTag {
    /// `SOURCE (COUNT, ORDER)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}, {})", self.source, self.count, self.order)
    }
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

/// The one reader of JSON-lines files (records, and the labs' data):
/// every command that reads them reads them here, by one rule. Blank lines
/// are passed over; a torn last line (the writer was killed in the middle
/// of it: it breaks off mid-value, or lacks its newline and does not read)
/// is skipped, with a warning naming it; any other line that does not read
/// is an error naming its file and line.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonLines<T> {
    /// Each value read, with its line in the file (from 1).
    pub values: Vec<(usize, T)>,
    /// The torn last line, skipped.
    pub torn: Option<TornLine>,
    /// Whether the last line read lacks its newline (a file written by
    /// hand): whoever appends must start a new line first.
    pub unterminated: bool,
}

/// A torn last line: where it starts, and why it does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TornLine {
    /// From 1.
    pub line: usize,
    /// The byte it starts at: the file's length once it is cut off.
    pub offset: usize,
    pub error: String,
}

impl TornLine {
    /// The warning for a torn line of `file`.
    pub fn warning(&self, file: &Path) -> String {
        format!(
            "{}:{}: the last line is torn (cut off while it was written: {}); skipped",
            file.display(),
            self.line,
            self.error
        )
    }
}

/// Reads the lines of `bytes`, the content of `file` (named in errors as
/// `file:line: not a WHAT: ...`). See [`JsonLines`] for the rule.
pub fn parse_json_lines<T: DeserializeOwned>(
    file: &Path,
    bytes: &[u8],
    what: &str,
) -> Result<JsonLines<T>, String> {
    let mut lines: Vec<(usize, usize, &[u8], bool)> = Vec::new();
    let mut start = 0;
    let mut number = 0;
    while start < bytes.len() {
        number += 1;
        let (end, next, ended) = match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(i) => (start + i, start + i + 1, true),
            None => (bytes.len(), bytes.len(), false),
        };
        let line = &bytes[start..end];
        if !line.iter().all(u8::is_ascii_whitespace) {
            lines.push((number, start, line, ended));
        }
        start = next;
    }
    let last = lines.len();
    let mut out = JsonLines {
        values: Vec::with_capacity(last),
        torn: None,
        unterminated: false,
    };
    for (k, (number, offset, line, ended)) in lines.into_iter().enumerate() {
        match serde_json::from_slice::<T>(line) {
            Ok(v) => {
                out.values.push((number, v));
                out.unterminated = !ended;
            }
            Err(e) if k + 1 == last && (e.is_eof() || !ended) => {
                out.torn = Some(TornLine {
                    line: number,
                    offset,
                    error: e.to_string(),
                });
            }
            Err(e) => return Err(format!("{}:{number}: not a {what}: {e}", file.display())),
        }
    }
    Ok(out)
}

/// Reads the JSON-lines file `path` by the rule of [`JsonLines`] (a torn
/// last line is skipped and logged as a warning); an unreadable file or a
/// bad line is an error naming it.
pub fn read_json_lines<T: DeserializeOwned>(
    path: &Path,
    what: &str,
) -> Result<JsonLines<T>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let read = parse_json_lines(path, &bytes, what)?;
    if let Some(t) = &read.torn {
        tracing::warn!("{}", t.warning(path));
    }
    Ok(read)
}

/// Reads the records file `path` that a resumed run is about to append to,
/// by the rule of [`JsonLines`]; a torn last line is cut off the file (with
/// a warning naming it) so that the next record starts on a line of its
/// own, and a last record without its newline gets one. A missing file
/// holds no records.
pub fn read_for_append(path: &Path) -> Result<JsonLines<GameRecord>, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(JsonLines {
                values: Vec::new(),
                torn: None,
                unterminated: false,
            })
        }
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let read = parse_json_lines::<GameRecord>(path, &bytes, "game record")?;
    let repair = |f: io::Result<File>, cut: Option<u64>| {
        let f = f?;
        match cut {
            Some(len) => f.set_len(len),
            None => (&f).write_all(b"\n"),
        }?;
        (&f).flush()
    };
    if let Some(t) = &read.torn {
        tracing::warn!("{}; cut off the file", t.warning(path));
        repair(
            OpenOptions::new().write(true).open(path),
            Some(t.offset as u64),
        )
    } else if read.unterminated {
        repair(OpenOptions::new().append(true).open(path), None)
    } else {
        Ok(())
    }
    .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
    Ok(read)
}

/// One game record and where it was read.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadRecord {
    pub file: PathBuf,
    /// From 1.
    pub line: usize,
    pub record: GameRecord,
}

impl ReadRecord {
    /// `file:line`, for messages.
    pub fn at(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }
}

/// The game records of some files, and the torn last lines skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordFiles {
    pub records: Vec<ReadRecord>,
    pub torn: Vec<(PathBuf, TornLine)>,
}

/// Reads the game records of every file in `paths`, in order, by the rule
/// of [`JsonLines`]. The records of every command that reads them
/// (`analyze`, `latency`, `report`, `merge`, the labs) come from here.
pub fn read_record_files(paths: &[PathBuf]) -> Result<RecordFiles, String> {
    let mut out = RecordFiles::default();
    for p in paths {
        let read = read_json_lines::<GameRecord>(p, "game record")?;
        out.records
            .extend(read.values.into_iter().map(|(line, record)| ReadRecord {
                file: p.clone(),
                line,
                record,
            }));
        out.torn.extend(read.torn.map(|t| (p.clone(), t)));
    }
    Ok(out)
}

/// Reads every record of a `.jsonl` file (for tests and tools), by the rule
/// of [`JsonLines`].
pub fn read_records(path: impl AsRef<Path>) -> io::Result<Vec<GameRecord>> {
    let path = path.as_ref();
    std::fs::metadata(path)?;
    let read = read_json_lines(path, "game record").map_err(io::Error::other)?;
    Ok(read.values.into_iter().map(|(_, r)| r).collect())
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

    /// Records text of `ids`, one line each.
    fn lines(ids: &[&str]) -> String {
        ids.iter()
            .map(|id| serde_json::to_string(&record(id)).unwrap() + "\n")
            .collect()
    }

    fn ids(read: &JsonLines<GameRecord>) -> Vec<(usize, &str)> {
        read.values
            .iter()
            .map(|(l, r)| (*l, r.id.as_str()))
            .collect()
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_named_a_bad_line_elsewhere_is_an_error() {
        let file = Path::new("g.jsonl");
        let whole = lines(&["g1", "g2", "g3"]);
        // Torn in the middle of a string, of a number, after a key: skipped,
        // named by its line (3), whatever the cut.
        let third = whole.lines().nth(2).unwrap();
        for cut in [10, third.len() / 2, third.len() - 1] {
            let text = lines(&["g1"]) + " \n" + &lines(&["g2"]) + &third[..cut];
            let read = parse_json_lines::<GameRecord>(file, text.as_bytes(), "game record")
                .unwrap_or_else(|e| panic!("cut {cut}: {e}"));
            assert_eq!(ids(&read), [(1, "g1"), (3, "g2")], "blank lines count");
            let torn = read.torn.unwrap();
            assert_eq!((torn.line, torn.offset), (4, text.len() - cut));
            assert!(torn.warning(file).starts_with("g.jsonl:4: "), "{torn:?}");
        }
        // A truncated last line that kept a newline is torn too; a whole last
        // record without its newline reads.
        let torn_nl = lines(&["g1"]) + &third[..40] + "\n";
        let read = parse_json_lines::<GameRecord>(file, torn_nl.as_bytes(), "game record").unwrap();
        assert_eq!(
            (ids(&read), read.torn.as_ref().map(|t| t.line)),
            (vec![(1, "g1")], Some(2))
        );
        let read = parse_json_lines::<GameRecord>(file, whole.trim_end().as_bytes(), "game record")
            .unwrap();
        assert_eq!(ids(&read), [(1, "g1"), (2, "g2"), (3, "g3")]);
        assert!(read.torn.is_none() && read.unterminated);
        // Elsewhere, or whole but wrong at the end: an error naming file:line.
        for (text, line) in [
            (lines(&["g1"]) + &third[..40] + "\n" + &lines(&["g2"]), 2),
            (lines(&["g1"]) + "{not json\n" + &lines(&["g2"]), 2),
            (lines(&["g1", "g2"]) + "{not json\n", 3),
            (lines(&["g1", "g2"]) + "{\"game\": \"four3d\"}\n", 3),
        ] {
            let e =
                parse_json_lines::<GameRecord>(file, text.as_bytes(), "game record").unwrap_err();
            assert!(
                e.starts_with(&format!("g.jsonl:{line}: not a game record: ")),
                "{e}"
            );
        }
        // Nothing at all: no records, no error (the command decides).
        let read = parse_json_lines::<GameRecord>(file, b"\n \n", "game record").unwrap();
        assert!(read.values.is_empty() && read.torn.is_none());
    }

    #[test]
    fn read_records_skips_a_torn_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let text = lines(&["g1", "g2"]);
        std::fs::write(&path, &text[..text.len() - 20]).unwrap();
        let back = read_records(&path).unwrap();
        assert_eq!(back.len(), 1);
        let files = read_record_files(std::slice::from_ref(&path)).unwrap();
        assert_eq!(files.records.len(), 1);
        assert_eq!(files.records[0].at(), format!("{}:1", path.display()));
        assert_eq!(files.torn.len(), 1);
        assert_eq!((&files.torn[0].0, files.torn[0].1.line), (&path, 2));
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
            (EndReason::Aborted, "aborted"),
        ] {
            assert_eq!(reason.key(), key);
            assert_eq!(serde_json::to_value(reason).unwrap(), key);
        }
    }

    #[test]
    fn results_and_openings_read_as_written() {
        assert_eq!(GameRecord::result_string(Some(0)), "1-0");
        assert_eq!(GameRecord::result_string(Some(1)), "0-1");
        assert_eq!(GameRecord::result_string(None), "1/2-1/2");
        let mut r = record("g");
        assert!(!r.is_aborted());
        r.reason = EndReason::Aborted;
        assert!(r.is_aborted());
        let opening = Opening {
            index: 0,
            line: 1,
            moves: vec![Value::from(5), Value::from(10), serde_json::json!({"x": 0})],
        };
        assert_eq!(opening.text(), r#"5 10 {"x":0}"#);
        let suite = SuiteTag {
            source: "openings/four3d.txt".into(),
            count: 64,
            order: "random".into(),
        };
        assert_eq!(suite.to_string(), "openings/four3d.txt (64, random)");
    }

    #[test]
    fn a_missing_records_file_holds_no_records_and_an_unreadable_one_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let read = read_for_append(&dir.path().join("none.jsonl")).unwrap();
        assert!(read.values.is_empty() && read.torn.is_none() && !read.unterminated);
        assert!(!dir.path().join("none.jsonl").exists());
        // A folder where the file should be cannot be read: not "no records".
        let e = read_for_append(dir.path()).map(|_| ()).unwrap_err();
        assert!(e.starts_with("cannot read"), "{e}");
    }

    #[test]
    fn now_is_the_system_clock_in_milliseconds() {
        let before = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        let now = now_ms();
        let after = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        assert!(
            (before..=after).contains(&now),
            "{before} <= {now} <= {after}"
        );
    }
}
