//! The seed's forced-win pattern table (section 2.3): pattern 1 (a blue
//! with a free run to an exit) and patterns 2-4, each with its mirror image,
//! played only when the forced win is strictly shorter than the opponent's
//! quickest possible escape.

use super::geometry::{dist, neighbours, occupied, OUR_EXITS, THEIR_EXITS};
use super::rules::{step, Colour, Dir, Move, Place, Square, PIECES, SIZE};
use super::view::View;

/// A path of single steps from `from` to `goal`, each getting closer, over
/// squares free of `blockers`; the first step's direction (None if equal).
fn monotone_first_step(from: Square, goal: Square, blockers: &[Place; PIECES]) -> Option<Dir> {
    // Reachable set by DP from goal outward within the bounding box.
    let (x0, x1) = (from.x().min(goal.x()), from.x().max(goal.x()));
    let (y0, y1) = (from.y().min(goal.y()), from.y().max(goal.y()));
    let mut ok = [false; 36];
    let mut order: Vec<Square> = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            order.push(Square::new(x, y));
        }
    }
    order.sort_by_key(|&s| dist(s, goal));
    for s in order {
        if s == goal {
            ok[s.0 as usize] = !occupied(blockers, s);
            continue;
        }
        if occupied(blockers, s) && s != from {
            continue;
        }
        ok[s.0 as usize] = neighbours(s).any(|n| dist(n, goal) < dist(s, goal) && ok[n.0 as usize]);
    }
    if from == goal || !ok[from.0 as usize] {
        return None;
    }
    Dir::ALL.into_iter().find(|&d| {
        step(from, d, 0).is_some_and(|n| dist(n, goal) < dist(from, goal) && ok[n.0 as usize])
    })
}

/// Forced-win pattern 1 for a piece on `sq` toward `exit`: no `enemy`
/// within the piece's distance of the exit and a free shortest path past
/// `friends`. Returns the moves it needs (distance + 1).
fn pattern1(
    sq: Square,
    exit: Square,
    friends: &[Place; PIECES],
    enemies: &[Place; PIECES],
) -> Option<u8> {
    let k = dist(sq, exit);
    let blocked = enemies
        .iter()
        .filter_map(|p| p.square())
        .any(|e| dist(e, exit) <= k);
    if blocked {
        return None;
    }
    if k > 0 && monotone_first_step(sq, exit, friends).is_none() {
        return None;
    }
    Some(k + 1)
}

/// Fewest moves any of `pieces` would need to escape through `exits`.
fn fewest_escape_moves(pieces: &[Place; PIECES], exits: [Square; 2]) -> u8 {
    pieces
        .iter()
        .filter_map(|p| p.square())
        .map(|s| {
            exits
                .iter()
                .map(|&e| dist(s, e) + 1)
                .min()
                .unwrap_or(u8::MAX)
        })
        .min()
        .unwrap_or(u8::MAX)
}

