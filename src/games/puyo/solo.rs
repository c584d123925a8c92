//! One-player runs on seeded pair sequences: a chooser builds alone until
//! it fires its final chain. `tune --objective solo` compares settings by
//! them; the lab (`ladderbot-lab puyo solo`) reads them for why they fell
//! short. Pure but for the move times it measures.

use std::time::Instant;

use serde::Serialize;

use super::board::{Board, Over};
use super::planner::{Chooser, View};
use super::rules::{pairs_from, VISIBLE_PAIRS};

/// Moves after which a run gives up.
pub const MAX_MOVES: u32 = 100;
/// One solo run: moves until the chooser fires its final chain (the first
/// chain of two links or more).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SoloRun {
    pub seed: u64,
    /// Links of the final chain (0: none fired, the field died or
    /// [`MAX_MOVES`] passed).
    pub chain: u8,
    pub attack: u32,
    pub score: u32,
    /// The move (1-based) that fired it.
    pub fire_move: Option<u32>,
    pub max_ms: f64,
    pub total_ms: f64,
    pub played: u32,
}

/// Plays `chooser` alone on pair sequence `seed`, its field lost by rule
/// `over`.
pub fn solo_run(chooser: &mut dyn Chooser, seed: u64, over: Over) -> SoloRun {
    solo_run_traced(chooser, seed, over, &mut |_| {})
}

/// One move of a solo run, for a trace: the move number (1-based), the
/// pairs known, the placement, the field after it and the chain it fired.
pub struct SoloStep<'a> {
    pub number: u32,
    pub pairs: &'a [super::board::Pair],
    pub at: super::board::Placement,
    pub board: &'a Board,
    pub chain: &'a super::board::Chain,
}

/// [`solo_run`], calling `trace` after every move.
pub fn solo_run_traced(
    chooser: &mut dyn Chooser,
    seed: u64,
    over: Over,
    trace: &mut dyn FnMut(&SoloStep),
) -> SoloRun {
    chooser.reset();
    let mut board = Board::empty_with(over);
    let mut run = SoloRun {
        seed,
        chain: 0,
        attack: 0,
        score: 0,
        fire_move: None,
        max_ms: 0.0,
        total_ms: 0.0,
        played: 0,
    };
    for k in 0..MAX_MOVES {
        let pairs = pairs_from(seed, k, VISIBLE_PAIRS);
        let view = View::solo(board, pairs.clone());
        let t0 = Instant::now();
        let at = chooser.choose(&view);
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        run.max_ms = run.max_ms.max(ms);
        run.total_ms += ms;
        run.played += 1;
        let chain = board.play(pairs[0], at).unwrap_or_default();
        trace(&SoloStep {
            number: k + 1,
            pairs: &pairs,
            at,
            board: &board,
            chain: &chain,
        });
        if chain.links >= 2 {
            run.chain = chain.links;
            run.attack = chain.attack();
            run.score = chain.tsu_score();
            run.fire_move = Some(k + 1);
            return run;
        }
        if board.is_dead() {
            return run;
        }
    }
    run
}
