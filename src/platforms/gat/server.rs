//! A GAT-compatible Geister server: one client on each of two ports, one
//! game per pair of connections, game after game.
//!
//! Seat 0 is the client on the first port and moves first. Each player has a
//! time budget charged in whole (truncated) seconds; a move may take the rest
//! of the budget plus the per-move timeout, and once the budget is spent only
//! the per-move timeout. An illegal or unreadable move, running out of time or
//! a closed connection loses.

use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};

use super::{read_line, show_line};
use crate::games::geister::{ending, Action, Colour, Geister, GeisterGame, Move, Setup};
use crate::games::PlayableGame;
use crate::platforms::gat::codec::{parse_client_line, ClientMsg, Outcome, EOL};
use crate::records::{now_ms, EndReason, GameRecord, RecordWriter};
use crate::search::{Outcome as GameOutcome, Seat};

/// How many refused SETs a client may send before it loses.
pub const MAX_SET_TRIES: u32 = 5;

/// How long one write may take before the peer counts as gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// What the server needs.
#[derive(Clone, Debug)]
pub struct GatServerConfig {
    /// Address to bind, e.g. `0.0.0.0` or `127.0.0.1`.
    pub host: String,
    /// First seat's port, second seat's port; 0 picks a free one.
    pub ports: [u16; 2],
    /// Time budget per player and game.
    pub budget: Duration,
    /// Per-move timeout once the budget is spent (also the SET timeout).
    pub timeout: Duration,
    /// Games to serve; 0 = forever.
    pub games: u32,
    /// Records file (`.jsonl`), if any.
    pub out: Option<PathBuf>,
}

/// A bound server.
pub struct GatServer {
    cfg: GatServerConfig,
    listeners: [TcpListener; 2],
    records: Option<RecordWriter>,
}

impl GatServer {
    /// Binds both ports and opens the records file.
    pub async fn bind(cfg: GatServerConfig) -> io::Result<Self> {
        let l0 = TcpListener::bind((cfg.host.as_str(), cfg.ports[0])).await?;
        let l1 = TcpListener::bind((cfg.host.as_str(), cfg.ports[1])).await?;
        let records = cfg.out.as_ref().map(RecordWriter::open).transpose()?;
        Ok(GatServer {
            cfg,
            listeners: [l0, l1],
            records,
        })
    }

    /// The ports actually bound (useful with port 0).
    pub fn local_ports(&self) -> io::Result<[u16; 2]> {
        Ok([
            self.listeners[0].local_addr()?.port(),
            self.listeners[1].local_addr()?.port(),
        ])
    }

    /// Serves games one after another until `games` are done (0 = forever),
    /// calling `on_game` with each finished game's record. Returns the number
    /// of games played.
    pub async fn run(self, mut on_game: impl FnMut(&GameRecord)) -> io::Result<u32> {
        let ports = self.local_ports()?;
        let mut played = 0u32;
        while self.cfg.games == 0 || played < self.cfg.games {
            let (a, b) = tokio::join!(
                accept_one(&self.listeners[0]),
                accept_one(&self.listeners[1])
            );
            played += 1;
            let id = format!("gat-{played}");
            tracing::debug!(%id, "both players connected");
            let record = play_game(&self.cfg, id, ports, [a, b]).await;
            if let Some(w) = &self.records {
                if let Err(e) = w.append(&record) {
                    tracing::error!(error = %e, path = %w.path().display(), "cannot write a record");
                }
            }
            on_game(&record);
        }
        Ok(played)
    }
}

