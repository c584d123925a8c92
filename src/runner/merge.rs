//! `ladderbot merge`: the report of a match rebuilt from its records, for
//! a match played in shards (`match --shard I/N`) on several machines.
//!
//! Every record of a match carries a [`MatchTag`]: the match's key (a
//! fingerprint of everything that decides its games), the game's number
//! and what each side spent. Merging checks that all records belong to one
//! match and that no game appears twice, then counts them exactly as the
//! runner counts the games it plays.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::openings::OpeningOrder;
use super::report::{openings_report, ReportHead, Totals};
use super::{a_result, MatchReport, SprtConfig};
use crate::games::{GameKind, GameVisitor, PlayableGame};
use crate::records::{GameRecord, MatchTag};

/// One record and where it was read.
struct Entry {
    file: PathBuf,
    line: usize,
    record: GameRecord,
}

impl Entry {
    fn tag(&self) -> &MatchTag {
        self.record.match_tag.as_ref().expect("checked when read")
    }
    fn at(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }
}

/// What `merge` may let pass.
#[derive(Clone, Copy, Debug, Default)]
pub struct MergeOptions {
    /// Report on the games present even when some of the match's are
    /// missing (a shard not yet finished, or a match stopped by SPRT).
    pub partial: bool,
    /// SPRT bounds to judge the merged games by, instead of the match's
    /// own (from its records).
    pub sprt: Option<SprtConfig>,
}

/// Reads the records in `files` (`.jsonl`, one game a line) and returns the
/// report of the one match they belong to. Refused, with the file and line
/// named: an unreadable line, a record not written by `ladderbot match`, a
/// record of another match, a game that appears twice, and (unless
/// `partial`) a match with games missing.
pub fn merge_files(files: &[PathBuf], opts: MergeOptions) -> Result<MatchReport, String> {
    let paths = record_paths(files)?;
    let mut entries = Vec::new();
    for f in &paths {
        entries.extend(read_file(f)?);
    }
    merge_entries(entries, paths.len(), opts)
}

/// The records files `merge` reads: each file given, and the `.jsonl`
/// files of each folder given.
pub(super) fn record_paths(files: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    if files.is_empty() {
        return Err("merge: no records files given".into());
    }
    let mut paths = Vec::new();
    for f in files {
        if f.is_dir() {
            paths.extend(jsonl_in(f)?);
        } else {
            paths.push(f.clone());
        }
    }
    Ok(paths)
}

/// The `.jsonl` files directly in `dir`, in name order (where the shards of
/// a cluster's match land, one file each).
fn jsonl_in(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{} holds no .jsonl files", dir.display()));
    }
    Ok(files)
}

/// The records of `path` by the one reader ([`crate::records::read_json_lines`]:
/// a torn last line skipped with a warning, any other bad line an error),
/// each with a match tag.
fn read_file(path: &Path) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for (line, record) in crate::records::read_json_lines::<GameRecord>(path, "game record")?.values
    {
        if record.match_tag.is_none() {
            return Err(format!(
                "{}:{line}: game {} has no `match` tag: only records written by `ladderbot match \
                 --out` can be merged",
                path.display(),
                record.id
            ));
        }
        out.push(Entry {
            file: path.to_path_buf(),
            line,
            record,
        });
    }
    Ok(out)
}

fn merge_entries(
    entries: Vec<Entry>,
    files: usize,
    opts: MergeOptions,
) -> Result<MatchReport, String> {
    let Some(first) = entries.first() else {
        return Err("merge: the files hold no game records".into());
    };
    let (game, head) = (first.record.game.clone(), first.tag().clone());
    let mut by_index: BTreeMap<u32, Entry> = BTreeMap::new();
    for e in entries {
        let t = e.tag();
        if t.key != head.key || e.record.game != game {
            return Err(format!(
                "{}: game {} belongs to another match ({} {} vs {}, seed {}, {} games, key {}) \
                 than the first record's ({game} {} vs {}, seed {}, {} games, key {})",
                e.at(),
                e.record.id,
                e.record.game,
                t.a,
                t.b,
                t.seed,
                t.games,
                t.key,
                head.a,
                head.b,
                head.seed,
                head.games,
                head.key
            ));
        }
        if t.index >= head.games {
            return Err(format!(
                "{}: game number {} is outside the match's {} games",
                e.at(),
                t.index,
                head.games
            ));
        }
        if let Some(before) = by_index.get(&t.index) {
            return Err(format!(
                "game {} of the match appears twice: {} and {}",
                t.index,
                before.at(),
                e.at()
            ));
        }
        by_index.insert(t.index, e);
    }
    let missing: Vec<u32> = (0..head.games)
        .filter(|i| !by_index.contains_key(i))
        .collect();
    if !missing.is_empty() && !opts.partial {
        let shown: Vec<String> = missing.iter().take(10).map(u32::to_string).collect();
        return Err(format!(
            "{} of the match's {} games are missing (games {}{}); merge every shard's \
             records, or pass --partial to report on the games present",
            missing.len(),
            head.games,
            shown.join(", "),
            if missing.len() > 10 { ", ..." } else { "" }
        ));
    }
    if !missing.is_empty() {
        tracing::warn!(
            missing = missing.len(),
            games = head.games,
            "merging a partial match"
        );
    }
    let kind: GameKind = game
        .parse()
        .map_err(|e| format!("merge: the records' game: {e}"))?;
    let ending_keys = kind.visit(EndingKeys);
    let mut totals = Totals::new(head.games, ending_keys);
    for (&i, e) in &by_index {
        totals.add(
            i,
            a_result(i, e.record.winner),
            e.record.ending.as_deref(),
            &e.tag().sides,
        );
    }
    let openings = match &head.suite {
        Some(s) => {
            let order: OpeningOrder = s.order.parse()?;
            Some(openings_report(
                (&s.source, s.count, order),
                &totals.results,
                |i| by_index.get(&i).and_then(|e| e.record.opening.as_ref()),
            ))
        }
        None => None,
    };
    let sprt = opts
        .sprt
        .or(head.sprt.map(|[e0, e1]| SprtConfig::new(e0, e1)));
    if let Some(s) = &sprt {
        s.check()?;
    }
    Ok(totals.report(ReportHead {
        game: &game,
        a: head.a.clone(),
        b: head.b.clone(),
        seed: head.seed,
        jobs: files,
        sprt_decision: super::report::undecided(&totals, sprt.as_ref()),
        sprt,
        has_endings: ending_keys.is_some(),
        transport: head.transport.clone(),
        openings,
        // The sides as described in the records: the agent's name first.
        units: [&head.a, &head.b].map(|d| kind.work_unit(d.split('(').next().unwrap_or_default())),
        budgets: None,
    }))
}

/// A game's ending keys, by its kind.
struct EndingKeys;
impl GameVisitor for EndingKeys {
    type Output = Option<(&'static [&'static str], &'static [&'static str])>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        G::ending_keys()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The merged report's endings come from the game's own keys: a game
    /// that names its endings (Geister) gets them through the visitor.
    #[test]
    fn each_games_ending_keys_reach_the_merge() {
        let mut named = 0;
        for &kind in GameKind::ALL {
            if let Some((wins, draws)) = kind.visit(EndingKeys) {
                assert!(!wins.is_empty() && !draws.is_empty(), "{}", kind.id());
                named += 1;
            }
        }
        assert!(named > 0, "no game's ending keys reach the merge");
    }
}
