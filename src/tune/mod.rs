//! `ladderbot tune`: SPSA over an agent's declared parameters ([`spsa`]),
//! built on the match runner. Each iteration plays one pair of games from
//! one opening with the seats swapped: the `+` setting against the `-` one
//! (OpenBench's way), or, with a fixed opponent, one pair each against it;
//! or, for a game with a one-player measure of strength (Puyo's solo
//! chain), runs both settings on the same sequence. The state is written
//! after every iteration, so a run resumes where it was killed; with
//! playout budgets a resumed run ends exactly where an unbroken one would.

pub mod plot;
pub mod spsa;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::games::params::{Decl, Kind};
use crate::games::{AgentParams, GameOptions, PlayableGame};
use crate::runner::openings::Book;
use crate::runner::{run_with, MatchConfig, Playable, SideConfig};
use crate::seed::derive_seed;
use spsa::{Gains, Perturbation, Spsa, Tuned};

/// What an iteration measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// Game results: wins minus losses of the `+` setting.
    Games,
    /// The game's one-player measure ([`PlayableGame::solo_score`]): which
    /// setting scores more on the same sequence.
    Solo,
}

/// A parameter to tune as asked on the command line: the declared range
/// and step unless narrowed.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamRange {
    pub name: String,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub step: Option<f64>,
}

impl std::str::FromStr for ParamRange {
    type Err = String;
    /// `NAME`, or `NAME=LO:HI` or `NAME=LO:HI:STEP`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("'{s}': expected NAME, NAME=LO:HI or NAME=LO:HI:STEP");
        let (name, range) = match s.split_once('=') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (s.trim(), None),
        };
        if name.is_empty() {
            return Err(bad());
        }
        let mut out = ParamRange {
            name: name.to_string(),
            lo: None,
            hi: None,
            step: None,
        };
        if let Some(r) = range {
            let parts: Vec<&str> = r.split(':').collect();
            if !(2..=3).contains(&parts.len()) {
                return Err(bad());
            }
            let num = |t: &str| t.trim().parse::<f64>().ok().filter(|x| x.is_finite());
            out.lo = Some(num(parts[0]).ok_or_else(bad)?);
            out.hi = Some(num(parts[1]).ok_or_else(bad)?);
            if let Some(st) = parts.get(2) {
                out.step = Some(num(st).ok_or_else(bad)?);
            }
        }
        Ok(out)
    }
}

