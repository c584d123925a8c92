//! The one game model every game is written to, in the spirit of
//! OpenSpiel's `State`: who must move now (one seat, or both at once), what
//! each seat observes, the legal actions of a seat, how the actions of one
//! turn are applied, and the outcome.
//!
//! This is the lowest layer: plain data and pure functions, no I/O, no
//! clock. Runners, servers and records know games only through it (and
//! through `games::PlayableGame`, which adds names and wire forms).
//!
//! - An alternating game with perfect information implements the search
//!   core's `search::Game` and gets its model for free: one seat
//!   moves at a time and a seat observes the whole position.
//! - A hidden-information game (Geister) observes per seat: a seat never sees
//!   what it may not know.
//! - A simultaneous-move game ([`Turn::Both`]) asks both seats in the same
//!   turn; neither action is applied, or shown, before both are in.

use serde::{Deserialize, Serialize};

/// Seat index: 0 moves first (in alternating games), 1 second.
pub type Seat = usize;

/// How a finished game ended, seen from the board (not from a player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The seat that won.
    Win(Seat),
    Draw,
}

impl Outcome {
    /// Reward in 0..=1 for `seat`: 1 win, `draw` for a draw, 0 loss.
    #[inline]
    pub fn reward_for(self, seat: Seat, draw: f64) -> f64 {
        match self {
            Outcome::Win(w) if w == seat => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => draw,
        }
    }

    /// The winning seat, `None` for a draw.
    pub fn winner(self) -> Option<Seat> {
        match self {
            Outcome::Win(s) => Some(s),
            Outcome::Draw => None,
        }
    }
}

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The game is over.
    Over(Outcome),
    /// This seat alone must act.
    One(Seat),
    /// Both seats act at once; neither sees the other's action before both
    /// are in.
    Both,
}

impl Turn {
    /// The seats that must act now (none once the game is over).
    pub fn movers(self) -> &'static [Seat] {
        match self {
            Turn::Over(_) => &[],
            Turn::One(0) => &[0],
            Turn::One(_) => &[1],
            Turn::Both => &[0, 1],
        }
    }

    /// Whether `seat` must act now.
    pub fn includes(self, seat: Seat) -> bool {
        self.movers().contains(&seat)
    }

    /// The outcome, once the game is over.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Turn::Over(o) => Some(o),
            _ => None,
        }
    }
}

/// The actions of one turn, by seat: `Some` exactly for the seats of
/// [`Model::turn`].
pub type Joint<A> = [Option<A>; 2];

/// A two-player game as runners, servers and agents see it.
///
/// Rules stay pure: no I/O, no clock, no randomness but what is passed in.
pub trait Model: Clone + Send + Sync + 'static {
    /// One seat's action (a move, a setup, a bid...).
    type Action: Copy + Eq + std::fmt::Debug + Send + Sync + 'static;
    /// What one seat may know of the position: the whole position in a
    /// perfect-information game, less in a hidden-information one.
    type Obs: Clone + Send + 'static;

    /// Who must act now, or the outcome.
    fn turn(&self) -> Turn;
    /// What `seat` observes now.
    fn observe(&self, seat: Seat) -> Self::Obs;
    /// `seat`'s legal actions now (empty when it need not act).
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    /// Whether `action` is legal for `seat` now.
    fn is_legal_action(&self, seat: Seat, action: Self::Action) -> bool {
        self.turn().includes(seat) && self.legal_actions(seat).contains(&action)
    }
    /// Applies one turn. `joint[s]` is `Some` exactly for the seats that
    /// must act, each legal (the caller checks with
    /// [`Model::is_legal_action`]).
    fn apply(&mut self, joint: Joint<Self::Action>);
}
