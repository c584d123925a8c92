//! Agent parameters, declared once per agent: each option's name, kind,
//! default, range, tuning step and meaning, in one [`Decl`] that both
//! reads a profile's `[agent_params]` (unknown keys, wrong types and values
//! outside the range are clear errors) and tells the tools what an agent
//! has: `ladderbot agents --params` prints the declarations, and `ladderbot
//! tune` perturbs the tunable ones (a numeric parameter with a step) and
//! refuses a range outside the declared one.
//!
//! The default of a declaration is the value the agent uses when the
//! profile gives none: each agent builds its declaration from the same base
//! configuration it plays with, so the two cannot drift apart.

use std::ops::RangeInclusive;

use serde::Serialize;
use serde_json::Value;

use super::AgentParams;

/// What values a parameter takes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A number in `lo..=hi`.
    Float,
    /// A whole number in `lo..=hi`.
    Int,
    /// 0 or 1 (`true`/`false` too).
    Flag,
    /// One of these words.
    Choice(Vec<&'static str>),
    /// A file path (a model's weights).
    File,
    /// A word or list that the agent reads itself (`weights = "..."`).
    Text,
}

/// One declared parameter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Param {
    pub name: &'static str,
    pub kind: Kind,
    /// What the agent uses when the profile gives nothing (`null`: no
    /// value, the agent's built-in behaviour).
    pub default: Value,
    /// The range of a number (both ends included); 0..=1 for a flag.
    pub lo: f64,
    pub hi: f64,
    /// The tuning step (SPSA's final perturbation `c_end`); 0: not tuned.
    pub step: f64,
    /// What it does, in a few words.
    pub doc: &'static str,
    /// The agent reads it only when each of these parameters has this
    /// value (given or by default; `null`: not given): Score Four's hand
    /// weights only without the fitted evaluation. Empty: always read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_with: Vec<(&'static str, Value)>,
}

impl Param {
    /// Numeric with a step: `ladderbot tune` may move it.
    pub fn tunable(&self) -> bool {
        matches!(self.kind, Kind::Float | Kind::Int) && self.step > 0.0
    }

