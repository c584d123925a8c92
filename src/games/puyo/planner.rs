//! The seed's move choosers, on one field with the known pairs:
//! [`TemplatePlanner`] (template placement with relation matrices),
//! [`PotentialPlanner`] (potential maximisation, the 1999 崩珠 program as
//! the seed describes it) and [`CombinedPlanner`] (templates until the best
//! match exceeds 0.9, then potential maximisation). The duel agents and the
//! lab share them.

use super::board::{Board, Chain, Pair, Placement, CELLS, COLS, DEATH_COL, DEATH_ROW};
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
/// with the best match (or by the seed's alternative rules, [`Choice`]).
/// Ties go to the path whose earlier fields matched better, then to the
/// lower stack ([`height_cost`]). A field that fired a chain is matched
/// afresh (its templates may live again); a dead field scores nothing.
#[derive(Clone, Debug)]
pub struct TemplatePlanner {
    pub templates: Vec<Template>,
    pub depth: usize,
    pub choice: Choice,
}

/// How leaves are compared (the seed's section 3.5): (a) the best match
/// over the templates (the seed's choice), (b) the number of templates not
/// contradicted, (c) the mean match over the templates not contradicted.
/// (b) and (c) break ties by (a).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Best,
    Count,
    Mean,
}

impl Choice {
    /// `best`, `count` or `mean`.
    pub fn parse(s: &str) -> Result<Choice, String> {
        match s {
            "best" => Ok(Choice::Best),
            "count" => Ok(Choice::Count),
            "mean" => Ok(Choice::Mean),
            other => Err(format!(
                "unknown choice '{other}' (known: best, count, mean)"
            )),
        }
    }
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
            choice: Choice::Best,
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
        // A leaf keeps no matchers (no allocation on the hot path).
        let leaf = rest.is_empty();
        let mut here: Vec<(usize, Matcher)> = if leaf {
            Vec::new()
        } else {
            Vec::with_capacity(alive.len())
        };
        let mut score = f64::NEG_INFINITY;
        let (mut sum, mut count) = (0.0, 0usize);
        let mut keep = |i: usize, m: Matcher, t: &Template| {
            if !m.is_dead() {
                let x = m.score(t);
                score = score.max(x);
                sum += x;
                count += 1;
                if !leaf {
                    here.push((i, m));
                }
            }
        };
        if node.chain.links > 0 {
            for (i, t) in self.templates.iter().enumerate() {
                keep(i, t.match_board(&node.board), t);
            }
        } else {
            for &(i, m) in alive {
                let t = &self.templates[i];
                let mut m = m;
                m.add_new(t, parent, &node.board);
                keep(i, m, t);
            }
        }
        let path = path + if score.is_finite() { score } else { 0.0 };
        if leaf {
            *leaves += 1;
            let key = match self.choice {
                Choice::Best => score,
                Choice::Count => count as f64,
                Choice::Mean if count == 0 => f64::NEG_INFINITY,
                Choice::Mean => sum / count as f64,
            };
            return Rank {
                key,
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
    /// The [`Choice`]'s value of the leaf.
    key: f64,
    /// The leaf's best match.
    leaf: f64,
    path: f64,
    height: u32,
}

impl Rank {
    const LOST: Rank = Rank {
        key: f64::NEG_INFINITY,
        leaf: f64::NEG_INFINITY,
        path: f64::NEG_INFINITY,
        height: u32::MAX,
    };

    fn beats(&self, other: &Rank) -> bool {
        (
            self.key,
            self.leaf,
            self.path,
            std::cmp::Reverse(self.height),
        )
            .partial_cmp(&(
                other.key,
                other.leaf,
                other.path,
                std::cmp::Reverse(other.height),
            ))
            == Some(std::cmp::Ordering::Greater)
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
/// (a) the field is nearly full (at most `full_at` empty cells, or column
/// 3 at least `tall_at` high), (b) the chain kills (its attack at least the
/// other field's empty cells plus what the other side could fire back:
/// [`Kill`]), (c) a counter-attack is needed (ojama waiting on this seat),
/// or (d) a small clear (one link of at most five puyos, worth nothing
/// itself) makes room for a longer chain. Ties go to a move that fires
/// nothing, then as [`Ties`] says.
#[derive(Clone, Debug)]
pub struct PotentialPlanner {
    /// Empty cells at which the field counts as nearly full.
    pub full_at: u32,
    /// Height of column 3 at which the field counts as nearly full.
    pub tall_at: usize,
    /// What the other side could fire back, for "the chain kills".
    pub kill: Kill,
    /// How sequences of equal value are ordered.
    pub ties: Ties,
}

/// Among first moves of equal value (after a move that fires nothing):
/// [`Ties::Connect`] more same-colour neighbours, then the lower stack;
/// [`Ties::Flat`] the lower stack ([`height_cost`]), then more neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    Connect,
    Flat,
}

impl Ties {
    /// `connect` or `flat`.
    pub fn parse(s: &str) -> Result<Ties, String> {
        match s {
            "connect" => Ok(Ties::Connect),
            "flat" => Ok(Ties::Flat),
            other => Err(format!("unknown ties '{other}' (known: connect, flat)")),
        }
    }
}

/// When a chain "already suffices to defeat the opponent" (the seed's
/// special case (b)): its attack is at least the other field's empty cells
/// plus what the other side could fire back: [`Kill::Now`] with the same
/// pair at once, [`Kill::Known`] (the default) with any sequence of the
/// known pairs. Both seats get the same pairs, and ojama falls one turn
/// late and at most 30 a turn, so a side that is sent more than it can
/// take at once still places the three known pairs before it is buried:
/// a chain suffices only if what it could fire with them does not offset
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kill {
    Now,
    Known,
}

impl Kill {
    /// `now` or `known`.
    pub fn parse(s: &str) -> Result<Kill, String> {
        match s {
            "now" => Ok(Kill::Now),
            "known" => Ok(Kill::Known),
            other => Err(format!("unknown kill rule '{other}' (known: now, known)")),
        }
    }
}

impl Default for PotentialPlanner {
    fn default() -> Self {
        PotentialPlanner {
            full_at: 12,
            tall_at: 10,
            kill: Kill::Known,
            ties: Ties::Connect,
        }
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
    /// Whether the rule's danger column is `tall_at` high: Tsu's third
    /// column at least `tall_at` high, or (rule [`Over::Top`]) the tallest
    /// column as close to the top row as that; never when only a full
    /// field loses ([`Over::Full`]: then only `full_at` counts).
    ///
    /// [`Over::Top`]: super::board::Over::Top
    /// [`Over::Full`]: super::board::Over::Full
    pub fn tall(&self, b: &Board) -> bool {
        b.rows_to_death()
            .is_some_and(|left| left + self.tall_at <= DEATH_ROW + 1)
    }

    /// The largest attack the other side (field `o`) could answer with
    /// under the [`Kill`] rule: with the current pair, or with any sequence
    /// of the known `pairs`.
    pub fn fire_back(&self, o: &Board, pairs: &[Pair]) -> u32 {
        match self.kill {
            Kill::Now => children(o, pairs[0])
                .map(|c| c.chain.attack())
                .max()
                .unwrap_or(0),
            Kill::Known => future(o, pairs),
        }
    }

    /// Whether `child` (a move that fires) may be played now, and its
    /// value then; `back` caches [`Self::fire_back`] for this move.
    fn may_fire_now(&self, v: &View, child: &Child, back: &mut Option<u32>) -> Option<u32> {
        let attack = child.chain.attack();
        let nearly_full = empty_cells(&v.board) <= self.full_at || self.tall(&v.board);
        let kills = v.opponent.is_some_and(|o| {
            attack >= empty_cells(&o)
                && attack
                    >= empty_cells(&o) + *back.get_or_insert_with(|| self.fire_back(&o, &v.pairs))
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
        type Key = (u32, bool, i64, i64);
        let mut best: Option<(Key, Placement, bool)> = None;
        let mut back = None;
        for child in children(&v.board, v.pairs[0]) {
            if child.board.is_dead() {
                continue;
            }
            let value = if child.chain.links > 0 {
                match self.may_fire_now(v, &child, &mut back) {
                    None => continue,
                    Some(now) => now.max(future(&child.board, &v.pairs[1..])),
                }
            } else {
                future(&child.board, &v.pairs[1..])
            };
            let (connect, flat) = (
                child.board.connections() as i64,
                -(height_cost(&child.board) as i64),
            );
            let key = match self.ties {
                Ties::Connect => (value, child.chain.links == 0, connect, flat),
                Ties::Flat => (value, child.chain.links == 0, flat, connect),
            };
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
    /// The template search's move (when every template is contradicted on
    /// every path, its tie-breaks decide: a path where a chain fires and
    /// templates match again, then the lower stack), or [`tidy_move`] when
    /// nothing fits.
    fn choose(&mut self, v: &View) -> Placement {
        match TemplatePlanner::choose(self, &v.board, &v.pairs) {
            Some(c) => c.at,
            None => tidy_move(&v.board, v.pairs[0]),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearly_full_follows_the_game_over_rule() {
        use super::super::board::{Over, OJAMA};
        let p = PotentialPlanner::default();
        let mut b = Board::empty();
        for _ in 0..10 {
            b.drop_puyo(DEATH_COL, OJAMA);
        }
        // Tsu: column 3 ten high is two rows from the losing cell.
        assert!(p.tall(&b));
        // The top row: the tallest column must be as close to it.
        assert!(!p.tall(&b.with_over(Over::Top)));
        b.drop_puyo(DEATH_COL, OJAMA);
        assert!(p.tall(&b.with_over(Over::Top)));
        // A full field only: empty cells alone decide.
        assert!(!p.tall(&b.with_over(Over::Full)));
    }

    /// "The chain kills" counts what the other side could fire back: with
    /// the pair in hand only (`now`), or with the known pairs (`known`).
    #[test]
    fn the_kill_rule_reads_the_known_pairs() {
        // Three red on the floor: a red pair completes a group of five.
        let o = Board::from_rows(&["RRR..."]).unwrap();
        let red = Pair { axis: 0, child: 0 };
        let green = Pair { axis: 1, child: 1 };
        let pairs = [green, red, green];
        let now = PotentialPlanner {
            kill: Kill::Now,
            ..PotentialPlanner::default()
        };
        let known = PotentialPlanner::default();
        assert_eq!(known.kill, Kill::Known);
        assert_eq!(now.fire_back(&o, &pairs), 0);
        // Red then green: five reds clear and the greens above join.
        assert!(known.fire_back(&o, &pairs) >= 1);
        assert_eq!(now.fire_back(&o, &[red, green, green]), 1);
    }
}
