//! `best`: our own design, built on the seed's parts.
//!
//! - **Build** ([`search`]): a beam search over the known pairs and then
//!   pairs sampled from the four colours, `depth` pairs in all (10), keeping
//!   the `beam` best fields (100) at each depth by [`eval::evaluate`]: the
//!   longest chain that one or two puyos dropped on a column start (found
//!   by dropping them), less the puyos the trigger needs and the puyos
//!   outside that chain, with the room beside the trigger's column and its
//!   height, same-colour neighbours, a U-shaped surface and the height of
//!   the losing column, and the whole field's shape (issue 49: puyos the
//!   chain clears beyond four a link, groups of two and three, lone
//!   puyos, bumps, tears). A line that fires a chain of `fire_at` links or
//!   more counts as reached; one that fires a shorter chain of two links or
//!   more ends there, worth a few links less than its length. Sampled
//!   futures are searched while time allows, on `threads` threads (2);
//!   each first move keeps its mean over them. In a duel (`race`) the
//!   search aims at the shortest chain that would kill the other field
//!   ([`kill_links`]) rather than `fire_at`. `beam-v1` is issue 34's
//!   settings ([`BestSettings::v1`]).
//! - **Fire**: when a placement of the current pair fires a chain of at
//!   least `fire_at` links (13 by default), when the field is nearly full
//!   and the chain ready now is within `slack` links of the potential chain
//!   (or the losing cell is one pair away), when ojama waits on this seat
//!   (counter), or when the chain fired now kills: it sends at least the
//!   other field's empty cells plus what the other side could fire back
//!   with the same pair.
//! - **Time**: it stops at its budget (`ms`, or the move's soft deadline,
//!   whichever is first); a future cut short counts only when it is the
//!   first (then its finished depths decide).

pub mod eval;
pub mod search;

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Pair, Placement, CELLS, COLOURS};
use super::planner::{children, empty_cells, tidy_move, Chooser, View};
use crate::games::params::{Decl, Read};
use crate::games::AgentParams;
use eval::{potential, Weights};
use search::{search, SearchConfig};

/// Tunable settings (agent parameters in brackets).
#[derive(Clone, Debug)]
pub struct BestSettings {
    /// Fields kept per depth (`beam`).
    pub beam: usize,
    /// Pairs searched, the known ones first, then sampled (`depth`).
    pub depth: usize,
    /// Links at which a chain is fired (`fire_at`).
    pub fire_at: u8,
    /// Empty cells at or below which the field counts as nearly full
    /// (`full_at`).
    pub full_at: u32,
    /// Links short of the potential chain a ready chain may be and still
    /// be fired on a nearly full field (`slack`).
    pub slack: u8,
    /// Time budget per move (`ms`).
    pub budget: Duration,
    /// Most sampled futures per move (`futures`), shared by the threads.
    pub futures: usize,
    /// Threads searching futures at once (`threads`).
    pub threads: usize,
    /// In a duel, search toward the shortest chain that would kill the
    /// other field ([`kill_links`]) instead of `fire_at` (`race`).
    pub race: bool,
    /// The evaluation (`need`, `w_chain`, `w_need`, `w_waste`, `w_link`,
    /// `w_shape`, `w_death`, `death_at`, `w_room`, `w_trigger_y`,
    /// `w_short`, `w_tear`, and the whole-field terms).
    pub weights: Weights,
}

impl Default for BestSettings {
    /// Issue 49's: two threads, the whole-field terms, the weights tuned
    /// together by SPSA (docs/puyo-results.md, "Issue 49").
    fn default() -> Self {
        BestSettings {
            threads: 2,
            race: true,
            weights: Weights {
                need: 237,
                waste: 36,
                link: 32,
                shape: 4,
                death: 2348,
                room: 175,
                trigger_y: 104,
                tear: 53,
                link2: 26,
                link3: 22,
                lone: 17,
                bump: 17,
                excess: 50,
                ..Weights::default()
            },
            ..BestSettings::v1()
        }
    }
}

impl BestSettings {
    /// The settings of the agent `name`: `beam-v1` ([`BestSettings::v1`]),
    /// else `best`'s.
    pub fn named(name: &str) -> Self {
        if name == "beam-v1" {
            BestSettings::v1()
        } else {
            BestSettings::default()
        }
    }

