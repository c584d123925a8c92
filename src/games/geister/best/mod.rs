//! `best`: ladderbot's own Geister agent.
//!
//! Each turn:
//! 1. **Solver shortcut**: if the seed's forced-win table ([`forced_win`]:
//!    a blue on an exit, a free run that wins the race, patterns 2-4) names a
//!    move, it is played without searching.
//! 2. **Beliefs**: a blue-likelihood of each opponent piece, by default the
//!    log-odds of the learned model ([`learned::BeliefModel`]) over the
//!    piece's [`Evidence`] (refitted after every game on the colours the end
//!    board revealed), or the seed's table ([`BlueLikelihood`], `dmc-v1`);
//!    -1000 for a piece that skipped a sure escape. It becomes a distribution
//!    over the colourings that fit what is known, i.e. the right number of
//!    blues among the pieces on the board, each colouring weighted
//!    `exp(belief * sum of the likelihoods of its blues)` ([`belief::Belief`]).
//! 3. **Search**: single-observer information-set MCTS ([`search`]): one tree
//!    of move sequences, a colouring drawn from the belief for every
//!    iteration, UCB1 at both sides' nodes (the opponent is treated as
//!    knowing our colours: a cautious model), on a bitboard copy of the
//!    position ([`board::Board`]).
//! 4. **Playouts** ([`policy::PlayoutPolicy`]), where neither side looks at
//!    the other's colours: a blue on an exit escapes; an opponent piece on
//!    its exit is captured if we touch it; a blue with a free run to an exit
//!    takes it; otherwise a weighted random move (captures, forward steps and
//!    blues closing in on an exit favoured; blues stepping next to an
//!    opponent piece not). To the end of the game, or `depth` plies and a
//!    material-and-race evaluation.
//! 5. **Time**: the search polls a [`Budget`](crate::search::Budget)
//!    (playouts, soft deadline, stop flag, the clock every 16 iterations)
//!    and stops starting iterations [`search::HARD_SLACK`] before the hard
//!    deadline; the most-visited move is played, and a move is ready even if
//!    no iteration ran.
//!
//! Placement: the seed's layouts ([`random_placement`]).
//!
//! Parameters (`--param KEY=VALUE`, `[agent_params]`): `exploration` (UCB1
//! constant, 0.5), `threshold` (visits before a leaf is expanded, 4),
//! `reuse` (1: keep the tree below the move played and the answer; 0: a
//! fresh tree every move), `beliefs` (`learned`, `v1` for `ismcts-v1`'s
//! model, `seed`, or a model file), `belief` (inverse
//! temperature of the likelihoods, 1; 0 = uniform over consistent
//! colourings), `adapt` (prior weight of the shipped model when refitting,
//! 100; 0 = never refit), `threads` (root-parallel searches, 2), `depth` (playout plies before evaluating, 0 = to
//! the end), and the playout weights `capture` (8; `ismcts-v2` 2), `forward` (2), `run`
//! (4: a blue closing in on an exit), `danger` (0.5: a blue stepping next
//! to an opponent piece), `bait` (3: a red stepping next to an opponent
//! piece) and `caution` (0.3: a capture's weight is multiplied by it for
//! every red of the other side already taken), `guard` (4: a capture of a
//! piece one step from its exit). `ismcts-v1` has no reuse,
//! `bait`, `caution` and `guard` 1, and the `v1` model.

pub mod belief;
pub mod board;
pub mod evidence;
pub mod learned;
pub mod policy;
pub mod risk;
pub mod search;

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::likelihood::BlueLikelihood;
use super::patterns::forced_win;
use super::rule_agent::random_placement;
use super::rules::{Colour, Dir, Move, Setup, PIECES};
use super::view::View;
use crate::games::params::Decl;
use crate::games::AgentParams;
use crate::search::Limits;
use serde_json::Value;

use belief::Belief;
use board::{board_move, real_move, Board, ESCAPE};
use evidence::{Evidence, Features};
use learned::{Adaptive, BeliefModel, Sample};
use policy::PlayoutPolicy;
use search::{Root, Search, TreeConfig};

