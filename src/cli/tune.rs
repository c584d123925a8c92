//! `ladderbot tune GAME --agent A`: SPSA over the agent's declared
//! parameters ([`crate::tune`]), with its state in `--out DIR` after every
//! iteration (`tune.json`), the tuned profile (`tuned.toml`) and the plot
//! of every parameter's path (`tune.html`).

use super::out::say;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::{params_from, parse_game, parse_param, CliError};
use crate::config::Settings;
use crate::games::params::Decl;
use crate::games::{GameKind, GameVisitor, PlayableGame};
use crate::runner::openings::{Book, OpeningOrder};
use crate::runner::SideConfig;
use crate::tune::spsa::Gains;
use crate::tune::{self, Objective, ParamRange, TuneConfig, TuneState};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ObjectiveArg {
    /// Game results: wins minus losses of the `+` setting.
    Games,
    /// The game's one-player measure (Puyo: the solo chain).
    Solo,
}

#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The game.
    #[arg(value_parser = parse_game)]
    pub game: GameKind,
    /// The agent to tune (`ladderbot agents --params` lists its parameters).
    #[arg(long)]
    pub agent: String,
    /// A fixed opponent: each iteration plays a pair of games with each setting against it.
    /// Repeated, a population: iteration k plays the k-th of them in turn. Without it the `+`
    /// setting plays the `-` one (self-play: the two settings against each other).
    #[arg(long)]
    pub vs: Vec<String>,
    /// A parameter of the opponent, of every one with --vs repeated (repeatable).
    #[arg(long = "vs-param", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub vs_params: Vec<(String, serde_json::Value)>,
    /// A parameter to tune: NAME (its declared range and step), NAME=LO:HI or NAME=LO:HI:STEP
    /// (within the declared range); repeatable. None: every tunable parameter of the agent.
    #[arg(long = "param", value_name = "NAME[=LO:HI[:STEP]]")]
    pub params: Vec<ParamRange>,
    /// A parameter held fixed, or the start of a tuned one (repeatable).
    #[arg(long = "set", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub set: Vec<(String, serde_json::Value)>,
    /// Games to play in all: a multiple of an iteration's (2; 4 with --vs; with --objective
    /// solo, one-player runs, 2), and at least 10 iterations' worth.
    #[arg(long)]
    pub games: u32,
    /// Playouts (or nodes) per move, for both sides: a reproducible run.
    #[arg(long, conflicts_with = "time_ms")]
    pub playouts: Option<u64>,
    /// Milliseconds per move, for both sides (a short time control: a tenth of the platform's).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Start each iteration's pair of games from the next opening of this suite.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The order openings are taken in: as in the file, or shuffled from --seed.
    #[arg(long, default_value = "sequential", requires = "openings")]
    pub opening_order: OpeningOrder,
    /// What an iteration measures.
    #[arg(long, value_enum, default_value_t = ObjectiveArg::Games)]
    pub objective: ObjectiveArg,
    /// Threads for the games of an iteration (at most 2 are used).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The seed of the perturbations' signs and of the games (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The run's folder: tune.json (its state, after every iteration), tuned.toml (the tuned
    /// profile) and tune.html (the plots).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue the run in --out from its last iteration.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Also write the plots to this file.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// SPSA's final learning rate (r_end = a_N / c_N^2). Default: scaled to the run, 20 / the
    /// iterations and at least 0.002 (the usual rate for runs of 10,000 iterations), so that a
    /// run of any length can move a parameter about 30 steps if one setting wins every pair.
    #[arg(long)]
    pub r_end: Option<f64>,
    /// The decay exponent of a_k.
    #[arg(long, default_value_t = Gains::default().alpha)]
    pub alpha: f64,
    /// The decay exponent of c_k.
    #[arg(long, default_value_t = Gains::default().gamma)]
    pub gamma: f64,
    /// A (the stability constant) as a share of the iterations.
    #[arg(long, default_value_t = Gains::default().a_share)]
    pub a_share: f64,
    /// A game's start option KEY=VALUE, e.g. size=10x12 for floodit (repeatable).
    #[arg(long = "game-option", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub game_options: Vec<(String, serde_json::Value)>,
}

