//! `ladderbot-lab four3d solve-deep`: the labelling solver's levers timed
//! on the deep set of real games (`solve-deep.txt`, 28 to 32 empty cells):
//! the claimeven bounds, the enhanced transposition cutoffs, and settling
//! win, draw or loss only, as `label --wdl` solves. Takes minutes.

use std::fmt::Write as _;
use std::time::Instant;

use ladderbot::bench::{median, report, BenchOptions, BenchReport};
use ladderbot::search::Game as _;

/// The most nodes (of the main thread) one solve may take in
/// `four3d-solve-deep`.
pub const FOUR3D_DEEP_CAP: u64 = 1_000_000_000;

/// Issue 59's solver bench: the root solve (win, draw or loss, then the
/// exact distance) of the positions of real games at 28, 30 and 32 empty
/// cells (`src/games/four3d/best/solve-deep.txt`), one pass, each solve
/// from an empty table of 2^22 entries, one thread, lever by lever:
/// today's solver (no zugzwang bounds) as the reference; the claimeven
/// bounds; with the enhanced transposition cutoffs; the same settling
/// win, draw or loss only (no distance, the labelling lab's
/// `solve_wdl`). `per_s` and `reference_per_s` are solves per
/// second over the whole set (the bounds with the cutoffs, exact, against
/// today's); the note gives the rates of the others and per depth the
/// median time and mean nodes of each, solves stopped at
/// [`FOUR3D_DEEP_CAP`], and whether every value matched its label (its
/// sign for win, draw or loss). The levers measured before and removed
/// (a helper solving every root move, the table in buckets, symmetry, the
/// root moves shared out: see docs/four3d-results.md) are not run. Long
/// (minutes): not in CI.
pub fn solve_deep() -> BenchReport {
    use ladderbot::games::four3d::best::endgames::deep_endgames;
    use ladderbot::games::four3d::best::position::{root_moves, RootMoves};
    use ladderbot::games::four3d::best::solve::{Levers, RootSolve};
    use ladderbot::games::four3d::best::tt::Table;
    use ladderbot::search::Limits;
    use std::collections::BTreeMap;
    use std::sync::atomic::AtomicBool;
    let table = Table::new(22);
    let stop = AtomicBool::new(false);
    let limits = Limits::playouts(FOUR3D_DEEP_CAP);
    // One root solve: (value, nodes, milliseconds, stopped).
    let solve = |me: u64, opp: u64, cells: &[u8], side: &Side| {
        table.clear();
        let t = Instant::now();
        let (got, nodes) = RootSolve {
            table: &table,
            helpers: 0,
            limits: &limits,
            helper_limits: &limits,
            stop: &stop,
            levers: side.levers,
        }
        .solve(me, opp, cells);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        (got.map(|s| s.value), nodes, ms, got.is_none())
    };
    struct Side {
        name: &'static str,
        levers: Levers,
    }
    let claimeven = Levers {
        zugzwang: true,
        ..Levers::default()
    };
    let etc = Levers {
        etc: true,
        ..claimeven
    };
    let side = |name, levers| Side { name, levers };
    let sides = [
        side("today's", Levers::default()),
        side("claimeven", claimeven),
        side("claimeven + ETC", etc),
        side("the same, win/draw/loss only", Levers { wdl: true, ..etc }),
    ];
    const N: usize = 4;
    // The headline side: the bounds and the cutoffs, the exact distance.
    const HEAD: usize = 2;
    // Per depth and side: times, nodes, stopped; positions per depth.
    type Tally = (Vec<f64>, u64, usize);
    let mut by_depth: BTreeMap<u32, ([Tally; N], usize)> = BTreeMap::new();
    let mut totals = [0.0f64; N];
    let (mut positions, mut mismatches) = (0usize, 0usize);
    for e in deep_endgames() {
        let b = e.board();
        let s = b.to_move();
        let (me, opp) = (b.stones(s), b.stones(1 - s));
        let RootMoves::Search(cells) = root_moves(me, opp) else {
            continue;
        };
        positions += 1;
        let slot = by_depth.entry(e.empties()).or_default();
        slot.1 += 1;
        for (k, side) in sides.iter().enumerate() {
            let (v, nodes, ms, stopped) = solve(me, opp, &cells, side);
            let tally = &mut slot.0[k];
            tally.0.push(ms);
            tally.1 += nodes;
            tally.2 += stopped as usize;
            totals[k] += ms;
            let matches = if side.levers.wdl {
                v.map(i32::signum) == Some(e.value.signum())
            } else {
                v == Some(e.value)
            };
            mismatches += (!stopped && !matches) as usize;
        }
    }
    let per_s = |ms: f64| positions as f64 / (ms / 1000.0).max(1e-9);
    let depths: Vec<String> = by_depth
        .iter()
        .map(|(e, (tallies, count))| {
            let parts: Vec<String> = sides
                .iter()
                .zip(tallies)
                .map(|(side, (ms, nodes, stopped))| {
                    let mut t = format!(
                        "{} {:.0} ms, {} nodes",
                        side.name,
                        median(ms.clone()),
                        nodes / *count as u64
                    );
                    if *stopped > 0 {
                        let _ = write!(t, " ({stopped} stopped at the cap)");
                    }
                    t
                })
                .collect();
            format!("{e} empty ({count}): {}", parts.join(", "))
        })
        .collect();
    let rates: Vec<String> = sides
        .iter()
        .zip(&totals)
        .enumerate()
        .filter(|&(k, _)| k != 0 && k != HEAD)
        .map(|(_, (side, &ms))| format!("{} {:.3}", side.name, per_s(ms)))
        .collect();
    report(
        "four3d-solve-deep",
        vec![per_s(totals[HEAD])],
        vec![per_s(totals[0])],
        &BenchOptions {
            seconds: totals[0] / 1000.0,
            samples: 1,
        },
        "solves/s",
        format!(
            "Score Four root solves of {positions} positions of real games (solve-deep.txt), one pass, one thread, each from an empty table: \
             {} vs {} (rates over the whole set); the others, solves/s: {}; per depth (median time, mean nodes): {}; \
             values matching their labels: {}",
            sides[HEAD].name,
            sides[0].name,
            rates.join(", "),
            depths.join("; "),
            if mismatches == 0 { "all".to_string() } else { format!("{mismatches} MISMATCHES") }
        ),
    )
}
