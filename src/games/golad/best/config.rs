//! `best`'s settings ([`BestConfig`]): the evaluation, the widths of the
//! search at each ply, its depth, threads and time rule, the candidate
//! generator of each ply ([`Gen`]), the shipped configurations (`best`,
//! `ab-v1`, `ab-v2`), and the agent parameters that change them.

use crate::games::golad::propose::Pairwise;
use crate::games::golad::territory::{Territory, Width};
use crate::games::golad::value::ValueModel;
use crate::games::params::Decl;
use crate::games::AgentParams;

/// `best`'s settings.
#[derive(Clone, Debug, PartialEq)]
pub struct BestConfig {
    /// Flood decay per step.
    pub decay: f64,
    /// Pass generations after the move's own before the evaluation.
    pub look: usize,
    /// Whether the side to move next takes the cells reached at once.
    pub tempo: bool,
    /// Candidates searched at each ply (the last entry repeats deeper).
    pub widths: Vec<usize>,
    pub width: Width,
    /// The root's candidates (scored once per move, so they can be many).
    pub root_width: Width,
    /// The opponent's replies to the root's moves (one node per root move,
    /// so they can be wider than the nodes below).
    pub reply_width: Width,
    /// The root's best births improved part by part
    /// ([`improve_birth`](crate::games::golad::territory::improve_birth),
    /// two passes) before the search (0: none).
    pub improve: usize,
    /// The candidates of the nodes just above the leaves (their best value
    /// is all that counts there).
    pub leaf_width: Width,
    /// Deepest depth (plies) to search.
    pub max_depth: usize,
    /// Threads searching the root's moves (1: deterministic; 2 by default,
    /// for the two cores a ladder machine usually has).
    pub threads: usize,
    /// Whether the nodes just above the leaves stop at the first candidate
    /// that cuts (killer kill first) instead of scoring them all (the same
    /// values, less work; off only to measure it).
    pub leaf_cut: bool,
    /// The learned value model scoring the leaves (`None`: the territory
    /// share alone, as `ab-v1`).
    pub value: Option<&'static ValueModel>,
    /// The share of the soft budget after which no new depth starts (a
    /// depth cut short still counts when it finished the previous best
    /// move): 1/2 for `ab-v1`.
    pub new_depth: f64,
    /// When a depth changes the best move, the soft deadline moves this
    /// share of the way to the hard one (Stockfish's instability; 0: never).
    pub extend: f64,
    /// Whether the flood sums integer weights ([`Territory::integer`]: the
    /// same values to 1e-5, 1.6x the floods per second) instead of `f64`
    /// ones (`ab-v1`, `ab-v2`).
    pub integer_flood: bool,
    /// Whether a node's scored candidates are kept for the next depth of
    /// the same move (the deeper search finds them there instead of
    /// scoring them again; shared by the threads).
    pub keep_nodes: bool,
    /// The pairwise proposer's widths ([`Pairwise`]; its `keep` is set by
    /// `pw_root`, `pw_reply`).
    pub pairwise: Pairwise,
    /// Births the pairwise proposer keeps at the root and at the replies
    /// to the root's moves (0: today's generator,
    /// [`candidates`](crate::games::golad::territory::candidates), with the
    /// widths there; deeper, always today's generator).
    pub pw_root: usize,
    pub pw_reply: usize,
}

/// How a node's candidates are generated: today's generator with its
/// widths, or the pairwise proposer
/// ([`propose`](crate::games::golad::propose)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gen {
    Width(Width),
    Pairwise(Pairwise),
}

impl Default for BestConfig {
    fn default() -> Self {
        BestConfig {
            decay: 0.5,
            look: 1,
            tempo: true,
            widths: vec![60, 24, 8],
            width: Width {
                births: 8,
                sacrifices: 6,
            },
            leaf_width: Width {
                births: 8,
                sacrifices: 6,
            },
            root_width: Width {
                births: 16,
                sacrifices: 12,
            },
            reply_width: Width {
                births: 12,
                sacrifices: 10,
            },
            improve: 12,
            max_depth: 6,
            threads: 2,
            leaf_cut: true,
            value: Some(ValueModel::shipped()),
            new_depth: 0.9,
            extend: 0.5,
            integer_flood: true,
            keep_nodes: true,
            pairwise: Pairwise::default(),
            pw_root: 0,
            pw_reply: 0,
        }
    }
}

impl BestConfig {
    /// The territory evaluation this configuration scores with.
    pub fn territory(&self) -> Territory {
        if self.integer_flood {
            Territory::integer(self.decay)
        } else {
            Territory::new(self.decay)
        }
    }

    /// The pairwise proposer keeping `keep` births, or today's generator
    /// with `width` when `keep` is 0.
    fn gen(&self, keep: usize, width: Width) -> Gen {
        if keep > 0 {
            Gen::Pairwise(Pairwise {
                keep,
                ..self.pairwise
            })
        } else {
            Gen::Width(width)
        }
    }