/// The fewest iterations a run may have: with fewer, the first pairs of
/// games alone take the parameters most of the way (the rate is scaled to
/// the run), and a tuned profile says nothing.
pub const MIN_ITERATIONS: u32 = 10;

struct Prepared {
    cfg: TuneConfig,
    decl: Decl,
    state: TuneState,
    state_path: Option<PathBuf>,
}

fn prepare(args: &TuneArgs, settings: &Settings) -> Result<Prepared, CliError> {
    let usage = |m: String| CliError::Usage(format!("tune: {m}"));
    if args.games == 0 {
        return Err(usage("--games must be at least 1".into()));
    }
    if args.playouts == Some(0) || args.time_ms == Some(0) {
        return Err(usage("--playouts and --time-ms must be at least 1".into()));
    }
    let decl = args.game.agent_decl(&args.agent).map_err(usage)?;
    let fixed = params_from(&args.set);
    decl.read(&fixed)
        .map_err(|e| usage(format!("--set: {e}")))?;
    let params = tune::tuned_params(&decl, &args.params, &fixed).map_err(usage)?;
    let objective = match args.objective {
        ObjectiveArg::Games => Objective::Games,
        ObjectiveArg::Solo => Objective::Solo,
    };
    if objective == Objective::Solo && !args.vs.is_empty() {
        return Err(usage("--vs has no meaning with --objective solo".into()));
    }
    let vs: Vec<SideConfig> = args
        .vs
        .iter()
        .map(|agent| SideConfig {
            agent: agent.clone(),
            params: params_from(&args.vs_params),
            playouts: args.playouts,
            time_ms: args.time_ms,
            ..Default::default()
        })
        .collect();
    for v in &vs {
        args.game
            .check_agent(&v.agent, &v.params)
            .map_err(|e| usage(format!("--vs: {e}")))?;
    }
    let game_options = super::match_cmd::game_options(&None, &None, &args.game_options);
    args.game.check_options(&game_options).map_err(usage)?;
    let openings = match &args.openings {
        Some(path) => Some(
            args.game
                .visit(LoadBook(path, &game_options, args.opening_order))
                .map_err(usage)?,
        ),
        None => None,
    };
    let cfg = TuneConfig {
        game: args.game.id().to_string(),
        agent: args.agent.clone(),
        fixed,
        vs,
        objective,
        playouts: args.playouts,
        time_ms: args.time_ms,
        margin_ms: settings.search.margin_ms,
        openings,
        game_options,
        jobs: args.jobs.unwrap_or(2).max(1),
    };
    let per = cfg.per_iteration();
    let what = match objective {
        Objective::Solo => "one-player runs",
        Objective::Games if cfg.vs.is_empty() => "games (a pair, the + setting against the -)",
        Objective::Games => "games (each setting a pair against the opponent)",
    };
    if args.games % per != 0 || args.games / per < MIN_ITERATIONS {
        return Err(usage(format!(
            "--games {}: an iteration plays {per} {what}; give a multiple of {per}, at least {} \
             ({MIN_ITERATIONS} iterations): fewer move the parameters on the luck of a few games",
            args.games,
            per * MIN_ITERATIONS
        )));
    }
    let iterations = args.games / per;
    let gains = Gains {
        alpha: args.alpha,
        gamma: args.gamma,
        a_share: args.a_share,
        r_end: args.r_end.unwrap_or_else(|| Gains::r_end_for(iterations)),
    };
    if !(gains.r_end > 0.0 && gains.alpha > 0.0 && gains.gamma > 0.0 && gains.a_share >= 0.0) {
        return Err(usage(
            "--r-end, --alpha and --gamma must be positive, --a-share at least 0".into(),
        ));
    }
    let state_path = args.out.as_ref().map(|d| d.join("tune.json"));
    let state = match (&state_path, args.resume) {
        (Some(path), true) => {
            let s = TuneState::load(path).map_err(usage)?;
            let differ = differences(&s, &cfg, iterations, &gains, args, &params);
            if !differ.is_empty() {
                return Err(usage(format!(
                    "--resume: {} is a run of other settings: {}",
                    path.display(),
                    differ.join("; ")
                )));
            }
            s
        }
        (Some(path), false) if path.exists() => {
            return Err(usage(format!(
                "{} exists: --resume continues that run; or choose another --out",
                path.display()
            )))
        }
        _ => TuneState::new(
            &cfg,
            params,
            iterations,
            args.seed.unwrap_or_else(super::clock_seed),
            gains,
        ),
    };
    // Outputs that cannot be written: exit 2 before any game, as every
    // command says it (the folder --out is made if missing).
    if let Some(dir) = &args.out {
        super::check_out_folder("tune --out", dir, "tune.json")?;
    }
    if let Some(path) = &args.html {
        super::check_writable("tune --html", path)?;
    }
    Ok(Prepared {
        cfg,
        decl,
        state,
        state_path,
    })
}

