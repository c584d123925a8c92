//! The seed's move choosers, on one field with the known pairs:
//! [`TemplatePlanner`] (template placement with relation matrices),
//! [`PotentialPlanner`] (potential maximisation, the 1999 崩珠 program as
//! the seed describes it) and [`CombinedPlanner`] (templates until the best
//! match exceeds 0.9, then potential maximisation). The duel agents and the
//! lab share them.

use super::board::{Board, Chain, Pair, Placement, CELLS, COLS, DEATH_COL};
use super::rules::PuyoObs;
use super::template::{Matcher, Template};

/// What a chooser sees: its field, the known pairs (current first), and in
/// a duel the other field and the ojama waiting on each side.
#[derive(Clone, Debug)]
pub struct View {
    pub board: Board,
    pub pairs: Vec<Pair>,
    pub opponent: Option<Board>,
    /// Ojama waiting to fall on this seat.
    pub incoming: u32,
    /// Ojama this seat's last attacks left waiting on the other.
    pub outgoing: u32,
}

impl View {
    /// One player alone (the lab).
    pub fn solo(board: Board, pairs: Vec<Pair>) -> Self {
        View {
            board,
            pairs,
            opponent: None,
            incoming: 0,
            outgoing: 0,
        }
    }

    /// A duel seat's view.
    pub fn of(obs: &PuyoObs) -> Self {
        View {
            board: *obs.me(),
            pairs: obs.pairs.clone(),
            opponent: Some(*obs.opponent()),
            incoming: obs.pending[obs.seat],
            outgoing: obs.pending[1 - obs.seat],
        }
    }
}

/// A field after a placement: the field and the chain the placement fired.
#[derive(Clone, Copy, Debug)]
pub struct Child {
    pub at: Placement,
    pub board: Board,
    pub chain: Chain,
}

/// Every distinct placement of `pair` on `board` (a one-colour pair's
/// mirror placements left out), with the field after it.
pub fn children(board: &Board, pair: Pair) -> impl Iterator<Item = Child> + '_ {
    board.placements(pair).map(move |at| {
        let mut b = *board;
        let chain = b.play(pair, at).unwrap_or_default();
        Child {
            at,
            board: b,
            chain,
        }
    })
}

/// Empty cells of a field.
pub fn empty_cells(b: &Board) -> u32 {
    CELLS as u32 - b.count()
}

/// A fallback when nothing else decides: the placement that leaves the
/// fewest puyos, then the lowest tallest column (the first such).
pub fn tidy_move(board: &Board, pair: Pair) -> Placement {
    children(board, pair)
        .filter(|c| !c.board.is_dead())
        .min_by_key(|c| {
            (
                c.board.count(),
                (0..COLS).map(|col| c.board.height(col)).max().unwrap_or(0),
            )
        })
        .map(|c| c.at)
        .unwrap_or_else(|| any_move(board, pair))
}

/// Some placement that fits (column 3 upright is last resort).
pub fn any_move(board: &Board, pair: Pair) -> Placement {
    board.placements(pair).next().unwrap_or(Placement {
        col: DEATH_COL as u8,
        rot: 0,
    })
}

/// Template placement (the seed's method (a)): search every sequence of
/// the known pairs up to `depth`, score each leaf against every template
/// not yet contradicted on its path, and play the first move of the leaf
/// with the best match. Ties go to the path whose earlier fields matched
/// better, then to the lower stack ([`height_cost`]). A field that fired a chain is matched afresh (its templates may
/// live again); a dead field scores nothing.
#[derive(Clone, Debug)]
pub struct TemplatePlanner {
    pub templates: Vec<Template>,
    pub depth: usize,
}

/// What the template search found.
#[derive(Clone, Copy, Debug)]
pub struct TemplateChoice {
    pub at: Placement,
    /// The best leaf's match (`-inf` when every template is contradicted
    /// everywhere).
    pub leaf: f64,
    /// Leaves scored.
    pub leaves: u64,
}

impl TemplatePlanner {
    pub fn new(templates: Vec<Template>, depth: usize) -> Self {
        TemplatePlanner {
            templates,
            depth: depth.max(1),
        }
    }

