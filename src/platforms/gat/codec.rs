//! The GAT Geister server protocol (TCP, ASCII lines ending `\r\n`) as a pure
//! codec for both sides: typed messages, parsing with errors instead of
//! panics, and formatting to the exact bytes the server and its clients send.
//! [`Phase`] is the per-connection message order as a small state machine.
//! No I/O happens here.
//!
//! The written specification is `protocol/gat-geister/README.md`; the recorded
//! transcripts beside it are the reference for every line.
//!
//! The 48-character board is kept as a [`GatBoard`] in the receiving client's
//! frame (itself at the bottom) and knows nothing of the game's rules.

use std::fmt;

/// Pieces per player.
pub const PIECES: usize = 8;
/// Reds (and blues) per player.
pub const REDS: usize = 4;
/// Entries on a board: own pieces A..H, then opponent pieces a..h.
pub const BOARD_ENTRIES: usize = 2 * PIECES;
/// Characters of a board: one `x y colour` triple per entry.
pub const BOARD_CHARS: usize = 3 * BOARD_ENTRIES;
/// Side of the square board.
pub const SIZE: u8 = 6;
/// Every line on the wire ends with this.
pub const EOL: &str = "\r\n";
/// The ports the server listens on: first player, second player.
pub const PORTS: [u16; 2] = [10000, 10001];
/// The server's default time budget per player, in seconds.
pub const DEFAULT_BUDGET_S: u64 = 600;
/// The server's default time per move once the budget is spent, in seconds.
pub const DEFAULT_TIMEOUT_S: u64 = 10;

/// Why a line or board could not be parsed or built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GatError(pub String);

fn err<T>(line: &str, why: impl fmt::Display) -> Result<T, GatError> {
    Err(GatError(format!("{why}: '{}'", shorten(line))))
}

/// A line cut to a length fit for a log, with control characters escaped.
fn shorten(line: &str) -> String {
    const MAX: usize = 80;
    let mut s: String = line
        .chars()
        .take(MAX)
        .collect::<String>()
        .escape_debug()
        .to_string();
    if line.chars().count() > MAX {
        s.push_str("...");
    }
    s
}

/// The line without its trailing `\r\n` (or `\n`, or `\r`).
fn strip_eol(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

/// A piece's colour as far as the board tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Red,
    Blue,
    /// An opponent piece whose colour is hidden (`u`).
    Unknown,
}

/// Where a board entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// On the square (x, y), both 0..6; y = 0 is the row farthest from the
    /// receiving client.
    At { x: u8, y: u8 },
    /// `99`: captured.
    Captured,
    /// `88`: escaped through an exit.
    Escaped,
}

impl Place {
    /// The square, if on the board.
    pub fn square(self) -> Option<(u8, u8)> {
        match self {
            Place::At { x, y } => Some((x, y)),
            _ => None,
        }
    }

    pub fn on_board(self) -> bool {
        matches!(self, Place::At { .. })
    }
}

/// One board entry (a triple `x y colour`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GatPiece {
    pub place: Place,
    pub colour: Colour,
}

/// The 48-character board of `MOV?` and of the end messages, in the frame of
/// the client receiving it: entries 0..8 are its own pieces A..H, 8..16 the
/// opponent's a..h.
///
/// The letter case of a colour follows from the entry: own pieces on the
/// board are `R`/`B`; everything else is lower case (`r`/`b`), or `u` for an
/// opponent piece on the board whose colour is hidden. [`GatBoard::new`] and
/// [`GatBoard::parse`] enforce that, so formatting is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GatBoard {
    pieces: [GatPiece; BOARD_ENTRIES],
}