/// `best`'s settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BestConfig {
    pub tree: TreeConfig,
    /// Where the likelihoods come from.
    pub beliefs: Beliefs,
    /// Inverse temperature applied to the likelihoods.
    pub belief: f64,
    pub policy: PlayoutPolicy,
    /// With learned beliefs: how many samples' worth the starting model
    /// weighs when the model is refitted after each game on the colours the
    /// games revealed ([`learned::Adaptive`]); 0 = never refit.
    pub adapt: f64,
    /// Independent searches run at once, one per thread, their root
    /// statistics summed (root parallelisation); 1 = this thread only.
    pub threads: usize,
}

/// The source of the per-piece blue-likelihoods.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Beliefs {
    /// The seed's table ([`BlueLikelihood`]).
    Seed,
    /// A learned model ([`BeliefModel::shipped`], or one read from a file):
    /// log-odds of blue from each piece's [`Evidence`].
    Learned(&'static BeliefModel),
}

impl Default for BestConfig {
    /// `best` today: [`BestConfig::ismcts_v2`] with bloodier playouts
    /// (`capture` 8 instead of 2: issue 60, SPRT H1 against `ismcts-v2` and
    /// confirmed on first games against Naotti; docs/geister-results.md
    /// measures each lever).
    fn default() -> Self {
        let mut c = BestConfig::ismcts_v2();
        c.policy.capture = 8.0;
        c
    }
}

impl BestConfig {
    /// `ismcts-v2`: `best` as issue 31 left it: the shipped model fitted on
    /// our own agents' games only, a playout policy in which reds are
    /// offered as bait, a side that has taken reds grows wary of taking
    /// more and runners next to their exits are taken first, and the tree
    /// kept from move to move. Kept under its own name as the reference the
    /// next `best` is measured against: when `best` changes, it changes
    /// [`Default`], not this.
    pub fn ismcts_v2() -> Self {
        BestConfig {
            tree: TreeConfig {
                reuse: true,
                ..TreeConfig::default()
            },
            beliefs: Beliefs::Learned(BeliefModel::shipped()),
            belief: 1.0,
            policy: PlayoutPolicy {
                red_bait: 3.0,
                caution: 0.3,
                guard: 4.0,
                ..PlayoutPolicy::default()
            },
            adapt: 100.0,
            threads: 2,
        }
    }

    /// `ismcts-v1`: `best` as issue 11 left it (learned beliefs with its
    /// model, [`BeliefModel::v1`], refitted from game to game,
    /// information-set MCTS on two threads), kept under its own name as the
    /// reference the next `best` is measured against. When `best` changes,
    /// it changes [`Default`], not this.
    pub fn ismcts_v1() -> Self {
        BestConfig {
            tree: TreeConfig::default(),
            beliefs: Beliefs::Learned(BeliefModel::v1()),
            belief: 1.0,
            policy: PlayoutPolicy::default(),
            adapt: 100.0,
            threads: 2,
        }
    }

    /// `dmc-v1`: `best` as it was before the learned beliefs (the seed's
    /// likelihood table at inverse temperature 0.15).
    pub fn dmc_v1() -> Self {
        BestConfig {
            beliefs: Beliefs::Seed,
            belief: 0.15,
            threads: 1,
            ..BestConfig::ismcts_v1()
        }
    }