/// Accepts one connection, retrying on transient errors.
async fn accept_one(l: &TcpListener) -> TcpStream {
    loop {
        match l.accept().await {
            Ok((s, peer)) => {
                tracing::debug!(%peer, "accepted");
                let _ = s.set_nodelay(true);
                return s;
            }
            Err(e) => {
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

enum Recv {
    Line(String),
    Closed(String),
    TimedOut,
}

struct Conn {
    rd: BufReader<OwnedReadHalf>,
    wr: OwnedWriteHalf,
}

impl Conn {
    fn new(s: TcpStream) -> Self {
        let (rd, wr) = s.into_split();
        Conn {
            rd: BufReader::new(rd),
            wr,
        }
    }

    /// Sends one line (the body, without its end of line).
    async fn send(&mut self, body: &str) -> Result<(), String> {
        let line = format!("{body}{EOL}");
        match tokio::time::timeout(WRITE_TIMEOUT, self.wr.write_all(line.as_bytes())).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("write timed out".into()),
        }
    }

    async fn recv(&mut self, limit: Duration) -> Recv {
        match tokio::time::timeout(limit, read_line(&mut self.rd)).await {
            Err(_) => Recv::TimedOut,
            Ok(Ok(Some(l))) => Recv::Line(l),
            Ok(Ok(None)) => Recv::Closed("connection closed".into()),
            Ok(Err(e)) => Recv::Closed(e.to_string()),
        }
    }
}

/// How long the waiting seat is watched for out-of-order lines: longer
/// than any move's allowance.
const OUT_OF_TURN_WATCH: Duration = Duration::from_secs(24 * 3600);

/// How a game ended: winner (None = draw), reason, detail.
type Ending = (Option<Seat>, EndReason, Option<String>);

/// Asks for and validates a SET, allowing retries after `NG `.
async fn get_setup(c: &mut Conn, limit: Duration) -> Result<Setup, (EndReason, String)> {
    c.send("SET?")
        .await
        .map_err(|e| (EndReason::Disconnect, e))?;
    for _ in 0..MAX_SET_TRIES {
        let line = match c.recv(limit).await {
            Recv::Line(l) => l,
            Recv::Closed(e) => return Err((EndReason::Disconnect, e)),
            Recv::TimedOut => return Err((EndReason::Timeout, "no SET in time".into())),
        };
        let setup = match parse_client_line(&line) {
            Ok(ClientMsg::Set(r)) => Setup::from_reds(r.as_array()).ok(),
            _ => None,
        };
        match setup {
            Some(s) => {
                c.send("OK ")
                    .await
                    .map_err(|e| (EndReason::Disconnect, e))?;
                return Ok(s);
            }
            None => {
                tracing::info!(line = %show_line(&line), "refused a SET");
                c.send("NG ")
                    .await
                    .map_err(|e| (EndReason::Disconnect, e))?;
            }
        }
    }
    Err((
        EndReason::IllegalMove,
        format!("{MAX_SET_TRIES} refused SETs"),
    ))
}

async fn play_game(
    cfg: &GatServerConfig,
    id: String,
    ports: [u16; 2],
    streams: [TcpStream; 2],
) -> GameRecord {
    let started_ms = now_ms();
    let [s0, s1] = streams;
    let mut conns = [Conn::new(s0), Conn::new(s1)];
    let mut moves: Vec<Value> = Vec::new();
    let mut move_ms: Vec<u64> = Vec::new();
    let mut game: Option<Geister> = None;

    let ending: Ending = 'game: {
        let [c0, c1] = &mut conns;
        let (r0, r1) = tokio::join!(get_setup(c0, cfg.timeout), get_setup(c1, cfg.timeout));
        let setups = match (r0, r1) {
            (Ok(a), Ok(b)) => [a, b],
            (Err((reason, e)), Ok(_)) => {
                break 'game (Some(1), reason, Some(format!("seat 0: {e}")))
            }
            (Ok(_), Err((reason, e))) => {
                break 'game (Some(0), reason, Some(format!("seat 1: {e}")))
            }
            (Err((reason, e0)), Err((_, e1))) => {
                break 'game (None, reason, Some(format!("seat 0: {e0}; seat 1: {e1}")))
            }
        };
        let g = game.insert(Geister::new(setups));
        let mut budget = [cfg.budget.as_secs(); 2];
        loop {
            if let Some(o) = g.outcome() {
                let winner = match o {
                    GameOutcome::Win(s) => Some(s),
                    GameOutcome::Draw => None,
                };
                break 'game (winner, EndReason::Rules, None);
            }
            let s = g.to_move();
            let (first, second) = conns.split_at_mut(1);
            let (c, waiting) = if s == 0 {
                (&mut first[0], &mut second[0])
            } else {
                (&mut second[0], &mut first[0])
            };
            if let Err(e) = c.send(&format!("MOV?{}", g.to_gat(s))).await {
                break 'game (
                    Some(1 - s),
                    EndReason::Disconnect,
                    Some(format!("seat {s}: {e}")),
                );
            }
            let t0 = Instant::now();
            let allowance = Duration::from_secs(budget[s]) + cfg.timeout;
            // The seat that waits may say nothing until its own MOV?: a
            // line from it now is out of order, an error that loses (as
            // an illegal move does), and its leaving loses by disconnect.
            let received = tokio::select! {
                r = c.recv(allowance) => r,
                r = waiting.recv(OUT_OF_TURN_WATCH) => {
                    let o = 1 - s;
                    match r {
                        Recv::Line(l) => {
                            let _ = waiting.send("NG ").await;
                            break 'game (
                                Some(s),
                                EndReason::IllegalMove,
                                Some(format!(
                                    "seat {o} sent '{}' before its MOV? (out of order)",
                                    show_line(&l)
                                )),
                            );
                        }
                        Recv::Closed(e) => {
                            break 'game (Some(s), EndReason::Disconnect, Some(format!("seat {o}: {e}")))
                        }
                        // Not reached: the watch outlasts any allowance.
                        Recv::TimedOut => c.recv(allowance).await,
                    }
                }
            };
            let line = match received {
                Recv::Line(l) => l,
                Recv::Closed(e) => {
                    break 'game (
                        Some(1 - s),
                        EndReason::Disconnect,
                        Some(format!("seat {s}: {e}")),
                    )
                }
                Recv::TimedOut => {
                    break 'game (
                        Some(1 - s),
                        EndReason::Timeout,
                        Some(format!(
                            "seat {s}: no move within {} s",
                            allowance.as_secs()
                        )),
                    )
                }
            };
            let elapsed = t0.elapsed();
            let played = match parse_client_line(&line) {
                Ok(ClientMsg::Move { piece, dir }) => {
                    let mv = Move::new(piece, dir);
                    g.try_play(mv).map(|r| (mv, r))
                }
                Ok(ClientMsg::Set(_)) => Err("a SET during the game".to_string()),
                Err(e) => Err(e.0),
            };
            match played {
                Ok((mv, report)) => {
                    let ack = match report.captured {
                        Some(Colour::Red) => "OKR",
                        Some(Colour::Blue) => "OKB",
                        _ => "OK ",
                    };
                    // A failed write shows up as a closed connection on the
                    // next read; the game's result stands if it just ended.
                    let _ = c.send(ack).await;
                    moves.push(Value::String(mv.to_gat()));
                    move_ms.push(elapsed.as_millis() as u64);
                    budget[s] = budget[s].saturating_sub(elapsed.as_secs());
                }
                Err(e) => {
                    let _ = c.send("NG ").await;
                    break 'game (
                        Some(1 - s),
                        EndReason::IllegalMove,
                        Some(format!("seat {s} sent '{}': {e}", show_line(&line))),
                    );
                }
            }
        }
    };

    let (winner, reason, detail) = ending;
    // How it ended: the rules' ending, or the forfeit's reason.
    let ending_key = match (reason, &game) {
        (EndReason::Rules, Some(g)) => ending::ending(g).map(|e| e.key().to_string()),
        _ => None,
    }
    .unwrap_or_else(|| reason.key().to_string());
    // The record's shape is every game's: the start state, then every
    // action in order, the setup turn's two first.
    if let Some(g) = &game {
        let sets = (0..2).map(|s| GeisterGame::move_to_json(Action::Setup(g.setup(s))));
        moves.splice(0..0, sets);
        move_ms.splice(0..0, [0, 0]);
    }
    for (seat, c) in conns.iter_mut().enumerate() {
        let o = match winner {
            Some(w) if w == seat => Outcome::Won,
            Some(_) => Outcome::Lost,
            None => Outcome::Draw,
        };
        let board = match &game {
            Some(g) => g.to_gat(seat),
            // No game yet: the start position with placeholder colours.
            None => Setup::all()
                .next()
                .map(|s| Geister::new([s; 2]).to_gat(seat))
                .unwrap_or_default(),
        };
        let _ = c.send(&format!("{}{board}", o.prefix())).await;
        let _ = tokio::time::timeout(WRITE_TIMEOUT, c.wr.shutdown()).await;
    }
    let record = GameRecord {
        game: "geister".into(),
        id,
        players: [ports[0].to_string(), ports[1].to_string()],
        winner,
        result: GameRecord::result_string(winner).into(),
        reason,
        detail,
        start: GeisterGame::Setup.state_to_json(),
        moves,
        move_ms,
        opening: None,
        ending: Some(ending_key),
        started_ms,
        finished_ms: now_ms(),
        match_tag: None,
    };
    tracing::debug!(id = %record.id, result = %record.result, reason = ?record.reason, ending = ?record.ending, "game over");
    record
}

