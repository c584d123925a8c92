//! `ladderbot golad-lab`: the learned value model of GOLAD's `best`
//! (issue 33): fit it on recorded games and report its accuracy on
//! held-out games beside the territory evaluation's.

use super::out::say;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::four3d_lab::{read_jsonl, runtime};
use super::CliError;
use crate::games::golad::train::{
    accuracy, fit, fit_territory, model_accuracy, samples_of, territory_inputs, GameRecord, Sample,
};
use crate::games::golad::value::{ValueModel, NAMES};

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
    /// Check a bot's answers to a recorded engine transcript on the rules: one legal move per
    /// `action move`, no `pass` (unless --allow-pass) and no forced pass in the bot's log.
    /// Exit 1 on any problem.
    CheckAnswers(CheckArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The transcript: a recorded one (`< ` engine lines, `> ` bot lines) or the engine's lines
    /// alone, as they were piped to the bot.
    #[arg(long, value_name = "FILE")]
    pub transcript: PathBuf,
    /// The bot's stdout: one answer a line.
    #[arg(long, value_name = "FILE")]
    pub answers: PathBuf,
    /// The bot's stderr: any forced pass it reports (the fallback when no searched move could
    /// be used) fails the check.
    #[arg(long, value_name = "FILE")]
    pub bot_log: Option<PathBuf>,
    /// Accept `pass` answers the log does not mark as forced (for an agent that may choose to pass).
    #[arg(long)]
    pub allow_pass: bool,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
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
}

pub fn run(args: GoladLabArgs) -> Result<(), CliError> {
    match args.command {
        LabCommand::Train(a) => train(a),
        LabCommand::CheckAnswers(a) => check_answers(a),
    }
}

fn read_text(path: &std::path::Path) -> Result<String, CliError> {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))
}

/// `golad-lab check-answers`: exit 0 when every request got a legal move.
fn check_answers(a: CheckArgs) -> Result<(), CliError> {
    use crate::platforms::riddles::check;
    let engine = check::engine_lines(&read_text(&a.transcript)?);
    let answers: Vec<String> = read_text(&a.answers)?.lines().map(str::to_string).collect();
    let log = a.bot_log.as_deref().map(read_text).transpose()?;
    let c = check::check_answers(&engine, &answers, log.as_deref(), a.allow_pass);
    if a.json {
        let line = serde_json::to_string(&c).map_err(|e| CliError::Runtime(e.to_string()))?;
        say!("{line}");
    } else {
        for p in &c.problems {
            say!("problem: {p}");
        }
        say!("{}", c.summary());
    }
    if c.ok() {
        Ok(())
    } else {
        Err(CliError::Runtime(format!(
            "{}: {} problem(s) in the answers",
            a.answers.display(),
            c.problems.len()
        )))
    }
}

fn train(a: TrainArgs) -> Result<(), CliError> {
    if a.holdout < 2 {
        return Err(CliError::Usage("--holdout must be at least 2".into()));
    }
    let mut records: Vec<GameRecord> = Vec::new();
    for path in &a.records {
        records.extend(read_jsonl::<GameRecord>(path)?);
    }
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
    let model = match &a.model {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| runtime("train", e))?;
            ValueModel::from_json(&text).map_err(CliError::Usage)?
        }
        None => {
            let about = format!(
                "fitted by `ladderbot golad-lab train --records {} --holdout {} --l2 {}{}` on {} positions of {} games",
                a.records
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
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
    let report = serde_json::json!({
        "fitted_on": fit_on.len(),
        "held_out": held.len(),
        "held_out_games": records.len().div_ceil(a.holdout),
        "learned": model_accuracy(&held, model.heads().0, model.heads().1, |s| s.x),
        "territory_calibrated": model_accuracy(&held, &tw, &tl, territory_inputs),
        "territory_share": accuracy(&held, |s| s.territory()),
    });
    if let Some(out) = &a.out {
        std::fs::write(out, model.to_json() + "\n").map_err(|e| runtime("train", e))?;
    }
    say!("{report}");
    Ok(())
}
