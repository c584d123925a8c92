//! Geister matches over real TCP: each worker thread runs its own GAT server
//! ([`GatServer`]) on two loopback ports chosen by the system, and every game
//! is played by two GAT clients ([`run_client`], one game each) connected
//! over real sockets. A is the client on the first port (seat 0, moves
//! first) in even games and on the second port in odd ones. The results and
//! endings come from the server's records; the clients' own verdicts are
//! checked against them.
//!
//! A side may also be an external GAT client program
//! ([`SideConfig::command`]), for example another team's tournament entry:
//! it is started afresh for every game with `{host}` and `{port}` in its
//! command line replaced by the server's address for its seat, and must
//! play that one game and exit (it is killed [`PROGRAM_GRACE`] after the
//! game's end). A program that exits before its game has ended stops the
//! match with an error instead of leaving it waiting.

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::process::{Child, Command};
use tokio::sync::mpsc;

use super::{
    a_seat, derive_seed, players, side_of_seat, Driver, MatchConfig, Playable, Played, SideConfig,
    SIDE_NAMES,
};
use crate::games::geister::agents;
use crate::games::geister::game::{DRAW_KEYS, WIN_KEYS};
use crate::games::geister::GeisterGame;
use crate::games::PlayableGame;
use crate::platforms::gat::client::{run_client, run_client_with, GatClientConfig, GatSummary};
use crate::platforms::gat::codec::{DEFAULT_BUDGET_S, DEFAULT_TIMEOUT_S};
use crate::platforms::gat::server::{GatServer, GatServerConfig};
use crate::records::GameRecord;
use crate::runtime::SearchThread;
use crate::search::Outcome;

/// How long a client keeps trying to connect to the worker's server.
const CONNECT_WINDOW: Duration = Duration::from_secs(30);

/// How long a program may take to exit once its game is over, and how long
/// the server may take to finish a game's record once a program has exited.
pub const PROGRAM_GRACE: Duration = Duration::from_secs(5);

/// Geister over GAT TCP, with the server's time control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverGat {
    /// Time budget per player and game.
    pub budget: Duration,
    /// Per-move timeout once the budget is spent.
    pub timeout: Duration,
    /// Where the programs' stdout and stderr are appended (default: nowhere).
    pub program_log: Option<PathBuf>,
}

impl Default for OverGat {
    /// The GAT server's defaults: 600 s, then 10 s per move.
    fn default() -> Self {
        OverGat {
            budget: Duration::from_secs(DEFAULT_BUDGET_S),
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_S),
            program_log: None,
        }
    }
}

/// `words` with `{host}` and `{port}` replaced.
pub fn program_argv(words: &[String], host: &str, port: u16) -> Vec<String> {
    words
        .iter()
        .map(|w| {
            w.replace("{host}", host)
                .replace("{port}", &port.to_string())
        })
        .collect()
}

impl OverGat {
    fn output(&self) -> Result<Stdio, String> {
        match &self.program_log {
            None => Ok(Stdio::null()),
            Some(p) => OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map(Stdio::from)
                .map_err(|e| format!("cannot open {}: {e}", p.display())),
        }
    }

    /// Starts side `k`'s program for the server's port `port`.
    fn start_program(&self, k: usize, words: &[String], port: u16) -> Result<Child, String> {
        let argv = program_argv(words, "127.0.0.1", port);
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| format!("side {}: an empty command", SIDE_NAMES[k]))?;
        Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(self.output()?)
            .stderr(self.output()?)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                format!(
                    "side {}: cannot start '{}': {e}",
                    SIDE_NAMES[k],
                    argv.join(" ")
                )
            })
    }
}

/// The first of `programs` to exit: its side and how it exited. Pending
/// forever without programs.
async fn first_exit(programs: &mut [(usize, Child)]) -> (usize, String) {
    let status = |r: std::io::Result<std::process::ExitStatus>| match r {
        Ok(s) => s.to_string(),
        Err(e) => e.to_string(),
    };
    match programs {
        [] => std::future::pending().await,
        [(k, c)] => (*k, status(c.wait().await)),
        [(k0, c0), (k1, c1), ..] => tokio::select! {
            r = c0.wait() => (*k0, status(r)),
            r = c1.wait() => (*k1, status(r)),
        },
    }
}