    /// How the root's candidates are generated.
    pub fn root_gen(&self) -> Gen {
        self.gen(self.pw_root, self.root_width)
    }

    /// How the candidates of a node `ply` (>= 1) plies below the root with
    /// `depth` plies left are generated.
    pub fn node_gen(&self, ply: usize, depth: usize) -> Gen {
        if ply == 1 {
            self.gen(self.pw_reply, self.reply_width)
        } else if depth <= 1 {
            Gen::Width(self.leaf_width)
        } else {
            Gen::Width(self.width)
        }
    }

    /// How many candidates a node `ply` plies below the root searches (the
    /// last of `widths` repeats deeper).
    pub fn searched_width(&self, ply: usize) -> usize {
        let w = &self.widths;
        w.get(ply)
            .or(w.last())
            .copied()
            .unwrap_or(usize::MAX)
            .max(1)
    }

    /// `ab-v1`: `best` of issue 10, scoring leaves by the territory share
    /// alone (no value model), no new depth after half the soft budget.
    pub fn v1() -> Self {
        BestConfig {
            value: None,
            new_depth: 0.5,
            ..BestConfig::v2()
        }
    }

    /// `ab-v2`: `best` of issue 33 (the learned value model), kept as it
    /// was when issue 48 began: the exact `f64` flood.
    pub fn v2() -> Self {
        BestConfig {
            integer_flood: false,
            keep_nodes: false,
            pw_root: 0,
            pw_reply: 0,
            ..BestConfig::default()
        }
    }

    /// The parameters of the agent `name` built over `self` (`best` over
    /// the default, `ab-v1` over [`BestConfig::v1`]): the evaluation
    /// (`decay`, `look`, `tempo`), the widths of plies 0-3
    /// (`w0`..`w3`) and of the candidates (`births`, `sacrifices`, with the
    /// prefixes `leaf_`, `root_`, `reply_`), `improve`, `depth`, `threads`,
    /// `leafcut`, `new_depth`, `learned` (the learned value model),
    /// `value_file` (a value model's JSON file instead of the shipped one),
    /// `integer_flood`, `keep_nodes` and the pairwise proposer's `pw_*`.
    pub fn decl(&self, name: &str) -> Decl {
        let mut d = Decl::new(name)
            .float(
                "decay",
                self.decay,
                0.0..=1.0,
                0.05,
                "the flood's decay per step",
            )
            .int(
                "look",
                self.look as u64,
                0..=10,
                1,
                "pass generations after the move's own before the evaluation",
            )
            .flag(
                "tempo",
                self.tempo,
                "the side to move next takes the cells both sides reach at once",
            );
        let last = *self.widths.last().unwrap_or(&8);
        for (i, (key, doc)) in [
            ("w0", "candidates searched at the root"),
            ("w1", "candidates searched at ply 1"),
            ("w2", "candidates searched at ply 2"),
            ("w3", "candidates searched at ply 3 (and deeper)"),
        ]
        .into_iter()
        .enumerate()
        {
            let w = *self.widths.get(i).unwrap_or(&last);
            d = d.int(key, w as u64, 1..=10_000, (w as u64 / 10).max(1), doc);
        }
        for (births, sacrifices, w, docs) in [
            (
                "births",
                "sacrifices",
                &self.width,
                [
                    "birth cells of a node's candidates",
                    "sacrifices of a node's candidates",
                ],
            ),
            (
                "leaf_births",
                "leaf_sacrifices",
                &self.leaf_width,
                [
                    "birth cells of the candidates just above the leaves",
                    "sacrifices of the candidates just above the leaves",
                ],
            ),
            (
                "root_births",
                "root_sacrifices",
                &self.root_width,
                [
                    "birth cells of the root's candidates",
                    "sacrifices of the root's candidates",
                ],
            ),
            (
                "reply_births",
                "reply_sacrifices",
                &self.reply_width,
                [
                    "birth cells of the replies to the root's moves",
                    "sacrifices of the replies to the root's moves",
                ],
            ),
        ] {
            d = d.int(births, w.births as u64, 0..=288, 1, docs[0]).int(
                sacrifices,
                w.sacrifices as u64,
                2..=288,
                1,
                docs[1],
            );
        }
        d = d
            .int(
                "improve",
                self.improve as u64,
                0..=1000,
                1,
                "the root's best births improved part by part (0: none)",
            )
            .int(
                "depth",
                self.max_depth as u64,
                1..=64,
                0,
                "deepest depth, plies",
            )
            .int(
                "threads",
                self.threads as u64,
                1..=64,
                0,
                "threads searching the root's moves",
            )
            .flag(
                "leafcut",
                self.leaf_cut,
                "nodes above the leaves stop at the first candidate that cuts",
            )
            .flag(
                "learned",
                self.value.is_some(),
                "the learned value model scores the leaves (else the territory share)",
            )
            .file(
                "value_file",
                "a value model's JSON file instead of the shipped one",
            )
            .float(
                "new_depth",
                self.new_depth,
                0.0..=1.0,
                0.05,
                "the share of the soft budget after which no new depth starts",
            )
            .float(
                "extend",
                self.extend,
                0.0..=1.0,
                0.05,
                "when a depth changes the best move, the share of the way from the soft to the hard limit the search may go on",
            )
            .flag(
                "integer_flood",
                self.integer_flood,
                "the flood sums integer weights (else f64, as ab-v1 and ab-v2)",
            )
            .flag(
                "keep_nodes",
                self.keep_nodes,
                "a node's scored candidates are kept for the next depth of the same move",
            );
        for (key, value, max, step, doc) in [
            ("pw_root", self.pw_root, 100_000, 10, "births the pairwise proposer keeps at the root (0: today's generator)"),
            ("pw_reply", self.pw_reply, 100_000, 10, "births the pairwise proposer keeps at the replies to the root's moves (0: today's generator)"),
            ("pw_radius", self.pairwise.radius as usize, 17, 1, "cells this close change each other's value (the pairwise proposer measures them together)"),
            ("pw_births", self.pairwise.births, 288, 4, "birth cells whose interactions with near sacrifices the pairwise proposer measures"),
            ("pw_pairs", self.pairwise.pairs, 100_000, 8, "best sacrifice pairs the pairwise proposer tries with every birth cell"),
            ("pw_sacrifices", self.pairwise.sacrifices, 288, 1, "best single sacrifices paired with each near own cell of a measured birth cell"),
        ] {
            d = d.int(key, value as u64, 0..=max, step, doc);
        }
        d
    }

