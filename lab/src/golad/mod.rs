//! `ladderbot-lab golad`: the learned value model of GOLAD's `best`
//! (issue 33): fit it on recorded games and report its accuracy on
//! held-out games beside the territory evaluation's; and how far `best`'s
//! candidates reach on recorded games.

mod convert;
mod draws;
mod reach;
mod train;

use crate::say;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::common::parallel;
use ladderbot::cli::CliError;
use ladderbot::games::golad::moves::Move;
use ladderbot::games::golad::value::{ValueModel, NAMES};
use ladderbot::games::golad::GolState;
use ladderbot::games::AgentParams;
use reach::Reach;
use train::{
    accuracy, fit, fit_territory, model_accuracy, samples_of, territory_inputs, GameRecord, Sample,
};

#[derive(Debug, Args)]
pub struct GoladLabArgs {
    #[command(subcommand)]
    pub command: LabCommand,
}

#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// Fit the value model on recorded games (`ladderbot match golad --out`); report its
    /// accuracy on held-out games beside the territory evaluation's.
    Train(TrainArgs),
    /// How far an agent's candidate moves reach on recorded games: at each position of the
    /// chosen player, whether its move and the best move of a wide scoring (the pass, every kill,
    /// every birth next to life with every pair of sacrifices, each scored a ply deep by the
    /// agent's evaluation) are among the candidates the search gives that side at the root, as a
    /// reply to the root's moves, and deeper; and the value the candidates lose.
    Candidates(CandidatesArgs),
    /// Where the draws are: every recorded game replayed, both sides' cells counted after each
    /// round, and each draw classed by who led at round 100 (1.5 times the other's cells and 3
    /// more) and whether the side behind was ever within reach (from round 50, while led, no
    /// more cells than the leader's moves left).
    Draws(DrawsArgs),
    /// The conversion measure: positions of recorded draws at the start of chosen rounds, each
    /// played out to the last round by an agent on the records' player's seat against another,
    /// at a fixed number of evaluations a move (deterministic for a seed): how often the board
    /// of the side to convert against is emptied, and in how many rounds, by who led at the
    /// start. Positions of the games whose index is a multiple of --holdout are held out (the
    /// gate), the others are for trying levers.
    Convert(ConvertArgs),
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Game records (JSON lines from `ladderbot match golad --out` or `referee golad --out`).
    #[arg(long, value_name = "FILE.jsonl", num_args = 1.., required = true)]
    pub records: Vec<PathBuf>,
    /// Our side: the player whose record name contains this; our agent plays its seat.
    #[arg(long, value_name = "NAME")]
    pub player: String,
    /// The rounds whose start positions are played out.
    #[arg(long, value_delimiter = ',', default_values_t = [40u32, 50, 60, 70, 80, 90])]
    pub rounds: Vec<u32>,
    /// Positions of decided games too (default: only the draws').
    #[arg(long)]
    pub all_games: bool,
    /// Which positions: `held-out` (games whose index is a multiple of --holdout), `fit` (the
    /// others) or `all`.
    #[arg(long, default_value = "held-out", value_parser = ["held-out", "fit", "all"])]
    pub set: String,
    /// Every Nth game is held out.
    #[arg(long, default_value_t = 2)]
    pub holdout: usize,
    /// Our agent.
    #[arg(long, default_value = "best")]
    pub agent: String,
    /// A parameter of our agent (repeatable; `threads` is 1 unless given).
    #[arg(long = "param", value_parser = ladderbot::cli::parse_param, value_name = "KEY=VALUE")]
    pub params: Vec<(String, serde_json::Value)>,
    /// The opponent's agent.
    #[arg(long, default_value = "ab-v2")]
    pub vs: String,
    /// A parameter of the opponent (repeatable; `threads` is 1 unless given).
    #[arg(long = "vs-param", value_parser = ladderbot::cli::parse_param, value_name = "KEY=VALUE")]
    pub vs_params: Vec<(String, serde_json::Value)>,
    /// Evaluations (playouts) a move, each side.
    #[arg(long, default_value_t = 5000)]
    pub evals: u64,
    /// The opponent's evaluations a move, when not --evals.
    #[arg(long)]
    pub vs_evals: Option<u64>,
    /// Seed of the agents (each position adds its index).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (positions played at once).
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DrawsArgs {
    /// Game records (JSON lines from `ladderbot match golad --out` or `referee golad --out`).
    #[arg(long, value_name = "FILE.jsonl", num_args = 1.., required = true)]
    pub records: Vec<PathBuf>,
    /// Our side: the player whose record name contains this (`A:`, `best`).
    #[arg(long, value_name = "NAME")]
    pub player: String,
    /// Also list every draw: its class and both sides' cells at rounds 25, 50, 75 and 100.
    #[arg(long)]
    pub list: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CandidatesArgs {
    #[command(flatten)]
    pub games: RecordedGames,
    /// Every Nth of the chosen positions (1: all).
    #[arg(long, default_value_t = 4)]
    pub every: usize,
    /// Only games whose index (over all files, in order) is a multiple of this: the games
    /// `train --holdout` holds out (1: every game).
    #[arg(long, default_value_t = 1)]
    pub holdout: usize,
    /// The agent whose candidates are measured.
    #[arg(long, default_value = "best", value_parser = ["best", "ab-v1", "ab-v2"])]
    pub agent: String,
    /// A parameter of the agent (repeatable): `reply_births=16` measures a wider reply.
    #[arg(long = "param", value_parser = ladderbot::cli::parse_param, value_name = "KEY=VALUE")]
    pub params: Vec<(String, serde_json::Value)>,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Recorded games and whose positions to take.
#[derive(Debug, Args)]
pub struct RecordedGames {
    /// Game records (JSON lines from `ladderbot match golad --out` or `referee golad --out`).
    #[arg(long, value_name = "FILE.jsonl", num_args = 1.., required = true)]
    pub records: Vec<PathBuf>,
    /// Only the positions where a player whose record name contains this moved (`B:ab-v2`,
    /// `eric`; default: both sides).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Game records (JSON lines from `ladderbot match golad --out`), read in order.
    #[arg(long, value_name = "FILE.jsonl", num_args = 1.., required = true)]
    pub records: Vec<PathBuf>,
    /// Games whose index (over all files, in order) is a multiple of this are held out.
    #[arg(long, default_value_t = 5)]
    pub holdout: usize,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    /// Where to write the fitted model (JSON); without it nothing is written.
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// Leave this input out (fitted as always 0, so its weights are 0); repeatable.
    #[arg(long = "without", value_name = "INPUT")]
    pub without: Vec<String>,
    /// Score this model file instead of fitting one.
    #[arg(long, value_name = "FILE.json")]
    pub model: Option<PathBuf>,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: GoladLabArgs) -> Result<(), CliError> {
    match args.command {
        LabCommand::Train(a) => train(a),
        LabCommand::Candidates(a) => candidates(a),
        LabCommand::Draws(a) => draws_table(a),
        LabCommand::Convert(a) => convert_table(a),
    }
}

fn runtime(what: &str, e: impl std::fmt::Display) -> CliError {
    CliError::Runtime(format!("golad {what}: {e}"))
}

/// Paths as a command line gives them, space-separated.
fn paths(p: &[PathBuf]) -> String {
    p.iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The GOLAD records of every file, in order, for the command `cmd`, by
/// the one reader of JSON lines ([`ladderbot::records::read_json_lines`]: a
/// torn last line skipped with a warning): a missing file, a bad line or no
/// record at all is bad input (exit 2), as [`ladderbot::cli::read_games`] says it,
/// and a record of another game is named (`FILE:LINE: a four3d game, not
/// golad`). Only the fields GOLAD's labs read are required (the shipped
/// records keep no more).
fn read_records(cmd: &str, files: &[PathBuf]) -> Result<Vec<GameRecord>, CliError> {
    let mut records = Vec::new();
    for path in files {
        let read = ladderbot::records::read_json_lines::<serde_json::Value>(path, "JSON value")
            .map_err(|e| CliError::Usage(format!("{cmd}: {e}")))?;
        for (line, v) in read.values {
            let bad = |m: String| CliError::Usage(format!("{cmd}: {}:{line}: {m}", path.display()));
            match v.get("game").and_then(serde_json::Value::as_str) {
                Some("golad") => {}
                Some(other) => return Err(bad(format!("a {other} game, not golad"))),
                None => return Err(bad("not a game record (no \"game\")".into())),
            }
            records.push(
                serde_json::from_value(v)
                    .map_err(|e| bad(format!("not a GOLAD game record: {e}")))?,
            );
        }
    }
    if records.is_empty() {
        return Err(CliError::Usage(format!(
            "{cmd}: the files hold no game records"
        )));
    }
    Ok(records)
}

/// The model file `path` read with `parse`, for `cmd`'s `--model`: a file
/// that cannot be read or parsed is bad input naming it.
fn model_file<T>(
    cmd: &str,
    path: &std::path::Path,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<T, CliError> {
    let bad = |e: String| CliError::Usage(format!("{cmd}: --model {}: {e}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    parse(&text).map_err(bad)
}

fn train(a: TrainArgs) -> Result<(), CliError> {
    if a.holdout < 2 {
        return Err(CliError::Usage("--holdout must be at least 2".into()));
    }
    let records = read_records("golad train", &a.records)?;
    let mut samples: Vec<Sample> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        samples.extend(samples_of(i, r, 1).map_err(CliError::Usage)?);
    }
    for name in &a.without {
        let i = NAMES
            .iter()
            .position(|n| n == name)
            .filter(|&i| i > 0)
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--without {name}: not an input (inputs: {})",
                    NAMES[1..].join(", ")
                ))
            })?;
        for s in &mut samples {
            s.x[i] = 0.0;
        }
    }
    let (test, fit_on): (Vec<Sample>, Vec<Sample>) =
        samples.into_iter().partition(|s| s.game % a.holdout == 0);
    if fit_on.is_empty() {
        return Err(CliError::Usage(format!(
            "golad train: no position to fit on: {} game(s) in the records, those whose \
             index is a multiple of --holdout {} held out",
            records.len(),
            a.holdout
        )));
    }
    let model = match &a.model {
        Some(path) => model_file("golad train", path, ValueModel::from_json)?,
        None => {
            let about = format!(
                "fitted by `ladderbot-lab golad train --records {} --holdout {} --l2 {}{}` on {} positions of {} games",
                paths(&a.records),
                a.holdout,
                a.l2,
                a.without
                    .iter()
                    .map(|w| format!(" --without {w}"))
                    .collect::<String>(),
                fit_on.len(),
                records.len() - records.len().div_ceil(a.holdout),
            );
            fit(&fit_on, a.l2, &about).map_err(CliError::Runtime)?
        }
    };
    let (tw, tl) = fit_territory(&fit_on, a.l2);
    let held: Vec<&Sample> = test.iter().collect();
    let rows = [
        (
            "learned",
            model_accuracy(&held, model.heads().0, model.heads().1, |s| s.x),
        ),
        (
            "territory_calibrated",
            model_accuracy(&held, &tw, &tl, territory_inputs),
        ),
        ("territory_share", accuracy(&held, |s| s.territory())),
    ];
    let held_games = records.len().div_ceil(a.holdout);
    if let Some(out) = &a.out {
        std::fs::write(out, model.to_json() + "\n").map_err(|e| runtime("train", e))?;
    }
    if a.json {
        let mut report = serde_json::json!({
            "fitted_on": fit_on.len(),
            "held_out": held.len(),
            "held_out_games": held_games,
        });
        for (name, acc) in &rows {
            report[*name] = serde_json::to_value(acc).unwrap_or_default();
        }
        say!("{report}");
        return Ok(());
    }
    say!(
        "{} positions fitted on ({}); {} positions of {held_games} games held out",
        fit_on.len(),
        if a.model.is_some() {
            "not fitted: --model scored"
        } else {
            "the model fitted"
        },
        held.len()
    );
    say!("value on the held-out positions   brier  winner right  log loss win  log loss loss");
    let loss = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.4}"));
    for (name, acc) in &rows {
        let name = match *name {
            "learned" => "learned model",
            "territory_calibrated" => "territory share, calibrated",
            _ => "territory share",
        };
        say!(
            "{name:<31} {:>7.4} {:>12.1}% {:>13} {:>14}",
            acc.brier,
            100.0 * acc.winner_right,
            loss(acc.log_loss_win),
            loss(acc.log_loss_loss)
        );
    }
    if let Some(out) = &a.out {
        say!("written: {}", out.display());
    }
    Ok(())
}

