//! The match runner's tests.

use super::*;
use crate::games::four3d::{Board, Peg};
use crate::games::PlayableGame;
use crate::records::read_records;
use crate::records::EndReason;
use crate::search::Agent;
use crate::search::GameClock;
use crate::search::{Decision, Game};
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use test_support::{config, index_of, quiet};

fn cfg(a: SideConfig, b: SideConfig, games: u32, jobs: usize) -> MatchConfig {
    config(a, b, games, jobs, 7)
}

fn sorted_records(path: &std::path::Path) -> Vec<GameRecord> {
    let mut v = read_records(path).unwrap();
    v.sort_by_key(index_of);
    v
}

fn assert_finite(r: &MatchReport) {
    let mut xs = vec![
        r.score,
        r.elo,
        r.elo_lo,
        r.elo_hi,
        r.los,
        r.a_playouts_per_move,
        r.b_playouts_per_move,
        r.a_ms_per_move,
        r.b_ms_per_move,
        r.a_max_ms,
        r.b_max_ms,
    ];
    if let Some(p) = &r.sprt {
        xs.extend([p.llr, p.lower, p.upper]);
    }
    assert!(xs.iter().all(|x| x.is_finite()), "{r:?}");
    // serde_json would write a non-finite float as null.
    let v = serde_json::to_value(r).unwrap();
    for key in ["score", "elo", "elo_lo", "elo_hi", "los", "a_ms_per_move"] {
        assert!(v[key].is_number(), "{key}: {v}");
    }
    assert_eq!(v["sprt"].is_null(), r.sprt.is_none());
}

#[test]
fn results_do_not_depend_on_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let run = |jobs: usize, seed: u64| {
        let mut c = cfg(
            SideConfig::new("pmc").with_playouts(40),
            SideConfig::new("pmc").with_playouts(20),
            12,
            jobs,
        );
        c.seed = seed;
        let out = dir.path().join(format!("j{jobs}-s{seed}.jsonl"));
        c.out = Some(out.clone());
        let r = run_match::<Board>(&c, &quiet).unwrap();
        (r, sorted_records(&out))
    };
    let (r1, rec1) = run(1, 7);
    let (r2, rec2) = run(2, 7);
    let (r3, rec3) = run(3, 7);
    for (r, rec) in [(&r2, &rec2), (&r3, &rec3)] {
        assert_eq!(
            (r.games, r.wins, r.draws, r.losses),
            (r1.games, r1.wins, r1.draws, r1.losses)
        );
        assert_eq!(r.a_playouts_per_move, r1.a_playouts_per_move);
        assert_eq!(r.b_playouts_per_move, r1.b_playouts_per_move);
        assert_eq!(rec.len(), 12);
        for (x, y) in rec.iter().zip(&rec1) {
            assert_eq!((&x.id, &x.moves, x.winner), (&y.id, &y.moves, y.winner));
        }
    }
    // The games do depend on the seed (so the comparison above means something).
    let (_, other) = run(2, 8);
    assert!(other.iter().zip(&rec1).any(|(x, y)| x.moves != y.moves));
    assert_eq!(r1.wins + r1.draws + r1.losses, 12);
    assert_finite(&r1);
}

#[test]
fn seats_alternate_and_records_are_complete() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("records.jsonl");
    let mut c = cfg(
        SideConfig::new("pmc").with_playouts(50),
        SideConfig::new("random"),
        4,
        2,
    );
    c.out = Some(out.clone());
    let r = run_match::<Board>(&c, &quiet).unwrap();
    let recs = sorted_records(&out);
    assert_eq!(recs.len(), 4);
    assert_eq!(
        recs[0].players,
        ["A:pmc".to_string(), "B:random".to_string()]
    );
    assert_eq!(
        recs[1].players,
        ["B:random".to_string(), "A:pmc".to_string()]
    );
    let mut a_wins = 0;
    for (i, rec) in recs.iter().enumerate() {
        assert_eq!(index_of(rec), i as u32);
        assert_eq!(rec.players[a_seat(i as u32)], "A:pmc");
        assert_eq!(rec.game, "four3d");
        assert_eq!(rec.reason, EndReason::Rules);
        assert_eq!(rec.result, GameRecord::result_string(rec.winner));
        assert_eq!(rec.moves.len(), rec.move_ms.len());
        // Replaying the recorded moves reaches the recorded outcome.
        let pegs: Vec<Peg> = rec
            .moves
            .iter()
            .map(|m| <Board as PlayableGame>::move_from_json(m).unwrap())
            .collect();
        let end = Board::from_pegs(&pegs).unwrap();
        assert_eq!(end.outcome(), Some(rec.outcome()));
        if rec.winner == Some(a_seat(i as u32)) {
            a_wins += 1;
        }
    }
    assert_eq!(r.wins, a_wins);
    assert_eq!(r.a, "pmc(playouts=50)");
    assert_eq!(r.b, "random");
    assert_eq!(r.a_playouts_per_move, 50.0);
    assert_eq!(r.b_playouts_per_move, 0.0);
}

