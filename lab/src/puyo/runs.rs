//! One-player runs of the lab on seeded pair sequences: template
//! completion alone, and solo runs read for why they fell short. Pure: the
//! caller times and prints.

use std::time::Instant;

use serde::Serialize;

use super::failures::{diagnose, Diagnosis, FieldNote};
use ladderbot::games::puyo::board::{Board, Over};
use ladderbot::games::puyo::planner::{tidy_move, Chooser, TemplatePlanner};
use ladderbot::games::puyo::rules::{pairs_from, VISIBLE_PAIRS};
use ladderbot::games::puyo::solo::{solo_run_traced, SoloRun, SoloStep, MAX_MOVES};

/// The match that counts as a completed template.
pub const COMPLETE_AT: f64 = 0.95;

/// One completion run: moves until the best match reaches 0.95.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct CompletionRun {
    pub seed: u64,
    /// Moves played when the match first reached 0.95 (`None`: it never
    /// did within [`MAX_MOVES`], or the field died).
    pub moves: Option<u32>,
    /// Largest time one move took, ms.
    pub max_ms: f64,
    pub total_ms: f64,
    pub played: u32,
}

/// Plays template placement alone on pair sequence `seed` until the best
/// match reaches [`COMPLETE_AT`].
pub fn completion_run(planner: &TemplatePlanner, seed: u64, over: Over) -> CompletionRun {
    let mut board = Board::empty_with(over);
    let mut run = CompletionRun {
        seed,
        moves: None,
        max_ms: 0.0,
        total_ms: 0.0,
        played: 0,
    };
    for k in 0..MAX_MOVES {
        let pairs = pairs_from(seed, k, VISIBLE_PAIRS);
        let t0 = Instant::now();
        let at = planner
            .choose(&board, &pairs)
            .map_or_else(|| tidy_move(&board, pairs[0]), |c| c.at);
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        run.max_ms = run.max_ms.max(ms);
        run.total_ms += ms;
        run.played += 1;
        board.play(pairs[0], at);
        if board.is_dead() {
            return run;
        }
        if planner.best_match(&board) >= COMPLETE_AT {
            run.moves = Some(k + 1);
            return run;
        }
    }
    run
}

/// [`solo_run`], and the run read for why it fell short
/// ([`super::failures::diagnose`]).
pub fn solo_run_diagnosed(
    chooser: &mut dyn Chooser,
    seed: u64,
    over: Over,
    trace: &mut dyn FnMut(&SoloStep),
) -> (SoloRun, Diagnosis) {
    let mut notes = vec![];
    let run = solo_run_traced(chooser, seed, over, &mut |s| {
        // The firing move's field is the one before it.
        if s.chain.links < 2 {
            notes.push(FieldNote::of(s.board));
        }
        trace(s)
    });
    let d = diagnose(&notes, run.chain);
    (run, d)
}
