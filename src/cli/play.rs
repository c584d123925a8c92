//! `ladderbot play GAME`: a client of a match server, or of an in-process
//! server with a house bot when no server is given. A game with a platform
//! of its own ([`Platform::native`]) plays on it unless a ws:// server is
//! given: the platform's session does the playing, this command prints it.
//! Both read the settings as a [`PlaySession`] (`play_session`).

use super::out::say;
use std::time::Duration;

use clap::Args;

use super::{params_from, parse_game, parse_param, CliError};
use crate::config::{OpponentChoice, Settings};
use crate::games::{GameKind, GameVisitor, PlayableGame};
use crate::platforms::ws::client::{self, ClientConfig, ClientError, GameFinished, Opponent, Stop};
use crate::platforms::{gat, open_records, ws, HouseBot, Platform, PlaySession, SessionError};

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game to play (default: the profile's `game`).
    #[arg(value_parser = parse_game)]
    pub game: Option<GameKind>,
    /// Match server: ws://HOST:PORT, or for geister a GAT server HOST:PORT (port 10000
    /// for the first seat, 10001 for the second). Default: an in-process server with a house bot.
    #[arg(long)]
    pub server: Option<String>,
    /// Agent that chooses our moves (see `ladderbot agents`).
    #[arg(long)]
    pub agent: Option<String>,
    /// Agent option KEY=VALUE (repeatable).
    #[arg(long = "param", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub params: Vec<(String, serde_json::Value)>,
    /// Playouts per move.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Milliseconds per move we want to use (the server's clock caps it).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Number of games to play (default: client.games, 1).
    #[arg(long)]
    pub games: Option<u32>,
    /// Our name on the server and in records (default: the profile's name, else ladderbot);
    /// it need not be unique.
    #[arg(long)]
    pub name: Option<String>,
    /// Opponent to ask the server for: the next waiting client (any, the default) or the
    /// server's house bot.
    #[arg(long, value_parser = ["any", "house"])]
    pub opponent: Option<String>,
    /// Seed of our agent's random numbers (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Append one JSON line per finished game to this file: with a server, our own record of
    /// each game (abandoned ones too); without, the in-process server's (default: none).
    #[arg(long, value_name = "FILE.jsonl")]
    pub records: Option<String>,
    /// End the session after this many seconds: no game starts after it, the one in progress
    /// is played out (for at most client.stop_grace_ms).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit_s: Option<u64>,
    /// Play one game as a Riddles.io bot on stdin/stdout (golad only); logs go to stderr.
    #[arg(long)]
    pub stdio: bool,
    /// How to spend the clock: `fixed` (the default: every answer within --time-ms and the
    /// platform's cap, 100 ms for golad --stdio) or `bank` (a fair share of a game clock per
    /// move, more on critical moves: the Riddles.io engine's bank on --stdio, a match server's
    /// bank, or --bank-ms).
    #[arg(long, value_parser = ["fixed", "bank"])]
    pub time_policy: Option<String>,
    /// A game clock the bot keeps for itself on a match server (implies --time-policy bank):
    /// milliseconds for each whole game, shared out over its moves.
    #[arg(long, value_name = "MS")]
    pub bank_ms: Option<u64>,
    /// Milliseconds each of our moves adds back to --bank-ms.
    #[arg(long, value_name = "MS")]
    pub increment_ms: Option<u64>,
    /// Think on the opponent's time (search.ponder): `on` or `off`.
    #[arg(long, value_parser = ["on", "off"])]
    pub ponder: Option<String>,
}

/// A profile's `agent_params` belong to its agent: `--agent` naming another
/// one keeps only those the new agent declares (`--profile golad-best
/// --agent pass` plays the pass agent; `--agent ab-v2` keeps the proposer's
/// sizes). An unknown agent keeps them all, for `validate` to name it.
fn keep_declared(s: &mut Settings, agent: &str) {
    let Some(game) = s.game else { return };
    let Ok(decl) = game.agent_decl(agent) else {
        return;
    };
    s.agent_params.retain(|k, _| decl.get(k).is_some());
}