#[test]
fn pmc_beats_random_and_progress_sees_every_game() {
    let calls = AtomicUsize::new(0);
    let last = Mutex::new(Tally::default());
    let progress = |t: &Tally| {
        calls.fetch_add(1, Ordering::SeqCst);
        let mut l = last.lock().unwrap();
        assert_eq!(t.done, l.done + 1, "progress comes once per game, in order");
        assert_eq!(t.wins + t.draws + t.losses, t.done);
        *l = *t;
    };
    let c = cfg(
        SideConfig::new("pmc").with_playouts(1000),
        SideConfig::new("random"),
        40,
        2,
    );
    let r = run_match::<Board>(&c, &progress).unwrap();
    assert_eq!(r.games, 40);
    assert_eq!(calls.load(Ordering::SeqCst), 40);
    assert_eq!(last.lock().unwrap().total, 40);
    assert!(r.score > 0.8, "{}", render_report(&r));
    assert!(r.elo > 0.0 && r.los > 0.9);
    assert!(r.sprt.is_none());
    assert_finite(&r);
    let text = render_report(&r);
    assert!(
        text.contains("A = pmc(playouts=1000) vs B = random"),
        "{text}"
    );
    assert!(text.contains("LOS"), "{text}");
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let mut c = cfg(
        SideConfig::new("pmc").with_playouts(1000),
        SideConfig::new("random"),
        400,
        2,
    );
    c.sprt = Some(SprtConfig::new(0.0, 50.0));
    let r = run_match::<Board>(&c, &quiet).unwrap();
    let s = r.sprt.clone().unwrap();
    assert_eq!(s.decision, "H1", "{}", render_report(&r));
    assert!(r.games < 100, "{}", render_report(&r));
    assert!(s.llr >= s.upper);
    assert!((s.upper - 19f64.ln()).abs() < 1e-12);
    assert!(render_report(&r).contains("-> H1"));
    assert_finite(&r);

    // The other way round the test accepts H0.
    let mut c = c.clone();
    std::mem::swap(&mut c.a, &mut c.b);
    let r = run_match::<Board>(&c, &quiet).unwrap();
    let s = r.sprt.unwrap();
    assert_eq!(s.decision, "H0");
    assert!(r.games < 100);
}

#[test]
fn sprt_that_runs_out_of_games_says_undecided() {
    // Issue 57: a match that played all its games without crossing a
    // bound said "continue", as if more games were coming.
    let mut c = cfg(SideConfig::new("random"), SideConfig::new("random"), 2, 1);
    c.sprt = Some(SprtConfig::new(0.0, 5.0));
    let r = run_match::<Board>(&c, &quiet).unwrap();
    assert_eq!(r.games, 2);
    assert!(
        render_report(&r).contains("-> undecided"),
        "{}",
        render_report(&r)
    );
    assert_eq!(r.sprt.unwrap().decision, "undecided");
}

#[test]
fn alpha_beta_agents_report_nodes_not_playouts() {
    // Issue 57: `best` (alpha-beta) was reported in "playouts/move".
    let c = cfg(
        SideConfig::new("best").with_playouts(300),
        SideConfig::new("pmc").with_playouts(50),
        2,
        1,
    );
    let r = run_match::<Board>(&c, &quiet).unwrap();
    let text = render_report(&r);
    let work = |side: &str| {
        text.lines()
            .find(|l| l.starts_with(side) && l.contains("/move"))
            .unwrap_or_default()
    };
    assert!(work("A: ").contains(" nodes/move,"), "{text}");
    assert!(work("B: ").contains(" playouts/move,"), "{text}");
    assert_eq!(
        (r.a_unit.as_str(), r.b_unit.as_str()),
        ("nodes", "playouts")
    );
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["a_unit"], "nodes");
}

/// Score Four under another name, with extra test agents.
#[derive(Clone, Copy, Debug)]
struct Wrapped(Board);

