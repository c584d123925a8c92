//! `ladderbot report FILES... --html OUT.html`: one self-contained HTML page
//! of recorded games (results, time plots, a replay of every game).

use super::out::say;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::report::{build_page, entries_of, PageOptions};

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Records files, one JSON game record per line (`match --out`, `serve --records`,
    /// `serve-gat --out`, `play --records`).
    #[arg(required = true, value_name = "FILE.jsonl")]
    pub files: Vec<PathBuf>,
    /// Write the page to this file: one HTML file with every script and style inline (no
    /// network needed to view it).
    #[arg(long, required = true, value_name = "OUT.html")]
    pub html: PathBuf,
    /// The per-move time limit in milliseconds: a line on the time plots, and the moves over
    /// it counted.
    #[arg(long, value_name = "MS")]
    pub limit_ms: Option<u64>,
    /// The page's title (default: the records files' names).
    #[arg(long)]
    pub title: Option<String>,
}

pub fn run(args: ReportArgs) -> Result<(), CliError> {
    let entries = entries_of(super::read_games("report", &args.files)?);
    super::check_writable("report", &args.html)?;
    let title = args.title.unwrap_or_else(|| {
        let names: Vec<String> = args
            .files
            .iter()
            .map(|f| {
                f.file_name()
                    .map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into())
            })
            .collect();
        format!("ladderbot report: {}", names.join(", "))
    });
    let page = build_page(
        &entries,
        &PageOptions {
            title,
            limit_ms: args.limit_ms,
            summary: None,
        },
    );
    std::fs::write(&args.html, &page.html)
        .map_err(|e| CliError::Runtime(format!("cannot write {}: {e}", args.html.display())))?;
    if page.not_replayed > 0 {
        eprintln!(
            "warning: {} game(s) do not replay to their end (shown with their error)",
            page.not_replayed
        );
    }
    say!(
        "wrote {}: {} game(s), {} bytes",
        args.html.display(),
        page.games,
        page.html.len()
    );
    Ok(())
}
