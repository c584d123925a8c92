//! Geister matches in-process: each agent picks its own setup and then sees
//! only its own view (see [`crate::games::geister::arena`]). Seat 0 moves
//! first (as the GAT server's first port does) and A sits in seat 0 in even
//! games, so each side moves first in half the games. Records carry the
//! setups, the moves in GAT form (`A,N`, in the mover's own frame) and how
//! each game ended.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{a_seat, derive_seed, side_of_seat, Driver, MatchConfig, Played, SIDE_NAMES};
use crate::games::geister::agents::{self, GeisterAgent};
use crate::games::geister::arena::{self, Ending};
use crate::games::AgentParams;
use crate::records::{now_ms, EndReason, GameRecord};
use crate::search::{Outcome, Seat};

/// The game id in reports and records.
pub const GAME: &str = "geister";

/// The ending keys of a game won by the rules, in report order.
pub const WIN_KEYS: &[&str] = &["escape", "blues_captured", "reds_captured"];
/// The ending keys of a drawn game.
pub const DRAW_KEYS: &[&str] = &["draw"];

/// Builds a Geister agent by name, parameters and seed.
pub type Build = fn(&str, &AgentParams, u64) -> Result<Box<dyn GeisterAgent>, String>;

/// Checks both sides' agents and parameters.
pub fn check_sides(cfg: &MatchConfig) -> Result<(), String> {
    check_with(agents::build, cfg)
}

fn check_with(build: Build, cfg: &MatchConfig) -> Result<(), String> {
    for (k, side) in [&cfg.a, &cfg.b].iter().enumerate() {
        build(&side.agent, &side.params, 0).map_err(|e| format!("side {}: {e}", SIDE_NAMES[k]))?;
    }
    Ok(())
}

/// `A:rule` / `B:random` by seat for game `index`.
pub fn players(cfg: &MatchConfig, index: u32) -> [String; 2] {
    let sides = [&cfg.a, &cfg.b];
    std::array::from_fn(|seat| {
        let k = side_of_seat(index, seat);
        format!("{}:{}", SIDE_NAMES[k], sides[k].agent)
    })
}

/// Geister played in-process by [`arena::play_logged`], with the agents of
/// [`agents::build`] (or of another registry, for tests).
#[derive(Clone, Copy, Debug)]
pub struct InProcess {
    build: Build,
}

impl InProcess {
    pub fn new() -> Self {
        InProcess {
            build: agents::build,
        }
    }

    /// With agents from `build` instead of [`agents::build`].
    pub fn with_build(build: Build) -> Self {
        InProcess { build }
    }
}

impl Default for InProcess {
    fn default() -> Self {
        Self::new()
    }
}

impl Driver for InProcess {
    type Worker = ();
    fn game(&self) -> &str {
        GAME
    }
    fn check(&self, cfg: &MatchConfig) -> Result<(), String> {
        check_with(self.build, cfg)
    }
    fn worker(&self, _cfg: &MatchConfig) -> Result<(), String> {
        Ok(())
    }
    fn play(&self, _w: &mut (), cfg: &MatchConfig, index: u32) -> Result<Played, String> {
        play_game(self.build, cfg, index)
    }
    fn ending_keys(&self) -> Option<(&'static [&'static str], &'static [&'static str])> {
        Some((WIN_KEYS, DRAW_KEYS))
    }
}

