//! The solver's benchmark sets of Score Four endgames: positions (their
//! drops) with their exact values, shipped beside this file
//! (`endgames.txt`, and `solve-deep.txt` for `bench four3d-solve-deep`).
//! The tests and `ladderbot bench` check the solver on them; the lab's
//! `endgames` task writes new ones.

use super::position::replay;
use crate::games::four3d::Board;

/// One line of the solver's benchmark set: a position (its drops) and
/// its exact value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endgame {
    pub pegs: Vec<u8>,
    pub value: i32,
}

impl Endgame {
    /// `EMPTIES VALUE PEGS` with the pegs as hexadecimal digits.
    pub fn to_line(&self) -> String {
        let pegs: String = self
            .pegs
            .iter()
            .map(|&p| char::from_digit(p as u32, 16).unwrap_or('?'))
            .collect();
        format!("{} {} {}", 64 - self.pegs.len(), self.value, pegs)
    }

    pub fn parse(line: &str) -> Result<Endgame, String> {
        let mut it = line.split_whitespace();
        let (Some(e), Some(v), Some(p), None) = (it.next(), it.next(), it.next(), it.next()) else {
            return Err(format!(
                "endgame line '{line}': expected EMPTIES VALUE PEGS"
            ));
        };
        let pegs: Vec<u8> = p
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("endgame line '{line}': pegs must be hex digits"))?;
        let empties: usize = e
            .parse()
            .map_err(|_| format!("endgame line '{line}': bad empties"))?;
        if empties + pegs.len() != 64 {
            return Err(format!("endgame line '{line}': empties do not match"));
        }
        let value = v
            .parse()
            .map_err(|_| format!("endgame line '{line}': bad value"))?;
        replay(&pegs)?;
        Ok(Endgame { pegs, value })
    }

    /// The position.
    pub fn board(&self) -> Board {
        replay(&self.pegs).expect("checked when parsed")
    }

    /// Empty cells.
    pub fn empties(&self) -> u32 {
        64 - self.pegs.len() as u32
    }
}

/// The shipped benchmark set (`endgames.txt` beside this file).
pub fn shipped_endgames() -> Vec<Endgame> {
    endgame_set(include_str!("endgames.txt"), "endgames.txt")
}

/// The positions of a set shipped in the format of `endgames.txt`.
fn endgame_set(text: &str, name: &str) -> Vec<Endgame> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Endgame::parse(l).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

/// The deep set of `bench four3d-solve-deep` (`solve-deep.txt` beside
/// this file): positions of real games at 28, 30 and 32 empty cells.
pub fn deep_endgames() -> Vec<Endgame> {
    endgame_set(include_str!("solve-deep.txt"), "solve-deep.txt")
}

#[cfg(test)]
mod tests {
    use super::super::plain::plain_solve;
    use super::super::position::{replay, sides, WIN};
    use super::super::solve::solve_wdl;
    use super::super::tt::Table;
    use super::*;
    use crate::search::Game;

    #[test]
    fn the_deep_set_has_eight_live_positions_at_each_depth() {
        let set = deep_endgames();
        for e in [28, 30, 32] {
            let at: Vec<&Endgame> = set.iter().filter(|p| p.empties() == e).collect();
            assert_eq!(at.len(), 8, "{e} empty cells");
            for p in at {
                assert_eq!(p.board().outcome(), None, "{}", p.to_line());
                assert!(p.value.abs() < WIN, "{}", p.to_line());
            }
        }
        assert_eq!(set.len(), 24);
    }

    #[test]
    fn the_shipped_endgame_labels_hold_under_the_plain_search() {
        // The labels come from the solver; a sample of the shallower ones
        // re-solved by plain alpha-beta to the end must agree exactly
        // (value and distance).
        let set = shipped_endgames();
        let depths: std::collections::BTreeSet<u32> = set.iter().map(|e| e.empties()).collect();
        assert!(depths.len() >= 3, "several depths: {depths:?}");
        let sample: Vec<&Endgame> = set.iter().filter(|e| e.empties() <= 12).collect();
        assert!(sample.len() >= 10, "{}", sample.len());
        for e in sample {
            let b = e.board();
            let (me, opp) = sides(&b);
            let mut n = 0;
            assert_eq!(plain_solve(me, opp, &mut n), e.value, "{}", e.to_line());
        }
    }

