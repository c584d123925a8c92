//! The true game of Geister, as a referee sees it: both sides' colours are
//! known. Squares are absolute (seat 0's frame: seat 0 starts on rows 4..5
//! and moves toward y = 0); moves are given in the mover's own frame.

use std::fmt;

use rand::Rng;

use crate::search::{Game, Outcome, Seat};

/// Board width and height.
pub const SIZE: u8 = 6;
/// Pieces per seat.
pub const PIECES: usize = 8;
/// Plies (both players counted) after which an undecided game is a draw.
pub const MAX_PLIES: u32 = 300;

/// A piece's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Red,
    Blue,
}

impl Colour {
    /// Index for per-colour arrays: red 0, blue 1.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Colour::Red => 0,
            Colour::Blue => 1,
        }
    }
}

/// A square, index `x + 6 y`, in whatever frame the context says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square (x, y); both must be below 6.
    pub fn new(x: u8, y: u8) -> Self {
        debug_assert!(x < SIZE && y < SIZE);
        Square(x + SIZE * y)
    }
    pub fn x(self) -> u8 {
        self.0 % SIZE
    }
    pub fn y(self) -> u8 {
        self.0 / SIZE
    }
    /// The same square seen from the other seat (180-degree rotation).
    #[inline]
    pub fn rotated(self) -> Self {
        Square(SIZE * SIZE - 1 - self.0)
    }
    /// This square (given in `frame`'s frame) in absolute coordinates, or the
    /// other way round: the rotation is its own inverse.
    #[inline]
    pub fn in_frame(self, frame: Seat) -> Self {
        if frame == 0 {
            self
        } else {
            self.rotated()
        }
    }
}

/// Where a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    At(Square),
    Captured,
    Escaped,
}

impl Place {
    pub fn square(self) -> Option<Square> {
        match self {
            Place::At(s) => Some(s),
            _ => None,
        }
    }
    pub fn on_board(self) -> bool {
        matches!(self, Place::At(_))
    }
    /// The same place seen from the other seat.
    pub fn rotated(self) -> Self {
        match self {
            Place::At(s) => Place::At(s.rotated()),
            p => p,
        }
    }
    fn in_frame(self, frame: Seat) -> Self {
        if frame == 0 {
            self
        } else {
            self.rotated()
        }
    }
}

/// A direction in the mover's own frame: N is toward the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// (dx, dy) in the mover's own frame (N = y - 1).
    pub fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (0, -1),
            Dir::E => (1, 0),
            Dir::S => (0, 1),
            Dir::W => (-1, 0),
        }
    }
    pub fn letter(self) -> char {
        match self {
            Dir::N => 'N',
            Dir::E => 'E',
            Dir::S => 'S',
            Dir::W => 'W',
        }
    }
    /// `N`/`E`/`S`/`W` or `NORTH`/`EAST`/`SOUTH`/`WEST` (case-insensitive).
    pub fn parse(s: &str) -> Option<Dir> {
        match s.trim().to_ascii_uppercase().as_str() {
            "N" | "NORTH" => Some(Dir::N),
            "E" | "EAST" => Some(Dir::E),
            "S" | "SOUTH" => Some(Dir::S),
            "W" | "WEST" => Some(Dir::W),
            _ => None,
        }
    }
}

/// A move: piece index 0..8 (A..H) and a direction in the mover's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub piece: u8,
    pub dir: Dir,
}

