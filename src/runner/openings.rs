//! Opening suites, as cutechess and fastchess use them: a file of start
//! positions, each played twice with the seats swapped (games 2k and
//! 2k+1), cycled when the match has more games than the file has pairs.
//!
//! A start position is written as the moves from the game's start in the
//! game's own wire format (what records and the match server use), one
//! opening per line, each move's JSON separated by spaces:
//!
//! ```text
//! # Score Four: three drops
//! 5 10 0
//! 6 9      # a comment after the moves
//! ```
//!
//! A move with spaces in it is written as a JSON string (`"kill 3,4"`), an
//! object as an object. `#` starts a comment (outside a string); blank lines
//! are skipped. Every move is checked against the rules when the file is
//! read; the error names the line and the move. Openings need a start that
//! is the same for every seed ([`PlayableGame::fixed_start`]): a game whose
//! start is random (Flood-It's board, Puyo's pairs...) has no position an
//! opening's moves would always fit.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::games::{apply_moves, GameKind, GameOptions, GameVisitor, PlayableGame};
use crate::records::Opening;
use crate::seed::derive_seed;

/// The order the openings are taken in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "String")]
pub enum OpeningOrder {
    /// As in the file: pair k plays opening k mod n.
    #[default]
    Sequential,
    /// Shuffled from the match seed, every opening once per pass through
    /// the file, each pass shuffled anew.
    Random,
}

impl std::str::FromStr for OpeningOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sequential" => Ok(OpeningOrder::Sequential),
            "random" => Ok(OpeningOrder::Random),
            other => Err(format!(
                "unknown opening order '{other}' (known: sequential, random)"
            )),
        }
    }
}

impl TryFrom<String> for OpeningOrder {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl std::fmt::Display for OpeningOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        })
    }
}

/// A suite of openings read (and checked) for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    /// Where it came from (the file's path), for reports.
    pub source: String,
    /// At least one.
    pub openings: Vec<Opening>,
    pub order: OpeningOrder,
}

/// The seed stream of the random opening order (0 is the start position,
/// 1 and 2 the sides' agents).
const ORDER_STREAM: u64 = 3;

impl Book {
    /// Reads a suite for `G` under game `options` from `text`; `source`
    /// names it in errors (`source:LINE: ...`).
    pub fn parse<G: PlayableGame>(
        source: &str,
        text: &str,
        options: &GameOptions,
        order: OpeningOrder,
    ) -> Result<Book, String> {
        let start = fixed_start::<G>(options)?;
        let mut openings = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let moves = split_line(raw).map_err(|e| format!("{source}:{line}: {e}"))?;
            if moves.is_empty() {
                continue;
            }
            let mut pos = start.clone();
            apply_moves(&mut pos, &moves).map_err(|e| {
                format!(
                    "{source}:{line}: move {} ({}): {}",
                    e.index + 1,
                    moves[e.index.min(moves.len() - 1)],
                    e.message
                )
            })?;
            if pos.turn().outcome().is_some() {
                return Err(format!(
                    "{source}:{line}: the game is over after this opening"
                ));
            }
            openings.push(Opening {
                index: openings.len(),
                line,
                moves,
            });
        }
        if openings.is_empty() {
            return Err(format!("{source}: no openings (only comments and blanks)"));
        }
        Ok(Book {
            source: source.to_string(),
            openings,
            order,
        })
    }

    /// Reads the suite file at `path` for `G`.
    pub fn load<G: PlayableGame>(
        path: &std::path::Path,
        options: &GameOptions,
        order: OpeningOrder,
    ) -> Result<Book, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Book::parse::<G>(&path.display().to_string(), &text, options, order)
    }

    /// Reads the suite file at `path` for the game `kind` (the same as
    /// [`Book::load`], for a game known only at run time).
    pub fn load_for(
        kind: GameKind,
        path: &std::path::Path,
        options: &GameOptions,
        order: OpeningOrder,
    ) -> Result<Book, String> {
        struct Load<'a>(&'a std::path::Path, &'a GameOptions, OpeningOrder);
        impl GameVisitor for Load<'_> {
            type Output = Result<Book, String>;
            fn visit<G: PlayableGame>(self) -> Self::Output {
                Book::load::<G>(self.0, self.1, self.2)
            }
        }
        kind.visit(Load(path, options, order))
    }

    /// Checks a suite read elsewhere (or built in code) against `G` under
    /// `options`, as [`Book::parse`] checks a file: a fixed start, at least
    /// one opening, every move legal, no opening that ends the game.
    pub fn check<G: PlayableGame>(&self, options: &GameOptions) -> Result<(), String> {
        let start = fixed_start::<G>(options)?;
        if self.openings.is_empty() {
            return Err(format!("{}: no openings", self.source));
        }
        for o in &self.openings {
            let pos = self.position(start.clone(), o)?;
            if pos.turn().outcome().is_some() {
                return Err(format!(
                    "{}:{}: the game is over after this opening",
                    self.source, o.line
                ));
            }
        }
        Ok(())
    }

    /// [`Book::check`] for the game `kind`.
    pub fn check_for(&self, kind: GameKind, options: &GameOptions) -> Result<(), String> {
        struct Check<'a>(&'a Book, &'a GameOptions);
        impl GameVisitor for Check<'_> {
            type Output = Result<(), String>;
            fn visit<G: PlayableGame>(self) -> Self::Output {
                self.0.check::<G>(self.1)
            }
        }
        kind.visit(Check(self, options))
    }

    /// `start` after the moves of `opening` (one of this book's), or an
    /// error naming the line and the move.
    pub fn position<G: PlayableGame>(&self, mut start: G, opening: &Opening) -> Result<G, String> {
        apply_moves(&mut start, &opening.moves).map_err(|e| {
            format!(
                "{}:{}: move {} ({}): {}",
                self.source,
                opening.line,
                e.index + 1,
                opening
                    .moves
                    .get(e.index)
                    .map_or_else(String::new, Value::to_string),
                e.message
            )
        })?;
        Ok(start)
    }

    /// The opening of the pair of games `pair` (games 2·pair and 2·pair+1)
    /// in a match with seed `seed`.
    pub fn for_pair(&self, pair: u32, seed: u64) -> &Opening {
        let n = self.openings.len();
        let (pass, k) = (pair as usize / n, pair as usize % n);
        let index = match self.order {
            OpeningOrder::Sequential => k,
            OpeningOrder::Random => {
                let mut order: Vec<usize> = (0..n).collect();
                let mut rng = SmallRng::seed_from_u64(derive_seed(seed, pass as u64, ORDER_STREAM));
                order.shuffle(&mut rng);
                order[k]
            }
        };
        &self.openings[index]
    }
}

