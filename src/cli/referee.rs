//! `ladderbot referee golad --bot CMD --bot CMD`: a local Riddles.io GOLAD
//! engine for two bot programs (see [`crate::platforms::riddles::engine`]).

use super::out::say;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{parse_game, CliError};
use crate::games::GameKind;
use crate::platforms::riddles::codec::MatchSettings;
use crate::platforms::riddles::engine::{self as referee, RefereeConfig};
use crate::records::RecordWriter;

#[derive(Debug, Args)]
pub struct RefereeArgs {
    /// Game to referee (only golad).
    #[arg(value_parser = parse_game)]
    pub game: GameKind,
    /// A bot's command line, split on spaces with simple quoting; give it twice (A, then B).
    #[arg(long = "bot", value_name = "CMD ARGS", required = true)]
    pub bots: Vec<String>,
    /// Number of games; games 2k and 2k+1 share a start field with the seats swapped.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Seed of the start fields (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Maximum (and initial) time bank in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub timebank: u64,
    /// Milliseconds added to the bank after each answer.
    #[arg(long, default_value_t = 100)]
    pub time_per_move: u64,
    /// Rounds per game.
    #[arg(long, default_value_t = 100)]
    pub max_rounds: u32,
    /// Print each game and the totals as JSON objects (the totals last).
    #[arg(long)]
    pub json: bool,
    /// Append the bots' stderr to this file (default: the referee's stderr); each line starts
    /// with its bot's tag, `[bot A] ` or `[bot B] `.
    #[arg(long, value_name = "PATH")]
    pub bot_stderr: Option<PathBuf>,
    /// Milliseconds a bot may take to exit once its stdin is closed.
    #[arg(long, default_value_t = 200)]
    pub grace_ms: u64,
    /// Append each game's record to this file as it ends (one JSON line: the start field and
    /// every move as applied), for `analyze`, `report` and the viewer.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
}

impl RefereeArgs {
    fn config(&self) -> Result<RefereeConfig, CliError> {
        if self.game != GameKind::Golad {
            return Err(CliError::Usage(format!(
                "referee: only golad is supported, not {}",
                self.game
            )));
        }
        let [a, b] = self.bots.as_slice() else {
            return Err(CliError::Usage(format!(
                "referee: give exactly two --bot commands ({} given)",
                self.bots.len()
            )));
        };
        let split = |c: &str| {
            referee::split_command(c).map_err(|e| CliError::Usage(format!("referee: --bot: {e}")))
        };
        if self.games == 0 {
            return Err(CliError::Usage(
                "referee: --games must be at least 1".into(),
            ));
        }
        if self.timebank == 0 || self.max_rounds == 0 {
            return Err(CliError::Usage(
                "referee: --timebank and --max-rounds must be at least 1".into(),
            ));
        }
        let bots = [split(a)?, split(b)?];
        // A bot that cannot start is bad configuration, found before any
        // game rather than as a crash in the first.
        for (name, (cmd, words)) in ["A", "B"].iter().zip([a, b].iter().zip(&bots)) {
            crate::platforms::command::check_program(&words[0]).map_err(|e| {
                CliError::Usage(format!("referee: --bot '{cmd}' (bot {name}): {e}"))
            })?;
        }
        Ok(RefereeConfig {
            bots,
            games: self.games,
            seed: self.seed.unwrap_or_else(super::clock_seed),
            settings: MatchSettings {
                timebank_ms: self.timebank,
                time_per_move_ms: self.time_per_move,
                max_rounds: self.max_rounds,
            },
            grace: Duration::from_millis(self.grace_ms),
            bot_stderr: self.bot_stderr.clone(),
        })
    }
}

pub fn run(args: RefereeArgs) -> Result<(), CliError> {
    let cfg = args.config()?;
    let json = args.json;
    // Outputs that cannot be written: exit 2 before any game.
    for path in [&args.out, &args.bot_stderr].into_iter().flatten() {
        super::check_writable("referee", path)?;
    }
    let writer =
        match &args.out {
            Some(p) => Some(RecordWriter::open(p).map_err(|e| {
                CliError::Usage(format!("referee: cannot open {}: {e}", p.display()))
            })?),
            None => None,
        };
    let mut write_error: Option<String> = None;
    let rt = super::runtime()?;
    let report = rt.block_on(referee::run_match(&cfg, |g| {
        if let (Some(w), Some(r)) = (&writer, &g.record) {
            if let Err(e) = w.append(r) {
                tracing::error!(path = %w.path().display(), error = %e, "cannot write the game's record");
                write_error.get_or_insert(format!(
                    "referee: cannot write a record to {}: {e}",
                    w.path().display()
                ));
            }
        }
        if json {
            let mut v = serde_json::to_value(g).unwrap_or_default();
            v["type"] = "game".into();
            say!("{v}");
        } else {
            say!("{}", g.describe());
        }
    }));
    rt.shutdown_timeout(Duration::from_millis(100));
    let report = report.map_err(CliError::Runtime)?;
    if let Some(e) = write_error {
        return Err(CliError::Runtime(e));
    }
    let totals = report.totals_json(&cfg);
    if json {
        say!("{totals}");
    } else {
        say!(
            "totals: games {}, A wins {}, draws {}, losses {}, score {:.3}; A answers {} max {:.1} ms p99.9 {:.1} ms p99 {:.1} ms, {} timeouts, {} illegal, {} crashes; B answers {} max {:.1} ms p99.9 {:.1} ms p99 {:.1} ms, {} timeouts, {} illegal, {} crashes (seed {})",
            totals["games"], totals["wins"], totals["draws"], totals["losses"],
            totals["score"].as_f64().unwrap_or(0.0),
            totals["answers"],
            totals["max_latency_ms"].as_f64().unwrap_or(0.0),
            totals["p999_latency_ms"].as_f64().unwrap_or(0.0),
            totals["p99_latency_ms"].as_f64().unwrap_or(0.0),
            totals["timeouts"], totals["illegal_moves"], totals["crashes"],
            totals["b_answers"],
            totals["b_max_latency_ms"].as_f64().unwrap_or(0.0),
            totals["b_p999_latency_ms"].as_f64().unwrap_or(0.0),
            totals["b_p99_latency_ms"].as_f64().unwrap_or(0.0),
            totals["b_timeouts"], totals["b_illegal_moves"], totals["b_crashes"], cfg.seed,
        );
    }
    Ok(())
}