impl Game for Wrapped {
    type Move = Peg;
    fn to_move(&self) -> Seat {
        self.0.to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn legal_moves(&self) -> Vec<Peg> {
        self.0.legal_moves()
    }
    fn play(&mut self, mv: Peg) {
        self.0.play(mv)
    }
    fn is_legal(&self, mv: Peg) -> bool {
        self.0.is_legal(mv)
    }
}

/// Delegates to a Score Four agent.
struct Adapt(Box<dyn Agent<Board>>);

impl Agent<Wrapped> for Adapt {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn select(&mut self, pos: &Wrapped, limits: &Limits, stop: &AtomicBool) -> Decision<Peg> {
        self.0.select(&pos.0, limits, stop)
    }
}

/// Plays a peg that does not exist, or panics.
struct Broken {
    panics: bool,
}

impl Agent<Wrapped> for Broken {
    fn name(&self) -> &str {
        "broken"
    }
    fn select(&mut self, _: &Wrapped, _: &Limits, _: &AtomicBool) -> Decision<Peg> {
        assert!(!self.panics, "deliberate test panic");
        Decision {
            mv: Peg(16),
            playouts: 3,
            value: None,
        }
    }
}

impl PlayableGame for Wrapped {
    const ID: &'static str = "wrapped";
    fn agent_names() -> &'static [&'static str] {
        &["random", "pmc", "illegal", "panic"]
    }
    fn start(seed: u64) -> Self {
        Wrapped(Board::start(seed))
    }
    fn state_to_json(&self) -> Value {
        self.0.state_to_json()
    }
    fn public_json(&self) -> Value {
        self.0.public_json()
    }
    fn state_from_json(v: &Value) -> Result<Self, String> {
        Board::state_from_json(v).map(Wrapped)
    }
    fn obs_to_json(obs: &Wrapped) -> Value {
        obs.state_to_json()
    }
    fn obs_from_json(v: &Value) -> Result<Wrapped, String> {
        Self::state_from_json(v)
    }
    fn move_to_json(mv: Peg) -> Value {
        Board::move_to_json(mv)
    }
    fn move_from_json(v: &Value) -> Result<Peg, String> {
        Board::move_from_json(v)
    }
    fn render(&self) -> String {
        PlayableGame::render(&self.0)
    }
    fn view_js() -> &'static str {
        Board::view_js()
    }
    fn build_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, String> {
        match name {
            "illegal" => Ok(Box::new(Broken { panics: false })),
            "panic" => Ok(Box::new(Broken { panics: true })),
            _ => Ok(Box::new(Adapt(Board::build_agent(name, params, seed)?))),
        }
    }
    fn agent_decl(name: &str) -> Result<crate::games::params::Decl, String> {
        match name {
            "illegal" | "panic" => Ok(crate::games::params::Decl::new(name)),
            _ => Board::agent_decl(name),
        }
    }
}

#[test]
fn an_illegal_move_or_a_panic_loses_the_game() {
    for bad in ["illegal", "panic"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r.jsonl");
        let mut c = cfg(SideConfig::new(bad), SideConfig::new("random"), 4, 2);
        c.out = Some(out.clone());
        let r = run_match::<Wrapped>(&c, &quiet).unwrap();
        assert_eq!((r.wins, r.draws, r.losses), (0, 0, 4), "{bad}");
        assert_eq!(r.game, "wrapped");
        let recs = sorted_records(&out);
        for (i, rec) in recs.iter().enumerate() {
            let a = a_seat(i as u32);
            assert_eq!(rec.reason, EndReason::IllegalMove);
            assert_eq!(rec.winner, Some(1 - a));
            // A moved first (no moves recorded) or after B's first move.
            assert_eq!(rec.moves.len(), a);
            let detail = rec.detail.as_deref().unwrap();
            assert!(detail.starts_with(&format!("A ({bad})")), "{detail}");
        }
        // B winning as the broken side works the same.
        let c = cfg(SideConfig::new("random"), SideConfig::new(bad), 2, 1);
        let r = run_match::<Wrapped>(&c, &quiet).unwrap();
        assert_eq!((r.wins, r.draws, r.losses), (2, 0, 0), "{bad}");
    }
}

