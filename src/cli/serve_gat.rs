//! `ladderbot serve-gat`: a GAT-compatible Geister server on two TCP ports.
//! SIGTERM or SIGINT ends it: the game in progress is written to `--out` as
//! aborted (result `*`, the moves so far) and it exits 0.

use super::out::say;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::CliError;
use crate::platforms::gat::codec::{DEFAULT_BUDGET_S, DEFAULT_TIMEOUT_S, PORTS};
use crate::platforms::gat::server::{describe_record, GatServer, GatServerConfig};

#[derive(Debug, Args)]
pub struct ServeGatArgs {
    /// First seat's port, second seat's port (0,0 picks free ports; the chosen
    /// ones are printed as `listening on PORT0,PORT1`).
    #[arg(long, value_parser = parse_ports, default_value = "10000,10001")]
    pub ports: [u16; 2],
    /// Address to bind: loopback by default; 0.0.0.0 serves every interface.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Time budget per player and game, in seconds.
    #[arg(long, default_value_t = DEFAULT_BUDGET_S)]
    pub budget: u64,
    /// Per-move timeout once the budget is spent, in seconds (at least 1).
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_S, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// Games to serve (0 = forever).
    #[arg(long, default_value_t = 0)]
    pub games: u32,
    /// Records file: one JSON line per finished game.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
}

/// Parses `P0,P1`.
pub fn parse_ports(s: &str) -> Result<[u16; 2], String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}': expected two ports, e.g. {},{}", PORTS[0], PORTS[1]))?;
    let p = |x: &str| {
        x.trim()
            .parse::<u16>()
            .map_err(|e| format!("'{x}' is not a port: {e}"))
    };
    let ports = [p(a)?, p(b)?];
    if ports[0] != 0 && ports[0] == ports[1] {
        return Err(format!("'{s}': the two ports must differ"));
    }
    Ok(ports)
}

/// Why the server could not start, as `serve` says it: a port still taken
/// is worth retrying later (75, e.g. while the previous instance stops);
/// anything else (an address not ours, a port not allowed, the records
/// file) is configuration to fix (2). The error names the port or file.
fn start_error(e: std::io::Error) -> CliError {
    let m = format!("serve-gat: {e}");
    match e.kind() {
        std::io::ErrorKind::AddrInUse => CliError::Retry(m),
        _ => CliError::Usage(m),
    }
}

pub fn run(args: ServeGatArgs) -> Result<(), CliError> {
    // A host that is no address: exit 2, as `serve --bind`.
    {
        use std::net::ToSocketAddrs;
        (args.host.as_str(), 0).to_socket_addrs().map_err(|e| {
            CliError::Usage(format!(
                "serve-gat --host {}: not an address to listen on: {e}",
                args.host
            ))
        })?;
    }
    // A records file that cannot be written: exit 2 before listening.
    if let Some(out) = &args.out {
        super::check_writable("serve-gat --out", out)?;
    }
    let cfg = GatServerConfig {
        host: args.host,
        ports: args.ports,
        budget: Duration::from_secs(args.budget),
        timeout: Duration::from_secs(args.timeout),
        games: args.games,
        out: args.out,
    };
    let rt = super::runtime()?;
    rt.block_on(async move {
        let server = GatServer::bind(cfg.clone()).await.map_err(start_error)?;
        let ports = server
            .local_ports()
            .map_err(|e| CliError::Runtime(e.to_string()))?;
        let mut signals = super::Signals::install();
        say!("listening on {},{}", ports[0], ports[1]);
        let _ = std::io::stdout().flush();
        // SIGTERM or SIGINT: the game in progress is recorded as aborted
        // and the server exits 0.
        let signal = std::sync::Arc::new(std::sync::Mutex::new(None));
        let seen = signal.clone();
        let stop = async move {
            let sig = signals.next().await;
            *seen.lock().unwrap_or_else(|e| e.into_inner()) = Some(sig);
            sig
        };
        let played = server
            .run_until(stop, |r| {
                say!("{}", describe_record(r));
                let _ = std::io::stdout().flush();
            })
            .await
            .map_err(|e| CliError::Runtime(e.to_string()))?;
        if let Some(sig) = *signal.lock().unwrap_or_else(|e| e.into_inner()) {
            tracing::warn!(signal = sig, games = played, "stopped");
            say!("stopped by {sig}");
        }
        say!("served {played} games");
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_parse() {
        assert_eq!(parse_ports("10000,10001").unwrap(), [10000, 10001]);
        assert_eq!(parse_ports("0,0").unwrap(), [0, 0]);
        assert!(parse_ports("10000").is_err());
        assert!(parse_ports("5,5").is_err());
        assert!(parse_ports("a,1").is_err());
    }
}
