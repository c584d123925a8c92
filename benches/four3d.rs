//! Score Four speed: random playouts and legal-move generation, bitboard
//! against the array reference, and a primitive Monte Carlo move choice.
//! Run with `cargo bench --bench four3d`; kept short (a few seconds a bench).

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use ladderbot::games::four3d::reference::RefBoard;
use ladderbot::games::four3d::{Board, Peg};
use ladderbot::search::bandit::PrimitiveMc;
use ladderbot::search::{Agent, Game, Limits};

/// A fixed middle-game position (12 beads, two pegs full, nobody has won).
const MIDGAME: [u8; 12] = [5, 5, 5, 5, 0, 10, 10, 10, 10, 3, 12, 15];

fn midgame<G: Game<Move = Peg>>(mut g: G) -> G {
    for p in MIDGAME {
        g.play(Peg(p));
    }
    assert!(g.outcome().is_none());
    g
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_playout");
    let mut rng = SmallRng::seed_from_u64(1);
    let board = Board::new();
    g.bench_function("bitboard", |b| {
        b.iter(|| black_box(board).random_playout(&mut rng))
    });
    let reference = RefBoard::new();
    g.bench_function("reference", |b| {
        b.iter(|| black_box(&reference).clone().random_playout(&mut rng))
    });
    g.finish();
}

fn legal_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_moves_midgame");
    let board = midgame(Board::new());
    let reference = midgame(RefBoard::new());
    g.bench_function("bitboard_vec", |b| {
        b.iter(|| black_box(&board).legal_moves())
    });
    g.bench_function("bitboard_mask", |b| {
        b.iter(|| black_box(&board).legal_mask())
    });
    g.bench_function("reference_vec", |b| {
        b.iter(|| black_box(&reference).legal_moves())
    });
    g.finish();
}

fn pmc_select(c: &mut Criterion) {
    let mut g = c.benchmark_group("pmc_select_1000_playouts");
    let stop = AtomicBool::new(false);
    let limits = Limits::playouts(1000);
    for (name, pos) in [("empty", Board::new()), ("midgame", midgame(Board::new()))] {
        let mut agent = PrimitiveMc::new(7);
        g.bench_function(name, |b| {
            b.iter(|| Agent::<Board>::select(&mut agent, black_box(&pos), &limits, &stop))
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = playouts, legal_moves, pmc_select
}
criterion_main!(benches);
