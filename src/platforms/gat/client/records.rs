//! What a GAT client run reports: one game's account ([`GatGame`]: its
//! result, moves and times, as a record and as a line) and the run's
//! totals ([`GatSummary`]).

use std::time::Duration;

use crate::games::geister::{Action, GeisterGame, Setup};
use crate::games::PlayableGame;
use crate::platforms::gat::codec::Outcome;
use crate::records::{EndReason, GameRecord};

/// How one game ended for us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatGame {
    /// 1-based.
    pub number: u32,
    /// Our seat (0 = moved first), once known from the first board.
    pub seat: Option<usize>,
    /// The server's verdict; `None` if the game broke off (see `error`).
    pub outcome: Option<Outcome>,
    /// The game broke off on the server's side (its connection closed or
    /// reset, a line it sent could not be read, or it went silent): no
    /// verdict, so it counts neither as a win, a draw nor a loss.
    pub aborted: bool,
    /// Moves we sent.
    pub our_moves: u32,
    /// The server refused one of our moves with `NG `.
    pub refused: bool,
    /// Why the game broke off without a verdict; with a verdict, a note on
    /// how it came (in place of our move's acknowledgement).
    pub error: Option<String>,
    /// We left it on a stop (see [`GatClientConfig::stop`](super::GatClientConfig::stop)).
    pub abandoned: bool,
    /// How it ended, read off the end board ([`ending_of`](super::ending_of)): `escape`,
    /// `blues_captured`, `reds_captured`, `draw`; `None` when the board
    /// shows none of these (a timeout, a disconnection, a refused move).
    pub ending: Option<&'static str>,
    /// Unix milliseconds when the game's connection opened and when it
    /// ended.
    pub started_ms: u64,
    pub finished_ms: u64,
    /// Our setup (the last one sent) and the opponent's, read off the end
    /// board (which shows every colour); `None` where not known.
    pub our_setup: Option<Setup>,
    pub opp_setup: Option<Setup>,
    /// Every move after the setups, both seats' in order, in the mover's
    /// own frame (`"A,N"`, as a GAT server records them): ours as sent,
    /// the opponent's read off the boards the server sent.
    pub moves: Vec<serde_json::Value>,
    /// Milliseconds each of `moves` took on our clock: ours from reading
    /// `MOV?` to sending the answer, the opponent's from sending ours to
    /// reading the next board (the way to the server and back included).
    pub move_ms: Vec<u64>,
    /// With a plan: what the server took off the bank, as we count it
    /// (whole seconds), and what is left of it.
    pub bank_spent: Option<Duration>,
    pub bank_left: Option<Duration>,
}

impl GatGame {
    /// A game not yet played.
    pub fn new(number: u32) -> Self {
        GatGame {
            number,
            seat: None,
            outcome: None,
            aborted: false,
            our_moves: 0,
            refused: false,
            error: None,
            abandoned: false,
            ending: None,
            started_ms: crate::records::now_ms(),
            finished_ms: 0,
            our_setup: None,
            opp_setup: None,
            moves: Vec::new(),
            move_ms: Vec::new(),
            bank_spent: None,
            bank_left: None,
        }
    }

