//! The match server: WebSocket connections speak [`crate::platforms::ws::protocol`], a lobby
//! pairs clients per game (or with the house bot), and one task per pairing
//! plays its games under the clock and writes a record per finished game.
//!
//! - `conn`: one task per connection (frames, heartbeats, routing).
//! - `lobby`: waiting clients per game, and starting matches.
//! - `game_loop`: a match between two seats: games, clock, results.
//! - `house`: the built-in bot as a seat, searching on a search thread.
//!
//! Nothing here names a particular game: games are reached through
//! [`GameKind::visit`] and [`crate::games::PlayableGame`].

mod conn;
mod game_loop;
mod house;
mod http;
mod lobby;
mod spectate;

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::games::{AgentParams, GameKind};
use crate::platforms::ws::protocol::ClockInfo;
use crate::records::RecordWriter;
use crate::runner::openings::Book;

/// Longest any clock setting may be (one day), so deadlines never overflow.
pub const MAX_CLOCK_MS: u64 = 86_400_000;

/// The game clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockConfig {
    /// Most milliseconds any one move may take.
    pub time_per_move_ms: Option<u64>,
    /// Each player's starting bank in milliseconds for a whole game.
    pub time_bank_ms: Option<u64>,
    /// Milliseconds added to the mover's bank after each of its moves
    /// (ignored without a bank).
    pub increment_ms: u64,
}

impl Default for ClockConfig {
    /// One second per move, no bank.
    fn default() -> Self {
        ClockConfig {
            time_per_move_ms: Some(1000),
            time_bank_ms: None,
            increment_ms: 0,
        }
    }
}

impl ClockConfig {
    /// Errors unless at least one of per-move limit and bank is set, both are
    /// positive, and everything is at most [`MAX_CLOCK_MS`].
    pub fn validate(&self) -> Result<(), String> {
        if self.time_per_move_ms.is_none() && self.time_bank_ms.is_none() {
            return Err("clock: set time_per_move_ms, time_bank_ms or both".into());
        }
        for (name, v) in [
            ("time_per_move_ms", self.time_per_move_ms),
            ("time_bank_ms", self.time_bank_ms),
        ] {
            match v {
                Some(0) => return Err(format!("clock.{name}: must be positive")),
                Some(ms) if ms > MAX_CLOCK_MS => {
                    return Err(format!("clock.{name}: {ms} exceeds {MAX_CLOCK_MS}"))
                }
                _ => {}
            }
        }
        if self.increment_ms > MAX_CLOCK_MS {
            return Err(format!(
                "clock.increment_ms: {} exceeds {MAX_CLOCK_MS}",
                self.increment_ms
            ));
        }
        Ok(())
    }

    /// The milliseconds a move may take given the mover's bank (`None` when
    /// there is no bank).
    pub fn allowance_ms(&self, bank: Option<u64>) -> u64 {
        match (self.time_per_move_ms, bank) {
            (Some(p), Some(b)) => p.min(b),
            (Some(p), None) => p,
            (None, Some(b)) => b,
            (None, None) => 0,
        }
    }

    /// The mover's bank after a move that took `used_ms`.
    pub fn bank_after(&self, bank: Option<u64>, used_ms: u64) -> Option<u64> {
        bank.map(|b| {
            b.saturating_sub(used_ms)
                .saturating_add(self.increment_ms)
                .min(MAX_CLOCK_MS)
        })
    }

    /// The settings as announced in `game_start`.
    pub fn info(&self) -> ClockInfo {
        ClockInfo {
            time_per_move_ms: self.time_per_move_ms,
            time_bank_ms: self.time_bank_ms,
            increment_ms: self.increment_ms,
        }
    }
}

/// The server's built-in opponent, for clients asking for `"house"`.
#[derive(Clone, Debug, PartialEq)]
pub struct HouseConfig {
    /// Its name in `game_start` and in records; `{agent}` in it stands for
    /// the agent it plays in that game (`house-{agent}`: `house-random`).
    pub name: String,
    /// Agent name, built per match with `PlayableGame::build_agent`.
    pub agent: String,
    pub params: AgentParams,
    /// Playouts per move, if limited.
    pub playouts: Option<u64>,
    /// Milliseconds it wants per move (never more than the clock allows).
    pub time_ms: Option<u64>,
}