/// The candidates' reach at one depth, summed over positions.
#[derive(Default)]
struct ReachSum {
    positions: usize,
    generated: usize,
    searched: usize,
    played_generated: usize,
    played_searched: usize,
    best_reached: usize,
    lost: f64,
    lost_much: usize,
}

/// A value lost above this counts as a position where the candidates miss
/// a clearly better move.
const MUCH: f64 = 0.02;

impl ReachSum {
    fn add(&mut self, r: &Reach) {
        self.positions += 1;
        self.generated += r.generated;
        self.searched += r.searched;
        self.played_generated += usize::from(r.played_generated);
        self.played_searched += usize::from(r.played_searched);
        self.best_reached += usize::from(r.best_reached());
        self.lost += r.lost();
        self.lost_much += usize::from(r.lost() > MUCH);
    }

    fn json(&self) -> serde_json::Value {
        let n = self.positions.max(1) as f64;
        serde_json::json!({
            "positions": self.positions,
            "generated_mean": self.generated as f64 / n,
            "searched_mean": self.searched as f64 / n,
            "played_generated": self.played_generated as f64 / n,
            "played_searched": self.played_searched as f64 / n,
            "wide_best_reached": self.best_reached as f64 / n,
            "value_lost_mean": self.lost / n,
            "value_lost_over_0.02": self.lost_much as f64 / n,
        })
    }
}

