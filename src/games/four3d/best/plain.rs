//! The plain references of `best`'s searches: alpha-beta with no table,
//! static order, no null windows and no extension, on the same rules and
//! evaluation ([`plain_alphabeta`]); to the end of the game, the solver's
//! reference ([`plain_solve`]). `ladderbot bench` and the tests measure
//! the real searches against them.

use super::eval::{evaluate, Weights};
use super::position::{settle, Settled, INF};

/// Plain alpha-beta (no table, static order, no null windows, no
/// extension) with the same rules and evaluation: the reference of
/// `ladderbot bench four3d-search`. The value of `me` to move, `depth`
/// plies deep; `nodes` counts the nodes.
#[allow(clippy::too_many_arguments)]
pub fn plain_alphabeta(
    me: u64,
    opp: u64,
    depth: i32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
    w: &Weights,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let (moves, t_me, t_opp) = match settle(me, opp, ply) {
        Settled::Value(v) => return v,
        Settled::Open {
            moves, t_me, t_opp, ..
        } => (moves, t_me, t_opp),
    };
    if depth <= 0 {
        let seat = ((me | opp).count_ones() & 1) as usize;
        return evaluate(me, opp, seat, t_me, t_opp, w);
    }
    let mut best = -INF;
    let mut m = moves;
    while m != 0 {
        let c = m.trailing_zeros();
        m &= m - 1;
        let v = -plain_alphabeta(
            opp,
            me | 1u64 << c,
            depth - 1,
            -beta,
            -alpha,
            ply + 1,
            w,
            nodes,
        );
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The exact value of a position by the plain reference: alpha-beta to the
/// end of the game with no table, static order, no bounds
/// ([`plain_alphabeta`] with unlimited depth); `nodes` counts its nodes.
pub fn plain_solve(me: u64, opp: u64, nodes: &mut u64) -> i32 {
    let w = Weights::default();
    plain_alphabeta(me, opp, 64, -INF, INF, 0, &w, nodes)
}
