//! One game on one connection ([`GameSession`]): the server's lines read
//! and checked against the phase, each message to its handler (the setup,
//! a move searched on the agent's thread under the move's budget, the
//! verdict), our answers written and our moves booked against the bank.

use std::time::{Duration, Instant};

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

use super::board::{
    end_view, ending_of, opponent_move, opponent_setup, opponent_unmoved, reds_of, start_places,
};

use super::budget::{MoveBudget, CHARGE_SLACK};
use super::records::GatGame;
use super::{IDLE_TIMEOUT, MAX_SET_RETRIES};
use crate::games::geister::{
    Action, GeisterGame, Move, Obs, Place as PiecePlace, Setup, View, PIECES,
};
use crate::games::PlayableGame;
use crate::platforms::gat::clock;
use crate::platforms::gat::codec::{
    format_client, parse_server_line, ClientMsg, GatBoard, Outcome, Phase, ServerMsg,
};
use crate::platforms::gat::{show_line, LineReader};
use crate::runtime::SearchThread;
use crate::search::{Decision, Limits};

/// Asks the search thread for the agent's setup.
async fn setup(search: &SearchThread<GeisterGame>) -> Result<Setup, String> {
    // No clock on the setup: the agents answer at once.
    match search.search(Obs::Setup, Limits::playouts(1)).await {
        Ok(Decision {
            mv: Action::Setup(s),
            ..
        }) => Ok(s),
        Ok(d) => Err(format!("the agent answered the setup with {:?}", d.mv)),
        Err(e) => Err(e.to_string()),
    }
}

/// The agent's move, or `None` if it failed or overran `limit` (then the
/// search is stopped).
async fn choose(
    search: &SearchThread<GeisterGame>,
    view: View,
    limits: Limits,
    limit: Duration,
) -> Option<Move> {
    let handle = search.submit(Obs::Play(view), limits);
    match tokio::time::timeout(limit, handle).await {
        Ok(Ok(Decision {
            mv: Action::Move(m),
            ..
        })) => Some(m),
        Ok(_) => None,
        Err(_) => {
            search.cancel();
            None
        }
    }
}

/// Why a game broke off.
pub(super) enum Broke {
    /// The connection closed before the server's first line: no game.
    NoGame(String),
    /// The server's side: closed, unreadable, silent, out of protocol.
    Server(String),
    /// Ours: the agent failed, every SET refused, a stop.
    Ours(String),
}

/// One game on one connection; fills `game` as it goes.
pub(super) async fn play_game(
    stream: TcpStream,
    agent: &SearchThread<GeisterGame>,
    budget: MoveBudget,
    cfg_min_answer: Duration,
    game: &mut GatGame,
) -> Result<(), Broke> {
    GameSession::new(stream, agent, budget, cfg_min_answer, game)
        .run()
        .await
}

/// What the connection gave us next.
enum Event {
    /// A whole line from the server.
    Line(String),
    /// Nothing for [`IDLE_TIMEOUT`].
    Idle,
    /// The server closed the connection.
    Closed,
    /// The line could not be read.
    ReadError(std::io::Error),
}

/// What a handler asks of the loop.
enum Step {
    /// Send this and wait for the next line.
    Reply(ClientMsg),
    /// Nothing to send: wait for the next line.
    Wait,
    /// The game is over.
    Over,
}

/// One game on one connection: its state between the server's lines, and
/// one handler per event and message. [`GameSession::run`] reads an event,
/// hands it to its handler and sends what the handler answers.
struct GameSession<'a> {
    rd: LineReader<BufReader<OwnedReadHalf>>,
    wr: OwnedWriteHalf,
    agent: &'a SearchThread<GeisterGame>,
    budget: MoveBudget,
    /// No answer leaves sooner than this after its `MOV?`.
    min_answer: Duration,
    game: &'a mut GatGame,
    phase: Phase,
    set_retries: u32,
    /// What is left of our bank this game (a plan's bank; the server's may
    /// be larger).
    left: Duration,
    /// When the `MOV?` being answered was read.
    asked_at: Option<Instant>,
    /// The opponent's pieces as last seen (in our frame), and when our last
    /// line went out: the opponent's moves are read off the boards.
    opp_seen: [PiecePlace; PIECES],
    sent_at: Option<Instant>,
}

impl<'a> GameSession<'a> {
    fn new(
        stream: TcpStream,
        agent: &'a SearchThread<GeisterGame>,
        budget: MoveBudget,
        min_answer: Duration,
        game: &'a mut GatGame,
    ) -> Self {
        let (rd, wr) = stream.into_split();
        let left = budget.plan.map_or(Duration::ZERO, |p| p.bank);
        if let Some(p) = budget.plan {
            game.bank_spent = Some(Duration::ZERO);
            game.bank_left = Some(p.bank);
        }
        GameSession {
            rd: LineReader::new(BufReader::new(rd)),
            wr,
            agent,
            budget,
            min_answer,
            game,
            phase: Phase::Connected,
            set_retries: 0,
            left,
            asked_at: None,
            opp_seen: start_places(),
            sent_at: None,
        }
    }

