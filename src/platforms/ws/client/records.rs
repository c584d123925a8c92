//! What a client run reports: each finished game ([`GameFinished`], as a
//! record and as a line), the run's totals ([`ClientSummary`]), and the
//! bookkeeping of the game in progress ([`Current`], [`Progress`]) from
//! which they are made.

use crate::platforms::ws::protocol::{Resume, YourResult};
use crate::records::{EndReason, GameRecord};
use crate::search::Seat;

/// One finished game, as reported to the `on_game` callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFinished {
    /// 1-based count of games finished by this client run.
    pub number: u32,
    pub game_id: String,
    /// Our seat (0 moved first).
    pub seat: Seat,
    pub opponent: String,
    /// Our result; `None` for a game cut off with nobody at fault (reason
    /// [`EndReason::Aborted`]: the server went away mid-game).
    pub your_result: Option<YourResult>,
    /// "1-0", "0-1" or "1/2-1/2" from seat 0's side; "*" when aborted.
    pub result: String,
    pub reason: EndReason,
    pub detail: Option<String>,
    /// Moves played in the game.
    pub moves: u32,
    /// The winning seat (None: a draw, or an aborted game).
    pub winner: Option<Seat>,
    /// The moves as the server showed them (null where hidden from us),
    /// with the milliseconds each took on the server's clock.
    pub move_list: Vec<serde_json::Value>,
    pub move_ms: Vec<u64>,
    /// Unix milliseconds when the game started and ended, on our clock.
    pub started_ms: u64,
    pub finished_ms: u64,
    /// We left the game before its end because a stop was asked for
    /// (`Stop::Abandon`, or the grace after `Stop::Finish` ran out).
    pub abandoned: bool,
}

impl GameFinished {
    /// The game as a record, from our side: seat names, the moves we were
    /// shown, the result; `start` is unknown to a client (null).
    pub fn record(&self, game: &str, our_name: &str) -> GameRecord {
        let mut players = [String::new(), String::new()];
        players[self.seat.min(1)] = our_name.to_string();
        players[1 - self.seat.min(1)] = self.opponent.clone();
        GameRecord {
            game: game.to_string(),
            id: self.game_id.clone(),
            players,
            winner: self.winner,
            result: self.result.clone(),
            reason: self.reason,
            detail: self.detail.clone(),
            start: serde_json::Value::Null,
            moves: self.move_list.clone(),
            move_ms: self.move_ms.clone(),
            opening: None,
            ending: None,
            started_ms: self.started_ms,
            finished_ms: self.finished_ms,
            match_tag: None,
            analysis: None,
        }
    }
}

/// A one-line description of a finished game, for printing.
pub fn describe_game(g: &GameFinished) -> String {
    let reason = match g.reason {
        EndReason::Rules => "rules",
        EndReason::IllegalMove => "illegal move",
        EndReason::Timeout => "timeout",
        EndReason::Disconnect => "disconnect",
        EndReason::Aborted => "abort",
    };
    let result = g
        .your_result
        .map_or_else(|| "aborted".to_string(), |r| r.to_string());
    let mut s = format!(
        "game {} ({}): seat {} vs {}: {result} {} by {reason} after {} moves",
        g.number, g.game_id, g.seat, g.opponent, g.result, g.moves
    );
    if let Some(d) = &g.detail {
        s.push_str(&format!(" ({d})"));
    }
    s
}

/// Totals of a client run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientSummary {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games left before their end on a stop (counted as losses too).
    pub abandoned: u32,
    /// Games cut off because the server went away mid-game (not in
    /// `games`: nobody won or lost them).
    pub aborted: u32,
    /// The run ended early because a stop was asked for.
    pub stopped: bool,
    /// The run ended because the server went away in the middle of a game
    /// (killed, shut down, or unreachable after every reconnect attempt):
    /// what happened. The game is counted in `aborted`.
    pub server_lost: Option<String>,
    /// Times a dropped connection was replaced and the seat taken back in
    /// the middle of a match (`hello.resume`).
    pub resumed: u32,
    /// What thinking on the opponent's time did (`ponder`).
    pub pondered: crate::runtime::PonderStats,
}

