//! `ladderbot match GAME --a X --b Y`: an in-process match with statistics
//! (for geister also over real GAT TCP connections, `--over-gat`).

use super::out::say;
use std::path::PathBuf;

use clap::Args;

use super::{params_from, parse_game, parse_param, CliError};
use crate::config::Settings;
use crate::games::{GameKind, GameOptions, GameVisitor, PlayableGame};
use crate::runner::openings::{Book, OpeningOrder};
use crate::runner::{self, Driver, MatchConfig, MatchReport, SideConfig, SprtConfig, Tally};

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Game to play.
    #[arg(value_parser = parse_game)]
    pub game: GameKind,
    /// Agent A (results are from A's side).
    #[arg(long, required_unless_present_any = ["a_cmd", "a_profile"])]
    pub a: Option<String>,
    /// Agent B.
    #[arg(long, required_unless_present_any = ["b_cmd", "b_profile"])]
    pub b: Option<String>,
    /// Side A plays as this profile gives it (a bots/ NAME, or a file such as tune's
    /// tuned.toml): its agent, [agent_params] and whole [search] budget (time or bank,
    /// playouts, margin, ponder); a flag for side A overrides one of them.
    #[arg(long, value_name = "NAME|PATH", conflicts_with_all = ["a", "a_cmd"])]
    pub a_profile: Option<String>,
    /// Like --a-profile, for side B.
    #[arg(long, value_name = "NAME|PATH", conflicts_with_all = ["b", "b_cmd"])]
    pub b_profile: Option<String>,
    /// Geister over GAT only: side A is this GAT client program instead of an agent, started
    /// for each game; `{host}` and `{port}` in it become the server's address for its seat.
    #[arg(long, value_name = "CMD ARGS", conflicts_with = "a")]
    pub a_cmd: Option<String>,
    /// Like --a-cmd, for side B.
    #[arg(long, value_name = "CMD ARGS", conflicts_with = "b")]
    pub b_cmd: Option<String>,
    /// Append the --a-cmd/--b-cmd programs' stdout and stderr to this file (default: discarded).
    #[arg(long, value_name = "PATH")]
    pub program_log: Option<PathBuf>,
    /// Games to play (seats alternate: A moves first in even-numbered games). With
    /// --openings, games 2k and 2k+1 play the same opening; more games than twice the
    /// openings cycle through the file again.
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// Threads to spread games over (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Playouts per move for both sides.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Milliseconds per move for both sides.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Playouts per move for side A only (overrides --playouts for A).
    #[arg(long)]
    pub a_playouts: Option<u64>,
    /// Playouts per move for side B only (overrides --playouts for B).
    #[arg(long)]
    pub b_playouts: Option<u64>,
    /// Milliseconds per move for side A only (overrides --time-ms for A).
    #[arg(long)]
    pub a_time_ms: Option<u64>,
    /// Milliseconds per move for side B only (overrides --time-ms for B).
    #[arg(long)]
    pub b_time_ms: Option<u64>,
    /// Agent A option KEY=VALUE (repeatable).
    #[arg(long = "a-param", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub a_params: Vec<(String, serde_json::Value)>,
    /// Agent B option KEY=VALUE (repeatable).
    #[arg(long = "b-param", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub b_params: Vec<(String, serde_json::Value)>,
    /// Seed: the same seed and playout budgets give the same games (default: from the clock, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Append one JSON line per finished game to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Stop early by SPRT between logistic ELO0 and ELO1 (alpha = beta = 0.05): the
    /// GSPRT of fishtest and fastchess over the complete pairs of games (pentanomial).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt, allow_hyphen_values = true)]
    pub sprt: Option<(f64, f64)>,
    /// Print the report as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
    /// Play only shard I of N (0 <= I < N): the pairs of games (2k, 2k+1) with
    /// k mod N = I, exactly as the whole match would play them (seeds, seats, openings).
    /// Needs --out; `ladderbot merge` joins the shards' records into the match's report.
    /// With --sprt a shard plays all its games: the verdict is the merged one.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<runner::Shard>,
    /// Continue the match whose records are in --out (after it was killed or interrupted):
    /// its games already recorded count and are not played again. Without it, an --out that
    /// already holds games of this match is refused.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Geister only: play every game over real TCP, each agent a GAT client of a
    /// GAT server started in-process on loopback (one per job).
    #[arg(long)]
    pub over_gat: bool,
    /// Flood-It: board size ROWSxCOLS (default 14x14).
    #[arg(long, value_name = "ROWSxCOLS")]
    pub size: Option<String>,
    /// Flood-It: number of colours (default 6).
    #[arg(long)]
    pub colours: Option<u64>,
    /// A game option KEY=VALUE (repeatable; --size and --colours are two).
    #[arg(long = "game-option", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub game_options: Vec<(String, serde_json::Value)>,
    /// Start games from the openings in FILE (one a line: the moves from the game's
    /// start in its own notation, as in records, separated by spaces; `#` comments and
    /// blank lines skipped), each played twice with the seats swapped.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The order openings are taken in: as in the file, or shuffled from --seed (every
    /// opening once per pass through the file).
    #[arg(
        long,
        value_name = "sequential|random",
        default_value = "sequential",
        requires = "openings"
    )]
    pub opening_order: OpeningOrder,
    /// Each worker keeps its agents from game to game, as in a ladder
    /// session (Geister `best` learns its opponent's colours game after
    /// game); results are then reproducible for a given --jobs only.
    #[arg(long)]
    pub keep_agents: bool,
}

