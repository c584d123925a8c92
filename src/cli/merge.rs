//! `ladderbot merge FILES...`: the report of a match from its shards'
//! records.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::runner::merge::{merge_files, MergeOptions};
use crate::runner::SprtConfig;

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Records files written by `ladderbot match --out` (one per shard, any order), or
    /// folders whose .jsonl files are all to be merged.
    #[arg(required = true, value_name = "FILE.jsonl|DIR")]
    pub files: Vec<PathBuf>,
    /// Report on the games present even when some of the match's games are missing.
    #[arg(long)]
    pub partial: bool,
    /// Judge the merged games by SPRT between ELO0 and ELO1 (default: the match's own --sprt).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = super::match_cmd::parse_sprt)]
    pub sprt: Option<(f64, f64)>,
    /// Print the report as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: MergeArgs) -> Result<(), CliError> {
    let opts = MergeOptions {
        partial: args.partial,
        sprt: args.sprt.map(|(e0, e1)| SprtConfig::new(e0, e1)),
    };
    // Every refusal (another match, a game twice, missing games) is about
    // the input: a usage error, exit 2.
    let report = merge_files(&args.files, opts).map_err(CliError::Usage)?;
    super::match_cmd::print_report(&report, args.json)
}