    /// The name `beliefs` gives [`BestConfig::beliefs`] (none for a model
    /// read from a file).
    fn beliefs_name(&self) -> Option<&'static str> {
        match self.beliefs {
            Beliefs::Seed => Some("seed"),
            Beliefs::Learned(m) if std::ptr::eq(m, BeliefModel::shipped()) => Some("learned"),
            Beliefs::Learned(m) if std::ptr::eq(m, BeliefModel::v1()) => Some("v1"),
            Beliefs::Learned(_) => None,
        }
    }

    /// The parameters of the agent `name` built over `self` (`best` over
    /// the default, `ismcts-v1` and `dmc-v1` over theirs): the tree
    /// (`exploration`, `threshold`, `reuse`), the beliefs (`beliefs`,
    /// `belief`, `adapt`), the playout policy's depth and weights
    /// (`capture`, `forward`, `run`, `danger`, `bait`, `caution`, `guard`)
    /// and `threads`.
    pub fn decl(&self, name: &str) -> Decl {
        // A weight as the profile writes it (0.3, not 0.30000001192...),
        // tuned by a tenth of itself.
        let weight = |d: Decl, key, w: f32, doc| {
            let v: f64 = w.to_string().parse().unwrap_or(f64::from(w));
            let step = (v * 100.0).round() / 1000.0;
            d.float(key, v, 0.0..=1000.0, step, doc)
        };
        let (t, pol) = (&self.tree, &self.policy);
        let mut d = Decl::new(name)
            .float(
                "exploration",
                t.exploration,
                0.0..=10.0,
                0.05,
                "UCB1's exploration constant",
            )
            .int(
                "threshold",
                u64::from(t.expand_threshold),
                1..=u32::MAX as u64,
                1,
                "visits of a leaf before it is expanded",
            )
            .flag(
                "reuse",
                t.reuse,
                "keep the subtree of the moves played for the next search",
            )
            .text(
                "beliefs",
                self.beliefs_name().map_or(Value::Null, Value::from),
                "the blue-likelihoods: seed, learned, v1 or a model file",
            )
            .float(
                "belief",
                self.belief,
                0.0..=10.0,
                // A twentieth of itself: 0.05 for `best`, 0.008 for `dmc-v1`.
                (self.belief * 50.0).round() / 1000.0,
                "inverse temperature of the likelihoods",
            )
            .int(
                "depth",
                u64::from(pol.depth),
                0..=300,
                0,
                "plies before a playout is cut and evaluated (0: to the end)",
            );
        d = weight(d, "capture", pol.capture, "playouts: a capture");
        d = weight(
            d,
            "forward",
            pol.forward,
            "playouts: a step toward the opponent",
        );
        d = weight(
            d,
            "run",
            pol.blue_run,
            "playouts: a blue closer to its exit",
        );
        d = weight(
            d,
            "danger",
            pol.blue_danger,
            "playouts: a blue stepping next to an opponent",
        );
        d = weight(d, "bait", pol.red_bait, "playouts: a red offered as bait");
        d = weight(
            d,
            "caution",
            pol.caution,
            "playouts: a capture's factor per red already taken",
        );
        d = weight(
            d,
            "guard",
            pol.guard,
            "playouts: a capture of a piece next to its exit",
        );
        d.int(
            "threads",
            self.threads as u64,
            1..=64,
            0,
            "independent searches, one per thread",
        )
        .float(
            "adapt",
            self.adapt,
            0.0..=1e9,
            10.0,
            "samples' worth of the starting belief model when refitted after each game (0: never)",
        )
    }

    /// The defaults with `params` applied; unknown names are errors.
    pub fn from_params(params: &AgentParams) -> Result<Self, String> {
        Self::from_params_over("best", BestConfig::default(), params)
    }

    /// `base` with `params` applied, for the agent `name`.
    pub fn from_params_over(
        name: &str,
        base: BestConfig,
        params: &AgentParams,
    ) -> Result<Self, String> {
        let decl = base.decl(name);
        let p = decl.read(params)?;
        let mut c = base;
        if let Some(v) = p.value("beliefs") {
            c.beliefs = match v.as_str() {
                Some("seed") => Beliefs::Seed,
                Some("learned") => Beliefs::Learned(BeliefModel::shipped()),
                Some("v1") => Beliefs::Learned(BeliefModel::v1()),
                Some(path) => Beliefs::Learned(
                    learned::load_file(std::path::Path::new(path))
                        .map_err(|e| format!("{name}: beliefs: {e}"))?,
                ),
                None => {
                    return Err(format!(
                        "{name}: beliefs must be 'seed', 'learned', 'v1' or a model file, not {v}"
                    ))
                }
            };
        }
        if let Some(x) = p.f64("exploration") {
            c.tree.exploration = x;
        }
        if let Some(x) = p.u64("threshold") {
            c.tree.expand_threshold = x as u32;
        }
        if let Some(x) = p.flag("reuse") {
            c.tree.reuse = x;
        }
        if let Some(x) = p.f64("belief") {
            c.belief = x;
        }
        if let Some(x) = p.f64("adapt") {
            c.adapt = x;
        }
        if let Some(x) = p.u64("threads") {
            c.threads = x as usize;
        }
        if let Some(x) = p.u64("depth") {
            c.policy.depth = x as u32;
        }
        let weights = [
            ("capture", &mut c.policy.capture),
            ("forward", &mut c.policy.forward),
            ("run", &mut c.policy.blue_run),
            ("danger", &mut c.policy.blue_danger),
            ("bait", &mut c.policy.red_bait),
            ("caution", &mut c.policy.caution),
            ("guard", &mut c.policy.guard),
        ];
        for (key, w) in weights {
            if let Some(x) = p.f64(key) {
                *w = x as f32;
            }
        }
        Ok(c)
    }
}