pub(super) fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s.split_once(',').ok_or("expected ELO0,ELO1")?;
    let e0: f64 = a
        .trim()
        .parse()
        .map_err(|_| format!("'{a}' is not a number"))?;
    let e1: f64 = b
        .trim()
        .parse()
        .map_err(|_| format!("'{b}' is not a number"))?;
    if !(e0.is_finite() && e1.is_finite()) || e0 >= e1 {
        return Err("need finite ELO0 < ELO1".into());
    }
    Ok((e0, e1))
}

pub fn run(args: MatchArgs, settings: &Settings) -> Result<(), CliError> {
    if args.games == 0 {
        return Err(CliError::Usage("match: --games must be at least 1".into()));
    }
    for (flag, v) in [
        ("--playouts", args.playouts),
        ("--time-ms", args.time_ms),
        ("--a-playouts", args.a_playouts),
        ("--b-playouts", args.b_playouts),
        ("--a-time-ms", args.a_time_ms),
        ("--b-time-ms", args.b_time_ms),
    ] {
        if v == Some(0) {
            return Err(CliError::Usage(format!("match: {flag} must be at least 1")));
        }
    }
    let has_program = args.a_cmd.is_some() || args.b_cmd.is_some();
    if has_program && !(args.over_gat && args.game == GameKind::Geister) {
        return Err(CliError::Usage(
            "match: --a-cmd and --b-cmd need geister with --over-gat".into(),
        ));
    }
    let program = |c: &Option<String>| {
        c.as_deref()
            .map(|c| {
                crate::platforms::command::split_command(c)
                    .map_err(|e| CliError::Usage(format!("match: --a-cmd/--b-cmd: {e}")))
            })
            .transpose()
    };
    let (a_cmd, b_cmd) = (program(&args.a_cmd)?, program(&args.b_cmd)?);
    // A program that cannot be started is bad configuration, before any game.
    for cmd in [&a_cmd, &b_cmd].into_iter().flatten() {
        if let Some(first) = cmd.first() {
            crate::platforms::command::check_program(first)
                .map_err(|e| CliError::Usage(format!("match: --a-cmd/--b-cmd: {e}")))?;
        }
    }
    let (a_profile, b_profile) = (
        profile_side(args.game, &args.a_profile)?,
        profile_side(args.game, &args.b_profile)?,
    );
    // A side given a profile plays the profile's agent, parameters and
    // whole budget ([search]: time or bank, playouts, margin, ponder); a
    // flag for that side overrides one of them (a time flag plays a fixed
    // time a move instead of the profile's bank).
    let side = |agent: &Option<String>,
                profile: &Option<SideConfig>,
                command: Option<Vec<String>>,
                pl: Option<u64>,
                t: Option<u64>,
                p: &[(String, serde_json::Value)]| {
        let mut side = profile.clone().unwrap_or_else(|| SideConfig {
            agent: agent.clone().unwrap_or_else(|| "cmd".into()),
            ..Default::default()
        });
        side.params.extend(params_from(p));
        side.command = command;
        if let Some(n) = pl.or(args.playouts) {
            side.playouts = Some(n);
        }
        if let Some(ms) = t.or(args.time_ms) {
            side.time_ms = Some(ms);
            side.clock = None;
        }
        side
    };
    let jobs = args
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let mut cfg = MatchConfig {
        a: side(
            &args.a,
            &a_profile,
            a_cmd,
            args.a_playouts,
            args.a_time_ms,
            &args.a_params,
        ),
        b: side(
            &args.b,
            &b_profile,
            b_cmd,
            args.b_playouts,
            args.b_time_ms,
            &args.b_params,
        ),
        games: args.games,
        jobs,
        seed: args.seed.unwrap_or_else(super::clock_seed),
        out: args.out.clone(),
        sprt: args.sprt.map(|(elo0, elo1)| SprtConfig {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }),
        margin_ms: settings.search.margin_ms,
        keep_agents: args.keep_agents,
        game_options: game_options(&args.size, &args.colours, &args.game_options),
        openings: None,
        shard: args.shard,
        resume: args.resume,
    };
    if args.shard.is_some() && args.out.is_none() {
        return Err(CliError::Usage(
            "match: --shard needs --out FILE.jsonl (the records `ladderbot merge` joins)".into(),
        ));
    }
    if args.over_gat && args.game != GameKind::Geister {
        return Err(CliError::Usage(format!(
            "match: --over-gat is for geister only, not {}",
            args.game
        )));
    }
    args.game
        .check_options(&cfg.game_options)
        .map_err(|e| CliError::Usage(format!("match: {e}")))?;
    if let Some(path) = &args.openings {
        if args.over_gat {
            return Err(CliError::Usage(
                "match: --openings cannot be played --over-gat (a GAT server starts every game \
                 from the setup)"
                    .into(),
            ));
        }
        let book = Book::load_for(args.game, path, &cfg.game_options, args.opening_order)
            .map_err(|e| CliError::Usage(format!("match --openings: {e}")))?;
        cfg.openings = Some(book);
    }
    // Check both agents before starting any thread, so a typo is a usage error.
    for (flag, s) in [("--a", &cfg.a), ("--b", &cfg.b)] {
        if s.command.is_some() {
            continue;
        }
        args.game
            .check_agent(&s.agent, &s.params)
            .map_err(|e| CliError::Usage(format!("match {flag}: {e}")))?;
    }
    if args.game == GameKind::Geister {
        for (flag, t) in [
            ("--a-time-ms", cfg.a.time_ms),
            ("--b-time-ms", cfg.b.time_ms),
        ] {
            let max = crate::platforms::gat::client::MAX_TIME_MS;
            if args.over_gat && t.is_some_and(|t| t > max) {
                return Err(CliError::Usage(format!(
                    "match: {flag} (or --time-ms) is at most {max} over GAT"
                )));
            }
        }
    }
    if let Some(out) = &cfg.out {
        // The records already there, read (and a torn last line cut off)
        // before any game: a bad line is a usage error naming it, and an
        // --out that cannot be written is refused as `analyze` refuses it.
        super::check_writable("match", out)?;
        let earlier =
            runner::resume::earlier_games(out, &cfg.key(args.game.id()), &cfg.game_numbers())
                .map_err(|e| CliError::Usage(format!("match: {e}")))?;
        if !cfg.resume && !earlier.is_empty() {
            return Err(CliError::Usage(format!(
                "match: {} already holds {} game(s) of this match: pass --resume to play only \
                 the others, or choose another --out",
                out.display(),
                earlier.len()
            )));
        }
    }
    if let (Some(out), true) = (&cfg.out, cfg.resume) {
        resume_finds_this_match(&cfg, args.game.id(), out)?;
    }
    for (name, side) in [("A", &cfg.a), ("B", &cfg.b)] {
        if let (Some(t), Some(m)) = (side.time_ms, side.margin_ms) {
            if m >= t {
                tracing::warn!(
                    "side {name}: its margin ({m} ms) is not less than its time a move ({t} ms): \
                     every answer is the agent's first guess"
                );
            }
        }
    }
    if cfg.a.ponder || cfg.b.ponder {
        tracing::info!(
            "pondering sides think while the other side moves: each game may use a core more \
             than --jobs ({})",
            cfg.jobs
        );
    }
    tracing::info!(
        "A = {} ({}); B = {} ({})",
        cfg.a.name(),
        cfg.a.budget(),
        cfg.b.name(),
        cfg.b.budget()
    );
    let interrupt = Interrupt::watch("match");
    let report = if args.over_gat {
        let driver = runner::gat::OverGat {
            program_log: args.program_log.clone(),
            ..Default::default()
        };
        run_with_bar(&driver, &cfg, &interrupt.flag)
    } else {
        args.game.visit(RunMatch(&cfg, &interrupt.flag))
    }
    .map_err(CliError::Runtime)?;
    print_report(&report, args.json)?;
    match interrupt.signal() {
        Some(sig) => {
            let total = cfg.game_numbers().len();
            eprintln!(
                "match: interrupted by {sig} after {} of {total} games (the report above is of \
                 those){}",
                report.games,
                if cfg.out.is_some() {
                    "; the same command with --resume plays the rest"
                } else {
                    ""
                }
            );
            Err(CliError::Interrupted(sig))
        }
        None => Ok(()),
    }
}