/// The parameters to tune, checked against the agent's declaration: each
/// must be declared and numeric, its range within the declared one and its
/// step positive and within the range; none asked means every tunable one.
/// Start values come from `start` (the fixed parameters given), else the
/// declared defaults.
pub fn tuned_params(
    decl: &Decl,
    asked: &[ParamRange],
    start: &AgentParams,
) -> Result<Vec<Tuned>, String> {
    let asked: Vec<ParamRange> = if asked.is_empty() {
        // Every tunable parameter the agent reads under these settings.
        decl.tunable()
            .filter(|p| decl.applies(p.name, start).is_ok())
            .map(|p| ParamRange {
                name: p.name.to_string(),
                lo: None,
                hi: None,
                step: None,
            })
            .collect()
    } else {
        asked.to_vec()
    };
    if asked.is_empty() {
        return Err(format!(
            "agent '{}' declares no tunable parameter (see `ladderbot agents --params`)",
            decl.agent
        ));
    }
    let mut out: Vec<Tuned> = Vec::new();
    for a in asked {
        let p = decl.get(&a.name).ok_or_else(|| {
            format!(
                "--param {}: agent '{}' has no such parameter (it has: {})",
                a.name,
                decl.agent,
                decl.params
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        if !matches!(p.kind, Kind::Float | Kind::Int) {
            return Err(format!("--param {}: not a number, cannot be tuned", a.name));
        }
        // A parameter the agent does not read would be tuned on noise.
        decl.applies(&a.name, start).map_err(|e| {
            let fix = p
                .only_with
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| {
                    format!(
                        " --set {k}={}",
                        v.as_str().map_or(v.to_string(), str::to_string)
                    )
                })
                .collect::<String>();
            format!(
                "--param {}: {e}; it would be tuned on noise (add{fix})",
                a.name
            )
        })?;
        if out.iter().any(|t| t.name == a.name) {
            return Err(format!("--param {}: given twice", a.name));
        }
        let (lo, hi) = (a.lo.unwrap_or(p.lo), a.hi.unwrap_or(p.hi));
        if lo < p.lo || hi > p.hi {
            return Err(format!(
                "--param {}: {lo}:{hi} is outside the declared range {}..={}",
                a.name, p.lo, p.hi
            ));
        }
        if lo >= hi {
            return Err(format!("--param {}: the range {lo}:{hi} is empty", a.name));
        }
        let step = a.step.unwrap_or(p.step);
        if step <= 0.0 {
            return Err(format!(
                "--param {}: declared with no tuning step; give one (NAME=LO:HI:STEP)",
                a.name
            ));
        }
        if step > hi - lo {
            return Err(format!(
                "--param {}: the step {step} is wider than the range {lo}:{hi}",
                a.name
            ));
        }
        let value = match start.get(&a.name) {
            Some(v) => {
                value_f64(v).ok_or_else(|| format!("--set {}: {v} is not a number", a.name))?
            }
            None => p.default_f64().ok_or_else(|| {
                format!(
                    "--param {}: no default to start from; give one with --set {}=VALUE",
                    a.name, a.name
                )
            })?,
        };
        if !(lo..=hi).contains(&value) {
            return Err(format!(
                "--param {}: the start {value} is outside {lo}:{hi}",
                a.name
            ));
        }
        out.push(Tuned {
            name: a.name.clone(),
            lo,
            hi,
            c_end: step,
            int: p.kind == Kind::Int,
            value,
        });
    }
    Ok(out)
}

fn value_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Everything a run needs besides its state.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub game: String,
    pub agent: String,
    /// Parameters held fixed (and the start values of tuned ones).
    pub fixed: AgentParams,
    /// The fixed opponent, or a population played in turn (iteration k
    /// against the k-th); none: the `+` setting plays the `-` one.
    pub vs: Vec<SideConfig>,
    pub objective: Objective,
    pub playouts: Option<u64>,
    pub time_ms: Option<u64>,
    pub margin_ms: u64,
    pub openings: Option<Book>,
    pub game_options: GameOptions,
    pub jobs: usize,
}

impl TuneConfig {
    /// Games (or one-player runs) an iteration plays.
    pub fn per_iteration(&self) -> u32 {
        match self.objective {
            Objective::Solo => 2,
            Objective::Games if self.vs.is_empty() => 2,
            Objective::Games => 4,
        }
    }

    /// What must be equal for a run to resume another.
    pub fn key(&self) -> Value {
        serde_json::json!({
            "game": self.game,
            "agent": self.agent,
            "fixed": Value::Object(self.fixed.clone()),
            // One opponent as before this could be a population.
            "vs": match self.vs.as_slice() {
                [] => Value::Null,
                [one] => Value::from(one.describe()),
                many => many.iter().map(SideConfig::describe).collect(),
            },
            "objective": self.objective,
            "playouts": self.playouts,
            "time_ms": self.time_ms,
            "openings": self.openings.as_ref().map(|b| format!("{}:{}:{}", b.source, b.openings.len(), b.order)),
            "game_options": Value::Object(self.game_options.clone()),
        })
    }

    /// The side of one setting: the agent with the fixed parameters and
    /// `values` for the tuned ones (rounded where whole).
    pub fn side(&self, spsa: &Spsa, values: &[f64], decl: &Decl) -> SideConfig {
        SideConfig {
            agent: self.agent.clone(),
            params: setting(&self.fixed, spsa, values, decl),
            playouts: self.playouts,
            time_ms: self.time_ms,
            ..Default::default()
        }
    }
}

/// The fixed parameters with the tuned ones set to `values`.
pub fn setting(fixed: &AgentParams, spsa: &Spsa, values: &[f64], decl: &Decl) -> AgentParams {
    let mut params = fixed.clone();
    for (t, &x) in spsa.params.iter().zip(values) {
        let v = t.shown(x);
        let json = decl.get(&t.name).map_or(Value::Null, |p| p.value_of(v));
        params.insert(t.name.clone(), json);
    }
    params
}

/// One iteration, as kept in the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub k: u32,
    /// The `+` setting's result: wins minus losses (per pair).
    pub result: f64,
    /// The values after the update.
    pub values: Vec<f64>,
}

