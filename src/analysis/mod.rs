//! `ladderbot analyze`: re-plays recorded games and asks a reference for
//! the value of every position, from the point of view of the seat that
//! moves, to find where each game was lost.
//!
//! The reference is each game's own ([`PlayableGame::solve_position`] where
//! the game can settle a position exactly, else its strongest agent,
//! [`PlayableGame::reference_agent`], at the budget given, else random
//! playouts from the position). In a game whose seats see only part of the
//! position (Geister) every value is the seat's own, from what the seat
//! could see (its agent is asked only at its own turns, as in play): no
//! peeking at hidden colours.
//!
//! Per move: the mover's value before it (the reference's best), after it,
//! and the move the reference preferred. The decisive move of a game is the
//! first move of the losing side after which the reference's exact values
//! say it went from not lost (a draw or a win) to lost; where no exact value
//! says so, the losing side's largest drop (in a draw, either side's).
//! Either way only a move other than the reference's own choice counts. Pure
//! apart from the agents' clocks: the caller reads and writes records.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::games::{AgentParams, PlayableGame};
use crate::model::{Outcome, Seat, Turn};
use crate::records::GameRecord;
use crate::search::{Agent, Limits};
use crate::seed::derive_seed;

/// How the reference searches.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeConfig {
    /// The reference agent (`None`: the game's [`PlayableGame::reference_agent`]).
    pub agent: Option<String>,
    pub params: AgentParams,
    /// Playouts (or nodes) per position.
    pub playouts: Option<u64>,
    /// Milliseconds per position.
    pub time_ms: Option<u64>,
    /// The exact solver's node budget per position (0: never solve).
    pub solve_nodes: u64,
    /// Random playouts per position when the agent gives no value.
    pub rollouts: u32,
    pub seed: u64,
}

impl Default for AnalyzeConfig {
    fn default() -> Self {
        AnalyzeConfig {
            agent: None,
            params: AgentParams::new(),
            playouts: None,
            time_ms: Some(1000),
            solve_nodes: 2_000_000,
            rollouts: 64,
            seed: 0,
        }
    }
}

/// What one move was worth, to the seat that made it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveValue {
    /// The move's index in the record's `moves`.
    pub ply: usize,
    pub seat: Seat,
    /// The mover's value of the position before the move (the reference's
    /// best), 0 (lost) to 1 (won).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<f64>,
    /// The mover's value after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<f64>,
    /// Both values are exact (solved, or the game's end).
    pub exact: bool,
    /// The move the reference preferred before it (wire form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<Value>,
}

impl MoveValue {
    /// How much the move cost its side (before - after).
    pub fn drop(&self) -> Option<f64> {
        Some(self.before? - self.after?)
    }
}

/// The move that decided a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decisive {
    pub ply: usize,
    pub seat: Seat,
    /// `lost` (exact: from not lost to lost) or `largest_drop`.
    pub kind: String,
    pub before: f64,
    pub after: f64,
    /// The move played, and the one the reference preferred.
    pub played: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred: Option<Value>,
    /// The phase of the game it fell in ([`PlayableGame::phase_bands`]).
    pub phase: String,
}

/// A game's analysis, as kept in its record (`analysis`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// What gave the values.
    pub reference: String,
    /// `full` (every seat sees the position) or `own_seat` (each value from
    /// the mover's own information).
    pub information: String,
    pub values: Vec<MoveValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisive: Option<Decisive>,
}

/// Builds the reference agent of `cfg` once, to refuse an unknown agent or
/// parameter before any game is analysed (each game builds its own).
pub fn check_reference<G: PlayableGame>(cfg: &AnalyzeConfig) -> Result<(), String> {
    let name = cfg
        .agent
        .clone()
        .unwrap_or_else(|| G::reference_agent().to_string());
    G::build_agent(&name, &cfg.params, 0).map(|_| ())
}

/// One position's verdict for one seat.
#[derive(Clone, Debug)]
struct Verdict<A> {
    value: f64,
    exact: bool,
    best: Option<A>,
}

/// The reference of one analysis: the game's solver, then an agent per
/// seat (kept through the game, each seeing only its seat), then playouts.
struct Reference<G: PlayableGame> {
    agents: [Box<dyn Agent<G>>; 2],
    cfg: AnalyzeConfig,
    rng_seed: u64,
    asked: u64,
}