/// The depths measured: the root, the replies to the root's moves, deeper.
const DEPTHS: [(usize, &str); 3] = [(0, "root"), (1, "reply"), (2, "deeper")];

/// The positions of recorded games: each with the move played there.
struct Positions {
    positions: Vec<(GolState, Move)>,
    /// Games read (those `take` and `player` chose).
    games: usize,
    /// Moves of the chosen player that were not legal (acted as passes).
    skipped: usize,
}

/// The positions of the games whose index `take` accepts where a player
/// whose name contains `player` (any, without it) moved, every `every`th
/// of them, replayed from the records (an unreadable or illegal move acts
/// as a pass, the engine's rule).
fn positions_of(
    records: &[GameRecord],
    take: impl Fn(usize) -> bool,
    player: Option<&str>,
    every: usize,
) -> Result<Positions, CliError> {
    let (mut chosen, mut skipped, mut games) = (0usize, 0usize, 0usize);
    let mut positions: Vec<(GolState, Move)> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if !take(i) {
            continue;
        }
        if let Some(p) = player {
            if !r.players.iter().any(|n| n.contains(p)) {
                continue;
            }
        }
        games += 1;
        train::replay(i, r, |s, mv, _| {
            let mover = r.players.get(s.to_move).map(String::as_str);
            if !player.is_none_or(|p| mover.is_some_and(|n| n.contains(p))) {
                return;
            }
            match mv {
                Some(m) => {
                    if chosen % every == 0 {
                        positions.push((*s, m));
                    }
                    chosen += 1;
                }
                None => skipped += 1,
            }
        })
        .map_err(CliError::Usage)?;
    }
    Ok(Positions {
        positions,
        games,
        skipped,
    })
}

