//! GOLAD moves and how the Riddles.io protocol writes them.
//!
//! A bot answers `kill x,y`, `birth x,y a,b c,d` or `pass` (x = column,
//! y = row, tokens split on single spaces, keywords in any case, `no_moves`
//! = pass). The engine reports the opponent's move with underscores:
//! `kill_x,y`, `birth_x,y_a,b_c,d`, `pass`, or `null`.

use std::fmt;

/// Field width (columns, x) and height (rows, y).
pub const WIDTH: usize = 18;
pub const HEIGHT: usize = 16;
pub const CELLS: usize = WIDTH * HEIGHT;

/// A cell by column `x` (0..18) and row `y` (0..16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: u8,
    pub y: u8,
}

impl Cell {
    /// A cell, if (x, y) lies on the field.
    pub fn new(x: i64, y: i64) -> Option<Cell> {
        let on_field = (0..WIDTH as i64).contains(&x) && (0..HEIGHT as i64).contains(&y);
        on_field.then_some(Cell {
            x: x as u8,
            y: y as u8,
        })
    }
    /// Row-major index, as in the protocol's field string.
    pub fn index(self) -> usize {
        self.y as usize * WIDTH + self.x as usize
    }
    pub fn from_index(i: usize) -> Cell {
        Cell {
            x: (i % WIDTH) as u8,
            y: (i / WIDTH) as u8,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A GOLAD move. Legality depends on the field (see the rules module); an
/// illegal move acts as a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Kill any living cell.
    Kill(Cell),
    /// Bring `at` (dead) to life, sacrificing two distinct own living cells.
    Birth {
        at: Cell,
        sacrifice: [Cell; 2],
    },
    Pass,
}

impl fmt::Display for Move {
    /// The bot's reply line: `kill x,y`, `birth x,y a,b c,d` or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Kill(c) => write!(f, "kill {c}"),
            Move::Birth {
                at,
                sacrifice: [a, b],
            } => write!(f, "birth {at} {a} {b}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move line could not be read (the engine then treats it as a pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParseError(pub String);

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn parse_point(s: &str) -> Result<Cell, MoveParseError> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| MoveParseError(format!("'{s}' is not a point x,y")))?;
    let (x, y): (i64, i64) = (
        x.parse()
            .map_err(|_| MoveParseError(format!("'{s}' is not a point x,y")))?,
        y.parse()
            .map_err(|_| MoveParseError(format!("'{s}' is not a point x,y")))?,
    );
    Cell::new(x, y).ok_or_else(|| MoveParseError(format!("{x},{y} is not a point on the field")))
}

impl Move {
    /// Reads a move as a bot writes it (`sep` = ' ') or as the engine
    /// reports the opponent's (`sep` = '_'). Keywords in any case;
    /// `no_moves` is a pass.
    pub fn parse_with(line: &str, sep: char) -> Result<Move, MoveParseError> {
        let parts: Vec<&str> = line.trim_end_matches(['\r', '\n']).split(sep).collect();
        let keyword = parts[0].to_ascii_lowercase();
        match (keyword.as_str(), parts.len()) {
            ("pass" | "no_moves", 1) => Ok(Move::Pass),
            ("kill", 2) => Ok(Move::Kill(parse_point(parts[1])?)),
            ("birth", 4) => Ok(Move::Birth {
                at: parse_point(parts[1])?,
                sacrifice: [parse_point(parts[2])?, parse_point(parts[3])?],
            }),
            _ => Err(MoveParseError(format!("failed to parse move '{line}'"))),
        }
    }

    /// A bot's reply line.
    pub fn parse_reply(line: &str) -> Result<Move, MoveParseError> {
        Self::parse_with(line, ' ')
    }

    /// The engine's underscore form of this move (`kill_3,4`...).
    pub fn to_engine_string(&self) -> String {
        self.to_string().replace(' ', "_")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_in_both_forms() {
        let b = Move::Birth {
            at: Cell { x: 17, y: 9 },
            sacrifice: [Cell { x: 16, y: 6 }, Cell { x: 3, y: 0 }],
        };
        assert_eq!(b.to_string(), "birth 17,9 16,6 3,0");
        assert_eq!(b.to_engine_string(), "birth_17,9_16,6_3,0");
        assert_eq!(Move::parse_reply("birth 17,9 16,6 3,0"), Ok(b));
        assert_eq!(Move::parse_with("birth_17,9_16,6_3,0", '_'), Ok(b));
        assert_eq!(
            Move::parse_reply("KILL 3,7"),
            Ok(Move::Kill(Cell { x: 3, y: 7 }))
        );
        assert_eq!(Move::parse_reply("no_moves"), Ok(Move::Pass));
    }

    #[test]
    fn bad_moves_are_errors() {
        for bad in [
            "kill 99,99",
            "hello",
            "kill 3",
            "birth 1,1 2,2",
            "kill  3,4",
            "kill -1,0",
            "",
        ] {
            assert!(Move::parse_reply(bad).is_err(), "{bad}");
        }
    }
}