    /// The best match of a field over the templates (`-inf` when all are
    /// contradicted).
    pub fn best_match(&self, board: &Board) -> f64 {
        self.templates
            .iter()
            .map(|t| t.match_board(board).score(t))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Chooses a placement for `pairs[0]`; `None` when there is none.
    pub fn choose(&self, board: &Board, pairs: &[Pair]) -> Option<TemplateChoice> {
        let depth = self.depth.min(pairs.len());
        let matchers: Vec<(usize, Matcher)> = self
            .templates
            .iter()
            .enumerate()
            .map(|(i, t)| (i, t.match_board(board)))
            .filter(|(_, m)| !m.is_dead())
            .collect();
        let mut best: Option<(Rank, Placement)> = None;
        let mut leaves = 0u64;
        for child in children(board, pairs[0]) {
            let rank = self.search(&child, board, &matchers, &pairs[1..depth], 0.0, &mut leaves);
            if best.as_ref().is_none_or(|(b, _)| rank.beats(b)) {
                best = Some((rank, child.at));
            }
        }
        best.map(|(r, at)| TemplateChoice {
            at,
            leaf: r.leaf,
            leaves,
        })
    }

    /// The best leaf below `node`, reached from `parent` whose matchers
    /// are `alive`.
    fn search(
        &self,
        node: &Child,
        parent: &Board,
        alive: &[(usize, Matcher)],
        rest: &[Pair],
        path: f64,
        leaves: &mut u64,
    ) -> Rank {
        if node.board.is_dead() {
            *leaves += 1;
            return Rank::LOST;
        }
        let mut here: Vec<(usize, Matcher)> = Vec::with_capacity(alive.len());
        let mut score = f64::NEG_INFINITY;
        if node.chain.links > 0 {
            for (i, t) in self.templates.iter().enumerate() {
                let m = t.match_board(&node.board);
                if !m.is_dead() {
                    score = score.max(m.score(t));
                    here.push((i, m));
                }
            }
        } else {
            for &(i, m) in alive {
                let t = &self.templates[i];
                let mut m = m;
                m.add_new(t, parent, &node.board);
                if !m.is_dead() {
                    score = score.max(m.score(t));
                    here.push((i, m));
                }
            }
        }
        let path = path + if score.is_finite() { score } else { 0.0 };
        if rest.is_empty() {
            *leaves += 1;
            return Rank {
                leaf: score,
                path,
                height: height_cost(&node.board),
            };
        }
        let mut best = Rank::LOST;
        for child in children(&node.board, rest[0]) {
            let r = self.search(&child, &node.board, &here, &rest[1..], path, leaves);
            if r.beats(&best) {
                best = r;
            }
        }
        best
    }
}

/// How a template leaf ranks: its match, then (for ties) the matches along
/// its path, then how little it stacks up.
#[derive(Clone, Copy, Debug)]
struct Rank {
    leaf: f64,
    path: f64,
    height: u32,
}

impl Rank {
    const LOST: Rank = Rank {
        leaf: f64::NEG_INFINITY,
        path: f64::NEG_INFINITY,
        height: u32::MAX,
    };