impl Move {
    pub fn new(piece: u8, dir: Dir) -> Self {
        debug_assert!((piece as usize) < PIECES);
        Move { piece, dir }
    }
    /// The GAT form without the `MOV:` prefix, e.g. `A,N`.
    pub fn to_gat(self) -> String {
        format!("{},{}", piece_letter(self.piece), self.dir.letter())
    }
    /// Parses `A,N`, `MOV:A,NORTH` and the like.
    pub fn parse_gat(s: &str) -> Result<Move, String> {
        let body = s.trim();
        let body = body.strip_prefix("MOV:").unwrap_or(body);
        let (p, d) = body
            .split_once(',')
            .ok_or_else(|| format!("move '{s}': expected 'piece,direction'"))?;
        let p = p.trim();
        let piece = match p.as_bytes() {
            [c @ b'A'..=b'H'] => c - b'A',
            _ => return Err(format!("move '{s}': piece must be one of A..H")),
        };
        let dir = Dir::parse(d).ok_or_else(|| format!("move '{s}': bad direction"))?;
        Ok(Move { piece, dir })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_gat())
    }
}

/// The letter of piece `i` (0 = 'A').
pub fn piece_letter(i: u8) -> char {
    (b'A' + i) as char
}

/// Own start squares, in the owner's frame: A..D on row 4, E..H on row 5.
pub fn start_square(piece: u8) -> Square {
    let i = piece % 8;
    Square::new(1 + i % 4, 4 + i / 4)
}

/// A seat's exits in its own frame (the opponent's back-row corners).
pub const OWN_EXITS: [Square; 2] = [Square(0), Square(5)];

/// Which four of a seat's pieces are red.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup(u8);

impl Setup {
    /// From a bit mask (bit i = piece i is red): exactly 4 bits.
    pub fn from_mask(mask: u8) -> Result<Setup, String> {
        if mask.count_ones() != 4 {
            return Err(format!(
                "setup needs exactly 4 red pieces, mask {mask:#010b} has {}",
                mask.count_ones()
            ));
        }
        Ok(Setup(mask))
    }
    /// From the red letters, e.g. `ABCD` (or `SET:ABCD`): four distinct of A..H.
    pub fn from_letters(s: &str) -> Result<Setup, String> {
        let t = s.trim();
        let t = t.strip_prefix("SET:").unwrap_or(t);
        if t.len() != 4 {
            return Err(format!("setup '{s}': expected four letters A..H"));
        }
        let mut mask = 0u8;
        for c in t.bytes() {
            if !(b'A'..=b'H').contains(&c) {
                return Err(format!("setup '{s}': '{}' is not one of A..H", c as char));
            }
            let bit = 1 << (c - b'A');
            if mask & bit != 0 {
                return Err(format!("setup '{s}': '{}' twice", c as char));
            }
            mask |= bit;
        }
        Setup::from_mask(mask)
    }
    /// From per-piece redness.
    pub fn from_reds(reds: [bool; PIECES]) -> Result<Setup, String> {
        let mask = reds
            .iter()
            .enumerate()
            .fold(0u8, |m, (i, &r)| m | ((r as u8) << i));
        Setup::from_mask(mask)
    }
    /// All 70 setups, in increasing mask order.
    pub fn all() -> impl Iterator<Item = Setup> {
        (0u16..256)
            .map(|m| m as u8)
            .filter(|m| m.count_ones() == 4)
            .map(Setup)
    }
    /// A uniformly random setup.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Setup {
        let mut pieces = [0u8, 1, 2, 3, 4, 5, 6, 7];
        let mut mask = 0u8;
        for k in 0..4 {
            let j = rng.gen_range(k..PIECES);
            pieces.swap(k, j);
            mask |= 1 << pieces[k];
        }
        Setup(mask)
    }
    pub fn mask(self) -> u8 {
        self.0
    }
    pub fn is_red(self, piece: u8) -> bool {
        self.0 >> piece & 1 == 1
    }
    pub fn colour(self, piece: u8) -> Colour {
        if self.is_red(piece) {
            Colour::Red
        } else {
            Colour::Blue
        }
    }
    /// The red letters in order, e.g. `ABCD`.
    pub fn to_letters(self) -> String {
        (0..8u8)
            .filter(|&i| self.is_red(i))
            .map(piece_letter)
            .collect()
    }
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MoveReport {
    /// The colour of the opponent piece captured, if any.
    pub captured: Option<Colour>,
    /// Whether the moving piece escaped.
    pub escaped: bool,
}