/// Everything the server needs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Address to listen on, e.g. "127.0.0.1:8765" (port 0 picks one).
    pub bind: String,
    pub clock: ClockConfig,
    /// A `.jsonl` file to append a record of every finished game to.
    pub records: Option<PathBuf>,
    /// How often the server sends a WebSocket Ping frame.
    pub heartbeat_interval: Duration,
    /// A connection with no inbound frame for this long is closed.
    pub heartbeat_timeout: Duration,
    /// The house bot, if any.
    pub house: Option<HouseConfig>,
    /// Seeds starting positions and house agents.
    pub seed: u64,
    /// Options of a game's start, by game id (Flood-It's board size and
    /// colours); games without an entry start with none.
    pub game_options: std::collections::BTreeMap<String, crate::games::GameOptions>,
    /// Opening suites, by game id: a game with one starts each pair of
    /// games of a match (games 2k-1 and 2k, the seats swapped) from the
    /// position after the next opening's moves, so each opening is played
    /// once with each seat. The server counts the pairs it has started per
    /// game, across matches: pair p plays `book.for_pair(p, seed)`. Each
    /// book must fit its game under `game_options` (checked at bind).
    pub openings: std::collections::BTreeMap<String, Book>,
    /// A secret every client must send in `hello.token` (`None`: open).
    pub token: Option<String>,
    /// Limits against abuse.
    pub limits: Limits,
    /// On shutdown, how long games in progress may still run to their end
    /// (no new game starts, no new connection is accepted); those still
    /// running after it are recorded as aborted. Zero: abort at once.
    pub shutdown_grace: Duration,
}

/// Limits against abuse: connections, message rate, idle connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most connections at once; more are answered HTTP 503 and closed.
    pub max_connections: usize,
    /// Most connections at once from one IP address.
    pub max_connections_per_ip: usize,
    /// Messages per second a connection may send, sustained (a token
    /// bucket; answers to the server's `move_request`s are free).
    pub rate_per_s: u32,
    /// The bucket's size: messages a connection may send at once.
    pub rate_burst: u32,
    /// A connection without an accepted `hello` after this long is closed.
    pub hello_timeout: Duration,
    /// A seat whose connection dropped mid-game loses by disconnect unless
    /// a connection resumes it (`hello.resume` with its seat token) within
    /// this long and within its clock. Zero: it loses at once.
    pub resume_window: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 256,
            max_connections_per_ip: 16,
            rate_per_s: 20,
            rate_burst: 100,
            hello_timeout: Duration::from_secs(30),
            resume_window: Duration::from_secs(10),
        }
    }
}

impl Limits {
    fn validate(&self) -> Result<(), String> {
        if self.max_connections == 0 || self.max_connections_per_ip == 0 {
            return Err(
                "limits: max_connections and max_connections_per_ip must be at least 1".into(),
            );
        }
        if self.max_connections_per_ip > self.max_connections {
            return Err("limits: max_connections_per_ip must not exceed max_connections".into());
        }
        if self.rate_per_s == 0 || self.rate_burst == 0 {
            return Err("limits: rate_per_s and rate_burst must be at least 1".into());
        }
        if self.hello_timeout.is_zero() || self.hello_timeout > Duration::from_millis(MAX_CLOCK_MS)
        {
            return Err(format!(
                "limits: hello_timeout must be 1..={MAX_CLOCK_MS} ms"
            ));
        }
        if self.resume_window > Duration::from_millis(MAX_CLOCK_MS) {
            return Err(format!(
                "limits: resume_window must be at most {MAX_CLOCK_MS} ms"
            ));
        }
        Ok(())
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: "127.0.0.1:8765".into(),
            clock: ClockConfig::default(),
            records: None,
            heartbeat_interval: Duration::from_secs(5),
            heartbeat_timeout: Duration::from_secs(20),
            house: None,
            seed: 0,
            game_options: Default::default(),
            openings: Default::default(),
            token: None,
            limits: Limits::default(),
            shutdown_grace: Duration::ZERO,
        }
    }
}

