//! `ladderbot latency FILES...`: how long the moves of recorded games took on
//! the server's clock (`move_ms` of `serve`, `serve-gat` and `match`
//! records), against a per-move limit: the figures of a deadline campaign.

use super::out::say;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::CliError;
use crate::records::{EndReason, GameRecord};

#[derive(Debug, Args)]
pub struct LatencyArgs {
    /// Records files (`serve --records`, `serve-gat --out`, `match --out`).
    #[arg(required = true, value_name = "FILE.jsonl")]
    pub files: Vec<PathBuf>,
    /// The per-move limit to count moves over, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub limit_ms: Option<u64>,
    /// Leave out the first N entries of every game's `move_ms` (Geister's
    /// records start with the two setups, recorded as 0 ms).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub skip: usize,
    /// Print the figures as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The figures of a set of games.
#[derive(Clone, Debug, PartialEq)]
pub struct Latency {
    pub games: usize,
    /// Games ended because a side ran out of time.
    pub timeouts: usize,
    /// Games cut off (server gone or shut down).
    pub aborted: usize,
    /// Games lost by an illegal or unreadable move.
    pub illegal: usize,
    /// Games lost because a side's connection closed.
    pub disconnects: usize,
    pub moves: usize,
    /// Moves that took longer than the limit.
    pub over: usize,
    pub p50: u64,
    pub p99: u64,
    pub p999: u64,
    pub max: u64,
}

/// Nearest-rank percentile of sorted `xs` (0 when empty).
fn rank(sorted: &[u64], p: f64) -> u64 {
    crate::quantile::nearest_rank(sorted, p).unwrap_or(0)
}

/// The figures of `records`, each game's first `skip` times left out, and
/// always its opening's moves (played by the server, recorded as 0 ms).
pub fn latency(records: &[GameRecord], skip: usize, limit_ms: Option<u64>) -> Latency {
    let mut ms: Vec<u64> = records
        .iter()
        .flat_map(|r| {
            let opening = r.opening.as_ref().map_or(0, |o| o.moves.len());
            r.move_ms.iter().skip(skip.max(opening)).copied()
        })
        .collect();
    ms.sort_unstable();
    let count = |reason| records.iter().filter(|r| r.reason == reason).count();
    Latency {
        games: records.len(),
        timeouts: count(EndReason::Timeout),
        aborted: count(EndReason::Aborted),
        illegal: count(EndReason::IllegalMove),
        disconnects: count(EndReason::Disconnect),
        moves: ms.len(),
        over: limit_ms.map_or(0, |l| ms.iter().filter(|&&m| m > l).count()),
        p50: rank(&ms, 0.5),
        p99: rank(&ms, 0.99),
        p999: rank(&ms, 0.999),
        max: ms.last().copied().unwrap_or(0),
    }
}

pub fn run(args: LatencyArgs) -> Result<(), CliError> {
    let records: Vec<GameRecord> = super::read_games("latency", &args.files)?
        .records
        .into_iter()
        .map(|r| r.record)
        .collect();
    let l = latency(&records, args.skip, args.limit_ms);
    if args.json {
        say!(
            "{}",
            json!({
                "games": l.games, "timeouts": l.timeouts, "aborted": l.aborted,
                "illegal": l.illegal, "disconnects": l.disconnects, "moves": l.moves, "limit_ms": args.limit_ms, "over_limit": l.over,
                "p50_ms": l.p50, "p99_ms": l.p99, "p999_ms": l.p999, "max_ms": l.max,
            })
        );
    } else {
        let limit = args
            .limit_ms
            .map(|lim| format!(", {} over {lim} ms", l.over))
            .unwrap_or_default();
        say!(
            "{} games ({} lost on time, {} by an illegal move, {} by a disconnection, {} aborted), {} moves{limit}; move time on the server's clock: p50 {} ms, p99 {} ms, p99.9 {} ms, max {} ms",
            l.games, l.timeouts, l.illegal, l.disconnects, l.aborted, l.moves, l.p50, l.p99, l.p999, l.max
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::GameRecord;

    fn game(move_ms: Vec<u64>, reason: EndReason) -> GameRecord {
        GameRecord {
            game: "four3d".into(),
            id: "g".into(),
            players: ["a".into(), "b".into()],
            winner: None,
            result: "1/2-1/2".into(),
            reason,
            detail: None,
            start: serde_json::Value::Null,
            moves: vec![],
            move_ms,
            opening: None,
            ending: None,
            started_ms: 0,
            finished_ms: 0,
            match_tag: None,
            analysis: None,
        }
    }

    #[test]
    fn percentiles_by_nearest_rank_over_every_game_with_the_skip() {
        // 1..=1000 ms over two games, each led by two setup entries of 5000.
        let a = game(
            [5000, 5000].into_iter().chain(1..=500).collect(),
            EndReason::Rules,
        );
        let b = game(
            [5000, 5000].into_iter().chain(501..=1000).collect(),
            EndReason::Timeout,
        );
        let l = latency(&[a.clone(), b.clone()], 2, Some(990));
        assert_eq!(
            l,
            Latency {
                games: 2,
                timeouts: 1,
                aborted: 0,
                illegal: 0,
                disconnects: 0,
                moves: 1000,
                over: 10,
                p50: 500,
                p99: 990,
                p999: 999,
                max: 1000,
            }
        );
        // Without the skip the setups count.
        let l = latency(&[a, b], 0, None);
        assert_eq!((l.moves, l.max, l.over), (1004, 5000, 0));
        assert_eq!(latency(&[], 0, Some(1)).max, 0);
    }

    #[test]
    fn the_moves_of_an_opening_are_left_out() {
        let mut g = game(vec![0, 0, 0, 40, 60], EndReason::Rules);
        g.opening = Some(crate::records::Opening {
            index: 0,
            line: 1,
            moves: vec![json!(5), json!(10), json!(0)],
        });
        let l = latency(std::slice::from_ref(&g), 0, Some(50));
        assert_eq!((l.moves, l.p50, l.over), (2, 40, 1));
        // A larger skip still applies.
        assert_eq!(latency(&[g], 4, None).moves, 1);
    }

    #[test]
    fn each_way_a_game_ends_is_counted_apart() {
        let ends = [
            EndReason::Rules,
            EndReason::IllegalMove,
            EndReason::IllegalMove,
            EndReason::Disconnect,
            EndReason::Aborted,
            EndReason::Timeout,
        ];
        let games: Vec<GameRecord> = ends.into_iter().map(|r| game(vec![1], r)).collect();
        let l = latency(&games, 0, None);
        assert_eq!(
            (l.games, l.timeouts, l.illegal, l.disconnects, l.aborted),
            (6, 1, 2, 1, 1)
        );
    }
}
