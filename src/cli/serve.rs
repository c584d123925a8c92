//! `ladderbot serve`: the WebSocket match server.

use std::time::Duration;

use clap::Args;

use super::CliError;
use crate::config::{ServerSettings, Settings};
use crate::games::AgentParams;
use crate::platforms::ws::server::{ClockConfig, HouseConfig, Limits, Server, ServerConfig};
use crate::runner::openings::{Book, OpeningOrder};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT (default 127.0.0.1:8765; port 0: any free port).
    #[arg(long)]
    pub bind: Option<String>,
    /// Longest time one move may take, ms (default 1000; 0: none).
    #[arg(long)]
    pub time_per_move_ms: Option<u64>,
    /// Time bank per side and game, ms (0: none).
    #[arg(long)]
    pub time_bank_ms: Option<u64>,
    /// Added to the bank after each move, ms.
    #[arg(long)]
    pub increment_ms: Option<u64>,
    /// Records file: one JSON line per finished game (default records.jsonl; "" for none).
    #[arg(long)]
    pub records: Option<String>,
    /// The house bot's agent ("" for none). The default, `default`, plays each game's house
    /// agent: random in goofspiel, template in puyo, the game's default agent elsewhere.
    #[arg(long)]
    pub house_agent: Option<String>,
    /// The house bot's playouts per move (default 1000; 0: no playout limit).
    #[arg(long)]
    pub house_playouts: Option<u64>,
    /// The house bot's own time per move, ms (0: none).
    #[arg(long)]
    pub house_time_ms: Option<u64>,
    /// Seed for random starting positions: game n starts from seed + n (default 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A game's start option GAME.KEY=VALUE, e.g. floodit.size=10x10 or
    /// floodit.colours=4 (repeatable).
    #[arg(long = "game-option", value_parser = super::parse_param, value_name = "GAME.KEY=VALUE")]
    pub game_options: Vec<(String, serde_json::Value)>,
    /// Start GAME's games from the openings in FILE, GAME=FILE, e.g.
    /// four3d=openings/four3d.txt (the format of `match --openings`; repeatable, one
    /// file per game): each pair of games of a match plays the next opening, once with
    /// each seat, and the server goes on through the file from match to match.
    #[arg(long = "openings", value_parser = parse_openings, value_name = "GAME=FILE")]
    pub openings: Vec<(String, String)>,
    /// The order openings are taken in: as in the file, or shuffled from --seed (every
    /// opening once per pass through the file).
    #[arg(long, value_name = "sequential|random")]
    pub opening_order: Option<OpeningOrder>,
}

/// `GAME=FILE` of `--openings`.
fn parse_openings(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((game, file)) if !game.trim().is_empty() && !file.trim().is_empty() => {
            let kind: crate::games::GameKind = game.trim().parse()?;
            Ok((kind.id().to_string(), file.to_string()))
        }
        _ => Err(format!(
            "'{s}': expected GAME=FILE, e.g. four3d=openings/four3d.txt"
        )),
    }
}

impl ServeArgs {
    pub fn apply(&self, s: &mut Settings) -> Result<(), CliError> {
        let v = &mut s.server;
        macro_rules! set {
            ($field:ident) => {
                if let Some(x) = &self.$field {
                    v.$field = x.clone();
                }
            };
        }
        set!(bind);
        set!(time_per_move_ms);
        set!(time_bank_ms);
        set!(increment_ms);
        set!(records);
        set!(house_agent);
        set!(house_playouts);
        set!(house_time_ms);
        set!(seed);
        set!(opening_order);
        for (game, file) in &self.openings {
            v.openings.insert(game.clone(), file.clone());
        }
        for (key, value) in &self.game_options {
            let (game, option) = key.split_once('.').ok_or_else(|| {
                CliError::Usage(format!(
                    "serve --game-option {key}: expected GAME.KEY=VALUE"
                ))
            })?;
            v.game_options
                .entry(game.to_string())
                .or_default()
                .insert(option.to_string(), value.clone());
        }
        Ok(())
    }
}

fn nonzero(x: u64) -> Option<u64> {
    (x > 0).then_some(x)
}

