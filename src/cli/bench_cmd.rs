//! `ladderbot bench NAME`: one speed benchmark against its reference.

use super::out::say;
use clap::Args;

use super::CliError;
use crate::bench::{self, BenchOptions};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Benchmark name.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(bench::NAMES))]
    pub name: String,
    /// Seconds per sample.
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Samples of each side (the median is reported).
    #[arg(long)]
    pub samples: Option<usize>,
    /// Print the result as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: BenchArgs) -> Result<(), CliError> {
    let mut opts = BenchOptions::default();
    if let Some(s) = args.seconds {
        if !(s > 0.0 && s.is_finite()) {
            return Err(CliError::Usage("bench: --seconds must be positive".into()));
        }
        opts.seconds = s;
    }
    if let Some(n) = args.samples {
        if n == 0 {
            return Err(CliError::Usage(
                "bench: --samples must be at least 1".into(),
            ));
        }
        opts.samples = n;
    }
    let report = bench::run(&args.name, &opts).map_err(CliError::Runtime)?;
    if args.json {
        say!(
            "{}",
            serde_json::to_string(&report).map_err(|e| CliError::Runtime(e.to_string()))?
        );
    } else {
        say!("{}", bench::render(&report));
    }
    Ok(())
}