/// What differs between a saved run and the command that would resume it,
/// each as `what: was X, now Y`.
fn differences(
    saved: &TuneState,
    cfg: &TuneConfig,
    iterations: u32,
    gains: &Gains,
    args: &TuneArgs,
    params: &[crate::tune::spsa::Tuned],
) -> Vec<String> {
    let seed = args.seed;
    let mut out = Vec::new();
    let show = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "none".to_string(),
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    let key = cfg.key();
    let empty = serde_json::Map::new();
    let (was, now) = (
        saved.key.as_object().unwrap_or(&empty),
        key.as_object().unwrap_or(&empty),
    );
    let null = serde_json::Value::Null;
    for name in now
        .keys()
        .chain(was.keys().filter(|k| !now.contains_key(*k)))
    {
        let (a, b) = (
            was.get(name).unwrap_or(&null),
            now.get(name).unwrap_or(&null),
        );
        if a != b {
            let flag = match name.as_str() {
                "fixed" => "--set",
                "vs" => "--vs",
                "playouts" => "--playouts",
                "time_ms" => "--time-ms",
                "openings" => "--openings",
                "game_options" => "--game-option",
                "objective" => "--objective",
                "agent" => "--agent",
                other => other,
            };
            out.push(format!("{flag}: was {}, now {}", show(a), show(b)));
        }
    }
    if saved.spsa.iterations != iterations {
        out.push(format!(
            "--games: was {} iterations, now {iterations}",
            saved.spsa.iterations
        ));
    }
    let g = &saved.spsa.gains;
    for (flag, a, b) in [
        ("--r-end", g.r_end, gains.r_end),
        ("--alpha", g.alpha, gains.alpha),
        ("--gamma", g.gamma, gains.gamma),
        ("--a-share", g.a_share, gains.a_share),
    ] {
        // A default r_end follows --games, which is named already.
        let derived =
            flag == "--r-end" && args.r_end.is_none() && saved.spsa.iterations != iterations;
        if a != b && !derived {
            out.push(format!("{flag}: was {a}, now {b}"));
        }
    }
    if let Some(seed) = seed.filter(|s| *s != saved.spsa.seed) {
        out.push(format!("--seed: was {}, now {seed}", saved.spsa.seed));
    }
    let describe = |ps: &mut dyn Iterator<Item = &crate::tune::spsa::Tuned>| {
        ps.map(|p| format!("{}={}:{}:{}", p.name, p.lo, p.hi, p.c_end))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (a, b) = (
        describe(&mut saved.spsa.params.iter()),
        describe(&mut params.iter()),
    );
    if a != b {
        out.push(format!("--param: was {a}, now {b}"));
    }
    out
}

struct LoadBook<'a>(
    &'a std::path::Path,
    &'a crate::games::GameOptions,
    OpeningOrder,
);
impl GameVisitor for LoadBook<'_> {
    type Output = Result<Book, String>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        Book::load::<G>(self.0, self.1, self.2)
    }
}

struct Run<'a> {
    p: &'a mut Prepared,
    interrupt: &'a AtomicBool,
}

