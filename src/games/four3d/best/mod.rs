//! `best` (issue 15): an alpha-beta searcher for Score Four.
//!
//! - [`threats`]: every side's threats (cells that would complete a line)
//!   for all 76 lines at once, with shifts.
//! - [`eval`]: the static evaluation: open lines, and threats by height
//!   parity (zugzwang), shadowing and stacking.
//! - [`tt`]: the lock-free transposition table, kept between moves.
//! - [`search`]: principal variation search with iterative deepening, the
//!   table, killers and history, and threats settled at every node.
//!
//! Time: the project's [`SearchClock`] (soft and hard limits from the
//! move's [`crate::search::Deadline`], polled every 1024 nodes). With
//! `threads` > 1, helper threads run the same iterative deepening one ply
//! ahead and share the table (Lazy SMP); the main thread's answer is
//! played.

pub mod endgames;
pub mod eval;
pub mod fitted;
pub mod nnue;
pub mod plain;
pub mod position;
pub mod search;
pub mod solve;
pub mod threats;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};

use std::time::Duration;

use self::eval::Weights;
use self::fitted::Model;
use self::nnue::Net;
use self::position::{root_moves, RootMoves, WON};
use self::search::{Features, Knobs, RootMove, Worker};
use self::tt::Table;
use super::{Board, Peg};
use crate::games::params::Decl;
use crate::games::AgentParams;
use crate::search::{Agent, Decision, Game, Limits, SearchClock};

/// `best`'s settings.
#[derive(Clone, Debug, PartialEq)]
pub struct BestConfig {
    pub weights: Weights,
    pub features: Features,
    /// The search's numbers that `tune` moves ([`Knobs`]).
    pub knobs: Knobs,
    /// The share of a move's time (or node budget) the solver may use
    /// before the search takes over, in percent ([`SOLVE_SHARE`]).
    pub solve_share: u32,
    /// A fall of the best move's value (in evaluation units) that makes
    /// the move unclear ([`FALL`]).
    pub fall: i32,
    /// Search threads (Lazy SMP): 1 is deterministic under a node budget.
    pub threads: usize,
    /// Deepest iteration, in plies.
    pub max_depth: i32,
    /// The table has 2^tt_bits entries of 16 bytes.
    pub tt_bits: u32,
    /// The fitted evaluation ([`fitted`]); `None` uses `weights`.
    pub model: Option<&'static Model>,
    /// The network added to the fitted evaluation ([`nnue`]; read only
    /// with a fitted evaluation).
    pub net: Option<&'static Net>,
    /// Try the exact solver first when at most this many cells are empty
    /// (0: never).
    pub solve_empties: i32,
    /// Start an iteration only when it is likely to finish, and spend
    /// less on clear moves (else: start one only in the first half of the
    /// soft limit, as `ab-v1`).
    pub predict_time: bool,
    /// When an iteration's value falls by more than [`FALL`], stretch the
    /// move's time towards the hard limit as when the best move changes
    /// (on a game clock, where the hard limit is several times the soft).
    pub fall_extends: bool,
}

impl Default for BestConfig {
    /// `best`: [`BestConfig::v4`] with the search's numbers tuned (issue
    /// 59: `tune` at 30 ms a move, accepted by SPRT at 30 ms and at 100 ms,
    /// docs/four3d-results.md): the network at 63 percent, two more plies
    /// of quiescence, the solver from 25 empty cells with 64 percent of
    /// the move, a fall of 24 makes a move unclear.
    fn default() -> Self {
        let v4 = BestConfig::v4();
        BestConfig {
            knobs: Knobs {
                net_percent: 63,
                quiesce_plies: 10,
                ..v4.knobs
            },
            solve_empties: 25,
            solve_share: 64,
            fall: 24,
            ..v4
        }
    }
}

impl BestConfig {
    /// `ab-v4`: `best` before its search's numbers were tuned (issue 59):
    /// [`BestConfig::v3`] with the shipped network ([`Net::shipped`]) added
    /// to the fitted evaluation. A baseline.
    pub fn v4() -> Self {
        BestConfig {
            net: Some(Net::shipped()),
            ..BestConfig::v3()
        }
    }

    /// `ab-v3`: `best` before its network (issue 59): [`BestConfig::v2`]
    /// with the time spent where the value falls. A baseline.
    pub fn v3() -> Self {
        BestConfig {
            fall_extends: true,
            ..BestConfig::v2()
        }
    }

    /// `ab-v2`: `best` as issue 32 left it (the fitted evaluation, the
    /// solver from 26 empty cells, the predicting time manager). A
    /// baseline: spelt out here so that changes to `best` leave it alone.
    pub fn v2() -> Self {
        BestConfig {
            weights: Weights::default(),
            features: Features::default(),
            knobs: Knobs::default(),
            solve_share: SOLVE_SHARE,
            fall: FALL,
            threads: 2,
            max_depth: 64,
            tt_bits: 21,
            model: Some(Model::shipped()),
            net: None,
            solve_empties: 26,
            predict_time: true,
            fall_extends: false,
        }
    }

    /// `ab-v1`: `best` as issue 15 left it (hand weights, no solver, the
    /// half-of-the-soft-limit start rule).
    pub fn v1() -> Self {
        BestConfig {
            model: None,
            solve_empties: 0,
            predict_time: false,
            features: Features {
                lmr: false,
                quiesce: false,
                ..Features::default()
            },
            ..BestConfig::v2()
        }
    }
}