/// `play GAME` with no profile plays the game's shipped best profile's
/// bot: its agent, `[agent_params]` and `[search]` (the environment still
/// overriding them, the flags after); where to play and how many games stay
/// the defaults'. Returns the profile's name, if the game has one.
pub(super) fn game_profile(
    args: &PlayArgs,
    s: &mut Settings,
) -> Result<Option<&'static str>, CliError> {
    let Some(game) = args.game else {
        return Ok(None);
    };
    let Some((name, text)) = crate::config::best_for(game) else {
        return Ok(None);
    };
    let p =
        crate::config::load_profile(Some(&crate::config::Profile::Shipped { name, text }), None)
            .map_err(|e| CliError::Usage(e.0))?;
    s.agent = p.agent;
    s.agent_params = p.agent_params;
    s.search = p.search;
    s.strength = p.strength;
    s.game = Some(game);
    let agent = s.agent.clone();
    keep_declared(s, &agent);
    Ok(Some(name))
}

/// Pondering asked of an agent that cannot ponder: a warning when the flag
/// or a profile the user gave asked for it; quietly off when it came with
/// the game's own profile (`play GAME --agent random`).
pub(super) fn check_ponder(args: &PlayArgs, s: &mut Settings, implied: bool) {
    let Some(game) = s.game else { return };
    if !s.search.ponder || game.agent_ponders(&s.agent, &s.agent_params) {
        return;
    }
    if args.ponder.is_some() || !implied {
        let by = if args.ponder.is_some() {
            "--ponder on"
        } else {
            "search.ponder = true"
        };
        s.warnings.push(format!(
            "{by}: the {game} agent {} does not think on the opponent's time; it will not ponder",
            s.agent
        ));
    }
    s.search.ponder = false;
}

/// Says which shipped profile `play GAME` plays when none was given: a
/// line on stdout, or in the log on stdin/stdout (where stdout carries the
/// protocol only).
pub(super) fn say_profile(s: &Settings, name: &str) {
    let line = format!(
        "play: no profile given: {} plays the shipped profile {name} ({}; {})",
        s.name,
        s.agent,
        s.search.budget()
    );
    if s.client.stdio {
        tracing::info!("{line}");
    } else {
        say!("{line}");
    }
}

impl PlayArgs {
    /// Applies the flags over the loaded settings.
    pub fn apply(&self, s: &mut Settings) -> Result<(), CliError> {
        if let Some(g) = self.game {
            s.game = Some(g);
        }
        if s.game.is_none() {
            return Err(CliError::Usage(
                "play: no game given (as an argument or `game` in the profile)".into(),
            ));
        }
        if let Some(v) = &self.server {
            s.client.server = Some(v.clone());
        }
        // A malformed ws:// address is configuration to fix (exit 2 at
        // once); only a good one that does not answer is worth retrying.
        if let Some(url) = s.client.server.as_deref().filter(|u| u.contains("://")) {
            client::check_url(url).map_err(|e| CliError::Usage(format!("client.server: {e}")))?;
        }
        if let Some(v) = &self.agent {
            if *v != s.agent {
                keep_declared(s, v);
            }
            s.agent = v.clone();
        }
        s.agent_params.extend(params_from(&self.params));
        if self.playouts.is_some() {
            s.search.playouts = self.playouts;
        }
        if self.time_ms.is_some() {
            s.search.time_ms = self.time_ms;
        }
        if let Some(v) = self.games {
            s.client.games = v;
        }
        if let Some(v) = &self.name {
            s.name = v.clone();
        }
        if let Some(v) = &self.opponent {
            s.client.opponent = if v == "house" {
                OpponentChoice::House
            } else {
                OpponentChoice::Any
            };
        }
        if self.seed.is_some() {
            s.search.seed = self.seed;
        }
        if self.stdio {
            s.client.stdio = true;
        }
        if let Some(r) = &self.records {
            s.client.records = r.clone();
        }
        if let Some(t) = self.time_limit_s {
            s.client.time_limit_s = t;
        }
        if let Some(p) = &self.time_policy {
            s.search.time_policy = if p == "bank" {
                crate::config::TimePolicy::Bank
            } else {
                crate::config::TimePolicy::Fixed
            };
        }
        if self.bank_ms.is_some() || self.increment_ms.is_some() {
            s.search.time_policy = crate::config::TimePolicy::Bank;
        }
        if self.bank_ms.is_some() {
            s.search.bank_ms = self.bank_ms;
        }
        if let Some(i) = self.increment_ms {
            s.search.increment_ms = i;
            // The increment adds back to the bank the bot keeps for itself
            // (--bank-ms); a server's bank brings its own increment. Alone
            // it would do nothing.
            if s.search.bank_ms.is_none() {
                return Err(CliError::Usage(
                    "play: --increment-ms adds to the game clock of --bank-ms (search.bank_ms), \
                     and there is none: give --bank-ms too (a server's bank comes with its own \
                     increment)"
                        .into(),
                ));
            }
        }
        if let Some(p) = &self.ponder {
            s.search.ponder = p == "on";
        }
        if s.client.stdio && s.game != Some(crate::platforms::riddles::GAME) {
            return Err(CliError::Usage(
                "play: stdio mode (--stdio, client.stdio) is only for golad".into(),
            ));
        }
        Ok(())
    }
}

