//! Flood-It agents by name.
//!
//! | name | what it is |
//! |---|---|
//! | `random` | a uniformly random allowed colour |
//! | `greedy` | the colour with the largest immediate gain, ties at random |
//! | `mc` (default) | the seed's Monte Carlo: playouts spread evenly over the candidate colours, uniform random to the end, the best win rate (wins only count; equal rates go to the larger immediate gain) |
//! | `mc-area` | `mc` with playouts scored by the final territory margin as well as the result (half each) |
//! | `alphabeta` | the "7 Colors" baseline: depth-limited alpha-beta (iterative deepening under the clock, or `depth`), evaluation territory plus the cells each side reaches first |
//! | `uct` | UCT on the shared search core, uniform random playouts scored by the result |
//! | `best` | alpha-beta with the same evaluation, plus move ordering (the best move of the last iteration and of the transposition table first, then by immediate gain) and a transposition table |
//!
//! At the root both alpha-beta agents try the colours in order of immediate
//! gain, so among colours of equal value the larger gain is played: once a
//! game is decided the sides still fill the board instead of marking time.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::eval::territory_and_reach;
use super::rules::FloodIt;
use crate::games::params::Decl;
use crate::games::AgentParams;
use crate::search::bandit::{decide, PrimitiveMc};
use crate::search::mcts::{PlayoutResult, Policy, Uct, UctConfig};
use crate::search::{Agent, Bound, Budget, Decision, Game, Limits, RandomAgent, Ready};

/// The agent `default` stands for.
pub const DEFAULT: &str = "best";

/// The agent names [`build`] accepts (and `default`).
pub const NAMES: &[&str] = &[
    "random",
    "greedy",
    "mc",
    "mc-area",
    "alphabeta",
    "uct",
    "best",
];

/// `uct`'s tree settings: the seed's UCT, a draw worth half a win.
pub fn uct_config() -> UctConfig {
    UctConfig {
        draw_reward: 0.5,
        ..UctConfig::seed_uct()
    }
}

/// `mc-area`'s playouts: half the result, half the territory margin.
pub fn mc_area_playout() -> AreaPlayout {
    AreaPlayout { weight: 0.5 }
}

/// The parameters of every agent, declared once: what [`build`] reads,
/// `ladderbot agents --params` prints and `ladderbot tune` moves.
pub fn decl(name: &str) -> Result<Decl, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    let depth = |d: Decl| {
        d.int_or_none(
            "depth",
            1..=64,
            "a fixed search depth, plies (none: iterative deepening under the clock)",
        )
    };
    Ok(match name {
        "random" | "greedy" | "mc" => Decl::new(name),
        "mc-area" => Decl::new(name).float(
            "weight",
            mc_area_playout().weight,
            0.0..=1.0,
            0.05,
            "a playout's score: the share of the territory margin against the result",
        ),
        "uct" => {
            let cfg = uct_config();
            Decl::new(name)
                .float(
                    "exploration",
                    cfg.exploration,
                    0.0..=10.0,
                    0.1,
                    "UCB1's exploration constant",
                )
                .int(
                    "threshold",
                    u64::from(cfg.expand_threshold),
                    1..=1_000_000,
                    5,
                    "playouts through a leaf before it is expanded",
                )
        }
        "alphabeta" | "best" => depth(Decl::new(name)),
        other => return Err(crate::games::unknown_agent("floodit", other, NAMES)),
    })
}

