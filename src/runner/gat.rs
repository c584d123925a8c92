//! Geister matches over real TCP: each worker thread runs its own GAT server
//! ([`GatServer`]) on two loopback ports chosen by the system, and every game
//! is played by two GAT clients ([`run_client`], one game each) connected
//! over real sockets. A is the client on the first port (seat 0, moves
//! first) in even games and on the second port in odd ones. The results and
//! endings come from the server's records; the clients' own verdicts are
//! checked against them.

use std::time::Duration;

use tokio::sync::mpsc;

use super::{
    a_seat, derive_seed, players, side_of_seat, Driver, MatchConfig, Playable, Played, SIDE_NAMES,
};
use crate::games::geister::game::{DRAW_KEYS, WIN_KEYS};
use crate::games::geister::GeisterGame;
use crate::games::PlayableGame;
use crate::platforms::gat::client::{run_client, GatClientConfig, GatSummary};
use crate::platforms::gat::codec::{DEFAULT_BUDGET_S, DEFAULT_TIMEOUT_S};
use crate::platforms::gat::server::{GatServer, GatServerConfig};
use crate::records::GameRecord;
use crate::search::Outcome;

/// How long a client keeps trying to connect to the worker's server.
const CONNECT_WINDOW: Duration = Duration::from_secs(30);

/// Geister over GAT TCP, with the server's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverGat {
    /// Time budget per player and game.
    pub budget: Duration,
    /// Per-move timeout once the budget is spent.
    pub timeout: Duration,
}

impl Default for OverGat {
    /// The GAT server's defaults: 600 s, then 10 s per move.
    fn default() -> Self {
        OverGat {
            budget: Duration::from_secs(DEFAULT_BUDGET_S),
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_S),
        }
    }
}

/// One worker's server: its runtime, its ports and its finished games.
pub struct GatWorker {
    rt: tokio::runtime::Runtime,
    ports: [u16; 2],
    records: mpsc::UnboundedReceiver<GameRecord>,
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
        Playable::<GeisterGame>::new().check(cfg)
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
        Ok(GatWorker { rt, ports, records })
    }

    fn play(&self, w: &mut GatWorker, cfg: &MatchConfig, index: u32) -> Result<Played, String> {
        let sides = [&cfg.a, &cfg.b];
        let a_seat = a_seat(index);
        let client = |k: usize| {
            let seat = if k == 0 { a_seat } else { 1 - a_seat };
            GatClientConfig {
                addr: format!("127.0.0.1:{}", w.ports[seat]),
                agent: sides[k].agent.clone(),
                params: sides[k].params.clone(),
                time_ms: sides[k].time_ms,
                playouts: sides[k].playouts,
                margin_ms: cfg.margin_ms,
                games: 1,
                seed: derive_seed(cfg.seed, index as u64, k as u64 + 1),
                connect_timeout: Duration::from_secs(5),
                reconnect_window: CONNECT_WINDOW,
            }
        };
        let (ca, cb) = (client(0), client(1));
        let GatWorker { rt, records, .. } = w;
        let side_err = |k: usize| move |e: String| format!("side {} over GAT: {e}", SIDE_NAMES[k]);
        let (sa, sb, record) = rt.block_on(async {
            tokio::try_join!(
                async { run_client(ca, |_| {}).await.map_err(side_err(0)) },
                async { run_client(cb, |_| {}).await.map_err(side_err(1)) },
                async {
                    records
                        .recv()
                        .await
                        .ok_or_else(|| "the GAT server stopped".to_string())
                },
            )
        })?;
        Ok(played_from_record(cfg, index, record, [sa, sb]))
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
    clients: [GatSummary; 2],
) -> Played {
    let mut decisions = [0u64; 2];
    let mut time = [Duration::ZERO; 2];
    // Seat 0 then seat 1 set up, then they move in turn, seat 0 first: the
    // seat of action `ply` is `ply % 2` throughout.
    for (ply, ms) in record.move_ms.iter().enumerate() {
        let k = side_of_seat(index, ply % 2);
        decisions[k] += 1;
        time[k] += Duration::from_millis(*ms);
    }
    let result = match record.winner {
        Some(s) => Outcome::Win(side_of_seat(index, s)),
        None => Outcome::Draw,
    };
    for (k, c) in clients.iter().enumerate() {
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
    fn a_bad_agent_over_gat_is_an_error_before_any_game() {
        let e = run_with(&OverGat::default(), &cfg("rule", "nobody", 2, 1), &quiet).unwrap_err();
        assert!(e.contains("side B") && e.contains("nobody"), "{e}");
    }
}
