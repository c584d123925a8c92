//! `ladderbot openings GAME`: generates a balanced opening suite for
//! `ladderbot match --openings`.

use super::out::say;
use std::path::PathBuf;

use clap::Args;

use super::match_cmd::game_options;
use super::{params_from, parse_game, parse_param, CliError};
use crate::games::{GameKind, GameVisitor, PlayableGame};
use crate::runner::suite::{self, Suite, SuiteConfig};
use crate::runner::SideConfig;

#[derive(Debug, Args)]
pub struct OpeningsArgs {
    /// Game to make openings for (its start must not depend on the seed).
    #[arg(value_parser = parse_game)]
    pub game: GameKind,
    /// Random plies from the start: N or LO-HI (a simultaneous turn is one ply).
    #[arg(long, value_name = "LO-HI", default_value = "2-4", value_parser = parse_plies)]
    pub plies: (u32, u32),
    /// Openings to keep.
    #[arg(long, default_value_t = 50)]
    pub count: usize,
    /// Seed: the same seed and settings give the same suite, whatever --jobs (default:
    /// from the clock; the header names it).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The agent that plays itself from each candidate (default: the game's house agent, whose
    /// games against itself differ: Score Four `pmc`).
    #[arg(long, default_value = "default")]
    pub judge: String,
    /// The judge's playouts per move.
    #[arg(long, default_value_t = 1000)]
    pub judge_playouts: u64,
    /// A judge option KEY=VALUE (repeatable).
    #[arg(long = "judge-param", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub judge_params: Vec<(String, serde_json::Value)>,
    /// Games the judge plays against itself from each candidate (0: keep every new
    /// position unjudged).
    #[arg(long, default_value_t = 16)]
    pub judge_games: u32,
    /// Keep a candidate when seat 0 scores within 0.5 ± BAND in the judge's games.
    #[arg(long, default_value_t = 0.15)]
    pub band: f64,
    /// Candidates to try before giving up (default: 100 per opening wanted).
    #[arg(long)]
    pub max_tries: Option<u64>,
    /// Candidates judged at once, one per thread (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Write the suite to this file (default: stdout).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A game option KEY=VALUE (repeatable).
    #[arg(long = "game-option", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub game_options: Vec<(String, serde_json::Value)>,
}

/// `N` or `LO-HI`.
fn parse_plies(s: &str) -> Result<(u32, u32), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{t}' is not a whole number"))
    };
    let (lo, hi) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(s)?, num(s)?),
    };
    if lo > hi {
        return Err(format!("{lo}-{hi}: the first number is larger"));
    }
    Ok((lo, hi))
}

pub fn run(args: OpeningsArgs) -> Result<(), CliError> {
    let usage = |e: String| CliError::Usage(format!("openings: {e}"));
    if args.judge_playouts == 0 {
        return Err(usage("--judge-playouts must be at least 1".into()));
    }
    // An output that cannot be written: exit 2 before any candidate.
    if let Some(path) = &args.out {
        super::check_writable("openings", path)?;
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let seed = args.seed.unwrap_or_else(super::clock_seed);
    // `default` is the game's house agent: one whose games against itself
    // differ (Score Four's default `best` is alpha-beta, which would play
    // one game over and over).
    let judge = args
        .game
        .check_agent(
            &args.game.house_agent(&args.judge),
            &params_from(&args.judge_params),
        )
        .map_err(|e| usage(format!("--judge: {e}")))?;
    let cfg = SuiteConfig {
        plies: args.plies,
        count: args.count,
        seed,
        judge: SideConfig {
            agent: judge,
            params: params_from(&args.judge_params),
            playouts: Some(args.judge_playouts),
            ..Default::default()
        },
        judge_games: args.judge_games,
        band: args.band,
        jobs,
        max_tries: args
            .max_tries
            .unwrap_or((args.count as u64).saturating_mul(100)),
        game_options: game_options(&None, &None, &args.game_options),
    };
    args.game.visit(Check(&cfg)).map_err(usage)?;
    let bar = crate::runner::progress_bar(cfg.count as u64);
    let progress = |n: usize| {
        if let Some(b) = &bar {
            b.set_position(n as u64);
        }
    };
    let suite = args
        .game
        .visit(Generate(&cfg, &progress))
        .map_err(CliError::Runtime)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let text = suite::render(&suite, &cfg, &command(&args, &cfg));
    match &args.out {
        Some(path) => {
            // Checked writable before any work: a failure now is one while running.
            std::fs::write(path, &text).map_err(|e| {
                CliError::Runtime(format!("openings: cannot write {}: {e}", path.display()))
            })?;
            say!(
                "{}: {} openings for {} ({} candidates: {} ended, {} repeated, {} outside the band)",
                path.display(),
                suite.kept.len(),
                suite.game,
                suite.tried,
                suite.ended,
                suite.duplicates,
                suite.unbalanced
            );
        }
        None => {
            say!("{}", text.trim_end_matches('\n'));
        }
    }
    if suite.kept.len() < cfg.count {
        return Err(CliError::Runtime(format!(
            "openings: only {} of {} openings after {} candidates (--max-tries); widen --band \
             or --plies",
            suite.kept.len(),
            cfg.count,
            suite.tried
        )));
    }
    Ok(())
}

/// The command that makes the same suite, every setting spelled out.
fn command(args: &OpeningsArgs, cfg: &SuiteConfig) -> String {
    let (lo, hi) = cfg.plies;
    let mut c = format!(
        "ladderbot openings {} --plies {lo}-{hi} --count {} --seed {} --judge {} \
         --judge-playouts {} --judge-games {} --band {}",
        args.game,
        cfg.count,
        cfg.seed,
        cfg.judge.agent,
        args.judge_playouts,
        cfg.judge_games,
        cfg.band
    );
    for (k, v) in &cfg.judge.params {
        c.push_str(&format!(" --judge-param {k}={}", plain(v)));
    }
    for (k, v) in &cfg.game_options {
        c.push_str(&format!(" --game-option {k}={}", plain(v)));
    }
    if let Some(t) = args.max_tries {
        c.push_str(&format!(" --max-tries {t}"));
    }
    if let Some(p) = &args.out {
        c.push_str(&format!(" --out {}", p.display()));
    }
    c
}

/// A value as typed on the command line (strings unquoted).
fn plain(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

struct Check<'a>(&'a SuiteConfig);
impl GameVisitor for Check<'_> {
    type Output = Result<(), String>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        suite::check::<G>(self.0)
    }
}

struct Generate<'a>(&'a SuiteConfig, &'a dyn Fn(usize));
impl GameVisitor for Generate<'_> {
    type Output = Result<Suite, String>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        suite::generate::<G>(self.0, self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_parse_as_one_number_or_a_range() {
        assert_eq!(parse_plies("2-4").unwrap(), (2, 4));
        assert_eq!(parse_plies("3").unwrap(), (3, 3));
        assert!(parse_plies("4-2").is_err());
        assert!(parse_plies("a-2").is_err());
    }
}