impl PlayArgs {
    /// No flags at all: everything comes from the profile and environment.
    pub fn none() -> Self {
        PlayArgs {
            game: None,
            server: None,
            agent: None,
            params: Vec::new(),
            playouts: None,
            time_ms: None,
            games: None,
            name: None,
            opponent: None,
            seed: None,
            records: None,
            time_limit_s: None,
            stdio: false,
            time_policy: None,
            bank_ms: None,
            increment_ms: None,
            ponder: None,
        }
    }
}

pub fn run(args: PlayArgs, settings: Settings) -> Result<(), CliError> {
    if let Some(t) = settings.search.time_ms {
        let margin = settings.search.margin_ms;
        if t <= margin {
            // The margin is inside the time: nothing is left to search.
            tracing::warn!(
                time_ms = t,
                margin_ms = margin,
                "the time per move is not more than search.margin_ms: no time is left to search, every answer is the agent's first guess"
            );
        }
    }
    if settings.client.stdio {
        return run_stdio(settings);
    }
    // A records file that cannot be written: exit 2 before connecting or
    // starting a server, whichever writes it (a missing folder is made,
    // with a warning naming it).
    if !settings.client.records.is_empty() {
        super::check_writable(
            "client.records",
            std::path::Path::new(&settings.client.records),
        )?;
    }
    let game = settings
        .game
        .ok_or_else(|| CliError::Usage("play: no game given".into()))?;
    let rt = super::runtime()?;
    // A game with a platform of its own plays there (HOST:PORT, or an
    // in-process server of that platform); every game plays on a ws:// server.
    let _ = args;
    match Platform::for_play(game, settings.client.server.as_deref()) {
        Platform::Gat => rt.block_on(play_gat(settings)),
        Platform::Ws => rt.block_on(game.visit(PlayVisitor { settings })),
    }
}

/// `play --stdio`: one game against the Riddles.io engine on
/// stdin/stdout; exit 0 at the end of stdin.
fn run_stdio(settings: Settings) -> Result<(), CliError> {
    let cfg = crate::platforms::riddles::bot::StdioConfig {
        agent: settings.agent.clone(),
        params: settings.agent_params.clone(),
        playouts: settings.search.playouts,
        time_ms: settings.search.time_ms,
        margin_ms: settings.search.margin_ms,
        seed: settings.search.seed.unwrap_or_else(super::clock_seed),
        max_answer_ms: crate::platforms::riddles::bot::MAX_ANSWER_MS,
        bank: settings.search.time_policy == crate::config::TimePolicy::Bank,
        ponder: settings.search.ponder,
        started: Some(super::started()),
    };
    let rt = super::runtime()?;
    let result = rt.block_on(async {
        let lines = crate::platforms::riddles::bot::stdin_lines();
        let mut out = std::io::stdout();
        crate::platforms::riddles::bot::run_bot(&cfg, lines, &mut out).await
    });
    // A stdin read may still block if we stop early: do not wait for it.
    rt.shutdown_timeout(Duration::from_millis(100));
    result.map(|_| ()).map_err(CliError::Runtime)
}