/// One line for the console, starting `game `: the result, how the game
/// ended (the rules' ending, e.g. `escape`, or the forfeit's reason) and the
/// number of moves.
pub fn describe_record(r: &GameRecord) -> String {
    let how = match (r.reason, &r.ending) {
        (EndReason::Rules, Some(e)) => e.replace('_', " "),
        (reason, _) => reason.key().replace('_', " "),
    };
    let mut s = format!(
        "game {}: {} vs {}: {} by {how} after {} moves",
        r.id,
        r.players[0],
        r.players[1],
        r.result,
        r.moves.len()
    );
    if let Some(d) = &r.detail {
        s.push_str(&format!(" ({d})"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(reason: EndReason, ending: Option<&str>) -> GameRecord {
        GameRecord {
            game: "geister".into(),
            id: "gat-1".into(),
            players: ["10000".into(), "10001".into()],
            winner: Some(0),
            result: "1-0".into(),
            reason,
            detail: None,
            start: Value::Null,
            moves: vec![Value::String("A,N".into())],
            move_ms: vec![1],
            opening: None,
            ending: ending.map(String::from),
            started_ms: 0,
            finished_ms: 0,
            match_tag: None,
        }
    }

    #[test]
    fn describe_record_names_how_the_game_ended() {
        let r = record(EndReason::Rules, Some("blues_captured"));
        assert_eq!(
            describe_record(&r),
            "game gat-1: 10000 vs 10001: 1-0 by blues captured after 1 moves"
        );
        let mut r = record(EndReason::Timeout, Some("timeout"));
        r.detail = Some("seat 1: no move within 10 s".into());
        assert_eq!(
            describe_record(&r),
            "game gat-1: 10000 vs 10001: 1-0 by timeout after 1 moves \
             (seat 1: no move within 10 s)"
        );
        assert!(describe_record(&record(EndReason::Rules, None)).contains("1-0 by rules"));
    }
}