/// One worker's server: its runtime, its ports and its finished games.
pub struct GatWorker {
    rt: tokio::runtime::Runtime,
    ports: [u16; 2],
    records: mpsc::UnboundedReceiver<GameRecord>,
    /// The agents of sides A and B kept between games
    /// ([`MatchConfig::keep_agents`]).
    kept: [Option<Arc<SearchThread<GeisterGame>>>; 2],
}

impl GatWorker {
    /// The server's ports (first seat, second seat).
    pub fn ports(&self) -> [u16; 2] {
        self.ports
    }
}

impl Driver for OverGat {
    type Worker = GatWorker;

    fn game(&self) -> &str {
        GeisterGame::ID
    }

    fn check(&self, cfg: &MatchConfig) -> Result<(), String> {
        if cfg.openings.is_some() {
            return Err(
                "openings cannot be played over GAT: a GAT server starts every game \
                        from the setup"
                    .into(),
            );
        }
        // Programs are checked when they start; agents before any game.
        let agent_or_rule = |s: &SideConfig| match s.command {
            Some(_) => SideConfig::new("rule"),
            None => s.clone(),
        };
        let agents = MatchConfig {
            a: agent_or_rule(&cfg.a),
            b: agent_or_rule(&cfg.b),
            ..cfg.clone()
        };
        Playable::<GeisterGame>::new().check(&agents)
    }