/// What the last `choose` did, for tests and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LastChoice {
    /// Playouts run (0 for a forced win or a single legal move).
    pub iterations: u64,
    /// Whether the forced-win table decided.
    pub forced: bool,
    /// The searched move's mean reward for us (0 lost .. 1 won), when a
    /// search ran; 1 for a forced win.
    pub value: Option<f64>,
}

/// The `best` agent.
pub struct Best {
    rng: SmallRng,
    config: BestConfig,
    likelihood: BlueLikelihood,
    evidence: Evidence,
    /// The learned model refitted game after game (learned beliefs with
    /// `adapt` > 0).
    adaptive: Option<Adaptive>,
    /// This game's features of the opponent's unrevealed pieces at each of
    /// our turns, labelled when the game ends.
    pending: Vec<(u8, Features)>,
    /// One search per thread (the first runs on the caller's thread).
    searches: Vec<Search>,
    pub last: LastChoice,
    /// The last search's root and beliefs, for pondering below our move.
    searched_from: Option<(Board, Belief)>,
}

impl Best {
    pub fn new(config: BestConfig, seed: u64) -> Self {
        Best {
            rng: SmallRng::seed_from_u64(seed),
            config,
            likelihood: BlueLikelihood::new(),
            evidence: Evidence::new(),
            adaptive: match config.beliefs {
                Beliefs::Learned(m) if config.adapt > 0.0 => {
                    Some(Adaptive::new(m.clone(), config.adapt))
                }
                _ => None,
            },
            pending: Vec::new(),
            searches: Vec::new(),
            last: LastChoice::default(),
            searched_from: None,
        }
    }

