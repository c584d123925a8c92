//! `ladderbot-lab four3d`: the data behind Score Four's `best`
//! self-play games, labelled positions, the fitted evaluation and its
//! accuracy, and the solver's benchmark set.

mod judge;
mod net;
mod solve_deep;
mod train;

use crate::say;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use crate::common::{parallel, read_jsonl, write_lines};
use judge::{Band, Row};
use ladderbot::cli::CliError;
use ladderbot::games::four3d::agents;
use ladderbot::games::four3d::best::fitted::fitted_value;
use ladderbot::games::four3d::best::fitted::Model;
use ladderbot::games::four3d::best::nnue::Net;
use ladderbot::games::four3d::best::tt::Table;
use ladderbot::games::four3d::best::{Best, BestConfig};
use ladderbot::games::four3d::Board;
use train::{accuracy, hand_value, label_game, pick_endgames, LabelPlan, PlayedGame, Sample};

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
    /// The fast offline measure of judgement: result accuracy and log loss of evaluations
    /// on held-out labelled positions per band of plies, and where a search first calls
    /// lost games lost.
    Judge(JudgeArgs),
    /// Games of records files (`serve --records`, `match --out`...) as lab games (drops
    /// and winner), for `label` and `judge --lost`.
    Games(GamesArgs),
    /// Train the network added to the shipped fitted evaluation on labelled positions
    /// (the games `train` fits on); its held-out log loss beside the fitted one's.
    TrainNet(TrainNetArgs),
    /// Time the labelling solver's levers (claimeven bounds, transposition cutoffs,
    /// win/draw/loss only) on the deep set of real games at 28-32 empty cells, one pass,
    /// one thread, every value checked against its label. Takes minutes.
    SolveDeep(SolveDeepArgs),
}

