//! What every lab task shares: JSON-lines files in and out, and work
//! spread over threads.

use std::io::Write as _;
use std::path::Path;

use ladderbot::cli::CliError;

/// The lines of a JSON-lines file, by the engine's one reader
/// ([`ladderbot::records::read_json_lines`]: a torn last line skipped with
/// a warning, a bad line elsewhere an error naming it).
pub fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, CliError> {
    let read =
        ladderbot::records::read_json_lines::<T>(path, "valid line").map_err(CliError::Usage)?;
    Ok(read.values.into_iter().map(|(_, v)| v).collect())
}

/// Writes `lines` to `path`, one a line.
pub fn write_lines(path: &Path, lines: impl IntoIterator<Item = String>) -> Result<(), CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Runtime(format!("{}: {e}", path.display()));
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| fail(&e))?);
    for l in lines {
        writeln!(f, "{l}").map_err(|e| fail(&e))?;
    }
    f.flush().map_err(|e| fail(&e))
}

/// Runs `work(i)` for `i` in `0..n` on `jobs` threads; results in order.
pub fn parallel<T: Send>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> Result<T, String> + Sync,
) -> Result<Vec<T>, CliError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<T, String>>> = (0..n).map(|_| None).collect();
    let results = std::sync::Mutex::new(&mut slots);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = work(i);
                if let Ok(mut g) = results.lock() {
                    g[i] = Some(r);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| Err("not run".into()))
                .map_err(CliError::Runtime)
        })
        .collect()
}