/// Opponent pieces that, had they been blue, could have won by pattern 1
/// in the position `own`/`opp` (their turn) and did not: the opponent
/// moved `moved` from `from` to `to`.
pub fn missed_forced_wins(
    own: &[Place; PIECES],
    opp: &[Place; PIECES],
    moved: u8,
    from: Square,
    to: Square,
) -> Vec<u8> {
    let ours = fewest_escape_moves(own, OUR_EXITS);
    let mut able = Vec::new();
    let mut progressed = false;
    for p in 0..PIECES as u8 {
        let Some(sq) = opp[p as usize].square() else {
            continue;
        };
        for exit in THEIR_EXITS {
            if pattern1(sq, exit, opp, own).is_some_and(|n| n < ours) {
                if p == moved && dist(to, exit) < dist(from, exit) {
                    progressed = true;
                }
                able.push(p);
                break;
            }
        }
    }
    if progressed {
        Vec::new()
    } else {
        able
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Opp,
    Red,
    Blue,
}

/// A forced win for us, if one fits and wins the race: its move.
pub fn forced_win(view: &View) -> Option<Move> {
    let own = view.own_places();
    let opp = view.opp_places();
    let theirs = fewest_escape_moves(opp, THEIR_EXITS);
    let opp_reds = view.opp_remaining(Colour::Red);
    let our_reds = 4 - view.own_captured(Colour::Red);
    let mut best: Option<(u8, Move)> = None;
    let mut offer = |n: u8, mv: Move| {
        if n < theirs && best.is_none_or(|(b, _)| n < b) {
            best = Some((n, mv));
        }
    };
    for mirrored in [false, true] {
        let at = |x: u8, y: u8| -> Cell {
            let x = if mirrored { SIZE - 1 - x } else { x };
            let sq = Square::new(x, y);
            match view.own_at(sq) {
                Some(p) if view.own_colour(p) == Colour::Red => Cell::Red,
                Some(_) => Cell::Blue,
                None if view.opp_at(sq).is_some() => Cell::Opp,
                None => Cell::Empty,
            }
        };
        let exit = OUR_EXITS[mirrored as usize];
        // Pattern 1, for every blue.
        for p in 0..PIECES as u8 {
            let Some(sq) = view.own(p).square() else {
                continue;
            };
            if view.own_colour(p) != Colour::Blue {
                continue;
            }
            if sq == exit {
                return Some(Move::new(p, Dir::N));
            }
            if let Some(n) = pattern1(sq, exit, own, opp) {
                let d = monotone_first_step(sq, exit, own).expect("pattern 1 has a path");
                offer(n, Move::new(p, d));
            }
        }
        // Patterns 2..4: the blue on (0,2) of the pattern advances.
        let e = |x, y| at(x, y) == Cell::Empty;
        let own_any = |x, y| matches!(at(x, y), Cell::Red | Cell::Blue);
        let corridor = e(0, 0) && e(0, 1) && e(1, 1) && at(0, 2) == Cell::Blue;
        if !corridor || opp_reds < 2 {
            continue;
        }
        let blue_sq = Square::new(if mirrored { SIZE - 1 } else { 0 }, 2);
        let Some(blue) = view.own_at(blue_sq) else {
            continue;
        };
        let advance = Move::new(blue, Dir::N);
        let block3 = at(1, 0) == Cell::Opp && e(2, 1) && e(1, 2) && e(0, 3);
        if block3 && own_any(2, 0) && e(3, 0) {
            offer(4, advance);
        }
        if block3 && at(2, 0) == Cell::Red && our_reds == 1 {
            offer(4, advance);
        }
        if at(1, 0) == Cell::Red && our_reds == 1 {
            offer(3, advance);
        }
    }
    best.map(|b| b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::geister::testing::view;

    #[test]
    fn forced_win_pattern1_and_race() {
        let v = view("14R24R34R44R02B25B35B45B", "41u31u21u32u40u30u52u42u");
        assert_eq!(forced_win(&v), Some(Move::new(4, Dir::N)));
        // An opponent piece one step from its exit wins the race.
        let v = view("14R24R34R44R02B25B35B45B", "41u31u21u32u40u30u52u04u");
        assert_eq!(forced_win(&v), None);
        // A blue on an exit always escapes.
        let v = view("14R24R34R44R00B25B35B45B", "41u31u21u32u40u30u52u04u");
        assert_eq!(forced_win(&v), Some(Move::new(4, Dir::N)));
        // Mirror image: H on (5,2) toward (5,0).
        let v = view("14R24R34R44R15B25B35B52B", "21u11u01u22u20u10u00u02u");
        assert_eq!(forced_win(&v), Some(Move::new(7, Dir::N)));
    }

    #[test]
    fn forced_win_pattern2() {
        let v = view("20R24R34R44R02B25B35B45B", "10u41u31u50u40u51u99r99r");
        assert_eq!(forced_win(&v), Some(Move::new(4, Dir::N)));
        // (3,0) occupied: no pattern.
        let v = view("20R24R34R44R02B25B35B45B", "10u41u31u50u30u51u99r99r");
        assert_eq!(forced_win(&v), None);
        // Opponent with one red left: no pattern.
        let v = view("20R24R34R44R02B25B35B45B", "10u41u31u50u40u99r99r99r");
        assert_eq!(forced_win(&v), None);
        // An opponent piece 3 steps from its exit: 4 moves is not shorter.
        let v = view("20R24R34R44R02B25B35B45B", "10u41u31u50u40u43u99r99r");
        assert_eq!(forced_win(&v), None);
    }

    #[test]
    fn forced_win_pattern3() {
        // (3,0) occupied (pattern 2 fails); our red on (2,0) is our last.
        let v = view("20R99r99r99r02B25B35B45B", "10u41u31u50u30u51u99r99r");
        assert_eq!(forced_win(&v), Some(Move::new(4, Dir::N)));
        // Two reds of ours left: no pattern.
        let v = view("20R99r99r44R02B25B35B45B", "10u41u31u50u30u51u99r99r");
        assert_eq!(forced_win(&v), None);
    }

    #[test]
    fn forced_win_pattern4_mirrored() {
        // Right side: our last red on (4,0), blue H on (5,2).
        let v = view("40R99r99r99r15B25B35B52B", "30u21u11u01u20u10u99r99r");
        assert_eq!(forced_win(&v), Some(Move::new(7, Dir::N)));
        // Opponent with a single red left: no pattern.
        let v = view("40R99r99r99r15B25B35B52B", "30u21u11u01u20u99r99r99r");
        assert_eq!(forced_win(&v), None);
    }
}