#[derive(Debug, Args)]
pub struct SolveDeepArgs {
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TrainNetArgs {
    /// Labelled positions from `ladderbot-lab four3d label` (repeatable; game indexes are
    /// per file).
    #[arg(long, required = true, value_name = "FILE.jsonl")]
    pub samples: Vec<PathBuf>,
    /// Games whose index is a multiple of this are held out (not trained on).
    #[arg(long, default_value_t = 5)]
    pub holdout: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Early stop: of the games not held out, those whose index is one less than a
    /// multiple of this are a validation set, not trained on; the network kept is the
    /// epoch's with the lowest validation log loss (0: none, the last epoch's; so too,
    /// with a warning, when no game is left to validate on).
    #[arg(long, default_value_t = 0)]
    pub validate: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f32,
    /// Seed of the first weights and of the order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// What the network learns: each position's label (`label`: a solve, a deep search
    /// or the game's result), or the game's result where the solver did not settle the
    /// position (`result`).
    #[arg(long, default_value = "label", value_parser = ["label", "result"])]
    pub target: String,
    /// What the network reads: the cells and threats of each colour (`cells`), or
    /// those and, for each peg holding a threat, its fill height and both sides'
    /// lowest threats on it (`pegs`).
    #[arg(long, default_value = "cells", value_parser = ["cells", "pegs"])]
    pub inputs: String,
    /// Train on each training position's images under the grid's eight symmetries
    /// (the mirrors in x and y and the swap of x and y), each distinct image once:
    /// the same position on a turned board has the same value. The validation and
    /// held-out positions are left as they are.
    #[arg(long)]
    pub symmetries: bool,
    /// Where to write the network (JSON; `best`'s `net_file`).
    #[arg(long, value_name = "FILE.json")]
    pub out: PathBuf,
    /// Print the figures as one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
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
    #[arg(long = "param", value_parser = ladderbot::cli::parse_param, value_name = "KEY=VALUE")]
    pub params: Vec<(String, serde_json::Value)>,
    /// Nodes per move.
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    /// Random drops at the start of every game (after its opening, with --openings).
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// Exploratory drops per game in the middle of the game, at plies drawn from
    /// --explore-plies: at each a random drop among the tactically sound ones
    /// (the win, else the forced blocks, else the drops that hand over no win)
    /// instead of the agent's move, so that the later positions leave the
    /// agent's own line (0: none; the other drops of a game are unchanged).
    #[arg(long, default_value_t = 0)]
    pub explore: u32,
    /// The plies (FROM-TO, inclusive) the exploratory drops are drawn from.
    #[arg(long, default_value = "16-30", value_name = "FROM-TO", value_parser = parse_ply_span)]
    pub explore_plies: (u32, u32),
    /// Start game i from opening i mod n of this suite (the format of
    /// openings/four3d.txt), then the random drops.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
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
    /// Games from `ladderbot-lab four3d selfplay`.
    #[arg(long, value_name = "FILE.jsonl")]
    pub games: PathBuf,
    /// Solve positions with at most this many empty cells.
    #[arg(long, default_value_t = 20)]
    pub solve_empties: u32,
    /// The most nodes one solve may take (else a deep search or the game's result labels it).
    #[arg(long, default_value_t = 2_000_000)]
    pub max_nodes: u64,
    /// Solve for win, draw or loss only (claimeven bounds, transposition cutoffs, a null
    /// window around the draw): the same labels several times faster, without the
    /// distance to the end (`value`), so solves reach further under the same node cap.
    #[arg(long)]
    pub wdl: bool,
    /// Label the positions not solved from --deep-from on by a search of `best` of this
    /// many nodes (its win share for the side to move); 0: by the game's result.
    #[arg(long, default_value_t = 0, value_name = "NODES")]
    pub deep_nodes: u64,
    /// The first ply the deep searches label.
    #[arg(long, default_value_t = 20, value_name = "PLY")]
    pub deep_from: u32,
    /// Games labelled at once (each on its own thread).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Where to write the labelled positions (JSON lines).
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Labelled positions from `ladderbot-lab four3d label`.
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
    /// Print the result as one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct EndgamesArgs {
    /// Games from `ladderbot-lab four3d selfplay`.
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

#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// Labelled positions from `ladderbot-lab four3d label`; those of games whose index is a
    /// multiple of --holdout are judged (the ones `train` does not fit on).
    #[arg(long, value_name = "FILE.jsonl")]
    pub samples: Option<PathBuf>,
    /// Games whose index is a multiple of this are held out.
    #[arg(long, default_value_t = 5)]
    pub holdout: usize,
    /// More labelled positions, all judged (such as the games lost against another
    /// program) (repeatable).
    #[arg(long, value_name = "FILE.jsonl")]
    pub held_out: Vec<PathBuf>,
    /// An evaluation to judge beside the hand one (`ab-v1`) and the shipped fitted one
    /// (`ab-v2`, `best`): a model file of `train --out` (repeatable).
    #[arg(long, value_name = "FILE.json")]
    pub model: Vec<PathBuf>,
    /// A network (`train-net --out`) to judge added to the shipped fitted evaluation, as
    /// `best` runs it with `net_file` (repeatable).
    #[arg(long, value_name = "FILE.json")]
    pub net: Vec<PathBuf>,
    /// Bands of plies, FROM-TO separated by commas.
    #[arg(long, default_value = judge::DEFAULT_BANDS)]
    pub bands: String,
    /// Lab games (`ladderbot-lab four3d games`) one side lost: the first ply at which `best`'s
    /// search without its network (`ab-v3`), and the same search with each --model and
    /// each --net, calls the loser's position lost.
    #[arg(long, value_name = "FILE.jsonl")]
    pub lost: Option<PathBuf>,
    /// Nodes of that search (deterministic; at least what `best` searches in a 100 ms move
    /// on a 2-core machine, about 196,000).
    #[arg(long, default_value_t = 500_000, value_name = "NODES")]
    pub lost_nodes: u64,
    /// A win share at or below this is calling the position lost.
    #[arg(long, default_value_t = 0.15)]
    pub lost_share: f64,
    /// The first ply looked at.
    #[arg(long, default_value_t = 16, value_name = "PLY")]
    pub lost_from: u32,
    /// Games searched at once (each on its own thread).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Records files of Score Four games.
    #[arg(long = "records", required = true, value_name = "FILE.jsonl")]
    pub records: Vec<PathBuf>,
    /// Keep only the games this player lost (a recorded name `NAME:...` counts as NAME,
    /// as in `merge --of`: `A` is `match`'s side A).
    #[arg(long, value_name = "NAME")]
    pub lost_by: Option<String>,
    /// Where to write the games (JSON lines: drops and winner).
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: PathBuf,
}

fn runtime(what: &str, e: impl std::fmt::Display) -> CliError {
    CliError::Runtime(format!("four3d {what}: {e}"))
}

/// A span of plies `FROM-TO` (inclusive, FROM <= TO).
fn parse_ply_span(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once('-')
        .ok_or_else(|| format!("`{s}` is not FROM-TO"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{t}` in `{s}` is not a ply"))
    };
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(format!("`{s}`: FROM is after TO"));
    }
    Ok((a, b))
}

pub fn run(args: Four3dLabArgs) -> Result<(), CliError> {
    match args.command {
        LabCommand::Selfplay(a) => {
            let mut params = ladderbot::cli::params_from(&a.params);
            params.entry("threads".to_string()).or_insert(1.into());
            // Fail early on a bad agent or parameter.
            agents::build(&a.agent, &params, a.seed).map_err(CliError::Usage)?;
            let openings = match &a.openings {
                Some(path) => opening_pegs(path)?,
                None => vec![vec![]],
            };
            let games = parallel(a.games as usize, a.jobs, |i| {
                let mut agent = agents::build(&a.agent, &params, a.seed)?;
                train::self_play_game(
                    agent.as_mut(),
                    a.nodes,
                    &openings[i % openings.len()],
                    a.random_plies,
                    train::Explore {
                        drops: a.explore,
                        from: a.explore_plies.0,
                        to: a.explore_plies.1,
                    },
                    a.seed,
                    i as u64,
                )
            })?;
            let lines = games
                .iter()
                .map(|g| serde_json::to_string(g).unwrap_or_default());
            write_lines(&a.out, lines)?;
            let wins = [0, 1].map(|s| games.iter().filter(|g| g.winner == Some(s)).count());
            let explored: usize = games.iter().map(|g| g.explored.len()).sum();
            eprintln!(
                "four3d selfplay: {} games, first player won {}, second {}, drawn {}; {} exploratory drops",
                games.len(),
                wins[0],
                wins[1],
                games.len() - wins[0] - wins[1],
                explored
            );
            Ok(())
        }
        LabCommand::Label(a) => {
            let games: Vec<PlayedGame> = read_jsonl(&a.games)?;
            let plan = LabelPlan {
                solve_empties: a.solve_empties,
                max_nodes: a.max_nodes,
                deep_nodes: a.deep_nodes,
                deep_from: a.deep_from,
                wdl: a.wdl,
            };
            let labelled = parallel(games.len(), a.jobs, |i| {
                let table = Table::new(20);
                // `best`'s search without its network, so that the labels
                // do not depend on the network they train.
                let deep = Best::new(BestConfig {
                    threads: 1,
                    tt_bits: 20,
                    ..BestConfig::v3()
                });
                label_game(i, &games[i], &plan, &table, &deep)
            })?;
            let samples: Vec<Sample> = labelled.into_iter().flatten().collect();
            let solved = samples.iter().filter(|s| s.solved).count();
            let deep = samples.iter().filter(|s| s.deep.is_some()).count();
            write_lines(
                &a.out,
                samples
                    .iter()
                    .map(|s| serde_json::to_string(s).unwrap_or_default()),
            )?;
            eprintln!(
                "four3d label: {} positions from {} games, {solved} labelled by exact solves, {deep} by deep searches",
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
            // Nothing to fit on or to score: bad input, not all-zero figures.
            if samples.is_empty() {
                return Err(CliError::Usage(format!(
                    "four3d train: {} holds no labelled position (`ladderbot-lab four3d label` writes them)",
                    a.samples.display()
                )));
            }
            if fit_on.is_empty() && a.model.is_none() {
                return Err(CliError::Usage(format!(
                    "four3d train: no position to fit on in {}: every game is held out (--holdout {})",
                    a.samples.display(),
                    a.holdout
                )));
            }
            let model = match &a.model {
                Some(path) => {
                    let bad = |e: String| {
                        CliError::Usage(format!("four3d train: --model {}: {e}", path.display()))
                    };
                    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
                    Model::from_json(&text).map_err(bad)?
                }
                None => {
                    let owned: Vec<Sample> = fit_on.iter().map(|s| (*s).clone()).collect();
                    train::fit(&owned, a.l2).map_err(CliError::Runtime)?
                }
            };
            let solved: Vec<&Sample> = test.iter().copied().filter(|s| s.solved).collect();
            let results: Vec<&Sample> = test.iter().copied().filter(|s| !s.solved).collect();
            let mut report = serde_json::Map::new();
            let mut rows = Vec::new();
            for (name, set) in [("held_out_solved", &solved), ("held_out_results", &results)] {
                let hand = accuracy(set, |b| hand_value(b) as f64).map_err(CliError::Runtime)?;
                let fitted =
                    accuracy(set, |b| fitted_value(&model, b)).map_err(CliError::Runtime)?;
                report.insert(
                    name.into(),
                    serde_json::json!({"hand (ab-v1)": hand, "fitted": fitted}),
                );
                rows.push((name, hand, fitted));
            }
            report.insert("fitted_on".into(), fit_on.len().into());
            report.insert("held_out".into(), test.len().into());
            if let Some(out) = &a.out {
                let about = format!(
                    "fitted by `ladderbot-lab four3d train --samples {} --holdout {} --l2 {}` on {} positions ({} solved)",
                    a.samples.display(),
                    a.holdout,
                    a.l2,
                    fit_on.len(),
                    fit_on.iter().filter(|s| s.solved).count()
                );
                std::fs::write(out, model.to_json(&about)).map_err(|e| runtime("train", e))?;
            }
            if a.json {
                say!("{}", serde_json::Value::Object(report));
                return Ok(());
            }
            say!(
                "{} positions fitted on{}; {} held out",
                fit_on.len(),
                if a.model.is_some() {
                    " (not fitted: --model scored)"
                } else {
                    ""
                },
                test.len()
            );
            say!("held-out positions  evaluation    positions  decisive  sign right  log loss");
            for (name, hand, fitted) in &rows {
                let set = if *name == "held_out_solved" {
                    "solved"
                } else {
                    "by the result"
                };
                for (eval, x) in [("hand (ab-v1)", hand), ("fitted", fitted)] {
                    say!(
                        "{set:<19} {eval:<13} {:>9} {:>9} {:>10.1}% {:>9.4}",
                        x.positions,
                        x.decisive,
                        100.0 * x.sign_accuracy,
                        x.log_loss
                    );
                }
            }
            if let Some(out) = &a.out {
                say!("written: {}", out.display());
            }
            Ok(())
        }
        LabCommand::Endgames(a) => {
            let games: Vec<PlayedGame> = read_jsonl(&a.games)?;
            let set = pick_endgames(&games, &a.empties, a.per_depth, a.max_nodes)
                .map_err(CliError::Runtime)?;
            let header = format!(
                "# Score Four endgames for `ladderbot bench four3d-solve`: EMPTIES VALUE PEGS (drops as hex pegs; value WIN-ply for a win at that ply, 0 a draw).\n# Made by `ladderbot-lab four3d endgames --games {} --empties {} --per-depth {} --max-nodes {}`.",
                a.games.display(),
                a.empties.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(","),
                a.per_depth,
                a.max_nodes
            );
            write_lines(
                &a.out,
                std::iter::once(header).chain(set.iter().map(|e| e.to_line())),
            )?;
            eprintln!("four3d endgames: {} positions", set.len());
            Ok(())
        }
        LabCommand::Judge(a) => run_judge(&a),
        LabCommand::Games(a) => run_games(&a),
        LabCommand::TrainNet(a) => run_train_net(&a),
        LabCommand::SolveDeep(a) => {
            let r = solve_deep::solve_deep();
            if a.json {
                say!(
                    "{}",
                    serde_json::to_string(&r).map_err(|e| runtime("solve-deep", e))?
                );
            } else {
                say!("{}", ladderbot::bench::render(&r));
            }
            Ok(())
        }
    }
}

fn run_train_net(a: &TrainNetArgs) -> Result<(), CliError> {
    use ladderbot::games::four3d::best::nnue;
    use net::{Example, TrainConfig};
    if a.holdout < 2 {
        return Err(CliError::Usage("--holdout must be at least 2".into()));
    }
    if a.validate == 1 {
        return Err(CliError::Usage(
            "--validate must be 0 (none) or at least 2".into(),
        ));
    }
    if a.epochs == 0 || a.batch == 0 || a.lr.is_nan() || a.lr <= 0.0 || a.l2.is_nan() || a.l2 < 0.0
    {
        return Err(CliError::Usage(
            "--epochs and --batch must be at least 1, --lr above 0, --l2 at least 0".into(),
        ));
    }
    let inputs = nnue::Inputs::parse(&a.inputs).unwrap_or_default();
    let model = Model::shipped();
    let (mut fit_on, mut held, mut check) = (Vec::new(), Vec::new(), Vec::new());
    for path in &a.samples {
        let samples: Vec<Sample> = read_jsonl(path)?;
        for s in samples {
            let b = train::replay(&s.pegs).map_err(|e| runtime("train-net", e))?;
            let target = match (a.target.as_str(), s.solved, s.result) {
                ("result", false, Some(r)) => r,
                _ => s.label,
            };
            if s.game % a.holdout == 0 {
                held.push(Example::new(&b, target, model, inputs));
            } else if a.validate >= 2 && s.game % a.validate == a.validate - 1 {
                check.push(Example::new(&b, target, model, inputs));
            } else if a.symmetries {
                let mut seen: Vec<[u64; 2]> = Vec::with_capacity(8);
                for sym in 0..8 {
                    let image = train::replay(&train::pegs_image(sym, &s.pegs))
                        .map_err(|e| runtime("train-net", e))?;
                    let stones = [image.stones(0), image.stones(1)];
                    if !seen.contains(&stones) {
                        seen.push(stones);
                        fit_on.push(Example::new(&image, target, model, inputs));
                    }
                }
            } else {
                fit_on.push(Example::new(&b, target, model, inputs));
            }
        }
    }
    if fit_on.is_empty() {
        return Err(CliError::Usage(
            "four3d train-net: no position to train on".into(),
        ));
    }
    let cfg = TrainConfig {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        l2: a.l2,
        seed: a.seed,
    };
    if a.validate >= 2 && check.is_empty() {
        eprintln!(
            "four3d train-net: --validate {} leaves no game to validate on (too few games): the last epoch's network is kept",
            a.validate
        );
    }
    // The kept network: the last epoch's, or the one with the lowest
    // validation log loss (its epoch and loss).
    let mut kept: Option<(nnue::FloatNet, usize, f64)> = None;
    let last = net::train(&fit_on, inputs, &cfg, |epoch, loss, net| {
        let v = (!check.is_empty()).then(|| net::log_loss(net, &check));
        eprintln!(
            "four3d train-net: epoch {} of {}: training log loss {loss:.4}{}",
            epoch + 1,
            a.epochs,
            v.map_or(String::new(), |v| format!(", validation {v:.4}"))
        );
        if let Some(v) = v.filter(|&v| kept.as_ref().is_none_or(|k| v < k.2)) {
            kept = Some((net.clone(), epoch + 1, v));
        }
    });
    let (net, kept_epoch, validation) = match kept {
        Some((n, e, v)) => (n, e, Some(v)),
        None => (last, a.epochs, None),
    };
    let zero = nnue::FloatNet {
        w2: [[0.0; nnue::HIDDEN]; 2],
        b2: 0.0,
        ..net.clone()
    };
    let figures = serde_json::json!({
        "trained_on": fit_on.len(),
        "held_out": held.len(),
        "validation": check.len(),
        "epoch_kept": kept_epoch,
        "validation_log_loss": validation,
        "held_out_log_loss": {
            "ab-v2": net::log_loss(&zero, &held),
            "ab-v2+net": net::log_loss(&net, &held),
        },
        "training_log_loss": {
            "ab-v2": net::log_loss(&zero, &fit_on),
            "ab-v2+net": net::log_loss(&net, &fit_on),
        },
    });
    let about = format!(
        "trained by `ladderbot-lab four3d train-net --samples {} --holdout {} --epochs {} --validate {} --batch {} --lr {} --l2 {} --seed {} --target {} --inputs {}{}` on {} positions over the shipped eval-v2.json (epoch {kept_epoch} kept)",
        a.samples
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" --samples "),
        a.holdout,
        a.epochs,
        a.validate,
        a.batch,
        a.lr,
        a.l2,
        a.seed,
        a.target,
        a.inputs,
        if a.symmetries { " --symmetries" } else { "" },
        fit_on.len()
    );
    std::fs::write(&a.out, net.quantize().to_json(&about))
        .map_err(|e| runtime("train-net", format!("{}: {e}", a.out.display())))?;
    if a.json {
        say!("{figures}");
        return Ok(());
    }
    say!(
        "trained on {} positions, {} held out, {} to validate on; the network of epoch {kept_epoch} kept{}",
        fit_on.len(),
        held.len(),
        check.len(),
        validation.map_or(String::new(), |v| format!(" (validation log loss {v:.4})"))
    );
    say!("log loss          ab-v2  ab-v2+net");
    for (name, key) in [
        ("held out", "held_out_log_loss"),
        ("training", "training_log_loss"),
    ] {
        let at = |e: &str| figures[key][e].as_f64().unwrap_or(f64::NAN);
        say!("{name:<14} {:>8.4} {:>10.4}", at("ab-v2"), at("ab-v2+net"));
    }
    say!("written: {}", a.out.display());
    Ok(())
}

/// The drops of each opening of a suite file.
fn opening_pegs(path: &Path) -> Result<Vec<Vec<u8>>, CliError> {
    use ladderbot::runner::openings::{Book, OpeningOrder};
    let book = Book::load::<Board>(path, &Default::default(), OpeningOrder::Sequential)
        .map_err(CliError::Usage)?;
    book.openings
        .iter()
        .map(|o| {
            o.moves
                .iter()
                .map(|m| {
                    m.as_u64()
                        .filter(|&p| p < 16)
                        .map(|p| p as u8)
                        .ok_or_else(|| {
                            CliError::Usage(format!(
                                "{}:{}: {m} is not a peg",
                                path.display(),
                                o.line
                            ))
                        })
                })
                .collect()
        })
        .collect()
}

/// The file at `path` read with `parse` (kept for the run), named by its
/// stem: a file that cannot be read or parsed is a usage error naming it.
fn named_file<T>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<(String, &'static T), CliError> {
    let bad = |e: String| CliError::Usage(format!("four3d judge: {}: {e}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let value: &'static T = Box::leak(Box::new(parse(&text).map_err(bad)?));
    let name = path
        .file_stem()
        .map_or_else(|| "file".to_string(), |s| s.to_string_lossy().into_owned());
    Ok((name, value))
}

/// An evaluation `judge` scores: its name and its value of a position.
type Evaluation = (String, Box<dyn Fn(&Board) -> f64 + Sync>);

fn run_judge(a: &JudgeArgs) -> Result<(), CliError> {
    if a.holdout < 2 {
        return Err(CliError::Usage("--holdout must be at least 2".into()));
    }
    if a.samples.is_none() && a.held_out.is_empty() && a.lost.is_none() {
        return Err(CliError::Usage(
            "four3d judge: give --samples, --held-out or --lost".into(),
        ));
    }
    let bands = Band::parse_list(&a.bands).map_err(CliError::Usage)?;
    let mut judged: Vec<(String, Sample)> = Vec::new();
    if let Some(path) = &a.samples {
        let all: Vec<Sample> = read_jsonl(path)?;
        judged.extend(
            all.into_iter()
                .filter(|s| s.game % a.holdout == 0)
                .map(|s| ("held-out games".to_string(), s)),
        );
    }
    for path in &a.held_out {
        let all: Vec<Sample> = read_jsonl(path)?;
        judged.extend(all.into_iter().map(|s| (path.display().to_string(), s)));
    }
    let models: Vec<(String, &'static Model)> = a
        .model
        .iter()
        .map(|p| named_file(p, Model::from_json))
        .collect::<Result<_, _>>()?;
    let mut evals: Vec<Evaluation> = Vec::new();
    evals.push(("ab-v1".into(), Box::new(|b: &Board| hand_value(b) as f64)));
    evals.push((
        "ab-v2".into(),
        Box::new(|b: &Board| fitted_value(Model::shipped(), b)),
    ));
    for &(ref name, m) in &models {
        evals.push((name.clone(), Box::new(move |b: &Board| fitted_value(m, b))));
    }
    let nets: Vec<(String, &'static Net)> = a
        .net
        .iter()
        .map(|p| named_file(p, Net::from_json))
        .collect::<Result<_, _>>()?;
    for &(ref name, n) in &nets {
        evals.push((
            format!("ab-v2+{name}"),
            Box::new(move |b: &Board| n.with_model_value(Model::shipped(), b)),
        ));
    }
    let mut report = serde_json::Map::new();
    let sources: Vec<String> = {
        let mut v: Vec<String> = judged.iter().map(|(src, _)| src.clone()).collect();
        v.dedup();
        v
    };
    let mut tables = Vec::new();
    for src in &sources {
        let set: Vec<&Sample> = judged
            .iter()
            .filter(|(s, _)| s == src)
            .map(|(_, x)| x)
            .collect();
        let mut by_eval = serde_json::Map::new();
        let mut rows_of = Vec::new();
        for (name, value) in &evals {
            let rows = judge::judge(&set, &bands, value).map_err(CliError::Runtime)?;
            by_eval.insert(
                name.clone(),
                serde_json::to_value(&rows).unwrap_or_default(),
            );
            rows_of.push((name.clone(), rows));
        }
        report.insert(src.clone(), by_eval.into());
        tables.push((src.clone(), set.len(), rows_of));
    }
    let mut lost_lines = Vec::new();
    if let Some(path) = &a.lost {
        let games: Vec<PlayedGame> = read_jsonl(path)?;
        let decided = games.iter().filter(|g| g.winner.is_some()).count();
        // `best`'s search without its network (`ab-v3`), then with each
        // model and each network given.
        let mut searchers: Vec<(String, BestConfig)> = vec![("ab-v3".into(), BestConfig::v3())];
        for &(ref name, m) in &models {
            searchers.push((
                format!("ab-v3 with {name}"),
                BestConfig {
                    model: Some(m),
                    ..BestConfig::v3()
                },
            ));
        }
        for &(ref name, n) in &nets {
            searchers.push((
                format!("ab-v3 with ab-v2+{name}"),
                BestConfig {
                    net: Some(n),
                    ..BestConfig::v3()
                },
            ));
        }
        let mut lost = serde_json::Map::new();
        for (name, cfg) in searchers {
            let calls = parallel(games.len(), a.jobs, |i| {
                let mut agent = Best::new(BestConfig {
                    threads: 1,
                    tt_bits: 20,
                    ..cfg.clone()
                });
                let stop = std::sync::atomic::AtomicBool::new(false);
                let limits = ladderbot::search::Limits::playouts(a.lost_nodes);
                let g = &games[i];
                let Some(loser) = judge::loser(g) else {
                    return Ok((None, None));
                };
                let mut call = |seat| {
                    judge::first_call(g, seat, a.lost_from, a.lost_share, |b| {
                        searched_share(&mut agent, b, &limits, &stop)
                    })
                };
                Ok((call(loser)?, call(1 - loser)?))
            })?;
            let plies: Vec<u32> = calls.iter().filter_map(|c| c.0).collect();
            let false_calls = calls.iter().filter(|c| c.1.is_some()).count();
            let median = judge::median(&plies);
            lost_lines.push(format!(
                "{name} at {} nodes: the loser called lost (win share <= {}) in {} of {decided} lost games, median ply {}; the winner called lost in {false_calls}",
                a.lost_nodes,
                a.lost_share,
                plies.len(),
                median.map_or("-".into(), |m| format!("{m:.1}")),
            ));
            lost.insert(
                name,
                serde_json::json!({"called": plies.len(), "games": decided, "median_ply": median, "plies": plies, "winner_called_lost": false_calls}),
            );
        }
        report.insert(
            "lost".into(),
            serde_json::json!({"file": path.display().to_string(), "nodes": a.lost_nodes, "share": a.lost_share, "from": a.lost_from, "searches": lost}),
        );
    }
    if a.json {
        say!("{}", serde_json::Value::Object(report));
        return Ok(());
    }
    for (src, n, rows_of) in &tables {
        say!("{src}: {n} positions");
        say!("{}", judge_table(rows_of));
    }
    for l in lost_lines {
        say!("{l}");
    }
    Ok(())
}

/// The win share `best`'s search (`agent`, from an empty table) gives the
/// side to move in `b`: 0 when every drop loses at once, `None` for a
/// forced drop or a finished game.
fn searched_share(
    agent: &mut Best,
    b: &Board,
    limits: &ladderbot::search::Limits,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<f64> {
    use ladderbot::search::{Agent as _, Game as _};
    if b.outcome().is_some() {
        return None;
    }
    agent.clear_table();
    agent.select(b, limits, stop).value
}

/// The text table of `judge`: a line per band and kind of label, the
/// accuracy and log loss of each evaluation side by side.
fn judge_table(rows_of: &[(String, Vec<Row>)]) -> String {
    let mut out = String::from("| plies | label | positions |");
    let mut rule = String::from("|---|---|---|");
    for (name, _) in rows_of {
        out += &format!(" {name}: accuracy | log loss |");
        rule += "---|---|";
    }
    out += "\n";
    out += &rule;
    let Some((_, first)) = rows_of.first() else {
        return out;
    };
    for (i, r) in first.iter().enumerate() {
        out += &format!(
            "\n| {} | {} | {} |",
            r.band,
            serde_json::to_value(r.kind)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            r.figures.positions
        );
        for (_, rows) in rows_of {
            if let Some(x) = rows.get(i) {
                out += &format!(" {:.3} | {:.3} |", x.figures.accuracy, x.figures.log_loss);
            }
        }
    }
    out
}

fn run_games(a: &GamesArgs) -> Result<(), CliError> {
    let read = ladderbot::cli::read_games("four3d games", &a.records)?;
    let mut games = Vec::new();
    let mut skipped = 0;
    for r in read.records.iter().map(|r| &r.record) {
        if r.game != "four3d" {
            return Err(CliError::Usage(format!(
                "four3d games: game {} is {}, not four3d",
                r.id, r.game
            )));
        }
        if r.reason == ladderbot::records::EndReason::Aborted {
            skipped += 1;
            continue;
        }
        if let Some(name) = &a.lost_by {
            let named = |p: &String| ladderbot::runner::platform_results::is_named(p, name);
            let Some(seat) = r.players.iter().position(named) else {
                continue;
            };
            if r.winner != Some(1 - seat) {
                continue;
            }
        }
        let pegs: Vec<u8> = r
            .moves
            .iter()
            .map(|m| m.as_u64().filter(|&p| p < 16).map(|p| p as u8))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                CliError::Usage(format!("four3d games: game {}: a move is not a peg", r.id))
            })?;
        train::replay(&pegs)
            .map_err(|e| CliError::Usage(format!("four3d games: game {}: {e}", r.id)))?;
        games.push(PlayedGame {
            pegs,
            winner: r.winner.map(|w| w as u8),
            explored: vec![],
        });
    }
    write_lines(
        &a.out,
        games
            .iter()
            .map(|g| serde_json::to_string(g).unwrap_or_default()),
    )?;
    eprintln!(
        "four3d games: {} games written, {skipped} aborted left out",
        games.len()
    );
    Ok(())
}