impl GameVisitor for Run<'_> {
    type Output = Result<(), String>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        let Prepared {
            cfg,
            decl,
            state,
            state_path,
        } = self.p;
        let started = Instant::now();
        let mut last = Instant::now();
        let mut progress = |s: &TuneState| {
            // The first iteration, then a line a minute, and the last.
            if s.done == 1
                || s.done == s.spsa.iterations
                || last.elapsed() >= Duration::from_secs(60)
            {
                last = Instant::now();
                eprintln!(
                    "tune: iteration {}/{}, {} games, {:.0} s: {}",
                    s.done,
                    s.spsa.iterations,
                    s.games,
                    started.elapsed().as_secs_f64(),
                    s.describe()
                );
            }
        };
        tune::run::<G>(
            cfg,
            decl,
            state,
            state_path.as_deref(),
            self.interrupt,
            &mut progress,
        )
    }
}

/// The command line as a profile's comment gives it.
fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

pub fn run(args: TuneArgs, settings: &Settings) -> Result<(), CliError> {
    let mut prepared = prepare(&args, settings)?;
    let state = &prepared.state;
    if state.finished() {
        eprintln!(
            "tune: the run is finished ({} of {} iterations, {} games); nothing to play: {}",
            state.done,
            state.spsa.iterations,
            state.games,
            state.describe()
        );
    } else if state.done > 0 {
        eprintln!(
            "tune: resuming at iteration {} of {}: {}",
            state.done + 1,
            state.spsa.iterations,
            state.describe()
        );
    } else {
        eprintln!(
            "tune: {} iterations of {} games; r_end {}{} (a parameter can travel about {:.0} steps)",
            state.spsa.iterations,
            prepared.cfg.per_iteration(),
            state.spsa.gains.r_end,
            if args.r_end.is_none() {
                " (scaled to the run)"
            } else {
                ""
            },
            state.spsa.travel()
        );
    }
    let interrupt = super::match_cmd::Interrupt::watch_saying(
        "tune",
        "the iteration in progress is played out and the state saved",
        "quitting; the state of the last finished iteration is saved",
    );
    let result = args.game.visit(Run {
        p: &mut prepared,
        interrupt: &interrupt.flag,
    });
    let Prepared {
        cfg, decl, state, ..
    } = &prepared;
    // Whatever happened, what was reached is written.
    let profile = state.profile(cfg, decl, &command_line());
    let title = format!("ladderbot tune {} --agent {}", cfg.game, cfg.agent);
    let page = crate::tune::plot::page(state, &title);
    let mut written = Vec::new();
    if let Some(dir) = &args.out {
        let (toml, html) = (dir.join("tuned.toml"), dir.join("tune.html"));
        for (path, text) in [(&toml, &profile), (&html, &page)] {
            std::fs::write(path, text)
                .map_err(|e| CliError::Runtime(format!("cannot write {}: {e}", path.display())))?;
        }
        written.push(toml.display().to_string());
        written.push(html.display().to_string());
    }
    if let Some(path) = &args.html {
        std::fs::write(path, &page)
            .map_err(|e| CliError::Runtime(format!("cannot write {}: {e}", path.display())))?;
        written.push(path.display().to_string());
    }
    result.map_err(CliError::Runtime)?;
    say!(
        "tune: {} of {} iterations, {} games: {}",
        state.done,
        state.spsa.iterations,
        state.games,
        state.describe()
    );
    // How far each parameter went: a run that moved nothing says so.
    let moved = state.moved();
    for m in &moved {
        say!("tune: {}", m.describe());
    }
    if state.done > 0 && moved.iter().all(|m| m.high - m.low < m.c_end) {
        say!(
            "tune: no parameter explored a whole step: more games, or a larger --r-end, move them further"
        );
    }
    if written.is_empty() {
        say!("{}", profile.trim_end());
    } else {
        say!("written: {}", written.join(", "));
    }
    match interrupt.signal() {
        Some(sig) => {
            eprintln!(
                "tune: stopped by {sig} after iteration {} of {}{}",
                state.done,
                state.spsa.iterations,
                match &args.out {
                    Some(dir) => format!(
                        "; its state is in {}: the same command with --resume continues it",
                        dir.join("tune.json").display()
                    ),
                    None => String::new(),
                }
            );
            Err(CliError::Stopped(sig))
        }
        None => Ok(()),
    }
}