/// `golad candidates`: the table of [`ladderbot::games::golad::reach`].
fn candidates(a: CandidatesArgs) -> Result<(), CliError> {
    use ladderbot::games::golad::best::{leaf_value, BestConfig};
    use reach::{reach, wide, Wide};
    if a.every == 0 || a.holdout == 0 || a.jobs == 0 {
        return Err(CliError::Usage(
            "--every, --holdout and --jobs must be at least 1".into(),
        ));
    }
    let params = ladderbot::cli::params_from(&a.params);
    let base = match a.agent.as_str() {
        "ab-v1" => BestConfig::v1(),
        "ab-v2" => BestConfig::v2(),
        _ => BestConfig::default(),
    };
    let cfg = BestConfig::from_params_over(&params, base, &a.agent).map_err(CliError::Usage)?;
    let records = read_records("golad candidates", &a.games.records)?;
    let Positions {
        positions,
        games,
        skipped,
    } = positions_of(
        &records,
        |i| i % a.holdout == 0,
        a.games.player.as_deref(),
        a.every,
    )?;
    if positions.is_empty() {
        return Err(CliError::Usage(match &a.games.player {
            Some(p) => format!("no position of a player named like '{p}' in the records"),
            None => "no position in the records".into(),
        }));
    }
    let started = std::time::Instant::now();
    let eval = cfg.territory();
    let measured: Vec<(Wide, [Option<Reach>; 3])> = parallel(positions.len(), a.jobs, |i| {
        let (s, m) = positions[i];
        let Some(w) = wide(&s, m, |p, x| leaf_value(&eval, &cfg, p, x)) else {
            return Ok(None);
        };
        let at = DEPTHS.map(|(ply, _)| {
            let (cands, searched) = cfg.candidates_at(&eval, &s, ply);
            reach(&w, &cands, searched)
        });
        Ok(Some((w, at)))
    })?
    .into_iter()
    .flatten()
    .collect();
    let secs = started.elapsed().as_secs_f64();
    let mut sums: [ReachSum; 3] = Default::default();
    let mut ranks: Vec<usize> = Vec::new();
    let mut wide_moves = 0usize;
    let mut played_best = 0usize;
    for (w, at) in &measured {
        ranks.push(w.played_rank);
        wide_moves += w.moves;
        played_best += usize::from(w.played_rank == 1);
        for (sum, r) in sums.iter_mut().zip(at) {
            if let Some(r) = r {
                sum.add(r);
            }
        }
    }
    ranks.sort_unstable();
    let n = measured.len().max(1);
    let median_rank = ranks.get(ranks.len() / 2).copied().unwrap_or(0);
    let report = serde_json::json!({
        "agent": a.agent,
        "params": serde_json::Value::Object(params.into_iter().collect()),
        "player": a.games.player,
        "games": games,
        "positions": measured.len(),
        "skipped_illegal": skipped,
        "wide_moves_mean": wide_moves as f64 / n as f64,
        "played_wide_rank_median": median_rank,
        "played_is_wide_best": played_best as f64 / n as f64,
        "depths": DEPTHS.iter().zip(&sums).map(|((_, name), s)| (name.to_string(), s.json())).collect::<serde_json::Map<_, _>>(),
        "seconds": secs,
    });
    if a.json {
        say!("{report}");
        return Ok(());
    }
    say!(
        "{} positions of {} in {} games ({} moves not legal, skipped); wide scoring {:.0} moves a position, {:.1} s",
        measured.len(),
        a.games.player.as_deref().unwrap_or("both sides"),
        games,
        skipped,
        wide_moves as f64 / n as f64,
        secs
    );
    say!(
        "the played move: the wide scoring's best in {:.1}%, its median rank {}",
        100.0 * played_best as f64 / n as f64,
        median_rank
    );
    say!("depth   candidates  searched  played in cands  played searched  wide best reached  value lost  lost > {MUCH}");
    for ((_, name), s) in DEPTHS.iter().zip(&sums) {
        let p = s.positions.max(1) as f64;
        say!(
            "{name:<7} {:>10.1} {:>9.1} {:>15.1}% {:>15.1}% {:>17.1}% {:>11.4} {:>9.1}%",
            s.generated as f64 / p,
            s.searched as f64 / p,
            100.0 * s.played_generated as f64 / p,
            100.0 * s.played_searched as f64 / p,
            100.0 * s.best_reached as f64 / p,
            s.lost / p,
            100.0 * s.lost_much as f64 / p,
        );
    }
    Ok(())
}

