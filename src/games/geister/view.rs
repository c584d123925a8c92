//! One player's view of a Geister game: its own colours, the opponent's
//! colours only once revealed, all in the player's own frame (itself on rows
//! 4..5, moving toward y = 0), and the GAT 48-character board string.

use rand::Rng;

use super::rules::{
    judge_counts, side_may_play, side_moves, step, Colour, Geister, Move, MoveReport, Place, Setup,
    Square, MAX_PLIES, PIECES, SIZE,
};
use crate::search::{Outcome, Seat};

/// What one seat knows. Squares are in the seat's own frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The viewer's absolute seat (0 moves "north" in absolute terms).
    seat: u8,
    my_turn: bool,
    ply: u16,
    own: [Place; PIECES],
    own_colours: Setup,
    opp: [Place; PIECES],
    opp_colours: [Option<Colour>; PIECES],
}

impl View {
    pub(crate) fn of_game(g: &Geister, seat: Seat) -> View {
        let other = 1 - seat;
        let opp = g.places_in_frame(other, seat);
        let over = g.outcome().is_some();
        let mut opp_colours = [None; PIECES];
        for (i, c) in opp_colours.iter_mut().enumerate() {
            if over || !opp[i].on_board() {
                *c = Some(g.colour(other, i as u8));
            }
        }
        View {
            seat: seat as u8,
            my_turn: g.to_move() == seat,
            ply: g.ply() as u16,
            own: g.places_in_frame(seat, seat),
            own_colours: g.setup(seat),
            opp,
            opp_colours,
        }
    }

    /// The viewer's absolute seat.
    pub fn seat(&self) -> Seat {
        self.seat as Seat
    }
    pub fn my_turn(&self) -> bool {
        self.my_turn
    }
    /// The absolute seat to move.
    pub fn to_move(&self) -> Seat {
        if self.my_turn {
            self.seat()
        } else {
            1 - self.seat()
        }
    }
    pub fn ply(&self) -> u32 {
        self.ply as u32
    }
    /// Sets what the board string does not carry: the viewer's absolute
    /// seat, the ply and whose turn it is. [`View::from_gat`] assumes seat 0,
    /// ply 0, our turn.
    pub fn set_context(&mut self, seat: Seat, ply: u32, my_turn: bool) {
        assert!(seat < 2, "seat {seat} out of range");
        self.seat = seat as u8;
        self.ply = ply.min(MAX_PLIES) as u16;
        self.my_turn = my_turn;
    }

    /// Where our piece `piece` is (own frame).
    pub fn own(&self, piece: u8) -> Place {
        self.own[piece as usize]
    }
    pub fn own_places(&self) -> &[Place; PIECES] {
        &self.own
    }
    pub fn own_colour(&self, piece: u8) -> Colour {
        self.own_colours.colour(piece)
    }
    /// Where the opponent's piece `piece` is (own frame).
    pub fn opp(&self, piece: u8) -> Place {
        self.opp[piece as usize]
    }
    pub fn opp_places(&self) -> &[Place; PIECES] {
        &self.opp
    }
    /// The opponent piece's colour if known (captured, escaped, or revealed
    /// at the end of the game).
    pub fn opp_colour(&self, piece: u8) -> Option<Colour> {
        self.opp_colours[piece as usize]
    }
    /// Our piece on the own-frame square `sq`.
    pub fn own_at(&self, sq: Square) -> Option<u8> {
        self.own
            .iter()
            .position(|p| *p == Place::At(sq))
            .map(|i| i as u8)
    }
    /// The opponent's piece on the own-frame square `sq`.
    pub fn opp_at(&self, sq: Square) -> Option<u8> {
        self.opp
            .iter()
            .position(|p| *p == Place::At(sq))
            .map(|i| i as u8)
    }
    /// How many of our pieces of `colour` the opponent captured.
    pub fn own_captured(&self, colour: Colour) -> u32 {
        (0..PIECES as u8)
            .filter(|&i| self.own(i) == Place::Captured && self.own_colour(i) == colour)
            .count() as u32
    }
    /// How many opponent pieces of `colour` we captured.
    pub fn opp_captured(&self, colour: Colour) -> u32 {
        (0..PIECES)
            .filter(|&i| self.opp[i] == Place::Captured && self.opp_colours[i] == Some(colour))
            .count() as u32
    }
    pub fn own_escaped(&self) -> u32 {
        self.own.iter().filter(|p| **p == Place::Escaped).count() as u32
    }
    pub fn opp_escaped(&self) -> u32 {
        self.opp.iter().filter(|p| **p == Place::Escaped).count() as u32
    }
    /// Opponent pieces of `colour` still on the board (known or not).
    pub fn opp_remaining(&self, colour: Colour) -> u32 {
        let gone = (0..PIECES)
            .filter(|&i| !self.opp[i].on_board() && self.opp_colours[i] == Some(colour))
            .count() as u32;
        4 - gone
    }

