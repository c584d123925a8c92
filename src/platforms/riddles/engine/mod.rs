//! A local Riddles.io GOLAD engine (`ladderbot referee golad`): runs two bot
//! programs against each other speaking exactly the engine's protocol
//! ([`crate::platforms::riddles::codec`]), with the engine's rules ([`GolState`])
//! and time bank, and reports results and answer times.
//!
//! Per game: both bots are started fresh and told the settings; then, move
//! by move, the bot to move gets its `update` lines and `action move BANK`,
//! and the first line it writes is its move. An unreadable or illegal move
//! (a line over [`bot::MAX_LINE`] too) acts as a pass (the opponent is told
//! `null`); a bot that does not answer
//! within its bank is killed and passes for the rest of the game, as does a
//! bot that exits. Each move is followed by one generation. At the end both
//! bots' stdin is closed and they are killed after a grace period.
//!
//! Games `2k` and `2k+1` start from the same field
//! (`GolState::start(seed + k, max_rounds)`) with the seats swapped; the
//! first bot ("A") is player 0 in even games.

pub mod bot;

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;
use serde_json::{json, Value};

use crate::games::golad::{GolState, Move};
use crate::games::PlayableGame;
use crate::platforms::riddles::codec::{
    next_time_bank, settings_events, turn_events, MatchSettings,
};
use crate::records::{now_ms, EndReason, GameRecord};
use crate::search::{Outcome, Seat};

pub use crate::platforms::command::split_command;
pub use bot::{Answer, BotProcess, BotStderr};

/// What the referee runs.
#[derive(Clone, Debug)]
pub struct RefereeConfig {
    /// The two bots' commands, already split into words (A first).
    pub bots: [Vec<String>; 2],
    pub games: u32,
    pub seed: u64,
    /// Time bank, time per move and rounds, as told to the bots.
    pub settings: MatchSettings,
    /// How long a bot may take to exit once its stdin is closed.
    pub grace: Duration,
    /// Where the bots' stderr goes (default: the referee's stderr), each
    /// line behind its bot's tag, `[bot A] ` or `[bot B] `.
    pub bot_stderr: Option<PathBuf>,
}

/// A game's result for bot A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

/// One bot's account of one game (or of a whole match).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BotStats {
    /// Requests answered with a line (in time).
    pub answers: u32,
    /// Longest, 99th- and 99.9th-percentile answer time (write `action
    /// move` to read the reply), in milliseconds; 0 without answers.
    pub max_latency_ms: f64,
    pub p99_latency_ms: f64,
    pub p999_latency_ms: f64,
    pub timeouts: u32,
    /// Unreadable or illegal moves.
    pub illegal_moves: u32,
    /// Legal answers `pass` (always legal in GOLAD, so a bot that answers
    /// nothing else, or passes whenever its search fails, plays without
    /// losing on time: the deadline campaign counts them).
    pub passes: u32,
    /// Games in which the bot exited or closed its pipes by itself.
    pub crashes: u32,
    #[serde(skip)]
    pub latencies_ms: Vec<f64>,
}

impl BotStats {
    fn add_latency(&mut self, ms: f64) {
        self.answers += 1;
        self.latencies_ms.push(ms);
        self.max_latency_ms = round_ms(self.max_latency_ms.max(ms));
        self.p99_latency_ms = round_ms(percentile(&self.latencies_ms, 0.99));
        self.p999_latency_ms = round_ms(percentile(&self.latencies_ms, 0.999));
    }

    fn merge(&mut self, other: &BotStats) {
        self.answers += other.answers;
        self.latencies_ms.extend_from_slice(&other.latencies_ms);
        self.max_latency_ms = self.max_latency_ms.max(other.max_latency_ms);
        self.p99_latency_ms = round_ms(percentile(&self.latencies_ms, 0.99));
        self.p999_latency_ms = round_ms(percentile(&self.latencies_ms, 0.999));
        self.timeouts += other.timeouts;
        self.illegal_moves += other.illegal_moves;
        self.passes += other.passes;
        self.crashes += other.crashes;
    }
}