    fn beats(&self, other: &Rank) -> bool {
        (self.leaf, self.path, std::cmp::Reverse(self.height)).partial_cmp(&(
            other.leaf,
            other.path,
            std::cmp::Reverse(other.height),
        )) == Some(std::cmp::Ordering::Greater)
    }
}

/// Sum of squared column heights, the losing column's counted four times.
pub fn height_cost(b: &Board) -> u32 {
    (0..COLS)
        .map(|c| {
            let h = b.height(c) as u32;
            if c == DEATH_COL {
                4 * h * h
            } else {
                h * h
            }
        })
        .sum()
}

/// Potential maximisation as the seed describes it: enumerate every
/// sequence of the known pairs; drop those whose first move fires a chain
/// except in the special cases; the value of a sequence is the largest
/// attack of a chain it fires at move 2 or 3 (0 if none); play the first
/// move of the best. Special cases where firing at once is allowed:
/// the field is nearly full (at most `full_at` empty cells, or column 3
/// at least ten high), the chain kills (its attack at least the other
/// field's empty cells plus what the other side could fire back now with
/// the same pair), a counter-attack is needed (ojama waiting on
/// this seat), or a small clear (one link of at most five puyos, worth
/// nothing itself) makes room for a longer chain. Ties go to a move that
/// fires nothing, then to more same-colour neighbours, then to the lower
/// stack ([`height_cost`]).
#[derive(Clone, Debug)]
pub struct PotentialPlanner {
    pub full_at: u32,
}

impl Default for PotentialPlanner {
    fn default() -> Self {
        PotentialPlanner { full_at: 12 }
    }
}

/// What the potential search found.
#[derive(Clone, Copy, Debug)]
pub struct PotentialChoice {
    pub at: Placement,
    /// The chosen sequence's attack.
    pub value: u32,
    /// Whether the move fires a chain now.
    pub fires: bool,
}

impl PotentialPlanner {
    fn may_fire_now(&self, v: &View, child: &Child) -> Option<u32> {
        let attack = child.chain.attack();
        let nearly_full = empty_cells(&v.board) <= self.full_at || v.board.height(DEATH_COL) >= 10;
        let kills = v.opponent.is_some_and(|o| {
            let back = children(&o, v.pairs[0])
                .map(|c| c.chain.attack())
                .max()
                .unwrap_or(0);
            attack >= empty_cells(&o) + back
        });
        let counter = v.incoming > 0 && attack > 0;
        if nearly_full || kills || counter {
            return Some(attack);
        }
        let small = child.chain.links == 1 && child.chain.cleared[0] <= 5;
        // A small clear is worth what it makes possible, not itself.
        small.then_some(0)
    }

    /// Chooses a placement for `v.pairs[0]`; `None` when there is none.
    pub fn choose(&self, v: &View) -> Option<PotentialChoice> {
        type Key = (u32, bool, u32, i64);
        let mut best: Option<(Key, Placement, bool)> = None;
        for child in children(&v.board, v.pairs[0]) {
            if child.board.is_dead() {
                continue;
            }
            let value = if child.chain.links > 0 {
                match self.may_fire_now(v, &child) {
                    None => continue,
                    Some(now) => now.max(future(&child.board, &v.pairs[1..])),
                }
            } else {
                future(&child.board, &v.pairs[1..])
            };
            let key = (
                value,
                child.chain.links == 0,
                child.board.connections(),
                -(height_cost(&child.board) as i64),
            );
            if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                best = Some((key, child.at, child.chain.links > 0));
            }
        }
        best.map(|(k, at, fires)| PotentialChoice {
            at,
            value: k.0,
            fires,
        })
    }
}

/// The largest attack of a chain fired by some sequence of `pairs` from
/// `board` (0 if none).
fn future(board: &Board, pairs: &[Pair]) -> u32 {
    let Some((&pair, rest)) = pairs.split_first() else {
        return 0;
    };
    let mut best = 0;
    for child in children(board, pair) {
        if child.board.is_dead() {
            continue;
        }
        let v = if child.chain.links > 0 {
            child.chain.attack().max(future(&child.board, rest))
        } else {
            future(&child.board, rest)
        };
        best = best.max(v);
    }
    best
}

/// Templates until the field's best match exceeds `switch_at` (0.9), then
/// potential maximisation until the field has been emptied by a chain
/// (fewer than 8 puyos), then templates again. In a duel, a move made
/// while ojama waits for this seat is potential maximisation's (which may
/// fire back): the seed does not say how its combined agent met attacks.
#[derive(Clone, Debug)]
pub struct CombinedPlanner {
    pub templates: TemplatePlanner,
    pub potential: PotentialPlanner,
    pub switch_at: f64,
    switched: bool,
}

impl CombinedPlanner {
    pub fn new(templates: TemplatePlanner, potential: PotentialPlanner, switch_at: f64) -> Self {
        CombinedPlanner {
            templates,
            potential,
            switch_at,
            switched: false,
        }
    }

    pub fn reset(&mut self) {
        self.switched = false;
    }

    /// Whether it is in its potential phase.
    pub fn switched(&self) -> bool {
        self.switched
    }