/// The hand evaluation's weights, read only without a fitted evaluation.
const HAND_WEIGHTS: [&str; 6] = ["line1", "line2", "good", "bad", "dead", "stacked"];

impl BestConfig {
    /// The parameters of the agent `name` built over `self` (`best` over
    /// the default, `ab-v1` over [`BestConfig::v1`]): the evaluation's
    /// weights (tuned by `ladderbot tune`), the search's levers, threads,
    /// depth, table size, the fitted evaluation and its file, the solver's
    /// reach and the time manager.
    pub fn decl(&self, name: &str) -> Decl {
        let (w, f) = (&self.weights, &self.features);
        let weight =
            |d: Decl, key, v: i32, step, doc| d.int(key, v.max(0) as u64, 0..=10_000, step, doc);
        let mut d = Decl::new(name);
        d = weight(
            d,
            "line1",
            w.line1,
            1,
            "hand evaluation: an open line holding one bead",
        );
        d = weight(
            d,
            "line2",
            w.line2,
            2,
            "hand evaluation: an open line holding two beads",
        );
        d = weight(
            d,
            "good",
            w.good,
            10,
            "hand evaluation: a threat on a good (parity) height",
        );
        d = weight(
            d,
            "bad",
            w.bad,
            5,
            "hand evaluation: a threat on a bad height",
        );
        d = weight(d, "dead", w.dead, 1, "hand evaluation: a shadowed threat");
        d = weight(
            d,
            "stacked",
            w.stacked,
            20,
            "hand evaluation: two threats stacked",
        );
        d.flag("tt", f.tt, "the transposition table")
            .flag("ordering", f.ordering, "killer moves and history ordering")
            .flag("pvs", f.pvs, "principal variation search")
            .flag("extend", f.extend_forced, "a forced block uses no depth")
            .flag("lmr", f.lmr, "late move reductions")
            .flag("quiesce", f.quiesce, "the threat quiescence search")
            .int(
                "threads",
                self.threads as u64,
                1..=16,
                0,
                "search threads (Lazy SMP)",
            )
            .int(
                "depth",
                self.max_depth.max(1) as u64,
                1..=64,
                0,
                "deepest iteration, plies",
            )
            .int(
                "tt_bits",
                u64::from(self.tt_bits),
                10..=26,
                0,
                "the table holds 2^tt_bits entries",
            )
            .flag(
                "fitted",
                self.model.is_some(),
                "the fitted evaluation instead of the hand weights",
            )
            .file(
                "eval_file",
                "a fitted evaluation's JSON file instead of the shipped one",
            )
            .flag(
                "net",
                self.net.is_some(),
                "the shipped network (net-pegs-1.json) added to the fitted evaluation",
            )
            .file(
                "net_file",
                "a network's JSON file (four3d-lab train-net) instead of the shipped one",
            )
            .int(
                "solve",
                self.solve_empties.max(0) as u64,
                0..=64,
                2,
                "empty cells from which the exact solver is tried (0: never)",
            )
            .int(
                "solve_share",
                u64::from(self.solve_share),
                5..=100,
                5,
                "percent of a move's time the solver may use before the search takes over",
            )
            .int(
                "lmr_from",
                self.knobs.lmr_from as u64,
                1..=16,
                1,
                "with lmr: late moves are reduced from this move of the order",
            )
            .int(
                "lmr_deep_from",
                self.knobs.lmr_deep_from as u64,
                1..=16,
                1,
                "with lmr: reduced two plies from this move (depth 6 or more)",
            )
            .int(
                "quiesce_plies",
                self.knobs.quiesce_plies.max(0) as u64,
                0..=32,
                1,
                "with quiesce: plies of forcing threats the quiescence search follows",
            )
            .int(
                "net_percent",
                self.knobs.net_percent.max(0) as u64,
                0..=400,
                10,
                "the network's correction is added at this many percent",
            )
            .int(
                "fall",
                self.fall.max(0) as u64,
                0..=1000,
                5,
                "a fall of the best move's value (evaluation units) that makes it unclear",
            )
            .flag("timing", self.predict_time, "the predicting time manager")
            .flag(
                "fall_time",
                self.fall_extends,
                "more time (towards the hard limit) when the best move's value falls",
            )
            // The hand evaluation, which the fitted one replaces.
            .only_with(&HAND_WEIGHTS, "fitted", serde_json::Value::from(0))
            .only_with(&HAND_WEIGHTS, "eval_file", serde_json::Value::Null)
            .only_with(
                &["net", "net_file", "net_percent"],
                "fitted",
                serde_json::Value::from(1),
            )
            .only_with(
                &["lmr_from", "lmr_deep_from"],
                "lmr",
                serde_json::Value::from(1),
            )
            .only_with(&["quiesce_plies"], "quiesce", serde_json::Value::from(1))
    }

    /// The defaults changed by the profile's `agent_params` ([`BestConfig::decl`]).
    pub fn from_params(params: &AgentParams) -> Result<Self, String> {
        Self::from_params_over(params, BestConfig::default(), "best")
    }