/// Builds a named agent.
pub fn build(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<FloodIt>>, String> {
    let name = crate::games::agent_name(name, DEFAULT);
    let d = decl(name)?;
    let p = d.read(params)?;
    match name {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        "greedy" => Ok(Box::new(Greedy {
            rng: SmallRng::seed_from_u64(seed),
        })),
        "mc" => Ok(Box::new(FlatMc {
            name: "mc",
            mc: PrimitiveMc::new(seed),
            policy: AreaPlayout { weight: 0.0 },
        })),
        "mc-area" => {
            let mut policy = mc_area_playout();
            if let Some(w) = p.f64("weight") {
                policy.weight = w;
            }
            Ok(Box::new(FlatMc {
                name: "mc-area",
                mc: PrimitiveMc::new(seed),
                policy,
            }))
        }
        "uct" => {
            let mut cfg = uct_config();
            if let Some(c) = p.f64("exploration") {
                cfg.exploration = c;
            }
            if let Some(t) = p.u64("threshold") {
                cfg.expand_threshold = t as u32;
            }
            // Uniform playouts scored by the result alone.
            let policy = AreaPlayout { weight: 0.0 };
            Ok(Box::new(DecidedMovesOn {
                inner: Uct::<FloodIt, _>::new("uct", cfg, policy, seed),
            }))
        }
        "alphabeta" => {
            let depth = p.u64("depth").map(|d| d as u32);
            Ok(Box::new(AlphaBeta::new(false, depth)))
        }
        "best" => {
            let depth = p.u64("depth").map(|d| d as u32);
            Ok(Box::new(AlphaBeta::new(true, depth)))
        }
        other => Err(crate::games::unknown_agent("floodit", other, NAMES)),
    }
}

/// The colour with the largest immediate gain, ties broken at random.
pub struct Greedy {
    rng: SmallRng,
}

/// The allowed colours with the largest gain for the seat to move.
pub fn greediest(g: &FloodIt) -> Vec<u8> {
    let mut best = Vec::new();
    let mut top = 0;
    for c in g.legal_moves() {
        let gain = g.gain(c);
        if best.is_empty() || gain > top {
            best.clear();
            top = gain;
        }
        if gain == top {
            best.push(c);
        }
    }
    best
}

impl Agent<FloodIt> for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }
    fn select(&mut self, g: &FloodIt, _limits: &Limits, _stop: &AtomicBool) -> Decision<u8> {
        let best = greediest(g);
        assert!(!best.is_empty(), "select called on a finished game");
        Decision {
            mv: best[self.rng.gen_range(0..best.len())],
            playouts: 0,
            value: None,
        }
    }
}

/// Uniform random playouts scored by the result and the final margin:
/// `(1 - weight) * result + weight * (1 + margin / cells) / 2`, for seat 0
/// (result 1 for a win, 0 for a loss; a draw counts 0 at weight 0, as the
/// seed counts wins only, else 0.5).
#[derive(Clone, Copy, Debug)]
pub struct AreaPlayout {
    pub weight: f64,
}

impl Policy<FloodIt> for AreaPlayout {
    fn playout(&mut self, pos: &mut FloodIt, rng: &mut SmallRng) -> PlayoutResult {
        let o = pos.random_playout(rng);
        if self.weight == 0.0 {
            return PlayoutResult::End(o);
        }
        let cells = (pos.rows() * pos.cols()) as f64;
        let margin = pos.score(0) as f64 - pos.score(1) as f64;
        let result = o.reward_for(0, 0.5);
        PlayoutResult::Value(
            (1.0 - self.weight) * result + self.weight * (1.0 + margin / cells) / 2.0,
        )
    }
}

/// The seed's flat Monte Carlo (`mc`), or with area-scored playouts
/// (`mc-area`): playouts spread evenly over the allowed colours, the best
/// mean wins. Equal means (a lost or won position, where every colour
/// scores the same) go to the larger immediate gain, so a decided game
/// still moves on.
pub struct FlatMc {
    name: &'static str,
    mc: PrimitiveMc,
    policy: AreaPlayout,
}

impl Agent<FloodIt> for FlatMc {
    fn name(&self) -> &str {
        self.name
    }
    fn select(&mut self, g: &FloodIt, limits: &Limits, stop: &AtomicBool) -> Decision<u8> {
        let (moves, stats) = self.mc.search_with(g, limits, stop, &mut self.policy);
        let mut d = decide(&moves, &stats);
        if let Some(top) = d.value {
            let tied = moves
                .iter()
                .zip(&stats)
                .filter(|(_, s)| s.playouts > 0 && s.mean() == top)
                .map(|(&c, _)| c);
            if let Some(c) = tied.max_by_key(|&c| (g.gain(c), std::cmp::Reverse(c))) {
                d.mv = c;
            }
        }
        d
    }
}