impl GatBoard {
    /// Checks the entries: own pieces are red or blue; `Unknown` only for an
    /// opponent piece on the board; no two pieces on one square.
    pub fn new(pieces: [GatPiece; BOARD_ENTRIES]) -> Result<Self, GatError> {
        let mut seen = [[None::<usize>; SIZE as usize]; SIZE as usize];
        for (i, p) in pieces.iter().enumerate() {
            let name = entry_name(i);
            if let Place::At { x, y } = p.place {
                if x >= SIZE || y >= SIZE {
                    return Err(GatError(format!(
                        "piece {name}: square ({x},{y}) is off the board"
                    )));
                }
                if let Some(j) = seen[y as usize][x as usize] {
                    return Err(GatError(format!(
                        "pieces {} and {name} are both on ({x},{y})",
                        entry_name(j)
                    )));
                }
                seen[y as usize][x as usize] = Some(i);
            }
            if p.colour == Colour::Unknown && (i < PIECES || !p.place.on_board()) {
                return Err(GatError(format!(
                    "piece {name}: only an opponent piece on the board may have a hidden colour"
                )));
            }
        }
        Ok(GatBoard { pieces })
    }

    /// The board a client sees before the first move: own pieces on their
    /// start squares (A..D at y = 4, E..H at y = 5, x = 1..4) with `reds`,
    /// opponent pieces mirrored (a..d at y = 1, e..h at y = 0, x = 4..1) and
    /// hidden.
    pub fn initial(reds: Reds) -> Self {
        let mut pieces = [GatPiece {
            place: Place::Captured,
            colour: Colour::Unknown,
        }; BOARD_ENTRIES];
        for (i, p) in pieces.iter_mut().enumerate().take(PIECES) {
            let (x, y) = (1 + (i % 4) as u8, 4 + (i / 4) as u8);
            p.place = Place::At { x, y };
            p.colour = if reds.0[i] { Colour::Red } else { Colour::Blue };
        }
        for i in 0..PIECES {
            let (x, y) = (4 - (i % 4) as u8, 1 - (i / 4) as u8);
            pieces[PIECES + i].place = Place::At { x, y };
        }
        GatBoard { pieces }
    }

    /// All 16 entries: own A..H, then opponent a..h.
    pub fn pieces(&self) -> &[GatPiece; BOARD_ENTRIES] {
        &self.pieces
    }

    /// Own piece `i` (0 = A .. 7 = H).
    pub fn own(&self, i: usize) -> GatPiece {
        self.pieces[i]
    }

    /// Opponent piece `i` (0 = a .. 7 = h).
    pub fn opponent(&self, i: usize) -> GatPiece {
        self.pieces[PIECES + i]
    }

    /// The entry on square (x, y), if any (0..8 own, 8..16 opponent).
    pub fn at(&self, x: u8, y: u8) -> Option<usize> {
        self.pieces
            .iter()
            .position(|p| p.place == Place::At { x, y })
    }

    /// The colour character of entry `i` as written on the wire.
    pub fn colour_char(&self, i: usize) -> char {
        let p = self.pieces[i];
        let upper = i < PIECES && p.place.on_board();
        match (p.colour, upper) {
            (Colour::Red, true) => 'R',
            (Colour::Blue, true) => 'B',
            (Colour::Red, false) => 'r',
            (Colour::Blue, false) => 'b',
            (Colour::Unknown, _) => 'u',
        }
    }

    /// Parses the 48 characters (nothing before or after).
    pub fn parse(s: &str) -> Result<Self, GatError> {
        let b = s.as_bytes();
        if b.len() != BOARD_CHARS || !s.is_ascii() {
            return err(
                s,
                format!("a board is {BOARD_CHARS} ASCII characters, got {}", s.len()),
            );
        }
        let mut pieces = [GatPiece {
            place: Place::Captured,
            colour: Colour::Unknown,
        }; BOARD_ENTRIES];
        for (i, t) in b.chunks_exact(3).enumerate() {
            let name = entry_name(i);
            let place = match (t[0], t[1]) {
                (b'9', b'9') => Place::Captured,
                (b'8', b'8') => Place::Escaped,
                (x @ b'0'..=b'5', y @ b'0'..=b'5') => Place::At {
                    x: x - b'0',
                    y: y - b'0',
                },
                _ => {
                    return err(
                        s,
                        format!(
                            "piece {name}: position '{}' is not xy (0..5), 99 or 88",
                            String::from_utf8_lossy(&t[..2])
                        ),
                    )
                }
            };
            let own = i < PIECES;
            let colour = match (t[2], own, place.on_board()) {
                (b'R', true, true) | (b'r', true, false) | (b'r', false, _) => Colour::Red,
                (b'B', true, true) | (b'b', true, false) | (b'b', false, _) => Colour::Blue,
                (b'u', false, true) => Colour::Unknown,
                (c, ..) => {
                    return err(
                        s,
                        format!(
                            "piece {name}: colour '{}' is not allowed here (own on board R/B, \
                             own off board r/b, opponent u/r/b, off board r/b)",
                            c as char
                        ),
                    )
                }
            };
            pieces[i] = GatPiece { place, colour };
        }
        GatBoard::new(pieces).or_else(|e| err(s, e))
    }
}