    /// [`BestConfig::from_params`] over `base` for the agent `name`.
    pub fn from_params_over(
        params: &AgentParams,
        base: BestConfig,
        name: &str,
    ) -> Result<Self, String> {
        let decl = base.decl(name);
        let p = decl.read(params)?;
        let mut c = base;
        let w = &mut c.weights;
        for (key, slot) in [
            ("line1", &mut w.line1),
            ("line2", &mut w.line2),
            ("good", &mut w.good),
            ("bad", &mut w.bad),
            ("dead", &mut w.dead),
            ("stacked", &mut w.stacked),
        ] {
            if let Some(v) = p.u64(key) {
                *slot = v as i32;
            }
        }
        let f = &mut c.features;
        for (key, slot) in [
            ("tt", &mut f.tt),
            ("ordering", &mut f.ordering),
            ("pvs", &mut f.pvs),
            ("extend", &mut f.extend_forced),
            ("lmr", &mut f.lmr),
            ("quiesce", &mut f.quiesce),
        ] {
            if let Some(v) = p.flag(key) {
                *slot = v;
            }
        }
        if let Some(t) = p.u64("threads") {
            c.threads = t as usize;
        }
        if let Some(d) = p.u64("depth") {
            c.max_depth = d as i32;
        }
        if let Some(b) = p.u64("tt_bits") {
            c.tt_bits = b as u32;
        }
        if let Some(f) = p.flag("fitted") {
            c.model = f.then(Model::shipped);
        }
        if let Some(m) = p.file("eval_file", Model::from_json)? {
            c.model = Some(m);
        }
        if let Some(f) = p.flag("net") {
            c.net = f.then(Net::shipped);
        }
        if let Some(n) = p.file("net_file", Net::from_json)? {
            c.net = Some(n);
        }
        if let Some(e) = p.u64("solve") {
            c.solve_empties = e as i32;
        }
        if let Some(v) = p.u64("solve_share") {
            c.solve_share = v as u32;
        }
        if let Some(v) = p.u64("lmr_from") {
            c.knobs.lmr_from = v as usize;
        }
        if let Some(v) = p.u64("lmr_deep_from") {
            c.knobs.lmr_deep_from = v as usize;
        }
        if let Some(v) = p.u64("quiesce_plies") {
            c.knobs.quiesce_plies = v as i32;
        }
        if let Some(v) = p.u64("net_percent") {
            c.knobs.net_percent = v as i32;
        }
        if let Some(v) = p.u64("fall") {
            c.fall = v as i32;
        }
        if let Some(t) = p.flag("timing") {
            c.predict_time = t;
        }
        if let Some(t) = p.flag("fall_time") {
            c.fall_extends = t;
        }
        Ok(c)
    }
}

/// The `best` agent (see the module documentation).
pub struct Best {
    cfg: BestConfig,
    table: Table,
}

/// What one move's search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub cell: u8,
    pub value: i32,
    /// The deepest iteration that gave `cell` (complete or not).
    pub depth: i32,
    pub nodes: u64,
}

/// How [`deepen`] spends its clock: `predict` starts an iteration only
/// when it is likely to finish; `fall_extends` stretches the move when the
/// value falls (a helper thread does neither: the main thread decides).
#[derive(Clone, Copy, Debug, Default)]
struct Timing {
    predict: bool,
    fall_extends: bool,
    /// The fall that makes a move unclear ([`BestConfig::fall`]).
    fall: i32,
}

/// Iterative deepening from `first_depth` over `cells` (the root's moves,
/// in order) until the clock, `max_depth`, or a proven value stops it.
///
/// With `predict`, an iteration starts only when it is likely to finish
/// in the time it may take: the last iteration's time times the growth
/// from the one before (the effective branching factor, kept within 1.2 to
/// 4), against a share of the budget that is smaller for a clear move (the
/// same best move for four iterations and a value that did not fall)
/// than for an unclear one (the best move just changed, or its value fell
/// by more than [`FALL`]). Without it, an iteration starts only in the
/// first half of the soft limit ([`SearchClock::may_start_iteration`]).
fn deepen(
    w: &mut Worker,
    me: u64,
    opp: u64,
    cells: &[u8],
    first_depth: i32,
    max_depth: i32,
    timing: Timing,
) -> Option<Found> {
    let Timing {
        predict,
        fall_extends,
        fall,
    } = timing;
    let empties = (64 - (me | opp).count_ones()) as i32;
    let mut moves: Vec<RootMove> = cells
        .iter()
        .map(|&cell| RootMove { cell, value: 0 })
        .collect();
    let mut best: Option<Found> = None;
    let mut depth = first_depth.min(max_depth);
    // Times of the last two complete iterations, and how settled the move is.
    let (mut last, mut before): (Option<Duration>, Option<Duration>) = (None, None);
    let (mut stable, mut unclear) = (0, false);
    while depth <= max_depth {
        if best.is_some() {
            if !predict {
                if !w.clock.may_start_iteration(w.nodes) {
                    break;
                }
            } else if !likely_to_finish(&mut w.clock, w.nodes, last, before, (stable, unclear)) {
                break;
            }
        }
        let started = w.clock.elapsed();
        let Some(it) = w.root(me, opp, &mut moves, depth) else {
            break;
        };
        let changed = best.is_some_and(|b| b.cell != it.cell);
        let fell = best.is_some_and(|b| it.value < b.value - fall);
        best = Some(Found {
            cell: it.cell,
            value: it.value,
            depth,
            nodes: w.nodes,
        });
        if !it.complete {
            break;
        }
        if changed || (fell && fall_extends) {
            w.clock.unstable();
        }
        stable = if changed { 0 } else { stable + 1 };
        unclear = changed || fell;
        if let (Some(t0), Some(t1)) = (started, w.clock.elapsed()) {
            before = last;
            last = Some(t1.saturating_sub(t0));
        }
        // A proven result, or a search that reached the end of every line.
        if it.value.abs() >= WON || depth >= empties {
            break;
        }
        depth += 1;
    }
    best
}