/// `--resume` with a records file that holds games of another match of
/// this game and none of this one: the command differs from the one that
/// wrote them (another --games, --seed, side, budget or suite), and
/// resuming would silently play the whole match again beside them. Refused,
/// naming what the records say.
fn resume_finds_this_match(
    cfg: &runner::MatchConfig,
    game: &str,
    out: &std::path::Path,
) -> Result<(), CliError> {
    let Some((tag, n)) = runner::resume::other_match(out, game, &cfg.key(game)) else {
        return Ok(());
    };
    let suite = |t: Option<&crate::records::SuiteTag>| {
        t.map(|t| format!(", openings {t}")).unwrap_or_default()
    };
    Err(CliError::Usage(format!(
        "match --resume: {} holds {n} game(s) of another match and none of this one: they were \
         played as A {} against B {}, seed {}, {} games{}{}; this command asks for A {} against B \
         {}, seed {}, {} games{}{}. Repeat the command that wrote them (the same --openings \
         path, start options, --keep-agents and --margin-ms too), or choose another --out",
        out.display(),
        tag.a,
        tag.b,
        tag.seed,
        tag.games,
        tag.sprt
            .map(|[e0, e1]| format!(", --sprt {e0},{e1}"))
            .unwrap_or_default(),
        suite(tag.suite.as_ref()),
        cfg.a.describe(),
        cfg.b.describe(),
        cfg.seed,
        cfg.games,
        cfg.sprt
            .map(|s| format!(", --sprt {},{}", s.elo0, s.elo1))
            .unwrap_or_default(),
        suite(cfg.suite_tag().as_ref()),
    )))
}