impl fmt::Display for GatBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.pieces.iter().enumerate() {
            match p.place {
                Place::At { x, y } => write!(f, "{x}{y}")?,
                Place::Captured => f.write_str("99")?,
                Place::Escaped => f.write_str("88")?,
            }
            write!(f, "{}", self.colour_char(i))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for GatBoard {
    type Err = GatError;
    fn from_str(s: &str) -> Result<Self, GatError> {
        GatBoard::parse(s)
    }
}

/// `A`..`H` for entries 0..8, `a`..`h` for 8..16.
fn entry_name(i: usize) -> char {
    if i < PIECES {
        (b'A' + i as u8) as char
    } else {
        (b'a' + (i - PIECES) as u8) as char
    }
}

/// How a game ended for the receiving client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `WON:`
    Won,
    /// `LST:`
    Lost,
    /// `DRW:`
    Draw,
}

impl Outcome {
    /// The four-character prefix.
    pub fn prefix(self) -> &'static str {
        match self {
            Outcome::Won => "WON:",
            Outcome::Lost => "LST:",
            Outcome::Draw => "DRW:",
        }
    }
}

/// The colour of a captured piece in `OKR`/`OKB`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Captured {
    Red,
    Blue,
}

/// One line from the server to a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMsg {
    /// `SET?`: choose the reds.
    SetQuestion,
    /// `OK ` (with its space): SET or move accepted.
    Ok,
    /// `NG `: SET rejected (retry) or move illegal (the sender loses).
    Ng,
    /// `OKR`/`OKB`: move accepted and it captured a red/blue piece. The real
    /// server's letter is not always reliable: read captures off the next board.
    OkCaptured(Captured),
    /// `MOV?` + board: your move.
    MoveQuestion(GatBoard),
    /// `WON:`/`LST:`/`DRW:` + board (the opponent's remaining pieces show
    /// their colours).
    End(Outcome, GatBoard),
}

/// Parses one server line; a trailing `\r\n` or `\n` is ignored.
pub fn parse_server_line(line: &str) -> Result<ServerMsg, GatError> {
    let l = strip_eol(line);
    match l {
        "SET?" => return Ok(ServerMsg::SetQuestion),
        "OK " => return Ok(ServerMsg::Ok),
        "NG " => return Ok(ServerMsg::Ng),
        "OKR" => return Ok(ServerMsg::OkCaptured(Captured::Red)),
        "OKB" => return Ok(ServerMsg::OkCaptured(Captured::Blue)),
        _ => {}
    }
    let board = |rest: &str| GatBoard::parse(rest).or_else(|e| err(l, e));
    if let Some(rest) = l.strip_prefix("MOV?") {
        return Ok(ServerMsg::MoveQuestion(board(rest)?));
    }
    for o in [Outcome::Won, Outcome::Lost, Outcome::Draw] {
        if let Some(rest) = l.strip_prefix(o.prefix()) {
            return Ok(ServerMsg::End(o, board(rest)?));
        }
    }
    match l {
        "" => err(l, "empty line"),
        "OK" | "NG" => err(l, "missing the trailing space"),
        _ => err(l, "unknown server message"),
    }
}