/// A run's state, written after every iteration (`DIR/tune.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// [`TuneConfig::key`] of the run.
    pub key: Value,
    pub spsa: Spsa,
    /// Iterations done.
    pub done: u32,
    /// Games (or runs) played.
    pub games: u32,
    pub history: Vec<Step>,
    /// Every tuned parameter's value at the start (absent in a state
    /// written before it was kept: the first iteration's value stands in).
    #[serde(default)]
    pub start: Vec<f64>,
}

/// How far one parameter went over a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Moved {
    pub name: String,
    pub start: f64,
    pub end: f64,
    /// The lowest and highest value of its path (the start included).
    pub low: f64,
    pub high: f64,
    /// `end - start` in steps (`c_end`).
    pub steps: f64,
    pub c_end: f64,
    pub int: bool,
    /// The range it was allowed.
    pub lo: f64,
    pub hi: f64,
}

impl Moved {
    /// One line: `good 90 -> 104 (+1.4 steps of 10; explored 84..112 of 0..=10000)`.
    pub fn describe(&self) -> String {
        let v = |x: f64| {
            if self.int {
                format!("{}", x.round())
            } else {
                plot::short(x)
            }
        };
        format!(
            "{} {} -> {} ({:+.1} steps; explored {}..{} of {}..={})",
            self.name,
            v(self.start),
            v(self.end),
            self.steps,
            v(self.low),
            v(self.high),
            self.lo,
            self.hi
        )
    }
}

impl TuneState {
    pub fn new(
        cfg: &TuneConfig,
        params: Vec<Tuned>,
        iterations: u32,
        seed: u64,
        gains: Gains,
    ) -> Self {
        TuneState {
            key: cfg.key(),
            spsa: Spsa {
                params,
                gains,
                iterations,
                seed,
            },
            done: 0,
            games: 0,
            history: Vec::new(),
            start: Vec::new(),
        }
        .with_start()
    }

    fn with_start(mut self) -> Self {
        self.start = self.spsa.params.iter().map(|p| p.value).collect();
        self
    }

    /// Whether every planned iteration was played.
    pub fn finished(&self) -> bool {
        self.done >= self.spsa.iterations
    }

