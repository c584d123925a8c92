//! `ladderbot-lab geister captures`: the capture probe ([`probe`]) over
//! recorded games, a fast offline measure of how an agent's settings take
//! bait: at every turn of one player where a piece of unknown colour could
//! be taken, would the agent take it, and was it red or blue.

use crate::say;
use std::path::PathBuf;

use clap::Args;

use super::probe::{self, Counts, Tally, BAND, BANDS};
use ladderbot::cli::{params_from, parse_param, CliError};
use ladderbot::games::geister::agents::best_config;
use ladderbot::games::geister::best::Best;
use ladderbot::games::geister::game::record_setups_and_moves;
use ladderbot::games::geister::{Move, Setup};
use ladderbot::search::Limits;
use ladderbot::seed::derive_seed;

#[derive(Debug, Args)]
pub struct GeisterCapturesArgs {
    /// Records to replay (JSON lines; repeatable).
    #[arg(required = true, value_name = "FILE.jsonl")]
    pub records: Vec<PathBuf>,
    /// Replay from the seat of the player whose record name contains this
    /// text (e.g. `best`); games without it are skipped.
    #[arg(long, value_name = "TEXT")]
    pub player: String,
    /// The agent asked: `best`, or a baseline (`ismcts-v2`, `ismcts-v1`,
    /// `dmc-v1`).
    #[arg(long, default_value = "best")]
    pub agent: String,
    /// A parameter of the agent (repeatable).
    #[arg(long = "param", value_parser = parse_param, value_name = "KEY=VALUE")]
    pub params: Vec<(String, serde_json::Value)>,
    /// Playouts per question (a fixed budget: the answers repeat).
    #[arg(long, default_value_t = 2000)]
    pub playouts: u64,
    /// Games replayed at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Seed of the agents (each game's is derived from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the tally as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

/// A game to replay: its setups, moves and the probed seat.
struct Game {
    setups: [Setup; 2],
    moves: Vec<Move>,
    seat: usize,
}

fn load(files: &[PathBuf], player: &str) -> Result<(Vec<Game>, usize), CliError> {
    let mut games = Vec::new();
    let mut skipped = 0;
    // A missing, empty or bad file is bad input (exit 2), as everywhere.
    let read = ladderbot::cli::read_games("geister captures", files)?;
    for rec in &read.records {
        let r = &rec.record;
        let at = || format!("geister captures: {}", rec.at());
        if r.game != "geister" {
            return Err(CliError::Usage(format!(
                "{}: a {} game, not geister",
                at(),
                r.game
            )));
        }
        let Some(seat) = r.players.iter().position(|p| p.contains(player)) else {
            skipped += 1;
            continue;
        };
        let (setups, moves) = record_setups_and_moves(&r.start, &r.moves)
            .map_err(|e| CliError::Usage(format!("{}: {e}", at())))?;
        games.push(Game {
            setups,
            moves,
            seat,
        });
    }
    Ok((games, skipped))
}

pub fn run(args: GeisterCapturesArgs) -> Result<(), CliError> {
    let params = params_from(&args.params);
    let config = best_config(&args.agent, &params)
        .map_err(|e| CliError::Usage(format!("geister captures: {e}")))?;
    if args.playouts == 0 {
        return Err(CliError::Usage(
            "geister captures: --playouts must be at least 1".into(),
        ));
    }
    let (games, skipped) = load(&args.records, &args.player)?;
    if games.is_empty() {
        return Err(CliError::Usage(format!(
            "geister captures: no game has a player named like '{}' ({skipped} skipped)",
            args.player
        )));
    }
    let limits = Limits::playouts(args.playouts);
    let jobs = args.jobs.clamp(1, games.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut t = Tally::default();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(g) = games.get(i) else {
                            return t;
                        };
                        let mut agent = Best::new(config, derive_seed(args.seed, i as u64, 0xCA));
                        let offers =
                            probe::probe_game(&mut agent, g.setups, &g.moves, g.seat, &limits);
                        t.add_game(&offers);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let mut tally = Tally::default();
    for t in &tallies {
        tally.merge(t);
    }
    if tally.games as usize != games.len() {
        return Err(CliError::Runtime(format!(
            "geister captures: {} of {} games replayed (a replay failed)",
            tally.games,
            games.len()
        )));
    }
    print_tally(&args, &tally, skipped);
    if args.json {
        let v = serde_json::json!({
            "agent": args.agent,
            "params": serde_json::Value::Object(params.into_iter().collect()),
            "playouts": args.playouts,
            "tally": tally,
        });
        say!("{v}");
    }
    Ok(())
}

fn row(label: &str, c: &Counts, games: u32) -> String {
    let per = |n: u32| n as f64 / f64::from(games.max(1));
    let rate = |n: u32, of: u32| {
        if of == 0 {
            "-".to_string()
        } else {
            format!("{:.2}", f64::from(n) / f64::from(of))
        }
    };
    format!(
        "{label:>9} | {:>6} {:>6} {:>6} | {:>5} {:>5} ({:>4} {:>4}) | {:>5.2} {:>5.2} | {:>5} {:>5}",
        c.offers,
        c.red_offers,
        c.blue_offers,
        c.took_red,
        c.took_blue,
        rate(c.took_red, c.red_offers),
        rate(c.took_blue, c.blue_offers),
        per(c.took_red),
        per(c.took_blue),
        c.played_red,
        c.played_blue,
    )
}

fn print_tally(args: &GeisterCapturesArgs, t: &Tally, skipped: usize) {
    say!(
        "{} at {} playouts a question, from the seat of '{}': {} games ({} skipped)",
        args.agent,
        args.playouts,
        args.player,
        t.games,
        skipped
    );
    say!("turns with a capture of an unknown piece on offer; what the agent would take; what the record took");
    say!(
        "{:>9} | {:>6} {:>6} {:>6} | {:>5} {:>5} ({:>4} {:>4}) | {:>5} {:>5} | {:>5} {:>5}",
        "plies",
        "offers",
        "red",
        "blue",
        "red",
        "blue",
        "r/of",
        "b/of",
        "red/g",
        "blu/g",
        "rec r",
        "rec b"
    );
    for (b, c) in t.bands.iter().enumerate() {
        let lo = b as u32 * BAND;
        let label = if b + 1 == BANDS {
            format!("{lo}+")
        } else {
            format!("{lo}-{}", lo + BAND - 1)
        };
        say!("{}", row(&label, c, t.games));
    }
    for (r, c) in t.by_reds_taken.iter().enumerate() {
        say!("{}", row(&format!("{r} reds"), c, t.games));
    }
    say!("{}", row("all", &t.all, t.games));
}
