//! `ladderbot four3d-lab`: the data behind Score Four's `best` (issue 32):
//! self-play games, labelled positions, the fitted evaluation and its
//! accuracy, and the solver's benchmark set.

use super::out::say;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::CliError;
use crate::games::four3d::agents;
use crate::games::four3d::best::fitted::Model;
use crate::games::four3d::best::train::{
    self, accuracy, fitted_value, hand_value, label_game, pick_endgames, PlayedGame, Sample,
};
use crate::games::four3d::best::tt::Table;
use crate::games::AgentParams;

#[derive(Debug, Args)]
pub struct Four3dLabArgs {
    #[command(subcommand)]
    pub command: LabCommand,
}

#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// Play an agent against itself from random starts at a node budget (deterministic).
    Selfplay(SelfplayArgs),
    /// Label the quiet positions of games: exact solves late, game results earlier.
    Label(LabelArgs),
    /// Fit the evaluation on labelled positions; report its accuracy on held-out games
    /// beside the hand evaluation's.
    Train(TrainArgs),
    /// Pick positions at several depths before the end from games and label them with
    /// the solver: the set of `bench four3d-solve`.
    Endgames(EndgamesArgs),
}

#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The agent (with --param KEY=VALUE options); it plays one thread.
    #[arg(long, default_value = "ab-v1")]
    pub agent: String,
    /// An agent parameter KEY=VALUE (a number, or text) (repeatable).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Nodes per move.
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    /// Random drops at the start of every game.
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// Seed of the random starts (game i uses the seed and i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (each on its own thread).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Where to write the games (JSON lines: drops and winner).
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct LabelArgs {
    /// Games from `four3d-lab selfplay`.
    #[arg(long, value_name = "FILE.jsonl")]
    pub games: PathBuf,
    /// Solve positions with at most this many empty cells.
    #[arg(long, default_value_t = 20)]
    pub solve_empties: u32,
    /// The most nodes one solve may take (else the game's result labels it).
    #[arg(long, default_value_t = 2_000_000)]
    pub max_nodes: u64,
    /// Games labelled at once (each on its own thread).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Where to write the labelled positions (JSON lines).
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Labelled positions from `four3d-lab label`.
    #[arg(long, value_name = "FILE.jsonl")]
    pub samples: PathBuf,
    /// Games whose index is a multiple of this are held out (not fitted on).
    #[arg(long, default_value_t = 5)]
    pub holdout: usize,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    /// Where to write the fitted model (JSON); without it nothing is written.
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// Score this model file instead of fitting one.
    #[arg(long, value_name = "FILE.json")]
    pub model: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct EndgamesArgs {
    /// Games from `four3d-lab selfplay`.
    #[arg(long, value_name = "FILE.jsonl")]
    pub games: PathBuf,
    /// Empty cells of the positions, comma-separated.
    #[arg(long, default_value = "8,12,16,20", value_delimiter = ',')]
    pub empties: Vec<u32>,
    /// Positions per depth (at most one per game).
    #[arg(long, default_value_t = 12)]
    pub per_depth: usize,
    /// The most nodes one solve may take (else the position is skipped).
    #[arg(long, default_value_t = 50_000_000)]
    pub max_nodes: u64,
    /// Where to write the set (the format of `endgames.txt`).
    #[arg(long, value_name = "FILE.txt")]
    pub out: PathBuf,
}

pub(super) fn runtime(what: &str, e: impl std::fmt::Display) -> CliError {
    CliError::Runtime(format!("four3d-lab {what}: {e}"))
}

/// The lines of a JSON-lines file, by the one reader
/// ([`crate::records::read_json_lines`]: a torn last line skipped with a
/// warning, a bad line elsewhere an error naming it).
pub(super) fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, CliError> {
    let read = crate::records::read_json_lines::<T>(path, "valid line").map_err(CliError::Usage)?;
    Ok(read.values.into_iter().map(|(_, v)| v).collect())
}

fn write_lines(path: &Path, lines: impl IntoIterator<Item = String>) -> Result<(), CliError> {
    let mut f = std::io::BufWriter::new(
        std::fs::File::create(path)
            .map_err(|e| runtime("write", format!("{}: {e}", path.display())))?,
    );
    for l in lines {
        writeln!(f, "{l}").map_err(|e| runtime("write", e))?;
    }
    f.flush().map_err(|e| runtime("write", e))
}

/// Runs `work(i)` for `i` in `0..n` on `jobs` threads; results in order.
fn parallel<T: Send>(
    n: usize,
    jobs: usize,
    work: impl Fn(usize) -> Result<T, String> + Sync,
) -> Result<Vec<T>, CliError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<T, String>>> = (0..n).map(|_| None).collect();
    let results = std::sync::Mutex::new(&mut slots);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = work(i);
                if let Ok(mut g) = results.lock() {
                    g[i] = Some(r);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| Err("not run".into()))
                .map_err(CliError::Runtime)
        })
        .collect()
}

fn params_of(list: &[String]) -> Result<AgentParams, CliError> {
    let mut p = AgentParams::new();
    for kv in list {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("--param {kv}: expected KEY=VALUE")))?;
        let value = serde_json::from_str(v).unwrap_or_else(|_| serde_json::Value::String(v.into()));
        p.insert(k.into(), value);
    }
    Ok(p)
}