impl ServerConfig {
    /// Errors on an unusable configuration.
    pub fn validate(&self) -> Result<(), ServerError> {
        self.clock.validate().map_err(ServerError::Config)?;
        self.limits.validate().map_err(ServerError::Config)?;
        if self.shutdown_grace > Duration::from_millis(MAX_CLOCK_MS) {
            return Err(ServerError::Config(format!(
                "shutdown_grace: at most {MAX_CLOCK_MS} ms"
            )));
        }
        if self.heartbeat_interval.is_zero() {
            return Err(ServerError::Config(
                "heartbeat_interval: must be positive".into(),
            ));
        }
        if self.heartbeat_timeout > Duration::from_millis(MAX_CLOCK_MS) {
            return Err(ServerError::Config(format!(
                "heartbeat_timeout: at most {MAX_CLOCK_MS} ms"
            )));
        }
        if self.heartbeat_timeout <= self.heartbeat_interval {
            return Err(ServerError::Config(format!(
                "heartbeat_timeout ({:?}) must exceed heartbeat_interval ({:?})",
                self.heartbeat_timeout, self.heartbeat_interval
            )));
        }
        for (game, options) in &self.game_options {
            let kind: crate::games::GameKind = game
                .parse()
                .map_err(|e| ServerError::Config(format!("game_options: {e}")))?;
            kind.check_options(options)
                .map_err(|e| ServerError::Config(format!("game_options.{game}: {e}")))?;
        }
        for (game, book) in &self.openings {
            let kind: crate::games::GameKind = game
                .parse()
                .map_err(|e| ServerError::Config(format!("openings: {e}")))?;
            let options = self.game_options.get(game).cloned().unwrap_or_default();
            book.check_for(kind, &options)
                .map_err(|e| ServerError::Config(format!("openings.{game}: {e}")))?;
        }
        if let Some(h) = &self.house {
            if h.name.trim().is_empty() {
                return Err(ServerError::Config("house.name: must not be empty".into()));
            }
        }
        Ok(())
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("invalid server configuration: {0}")]
    Config(String),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        #[source]
        source: io::Error,
    },
    #[error("cannot open the records file {}: {source}", path.display())]
    Records {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// State shared by every connection and match of one server.
pub(crate) struct Shared {
    pub config: ServerConfig,
    pub records: Option<RecordWriter>,
    pub lobby: Mutex<lobby::Lobby>,
    pub next_game: AtomicU64,
    /// Pairs of games started so far from each game's opening suite (the
    /// games of [`ServerConfig::openings`]), across matches.
    opening_pairs: std::collections::BTreeMap<String, std::sync::atomic::AtomicU32>,
    pub next_conn: AtomicU64,
    /// Prefix of game ids, unique per server start.
    pub id_prefix: String,
    pub shutdown: watch::Receiver<bool>,
    /// Set when a shutdown with a grace begins: no new game starts, and a
    /// connection without a match is told `shutting_down` and closed.
    pub draining: watch::Receiver<bool>,
    /// Open connections, in all and per address.
    conns: Mutex<ConnCount>,
    /// Matches running (their tasks record aborted games on shutdown).
    matches: AtomicUsize,
    /// The seats a connection may resume, by the id of any game of a
    /// running match.
    resumable: Mutex<HashMap<String, Arc<game_loop::Resumable>>>,
    /// The games spectators may watch (`GET /`, `/game/ID`).
    pub spectators: spectate::Spectators,
}

#[derive(Default)]
struct ConnCount {
    total: usize,
    per_ip: HashMap<IpAddr, usize>,
}

/// A connection's place in the count; freed when dropped.
pub(crate) struct ConnSlot {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        let mut c = self.shared.conns.lock().unwrap_or_else(|p| p.into_inner());
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.per_ip.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                c.per_ip.remove(&self.ip);
            }
        }
    }
}

/// A running match; counted while it lives.
pub(crate) struct MatchSlot(Arc<Shared>);

