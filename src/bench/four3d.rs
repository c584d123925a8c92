//! The Score Four benchmarks: playouts (bitboard against array rules),
//! UCT, the incremental importance map, `best`'s search, its network and
//! its solver, each against its reference in the same run.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::{fold, median, rate, report, BenchOptions, BenchReport};
use crate::games::four3d::reference::RefBoard;
use crate::games::four3d::Board;
use crate::search::{Game, Outcome};

/// Random playouts from the empty board, bitboard against the array
/// reference, on one thread, samples interleaved.
pub(super) fn four3d_playouts(opts: &BenchOptions) -> BenchReport {
    let dur = Duration::from_secs_f64(opts.seconds);
    let mut rng = SmallRng::seed_from_u64(0x005C_0FE4);
    let mut check = 0u64;
    let fast_start = Board::new();
    let ref_start = RefBoard::new();
    let mut fast = Vec::with_capacity(opts.samples);
    let mut reference = Vec::with_capacity(opts.samples);
    for _ in 0..opts.samples {
        fast.push(rate(dur, 256, || {
            let mut b = black_box(fast_start);
            fold(&mut check, b.random_playout(&mut rng));
        }));
        reference.push(rate(dur, 16, || {
            let mut b = black_box(&ref_start).clone();
            fold(&mut check, b.random_playout(&mut rng));
        }));
    }
    black_box(check);
    let per_s = median(fast);
    let reference_per_s = median(reference);
    BenchReport {
        bench: "four3d-playouts".into(),
        per_s,
        reference_per_s,
        ratio: if reference_per_s > 0.0 {
            per_s / reference_per_s
        } else {
            0.0
        },
        samples: opts.samples,
        unit: "playouts/s".into(),
        note: format!(
            "Score Four random playouts from the empty board on one thread: bitboard \
             Board vs array RefBoard, {} interleaved samples of {} s each, medians",
            opts.samples, opts.seconds
        ),
    }
}

/// Positions the move benchmarks cycle through: the empty board and three
/// middle-game positions of a fixed random game.
fn four3d_positions() -> Vec<Board> {
    let mut rng = SmallRng::seed_from_u64(2024);
    let mut out = vec![Board::new()];
    let mut b = Board::new();
    for ply in 1..=18 {
        let moves = b.legal_moves();
        b.play(moves[rand::Rng::gen_range(&mut rng, 0..moves.len())]);
        if ply % 6 == 0 && b.outcome().is_none() {
            out.push(b);
        }
    }
    out
}

/// Moves per second of `uct` at 50000 playouts, against `pmc` at 50000.
pub(super) fn four3d_uct(opts: &BenchOptions) -> BenchReport {
    use crate::games::{AgentParams, PlayableGame};
    use crate::search::Limits;
    use std::sync::atomic::AtomicBool;
    const PLAYOUTS: u64 = 50_000;
    let dur = Duration::from_secs_f64(opts.seconds);
    let positions = four3d_positions();
    let stop = AtomicBool::new(false);
    let limits = Limits::playouts(PLAYOUTS);
    let moves_per_s = |name: &str| {
        let mut agent = Board::build_agent(name, &AgentParams::new(), 7).expect("a built-in agent");
        let mut k = 0;
        rate(dur, 1, || {
            let d = agent.select(black_box(&positions[k % positions.len()]), &limits, &stop);
            black_box(d.mv);
            k += 1;
        })
    };
    let (mut uct, mut pmc) = (Vec::new(), Vec::new());
    for _ in 0..opts.samples {
        uct.push(moves_per_s("uct"));
        pmc.push(moves_per_s("pmc"));
    }
    let ms = 1000.0 / median(uct.clone());
    report(
        "four3d-uct",
        uct,
        pmc,
        opts,
        "moves/s",
        format!(
            "uct (threshold 50) vs pmc, {PLAYOUTS} playouts per move, one thread, cycling over {} positions; \
             uct takes {ms:.1} ms per move (median)",
            positions.len()
        ),
    )
}