    /// Issue 34's `best`, frozen as the agent `beam-v1`: one thread, no
    /// whole-field terms.
    pub fn v1() -> Self {
        BestSettings {
            beam: 100,
            depth: 10,
            fire_at: 13,
            full_at: 10,
            slack: 1,
            budget: Duration::from_millis(35),
            futures: 64,
            threads: 1,
            race: false,
            weights: Weights::default(),
        }
    }

    /// The parameters of the agent `name` over `self`: the search
    /// (`beam`, `depth`, `futures`, `ms`), when to fire (`fire_at`,
    /// `full_at`, `slack`), the sampling `seed` (default: the agent's) and
    /// the evaluation ([`Weights`]: `need`, `death_at` and the `w_`
    /// weights, tuned by about a tenth of themselves).
    pub fn decl(&self, name: &str) -> Decl {
        let w = &self.weights;
        let mut d = Decl::new(name)
            .int(
                "beam",
                self.beam as u64,
                1..=4096,
                10,
                "fields kept per depth",
            )
            .int(
                "depth",
                self.depth as u64,
                1..=32,
                1,
                "pairs searched, the known ones first, then sampled",
            )
            .int(
                "fire_at",
                u64::from(self.fire_at),
                2..=19,
                1,
                "links at which a chain is fired",
            )
            .int(
                "full_at",
                u64::from(self.full_at),
                0..=CELLS as u64,
                1,
                "empty cells at or below which the field is nearly full",
            )
            .int(
                "slack",
                u64::from(self.slack),
                0..=19,
                1,
                "links short of the potential chain a ready chain may fire on a nearly full field",
            )
            .int(
                "ms",
                self.budget.as_millis() as u64,
                1..=60_000,
                0,
                "time budget per move, milliseconds",
            )
            .int(
                "futures",
                self.futures as u64,
                1..=100_000,
                0,
                "most sampled futures per move",
            )
            .int(
                "threads",
                self.threads as u64,
                1..=16,
                0,
                "threads searching sampled futures at once",
            )
            .int(
                "race",
                u64::from(self.race),
                0..=1,
                0,
                "in a duel, build toward the shortest chain that kills the other field (1) or toward fire_at (0)",
            )
            .int_or_none(
                "seed",
                0..=u64::MAX,
                "the sampling seed (none: the agent's seed)",
            )
            .int(
                "need",
                u64::from(w.max_need),
                1..=3,
                1,
                "most puyos a trigger may need",
            );
        let weight =
            |d: Decl, key, v: i32, step, doc| d.int(key, v.max(0) as u64, 0..=100_000, step, doc);
        d = weight(
            d,
            "w_chain",
            w.chain,
            100,
            "per link of the potential chain",
        );
        d = weight(d, "w_need", w.need, 25, "per puyo the trigger needs");
        d = weight(
            d,
            "w_waste",
            w.waste,
            4,
            "per puyo outside the potential chain",
        );
        d = weight(
            d,
            "w_link",
            w.link,
            3,
            "per pair of same-coloured neighbours",
        );
        d = weight(
            d,
            "w_shape",
            w.shape,
            1,
            "per unit of distance of the heights from a U",
        );
        d = weight(
            d,
            "w_death",
            w.death,
            200,
            "per row of the losing column above death_at",
        );
        d = d.int(
            "death_at",
            w.death_at.max(0) as u64,
            0..=11,
            1,
            "rows the losing column may have before w_death counts",
        );
        d = weight(
            d,
            "w_room",
            w.room,
            15,
            "per unit of room beside the trigger's column",
        );
        d = weight(
            d,
            "w_trigger_y",
            w.trigger_y,
            10,
            "per row of the trigger's column",
        );
        d = weight(
            d,
            "w_short",
            w.short,
            1,
            "links a chain fired short of the target is worth less",
        );
        d = weight(
            d,
            "w_tear",
            w.tear,
            5,
            "per unit of squared step between columns beyond two rows",
        );
        d = weight(
            d,
            "w_link2",
            w.link2,
            10,
            "per group of two same-coloured puyos",
        );
        d = weight(
            d,
            "w_link3",
            w.link3,
            20,
            "per group of three same-coloured puyos",
        );
        d = weight(
            d,
            "w_lone",
            w.lone,
            10,
            "per puyo with no same-coloured neighbour",
        );
        d = weight(
            d,
            "w_excess",
            w.excess,
            10,
            "per puyo the potential chain clears beyond four a link",
        );
        weight(
            d,
            "w_bump",
            w.bump,
            5,
            "per row of difference between neighbouring columns",
        )
    }