impl<G: PlayableGame> Reference<G> {
    fn new(cfg: &AnalyzeConfig, game_seed: u64) -> Result<Self, String> {
        let name = cfg
            .agent
            .clone()
            .unwrap_or_else(|| G::reference_agent().to_string());
        let build =
            |seat: u64| G::build_agent(&name, &cfg.params, derive_seed(game_seed, seat, 0xA7));
        let mut agents = [build(0)?, build(1)?];
        for a in &mut agents {
            a.new_game();
        }
        Ok(Reference {
            agents,
            cfg: cfg.clone(),
            rng_seed: game_seed,
            asked: 0,
        })
    }

    fn verdict(&mut self, pos: &G, seat: Seat) -> Option<Verdict<G::Action>> {
        self.asked += 1;
        if self.cfg.solve_nodes > 0 {
            if let Some((value, best)) = pos.solve_position(seat, self.cfg.solve_nodes) {
                return Some(Verdict {
                    value,
                    exact: true,
                    best: Some(best),
                });
            }
        }
        let d = self.ask(pos, seat);
        match d.value {
            Some(v) => Some(Verdict {
                value: v.clamp(0.0, 1.0),
                exact: false,
                best: Some(d.mv),
            }),
            None if !G::hidden_information() && self.cfg.rollouts > 0 => Some(Verdict {
                value: self.rollouts(pos, seat),
                exact: false,
                best: Some(d.mv),
            }),
            None => None,
        }
    }

    fn ask(&mut self, pos: &G, seat: Seat) -> crate::search::Decision<G::Action> {
        let limits = Limits {
            playouts: self.cfg.playouts,
            deadline: self.cfg.time_ms.map(|t| {
                crate::search::Deadline::per_move(
                    std::time::Instant::now(),
                    std::time::Duration::from_millis(t),
                    std::time::Duration::ZERO,
                )
            }),
        };
        self.agents[seat].select(&pos.observe(seat), &limits, &AtomicBool::new(false))
    }

    /// The mean reward for `seat` of random games from `pos`.
    fn rollouts(&mut self, pos: &G, seat: Seat) -> f64 {
        use rand::{Rng, SeedableRng};
        let mut rng =
            rand::rngs::SmallRng::seed_from_u64(derive_seed(self.rng_seed, self.asked, 0xB0));
        let mut total = 0.0;
        for _ in 0..self.cfg.rollouts {
            let mut p = pos.clone();
            let outcome = loop {
                match p.turn() {
                    Turn::Over(o) => break o,
                    t => {
                        let mut joint = [None, None];
                        for &s in t.movers() {
                            let legal = p.legal_actions(s);
                            joint[s] = Some(legal[rng.gen_range(0..legal.len())]);
                        }
                        p.apply(joint);
                    }
                }
            };
            total += outcome.reward_for(seat, 0.5);
        }
        total / f64::from(self.cfg.rollouts)
    }

    fn describe(&self) -> String {
        let budget = match (self.cfg.playouts, self.cfg.time_ms) {
            (Some(n), _) => format!("{n} playouts"),
            (None, Some(t)) => format!("{t} ms"),
            (None, None) => "its default budget".into(),
        };
        let mut s = format!(
            "{} at {budget} a position",
            self.cfg
                .agent
                .clone()
                .unwrap_or_else(|| G::reference_agent().to_string())
        );
        if self.cfg.solve_nodes > 0 && G::has_solver() {
            s.push_str(&format!(
                ", the exact solver first ({} nodes at most)",
                self.cfg.solve_nodes
            ));
        }
        if !G::hidden_information() && self.cfg.rollouts > 0 {
            s.push_str(&format!(
                "; {} random playouts where the agent gives no value",
                self.cfg.rollouts
            ));
        }
        s
    }
}

/// One turn of the replay: the movers' verdicts, their moves' indexes.
struct TurnInfo<A> {
    movers: Vec<Seat>,
    first: usize,
    verdicts: [Option<Verdict<A>>; 2],
}