/// SIGINT and SIGTERM during a match (or a tuning run): the first stops it
/// from starting games (those in progress are played out and reported); a
/// second ends the process at once (every finished game is already in the
/// records, every finished iteration in the tuner's state).
pub(super) struct Interrupt {
    pub flag: std::sync::Arc<std::sync::atomic::AtomicBool>,
    signal: std::sync::Arc<std::sync::Mutex<Option<&'static str>>>,
}

impl Interrupt {
    pub fn watch(command: &'static str) -> Self {
        Self::watch_saying(
            command,
            "no new game starts; the games in progress are played out, then the report",
            "quitting; every finished game is recorded",
        )
    }

    /// [`Interrupt::watch`] saying what the command does on the first
    /// signal (`then`) and on the second (`quit`).
    pub fn watch_saying(command: &'static str, then: &'static str, quit: &'static str) -> Self {
        use std::sync::atomic::Ordering;
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let signal = std::sync::Arc::new(std::sync::Mutex::new(None));
        let (f, s) = (flag.clone(), signal.clone());
        let started = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map(|rt| {
                std::thread::spawn(move || {
                    rt.block_on(async {
                        let mut signals = super::Signals::install();
                        let first = signals.next().await;
                        *s.lock().unwrap_or_else(|e| e.into_inner()) = Some(first);
                        f.store(true, Ordering::SeqCst);
                        eprintln!("{command}: {first}: {then} (again to quit now)");
                        let again = signals.next().await;
                        eprintln!("{command}: {again}: {quit}");
                        std::process::exit(if again == "SIGTERM" { 143 } else { 130 });
                    })
                })
            });
        if let Err(e) = started {
            tracing::warn!(error = %e, "cannot watch for SIGINT/SIGTERM");
        }
        Interrupt { flag, signal }
    }

