//! `best`: our own design, built on the seed's parts.
//!
//! - **Build**: a beam search over the known pairs and then pairs sampled
//!   from the four colours, keeping the fields whose *latent chain* is
//!   longest: every group of two or more that a dropped puyo could reach
//!   is taken as completed and the rest resolved; the longest chain found,
//!   less the puyos its trigger still needs, then how much it clears, then
//!   same-colour neighbours, and a penalty for height near the losing cell. Placements
//!   that fire a chain are not built on. Several sampled futures are
//!   searched while time allows; each first move keeps its mean of the
//!   futures' best values.
//! - **Fire**: when a placement of the current pair fires a chain of at
//!   least `fire_at` links (13 by default), when the field is nearly full
//!   and the chain ready now is within one link of the latent chain (or
//!   the losing cell is one pair away),
//!   when ojama waits on this seat (counter), or when the chain fired now
//!   kills: it sends at least the other field's empty cells plus what the
//!   other side could fire back with the same pair.
//! - **Time**: it stops sampling at its budget (`ms`, 35 by default, or
//!   the move's soft deadline, whichever is first) and always has the first
//!   future's answer.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, Pair, Placement, COLOURS, COLS, DEATH_COL, ROWS};
use super::planner::{children, empty_cells, tidy_move, Chooser, View};

/// Tunable settings.
#[derive(Clone, Debug)]
pub struct BestSettings {
    /// Fields kept per depth.
    pub beam: usize,
    /// Pairs searched after the known ones (sampled).
    pub extra: usize,
    /// Links at which a chain ready now is fired.
    pub fire_at: u8,
    /// Empty cells at or below which any ready chain is fired.
    pub full_at: u32,
    /// Time budget per move.
    pub budget: Duration,
    /// Most sampled futures per move.
    pub futures: usize,
}

impl Default for BestSettings {
    fn default() -> Self {
        BestSettings {
            beam: 24,
            extra: 2,
            fire_at: 13,
            full_at: 14,
            budget: Duration::from_millis(35),
            futures: 64,
        }
    }
}

/// The latent chain of a field: (links, puyos it clears, puyos the
/// trigger needs) of the best group that could be completed from a free
/// cell: each coloured group of two or more with an empty neighbour that
/// a puyo can reach is taken as if completed (it vanishes) and the rest is
/// resolved. Fewer puyos needed wins a tie.
pub fn latent_chain(b: &Board) -> (u8, u32, u32) {
    let occ = b.occupied();
    // Empty cells a dropped puyo can reach: the top free cell of each column
    // and the cell above it.
    let mut free = 0u128;
    for col in 0..COLS {
        let h = b.height(col);
        if h < ROWS && !(col == DEATH_COL && h >= 11) {
            free |= super::board::bit(col, h);
            if h + 1 < ROWS {
                free |= super::board::bit(col, h + 1);
            }
        }
    }
    let mut best = (0u8, 0u32, u32::MAX);
    for k in 0..COLOURS as u8 {
        let p = b.plane(k);
        let mut cand = p & super::board::neighbours(p);
        while cand != 0 {
            let seed = cand & cand.wrapping_neg();
            let group = super::board::flood(seed, p);
            cand &= !group;
            if super::board::neighbours(group) & free & !occ == 0 {
                continue;
            }
            let need = 4u32.saturating_sub(group.count_ones());
            let mut v = *b;
            v.remove_group(group);
            let chain = v.resolve();
            let found = (chain.links + 1, chain.total_cleared() + 4, need);
            if (found.0, std::cmp::Reverse(found.2), found.1)
                > (best.0, std::cmp::Reverse(best.2), best.1)
            {
                best = found;
            }
        }
    }
    if best.2 == u32::MAX {
        best.2 = 0;
    }
    best
}

/// The build value of a field (higher is better).
pub fn build_value(b: &Board) -> i64 {
    if b.is_dead() {
        return i64::MIN / 2;
    }
    let (links, cleared, need) = latent_chain(b);
    let waste = b.count().saturating_sub(cleared) as i64;
    let mut v = links as i64 * 1000 - need as i64 * 150 + cleared.min(60) as i64 * 4 - waste * 60
        + b.connections() as i64 * 6;
    // Height: keep away from the losing cell and from towers.
    let death = b.height(DEATH_COL) as i64;
    if death > 9 {
        v -= (death - 9) * 400;
    }
    for c in 0..COLS {
        let h = b.height(c) as i64;
        if h > 11 {
            v -= (h - 11) * 200;
        }
    }
    // Columns 1 and 6 may be high, the middle low (a U shape fires well).
    let hs: Vec<i64> = (0..COLS).map(|c| b.height(c) as i64).collect();
    for c in 0..COLS - 1 {
        let d = (hs[c] - hs[c + 1]).abs();
        if d > 2 {
            v -= (d - 2) * 15;
        }
    }
    v
}

