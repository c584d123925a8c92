//! `ladderbot merge FILES...`: the report of a match from its shards'
//! records; with `--of NAME`, one player's results over records of any
//! origin.

use std::path::PathBuf;

use clap::Args;

use super::out::say;
use super::CliError;
use crate::runner::merge::{merge_files, MergeOptions};
use crate::runner::platform_results::{player_results_of_files, render_player_results, Wdl};
use crate::runner::SprtConfig;

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Records files written by `ladderbot match --out` (one per shard, any order), or
    /// folders whose .jsonl files are all to be merged; with --of, records of any origin.
    #[arg(required = true, value_name = "FILE.jsonl|DIR")]
    pub files: Vec<PathBuf>,
    /// Judge the player NAME over records of any origin (`serve --records`, `serve-gat --out`,
    /// `referee --out`, `play --records`, `match --out`): its games with NAME in exactly one
    /// seat, aborted ones left out, with its wins, draws and losses against the others, Elo
    /// with its 95% interval, LOS, seats, endings and, with --sprt, the SPRT verdict. A
    /// recorded name `NAME:...` is NAME too (`referee` names its bots `A:COMMAND`, `B:COMMAND`).
    #[arg(long, value_name = "NAME", conflicts_with = "partial")]
    pub of: Option<String>,
    /// Report on the games present even when some of the match's games are missing.
    #[arg(long)]
    pub partial: bool,
    /// Judge the merged games by SPRT between ELO0 and ELO1 (default: the match's own --sprt;
    /// with --of: none).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = super::match_cmd::parse_sprt)]
    pub sprt: Option<(f64, f64)>,
    /// With --of: earlier games of NAME known only by their totals (their records lost
    /// or kept elsewhere), NAME's wins, draws and losses, added to the records' in the
    /// score, Elo and SPRT (not in the seats or endings).
    #[arg(long, value_name = "W,D,L", requires = "of", value_parser = parse_wdl)]
    pub prior: Option<Wdl>,
    /// Print the report as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: MergeArgs) -> Result<(), CliError> {
    let sprt = args.sprt.map(|(e0, e1)| SprtConfig::new(e0, e1));
    if let Some(name) = &args.of {
        // No game with NAME, or no records: about the input, exit 2.
        let mut results =
            player_results_of_files(&args.files, name, sprt).map_err(CliError::Usage)?;
        if let Some(prior) = args.prior {
            results = results.with_prior(prior, sprt);
        }
        if args.json {
            let line =
                serde_json::to_string(&results).map_err(|e| CliError::Runtime(e.to_string()))?;
            say!("{line}");
        } else {
            say!("{}", render_player_results(&results));
        }
        return Ok(());
    }
    let opts = MergeOptions {
        partial: args.partial,
        sprt,
    };
    // Every refusal (another match, a game twice, missing games) is about
    // the input: a usage error, exit 2.
    let report = merge_files(&args.files, opts).map_err(CliError::Usage)?;
    if args.json {
        return super::match_cmd::print_report(&report, true);
    }
    say!(
        "{}",
        merged_header(&crate::runner::render_report(&report), report.jobs)
    );
    Ok(())
}

/// The match's report as `merge` prints it: the records do not say how
/// many threads each shard played on, so where `match` prints its jobs
/// (`(seed S, 2 jobs)`) the header says how many files were merged.
fn merged_header(report: &str, files: usize) -> String {
    let plural = if files == 1 { "" } else { "s" };
    report.replacen(
        &format!(", {files} job{plural})"),
        &format!(", merged from {files} records file{})", plural),
        1,
    )
}

/// `W,D,L`: three counts.
fn parse_wdl(text: &str) -> Result<Wdl, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let n: Vec<u32> = parts
        .iter()
        .map(|p| p.parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("expected W,D,L (three counts), got {text:?}"))?;
    match n[..] {
        [wins, draws, losses] => Ok(Wdl {
            games: wins + draws + losses,
            wins,
            draws,
            losses,
        }),
        _ => Err(format!("expected W,D,L (three counts), got {text:?}")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_header_counts_files_not_jobs() {
        let r = "four3d: A = x vs B = y, 4 games (seed 1, 1 job)\nA: ...\n";
        assert_eq!(
            super::merged_header(r, 1),
            "four3d: A = x vs B = y, 4 games (seed 1, merged from 1 records file)\nA: ...\n"
        );
        let r = "four3d: A = x vs B = y, 4 games (seed 1, 3 jobs)\n";
        assert!(super::merged_header(r, 3).contains("merged from 3 records files)"));
    }
}
