//! `ladderbot analyze FILE.jsonl...`: the value of every position of
//! recorded games by a reference ([`crate::analysis`]), each game's
//! decisive move, and where many games were lost. `--out` writes the
//! records again with their analysis (`analysis` in each line), which
//! `report --html` draws under each replay; a killed run resumes from it.

use super::out::say;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use clap::Args;

use super::{params_from, parse_param, CliError};
use crate::analysis::{self, AnalyzeConfig, GameAnalysis};
use crate::games::{GameKind, GameVisitor, PlayableGame};
use crate::records::{GameRecord, RecordWriter};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Records files (`match --out`, `serve --records`, `play --records`).
    #[arg(required = true, value_name = "FILE.jsonl")]
    pub files: Vec<PathBuf>,
    /// The reference agent (default: the game's strongest, `best`).
    #[arg(long)]
    pub agent: Option<String>,
    /// A parameter of the reference agent (repeatable).
    #[arg(long = "param", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub params: Vec<(String, serde_json::Value)>,
    /// Search each position to this depth (the reference agent's `depth` parameter).
    #[arg(long, conflicts_with_all = ["time_ms", "playouts"])]
    pub depth: Option<u64>,
    /// Milliseconds per position (default 1000, about ten times a ladder's move).
    #[arg(long, conflicts_with = "playouts")]
    pub time_ms: Option<u64>,
    /// Playouts (or nodes) per position instead of a time: a reproducible analysis.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// The exact solver's nodes per position, where the game has one (0: never solve).
    #[arg(long, default_value_t = 2_000_000)]
    pub solve_nodes: u64,
    /// Random playouts per position where the reference agent gives no value (0: none).
    #[arg(long, default_value_t = 64)]
    pub rollouts: u32,
    /// Games analysed at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Write each analysed record (with its `analysis`) to this file as it is done.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Skip the games already in --out (after a run that was killed).
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// One JSON line per game, then the summary as one JSON line.
    #[arg(long)]
    pub json: bool,
    /// Also write the report page of the analysed games (value curves under the replays).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// The seed of the reference agents and the random playouts (with --playouts, the same
    /// seed gives the same analysis).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

pub fn run(args: AnalyzeArgs) -> Result<(), CliError> {
    let usage = |m: String| CliError::Usage(format!("analyze: {m}"));
    if args.jobs == 0 {
        return Err(usage("--jobs must be at least 1".into()));
    }
    let records: Vec<GameRecord> = super::read_games("analyze", &args.files)?
        .records
        .into_iter()
        .map(|r| r.record)
        .collect();
    let mut params = params_from(&args.params);
    if let Some(d) = args.depth {
        params.insert("depth".into(), serde_json::Value::from(d));
    }
    let cfg = AnalyzeConfig {
        agent: args.agent.clone(),
        params,
        playouts: args.playouts,
        time_ms: match (args.playouts, args.depth, args.time_ms) {
            (None, None, None) => Some(1000),
            (_, _, t) => t,
        },
        solve_nodes: args.solve_nodes,
        rollouts: args.rollouts,
        seed: args.seed,
    };
    // The reference agent of every game present, built once with the
    // parameters: a name or a parameter it does not know is refused here,
    // before any game, not once per game.
    let mut games_present: Vec<GameKind> = Vec::new();
    for r in &records {
        let kind: GameKind = r
            .game
            .parse()
            .map_err(|e: String| usage(format!("game {}: {e}", r.id)))?;
        if !games_present.contains(&kind) {
            games_present.push(kind);
        }
    }
    for kind in &games_present {
        kind.visit(CheckReference(&cfg))
            .map_err(|e| usage(format!("{kind}: {e}")))?;
    }
    for path in args.out.iter().chain(&args.html) {
        super::check_writable("analyze", path)?;
    }
    let done: HashSet<String> = match (&args.out, args.resume) {
        (Some(out), true) if out.exists() => crate::records::read_for_append(out)
            .map_err(usage)?
            .values
            .into_iter()
            .filter(|(_, r)| r.analysis.is_some())
            .map(|(_, r)| r.id)
            .collect(),
        (Some(out), false) if out.exists() => {
            return Err(usage(format!(
                "{} exists: --resume skips the games already in it; or choose another --out",
                out.display()
            )))
        }
        _ => HashSet::new(),
    };
    // The games to do, by kind; records that cannot be replayed (no moves:
    // a GAT session's) are told once and skipped.
    let mut kinds: Vec<(GameKind, Vec<GameRecord>)> = Vec::new();
    let mut no_moves: Vec<String> = Vec::new();
    for r in records {
        if done.contains(&r.id) {
            continue;
        }
        let kind: GameKind = r
            .game
            .parse()
            .map_err(|e: String| usage(format!("game {}: {e}", r.id)))?;
        if r.start.is_null() {
            no_moves.push(r.id);
            continue;
        }
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, v)) => v.push(r),
            None => kinds.push((kind, vec![r])),
        }
    }
    let to_do: usize = kinds.iter().map(|(_, v)| v.len()).sum();
    if !no_moves.is_empty() {
        let what = format!(
            "{} record(s) hold no start position and moves to replay (as game {}: a GAT \
             session's records)",
            no_moves.len(),
            no_moves[0]
        );
        if to_do == 0 && done.is_empty() {
            return Err(usage(format!("no game to analyse: {what}")));
        }
        eprintln!("analyze: {what}; skipped");
    }
    if !done.is_empty() {
        eprintln!(
            "analyze: {} games already in the output; skipped",
            done.len()
        );
    }
    let writer = match &args.out {
        Some(p) => Some(
            RecordWriter::open(p)
                .map_err(|e| usage(format!("cannot open {}: {e}", p.display())))?,
        ),
        None => None,
    };
    let interrupt = super::match_cmd::Interrupt::watch("analyze");
    let mut all: Vec<(GameRecord, GameAnalysis)> = Vec::new();
    let mut summaries: Vec<String> = Vec::new();
    for (kind, records) in kinds {
        let analysed = kind
            .visit(Analyze {
                records,
                cfg: &cfg,
                jobs: args.jobs,
                writer: writer.as_ref(),
                json: args.json,
                interrupt: &interrupt.flag,
            })
            .map_err(CliError::Runtime)?;
        let summary = kind.visit(Summarize(&analysed));
        let text = format!("{}: {}", kind, summary.render().trim_end());
        if args.json {
            let mut v =
                serde_json::to_value(&summary).map_err(|e| CliError::Runtime(e.to_string()))?;
            v["type"] = "summary".into();
            v["game"] = kind.id().into();
            say!("{v}");
        } else {
            say!("{text}");
        }
        summaries.push(text);
        all.extend(analysed);
    }
    let interrupted = interrupt.signal();
    if to_do > 0 && all.is_empty() && interrupted.is_none() {
        return Err(CliError::Runtime(format!(
            "analyze: no game analysed: each of the {to_do} failed (the reasons above)"
        )));
    }
    if let Some(path) = &args.html {
        let entries: Vec<crate::report::Entry> = all
            .iter()
            .enumerate()
            .map(|(i, (r, _))| crate::report::Entry::Game {
                source: crate::report::Source {
                    file: "analyze".into(),
                    line: i + 1,
                },
                record: Box::new(r.clone()),
            })
            .collect();
        let page = crate::report::build_page(
            &entries,
            &crate::report::PageOptions {
                title: "ladderbot analyze".into(),
                limit_ms: None,
                summary: Some(summaries.join("\n")),
            },
        );
        std::fs::write(path, page.html)
            .map_err(|e| CliError::Runtime(format!("cannot write {}: {e}", path.display())))?;
    }
    match interrupted {
        Some(sig) => {
            eprintln!(
                "analyze: interrupted by {sig}{}",
                if args.out.is_some() {
                    "; the same command with --resume analyses the rest"
                } else {
                    ""
                }
            );
            Err(CliError::Interrupted(sig))
        }
        None => Ok(()),
    }
}