/// The exact line the server sends, with `\r\n`.
pub fn format_server(msg: &ServerMsg) -> String {
    let body = match msg {
        ServerMsg::SetQuestion => "SET?".to_string(),
        ServerMsg::Ok => "OK ".to_string(),
        ServerMsg::Ng => "NG ".to_string(),
        ServerMsg::OkCaptured(Captured::Red) => "OKR".to_string(),
        ServerMsg::OkCaptured(Captured::Blue) => "OKB".to_string(),
        ServerMsg::MoveQuestion(b) => format!("MOV?{b}"),
        ServerMsg::End(o, b) => format!("{}{b}", o.prefix()),
    };
    body + EOL
}

/// Which of a player's pieces A..H are red: exactly four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reds([bool; PIECES]);

impl Reds {
    /// Checks that exactly four are red.
    pub fn new(reds: [bool; PIECES]) -> Result<Self, GatError> {
        let n = reds.iter().filter(|&&r| r).count();
        if n != REDS {
            return Err(GatError(format!("expected {REDS} reds, got {n}")));
        }
        Ok(Reds(reds))
    }

    /// From four distinct letters `A`..`H` (upper case, any order).
    pub fn from_letters(s: &str) -> Result<Self, GatError> {
        let mut reds = [false; PIECES];
        for c in s.chars() {
            let i = piece_index(c).ok_or_else(|| {
                GatError(format!("'{}' is not a piece letter A..H", c.escape_debug()))
            })?;
            if reds[i] {
                return Err(GatError(format!("piece {c} is named twice")));
            }
            reds[i] = true;
        }
        Reds::new(reds)
    }

    pub fn as_array(&self) -> [bool; PIECES] {
        self.0
    }

    pub fn is_red(&self, piece: usize) -> bool {
        self.0.get(piece).copied().unwrap_or(false)
    }

    /// The four letters in alphabetical order, e.g. `EFGH`.
    pub fn letters(&self) -> String {
        (0..PIECES).filter(|&i| self.0[i]).map(entry_name).collect()
    }
}

/// `A`..`H` -> 0..8.
fn piece_index(c: char) -> Option<usize> {
    ('A'..='H').contains(&c).then(|| c as usize - 'A' as usize)
}

/// A move direction in the mover's own frame (N is y - 1, toward the
/// opponent): the rules' type, so codec and game share one.
pub use crate::games::geister::Dir;

/// One line from a client to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientMsg {
    /// `SET:EFGH`
    Set(Reds),
    /// `MOV:A,N`: own piece 0..8 (A..H) one step in `dir`.
    Move { piece: u8, dir: Dir },
}

/// Parses one client line; a trailing `\r\n` or `\n` is ignored. SET needs
/// exactly four distinct upper-case letters A..H; MOV an upper-case piece
/// letter and a direction name in any case, short or long.
pub fn parse_client_line(line: &str) -> Result<ClientMsg, GatError> {
    let l = strip_eol(line);
    if let Some(rest) = l.strip_prefix("SET:") {
        return match Reds::from_letters(rest) {
            Ok(r) => Ok(ClientMsg::Set(r)),
            Err(e) => err(l, e),
        };
    }
    if let Some(rest) = l.strip_prefix("MOV:") {
        let Some((p, d)) = rest.split_once(',') else {
            return err(l, "expected MOV:<piece>,<direction>");
        };
        let mut pc = p.chars();
        let piece = match (pc.next().and_then(piece_index), pc.next()) {
            (Some(i), None) => i as u8,
            _ => return err(l, format!("'{}' is not a piece letter A..H", shorten(p))),
        };
        let Some(dir) = Dir::parse(d) else {
            return err(l, format!("'{}' is not a direction", shorten(d)));
        };
        return Ok(ClientMsg::Move { piece, dir });
    }
    if l.is_empty() {
        err(l, "empty line")
    } else {
        err(l, "unknown client message")
    }
}

/// The exact line a client sends, with `\r\n` (single-letter directions).
/// A `piece` outside 0..8 is written `?` (the server answers `NG `).
pub fn format_client(msg: &ClientMsg) -> String {
    match msg {
        ClientMsg::Set(r) => format!("SET:{}{EOL}", r.letters()),
        ClientMsg::Move { piece, dir } => {
            // A piece out of range is written `?`, which the server refuses.
            let p = if usize::from(*piece) < PIECES {
                entry_name(usize::from(*piece))
            } else {
                '?'
            };
            format!("MOV:{p},{}{EOL}", dir.letter())
        }
    }
}

