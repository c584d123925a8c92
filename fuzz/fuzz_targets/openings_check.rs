//! The opening-suite check shared by `openings_four3d` and
//! `openings_geister` (each `mod`s this file): `runner::openings::Book::parse`
//! (each line split by `split_line`, every move checked against the rules).
//!
//! Input: the suite file's text. `Book::load` uses `read_to_string`, which
//! refuses invalid UTF-8, so such input is skipped.

use ladderbot::games::{GameOptions, PlayableGame};
use ladderbot::runner::openings::{split_line, Book, OpeningOrder};

/// Parses `data` as a suite of `G` and checks the round trips.
pub fn check<G: PlayableGame>(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        let _ = split_line(line);
    }
    let options = GameOptions::new();
    let order = if data.len().is_multiple_of(2) {
        OpeningOrder::Sequential
    } else {
        OpeningOrder::Random
    };
    let Ok(book) = Book::parse::<G>("fuzz.txt", text, &options, order) else {
        return;
    };
    // Each opening written back as a suite line reads as the same moves,
    // and the suite written back reads as the same book.
    let mut written = String::new();
    for (i, o) in book.openings.iter().enumerate() {
        assert_eq!(o.index, i);
        let line = o.text();
        assert_eq!(split_line(&line).as_ref(), Ok(&o.moves), "{line:?}");
        written.push_str(&line);
        written.push('\n');
    }
    let again = Book::parse::<G>("fuzz.txt", &written, &options, order)
        .unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
    assert_eq!(again.openings.len(), book.openings.len());
    for (a, b) in again.openings.iter().zip(&book.openings) {
        assert_eq!(a.moves, b.moves);
    }
    let n = book.openings.len();
    for pair in [0, 1, n as u32, u32::MAX] {
        let o = book.for_pair(pair, data.len() as u64);
        assert!(o.index < n);
    }
}