    /// Our moves' times, in milliseconds.
    pub fn our_move_ms(&self) -> impl Iterator<Item = u64> + '_ {
        // Seat 0 moves on even plies.
        let first = self.seat.unwrap_or(0);
        self.move_ms.iter().skip(first).step_by(2).copied()
    }

    /// Our record of the game, as every platform's: the start (the setup
    /// phase), the two setups in seat order (the opponent's `null` when the
    /// game ended before its end board showed it) and every move with its
    /// time ([`GatGame::moves`], [`GatGame::move_ms`]; the setups 0 ms, as
    /// in `serve-gat`'s records). The protocol names no players: ours is
    /// `our_name`, the other `gat-opponent`. `session` makes the id unique.
    pub fn record(&self, our_name: &str, session: u64) -> GameRecord {
        let seat = self.seat.unwrap_or(0).min(1);
        let mut players = ["gat-opponent".to_string(), "gat-opponent".to_string()];
        players[seat] = our_name.to_string();
        let winner = match self.outcome {
            Some(Outcome::Won) => Some(seat),
            Some(Outcome::Draw) => None,
            // Broken off by the server: no result.
            None if self.aborted => None,
            // A loss, or a game we broke off (the server scores it as ours lost).
            _ => Some(1 - seat),
        };
        let (reason, detail) = match (&self.outcome, &self.error) {
            // The detail notes a verdict that came before our move's
            // acknowledgement.
            (Some(_), e) => (EndReason::Rules, e.clone()),
            (None, e) if self.aborted => (EndReason::Aborted, e.clone()),
            (None, e) => (EndReason::Disconnect, e.clone()),
        };
        let (start, moves, move_ms) = match self.seat {
            Some(seat) => {
                let json = |s: Option<Setup>| {
                    s.map_or(serde_json::Value::Null, |s| {
                        GeisterGame::move_to_json(Action::Setup(s))
                    })
                };
                let mut setups = [json(self.our_setup), json(self.opp_setup)];
                if seat == 1 {
                    setups.swap(0, 1);
                }
                let moves = setups.into_iter().chain(self.moves.iter().cloned());
                let ms = [0, 0].into_iter().chain(self.move_ms.iter().copied());
                (
                    GeisterGame::Setup.state_to_json(),
                    moves.collect(),
                    ms.collect(),
                )
            }
            // No board yet: no game to replay.
            None => (serde_json::Value::Null, Vec::new(), Vec::new()),
        };
        GameRecord {
            game: "geister".into(),
            id: format!("gat-{session:x}-{}", self.number),
            players,
            winner,
            result: if self.aborted {
                GameRecord::ABORTED.into()
            } else {
                GameRecord::result_string(winner).into()
            },
            reason,
            detail: detail.or_else(|| Some(format!("{} moves of ours", self.our_moves))),
            start,
            moves,
            move_ms,
            opening: None,
            ending: self.ending.map(str::to_string),
            started_ms: self.started_ms,
            finished_ms: self.finished_ms,
            match_tag: None,
            analysis: None,
        }
    }

    /// One line for the console, starting `game `.
    pub fn describe(&self) -> String {
        let seat = self.seat.map_or("?".to_string(), |s| s.to_string());
        let result = match (self.outcome, &self.error) {
            (Some(Outcome::Won), _) => "win".to_string(),
            (Some(Outcome::Lost), _) => "loss".to_string(),
            (Some(Outcome::Draw), _) => "draw".to_string(),
            (None, Some(e)) if self.aborted => format!("aborted (error: {e})"),
            (None, Some(e)) => format!("loss (error: {e})"),
            (None, None) => "loss (no result)".to_string(),
        };
        let by = match self.ending {
            Some("draw") => " by the ply limit".to_string(),
            Some(e) => format!(" by {e}"),
            None => String::new(),
        };
        let mut s = format!(
            "game {}: seat {seat}: {result}{by} after {} of our moves",
            self.number, self.our_moves
        );
        if self.refused {
            s.push_str(" (our move was refused)");
        }
        s
    }
}

/// Totals of a client run. A game we broke off (our error or a stop) counts
/// as a loss, as the server scores it; one the server broke off is counted
/// apart, in `aborted` only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GatSummary {
    /// Games with a result (aborted ones not included).
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games left on a stop (counted as losses too).
    pub abandoned: u32,
    /// The run ended early because a stop was asked for.
    pub stopped: bool,
    /// Games the server broke off (see [`GatGame::aborted`]).
    pub aborted: u32,
    /// The run ended early: the server could not be reached again for the
    /// next game (why).
    pub server_lost: Option<String>,
    /// What thinking on the opponent's time did, over the agent's life
    /// (`ponder`).
    pub pondered: crate::runtime::PonderStats,
}

impl GatSummary {
    /// Counts one more game.
    pub fn add(&mut self, g: &GatGame) {
        if g.aborted {
            self.aborted += 1;
            return;
        }
        self.games += 1;
        self.abandoned += u32::from(g.abandoned);
        match g.outcome {
            Some(Outcome::Won) => self.wins += 1,
            Some(Outcome::Draw) => self.draws += 1,
            _ => self.losses += 1,
        }
    }
    /// Wins plus half the draws, per game.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }
}