/// `G`'s start under `options`, when it is the same for every seed; an
/// error naming the game otherwise.
pub fn fixed_start<G: PlayableGame>(options: &GameOptions) -> Result<G, String> {
    if !G::fixed_start(options)? {
        return Err(format!(
            "{}: openings need a start that is the same in every game, and {}'s start \
             is drawn from the seed (a fresh position for every pair of games)",
            G::ID,
            G::ID
        ));
    }
    G::start_with(0, options)
}

/// The moves of one line: JSON values separated by white space, up to a
/// `#` outside a string.
pub fn split_line(raw: &str) -> Result<Vec<Value>, String> {
    let text = strip_comment(raw);
    let mut moves = Vec::new();
    for v in serde_json::Deserializer::from_str(text).into_iter::<Value>() {
        match v {
            Ok(v) => moves.push(v),
            Err(e) => {
                return Err(format!(
                    "move {}: cannot read it as JSON ({e}); write moves as in records, \
                     separated by spaces",
                    moves.len() + 1
                ))
            }
        }
    }
    Ok(moves)
}

/// `raw` up to its first `#` outside a JSON string.
fn strip_comment(raw: &str) -> &str {
    let (mut in_string, mut escaped) = (false, false);
    for (i, c) in raw.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '#' if !in_string => return &raw[..i],
            _ => {}
        }
    }
    raw
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::floodit::FloodIt;
    use crate::games::four3d::Board;
    use crate::games::golad::GolState;
    use crate::games::goofspiel::Goofspiel;
    use crate::games::puyo::PuyoDuel;
    use serde_json::json;

    fn four3d(text: &str) -> Result<Book, String> {
        Book::parse::<Board>("t.txt", text, &GameOptions::new(), OpeningOrder::Sequential)
    }

    #[test]
    fn lines_comments_and_blanks() {
        let b = four3d("# a suite\n\n5 10 0\n  6 9   # two drops\n\t\n3#x\n").unwrap();
        let got: Vec<(usize, usize, String)> = b
            .openings
            .iter()
            .map(|o| (o.index, o.line, o.text()))
            .collect();
        assert_eq!(
            got,
            [
                (0, 3, "5 10 0".to_string()),
                (1, 4, "6 9".to_string()),
                (2, 6, "3".to_string())
            ]
        );
        assert_eq!(b.openings[0].moves, [json!(5), json!(10), json!(0)]);
        assert_eq!(b.source, "t.txt");
        // A `#` inside a string is not a comment.
        assert_eq!(
            split_line(r##""kill 3,4" "a\"#b" # c"##).unwrap(),
            [json!("kill 3,4"), json!("a\"#b")]
        );
        assert!(split_line("   # only a comment").unwrap().is_empty());
    }

    #[test]
    fn a_bad_move_is_an_error_naming_the_line_and_the_move() {
        let e = four3d("0\n\n5 10 16\n").unwrap_err();
        assert!(e.starts_with("t.txt:3: move 3 (16):"), "{e}");
        assert!(e.contains("0..15"), "{e}");
        // Peg 0 holds four beads: the fifth drop is illegal.
        let e = four3d("# c\n0 0 0 0 0\n").unwrap_err();
        assert!(e.starts_with("t.txt:2: move 5 (0):"), "{e}");
        assert!(e.contains("not legal for seat 0"), "{e}");
        let e = four3d("5 x\n").unwrap_err();
        assert!(e.starts_with("t.txt:1: move 2:"), "{e}");
        let e = four3d("5,10\n").unwrap_err();
        assert!(e.starts_with("t.txt:1: move 2:"), "{e}");
        let e = four3d("\"5\"\n").unwrap_err();
        assert!(e.starts_with("t.txt:1: move 1 (\"5\"):"), "{e}");
        let e = four3d("# nothing\n\n").unwrap_err();
        assert!(e.contains("no openings"), "{e}");
        // A line that ends the game is no opening: four in a row on the floor.
        let e = four3d("0 4 1 5 2 6 3\n").unwrap_err();
        assert!(e.contains("t.txt:1: the game is over"), "{e}");
    }

    #[test]
    fn games_with_a_seeded_start_refuse_openings_by_name() {
        let o = GameOptions::new();
        let seq = OpeningOrder::Sequential;
        for (id, e) in [
            ("golad", Book::parse::<GolState>("f", "\"pass\"\n", &o, seq)),
            ("floodit", Book::parse::<FloodIt>("f", "2\n", &o, seq)),
            ("puyo", Book::parse::<PuyoDuel>("f", "{}\n", &o, seq)),
            ("goofspiel", Book::parse::<Goofspiel>("f", "1 1\n", &o, seq)),
        ] {
            let e = e.unwrap_err();
            assert!(
                e.starts_with(&format!("{id}: openings need a start")),
                "{e}"
            );
        }
        assert!(Board::fixed_start(&o).unwrap());
    }

    #[test]
    fn a_book_read_elsewhere_is_checked_as_a_file_is() {
        let o = GameOptions::new();
        let b = four3d("5 10 0\n\n6 9\n").unwrap();
        b.check::<Board>(&o).unwrap();
        let kind: GameKind = "four3d".parse().unwrap();
        b.check_for(kind, &o).unwrap();
        let mut bad = b.clone();
        bad.openings[1].moves.push(json!(16));
        let e = bad.check_for(kind, &o).unwrap_err();
        assert!(e.starts_with("t.txt:3: move 3 (16):"), "{e}");
        let mut over = b.clone();
        over.openings[0].moves = [0, 4, 1, 5, 2, 6, 3].map(|m| json!(m)).to_vec();
        let e = over.check::<Board>(&o).unwrap_err();
        assert!(e.contains("t.txt:1: the game is over"), "{e}");
        let empty = Book {
            openings: Vec::new(),
            ..b.clone()
        };
        assert!(empty
            .check::<Board>(&o)
            .unwrap_err()
            .contains("no openings"));
        let e = b.check_for("golad".parse().unwrap(), &o).unwrap_err();
        assert!(e.starts_with("golad: openings need a start"), "{e}");
        // As a setting: the names `match` and `serve` take.
        let order: OpeningOrder = serde_json::from_value(json!("random")).unwrap();
        assert_eq!(order, OpeningOrder::Random);
        assert!(serde_json::from_value::<OpeningOrder>(json!("shuffled")).is_err());
    }

    #[test]
    fn pairs_take_openings_in_order_or_shuffled_per_pass() {
        let b = four3d("0\n1\n2\n3\n4\n").unwrap();
        let seq: Vec<usize> = (0..12).map(|p| b.for_pair(p, 9).index).collect();
        assert_eq!(seq, [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1]);
        let r = Book {
            order: OpeningOrder::Random,
            ..b
        };
        let pass = |k: u32, seed: u64| -> Vec<usize> {
            (5 * k..5 * k + 5)
                .map(|p| r.for_pair(p, seed).index)
                .collect()
        };
        // Every opening once per pass, the same for a seed, and shuffled.
        for k in 0..3 {
            let mut p = pass(k, 9);
            assert_eq!(pass(k, 9), p);
            p.sort_unstable();
            assert_eq!(p, [0, 1, 2, 3, 4]);
        }
        let passes: Vec<Vec<usize>> = (0..8).map(|k| pass(k, 9)).collect();
        assert!(passes.iter().any(|p| p != &passes[0]), "{passes:?}");
        assert!(passes.iter().any(|p| p != &[0, 1, 2, 3, 4]), "{passes:?}");
        assert_eq!(
            "random".parse::<OpeningOrder>().unwrap(),
            OpeningOrder::Random
        );
        assert!("shuffled".parse::<OpeningOrder>().is_err());
    }
}
