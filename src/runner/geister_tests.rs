//! Geister through the one match loop: hidden setups, own views, endings,
//! forfeits.

use std::sync::atomic::AtomicBool;

use crate::games::geister::game::WIN_KEYS;
use crate::games::geister::{agents, Action, GeisterGame, Move, Obs};
use crate::games::{replay, AgentParams, PlayableGame};
use crate::records::{read_records, EndReason, GameRecord};
use crate::runner::{a_seat, run_with, side_of_seat, MatchConfig, Playable, SideConfig};
use crate::search::{Agent, Decision, Limits, Outcome};

use crate::runner::test_support::{config, index_of, quiet};

fn in_process() -> Playable<GeisterGame> {
    Playable::new()
}

fn cfg(a: &str, b: &str, games: u32, jobs: usize) -> MatchConfig {
    config(SideConfig::new(a), SideConfig::new(b), games, jobs, 11)
}

/// Replays a record from its start and its moves; the end position.
fn replay_record(r: &GameRecord) -> GeisterGame {
    replay::<GeisterGame>(&r.start, &r.moves).expect("the record replays")
}

#[test]
fn geister_results_do_not_depend_on_jobs_and_records_replay() {
    let dir = tempfile::tempdir().unwrap();
    let run = |jobs: usize| {
        let mut c = cfg("charge", "random", 16, jobs);
        let out = dir.path().join(format!("j{jobs}.jsonl"));
        c.out = Some(out.clone());
        let r = run_with(&in_process(), &c, &quiet).unwrap();
        let mut recs = read_records(&out).unwrap();
        recs.sort_by_key(index_of);
        (r, recs)
    };
    let (r1, rec1) = run(1);
    let (r2, rec2) = run(2);
    assert_eq!(
        (r1.wins, r1.draws, r1.losses, &r1.endings),
        (r2.wins, r2.draws, r2.losses, &r2.endings)
    );
    assert_eq!(rec1.len(), 16);
    let mut counted = r1.endings.clone().unwrap();
    for (i, (x, y)) in rec1.iter().zip(&rec2).enumerate() {
        assert_eq!((&x.moves, x.winner), (&y.moves, y.winner));
        assert_eq!(index_of(x), i as u32);
        assert_eq!(x.game, "geister");
        assert_eq!(x.players[a_seat(i as u32)], "A:charge");
        assert_eq!(x.players[1 - a_seat(i as u32)], "B:random");
        assert_eq!(x.reason, EndReason::Rules);
        assert_eq!(x.moves.len(), x.move_ms.len());
        // The record replays to its result and its ending.
        let end = replay_record(x);
        let g = end.game().unwrap();
        assert_eq!(Some(x.outcome()), g.outcome());
        assert_eq!(x.ending.as_deref(), PlayableGame::ending(&end));
        // Setups first, then moves in GAT form.
        assert!(x.moves[0].as_str().unwrap().starts_with("SET:"));
        assert!(x.moves[2].as_str().unwrap().contains(','));
        // Take the game back out of the report's counts.
        let a_side = match x.winner {
            None => Outcome::Draw,
            Some(s) => Outcome::Win(side_of_seat(i as u32, s)),
        };
        let map = match a_side {
            Outcome::Win(0) => &mut counted.a,
            Outcome::Win(_) => &mut counted.b,
            Outcome::Draw => &mut counted.draws,
        };
        *map.get_mut(x.ending.as_deref().unwrap()).unwrap() -= 1;
    }
    assert_eq!(counted.total(), 0, "every game counted once: {counted:?}");
    assert_eq!(r1.endings.as_ref().unwrap().total(), 16);
    // Deterministic, but not constant: the seed matters.
    let mut c = cfg("charge", "random", 16, 2);
    c.seed = 12;
    let out = dir.path().join("other.jsonl");
    c.out = Some(out.clone());
    run_with(&in_process(), &c, &quiet).unwrap();
    let mut other = read_records(&out).unwrap();
    other.sort_by_key(index_of);
    assert!(other.iter().zip(&rec1).any(|(x, y)| x.moves != y.moves));
}

#[test]
fn rule_beats_random_and_the_report_counts_endings() {
    let c = cfg("rule", "random", 40, 2);
    let r = run_with(&in_process(), &c, &quiet).unwrap();
    assert_eq!(r.games, 40);
    // The rule agent scores about 0.75 against random over 400 games.
    assert!(r.score > 0.6, "{}", crate::runner::render_report(&r));
    let e = r.endings.as_ref().unwrap();
    assert_eq!(e.total(), 40);
    assert_eq!(e.a.values().sum::<u32>(), r.wins);
    assert_eq!(e.b.values().sum::<u32>(), r.losses);
    assert_eq!(e.draws.values().sum::<u32>(), r.draws);
    for k in WIN_KEYS {
        assert!(e.a.contains_key(*k) && e.b.contains_key(*k), "{k}");
    }
    let text = crate::runner::render_report(&r);
    assert!(text.contains("endings (A/B wins): escape "), "{text}");
    assert!(text.contains("blues captured"), "{text}");
    let v = serde_json::to_value(&r).unwrap();
    assert!(v["endings"]["a"]["escape"].is_number(), "{v}");
    assert!(v["endings"]["draws"]["draw"].is_number(), "{v}");
    assert!(v.get("transport").is_none());
    // The longest move is at least the mean move, on each side.
    assert!(
        r.a_max_ms >= r.a_ms_per_move && r.b_max_ms >= r.b_ms_per_move,
        "{v}"
    );
}

