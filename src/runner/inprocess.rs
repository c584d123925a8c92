//! The in-process driver: one game of a match through the one game loop
//! ([`crate::arena`]), with fresh or kept agents and an optional opening.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::openings;
use super::{a_seat, derive_seed, players, side_of_seat, Driver, MatchConfig, Played, SIDE_NAMES};
use crate::arena;
use crate::games::{apply_moves, AgentParams, PlayableGame};
use crate::records::{now_ms, EndReason, GameRecord, Opening};
use crate::search::{Agent, GameClock, Limits, Outcome, Seat};

/// Builds an agent of `G` by name, parameters and seed.
pub type Build<G> = fn(&str, &AgentParams, u64) -> Result<Box<dyn Agent<G>>, String>;

/// The driver of a [`PlayableGame`]: one game in-process through the one
/// game loop, with the agents of the game's registry (or of another, for
/// tests).
pub struct Playable<G: PlayableGame> {
    build: Build<G>,
}

impl<G: PlayableGame> Playable<G> {
    pub fn new() -> Self {
        Playable {
            build: G::build_agent,
        }
    }

    /// With agents from `build` instead of the game's registry.
    pub fn with_build(build: Build<G>) -> Self {
        Playable { build }
    }
}

impl<G: PlayableGame> Default for Playable<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// The agents a worker keeps between games (sides A and B), with
/// [`MatchConfig::keep_agents`].
pub type KeptAgents<G> = Option<[Box<dyn Agent<G>>; 2]>;

impl<G: PlayableGame> Driver for Playable<G> {
    type Worker = KeptAgents<G>;
    fn game(&self) -> &str {
        G::ID
    }
    fn ending_keys(&self) -> Option<(&'static [&'static str], &'static [&'static str])> {
        G::ending_keys()
    }
    fn check(&self, cfg: &MatchConfig) -> Result<(), String> {
        for (k, side) in [&cfg.a, &cfg.b].iter().enumerate() {
            if side.command.is_some() {
                return Err(format!(
                    "side {}: a program can play only geister over GAT",
                    SIDE_NAMES[k]
                ));
            }
            (self.build)(&side.agent, &side.params, 0)
                .map_err(|e| format!("side {}: {e}", SIDE_NAMES[k]))?;
        }
        if let Some(book) = &cfg.openings {
            let start = openings::fixed_start::<G>(&cfg.game_options)?;
            for o in &book.openings {
                opening_position(start.clone(), o)?;
            }
        }
        Ok(())
    }
    fn work_units(&self, cfg: &MatchConfig) -> [&'static str; 2] {
        [&cfg.a, &cfg.b].map(|side| {
            (self.build)(&side.agent, &side.params, 0).map_or("playouts", |a| a.work_unit())
        })
    }
    fn worker(&self, _cfg: &MatchConfig) -> Result<KeptAgents<G>, String> {
        Ok(None)
    }
    fn play(&self, w: &mut KeptAgents<G>, cfg: &MatchConfig, index: u32) -> Result<Played, String> {
        if !cfg.keep_agents {
            let mut agents = build_agents::<G>(self.build, cfg, index)?;
            return play_game::<G>(&mut agents, cfg, index);
        }
        if w.is_none() {
            *w = Some(build_agents::<G>(self.build, cfg, index)?);
        }
        let agents = w.as_mut().expect("built above");
        play_game::<G>(agents, cfg, index)
    }
}

/// Agents for sides A and B, seeded from (match seed, `index`, side).
fn build_agents<G: PlayableGame>(
    build: Build<G>,
    cfg: &MatchConfig,
    index: u32,
) -> Result<[Box<dyn Agent<G>>; 2], String> {
    let sides = [&cfg.a, &cfg.b];
    let make = |k: usize| {
        let seed = derive_seed(cfg.seed, index as u64, k as u64 + 1);
        build(&sides[k].agent, &sides[k].params, seed)
            .map_err(|e| format!("side {}: {e}", SIDE_NAMES[k]))
    };
    Ok([make(0)?, make(1)?])
}