struct PlayVisitor {
    settings: Settings,
}

impl GameVisitor for PlayVisitor {
    type Output = std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), CliError>>>>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        Box::pin(play_game::<G>(self.settings))
    }
}

/// The stop of a session: SIGTERM or SIGINT (a second one abandons the game
/// in progress at once), the time limit, or stdout closed by its reader. Returns the receiver for the
/// client and a cell that names the signal, if one came.
fn session_stop(
    s: &Settings,
) -> (
    tokio::sync::watch::Receiver<Stop>,
    std::sync::Arc<std::sync::Mutex<Option<&'static str>>>,
) {
    let (tx, rx) = tokio::sync::watch::channel(Stop::Run);
    let tx = std::sync::Arc::new(tx);
    let signal = std::sync::Arc::new(std::sync::Mutex::new(None));
    let (tx2, cell) = (tx.clone(), signal.clone());
    let grace = s.client.stop_grace_ms;
    let mut signals = super::Signals::install();
    tokio::spawn(async move {
        let first = signals.next().await;
        *cell.lock().unwrap_or_else(|e| e.into_inner()) = Some(first);
        tracing::warn!(signal = first, grace_ms = grace, "stopping: the game in progress is played out, then the session ends (again to abandon it now)");
        tx2.send_replace(Stop::Finish);
        let again = signals.next().await;
        tracing::warn!(signal = again, "abandoning the game in progress");
        tx2.send_replace(Stop::Abandon);
    });
    // A reader that stopped reading (`| head -1`): no new game.
    let closed = tx.clone();
    super::out::on_close(move || {
        closed.send_if_modified(|v| {
            let run = *v == Stop::Run;
            if run {
                *v = Stop::Finish;
            }
            run
        });
    });
    if s.client.time_limit_s > 0 {
        let limit = Duration::from_secs(s.client.time_limit_s);
        tokio::spawn(async move {
            tokio::time::sleep(limit).await;
            tracing::info!(seconds = limit.as_secs(), "time limit reached: no new game");
            tx.send_if_modified(|v| {
                let run = *v == Stop::Run;
                if run {
                    *v = Stop::Finish;
                }
                run
            });
        });
    }
    (rx, signal)
}

/// The exit a failed client run deserves: worth retrying later (75) when
/// the server could not be reached or was busy, bad configuration (2) when
/// the server refused what we asked, a plain failure (1) otherwise.
fn client_error(e: ClientError) -> CliError {
    match &e {
        ClientError::Connect { .. } => CliError::Retry(e.to_string()),
        ClientError::Rejected { code, .. } if code == "busy" || code == "shutting_down" => {
            CliError::Retry(e.to_string())
        }
        ClientError::Rejected { .. } | ClientError::Config(_) | ClientError::Agent(_) => {
            CliError::Usage(e.to_string())
        }
        ClientError::Protocol(_) => CliError::Runtime(e.to_string()),
    }
}

fn print_game(g: &GameFinished) {
    say!("{}", client::describe_game(g));
}