    /// The defaults changed by the profile's `agent_params`
    /// ([`BestConfig::decl`]).
    pub fn from_params(params: &AgentParams) -> Result<Self, String> {
        Self::from_params_over(params, BestConfig::default(), "best")
    }

    /// [`BestConfig::from_params`] over `base`, for the agent `name`.
    pub fn from_params_over(
        params: &AgentParams,
        base: BestConfig,
        name: &str,
    ) -> Result<Self, String> {
        let decl = base.decl(name);
        let p = decl.read(params)?;
        let mut c = base;
        if let Some(d) = p.f64("decay") {
            c.decay = d;
        }
        if let Some(l) = p.u64("look") {
            c.look = l as usize;
        }
        if let Some(t) = p.flag("tempo") {
            c.tempo = t;
        }
        for (i, key) in ["w0", "w1", "w2", "w3"].into_iter().enumerate() {
            if let Some(w) = p.u64(key) {
                while c.widths.len() <= i {
                    let last = *c.widths.last().unwrap_or(&8);
                    c.widths.push(last);
                }
                c.widths[i] = w as usize;
            }
        }
        for (prefix, w) in [
            ("", &mut c.width),
            ("leaf_", &mut c.leaf_width),
            ("root_", &mut c.root_width),
            ("reply_", &mut c.reply_width),
        ] {
            if let Some(b) = p.u64(&format!("{prefix}births")) {
                w.births = b as usize;
            }
            if let Some(n) = p.u64(&format!("{prefix}sacrifices")) {
                w.sacrifices = n as usize;
            }
        }
        if let Some(n) = p.u64("improve") {
            c.improve = n as usize;
        }
        if let Some(d) = p.u64("depth") {
            c.max_depth = d as usize;
        }
        if let Some(t) = p.u64("threads") {
            c.threads = t as usize;
        }
        if let Some(t) = p.flag("leafcut") {
            c.leaf_cut = t;
        }
        if let Some(f) = p.f64("new_depth") {
            c.new_depth = f;
        }
        if let Some(f) = p.f64("extend") {
            c.extend = f;
        }
        if let Some(t) = p.flag("integer_flood") {
            c.integer_flood = t;
        }
        if let Some(t) = p.flag("keep_nodes") {
            c.keep_nodes = t;
        }
        for (key, slot) in [
            ("pw_root", &mut c.pw_root),
            ("pw_reply", &mut c.pw_reply),
            ("pw_births", &mut c.pairwise.births),
            ("pw_pairs", &mut c.pairwise.pairs),
            ("pw_sacrifices", &mut c.pairwise.sacrifices),
        ] {
            if let Some(n) = p.u64(key) {
                *slot = n as usize;
            }
        }
        if let Some(r) = p.u64("pw_radius") {
            c.pairwise.radius = r as u8;
        }
        if let Some(t) = p.flag("learned") {
            c.value = t.then(ValueModel::shipped);
        }
        if let Some(m) = p.file("value_file", ValueModel::from_json)? {
            c.value = Some(m);
        }
        Ok(c)
    }
}
