//! `ladderbot-lab geister beliefs`: fits the learned Geister belief model on
//! game records and scores belief sources on held-out records.

use crate::say;
use std::path::PathBuf;

use clap::Args;

use super::fit::{score_game, without_features, Scores};
use ladderbot::cli::CliError;
use ladderbot::games::geister::best::learned::{self, Adaptive, BeliefModel, Sample};
use ladderbot::games::geister::game::record_setups_and_moves;
use ladderbot::games::geister::{Move, Setup};

#[derive(Debug, Args)]
pub struct GeisterBeliefsArgs {
    /// Records to fit on (JSON lines; repeat the flag for more files).
    #[arg(long, value_name = "FILE.jsonl")]
    pub train: Vec<PathBuf>,
    /// Records to score the belief sources on (default: the --train files).
    #[arg(long, value_name = "FILE.jsonl")]
    pub test: Vec<PathBuf>,
    /// Learn and score only the colours of players whose record name
    /// contains this text (e.g. `cmd(` for external programs; `a|b` for
    /// either); default all.
    #[arg(long, value_name = "TEXT")]
    pub colours_of: Option<String>,
    /// Where to write the fitted model (JSON); without it nothing is written.
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// L2 penalty on the weights (the bias aside).
    #[arg(long, default_value_t = 0.01)]
    pub l2: f64,
    /// Fit without the features whose names start with PREFIX (their
    /// weights stay 0), e.g. `slot_` so that the model does not learn the
    /// training opponents' setups (repeatable).
    #[arg(long, value_name = "PREFIX")]
    pub without: Vec<String>,
    /// A model file to score instead of the shipped one (when not fitting).
    #[arg(long, value_name = "FILE.json")]
    pub model: Option<PathBuf>,
    /// Inverse temperature of the paper's blue-likelihood table (`dmc-v1` plays it at 0.15).
    #[arg(long, default_value_t = 0.15)]
    pub seed_beta: f64,
    /// Score the learned source as it would play a session: each --test file
    /// in order, the model refitted after every game toward the starting
    /// model with a prior worth this many samples (the `adapt` parameter of
    /// `best`).
    #[arg(long, value_name = "SAMPLES")]
    pub adapt: Option<f64>,
    /// Leave one out: each --train file in turn is held out, the model
    /// fitted on the others (and on every --keep file) and scored on it,
    /// beside uniform, the paper's table and the shipped model (or
    /// --model); the worst held-out file decides (see --l2-choices).
    #[arg(long)]
    pub hold_out: bool,
    /// With --hold-out: records always fitted on and never held out (our
    /// own agents' games, say).
    #[arg(long, value_name = "FILE.jsonl")]
    pub keep: Vec<PathBuf>,
    /// With --hold-out: L2 penalties to try (comma-separated); the one
    /// whose worst held-out log loss is lowest is chosen, and --out gets
    /// the model fitted on all the files with it.
    #[arg(long, value_name = "L2,L2,...", value_delimiter = ',')]
    pub l2_choices: Vec<f64>,
    /// Print the scores as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

/// Games of a session after which `--adapt` also reports the scores apart.
const ADAPTED_AFTER: usize = 10;

/// A game read from a record: setups, moves, and the seats whose colours
/// are to be predicted.
struct Game {
    setups: [Setup; 2],
    moves: Vec<Move>,
    targets: Vec<usize>,
}

fn load(files: &[PathBuf], colours_of: Option<&str>) -> Result<Vec<Game>, CliError> {
    let mut games = Vec::new();
    // A missing, empty or bad file is bad input (exit 2), as everywhere.
    let read = match files {
        [] => Default::default(),
        _ => ladderbot::cli::read_games("geister beliefs", files)?,
    };
    for rec in &read.records {
        let r = &rec.record;
        if r.game != "geister" {
            return Err(CliError::Usage(format!(
                "geister beliefs: {}: a {} game, not geister",
                rec.at(),
                r.game
            )));
        }
        let (setups, moves) = record_setups_and_moves(&r.start, &r.moves)
            .map_err(|e| CliError::Usage(format!("geister beliefs: {}: {e}", rec.at())))?;
        let targets = (0..2)
            .filter(|&s| {
                colours_of.is_none_or(|t| t.split('|').any(|alt| r.players[s].contains(alt)))
            })
            .collect();
        games.push(Game {
            setups,
            moves,
            targets,
        });
    }
    Ok(games)
}

pub fn run(args: GeisterBeliefsArgs) -> Result<(), CliError> {
    if args.hold_out {
        return hold_out(&args);
    }
    if !args.keep.is_empty() || !args.l2_choices.is_empty() {
        return Err(CliError::Usage(
            "geister beliefs: --keep and --l2-choices go with --hold-out".into(),
        ));
    }
    if args.train.is_empty() && args.test.is_empty() {
        return Err(CliError::Usage(
            "geister beliefs: give --train and/or --test records".into(),
        ));
    }
    if args.out.is_some() && args.train.is_empty() {
        return Err(CliError::Usage(
            "geister beliefs: --out needs --train".into(),
        ));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(CliError::Usage("geister beliefs: --l2 must be >= 0".into()));
    }
    let colours_of = args.colours_of.as_deref();
    let model = if !args.train.is_empty() {
        let games = load(&args.train, colours_of)?;
        let mut samples: Vec<Sample> = Vec::new();
        for g in &games {
            for &t in &g.targets {
                samples.extend(learned::samples_from_game(g.setups, &g.moves, 1 - t));
            }
        }
        if samples.is_empty() {
            return Err(CliError::Runtime(
                "geister beliefs: the training records give no samples".into(),
            ));
        }
        let dropped = without_features(&mut samples, &args.without)
            .map_err(|e| CliError::Usage(format!("geister beliefs: {e}")))?;
        let m = learned::fit(&samples, args.l2);
        if !dropped.is_empty() {
            eprintln!("fitted without {}", dropped.join(", "));
        }
        eprintln!(
            "fitted on {} games, {} samples: log loss {:.4} (all-zero model {:.4})",
            games.len(),
            samples.len(),
            learned::log_loss(&m, &samples),
            std::f64::consts::LN_2
        );
        if let Some(out) = &args.out {
            let about = format!(
                "ladderbot-lab geister beliefs{} --l2 {}{}{}: {} games, {} samples",
                repeat_flag("--train", &args.train),
                args.l2,
                repeat_flag("--without", &args.without),
                colours_of
                    .map(|c| format!(" --colours-of '{c}'"))
                    .unwrap_or_default(),
                games.len(),
                samples.len()
            );
            std::fs::write(out, m.to_json(&about)).map_err(|e| {
                CliError::Runtime(format!("geister beliefs: {}: {e}", out.display()))
            })?;
        }
        m
    } else {
        model_given(args.model.as_deref())?
    };
    let test = if args.test.is_empty() {
        &args.train
    } else {
        &args.test
    };
    if args.adapt.is_some_and(|a| !(a >= 0.0 && a.is_finite())) {
        return Err(CliError::Usage(
            "geister beliefs: --adapt must be >= 0".into(),
        ));
    }
    let mut total = Scores::default();
    let mut later = Scores::default();
    let mut count = 0;
    for file in test {
        let games = load(std::slice::from_ref(file), colours_of)?;
        count += games.len();
        let mut adaptive = args.adapt.map(|a| Adaptive::new(model.clone(), a));
        for (i, g) in games.iter().enumerate() {
            let current = adaptive.as_ref().map_or(&model, |a| a.model()).clone();
            let mut learnt = Vec::new();
            for &t in &g.targets {
                let sc = score_game(g.setups, &g.moves, 1 - t, args.seed_beta, &current);
                total.add(&sc);
                if i >= ADAPTED_AFTER {
                    later.add(&sc);
                }
                if adaptive.is_some() {
                    learnt.extend(learned::samples_from_game(g.setups, &g.moves, 1 - t));
                }
            }
            if let Some(a) = adaptive.as_mut() {
                a.learn(&learnt);
            }
        }
    }
    let games = count;
    let n = total.samples.max(1) as f64;
    let turns = total.turns.max(1) as f64;
    let names = ["uniform", "seed", "learned"];
    if args.json {
        let per: serde_json::Map<String, serde_json::Value> = names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                (
                    name.to_string(),
                    serde_json::json!({
                        "log_loss": total.loss[k] / n,
                        "reddest_is_red": total.reddest_right[k] as f64 / turns,
                    }),
                )
            })
            .collect();
        say!(
            "{}",
            serde_json::json!({
                "games": games,
                "samples": total.samples,
                "turns": total.turns,
                "sources": per,
            })
        );
    } else {
        say!(
            "scored on {} games: {} pieces at {} turns",
            games,
            total.samples,
            total.turns
        );
        for (k, name) in names.iter().enumerate() {
            say!(
                "{name:>8}: log loss {:.4}, the reddest-looking piece is red {:.1}%",
                total.loss[k] / n,
                100.0 * total.reddest_right[k] as f64 / turns
            );
        }
        if args.adapt.is_some() && later.samples > 0 {
            say!(
                "after the first {ADAPTED_AFTER} games of each session: learned log loss {:.4}, \
                 the reddest-looking piece is red {:.1}% (seed {:.4}, {:.1}%)",
                later.loss[2] / later.samples as f64,
                100.0 * later.reddest_right[2] as f64 / later.turns.max(1) as f64,
                later.loss[1] / later.samples as f64,
                100.0 * later.reddest_right[1] as f64 / later.turns.max(1) as f64,
            );
        }
    }
    Ok(())
}