impl ClientSummary {
    /// (wins + draws / 2) / games, in 0..=1 (0 with no games).
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }

    pub(super) fn add(&mut self, r: Option<YourResult>) {
        let Some(r) = r else {
            self.aborted += 1;
            return;
        };
        self.games += 1;
        match r {
            YourResult::Win => self.wins += 1,
            YourResult::Draw => self.draws += 1,
            YourResult::Loss => self.losses += 1,
        }
    }
}

/// The game in progress.
pub(super) struct Current {
    pub(super) game_id: String,
    pub(super) seat: Seat,
    pub(super) opponent: String,
    pub(super) moves: u32,
    pub(super) move_list: Vec<serde_json::Value>,
    pub(super) move_ms: Vec<u64>,
    pub(super) started_ms: u64,
}

impl Current {
    pub(super) fn new(game_id: String, seat: Seat, opponent: String) -> Self {
        Current {
            game_id,
            seat,
            opponent,
            moves: 0,
            move_list: Vec::new(),
            move_ms: Vec::new(),
            started_ms: crate::records::now_ms(),
        }
    }

    /// The finished game, numbered `number` among this run's.
    pub(super) fn finish(
        self,
        number: u32,
        winner: Option<Seat>,
        your_result: Option<YourResult>,
        reason: EndReason,
        detail: Option<String>,
        abandoned: bool,
    ) -> GameFinished {
        GameFinished {
            number,
            game_id: self.game_id,
            seat: self.seat,
            opponent: self.opponent,
            your_result,
            result: GameRecord::result_string(winner).to_string(),
            reason,
            detail,
            moves: self.moves,
            winner,
            move_list: self.move_list,
            move_ms: self.move_ms,
            started_ms: self.started_ms,
            finished_ms: crate::records::now_ms(),
            abandoned,
        }
    }
}

#[derive(Default)]
pub(super) struct Progress {
    pub(super) summary: ClientSummary,
    pub(super) current: Option<Current>,
    /// A game whose connection dropped, with why, until we know whether the
    /// server is still there (a reconnect reaches it: lost by disconnect;
    /// it does not: aborted).
    pub(super) interrupted: Option<(Current, String)>,
    /// The match we play in: the id of its latest game and our seat token,
    /// to take the seat back on a new connection after a drop.
    pub(super) resume: Option<Resume>,
    /// The id of the game we last reported: a resume may send it again.
    pub(super) last_done: Option<String>,
}

impl Progress {
    /// Reports `cur` as lost by disconnect (the server scores it so).
    pub(super) fn finish_lost(
        &mut self,
        cur: Current,
        detail: String,
        abandoned: bool,
        on_game: &mut impl FnMut(&GameFinished),
    ) {
        let winner = Some(1 - cur.seat.min(1));
        let g = cur.finish(
            self.summary.games + self.summary.aborted + 1,
            winner,
            Some(YourResult::Loss),
            EndReason::Disconnect,
            Some(detail),
            abandoned,
        );
        self.summary.add(g.your_result);
        if abandoned {
            self.summary.abandoned += 1;
        }
        on_game(&g);
    }

    /// Reports `cur` as aborted: cut off with nobody at fault.
    pub(super) fn abort(
        &mut self,
        cur: Current,
        detail: String,
        on_game: &mut impl FnMut(&GameFinished),
    ) {
        tracing::warn!(game_id = %cur.game_id, detail, "game aborted");
        let mut g = cur.finish(
            self.summary.games + self.summary.aborted + 1,
            None,
            None,
            EndReason::Aborted,
            Some(detail),
            false,
        );
        g.result = GameRecord::ABORTED.to_string();
        self.summary.add(None);
        on_game(&g);
    }
}