    /// The defaults changed by agent parameters ([`BestSettings::decl`];
    /// `seed` is the caller's to read); unknown keys are errors.
    pub fn from_params(params: &AgentParams) -> Result<Self, String> {
        let d = BestSettings::default().decl("best");
        Ok(BestSettings::default().over(&d.read(params)?))
    }

    /// `self` changed by the parameters `p` gives ([`BestSettings::decl`]).
    pub fn over(mut self, p: &Read) -> Self {
        let s = &mut self;
        if let Some(x) = p.u64("beam") {
            s.beam = x as usize;
        }
        if let Some(x) = p.u64("depth") {
            s.depth = x as usize;
        }
        if let Some(x) = p.u64("fire_at") {
            s.fire_at = x as u8;
        }
        if let Some(x) = p.u64("full_at") {
            s.full_at = x as u32;
        }
        if let Some(x) = p.u64("slack") {
            s.slack = x as u8;
        }
        if let Some(x) = p.u64("ms") {
            s.budget = Duration::from_millis(x);
        }
        if let Some(x) = p.u64("futures") {
            s.futures = x as usize;
        }
        if let Some(x) = p.u64("threads") {
            s.threads = x as usize;
        }
        if let Some(x) = p.u64("race") {
            s.race = x == 1;
        }
        let w = &mut s.weights;
        if let Some(x) = p.u64("need") {
            w.max_need = x as u8;
        }
        if let Some(x) = p.u64("death_at") {
            w.death_at = x as i32;
        }
        for (key, field) in [
            ("w_chain", &mut w.chain),
            ("w_need", &mut w.need),
            ("w_waste", &mut w.waste),
            ("w_link", &mut w.link),
            ("w_shape", &mut w.shape),
            ("w_death", &mut w.death),
            ("w_room", &mut w.room),
            ("w_trigger_y", &mut w.trigger_y),
            ("w_short", &mut w.short),
            ("w_tear", &mut w.tear),
            ("w_link2", &mut w.link2),
            ("w_link3", &mut w.link3),
            ("w_lone", &mut w.lone),
            ("w_bump", &mut w.bump),
            ("w_excess", &mut w.excess),
        ] {
            if let Some(x) = p.u64(key) {
                *field = x as i32;
            }
        }
        self
    }
}

/// The shortest chain (of four puyos a link) whose attack, `3N(N-1)`,
/// covers every empty cell of `opp` plus `margin`; `fire_at` when none
/// shorter does.
pub fn kill_links(opp: &Board, margin: u32, fire_at: u8) -> u8 {
    let need = empty_cells(opp) + margin;
    (2..fire_at)
        .find(|&n| 3 * u32::from(n) * (u32::from(n) - 1) >= need)
        .unwrap_or(fire_at)
}

/// The pairs of one future: the known ones, then sampled ones up to
/// `depth` in all.
fn future(known: &[Pair], depth: usize, rng: &mut SmallRng) -> Vec<Pair> {
    let mut pairs: Vec<Pair> = known.iter().take(depth.max(1)).copied().collect();
    while pairs.len() < depth {
        pairs.push(Pair {
            axis: rng.gen_range(0..COLOURS as u8),
            child: rng.gen_range(0..COLOURS as u8),
        });
    }
    pairs
}

/// Per first move, the sum of its values over the futures searched.
#[derive(Default)]
struct Totals {
    sums: Vec<(Placement, i64)>,
    counted: i64,
    /// The only future counted was cut short.
    partial: bool,
    /// Fields the searches valued, counted or not.
    evaluated: u64,
}

impl Totals {
    /// Searches up to `futures` sampled futures until `end`. A future cut
    /// short counts only when it is the first.
    fn run(
        &mut self,
        v: &View,
        cfg: &SearchConfig,
        depth: usize,
        futures: usize,
        rng: &mut SmallRng,
        end: Instant,
    ) {
        for f in 0..futures {
            if f > 0 && Instant::now() >= end {
                break;
            }
            let pairs = future(&v.pairs, depth, rng);
            let out = search(&v.board, &pairs, cfg, &mut || Instant::now() >= end);
            self.evaluated += out.evaluated;
            if f > 0 && !out.complete {
                break;
            }
            // A first move with no living line scores as the worst one.
            let Some(floor) = out.firsts.iter().filter_map(|x| x.1).min() else {
                continue;
            };
            if self.sums.is_empty() {
                self.sums = out.firsts.iter().map(|x| (x.0, 0)).collect();
            }
            for (t, x) in self.sums.iter_mut().zip(&out.firsts) {
                t.1 += x.1.unwrap_or(floor) as i64;
            }
            self.counted += 1;
            self.partial = !out.complete;
        }
    }