/// Where one connection (one game) is in the message order, seen from either
/// end. Feed it every line in order; a line out of order is an error.
///
/// `SET?` → `SET:` → `OK ` (or `NG ` → `SET:` again) → then per turn `MOV?` →
/// `MOV:` → `OK `/`OKR`/`OKB` (or `NG `, after which only the end may come);
/// the end (`WON:`/`LST:`/`DRW:`) may come at any moment before it: the real
/// server sends it from its timer threads and when the other player's
/// connection closes, whatever this connection's phase (seen on
/// miyo/geister_server.java: a `WON:` in place of the `OK ` to our move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Phase {
    /// Connected, waiting for `SET?`.
    #[default]
    Connected,
    /// `SET?` received: the client must send `SET:`.
    MustSet,
    /// `SET:` sent, waiting for `OK ` or `NG `.
    SetSent,
    /// Waiting for `MOV?` or the end.
    Waiting,
    /// `MOV?` received: the client must send `MOV:`.
    MustMove,
    /// `MOV:` sent, waiting for the acknowledgement.
    MoveSent,
    /// The move was refused with `NG `: only the end may follow.
    Refused,
    /// The end message arrived; the server closes the connection.
    Over(Outcome),
}

impl Phase {
    /// The phase after the server sent `msg`.
    pub fn on_server(self, msg: &ServerMsg) -> Result<Phase, GatError> {
        use Phase::*;
        let next = match (self, msg) {
            (Connected, ServerMsg::SetQuestion) => MustSet,
            (SetSent, ServerMsg::Ok) => Waiting,
            (SetSent, ServerMsg::Ng) => MustSet,
            (Waiting, ServerMsg::MoveQuestion(_)) => MustMove,
            (MoveSent, ServerMsg::Ok | ServerMsg::OkCaptured(_)) => Waiting,
            (MoveSent, ServerMsg::Ng) => Refused,
            (p, ServerMsg::End(o, _)) if !matches!(p, Over(_)) => Over(*o),
            (p, m) => {
                return Err(GatError(format!(
                    "server sent {} while {p:?}",
                    format_server(m).trim_end()
                )))
            }
        };
        Ok(next)
    }

    /// The phase after the client sent `msg`.
    pub fn on_client(self, msg: &ClientMsg) -> Result<Phase, GatError> {
        match (self, msg) {
            (Phase::MustSet, ClientMsg::Set(_)) => Ok(Phase::SetSent),
            (Phase::MustMove, ClientMsg::Move { .. }) => Ok(Phase::MoveSent),
            (p, m) => Err(GatError(format!(
                "client sent {} while {p:?}",
                format_client(m).trim_end()
            ))),
        }
    }

    /// The phase after the client sent a line that does not parse (the
    /// server answers it `NG `): as if a SET or move had been sent.
    pub fn on_client_unparsed(self) -> Result<Phase, GatError> {
        match self {
            Phase::MustSet => Ok(Phase::SetSent),
            Phase::MustMove => Ok(Phase::MoveSent),
            p => Err(GatError(format!("client sent a line while {p:?}"))),
        }
    }