impl Drop for MatchSlot {
    fn drop(&mut self) {
        self.0.matches.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Shared {
    /// A slot for a new connection from `ip`, or why it is refused.
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<ConnSlot, String> {
        let limits = self.config.limits;
        let mut c = self.conns.lock().unwrap_or_else(|p| p.into_inner());
        if c.total >= limits.max_connections {
            return Err(format!(
                "too many connections ({} open, server.max_connections)",
                c.total
            ));
        }
        let mine = c.per_ip.get(&ip).copied().unwrap_or(0);
        if mine >= limits.max_connections_per_ip {
            return Err(format!(
                "too many connections from {ip} ({mine} open, server.max_connections_per_ip)"
            ));
        }
        c.total += 1;
        *c.per_ip.entry(ip).or_insert(0) += 1;
        Ok(ConnSlot {
            shared: self.clone(),
            ip,
        })
    }

    /// The resume registry.
    pub(crate) fn lock_resumable(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, Arc<game_loop::Resumable>>> {
        self.resumable.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The opening of the next pair of games of `game`, if the server has
    /// a suite for it: the server's pair counter for the game moves on by
    /// one (pairs are numbered across matches, from 0).
    pub(crate) fn next_opening(&self, game: &str) -> Option<&crate::records::Opening> {
        let book = self.config.openings.get(game)?;
        let pair = self
            .opening_pairs
            .get(game)?
            .fetch_add(1, Ordering::Relaxed);
        Some(book.for_pair(pair, self.config.seed))
    }

    /// Counts a match until the slot is dropped.
    pub(crate) fn match_slot(self: &Arc<Self>) -> MatchSlot {
        self.matches.fetch_add(1, Ordering::AcqRel);
        MatchSlot(self.clone())
    }
}

/// What a refused connection is told before it is closed.
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 32\r\nConnection: close\r\n\r\ntoo many connections; try later\n";

/// Resolves once the server shuts down (or its `run` has ended).
pub(crate) async fn shutdown_signal(rx: &mut watch::Receiver<bool>) {
    loop {
        if *rx.borrow_and_update() {
            return;
        }
        if rx.changed().await.is_err() {
            return;
        }
    }
}

/// A bound, not yet running, match server.
pub struct Server {
    listener: TcpListener,
    local_addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown_tx: watch::Sender<bool>,
    drain_tx: watch::Sender<bool>,
}

impl Server {
    /// Validates `config`, opens the records file and binds the address.
    pub async fn bind(config: ServerConfig) -> Result<Server, ServerError> {
        config.validate()?;
        let records = match &config.records {
            Some(p) => Some(
                RecordWriter::open(p).map_err(|source| ServerError::Records {
                    path: p.clone(),
                    source,
                })?,
            ),
            None => None,
        };
        let listener =
            TcpListener::bind(&config.bind)
                .await
                .map_err(|source| ServerError::Bind {
                    addr: config.bind.clone(),
                    source,
                })?;
        let local_addr = listener.local_addr().map_err(|source| ServerError::Bind {
            addr: config.bind.clone(),
            source,
        })?;
        let (shutdown_tx, shutdown) = watch::channel(false);
        let (drain_tx, draining) = watch::channel(false);
        let opening_pairs = config
            .openings
            .keys()
            .map(|g| (g.clone(), std::sync::atomic::AtomicU32::new(0)))
            .collect();
        let shared = Arc::new(Shared {
            config,
            records,
            lobby: Mutex::new(lobby::Lobby::default()),
            next_game: AtomicU64::new(1),
            opening_pairs,
            next_conn: AtomicU64::new(1),
            id_prefix: format!("{:x}", crate::records::now_ms()),
            shutdown,
            draining,
            conns: Mutex::new(ConnCount::default()),
            matches: AtomicUsize::new(0),
            resumable: Mutex::new(HashMap::new()),
            spectators: spectate::Spectators::default(),
        });
        Ok(Server {
            listener,
            local_addr,
            shared,
            shutdown_tx,
            drain_tx,
        })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The games this server runs.
    pub fn games(&self) -> &'static [GameKind] {
        GameKind::ALL
    }

    /// Serves until `shutdown` resolves; then stops accepting connections
    /// and starting games, lets the games in progress run for at most
    /// `shutdown_grace` (recorded as usual if they end), tells every
    /// connection the server is going away (`shutting_down`), records every
    /// game still in progress as aborted (result `*`, the moves so far) and
    /// returns once those records are written.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) -> Result<(), ServerError> {
        let Server {
            listener,
            local_addr,
            shared,
            shutdown_tx,
            drain_tx,
        } = self;
        tracing::info!(addr = %local_addr, "match server listening");
        let mut conns = JoinSet::new();
        tokio::pin!(shutdown);
        loop {
            tokio::select! {
                _ = &mut shutdown => break,
                r = listener.accept() => match r {
                    Ok((stream, peer)) => match shared.admit(peer.ip()) {
                        Ok(slot) => {
                            let _ = stream.set_nodelay(true);
                            conns.spawn(conn::serve(shared.clone(), stream, peer, slot));
                        }
                        Err(why) => {
                            tracing::warn!(%peer, why, "connection refused");
                            // Best effort, without waiting: an HTTP answer
                            // the client's handshake can report.
                            let _ = stream.try_write(REFUSED);
                            drop(stream);
                        }
                    },
                    Err(e) => {
                        // E.g. too many open files: back off a little.
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
                Some(_) = conns.join_next(), if !conns.is_empty() => {}
            }
        }
        tracing::info!(addr = %local_addr, "match server shutting down");
        drop(listener);
        let grace = shared.config.shutdown_grace;
        let running = shared.matches.load(Ordering::Acquire);
        if !grace.is_zero() && running > 0 {
            tracing::info!(
                grace_ms = grace.as_millis() as u64,
                running,
                "letting the games in progress finish"
            );
            // Waiting clients will get no game.
            shared
                .lobby
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clear();
            let _ = drain_tx.send(true);
            let finished = async {
                while shared.matches.load(Ordering::Acquire) > 0 {
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_millis(10)) => {}
                        Some(_) = conns.join_next(), if !conns.is_empty() => {}
                    }
                }
            };
            if tokio::time::timeout(grace, finished).await.is_err() {
                tracing::warn!(
                    running = shared.matches.load(Ordering::Acquire),
                    "shutdown grace over: the games still running are aborted"
                );
            }
        }
        let _ = shutdown_tx.send(true);
        // Each match records its game in progress as aborted.
        let matches = async {
            while shared.matches.load(Ordering::Acquire) > 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        if tokio::time::timeout(Duration::from_secs(5), matches)
            .await
            .is_err()
        {
            tracing::error!(
                running = shared.matches.load(Ordering::Acquire),
                "matches did not end within 5 s of the shutdown; their games may be unrecorded"
            );
        }
        let drain = async { while conns.join_next().await.is_some() {} };
        let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
        conns.abort_all();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_validation() {
        let c = |p, b, i| ClockConfig {
            time_per_move_ms: p,
            time_bank_ms: b,
            increment_ms: i,
        };
        assert!(c(Some(100), None, 0).validate().is_ok());
        assert!(c(None, Some(100), 10).validate().is_ok());
        assert!(c(Some(100), Some(1000), 10).validate().is_ok());
        assert!(c(None, None, 0).validate().is_err());
        assert!(c(Some(0), None, 0).validate().is_err());
        assert!(c(Some(MAX_CLOCK_MS + 1), None, 0).validate().is_err());
        assert!(c(Some(100), None, MAX_CLOCK_MS + 1).validate().is_err());
    }

    #[test]
    fn allowance_and_bank() {
        let both = ClockConfig {
            time_per_move_ms: Some(100),
            time_bank_ms: Some(1000),
            increment_ms: 20,
        };
        assert_eq!(both.allowance_ms(Some(1000)), 100);
        assert_eq!(both.allowance_ms(Some(50)), 50);
        assert_eq!(both.bank_after(Some(1000), 30), Some(990));
        assert_eq!(both.bank_after(Some(10), 30), Some(20));
        let per_move = ClockConfig::default();
        assert_eq!(per_move.allowance_ms(None), 1000);
        assert_eq!(per_move.bank_after(None, 30), None);
    }

    #[test]
    fn server_config_validation() {
        let mut c = ServerConfig::default();
        assert!(c.validate().is_ok());
        c.heartbeat_timeout = c.heartbeat_interval;
        assert!(matches!(c.validate(), Err(ServerError::Config(_))));
        c.heartbeat_timeout = Duration::MAX;
        assert!(matches!(c.validate(), Err(ServerError::Config(_))));
        c = ServerConfig::default();
        c.clock.time_per_move_ms = None;
        assert!(matches!(c.validate(), Err(ServerError::Config(_))));
        let bad_limits = [
            Limits {
                max_connections: 0,
                ..Limits::default()
            },
            Limits {
                max_connections_per_ip: 300,
                ..Limits::default()
            },
            Limits {
                rate_per_s: 0,
                ..Limits::default()
            },
            Limits {
                rate_burst: 0,
                ..Limits::default()
            },
            Limits {
                hello_timeout: Duration::ZERO,
                ..Limits::default()
            },
        ];
        for limits in bad_limits {
            let c = ServerConfig {
                limits,
                ..ServerConfig::default()
            };
            assert!(
                matches!(c.validate(), Err(ServerError::Config(_))),
                "{limits:?}"
            );
        }
    }

    #[tokio::test]
    async fn bind_failure_names_the_address() {
        let taken = Server::bind(ServerConfig {
            bind: "127.0.0.1:0".into(),
            ..ServerConfig::default()
        })
        .await
        .unwrap();
        let addr = taken.local_addr().to_string();
        let err = Server::bind(ServerConfig {
            bind: addr.clone(),
            ..ServerConfig::default()
        })
        .await
        .err()
        .expect("second bind must fail");
        assert!(err.to_string().contains(&addr), "{err}");
    }
}
