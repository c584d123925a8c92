//! Resuming a match from its records file: `match ... --out F --resume`
//! after the run was killed plays only the games F does not hold yet, and
//! the report counts the games of both runs, each once.

use std::collections::BTreeMap;
use std::path::Path;

use crate::records::GameRecord;

/// The games of this match (records whose tag has `key`) already in the
/// records file `path`, by number, among `numbers` (the games this run
/// plays), read by the one reader ([`crate::records::read_for_append`]): a
/// torn last line (the run was killed while writing it) is cut off the file,
/// with a warning naming it, so that the next record starts on a line of its
/// own; any other unreadable line is an error naming it. Records of other
/// matches are left alone.
pub(crate) fn earlier_games(
    path: &Path,
    key: &str,
    numbers: &[u32],
) -> Result<BTreeMap<u32, GameRecord>, String> {
    let mut games = BTreeMap::new();
    for (line, record) in crate::records::read_for_append(path)?.values {
        let Some(tag) = record.match_tag.as_ref().filter(|t| t.key == key) else {
            continue;
        };
        let index = tag.index;
        if numbers.binary_search(&index).is_err() {
            continue;
        }
        if games.contains_key(&index) {
            tracing::warn!(file = %path.display(), line, game = index, "a game recorded twice; the first one counts");
            continue;
        }
        games.insert(index, record);
    }
    Ok(games)
}

/// For `--resume`: when the records file `path` holds games of another
/// match of `game` and none of the match `key`, the match tag of the first
/// of them and how many there are, so that the command can say which of
/// its settings differ instead of silently playing the whole match again.
/// `None` when the file holds a game of this match (or no other match).
pub(crate) fn other_match(
    path: &Path,
    game: &str,
    key: &str,
) -> Option<(crate::records::MatchTag, usize)> {
    let bytes = std::fs::read(path).ok()?;
    let read = crate::records::parse_json_lines::<GameRecord>(path, &bytes, "game record").ok()?;
    let mut first = None;
    let mut count = 0;
    for (_, record) in read.values {
        let Some(tag) = record.match_tag.filter(|_| record.game == game) else {
            continue;
        };
        if tag.key == key {
            return None;
        }
        count += 1;
        first.get_or_insert(tag);
    }
    first.map(|t| (t, count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{EndReason, MatchTag, SideTotals};

    fn record(key: &str, index: u32) -> String {
        let r = GameRecord {
            game: "four3d".into(),
            id: format!("s1-g{index}"),
            players: ["A:x".into(), "B:y".into()],
            winner: None,
            result: "1/2-1/2".into(),
            reason: EndReason::Rules,
            detail: None,
            start: serde_json::Value::Null,
            moves: vec![],
            move_ms: vec![],
            opening: None,
            ending: None,
            started_ms: 0,
            finished_ms: 0,
            match_tag: Some(MatchTag {
                key: key.into(),
                a: "x".into(),
                b: "y".into(),
                seed: 1,
                games: 10,
                index,
                shard: None,
                sprt: None,
                suite: None,
                transport: None,
                sides: [SideTotals::default(); 2],
            }),
            analysis: None,
        };
        serde_json::to_string(&r).unwrap() + "\n"
    }

    #[test]
    fn earlier_games_keep_this_matchs_first_records_and_cut_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let torn = &record("k", 5)[..40];
        let text = [
            record("k", 0),
            record("other", 1),
            record("k", 2),
            record("k", 2),
            record("k", 7),
            torn.to_string(),
        ]
        .concat();
        std::fs::write(&path, &text).unwrap();
        let games = earlier_games(&path, "k", &[0, 1, 2, 3, 4, 5]).unwrap();
        assert_eq!(games.keys().copied().collect::<Vec<_>>(), [0, 2]);
        // The torn line is gone, everything before it kept.
        let after = std::fs::read_to_string(&path).unwrap();
        assert_eq!(after.len(), text.len() - torn.len());
        assert!(after.ends_with('\n'));
        // A broken line in the middle is an error, naming the line.
        std::fs::write(
            &path,
            format!("{}{{oops\n{}", record("k", 0), record("k", 1)),
        )
        .unwrap();
        let e = earlier_games(&path, "k", &[0, 1]).unwrap_err();
        assert!(e.contains("r.jsonl:2"), "{e}");
        // No file: nothing played yet.
        assert!(earlier_games(&dir.path().join("none"), "k", &[0])
            .unwrap()
            .is_empty());
    }

    #[test]
    fn another_matchs_records_are_named_when_none_of_this_one_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, [record("other", 1), record("other", 2)].concat()).unwrap();
        let (tag, n) = other_match(&path, "four3d", "k").unwrap();
        assert_eq!((tag.key.as_str(), tag.index, n), ("other", 1, 2));
        assert!(other_match(&path, "golad", "k").is_none());
        // One game of this match among them: nothing to say.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(&record("k", 0));
        std::fs::write(&path, text).unwrap();
        assert!(other_match(&path, "four3d", "k").is_none());
    }
}
