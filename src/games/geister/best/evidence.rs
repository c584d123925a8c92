//! What the opponent's moves say about each of its pieces, as a feature
//! vector per piece for the learned belief model ([`super::learned`]).
//!
//! Fed like the seed's [`BlueLikelihood`](super::super::likelihood::BlueLikelihood):
//! every view on our turn ([`Evidence::observe`]) and every move we play
//! ([`Evidence::our_move`]). Counts accumulate over the game: each opponent
//! move by the kind the seed's table gives it ([`MoveKind`]), forward and
//! backward steps, captures, and turns it was left touching one of our
//! pieces; the rest describes the piece where it stands now. A piece that
//! skipped a sure escape is marked red, as in the seed.

use super::super::geometry::contacts;
use super::super::likelihood::{position_bonus, MoveKind, MoveWatcher};
use super::super::rules::{Move, Place, PIECES};
use super::super::view::View;

/// Counts kept per piece: the seven [`MoveKind`]s, then these.
const STAYED: usize = MoveKind::COUNT;
const CAPTURES: usize = STAYED + 1;
const FORWARD: usize = STAYED + 2;
const BACKWARD: usize = STAYED + 3;
const COUNTS: usize = STAYED + 4;

/// Length of a feature vector.
pub const FEATURES: usize = 1 + COUNTS + 4 + PIECES;

/// The features' names, in order (the keys of the model file).
pub const NAMES: [&str; FEATURES] = [
    "bias",
    "moves_home_contact",
    "moves_forward_contact",
    "moves_side_contact",
    "moves_forward_flee",
    "moves_flee",
    "moves_home_free",
    "moves_other",
    "turns_left_in_contact",
    "captures",
    "forward_moves",
    "backward_moves",
    "position_bonus",
    "row",
    "contacts_now",
    "exit_distance",
    "slot_a",
    "slot_b",
    "slot_c",
    "slot_d",
    "slot_e",
    "slot_f",
    "slot_g",
    "slot_h",
];

/// One piece's features.
pub type Features = [f64; FEATURES];

/// The evidence tracker.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    counts: [[f64; COUNTS]; PIECES],
    red: [bool; PIECES],
    watch: MoveWatcher,
}

impl Evidence {
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

    /// Whether piece `p` skipped a sure escape (so it is taken as red).
    pub fn marked_red(&self, p: u8) -> bool {
        self.red[p as usize]
    }

    /// Counts the opponent's move between the position after our last
    /// move and `view`.
    pub fn observe(&mut self, view: &View) {
        let Some(m) = self.watch.observe(view) else {
            return;
        };
        let c = &mut self.counts[m.piece as usize];
        c[m.kind(view.own_places()).index()] += 1.0;
        if m.own_before.contains(&Place::At(m.to)) {
            c[CAPTURES] += 1.0;
        }
        // The opponent moves toward +y in our frame.
        if m.to.y() > m.from.y() {
            c[FORWARD] += 1.0;
        } else if m.to.y() < m.from.y() {
            c[BACKWARD] += 1.0;
        }
        for p in m.left_in_contact() {
            self.counts[p as usize][STAYED] += 1.0;
        }
        for p in m.missed_wins() {
            self.red[p as usize] = true;
        }
    }

    /// The features of opponent piece `p` in `view` (`None` off the board).
    pub fn features(&self, view: &View, p: u8) -> Option<Features> {
        let sq = view.opp(p).square()?;
        let mut f = [0.0; FEATURES];
        f[0] = 1.0;
        f[1..1 + COUNTS].copy_from_slice(&self.counts[p as usize]);
        let k = 1 + COUNTS;
        f[k] = position_bonus(sq);
        f[k + 1] = sq.y() as f64 / 5.0;
        f[k + 2] = contacts(sq, view.own_places()) as f64;
        // Steps to the nearer of the opponent's exits (our back corners).
        let x = sq.x().min(5 - sq.x());
        f[k + 3] = (5 - sq.y() + x) as f64 / 10.0;
        f[k + 4 + p as usize] = 1.0;
        Some(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::testing::{sq, view};

    #[test]
    fn names_match_the_layout() {
        assert_eq!(NAMES.len(), FEATURES);
        let k = 1 + COUNTS;
        assert_eq!(NAMES[1 + STAYED], "turns_left_in_contact");
        assert_eq!(NAMES[1 + BACKWARD], "backward_moves");
        assert_eq!(NAMES[k], "position_bonus");
        assert_eq!(NAMES[k + 4], "slot_a");
    }

    #[test]
    fn counts_the_move_and_the_pieces_left_in_contact() {
        // a on (1,3) touches our piece on (1,4) and stays; b goes (3,1) -> (3,2).
        let v = view("14R24R34R44R15B25B35B45B", "13u32u21u11u40u30u20u10u");
        let mut opp_before = *v.opp_places();
        opp_before[1] = Place::At(sq(3, 1));
        let mut e = Evidence::new();
        e.watch.last = Some((*v.own_places(), opp_before));
        e.observe(&v);
        let a = e.features(&v, 0).unwrap();
        let b = e.features(&v, 1).unwrap();
        assert_eq!(a[1 + STAYED], 1.0);
        assert_eq!(b[1 + STAYED], 0.0);
        assert_eq!(b[1 + FORWARD], 1.0);
        assert_eq!(b[1 + MoveKind::Other.index()], 1.0);
        assert_eq!(a[1 + COUNTS + 2], 1.0, "a touches one of ours");
        assert_eq!(a[1 + COUNTS + 4], 1.0);
        assert_eq!(b[1 + COUNTS + 5], 1.0);
        assert_eq!(
            e.features(&v, 2).unwrap()[1..1 + COUNTS]
                .iter()
                .sum::<f64>(),
            0.0
        );
    }
}