/// A search that, once every playout of its chosen move ends the same
/// way (the game is decided), plays the largest immediate gain instead, so
/// a decided game still moves on.
pub struct DecidedMovesOn<A> {
    inner: A,
}

impl<A: Agent<FloodIt>> Agent<FloodIt> for DecidedMovesOn<A> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn new_game(&mut self) {
        self.inner.new_game()
    }
    fn select(&mut self, g: &FloodIt, limits: &Limits, stop: &AtomicBool) -> Decision<u8> {
        let mut d = self.inner.select(g, limits, stop);
        if d.value.is_some_and(|v| v <= 0.0 || v >= 1.0) {
            if let Some(&c) = greediest(g).first() {
                d.mv = c;
            }
        }
        d
    }
    fn work_unit(&self) -> &'static str {
        self.inner.work_unit()
    }
}

/// A won game's score: above any evaluation.
const WIN: i32 = 100_000;

/// Depth-limited negamax alpha-beta over territory plus reach.
/// `enhanced` (the `best` agent) adds move ordering and a transposition
/// table; without it (the `alphabeta` baseline) moves are searched in
/// colour order and nothing is remembered.
pub struct AlphaBeta {
    enhanced: bool,
    depth: Option<u32>,
    tt: HashMap<u64, Entry>,
    /// The deepest iteration the last search completed.
    reached: u32,
    /// Where a `select` keeps its best move so far ([`Agent::keep_ready`]).
    ready: Option<Arc<Ready<u8>>>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    depth: u32,
    value: i32,
    bound: Bound,
    best: u8,
    /// The value rests on a depth-0 evaluation somewhere below (else every
    /// line under it reached the end of the game).
    leaves: bool,
}

/// Out of budget: the iteration is abandoned.
struct OutOfTime;

impl AlphaBeta {
    pub fn new(enhanced: bool, depth: Option<u32>) -> Self {
        AlphaBeta {
            enhanced,
            depth,
            tt: HashMap::new(),
            reached: 0,
            ready: None,
        }
    }

