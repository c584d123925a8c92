//! `ladderbot golad-lab`: the learned value model of GOLAD's `best`
//! (issue 33): fit it on recorded games and report its accuracy on
//! held-out games beside the territory evaluation's.

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
    let LabCommand::Train(a) = args.command;
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
    println!("{report}");
    Ok(())
}