#[test]
fn the_report_counts_the_playouts_best_ran() {
    let mut c = cfg("best", "random", 2, 1);
    c.a = SideConfig::new("best").with_playouts(30);
    let r = run_with(&in_process(), &c, &quiet).unwrap();
    // Forced wins and single legal moves run no playouts, so the
    // average is at most the budget, and random never searches.
    assert!(
        r.a_playouts_per_move > 5.0 && r.a_playouts_per_move <= 30.0,
        "{}",
        crate::runner::render_report(&r)
    );
    assert_eq!(r.b_playouts_per_move, 0.0);
}

/// Breaks the rules on purpose.
struct Broken {
    how: &'static str,
    inner: Box<dyn Agent<GeisterGame>>,
}

impl Agent<GeisterGame> for Broken {
    fn name(&self) -> &str {
        self.how
    }
    fn select(&mut self, obs: &Obs, limits: &Limits, stop: &AtomicBool) -> Decision<Action> {
        match (obs, self.how) {
            (Obs::Setup, "setup-panic") => panic!("deliberate setup panic"),
            (Obs::Play(_), "panic") => panic!("deliberate test panic"),
            // Onto an own piece or off the board: some move is illegal.
            (Obs::Play(view), "illegal") => Decision {
                mv: Action::Move(
                    [0u8, 1, 2, 3, 4, 5, 6, 7]
                        .into_iter()
                        .flat_map(|p| crate::games::geister::Dir::ALL.map(|d| Move::new(p, d)))
                        .find(|m| !view.is_legal(*m))
                        .expect("some move is illegal"),
                ),
                playouts: 0,
                value: None,
            },
            _ => self.inner.select(obs, limits, stop),
        }
    }
}

/// The usual agents plus three that break the rules.
fn build_with_broken(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<GeisterGame>>, String> {
    match name {
        "illegal" | "panic" | "setup-panic" => Ok(Box::new(Broken {
            how: ["illegal", "panic", "setup-panic"]
                .into_iter()
                .find(|h| *h == name)
                .unwrap_or("illegal"),
            inner: agents::build("random", params, seed)?,
        })),
        _ => agents::build(name, params, seed),
    }
}

#[test]
fn a_panic_or_an_illegal_move_loses_the_game() {
    let driver = Playable::<GeisterGame>::with_build(build_with_broken);
    for how in ["illegal", "panic", "setup-panic"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r.jsonl");
        let mut c = cfg(how, "random", 4, 2);
        c.out = Some(out.clone());
        let r = run_with(&driver, &c, &quiet).unwrap();
        assert_eq!((r.wins, r.draws, r.losses), (0, 0, 4), "{how}");
        let e = r.endings.unwrap();
        assert_eq!(e.b["illegal_move"], 4, "{how}");
        assert!(e.render().contains("illegal move 0/4"), "{}", e.render());
        let mut recs = read_records(&out).unwrap();
        recs.sort_by_key(index_of);
        for (i, rec) in recs.iter().enumerate() {
            let a = a_seat(i as u32);
            assert_eq!(rec.reason, EndReason::IllegalMove);
            assert_eq!(rec.ending.as_deref(), Some("illegal_move"));
            assert_eq!(rec.winner, Some(1 - a));
            let detail = rec.detail.as_deref().unwrap();
            assert!(detail.starts_with(&format!("A ({how}) ")), "{detail}");
            if how == "setup-panic" {
                assert!(
                    detail.contains("panicked: deliberate setup panic"),
                    "{detail}"
                );
                assert!(rec.moves.is_empty());
            } else {
                // Both setups, then A moved first (nothing more
                // recorded) or after B's first move.
                assert_eq!(rec.moves.len(), 2 + a, "{how}");
                let set = rec.moves[a].as_str().unwrap();
                assert!(set.starts_with("SET:"), "{set}");
            }
        }
        // B breaking the rules loses the same way.
        let c = cfg("random", how, 2, 1);
        let r = run_with(&driver, &c, &quiet).unwrap();
        assert_eq!((r.wins, r.draws, r.losses), (2, 0, 0), "{how}");
    }
    // An unknown agent is an error before any game.
    let e = run_with(&driver, &cfg("nobody", "random", 2, 1), &quiet).unwrap_err();
    assert!(e.contains("side A") && e.contains("nobody"), "{e}");
}

/// Counts the finished games it was told about (each seen with every
/// colour shown) in a static, by the agent's own tally.
struct Counting {
    inner: Box<dyn Agent<GeisterGame>>,
    seen: usize,
}

static MOST_SEEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Agent<GeisterGame> for Counting {
    fn name(&self) -> &str {
        "counting"
    }
    fn new_game(&mut self) {
        self.inner.new_game()
    }
    fn select(&mut self, obs: &Obs, limits: &Limits, stop: &AtomicBool) -> Decision<Action> {
        self.inner.select(obs, limits, stop)
    }
    fn game_over(&mut self, obs: &Obs) {
        let Obs::Play(v) = obs else {
            panic!("game over before the setups")
        };
        assert!(v.outcome().is_some());
        assert!(
            (0..8).all(|p| v.opp_colour(p).is_some()),
            "every colour shown"
        );
        self.seen += 1;
        MOST_SEEN.fetch_max(self.seen, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn kept_agents_see_every_game_of_their_worker_and_fresh_ones_one() {
    use std::sync::atomic::Ordering;
    fn build(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<GeisterGame>>, String> {
        Ok(Box::new(Counting {
            inner: agents::build(name, params, seed)?,
            seen: 0,
        }))
    }
    let driver = Playable::<GeisterGame>::with_build(build);
    let mut c = cfg("random", "charge", 6, 1);
    run_with(&driver, &c, &quiet).unwrap();
    assert_eq!(MOST_SEEN.load(Ordering::SeqCst), 1);
    c.keep_agents = true;
    let r = run_with(&driver, &c, &quiet).unwrap();
    assert_eq!(r.games, 6);
    assert_eq!(MOST_SEEN.load(Ordering::SeqCst), 6);
}