/// The median of `v` (the upper one of an even count); `None` when empty.
fn median(mut v: Vec<u32>) -> Option<u32> {
    v.sort_unstable();
    v.get(v.len() / 2).copied()
}

/// `golad draws`: the table of [`draws`].
fn draws_table(a: DrawsArgs) -> Result<(), CliError> {
    use draws::{cells_at, classify, in_reach, leads, trace, Class};
    use ladderbot::model::Outcome;
    let records = read_records("golad draws", &a.records)?;
    let (mut wins, mut losses) = (Vec::new(), Vec::new());
    let mut draws: Vec<(String, Class, draws::Trace, usize)> = Vec::new();
    let mut illegal = 0;
    for (i, r) in records.iter().enumerate() {
        let Some(ours) = r.players.iter().position(|n| n.contains(&a.player)) else {
            return Err(CliError::Usage(format!(
                "golad draws: game {i} ({}): no player named like '{}' (players: {})",
                r.id,
                a.player,
                r.players.join(", ")
            )));
        };
        let t = trace(i, r).map_err(|e| CliError::Usage(format!("golad draws: {e}")))?;
        illegal += t.illegal;
        let rounds = t.cells.len() as u32;
        match t.outcome {
            Outcome::Win(w) if w == ours => wins.push(rounds),
            Outcome::Win(_) => losses.push(rounds),
            Outcome::Draw => {
                if let Some(c) = classify(&t, ours) {
                    draws.push((r.id.clone(), c, t, ours));
                }
            }
        }
    }
    let at = |round: u32, class: Option<Class>| {
        let of: Vec<(u32, u32)> = draws
            .iter()
            .filter(|d| class.is_none_or(|c| d.1 == c))
            .filter_map(|d| cells_at(&d.2, d.3, round))
            .collect();
        let led = of.iter().filter(|(o, t)| leads(*o, *t)).count();
        let behind = of.iter().filter(|(o, t)| leads(*t, *o)).count();
        serde_json::json!({
            "ours_median": median(of.iter().map(|c| c.0).collect()),
            "theirs_median": median(of.iter().map(|c| c.1).collect()),
            "we_led": led,
            "they_led": behind,
        })
    };
    const ROUNDS: [u32; 4] = [25, 50, 75, 100];
    let classes: Vec<serde_json::Value> = Class::ALL
        .iter()
        .map(|&c| {
            let of: Vec<_> = draws.iter().filter(|d| d.1 == c).collect();
            let reach: Vec<u32> = of
                .iter()
                .filter_map(|d| {
                    let leader = match c {
                        Class::OursInReach => d.3,
                        Class::TheirsInReach => 1 - d.3,
                        _ => return None,
                    };
                    in_reach(&d.2, leader)
                })
                .collect();
            serde_json::json!({
                "class": c.name(),
                "about": c.about(),
                "draws": of.len(),
                "first_round_in_reach_median": median(reach),
                "rounds": ROUNDS.iter().map(|&r| (r.to_string(), at(r, Some(c)))).collect::<serde_json::Map<_, _>>(),
            })
        })
        .collect();
    let list: Vec<serde_json::Value> = draws
        .iter()
        .map(|(id, c, t, ours)| {
            serde_json::json!({
                "id": id,
                "class": c.name(),
                "cells": ROUNDS.iter().map(|&r| cells_at(t, *ours, r).map(|(o, x)| [o, x])).collect::<Vec<_>>(),
            })
        })
        .collect();
    let report = serde_json::json!({
        "player": a.player,
        "games": records.len(),
        "wins": wins.len(),
        "draws": draws.len(),
        "losses": losses.len(),
        "win_round_median": median(wins),
        "loss_round_median": median(losses),
        "illegal_moves": illegal,
        "all_draws": ROUNDS.iter().map(|&r| (r.to_string(), at(r, None))).collect::<serde_json::Map<_, _>>(),
        "classes": classes,
        "list": if a.list { serde_json::Value::Array(list) } else { serde_json::Value::Null },
    });
    if a.json {
        say!("{report}");
        return Ok(());
    }
    let num = |v: &serde_json::Value| v.as_u64().map_or("-".into(), |n| n.to_string());
    let n = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
    say!(
        "{} games of '{}': {}-{}-{} (wins-draws-losses); median round of the end: wins {}, losses {}; {} moves not legal (passes)",
        records.len(),
        a.player,
        report["wins"],
        report["draws"],
        report["losses"],
        num(&report["win_round_median"]),
        num(&report["loss_round_median"]),
        illegal
    );
    say!("cells of the draws, median ours / theirs, and in how many draws we led / they led (1.5x and 3 more):");
    say!("round   ours  theirs  we led  they led");
    for r in ROUNDS {
        let v = &report["all_draws"][r.to_string()];
        say!(
            "{r:>5} {:>6} {:>7} {:>7} {:>9}",
            num(&v["ours_median"]),
            num(&v["theirs_median"]),
            n(&v["we_led"]),
            n(&v["they_led"])
        );
    }
    say!("by class: cells ours/theirs (medians) at rounds 50, 75 and 100; in how many we/they led at 50 and 75");
    say!("class                      draws  first round in reach    at 50   at 75  at 100  led at 50  at 75");
    for c in &classes {
        let r = |k: &str| &c["rounds"][k];
        let cells = |k: &str| {
            format!(
                "{}/{}",
                num(&r(k)["ours_median"]),
                num(&r(k)["theirs_median"])
            )
        };
        let led = |k: &str| format!("{}/{}", n(&r(k)["we_led"]), n(&r(k)["they_led"]));
        say!(
            "{:<26} {:>5} {:>21}  {:>7} {:>7} {:>7}  {:>9} {:>6}",
            c["class"].as_str().unwrap_or(""),
            n(&c["draws"]),
            num(&c["first_round_in_reach_median"]),
            cells("50"),
            cells("75"),
            cells("100"),
            led("50"),
            led("75")
        );
    }
    for c in Class::ALL {
        say!("  {}: {}", c.name(), c.about());
    }
    if a.list {
        say!(
            "draw                 class                      cells ours/theirs at 25, 50, 75, 100"
        );
        for (id, c, t, ours) in &draws {
            let cells: Vec<String> = ROUNDS
                .iter()
                .map(|&r| cells_at(t, *ours, r).map_or("-".into(), |(o, x)| format!("{o}/{x}")))
                .collect();
            say!("{id:<20} {:<26} {}", c.name(), cells.join("  "));
        }
    }
    Ok(())
}