    fn worker(&self, _cfg: &MatchConfig) -> Result<GatWorker, String> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start a runtime for the GAT server: {e}"))?;
        let server_cfg = GatServerConfig {
            host: "127.0.0.1".into(),
            ports: [0, 0],
            budget: self.budget,
            timeout: self.timeout,
            games: 0,
            out: None,
        };
        let (server, ports) = rt
            .block_on(async {
                let s = GatServer::bind(server_cfg).await?;
                let ports = s.local_ports()?;
                Ok::<_, std::io::Error>((s, ports))
            })
            .map_err(|e| format!("cannot start a GAT server on loopback: {e}"))?;
        let (tx, records) = mpsc::unbounded_channel();
        // Runs whenever the worker blocks on a game; dropped with the runtime.
        rt.spawn(server.run(move |r| {
            let _ = tx.send(r.clone());
        }));
        tracing::debug!(ports = ?ports, "GAT server for a match worker");
        Ok(GatWorker {
            rt,
            ports,
            records,
            kept: [None, None],
        })
    }

    fn play(&self, w: &mut GatWorker, cfg: &MatchConfig, index: u32) -> Result<Played, String> {
        let sides = [&cfg.a, &cfg.b];
        let a_seat = a_seat(index);
        let ports = w.ports;
        let client = |k: usize| {
            let seat = if k == 0 { a_seat } else { 1 - a_seat };
            GatClientConfig {
                addr: format!("127.0.0.1:{}", ports[seat]),
                agent: sides[k].agent.clone(),
                params: sides[k].params.clone(),
                time_ms: sides[k].time_ms,
                playouts: sides[k].playouts,
                margin_ms: sides[k].margin_ms.unwrap_or(cfg.margin_ms),
                // A bank profile's clock: each move its free second and a
                // share of the bank, as on a GAT server.
                plan: sides[k]
                    .clock
                    .map(|c| crate::platforms::gat::clock::GatPlan::with_bank(c.bank)),
                // Our own serve-gat code has no timer thread to race.
                min_answer: Duration::ZERO,
                games: 1,
                seed: derive_seed(cfg.seed, index as u64, k as u64 + 1),
                connect_timeout: Duration::from_secs(5),
                reconnect_window: CONNECT_WINDOW,
                stop: None,
                stop_grace: Duration::ZERO,
                first_game: index + 1,
                own_server: true,
                // A profile that ponders ponders here too (both clients
                // share this machine, as in an in-process match).
                ponder: sides[k].ponder,
            }
        };
        let seat_of = |k: usize| if k == 0 { a_seat } else { 1 - a_seat };
        let GatWorker {
            rt, records, kept, ..
        } = w;
        if cfg.keep_agents {
            for (k, side) in sides.iter().enumerate() {
                if side.command.is_none() && kept[k].is_none() {
                    let c = client(k);
                    let agent = agents::build(&c.agent, &c.params, c.seed)
                        .map_err(|e| format!("side {}: {e}", SIDE_NAMES[k]))?;
                    // The search thread's channels need the runtime.
                    let _guard = rt.enter();
                    kept[k] = Some(Arc::new(SearchThread::spawn(agent)));
                }
            }
        }
        rt.block_on(async {
            // Agents run as tasks of this runtime, programs as processes.
            let mut clients = Vec::new();
            let mut programs = Vec::new();
            for (k, side) in sides.iter().enumerate() {
                match &side.command {
                    Some(words) => {
                        programs.push((k, self.start_program(k, words, ports[seat_of(k)])?))
                    }
                    None => match kept[k].clone() {
                        Some(agent) => {
                            let c = client(k);
                            let task = async move { run_client_with(&c, &agent, |_| {}).await };
                            clients.push((k, tokio::spawn(task)));
                        }
                        None => clients.push((k, tokio::spawn(run_client(client(k), |_| {})))),
                    },
                }
            }
            let record = tokio::select! {
                r = records.recv() => r.ok_or_else(|| "the GAT server stopped".to_string())?,
                (k, status) = first_exit(&mut programs) => {
                    // The server may still be writing the game's record.
                    match tokio::time::timeout(PROGRAM_GRACE, records.recv()).await {
                        Ok(Some(r)) => r,
                        _ => return Err(format!(
                            "side {}'s program exited ({status}) before its game ended",
                            SIDE_NAMES[k]
                        )),
                    }
                }
            };
            let mut summaries: [Option<GatSummary>; 2] = [None, None];
            for (k, task) in clients {
                let s = task
                    .await
                    .map_err(|e| format!("side {} over GAT: {e}", SIDE_NAMES[k]))?
                    .map_err(|e| format!("side {} over GAT: {e}", SIDE_NAMES[k]))?;
                summaries[k] = Some(s);
            }
            for (k, mut child) in programs {
                if tokio::time::timeout(PROGRAM_GRACE, child.wait())
                    .await
                    .is_err()
                {
                    tracing::debug!(side = SIDE_NAMES[k], "program killed after its game");
                    let _ = child.kill().await;
                }
            }
            Ok(played_from_record(cfg, index, record, summaries))
        })
    }

    fn ending_keys(&self) -> Option<(&'static [&'static str], &'static [&'static str])> {
        Some((WIN_KEYS, DRAW_KEYS))
    }

    fn transport(&self) -> Option<&str> {
        Some("gat-tcp")
    }
}

