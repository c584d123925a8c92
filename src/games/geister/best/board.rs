//! The search's own Geister board: both sides as red and blue bitboards in
//! the root player's frame (side 0 = the root player, moving toward y = 0;
//! side 1 = the opponent, moving toward y = 5). Piece identities are not
//! kept: a move is a pair of squares. It is the true game's rules
//! ([`crate::games::geister::Geister`]) on a determinized position, checked
//! against them in the tests, and a few times faster to play out.

use super::super::rules::{Colour, Dir, Move, Place, Square, MAX_PLIES, PIECES};
use super::super::view::View;
use crate::search::Outcome;

/// `to` of a move that steps off the board through an exit.
pub const ESCAPE: u8 = 36;
/// Squares of the board.
pub const SQUARES: usize = 36;

/// Exit squares per side (side 0: the far corners (0,0) and (5,0); side 1:
/// our back corners).
pub const EXITS: [u64; 2] = [1 | 1 << 5, 1 << 30 | 1 << 35];

const fn neighbour_table() -> [[u8; 4]; SQUARES] {
    let mut t = [[u8::MAX; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (x, y) = (s % 6, s / 6);
        if y > 0 {
            t[s][0] = (s - 6) as u8;
        }
        if x < 5 {
            t[s][1] = (s + 1) as u8;
        }
        if y < 5 {
            t[s][2] = (s + 6) as u8;
        }
        if x > 0 {
            t[s][3] = (s - 1) as u8;
        }
        s += 1;
    }
    t
}

/// Per square, the squares N, E, S, W of it (our frame); `u8::MAX` off the board.
pub const NEIGHBOURS: [[u8; 4]; SQUARES] = neighbour_table();

const fn adjacency_table() -> [u64; SQUARES] {
    let mut t = [0u64; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            let n = NEIGHBOURS[s][d];
            if n != u8::MAX {
                t[s] |= 1 << n;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Per square, the bit mask of its (up to four) neighbours.
pub const ADJACENT: [u64; SQUARES] = adjacency_table();

const fn exit_distance_table() -> [[u8; SQUARES]; 2] {
    let mut t = [[0u8; SQUARES]; 2];
    let mut s = 0;
    while s < SQUARES {
        let (x, y) = ((s % 6) as i32, (s / 6) as i32);
        let dx = if x < 5 - x { x } else { 5 - x };
        t[0][s] = (dx + y) as u8;
        t[1][s] = (dx + 5 - y) as u8;
        s += 1;
    }
    t
}

/// Per side, per square, the number of steps to that side's nearest exit.
pub const EXIT_DISTANCE: [[u8; SQUARES]; 2] = exit_distance_table();

const fn within_table() -> [[u64; 11]; SQUARES] {
    let mut t = [[0u64; 11]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut b = 0;
        while b < SQUARES {
            let dx = (a % 6) as i32 - (b % 6) as i32;
            let dy = (a / 6) as i32 - (b / 6) as i32;
            let d = (if dx < 0 { -dx } else { dx }) + (if dy < 0 { -dy } else { dy });
            let mut k = d as usize;
            while k < 11 {
                t[a][k] |= 1 << b;
                k += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

/// `WITHIN[sq][k]`: the squares at most `k` steps from `sq`.
pub const WITHIN: [[u64; 11]; SQUARES] = within_table();

/// Steps between two squares.
#[inline]
pub fn distance(a: u8, b: u8) -> u8 {
    let (a, b) = (a as i8, b as i8);
    ((a % 6 - b % 6).abs() + (a / 6 - b / 6).abs()) as u8
}

/// A move as two squares (`to` = [`ESCAPE`] for an escape).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BMove {
    pub from: u8,
    pub to: u8,
}

/// Up to 32 moves without allocating.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    len: usize,
    moves: [BMove; 32],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            len: 0,
            moves: [BMove { from: 0, to: 0 }; 32],
        }
    }
}

impl MoveList {
    #[inline]
    pub fn as_slice(&self) -> &[BMove] {
        &self.moves[..self.len]
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    fn push(&mut self, m: BMove) {
        // Eight pieces with four directions each: never more than 32.
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
}

/// A determinized position for the search (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub red: [u64; 2],
    pub blue: [u64; 2],
    /// Per side, its pieces captured by the other side: [red, blue].
    pub lost: [[u8; 2]; 2],
    pub ply: u16,
    pub to_move: u8,
    pub outcome: Option<Outcome>,
}

impl Board {
    /// The position `view` shows, with the opponent's unknown pieces
    /// coloured by `opp_red` (bit i = opponent piece i is red; bits of
    /// pieces whose colour is known are ignored).
    pub fn from_view(view: &View, opp_red: u8) -> Board {
        let mut b = Board {
            red: [0; 2],
            blue: [0; 2],
            lost: [[0; 2]; 2],
            ply: view.ply() as u16,
            to_move: if view.my_turn() { 0 } else { 1 },
            outcome: None,
        };
        let mut escaped = [false; 2];
        for p in 0..PIECES as u8 {
            let guess = if opp_red >> p & 1 == 1 {
                Colour::Red
            } else {
                Colour::Blue
            };
            let colours = [view.own_colour(p), view.opp_colour(p).unwrap_or(guess)];
            let places = [view.own(p), view.opp(p)];
            for side in 0..2 {
                let c = colours[side];
                match places[side] {
                    Place::At(sq) => {
                        let bit = 1u64 << sq.0;
                        match c {
                            Colour::Red => b.red[side] |= bit,
                            Colour::Blue => b.blue[side] |= bit,
                        }
                    }
                    Place::Captured => b.lost[side][c.index()] += 1,
                    Place::Escaped => escaped[side] = true,
                }
            }
        }
        b.outcome = b.judge(escaped);
        b
    }

    /// The result the counts imply (an escape first, then four blues lost,
    /// four reds lost, the ply limit).
    fn judge(&self, escaped: [bool; 2]) -> Option<Outcome> {
        for (s, &escaped) in escaped.iter().enumerate() {
            if escaped || self.lost[1 - s][1] >= 4 || self.lost[s][0] >= 4 {
                return Some(Outcome::Win(s));
            }
        }
        (self.ply as u32 >= MAX_PLIES).then_some(Outcome::Draw)
    }

    #[inline]
    pub fn pieces(&self, side: usize) -> u64 {
        self.red[side] | self.blue[side]
    }

    /// The legal moves of the side to move (none once the game is over):
    /// steps onto empty or opponent squares, and one escape per blue on an exit.
    pub fn moves_into(&self, out: &mut MoveList) {
        out.len = 0;
        if self.outcome.is_some() {
            return;
        }
        let s = self.to_move as usize;
        let own = self.pieces(s);
        let mut bits = own;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            for &to in &NEIGHBOURS[from as usize] {
                if to != u8::MAX && own & (1 << to) == 0 {
                    out.push(BMove { from, to });
                }
            }
        }
        let mut runners = self.blue[s] & EXITS[s];
        while runners != 0 {
            let from = runners.trailing_zeros() as u8;
            runners &= runners - 1;
            out.push(BMove { from, to: ESCAPE });
        }
    }

    /// Plays a legal move of the side to move.
    #[inline]
    pub fn play(&mut self, m: BMove) {
        let s = self.to_move as usize;
        let o = 1 - s;
        let from = 1u64 << m.from;
        self.ply += 1;
        self.to_move = o as u8;
        if m.to == ESCAPE {
            self.blue[s] &= !from;
            self.outcome = Some(Outcome::Win(s));
            return;
        }
        let to = 1u64 << m.to;
        if self.red[s] & from != 0 {
            self.red[s] ^= from | to;
        } else {
            self.blue[s] ^= from | to;
        }
        if self.red[o] & to != 0 {
            self.red[o] &= !to;
            self.lost[o][0] += 1;
            if self.lost[o][0] >= 4 {
                self.outcome = Some(Outcome::Win(o));
                return;
            }
        } else if self.blue[o] & to != 0 {
            self.blue[o] &= !to;
            self.lost[o][1] += 1;
            if self.lost[o][1] >= 4 {
                self.outcome = Some(Outcome::Win(s));
                return;
            }
        }
        if self.ply as u32 >= MAX_PLIES {
            self.outcome = Some(Outcome::Draw);
        }
    }
}

/// The root player's move for a board move, given its view (the piece on
/// `from`; the direction from the squares, N for an escape).
pub fn real_move(view: &View, m: BMove) -> Option<Move> {
    let piece = view.own_at(Square(m.from))?;
    let dir = if m.to == ESCAPE {
        Dir::N
    } else {
        let d = NEIGHBOURS[m.from as usize]
            .iter()
            .position(|&n| n == m.to)?;
        Dir::ALL[d]
    };
    Some(Move::new(piece, dir))
}

/// The board move for the root player's move `mv` in `view`.
pub fn board_move(view: &View, mv: Move) -> Option<BMove> {
    let from = view.own(mv.piece).square()?;
    let d = Dir::ALL.iter().position(|&d| d == mv.dir)?;
    let to = NEIGHBOURS[from.0 as usize][d];
    Some(BMove {
        from: from.0,
        to: if to == u8::MAX { ESCAPE } else { to },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::{Geister, Setup};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Seat 0's board of a true game, with seat 1's true colours.
    fn board_after(g: &Geister) -> Board {
        let v = g.view(0);
        let reds = (0..PIECES as u8).fold(0u8, |m, p| m | ((g.setup(1).is_red(p) as u8) << p));
        Board::from_view(&v, reds)
    }

    #[test]
    fn tables() {
        assert_eq!(NEIGHBOURS[0], [u8::MAX, 1, 6, u8::MAX]);
        assert_eq!(NEIGHBOURS[35], [29, u8::MAX, u8::MAX, 34]);
        assert_eq!(ADJACENT[7].count_ones(), 4);
        assert_eq!(EXIT_DISTANCE[0][0], 0);
        assert_eq!(EXIT_DISTANCE[0][Square::new(2, 3).0 as usize], 5);
        assert_eq!(EXIT_DISTANCE[1][Square::new(4, 4).0 as usize], 2);
        assert_eq!(EXIT_DISTANCE[1][35], 0);
        assert_eq!(WITHIN[0][0], 1);
        assert_eq!(WITHIN[0][1], 1 | 1 << 1 | 1 << 6);
        assert_eq!(WITHIN[14][10].count_ones(), 36);
        assert_eq!(distance(0, 35), 10);
        assert_eq!(distance(Square::new(2, 3).0, Square::new(4, 1).0), 4);
    }

    /// Along random games, the board's moves lead to exactly the positions
    /// the true game's moves lead to, with the same outcomes, for both sides
    /// to move.
    #[test]
    fn agrees_with_the_true_game_on_random_games() {
        let mut rng = SmallRng::seed_from_u64(17);
        let mut list = MoveList::default();
        let mut endings = 0;
        for g_no in 0..300 {
            let setups = [Setup::random(&mut rng), Setup::random(&mut rng)];
            let mut g = Geister::with_first(setups, g_no % 2);
            loop {
                let b = board_after(&g);
                assert_eq!(b.outcome, g.outcome(), "{}", g.render());
                if g.outcome().is_some() {
                    endings += 1;
                    break;
                }
                let mut want: Vec<Board> = g
                    .legal_moves()
                    .into_iter()
                    .map(|m| {
                        let mut h = g;
                        h.play(m);
                        board_after(&h)
                    })
                    .collect();
                b.moves_into(&mut list);
                let got: Vec<Board> = list
                    .as_slice()
                    .iter()
                    .map(|&m| {
                        let mut c = b;
                        c.play(m);
                        c
                    })
                    .collect();
                let key = |x: &Board| format!("{x:?}");
                want.sort_by_key(key);
                want.dedup();
                let mut got_sorted = got.clone();
                got_sorted.sort_by_key(key);
                got_sorted.dedup();
                assert_eq!(got_sorted.len(), got.len(), "no duplicate board moves");
                let got = got_sorted;
                assert_eq!(got, want, "{}", g.render());
                // Root-player moves map back and forth.
                if g.to_move() == 0 {
                    let v = g.view(0);
                    for &m in list.as_slice() {
                        let mv = real_move(&v, m).expect("own piece on from");
                        assert!(v.is_legal(mv), "{mv} from {m:?}");
                        assert_eq!(board_move(&v, mv), Some(m));
                    }
                }
                let moves = g.legal_moves();
                g.play(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert_eq!(endings, 300);
    }
}