/// Milliseconds to the microsecond.
fn round_ms(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Nearest-rank percentile of `xs` (0 when empty).
pub fn percentile(xs: &[f64], p: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    crate::quantile::nearest_rank(&v, p).unwrap_or(0.0)
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReport {
    /// 1-based.
    pub game: u32,
    /// The seed of the start field.
    pub start_seed: u64,
    /// Bot A's seat (0 = player0, moves first).
    pub a_seat: Seat,
    /// For bot A.
    pub result: GameResult,
    /// Moves played (both players).
    pub moves: u32,
    /// Rounds played.
    pub rounds: u32,
    /// Living cells at the end: A's, then B's.
    pub cells: [u32; 2],
    pub a: BotStats,
    pub b: BotStats,
    /// The game as a record (`referee --out`): the start field and every
    /// move as the engine applied it (an illegal or missing answer as
    /// `pass`), so `analyze`, `report` and the viewer replay it.
    #[serde(skip)]
    pub record: Option<GameRecord>,
}

impl GameReport {
    /// One line for humans.
    pub fn describe(&self) -> String {
        let result = match self.result {
            GameResult::Win => "A wins",
            GameResult::Draw => "draw",
            GameResult::Loss => "B wins",
        };
        let bot = |s: &BotStats| {
            format!(
                "max {:.1} ms, p99 {:.1} ms, {} timeouts, {} illegal, {} passes{}",
                s.max_latency_ms,
                s.p99_latency_ms,
                s.timeouts,
                s.illegal_moves,
                s.passes,
                if s.crashes > 0 { ", crashed" } else { "" }
            )
        };
        format!(
            "game {} (start {}, A is player{}): {result} after {} moves, {} rounds, cells A {} B {} | A: {} | B: {}",
            self.game,
            self.start_seed,
            self.a_seat,
            self.moves,
            self.rounds,
            self.cells[0],
            self.cells[1],
            bot(&self.a),
            bot(&self.b)
        )
    }
}

/// All games of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    pub games: Vec<GameReport>,
}

impl MatchReport {
    /// (wins, draws, losses) for bot A.
    pub fn wdl(&self) -> (u32, u32, u32) {
        let n = |r| self.games.iter().filter(|g| g.result == r).count() as u32;
        (n(GameResult::Win), n(GameResult::Draw), n(GameResult::Loss))
    }

    /// Both bots' stats over all games (A, B).
    pub fn bot_totals(&self) -> [BotStats; 2] {
        let mut t = [BotStats::default(), BotStats::default()];
        for g in &self.games {
            t[0].merge(&g.a);
            t[1].merge(&g.b);
        }
        t
    }

    /// The totals object: A's figures plain, B's under `b_*` keys.
    pub fn totals_json(&self, cfg: &RefereeConfig) -> Value {
        let (w, d, l) = self.wdl();
        let games = self.games.len() as u32;
        let score = |w: u32, d: u32| {
            if games == 0 {
                0.0
            } else {
                (w as f64 + 0.5 * d as f64) / games as f64
            }
        };
        let [a, b] = self.bot_totals();
        json!({
            "type": "totals",
            "games": games,
            "wins": w, "draws": d, "losses": l,
            "score": score(w, d),
            "answers": a.answers,
            "max_latency_ms": a.max_latency_ms,
            "p99_latency_ms": a.p99_latency_ms,
            "p999_latency_ms": a.p999_latency_ms,
            "timeouts": a.timeouts,
            "illegal_moves": a.illegal_moves,
            "passes": a.passes,
            "crashes": a.crashes,
            "b_wins": l, "b_draws": d, "b_losses": w,
            "b_score": score(l, d),
            "b_answers": b.answers,
            "b_max_latency_ms": b.max_latency_ms,
            "b_p99_latency_ms": b.p99_latency_ms,
            "b_p999_latency_ms": b.p999_latency_ms,
            "b_timeouts": b.timeouts,
            "b_illegal_moves": b.illegal_moves,
            "b_passes": b.passes,
            "b_crashes": b.crashes,
            "seed": cfg.seed,
            "timebank_ms": cfg.settings.timebank_ms,
            "time_per_move_ms": cfg.settings.time_per_move_ms,
            "max_rounds": cfg.settings.max_rounds,
            "bot": cfg.bots[0].join(" "),
            "b_bot": cfg.bots[1].join(" "),
        })
    }
}

/// Plays `cfg.games` games, calling `on_game` after each. Errors only if a
/// bot cannot be started (or its stderr file opened).
pub async fn run_match(
    cfg: &RefereeConfig,
    mut on_game: impl FnMut(&GameReport),
) -> Result<MatchReport, String> {
    let mut report = MatchReport::default();
    for i in 0..cfg.games {
        let g = play_game(cfg, i).await?;
        on_game(&g);
        report.games.push(g);
    }
    Ok(report)
}

fn stderr_for(cfg: &RefereeConfig) -> Result<BotStderr, String> {
    match &cfg.bot_stderr {
        None => Ok(BotStderr::Inherit),
        Some(path) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(|f| BotStderr::File(std::sync::Arc::new(f)))
            .map_err(|e| format!("cannot open {}: {e}", path.display())),
    }
}

/// Plays game `index` (0-based).
pub async fn play_game(cfg: &RefereeConfig, index: u32) -> Result<GameReport, String> {
    let start_seed = cfg.seed.wrapping_add(u64::from(index / 2));
    let a_seat: Seat = (index % 2) as Seat;
    // Bot index (0 = A, 1 = B) playing each seat.
    let bot_at: [usize; 2] = if a_seat == 0 { [0, 1] } else { [1, 0] };
    let mut state = GolState::start(start_seed, cfg.settings.max_rounds);
    let start = state;
    let started_ms = now_ms();
    let mut played: Vec<serde_json::Value> = Vec::new();
    let mut move_ms: Vec<u64> = Vec::new();
    let s = &cfg.settings;
    let mut bots: Vec<BotProcess> = Vec::with_capacity(2);
    let stderr = stderr_for(cfg)?;
    for (seat, &b) in bot_at.iter().enumerate() {
        let label = format!("{}/player{seat}", ["A", "B"][b]);
        let tag = format!("[bot {}] ", ["A", "B"][b]);
        let p = BotProcess::spawn(&label, &cfg.bots[b], &stderr, &tag).map_err(|e| {
            format!(
                "cannot start bot {} ('{}'): {e}",
                ["A", "B"][b],
                cfg.bots[b].join(" ")
            )
        })?;
        bots.push(p);
    }
    tracing::info!(game = index + 1, start_seed, a_seat, "game starts");
    let settings_limit = Duration::from_millis(s.timebank_ms.max(1000));
    for (seat, bot) in bots.iter_mut().enumerate() {
        let text = lines_text(&settings_events(seat, s));
        if !bot.send(&text, settings_limit).await {
            tracing::warn!(seat, "could not send the settings");
        }
    }
    let mut stats = [BotStats::default(), BotStats::default()];
    let mut banks = [s.timebank_ms; 2];
    // Each seat's last move as told to the other (None = null).
    let mut last: [Option<Move>; 2] = [None, None];
    let mut moves = 0u32;
    while state.outcome().is_none() {
        let seat = state.to_move;
        let b = bot_at[seat];
        let living = [state.field.count(0), state.field.count(1)];
        tracing::debug!(
            round = state.round,
            seat,
            living0 = living[0],
            living1 = living[1],
            "turn"
        );
        let events = turn_events(
            seat,
            state.round,
            &state.field.to_riddles(),
            living,
            last[1 - seat],
            banks[seat],
        );
        let answer = bots[seat]
            .ask(&lines_text(&events), Duration::from_millis(banks[seat]))
            .await;
        move_ms.push(match &answer {
            Answer::Line { elapsed, .. } | Answer::TooLong { elapsed, .. } => {
                elapsed.as_millis() as u64
            }
            Answer::Timeout => banks[seat],
            Answer::Gone => 0,
        });
        let mv = match answer {
            Answer::Line { text, elapsed } => {
                spend(&mut stats[b], &mut banks[seat], elapsed, s);
                match Move::parse_reply(&text) {
                    Ok(mv) if state.is_legal(&mv) => {
                        stats[b].passes += u32::from(mv == Move::Pass);
                        Some(mv)
                    }
                    Ok(mv) => {
                        tracing::info!(seat, round = state.round, %mv, "illegal move; it acts as a pass");
                        stats[b].illegal_moves += 1;
                        None
                    }
                    Err(e) => {
                        tracing::info!(seat, round = state.round, error = %e, "unreadable move; it acts as a pass");
                        stats[b].illegal_moves += 1;
                        None
                    }
                }
            }
            Answer::TooLong { bytes, elapsed } => {
                spend(&mut stats[b], &mut banks[seat], elapsed, s);
                tracing::warn!(
                    seat,
                    round = state.round,
                    bytes,
                    "a move line over the limit; it acts as a pass"
                );
                stats[b].illegal_moves += 1;
                None
            }
            Answer::Timeout => {
                stats[b].timeouts += 1;
                None
            }
            Answer::Gone => None,
        };
        let applied = mv.unwrap_or(Move::Pass);
        played.push(GolState::move_to_json(applied));
        state.apply(applied);
        last[seat] = mv;
        moves += 1;
    }
    let outcome = state.outcome().unwrap_or(Outcome::Draw);
    let result = match outcome {
        Outcome::Draw => GameResult::Draw,
        Outcome::Win(w) if w == a_seat => GameResult::Win,
        Outcome::Win(_) => GameResult::Loss,
    };
    // Out of the game without having been killed for time: it crashed.
    for (seat, bot) in bots.iter().enumerate() {
        let st = &mut stats[bot_at[seat]];
        if bot.is_gone() && st.timeouts == 0 {
            st.crashes = 1;
        }
    }
    let mut ends = bots.into_iter();
    let (p0, p1) = (ends.next(), ends.next());
    let grace = cfg.grace;
    tokio::join!(
        async {
            if let Some(p) = p0 {
                p.shutdown(grace).await
            }
        },
        async {
            if let Some(p) = p1 {
                p.shutdown(grace).await
            }
        }
    );
    let [sa, sb] = stats;
    let winner = outcome.winner();
    let name = |b: usize| format!("{}:{}", ["A", "B"][b], cfg.bots[b].join(" "));
    let record = GameRecord {
        game: GolState::ID.into(),
        id: format!("referee-{}-{}", cfg.seed, index + 1),
        players: [name(bot_at[0]), name(bot_at[1])],
        winner,
        result: GameRecord::result_string(winner).into(),
        reason: EndReason::Rules,
        detail: None,
        start: start.state_to_json(),
        moves: played,
        move_ms,
        opening: None,
        ending: None,
        started_ms,
        finished_ms: now_ms(),
        match_tag: None,
        analysis: None,
    };
    let report = GameReport {
        game: index + 1,
        start_seed,
        a_seat,
        result,
        moves,
        rounds: state.rounds_played(),
        cells: [state.field.count(a_seat), state.field.count(1 - a_seat)],
        a: sa,
        b: sb,
        record: Some(record),
    };
    tracing::info!(game = index + 1, result = ?report.result, moves, "game over");
    Ok(report)
}

/// Lines joined, each ending in `\n`.
/// An answer that took `elapsed`: its latency counted, the bank charged as
/// the engine charges it.
fn spend(stats: &mut BotStats, bank: &mut u64, elapsed: Duration, s: &MatchSettings) {
    stats.add_latency(elapsed.as_secs_f64() * 1e3);
    *bank = next_time_bank(
        *bank,
        elapsed.as_millis() as u64,
        s.time_per_move_ms,
        s.timebank_ms,
    );
}

fn lines_text<T: ToString>(events: &[T]) -> String {
    let mut s = String::new();
    for e in events {
        s.push_str(&e.to_string());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        assert_eq!(percentile(&[], 0.99), 0.0);
        assert_eq!(percentile(&[5.0], 0.99), 5.0);
        let xs: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&xs, 0.99), 198.0);
        assert_eq!(percentile(&xs, 0.5), 100.0);
    }

    #[test]
    fn totals_count_for_a_and_mirror_for_b() {
        let g = |result, a_lat: f64| GameReport {
            game: 1,
            start_seed: 0,
            a_seat: 0,
            result,
            moves: 10,
            rounds: 5,
            cells: [1, 0],
            a: {
                let mut s = BotStats::default();
                s.add_latency(a_lat);
                s
            },
            b: BotStats {
                timeouts: 1,
                ..Default::default()
            },
            record: None,
        };
        let r = MatchReport {
            games: vec![g(GameResult::Win, 3.0), g(GameResult::Draw, 7.0)],
        };
        let cfg = RefereeConfig {
            bots: [vec!["a".into()], vec!["b".into()]],
            games: 2,
            seed: 0,
            settings: MatchSettings::default(),
            grace: Duration::from_millis(10),
            bot_stderr: None,
        };
        let t = r.totals_json(&cfg);
        assert_eq!(t["games"], 2);
        assert_eq!(
            (
                t["wins"].as_u64(),
                t["draws"].as_u64(),
                t["losses"].as_u64()
            ),
            (Some(1), Some(1), Some(0))
        );
        assert_eq!(t["score"], 0.75);
        assert_eq!(t["b_score"], 0.25);
        assert_eq!(t["max_latency_ms"], 7.0);
        assert_eq!(t["b_timeouts"], 2);
        assert_eq!(t["b_max_latency_ms"], 0.0);
    }
}