/// Where `dir` (in `frame`'s frame) leads from the absolute square `from`;
/// `None` off the board.
#[inline]
pub(crate) fn step(from: Square, dir: Dir, frame: Seat) -> Option<Square> {
    let (mut dx, mut dy) = dir.delta();
    if frame != 0 {
        dx = -dx;
        dy = -dy;
    }
    let x = from.x() as i8 + dx;
    let y = from.y() as i8 + dy;
    if (0..SIZE as i8).contains(&x) && (0..SIZE as i8).contains(&y) {
        Some(Square::new(x as u8, y as u8))
    } else {
        None
    }
}

/// Whether the absolute square `sq` is an exit for the side moving in `frame`.
#[inline]
fn is_exit(sq: Square, frame: Seat) -> bool {
    let own = sq.in_frame(frame);
    OWN_EXITS.contains(&own)
}

/// Bit mask (bit = square index) of the squares `places` occupy.
#[inline]
pub(crate) fn occupancy(places: &[Place; PIECES]) -> u64 {
    places
        .iter()
        .filter_map(|p| p.square())
        .fold(0, |m, s| m | 1 << s.0)
}

/// Whether the side with pieces `own` (absolute squares), colours `setup`,
/// moving in `frame`'s frame, may play `mv`. Opponent pieces never block.
#[inline]
pub(crate) fn side_may_play(own: &[Place; PIECES], setup: Setup, frame: Seat, mv: Move) -> bool {
    let Some(&Place::At(from)) = own.get(mv.piece as usize) else {
        return false;
    };
    match step(from, mv.dir, frame) {
        Some(to) => occupancy(own) & (1 << to.0) == 0,
        None => !setup.is_red(mv.piece) && is_exit(from, frame),
    }
}

/// Every move the side may play, pieces A..H then directions N, E, S, W.
pub(crate) fn side_moves(own: &[Place; PIECES], setup: Setup, frame: Seat, out: &mut Vec<Move>) {
    let occ = occupancy(own);
    for (i, p) in own.iter().enumerate() {
        let Place::At(from) = *p else { continue };
        for dir in Dir::ALL {
            let ok = match step(from, dir, frame) {
                Some(to) => occ & (1 << to.0) == 0,
                None => !setup.is_red(i as u8) && is_exit(from, frame),
            };
            if ok {
                out.push(Move::new(i as u8, dir));
            }
        }
    }
}

/// The result a position implies: an escape, four blues lost (the other
/// seat wins) or four reds lost (that seat wins); then the ply limit.
/// `Err` if two events name different winners.
pub(crate) fn judge(
    places: &[[Place; PIECES]; 2],
    colours: [Setup; 2],
    ply: u32,
) -> Result<Option<Outcome>, String> {
    let mut sides = [(0u8, 0u8, false); 2];
    for (s, side) in sides.iter_mut().enumerate() {
        for (i, p) in places[s].iter().enumerate() {
            match p {
                Place::Escaped => side.2 = true,
                Place::Captured if colours[s].is_red(i as u8) => side.0 += 1,
                Place::Captured => side.1 += 1,
                Place::At(_) => {}
            }
        }
    }
    judge_counts(sides, ply)
}

/// [`judge`] from per seat (reds lost, blues lost, escaped).
pub(crate) fn judge_counts(
    sides: [(u8, u8, bool); 2],
    ply: u32,
) -> Result<Option<Outcome>, String> {
    let mut winner: Option<Seat> = None;
    let mut claim = |w: Seat, why: &str| -> Result<(), String> {
        match winner {
            Some(v) if v != w => Err(format!("both seats have won ({why})")),
            _ => {
                winner = Some(w);
                Ok(())
            }
        }
    };
    for (s, &(reds_lost, blues_lost, escaped)) in sides.iter().enumerate() {
        if escaped {
            claim(s, "an escape")?;
        }
        if blues_lost >= 4 {
            claim(1 - s, "all blues captured")?;
        }
        if reds_lost >= 4 {
            claim(s, "all reds captured")?;
        }
    }
    Ok(match winner {
        Some(w) => Some(Outcome::Win(w)),
        None if ply >= MAX_PLIES => Some(Outcome::Draw),
        None => None,
    })
}

