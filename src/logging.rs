//! Logging: tracing to stderr (never stdout, which may carry a protocol),
//! human-readable or JSON, filtered by `RUST_LOG` or the settings' filter.

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the global subscriber. `RUST_LOG`, when set, wins over `filter`.
/// Calling it twice is harmless (the second call does nothing).
pub fn init(format: LogFormat, filter: &str) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(filter))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}
