//! The seed's blue-likelihood of each opponent piece: a score updated from
//! every opponent move (the table of the seed's section 2.2), a bonus by
//! square, and -1000 for a piece that skipped a forced win had it been blue.

use super::geometry::contacts;
use super::patterns::missed_forced_wins;
use super::rules::{step, Move, Place, Square, PIECES};
use super::view::View;

/// Position bonus of an opponent piece on `sq` (our frame: y = 0 is the
/// opponent's back row, y = 4..5 our home rows).
pub fn position_bonus(sq: Square) -> f64 {
    const COL: [f64; 6] = [0.4, 0.1, 0.0, 0.0, 0.1, 0.4];
    let row = match sq.y() {
        4 => 1.0,
        5 => 5.0,
        _ => 0.0,
    };
    row + COL[sq.x() as usize]
}

/// The lines of the seed's table, by which an opponent move that went from
/// `from` to `to` is classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// Forward, more contacts, arriving on our home rows (+2.5).
    HomeContact,
    /// Forward, more contacts (-1.5).
    ForwardContact,
    /// Sideways, more contacts (-1.0).
    SideContact,
    /// Forward, out of contact (+4.0).
    ForwardFlee,
    /// Otherwise out of contact (+1.5).
    Flee,
    /// No contact before or after, arriving on our home rows (+10.0).
    HomeFree,
    /// Anything else (0).
    Other,
}

impl MoveKind {
    /// How many kinds there are ([`MoveKind::index`] is below).
    pub const COUNT: usize = 7;

    /// Classifies a move: contacts are counted against our pieces before
    /// (`own_before`) and after (`own_after`, a piece it captured removed).
    pub fn of(
        from: Square,
        to: Square,
        own_before: &[Place; PIECES],
        own_after: &[Place; PIECES],
    ) -> MoveKind {
        let before = contacts(from, own_before);
        let after = contacts(to, own_after);
        // The opponent moves toward us = +y in our frame.
        let forward = to.y() > from.y();
        let sideways = to.y() == from.y();
        let home = to.y() >= 4;
        if forward && after > before && home {
            MoveKind::HomeContact
        } else if forward && after > before {
            MoveKind::ForwardContact
        } else if sideways && after > before {
            MoveKind::SideContact
        } else if forward && after == 0 && before > 0 {
            MoveKind::ForwardFlee
        } else if after == 0 && before > 0 {
            MoveKind::Flee
        } else if before == 0 && after == 0 && home {
            MoveKind::HomeFree
        } else {
            MoveKind::Other
        }
    }

    /// The seed's blue-likelihood change for this kind of move.
    pub fn delta(self) -> f64 {
        match self {
            MoveKind::HomeContact => 2.5,
            MoveKind::ForwardContact => -1.5,
            MoveKind::SideContact => -1.0,
            MoveKind::ForwardFlee => 4.0,
            MoveKind::Flee => 1.5,
            MoveKind::HomeFree => 10.0,
            MoveKind::Other => 0.0,
        }
    }

    /// 0..[`MoveKind::COUNT`], in declaration order.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The change the seed's table gives an opponent piece that moved from
/// `from` to `to`: contacts are counted against our pieces before
/// (`own_before`) and after (`own_after`, a piece it captured removed).
pub fn move_delta(
    from: Square,
    to: Square,
    own_before: &[Place; PIECES],
    own_after: &[Place; PIECES],
) -> f64 {
    MoveKind::of(from, to, own_before, own_after).delta()
}

/// The opponent piece that moved between `opp_before` and `view`, with its
/// squares before and after (`None` if none stayed on the board and moved,
/// e.g. it escaped).
fn moved_piece(opp_before: &[Place; PIECES], view: &View) -> Option<(u8, Square, Square)> {
    let mut moved = None;
    for (p, before) in opp_before.iter().enumerate() {
        if let (Some(a), Some(b)) = (before.square(), view.opp(p as u8).square()) {
            if a != b {
                moved = Some((p as u8, a, b));
            }
        }
    }
    moved
}

/// Our places and the opponent's after we play `mv` in `view`.
fn after_move(view: &View, mv: Move) -> ([Place; PIECES], [Place; PIECES]) {
    let mut own = *view.own_places();
    let mut opp = *view.opp_places();
    if let Some(from) = own[mv.piece as usize].square() {
        match step(from, mv.dir, 0) {
            None => own[mv.piece as usize] = Place::Escaped,
            Some(to) => {
                if let Some(q) = view.opp_at(to) {
                    opp[q as usize] = Place::Captured;
                }
                own[mv.piece as usize] = Place::At(to);
            }
        }
    }
    (own, opp)
}

/// The opponent's move since our last one, with the position it was made
/// from.
#[derive(Clone, Copy, Debug)]
pub struct OpponentMove {
    /// Our places and the opponent's right after our last move.
    pub own_before: [Place; PIECES],
    pub opp_before: [Place; PIECES],
    /// The piece that moved, from and to (our frame).
    pub piece: u8,
    pub from: Square,
    pub to: Square,
}

impl OpponentMove {
    /// The seed's table line for the move; `own_now` are our places after
    /// it (a piece it captured gone).
    pub fn kind(&self, own_now: &[Place; PIECES]) -> MoveKind {
        MoveKind::of(self.from, self.to, &self.own_before, own_now)
    }