/// A Geister position with both sides' colours known. Plain data: copy it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geister {
    /// Per seat, per piece, absolute squares.
    places: [[Place; PIECES]; 2],
    setups: [Setup; 2],
    ply: u16,
    first: u8,
    outcome: Option<Outcome>,
}

impl Geister {
    /// The start position, seat 0 to move.
    pub fn new(setups: [Setup; 2]) -> Self {
        Self::with_first(setups, 0)
    }

    /// The start position with `first` to move.
    pub fn with_first(setups: [Setup; 2], first: Seat) -> Self {
        assert!(first < 2, "seat {first} out of range");
        let mut places = [[Place::Captured; PIECES]; 2];
        for (s, side) in places.iter_mut().enumerate() {
            for (i, p) in side.iter_mut().enumerate() {
                *p = Place::At(start_square(i as u8).in_frame(s));
            }
        }
        Geister {
            places,
            setups,
            ply: 0,
            first: first as u8,
            outcome: None,
        }
    }

    /// Any position: per seat, per piece, absolute places. Checks that no two
    /// pieces share a square, that only blues escaped, and that the ply fits;
    /// the outcome is recomputed.
    pub fn from_position(
        places: [[Place; PIECES]; 2],
        setups: [Setup; 2],
        ply: u32,
        first: Seat,
    ) -> Result<Self, String> {
        if first > 1 {
            return Err(format!("seat {first} out of range"));
        }
        if ply > MAX_PLIES {
            return Err(format!("ply {ply} beyond the limit {MAX_PLIES}"));
        }
        let mut occ = 0u64;
        for s in 0..2 {
            for (i, p) in places[s].iter().enumerate() {
                match *p {
                    Place::At(sq) => {
                        if sq.0 >= SIZE * SIZE {
                            return Err(format!("square {} is off the board", sq.0));
                        }
                        if occ & (1 << sq.0) != 0 {
                            return Err(format!("two pieces on ({}, {})", sq.x(), sq.y()));
                        }
                        occ |= 1 << sq.0;
                    }
                    Place::Escaped if setups[s].is_red(i as u8) => {
                        return Err(format!(
                            "seat {s} piece {} is red but escaped",
                            piece_letter(i as u8)
                        ))
                    }
                    _ => {}
                }
            }
        }
        let escapes = places
            .iter()
            .flatten()
            .filter(|p| **p == Place::Escaped)
            .count();
        if escapes > 1 {
            return Err(format!("{escapes} escapes: the first one ends the game"));
        }
        let outcome = judge(&places, setups, ply)?;
        Ok(Geister {
            places,
            setups,
            ply: ply as u16,
            first: first as u8,
            outcome,
        })
    }

