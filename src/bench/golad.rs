//! The GOLAD benchmarks: Life generations, the seed's and `best`'s
//! searches, the cut above the leaves, the pairwise proposer, the value
//! model and the territory flood, each against its reference in the same
//! run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;

use super::{median, rate, report, BenchOptions, BenchReport};
use crate::search::Game;

/// GOLAD Life generations per second on one thread: the bitboard
/// `Field::step` against the array `RefField::step`, cycling over 64 fixed
/// random fields (densities 5% to 60%, colours mixed), samples interleaved.
pub(super) fn golad_step(opts: &BenchOptions) -> BenchReport {
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
pub(super) fn golad_ai2(opts: &BenchOptions) -> BenchReport {
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
pub(super) fn golad_best(opts: &BenchOptions) -> BenchReport {
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
pub(super) fn golad_leafcut(opts: &BenchOptions) -> BenchReport {
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
pub(super) fn golad_propose(opts: &BenchOptions) -> BenchReport {
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
pub(super) fn golad_value(opts: &BenchOptions) -> BenchReport {
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
pub(super) fn golad_flood(opts: &BenchOptions) -> BenchReport {
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