#[test]
fn bad_configurations_are_errors() {
    let c = cfg(SideConfig::new("nobody"), SideConfig::new("random"), 2, 1);
    let e = run_match::<Board>(&c, &quiet).unwrap_err();
    assert!(e.contains("side A") && e.contains("nobody"), "{e}");
    let mut c = cfg(SideConfig::new("pmc"), SideConfig::new("random"), 2, 1);
    c.b.params.insert("bogus".into(), serde_json::json!(1));
    assert!(run_match::<Board>(&c, &quiet)
        .unwrap_err()
        .contains("side B"));
    let c = cfg(SideConfig::new("random"), SideConfig::new("random"), 2, 0);
    assert!(run_match::<Board>(&c, &quiet).is_err());
    let mut c = cfg(SideConfig::new("random"), SideConfig::new("random"), 2, 1);
    c.sprt = Some(SprtConfig::new(10.0, 0.0));
    assert!(run_match::<Board>(&c, &quiet).is_err());
}

#[test]
fn zero_games_gives_a_valid_empty_report() {
    let c = cfg(SideConfig::new("random"), SideConfig::new("random"), 0, 3);
    let r = run_match::<Board>(&c, &quiet).unwrap();
    assert_eq!((r.games, r.score, r.elo, r.los), (0, 0.5, 0.0, 0.5));
    assert_finite(&r);
}

#[test]
fn a_sides_own_margin_and_clock_make_its_limits() {
    let t = Instant::now();
    // A profile's margin is taken off as it is (not capped at a quarter).
    let mut s = SideConfig::new("best").with_time_ms(100);
    s.margin_ms = Some(40);
    assert_eq!(
        s.limits(t, 10).deadline.unwrap().hard - t,
        Duration::from_millis(60)
    );
    assert_eq!(s.describe(), "best(time_ms=100, margin_ms=40)");
    // A clock: the fair share of what is left over the moves to go (soft),
    // up to four times that but a quarter of the bank (hard); time_ms is
    // not used.
    s.clock = Some(GameClock {
        bank: Duration::from_millis(10_000),
        increment: Duration::from_millis(100),
    });
    s.margin_ms = Some(30);
    s.ponder = true;
    let left = GameClock {
        bank: Duration::from_millis(2_000),
        increment: Duration::from_millis(100),
    };
    let d = s.move_limits(t, 10, Some(left), 20).deadline.unwrap();
    // (2000 + 19 * 100) / 20 = 195 ms; hard min(780, 500) = 500 ms.
    assert_eq!(d.soft - t, Duration::from_millis(195 - 30));
    assert_eq!(d.hard - t, Duration::from_millis(500 - 30));
    assert_eq!(
        s.budget(),
        "a bank of 10000 ms + 100 ms a move, margin 30 ms, pondering"
    );
    assert_eq!(
        s.describe(),
        "best(time_ms=100, margin_ms=30, bank_ms=10000+100, ponder)"
    );
    // Without a clock, the moves to go change nothing.
    s.clock = None;
    assert_eq!(s.move_limits(t, 10, None, 3), s.limits(t, 10));
}

#[test]
fn limits_and_descriptions() {
    let t = Instant::now();
    assert_eq!(SideConfig::new("pmc").limits(t, 10), Limits::default());
    let s = SideConfig::new("pmc").with_playouts(5).with_time_ms(100);
    let l = s.limits(t, 10);
    assert_eq!(l.playouts, Some(5));
    assert_eq!(l.deadline.unwrap().hard - t, Duration::from_millis(90));
    // A margin as long as the move's time would leave no search: in-process
    // it is at most a quarter of it.
    let short = SideConfig::new("pmc").with_time_ms(20).limits(t, 20);
    assert_eq!(short.deadline.unwrap().hard - t, Duration::from_millis(15));
    let tiny = SideConfig::new("pmc").with_time_ms(2).limits(t, 20);
    assert_eq!(tiny.deadline.unwrap().hard - t, Duration::from_millis(2));
    assert_eq!(s.describe(), "pmc(playouts=5, time_ms=100)");
    let mut s = SideConfig::new("pmc");
    s.params
        .insert("draw_reward".into(), serde_json::json!(0.5));
    assert_eq!(s.describe(), "pmc(draw_reward=0.5)");
    assert_eq!(
        Tally {
            wins: 3,
            draws: 1,
            losses: 2,
            ..Tally::default()
        }
        .to_string(),
        "+3 =1 -2"
    );
    // Seeds differ by game, side and match seed.
    let seeds = [
        derive_seed(1, 0, 1),
        derive_seed(1, 0, 2),
        derive_seed(1, 1, 1),
        derive_seed(2, 0, 1),
    ];
    for i in 0..seeds.len() {
        for j in 0..i {
            assert_ne!(seeds[i], seeds[j]);
        }
    }
}

