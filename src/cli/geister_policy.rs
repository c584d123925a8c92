//! `ladderbot geister-policy`: fits the learned Geister move preferences
//! (the playout policy of `best`, [`prefs`]) on the moves a search agent
//! chose in recorded games, and scores models on held-out records.

use super::out::say;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::games::geister::best::prefs::{self, Prefs, FEATURES};
use crate::games::geister::game::record_setups_and_moves;
use crate::search::choice::Choice;

#[derive(Debug, Args)]
pub struct GeisterPolicyArgs {
    /// Records to fit on (JSON lines; repeat the flag for more files).
    #[arg(long, value_name = "FILE.jsonl")]
    pub train: Vec<PathBuf>,
    /// Records to score the models on (default: the --train files).
    #[arg(long, value_name = "FILE.jsonl")]
    pub test: Vec<PathBuf>,
    /// Learn only the moves of players whose record name contains this
    /// text (e.g. `best`), default every player's.
    #[arg(long, value_name = "TEXT")]
    pub moves_of: Option<String>,
    /// Where to write the fitted model (JSON); without it nothing is written.
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// L2 pull of the weights toward the hand-set playout weights.
    #[arg(long, default_value_t = 0.001)]
    pub l2: f64,
    /// A model file to score instead of the shipped one (when not fitting).
    #[arg(long, value_name = "FILE.json")]
    pub model: Option<PathBuf>,
    /// Print the scores as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

fn load(
    files: &[PathBuf],
    moves_of: Option<&str>,
) -> Result<(usize, Vec<Choice<FEATURES>>), CliError> {
    let mut games = 0;
    let mut out = Vec::new();
    // A missing, empty or bad file is bad input (exit 2), as everywhere.
    let read = super::read_games("geister-policy", files)?;
    for rec in &read.records {
        let r = &rec.record;
        if r.game != "geister" {
            return Err(CliError::Usage(format!(
                "geister-policy: {}: a {} game, not geister",
                rec.at(),
                r.game
            )));
        }
        let (setups, moves) = record_setups_and_moves(&r.start, &r.moves)
            .map_err(|e| CliError::Usage(format!("geister-policy: {}: {e}", rec.at())))?;
        let movers: Vec<usize> = (0..2)
            .filter(|&s| moves_of.is_none_or(|t| r.players.get(s).is_some_and(|p| p.contains(t))))
            .collect();
        out.extend(prefs::choices_from_game(setups, &moves, &movers));
        games += 1;
    }
    Ok((games, out))
}

pub fn run(args: GeisterPolicyArgs) -> Result<(), CliError> {
    if args.train.is_empty() && args.test.is_empty() {
        return Err(CliError::Usage(
            "geister-policy: give --train and/or --test records".into(),
        ));
    }
    if args.out.is_some() && args.train.is_empty() {
        return Err(CliError::Usage(
            "geister-policy: --out needs --train".into(),
        ));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(CliError::Usage("geister-policy: --l2 must be >= 0".into()));
    }
    let moves_of = args.moves_of.as_deref();
    let hand = Prefs::hand();
    let model = if !args.train.is_empty() {
        let (games, choices) = load(&args.train, moves_of)?;
        if choices.is_empty() {
            return Err(CliError::Runtime(
                "geister-policy: the training records give no decisions".into(),
            ));
        }
        let m = prefs::fit(&choices, &hand, args.l2);
        let (loss, top) = prefs::score(&m, &choices);
        eprintln!(
            "fitted on {games} games, {} decisions: log loss {loss:.4}, top move {:.1}%",
            choices.len(),
            top * 100.0
        );
        if let Some(out) = &args.out {
            let names: Vec<String> = args.train.iter().map(|p| p.display().to_string()).collect();
            let about = format!(
                "ladderbot geister-policy --train {} --l2 {}{}: {games} games, {} decisions",
                names.join(" --train "),
                args.l2,
                moves_of
                    .map(|c| format!(" --moves-of '{c}'"))
                    .unwrap_or_default(),
                choices.len()
            );
            std::fs::write(out, m.to_json(&about)).map_err(|e| {
                CliError::Runtime(format!("geister-policy: {}: {e}", out.display()))
            })?;
        }
        m
    } else if let Some(path) = &args.model {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Usage(format!("geister-policy: {}: {e}", path.display())))?;
        Prefs::from_json(&text).map_err(CliError::Usage)?
    } else {
        Prefs::shipped().clone()
    };
    let test = if args.test.is_empty() {
        &args.train
    } else {
        &args.test
    };
    let (games, choices) = load(test, moves_of)?;
    let uniform = Prefs::new([0.0; FEATURES]);
    let rows = [("uniform", &uniform), ("hand", &hand), ("model", &model)];
    let scored: Vec<(&str, f64, f64)> = rows
        .iter()
        .map(|(name, m)| {
            let (loss, top) = prefs::score(m, &choices);
            (*name, loss, top)
        })
        .collect();
    if args.json {
        let per: serde_json::Map<String, serde_json::Value> = scored
            .iter()
            .map(|(name, loss, top)| {
                (
                    name.to_string(),
                    serde_json::json!({ "log_loss": loss, "top_move": top }),
                )
            })
            .collect();
        let weights: serde_json::Map<String, serde_json::Value> = prefs::NAMES
            .iter()
            .zip(model.weights)
            .map(|(n, w)| (n.to_string(), serde_json::json!(w)))
            .collect();
        say!(
            "{}",
            serde_json::json!({
                "games": games,
                "decisions": choices.len(),
                "models": per,
                "weights": weights,
            })
        );
    } else {
        say!("{games} games, {} decisions", choices.len());
        for (name, loss, top) in &scored {
            say!(
                "{name:>8}: log loss {loss:.4}, top move {:.1}%",
                top * 100.0
            );
        }
        for (n, w) in prefs::NAMES.iter().zip(model.weights) {
            say!("  {n:<22} {w:+.3} (x{:.2})", w.exp());
        }
    }
    Ok(())
}