    fn key(g: &FloodIt) -> u64 {
        // FNV-1a over the two territories, the two colours and the mover.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let w = g.layout().shape.words;
        for seat in 0..2 {
            for &x in &g.territory(seat).0[..w] {
                h = (h ^ x).wrapping_mul(0x0000_0100_0000_01b3);
            }
            h = (h ^ g.colour(seat) as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        (h ^ g.to_move() as u64).wrapping_mul(0x0000_0100_0000_01b3)
    }

    /// The children in search order. At the root both agents order by
    /// immediate gain (colour order among equal gains), so among moves of
    /// equal value the larger gain is kept: a decided game moves on
    /// instead of marking time to the ply limit.
    fn ordered(&self, g: &FloodIt, first: Option<u8>, root: bool) -> Vec<(u8, FloodIt)> {
        let mut kids: Vec<(u8, FloodIt)> = g
            .legal_moves()
            .into_iter()
            .map(|c| {
                let mut k = g.clone();
                k.play(c);
                (c, k)
            })
            .collect();
        if self.enhanced || root {
            let me = g.to_move();
            kids.sort_by_key(|(c, k)| (Some(*c) != first, std::cmp::Reverse(k.area(me))));
        }
        kids
    }

    fn negamax(
        &mut self,
        g: &FloodIt,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        budget: &mut Budget,
        leaves: &mut bool,
    ) -> Result<i32, OutOfTime> {
        if !budget.tick() {
            return Err(OutOfTime);
        }
        let me = g.to_move();
        if g.is_over() {
            let margin = g.score(me) as i32 - g.score(1 - me) as i32;
            return Ok(margin.signum() * WIN + margin);
        }
        if depth == 0 {
            *leaves = true;
            return Ok(territory_and_reach(g, me));
        }
        let alpha0 = alpha;
        let key = Self::key(g);
        let mut first = None;
        if self.enhanced {
            if let Some(e) = self.tt.get(&key) {
                first = Some(e.best);
                if e.depth >= depth && e.bound.cuts(e.value, alpha, beta) {
                    *leaves |= e.leaves;
                    return Ok(e.value);
                }
            }
        }
        let mut best = i32::MIN;
        let mut best_move = 0;
        let mut below = false;
        for (c, k) in self.ordered(g, first, false) {
            let v = -self.negamax(&k, depth - 1, -beta, -alpha, budget, &mut below)?;
            if v > best {
                best = v;
                best_move = c;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        if self.enhanced {
            let bound = Bound::of(best, alpha0, beta);
            self.tt.insert(
                key,
                Entry {
                    depth,
                    value: best,
                    bound,
                    best: best_move,
                    leaves: below,
                },
            );
        }
        *leaves |= below;
        Ok(best)
    }

    /// The root: the best move and its value at `depth`.
    fn root(
        &mut self,
        g: &FloodIt,
        depth: u32,
        first: Option<u8>,
        budget: &mut Budget,
        leaves: &mut bool,
    ) -> Result<(u8, i32), OutOfTime> {
        let mut alpha = -WIN * 2;
        let mut best = None;
        for (c, k) in self.ordered(g, first, true) {
            let v = -self.negamax(&k, depth - 1, -WIN * 2, -alpha, budget, leaves)?;
            if best.is_none() || v > alpha {
                alpha = v;
                best = Some(c);
            }
        }
        Ok((best.expect("a position that is not over has moves"), alpha))
    }
}

impl Agent<FloodIt> for AlphaBeta {
    fn work_unit(&self) -> &'static str {
        "nodes"
    }
    fn name(&self) -> &str {
        if self.enhanced {
            "best"
        } else {
            "alphabeta"
        }
    }
    fn new_game(&mut self) {
        self.tt.clear();
    }
    fn keep_ready(&mut self, ready: Arc<Ready<u8>>) {
        self.ready = Some(ready);
    }
    fn select(&mut self, g: &FloodIt, limits: &Limits, stop: &AtomicBool) -> Decision<u8> {
        let moves = g.legal_moves();
        assert!(!moves.is_empty(), "select called on a finished game");
        // The budget counts nodes; a fixed depth is searched in full unless
        // the clock runs out.
        let limits = match (self.depth, limits.playouts) {
            (Some(_), None) => Limits {
                playouts: Some(u64::MAX),
                deadline: limits.deadline,
            },
            _ => *limits,
        };
        let mut budget = Budget::new(&limits, stop).with_check_every(16);
        let mut choice = moves[0];
        // Kept ready for a client that cannot wait: the first move, then
        // each iteration's best.
        if let Some(r) = &self.ready {
            r.offer(choice);
        }
        self.reached = 0;
        if self.tt.len() > 1 << 20 {
            self.tt.clear();
        }
        let (from, to) = match self.depth {
            Some(d) => (d, d),
            None => (1, 64),
        };
        // The last iteration's best move is searched first (enhanced), unless
        // the game is decided: then the larger gain decides between equals.
        let mut first = None;
        for depth in from..=to {
            let mut leaves = false;
            match self.root(g, depth, first, &mut budget, &mut leaves) {
                Ok((mv, v)) => {
                    choice = mv;
                    if let Some(r) = &self.ready {
                        r.offer(mv);
                    }
                    first = (self.enhanced && v.abs() < WIN / 2).then_some(mv);
                }
                Err(OutOfTime) => break,
            }
            self.reached = depth;
            if !leaves {
                break; // every line reached the end: the search is exact
            }
        }
        tracing::debug!(
            agent = self.name(),
            ply = g.ply(),
            depth = self.reached,
            nodes = budget.done(),
            "floodit alpha-beta"
        );
        Decision {
            mv: choice,
            playouts: budget.done(),
            value: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Outcome;

    fn play(
        a: &mut dyn Agent<FloodIt>,
        b: &mut dyn Agent<FloodIt>,
        seed: u64,
        limits: &Limits,
    ) -> Outcome {
        let mut g = FloodIt::random(8, 8, 5, seed).unwrap();
        let stop = AtomicBool::new(false);
        while g.outcome().is_none() {
            let mv = if g.to_move() == 0 {
                a.select(&g, limits, &stop).mv
            } else {
                b.select(&g, limits, &stop).mv
            };
            assert!(g.is_legal(mv), "illegal {mv}");
            g.play(mv);
        }
        g.outcome().unwrap()
    }

    #[test]
    fn every_agent_plays_legal_moves_to_the_end() {
        let limits = Limits::playouts(200);
        for name in NAMES {
            let mut a = build(name, &AgentParams::new(), 1).unwrap();
            let mut b = build("random", &AgentParams::new(), 2).unwrap();
            play(a.as_mut(), b.as_mut(), 3, &limits);
            play(b.as_mut(), a.as_mut(), 4, &limits);
        }
    }

    #[test]
    fn greedy_takes_the_largest_gain() {
        let g = FloodIt::random(10, 10, 6, 7).unwrap();
        let best = greediest(&g);
        let top = best.iter().map(|&c| g.gain(c)).max().unwrap();
        for c in g.legal_moves() {
            assert!(g.gain(c) <= top);
            assert_eq!(best.contains(&c), g.gain(c) == top);
        }
    }

    #[test]
    fn the_enhanced_search_finds_the_same_values_as_the_plain_one() {
        // Ordering and the table change the work, not the minimax value.
        for seed in 0..6 {
            let g = FloodIt::random(6, 6, 4, seed).unwrap();
            let stop = AtomicBool::new(false);
            let limits = Limits::playouts(u64::MAX);
            let mut vals = Vec::new();
            for enhanced in [false, true] {
                let mut ab = AlphaBeta::new(enhanced, Some(4));
                let mut budget = Budget::new(&limits, &stop);
                let mut leaves = false;
                vals.push(
                    ab.root(&g, 4, None, &mut budget, &mut leaves)
                        .ok()
                        .unwrap()
                        .1,
                );
            }
            assert_eq!(vals[0], vals[1], "seed {seed}");
        }
    }

    #[test]
    fn the_table_does_not_end_iterative_deepening_early() {
        // A table hit under a depth-0 evaluation is not an exact result:
        // with the same node budget the enhanced search must go at least as
        // deep as the plain one (it once stopped after two iterations).
        let stop = AtomicBool::new(false);
        let limits = Limits::playouts(200_000);
        for seed in 0..4 {
            let g = FloodIt::random(10, 10, 6, seed).unwrap();
            let mut reached = Vec::new();
            for enhanced in [false, true] {
                let mut ab = AlphaBeta::new(enhanced, None);
                ab.select(&g, &limits, &stop);
                reached.push(ab.reached);
            }
            assert!(reached[0] >= 3, "seed {seed}: {reached:?}");
            assert!(reached[1] >= reached[0], "seed {seed}: {reached:?}");
        }
    }

    #[test]
    fn alphabeta_takes_a_win_it_can_see() {
        // Seat 0 to move may choose 3 or 4: 3 takes six cells and wins
        // the board outright, 4 takes nothing.
        let cells = [0, 2, 2, 2, 2, 2, 2, 1];
        let g = FloodIt::from_cells(2, 4, 4, &cells, 0).unwrap();
        let mut ab = build("alphabeta", &AgentParams::new(), 0).unwrap();
        let d = ab.select(&g, &Limits::playouts(10_000), &AtomicBool::new(false));
        assert_eq!(d.mv, 2);
    }

    #[test]
    fn select_keeps_its_best_move_ready() {
        // By its return the slot holds the move the search answers (each
        // iteration's best is offered, not only the first legal move).
        let stop = AtomicBool::new(false);
        let ready = Arc::new(Ready::default());
        let mut ab = AlphaBeta::new(true, None);
        ab.keep_ready(ready.clone());
        let mut not_first = 0;
        for seed in 0..6 {
            let g = FloodIt::random(10, 10, 6, seed).unwrap();
            ready.begin(seed + 1);
            let d = ab.select(&g, &Limits::playouts(50_000), &stop);
            ready.end();
            assert_eq!(ready.get(seed + 1), Some(d.mv), "seed {seed}");
            not_first += usize::from(d.mv != g.legal_moves()[0]);
        }
        assert!(not_first > 0, "every answer was the first legal move");
    }
}