/// The seed's improved playouts (importance half the time) per second from
/// the empty board: the incremental importance map against computing every
/// importance from its definition.
pub(super) fn four3d_es_playouts(opts: &BenchOptions) -> BenchReport {
    use crate::games::four3d::policies::{importance_playout_direct, ImportancePlayout};
    use crate::search::mcts::Policy;
    let dur = Duration::from_secs_f64(opts.seconds);
    let mut rng = SmallRng::seed_from_u64(99);
    let mut check = 0u64;
    let mut policy = ImportancePlayout::default();
    let (mut fast, mut reference) = (Vec::new(), Vec::new());
    for _ in 0..opts.samples {
        fast.push(rate(dur, 64, || {
            let mut b = black_box(Board::new());
            let _ = policy.playout(&mut b, &mut rng);
            fold(&mut check, b.outcome().unwrap_or(Outcome::Draw));
        }));
        reference.push(rate(dur, 16, || {
            let mut b = black_box(Board::new());
            fold(&mut check, importance_playout_direct(&mut b, &mut rng, 0.5));
        }));
    }
    black_box(check);
    report(
        "four3d-es-playouts",
        fast,
        reference,
        opts,
        "playouts/s",
        "uct-es playouts (importance move with p = 1/2) from the empty board on one thread: \
         incremental importance map vs importance computed from its definition at every ply"
            .into(),
    )
}

/// The depth `four3d-search` searches every position to.
pub const FOUR3D_SEARCH_DEPTH: i32 = 7;

/// Positions for `four3d-search`: every fourth ply (4 to 32) of a game
/// `best` plays against itself at 20000 nodes a move on one thread (the
/// same game on every machine).
fn four3d_search_positions() -> Vec<Board> {
    use crate::games::four3d::best::{Best, BestConfig};
    use crate::search::{Agent, Limits};
    use std::sync::atomic::AtomicBool;
    let cfg = BestConfig {
        threads: 1,
        tt_bits: 16,
        ..BestConfig::v1()
    };
    let mut agent = Best::new(cfg);
    let stop = AtomicBool::new(false);
    let mut b = Board::new();
    let mut out = Vec::new();
    while b.outcome().is_none() && b.ply() < 32 {
        let mv = agent.select(&b, &Limits::playouts(20_000), &stop).mv;
        b.play(mv);
        if b.ply() % 4 == 0 && b.outcome().is_none() {
            out.push(b);
        }
    }
    out
}

/// The positions of `boards` `best` searches (not settled by the threats
/// at the root): each side to move's beads, the other's, the root cells.
fn searched(boards: &[Board]) -> Vec<(u64, u64, Vec<u8>)> {
    use crate::games::four3d::best::position::{root_moves, RootMoves};
    boards
        .iter()
        .filter_map(|b| {
            let s = b.to_move();
            let (me, opp) = (b.stones(s), b.stones(1 - s));
            match root_moves(me, opp) {
                RootMoves::Search(cells) => Some((me, opp, cells)),
                _ => None,
            }
        })
        .collect()
}