/// The server library's configuration from the settings; the opening
/// suites are read and checked here (an error names the setting, the file,
/// its line and the move).
pub fn server_config(s: &ServerSettings) -> Result<ServerConfig, String> {
    let mut openings = std::collections::BTreeMap::new();
    for (game, path) in &s.openings {
        let kind: crate::games::GameKind = game
            .parse()
            .map_err(|e| format!("server.openings.{game}: {e}"))?;
        let options = s.game_options.get(game).cloned().unwrap_or_default();
        let book = Book::load_for(kind, path.as_ref(), &options, s.opening_order)
            .map_err(|e| format!("server.openings.{game}: {e}"))?;
        openings.insert(game.clone(), book);
    }
    Ok(ServerConfig {
        bind: s.bind.clone(),
        clock: ClockConfig {
            time_per_move_ms: nonzero(s.time_per_move_ms),
            time_bank_ms: nonzero(s.time_bank_ms),
            increment_ms: s.increment_ms,
        },
        records: (!s.records.is_empty()).then(|| s.records.clone().into()),
        heartbeat_interval: Duration::from_millis(s.heartbeat_interval_ms),
        heartbeat_timeout: Duration::from_millis(s.heartbeat_timeout_ms),
        house: (!s.house_agent.is_empty()).then(|| HouseConfig {
            name: "house-{agent}".into(),
            agent: s.house_agent.clone(),
            params: AgentParams::new(),
            playouts: nonzero(s.house_playouts),
            time_ms: nonzero(s.house_time_ms),
        }),
        seed: s.seed,
        game_options: s.game_options.clone(),
        openings,
        token: (!s.token.is_empty()).then(|| s.token.clone()),
        limits: Limits {
            max_connections: s.max_connections as usize,
            max_connections_per_ip: s.max_connections_per_ip as usize,
            rate_per_s: s.rate_limit_per_s,
            rate_burst: s.rate_limit_burst,
            hello_timeout: Duration::from_millis(s.hello_timeout_ms),
            resume_window: Duration::from_millis(s.resume_window_ms),
        },
        shutdown_grace: Duration::from_millis(s.shutdown_grace_ms),
    })
}

/// Why the server could not start, as an exit code: a configuration to fix
/// (2), or a port still taken (75: worth retrying, e.g. while the previous
/// instance stops).
fn start_error(e: crate::platforms::ws::server::ServerError) -> CliError {
    use crate::platforms::ws::server::ServerError;
    match &e {
        ServerError::Bind { source, .. } if source.kind() == std::io::ErrorKind::AddrInUse => {
            CliError::Retry(e.to_string())
        }
        _ => CliError::Usage(e.to_string()),
    }
}

pub fn run(settings: Settings) -> Result<(), CliError> {
    let rt = super::runtime()?;
    rt.block_on(async move {
        let config = server_config(&settings.server).map_err(CliError::Usage)?;
        // A records file that cannot be written: exit 2 before listening,
        // said as every command says it.
        if !settings.server.records.is_empty() {
            super::check_writable(
                "server.records",
                std::path::Path::new(&settings.server.records),
            )?;
        }
        for (game, book) in &config.openings {
            tracing::info!(game, suite = %book.source, openings = book.openings.len(), order = %book.order, "games start from an opening suite: each opening once with each seat");
        }
        let server = Server::bind(config).await.map_err(start_error)?;
        for game in crate::games::GameKind::ALL {
            let house = &settings.server.house_agent;
            if !house.is_empty() && game.check_agent(house, &AgentParams::new()).is_err() {
                tracing::info!(%game, house_agent = %house, "the house bot has no agent of this name for this game: clients asking for the house there are refused");
            }
        }
        let mut signals = super::Signals::install();
        // The address goes to stdout so scripts (and tests) can read the port.
        // The second line: where spectators watch (HTTP on the same port).
        {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "listening on ws://{}", server.local_addr());
            let _ = writeln!(out, "watch the games at http://{}/", server.local_addr());
            let _ = out.flush();
        }
        tracing::info!(addr = %server.local_addr(), records = %settings.server.records, "match server started");
        server
            .run(async move {
                let signal = signals.next().await;
                tracing::info!(signal, grace_ms = settings.server.shutdown_grace_ms, "shutting down: games still in progress after the grace are recorded as aborted");
            })
            .await
            .map_err(|e| CliError::Runtime(e.to_string()))
    })
}