/// An agent's parameters for `golad convert`: as given, `threads` 1 unless
/// given (one thread keeps a seed's games the same), for agents that take it.
fn convert_params(agent: &str, given: &[(String, serde_json::Value)]) -> AgentParams {
    let mut p = ladderbot::cli::params_from(given);
    if matches!(agent, "best" | "ab-v1" | "ab-v2") && !p.contains_key("threads") {
        p.insert("threads".into(), 1.into());
    }
    p
}

/// `golad convert`: the table of [`convert`].
fn convert_table(a: ConvertArgs) -> Result<(), CliError> {
    use convert::{play_out, starts_of, Lead, Start};
    use ladderbot::model::Outcome;
    if a.holdout < 2 || a.jobs == 0 || a.evals == 0 || a.rounds.is_empty() {
        return Err(CliError::Usage(
            "golad convert: --holdout must be at least 2, --jobs and --evals at least 1, --rounds not empty".into(),
        ));
    }
    let (ours_p, theirs_p) = (
        convert_params(&a.agent, &a.params),
        convert_params(&a.vs, &a.vs_params),
    );
    for (name, p) in [(&a.agent, &ours_p), (&a.vs, &theirs_p)] {
        ladderbot::games::golad::agents::build(name, p, 0)
            .map_err(|e| CliError::Usage(format!("golad convert: {name}: {e}")))?;
    }
    let records = read_records("golad convert", &a.records)?;
    let mut starts: Vec<Start> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let held = i % a.holdout == 0;
        let wanted = match a.set.as_str() {
            "held-out" => held,
            "fit" => !held,
            _ => true,
        };
        if !wanted {
            continue;
        }
        let Some(ours) = r.players.iter().position(|n| n.contains(&a.player)) else {
            return Err(CliError::Usage(format!(
                "golad convert: game {i} ({}): no player named like '{}'",
                r.id, a.player
            )));
        };
        if !a.all_games {
            let t =
                draws::trace(i, r).map_err(|e| CliError::Usage(format!("golad convert: {e}")))?;
            if t.outcome != Outcome::Draw {
                continue;
            }
        }
        starts.extend(
            starts_of(i, r, ours, &a.rounds)
                .map_err(|e| CliError::Usage(format!("golad convert: {e}")))?,
        );
    }
    if starts.is_empty() {
        return Err(CliError::Usage(
            "golad convert: no position: no game of the chosen set reached the rounds asked".into(),
        ));
    }
    let started = std::time::Instant::now();
    let played = parallel(starts.len(), a.jobs, |i| {
        play_out(
            &starts[i],
            (&a.agent, &ours_p),
            (&a.vs, &theirs_p),
            (a.evals, a.vs_evals.unwrap_or(a.evals)),
            a.seed.wrapping_add(i as u64),
        )
    })?;
    let secs = started.elapsed().as_secs_f64();
    let row = |keep: &dyn Fn(&Start) -> bool| {
        let of: Vec<_> = starts
            .iter()
            .zip(&played)
            .filter(|(s, _)| keep(s))
            .map(|(_, p)| p)
            .collect();
        let won: Vec<u32> = of.iter().filter(|p| p.won).map(|p| p.rounds).collect();
        let lost = of.iter().filter(|p| p.lost).count();
        serde_json::json!({
            "positions": of.len(),
            "converted": won.len(),
            "lost": lost,
            "share_converted": if of.is_empty() { serde_json::Value::Null } else { (won.len() as f64 / of.len() as f64).into() },
            "rounds_to_convert_median": median(won),
        })
    };
    let by_round: serde_json::Map<_, _> = a
        .rounds
        .iter()
        .map(|&r| (r.to_string(), row(&|s: &Start| s.round == r)))
        .collect();
    let by_lead: serde_json::Map<_, _> = Lead::ALL
        .iter()
        .map(|&l| (l.name().to_string(), row(&|s: &Start| Lead::of(s) == l)))
        .collect();
    let report = serde_json::json!({
        "agent": a.agent,
        "params": serde_json::Value::Object(ours_p.into_iter().collect()),
        "vs": a.vs,
        "vs_params": serde_json::Value::Object(theirs_p.into_iter().collect()),
        "evals": a.evals,
        "vs_evals": a.vs_evals.unwrap_or(a.evals),
        "seed": a.seed,
        "set": a.set,
        "games": records.len(),
        "all": row(&|_| true),
        "by_round": by_round,
        "by_lead": by_lead,
        "seconds": secs,
    });
    if a.json {
        say!("{report}");
        return Ok(());
    }
    let num = |v: &serde_json::Value| v.as_u64().map_or("-".into(), |n| n.to_string());
    let line = |name: &str, v: &serde_json::Value| {
        say!(
            "{name:<10} {:>9} {:>9} {:>8.1}% {:>6} {:>27}",
            num(&v["positions"]),
            num(&v["converted"]),
            100.0 * v["share_converted"].as_f64().unwrap_or(0.0),
            num(&v["lost"]),
            num(&v["rounds_to_convert_median"])
        );
    };
    say!(
        "{} ({} evaluations a move) on the seat of '{}' against {} ({}): {} positions of the {} set, {:.1} s",
        a.agent,
        a.evals,
        a.player,
        a.vs,
        a.vs_evals.unwrap_or(a.evals),
        report["all"]["positions"],
        a.set,
        secs
    );
    say!("from       positions converted    share   lost  rounds to convert (median)");
    for r in &a.rounds {
        line(&format!("round {r}"), &report["by_round"][r.to_string()]);
    }
    for l in Lead::ALL {
        line(l.name(), &report["by_lead"][l.name()]);
    }
    line("all", &report["all"]);
    Ok(())
}