/// Analyses one recorded game.
pub fn analyze_record<G: PlayableGame>(
    record: &GameRecord,
    cfg: &AnalyzeConfig,
) -> Result<GameAnalysis, String> {
    let mut pos = G::state_from_json(&record.start)?;
    let game_seed = derive_seed(cfg.seed, fnv(&record.id), 0);
    let mut reference = Reference::<G>::new(cfg, game_seed)?;
    let opening = record.opening.as_ref().map_or(0, |o| o.moves.len());
    let mut turns: Vec<TurnInfo<G::Action>> = Vec::new();
    let mut i = 0;
    while i < record.moves.len() {
        let turn = pos.turn();
        let movers = turn.movers().to_vec();
        if movers.is_empty() {
            return Err(format!("move {i}: the game is already over"));
        }
        let mut verdicts = [None, None];
        if i >= opening {
            for &s in &movers {
                verdicts[s] = reference.verdict(&pos, s);
            }
        }
        let mut joint = [None, None];
        for (k, &s) in movers.iter().enumerate() {
            let v = record
                .moves
                .get(i + k)
                .ok_or_else(|| format!("move {}: the turn's other move is missing", i + k))?;
            let mv = G::move_from_json(v).map_err(|e| format!("move {}: {e}", i + k))?;
            if !pos.is_legal_action(s, mv) {
                return Err(format!("move {}: {v} is not legal for seat {s}", i + k));
            }
            joint[s] = Some(mv);
        }
        turns.push(TurnInfo {
            movers: movers.clone(),
            first: i,
            verdicts,
        });
        pos.apply(joint);
        i += movers.len();
    }
    let end = pos.turn().outcome();
    let values = move_values::<G>(record, &turns, end);
    let decisive = decisive::<G>(record, &values);
    Ok(GameAnalysis {
        reference: reference.describe(),
        information: if G::hidden_information() {
            "own_seat".into()
        } else {
            "full".into()
        },
        values,
        decisive,
    })
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn move_values<G: PlayableGame>(
    record: &GameRecord,
    turns: &[TurnInfo<G::Action>],
    end: Option<Outcome>,
) -> Vec<MoveValue> {
    let mut out = Vec::new();
    // The game's end for a seat, exact.
    let final_for = |s: Seat| end.map(|o| o.reward_for(s, 0.5));
    for (t, info) in turns.iter().enumerate() {
        for (k, &s) in info.movers.iter().enumerate() {
            let Some(before) = &info.verdicts[s] else {
                continue;
            };
            let alternating = !G::hidden_information() && info.movers.len() == 1;
            // The position after the move: the next turn's verdict, from the
            // seat that moves there (full information, one mover), or the
            // mover's own next verdict.
            let after: Option<(f64, bool)> = if alternating {
                match turns.get(t + 1) {
                    None => final_for(s).map(|v| (v, true)),
                    Some(next) => {
                        let m = next.movers[0];
                        next.verdicts[m].as_ref().map(|v| {
                            if next.movers.len() == 1 && m != s {
                                (1.0 - v.value, v.exact)
                            } else {
                                (v.value, v.exact)
                            }
                        })
                    }
                }
            } else {
                match turns[t + 1..].iter().find(|n| n.movers.contains(&s)) {
                    None => final_for(s).map(|v| (v, true)),
                    Some(next) => next.verdicts[s].as_ref().map(|v| (v.value, v.exact)),
                }
            };
            out.push(MoveValue {
                ply: info.first + k,
                seat: s,
                before: Some(before.value),
                after: after.map(|a| a.0),
                exact: before.exact && after.is_some_and(|a| a.1),
                best: before.best.map(G::move_to_json),
            });
        }
    }
    let _ = record;
    out
}

/// The decisive move of a game (see the module documentation).
fn decisive<G: PlayableGame>(record: &GameRecord, values: &[MoveValue]) -> Option<Decisive> {
    const EPS: f64 = 1e-6;
    let loser = record.winner.map(|w| 1 - w);
    // The losing side's moves (either side's in a draw), other than the
    // reference's own choice: a move the reference would have played is no
    // mistake, whatever its values say (a time-limited search's values move
    // from one position to the next by its horizon alone).
    let candidates: Vec<&MoveValue> = values
        .iter()
        .filter(|v| loser.is_none_or(|l| v.seat == l))
        .filter(|v| v.best.is_none() || v.best.as_ref() != record.moves.get(v.ply))
        .collect();
    let exact_loss = candidates.iter().find(|v| {
        v.exact && v.before.is_some_and(|b| b >= 0.5 - EPS) && v.after.is_some_and(|a| a <= EPS)
    });
    let (v, kind) = match exact_loss {
        Some(v) => (*v, "lost"),
        None => (
            *candidates
                .iter()
                .filter(|v| v.drop().is_some())
                .max_by(|a, b| a.drop().unwrap().total_cmp(&b.drop().unwrap()))?,
            "largest_drop",
        ),
    };
    Some(Decisive {
        ply: v.ply,
        seat: v.seat,
        kind: kind.into(),
        before: v.before?,
        after: v.after?,
        played: record.moves.get(v.ply).cloned().unwrap_or(Value::Null),
        preferred: v.best.clone(),
        phase: phase_of::<G>(v.ply).to_string(),
    })
}

/// The band a ply falls in.
pub fn phase_of<G: PlayableGame>(ply: usize) -> &'static str {
    let bands = G::phase_bands();
    bands
        .iter()
        .rev()
        .find(|(from, _)| ply >= *from)
        .map_or("opening", |(_, name)| name)
}