/// `best`'s search to a fixed depth on one thread (iterative deepening,
/// table, killers, history, null windows, forced-block extension; the
/// table cleared before each position) against plain alpha-beta with the
/// same rules and evaluation (no table, static order, no extension), over
/// the positions of [`four3d_search_positions`]; `per_s` and
/// `reference_per_s` are searches per second, the note gives both nodes
/// per second.
pub(super) fn four3d_search(opts: &BenchOptions, depth: i32) -> BenchReport {
    use crate::games::four3d::best::eval::Weights;
    use crate::games::four3d::best::{plain::plain_alphabeta, position::INF};
    use crate::games::four3d::best::{Best, BestConfig};
    use crate::search::Limits;
    use std::sync::atomic::AtomicBool;
    let positions = searched(&four3d_search_positions());
    let best = Best::new(BestConfig {
        threads: 1,
        max_depth: depth,
        tt_bits: 20,
        ..BestConfig::v1()
    });
    let stop = AtomicBool::new(false);
    let unlimited = Limits::playouts(u64::MAX);
    let weights = Weights::default();
    let (mut fast, mut reference) = (Vec::new(), Vec::new());
    let (mut fast_nps, mut ref_nps) = (Vec::new(), Vec::new());
    let mut check = 0i64;
    for _ in 0..opts.samples {
        // Each side searches the positions in whole rounds (every position
        // as often as the others) until the sample's time has passed; only
        // the searches are timed.
        for (side, out, nps) in [
            (0, &mut fast, &mut fast_nps),
            (1, &mut reference, &mut ref_nps),
        ] {
            let mut spent = Duration::ZERO;
            let (mut searches, mut nodes) = (0u64, 0u64);
            let mut k = 0;
            while spent.as_secs_f64() < opts.seconds || k % positions.len() != 0 {
                let (me, opp, cells) = &positions[k % positions.len()];
                k += 1;
                if side == 0 {
                    best.clear_table();
                }
                let t = Instant::now();
                if side == 0 {
                    let f = best.search(*me, *opp, cells, &unlimited, &stop);
                    nodes += f.nodes;
                    check += f.value as i64;
                } else {
                    let mut n = 0;
                    check +=
                        plain_alphabeta(*me, *opp, depth, -INF, INF, 0, &weights, &mut n) as i64;
                    nodes += n;
                }
                spent += t.elapsed();
                searches += 1;
            }
            out.push(searches as f64 / spent.as_secs_f64());
            nps.push(nodes as f64 / spent.as_secs_f64());
        }
    }
    black_box(check);
    // Each lever on its own: nodes to the same depth over the same
    // positions with that one lever off (one thread, table cleared before
    // each position; counts, not times, so the same on every machine).
    use crate::games::four3d::best::search::Features;
    // `ab-v1`'s search (the levers of issue 15 on, late move reductions
    // off), and late move reductions (issue 32) added.
    let on = BestConfig::v1().features;
    let levers = [
        ("all on", on),
        ("lmr on", Features { lmr: true, ..on }),
        ("tt off", Features { tt: false, ..on }),
        (
            "ordering off",
            Features {
                ordering: false,
                ..on
            },
        ),
        ("pvs off", Features { pvs: false, ..on }),
        (
            "extend off",
            Features {
                extend_forced: false,
                ..on
            },
        ),
    ];
    let mut lever_note = Vec::new();
    for (label, features) in levers {
        let b = Best::new(BestConfig {
            threads: 1,
            max_depth: depth,
            tt_bits: 20,
            features,
            ..BestConfig::v1()
        });
        let mut n = 0u64;
        for (me, opp, cells) in &positions {
            b.clear_table();
            n += b.search(*me, *opp, cells, &unlimited, &stop).nodes;
        }
        lever_note.push(format!("{label} {n}"));
    }
    let mut plain_nodes = 0u64;
    for (me, opp, _) in &positions {
        black_box(plain_alphabeta(
            *me,
            *opp,
            depth,
            -INF,
            INF,
            0,
            &weights,
            &mut plain_nodes,
        ));
    }
    lever_note.push(format!("plain alpha-beta {plain_nodes}"));
    let (fnps, rnps) = (median(fast_nps), median(ref_nps));
    let (fms, rms) = (
        1000.0 / median(fast.clone()),
        1000.0 / median(reference.clone()),
    );
    report(
        "four3d-search",
        fast,
        reference,
        opts,
        "searches/s",
        format!(
            "Score Four best's search to depth {depth} on one thread over {} positions of a fixed \
             self-play game vs plain alpha-beta (same rules and evaluation; no table, static order, \
             no extension): {fms:.1} ms vs {rms:.1} ms per search, {fnps:.0} vs {rnps:.0} nodes/s \
             (medians of {} samples, each whole rounds over the positions for at least {} s); nodes to depth {depth} over the positions, \
             one lever off at a time: {}",
            positions.len(),
            opts.samples,
            opts.seconds,
            lever_note.join(", ")
        ),
    )
}

