//! A GAT-compatible Geister server: one client on each of two ports, one
//! game per pair of connections, game after game.
//!
//! Seat 0 is the client on the first port and moves first. Each player has a
//! time budget charged in whole (truncated) seconds; a move may take the rest
//! of the budget plus the per-move timeout, and once the budget is spent only
//! the per-move timeout. An illegal or unreadable move (a line over
//! [`MAX_LINE`] too), running out of time or a closed connection loses.
//!
//! While a game runs, further connections to either port are accepted and
//! closed at once (the seat is taken; the GAT protocol has no other way to
//! say so). A stop (SIGTERM/SIGINT in `serve-gat`) ends the game in progress
//! as aborted: its record keeps the moves so far, with result `*`, and the
//! clients' connections are closed without a verdict.
//!
//! Between games it behaves as the real GAT server (miyo/geister_server.java,
//! `TCPServerWithBlock`, which opens both ports afresh for every game): after
//! the verdicts it accepts nothing until both players have closed their
//! connections (at most [`LINGER`]), then resets every connection made in
//! that time, as the real server's closing of its ports does. A client must
//! take that for "no game yet" and connect again. (The real server also
//! refuses connections for a moment while its ports are closed; the ports
//! here stay bound, since a port let go can be taken by another socket.)

use std::future::Future;
use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};

use super::{show_line, LineReader, MAX_LINE};
use crate::games::geister::{ending, Action, Colour, Geister, GeisterGame, Move, Setup};
use crate::games::PlayableGame;
use crate::platforms::gat::codec::{parse_client_line, ClientMsg, Outcome, EOL};
use crate::records::{now_ms, EndReason, GameRecord, RecordWriter};
use crate::search::{Outcome as GameOutcome, Seat};

/// How many refused SETs a client may send before it loses.
pub const MAX_SET_TRIES: u32 = 5;

/// How long one write may take before the peer counts as gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long, after a game, the server waits for both players to close
/// their connections before it closes the ports (the real server waits
/// without a limit).
pub const LINGER: Duration = Duration::from_secs(5);

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
    /// Binds both ports and opens the records file; an error keeps its
    /// kind and says which (`cannot listen on HOST:PORT: ...`, `cannot open
    /// the records file PATH: ...`).
    pub async fn bind(cfg: GatServerConfig) -> io::Result<Self> {
        let listen = |port: u16| {
            let host = cfg.host.clone();
            async move {
                TcpListener::bind((host.as_str(), port)).await.map_err(|e| {
                    io::Error::new(e.kind(), format!("cannot listen on {host}:{port}: {e}"))
                })
            }
        };
        let l0 = listen(cfg.ports[0]).await?;
        let l1 = listen(cfg.ports[1]).await?;
        let records = cfg
            .out
            .as_ref()
            .map(|p| {
                RecordWriter::open(p).map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!("cannot open the records file {}: {e}", p.display()),
                    )
                })
            })
            .transpose()?;
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
    pub async fn run(self, on_game: impl FnMut(&GameRecord)) -> io::Result<u32> {
        self.run_until(std::future::pending::<&'static str>(), on_game)
            .await
    }

    /// [`GatServer::run`] until `stop` completes (with a word on why, e.g.
    /// `SIGTERM`): waiting for players, the
    /// server returns at once; in a game, the game ends as aborted (recorded
    /// and passed to `on_game` with result `*` and the moves so far) and the
    /// server returns. Returns the number of games recorded.
    pub async fn run_until(
        self,
        stop: impl Future<Output = &'static str>,
        mut on_game: impl FnMut(&GameRecord),
    ) -> io::Result<u32> {
        let ports = self.local_ports()?;
        let GatServer {
            cfg,
            listeners,
            records,
        } = self;
        let mut stop = std::pin::pin!(stop);
        let mut played = 0u32;
        while cfg.games == 0 || played < cfg.games {
            let pair = async { tokio::join!(accept_one(&listeners[0]), accept_one(&listeners[1])) };
            let (a, b) = tokio::select! {
                p = pair => p,
                _ = stop.as_mut() => {
                    tracing::info!("stopped while waiting for players");
                    break;
                }
            };
            played += 1;
            let id = format!("gat-{played}");
            tracing::debug!(%id, "both players connected");
            let (record, stopped, conns) =
                play_game(&cfg, id, ports, [a, b], &listeners, stop.as_mut()).await;
            if let Some(w) = &records {
                if let Err(e) = w.append(&record) {
                    tracing::error!(error = %e, path = %w.path().display(), "cannot write a record");
                }
            }
            on_game(&record);
            if stopped {
                break;
            }
            // As the real server: nothing is accepted until both players
            // have closed (connections made meanwhile wait in the backlog),
            // then what waits there is reset, as the real server's closing
            // of its ports does. (The ports themselves stay bound: a port
            // let go could be taken by another socket meanwhile.)
            let closed = tokio::select! {
                c = wait_closed(conns, LINGER) => c,
                _ = stop.as_mut() => break,
            };
            let reset = reset_waiting(&listeners).await;
            tracing::debug!(
                closed,
                reset,
                "between games: connections made meanwhile reset"
            );
        }
        Ok(played)
    }
}