/// The game's summary from the server's record (seat 0 moved first), with
/// the record renamed for the match; warns if a client saw another result.
fn played_from_record(
    cfg: &MatchConfig,
    index: u32,
    mut record: GameRecord,
    clients: [Option<GatSummary>; 2],
) -> Played {
    let mut decisions = [0u64; 2];
    let mut time = [Duration::ZERO; 2];
    let mut max_time = [Duration::ZERO; 2];
    // Seat 0 then seat 1 set up, then they move in turn, seat 0 first: the
    // seat of action `ply` is `ply % 2` throughout.
    for (ply, ms) in record.move_ms.iter().enumerate() {
        let k = side_of_seat(index, ply % 2);
        decisions[k] += 1;
        time[k] += Duration::from_millis(*ms);
        max_time[k] = max_time[k].max(Duration::from_millis(*ms));
    }
    let result = match record.winner {
        Some(s) => Outcome::Win(side_of_seat(index, s)),
        None => Outcome::Draw,
    };
    for (k, c) in clients.iter().enumerate() {
        // A program's own verdict is not known here.
        let Some(c) = c else { continue };
        let seen = if c.draws == 1 {
            Outcome::Draw
        } else if c.wins == 1 {
            Outcome::Win(k)
        } else {
            Outcome::Win(1 - k)
        };
        if c.games != 1 || seen != result {
            tracing::warn!(
                game = index,
                side = SIDE_NAMES[k],
                client = ?c,
                record = ?record.result,
                "a client's verdict differs from the server's record"
            );
        }
    }
    let server_id = std::mem::replace(&mut record.id, format!("s{}-g{}", cfg.seed, index));
    tracing::debug!(%server_id, id = %record.id, "GAT game recorded");
    record.players = players(cfg, index);
    Played {
        result,
        decisions,
        playouts: [0; 2],
        time,
        max_time,
        record,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{read_records, EndReason};
    use crate::runner::{render_report, run_with, SideConfig};

    use crate::runner::test_support::{config, quiet};

    fn cfg(a: &str, b: &str, games: u32, jobs: usize) -> MatchConfig {
        MatchConfig {
            margin_ms: 5,
            ..config(SideConfig::new(a), SideConfig::new(b), games, jobs, 5)
        }
    }

    #[test]
    fn a_match_over_gat_tcp_reports_results_and_endings_from_the_records() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("gat.jsonl");
        let mut c = cfg("rule", "random", 12, 2);
        c.a.time_ms = Some(200);
        c.out = Some(out.clone());
        let r = run_with(&OverGat::default(), &c, &quiet).unwrap();
        assert_eq!(r.games, 12);
        assert_eq!(r.transport.as_deref(), Some("gat-tcp"));
        let text = render_report(&r);
        assert!(
            text.starts_with("geister over GAT TCP: A = rule(time_ms=200) vs B = random"),
            "{text}"
        );
        let e = r.endings.clone().unwrap();
        assert_eq!(e.total(), 12);
        assert_eq!(e.a.values().sum::<u32>(), r.wins, "{text}");
        assert_eq!(e.b.values().sum::<u32>(), r.losses, "{text}");
        let mut recs = read_records(&out).unwrap();
        recs.sort_by_key(|r| r.id.rsplit_once("-g").unwrap().1.parse::<u32>().unwrap());
        assert_eq!(recs.len(), 12);
        let mut a_wins = 0;
        for (i, rec) in recs.iter().enumerate() {
            let i = i as u32;
            assert_eq!(rec.id, format!("s5-g{i}"));
            assert_eq!(rec.players[a_seat(i)], "A:rule");
            assert_eq!(rec.players[1 - a_seat(i)], "B:random");
            assert_eq!(rec.reason, EndReason::Rules, "{rec:?}");
            let ending = rec.ending.as_deref().unwrap();
            assert!(
                WIN_KEYS.contains(&ending) || DRAW_KEYS.contains(&ending),
                "{ending}"
            );
            assert!(
                rec.moves[0].as_str().unwrap().starts_with("SET:"),
                "{rec:?}"
            );
            assert!(
                rec.moves[1].as_str().unwrap().starts_with("SET:"),
                "{rec:?}"
            );
            let end = crate::games::replay::<GeisterGame>(&rec.start, &rec.moves).unwrap();
            let o = crate::model::Model::turn(&end).outcome().unwrap();
            assert_eq!(o.winner(), rec.winner);
            assert_eq!(rec.moves.len(), rec.move_ms.len());
            if rec.winner == Some(a_seat(i)) {
                a_wins += 1;
            }
        }
        assert_eq!(a_wins, r.wins);
    }

    #[test]
    fn a_program_gets_the_address_of_its_seat() {
        let words: Vec<String> = [
            "sh",
            "-c",
            "echo 1 {port} {host} 5 | ./entry",
            "--to={host}:{port}",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            program_argv(&words, "127.0.0.1", 10001),
            [
                "sh",
                "-c",
                "echo 1 10001 127.0.0.1 5 | ./entry",
                "--to=127.0.0.1:10001"
            ]
        );
    }

    #[test]
    fn a_bad_agent_over_gat_is_an_error_before_any_game() {
        let e = run_with(&OverGat::default(), &cfg("rule", "nobody", 2, 1), &quiet).unwrap_err();
        assert!(e.contains("side B") && e.contains("nobody"), "{e}");
    }
}
