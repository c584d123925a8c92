//! The seed's GOLAD agents (Suzuki & Ito), on the one UCT core:
//!
//! - `ai1`: simple MCTS on the plain array board ([`RefField`]): up to 15
//!   children per node made from moves that beat doing nothing, random
//!   playouts of at most 10 turns scored by the share of own cells, UCB1,
//!   100 playouts.
//! - `ai2`: the same on the bitboard ([`Field`]).
//! - `ai3`: the improved MCTS (bitboard): exactly 4 children (3 births built
//!   greedily cell by cell in three orders, 1 kill), pass-only playouts of at
//!   most 5 turns, the randomised selection value, 50 playouts.
//!
//! "Turn" = one move and one generation. Shares are `own / (own + opp)`.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::field::Field;
use super::moves::{Cell, Move, CELLS};
use super::reference::{RefField, RefGame};
use super::rules::GolState;
use crate::search::mcts::{FinalChoice, PlayoutResult, Policy, Selection, UctConfig};
use crate::search::{Game, Outcome, Seat};

/// What the seed's agents need of a field: the bitboard and the array
/// field both provide it, so AI1 and AI2 run the same code.
pub trait LifeBoard: Copy + Send + Sync + 'static {
    fn get(&self, c: Cell) -> Option<Seat>;
    fn set(&mut self, c: Cell, s: Option<Seat>);
    fn count(&self, s: Seat) -> u32;
    fn step(&self) -> Self;
    /// The cells holding `of` (`None`: the dead cells), in index order.
    fn cells(&self, of: Option<Seat>) -> Vec<Cell> {
        (0..CELLS)
            .map(Cell::from_index)
            .filter(|&c| self.get(c) == of)
            .collect()
    }
}

impl LifeBoard for Field {
    fn get(&self, c: Cell) -> Option<Seat> {
        Field::get(self, c)
    }
    fn set(&mut self, c: Cell, s: Option<Seat>) {
        Field::set(self, c, s)
    }
    fn count(&self, s: Seat) -> u32 {
        Field::count(self, s)
    }
    fn step(&self) -> Self {
        Field::step(self)
    }
    fn cells(&self, of: Option<Seat>) -> Vec<Cell> {
        match of {
            Some(s) => self.living(s).collect(),
            None => self.dead().collect(),
        }
    }
}

impl LifeBoard for RefField {
    fn get(&self, c: Cell) -> Option<Seat> {
        RefField::get(self, c)
    }
    fn set(&mut self, c: Cell, s: Option<Seat>) {
        RefField::set(self, c, s)
    }
    fn count(&self, s: Seat) -> u32 {
        RefField::count(self, s)
    }
    fn step(&self) -> Self {
        RefField::step(self)
    }
}

/// A GOLAD position the seed's agents can search: its field, and how many
/// moves the game may still last.
pub trait LifePosition: Game<Move = Move> {
    type Board: LifeBoard;
    fn board(&self) -> &Self::Board;
    fn moves_left(&self) -> u32;
}

impl LifePosition for GolState {
    type Board = Field;
    fn board(&self) -> &Field {
        &self.field
    }
    fn moves_left(&self) -> u32 {
        (2 * self.max_rounds + 2).saturating_sub(2 * self.round + self.to_move as u32)
    }
}