    /// The result the board shows, in absolute seats (see [`Geister::outcome`]).
    pub fn outcome(&self) -> Option<Outcome> {
        let me = self.seat();
        let them = 1 - me;
        let lost = |places: &[Place; PIECES], colour: &dyn Fn(usize) -> Option<Colour>| {
            let mut n = [0u8; 2];
            for (i, p) in places.iter().enumerate() {
                if *p == Place::Captured {
                    if let Some(c) = colour(i) {
                        n[c.index()] += 1;
                    }
                }
            }
            n
        };
        let own_lost = lost(&self.own, &|i| Some(self.own_colours.colour(i as u8)));
        let opp_lost = lost(&self.opp, &|i| self.opp_colours[i]);
        let escaped = [self.own_escaped() > 0, self.opp_escaped() > 0];
        let mut sides = [(0u8, 0u8, false); 2];
        sides[me] = (own_lost[0], own_lost[1], escaped[0]);
        sides[them] = (opp_lost[0], opp_lost[1], escaped[1]);
        judge_counts(sides, self.ply as u32).ok().flatten()
    }

    /// Our legal moves (empty if it is not our turn or the game is over).
    /// Opponent colours do not matter: a blue of ours on an exit may escape.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(32);
        if self.my_turn && self.outcome().is_none() {
            side_moves(&self.own, self.own_colours, 0, &mut out);
        }
        out
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        self.my_turn
            && self.outcome().is_none()
            && side_may_play(&self.own, self.own_colours, 0, mv)
    }

    /// Plays our move `mv`. If it captures a piece whose colour we do not
    /// know yet, `revealed` must give it (the server's `OKR`/`OKB`);
    /// otherwise `revealed` is ignored.
    pub fn play(&mut self, mv: Move, revealed: Option<Colour>) -> Result<MoveReport, String> {
        if !self.is_legal(mv) {
            return Err(format!("illegal move {mv} in this view"));
        }
        let Place::At(from) = self.own[mv.piece as usize] else {
            unreachable!("checked legal")
        };
        let mut report = MoveReport::default();
        match step(from, mv.dir, 0) {
            None => {
                self.own[mv.piece as usize] = Place::Escaped;
                report.escaped = true;
            }
            Some(to) => {
                if let Some(q) = self.opp_at(to) {
                    let q = q as usize;
                    let c = self.opp_colours[q]
                        .or(revealed)
                        .ok_or_else(|| format!("move {mv} captures a piece of unknown colour"))?;
                    self.opp[q] = Place::Captured;
                    self.opp_colours[q] = Some(c);
                    report.captured = Some(c);
                }
                self.own[mv.piece as usize] = Place::At(to);
            }
        }
        self.ply += 1;
        self.my_turn = false;
        Ok(report)
    }

    /// The GAT 48-character board: 16 triples `x y c`, our A..H then the
    /// opponent's a..h; `99` captured, `88` escaped.
    pub fn to_gat(&self) -> String {
        let mut s = String::with_capacity(48);
        let coords = |s: &mut String, p: Place| match p {
            Place::At(sq) => {
                s.push((b'0' + sq.x()) as char);
                s.push((b'0' + sq.y()) as char);
            }
            Place::Captured => s.push_str("99"),
            Place::Escaped => s.push_str("88"),
        };
        for (i, &p) in self.own.iter().enumerate() {
            coords(&mut s, p);
            let red = self.own_colours.is_red(i as u8);
            s.push(match (p.on_board(), red) {
                (true, true) => 'R',
                (true, false) => 'B',
                (false, true) => 'r',
                (false, false) => 'b',
            });
        }
        for (&p, &c) in self.opp.iter().zip(&self.opp_colours) {
            coords(&mut s, p);
            s.push(match c {
                None => 'u',
                Some(Colour::Red) => 'r',
                Some(Colour::Blue) => 'b',
            });
        }
        s
    }

    /// Parses a GAT board (seat 0, ply 0, our turn: see
    /// [`View::set_context`]). Own colours may be in either case; opponent
    /// pieces on the board are `u` (or `r`/`b` on an end-of-game board),
    /// captured or escaped ones `r`/`b`.
    pub fn from_gat(text: &str) -> Result<View, String> {
        let t = text.trim();
        let b = t.as_bytes();
        if b.len() != 48 || !t.is_ascii() {
            return Err(format!(
                "board '{t}': expected 48 ASCII characters, got {}",
                b.len()
            ));
        }
        let mut own = [Place::Captured; PIECES];
        let mut own_reds = [false; PIECES];
        let mut opp = [Place::Captured; PIECES];
        let mut opp_colours = [None; PIECES];
        let mut occ = 0u64;
        for k in 0..16 {
            let tri = &b[3 * k..3 * k + 3];
            let (mine, i) = (k < 8, k % 8);
            let who = if mine {
                (b'A' + i as u8) as char
            } else {
                (b'a' + i as u8) as char
            };
            let place = match (tri[0], tri[1]) {
                (b'9', b'9') => Place::Captured,
                (b'8', b'8') => Place::Escaped,
                (x @ b'0'..=b'5', y @ b'0'..=b'5') => {
                    let sq = Square::new(x - b'0', y - b'0');
                    if occ & (1 << sq.0) != 0 {
                        return Err(format!("board '{t}': piece {who} on an occupied square"));
                    }
                    occ |= 1 << sq.0;
                    Place::At(sq)
                }
                _ => {
                    return Err(format!(
                        "board '{t}': piece {who} has bad coordinates '{}{}'",
                        tri[0] as char, tri[1] as char
                    ))
                }
            };
            let colour = match tri[2] {
                b'R' | b'r' => Some(Colour::Red),
                b'B' | b'b' => Some(Colour::Blue),
                b'u' if !mine && place.on_board() => None,
                c => {
                    return Err(format!(
                        "board '{t}': piece {who} has bad colour '{}'",
                        c as char
                    ))
                }
            };
            if place == Place::Escaped && colour != Some(Colour::Blue) {
                return Err(format!("board '{t}': piece {who} escaped but is not blue"));
            }
            if mine {
                own[i] = place;
                own_reds[i] = colour == Some(Colour::Red);
            } else {
                opp[i] = place;
                opp_colours[i] = colour;
            }
        }
        let own_colours =
            Setup::from_reds(own_reds).map_err(|e| format!("board '{t}': own pieces: {e}"))?;
        for c in [Colour::Red, Colour::Blue] {
            if opp_colours.iter().filter(|&&k| k == Some(c)).count() > 4 {
                return Err(format!("board '{t}': more than 4 opponent {c:?} pieces"));
            }
        }
        let v = View {
            seat: 0,
            my_turn: true,
            ply: 0,
            own,
            own_colours,
            opp,
            opp_colours,
        };
        if v.own_escaped() + v.opp_escaped() > 1 {
            return Err(format!("board '{t}': more than one escape"));
        }
        Ok(v)
    }

    /// Whether `opponent_reds` (per opponent piece) fits what we know:
    /// exactly 4 reds, and the known colours.
    pub fn is_consistent(&self, opponent_reds: [bool; PIECES]) -> bool {
        opponent_reds.iter().filter(|&&r| r).count() == 4
            && self
                .opp_colours
                .iter()
                .zip(opponent_reds)
                .all(|(c, r)| c.is_none_or(|c| (c == Colour::Red) == r))
    }

    /// The true game this view would be if the opponent's reds were
    /// `opponent_reds`; `None` if that contradicts the view.
    pub fn determinize(&self, opponent_reds: [bool; PIECES]) -> Option<Geister> {
        if !self.is_consistent(opponent_reds) {
            return None;
        }
        let me = self.seat();
        let mut places = [[Place::Captured; PIECES]; 2];
        let mut setups = [self.own_colours; 2];
        let rot = |p: &Place| match *p {
            Place::At(sq) => Place::At(sq.in_frame(me)),
            q => q,
        };
        places[me] = self.own.each_ref().map(rot);
        places[1 - me] = self.opp.each_ref().map(rot);
        setups[1 - me] = Setup::from_reds(opponent_reds).ok()?;
        let first = (self.to_move() + self.ply as usize) & 1;
        Geister::from_position(places, setups, self.ply as u32, first).ok()
    }

    /// Opponent colours drawn uniformly among those consistent with the view.
    pub fn sample_opponent_reds<R: Rng + ?Sized>(&self, rng: &mut R) -> [bool; PIECES] {
        let mut reds = self.opp_colours.map(|c| c == Some(Colour::Red));
        let known_reds = reds.iter().filter(|&&r| r).count();
        let mut unknown: Vec<usize> = (0..PIECES)
            .filter(|&i| self.opp_colours[i].is_none())
            .collect();
        let need = 4usize.saturating_sub(known_reds).min(unknown.len());
        for k in 0..need {
            let j = rng.gen_range(k..unknown.len());
            unknown.swap(k, j);
            reds[unknown[k]] = true;
        }
        reds
    }

    /// A picture for humans in our frame: ours upper case with `r`/`b`,
    /// the opponent's lower case with `?` unless known.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for y in 0..SIZE {
            for x in 0..SIZE {
                let sq = Square::new(x, y);
                let cell = if let Some(i) = self.own_at(sq) {
                    let c = if self.own_colours.is_red(i) { 'r' } else { 'b' };
                    format!("{}{c} ", (b'A' + i) as char)
                } else if let Some(i) = self.opp_at(sq) {
                    let c = match self.opp_colours[i as usize] {
                        None => '?',
                        Some(Colour::Red) => 'r',
                        Some(Colour::Blue) => 'b',
                    };
                    format!("{}{c} ", (b'a' + i) as char)
                } else {
                    " . ".to_string()
                };
                out.push_str(&cell);
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_and_counts() {
        let s = "14R24R34R44R15B25B99b45B41u99r21u11u40u30u20u10u";
        let mut v = View::from_gat(s).unwrap();
        assert_eq!((v.seat(), v.ply(), v.my_turn()), (0, 0, true));
        assert_eq!(v.own_captured(Colour::Blue), 1);
        assert_eq!(v.opp_captured(Colour::Red), 1);
        assert_eq!(v.opp_remaining(Colour::Red), 3);
        assert_eq!(v.opp_remaining(Colour::Blue), 4);
        v.set_context(1, 7, false);
        assert_eq!(v.to_move(), 0);
        assert!(v.legal_moves().is_empty());
        let reds = [false, true, true, true, true, false, false, false];
        let g = v.determinize(reds).unwrap();
        assert_eq!((g.ply(), g.to_move()), (7, 0));
        // Our pieces are seat 1's, rotated back to absolute squares.
        assert_eq!(g.place(1, 0), Place::At(Square::new(4, 1)));
        assert_eq!(g.view(1), v);
    }
}