    /// The opponent's other pieces that stood touching one of ours and
    /// were left there.
    pub fn left_in_contact(&self) -> impl Iterator<Item = u8> + '_ {
        self.opp_before
            .iter()
            .enumerate()
            .filter(move |&(p, before)| {
                p as u8 != self.piece
                    && before
                        .square()
                        .is_some_and(|sq| contacts(sq, &self.own_before) >= 1)
            })
            .map(|(p, _)| p as u8)
    }

    /// The pieces that could have won by pattern 1, had they been blue, and
    /// did not (the seed takes them as red).
    pub fn missed_wins(&self) -> Vec<u8> {
        missed_forced_wins(
            &self.own_before,
            &self.opp_before,
            self.piece,
            self.from,
            self.to,
        )
    }
}

/// Follows the game between our turns: tell it every move we play
/// ([`MoveWatcher::our_move`]), and it finds the opponent's reply in the
/// next view ([`MoveWatcher::observe`]).
#[derive(Clone, Debug, Default)]
pub struct MoveWatcher {
    /// Our places and the opponent's right after our last move.
    pub(crate) last: Option<([Place; PIECES], [Place; PIECES])>,
}

impl MoveWatcher {
    /// Remembers the position right after we play `mv` in `view`.
    pub fn our_move(&mut self, view: &View, mv: Move) {
        self.last = Some(after_move(view, mv));
    }

    /// The opponent's move between the position after our last move and
    /// `view` (`None` before our first move, or if no piece stayed on the
    /// board and moved).
    pub fn observe(&mut self, view: &View) -> Option<OpponentMove> {
        let (own_before, opp_before) = self.last.take()?;
        let (piece, from, to) = moved_piece(&opp_before, view)?;
        Some(OpponentMove {
            own_before,
            opp_before,
            piece,
            from,
            to,
        })
    }
}

/// The blue-likelihood tracker: feed it every view on our turn
/// ([`BlueLikelihood::observe`]) and every move we play
/// ([`BlueLikelihood::our_move`]).
#[derive(Clone, Debug, Default)]
pub struct BlueLikelihood {
    /// Blue-likelihood accumulated from the opponent's moves.
    score: [f64; PIECES],
    /// Pieces that skipped a forced win (treated as red).
    red: [bool; PIECES],
    watch: MoveWatcher,
}

impl BlueLikelihood {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forget the previous game.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Remembers the position right after we play `mv` in `view`.
    pub fn our_move(&mut self, view: &View, mv: Move) {
        self.watch.our_move(view, mv);
    }

    /// Blue-likelihood of every opponent piece in `view` (score plus the
    /// position bonus; -1000 for pieces that skipped a forced win).
    pub fn likelihoods(&self, view: &View) -> [f64; PIECES] {
        let mut out = [f64::NEG_INFINITY; PIECES];
        for (p, o) in out.iter_mut().enumerate() {
            if let Some(sq) = view.opp(p as u8).square() {
                *o = if self.red[p] {
                    -1000.0
                } else {
                    self.score[p] + position_bonus(sq)
                };
            }
        }
        out
    }