/// The `--model` file's model, or the shipped one without it.
fn model_given(path: Option<&std::path::Path>) -> Result<BeliefModel, CliError> {
    let Some(path) = path else {
        return Ok(BeliefModel::shipped().clone());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Usage(format!("geister beliefs: {}: {e}", path.display())))?;
    BeliefModel::from_json(&text).map_err(CliError::Usage)
}

/// ` FLAG item` for each of `items`: how a model file says it was made.
fn repeat_flag<T: AsRef<std::ffi::OsStr>>(flag: &str, items: &[T]) -> String {
    items
        .iter()
        .map(|i| format!(" {flag} {}", std::path::Path::new(i).display()))
        .collect()
}

/// Every target seat's samples of `games`, the features `without` dropped.
fn samples_of(games: &[Game], without: &[String]) -> Result<Vec<Sample>, CliError> {
    let mut samples: Vec<Sample> = Vec::new();
    for g in games {
        for &t in &g.targets {
            samples.extend(learned::samples_from_game(g.setups, &g.moves, 1 - t));
        }
    }
    without_features(&mut samples, without)
        .map_err(|e| CliError::Usage(format!("geister beliefs: {e}")))?;
    Ok(samples)
}

/// The three sources' scores (uniform, seed, `model`) on `games`.
fn scores_of(games: &[Game], model: &BeliefModel, seed_beta: f64) -> Scores {
    let mut total = Scores::default();
    for g in games {
        for &t in &g.targets {
            total.add(&score_game(g.setups, &g.moves, 1 - t, seed_beta, model));
        }
    }
    total
}