    /// The seat to move (meaningless once the game is over).
    #[inline]
    pub fn to_move(&self) -> Seat {
        (self.first as usize + self.ply as usize) & 1
    }
    /// The seat that moved first.
    pub fn first(&self) -> Seat {
        self.first as Seat
    }
    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply as u32
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn setup(&self, seat: Seat) -> Setup {
        self.setups[seat]
    }
    /// Where `seat`'s piece `piece` is (absolute squares).
    pub fn place(&self, seat: Seat, piece: u8) -> Place {
        self.places[seat][piece as usize]
    }
    /// All of `seat`'s pieces' places (absolute squares).
    pub fn places(&self, seat: Seat) -> &[Place; PIECES] {
        &self.places[seat]
    }
    pub fn colour(&self, seat: Seat, piece: u8) -> Colour {
        self.setups[seat].colour(piece)
    }
    /// The piece on the absolute square `sq`, as (seat, piece).
    pub fn piece_at(&self, sq: Square) -> Option<(Seat, u8)> {
        (0..2).find_map(|s| {
            self.places[s]
                .iter()
                .position(|p| *p == Place::At(sq))
                .map(|i| (s, i as u8))
        })
    }
    /// How many of `owner`'s pieces of `colour` have been captured.
    pub fn captured(&self, owner: Seat, colour: Colour) -> u32 {
        self.count(owner, |i, p| {
            p == Place::Captured && self.setups[owner].colour(i) == colour
        })
    }
    /// How many of `owner`'s pieces have escaped (0 or 1).
    pub fn escaped(&self, owner: Seat) -> u32 {
        self.count(owner, |_, p| p == Place::Escaped)
    }
    /// How many of `owner`'s pieces of `colour` are on the board.
    pub fn on_board(&self, owner: Seat, colour: Colour) -> u32 {
        self.count(owner, |i, p| {
            p.on_board() && self.setups[owner].colour(i) == colour
        })
    }

    fn count(&self, owner: Seat, f: impl Fn(u8, Place) -> bool) -> u32 {
        self.places[owner]
            .iter()
            .enumerate()
            .filter(|&(i, &p)| f(i as u8, p))
            .count() as u32
    }

    /// Every legal move of the seat to move; empty once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(32);
        self.legal_moves_into(&mut out);
        out
    }

    /// Appends the legal moves to `out` (after clearing it).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_none() {
            let s = self.to_move();
            side_moves(&self.places[s], self.setups[s], s, out);
        }
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        let s = self.to_move();
        self.outcome.is_none() && side_may_play(&self.places[s], self.setups[s], s, mv)
    }

    /// Plays `mv`, or says why it is illegal.
    pub fn try_play(&mut self, mv: Move) -> Result<MoveReport, String> {
        if let Some(o) = self.outcome {
            return Err(format!("the game is over ({o:?})"));
        }
        if !self.is_legal(mv) {
            return Err(format!("illegal move {mv} for seat {}", self.to_move()));
        }
        Ok(self.play_unchecked(mv))
    }

    /// Plays a legal move. Panics on an illegal one.
    pub fn play(&mut self, mv: Move) -> MoveReport {
        match self.try_play(mv) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }

    fn play_unchecked(&mut self, mv: Move) -> MoveReport {
        let s = self.to_move();
        let o = 1 - s;
        let mut report = MoveReport::default();
        let Place::At(from) = self.places[s][mv.piece as usize] else {
            unreachable!("checked legal")
        };
        match step(from, mv.dir, s) {
            None => {
                self.places[s][mv.piece as usize] = Place::Escaped;
                report.escaped = true;
            }
            Some(to) => {
                if let Some(q) = self.places[o].iter().position(|p| *p == Place::At(to)) {
                    self.places[o][q] = Place::Captured;
                    report.captured = Some(self.setups[o].colour(q as u8));
                }
                self.places[s][mv.piece as usize] = Place::At(to);
            }
        }
        self.ply += 1;
        self.outcome = judge(&self.places, self.setups, self.ply as u32)
            .expect("a single move decides at most one winner");
        report
    }

    /// What `seat` knows (see [`crate::games::geister::View`]).
    pub fn view(&self, seat: Seat) -> super::View {
        super::View::of_game(self, seat)
    }

    /// The 48-character board the GAT server sends `seat` (with the
    /// opponent's remaining colours revealed once the game is over).
    pub fn to_gat(&self, seat: Seat) -> String {
        self.view(seat).to_gat()
    }

    /// A picture for humans: seat 0's pieces upper case (A..H), seat 1's
    /// lower case, red pieces followed by `r`, blue by `b`; row 0 on top.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for y in 0..SIZE {
            for x in 0..SIZE {
                let cell = match self.piece_at(Square::new(x, y)) {
                    None => " . ".to_string(),
                    Some((s, i)) => {
                        let l = piece_letter(i);
                        let l = if s == 0 { l } else { l.to_ascii_lowercase() };
                        let c = if self.setups[s].is_red(i) { 'r' } else { 'b' };
                        format!("{l}{c} ")
                    }
                };
                out.push_str(&cell);
            }
            out.push('\n');
        }
        out
    }

    /// `places` in `frame`'s frame (for views).
    pub(crate) fn places_in_frame(&self, seat: Seat, frame: Seat) -> [Place; PIECES] {
        self.places[seat].map(|p| p.in_frame(frame))
    }
}