/// Plays game `index`: fresh agents seeded from (match seed, index, side),
/// seat 0 first. An agent that panics or plays an illegal move loses.
fn play_game(build: Build, cfg: &MatchConfig, index: u32) -> Result<Played, String> {
    let sides = [&cfg.a, &cfg.b];
    let make = |k: usize| {
        let seed = derive_seed(cfg.seed, index as u64, k as u64 + 1);
        build(&sides[k].agent, &sides[k].params, seed)
            .map_err(|e| format!("side {}: {e}", SIDE_NAMES[k]))
    };
    let (mut a, mut b) = (make(0)?, make(1)?);
    let seats: [&mut dyn GeisterAgent; 2] = if a_seat(index) == 0 {
        [a.as_mut(), b.as_mut()]
    } else {
        [b.as_mut(), a.as_mut()]
    };
    let never = AtomicBool::new(false);
    let started_ms = now_ms();
    let mut limits =
        |seat: Seat, start| sides[side_of_seat(index, seat)].limits(start, cfg.margin_ms);
    let log = arena::play_logged(seats, &mut limits, 0, &never);

    let mut decisions = [0u64; 2];
    let mut playouts = [0u64; 2];
    let mut time = [Duration::ZERO; 2];
    let mut move_ms = Vec::with_capacity(log.moves.len());
    for (ply, took) in log.move_time.iter().enumerate() {
        let k = side_of_seat(index, (log.first + ply) % 2);
        decisions[k] += 1;
        playouts[k] += log.move_playouts.get(ply).copied().unwrap_or(0);
        time[k] += *took;
        move_ms.push(took.as_millis() as u64);
    }
    let (reason, detail, ending) = match &log.forfeit {
        None => (
            EndReason::Rules,
            None,
            log.ending.unwrap_or(Ending::Draw).key().to_string(),
        ),
        Some(f) => {
            let k = side_of_seat(index, f.seat);
            (
                EndReason::IllegalMove,
                Some(format!(
                    "{} ({}) {}",
                    SIDE_NAMES[k], sides[k].agent, f.detail
                )),
                EndReason::IllegalMove.key().to_string(),
            )
        }
    };
    let winner = match log.outcome {
        Outcome::Win(s) => Some(s),
        Outcome::Draw => None,
    };
    let result = match winner {
        Some(s) => Outcome::Win(side_of_seat(index, s)),
        None => Outcome::Draw,
    };
    let setups = log
        .setups
        .map(|s| s.map(|s| s.to_letters()).unwrap_or_default());
    let record = GameRecord {
        game: GAME.to_string(),
        id: format!("s{}-g{}", cfg.seed, index),
        players: players(cfg, index),
        winner,
        result: GameRecord::result_string(winner).to_string(),
        reason,
        detail,
        moves: log
            .moves
            .iter()
            .map(|m| serde_json::Value::String(m.to_gat()))
            .collect(),
        move_ms,
        ending: Some(ending),
        setups: Some(setups),
        started_ms,
        finished_ms: now_ms(),
    };
    Ok(Played {
        result,
        decisions,
        playouts,
        time,
        record,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::{Geister, Move, Setup};
    use crate::records::read_records;
    use crate::runner::{run_with, SideConfig};

    use crate::runner::test_support::{config, index_of, quiet};

    fn cfg(a: &str, b: &str, games: u32, jobs: usize) -> MatchConfig {
        config(SideConfig::new(a), SideConfig::new(b), games, jobs, 11)
    }

    /// Replays a record from its setups and GAT moves; the end position.
    fn replay(r: &GameRecord) -> Geister {
        let setups = r
            .setups
            .as_ref()
            .unwrap()
            .clone()
            .map(|s| Setup::from_letters(&s).unwrap());
        let mut g = Geister::new(setups);
        for m in &r.moves {
            g.try_play(Move::parse_gat(m.as_str().unwrap()).unwrap())
                .unwrap();
        }
        g
    }

    #[test]
    fn geister_results_do_not_depend_on_jobs_and_records_replay() {
        let dir = tempfile::tempdir().unwrap();
        let run = |jobs: usize| {
            let mut c = cfg("charge", "random", 16, jobs);
            let out = dir.path().join(format!("j{jobs}.jsonl"));
            c.out = Some(out.clone());
            let r = run_with(&InProcess::new(), &c, &quiet).unwrap();
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
            assert_eq!(
                (&x.moves, &x.setups, x.winner),
                (&y.moves, &y.setups, y.winner)
            );
            assert_eq!(index_of(x), i as u32);
            assert_eq!(x.game, "geister");
            assert_eq!(x.players[a_seat(i as u32)], "A:charge");
            assert_eq!(x.players[1 - a_seat(i as u32)], "B:random");
            assert_eq!(x.reason, EndReason::Rules);
            assert_eq!(x.moves.len(), x.move_ms.len());
            // The record replays to its result and its ending.
            let end = replay(x);
            assert_eq!(Some(x.outcome()), end.outcome());
            assert_eq!(x.ending.as_deref(), arena::ending(&end).map(|e| e.key()));
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
        run_with(&InProcess::new(), &c, &quiet).unwrap();
        let mut other = read_records(&out).unwrap();
        other.sort_by_key(index_of);
        assert!(other.iter().zip(&rec1).any(|(x, y)| x.moves != y.moves));
    }

    #[test]
    fn rule_beats_random_and_the_report_counts_endings() {
        let c = cfg("rule", "random", 40, 2);
        let r = run_with(&InProcess::new(), &c, &quiet).unwrap();
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
        assert!(r.a_ms_per_move >= 0.0 && r.b_ms_per_move >= 0.0);
    }

    #[test]
    fn the_report_counts_the_playouts_best_ran() {
        let mut c = cfg("best", "random", 2, 1);
        c.a = SideConfig::new("best").with_playouts(30);
        let r = run_with(&InProcess::new(), &c, &quiet).unwrap();
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
        inner: Box<dyn GeisterAgent>,
    }

    impl GeisterAgent for Broken {
        fn name(&self) -> &str {
            self.how
        }
        fn setup(&mut self) -> Setup {
            assert!(self.how != "setup-panic", "deliberate setup panic");
            self.inner.setup()
        }
        fn choose(
            &mut self,
            view: &crate::games::geister::View,
            limits: &crate::search::Limits,
            stop: &AtomicBool,
        ) -> Move {
            match self.how {
                "panic" => panic!("deliberate test panic"),
                // Onto an own piece: A (1,4) south is E's square at the start,
                // else any move that is not legal.
                "illegal" => [0u8, 1, 2, 3, 4, 5, 6, 7]
                    .into_iter()
                    .flat_map(|p| crate::games::geister::Dir::ALL.map(|d| Move::new(p, d)))
                    .find(|m| !view.is_legal(*m))
                    .expect("some move is illegal"),
                _ => self.inner.choose(view, limits, stop),
            }
        }
    }

    /// The usual agents plus three that break the rules.
    fn build_with_broken(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn GeisterAgent>, String> {
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
        let driver = InProcess::with_build(build_with_broken);
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
                let setups = rec.setups.as_ref().unwrap();
                if how == "setup-panic" {
                    assert!(detail.contains("panicked in setup"), "{detail}");
                    assert_eq!(setups[a], "");
                    assert!(rec.moves.is_empty());
                } else {
                    assert_eq!(setups[a].len(), 4);
                    // A moved first (nothing recorded) or after B's first move.
                    assert_eq!(rec.moves.len(), a, "{how}");
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
}