    pub fn choose(&mut self, v: &View) -> Placement {
        if v.board.count() < 8 {
            self.switched = false;
        }
        if !self.switched && self.templates.best_match(&v.board) > self.switch_at {
            self.switched = true;
        }
        // Under attack, potential maximisation answers (its counter case).
        if !self.switched && v.incoming == 0 {
            if let Some(c) = self.templates.choose(&v.board, &v.pairs) {
                if c.leaf.is_finite() {
                    return c.at;
                }
            }
        }
        match self.potential.choose(v) {
            Some(c) => c.at,
            None => tidy_move(&v.board, v.pairs[0]),
        }
    }
}

/// A move chooser on one field, as the agents and the lab use it.
pub trait Chooser: Send {
    fn choose(&mut self, v: &View) -> Placement;
    /// A new game (or lab sequence) starts.
    fn reset(&mut self) {}
}

impl Chooser for TemplatePlanner {
    /// The template search's move, or [`tidy_move`] when every template is
    /// contradicted on every path.
    fn choose(&mut self, v: &View) -> Placement {
        match TemplatePlanner::choose(self, &v.board, &v.pairs) {
            Some(c) if c.leaf.is_finite() => c.at,
            _ => tidy_move(&v.board, v.pairs[0]),
        }
    }
}

impl Chooser for PotentialPlanner {
    fn choose(&mut self, v: &View) -> Placement {
        match PotentialPlanner::choose(self, v) {
            Some(c) => c.at,
            None => tidy_move(&v.board, v.pairs[0]),
        }
    }
}

impl Chooser for CombinedPlanner {
    fn choose(&mut self, v: &View) -> Placement {
        CombinedPlanner::choose(self, v)
    }
    fn reset(&mut self) {
        CombinedPlanner::reset(self)
    }
}

/// The chooser names [`build_chooser`] knows.
pub const CHOOSERS: &[&str] = &["template", "potential", "combined", "best"];

/// Builds a named chooser from agent parameters:
/// - `template`: `templates` (a set: stairs, sandwich, domino, all;
///   default stairs), `depth` (1..=3, default 3);
/// - `potential`: `full_at` (empty cells at which firing at once is
///   allowed, default 12);
/// - `combined`: all of those and `switch_at` (default 0.9);
/// - `best`: [`super::best::PARAMS`] (see [`super::best::BestSettings`]).
pub fn build_chooser(
    name: &str,
    params: &crate::games::AgentParams,
) -> Result<Box<dyn Chooser>, String> {
    use crate::games::{check_params, param_f64, param_u64};
    let templates = |params: &crate::games::AgentParams| -> Result<TemplatePlanner, String> {
        let set = match params.get("templates") {
            None => "stairs".to_string(),
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v) => {
                return Err(format!(
                    "agent_params.templates: expected a set name, got {v}"
                ))
            }
        };
        let depth = param_u64(params, "depth", 1..=3)?.unwrap_or(3) as usize;
        Ok(TemplatePlanner::new(
            super::template::set(&set).map_err(|e| format!("agent_params.templates: {e}"))?,
            depth,
        ))
    };
    let potential = |params: &crate::games::AgentParams| -> Result<PotentialPlanner, String> {
        Ok(PotentialPlanner {
            full_at: param_u64(params, "full_at", 0..=CELLS as u64)?.unwrap_or(12) as u32,
        })
    };
    match name {
        "template" => {
            check_params(name, params, &["templates", "depth"])?;
            Ok(Box::new(templates(params)?))
        }
        "potential" => {
            check_params(name, params, &["full_at"])?;
            Ok(Box::new(potential(params)?))
        }
        "combined" => {
            check_params(
                name,
                params,
                &["templates", "depth", "full_at", "switch_at"],
            )?;
            Ok(Box::new(CombinedPlanner::new(
                templates(params)?,
                potential(params)?,
                param_f64(params, "switch_at", 0.0..=1.0)?.unwrap_or(0.9),
            )))
        }
        "best" => {
            check_params(name, params, super::best::PARAMS)?;
            let s = super::best::BestSettings::from_params(params)?;
            let seed = param_u64(params, "seed", 0..=u64::MAX)?.unwrap_or(0);
            Ok(Box::new(super::best::BestPlanner::new(s, seed)))
        }
        other => Err(format!(
            "unknown puyo chooser '{other}' (known: {})",
            CHOOSERS.join(", ")
        )),
    }
}