    /// Plays the game out: `Ok` once the server has given its verdict.
    async fn run(mut self) -> Result<(), Broke> {
        loop {
            let step = match self.next_event().await {
                Event::Line(line) => self.on_line(&line).await?,
                Event::Idle => return Err(self.on_idle()),
                Event::Closed => return Err(self.on_closed()),
                Event::ReadError(e) => return Err(self.on_read_error(e)),
            };
            match step {
                Step::Reply(m) => self.send(m).await?,
                Step::Wait => {}
                Step::Over => return Ok(()),
            }
        }
    }

    /// The next line, or why there is none.
    async fn next_event(&mut self) -> Event {
        match tokio::time::timeout(IDLE_TIMEOUT, self.rd.next_line()).await {
            Err(_) => Event::Idle,
            Ok(Ok(None)) => Event::Closed,
            Ok(Err(e)) => Event::ReadError(e),
            Ok(Ok(Some(l))) => Event::Line(l),
        }
    }

    /// The server went silent.
    fn on_idle(&self) -> Broke {
        Broke::Server(format!(
            "the server sent nothing for {} s",
            IDLE_TIMEOUT.as_secs()
        ))
    }

    /// The server closed the connection: before its first line, no game.
    fn on_closed(&self) -> Broke {
        if self.phase == Phase::Connected {
            return Broke::NoGame("the server closed the connection".into());
        }
        Broke::Server(format!(
            "the server closed the connection ({:?})",
            self.phase
        ))
    }

    /// A line could not be read: a connection dropped before the server's
    /// first line is no game.
    fn on_read_error(&self, e: std::io::Error) -> Broke {
        if self.phase == Phase::Connected
            && matches!(
                e.kind(),
                std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::UnexpectedEof
            )
        {
            return Broke::NoGame(format!("reading from the server: {e}"));
        }
        tracing::warn!(error = %e, "cannot read the server's line");
        Broke::Server(format!("reading from the server: {e}"))
    }

    /// A line from the server: parsed, checked against the phase, and
    /// handed to its message's handler.
    async fn on_line(&mut self, line: &str) -> Result<Step, Broke> {
        let msg = parse_server_line(line).map_err(|e| {
            tracing::warn!(line = %show_line(line), error = %e.0, "a bad line from the server");
            Broke::Server(format!(
                "bad line from the server '{}': {}",
                show_line(line),
                e.0
            ))
        })?;
        let unacknowledged = self.phase == Phase::MoveSent;
        self.phase = self.phase.on_server(&msg).map_err(|e| Broke::Server(e.0))?;
        if let (ServerMsg::End(..), true) = (&msg, unacknowledged) {
            self.unplayed_move();
        }
        if let ServerMsg::MoveQuestion(board) | ServerMsg::End(_, board) = &msg {
            self.note_opponent_move(board);
        }
        match msg {
            ServerMsg::SetQuestion => self.on_set_question().await,
            ServerMsg::Ng => self.on_ng().await,
            ServerMsg::Ok | ServerMsg::OkCaptured(_) => Ok(self.on_ok()),
            ServerMsg::MoveQuestion(board) => self.on_move_question(board).await,
            ServerMsg::End(o, board) => Ok(self.on_end(o, board)),
        }
    }

    /// The verdict came in place of the acknowledgement of our last move:
    /// the game had ended on the server's side before it (its timer or the
    /// other player's connection), so the move was never played; it leaves
    /// the record (which then replays to the end board), and the detail
    /// says so.
    fn unplayed_move(&mut self) {
        let mv = self.game.moves.pop();
        self.game.move_ms.pop();
        self.game.our_moves = self.game.our_moves.saturating_sub(1);
        tracing::warn!(?mv, "the server's verdict came before it acknowledged our move: the game had already ended on its side");
        self.game.error = Some(format!(
            "the server's verdict came in place of the acknowledgement of our move {} ({}): the game had ended on its side before it",
            self.game.our_moves + 1,
            mv.map_or_else(|| "?".to_string(), |m| m.to_string())
        ));
    }

    /// Records the opponent's move read off a board (the one piece of its
    /// that moved since the last board), timed from our last line.
    fn note_opponent_move(&mut self, board: &GatBoard) {
        if let Ok(v) = View::from_gat(&board.to_string()) {
            let now = *v.opp_places();
            if let Some(m) = opponent_move(&self.opp_seen, &now) {
                self.game
                    .moves
                    .push(GeisterGame::move_to_json(Action::Move(m)));
                self.game
                    .move_ms
                    .push(self.sent_at.map_or(0, |t| t.elapsed().as_millis() as u64));
            }
            self.opp_seen = now;
        }
    }

    /// `SET?`: the agent's setup.
    async fn on_set_question(&mut self) -> Result<Step, Broke> {
        self.set_reply().await
    }

    /// `NG`: to our `SET:` (the phase is back to setting), or to our move.
    async fn on_ng(&mut self) -> Result<Step, Broke> {
        if self.phase == Phase::MustSet {
            self.on_set_refused().await
        } else {
            Ok(self.on_move_refused())
        }
    }