/// The share of the budget a clear move's iterations must fit in.
pub const CLEAR_SHARE: f64 = 0.7;

/// A fall of the best move's value (in evaluation units) that makes the
/// move unclear: [`BestConfig::fall`]'s default.
pub const FALL: i32 = 30;

/// Whether the next iteration is likely to finish in the share of the
/// budget this move deserves (see [`deepen`]); `settled` is how many
/// iterations in a row gave the same best move, and whether the last one
/// was unclear.
fn likely_to_finish(
    clock: &mut SearchClock,
    nodes: u64,
    last: Option<Duration>,
    before: Option<Duration>,
    settled: (u32, bool),
) -> bool {
    let (stable, unclear) = settled;
    // The node limit, the stop flag and the hard limit first.
    if !clock.may_start_iteration_at(nodes, 1.0) {
        return false;
    }
    let (Some(budget), Some(elapsed), Some(last)) = (clock.budget(), clock.elapsed(), last) else {
        return true;
    };
    // An iteration the table answered at once says nothing of the growth.
    let growth = match before {
        Some(b) if b > Duration::from_millis(1) => {
            (last.as_secs_f64() / b.as_secs_f64()).clamp(1.5, 4.0)
        }
        _ => 2.5,
    };
    let share = if unclear {
        1.0
    } else if stable >= 4 {
        CLEAR_SHARE
    } else {
        0.9
    };
    // Early in the budget an iteration starts anyway: even when it does
    // not finish, the moves it searched first (the best so far first) are
    // searched one ply deeper.
    elapsed < budget.mul_f64(EARLY_SHARE) || elapsed + last.mul_f64(growth) <= budget.mul_f64(share)
}

/// Before this share of the budget has passed, an iteration always starts.
pub const EARLY_SHARE: f64 = 0.4;

/// Runs `main` on this thread and `helpers` helper threads (`helper(i,
/// halt)`, which returns its node count) beside it; the helpers are told
/// to halt when `main` returns. Gives `main`'s result and the helpers'
/// nodes.
fn with_helpers<R: Send>(
    helpers: usize,
    main: impl FnOnce() -> R,
    helper: impl Fn(usize, &AtomicBool) -> u64 + Sync,
) -> (R, u64) {
    if helpers == 0 {
        return (main(), 0);
    }
    let halt = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..helpers)
            .map(|i| {
                let (halt, helper) = (&halt, &helper);
                scope.spawn(move || helper(i, halt))
            })
            .collect();
        let r = main();
        halt.store(true, Ordering::Relaxed);
        let nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (r, nodes)
    })
}

impl Best {
    pub fn new(cfg: BestConfig) -> Self {
        Best {
            table: Table::new(cfg.tt_bits),
            cfg,
        }
    }

    /// Forgets the transposition table.
    pub fn clear_table(&self) {
        self.table.clear();
    }

    /// The settings.
    pub fn config(&self) -> &BestConfig {
        &self.cfg
    }

    /// Searches the position (`me` to move, `cells` its root moves in
    /// order, see [`search::root_moves`]) within `limits`: the exact
    /// solver first when few enough cells are empty (with up to
    /// [`SOLVE_SHARE`] of the time, or of a node budget), then, if it did
    /// not finish, the iterative deepening in the rest.
    pub fn search(
        &self,
        me: u64,
        opp: u64,
        cells: &[u8],
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Found {
        // A node budget is searched on one thread: helpers count nodes of
        // their own until the main thread is done, so with them the budget
        // would be overrun by however far they got (and the move would
        // depend on the machine's timing, not on the budget).
        let node_budget = limits.playouts.is_some_and(|p| p != u64::MAX);
        let helpers = if node_budget {
            0
        } else {
            self.cfg.threads.max(1) - 1
        };
        let helper_limits = Limits {
            playouts: Some(u64::MAX),
            deadline: limits.deadline,
        };
        let empties = 64 - (me | opp).count_ones() as i32;
        let mut spent = 0u64;
        let share = f64::from(self.cfg.solve_share) / 100.0;
        if empties <= self.cfg.solve_empties {
            let (solved, nodes) = solve::RootSolve {
                table: &self.table,
                helpers,
                limits: &share_of(limits, share),
                helper_limits: &share_of(&helper_limits, share),
                stop,
                levers: solve::Levers::default(),
            }
            .solve(me, opp, cells);
            spent = nodes;
            if let Some(s) = solved {
                return Found {
                    cell: s.cell,
                    value: s.value,
                    depth: empties,
                    nodes: spent,
                };
            }
        }
        let mut limits = *limits;
        if node_budget {
            limits.playouts = limits.playouts.map(|p| p.saturating_sub(spent).max(1));
        }
        let clock = SearchClock::new(&limits, stop);
        let (model, net) = (self.cfg.model, self.cfg.net);
        let mut main = Worker::new(self.cfg.weights, self.cfg.features, &self.table, clock)
            .with_knobs(self.cfg.knobs)
            .with_model(model)
            .with_net(net);
        let max_depth = self.cfg.max_depth;
        let predict = self.cfg.predict_time;
        let (found, helper_nodes) = with_helpers(
            helpers,
            || {
                let timing = Timing {
                    predict,
                    fall_extends: self.cfg.fall_extends,
                    fall: self.cfg.fall,
                };
                deepen(&mut main, me, opp, cells, 1, max_depth, timing)
            },
            |i, halt| {
                let clock = SearchClock::new(&helper_limits, halt);
                let cfg = &self.cfg;
                let mut w = Worker::new(cfg.weights, cfg.features, &self.table, clock)
                    .with_knobs(cfg.knobs)
                    .with_model(model)
                    .with_net(net);
                // Helpers start deeper, and each sees the root moves in a
                // rotated order, so their trees differ.
                let mut order = cells.to_vec();
                order.rotate_left((i + 1) % cells.len());
                deepen(
                    &mut w,
                    me,
                    opp,
                    &order,
                    2 + (i as i32 % 2),
                    max_depth,
                    Timing::default(),
                );
                w.nodes
            },
        );
        let mut f = found.unwrap_or(Found {
            cell: cells[0],
            value: 0,
            depth: 0,
            nodes: main.nodes,
        });
        f.nodes = spent + main.nodes + helper_nodes;
        f
    }
}

/// The share of a move's time (or node budget) the solver may use before
/// the search takes over, in percent: [`BestConfig::solve_share`]'s
/// default.
pub const SOLVE_SHARE: u32 = 60;

/// `limits` cut to `share` of their time (soft and hard) and nodes.
fn share_of(limits: &Limits, share: f64) -> Limits {
    let deadline = limits.deadline.map(|d| {
        let soft = d.soft.min(d.hard);
        let cut = d.start + (soft - d.start).mul_f64(share);
        crate::search::Deadline {
            start: d.start,
            soft: cut,
            hard: cut.min(d.hard),
        }
    });
    Limits {
        playouts: limits.playouts.map(|p| {
            if p == u64::MAX {
                p
            } else {
                (p as f64 * share) as u64
            }
        }),
        deadline,
    }
}

/// A value for the mover in 0..=1 from a search value.
pub fn share(v: i32) -> f64 {
    if v >= WON {
        1.0
    } else if v <= -WON {
        0.0
    } else {
        1.0 / (1.0 + (-(v as f64) / 200.0).exp())
    }
}

impl Agent<Board> for Best {
    fn name(&self) -> &str {
        "best"
    }
    fn work_unit(&self) -> &'static str {
        "nodes"
    }

