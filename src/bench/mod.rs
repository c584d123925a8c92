//! Built-in speed measurements, by name: each compares a fast implementation
//! with its simple reference in the same run, so the ratio means something
//! on any machine. (`cargo bench` has the finer-grained criterion versions.)

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;

mod four3d;
mod golad;

use four3d::*;
pub use four3d::{FOUR3D_SEARCH_DEPTH, FOUR3D_SOLVE_LEVER_CAP, FOUR3D_SOLVE_REFERENCE_EMPTIES};
use golad::*;

use crate::search::{Game, Outcome};

/// The benchmarks [`run`] knows.
pub const NAMES: &[&str] = &[
    "four3d-playouts",
    "four3d-uct",
    "four3d-es-playouts",
    "four3d-search",
    "four3d-net",
    "four3d-solve",
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
pub fn median(mut xs: Vec<f64>) -> f64 {
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
pub fn report(
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