    /// `NG` to our `SET:`: another setup, a few times at most.
    async fn on_set_refused(&mut self) -> Result<Step, Broke> {
        self.set_retries += 1;
        if self.set_retries > MAX_SET_RETRIES {
            return Err(Broke::Ours("the server refused every SET".into()));
        }
        tracing::warn!("the server refused our SET; trying another setup");
        self.set_reply().await
    }

    /// A setup from the agent, as `SET:`.
    async fn set_reply(&mut self) -> Result<Step, Broke> {
        let s = setup(self.agent).await.map_err(Broke::Ours)?;
        self.game.our_setup = Some(s);
        Ok(Step::Reply(ClientMsg::Set(
            reds_of(s).map_err(Broke::Ours)?,
        )))
    }

    /// `NG` to our move: noted; the server ends the game.
    fn on_move_refused(&mut self) -> Step {
        tracing::warn!("the server refused our move");
        self.game.refused = true;
        Step::Wait
    }

    /// `OK` (or `OK` with a capture) to our line: nothing to answer.
    fn on_ok(&self) -> Step {
        Step::Wait
    }

    /// `MOV?`: the board becomes a search submitted to the agent, under
    /// this move's limits (hook: where a request becomes a search). The
    /// answer is its move, or a fallback when it gives none in time, held
    /// back until [`GameSession::min_answer`] after the question.
    async fn on_move_question(&mut self, board: GatBoard) -> Result<Step, Broke> {
        let start = Instant::now();
        self.asked_at = Some(start);
        let seat = *self
            .game
            .seat
            .get_or_insert(if opponent_unmoved(&board) { 0 } else { 1 });
        let mut view = View::from_gat(&board.to_string())
            .map_err(|e| Broke::Server(format!("inconsistent board from the server: {e}")))?;
        view.set_context(seat, 2 * self.game.our_moves + seat as u32, true);
        let legal = view.legal_moves();
        let Some(&fallback) = legal.first() else {
            return Err(Broke::Server("no legal move on the server's board".into()));
        };
        let ply = 2 * self.game.our_moves + seat as u32;
        let limits = self
            .budget
            .limits(start, self.left, self.game.our_moves, ply);
        let most = self.budget.most() + Duration::from_millis(500);
        let mv = match choose(self.agent, view, limits, most).await {
            Some(m) if view.is_legal(m) => m,
            other => {
                tracing::warn!(
                    ?other,
                    "the agent gave no legal move in time; playing a fallback"
                );
                fallback
            }
        };
        self.game.our_moves += 1;
        if let Some(wait) = self.min_answer.checked_sub(start.elapsed()) {
            tokio::time::sleep(wait).await;
        }
        Ok(Step::Reply(ClientMsg::Move {
            piece: mv.piece,
            dir: mv.dir,
        }))
    }

    /// The verdict: the game is over. The end board shows the opponent's
    /// true colours: agents that learn from game to game see them.
    fn on_end(&mut self, o: Outcome, board: GatBoard) -> Step {
        self.game.outcome = Some(o);
        self.game.ending = ending_of(o, &board);
        if let Some(view) = self
            .game
            .seat
            .and_then(|s| end_view(&board, s, self.game.our_moves))
        {
            self.game.opp_setup = opponent_setup(&view);
            self.agent.game_over(Obs::Play(view));
        }
        Step::Over
    }

    /// Writes `m` to the server; a move is then booked
    /// ([`GameSession::on_move_sent`]).
    async fn send(&mut self, m: ClientMsg) -> Result<(), Broke> {
        self.phase = self.phase.on_client(&m).map_err(|e| Broke::Ours(e.0))?;
        self.wr
            .write_all(format_client(&m).as_bytes())
            .await
            .map_err(|e| Broke::Server(format!("writing to the server: {e}")))?;
        self.sent_at = Some(Instant::now());
        if let ClientMsg::Move { piece, dir } = m {
            self.on_move_sent(Move::new(piece, dir));
        }
        Ok(())
    }

    /// Our move has been written to the server (hook: the search is free
    /// until the next `MOV?`): its time is booked ([`GameSession::book_move`]).
    fn on_move_sent(&mut self, mv: Move) {
        if let Some(start) = self.asked_at.take() {
            self.book_move(mv, start.elapsed());
        }
    }

    /// Records our move `mv`, which took `took` from its `MOV?` to its
    /// answer, and counts what the server charges the bank for it.
    fn book_move(&mut self, mv: Move, took: Duration) {
        let charged = clock::charge(took, CHARGE_SLACK).min(self.left);
        self.left -= charged;
        if let (Some(spent), Some(_)) = (self.game.bank_spent.as_mut(), self.budget.plan) {
            *spent += charged;
            self.game.bank_left = Some(self.left);
        }
        self.game
            .moves
            .push(GeisterGame::move_to_json(Action::Move(mv)));
        self.game.move_ms.push(took.as_millis() as u64);
    }
}