impl Game for RefGame {
    type Move = Move;
    fn to_move(&self) -> Seat {
        RefGame::to_move(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        RefGame::outcome(self)
    }
    fn legal_moves(&self) -> Vec<Move> {
        let g = GolState::from_protocol(
            self.field.to_field(),
            self.round(),
            self.to_move(),
            self.max_rounds,
        );
        g.legal_moves()
    }
    fn is_legal(&self, mv: Move) -> bool {
        self.outcome().is_none() && self.field.is_legal(self.to_move(), &mv)
    }
    fn play(&mut self, mv: Move) {
        self.apply(&mv);
    }
}

impl LifePosition for RefGame {
    type Board = RefField;
    fn board(&self) -> &RefField {
        &self.field
    }
    fn moves_left(&self) -> u32 {
        (2 * self.max_rounds).saturating_sub(self.moves)
    }
}

/// `own - opp` living cells.
fn diff<B: LifeBoard>(b: &B, me: Seat) -> i64 {
    b.count(me) as i64 - b.count(1 - me) as i64
}

/// `own / (own + opp)`, 1/2 when both are empty.
pub fn share<B: LifeBoard>(b: &B, me: Seat) -> f64 {
    let (o, t) = (b.count(me) as f64, b.count(1 - me) as f64);
    if o + t == 0.0 {
        0.5
    } else {
        o / (o + t)
    }
}

/// Plays a move on a bare field (the caller knows it is legal).
fn apply_move<B: LifeBoard>(b: &mut B, me: Seat, mv: &Move) {
    match *mv {
        Move::Pass => {}
        Move::Kill(c) => b.set(c, None),
        Move::Birth {
            at,
            sacrifice: [x, y],
        } => {
            b.set(at, Some(me));
            b.set(x, None);
            b.set(y, None);
        }
    }
}

/// `n` generations of passes.
pub fn steps<B: LifeBoard>(b: &B, n: usize) -> B {
    let mut f = *b;
    for _ in 0..n {
        f = f.step();
    }
    f
}

/// The end of a playout that stops after `turns` moves of which the field
/// went through `f`: the outcome if someone died out (or the game's last
/// move was reached), else seat 0's share of cells.
fn result_of<B: LifeBoard>(f: &B, reached_end: bool) -> PlayoutResult {
    match (f.count(0) > 0, f.count(1) > 0) {
        (true, true) if reached_end => PlayoutResult::End(Outcome::Draw),
        (true, true) => PlayoutResult::Value(share(f, 0)),
        (true, false) => PlayoutResult::End(Outcome::Win(0)),
        (false, true) => PlayoutResult::End(Outcome::Win(1)),
        (false, false) => PlayoutResult::End(Outcome::Draw),
    }
}

/// A random move as AI1's playouts pick them: kill, birth or pass with equal
/// chance, cells at random (an impossible kind becomes a pass).
fn random_move<B: LifeBoard, R: Rng>(b: &B, me: Seat, rng: &mut R) -> Move {
    match rng.gen_range(0..3u32) {
        0 => {
            let mut living = b.cells(Some(0));
            living.extend(b.cells(Some(1)));
            living.choose(rng).map_or(Move::Pass, |&c| Move::Kill(c))
        }
        1 => {
            let own = b.cells(Some(me));
            let dead = b.cells(None);
            if own.len() < 2 || dead.is_empty() {
                return Move::Pass;
            }
            let pair: Vec<&Cell> = own.choose_multiple(rng, 2).collect();
            Move::Birth {
                at: *dead.choose(rng).expect("not empty"),
                sacrifice: [*pair[0], *pair[1]],
            }
        }
        _ => Move::Pass,
    }
}

/// AI1's (and AI2's) policy.
pub struct SimplePolicy {
    pub max_children: usize,
    pub playout_turns: u32,
    rng: SmallRng,
}

impl SimplePolicy {
    pub fn new(seed: u64) -> Self {
        SimplePolicy {
            max_children: 15,
            playout_turns: 10,
            rng: SmallRng::seed_from_u64(seed ^ 0xA11CE),
        }
    }