    fn ponders(&self) -> bool {
        true
    }

    /// Searches the position after our move (the opponent to move) into
    /// the table, which the next search starts from: the expected reply
    /// first, as the table orders it, and the others behind it. A forced
    /// reply is played and our next position searched instead.
    fn ponder(
        &mut self,
        pos: &Board,
        ours: &Peg,
        limits: &Limits,
        stop: &std::sync::Arc<AtomicBool>,
    ) -> u64 {
        let mut after = *pos;
        if !after.is_legal(*ours) {
            return 0;
        }
        after.play(*ours);
        for _ in 0..2 {
            if after.outcome().is_some() {
                return 0;
            }
            let s = after.to_move();
            let (me, opp) = (after.stones(s), after.stones(1 - s));
            match root_moves(me, opp) {
                RootMoves::Search(cells) => {
                    return self.search(me, opp, &cells, limits, stop).nodes.max(1);
                }
                RootMoves::Only(c) if after.to_move() != pos.to_move() => {
                    after.play(Peg(c & 15));
                }
                _ => return 0,
            }
        }
        0
    }

    fn select(&mut self, pos: &Board, limits: &Limits, stop: &AtomicBool) -> Decision<Peg> {
        let s = pos.to_move();
        let (me, opp) = (pos.stones(s), pos.stones(1 - s));
        let peg = |c: u8| Peg(c & 15);
        match root_moves(me, opp) {
            RootMoves::Only(c) => Decision {
                mv: peg(c),
                playouts: 0,
                value: None,
            },
            RootMoves::Lost(c) => Decision {
                mv: peg(c),
                playouts: 0,
                value: Some(0.0),
            },
            RootMoves::Search(cells) => {
                let f = self.search(me, opp, &cells, limits, stop);
                tracing::debug!(
                    ply = pos.ply(),
                    depth = f.depth,
                    value = f.value,
                    nodes = f.nodes,
                    cell = f.cell,
                    "best searched"
                );
                Decision {
                    mv: peg(f.cell),
                    playouts: f.nodes,
                    value: Some(share(f.value)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_thread(params: &[(&str, u64)]) -> Best {
        let mut p = AgentParams::new();
        p.insert("threads".into(), 1.into());
        p.insert("tt_bits".into(), 14.into());
        for (k, v) in params {
            p.insert((*k).into(), (*v).into());
        }
        Best::new(BestConfig::from_params(&p).unwrap())
    }

    /// Issue 57: `best` declared the hand weights as its own although the
    /// fitted evaluation never reads them. They are read exactly where the
    /// declaration says: zeroed, they change what a fixed-node search finds
    /// with `fitted=0` and nothing with the fitted evaluation.
    #[test]
    fn the_hand_weights_are_read_only_where_the_declaration_says() {
        use rand::{Rng, SeedableRng};
        let stop = AtomicBool::new(false);
        let decl = BestConfig::default().decl("best");
        let none = AgentParams::new();
        let mut hand = AgentParams::new();
        hand.insert("fitted".into(), 0.into());
        for w in HAND_WEIGHTS {
            assert!(decl.applies(w, &none).is_err(), "{w}");
            assert!(decl.applies(w, &hand).is_ok(), "{w}");
        }
        let zeroed = |fitted: u64| {
            let mut p: Vec<(&str, u64)> = HAND_WEIGHTS.iter().map(|w| (*w, 0)).collect();
            p.push(("fitted", fitted));
            p.push(("solve", 0));
            one_thread(&p)
        };
        let plain = |fitted: u64| one_thread(&[("fitted", fitted), ("solve", 0)]);
        let (mut same_fitted, mut differ_hand) = (true, 0);
        // Positions of 8 to 20 stones from a fixed sequence of drops.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(57);
        for _ in 0..12 {
            let mut b = Board::new();
            for _ in 0..rng.gen_range(8..20) {
                let legal = b.legal_moves();
                b.play(legal[rng.gen_range(0..legal.len())]);
                if b.outcome().is_some() {
                    break;
                }
            }
            if b.outcome().is_some() {
                continue;
            }
            let s = b.to_move();
            let (me, opp) = (b.stones(s), b.stones(1 - s));
            let RootMoves::Search(cells) = root_moves(me, opp) else {
                continue;
            };
            let find = |a: Best| a.search(me, opp, &cells, &Limits::playouts(3_000), &stop);
            let (f1, z1) = (find(plain(1)), find(zeroed(1)));
            same_fitted &= (f1.cell, f1.value) == (z1.cell, z1.value);
            let (f0, z0) = (find(plain(0)), find(zeroed(0)));
            differ_hand += usize::from((f0.cell, f0.value) != (z0.cell, z0.value));
        }
        assert!(same_fitted, "the fitted evaluation read a hand weight");
        assert!(differ_hand > 0, "the hand evaluation ignored its weights");
    }

    #[test]
    fn parameters_are_validated() {
        assert!(BestConfig::from_params(&AgentParams::new()).is_ok());
        for bad in [
            r#"{"tt": 2}"#,
            r#"{"threads": 0}"#,
            r#"{"nope": 1}"#,
            r#"{"good": -1}"#,
        ] {
            let p: AgentParams = serde_json::from_str(bad).unwrap();
            assert!(BestConfig::from_params(&p).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_set_stop_flag_still_gives_a_searched_legal_move_within_one_poll() {
        // The deadline is polled every POLL_EVERY nodes: with the flag set
        // before the search, it ends at the first poll, after the first
        // iteration (which always completes) at the latest.
        let stop = AtomicBool::new(true);
        let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10)]).unwrap();
        let d = one_thread(&[]).select(&pos, &Limits::playouts(u64::MAX), &stop);
        assert!(pos.is_legal(d.mv));
        assert!(
            d.playouts <= SearchClock::POLL_EVERY,
            "{} nodes",
            d.playouts
        );
    }

    #[test]
    fn an_expired_deadline_ends_every_thread_at_its_first_poll() {
        // Counted in nodes, not timed: with the deadline already passed,
        // the main thread finishes its first iteration (depth 1) and
        // starts no other; each helper (depth 2 or 3, more than
        // POLL_EVERY nodes from this position) stops at its first look at
        // the clock. A search that looked at the clock only between
        // iterations would run a helper's whole iteration.
        use crate::search::Deadline;
        use std::time::{Duration, Instant};
        let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10), Peg(6), Peg(9), Peg(15)]).unwrap();
        let stop = AtomicBool::new(false);
        for threads in [1, 2, 3] {
            let mut agent = Best::new(BestConfig {
                threads,
                tt_bits: 14,
                ..BestConfig::default()
            });
            let past = Deadline::per_move(Instant::now(), Duration::ZERO, Duration::ZERO);
            let d = agent.select(&pos, &Limits::deadline(past), &stop);
            assert!(pos.is_legal(d.mv));
            assert!(
                d.playouts <= threads as u64 * SearchClock::POLL_EVERY,
                "{threads} threads: {} nodes",
                d.playouts
            );
        }
    }

    #[test]
    fn a_node_budget_is_kept_and_the_same_budget_gives_the_same_move() {
        let stop = AtomicBool::new(false);
        let pos = Board::from_pegs(&[Peg(0), Peg(5), Peg(10), Peg(6)]).unwrap();
        let a = one_thread(&[]).select(&pos, &Limits::playouts(50_000), &stop);
        let b = one_thread(&[]).select(&pos, &Limits::playouts(50_000), &stop);
        assert_eq!(a, b);
        assert!(a.playouts <= 50_000, "{}", a.playouts);
        // With more threads configured, a node budget is still one thread's:
        // the same move, the same count.
        let two = Best::new(BestConfig {
            threads: 2,
            tt_bits: 14,
            ..BestConfig::default()
        })
        .select(&pos, &Limits::playouts(50_000), &stop);
        assert_eq!(two, a);
    }

    #[test]
    fn ab_v1_keeps_issue_15s_search_and_best_adds_the_new_levers() {
        let v1 = BestConfig::v1();
        assert_eq!(v1.model, None);
        assert_eq!(v1.solve_empties, 0);
        assert!(!v1.predict_time && !v1.features.lmr && !v1.features.quiesce);
        assert_eq!(v1.weights, Weights::default());
        let (tt, ordering, pvs, extend) = (true, true, true, true);
        assert_eq!(
            (
                v1.features.tt,
                v1.features.ordering,
                v1.features.pvs,
                v1.features.extend_forced
            ),
            (tt, ordering, pvs, extend)
        );
        let best = BestConfig::default();
        assert!(best.model.is_some() && best.solve_empties > 0 && best.predict_time);
        assert!(best.features.lmr && best.features.quiesce);
        // `best` is `ab-v4` with the tuned numbers, `ab-v4` is `ab-v3` with
        // the shipped network; `net` 0 gives `ab-v3`, and `ab-v3` is
        // `ab-v2` with `fall_time`.
        assert!(best.net.is_some() && BestConfig::v3().net.is_none());
        let mut p = AgentParams::new();
        for (k, v) in [
            ("net_percent", 100),
            ("quiesce_plies", 8),
            ("solve", 26),
            ("solve_share", 60),
            ("fall", 30),
        ] {
            p.insert(k.into(), v.into());
        }
        assert_eq!(BestConfig::from_params(&p).unwrap(), BestConfig::v4());
        p.insert("net".into(), 0.into());
        assert_eq!(BestConfig::from_params(&p).unwrap(), BestConfig::v3());
        p.insert("fall_time".into(), 0.into());
        assert_eq!(BestConfig::from_params(&p).unwrap(), BestConfig::v2());
        // Every lever can be switched off by name, which gives `ab-v1`.
        let mut p = AgentParams::new();
        for k in [
            "net",
            "fitted",
            "solve",
            "timing",
            "fall_time",
            "lmr",
            "quiesce",
        ] {
            p.insert(k.into(), 0.into());
        }
        // and the tuned numbers back at their old values.
        for (k, v) in [
            ("solve_share", 60),
            ("fall", 30),
            ("net_percent", 100),
            ("quiesce_plies", 8),
        ] {
            p.insert(k.into(), v.into());
        }
        assert_eq!(BestConfig::from_params(&p).unwrap(), v1);
    }

    /// Issue 59's search numbers (`tune`'s parameters): each is read, and
    /// at the edge where it turns its lever off the search is exactly the
    /// search with the lever off (the same moves, the same node counts).
    #[test]
    fn the_search_numbers_are_read_and_their_edges_are_the_levers_off() {
        assert_eq!(
            BestConfig::from_params(&AgentParams::new()).unwrap(),
            BestConfig::default()
        );
        let stop = AtomicBool::new(false);
        let positions = [
            Board::from_pegs(&[Peg(0), Peg(5), Peg(10), Peg(6)]).unwrap(),
            Board::from_pegs(&[Peg(5), Peg(6), Peg(9), Peg(10), Peg(5), Peg(0), Peg(15)]).unwrap(),
            Board::from_pegs(&[
                Peg(3),
                Peg(3),
                Peg(12),
                Peg(6),
                Peg(9),
                Peg(6),
                Peg(5),
                Peg(10),
            ])
            .unwrap(),
        ];
        // To a fixed depth, so that the node counts show the tree searched.
        let limits = Limits::playouts(20_000_000);
        let run = |params: &[(&str, u64)]| -> Vec<Decision<Peg>> {
            let mut params = params.to_vec();
            params.push(("depth", 7));
            let mut agent = one_thread(&params);
            positions
                .iter()
                .map(|pos| {
                    agent.clear_table();
                    agent.select(pos, &limits, &stop)
                })
                .collect()
        };
        let plain = run(&[]);
        // The network at 0 percent is no network; its default is `best`.
        assert_eq!(run(&[("net_percent", 0)]), run(&[("net", 0)]));
        let net_percent = BestConfig::default().knobs.net_percent as u64;
        assert_eq!(run(&[("net_percent", net_percent)]), plain);
        assert_ne!(run(&[("net_percent", 300)]), plain);
        // Reductions from the 16th move (the last) are no reductions.
        assert_eq!(run(&[("lmr_from", 16)]), run(&[("lmr", 0)]));
        assert_ne!(run(&[("lmr_from", 1)]), plain);
        assert_ne!(run(&[("lmr_deep_from", 3)]), plain);
        assert_ne!(run(&[("quiesce_plies", 1)]), plain);
        // They are refused where they are not read (tune relies on it).
        let decl = BestConfig::v1().decl("ab-v1");
        for k in ["lmr_from", "lmr_deep_from", "quiesce_plies", "net_percent"] {
            assert!(decl.applies(k, &AgentParams::new()).is_err(), "{k}");
            assert!(BestConfig::default()
                .decl("best")
                .applies(k, &AgentParams::new())
                .is_ok());
        }
        let mut p = AgentParams::new();
        p.insert("solve_share".into(), 35.into());
        p.insert("fall".into(), 55.into());
        let c = BestConfig::from_params(&p).unwrap();
        assert_eq!((c.solve_share, c.fall), (35, 55));
    }

    #[test]
    fn a_solvable_position_gets_the_solvers_exact_move() {
        use super::endgames::shipped_endgames;
        use super::plain::plain_solve;
        let stop = AtomicBool::new(false);
        let mut checked = 0;
        for e in shipped_endgames().iter().filter(|e| e.empties() <= 12) {
            let b = e.board();
            let s = b.to_move();
            let (me, opp) = (b.stones(s), b.stones(1 - s));
            let RootMoves::Search(cells) = root_moves(me, opp) else {
                continue;
            };
            let agent = one_thread(&[]);
            let f = agent.search(me, opp, &cells, &Limits::playouts(10_000_000), &stop);
            assert_eq!(f.value, e.value, "{}", e.to_line());
            assert_eq!(f.depth, e.empties() as i32, "solved, not searched");
            // The move keeps the value: the position after it, solved by
            // the plain search, is worth the same to the opponent.
            let mut n = 0;
            let after = -plain_solve(opp, me | 1 << f.cell, &mut n);
            // A win at ply p from the root is one ply nearer from the child.
            assert_eq!(after, e.value + e.value.signum(), "{}", e.to_line());
            checked += 1;
        }
        assert!(checked >= 10, "{checked}");
    }

    #[test]
    fn an_iteration_starts_only_when_it_is_likely_to_finish() {
        use crate::search::Deadline;
        use std::time::Instant;
        let stop = AtomicBool::new(false);
        let ms = Duration::from_millis;
        // Whether the next iteration starts: the last two iterations' times,
        // (iterations with the same best move, unclear).
        let starts = |clock: &mut SearchClock, times: (u64, u64), settled| {
            let (last, before) = (Some(ms(times.0)), Some(ms(times.1)));
            likely_to_finish(clock, 0, last, before, settled)
        };
        // A move that started 35 ms ago with an 80 ms budget.
        let start = Instant::now() - ms(35);
        let limits = Limits::deadline(Deadline::per_move(start, ms(80), ms(0)));
        let mut clock = SearchClock::new(&limits, &stop);
        // The last iteration took 10 ms, the one before 4: the next should
        // take 25 ms and end near 60 ms: it starts for an unclear move
        // (the whole budget) and a fairly clear one (0.9 of it).
        assert!(starts(&mut clock, (10, 4), (0, true)));
        assert!(starts(&mut clock, (10, 4), (1, false)));
        // The last took 20 ms after 5: the next would take 80 ms.
        assert!(!starts(&mut clock, (20, 5), (0, true)));
        // Early in the budget an iteration starts anyway.
        let early = Limits::deadline(Deadline::per_move(Instant::now(), ms(80), ms(0)));
        let mut clock = SearchClock::new(&early, &stop);
        assert!(starts(&mut clock, (20, 5), (0, true)));
        // A clear move stops sooner than an unclear one.
        let start = Instant::now() - ms(40);
        let limits = Limits::deadline(Deadline::per_move(start, ms(80), ms(0)));
        let mut clock = SearchClock::new(&limits, &stop);
        // The next would end near 60 ms: past a clear move's 56.
        assert!(starts(&mut clock, (10, 5), (0, true)));
        assert!(!starts(&mut clock, (10, 5), (5, false)));
        assert!(!starts(&mut clock, (60, 15), (0, true)));
        // Not past the limit.
        let over = Instant::now() - ms(90);
        let limits = Limits::deadline(Deadline::per_move(over, ms(80), ms(0)));
        let mut clock = SearchClock::new(&limits, &stop);
        assert!(!starts(&mut clock, (10, 5), (0, true)));
    }

    #[test]
    fn it_plays_the_drop_that_makes_two_threats_at_once() {
        // Seat 0 holds cells 1, 2 (x-line y = 0) and 4, 8 (y-line x = 0):
        // dropping on cell 0 threatens cells 3 and 12 at once, a win in
        // three plies; seat 1 (5, 10, 7, 13) threatens nothing.
        let pos = Board::from_pegs(&[
            Peg(1),
            Peg(5),
            Peg(2),
            Peg(10),
            Peg(4),
            Peg(7),
            Peg(8),
            Peg(13),
        ])
        .unwrap();
        assert_eq!(pos.to_move(), 0);
        let stop = AtomicBool::new(false);
        let d = one_thread(&[("depth", 4)]).select(&pos, &Limits::playouts(u64::MAX), &stop);
        assert_eq!(d.mv, Peg(0));
        assert_eq!(d.value, Some(1.0));
    }

    #[test]
    fn a_ponder_fills_the_table_the_next_move_searches_from() {
        let mut pos = Board::new();
        for c in [0u8, 15, 3, 12] {
            pos.play(Peg(c));
        }
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        // `ab-v4`'s numbers, which this position and budget were chosen
        // for: with the tuned ones both searches reach depth 7 here (at
        // 20,000 and at 40,000 nodes), so the depth says nothing of the table.
        let fixed = [
            ("tt_bits", 20),
            ("net_percent", 100),
            ("quiesce_plies", 8),
            ("solve", 26),
            ("solve_share", 60),
            ("fall", 30),
        ];
        let (mut pondered, mut plain) = (one_thread(&fixed), one_thread(&fixed));
        let budget = Limits::playouts(20_000);
        let ours = pondered.select(&pos, &budget, &stop).mv;
        assert_eq!(plain.select(&pos, &budget, &stop).mv, ours);
        let work = pondered.ponder(&pos, &ours, &Limits::playouts(400_000), &stop);
        assert!(work > 300_000, "{work}");
        // The opponent answers as a third program would.
        let mut next = pos;
        next.play(ours);
        next.play(one_thread(&fixed).select(&next, &budget, &stop).mv);
        let s = next.to_move();
        let (me, opp) = (next.stones(s), next.stones(1 - s));
        let RootMoves::Search(cells) = root_moves(me, opp) else {
            panic!("a position with a search");
        };
        let a = pondered.search(me, opp, &cells, &budget, &stop);
        let b = plain.search(me, opp, &cells, &budget, &stop);
        // The same nodes go deeper from the pondered table.
        assert!(a.depth > b.depth, "{a:?} vs {b:?}");
        // A raised flag ends a ponder at once.
        stop.store(true, Ordering::SeqCst);
        let start = std::time::Instant::now();
        pondered.ponder(&next, &Peg(a.cell & 15), &Limits::playouts(u64::MAX), &stop);
        assert!(start.elapsed() < Duration::from_millis(500));
    }
}