    /// The futures of several threads together; a thread's cut-short
    /// future counts only when no thread finished one.
    fn merge(parts: Vec<Totals>) -> Totals {
        let whole = parts.iter().any(|t| t.counted > 0 && !t.partial);
        let mut all = Totals {
            evaluated: parts.iter().map(|t| t.evaluated).sum(),
            ..Totals::default()
        };
        for t in parts {
            if t.counted == 0 || (whole && t.partial) {
                continue;
            }
            if all.sums.is_empty() {
                all.sums = t.sums;
            } else {
                for (at, x) in t.sums {
                    if let Some(a) = all.sums.iter_mut().find(|a| a.0 == at) {
                        a.1 += x;
                    }
                }
            }
            all.counted += t.counted;
            all.partial = !whole;
        }
        all
    }
}

/// The design; see the module docs.
pub struct BestPlanner {
    pub settings: BestSettings,
    seed: u64,
    rng: SmallRng,
    /// Set by the agent to end the search early.
    pub deadline: Option<Instant>,
    /// The last search's futures counted and fields valued (`bench
    /// puyo-best`); zero when the move was chosen without a search.
    pub searched: (u64, u64),
}

impl BestPlanner {
    pub fn new(settings: BestSettings, seed: u64) -> Self {
        BestPlanner {
            settings,
            seed,
            rng: SmallRng::seed_from_u64(seed),
            deadline: None,
            searched: (0, 0),
        }
    }

    /// The best chain the current pair fires now: (attack, links, move).
    fn fire_now(b: &Board, pair: Pair) -> Option<(u32, u8, Placement)> {
        children(b, pair)
            .filter(|c| c.chain.links > 0 && !c.board.is_dead())
            .map(|c| (c.chain.attack(), c.chain.links, c.at))
            .max_by_key(|&(a, l, _)| (l, a))
    }

    fn should_fire(&self, v: &View, attack: u32, links: u8) -> bool {
        let s = &self.settings;
        if links >= s.fire_at {
            return true;
        }
        // Short of room: fire once the chain ready now is about as long as
        // the field's potential chain (or the losing cell is one pair away).
        // Rows left before the rule's losing row (Tsu: column 3 ten high
        // leaves two); none when only a full field loses.
        let left = v.board.rows_to_death();
        let cramped = empty_cells(&v.board) <= s.full_at || left.is_some_and(|r| r <= 2);
        if links >= 2 && cramped {
            let latent = potential(&v.board, s.weights.max_need).links;
            if links + s.slack >= latent || left.is_some_and(|r| r <= 1) {
                return true;
            }
        }
        if let Some(opp) = v.opponent {
            if v.incoming > 0 && attack > 0 {
                return true;
            }
            let back = Self::fire_now(&opp, v.pairs[0]).map_or(0, |f| f.0);
            if links >= 2 && attack >= empty_cells(&opp) + back + v.outgoing.min(30) {
                return true;
            }
        }
        false
    }