    /// The seed's children: birth moves (a sacrifice pair and a birth cell
    /// that each, and together, beat doing nothing after one generation),
    /// up to `max_children` at random; then kills of opponent cells that
    /// beat doing nothing; pass only if there is neither.
    pub fn children_of<B: LifeBoard>(&mut self, b: &B, me: Seat) -> Vec<Move> {
        let base = diff(&b.step(), me);
        let beats = |f: &B| diff(&f.step(), me) > base;
        let with = |cells: &[(Cell, Option<Seat>)]| {
            let mut f = *b;
            for &(c, s) in cells {
                f.set(c, s);
            }
            f
        };
        let sac: Vec<Cell> = b
            .cells(Some(me))
            .into_iter()
            .filter(|&c| beats(&with(&[(c, None)])))
            .collect();
        let births: Vec<Cell> = b
            .cells(None)
            .into_iter()
            .filter(|&c| beats(&with(&[(c, Some(me))])))
            .collect();
        let mut out: Vec<Move> = Vec::new();
        if sac.len() >= 2 && !births.is_empty() {
            // Random pairs of candidate sacrifices that still beat doing
            // nothing, each tried with a random birth cell.
            let tries = 4 * self.max_children;
            for _ in 0..tries {
                if out.len() >= self.max_children {
                    break;
                }
                let pair: Vec<Cell> = sac.choose_multiple(&mut self.rng, 2).copied().collect();
                if !beats(&with(&[(pair[0], None), (pair[1], None)])) {
                    continue;
                }
                let at = *births.choose(&mut self.rng).expect("not empty");
                let mv = Move::Birth {
                    at,
                    sacrifice: [pair[0], pair[1]],
                };
                if !out.contains(&mv)
                    && beats(&with(&[(at, Some(me)), (pair[0], None), (pair[1], None)]))
                {
                    out.push(mv);
                }
            }
        }
        if out.len() < self.max_children {
            let mut kills: Vec<Cell> = b
                .cells(Some(1 - me))
                .into_iter()
                .filter(|&c| beats(&with(&[(c, None)])))
                .collect();
            kills.shuffle(&mut self.rng);
            out.extend(
                kills
                    .into_iter()
                    .take(self.max_children - out.len())
                    .map(Move::Kill),
            );
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
        out.shuffle(&mut self.rng);
        out
    }
}

impl<G: LifePosition> Policy<G> for SimplePolicy {
    fn children(&mut self, pos: &G) -> Vec<Move> {
        self.children_of(pos.board(), pos.to_move())
    }
    fn playout(&mut self, pos: &mut G, rng: &mut SmallRng) -> PlayoutResult {
        let mut f = *pos.board();
        let mut me = pos.to_move();
        let left = pos.moves_left();
        let turns = self.playout_turns.min(left);
        for _ in 0..turns {
            let mv = random_move(&f, me, rng);
            apply_move(&mut f, me, &mv);
            f = f.step();
            me ^= 1;
            if f.count(0) == 0 || f.count(1) == 0 {
                break;
            }
        }
        result_of(&f, turns == left)
    }
}

/// A birth move built greedily in the order `parts` from the given
/// candidates: each step fixes the cell (birth: a `dead` cell; sacrifice: an
/// `own` cell not yet chosen) whose choice, with the cells already fixed,
/// gives the best share after 3 generations of passes.
pub fn greedy_birth_from<B: LifeBoard>(
    b: &B,
    me: Seat,
    parts: [Part; 3],
    dead: &[Cell],
    own: &[Cell],
) -> Option<Move> {
    if dead.is_empty() || own.len() < 2 {
        return None;
    }
    let mut fixed = *b;
    let (mut at, mut sacs) = (None, Vec::with_capacity(2));
    for part in parts {
        let (candidates, value) = match part {
            Part::Birth => (dead, Some(me)),
            Part::Sacrifice => (own, None),
        };
        let mut best: Option<(f64, Cell)> = None;
        for &c in candidates.iter().filter(|c| !sacs.contains(*c)) {
            let mut f = fixed;
            f.set(c, value);
            let v = share(&steps(&f, 3), me);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, c));
            }
        }
        let (_, c) = best?;
        fixed.set(c, value);
        match part {
            Part::Birth => at = Some(c),
            Part::Sacrifice => sacs.push(c),
        }
    }
    Some(Move::Birth {
        at: at?,
        sacrifice: [sacs[0], sacs[1]],
    })
}

/// AI3's policy.
pub struct ImprovedPolicy {
    pub playout_turns: u32,
}

impl Default for ImprovedPolicy {
    fn default() -> Self {
        ImprovedPolicy { playout_turns: 5 }
    }
}

/// Which part of a birth move is chosen at each of the three steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Part {
    Birth,
    Sacrifice,
}

impl ImprovedPolicy {
    /// A birth move built greedily in the order `parts`: each step fixes the
    /// cell (birth: any dead cell; sacrifice: any own cell not yet chosen)
    /// whose choice, with the cells already fixed, gives the best share after
    /// 3 generations of passes.
    fn greedy_birth<B: LifeBoard>(b: &B, me: Seat, parts: [Part; 3]) -> Option<Move> {
        greedy_birth_from(b, me, parts, &b.cells(None), &b.cells(Some(me)))
    }

    /// The living cell (either colour) whose death gives the best share
    /// after 4 generations of passes.
    pub fn best_kill<B: LifeBoard>(b: &B, me: Seat) -> Option<Move> {
        let mut living = b.cells(Some(me));
        living.extend(b.cells(Some(1 - me)));
        let mut best: Option<(f64, Cell)> = None;
        for c in living {
            let mut f = *b;
            f.set(c, None);
            let v = share(&steps(&f, 4), me);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, c));
            }
        }
        best.map(|(_, c)| Move::Kill(c))
    }

    /// The seed's four children: births in the orders (birth, sac, sac),
    /// (sac, birth, sac), (sac, sac, birth), and the best kill; pass only if
    /// there is none.
    pub fn children_of<B: LifeBoard>(b: &B, me: Seat) -> Vec<Move> {
        use Part::{Birth as Bi, Sacrifice as Sa};
        let mut out = Vec::with_capacity(4);
        for order in [[Bi, Sa, Sa], [Sa, Bi, Sa], [Sa, Sa, Bi]] {
            if let Some(m) = Self::greedy_birth(b, me, order) {
                out.push(m);
            }
        }
        out.extend(Self::best_kill(b, me));
        if out.is_empty() {
            out.push(Move::Pass);
        }
        out
    }
}

impl<G: LifePosition> Policy<G> for ImprovedPolicy {
    fn children(&mut self, pos: &G) -> Vec<Move> {
        Self::children_of(pos.board(), pos.to_move())
    }
    fn playout(&mut self, pos: &mut G, _rng: &mut SmallRng) -> PlayoutResult {
        pass_playout(pos, self.playout_turns)
    }
}