/// Accepts every connection already waiting on either port and resets it
/// (closed with a zero linger: the client reads `Connection reset`).
async fn reset_waiting(listeners: &[TcpListener; 2]) -> usize {
    let mut n = 0;
    for l in listeners {
        while let Ok(Ok((s, peer))) =
            tokio::time::timeout(Duration::from_millis(1), l.accept()).await
        {
            tracing::debug!(%peer, "reset: it connected before the ports opened for the next game");
            // A zero linger closes at once with a reset: it never blocks.
            #[allow(deprecated)]
            let _ = s.set_linger(Some(Duration::ZERO));
            drop(s);
            n += 1;
        }
    }
    n
}

/// Waits until both players have closed their connections (read EOF or an
/// error) or `limit` passes; true if both closed.
async fn wait_closed(conns: [Conn; 2], limit: Duration) -> bool {
    let until = tokio::time::Instant::now() + limit;
    let eof = |mut c: Conn| async move {
        loop {
            match tokio::time::timeout_at(until, c.rd.next_line()).await {
                Ok(Ok(Some(_))) => continue,
                Ok(_) => return true,
                Err(_) => return false,
            }
        }
    };
    let [c0, c1] = conns;
    let (a, b) = tokio::join!(eof(c0), eof(c1));
    a && b
}

/// Accepts every connection to either port and closes it at once: while a
/// game runs, both seats are taken. Never returns.
async fn refuse_extra(listeners: &[TcpListener; 2]) -> std::convert::Infallible {
    loop {
        let (r, port) = tokio::select! {
            r = listeners[0].accept() => (r, &listeners[0]),
            r = listeners[1].accept() => (r, &listeners[1]),
        };
        let port = port.local_addr().map(|a| a.port()).unwrap_or(0);
        match r {
            Ok((s, peer)) => {
                tracing::warn!(%peer, port, "refused a connection: the seat is taken by the game in progress");
                drop(s);
            }
            Err(e) => {
                tracing::warn!(error = %e, port, "accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
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
    /// A line the server refuses to read (over [`MAX_LINE`]): it loses as
    /// a bad message does.
    Refused(String),
    TimedOut,
}

struct Conn {
    seat: Seat,
    rd: LineReader<BufReader<OwnedReadHalf>>,
    wr: OwnedWriteHalf,
}

impl Conn {
    fn new(seat: Seat, s: TcpStream) -> Self {
        let (rd, wr) = s.into_split();
        Conn {
            seat,
            rd: LineReader::new(BufReader::new(rd)),
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

    /// The next line within `limit`. Cancel safe: a line begun stays
    /// buffered for the next call.
    async fn recv(&mut self, limit: Duration) -> Recv {
        match tokio::time::timeout(limit, self.rd.next_line()).await {
            Err(_) => Recv::TimedOut,
            Ok(Ok(Some(l))) => Recv::Line(l),
            Ok(Ok(None)) => Recv::Closed("connection closed".into()),
            Ok(Err(e)) if e.kind() == io::ErrorKind::InvalidData => {
                tracing::warn!(seat = self.seat, error = %e, limit = MAX_LINE, "refusing a line from a client");
                Recv::Refused(e.to_string())
            }
            Ok(Err(e)) => {
                tracing::warn!(seat = self.seat, error = %e, "lost a client");
                Recv::Closed(e.to_string())
            }
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
            Recv::Refused(e) => {
                let _ = c.send("NG ").await;
                return Err((EndReason::IllegalMove, e));
            }
            Recv::TimedOut => {
                return Err((
                    EndReason::Timeout,
                    format!("no SET within {} s", limit.as_secs()),
                ))
            }
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

/// Plays one game; returns its record, whether `stop` ended it, and the
/// players' connections (their writing sides shut).
async fn play_game<S: Future<Output = &'static str>>(
    cfg: &GatServerConfig,
    id: String,
    ports: [u16; 2],
    streams: [TcpStream; 2],
    listeners: &[TcpListener; 2],
    stop: Pin<&mut S>,
) -> (GameRecord, bool, [Conn; 2]) {
    let started_ms = now_ms();
    let [s0, s1] = streams;
    let mut conns = [Conn::new(0, s0), Conn::new(1, s1)];
    let mut moves: Vec<Value> = Vec::new();
    let mut move_ms: Vec<u64> = Vec::new();
    let mut game: Option<Geister> = None;

    let phase = async {
        'game: {
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
                            Recv::Refused(e) => {
                                let _ = waiting.send("NG ").await;
                                break 'game (Some(s), EndReason::IllegalMove, Some(format!("seat {o}: {e}")))
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
                    Recv::Refused(e) => {
                        let _ = c.send("NG ").await;
                        break 'game (
                            Some(1 - s),
                            EndReason::IllegalMove,
                            Some(format!("seat {s}: {e}")),
                        );
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
        }
    };
    // While the game runs its seats are taken: other connections are
    // refused. A stop cuts the game off.
    let mut stopped = false;
    let ending: Ending = tokio::select! {
        e = phase => e,
        never = refuse_extra(listeners) => match never {},
        why = stop => {
            stopped = true;
            tracing::warn!(%id, why, "stopped: the game in progress is aborted");
            (None, EndReason::Aborted, Some(format!("the server was stopped ({why})")))
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
        if reason == EndReason::Aborted {
            // No verdict: the connection just closes.
            let _ = tokio::time::timeout(WRITE_TIMEOUT, c.wr.shutdown()).await;
            continue;
        }
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
        result: if reason == EndReason::Aborted {
            GameRecord::ABORTED.into()
        } else {
            GameRecord::result_string(winner).into()
        },
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
        analysis: None,
    };
    tracing::debug!(id = %record.id, result = %record.result, reason = ?record.reason, ending = ?record.ending, "game over");
    (record, stopped, conns)
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
            analysis: None,
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
