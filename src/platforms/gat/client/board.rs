//! What the server's boards tell: our setup as `SET:`, which seat we
//! hold, the opponent's moves and setup read off its pieces, our view of
//! the end board, and how a game ended.

use crate::games::geister::rules::start_square;
use crate::games::geister::{
    Colour as PieceColour, Dir, Move, Place as PiecePlace, Setup, View, PIECES,
};

use crate::platforms::gat::codec::{Colour, GatBoard, Outcome, Place, Reds};
use crate::search::Seat;

/// Which of a setup's pieces are red, for `SET:`.
pub(super) fn reds_of(setup: Setup) -> Result<Reds, String> {
    let mut reds = [false; PIECES];
    for (i, r) in reds.iter_mut().enumerate() {
        *r = setup.is_red(i as u8);
    }
    Reds::new(reds).map_err(|e| format!("the agent's setup is invalid: {}", e.0))
}

/// Whether the opponent's pieces all stand on their start squares.
pub(super) fn opponent_unmoved(board: &GatBoard) -> bool {
    let start = GatBoard::initial(Reds::from_letters("ABCD").expect("four letters"));
    (0..PIECES).all(|i| board.opponent(i).place == start.opponent(i).place)
}

/// Our view of the end board (the opponent's colours shown) as seat
/// `seat` after `our_moves` moves; `None` if the board does not read as a
/// position.
pub(super) fn end_view(board: &GatBoard, seat: Seat, our_moves: u32) -> Option<View> {
    let mut view = View::from_gat(&board.to_string()).ok()?;
    view.set_context(seat, 2 * our_moves + seat as u32, false);
    Some(view)
}

/// How a game ended, from its verdict and the end board (every colour
/// shown): an escape (a piece out through an exit, `88`), four blues
/// captured, four reds captured, or a draw; `None` when the board shows
/// none of these (the game ended by a timeout, a disconnection or a
/// refused move).
pub fn ending_of(outcome: Outcome, board: &GatBoard) -> Option<&'static str> {
    let count = |opp: bool, want: fn(Place, Colour) -> bool| {
        (0..PIECES)
            .map(|i| if opp { board.opponent(i) } else { board.own(i) })
            .filter(|p| want(p.place, p.colour))
            .count()
    };
    let escaped = |p: Place, _| p == Place::Escaped;
    let blue_taken = |p: Place, c| p == Place::Captured && c == Colour::Blue;
    let red_taken = |p: Place, c| p == Place::Captured && c == Colour::Red;
    // (winner is the opponent?) for a win or a loss.
    let opp_won = match outcome {
        Outcome::Draw => return Some("draw"),
        Outcome::Won => false,
        Outcome::Lost => true,
    };
    let (winner, loser) = (opp_won, !opp_won);
    if count(winner, escaped) > 0 {
        Some("escape")
    } else if count(loser, blue_taken) >= 4 {
        Some("blues_captured")
    } else if count(winner, red_taken) >= 4 {
        Some("reds_captured")
    } else {
        None
    }
}

/// The opponent's pieces on their start squares, in our frame.
pub(super) fn start_places() -> [PiecePlace; PIECES] {
    std::array::from_fn(|i| PiecePlace::At(start_square(i as u8).rotated()))
}

/// The opponent's move between two boards, from where its pieces stood
/// (`before`, `after`: in our frame), in its own frame, as it sent it: the
/// one piece that moved on the board or left it through an exit (a piece
/// we captured only leaves the board). `None` when none moved.
pub fn opponent_move(before: &[PiecePlace; PIECES], after: &[PiecePlace; PIECES]) -> Option<Move> {
    (0..PIECES).find_map(|i| {
        let PiecePlace::At(from) = before[i] else {
            return None;
        };
        let dir = match after[i] {
            // Our frame is the opponent's turned round: its (dx, dy) is
            // ours negated.
            PiecePlace::At(to) if to != from => {
                let d = (from.x() as i8 - to.x() as i8, from.y() as i8 - to.y() as i8);
                Dir::ALL.into_iter().find(|dir| dir.delta() == d)?
            }
            // Its exits are the corners of our home row, which it leaves
            // to its north.
            PiecePlace::Escaped => Dir::N,
            _ => return None,
        };
        Some(Move::new(i as u8, dir))
    })
}

/// The opponent's setup, when the view shows the colour of every piece of
/// its (as the end board does).
pub(super) fn opponent_setup(view: &View) -> Option<Setup> {
    let mut reds = [false; PIECES];
    for (i, r) in reds.iter_mut().enumerate() {
        *r = view.opp_colour(i as u8)? == PieceColour::Red;
    }
    Setup::from_reds(reds).ok()
}