async fn play_game<G: PlayableGame>(settings: Settings) -> Result<(), CliError> {
    let (stop, signal) = session_stop(&settings);
    let session = play_session(
        &settings,
        settings.search.seed.unwrap_or_else(super::clock_seed),
    );
    let summary = match settings.client.server.clone() {
        Some(url) => {
            // Our own records, flushed after every game.
            let records = open_records(&settings.client.records).map_err(session_error)?;
            let mut write_error = None;
            let cfg = ClientConfig {
                stop: Some(stop),
                ..ws::session::client_config(&session, url)
            };
            let name = settings.name.clone();
            let summary = client::run_client::<G>(cfg, |g| {
                print_game(g);
                if let Some(w) = &records {
                    if let Err(e) = w.append(&g.record(G::ID, &name)) {
                        tracing::error!(error = %e, file = %w.path().display(), "cannot write the game's record");
                        write_error.get_or_insert(e.to_string());
                    }
                }
            })
            .await;
            if let Some(e) = write_error {
                return Err(CliError::Runtime(format!(
                    "client.records: writing {}: {e}",
                    settings.client.records
                )));
            }
            summary
        }
        None => {
            let mut server_settings = settings.server.clone();
            server_settings.bind = "127.0.0.1:0".into();
            server_settings.records = settings.client.records.clone();
            server_settings.token = settings.client.token.clone();
            if server_settings.house_agent.is_empty() {
                return Err(CliError::Usage("play: no server given and server.house_agent is empty: nobody to play".into()));
            }
            let config = super::serve::server_config(&server_settings).map_err(CliError::Usage)?;
            let server = crate::platforms::ws::server::Server::bind(config)
                .await
                .map_err(|e| CliError::Runtime(e.to_string()))?;
            let url = format!("ws://{}", server.local_addr());
            tracing::info!(%url, house = %server_settings.house_agent, "started an in-process server with a house bot");
            let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
            let handle = tokio::spawn(server.run(async move {
                let _ = stop_rx.await;
            }));
            // Show the agents' real names (`default` stands for the game's own).
            let shown = |name: &str| G::build_agent(name, &Default::default(), 0).map_or(name.to_string(), |a| a.name().to_string());
            say!(
                "{} ({}) vs house bot ({}) on {url}",
                settings.name,
                shown(&settings.agent),
                shown(match server_settings.house_agent.as_str() {
                    crate::games::DEFAULT_AGENT => G::house_agent(),
                    other => other,
                })
            );
            let cfg = ClientConfig {
                stop: Some(stop),
                opponent: Opponent::House,
                ..ws::session::client_config(&session, url)
            };
            let summary = client::run_client::<G>(cfg, print_game).await;
            let _ = stop_tx.send(());
            let _ = handle.await;
            summary
        }
    }
    .map_err(client_error)?;
    print_summary(
        &settings.name,
        summary.games,
        summary.wins,
        summary.draws,
        summary.losses,
        summary.aborted,
        summary.score(),
    );
    if summary.resumed > 0 {
        say!(
            "session: the connection dropped {} time(s) mid-match; our seat was taken back each time",
            summary.resumed
        );
    }
    if let Some(why) = &summary.server_lost {
        // The records and the summary are out; a lost server is worth
        // retrying later (exit 75), as for a GAT server.
        say!(
            "session: the server went away mid-game; {} game(s) aborted",
            summary.aborted
        );
        return Err(CliError::Retry(format!("lost the server: {why}")));
    }
    session_end(summary.stopped, summary.abandoned, &signal)
}

/// The closing line of every client command (`games` counts the finished
/// games; `aborted` ones, cut off with nobody at fault, are not in it and
/// are named at the end when there are any), ending with whose it is: our
/// name in brackets (two clients on one terminal print one each).
fn print_summary(
    name: &str,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    aborted: u32,
    score: f64,
) {
    let mut line = format!(
        "summary: games {games}, wins {wins}, draws {draws}, losses {losses}, score {score:.3}"
    );
    if aborted > 0 {
        line.push_str(&format!(", aborted {aborted}"));
    }
    say!("{line} ({name})");
}

/// The end of a session: a line when it stopped early, and the exit it
/// deserves (130/143 after a signal).
fn session_end(
    stopped: bool,
    abandoned: u32,
    signal: &std::sync::Mutex<Option<&'static str>>,
) -> Result<(), CliError> {
    let signal = *signal.lock().unwrap_or_else(|e| e.into_inner());
    if stopped || abandoned > 0 {
        say!(
            "session: stopped early by {}; {abandoned} game(s) abandoned",
            signal.unwrap_or("the time limit"),
        );
    }
    match signal {
        Some(sig) => Err(CliError::Interrupted(sig)),
        None => Ok(()),
    }
}