pub fn run(args: Four3dLabArgs) -> Result<(), CliError> {
    match args.command {
        LabCommand::Selfplay(a) => {
            let mut params = params_of(&a.params)?;
            params.entry("threads".to_string()).or_insert(1.into());
            // Fail early on a bad agent or parameter.
            agents::build(&a.agent, &params, a.seed).map_err(CliError::Usage)?;
            let games = parallel(a.games as usize, a.jobs, |i| {
                let mut agent = agents::build(&a.agent, &params, a.seed)?;
                Ok(train::self_play_game(
                    agent.as_mut(),
                    a.nodes,
                    a.random_plies,
                    a.seed,
                    i as u64,
                ))
            })?;
            let lines = games
                .iter()
                .map(|g| serde_json::to_string(g).unwrap_or_default());
            write_lines(&a.out, lines)?;
            let wins = [0, 1].map(|s| games.iter().filter(|g| g.winner == Some(s)).count());
            eprintln!(
                "four3d-lab selfplay: {} games, first player won {}, second {}, drawn {}",
                games.len(),
                wins[0],
                wins[1],
                games.len() - wins[0] - wins[1]
            );
            Ok(())
        }
        LabCommand::Label(a) => {
            let games: Vec<PlayedGame> = read_jsonl(&a.games)?;
            let labelled = parallel(games.len(), a.jobs, |i| {
                let table = Table::new(20);
                label_game(i, &games[i], a.solve_empties, a.max_nodes, &table)
            })?;
            let samples: Vec<Sample> = labelled.into_iter().flatten().collect();
            let solved = samples.iter().filter(|s| s.solved).count();
            write_lines(
                &a.out,
                samples
                    .iter()
                    .map(|s| serde_json::to_string(s).unwrap_or_default()),
            )?;
            eprintln!(
                "four3d-lab label: {} positions from {} games, {solved} labelled by exact solves",
                samples.len(),
                games.len()
            );
            Ok(())
        }
        LabCommand::Train(a) => {
            if a.holdout < 2 {
                return Err(CliError::Usage("--holdout must be at least 2".into()));
            }
            let samples: Vec<Sample> = read_jsonl(&a.samples)?;
            let (test, fit_on): (Vec<&Sample>, Vec<&Sample>) =
                samples.iter().partition(|s| s.game % a.holdout == 0);
            let model = match &a.model {
                Some(path) => {
                    let text = std::fs::read_to_string(path).map_err(|e| runtime("train", e))?;
                    Model::from_json(&text).map_err(CliError::Usage)?
                }
                None => {
                    let owned: Vec<Sample> = fit_on.iter().map(|s| (*s).clone()).collect();
                    train::fit(&owned, a.l2).map_err(CliError::Runtime)?
                }
            };
            let solved: Vec<&Sample> = test.iter().copied().filter(|s| s.solved).collect();
            let results: Vec<&Sample> = test.iter().copied().filter(|s| !s.solved).collect();
            let mut report = serde_json::Map::new();
            for (name, set) in [("held_out_solved", &solved), ("held_out_results", &results)] {
                let hand = accuracy(set, |b| hand_value(b) as f64).map_err(CliError::Runtime)?;
                let fitted =
                    accuracy(set, |b| fitted_value(&model, b)).map_err(CliError::Runtime)?;
                report.insert(
                    name.into(),
                    serde_json::json!({"hand (ab-v1)": hand, "fitted": fitted}),
                );
            }
            report.insert("fitted_on".into(), fit_on.len().into());
            report.insert("held_out".into(), test.len().into());
            if let Some(out) = &a.out {
                let about = format!(
                    "fitted by `ladderbot four3d-lab train --samples {} --holdout {} --l2 {}` on {} positions ({} solved)",
                    a.samples.display(),
                    a.holdout,
                    a.l2,
                    fit_on.len(),
                    fit_on.iter().filter(|s| s.solved).count()
                );
                std::fs::write(out, model.to_json(&about)).map_err(|e| runtime("train", e))?;
            }
            say!("{}", serde_json::Value::Object(report));
            Ok(())
        }
        LabCommand::Endgames(a) => {
            let games: Vec<PlayedGame> = read_jsonl(&a.games)?;
            let set = pick_endgames(&games, &a.empties, a.per_depth, a.max_nodes)
                .map_err(CliError::Runtime)?;
            let header = format!(
                "# Score Four endgames for `ladderbot bench four3d-solve`: EMPTIES VALUE PEGS (drops as hex pegs; value WIN-ply for a win at that ply, 0 a draw).\n# Made by `ladderbot four3d-lab endgames --games {} --empties {} --per-depth {} --max-nodes {}`.",
                a.games.display(),
                a.empties.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(","),
                a.per_depth,
                a.max_nodes
            );
            write_lines(
                &a.out,
                std::iter::once(header).chain(set.iter().map(|e| e.to_line())),
            )?;
            eprintln!("four3d-lab endgames: {} positions", set.len());
            Ok(())
        }
    }
}
