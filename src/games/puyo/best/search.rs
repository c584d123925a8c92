//! `best`'s beam search over one future (the known pairs, then sampled
//! ones): every placement of each pair on every kept field, the fields
//! told apart by their puyos (a field reached twice is kept once), the
//! `width` best by [`evaluate`] kept at each depth. A placement that fires
//! a chain of two links or more ends its line with [`fired_value`]: high
//! when the chain reaches the target, a few links less than its length
//! when not.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::eval::{evaluate, Weights};
use crate::games::puyo::board::{Board, Pair, Placement};
use crate::games::puyo::planner::children;

/// What one search is told.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    /// Fields kept per depth.
    pub width: usize,
    /// Links from which a chain fired on the way counts as reached.
    pub target: u8,
    pub weights: Weights,
}

/// The value of firing a chain of `links`: at the target it beats every
/// field that could still fire one link more, reached or not; short of it,
/// it counts as `w.short` links fewer than it has (a field with a
/// potential chain that long, with nothing else for or against it).
pub fn fired_value(links: u8, target: u8, w: &Weights) -> i32 {
    if links >= target {
        (links as i32 + 2) * w.chain
    } else {
        (links as i32 - w.short) * w.chain
    }
}

/// The outcome of one search: the best value under each first
/// placement (`None`: every line under it died or was cut), and whether
/// every depth was searched.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub firsts: Vec<(Placement, Option<i32>)>,
    pub complete: bool,
    /// Fields valued by [`evaluate`] (the search's positions).
    pub evaluated: u64,
}

struct Node {
    board: Board,
    first: u8,
    value: i32,
}

/// Hashes a field's key (already mixed).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

type Seen = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// A 64-bit key of a field's puyos.
fn key(b: &Board) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for k in 0..crate::games::puyo::board::KINDS as u8 {
        let p = b.plane(k);
        for half in [p as u64, (p >> 64) as u64] {
            h = (h ^ half).wrapping_mul(0xff51_afd7_ed55_8ccd);
            h ^= h >> 32;
        }
    }
    h
}

/// Searches `pairs` from `board` (`pairs[0]` is placed first); stops
/// early, with what the finished depths found, when `stop` says so.
pub fn search(
    board: &Board,
    pairs: &[Pair],
    cfg: &SearchConfig,
    stop: &mut dyn FnMut() -> bool,
) -> Outcome {
    let w = &cfg.weights;
    let mut evaluated = 0u64;
    let mut firsts: Vec<(Placement, Option<i32>)> = vec![];
    let mut beam: Vec<Node> = vec![];
    for c in children(board, pairs[0]) {
        if c.board.is_dead() {
            continue;
        }
        let first = firsts.len() as u8;
        if c.chain.links >= 2 {
            firsts.push((c.at, Some(fired_value(c.chain.links, cfg.target, w))));
            continue;
        }
        firsts.push((c.at, None));
        evaluated += 1;
        beam.push(Node {
            board: c.board,
            first,
            value: evaluate(&c.board, w),
        });
    }
    beam.sort_unstable_by_key(|n| std::cmp::Reverse(n.value));
    beam.truncate(cfg.width);
    let mut complete = true;
    let mut seen = Seen::default();
    let mut next: Vec<Node> = Vec::with_capacity(cfg.width * 22);
    for &pair in &pairs[1..] {
        seen.clear();
        next.clear();
        let mut cut = false;
        for n in &beam {
            if stop() {
                cut = true;
                break;
            }
            for c in children(&n.board, pair) {
                if c.board.is_dead() {
                    continue;
                }
                if c.chain.links >= 2 {
                    let v = fired_value(c.chain.links, cfg.target, w);
                    let best = &mut firsts[n.first as usize].1;
                    *best = Some(best.map_or(v, |b| b.max(v)));
                    continue;
                }
                if !seen.insert(key(&c.board)) {
                    continue;
                }
                evaluated += 1;
                next.push(Node {
                    board: c.board,
                    first: n.first,
                    value: evaluate(&c.board, w),
                });
            }
        }
        if cut {
            complete = false;
            break;
        }
        if next.is_empty() {
            beam.clear();
            break;
        }
        if next.len() > cfg.width {
            next.select_nth_unstable_by_key(cfg.width - 1, |n| std::cmp::Reverse(n.value));
            next.truncate(cfg.width);
        }
        next.sort_unstable_by_key(|n| std::cmp::Reverse(n.value));
        std::mem::swap(&mut beam, &mut next);
    }
    for n in &beam {
        let best = &mut firsts[n.first as usize].1;
        *best = Some(best.map_or(n.value, |b| b.max(n.value)));
    }
    Outcome {
        firsts,
        complete,
        evaluated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puyo::rules::pairs_from;

    fn cfg() -> SearchConfig {
        SearchConfig {
            width: 16,
            target: 13,
            weights: Weights::default(),
        }
    }

    #[test]
    fn every_first_placement_is_legal_and_the_best_lives() {
        let b = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        let pairs = pairs_from(3, 0, 6);
        let out = search(&b, &pairs, &cfg(), &mut || false);
        assert!(out.complete);
        let legal: Vec<Placement> = b.placements(pairs[0]).collect();
        assert_eq!(out.firsts.len(), legal.len());
        for (at, _) in &out.firsts {
            assert!(legal.contains(at));
        }
        // Some lines live to the last depth (a field kept there is valued
        // above any line that had to fire short).
        let kept = out.firsts.iter().filter(|f| f.1.is_some()).count();
        assert!(kept >= 1);
        let best = out.firsts.iter().filter_map(|f| f.1).max().unwrap();
        assert!(best > fired_value(2, 13, &cfg().weights));
    }

    #[test]
    fn a_search_stopped_at_once_still_values_the_first_depth() {
        let b = Board::empty();
        let pairs = pairs_from(4, 0, 8);
        let out = search(&b, &pairs, &cfg(), &mut || true);
        assert!(!out.complete);
        assert!(out.firsts.iter().any(|f| f.1.is_some()));
    }

    #[test]
    fn a_chain_at_the_target_is_fired_and_a_shorter_one_is_not() {
        // Reds wait for a fourth: a red pair on column 1 fires two links.
        let b = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        let pairs = [Pair { axis: 0, child: 0 }, Pair { axis: 3, child: 3 }];
        let fire = Placement { col: 1, rot: 0 };
        let mut c = cfg();
        c.target = 2;
        let out = search(&b, &pairs, &c, &mut || false);
        let best = out.firsts.iter().filter_map(|f| f.1).max();
        assert_eq!(best, Some(fired_value(2, 2, &c.weights)));
        let fired = out.firsts.iter().find(|f| f.0 == fire).unwrap();
        assert_eq!(fired.1, Some(fired_value(2, 2, &c.weights)));
        c.target = 3;
        let out = search(&b, &pairs, &c, &mut || false);
        let fired = out.firsts.iter().find(|f| f.0 == fire).unwrap();
        assert_eq!(fired.1, Some(fired_value(2, 3, &c.weights)));
        let living = out.firsts.iter().filter_map(|f| f.1).min().unwrap();
        assert_eq!(living, fired_value(2, 3, &c.weights));
        assert!(out.firsts.iter().filter_map(|f| f.1).max().unwrap() > 0);
    }
}
