//! Scheduling: which games a run plays (all, or one shard's), the worker
//! threads that play them, and the records and tally they feed.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::report::{openings_report, pentanomial};
use super::{
    stats, Driver, Endings, MatchConfig, MatchReport, Playable, Played, SprtResult, Tally,
};
use crate::games::PlayableGame;
use crate::records::RecordWriter;
use crate::search::{panic_message, Outcome};

/// What the workers share, behind one lock.
#[derive(Default)]
struct Shared {
    tally: Tally,
    decisions: [u64; 2],
    playouts: [u64; 2],
    time: [Duration; 2],
    max_time: [Duration; 2],
    /// The SPRT decision that stopped the match, if any.
    sprt_decision: Option<&'static str>,
    error: Option<String>,
    endings: Endings,
    /// A's result in each finished game, by index.
    results: BTreeMap<u32, Outcome>,
}

/// Sets `stop` if the worker unwinds, so the others stop taking games.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

/// Plays the match described by `cfg` for game `G`, calling `progress` after
/// every finished game (from the worker that finished it, one at a time).
pub fn run_match<G: PlayableGame>(
    cfg: &MatchConfig,
    progress: &(dyn Fn(&Tally) + Sync),
) -> Result<MatchReport, String> {
    run_with(&Playable::<G>::new(), cfg, progress)
}

/// Plays the match described by `cfg` with `driver`, calling `progress`
/// after every finished game (from the worker that finished it, one at a
/// time).
pub fn run_with<D: Driver>(
    driver: &D,
    cfg: &MatchConfig,
    progress: &(dyn Fn(&Tally) + Sync),
) -> Result<MatchReport, String> {
    if cfg.jobs == 0 {
        return Err("jobs must be at least 1".into());
    }
    if let Some(s) = &cfg.sprt {
        s.check()?;
    }
    // Catch bad agent names and parameters before any thread starts.
    driver.check(cfg)?;
    let ending_keys = driver.ending_keys();
    let writer = match &cfg.out {
        Some(p) => {
            Some(RecordWriter::open(p).map_err(|e| format!("cannot open {}: {e}", p.display()))?)
        }
        None => None,
    };
    let sprt_bounds = cfg.sprt.map(|s| stats::sprt_bounds(s.alpha, s.beta));

    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let shared = Mutex::new(Shared {
        tally: Tally {
            total: cfg.games,
            ..Tally::default()
        },
        endings: ending_keys
            .map(|(w, d)| Endings::with_keys(w, d))
            .unwrap_or_default(),
        ..Shared::default()
    });

    let finish = |index: u32, p: Played| {
        let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(w) = &writer {
            if let Err(e) = w.append(&p.record) {
                if sh.error.is_none() {
                    sh.error = Some(format!("writing {}: {e}", w.path().display()));
                }
                stop.store(true, Ordering::SeqCst);
            }
        }
        match p.result {
            Outcome::Win(0) => sh.tally.wins += 1,
            Outcome::Win(_) => sh.tally.losses += 1,
            Outcome::Draw => sh.tally.draws += 1,
        }
        if let Some(e) = &p.record.ending {
            sh.endings.add(p.result, e);
        }
        sh.results.insert(index, p.result);
        sh.tally.done += 1;
        for k in 0..2 {
            sh.decisions[k] += p.decisions[k];
            sh.playouts[k] += p.playouts[k];
            sh.time[k] += p.time[k];
            sh.max_time[k] = sh.max_time[k].max(p.max_time[k]);
        }
        if let (Some(s), Some((lower, upper)), None) = (&cfg.sprt, sprt_bounds, sh.sprt_decision) {
            let t = sh.tally;
            let llr = stats::sprt_llr(t.wins, t.draws, t.losses, s.elo0, s.elo1);
            if llr >= upper || llr <= lower {
                sh.sprt_decision = Some(if llr >= upper { "H1" } else { "H0" });
                stop.store(true, Ordering::SeqCst);
            }
        }
        progress(&sh.tally);
    };

    let workers = cfg.jobs.min(cfg.games.max(1) as usize);
    let worker = || -> Result<(), String> {
        let _guard = StopOnPanic(&stop);
        let mut state = match driver.worker(cfg) {
            Ok(w) => w,
            Err(e) => {
                stop.store(true, Ordering::SeqCst);
                return Err(e);
            }
        };
        while !stop.load(Ordering::SeqCst) {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= cfg.games {
                break;
            }
            match driver.play(&mut state, cfg, i) {
                Ok(p) => finish(i, p),
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    return Err(e);
                }
            }
        }
        Ok(())
    };
    let mut first_error: Option<String> = None;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(worker)).collect();
        for h in handles {
            let r = match h.join() {
                Ok(r) => r,
                Err(p) => Err(format!(
                    "a match worker panicked: {}",
                    panic_message(p.as_ref())
                )),
            };
            if let Err(e) = r {
                first_error.get_or_insert(e);
            }
        }
    });
    let sh = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = first_error.or(sh.error) {
        return Err(e);
    }

    let t = sh.tally;
    let (elo_lo, elo_hi) = stats::elo_interval(t.wins, t.draws, t.losses);
    let sprt = cfg.sprt.zip(sprt_bounds).map(|(s, (lower, upper))| {
        let llr = stats::sprt_llr(t.wins, t.draws, t.losses, s.elo0, s.elo1);
        SprtResult {
            elo0: s.elo0,
            elo1: s.elo1,
            llr,
            lower,
            upper,
            decision: sh.sprt_decision.unwrap_or("continue").to_string(),
        }
    });
    let per_move = |total: f64, k: usize| {
        if sh.decisions[k] == 0 {
            0.0
        } else {
            total / sh.decisions[k] as f64
        }
    };
    Ok(MatchReport {
        game: driver.game().to_string(),
        a: cfg.a.describe(),
        b: cfg.b.describe(),
        games: t.done,
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
        score: t.score(),
        elo: stats::elo_from_score(t.score()),
        elo_lo,
        elo_hi,
        los: stats::los(t.wins, t.losses),
        sprt,
        a_playouts_per_move: per_move(sh.playouts[0] as f64, 0),
        b_playouts_per_move: per_move(sh.playouts[1] as f64, 1),
        a_ms_per_move: per_move(sh.time[0].as_secs_f64() * 1000.0, 0),
        b_ms_per_move: per_move(sh.time[1].as_secs_f64() * 1000.0, 1),
        a_max_ms: sh.max_time[0].as_secs_f64() * 1000.0,
        b_max_ms: sh.max_time[1].as_secs_f64() * 1000.0,
        seed: cfg.seed,
        jobs: cfg.jobs,
        endings: ending_keys.map(|_| sh.endings.clone()),
        transport: driver.transport().map(String::from),
        pentanomial: pentanomial(&sh.results, |_| true),
        openings: cfg
            .openings
            .as_ref()
            .map(|b| openings_report(b, cfg.seed, &sh.results)),
    })
}