/// Plays game `index` of the match to the end through the one game loop
/// ([`arena::play_logged`]) with `agents` (sides A and B: fresh ones, or a
/// worker's kept ones), each seeing only its own seat's observation. An
/// agent that returns an illegal move (or panics) loses the game with
/// reason `IllegalMove`.
fn play_game<G: PlayableGame>(
    agents: &mut [Box<dyn Agent<G>>; 2],
    cfg: &MatchConfig,
    index: u32,
) -> Result<Played, String> {
    let sides = [&cfg.a, &cfg.b];
    let [a, b] = agents;
    let seats: [&mut dyn Agent<G>; 2] = if a_seat(index) == 0 {
        [a.as_mut(), b.as_mut()]
    } else {
        [b.as_mut(), a.as_mut()]
    };
    let started_ms = now_ms();
    let start = G::start_with(
        derive_seed(cfg.seed, (index / 2) as u64, 0),
        &cfg.game_options,
    )?;
    let start_json = start.state_to_json();
    let opening = cfg
        .openings
        .as_ref()
        .map(|b| b.for_pair(index / 2, cfg.seed));
    let start = match opening {
        Some(o) => opening_position(start, o)?,
        None => start,
    };
    let book_moves = opening.map_or(&[][..], |o| &o.moves[..]);
    let never = AtomicBool::new(false);
    let mut timing = SideTiming::<G> {
        sides: std::array::from_fn(|seat| sides[side_of_seat(index, seat)]),
        left: std::array::from_fn(|seat| sides[side_of_seat(index, seat)].clock),
        margin_ms: cfg.margin_ms,
        game: std::marker::PhantomData,
    };
    let log = arena::play_logged(start, seats, &mut timing, &never);

    let mut decisions = [0u64; 2];
    let mut playouts = [0u64; 2];
    let mut time = [Duration::ZERO; 2];
    let mut max_time = [Duration::ZERO; 2];
    let mut moves = book_moves.to_vec();
    let mut move_ms = vec![0; book_moves.len()];
    for m in &log.moves {
        let k = side_of_seat(index, m.seat);
        decisions[k] += 1;
        playouts[k] += m.playouts;
        time[k] += m.time;
        max_time[k] = max_time[k].max(m.time);
        moves.push(G::move_to_json(m.action));
        move_ms.push(m.time.as_millis() as u64);
    }
    let (reason, detail) = if log.forfeits.is_empty() {
        (EndReason::Rules, None)
    } else {
        let details: Vec<String> = log
            .forfeits
            .iter()
            .map(|f| {
                let k = side_of_seat(index, f.seat);
                match f.action {
                    Some(mv) if !f.panicked => format!(
                        "{} ({}) played the illegal move {} at ply {}",
                        SIDE_NAMES[k],
                        sides[k].agent,
                        G::move_to_json(mv),
                        f.ply + book_moves.len()
                    ),
                    _ => format!(
                        "{} ({}) panicked: {}",
                        SIDE_NAMES[k], sides[k].agent, f.detail
                    ),
                }
            })
            .collect();
        (EndReason::IllegalMove, Some(details.join("; ")))
    };
    let ending = match reason {
        EndReason::Rules => log.end.ending().map(str::to_string),
        other => G::ending_keys().map(|_| other.key().to_string()),
    };
    let winner = log.outcome.winner();
    let result = match winner {
        Some(s) => Outcome::Win(side_of_seat(index, s)),
        None => Outcome::Draw,
    };
    let record = GameRecord {
        game: G::ID.to_string(),
        id: format!("s{}-g{}", cfg.seed, index),
        players: players(cfg, index),
        winner,
        result: GameRecord::result_string(winner).to_string(),
        reason,
        detail,
        start: start_json,
        moves,
        move_ms,
        opening: opening.cloned(),
        ending,
        started_ms,
        finished_ms: now_ms(),
        match_tag: None,
        analysis: None,
    };
    Ok(Played {
        result,
        decisions,
        playouts,
        time,
        max_time,
        record,
    })
}

/// `start` after the moves of `opening`.
pub(crate) fn opening_position<G: PlayableGame>(
    mut start: G,
    opening: &Opening,
) -> Result<G, String> {
    apply_moves(&mut start, &opening.moves).map_err(|e| {
        format!(
            "opening {} (line {}) does not apply to {}: {e}",
            opening.index,
            opening.line,
            G::ID
        )
    })?;
    Ok(start)
}

/// Each seat's side as the match gives it: its budget per move or a share
/// of its own game clock (what is `left` of it), and its pondering.
struct SideTiming<'a, G> {
    /// By seat.
    sides: [&'a super::SideConfig; 2],
    left: [Option<GameClock>; 2],
    margin_ms: u64,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: PlayableGame> arena::Timing<G> for SideTiming<'_, G> {
    fn limits(&mut self, seat: Seat, obs: &G::Obs, start: Instant) -> Limits {
        self.sides[seat].move_limits(start, self.margin_ms, self.left[seat], G::moves_to_go(obs))
    }
    fn spent(&mut self, seat: Seat, time: Duration) {
        if let Some(c) = self.left[seat].as_mut() {
            *c = c.after(time);
        }
    }
    fn ponders(&self, seat: Seat) -> bool {
        self.sides[seat].ponder
    }
}