    /// The default as a number (numeric kinds).
    pub fn default_f64(&self) -> Option<f64> {
        match &self.default {
            Value::Number(n) => n.as_f64(),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    /// `x` as this parameter's JSON value: a whole number for `Int` and
    /// `Flag` (rounded), the number itself for `Float`.
    pub fn value_of(&self, x: f64) -> Value {
        match self.kind {
            Kind::Int | Kind::Flag => Value::from(x.round() as i64),
            _ => serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
        }
    }

    /// One line for `agents --params`.
    pub fn describe(&self) -> String {
        let what = match &self.kind {
            Kind::Float => format!("float {}..={}", self.lo, self.hi),
            // Whole numbers as whole numbers (u64::MAX, not 18446744073709552000).
            Kind::Int => format!("int {}..={}", self.lo as u64, self.hi as u64),
            Kind::Flag => "flag 0|1".to_string(),
            Kind::Choice(c) => c.join("|"),
            Kind::File => "file".to_string(),
            Kind::Text => "text".to_string(),
        };
        let step = if self.tunable() {
            format!(", step {}", self.step)
        } else {
            String::new()
        };
        let default = match &self.default {
            Value::Null => "none".to_string(),
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let when = if self.only_with.is_empty() {
            String::new()
        } else {
            format!("; read only with {}", self.condition())
        };
        format!(
            "{} ({what}, default {default}{step}{when}): {}",
            self.name, self.doc
        )
    }

    /// The condition under which the agent reads it: `fitted=0, no eval_file`.
    pub fn condition(&self) -> String {
        self.only_with
            .iter()
            .map(|(k, v)| setting(k, v))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `key=value` as a condition reads it; `no key` for no value.
fn setting(key: &str, v: &Value) -> String {
    match v {
        Value::Null => format!("no {key}"),
        Value::String(s) => format!("{key}={s}"),
        v => format!("{key}={v}"),
    }
}

/// The parameters of one agent.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Decl {
    pub agent: String,
    pub params: Vec<Param>,
}

impl Decl {
    /// An agent with no parameters (yet).
    pub fn new(agent: &str) -> Self {
        Decl {
            agent: agent.to_string(),
            params: Vec::new(),
        }
    }

    fn push(mut self, p: Param) -> Self {
        debug_assert!(
            self.get(p.name).is_none(),
            "{}: {} declared twice",
            self.agent,
            p.name
        );
        self.params.push(p);
        self
    }

    /// A number in `range`, tuned by `step` (0: not tuned).
    pub fn float(
        self,
        name: &'static str,
        default: f64,
        range: RangeInclusive<f64>,
        step: f64,
        doc: &'static str,
    ) -> Self {
        self.push(Param {
            name,
            kind: Kind::Float,
            default: serde_json::Number::from_f64(default).map_or(Value::Null, Value::Number),
            lo: *range.start(),
            hi: *range.end(),
            step,
            doc,
            only_with: Vec::new(),
        })
    }

    /// A whole number in `range`, tuned by `step` (0: not tuned).
    pub fn int(
        self,
        name: &'static str,
        default: u64,
        range: RangeInclusive<u64>,
        step: u64,
        doc: &'static str,
    ) -> Self {
        self.push(Param {
            name,
            kind: Kind::Int,
            default: Value::from(default),
            lo: *range.start() as f64,
            hi: *range.end() as f64,
            step: step as f64,
            doc,
            only_with: Vec::new(),
        })
    }

    /// A whole number whose default is "none" (the agent decides).
    pub fn int_or_none(
        self,
        name: &'static str,
        range: RangeInclusive<u64>,
        doc: &'static str,
    ) -> Self {
        self.push(Param {
            name,
            kind: Kind::Int,
            default: Value::Null,
            lo: *range.start() as f64,
            hi: *range.end() as f64,
            step: 0.0,
            doc,
            only_with: Vec::new(),
        })
    }

    /// 0 or 1.
    pub fn flag(self, name: &'static str, default: bool, doc: &'static str) -> Self {
        self.push(Param {
            name,
            kind: Kind::Flag,
            default: Value::from(u8::from(default)),
            lo: 0.0,
            hi: 1.0,
            step: 0.0,
            doc,
            only_with: Vec::new(),
        })
    }

    /// One of `options`.
    pub fn choice(
        self,
        name: &'static str,
        default: &'static str,
        options: &[&'static str],
        doc: &'static str,
    ) -> Self {
        self.push(Param {
            name,
            kind: Kind::Choice(options.to_vec()),
            default: Value::from(default),
            lo: 0.0,
            hi: 0.0,
            step: 0.0,
            doc,
            only_with: Vec::new(),
        })
    }

    /// A file the agent reads (default: none).
    pub fn file(self, name: &'static str, doc: &'static str) -> Self {
        self.push(Param {
            name,
            kind: Kind::File,
            default: Value::Null,
            lo: 0.0,
            hi: 0.0,
            step: 0.0,
            doc,
            only_with: Vec::new(),
        })
    }

    /// A text value the agent parses itself.
    pub fn text(self, name: &'static str, default: Value, doc: &'static str) -> Self {
        self.push(Param {
            name,
            kind: Kind::Text,
            default,
            lo: 0.0,
            hi: 0.0,
            step: 0.0,
            doc,
            only_with: Vec::new(),
        })
    }

    /// Adds every parameter of `other` (options several agents share).
    pub fn with(mut self, other: Decl) -> Self {
        for p in other.params {
            self = self.push(p);
        }
        self
    }

    /// Marks the parameters `names` as read only when `key` is `value`
    /// (given or by default; `Value::Null`: `key` not given). Conditions
    /// add up.
    pub fn only_with(mut self, names: &[&str], key: &'static str, value: Value) -> Self {
        debug_assert!(self.get(key).is_some(), "{}: no {key}", self.agent);
        for p in self.params.iter_mut().filter(|p| names.contains(&p.name)) {
            p.only_with.push((key, value.clone()));
        }
        self
    }

    /// Whether the agent reads `name` under the parameters `given` (and
    /// the defaults): `Err` says the condition it lacks and what holds.
    pub fn applies(&self, name: &str, given: &AgentParams) -> Result<(), String> {
        let Some(p) = self.get(name) else {
            return Ok(());
        };
        for (key, want) in &p.only_with {
            let now = given
                .get(*key)
                .cloned()
                .or_else(|| self.get(key).map(|q| q.default.clone()))
                .unwrap_or(Value::Null);
            if !same_value(&now, want) {
                return Err(format!(
                    "agent '{}' reads {name} only with {} (here {})",
                    self.agent,
                    p.condition(),
                    setting(key, &now)
                ));
            }
        }
        Ok(())
    }

    /// The declared parameter `name`.
    pub fn get(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The parameters `ladderbot tune` may move.
    pub fn tunable(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.tunable())
    }

    /// Checks `params` against the declaration (unknown keys, kinds,
    /// ranges) and gives typed access to them.
    pub fn read<'a>(&'a self, params: &'a AgentParams) -> Result<Read<'a>, String> {
        for (key, v) in params {
            let Some(p) = self.get(key) else {
                return Err(if self.params.is_empty() {
                    format!(
                        "agent_params.{key}: agent '{}' takes no parameters",
                        self.agent
                    )
                } else {
                    format!(
                        "agent_params.{key}: unknown parameter for agent '{}' (known: {})",
                        self.agent,
                        self.params
                            .iter()
                            .map(|p| p.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
            };
            check_value(p, v)?;
        }
        Ok(Read { decl: self, params })
    }
}

/// Two values of a parameter alike: numbers (and flags, and their text)
/// by value, anything else as JSON.
fn same_value(a: &Value, b: &Value) -> bool {
    let num = |v: &Value| match v {
        Value::Bool(x) => Some(f64::from(u8::from(*x))),
        v => number(v),
    };
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        _ => match (num(a), num(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        },
    }
}

/// A number from JSON or from text (environment variables arrive as text).
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn whole(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn check_value(p: &Param, v: &Value) -> Result<(), String> {
    let key = p.name;
    let outside = |x: String| {
        Err(format!(
            "agent_params.{key}: {x} is outside {}..={}",
            p.lo, p.hi
        ))
    };
    match &p.kind {
        Kind::Float => {
            let x = number(v)
                .ok_or_else(|| format!("agent_params.{key}: expected a number, got {v}"))?;
            if !(p.lo..=p.hi).contains(&x) {
                return outside(x.to_string());
            }
        }
        Kind::Int => {
            let x = whole(v)
                .ok_or_else(|| format!("agent_params.{key}: expected a whole number, got {v}"))?;
            if !(p.lo..=p.hi).contains(&(x as f64)) {
                return outside(x.to_string());
            }
        }
        Kind::Flag => {
            flag(v).ok_or_else(|| format!("agent_params.{key}: expected 0 or 1, got {v}"))?;
        }
        Kind::Choice(options) => {
            let s = v.as_str().unwrap_or("");
            if !options.contains(&s) {
                return Err(format!(
                    "agent_params.{key}: expected {}",
                    options
                        .iter()
                        .map(|o| format!("\"{o}\""))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ));
            }
        }
        Kind::File => {
            if !v.is_string() {
                return Err(format!("agent_params.{key}: expected a file path"));
            }
        }
        Kind::Text => {}
    }
    Ok(())
}

fn flag(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        _ => match whole(v)? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        },
    }
}

/// Parameters checked against their declaration.
pub struct Read<'a> {
    decl: &'a Decl,
    params: &'a AgentParams,
}

impl Read<'_> {
    /// Whether the profile gives `name` (never for an undeclared name:
    /// [`Decl::read`] refused those).
    pub fn given(&self, name: &str) -> bool {
        self.value(name).is_some()
    }

    /// The raw value given.
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.decl.get(name)?;
        self.params.get(name)
    }

    /// A number given, or `None`.
    pub fn f64(&self, name: &str) -> Option<f64> {
        self.value(name).and_then(number)
    }

    /// A whole number given, or `None`.
    pub fn u64(&self, name: &str) -> Option<u64> {
        self.value(name).and_then(whole)
    }

    /// A flag given, or `None`.
    pub fn flag(&self, name: &str) -> Option<bool> {
        self.value(name).and_then(flag)
    }

    /// A choice given, or `None`.
    pub fn choice(&self, name: &str) -> Option<&str> {
        self.value(name).and_then(Value::as_str)
    }

    /// A file given, read once with `parse` and kept for the life of the
    /// process (see [`super::param_file`]).
    pub fn file<T>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Result<Option<&'static T>, String> {
        if self.decl.get(name).is_none() {
            return Ok(None);
        }
        super::param_file(self.params, name, parse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decl() -> Decl {
        Decl::new("demo")
            .float("c", 1.4, 0.0..=10.0, 0.1, "exploration")
            .int("depth", 8, 1..=64, 1, "depth")
            .flag("tt", true, "a table")
            .choice("choice", "visits", &["visits", "mean"], "final choice")
            .file("model", "weights")
    }

    fn params(v: Value) -> AgentParams {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn reads_what_is_given_and_refuses_what_is_not_declared_or_out_of_range() {
        let d = decl();
        let p = params(json!({"c": 2.5, "depth": "12", "tt": 0, "choice": "mean"}));
        let r = d.read(&p).unwrap();
        assert_eq!(r.f64("c"), Some(2.5));
        assert_eq!(r.u64("depth"), Some(12));
        assert_eq!(r.flag("tt"), Some(false));
        assert_eq!(r.choice("choice"), Some("mean"));
        assert!(!r.given("model"));
        let bad = |v: Value| d.read(&params(v)).err().unwrap();
        assert!(bad(json!({"x": 1}))
            .contains("unknown parameter for agent 'demo' (known: c, depth, tt, choice, model)"));
        assert_eq!(
            bad(json!({"c": 11})),
            "agent_params.c: 11 is outside 0..=10"
        );
        assert!(bad(json!({"c": "x"})).contains("expected a number"));
        assert!(bad(json!({"depth": 1.5})).contains("whole number"));
        assert_eq!(
            bad(json!({"depth": 65})),
            "agent_params.depth: 65 is outside 1..=64"
        );
        assert!(bad(json!({"tt": 2})).contains("0 or 1"));
        assert!(bad(json!({"choice": "max"})).contains("\"visits\" or \"mean\""));
        assert!(bad(json!({"model": 3})).contains("file path"));
        let none = Decl::new("random");
        assert_eq!(
            none.read(&params(json!({"a": 1}))).err().unwrap(),
            "agent_params.a: agent 'random' takes no parameters"
        );
    }

    #[test]
    fn tunable_parameters_are_the_numbers_with_a_step() {
        let d = decl();
        let names: Vec<&str> = d.tunable().map(|p| p.name).collect();
        assert_eq!(names, ["c", "depth"]);
        let depth = d.get("depth").unwrap();
        assert_eq!(depth.value_of(7.6), json!(8));
        assert_eq!(d.get("c").unwrap().value_of(0.25), json!(0.25));
        assert_eq!(depth.default_f64(), Some(8.0));
        assert!(depth
            .describe()
            .starts_with("depth (int 1..=64, default 8, step 1)"));
    }

    /// Score Four's `best` declared six hand weights it never read (its
    /// fitted evaluation replaces them): a parameter says when it is read.
    #[test]
    fn a_parameter_read_only_under_a_condition_says_so() {
        let d = Decl::new("demo")
            .flag("fitted", true, "fitted")
            .file("eval_file", "file")
            .int("good", 90, 0..=10_000, 10, "hand")
            .only_with(&["good"], "fitted", json!(0))
            .only_with(&["good"], "eval_file", Value::Null);
        let none = AgentParams::new();
        let err = d.applies("good", &none).unwrap_err();
        assert_eq!(
            err,
            "agent 'demo' reads good only with fitted=0, no eval_file (here fitted=1)"
        );
        assert!(d.applies("good", &params(json!({"fitted": "0"}))).is_ok());
        assert!(d.applies("good", &params(json!({"fitted": false}))).is_ok());
        assert!(d
            .applies("good", &params(json!({"fitted": 0, "eval_file": "x.json"})))
            .unwrap_err()
            .contains("(here eval_file=x.json)"));
        assert!(d.applies("fitted", &none).is_ok());
        assert!(d
            .get("good")
            .unwrap()
            .describe()
            .contains("step 10; read only with fitted=0, no eval_file)"));
    }

    #[test]
    fn whole_number_ranges_are_printed_whole() {
        let d = Decl::new("demo").int("seed", 0, 0..=u64::MAX, 0, "seed");
        assert!(
            d.get("seed")
                .unwrap()
                .describe()
                .starts_with("seed (int 0..=18446744073709551615, default 0)"),
            "{}",
            d.get("seed").unwrap().describe()
        );
    }
}