    /// Chooses the move.
    pub fn decide(&mut self, v: &View) -> Placement {
        let start = Instant::now();
        self.searched = (0, 0);
        let pair = v.pairs[0];
        if let Some((attack, links, at)) = Self::fire_now(&v.board, pair) {
            if self.should_fire(v, attack, links) {
                return at;
            }
        }
        let budget_end = start + self.settings.budget;
        let end = match self.deadline {
            Some(d) if d < budget_end => d,
            _ => budget_end,
        };
        let target = match v.opponent {
            Some(opp) if self.settings.race => {
                kill_links(&opp, v.outgoing.min(30), self.settings.fire_at)
            }
            _ => self.settings.fire_at,
        };
        let cfg = SearchConfig {
            width: self.settings.beam,
            target,
            weights: self.settings.weights,
        };
        let (depth, futures) = (self.settings.depth, self.settings.futures);
        let threads = self.settings.threads.max(1);
        let mut totals = Totals::default();
        if threads == 1 {
            totals.run(v, &cfg, depth, futures, &mut self.rng, end);
        } else {
            // Each helper samples its own futures; this thread keeps the
            // planner's generator.
            let seeds: Vec<u64> = (1..threads).map(|_| self.rng.gen()).collect();
            let share = futures.div_ceil(threads);
            let rng = &mut self.rng;
            let parts = std::thread::scope(|s| {
                let helpers: Vec<_> = seeds
                    .iter()
                    .map(|&seed| {
                        let cfg = &cfg;
                        s.spawn(move || {
                            let mut t = Totals::default();
                            let mut r = SmallRng::seed_from_u64(seed);
                            t.run(v, cfg, depth, share, &mut r, end);
                            t
                        })
                    })
                    .collect();
                totals.run(v, &cfg, depth, share, rng, end);
                let mut parts: Vec<Totals> =
                    helpers.into_iter().filter_map(|h| h.join().ok()).collect();
                parts.push(std::mem::take(&mut totals));
                parts
            });
            totals = Totals::merge(parts);
        }
        self.searched = (totals.counted as u64, totals.evaluated);
        let (totals, counted) = (totals.sums, totals.counted);
        if counted > 0 {
            if let Some(t) = totals.iter().max_by_key(|t| t.1) {
                return t.0;
            }
        }
        Self::fire_now(&v.board, pair)
            .map(|f| f.2)
            .unwrap_or_else(|| tidy_move(&v.board, pair))
    }
}