/// Builds the reference agent of a game once, with the analysis's
/// parameters: its errors (an unknown agent or parameter) before any game.
struct CheckReference<'a>(&'a AnalyzeConfig);
impl GameVisitor for CheckReference<'_> {
    type Output = Result<(), String>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        analysis::check_reference::<G>(self.0)
    }
}

struct Summarize<'a>(&'a [(GameRecord, GameAnalysis)]);
impl GameVisitor for Summarize<'_> {
    type Output = analysis::Summary;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        analysis::summarize::<G>(self.0)
    }
}

struct Analyze<'a> {
    records: Vec<GameRecord>,
    cfg: &'a AnalyzeConfig,
    jobs: usize,
    writer: Option<&'a RecordWriter>,
    json: bool,
    interrupt: &'a std::sync::atomic::AtomicBool,
}

impl GameVisitor for Analyze<'_> {
    type Output = Result<Vec<(GameRecord, GameAnalysis)>, String>;
    fn visit<G: PlayableGame>(self) -> Self::Output {
        let next = AtomicUsize::new(0);
        let records = &self.records;
        let (tx, rx) = mpsc::channel::<Result<(usize, GameAnalysis), String>>();
        let error: Mutex<Option<String>> = Mutex::new(None);
        let mut out: Vec<(GameRecord, GameAnalysis)> = Vec::new();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.min(records.len().max(1)) {
                let tx = tx.clone();
                let next = &next;
                let cfg = self.cfg;
                let interrupt = self.interrupt;
                scope.spawn(move || loop {
                    if interrupt.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(r) = records.get(i) else { break };
                    let a = analysis::analyze_record::<G>(r, cfg)
                        .map(|a| (i, a))
                        .map_err(|e| format!("{}: {e}", r.id));
                    if tx.send(a).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            for got in rx {
                match got {
                    Ok((i, a)) => {
                        let mut r = records[i].clone();
                        let line = analysis::describe_game(&r, &a);
                        r.analysis = serde_json::to_value(&a).ok();
                        if let Some(w) = self.writer {
                            if let Err(e) = w.append(&r) {
                                error
                                    .lock()
                                    .unwrap_or_else(|e| e.into_inner())
                                    .get_or_insert(format!("cannot write the output: {e}"));
                                self.interrupt.store(true, Ordering::SeqCst);
                            }
                        }
                        if self.json {
                            let mut v = serde_json::to_value(&a).unwrap_or_default();
                            v["type"] = "game".into();
                            v["id"] = r.id.clone().into();
                            v["players"] = serde_json::json!(r.players);
                            v["result"] = r.result.clone().into();
                            say!("{v}");
                        } else {
                            say!("{line}");
                        }
                        out.push((r, a));
                    }
                    Err(e) => {
                        eprintln!("analyze: {e}; skipped");
                    }
                }
            }
        });
        if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        Ok(out)
    }
}