/// Calls `work(k)` for k = 0, 1, 2... in whole rounds of `n` until
/// `seconds` have passed; the calls per second and the units (what `work`
/// returns, summed) per second.
fn rounds(seconds: f64, n: usize, mut work: impl FnMut(usize) -> u64) -> (f64, f64) {
    let start = Instant::now();
    let (mut calls, mut units) = (0u64, 0u64);
    while start.elapsed().as_secs_f64() < seconds || calls % n as u64 != 0 {
        units += work(calls as usize % n);
        calls += 1;
    }
    let t = start.elapsed().as_secs_f64();
    (calls as f64 / t, units as f64 / t)
}

/// `best`'s search with the network ([`crate::games::four3d::best::nnue`])
/// added to the fitted evaluation against `ab-v2`'s (the fitted evaluation
/// alone), both to depth `depth` on one thread, table cleared before each
/// position, over the positions of `four3d-search`: `per_s` and
/// `reference_per_s` are nodes per second; the note adds evaluations per
/// second of the two evaluations on their own. The network reads the peg
/// inputs too (the costlier kind); its weights are random (seed 1): what a
/// node costs does not depend on them, though the tree's shape does.
pub(super) fn four3d_net(opts: &BenchOptions, depth: i32) -> BenchReport {
    use crate::games::four3d::best::eval::{LineCounts, Weights};
    use crate::games::four3d::best::fitted::Model;
    use crate::games::four3d::best::nnue::{FloatNet, Inputs};
    use crate::games::four3d::best::threats::threats;
    use crate::games::four3d::best::{Best, BestConfig};
    use crate::search::Limits;
    use std::sync::atomic::AtomicBool;
    let net: &'static _ = Box::leak(Box::new(FloatNet::new(1, Inputs::Pegs).quantize()));
    let boards = four3d_search_positions();
    let positions = searched(&boards);
    let agent = |net| {
        Best::new(BestConfig {
            threads: 1,
            max_depth: depth,
            tt_bits: 20,
            net,
            ..BestConfig::v2()
        })
    };
    let (with, without) = (agent(Some(net)), agent(None));
    let stop = AtomicBool::new(false);
    let unlimited = Limits::playouts(u64::MAX);
    let (mut fast, mut reference) = (Vec::new(), Vec::new());
    let mut check = 0i64;
    for _ in 0..opts.samples {
        for (side, out) in [(&with, &mut fast), (&without, &mut reference)] {
            let (_, nps) = rounds(opts.seconds, positions.len(), |k| {
                let (me, opp, cells) = &positions[k];
                side.clear_table();
                let f = side.search(*me, *opp, cells, &unlimited, &stop);
                check += i64::from(f.value);
                f.nodes
            });
            out.push(nps);
        }
    }
    // The evaluations alone, each position's as a leaf would see it (the
    // network's accumulator made beforehand, as the search keeps it).
    let model = Model::shipped();
    let leaves: Vec<_> = boards
        .iter()
        .map(|b| {
            let s = b.to_move();
            let (me, opp) = (b.stones(s), b.stones(1 - s));
            let empty = !(me | opp);
            let lines = LineCounts::new([b.stones(0), b.stones(1)], &Weights::default());
            let acc = net.accumulate([b.stones(0), b.stones(1)]);
            (
                s,
                me,
                opp,
                threats(me, empty),
                threats(opp, empty),
                lines,
                acc,
            )
        })
        .collect();
    let (mut evals_net, mut evals_plain) = (Vec::new(), Vec::new());
    for _ in 0..opts.samples {
        let linear = |k: usize| {
            let (s, me, opp, tm, to, lines, _) = &leaves[k];
            model.value(lines, *s, *me, *opp, *tm, *to)
        };
        let (per_s, _) = rounds(opts.seconds / 4.0, leaves.len(), |k| {
            let (s, me, opp, tm, to, _, acc) = &leaves[k];
            check += i64::from(linear(k) + net.value(acc, *s, me | opp, *tm, *to));
            1
        });
        evals_net.push(per_s);
        let (per_s, _) = rounds(opts.seconds / 4.0, leaves.len(), |k| {
            check += i64::from(linear(k));
            1
        });
        evals_plain.push(per_s);
    }
    black_box(check);
    let (en, ep) = (median(evals_net), median(evals_plain));
    report(
        "four3d-net",
        fast,
        reference,
        opts,
        "nodes/s",
        format!(
            "Score Four best's search with the network added to the fitted evaluation vs ab-v2's (the fitted evaluation alone), to depth {depth} on one thread over {} positions of a fixed self-play game, nodes per second (medians of {} samples, each whole rounds over the positions for at least {} s; the network's weights random, seed 1); the evaluations alone: {en:.0} vs {ep:.0} per second ({:.2}x)",
            positions.len(),
            opts.samples,
            opts.seconds,
            en / ep.max(1e-9),
        ),
    )
}