    /// Whether the client owes the server a line now.
    pub fn client_must_send(self) -> bool {
        matches!(self, Phase::MustSet | Phase::MustMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INITIAL: &str = "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u";

    #[test]
    fn initial_board_matches_the_spec_example() {
        let reds = Reds::from_letters("ABCD").unwrap();
        let b = GatBoard::initial(reds);
        assert_eq!(b.to_string(), INITIAL);
        assert_eq!(GatBoard::parse(INITIAL).unwrap(), b);
        assert_eq!(b.own(0).place, Place::At { x: 1, y: 4 });
        assert_eq!(b.opponent(7).place, Place::At { x: 1, y: 0 });
        assert_eq!(b.at(4, 1), Some(PIECES));
        assert_eq!(b.at(0, 0), None);
        assert_eq!(b.colour_char(0), 'R');
        assert_eq!(b.colour_char(4), 'B');
        assert_eq!(b.colour_char(8), 'u');
    }

    #[test]
    fn board_round_trips_captured_and_escaped() {
        for s in [
            "99r99b24R99b99r99r43B54B99r41r99r99b99b40b20r88b",
            "99r14R99r99b99b15B35R88b99r99b31r99b99r99r12b01b",
            "12B14R34B44R15B24R35R45B51u31u99b01u40u30u20u10u",
        ] {
            let b = GatBoard::parse(s).unwrap();
            assert_eq!(b.to_string(), s);
        }
        let b = GatBoard::parse("99r14R99r99b99b15B35R88b99r99b31r99b99r99r12b01b").unwrap();
        assert_eq!(
            b.own(7),
            GatPiece {
                place: Place::Escaped,
                colour: Colour::Blue
            }
        );
        assert_eq!(b.opponent(6).colour, Colour::Blue);
        assert_eq!(b.opponent(6).place.square(), Some((1, 2)));
    }

    #[test]
    fn malformed_boards_are_errors() {
        let bad = [
            "",
            &INITIAL[..47],
            &format!("{INITIAL}0"),
            // off-board coordinates
            "64R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
            "19R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
            "98r24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
            // unknown colour, wrong case, hidden own piece
            "14X24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
            "14r24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
            "14u24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
            "99R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
            "14R24R34R44R15B25B35B45B41R31u21u11u40u30u20u10u",
            "14R24R34R44R15B25B35B45B99u31u21u11u40u30u20u10u",
            // two pieces on one square
            "14R14R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
            "14R24R34R44R15B25B35B45B14u31u21u11u40u30u20u10u",
            // non-ASCII of the right byte length
            "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u1é",
        ];
        for s in bad {
            assert!(GatBoard::parse(s).is_err(), "{s}");
        }
    }

    #[test]
    fn server_lines_round_trip() {
        let b = GatBoard::parse(INITIAL).unwrap();
        let msgs = [
            ServerMsg::SetQuestion,
            ServerMsg::Ok,
            ServerMsg::Ng,
            ServerMsg::OkCaptured(Captured::Red),
            ServerMsg::OkCaptured(Captured::Blue),
            ServerMsg::MoveQuestion(b),
            ServerMsg::End(Outcome::Won, b),
            ServerMsg::End(Outcome::Lost, b),
            ServerMsg::End(Outcome::Draw, b),
        ];
        for m in msgs {
            let line = format_server(&m);
            assert!(line.ends_with("\r\n"));
            assert_eq!(parse_server_line(&line).unwrap(), m, "{line:?}");
            assert_eq!(parse_server_line(line.trim_end_matches('\r')).unwrap(), m);
            assert_eq!(parse_server_line(strip_eol(&line)).unwrap(), m);
        }
        assert_eq!(format_server(&ServerMsg::Ok), "OK \r\n");
        assert_eq!(format_server(&ServerMsg::Ng), "NG \r\n");
        assert_eq!(
            format_server(&ServerMsg::MoveQuestion(b)),
            format!("MOV?{INITIAL}\r\n")
        );
    }

    #[test]
    fn malformed_server_lines_are_errors() {
        for l in [
            "",
            "\r\n",
            "OK",
            "OK\r\n",
            "NG",
            "ok \r\n",
            "OKX",
            "SET",
            "SET?x",
            "MOV?",
            "MOV?123",
            "WON:",
            "LST:xyz",
            "DRW:14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10",
            " SET?",
            "OK \r\n\r\n",
            "é",
        ] {
            let e = parse_server_line(l);
            assert!(e.is_err(), "{l:?}");
        }
        let e = parse_server_line("OK\r\n").unwrap_err();
        assert!(e.0.contains("space"), "{e}");
    }

    #[test]
    fn client_lines_round_trip_and_accept_long_names() {
        let set = parse_client_line("SET:EFGH\r\n").unwrap();
        assert_eq!(
            set,
            ClientMsg::Set(
                Reds::new([false, false, false, false, true, true, true, true]).unwrap()
            )
        );
        assert_eq!(format_client(&set), "SET:EFGH\r\n");
        // Any order in, alphabetical out.
        assert_eq!(
            format_client(&parse_client_line("SET:HFGE").unwrap()),
            "SET:EFGH\r\n"
        );
        for (text, piece, dir) in [
            ("MOV:A,N", 0, Dir::N),
            ("MOV:H,NORTH", 7, Dir::N),
            ("MOV:B,east\n", 1, Dir::E),
            ("MOV:C,South\r\n", 2, Dir::S),
            ("MOV:D,w", 3, Dir::W),
            ("MOV:E,WEST", 4, Dir::W),
        ] {
            let m = parse_client_line(text).unwrap();
            assert_eq!(m, ClientMsg::Move { piece, dir }, "{text}");
            let out = format_client(&m);
            assert_eq!(
                out,
                format!("MOV:{},{}\r\n", entry_name(piece as usize), dir.letter())
            );
            assert_eq!(parse_client_line(&out).unwrap(), m);
        }
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            assert_eq!(dx.abs() + dy.abs(), 1);
            assert_eq!(Dir::parse(&d.letter().to_string()), Some(d));
        }
    }

    #[test]
    fn malformed_client_lines_are_errors() {
        for l in [
            "",
            "\r\n",
            "SET:",
            "SET:ABC",
            "SET:ABCDE",
            "SET:AABC",
            "SET:ABCI",
            "SET:abcd",
            "SET:AB D",
            "SET?",
            "MOV:",
            "MOV:A",
            "MOV:A,",
            "MOV:,N",
            "MOV:I,N",
            "MOV:a,N",
            "MOV:AB,N",
            "MOV:A,X",
            "MOV:A,NORTHWEST",
            "MOV:A N",
            "MOV:A,N,E",
            "MOVE:A,N",
            "hello",
            "MOV:é,N",
        ] {
            assert!(parse_client_line(l).is_err(), "{l:?}");
        }
        assert!(Reds::new([true; 8]).is_err());
        assert!(Reds::new([false; 8]).is_err());
    }

    #[test]
    fn errors_are_short_and_escaped() {
        let long = "x".repeat(10_000);
        let e = parse_server_line(&long).unwrap_err();
        assert!(e.0.len() < 200, "{}", e.0.len());
        let e = parse_client_line("MOV:A,\u{1b}[31m").unwrap_err();
        assert!(!e.0.contains('\u{1b}'), "{e}");
    }

    #[test]
    fn errors_name_the_piece_and_quote_the_line() {
        // Entries 0..8 are A..H, 8..16 a..h.
        for (board, why) in [
            (
                "64R24R34R44R15B25B35B45B41u31u21u11u40u30u20u10u",
                "piece A: position '64' is not xy (0..5), 99 or 88",
            ),
            (
                "14R24R34R44R15B25B35B45B14u31u21u11u40u30u20u10u",
                "pieces A and a are both on (1,4)",
            ),
            (
                "14R24R34R44R15B25B35B45B41u31u21u11u40u30u20u14u",
                "pieces A and h are both on (1,4)",
            ),
        ] {
            let e = GatBoard::parse(board).unwrap_err();
            assert!(e.0.contains(why), "{board}: {e}");
        }
        // The line is quoted whole up to 80 characters, then cut with `...`.
        let e = |l: &str| parse_server_line(l).unwrap_err().0;
        assert_eq!(e(""), "empty line: ''");
        assert_eq!(e("HELLO"), "unknown server message: 'HELLO'");
        let x80 = "x".repeat(80);
        assert_eq!(e(&x80), format!("unknown server message: '{x80}'"));
        assert_eq!(
            e(&"x".repeat(81)),
            format!("unknown server message: '{x80}...'")
        );
        assert_eq!(e("A\tB"), "unknown server message: 'A\\tB'");
    }

    #[test]
    fn reds_read_from_letters() {
        let r = Reds::from_letters("HAEB").unwrap();
        assert_eq!(
            r.as_array(),
            [true, true, false, false, true, false, false, true]
        );
        assert_eq!(r.letters(), "ABEH");
        assert!(r.is_red(0) && r.is_red(7) && !r.is_red(2));
        assert!(!r.is_red(PIECES), "past H is no piece");
        assert!(Reds::from_letters("ABC").is_err());
    }

    #[test]
    fn a_piece_past_h_is_written_as_a_question_mark() {
        let mv = |piece| format_client(&ClientMsg::Move { piece, dir: Dir::N });
        assert_eq!(mv(7), "MOV:H,N\r\n");
        assert_eq!(mv(8), "MOV:?,N\r\n");
    }

    #[test]
    fn the_client_owes_a_line_only_when_asked() {
        use Phase::*;
        for (p, owes) in [
            (Connected, false),
            (MustSet, true),
            (SetSent, false),
            (Waiting, false),
            (MustMove, true),
            (MoveSent, false),
            (Refused, false),
            (Over(Outcome::Draw), false),
        ] {
            assert_eq!(p.client_must_send(), owes, "{p:?}");
        }
    }

    #[test]
    fn phase_follows_the_documented_order() {
        let b = GatBoard::parse(INITIAL).unwrap();
        let set = ClientMsg::Set(Reds::from_letters("ABCD").unwrap());
        let mv = ClientMsg::Move {
            piece: 0,
            dir: Dir::N,
        };
        let mut p = Phase::default();
        p = p.on_server(&ServerMsg::SetQuestion).unwrap();
        assert!(p.client_must_send());
        p = p.on_client(&set).unwrap();
        p = p.on_server(&ServerMsg::Ng).unwrap();
        assert_eq!(p, Phase::MustSet);
        p = p.on_client(&set).unwrap();
        p = p.on_server(&ServerMsg::Ok).unwrap();
        assert_eq!(p, Phase::Waiting);
        assert!(p.on_client(&mv).is_err());
        p = p.on_server(&ServerMsg::MoveQuestion(b)).unwrap();
        assert!(p.on_client(&set).is_err());
        p = p.on_client(&mv).unwrap();
        // The end may come in place of the move's acknowledgement, or
        // while we think, or before the setup is answered.
        for q in [
            p,
            Phase::MustMove,
            Phase::MustSet,
            Phase::SetSent,
            Phase::Connected,
        ] {
            assert_eq!(
                q.on_server(&ServerMsg::End(Outcome::Won, b)),
                Ok(Phase::Over(Outcome::Won))
            );
        }
        p = p.on_server(&ServerMsg::OkCaptured(Captured::Blue)).unwrap();
        p = p.on_server(&ServerMsg::MoveQuestion(b)).unwrap();
        p = p.on_client(&mv).unwrap();
        p = p.on_server(&ServerMsg::Ng).unwrap();
        assert_eq!(p, Phase::Refused);
        assert!(p.on_server(&ServerMsg::MoveQuestion(b)).is_err());
        p = p.on_server(&ServerMsg::End(Outcome::Lost, b)).unwrap();
        assert_eq!(p, Phase::Over(Outcome::Lost));
        assert!(p.on_server(&ServerMsg::SetQuestion).is_err());
        assert!(p.on_server(&ServerMsg::End(Outcome::Won, b)).is_err());
        assert!(Phase::Connected.on_server(&ServerMsg::Ok).is_err());
        assert_eq!(Phase::MustSet.on_client_unparsed(), Ok(Phase::SetSent));
        assert_eq!(Phase::MustMove.on_client_unparsed(), Ok(Phase::MoveSent));
        assert!(Phase::Waiting.on_client_unparsed().is_err());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_lines_never_panic(s in "\\PC{0,60}") {
            let _ = parse_server_line(&s);
            let _ = parse_client_line(&s);
            let _ = GatBoard::parse(&s);
        }

        #[test]
        fn prefixed_noise_never_panics(
            p in proptest::sample::select(vec!["MOV?", "WON:", "LST:", "DRW:", "SET:", "MOV:"]),
            s in "[0-9RBrbuA-Hx,NSEW]{0,52}",
        ) {
            let line = format!("{p}{s}\r\n");
            if let Ok(m) = parse_server_line(&line) {
                proptest::prop_assert_eq!(format_server(&m), line.clone());
            }
            let _ = parse_client_line(&line);
        }
    }
}