/// A session on GAT ([`gat::session`]): its lines, the summary, and the
/// exit it deserves.
async fn play_gat(settings: Settings) -> Result<(), CliError> {
    let seed = settings.search.seed.unwrap_or_else(super::clock_seed);
    let (stop, signal) = session_stop(&settings);
    let session = play_session(&settings, seed);
    let summary = gat::session::play(&session, stop, |line| {
        say!("{line}");
    })
    .await
    .map_err(session_error)?;
    print_summary(
        &settings.name,
        summary.games,
        summary.wins,
        summary.draws,
        summary.losses,
        summary.aborted,
        summary.score(),
    );
    session_end(summary.stopped, summary.abandoned, &signal)?;
    gat::session::end(&summary).map_err(session_error)
}

/// What the settings ask of a platform's own session ([`gat::session`],
/// [`ws::session`]), with our seed.
fn play_session(s: &Settings, seed: u64) -> PlaySession {
    PlaySession {
        name: s.name.clone(),
        server: s.client.server.clone(),
        agent: s.agent.clone(),
        params: s.agent_params.clone(),
        playouts: s.search.playouts,
        time_ms: s.search.time_ms,
        margin_ms: s.search.margin_ms,
        bank: s.search.time_policy == crate::config::TimePolicy::Bank,
        bank_ms: s.search.bank_ms,
        increment_ms: s.search.increment_ms,
        ponder: s.search.ponder,
        games: s.client.games,
        seed,
        records: s.client.records.clone(),
        opponent: s.client.opponent,
        token: s.client.token.clone(),
        connect_timeout: Duration::from_millis(s.client.connect_timeout_ms),
        reconnect_window: Duration::from_millis(s.client.reconnect_window_ms),
        backoff_initial: Duration::from_millis(s.client.backoff_initial_ms),
        backoff_max: Duration::from_millis(s.client.backoff_max_ms),
        max_reconnects: s.client.max_reconnects,
        heartbeat_timeout: Duration::from_millis(s.client.heartbeat_timeout_ms),
        stop_grace: Duration::from_millis(s.client.stop_grace_ms),
        house: HouseBot {
            agent: s.server.house_agent.clone(),
            playouts: Some(s.server.house_playouts).filter(|&n| n > 0),
            time_ms: Some(s.server.house_time_ms).filter(|&t| t > 0),
        },
    }
}

/// The exit a failed platform session deserves: bad configuration (2),
/// worth retrying later (75), a plain failure (1).
fn session_error(e: SessionError) -> CliError {
    match e {
        SessionError::Config(m) => CliError::Usage(m),
        SessionError::Retry(m) => CliError::Retry(m),
        SessionError::Failed(m) => CliError::Runtime(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;

    fn golad_best() -> Settings {
        let mut s = Settings {
            game: Some(GameKind::Golad),
            agent: "best".into(),
            ..Settings::default()
        };
        s.agent_params.insert("pw_root".into(), 300.into());
        s
    }

    #[test]
    fn another_agent_keeps_only_the_profile_params_it_declares() {
        let game = GameKind::Golad;
        // As the profile gives them, `pass` refuses them.
        let s = golad_best();
        assert!(game.check_agent("pass", &s.agent_params).is_err());
        let mut s = golad_best();
        keep_declared(&mut s, "pass");
        assert!(s.agent_params.is_empty());
        assert!(game.check_agent("pass", &s.agent_params).is_ok());
        // An agent that declares them keeps them.
        let mut s = golad_best();
        keep_declared(&mut s, "ab-v2");
        assert_eq!(s.agent_params["pw_root"].as_u64(), Some(300));
        // An unknown agent keeps them all: `validate` names the agent.
        let mut s = golad_best();
        keep_declared(&mut s, "nope");
        assert_eq!(s.agent_params.len(), 1);
    }
}