    #[test]
    fn win_draw_or_loss_solves_give_every_labelled_endgames_sign() {
        // The shipped endgames (up to 20 empty cells) and, in release
        // builds, the bench's eight at 28 empty cells, one table shared by
        // all as `label` shares one within a game.
        let deep = !cfg!(debug_assertions);
        let mut set = shipped_endgames();
        if deep {
            set.extend(deep_endgames().into_iter().filter(|e| e.empties() == 28));
        }
        let table = Table::new(20);
        let mut signs = [0usize; 3];
        for e in &set {
            let b = replay(&e.pegs).unwrap();
            let (me, opp) = sides(&b);
            let v = solve_wdl(&table, me, opp, u64::MAX).unwrap();
            assert_eq!(v, e.value.signum(), "{}", e.to_line());
            signs[(v + 1) as usize] += 1;
        }
        assert!(signs[0] > 0 && signs[2] > 0, "{signs:?}");
        // A node cap too small to settle anything gives nothing.
        let e = set.last().unwrap();
        let (me, opp) = sides(&replay(&e.pegs).unwrap());
        assert_eq!(solve_wdl(&Table::new(10), me, opp, 50), None);
    }

    #[test]
    fn endgame_lines_round_trip_and_bad_ones_are_refused() {
        let e = Endgame {
            pegs: vec![0, 15, 3, 3],
            value: 0,
        };
        assert_eq!(Endgame::parse(&e.to_line()).unwrap(), e);
        for bad in [
            "",
            "60 0",
            "61 0 0f33",
            "60 x 0f33",
            "60 0 0fz3",
            "60 0 0f33 1",
        ] {
            assert!(Endgame::parse(bad).is_err(), "{bad}");
        }
        // Five drops on one peg.
        assert!(Endgame::parse("59 0 00000").is_err());
    }

    /// The exact value of `b` for the side to move by plain alpha-beta over
    /// the rules alone (`Board`'s legal drops in peg order and its
    /// outcome; no table, no threats, no move ordering, no bounds from the
    /// distance): `WIN - p` for a win at ply `p` from the root, 0 for a
    /// draw, `-(WIN - p)` for a loss, as the labels are written.
    fn plain_value(b: &Board, ply: i32, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
        *nodes += 1;
        if let Some(o) = b.outcome() {
            return match o.winner() {
                None => 0,
                // Only the side that just moved can have completed a line.
                Some(w) => {
                    assert_ne!(w, b.to_move());
                    -(WIN - ply)
                }
            };
        }
        let mut best = -WIN - 1;
        for m in b.legal_moves() {
            let mut child = *b;
            child.play(m);
            let v = -plain_value(&child, ply + 1, -beta, -alpha, nodes);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Of the shipped 20-empty endgames, the eight whose plain search
    /// takes at most 8.2 M nodes (the other four take 0.11-7.7 G nodes).
    /// All twelve were checked once so (2026-11-27, 8.8 G nodes, 130 s in
    /// release): every label held.
    const CHEAP_20: [&str; 8] = [
        "8132cf86a4ab",
        "b5fbc398995e",
        "01505f55747c",
        "1db7f0c641bb",
        "c0e1395f4695",
        "797d59f36469",
        "a915536ef6aa",
        "a53faa950c21",
    ];

    #[test]
    fn the_deeper_endgame_labels_hold_under_a_search_of_the_rules_alone() {
        // The labels of the deeper endgames come from the solver, and the
        // solver is checked against `plain_solve` only up to 12 empties
        // (above), which shares the solver's threat logic. Here a search
        // that knows only the rules (`plain_value`) must give each of them,
        // value and distance: the twelve of 16 empties (2.3 M nodes, 0.1 s
        // in release) and, in release builds, eight of 20 (20 M nodes).
        let deep = !cfg!(debug_assertions);
        let sample: Vec<Endgame> = shipped_endgames()
            .into_iter()
            .filter(|e| {
                let pegs = e.to_line();
                let pegs = pegs.rsplit(' ').next().unwrap();
                e.empties() == 16
                    || (deep && e.empties() == 20 && CHEAP_20.iter().any(|p| pegs.starts_with(p)))
            })
            .collect();
        let twenty = sample.iter().filter(|e| e.empties() == 20).count();
        assert_eq!(sample.len() - twenty, 12);
        assert_eq!(twenty, if deep { CHEAP_20.len() } else { 0 });
        let start = std::time::Instant::now();
        let mut total = 0;
        for e in &sample {
            let mut nodes = 0;
            let v = plain_value(&e.board(), 0, -WIN - 1, WIN + 1, &mut nodes);
            assert_eq!(v, e.value, "{} ({nodes} nodes)", e.to_line());
            total += nodes;
        }
        eprintln!(
            "{} endgames of 16 and 20 empties: {total} nodes in {:.2?}",
            sample.len(),
            start.elapsed()
        );
    }
}
