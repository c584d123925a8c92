//! `ladderbot check-answers`: a deploy check. A GOLAD bot's answers to a
//! recorded Riddles.io engine transcript, checked on the rules
//! ([`crate::platforms::riddles::check`]): what CI and the container image
//! run on the binary they ship.

use std::path::PathBuf;

use clap::Args;

use super::out::say;
use super::CliError;

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

fn read_text(path: &std::path::Path) -> Result<String, CliError> {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))
}

/// `check-answers`: exit 0 when every request got a legal move.
pub fn run(a: CheckArgs) -> Result<(), CliError> {
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