/// One held-out file's scores: its pieces, the log loss of uniform, the
/// seed's table and the current model, and of the fit without it at each
/// L2 choice.
struct HeldOut {
    name: String,
    pieces: usize,
    base: [f64; 3],
    fitted: Vec<f64>,
}

/// `--hold-out`: leave each --train file out in turn (see the flag).
fn hold_out(args: &GeisterBeliefsArgs) -> Result<(), CliError> {
    if args.train.len() < 2 {
        return Err(CliError::Usage(
            "geister beliefs: --hold-out needs two --train files or more".into(),
        ));
    }
    if !args.test.is_empty() || args.adapt.is_some() {
        return Err(CliError::Usage(
            "geister beliefs: --hold-out scores on the --train files themselves; \
             no --test or --adapt"
                .into(),
        ));
    }
    let choices = if args.l2_choices.is_empty() {
        vec![args.l2]
    } else {
        args.l2_choices.clone()
    };
    if choices.iter().any(|l| !(*l >= 0.0 && l.is_finite())) {
        return Err(CliError::Usage(
            "geister beliefs: every L2 must be >= 0".into(),
        ));
    }
    let current = model_given(args.model.as_deref())?;
    // Training samples: every seat of every file; scoring: the seats
    // --colours-of names.
    let colours_of = args.colours_of.as_deref();
    let kept = samples_of(&load(&args.keep, None)?, &args.without)?;
    let mut held: Vec<(String, Vec<Sample>, Vec<Game>)> = Vec::new();
    for f in &args.train {
        let name = f
            .file_stem()
            .map_or_else(|| f.display().to_string(), |s| s.to_string_lossy().into());
        let fit_on = samples_of(&load(std::slice::from_ref(f), None)?, &args.without)?;
        let scored = load(std::slice::from_ref(f), colours_of)?;
        held.push((name, fit_on, scored));
    }
    let mut rows: Vec<HeldOut> = Vec::new();
    for (k, (name, _, scored)) in held.iter().enumerate() {
        let mut samples = kept.clone();
        for (j, (_, s, _)) in held.iter().enumerate() {
            if j != k {
                samples.extend_from_slice(s);
            }
        }
        let base = scores_of(scored, &current, args.seed_beta);
        let n = base.samples.max(1) as f64;
        let fitted: Vec<f64> = choices
            .iter()
            .map(|&l2| scores_of(scored, &learned::fit(&samples, l2), args.seed_beta).loss[2] / n)
            .collect();
        rows.push(HeldOut {
            name: name.clone(),
            pieces: base.samples,
            base: [base.loss[0] / n, base.loss[1] / n, base.loss[2] / n],
            fitted,
        });
    }
    let worst =
        |col: &dyn Fn(&HeldOut) -> f64| rows.iter().map(col).fold(f64::NEG_INFINITY, f64::max);
    let worst_fitted: Vec<f64> = (0..choices.len())
        .map(|c| worst(&|r| r.fitted[c]))
        .collect();
    let chosen = (0..choices.len())
        .min_by(|&a, &b| worst_fitted[a].total_cmp(&worst_fitted[b]))
        .unwrap_or(0);
    if let Some(out) = &args.out {
        let mut all = kept.clone();
        for (_, s, _) in &held {
            all.extend_from_slice(s);
        }
        let m = learned::fit(&all, choices[chosen]);
        let about = format!(
            "ladderbot-lab geister beliefs --hold-out{}{} --l2 {}{}: {} samples; \
             worst held-out log loss {:.4}",
            repeat_flag("--train", &args.train),
            repeat_flag("--keep", &args.keep),
            choices[chosen],
            repeat_flag("--without", &args.without),
            all.len(),
            worst_fitted[chosen]
        );
        std::fs::write(out, m.to_json(&about))
            .map_err(|e| CliError::Runtime(format!("geister beliefs: {}: {e}", out.display())))?;
    }
    if args.json {
        let per: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "held_out": r.name,
                    "pieces": r.pieces,
                    "uniform": r.base[0],
                    "seed": r.base[1],
                    "current": r.base[2],
                    "fitted": r.fitted,
                })
            })
            .collect();
        say!(
            "{}",
            serde_json::json!({
                "l2": choices,
                "rows": per,
                "worst_current": worst(&|r| r.base[2]),
                "worst_fitted": worst_fitted,
                "chosen_l2": choices[chosen],
            })
        );
    } else {
        let l2s: Vec<String> = choices.iter().map(|l| format!("fit l2 {l}")).collect();
        say!(
            "log loss per held-out file (lower is better): uniform | seed | current | {}",
            l2s.join(" | ")
        );
        for r in &rows {
            let f: Vec<String> = r.fitted.iter().map(|x| format!("{x:.4}")).collect();
            say!(
                "{:>24} ({} pieces): {:.4} | {:.4} | {:.4} | {}",
                r.name,
                r.pieces,
                r.base[0],
                r.base[1],
                r.base[2],
                f.join(" | ")
            );
        }
        let f: Vec<String> = worst_fitted.iter().map(|x| format!("{x:.4}")).collect();
        say!(
            "{:>24}: {:.4} | {:.4} | {:.4} | {}",
            "worst",
            worst(&|r| r.base[0]),
            worst(&|r| r.base[1]),
            worst(&|r| r.base[2]),
            f.join(" | ")
        );
        say!(
            "chosen: l2 {} (the lowest worst held-out log loss)",
            choices[chosen]
        );
    }
    Ok(())
}