    /// Updates the likelihoods from the opponent's move between the
    /// position after our last move and `view`.
    pub fn observe(&mut self, view: &View) {
        let Some(m) = self.watch.observe(view) else {
            return;
        };
        self.score[m.piece as usize] += m.kind(view.own_places()).delta();
        for p in m.left_in_contact() {
            self.score[p as usize] -= 1.2;
        }
        for p in m.missed_wins() {
            self.red[p as usize] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::geister::testing::{places, sq, view};

    #[test]
    fn position_bonus_table() {
        assert_eq!(position_bonus(sq(0, 0)), 0.4);
        assert_eq!(position_bonus(sq(1, 3)), 0.1);
        assert_eq!(position_bonus(sq(2, 4)), 1.0);
        assert_eq!(position_bonus(sq(4, 4)), 1.1);
        assert_eq!(position_bonus(sq(5, 5)), 5.4);
        assert_eq!(position_bonus(sq(3, 5)), 5.0);
    }

    #[test]
    fn likelihood_table_lines() {
        let d = |from, to, own: &[(u8, u8)]| move_delta(from, to, &places(own), &places(own));
        // Forward, more contacts, arriving on our home rows.
        assert_eq!(d(sq(2, 3), sq(2, 4), &[(3, 4)]), 2.5);
        // Forward, more contacts.
        assert_eq!(d(sq(2, 1), sq(2, 2), &[(3, 2)]), -1.5);
        // Sideways, more contacts.
        assert_eq!(d(sq(2, 2), sq(3, 2), &[(4, 2)]), -1.0);
        // Forward, contacts became 0.
        assert_eq!(d(sq(2, 2), sq(2, 3), &[(1, 2)]), 4.0);
        // Other moves, contacts became 0.
        assert_eq!(d(sq(2, 2), sq(3, 2), &[(1, 2)]), 1.5);
        assert_eq!(d(sq(2, 2), sq(2, 1), &[(2, 3)]), 1.5);
        // No contacts before or after, arriving on our home rows.
        assert_eq!(d(sq(0, 3), sq(0, 4), &[(3, 4)]), 10.0);
        // Nothing special.
        assert_eq!(d(sq(0, 1), sq(0, 2), &[(3, 4)]), 0.0);
    }

    #[test]
    fn observe_standing_still_in_contact_and_position_bonus() {
        // a on (1,3) touches our A and stays; b went (3,1) -> (3,2).
        let v = view("14R24R34R44R15B25B35B45B", "13u32u21u11u40u30u20u10u");
        let mut opp_before = *v.opp_places();
        opp_before[1] = Place::At(sq(3, 1));
        let mut a = BlueLikelihood::new();
        a.watch.last = Some((*v.own_places(), opp_before));
        a.observe(&v);
        assert!((a.score[0] + 1.2).abs() < 1e-9);
        assert_eq!(a.score[1], 0.0);
        let l = a.likelihoods(&v);
        assert!((l[0] - (-1.2 + 0.1)).abs() < 1e-9);
        assert_eq!(l[1], 0.0);
    }

    #[test]
    fn skipped_forced_win_marks_red() {
        // a on (0,4) could reach its exit (0,5) in 2 moves; nothing of
        // ours is within distance 1 of it and our fastest escape needs 3+.
        let own = "14R24R34R44R23B25B35B45B";
        let v = view(own, "04u32u21u11u40u30u20u10u");
        let mut opp_before = *v.opp_places();
        opp_before[1] = Place::At(sq(3, 1));
        let mut a = BlueLikelihood::new();
        a.watch.last = Some((*v.own_places(), opp_before));
        a.observe(&v);
        assert_eq!(a.likelihoods(&v)[0], -1000.0);
        // If it steps onto the exit instead, it is not marked.
        let v = view(own, "05u31u21u11u40u30u20u10u");
        let mut opp_before = *v.opp_places();
        opp_before[0] = Place::At(sq(0, 4));
        let mut a = BlueLikelihood::new();
        a.watch.last = Some((*v.own_places(), opp_before));
        a.observe(&v);
        assert!(a.likelihoods(&v)[0] > 0.0);
    }
}