    /// The move for `view` (our turn, game on), and the likelihoods as they
    /// stand; does not update them.
    fn decide(&mut self, view: &View, limits: &Limits, stop: &AtomicBool) -> Move {
        self.last = LastChoice::default();
        let legal = view.legal_moves();
        if let Some(mv) = forced_win(view) {
            self.last.forced = true;
            self.last.value = Some(1.0);
            return mv;
        }
        if legal.len() <= 1 {
            return self.fallback(view, &legal);
        }
        let l = self.likelihoods(view);
        let belief = Belief::new(view, &l, self.config.belief);
        let base = Board::from_view(view, 0);
        let threads = self.config.threads.max(1);
        self.searches.resize_with(threads, Search::new);
        // A playout budget is split exactly: thread i runs n / threads,
        // plus one for the first n % threads threads.
        let per_thread: Vec<Limits> = (0..threads as u64)
            .map(|i| {
                let mut l = *limits;
                if let Some(n) = l.playouts.as_mut() {
                    *n = *n / threads as u64 + u64::from(i < *n % threads as u64);
                }
                l
            })
            .collect();
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.gen()).collect();
        let root = Root {
            base: &base,
            belief: &belief,
            policy: &self.config.policy,
            tree: &self.config.tree,
        };
        let run = |search: &mut Search, i: usize| {
            let mut rng = SmallRng::seed_from_u64(seeds[i]);
            search.run(root, &per_thread[i], stop, &mut rng)
        };
        let Some(r) = on_every_search(&mut self.searches, run, |r, x| r.iterations += x.iterations)
        else {
            return self.fallback(view, &legal);
        };
        let r = if threads > 1 {
            search::merge_roots(&self.searches, r.iterations)
        } else {
            r
        };
        self.searched_from = Some((base, belief));
        self.last.iterations = r.iterations;
        self.last.value = (r.visits > 0).then_some(r.value);
        let chosen = r
            .best
            .and_then(|m| real_move(view, m))
            .filter(|&mv| view.is_legal(mv));
        match chosen {
            Some(mv) => mv,
            None => self.fallback(view, &legal),
        }
    }

    /// Each opponent piece's blue-likelihood from the configured source
    /// (-1000 for a piece that skipped a sure escape, as in the seed).
    fn likelihoods(&self, view: &View) -> [f64; PIECES] {
        match self.config.beliefs {
            Beliefs::Seed => self.likelihood.likelihoods(view),
            Beliefs::Learned(shipped) => {
                let model = self.adaptive.as_ref().map_or(shipped, |a| a.model());
                let mut out = [f64::NEG_INFINITY; PIECES];
                for (p, o) in out.iter_mut().enumerate() {
                    let p = p as u8;
                    if self.evidence.marked_red(p) {
                        *o = -1000.0;
                    } else if let Some(f) = self.evidence.features(view, p) {
                        *o = model.log_odds(&f);
                    }
                }
                out
            }
        }
    }

    /// A move without search: a forward step if any, else any legal move.
    fn fallback(&mut self, view: &View, legal: &[Move]) -> Move {
        let forward: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&mv| {
                board_move(view, mv).is_some_and(|m| m.to == ESCAPE || m.to + 6 == m.from)
            })
            .collect();
        let pool = if forward.is_empty() { legal } else { &forward };
        match pool.len() {
            // Only reachable if called without a legal move (the game is over).
            0 => Move::new(0, Dir::N),
            n => pool[self.rng.gen_range(0..n)],
        }
    }
}

impl Best {
    pub fn new_game(&mut self) {
        for s in &mut self.searches {
            s.forget();
        }
        self.likelihood.reset();
        self.evidence.reset();
        self.pending.clear();
    }

    /// Games the learned model has been refitted on so far.
    pub fn games_learned(&self) -> usize {
        self.adaptive.as_ref().map_or(0, |a| a.games())
    }

    /// The game is over and `view` shows every colour: the features seen
    /// this game, labelled, refit the learned model.
    pub fn game_over(&mut self, view: &View) {
        let Some(adaptive) = self.adaptive.as_mut() else {
            return;
        };
        let mut samples = Vec::with_capacity(self.pending.len());
        for &(p, features) in &self.pending {
            match view.opp_colour(p) {
                Some(c) => samples.push(Sample {
                    features,
                    blue: c == Colour::Blue,
                }),
                // Not a finished game's view: learn nothing from it.
                None => {
                    self.pending.clear();
                    return;
                }
            }
        }
        self.pending.clear();
        adaptive.learn(&samples);
    }
    pub fn setup(&mut self) -> Setup {
        self.new_game();
        random_placement(&mut self.rng)
    }
    pub fn last_playouts(&self) -> u64 {
        self.last.iterations
    }
    /// The last move's value for us, as the search saw it (the chosen
    /// child's mean reward from our own information), when it searched.
    pub fn last_value(&self) -> Option<f64> {
        self.last.value
    }
    /// Thinks on the opponent's time (with tree reuse on): each thread's
    /// tree grows below the move just chosen, from the root and beliefs
    /// of that search, until `stop`. Returns the iterations run.
    pub fn ponder(&mut self, limits: &Limits, stop: &AtomicBool) -> u64 {
        if !self.config.tree.reuse || self.last.iterations == 0 {
            return 0;
        }
        let Some((base, belief)) = self.searched_from.as_ref() else {
            return 0;
        };
        let seeds: Vec<u64> = (0..self.searches.len()).map(|_| self.rng.gen()).collect();
        let root = Root {
            base,
            belief,
            policy: &self.config.policy,
            tree: &self.config.tree,
        };
        let run = |search: &mut Search, i: usize| {
            let mut rng = SmallRng::seed_from_u64(seeds[i]);
            search.ponder(root, limits, stop, &mut rng)
        };
        on_every_search(&mut self.searches, run, |n, x| *n += x).unwrap_or(0)
    }