/// AI3's playout: at most `turns` generations of passes (fewer if the game
/// ends first), then the outcome or seat 0's share of cells.
pub fn pass_playout<G: LifePosition>(pos: &G, turns: u32) -> PlayoutResult {
    let mut f = *pos.board();
    let left = pos.moves_left();
    let turns = turns.min(left);
    for _ in 0..turns {
        f = f.step();
        if f.count(0) == 0 || f.count(1) == 0 {
            break;
        }
    }
    result_of(&f, turns == left)
}

/// The seed's MCTS settings: UCB1 `X + C sqrt(2 ln N / N_j)` with C = 1,
/// a node expanded on its second visit (one child per visit).
pub fn simple_config() -> UctConfig {
    UctConfig {
        exploration: std::f64::consts::SQRT_2,
        expand_threshold: 1,
        draw_reward: 0.5,
        choice: FinalChoice::Visits,
        selection: Selection::Ucb1,
    }
}

/// AI3's settings: the randomised selection value with e = 1.
pub fn improved_config() -> UctConfig {
    UctConfig {
        selection: Selection::Randomized { epsilon: 1.0 },
        ..simple_config()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glider_field() -> Field {
        // A few cells of each colour, far apart.
        let mut f = Field::empty();
        for (x, y) in [(1, 1), (2, 1), (3, 1), (10, 3), (11, 3), (10, 4), (11, 4)] {
            f.set(Cell { x, y }, Some(0));
        }
        for (x, y) in [
            (14, 12),
            (15, 12),
            (16, 12),
            (5, 10),
            (6, 10),
            (5, 11),
            (6, 11),
        ] {
            f.set(Cell { x, y }, Some(1));
        }
        f
    }

    #[test]
    fn both_boards_give_the_same_children_for_ai3() {
        let f = glider_field();
        let r = RefField::from_field(&f);
        for me in 0..2 {
            let a = ImprovedPolicy::children_of(&f, me);
            let b = ImprovedPolicy::children_of(&r, me);
            assert_eq!(a, b);
            assert_eq!(a.len(), 4);
            let g = GolState::from_protocol(f, 1, me, 100);
            assert!(a.iter().all(|m| g.is_legal(m)), "{a:?}");
        }
    }

    #[test]
    fn ai1_children_are_legal_and_beat_doing_nothing() {
        let f = glider_field();
        let mut p = SimplePolicy::new(1);
        let g = GolState::from_protocol(f, 1, 0, 100);
        let kids = p.children_of(&f, 0);
        assert!(!kids.is_empty() && kids.len() <= 15);
        let base = diff(&f.step(), 0);
        for m in &kids {
            assert!(g.is_legal(m), "{m:?}");
            if *m != Move::Pass {
                let mut after = f;
                apply_move(&mut after, 0, m);
                assert!(diff(&after.step(), 0) > base, "{m:?} does not beat passing");
            }
        }
    }

    #[test]
    fn the_greedy_birth_picks_the_best_cell_at_each_step() {
        // Own: a domino (5,5),(6,5), which dies alone, and two far cells to
        // sacrifice. Opponent: a stable block. A birth next to the domino
        // makes an L, which becomes a block (4 cells, share 1/2 against the
        // opponent's 4); a birth in line makes a blinker (3 cells); anything
        // else lets the domino die.
        let mut f = Field::empty();
        for (x, y) in [(5, 5), (6, 5), (0, 10), (17, 0)] {
            f.set(Cell { x, y }, Some(0));
        }
        for (x, y) in [(14, 14), (15, 14), (14, 15), (15, 15)] {
            f.set(Cell { x, y }, Some(1));
        }
        let m =
            ImprovedPolicy::greedy_birth(&f, 0, [Part::Birth, Part::Sacrifice, Part::Sacrifice])
                .unwrap();
        let Move::Birth { at, sacrifice } = m else {
            panic!("{m:?}")
        };
        let l_cells = [(5, 4), (6, 4), (5, 6), (6, 6)].map(|(x, y)| Cell { x, y });
        assert!(l_cells.contains(&at), "{at:?}");
        // Then the sacrifices are the two far cells, not the domino.
        let far = [Cell { x: 0, y: 10 }, Cell { x: 17, y: 0 }];
        assert!(
            far.contains(&sacrifice[0]) && far.contains(&sacrifice[1]),
            "{sacrifice:?}"
        );
    }

    #[test]
    fn moves_left_counts_down_to_the_last_round() {
        let g = GolState::from_protocol(Field::empty(), 100, 1, 100);
        assert_eq!(g.moves_left(), 1);
        let g = GolState::from_protocol(Field::empty(), 1, 0, 100);
        assert_eq!(g.moves_left(), 200);
        let r = RefGame::new(RefField::default(), 100);
        assert_eq!(r.moves_left(), 200);
    }
}