    pub fn signal(&self) -> Option<&'static str> {
        *self.signal.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The side a profile given for a side plays: its agent, `[agent_params]`
/// and `[search]` budget (time or bank, playouts, margin, ponder), checked
/// to be of `game`.
fn profile_side(game: GameKind, name: &Option<String>) -> Result<Option<SideConfig>, CliError> {
    let Some(name) = name else {
        return Ok(None);
    };
    let usage = |m: String| CliError::Usage(format!("match: profile {name}: {m}"));
    let profile = crate::config::resolve_profile(name).map_err(|e| usage(e.0))?;
    let s = crate::config::load_profile(Some(&profile), Some(Default::default()))
        .map_err(|e| usage(e.0))?;
    if s.game != Some(game) {
        return Err(usage(format!(
            "its game is {}, not {game}",
            s.game.map_or("not set".to_string(), |g| g.to_string())
        )));
    }
    let search = &s.search;
    let clock = match search.time_policy {
        crate::config::TimePolicy::Fixed => None,
        crate::config::TimePolicy::Bank => Some(
            in_process_bank(game, search.bank_ms, search.increment_ms).ok_or_else(|| {
                usage(
                    "time_policy = \"bank\" with no search.bank_ms: in a match there is no \
                     server's bank to spend; set search.bank_ms, or give --a-time-ms/--b-time-ms"
                        .into(),
                )
            })?,
        ),
    };
    Ok(Some(SideConfig {
        agent: s.agent.clone(),
        params: s.agent_params.clone(),
        playouts: search.playouts,
        time_ms: search.time_ms,
        command: None,
        margin_ms: Some(search.margin_ms),
        ponder: search.ponder,
        clock,
    }))
}

/// The game clock of a bank profile in a match: its own `bank_ms` and
/// `increment_ms`; without a bank of its own, GOLAD's is the Riddles.io
/// engine's (10 s, 100 ms added a move), the one its bank profile spends on
/// the platform; other games have none.
fn in_process_bank(
    game: GameKind,
    bank_ms: Option<u64>,
    increment_ms: u64,
) -> Option<crate::search::GameClock> {
    use std::time::Duration;
    let (bank, increment) = match bank_ms {
        Some(b) => (b, increment_ms),
        None if game == crate::platforms::riddles::GAME => {
            let s = crate::platforms::riddles::codec::MatchSettings::default();
            (s.timebank_ms, s.time_per_move_ms)
        }
        None => return None,
    };
    Some(crate::search::GameClock {
        bank: Duration::from_millis(bank),
        increment: Duration::from_millis(increment),
    })
}

/// Prints a match's report: one JSON line, or the human summary.
pub(super) fn print_report(report: &MatchReport, json: bool) -> Result<(), CliError> {
    if json {
        let line = serde_json::to_string(report).map_err(|e| CliError::Runtime(e.to_string()))?;
        say!("{line}");
    } else {
        say!("{}", runner::render_report(report));
    }
    Ok(())
}

/// `--size`, `--colours` and `--game-option` as one map of game options.
pub fn game_options(
    size: &Option<String>,
    colours: &Option<u64>,
    more: &[(String, serde_json::Value)],
) -> GameOptions {
    let mut m = params_from(more);
    if let Some(s) = size {
        m.insert("size".into(), serde_json::Value::String(s.clone()));
    }
    if let Some(c) = colours {
        m.insert("colours".into(), serde_json::Value::from(*c));
    }
    m
}

struct RunMatch<'a>(&'a MatchConfig, &'a std::sync::atomic::AtomicBool);
impl GameVisitor for RunMatch<'_> {
    type Output = Result<MatchReport, String>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        run_with_bar(&runner::Playable::<G>::new(), self.0, self.1)
    }
}

/// Runs the match with a progress bar on stderr (when stdout is a terminal).
fn run_with_bar<D: Driver>(
    driver: &D,
    cfg: &MatchConfig,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<MatchReport, String> {
    let bar = runner::progress_bar(cfg.game_numbers().len() as u64);
    let progress = |t: &Tally| {
        if let Some(b) = &bar {
            b.set_position(t.done as u64);
            b.set_message(format!("+{} ={} -{}", t.wins, t.draws, t.losses));
        }
    };
    let report = runner::run_until(driver, cfg, &progress, interrupt);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_gives_its_side_the_whole_search_budget() {
        let best = profile_side(GameKind::Four3d, &Some("four3d-best".into()))
            .unwrap()
            .unwrap();
        assert_eq!(
            (
                best.agent.as_str(),
                best.time_ms,
                best.margin_ms,
                best.ponder
            ),
            ("best", Some(100), Some(40), true)
        );
        assert!(best.clock.is_none());
        // GOLAD's bank profile spends the Riddles.io engine's clock.
        let bank = profile_side(GameKind::Golad, &Some("golad-best-bank".into()))
            .unwrap()
            .unwrap();
        let clock = bank.clock.expect("a bank");
        assert_eq!(clock.bank.as_millis(), 10_000);
        assert_eq!(clock.increment.as_millis(), 100);
        assert_eq!(bank.params["pw_root"], 300);
        // A profile of another game is refused.
        assert!(matches!(
            profile_side(GameKind::Four3d, &Some("golad-best".into())),
            Err(CliError::Usage(_))
        ));
        // Geister's GAT profile keeps its own bank.
        let gat = profile_side(GameKind::Geister, &Some("geister-gat".into()))
            .unwrap()
            .unwrap();
        assert_eq!(gat.clock.unwrap().bank.as_millis(), 600_000);
    }
}
