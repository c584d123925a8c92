//! Built-in speed measurements, by name: each compares a fast implementation
//! with its simple reference in the same run, so the ratio means something
//! on any machine. (`cargo bench` has the finer-grained criterion versions.)

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;

use crate::games::four3d::reference::RefBoard;
use crate::games::four3d::Board;
use crate::search::{Game, Outcome};

/// The benchmarks [`run`] knows.
pub const NAMES: &[&str] = &[
    "four3d-playouts",
    "four3d-uct",
    "four3d-es-playouts",
    "four3d-search",
    "four3d-net",
    "four3d-solve",
    "four3d-solve-deep",
    "golad-step",
    "golad-ai2",
    "golad-best",
    "golad-leafcut",
    "golad-value",
    "golad-flood",
    "golad-propose",
    "puyo-best",
    "floodit-playouts",
];

/// How long to measure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchOptions {
    /// Seconds per sample (each implementation gets this much per sample).
    pub seconds: f64,
    /// Samples per implementation; the median is reported.
    pub samples: usize,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            seconds: 1.0,
            samples: 5,
        }
    }
}

/// One benchmark's result: medians of the samples.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchReport {
    pub bench: String,
    /// Median rate of the fast implementation.
    pub per_s: f64,
    /// Median rate of the reference implementation.
    pub reference_per_s: f64,
    /// `per_s / reference_per_s`.
    pub ratio: f64,
    pub samples: usize,
    /// What `per_s` counts, e.g. "playouts/s".
    pub unit: String,
    pub note: String,
}

/// Runs the benchmark `name` (one of [`NAMES`]).
pub fn run(name: &str, opts: &BenchOptions) -> Result<BenchReport, String> {
    if !(opts.seconds.is_finite() && opts.seconds > 0.0) {
        return Err(format!(
            "bench: seconds per sample must be positive, got {}",
            opts.seconds
        ));
    }
    if opts.samples == 0 {
        return Err("bench: need at least one sample".into());
    }
    match name {
        "four3d-playouts" => Ok(four3d_playouts(opts)),
        "four3d-uct" => Ok(four3d_uct(opts)),
        "four3d-es-playouts" => Ok(four3d_es_playouts(opts)),
        "four3d-search" => Ok(four3d_search(opts, FOUR3D_SEARCH_DEPTH)),
        "four3d-net" => Ok(four3d_net(opts, FOUR3D_SEARCH_DEPTH)),
        "four3d-solve" => Ok(four3d_solve(opts)),
        "four3d-solve-deep" => Ok(four3d_solve_deep()),
        "golad-step" => Ok(golad_step(opts)),
        "golad-ai2" => Ok(golad_ai2(opts)),
        "golad-best" => Ok(golad_best(opts)),
        "golad-leafcut" => Ok(golad_leafcut(opts)),
        "golad-value" => Ok(golad_value(opts)),
        "golad-flood" => Ok(golad_flood(opts)),
        "golad-propose" => Ok(golad_propose(opts)),
        "puyo-best" => Ok(puyo_best(opts)),
        "floodit-playouts" => Ok(floodit_playouts(opts)),
        other => Err(format!(
            "unknown bench '{other}' (known: {})",
            NAMES.join(", ")
        )),
    }
}

/// Median of a non-empty list.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        0.5 * (xs[n / 2 - 1] + xs[n / 2])
    }
}

/// Calls `one` repeatedly for `dur` (reading the clock every `batch` calls)
/// and returns the calls per second.
fn rate(dur: Duration, batch: u64, mut one: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    loop {
        for _ in 0..batch {
            one();
        }
        n += batch;
        let t = start.elapsed();
        if t >= dur {
            return n as f64 / t.as_secs_f64();
        }
    }
}

/// Folds an outcome into a checksum so that no playout can be optimised away.
fn fold(acc: &mut u64, o: Outcome) {
    let v = match o {
        Outcome::Win(s) => s as u64 + 1,
        Outcome::Draw => 0,
    };
    *acc = acc.wrapping_mul(31).wrapping_add(v);
}