impl Game for Geister {
    type Move = Move;

    fn to_move(&self) -> Seat {
        Geister::to_move(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn legal_moves(&self) -> Vec<Move> {
        Geister::legal_moves(self)
    }
    fn play(&mut self, mv: Move) {
        Geister::play(self, mv);
    }
    fn is_legal(&self, mv: Move) -> bool {
        Geister::is_legal(self, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(s: &str) -> Setup {
        Setup::from_letters(s).unwrap()
    }

    #[test]
    fn setups_validate() {
        assert_eq!(setup("ABCD").mask(), 0x0f);
        assert_eq!(setup("SET:EFGH").to_letters(), "EFGH");
        assert!(Setup::from_letters("ABC").is_err());
        assert!(Setup::from_letters("AABC").is_err());
        assert!(Setup::from_letters("ABCI").is_err());
        assert!(Setup::from_mask(0x1f).is_err());
        assert_eq!(Setup::all().count(), 70);
    }

    #[test]
    fn start_squares_rotate() {
        let g = Geister::new([setup("ABCD"), setup("EFGH")]);
        assert_eq!(g.place(0, 0), Place::At(Square::new(1, 4)));
        assert_eq!(g.place(0, 7), Place::At(Square::new(4, 5)));
        assert_eq!(g.place(1, 0), Place::At(Square::new(4, 1)));
        assert_eq!(g.place(1, 7), Place::At(Square::new(1, 0)));
        // A: N, W; B, C: N; D: N, E; E: W; F, G: none; H: E.
        assert_eq!(g.legal_moves().len(), 8);
    }

    #[test]
    fn pieces_are_found_on_their_squares() {
        let g = Geister::new([setup("ABCD"), setup("EFGH")]);
        assert_eq!(g.piece_at(Square::new(1, 4)), Some((0, 0)));
        assert_eq!(g.piece_at(Square::new(4, 5)), Some((0, 7)));
        assert_eq!(g.piece_at(Square::new(3, 1)), Some((1, 1)));
        assert_eq!(g.piece_at(Square::new(0, 0)), None);
        assert_eq!(g.piece_at(Square::new(2, 3)), None);
        // The picture: seat 1's back row on top (E..H red), seat 0's A..D
        // (red) in front of its E..H (blue).
        let picture = g.render();
        let rows: Vec<&str> = picture.lines().map(str::trim_end).collect();
        assert_eq!(rows.len(), 6);
        assert_eq!(rows[0], " . hr gr fr er  .");
        assert_eq!(rows[2], " .  .  .  .  .  .");
        assert_eq!(rows[4], " . Ar Br Cr Dr  .");
        assert_eq!(rows[5], " . Eb Fb Gb Hb  .");
    }

    #[test]
    fn a_position_is_checked_and_keeps_who_moved_first() {
        let setups = [setup("ABCD"), setup("EFGH")];
        let start = Geister::with_first(setups, 1);
        let places = [*start.places(0), *start.places(1)];
        let g = Geister::from_position(places, setups, 0, 1).unwrap();
        assert_eq!((g.first(), g.to_move()), (1, 1));
        assert_eq!(g, start);
        // Two pieces on one square, of one seat or of both; a square off the
        // board; a red piece escaped.
        let mut two = places;
        two[0][1] = two[0][0];
        let mut both = places;
        both[1][3] = both[0][5];
        let mut off = places;
        off[1][2] = Place::At(Square(36));
        let mut red_out = places;
        red_out[0][2] = Place::Escaped;
        for (bad, why) in [
            (two, "two pieces on (1, 4)"),
            (both, "two pieces on"),
            (off, "off the board"),
            (red_out, "seat 0 piece C is red but escaped"),
        ] {
            let e = Geister::from_position(bad, setups, 0, 0).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
        // A blue escape is fine, and it wins.
        let mut blue_out = places;
        blue_out[0][5] = Place::Escaped;
        let g = Geister::from_position(blue_out, setups, 1, 0).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Win(0)));
        assert_eq!((g.escaped(0), g.escaped(1), start.escaped(0)), (1, 0, 0));
    }

    #[test]
    fn two_claims_of_one_seat_are_one_win_and_of_both_an_error() {
        // (reds lost, blues lost, escaped) per seat.
        let escaped_and_reds_lost = [(4, 0, true), (0, 0, false)];
        assert_eq!(
            judge_counts(escaped_and_reds_lost, 10),
            Ok(Some(Outcome::Win(0)))
        );
        let both_escaped = [(0, 0, true), (0, 0, true)];
        let e = judge_counts(both_escaped, 10).unwrap_err();
        assert!(e.starts_with("both seats have won"), "{e}");
        assert_eq!(
            judge_counts([(0, 4, false), (0, 0, false)], 10),
            Ok(Some(Outcome::Win(1)))
        );
        assert_eq!(judge_counts([(0, 0, false); 2], 10), Ok(None));
    }

    #[test]
    fn the_game_trait_plays_by_the_rules() {
        // What the search sees (the `Game` trait) is the position's own
        // rules: whose turn, the legal moves, a move played, the end.
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
        let mut g = Geister::with_first([setup("ABCD"), setup("EFGH")], 1);
        let mut plain = g;
        let mut seats = Vec::new();
        while Game::outcome(&g).is_none() {
            assert_eq!(Game::to_move(&g), plain.to_move());
            seats.push(Game::to_move(&g));
            let moves = Game::legal_moves(&g);
            assert_eq!(moves, plain.legal_moves());
            let mv = *moves.choose(&mut rng).unwrap();
            assert!(Game::is_legal(&g, mv));
            Game::play(&mut g, mv);
            plain.play(mv);
            assert_eq!(g, plain);
        }
        assert_eq!(seats[..4], [1, 0, 1, 0]);
        assert_eq!(Game::outcome(&g), plain.outcome());
        assert!(plain.outcome().is_some());
        assert!(
            !Game::is_legal(&g, Move::new(0, Dir::N)),
            "the game is over"
        );
    }

    #[test]
    fn seat_one_directions_are_rotated() {
        let mut g = Geister::with_first([setup("ABCD"), setup("ABCD")], 1);
        assert_eq!(g.to_move(), 1);
        g.play(Move::new(0, Dir::N));
        assert_eq!(g.place(1, 0), Place::At(Square::new(4, 2)));
        g.play(Move::new(0, Dir::N));
        assert_eq!(g.place(0, 0), Place::At(Square::new(1, 3)));
        g.play(Move::new(0, Dir::E));
        assert_eq!(g.place(1, 0), Place::At(Square::new(3, 2)));
    }

    #[test]
    fn moves_parse_and_print() {
        let m = Move::parse_gat("MOV:B,NORTH").unwrap();
        assert_eq!(m, Move::new(1, Dir::N));
        assert_eq!(m.to_gat(), "B,N");
        assert_eq!(m.to_string(), "B,N");
        for piece in 0..PIECES as u8 {
            for dir in [Dir::N, Dir::E, Dir::S, Dir::W] {
                let m = Move::new(piece, dir);
                assert_eq!(Move::parse_gat(&m.to_string()), Ok(m));
            }
        }
        assert!(Move::parse_gat("I,N").is_err());
        assert!(Move::parse_gat("A,X").is_err());
    }
}