/// The deepest positions of the shipped set plain alpha-beta solves in
/// `four3d-solve` (deeper ones take it minutes).
pub const FOUR3D_SOLVE_REFERENCE_EMPTIES: u32 = 16;

/// The most nodes one solve with a lever off may take in `four3d-solve`.
pub const FOUR3D_SOLVE_LEVER_CAP: u64 = 20_000_000;

/// `best`'s exact solver against plain alpha-beta to the end (the same
/// settling of threats; no table, static order, no bounds), one thread,
/// on the shipped endgames (positions of self-play games labelled by the
/// solver, `src/games/four3d/best/endgames.txt`). `per_s` and
/// `reference_per_s` are solves per second over the positions both solve
/// (at most [`FOUR3D_SOLVE_REFERENCE_EMPTIES`] empty cells), samples
/// interleaved; the note gives the solver's median time and mean nodes at
/// every depth, the reference's at the depths it solves, the nodes with
/// each of the solver's levers off, and whether every value matched its
/// label.
pub(super) fn four3d_solve(opts: &BenchOptions) -> BenchReport {
    use crate::games::four3d::best::endgames::shipped_endgames;
    use crate::games::four3d::best::tt::Table;
    use crate::games::four3d::best::{plain::plain_solve, solve::Solver};
    use crate::search::{Limits, SearchClock};
    use std::collections::BTreeMap;
    use std::sync::atomic::AtomicBool;
    let set: Vec<(u32, u64, u64, i32)> = shipped_endgames()
        .iter()
        .map(|e| {
            let b = e.board();
            let s = b.to_move();
            (e.empties(), b.stones(s), b.stones(1 - s), e.value)
        })
        .collect();
    let table = Table::new(20);
    let stop = AtomicBool::new(false);
    // One solve with the levers given, within `cap` nodes; (value, nodes,
    // finished).
    let solve = |me: u64, opp: u64, bounds: bool, ordering: bool, cap: u64| {
        let limits = Limits::playouts(cap);
        let mut sv = Solver::new(&table, SearchClock::new(&limits, &stop));
        sv.bounds = bounds;
        sv.ordering = ordering;
        let v = sv.solve(me, opp, -10_001, 10_001, 0);
        (v, sv.nodes, !sv.aborted())
    };
    // Every position once: times, nodes and the labels' check.
    // By depth: the solver's times and nodes, the reference's, positions.
    type Depth = (Vec<f64>, u64, Vec<f64>, u64, usize);
    let mut by_depth: BTreeMap<u32, Depth> = BTreeMap::new();
    let mut mismatches = 0;
    for &(e, me, opp, label) in &set {
        let slot = by_depth.entry(e).or_default();
        table.clear();
        let t = Instant::now();
        let (v, n, _) = solve(me, opp, true, true, u64::MAX);
        slot.0.push(t.elapsed().as_secs_f64() * 1000.0);
        slot.1 += n;
        slot.4 += 1;
        mismatches += (v != label) as usize;
        if e <= FOUR3D_SOLVE_REFERENCE_EMPTIES {
            let mut n = 0;
            let t = Instant::now();
            let v = plain_solve(me, opp, &mut n);
            slot.2.push(t.elapsed().as_secs_f64() * 1000.0);
            slot.3 += n;
            mismatches += (v != label) as usize;
        }
    }
    // The rate over the positions both solve, whole rounds, interleaved.
    let both: Vec<&(u32, u64, u64, i32)> = set
        .iter()
        .filter(|p| p.0 <= FOUR3D_SOLVE_REFERENCE_EMPTIES)
        .collect();
    let (mut fast, mut reference) = (Vec::new(), Vec::new());
    let mut check = 0i64;
    for _ in 0..opts.samples {
        for side in 0..2 {
            let mut spent = Duration::ZERO;
            let mut k = 0usize;
            while spent.as_secs_f64() < opts.seconds || k % both.len() != 0 {
                let &&(_, me, opp, _) = &both[k % both.len()];
                k += 1;
                if side == 0 {
                    table.clear();
                }
                let t = Instant::now();
                if side == 0 {
                    check += solve(me, opp, true, true, u64::MAX).0 as i64;
                } else {
                    let mut n = 0;
                    check += plain_solve(me, opp, &mut n) as i64;
                }
                spent += t.elapsed();
            }
            let out = if side == 0 { &mut fast } else { &mut reference };
            out.push(k as f64 / spent.as_secs_f64());
        }
    }
    black_box(check);
    let levers: Vec<String> = [
        ("all on", true, true),
        ("bounds off", false, true),
        ("ordering off", true, false),
    ]
    .iter()
    .map(|&(label, b, o)| {
        let (mut n, mut capped) = (0u64, 0);
        for &(_, me, opp, _) in &set {
            table.clear();
            let (_, nodes, done) = solve(me, opp, b, o, FOUR3D_SOLVE_LEVER_CAP);
            n += nodes;
            capped += !done as usize;
        }
        if capped > 0 {
            format!("{label} {n} ({capped} stopped at the cap)")
        } else {
            format!("{label} {n}")
        }
    })
    .collect();
    let depths: Vec<String> = by_depth
        .iter()
        .map(|(e, (ms, n, rms, rn, count))| {
            let mut s = format!(
                "{e} empty: solver {:.3} ms, {} nodes",
                median(ms.clone()),
                n / *count as u64
            );
            if !rms.is_empty() {
                let _ = write!(
                    s,
                    "; plain {:.3} ms, {} nodes",
                    median(rms.clone()),
                    rn / *count as u64
                );
            }
            s
        })
        .collect();
    report(
        "four3d-solve",
        fast,
        reference,
        opts,
        "solves/s",
        format!(
            "Score Four exact solver vs plain alpha-beta to the end, one thread, {} shipped endgames \
             (the rate over the {} with at most {FOUR3D_SOLVE_REFERENCE_EMPTIES} empty cells, whole rounds, \
             {} interleaved samples of at least {} s); per depth (median time per position, mean nodes): {}; \
             solver nodes over all positions with one lever off: {}; values matching their labels: {}",
            set.len(),
            both.len(),
            opts.samples,
            opts.seconds,
            depths.join("; "),
            levers.join(", "),
            if mismatches == 0 { "all".to_string() } else { format!("{mismatches} MISMATCHES") }
        ),
    )
}