/// Random playouts from the empty board, bitboard against the array
/// reference, on one thread, samples interleaved.
fn four3d_playouts(opts: &BenchOptions) -> BenchReport {
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

/// Uniformly random Flood-It playouts on default boards (14 x 14, 6
/// colours), bitboard rules against the breadth-first reference, the same
/// eight boards for both, samples interleaved.
fn floodit_playouts(opts: &BenchOptions) -> BenchReport {
    use crate::games::floodit::reference::RefFloodIt;
    use crate::games::floodit::{FloodIt, DEFAULT_COLOURS, DEFAULT_COLS, DEFAULT_ROWS};
    let dur = Duration::from_secs_f64(opts.seconds);
    let fast_starts: Vec<FloodIt> = (0..8)
        .map(|seed| {
            FloodIt::random(DEFAULT_ROWS, DEFAULT_COLS, DEFAULT_COLOURS, seed)
                .expect("the default board is valid")
        })
        .collect();
    let ref_starts: Vec<RefFloodIt> = fast_starts
        .iter()
        .map(|g| RefFloodIt::new(g.rows(), g.cols(), g.colours(), g.cells()))
        .collect();
    let mut rng = SmallRng::seed_from_u64(0x0F10_0D17);
    let mut check = 0u64;
    let (mut i, mut j) = (0usize, 0usize);
    let mut fast = Vec::with_capacity(opts.samples);
    let mut reference = Vec::with_capacity(opts.samples);
    for _ in 0..opts.samples {
        fast.push(rate(dur, 64, || {
            let mut g = black_box(&fast_starts[i % 8]).clone();
            i += 1;
            fold(&mut check, g.random_playout(&mut rng));
        }));
        reference.push(rate(dur, 4, || {
            let mut g = black_box(&ref_starts[j % 8]).clone();
            j += 1;
            fold(&mut check, g.random_playout(&mut rng));
        }));
    }
    black_box(check);
    report(
        "floodit-playouts",
        fast,
        reference,
        opts,
        "playouts/s",
        format!(
            "two-player Flood-It random playouts on eight 14 x 14 boards with 6 colours, one \
             thread: bitboard FloodIt (masked dilation) vs breadth-first RefFloodIt, {} \
             interleaved samples of {} s each, medians",
            opts.samples, opts.seconds
        ),
    )
}

/// Builds a report from the two lists of samples.
fn report(
    bench: &str,
    fast: Vec<f64>,
    reference: Vec<f64>,
    opts: &BenchOptions,
    unit: &str,
    note: String,
) -> BenchReport {
    let per_s = median(fast);
    let reference_per_s = median(reference);
    BenchReport {
        bench: bench.into(),
        per_s,
        reference_per_s,
        ratio: if reference_per_s > 0.0 {
            per_s / reference_per_s
        } else {
            0.0
        },
        samples: opts.samples,
        unit: unit.into(),
        note,
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
fn four3d_uct(opts: &BenchOptions) -> BenchReport {
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
fn four3d_es_playouts(opts: &BenchOptions) -> BenchReport {
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
fn four3d_search(opts: &BenchOptions, depth: i32) -> BenchReport {
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
fn four3d_net(opts: &BenchOptions, depth: i32) -> BenchReport {
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
fn four3d_solve(opts: &BenchOptions) -> BenchReport {
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
/// `train::solve_wdl`). `per_s` and `reference_per_s` are solves per
/// second over the whole set (the bounds with the cutoffs, exact, against
/// today's); the note gives the rates of the others and per depth the
/// median time and mean nodes of each, solves stopped at
/// [`FOUR3D_DEEP_CAP`], and whether every value matched its label (its
/// sign for win, draw or loss). The levers measured before and removed
/// (a helper solving every root move, the table in buckets, symmetry, the
/// root moves shared out: see docs/four3d-results.md) are not run. Long
/// (minutes): not in CI.
fn four3d_solve_deep() -> BenchReport {
    use crate::games::four3d::best::endgames::deep_endgames;
    use crate::games::four3d::best::position::{root_moves, RootMoves};
    use crate::games::four3d::best::solve::{Levers, RootSolve};
    use crate::games::four3d::best::tt::Table;
    use crate::search::Limits;
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

/// GOLAD Life generations per second on one thread: the bitboard
/// `Field::step` against the array `RefField::step`, cycling over 64 fixed
/// random fields (densities 5% to 60%, colours mixed), samples interleaved.
fn golad_step(opts: &BenchOptions) -> BenchReport {
    use crate::games::golad::moves::{Cell, CELLS};
    use crate::games::golad::reference::RefField;
    use crate::games::golad::Field;
    use rand::Rng;
    const N: usize = 64;
    let dur = Duration::from_secs_f64(opts.seconds);
    let mut rng = SmallRng::seed_from_u64(0x601A_D5E7);
    let fields: Vec<Field> = (0..N)
        .map(|i| {
            let density = 5 + (i * 55) / (N - 1);
            let mut f = Field::empty();
            for c in 0..CELLS {
                if rng.gen_range(0..100) < density {
                    f.set(Cell::from_index(c), Some(rng.gen_range(0..2)));
                }
            }
            f
        })
        .collect();
    let refs: Vec<RefField> = fields.iter().map(RefField::from_field).collect();
    let mut check = 0u32;
    let (mut fast, mut reference) = (Vec::new(), Vec::new());
    for _ in 0..opts.samples {
        let mut k = 0usize;
        fast.push(rate(dur, 4096, || {
            let next = black_box(&fields[k % N]).step();
            check = check.wrapping_add(black_box(next).rows(0)[7]);
            k += 1;
        }));
        let mut k = 0usize;
        reference.push(rate(dur, 64, || {
            let next = black_box(&refs[k % N]).step();
            check = check.wrapping_add(black_box(next).cells[7][9].unwrap_or(2) as u32);
            k += 1;
        }));
    }
    black_box(check);
    report(
        "golad-step",
        fast,
        reference,
        opts,
        "generations/s",
        format!(
            "GOLAD Life generations on one thread: bitboard Field::step ([u32; 16] rows per player, \
             bit-sliced adders) vs array RefField::step (8 neighbour reads per cell), cycling over \
             {N} fixed random fields, {} interleaved samples of {} s each, medians",
            opts.samples, opts.seconds
        ),
    )
}

/// The seed's "time for 10 moves": `ai2` (bitboard) against `ai1` (the
/// same search on the array board), both at their seed budget of 100
/// playouts, over the first 10 positions of a fixed game; `per_s` and
/// `reference_per_s` are moves per second.
fn golad_ai2(opts: &BenchOptions) -> BenchReport {
    use crate::games::golad::GolState;
    use crate::games::{AgentParams, PlayableGame};
    use crate::search::Limits;
    let dur = Duration::from_secs_f64(opts.seconds);
    let mut positions = Vec::new();
    let mut g = GolState::start(7, 100);
    let mut rng = SmallRng::seed_from_u64(7);
    while positions.len() < GOLAD_POSITIONS && g.outcome().is_none() {
        positions.push(g);
        let mv = g.random_move(&mut rng);
        g.apply(mv);
    }
    let limits = Limits::default();
    let moves_per_s = |name: &str| {
        let mut agent =
            GolState::build_agent(name, &AgentParams::new(), 3).expect("a built-in agent");
        selects_per_s(&mut *agent, &positions, &limits, dur)
    };
    let (mut ai2, mut ai1) = (Vec::new(), Vec::new());
    for _ in 0..opts.samples {
        ai2.push(moves_per_s("ai2"));
        ai1.push(moves_per_s("ai1"));
    }
    let (t2, t1) = (10.0 / median(ai2.clone()), 10.0 / median(ai1.clone()));
    report(
        "golad-ai2",
        ai2,
        ai1,
        opts,
        "moves/s",
        format!(
            "GOLAD seed agents at 100 playouts per move over {} positions of a fixed game, one thread: \
             ai2 (bitboard) vs ai1 (array board); 10 moves take {:.0} ms (ai2) vs {:.0} ms (ai1)",
            positions.len(),
            t2 * 1000.0,
            t1 * 1000.0
        ),
    )
}

/// Moves an agent chooses per second, cycling through `positions`.
fn selects_per_s<G: Game>(
    agent: &mut dyn crate::search::Agent<G>,
    positions: &[G],
    limits: &crate::search::Limits,
    dur: Duration,
) -> f64 {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut k = 0;
    rate(dur, 1, || {
        black_box(
            agent
                .select(black_box(&positions[k % positions.len()]), limits, &stop)
                .mv,
        );
        k += 1;
    })
}

/// `best`'s search against `ab-v1`'s (and `ab-v2`'s, in the note), 60 ms a
/// move on one thread over the same 10 positions: nodes per move (every
/// node below the root, leaves included), medians of the samples, each the
/// mean over the positions; the note gives the depths completed.
fn golad_best(opts: &BenchOptions) -> BenchReport {
    use crate::games::golad::best::{Best, BestConfig};
    use crate::search::{Agent, Deadline, Limits};
    use std::sync::atomic::AtomicBool;
    let stop = AtomicBool::new(false);
    let positions = golad_positions();
    let one = |c: BestConfig| BestConfig { threads: 1, ..c };
    let mut agents = [
        Best::new(one(BestConfig::default())),
        Best::named("ab-v1", one(BestConfig::v1())),
        Best::named("ab-v2", one(BestConfig::v2())),
    ];
    let budget = Duration::from_millis(60);
    // Per agent, per sample: mean nodes a move; and all depths reached.
    let mut nodes: [Vec<f64>; 3] = Default::default();
    let mut depths: [Vec<usize>; 3] = Default::default();
    for _ in 0..opts.samples {
        for (k, a) in agents.iter_mut().enumerate() {
            let mut sum = 0u64;
            for p in &positions {
                let limits =
                    Limits::deadline(Deadline::per_move(Instant::now(), budget, Duration::ZERO));
                black_box(a.select(p, &limits, &stop).mv);
                let (n, d) = a.searched();
                sum += n;
                depths[k].push(d);
            }
            nodes[k].push(sum as f64 / positions.len() as f64);
        }
    }
    let depth_note = |d: &[usize]| {
        let mean = d.iter().sum::<usize>() as f64 / d.len().max(1) as f64;
        format!("mean depth {mean:.2}, max {}", d.iter().max().unwrap_or(&0))
    };
    let v2 = median(nodes[2].clone());
    let [best_nodes, v1_nodes, _] = nodes;
    report(
        "golad-best",
        best_nodes,
        v1_nodes,
        opts,
        "nodes/move",
        format!(
            "GOLAD nodes per move at 60 ms, one thread, {} positions of a control self-play game: \
             best ({}) vs ab-v1 ({}); ab-v2 {:.0} nodes/move ({}); rates are nodes per move, \
             not per second",
            positions.len(),
            depth_note(&depths[0]),
            depth_note(&depths[1]),
            v2,
            depth_note(&depths[2]),
        ),
    )
}

/// `ab-v2`'s search at a fixed depth (3 plies, one thread) over 10 positions
/// of a game `control` plays against itself: with the cut at the nodes just
/// above the leaves (`leafcut=1`, the default) against scoring every
/// candidate there (`leafcut=0`). Both must find the same root values;
/// `per_s` and `reference_per_s` are searches per second.
fn golad_leafcut(opts: &BenchOptions) -> BenchReport {
    use crate::games::golad::GolState;
    use crate::games::{AgentParams, PlayableGame};
    use crate::search::Limits;
    use std::sync::atomic::AtomicBool;
    let dur = Duration::from_secs_f64(opts.seconds);
    let stop = AtomicBool::new(false);
    let unlimited = Limits::playouts(u64::MAX / 4);
    let positions = golad_positions();
    let agent = |cut: &str| {
        let mut p = AgentParams::new();
        for (k, v) in [("depth", "3"), ("threads", "1"), ("leafcut", cut)] {
            p.insert(k.into(), v.into());
        }
        GolState::build_agent("ab-v2", &p, 1).expect("a built-in agent")
    };
    let (mut cut, mut full) = (agent("1"), agent("0"));
    let (mut same, mut evals_cut, mut evals_full) = (true, 0u64, 0u64);
    for p in &positions {
        let (a, b) = (
            cut.select(p, &unlimited, &stop),
            full.select(p, &unlimited, &stop),
        );
        same &= a.value == b.value;
        evals_cut += a.playouts;
        evals_full += b.playouts;
    }
    let (mut fast, mut reference) = (Vec::new(), Vec::new());
    for _ in 0..opts.samples {
        fast.push(selects_per_s(&mut *cut, &positions, &unlimited, dur));
        reference.push(selects_per_s(&mut *full, &positions, &unlimited, dur));
    }
    report(
        "golad-leafcut",
        fast,
        reference,
        opts,
        "searches/s",
        format!(
            "GOLAD ab-v2, depth 3, one thread, {} positions of a control self-play game: leaf cut \
             vs every candidate scored; evaluations {} vs {} ({:.2}x fewer); same root values: {}",
            positions.len(),
            evals_cut,
            evals_full,
            evals_full as f64 / evals_cut.max(1) as f64,
            if same { "yes" } else { "NO" }
        ),
    )
}

/// The candidates of a reply node: the pairwise proposer as `pw_reply=150`
/// sets it against today's generator at the reply width (12 birth cells x
/// 10 sacrifices), both scoring with `best`'s evaluation, over the same 10
/// positions. Rates are whole candidate lists (proposals) per second, one
/// thread; the note gives the evaluations each spends and the births each
/// keeps.
fn golad_propose(opts: &BenchOptions) -> BenchReport {
    use crate::games::golad::best::BestConfig;
    let pairwise = BestConfig {
        pw_reply: 150,
        ..BestConfig::default()
    };
    golad_lists(
        opts,
        "golad-propose",
        &pairwise,
        &BestConfig::default(),
        |a, b| {
            format!(
                "GOLAD reply candidates of {} positions of a control self-play game, one thread: \
                 the pairwise proposer (pw_reply=150) {:.0} evaluations and {:.0} candidates a \
                 proposal, vs today's generator (12 births x 10 sacrifices) {:.0} evaluations and \
                 {:.0} candidates",
                GOLAD_POSITIONS, a.0, a.1, b.0, b.1
            )
        },
    )
}

/// Positions [`golad_positions`] gives.
const GOLAD_POSITIONS: usize = 10;

/// The report `name` of reply candidate lists per second of `fast` against
/// `reference` (samples of each, interleaved); `note` is given the
/// evaluations and candidates a list of each costs.
fn golad_lists(
    opts: &BenchOptions,
    name: &str,
    fast: &crate::games::golad::best::BestConfig,
    reference: &crate::games::golad::best::BestConfig,
    note: impl Fn((f64, f64), (f64, f64)) -> String,
) -> BenchReport {
    use crate::games::golad::best::{leaf_value, node_candidates, BestConfig};
    let dur = Duration::from_secs_f64(opts.seconds);
    let positions = golad_positions();
    let eval = reference.territory();
    // Proposals per second, and the evaluations and candidates of one
    // pass over the positions.
    let measure = |cfg: &BestConfig| {
        let gen = cfg.node_gen(1, 2);
        let (mut evals, mut cands) = (0u64, 0usize);
        for p in &positions {
            cands += node_candidates(p, gen, |q, m| {
                evals += 1;
                leaf_value(&eval, cfg, q, m)
            })
            .len();
        }
        let mut k = 0;
        let per_s = rate(dur, 1, || {
            let c = node_candidates(&positions[k % positions.len()], gen, |q, m| {
                leaf_value(&eval, cfg, q, m)
            });
            black_box(c);
            k += 1;
        });
        let n = positions.len() as f64;
        (per_s, evals as f64 / n, cands as f64 / n)
    };
    let (mut f, mut r) = (Vec::new(), Vec::new());
    let (mut a, mut b) = ((0.0, 0.0), (0.0, 0.0));
    for _ in 0..opts.samples {
        let (x, e, c) = measure(fast);
        f.push(x);
        a = (e, c);
        let (x, e, c) = measure(reference);
        r.push(x);
        b = (e, c);
    }
    report(name, f, r, opts, "proposals/s", note(a, b))
}

/// 10 positions of a game `control` plays against itself from start field 7,
/// two moves apart.
fn golad_positions() -> Vec<crate::games::golad::GolState> {
    use crate::games::golad::GolState;
    use crate::games::{AgentParams, PlayableGame};
    use crate::search::Limits;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let unlimited = Limits::playouts(u64::MAX / 4);
    let mut positions = Vec::new();
    let mut g = GolState::start(7, 100);
    let mut control =
        GolState::build_agent("control", &AgentParams::new(), 7).expect("a built-in agent");
    while positions.len() < GOLAD_POSITIONS && g.outcome().is_none() {
        positions.push(g);
        for _ in 0..2 {
            if g.outcome().is_none() {
                let mv = control.select(&g, &unlimited, &stop).mv;
                g.apply(mv);
            }
        }
    }
    positions
}

/// The leaf evaluation of GOLAD's search: `best`'s learned value model
/// against `ab-v1`'s territory share, each scoring the candidate moves of
/// the same 10 positions (the generations and the flood are shared work;
/// the model adds its inputs and two logistic heads). Rates are
/// evaluations per second, one thread.
fn golad_value(opts: &BenchOptions) -> BenchReport {
    use crate::games::golad::best::{leaf_value, BestConfig};
    use crate::games::golad::territory::{candidates, Territory, Width};
    let dur = Duration::from_secs_f64(opts.seconds);
    let positions = golad_positions();
    let width = Width {
        births: 8,
        sacrifices: 6,
    };
    let eval = Territory::new(0.5);
    let (learned, territory) = (BestConfig::default(), BestConfig::v1());
    let per_s = |cfg: &BestConfig| {
        let (mut k, mut n) = (0, 0u64);
        // Position-rounds per second, times the evaluations per round.
        let rounds_per_s = rate(dur, 1, || {
            let c = candidates(&positions[k % positions.len()], width, |p, m| {
                n += 1;
                leaf_value(&eval, cfg, p, m)
            });
            black_box(c);
            k += 1;
        });
        rounds_per_s * n as f64 / k.max(1) as f64
    };
    let (mut fast, mut reference) = (Vec::new(), Vec::new());
    for _ in 0..opts.samples {
        fast.push(per_s(&learned));
        reference.push(per_s(&territory));
    }
    report(
        "golad-value",
        fast,
        reference,
        opts,
        "evaluations/s",
        format!(
            "GOLAD leaf evaluation over the candidates (8 births x 6 sacrifices) of {} positions: \
             the learned value model (best) vs the territory share (ab-v1), one thread; \
             a ratio below 1 is the model's cost",
            positions.len()
        ),
    )
}

/// The territory flood (75% of `ab-v2`'s time, by `perf`): the integer
/// flood of `best` against the exact `f64` flood of `ab-v1`/`ab-v2`, on the
/// fields after every candidate of the same 10 positions (both seats, the
/// tempo to the side to move next, as the search scores them). Rates are
/// floods per second, one thread; the note gives the largest difference.
fn golad_flood(opts: &BenchOptions) -> BenchReport {
    use crate::games::golad::territory::{candidates, Territory, Width};
    let dur = Duration::from_secs_f64(opts.seconds);
    let width = Width {
        births: 8,
        sacrifices: 6,
    };
    let mut fields = Vec::new();
    for p in golad_positions() {
        candidates(&p, width, |s, m| {
            let mut t = *s;
            t.apply(m);
            fields.push((t.field.step(), s.to_move, t.to_move));
            0.0
        });
    }
    let (exact, fast) = (Territory::new(0.5), Territory::integer(0.5));
    let worst = fields
        .iter()
        .map(|(f, me, tempo)| {
            (exact.share(f, *me, Some(*tempo)) - fast.share(f, *me, Some(*tempo))).abs()
        })
        .fold(0.0f64, f64::max);
    let per_s = |t: &Territory| {
        let mut k = 0;
        rate(dur, 64, || {
            let (f, me, tempo) = &fields[k % fields.len()];
            black_box(t.share(black_box(f), *me, Some(*tempo)));
            k += 1;
        })
    };
    let (mut fast_rates, mut reference) = (Vec::new(), Vec::new());
    for _ in 0..opts.samples {
        fast_rates.push(per_s(&fast));
        reference.push(per_s(&exact));
    }
    report(
        "golad-flood",
        fast_rates,
        reference,
        opts,
        "floods/s",
        format!(
            "GOLAD territory flood over {} fields (every candidate of 10 positions, after its \
             generation and one more): integer weights (best) vs f64 (ab-v1, ab-v2), one thread; \
             largest difference {worst:.1e}",
            fields.len()
        ),
    )
}

/// Puyo `best` against `beam-v1` (issue 34's, one thread) on the same
/// positions at their shipped budget (35 ms a move): fields valued by the
/// search per second of wall time. The positions are eight fields of
/// `beam-v1`'s builds (two sequences, after moves 8, 16, 24 and 32,
/// searched with one future a move so that they do not depend on the
/// clock). The note gives the futures each searched a move.
fn puyo_best(opts: &BenchOptions) -> BenchReport {
    use crate::games::puyo::best::{BestPlanner, BestSettings};
    use crate::games::puyo::board::Board;
    use crate::games::puyo::planner::View;
    use crate::games::puyo::rules::{pairs_from, VISIBLE_PAIRS};
    let dur = Duration::from_secs_f64(opts.seconds);
    let mut positions = Vec::new();
    let mut maker = BestPlanner::new(
        BestSettings {
            futures: 1,
            budget: Duration::from_secs(60),
            ..BestSettings::v1()
        },
        1,
    );
    for seq in [5u64, 6] {
        let mut b = Board::empty();
        for k in 0..32u32 {
            let pairs = pairs_from(seq, k, VISIBLE_PAIRS);
            if (k + 1) % 8 == 0 {
                positions.push(View::solo(b, pairs.clone()));
            }
            let at = maker.decide(&View::solo(b, pairs.clone()));
            let chain = b.play(pairs[0], at).unwrap_or_default();
            if chain.links >= 2 || b.is_dead() {
                break;
            }
        }
    }
    // (fields valued per second, futures per searched move)
    let measure = |settings: BestSettings| {
        let mut p = BestPlanner::new(settings, 7);
        let (mut fields, mut futures, mut searched) = (0u64, 0u64, 0u64);
        let start = Instant::now();
        let mut k = 0;
        while k < positions.len() || start.elapsed() < dur {
            black_box(p.decide(black_box(&positions[k % positions.len()])));
            fields += p.searched.1;
            if p.searched.1 > 0 {
                futures += p.searched.0;
                searched += 1;
            }
            k += 1;
        }
        (
            fields as f64 / start.elapsed().as_secs_f64(),
            futures as f64 / searched.max(1) as f64,
        )
    };
    let (mut fast, mut reference, mut f_fast, mut f_ref) = (vec![], vec![], vec![], vec![]);
    for _ in 0..opts.samples {
        let (r, f) = measure(BestSettings::default());
        fast.push(r);
        f_fast.push(f);
        let (r, f) = measure(BestSettings::v1());
        reference.push(r);
        f_ref.push(f);
    }
    let threads = BestSettings::default().threads;
    report(
        "puyo-best",
        fast,
        reference,
        opts,
        "positions/s",
        format!(
            "Puyo best ({threads} threads, whole-field terms) vs beam-v1 (one thread) on {} \
             positions of beam-v1's builds at 35 ms a move: fields valued per second; futures \
             searched a move (median) {:.1} vs {:.1}",
            positions.len(),
            median(f_fast),
            median(f_ref)
        ),
    )
}

/// A rate with three significant digits or more (a rate below one, such
/// as solves per second, is not rounded to 0).
fn amount(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

/// A human summary of a report.
pub fn render(r: &BenchReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} {} (reference {} {}), ratio {:.2}x",
        r.bench,
        amount(r.per_s),
        r.unit,
        amount(r.reference_per_s),
        r.unit,
        r.ratio
    );
    let _ = write!(s, "  {}", r.note);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_lists() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(vec![7.0]), 7.0);
    }

    #[test]
    fn unknown_names_and_bad_options_are_errors() {
        let o = BenchOptions::default();
        assert!(run("nope", &o).unwrap_err().contains("four3d-playouts"));
        let bad = BenchOptions {
            seconds: 0.0,
            samples: 3,
        };
        assert!(run("four3d-playouts", &bad).is_err());
        let bad = BenchOptions {
            seconds: 0.1,
            samples: 0,
        };
        assert!(run("four3d-playouts", &bad).is_err());
    }

    #[test]
    fn a_rate_is_the_calls_made_over_the_time_they_took() {
        let mut calls = 0u64;
        let outer = Instant::now();
        let r = rate(Duration::from_millis(20), 7, || calls += 1);
        let outer = outer.elapsed().as_secs_f64();
        // Whole batches, at least one.
        assert!(calls >= 7 && calls.is_multiple_of(7), "{calls}");
        // calls / t, with t at least the 20 ms asked for and at most the
        // time seen from outside.
        assert!(r <= calls as f64 / 0.020 * (1.0 + 1e-9), "{r} for {calls}");
        assert!(
            r >= calls as f64 / outer * (1.0 - 1e-9),
            "{r} for {calls} in {outer} s"
        );
    }

    #[test]
    fn a_report_gives_the_medians_and_their_ratio() {
        let o = BenchOptions {
            seconds: 0.1,
            samples: 3,
        };
        let r = report(
            "x",
            vec![30.0, 10.0, 20.0],
            vec![4.0, 100.0, 5.0],
            &o,
            "u/s",
            String::new(),
        );
        assert_eq!((r.per_s, r.reference_per_s, r.ratio), (20.0, 5.0, 4.0));
        assert_eq!((r.samples, r.unit.as_str()), (3, "u/s"));
        // A reference that measured nothing gives no ratio, not infinity.
        let r = report("x", vec![1.0], vec![0.0], &o, "u/s", String::new());
        assert_eq!(r.ratio, 0.0);
    }

    #[test]
    fn a_short_run_measures_real_playouts_on_both_sides() {
        // No speed floor here (that is `ladderbot bench`, and the claims'
        // floors in tests/claims.rs): both sides measured something, at a
        // rate a real playout can reach, and the report is consistent. A
        // playout takes at least 7 plies in Score Four (no line before) and
        // dozens of flood fills in Flood-It: a side whose work was optimised
        // away would count empty calls, some 10^9 a second.
        let o = BenchOptions {
            seconds: 0.02,
            samples: 3,
        };
        for (name, unit, ceiling) in [
            ("four3d-playouts", "playouts/s", 1e8),
            ("floodit-playouts", "playouts/s", 1e7),
            ("four3d-net", "nodes/s", 1e8),
        ] {
            let r = run(name, &o).unwrap();
            assert_eq!(
                (r.bench.as_str(), r.unit.as_str(), r.samples),
                (name, unit, 3)
            );
            for (side, v) in [("fast", r.per_s), ("reference", r.reference_per_s)] {
                assert!(
                    v.is_finite() && v > 0.0 && v < ceiling,
                    "{name} {side}: {v}"
                );
            }
            assert!(r.ratio.is_finite() && r.ratio > 0.0, "{r:?}");
            assert!(
                (r.ratio - r.per_s / r.reference_per_s).abs() <= 1e-9 * r.ratio,
                "{r:?}"
            );
            let text = render(&r);
            assert!(text.starts_with(&format!("{name}: ")), "{text}");
        }
    }
}