/// The design; see the module docs.
pub struct BestPlanner {
    pub settings: BestSettings,
    /// Opening templates: placed until the best match exceeds 0.9 (then,
    /// and whenever ojama waits, the beam decides).
    pub templates: Option<super::planner::TemplatePlanner>,
    opened: bool,
    rng: SmallRng,
    /// Set by the agent to end the search early.
    pub deadline: Option<Instant>,
}

impl BestPlanner {
    pub fn new(settings: BestSettings, seed: u64) -> Self {
        BestPlanner {
            settings,
            templates: None,
            opened: false,
            rng: SmallRng::seed_from_u64(seed),
            deadline: None,
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
        // the field's latent chain (or the losing cell is one pair away).
        let cramped = empty_cells(&v.board) <= s.full_at || v.board.height(DEATH_COL) >= 10;
        if links >= 2 && cramped {
            let latent = latent_chain(&v.board).0;
            if links + 1 >= latent || v.board.height(DEATH_COL) >= 11 {
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

    /// One beam search over `pairs`: each first move's best value.
    fn beam(
        &self,
        board: &Board,
        pairs: &[Pair],
        stop: &dyn Fn() -> bool,
    ) -> Vec<(Placement, i64)> {
        let mut firsts: Vec<(Placement, i64)> = vec![];
        // (field, index of first move)
        let mut beam: Vec<(Board, usize, i64)> = vec![];
        for c in children(board, pairs[0]) {
            if c.board.is_dead() || c.chain.links >= 2 {
                continue;
            }
            let v = build_value(&c.board);
            firsts.push((c.at, i64::MIN / 2));
            beam.push((c.board, firsts.len() - 1, v));
        }
        if beam.is_empty() {
            return firsts;
        }
        for &pair in &pairs[1..] {
            if stop() {
                break;
            }
            let mut next: Vec<(Board, usize, i64)> = Vec::with_capacity(beam.len() * 22);
            for (b, first, _) in &beam {
                if stop() && !next.is_empty() {
                    break;
                }
                for c in children(b, pair) {
                    if c.board.is_dead() || c.chain.links >= 2 {
                        continue;
                    }
                    next.push((c.board, *first, build_value(&c.board)));
                }
            }
            if next.is_empty() {
                break;
            }
            next.sort_unstable_by_key(|n| std::cmp::Reverse(n.2));
            next.dedup_by(|a, b| a.0 == b.0);
            next.truncate(self.settings.beam);
            beam = next;
        }
        for (_, first, v) in &beam {
            firsts[*first].1 = firsts[*first].1.max(*v);
        }
        firsts
    }

    /// Chooses the move.
    pub fn decide(&mut self, v: &View) -> Placement {
        let start = Instant::now();
        let pair = v.pairs[0];
        if let Some((attack, links, at)) = Self::fire_now(&v.board, pair) {
            if self.should_fire(v, attack, links) {
                return at;
            }
        }
        if v.board.count() < 8 {
            self.opened = false;
        }
        if let Some(t) = &self.templates {
            if !self.opened && t.best_match(&v.board) > 0.9 {
                self.opened = true;
            }
            if !self.opened && v.incoming == 0 {
                if let Some(c) = t.choose(&v.board, &v.pairs) {
                    if c.leaf.is_finite() {
                        return c.at;
                    }
                }
            }
        }
        let budget_end = start + self.settings.budget;
        let end = match self.deadline {
            Some(d) if d < budget_end => d,
            _ => budget_end,
        };
        let stop = || Instant::now() >= end;
        let mut totals: Vec<(Placement, i64, u32)> = vec![];
        for f in 0..self.settings.futures {
            if f > 0 && stop() {
                break;
            }
            let mut pairs = v.pairs.clone();
            for _ in 0..self.settings.extra {
                pairs.push(Pair {
                    axis: self.rng.gen_range(0..COLOURS as u8),
                    child: self.rng.gen_range(0..COLOURS as u8),
                });
            }
            for (at, val) in self.beam(&v.board, &pairs, &stop) {
                if val <= i64::MIN / 4 {
                    continue;
                }
                match totals.iter_mut().find(|t| t.0 == at) {
                    Some(t) => {
                        t.1 = t.1.saturating_add(val);
                        t.2 += 1;
                    }
                    None => totals.push((at, val, 1)),
                }
            }
        }
        totals
            .iter()
            .max_by_key(|t| t.1 / t.2 as i64)
            .map(|t| t.0)
            .or_else(|| Self::fire_now(&v.board, pair).map(|f| f.2))
            .unwrap_or_else(|| tidy_move(&v.board, pair))
    }
}

impl Chooser for BestPlanner {
    fn choose(&mut self, v: &View) -> Placement {
        self.decide(v)
    }
    fn reset(&mut self) {
        self.opened = false;
    }
}