    pub fn choose(&mut self, view: &View, limits: &Limits, stop: &AtomicBool) -> Move {
        self.searched_from = None;
        if view.ply() <= 1 {
            self.new_game();
        }
        self.observe_turn(view);
        let mv = self.decide(view, limits, stop);
        // The trees may start the next search below this move, if one ran.
        let searched = self.last.iterations > 0;
        for s in &mut self.searches {
            match board_move(view, mv) {
                Some(m) if searched => s.played(m),
                _ => s.forget(),
            }
        }
        self.note_our_move(view, mv);
        mv
    }

    /// One of our turns of a recorded game, replayed (the lab's capture
    /// probe, `ladderbot-lab geister captures`): the view
    /// is observed as in play; with `ask`, the move we would choose is
    /// searched (with a fresh tree) and returned; the move that goes on is
    /// `played`, the record's.
    pub fn replay_turn(
        &mut self,
        view: &View,
        played: Move,
        ask: bool,
        limits: &Limits,
    ) -> Option<Move> {
        self.searched_from = None;
        if view.ply() <= 1 {
            self.new_game();
        }
        self.observe_turn(view);
        for s in &mut self.searches {
            s.forget();
        }
        let mine = ask.then(|| self.decide(view, limits, &AtomicBool::new(false)));
        if let (Some(mv), true) = (mine, tracing::enabled!(tracing::Level::DEBUG)) {
            let l = self.likelihoods(view);
            let blue = Belief::new(view, &l, self.config.belief).blue_probabilities();
            let root: Vec<String> = search::merged_root(&self.searches)
                .into_iter()
                .filter(|r| r.1 > 0)
                .filter_map(|(m, n, w)| {
                    real_move(view, m).map(|mv| format!("{mv:?} {n} {:.3}", w / f64::from(n)))
                })
                .collect();
            tracing::debug!(ply = view.ply(), chose = ?mv, played = ?played,
                blue = ?blue.map(|b| (b * 100.0).round() / 100.0), ?root,
                "replayed\n{}", view.render());
        }
        for s in &mut self.searches {
            s.forget();
        }
        self.note_our_move(view, played);
        mine
    }

    /// What the opponent's last move told us, read off `view` (our turn).
    fn observe_turn(&mut self, view: &View) {
        self.likelihood.observe(view);
        self.evidence.observe(view);
        if self.adaptive.is_some() {
            for p in 0..PIECES as u8 {
                if view.opp_colour(p).is_none() {
                    if let Some(f) = self.evidence.features(view, p) {
                        self.pending.push((p, f));
                    }
                }
            }
        }
    }

    /// Remembers our move `mv` in `view`, to read the opponent's answer.
    fn note_our_move(&mut self, view: &View, mv: Move) {
        self.likelihood.our_move(view, mv);
        self.evidence.our_move(view, mv);
    }
}

geister_agent!(Best, "best", learns, ponders);

/// Runs `run(search, i)` for each of `searches`, the first on this thread
/// and the others on helper threads at the same time; the result of each
/// helper is added to the first's with `add` (a helper that panicked only
/// loses its statistics). `None` when there is no search.
fn on_every_search<T: Send>(
    searches: &mut [Search],
    run: impl Fn(&mut Search, usize) -> T + Sync,
    mut add: impl FnMut(&mut T, T),
) -> Option<T> {
    let (first, rest) = searches.split_first_mut()?;
    let run = &run;
    Some(std::thread::scope(|scope| {
        let helpers: Vec<_> = rest
            .iter_mut()
            .enumerate()
            .map(|(i, search)| scope.spawn(move || run(search, i + 1)))
            .collect();
        let mut r = run(first, 0);
        for h in helpers {
            if let Ok(x) = h.join() {
                add(&mut r, x);
            }
        }
        r
    }))
}

#[cfg(test)]
mod tests;