/// What many games' analyses show: losses by phase and by player, and the
/// distribution of drops by player.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub games: usize,
    pub analysed: usize,
    /// Decisive moves by phase, and by the player who made them.
    pub by_phase: std::collections::BTreeMap<String, usize>,
    pub by_player: std::collections::BTreeMap<String, std::collections::BTreeMap<String, usize>>,
    /// Decisive moves that the exact values settle (`lost`).
    pub exact: usize,
    /// Moves by the size of their drop, by player: [0, 0.05), [0.05, 0.1),
    /// [0.1, 0.2), [0.2, 0.4), [0.4, 1].
    pub drops: std::collections::BTreeMap<String, [usize; 5]>,
    /// The phases' first plies, for the reader.
    pub bands: Vec<(usize, String)>,
}

/// Sums up `analysed` (each record with its analysis).
pub fn summarize<G: PlayableGame>(analysed: &[(GameRecord, GameAnalysis)]) -> Summary {
    let mut s = Summary {
        games: analysed.len(),
        bands: G::phase_bands()
            .iter()
            .map(|(p, n)| (*p, n.to_string()))
            .collect(),
        ..Default::default()
    };
    for (r, a) in analysed {
        s.analysed += 1;
        if let Some(d) = &a.decisive {
            *s.by_phase.entry(d.phase.clone()).or_default() += 1;
            *s.by_player
                .entry(r.players[d.seat].clone())
                .or_default()
                .entry(d.phase.clone())
                .or_default() += 1;
            if d.kind == "lost" {
                s.exact += 1;
            }
        }
        for v in &a.values {
            let Some(drop) = v.drop() else { continue };
            let bin = match drop {
                x if x < 0.05 => 0,
                x if x < 0.1 => 1,
                x if x < 0.2 => 2,
                x if x < 0.4 => 3,
                _ => 4,
            };
            s.drops.entry(r.players[v.seat].clone()).or_default()[bin] += 1;
        }
    }
    s
}

impl Summary {
    /// The summary for people.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{} games analysed; decisive moves by phase (bands from ply: {}):",
            self.analysed,
            self.bands
                .iter()
                .map(|(p, n)| format!("{n} {p}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for (phase, n) in &self.by_phase {
            out.push_str(&format!(" {phase} {n};"));
        }
        out.push_str(&format!(" {} settled by exact values\n", self.exact));
        for (player, phases) in &self.by_player {
            let p: Vec<String> = phases.iter().map(|(k, n)| format!("{k} {n}")).collect();
            out.push_str(&format!("  decided by {player}: {}\n", p.join(", ")));
        }
        out.push_str("drops (moves by the value they cost: <0.05, <0.1, <0.2, <0.4, >=0.4):\n");
        for (player, bins) in &self.drops {
            out.push_str(&format!(
                "  {player}: {} {} {} {} {}\n",
                bins[0], bins[1], bins[2], bins[3], bins[4]
            ));
        }
        out
    }
}

/// One line per game for people.
pub fn describe_game(r: &GameRecord, a: &GameAnalysis) -> String {
    let head = format!(
        "{} ({} vs {}, {})",
        r.id, r.players[0], r.players[1], r.result
    );
    match &a.decisive {
        None => format!("{head}: no decisive move (no values)"),
        Some(d) => format!(
            "{head}: decisive move at ply {} by {} ({}): played {}, the reference preferred {}; value {:.2} -> {:.2} ({}), {}",
            d.ply,
            r.players[d.seat],
            if d.seat == 0 { "seat 0" } else { "seat 1" },
            d.played,
            d.preferred
                .as_ref()
                .map_or("nothing".to_string(), |p| p.to_string()),
            d.before,
            d.after,
            if d.kind == "lost" {
                "exact: from not lost to lost"
            } else {
                "the largest drop"
            },
            d.phase
        ),
    }
}
