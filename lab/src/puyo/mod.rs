//! `ladderbot-lab puyo`: Puyo Puyo one-player experiments on seeded pair
//! sequences (the seed's completion and solo experiments). Each prints a
//! summary, or with `--json` one JSON object on the last line.

mod failures;
mod runs;

use crate::say;
use clap::{Args, Subcommand};
use serde_json::json;

use failures::{Diagnosis, Failure};
use ladderbot::cli::CliError;
use ladderbot::games::puyo::board::Over;
use ladderbot::games::puyo::wire::parse_options;
use ladderbot::games::puyo::{planner, solo};
use ladderbot::games::AgentParams;

#[derive(Debug, Args)]
pub struct PuyoLabArgs {
    #[command(subcommand)]
    pub command: LabCommand,
}

#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// Template placement alone: moves until the best match reaches 0.95.
    Completion(CompletionArgs),
    /// One player: an agent builds until it fires its final chain.
    Solo(SoloArgs),
}

#[derive(Debug, Args)]
pub struct CompletionArgs {
    /// Template set: stairs, sandwich, domino or all.
    #[arg(long, default_value = "stairs")]
    pub templates: String,
    /// Pair sequences (runs).
    #[arg(long, default_value_t = 50)]
    pub sequences: u64,
    /// Search depth: 1 (the current pair) or 3 (all known pairs).
    #[arg(long, default_value_t = 3)]
    pub depth: usize,
    /// First sequence's seed (sequences are seed, seed+1, ...).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule set: tsu (the default) or seed (the game options of `puyo`).
    #[arg(long, default_value = "tsu")]
    pub rules: String,
    /// Game-over rule instead of the rule set's: cell, top or full.
    #[arg(long)]
    pub over: Option<String>,
    /// A template planner parameter, KEY=VALUE (repeatable): choice
    /// (best, count, mean), weights (mean, min).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Print one JSON object on the last line instead of the summary.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SoloArgs {
    /// Agent: any Puyo agent (random, template, potential, combined, best, beam-v1).
    #[arg(long)]
    pub agent: String,
    /// Pair sequences (runs).
    #[arg(long, default_value_t = 50)]
    pub sequences: u64,
    /// First sequence's seed (sequences are seed, seed+1, ...).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule set: tsu (the default) or seed (the game options of `puyo`).
    #[arg(long, default_value = "tsu")]
    pub rules: String,
    /// Game-over rule instead of the rule set's: cell, top or full.
    #[arg(long)]
    pub over: Option<String>,
    /// An agent parameter, KEY=VALUE (repeatable).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Print every move's pairs, placement, chain and field on stderr.
    #[arg(long)]
    pub trace: bool,
    /// Runs fired under this many links count as failed and are read for
    /// why (died, broken, tall, full, early: docs/puyo.md).
    #[arg(long, default_value_t = 13)]
    pub short: u8,
    /// Sequences played at once, one thread each (the search is timed:
    /// more jobs than idle cores change the results).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Print one JSON object on the last line instead of the summary.
    #[arg(long)]
    pub json: bool,
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        s / n as f64
    }
}

fn parse_params(raw: &[String]) -> Result<AgentParams, CliError> {
    let mut params = AgentParams::new();
    for p in raw {
        let (k, v) = p
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("--param {p}: expected KEY=VALUE")))?;
        params.insert(k.trim().to_string(), json!(v.trim()));
    }
    Ok(params)
}

/// One traced move on stderr: the pairs (current first), where the
/// current one went, the chain it fired, then the field, top row first.
fn print_step(s: &solo::SoloStep) {
    let pairs: Vec<String> = s
        .pairs
        .iter()
        .map(|p| {
            let k = ladderbot::games::puyo::board::KIND_CHARS;
            format!("{}{}", k[p.axis as usize], k[p.child as usize])
        })
        .collect();
    eprintln!(
        "move {} pairs {} at col {} rot {} chain {} attack {}",
        s.number,
        pairs.join(" "),
        s.at.col,
        s.at.rot,
        s.chain.links,
        s.chain.attack()
    );
    for row in s.board.rows() {
        eprintln!("  {row}");
    }
}

/// A uniformly random placement that fits: the `random` agent's play, as
/// a chooser for the solo lab (a baseline).
struct RandomChooser(rand::rngs::SmallRng);

impl planner::Chooser for RandomChooser {
    fn choose(&mut self, v: &planner::View) -> ladderbot::games::puyo::board::Placement {
        use rand::seq::SliceRandom;
        let pair = v.pairs[0];
        let moves: Vec<_> = v.board.placements(pair).collect();
        moves
            .choose(&mut self.0)
            .copied()
            .unwrap_or_else(|| planner::any_move(&v.board, pair))
    }
}

