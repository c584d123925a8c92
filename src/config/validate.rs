//! What serde cannot check in [`Settings`]: ranges, clocks, addresses,
//! and names that must exist (games, agents and their parameters).

use super::{Settings, TimePolicy};
use crate::games::{AgentParams, GameKind};

impl Settings {
    /// Checks what serde cannot: ranges, and names that must exist.
    pub fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() {
            return Err("name: must not be empty".into());
        }
        if let Some(game) = self.game {
            check_agent(game, &self.agent, &self.agent_params, "agent")?;
        }
        if self.search.playouts == Some(0) {
            return Err("search.playouts: must be at least 1".into());
        }
        if self.search.time_ms == Some(0) {
            return Err("search.time_ms: must be at least 1".into());
        }
        if let (Some(GameKind::Geister), Some(t)) = (self.game, self.search.time_ms) {
            let max = crate::platforms::gat::client::MAX_TIME_MS;
            if t > max {
                return Err(format!(
                    "search.time_ms: {t} is more than {max} (a GAT server's timeout is 10 s)"
                ));
            }
        }
        let gat = self.game == Some(GameKind::Geister)
            && !self
                .client
                .server
                .as_deref()
                .is_some_and(|u| u.starts_with("ws://") || u.starts_with("wss://"));
        if self.search.time_policy == TimePolicy::Bank && gat && self.search.increment_ms > 0 {
            return Err(
                "search.increment_ms: a GAT server's clock has no increment (a bank for the \
                 game, then 10 s a move)"
                    .into(),
            );
        }
        if self.search.time_policy != TimePolicy::Bank
            && (self.search.bank_ms.is_some() || self.search.increment_ms > 0)
        {
            return Err(
                "search.bank_ms and search.increment_ms are a game clock: they need \
                 search.time_policy = \"bank\""
                    .into(),
            );
        }
        if self.search.bank_ms == Some(0) {
            return Err("search.bank_ms: must be at least 1".into());
        }
        if self.client.stdio && (self.search.bank_ms.is_some() || self.search.increment_ms > 0) {
            return Err(
                "search.bank_ms: on stdin/stdout the bot spends the engine's own bank".into(),
            );
        }
        if self.client.games == 0 {
            return Err("client.games: must be at least 1".into());
        }
        if let Some(url) = &self.client.server {
            let ws = url.starts_with("ws://") || url.starts_with("wss://");
            match self.game {
                Some(GameKind::Geister) if !ws && !is_host_port(url) => {
                    return Err(format!(
                        "client.server: '{url}' is neither HOST:PORT (a GAT server, e.g. 127.0.0.1:10000) nor a ws:// or wss:// URL"
                    ));
                }
                Some(GameKind::Geister) => {}
                Some(_) if !ws => {
                    return Err(format!(
                        "client.server: '{url}' is not a ws:// or wss:// URL"
                    ));
                }
                // No game yet: either form, checked again once it is known.
                None if !ws && !is_host_port(url) => {
                    return Err(format!(
                        "client.server: '{url}' is neither a ws:// or wss:// URL nor HOST:PORT"
                    ));
                }
                _ => {}
            }
        }
        if self.client.reconnect_window_ms == 0 {
            return Err("client.reconnect_window_ms: must be at least 1".into());
        }
        if self.client.backoff_initial_ms == 0
            || self.client.backoff_max_ms < self.client.backoff_initial_ms
        {
            return Err(
                "client.backoff_initial_ms / backoff_max_ms: need 0 < initial <= max".into(),
            );
        }
        if self.server.time_per_move_ms == 0 && self.server.time_bank_ms == 0 {
            return Err(
                "server.time_per_move_ms / time_bank_ms: at least one clock must be set".into(),
            );
        }
        if self.server.heartbeat_interval_ms == 0
            || self.server.heartbeat_timeout_ms <= self.server.heartbeat_interval_ms
        {
            return Err(
                "server.heartbeat_timeout_ms: must be greater than heartbeat_interval_ms (> 0)"
                    .into(),
            );
        }
        let max_ms = crate::platforms::ws::server::MAX_CLOCK_MS;
        if self.client.heartbeat_timeout_ms == 0 || self.client.heartbeat_timeout_ms > max_ms {
            return Err(format!("client.heartbeat_timeout_ms: must be 1..={max_ms}"));
        }
        let s = &self.server;
        if s.max_connections == 0 || s.max_connections_per_ip == 0 {
            return Err(
                "server.max_connections / max_connections_per_ip: must be at least 1".into(),
            );
        }
        if s.max_connections_per_ip > s.max_connections {
            return Err(
                "server.max_connections_per_ip: must not exceed server.max_connections".into(),
            );
        }
        if s.rate_limit_per_s == 0 || s.rate_limit_burst == 0 {
            return Err("server.rate_limit_per_s / rate_limit_burst: must be at least 1".into());
        }
        if s.hello_timeout_ms == 0 || s.hello_timeout_ms > max_ms {
            return Err(format!("server.hello_timeout_ms: must be 1..={max_ms}"));
        }
        if s.resume_window_ms > max_ms {
            return Err(format!("server.resume_window_ms: at most {max_ms}"));
        }
        if s.shutdown_grace_ms > max_ms {
            return Err(format!("server.shutdown_grace_ms: at most {max_ms}"));
        }
        if !is_bind_address(&s.bind) {
            return Err(format!(
                "server.bind: '{}' is not HOST:PORT with a port of 0..=65535 (e.g. 127.0.0.1:8765)",
                s.bind
            ));
        }
        for (game, options) in &s.game_options {
            let kind: GameKind = game
                .parse()
                .map_err(|e| format!("server.game_options.{game}: {e}"))?;
            kind.check_options(options)
                .map_err(|e| format!("server.game_options.{game}: {e}"))?;
        }
        for (game, path) in &s.openings {
            game.parse::<GameKind>()
                .map_err(|e| format!("server.openings.{game}: {e}"))?;
            if path.trim().is_empty() {
                return Err(format!(
                    "server.openings.{game}: empty; give the suite file's path"
                ));
            }
        }
        let house = &s.house_agent;
        if !house.is_empty() {
            // A name in a registry's list needs no build: building one
            // (Score Four's `best` fills a 32 MiB table) cost every
            // command ~50 ms at start, before a GOLAD bot read its first
            // request.
            // (Every listed name and `default` builds with no parameters:
            // `games::tests::every_game_parses_by_its_name_and_checks_agents`.)
            let known = |g: GameKind| {
                house == crate::games::DEFAULT_AGENT || g.agent_names().contains(&house.as_str())
            };
            match self.game {
                Some(game) if known(game) => {}
                Some(game) => check_agent(game, house, &AgentParams::new(), "server.house_agent")?,
                None if !GameKind::ALL
                    .iter()
                    .any(|&g| known(g) || g.check_agent(house, &AgentParams::new()).is_ok()) =>
                {
                    return Err(format!(
                        "server.house_agent: '{house}' is no agent of any game (see `ladderbot agents`)"
                    ));
                }
                None => {}
            }
        }
        Ok(())
    }
}

/// `HOST:PORT` to listen on: a non-empty host and a port of 0..=65535.
fn is_bind_address(s: &str) -> bool {
    s.rsplit_once(':').is_some_and(|(host, port)| {
        !host.is_empty() && !host.contains('/') && port.parse::<u16>().is_ok()
    })
}

/// `HOST:PORT` with a non-empty host and a port number (no scheme).
fn is_host_port(s: &str) -> bool {
    match s.rsplit_once(':') {
        Some((host, port)) => {
            !host.is_empty() && !host.contains('/') && port.parse::<u16>().is_ok_and(|p| p > 0)
        }
        None => false,
    }
}

/// Builds the agent once to check its name and parameters.
fn check_agent(game: GameKind, agent: &str, params: &AgentParams, key: &str) -> Result<(), String> {
    match game.check_agent(agent, params) {
        Ok(_) => Ok(()),
        // Parameter errors already name their key.
        Err(e) if e.starts_with("agent_params.") => Err(e),
        Err(e) => Err(format!("{key}: {e}")),
    }
}
