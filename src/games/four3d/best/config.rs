//! `best`'s settings: the parameters it declares (`agents --params`),
//! their defaults, and how a move's budget is read from them.

use super::eval::Weights;
use super::fitted::Model;
use super::nnue::Net;
use super::search::{Features, Knobs};
use crate::games::params::Decl;
use crate::games::AgentParams;

/// A fall of the best move's value (in evaluation units) that makes the
/// move unclear: [`BestConfig::fall`]'s default.
pub const FALL: i32 = 30;

/// The share of a move's time (or node budget) the solver may use before
/// the search takes over, in percent: [`BestConfig::solve_share`]'s
/// default.
pub const SOLVE_SHARE: u32 = 60;

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
pub(super) const HAND_WEIGHTS: [&str; 6] = ["line1", "line2", "good", "bad", "dead", "stacked"];

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
                "a network's JSON file (ladderbot-lab four3d train-net) instead of the shipped one",
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
