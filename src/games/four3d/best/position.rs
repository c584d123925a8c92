//! The Score Four position as `best`'s searches see it: two bitboards (the
//! side to move's beads and the other side's), the values of won and lost
//! positions, the droppable cells, and what the threats alone decide at a
//! node before any search ([`settle`]) and at the root ([`root_moves`]).
//! The search, the solver, the evaluations and the labs all start here.

use super::threats::threats;
use crate::games::four3d::{Board, Peg};
use crate::search::Game as _;

/// A win now (at the root's ply); a win at ply `p` is `WIN - p`.
pub const WIN: i32 = 10_000;
/// Values beyond this are wins or losses.
pub const WON: i32 = WIN - 100;
/// Above every value: the root's window.
pub const INF: i32 = WIN + 1;

/// The static move order: cells on seven lines (the eight corners and
/// the eight cells of the central cube) before the others.
const fn static_order() -> [i32; 64] {
    let mut out = [0; 64];
    let mut c = 0;
    while c < 64 {
        let l = crate::games::four3d::lines::CELL_LINES[c].len as i32;
        out[c] = l;
        c += 1;
    }
    out
}
pub(super) static STATIC: [i32; 64] = static_order();

/// The droppable cells (the lowest free cell of every peg that has one).
#[inline]
pub fn drops(occ: u64) -> u64 {
    ((occ << 16) | 0xFFFF) & !occ
}

/// A win or loss as stored in the table: relative to the node, not the root.
#[inline]
pub(super) fn to_table(v: i32, ply: i32) -> i32 {
    if v >= WON {
        v + ply
    } else if v <= -WON {
        v - ply
    } else {
        v
    }
}

#[inline]
pub(super) fn from_table(v: i32, ply: i32) -> i32 {
    if v >= WON {
        v - ply
    } else if v <= -WON {
        v + ply
    } else {
        v
    }
}

/// The moves of the root worth searching, and whether the position is
/// already decided: a winning drop (`Decided::Win`), two opponent threats
/// to block or only drops under opponent threats (`Decided::Loss`, with a
/// move that at least blocks), or exactly one sensible drop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootMoves {
    /// Play this cell: it wins now, or it is the only move that does not
    /// lose at once.
    Only(u8),
    /// The game is lost whatever we do; this cell is as good as any.
    Lost(u8),
    /// Search these cells.
    Search(Vec<u8>),
}

/// Sorts out the root (see [`RootMoves`]).
pub fn root_moves(me: u64, opp: u64) -> RootMoves {
    let occ = me | opp;
    let empty = !occ;
    let d = drops(occ);
    debug_assert!(d != 0, "a live position has a drop");
    let first = |m: u64| m.trailing_zeros() as u8;
    let win = d & threats(me, empty);
    if win != 0 {
        return RootMoves::Only(first(win));
    }
    let t_opp = threats(opp, empty);
    let forced = d & t_opp;
    if forced != 0 {
        if forced & (forced - 1) != 0 {
            return RootMoves::Lost(first(forced));
        }
        return RootMoves::Only(first(forced));
    }
    let safe = d & !(t_opp >> 16);
    if safe == 0 {
        return RootMoves::Lost(first(d));
    }
    if safe & (safe - 1) == 0 {
        return RootMoves::Only(first(safe));
    }
    let mut cells = Vec::with_capacity(16);
    let mut m = safe;
    while m != 0 {
        cells.push(m.trailing_zeros() as u8);
        m &= m - 1;
    }
    cells.sort_by_key(|&c| std::cmp::Reverse(STATIC[c as usize]));
    RootMoves::Search(cells)
}

/// What the threats alone decide at a node, before any search.
pub(super) enum Settled {
    /// The node's value: a draw on a full board, a win on the spot, or a
    /// loss to two threats (or to nothing but drops under a threat).
    Value(i32),
    /// The drops worth searching: the one forced block (`forced`) or every
    /// drop not right under an opponent threat; both sides' threats.
    Open {
        moves: u64,
        forced: bool,
        t_me: u64,
        t_opp: u64,
    },
}

/// Settles a node by its threats (`me` to move, `ply` from the root), the
/// same way in `best`'s search and in the plain reference.
pub(super) fn settle(me: u64, opp: u64, ply: i32) -> Settled {
    let occ = me | opp;
    let empty = !occ;
    let d = drops(occ);
    if d == 0 {
        return Settled::Value(0);
    }
    let t_me = threats(me, empty);
    if d & t_me != 0 {
        return Settled::Value(WIN - ply - 1);
    }
    let t_opp = threats(opp, empty);
    let forced = d & t_opp;
    let moves = if forced != 0 {
        if forced & (forced - 1) != 0 {
            return Settled::Value(-(WIN - ply - 2));
        }
        forced
    } else {
        let safe = d & !(t_opp >> 16);
        if safe == 0 {
            return Settled::Value(-(WIN - ply - 2));
        }
        safe
    };
    Settled::Open {
        moves,
        forced: forced != 0,
        t_me,
        t_opp,
    }
}

/// The side to move's beads and the other side's.
pub fn sides(b: &Board) -> (u64, u64) {
    let s = b.to_move();
    (b.stones(s), b.stones(1 - s))
}

/// The result of a solved value for the side to move (1, 0.5 or 0).
pub fn result_of(value: i32) -> f64 {
    if value >= WON {
        1.0
    } else if value <= -WON {
        0.0
    } else {
        0.5
    }
}

/// The position after the drops `pegs` (peg numbers 0..16), from the start.
pub fn replay(pegs: &[u8]) -> Result<Board, String> {
    let pegs: Vec<Peg> = pegs.iter().map(|&p| Peg(p)).collect();
    Board::from_pegs(&pegs).map_err(|e| format!("{e:?}"))
}