/// The chooser of the Puyo agent `agent` for a solo run (every agent of
/// `ladderbot agents puyo`; `random` draws from `seed`).
fn solo_chooser(
    agent: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn planner::Chooser>, String> {
    use ladderbot::games::puyo::agents::{DEFAULT, NAMES};
    use rand::SeedableRng;
    match ladderbot::games::agent_name(agent, DEFAULT) {
        "random" => {
            ladderbot::games::params::Decl::new("random").read(params)?;
            Ok(Box::new(RandomChooser(
                rand::rngs::SmallRng::seed_from_u64(seed),
            )))
        }
        name if NAMES.contains(&name) => {
            ladderbot::games::puyo::choosers::build_chooser(name, params)
        }
        other => Err(format!(
            "puyo solo: unknown agent '{other}' (puyo agents: {})",
            NAMES.join(", ")
        )),
    }
}

pub fn run(args: PuyoLabArgs) -> Result<(), CliError> {
    match args.command {
        LabCommand::Completion(a) => completion(a),
        LabCommand::Solo(a) => solo(a),
    }
}

/// The game-over rule of `--rules` and `--over`, as the game options
/// would give it.
fn rule(rules: &str, over: &Option<String>) -> Result<Over, CliError> {
    let mut options = ladderbot::games::GameOptions::new();
    options.insert("rules".into(), json!(rules));
    if let Some(o) = over {
        options.insert("over".into(), json!(o));
    }
    parse_options(&options).map_err(CliError::Usage)
}

fn completion(a: CompletionArgs) -> Result<(), CliError> {
    let over = rule(&a.rules, &a.over)?;
    if !(1..=3).contains(&a.depth) {
        return Err(CliError::Usage(
            "puyo completion: --depth must be 1, 2 or 3".into(),
        ));
    }
    if a.sequences == 0 {
        return Err(CliError::Usage(
            "puyo completion: --sequences must be at least 1".into(),
        ));
    }
    let mut params = parse_params(&a.params)?;
    for key in ["templates", "depth"] {
        if params.contains_key(key) {
            return Err(CliError::Usage(format!(
                "puyo completion: give {key} as --{key}, not --param"
            )));
        }
    }
    params.insert("templates".into(), json!(a.templates));
    params.insert("depth".into(), json!(a.depth));
    // Checks the parameters too (unknown ones are errors).
    let planner =
        ladderbot::games::puyo::choosers::template_planner(&params).map_err(CliError::Usage)?;
    let runs: Vec<runs::CompletionRun> = (0..a.sequences)
        .map(|i| runs::completion_run(&planner, a.seed + i, over))
        .collect();
    let cap = solo::MAX_MOVES as f64;
    let n = runs.len() as f64;
    let done: Vec<f64> = runs.iter().filter_map(|r| r.moves.map(f64::from)).collect();
    let failed = runs.len() - done.len();
    // A run that never completes counts as the cap: the mean is then a
    // lower bound, and `failed` says how many.
    let mean_moves = mean(runs.iter().map(|r| r.moves.map_or(cap, f64::from)));
    let over30 = runs
        .iter()
        .filter(|r| r.moves.is_none_or(|m| m > 30))
        .count() as f64
        / n;
    let played: u32 = runs.iter().map(|r| r.played).sum();
    let ms_per_move = runs.iter().map(|r| r.total_ms).sum::<f64>() / played.max(1) as f64;
    let max_ms = runs.iter().map(|r| r.max_ms).fold(0.0, f64::max);
    let mut sorted = done.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted.get(sorted.len() / 2).copied();
    let out = json!({
        "command": "completion",
        "templates": a.templates,
        "depth": a.depth,
        "params": a.params,
        "sequences": a.sequences,
        "seed": a.seed,
        "rules": a.rules,
        "over": over.name(),
        "completed": done.len(),
        "failed": failed,
        "mean_moves": mean_moves,
        "median_moves": median,
        "over30_share": over30,
        "mean_ms_per_move": ms_per_move,
        "max_ms_per_move": max_ms,
    });
    if a.json {
        say!("{out}");
    } else {
        say!(
            "completion ({}, depth {}): {} sequences, mean {:.2} moves (median {}), {:.1}% over 30, {} never completed; {:.2} ms per move (max {:.1})",
            a.templates,
            a.depth,
            a.sequences,
            mean_moves,
            median.map_or("-".into(), |m| m.to_string()),
            over30 * 100.0,
            failed,
            ms_per_move,
            max_ms
        );
    }
    Ok(())
}

fn solo(a: SoloArgs) -> Result<(), CliError> {
    if a.sequences == 0 {
        return Err(CliError::Usage(
            "puyo solo: --sequences must be at least 1".into(),
        ));
    }
    let over = rule(&a.rules, &a.over)?;
    let params = parse_params(&a.params)?;
    // Checks the agent and its parameters before any thread starts.
    solo_chooser(&a.agent, &params, a.seed).map_err(CliError::Usage)?;
    // `random` draws each sequence's placements from its own seed, so that
    // the runs do not depend on --jobs.
    let fresh_each_sequence = ladderbot::games::agent_name(&a.agent, "") == "random";
    if a.jobs == 0 || (a.trace && a.jobs > 1) {
        return Err(CliError::Usage(
            "puyo solo: --jobs must be at least 1, and 1 with --trace".into(),
        ));
    }
    let next = std::sync::atomic::AtomicU64::new(0);
    let mut played_runs: Vec<(solo::SoloRun, Diagnosis)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..a.jobs.min(a.sequences as usize))
            .map(|_| {
                s.spawn(|| {
                    let mut chooser =
                        solo_chooser(&a.agent, &params, a.seed).expect("checked above");
                    let mut done = vec![];
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= a.sequences {
                            return done;
                        }
                        if fresh_each_sequence {
                            chooser =
                                solo_chooser(&a.agent, &params, a.seed + i).expect("checked above");
                        }
                        if a.trace {
                            eprintln!("== sequence {}", a.seed + i);
                        }
                        let trace: &mut dyn FnMut(&solo::SoloStep) = if a.trace {
                            &mut print_step
                        } else {
                            &mut |_| {}
                        };
                        done.push(runs::solo_run_diagnosed(
                            chooser.as_mut(),
                            a.seed + i,
                            over,
                            trace,
                        ));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a solo worker panicked"))
            .collect()
    });
    played_runs.sort_by_key(|r| r.0.seed);
    let runs: Vec<solo::SoloRun> = played_runs.iter().map(|r| r.0).collect();
    // Why the runs under --short links fell short.
    let failed: Vec<serde_json::Value> = played_runs
        .iter()
        .filter(|r| r.0.chain < a.short)
        .map(|(r, d)| json!({"seed": r.seed, "played": r.played, "diagnosis": d}))
        .collect();
    let mut failures = serde_json::Map::new();
    for f in Failure::ALL {
        let n = played_runs
            .iter()
            .filter(|r| r.0.chain < a.short && r.1.failure == f)
            .count();
        failures.insert(f.name().into(), json!(n));
    }
    let played: u32 = runs.iter().map(|r| r.played).sum();
    let ms_per_move = runs.iter().map(|r| r.total_ms).sum::<f64>() / played.max(1) as f64;
    let max_ms = runs.iter().map(|r| r.max_ms).fold(0.0, f64::max);
    let fired: Vec<&solo::SoloRun> = runs.iter().filter(|r| r.fire_move.is_some()).collect();
    let mean_chain = mean(runs.iter().map(|r| r.chain as f64));
    let mean_attack = mean(runs.iter().map(|r| r.attack as f64));
    let mean_score = mean(runs.iter().map(|r| r.score as f64));
    let mean_fire = mean(fired.iter().filter_map(|r| r.fire_move.map(f64::from)));
    let under8 = runs.iter().filter(|r| r.chain < 8).count() as f64 / runs.len() as f64;
    // Runs by the links of their final chain (index = links).
    let mut chain_counts = vec![0u32; 1 + runs.iter().map(|r| r.chain as usize).max().unwrap_or(0)];
    for r in &runs {
        chain_counts[r.chain as usize] += 1;
    }
    let out = json!({
        "command": "solo",
        "agent": a.agent,
        "sequences": a.sequences,
        "seed": a.seed,
        "rules": a.rules,
        "over": over.name(),
        "mean_chain": mean_chain,
        "mean_attack": mean_attack,
        "mean_score": mean_score,
        "mean_fire_move": mean_fire,
        "fired": fired.len(),
        "under8_share": under8,
        "chain_counts": chain_counts,
        "chains": runs.iter().map(|r| r.chain).collect::<Vec<_>>(),
        "under10_share": runs.iter().filter(|r| r.chain < 10).count() as f64 / runs.len() as f64,
        "short": a.short,
        "failures": failures,
        "failed_runs": failed,
        "mean_ms_per_move": ms_per_move,
        "max_ms_per_move": max_ms,
    });
    if a.json {
        say!("{out}");
    } else {
        say!(
            "solo {}: {} sequences, mean chain {:.2}, attack {:.1}, Tsu score {:.0}, fired at move {:.1} ({} fired, {:.1}% under 8 links); {:.2} ms per move (max {:.1})",
            a.agent,
            a.sequences,
            mean_chain,
            mean_attack,
            mean_score,
            mean_fire,
            fired.len(),
            under8 * 100.0,
            ms_per_move,
            max_ms
        );
        let counts: Vec<String> = failures.iter().map(|(k, v)| format!("{k} {v}")).collect();
        say!(
            "  {} runs under {} links: {}",
            failed.len(),
            a.short,
            counts.join(", ")
        );
    }
    Ok(())
}