#[test]
fn a_time_budget_is_honoured_loosely() {
    // Not a timing assertion: only that a time-limited side plays and
    // spends playouts.
    let c = cfg(
        SideConfig::new("pmc").with_time_ms(5),
        SideConfig::new("random"),
        2,
        2,
    );
    let r = run_match::<Board>(&c, &quiet).unwrap();
    assert_eq!(r.games, 2);
    assert!(r.a_playouts_per_move >= 1.0);
}

/// The report of A's `results` (by game number), no match behind it.
fn report_of(results: &[(u32, Outcome)], sprt: Option<SprtConfig>) -> MatchReport {
    let mut totals = report::Totals::new(results.len() as u32, None);
    for &(i, r) in results {
        totals.add(i, r, None, &Default::default());
    }
    totals.report(report::ReportHead {
        game: "four3d",
        a: "a".into(),
        b: "b".into(),
        seed: 1,
        jobs: 1,
        sprt,
        sprt_decision: None,
        has_endings: false,
        transport: None,
        openings: None,
        units: ["playouts"; 2],
        budgets: None,
    })
}

/// The line of a rendered report that starts with `prefix`.
fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} line in {text}"))
}

#[test]
fn edge_results_give_honest_intervals() {
    let win = Outcome::Win(0);
    // 4 wins in games 0, 2, 4, 6: no complete pair, trinomial. The lower end
    // is exp(-3.8415 / 8) = 0.6187 in score (see stats.rs), no upper end.
    let r = report_of(&[(0, win), (2, win), (4, win), (6, win)], None);
    let text = render_report(&r);
    assert_eq!(
        line(&text, "Elo"),
        "Elo A-B: +1200.0 (capped), 95% interval [+84.1, +inf] (trinomial, 4 games); LOS 97.72%"
    );
    assert_eq!((r.score_hi, r.elo_hi), (1.0, stats::ELO_CAP));
    assert_finite(&r);
    // The same 4 wins as 2 complete pairs: pentanomial, 2 observations,
    // lower end exp(-3.8415 / 4) = 0.38275, -83.016 Elo.
    let r = report_of(&[(0, win), (1, win), (2, win), (3, win)], None);
    assert_eq!(r.model, stats::Model::Pentanomial);
    assert_eq!(
        line(&render_report(&r), "Elo"),
        "Elo A-B: +1200.0 (capped), 95% interval [-83.0, +inf] (pentanomial, 2 pairs); LOS 97.72%"
    );
    // 6 draws in games 0, 2, ..., 10: ±97.7 (1/2 ± (1 - exp(-3.8415 / 12)) / 2).
    let draws: Vec<(u32, Outcome)> = (0..6).map(|i| (2 * i, Outcome::Draw)).collect();
    let r = report_of(&draws, Some(SprtConfig::new(0.0, 50.0)));
    let text = render_report(&r);
    assert_eq!(
        line(&text, "Elo"),
        "Elo A-B: +0.0, 95% interval [-97.7, +97.7] (trinomial, 6 games); LOS 50.00%"
    );
    // 6 ln(2 (1 - s1)) = -0.92539 with s1 = 0.5714631.
    assert_eq!(
        line(&text, "SPRT"),
        "SPRT elo0=0 elo1=50 (trinomial, 6 games): LLR -0.925 in [-2.944, 2.944] -> continue"
    );
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains("-0.0"), "{json}");
    assert!(json.contains(r#""model":"trinomial""#), "{json}");
    assert_finite(&r);
    // 5 straight wins no longer decide the SPRT: 5 ln(s1 / s0) = 0.668.
    let five: Vec<(u32, Outcome)> = (0..5).map(|i| (2 * i, win)).collect();
    let r = report_of(&five, Some(SprtConfig::new(0.0, 50.0)));
    let s = r.sprt.unwrap();
    assert!((s.llr - 0.667_959_231_309_160_7).abs() < 1e-9, "{s:?}");
    assert_eq!(s.decision, "continue");
    // One game, one pair.
    let r = report_of(&[(0, win)], None);
    assert!(render_report(&r).contains("(trinomial, 1 game)"));
    let r = report_of(&[(0, win), (1, Outcome::Draw), (2, win)], None);
    assert!(render_report(&r).contains("(pentanomial, 1 pair)"));
}