impl Chooser for BestPlanner {
    fn choose(&mut self, v: &View) -> Placement {
        self.decide(v)
    }
    fn reset(&mut self) {
        self.rng = SmallRng::seed_from_u64(self.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puyo::board::DEATH_COL;
    use crate::games::puyo::rules::pairs_from;
    use crate::games::puyo::test_params as params;

    #[test]
    fn params_are_read_and_checked() {
        let s = BestSettings::from_params(&params(&[
            ("beam", "100"),
            ("depth", "8"),
            ("need", "3"),
            ("w_waste", "0"),
            ("death_at", "7"),
            ("w_tear", "100"),
        ]))
        .unwrap();
        assert_eq!(s.weights.tear, 100);
        assert_eq!(
            (
                s.beam,
                s.depth,
                s.weights.max_need,
                s.weights.waste,
                s.weights.death_at
            ),
            (100, 8, 3, 0, 7)
        );
        for bad in [
            ("beam", "0"),
            ("depth", "40"),
            ("need", "4"),
            ("w_link", "-1"),
            ("death_at", "12"),
        ] {
            assert!(
                BestSettings::from_params(&params(&[bad])).is_err(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn every_move_of_a_game_is_legal() {
        let s = BestSettings {
            beam: 8,
            depth: 4,
            futures: 2,
            budget: Duration::from_secs(60),
            ..Default::default()
        };
        let mut p = BestPlanner::new(s, 1);
        let mut b = Board::empty();
        for k in 0..40 {
            let pairs = pairs_from(9, k, 3);
            let at = p.choose(&View::solo(b, pairs.clone()));
            assert!(b.fits(at), "{at:?}\n{b:?}");
            let chain = b.play(pairs[0], at).unwrap();
            if b.is_dead() || chain.links >= 2 {
                break;
            }
        }
    }

    /// Two links ready on the right (a red on column 4 fires them), and
    /// column 3 (the losing one) `h` high in two colours that never meet.
    fn two_links_ready(h: usize) -> Board {
        let mut b = Board::from_rows(&[".....G", ".....R", "....GR", "...GGR"]).unwrap();
        for r in 0..h {
            b.drop_puyo(DEATH_COL, 2 + (r % 2) as u8);
        }
        b
    }

    #[test]
    fn a_short_chain_is_fired_only_when_the_losing_column_is_high() {
        let pairs = vec![Pair { axis: 0, child: 0 }; 3];
        let fires = |h: usize| {
            let s = BestSettings {
                beam: 16,
                depth: 4,
                futures: 2,
                budget: Duration::from_secs(60),
                ..Default::default()
            };
            let b = two_links_ready(h);
            let at = BestPlanner::new(s, 3).choose(&View::solo(b, pairs.clone()));
            let mut after = b;
            after.play(pairs[0], at).unwrap().links >= 2
        };
        assert!(fires(11));
        assert!(!fires(3));
    }

    #[test]
    fn two_threads_search_more_futures_and_merge_by_first_move() {
        // A fixed number of futures, no clock: two threads share them and
        // every future is counted once.
        let s = BestSettings {
            beam: 8,
            depth: 4,
            futures: 6,
            threads: 2,
            budget: Duration::from_secs(60),
            ..Default::default()
        };
        let mut p = BestPlanner::new(s, 5);
        let b = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        let v = View::solo(b, pairs_from(2, 0, 3));
        let at = p.choose(&v);
        assert!(b.fits(at));
        assert_eq!(p.searched.0, 6);
        assert!(p.searched.1 > 6 * 8);
        // Merging: sums by first move, whatever the order; a thread's
        // cut-short future is dropped when another thread finished one.
        let a = Placement { col: 0, rot: 0 };
        let c = Placement { col: 1, rot: 0 };
        let t = |sums: Vec<(Placement, i64)>, counted, partial| Totals {
            sums,
            counted,
            partial,
            evaluated: 10,
        };
        let m = Totals::merge(vec![
            t(vec![(a, 5), (c, 1)], 2, false),
            t(vec![(c, 3), (a, 4)], 1, false),
            t(vec![(a, 100), (c, 0)], 1, true),
        ]);
        assert_eq!(
            (m.sums, m.counted, m.evaluated),
            (vec![(a, 9), (c, 4)], 3, 30)
        );
        let only_cut = Totals::merge(vec![t(vec![(a, 1)], 1, true), t(vec![], 0, false)]);
        assert_eq!((only_cut.counted, only_cut.partial), (1, true));
    }

    #[test]
    fn beam_v1_is_issue_34s_best() {
        let v1 = BestSettings::v1();
        assert_eq!(
            (v1.beam, v1.depth, v1.fire_at, v1.threads),
            (100, 10, 13, 1)
        );
        assert_eq!(v1.budget, Duration::from_millis(35));
        let w = v1.weights;
        assert_eq!(
            (w.link2, w.link3, w.lone, w.bump, w.tear, w.excess),
            (0, 0, 0, 0, 0, 0)
        );
        assert_eq!(
            (
                w.chain,
                w.need,
                w.waste,
                w.link,
                w.room,
                w.trigger_y,
                w.shape,
                w.death
            ),
            (1000, 250, 40, 30, 150, 100, 2, 2000)
        );
        assert_eq!((w.death_at, w.short, w.max_need), (9, 3, 2));
        // The agent's parameters are read over its own settings.
        let d = BestSettings::v1().decl("beam-v1");
        let given = params(&[("beam", "50")]);
        let r = d.read(&given).unwrap();
        let s = BestSettings::named("beam-v1").over(&r);
        assert_eq!((s.beam, s.threads), (50, 1));
        assert_eq!(
            BestSettings::named("best").threads,
            BestSettings::default().threads
        );
    }

    #[test]
    fn the_kill_size_is_the_shortest_chain_that_covers_the_other_field() {
        // 78 empty cells: 3*6*5 = 90 covers them, 3*5*4 = 60 does not.
        assert_eq!(kill_links(&Board::empty(), 0, 13), 6);
        // 40 puyos: 38 empty, 3*4*3 = 36 short, 60 covers.
        let mut b = Board::empty();
        for k in 0..40 {
            b.drop_puyo(k % 6, (k % 4) as u8);
        }
        assert_eq!(kill_links(&b, 0, 13), 5);
        assert_eq!(kill_links(&b, 30, 13), 6);
        // Never longer than fire_at.
        assert_eq!(kill_links(&Board::empty(), 0, 4), 4);
    }

    #[test]
    fn a_ready_target_chain_is_fired() {
        let s = BestSettings {
            fire_at: 2,
            ..Default::default()
        };
        let mut p = BestPlanner::new(s, 1);
        let b = Board::from_rows(&["G.....", "R.....", "RG....", "RGG..."]).unwrap();
        let pairs = vec![Pair { axis: 0, child: 0 }; 3];
        let at = p.choose(&View::solo(b, pairs.clone()));
        let mut after = b;
        assert_eq!(after.play(pairs[0], at).unwrap().links, 2);
    }
}