    /// Where each parameter started, where it is, and the range its path
    /// covered (unrounded values, as the tuner holds them).
    pub fn moved(&self) -> Vec<Moved> {
        self.spsa
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let path = self.history.iter().map(|h| h.values[i]);
                let start = self
                    .start
                    .get(i)
                    .copied()
                    .or_else(|| self.history.first().map(|h| h.values[i]))
                    .unwrap_or(p.value);
                let (low, high) = path
                    .chain([start, p.value])
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                        (lo.min(x), hi.max(x))
                    });
                Moved {
                    name: p.name.clone(),
                    start,
                    end: p.value,
                    low,
                    high,
                    steps: (p.value - start) / p.c_end,
                    c_end: p.c_end,
                    int: p.int,
                    lo: p.lo,
                    hi: p.hi,
                }
            })
            .collect()
    }

    /// Reads a state file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a tune state: {e}", path.display()))
    }

    /// Writes the state to `path` whole or not at all (a temporary file
    /// renamed over it).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp: PathBuf = path.with_extension("json.tmp");
        let text = serde_json::to_string(self).map_err(|e| e.to_string())?;
        std::fs::write(&tmp, text + "\n")
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// `name=value` of every tuned parameter, rounded as agents get them.
    pub fn describe(&self) -> String {
        self.spsa
            .params
            .iter()
            .map(|p| {
                let v = p.shown(p.value);
                if p.int {
                    format!("{}={v}", p.name)
                } else {
                    format!("{}={v:.4}", p.name)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The profile of the tuned agent (`bots/*.toml` form).
    pub fn profile(&self, cfg: &TuneConfig, decl: &Decl, command: &str) -> String {
        let values: Vec<f64> = self.spsa.params.iter().map(|p| p.value).collect();
        let params = setting(&cfg.fixed, &self.spsa, &values, decl);
        let budget = match (cfg.time_ms, cfg.playouts) {
            (Some(t), _) => format!("{t} ms a move"),
            (None, Some(n)) => format!("{n} playouts a move"),
            (None, None) => "the agent's default budget".into(),
        };
        let mut text = format!(
            "# Tuned by `{command}`:\n# {} iterations of {}, {} games at {budget}; SPSA (alpha {}, gamma {}, A {} of the iterations, r_end {}).\n# Judge it against the defaults before using it (docs/strength.md): `ladderbot match {} --a-profile THIS_FILE --b {} --sprt 0,20`,\n# at the short time control, then at the platform's. It sets no budget: add the platform's [search] to play with it.\n",
            self.done,
            self.spsa.iterations,
            self.games,
            self.spsa.gains.alpha,
            self.spsa.gains.gamma,
            self.spsa.gains.a_share,
            self.spsa.gains.r_end,
            cfg.game,
            cfg.agent,
        );
        text.push_str(&format!(
            "game = \"{}\"\nagent = \"{}\"\n",
            cfg.game, cfg.agent
        ));
        text.push_str("\n[agent_params]\n");
        for (k, v) in &params {
            let v = match v {
                Value::String(s) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
                other => other.to_string(),
            };
            text.push_str(&format!("{k} = {v}\n"));
        }
        debug_assert!(text.ends_with('\n'));
        text
    }
}

/// Plays iteration `pert.k` and returns the `+` setting's result (wins
/// minus losses, per pair of games; or the solo comparison).
pub fn play_iteration<G: PlayableGame>(
    cfg: &TuneConfig,
    spsa: &Spsa,
    decl: &Decl,
    pert: &Perturbation,
) -> Result<f64, String> {
    let k = pert.k;
    let seed = derive_seed(spsa.seed, u64::from(k), 0x7E57);
    let plus = cfg.side(spsa, &pert.plus, decl);
    let minus = cfg.side(spsa, &pert.minus, decl);
    if cfg.objective == Objective::Solo {
        let score = |side: &SideConfig| {
            G::solo_score(&side.agent, &side.params, seed)
                .unwrap_or_else(|| Err(format!("{}: no one-player measure to tune on", G::ID)))
        };
        let (p, m) = (score(&plus)?, score(&minus)?);
        return Ok(if p > m {
            1.0
        } else if p < m {
            -1.0
        } else {
            0.0
        });
    }
    // One opening for the iteration's pair (and for both pairs against a
    // fixed opponent), taken in the suite's order.
    let openings = cfg.openings.as_ref().map(|b| Book {
        source: b.source.clone(),
        openings: vec![b.for_pair(k - 1, spsa.seed).clone()],
        order: b.order,
    });
    let pair = |a: SideConfig, b: SideConfig| -> Result<f64, String> {
        let mc = MatchConfig {
            a,
            b,
            games: 2,
            jobs: cfg.jobs.clamp(1, 2),
            seed,
            out: None,
            sprt: None,
            margin_ms: cfg.margin_ms,
            keep_agents: false,
            game_options: cfg.game_options.clone(),
            openings: openings.clone(),
            shard: None,
            resume: false,
        };
        let r = run_with(&Playable::<G>::new(), &mc, &|_| {})?;
        Ok(f64::from(r.wins) - f64::from(r.losses))
    };
    if cfg.vs.is_empty() {
        return pair(plus, minus);
    }
    let vs = &cfg.vs[(k as usize - 1) % cfg.vs.len()];
    Ok((pair(plus, vs.clone())? - pair(minus, vs.clone())?) / 2.0)
}

/// Runs iterations from `state.done + 1` to the end, saving the state to
/// `save` after each, calling `progress` after each; stops early (state
/// saved) once `interrupt` is set.
pub fn run<G: PlayableGame>(
    cfg: &TuneConfig,
    decl: &Decl,
    state: &mut TuneState,
    save: Option<&Path>,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(&TuneState),
) -> Result<(), String> {
    while state.done < state.spsa.iterations {
        if interrupt.load(Ordering::SeqCst) {
            break;
        }
        let k = state.done + 1;
        let pert = state.spsa.perturb(k);
        let result = play_iteration::<G>(cfg, &state.spsa, decl, &pert)?;
        state.spsa.update(&pert, result);
        state.done = k;
        state.games += cfg.per_iteration();
        state.history.push(Step {
            k,
            result,
            values: state.spsa.params.iter().map(|p| p.value).collect(),
        });
        if let Some(path) = save {
            state.save(path)?;
        }
        progress(state);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decl() -> Decl {
        Decl::new("demo")
            .float("x", 0.5, 0.0..=1.0, 0.05, "x")
            .int("n", 8, 1..=64, 2, "n")
            .int("threads", 1, 1..=16, 0, "not tuned")
            .flag("f", true, "a flag")
    }

    #[test]
    fn the_tuned_parameters_follow_the_declaration_and_refuse_what_it_does_not_allow() {
        let d = decl();
        let all = tuned_params(&d, &[], &AgentParams::new()).unwrap();
        assert_eq!(
            all.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["x", "n"]
        );
        assert_eq!(
            (all[1].lo, all[1].hi, all[1].c_end, all[1].int),
            (1.0, 64.0, 2.0, true)
        );
        let ask = |s: &str| tuned_params(&d, &[s.parse().unwrap()], &AgentParams::new());
        let t = ask("x=0.1:0.9:0.1").unwrap();
        assert_eq!(
            (t[0].lo, t[0].hi, t[0].c_end, t[0].value),
            (0.1, 0.9, 0.1, 0.5)
        );
        assert!(ask("x=0:2")
            .unwrap_err()
            .contains("outside the declared range 0..=1"));
        assert!(ask("n=0:8")
            .unwrap_err()
            .contains("outside the declared range 1..=64"));
        assert!(ask("x=0.6:0.4").unwrap_err().contains("empty"));
        assert!(ask("x=0:1:2").unwrap_err().contains("wider"));
        assert!(ask("threads").unwrap_err().contains("no tuning step"));
        assert!(ask("threads=1:8:1").is_ok());
        assert!(ask("f").unwrap_err().contains("not a number"));
        assert!(ask("y").unwrap_err().contains("no such parameter"));
        // The start: given, or the default; within the range.
        let start = json!({"x": 0.9}).as_object().unwrap().clone();
        let t = tuned_params(&d, &["x".parse().unwrap()], &start).unwrap();
        assert_eq!(t[0].value, 0.9);
        let t = tuned_params(&d, &["x=0:0.5".parse().unwrap()], &start);
        assert!(t.unwrap_err().contains("start 0.9 is outside"));
        assert!("x=1".parse::<ParamRange>().is_err());
        // A parameter read only under a condition: left out of the default
        // list, refused when asked, tuned once the condition holds.
        let c = Decl::new("demo")
            .flag("fitted", true, "fitted")
            .int("good", 90, 0..=10_000, 10, "hand")
            .float("x", 0.5, 0.0..=1.0, 0.05, "x")
            .only_with(&["good"], "fitted", json!(0));
        let names = |v: Vec<Tuned>| v.into_iter().map(|t| t.name).collect::<Vec<_>>();
        assert_eq!(
            names(tuned_params(&c, &[], &AgentParams::new()).unwrap()),
            ["x"]
        );
        let err = tuned_params(&c, &["good".parse().unwrap()], &AgentParams::new()).unwrap_err();
        assert!(
            err.contains("reads good only with fitted=0 (here fitted=1)"),
            "{err}"
        );
        assert!(err.contains("--set fitted=0"), "{err}");
        let hand = json!({"fitted": 0}).as_object().unwrap().clone();
        assert_eq!(names(tuned_params(&c, &[], &hand).unwrap()), ["good", "x"]);
        assert!("=1:2".parse::<ParamRange>().is_err());
    }

    #[test]
    fn a_setting_rounds_whole_numbers_and_keeps_the_fixed_parameters() {
        let d = decl();
        let fixed = json!({"threads": 2}).as_object().unwrap().clone();
        let spsa = Spsa {
            params: tuned_params(&d, &[], &fixed).unwrap(),
            gains: Gains::default(),
            iterations: 10,
            seed: 1,
        };
        let s = setting(&fixed, &spsa, &[0.25, 7.6], &d);
        assert_eq!(Value::Object(s), json!({"threads": 2, "x": 0.25, "n": 8}));
    }
}
