//! Scheduling: which games a run plays (all, or one shard's), the worker
//! threads that play them, and the records and tally they feed.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::report::{openings_report, undecided, ReportHead, Totals};
use super::{a_result, resume, Driver, MatchConfig, MatchReport, Playable, Played, Tally};
use crate::games::PlayableGame;
use crate::records::{MatchTag, RecordWriter, SideTotals};
use crate::search::panic_message;

/// What the workers share, behind one lock.
struct Shared {
    totals: Totals,
    /// The SPRT decision that stopped the match, if any.
    sprt_decision: Option<&'static str>,
    error: Option<String>,
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
    run_until(driver, cfg, progress, &AtomicBool::new(false))
}

/// [`run_with`], starting no game once `interrupt` is set (the games in
/// progress are played out and counted): the report is then of the games
/// played so far. With [`MatchConfig::resume`], the games of this match
/// already in the records file are counted and not played again.
pub fn run_until<D: Driver>(
    driver: &D,
    cfg: &MatchConfig,
    progress: &(dyn Fn(&Tally) + Sync),
    interrupt: &AtomicBool,
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
    let all = cfg.game_numbers();
    let key = cfg.key(driver.game());
    let earlier = match (&cfg.out, cfg.resume) {
        (Some(p), true) => resume::earlier_games(p, &key, &all)?,
        _ => Default::default(),
    };
    let writer = match &cfg.out {
        Some(p) => {
            Some(RecordWriter::open(p).map_err(|e| format!("cannot open {}: {e}", p.display()))?)
        }
        None => None,
    };
    let numbers: Vec<u32> = all
        .iter()
        .copied()
        .filter(|i| !earlier.contains_key(i))
        .collect();
    let mut totals = Totals::new(all.len() as u32, ending_keys);
    for (&i, r) in &earlier {
        let sides = r.match_tag.as_ref().map(|t| t.sides).unwrap_or_default();
        totals.add(i, a_result(i, r.winner), r.ending.as_deref(), &sides);
    }
    if !earlier.is_empty() {
        tracing::info!(
            resumed = earlier.len(),
            to_play = numbers.len(),
            "resuming the match from its records"
        );
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut sprt_decision = None;
    if let (Some(s), None) = (&cfg.sprt, cfg.shard) {
        sprt_decision = totals.sprt_crossed(s);
        stop.store(sprt_decision.is_some(), Ordering::SeqCst);
    }
    let shared = Mutex::new(Shared {
        totals,
        sprt_decision,
        error: None,
    });

    let finish = |index: u32, mut p: Played| {
        let sides = side_totals(&p);
        p.record.match_tag = Some(tag(cfg, driver, &key, index, sides));
        let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(w) = &writer {
            if let Err(e) = w.append(&p.record) {
                if sh.error.is_none() {
                    sh.error = Some(format!("writing {}: {e}", w.path().display()));
                }
                stop.store(true, Ordering::SeqCst);
            }
        }
        sh.totals
            .add(index, p.result, p.record.ending.as_deref(), &sides);
        // A shard plays all its games: the verdict is the merged records'.
        if let (Some(s), None, None) = (&cfg.sprt, sh.sprt_decision, cfg.shard) {
            if let Some(d) = sh.totals.sprt_crossed(s) {
                sh.sprt_decision = Some(d);
                stop.store(true, Ordering::SeqCst);
            }
        }
        progress(&sh.totals.tally);
    };

    let workers = cfg.jobs.min(numbers.len().max(1));
    let worker = || -> Result<(), String> {
        let _guard = StopOnPanic(&stop);
        let mut state = match driver.worker(cfg) {
            Ok(w) => w,
            Err(e) => {
                stop.store(true, Ordering::SeqCst);
                return Err(e);
            }
        };
        while !stop.load(Ordering::SeqCst) && !interrupt.load(Ordering::SeqCst) {
            let Some(&i) = numbers.get(next.fetch_add(1, Ordering::SeqCst)) else {
                break;
            };
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
    let openings = cfg.openings.as_ref().map(|b| {
        openings_report(
            (&b.source, b.openings.len(), b.order),
            &sh.totals.results,
            |i| Some(b.for_pair(i / 2, cfg.seed)),
        )
    });
    Ok(sh.totals.report(ReportHead {
        game: driver.game(),
        a: cfg.a.describe(),
        b: cfg.b.describe(),
        seed: cfg.seed,
        jobs: cfg.jobs,
        sprt: cfg.sprt,
        sprt_decision: sh.sprt_decision.or_else(|| {
            undecided(
                &sh.totals,
                cfg.sprt.as_ref().filter(|_| cfg.shard.is_none()),
            )
        }),
        has_endings: ending_keys.is_some(),
        transport: driver.transport().map(String::from),
        openings,
        units: driver.work_units(cfg),
        budgets: Some([cfg.a.budget(), cfg.b.budget()]),
    }))
}

/// What each side (A, B) spent in one game.
fn side_totals(p: &Played) -> [SideTotals; 2] {
    std::array::from_fn(|k| SideTotals {
        decisions: p.decisions[k],
        playouts: p.playouts[k],
        ms: p.time[k].as_secs_f64() * 1000.0,
        max_ms: p.max_time[k].as_secs_f64() * 1000.0,
    })
}

/// The match tag of game `index`'s record.
fn tag<D: Driver>(
    cfg: &MatchConfig,
    driver: &D,
    key: &str,
    index: u32,
    sides: [SideTotals; 2],
) -> MatchTag {
    MatchTag {
        key: key.to_string(),
        a: cfg.a.describe(),
        b: cfg.b.describe(),
        seed: cfg.seed,
        games: cfg.games,
        index,
        shard: cfg.shard.map(|s| [s.index, s.count]),
        sprt: cfg.sprt.map(|s| [s.elo0, s.elo1]),
        suite: cfg.suite_tag(),
        transport: driver.transport().map(String::from),
        sides,
    }
}
