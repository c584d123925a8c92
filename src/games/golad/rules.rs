//! The GOLAD game: whose turn, which round, legality, and the end of the
//! game, exactly as the Riddles.io engine 1.1.1 plays it (checked against
//! the recorded games in `protocol/riddles-golad/transcripts/`):
//!
//! - every move (kill, birth or pass; an illegal move acts as a pass) is
//!   followed by one Life generation;
//! - a round is player 0's move and player 1's move, so after player 1's
//!   move (and its generation) the round number increments;
//! - after a generation, if at most one player has living cells the game is
//!   over (that player wins; nobody = draw); after round `max_rounds` with
//!   both alive it is a draw. No tiebreak.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use super::field::Field;
use super::moves::{Cell, Move, CELLS, HEIGHT, WIDTH};
use crate::search::{Game, Outcome, Seat};

/// The platform's default number of rounds.
pub const DEFAULT_MAX_ROUNDS: u32 = 100;

/// Living cells each player starts with.
pub const START_CELLS: usize = 40;

/// A GOLAD position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GolState {
    pub field: Field,
    /// The round being played, 1-based. After the last move of a finished
    /// game this may be one past the last round played (see
    /// [`GolState::rounds_played`]).
    pub round: u32,
    /// The player to move (meaningless once the game is over).
    pub to_move: Seat,
    pub max_rounds: u32,
}

impl GolState {
    /// Round 1, player 0 to move.
    pub fn new(field: Field, max_rounds: u32) -> GolState {
        GolState {
            field,
            round: 1,
            to_move: 0,
            max_rounds,
        }
    }

    /// The state a bot rebuilds from the engine's `update` lines.
    pub fn from_protocol(field: Field, round: u32, to_move: Seat, max_rounds: u32) -> GolState {
        GolState {
            field,
            round,
            to_move: to_move & 1,
            max_rounds,
        }
    }

    /// The platform's random start: 40 distinct player-0 cells in rows 0..8
    /// chosen by a `SmallRng` seeded with `seed`, and rows 8..16 the
    /// 180-degree rotation with the colours swapped.
    pub fn start(seed: u64, max_rounds: u32) -> GolState {
        let mut rng = SmallRng::seed_from_u64(seed);
        let half = CELLS / 2;
        let mut cells: Vec<usize> = (0..half).collect();
        // A partial Fisher-Yates shuffle: the first 40 are a uniform sample.
        for i in 0..START_CELLS {
            let j = rng.gen_range(i..half);
            cells.swap(i, j);
        }
        let mut field = Field::empty();
        for &i in &cells[..START_CELLS] {
            let c = Cell::from_index(i);
            field.set(c, Some(0));
            field.set(
                Cell {
                    x: (WIDTH - 1) as u8 - c.x,
                    y: (HEIGHT - 1) as u8 - c.y,
                },
                Some(1),
            );
        }
        GolState::new(field, max_rounds)
    }

    /// Rounds started so far: the engine's `score` once the game is over.
    pub fn rounds_played(&self) -> u32 {
        if self.to_move == 0 {
            self.round.saturating_sub(1)
        } else {
            self.round
        }
    }

    /// Whether the side to move may play `mv` (never once the game is over).
    /// Kill: any living cell. Birth: `at` dead and two distinct own living
    /// sacrifices. Pass: always.
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.outcome().is_none() && self.is_legal_move(mv)
    }

    /// [`GolState::is_legal`] without the game-over check.
    #[inline]
    fn is_legal_move(&self, mv: &Move) -> bool {
        match *mv {
            Move::Pass => true,
            Move::Kill(c) => self.field.get(c).is_some(),
            Move::Birth {
                at,
                sacrifice: [a, b],
            } => {
                a != b
                    && self.field.get(at).is_none()
                    && self.field.get(a) == Some(self.to_move)
                    && self.field.get(b) == Some(self.to_move)
            }
        }
    }

    /// Plays `mv` for the side to move (an illegal move acts as a pass),
    /// runs one generation and passes the turn. Returns whether the move was
    /// legal. Once the game is over this does nothing and returns false.
    #[inline]
    pub fn apply(&mut self, mv: Move) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        let legal = self.is_legal_move(&mv);
        if legal {
            match mv {
                Move::Pass => {}
                Move::Kill(c) => self.field.set(c, None),
                Move::Birth {
                    at,
                    sacrifice: [a, b],
                } => {
                    self.field.set(at, Some(self.to_move));
                    self.field.set(a, None);
                    self.field.set(b, None);
                }
            }
        }
        self.field = self.field.step();
        if self.to_move == 1 {
            self.round += 1;
        }
        self.to_move ^= 1;
        legal
    }

    /// `Some` once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        let alive0 = self.field.rows(0).iter().any(|&r| r != 0);
        let alive1 = self.field.rows(1).iter().any(|&r| r != 0);
        match (alive0, alive1) {
            (true, true) if self.round > self.max_rounds => Some(Outcome::Draw),
            (true, true) => None,
            (true, false) => Some(Outcome::Win(0)),
            (false, true) => Some(Outcome::Win(1)),
            (false, false) => Some(Outcome::Draw),
        }
    }

    /// A random move for the side to move, as the seed's AI1 playouts pick
    /// them: kill, birth or pass with equal chance; a kill takes a random
    /// living cell (either colour), a birth a random dead cell and two
    /// random distinct own cells. A kind that is impossible here becomes a
    /// pass. Always legal (while the game is not over).
    #[inline]
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Move {
        match rng.gen_range(0..3u32) {
            0 => {
                let n = self.field.count_all();
                if n == 0 {
                    return Move::Pass;
                }
                match self.field.nth_occupied(rng.gen_range(0..n)) {
                    Some(c) => Move::Kill(c),
                    None => Move::Pass,
                }
            }
            1 => {
                let own = self.field.count(self.to_move);
                let dead = CELLS as u32 - self.field.count_all();
                if own < 2 || dead == 0 {
                    return Move::Pass;
                }
                let i = rng.gen_range(0..own);
                let mut j = rng.gen_range(0..own - 1);
                if j >= i {
                    j += 1;
                }
                match (
                    self.field.nth_dead(rng.gen_range(0..dead)),
                    self.field.nth_living(self.to_move, i),
                    self.field.nth_living(self.to_move, j),
                ) {
                    (Some(at), Some(a), Some(b)) => Move::Birth {
                        at,
                        sacrifice: [a, b],
                    },
                    _ => Move::Pass,
                }
            }
            _ => Move::Pass,
        }
    }

    /// The wire form: `{"field", "round", "to_move", "max_rounds"}`.
    pub fn to_json(&self) -> Value {
        json!({
            "field": self.field.to_riddles(),
            "round": self.round,
            "to_move": self.to_move,
            "max_rounds": self.max_rounds,
        })
    }

    /// Reads [`GolState::to_json`]'s form (`max_rounds` defaults to 100).
    pub fn from_json(v: &Value) -> Result<GolState, String> {
        let field = v
            .get("field")
            .and_then(Value::as_str)
            .ok_or("state.field: expected a string of 288 comma-separated cells")?;
        let field = Field::from_riddles(field).map_err(|e| format!("state.field: {e}"))?;
        let round = v
            .get("round")
            .and_then(Value::as_u64)
            .filter(|r| (1..=u32::MAX as u64).contains(r))
            .ok_or("state.round: expected a round number >= 1")? as u32;
        let to_move = match v.get("to_move").and_then(Value::as_u64) {
            Some(s @ (0 | 1)) => s as Seat,
            _ => return Err("state.to_move: expected 0 or 1".into()),
        };
        let max_rounds = match v.get("max_rounds") {
            None => DEFAULT_MAX_ROUNDS,
            Some(m) => m
                .as_u64()
                .filter(|&m| m <= u32::MAX as u64)
                .ok_or("state.max_rounds: expected a whole number")? as u32,
        };
        Ok(GolState::from_protocol(field, round, to_move, max_rounds))
    }

    /// 16 text rows of `.`, `0` and `1`.
    pub fn render(&self) -> String {
        let s = self.field.to_riddles().replace(',', "");
        let rows: Vec<&str> = (0..HEIGHT)
            .map(|y| &s[y * WIDTH..(y + 1) * WIDTH])
            .collect();
        rows.join("\n")
    }
}

impl Game for GolState {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Seat {
        self.to_move
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        GolState::outcome(self)
    }

    /// Every kill, every birth (dead cell x unordered pair of own cells) and
    /// the pass: tens of thousands of moves in a typical position.
    fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let own: Vec<Cell> = self.field.living(self.to_move).collect();
        let dead: Vec<Cell> = self.field.dead().collect();
        let pairs = own.len() * own.len().saturating_sub(1) / 2;
        let mut out = Vec::with_capacity(self.field.count_all() as usize + dead.len() * pairs + 1);
        out.extend(
            self.field
                .living(0)
                .chain(self.field.living(1))
                .map(Move::Kill),
        );
        for &at in &dead {
            for (i, &a) in own.iter().enumerate() {
                for &b in &own[i + 1..] {
                    out.push(Move::Birth {
                        at,
                        sacrifice: [a, b],
                    });
                }
            }
        }
        out.push(Move::Pass);
        out
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.apply(mv);
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        GolState::is_legal(self, &mv)
    }

    /// [`GolState::random_move`]s to the end of the game.
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Outcome {
        loop {
            if let Some(o) = GolState::outcome(self) {
                return o;
            }
            let mv = self.random_move(rng);
            self.apply(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(x: u8, y: u8) -> Cell {
        Cell { x, y }
    }

    #[test]
    fn the_protocols_state_keeps_the_round_and_whose_turn_it_is() {
        // The engine's `update` lines give the round and the player to
        // move: 0 stays 0, 1 stays 1 (an id past 1 is read by its parity).
        let f = GolState::start(3, 100).field;
        for (given, seat) in [(0, 0), (1, 1), (2, 0), (3, 1)] {
            let s = GolState::from_protocol(f, 7, given, 100);
            assert_eq!((s.round, s.to_move, s.max_rounds), (7, seat, 100));
            assert_eq!(s.field, f);
        }
    }

    #[test]
    fn random_moves_are_legal_and_kill_birth_or_pass_a_third_of_the_time_each() {
        // The seed's AI1 playouts: each kind with equal chance where all are
        // possible (the start: 80 living cells, 40 of our own), a birth's
        // two sacrifices distinct cells of our own.
        use rand::SeedableRng;
        let s = GolState::start(5, 100);
        let mut rng = SmallRng::seed_from_u64(11);
        let mut kinds = [0u32; 3];
        for _ in 0..3000 {
            let m = s.random_move(&mut rng);
            assert!(s.is_legal(&m), "{m:?}");
            match m {
                Move::Kill(c) => {
                    assert!(s.field.get(c).is_some(), "{m:?}");
                    kinds[0] += 1;
                }
                Move::Birth {
                    at,
                    sacrifice: [a, b],
                } => {
                    assert_eq!(s.field.get(at), None, "{m:?}");
                    assert_ne!(a, b, "{m:?}");
                    assert_eq!(s.field.get(a), Some(0), "{m:?}");
                    assert_eq!(s.field.get(b), Some(0), "{m:?}");
                    kinds[1] += 1;
                }
                Move::Pass => kinds[2] += 1,
            }
        }
        // 1,000 expected each; 150 is more than 5 standard deviations.
        for k in kinds {
            assert!((850..=1150).contains(&k), "{kinds:?}");
        }
    }

    #[test]
    fn random_births_need_two_own_cells_and_take_any_dead_cell() {
        // Births from exactly two own cells: a third of the moves, always
        // those two cells, at dead cells all over the board; from one or no
        // own cell a birth becomes a pass.
        use rand::SeedableRng;
        let mut rng = SmallRng::seed_from_u64(5);
        let mut s = GolState::start(5, 100);
        let own: Vec<Cell> = s.field.living(0).collect();
        for &c in &own[2..] {
            s.field.set(c, None);
        }
        let dead = s.field.dead().count();
        let (mut births, mut at) = (0, std::collections::HashSet::new());
        for _ in 0..3000 {
            if let Move::Birth {
                at: a,
                sacrifice: [x, y],
            } = s.random_move(&mut rng)
            {
                births += 1;
                at.insert(a);
                assert!([x, y] == [own[0], own[1]] || [x, y] == [own[1], own[0]]);
            }
        }
        assert!((850..=1150).contains(&births), "{births} births");
        // About 270 distinct cells expected of ~1,000 draws from ~280.
        assert!(at.len() > 200, "{} distinct of {dead} dead cells", at.len());
        for keep in [1, 0] {
            for &c in &own[keep..2] {
                s.field.set(c, None);
            }
            for _ in 0..300 {
                let m = s.random_move(&mut rng);
                assert!(!matches!(m, Move::Birth { .. }), "{m:?}");
            }
        }
    }

    #[test]
    fn the_game_trait_plays_by_the_rules() {
        // What the search sees (the `Game` trait) is the state's own rules:
        // whose turn, the legal moves, a move played, the end.
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = SmallRng::seed_from_u64(9);
        let mut g = GolState::start(9, 4);
        let mut plain = g;
        let mut seats = Vec::new();
        while Game::outcome(&g).is_none() {
            assert_eq!(Game::to_move(&g), plain.to_move);
            seats.push(Game::to_move(&g));
            let mv = *Game::legal_moves(&g).choose(&mut rng).unwrap();
            assert!(Game::is_legal(&g, mv));
            Game::play(&mut g, mv);
            assert!(plain.apply(mv));
            assert_eq!(g, plain);
        }
        assert_eq!(seats, [0, 1, 0, 1, 0, 1, 0, 1]);
        assert_eq!(Game::outcome(&g), plain.outcome());
        assert!(plain.outcome().is_some());
    }

    #[test]
    fn start_is_40_cells_each_rotated_with_colours_swapped() {
        for seed in 0..20 {
            let s = GolState::start(seed, 100);
            assert_eq!(s.field.count(0), 40);
            assert_eq!(s.field.count(1), 40);
            for c in s.field.living(0) {
                assert!(c.y < 8);
                assert_eq!(s.field.get(cell(17 - c.x, 15 - c.y)), Some(1));
            }
            assert_eq!((s.round, s.to_move, s.max_rounds), (1, 0, 100));
            assert_eq!(s.outcome(), None);
        }
        assert_eq!(GolState::start(5, 100), GolState::start(5, 100));
        assert_ne!(GolState::start(5, 100), GolState::start(6, 100));
    }

    #[test]
    fn legality() {
        let mut f = Field::empty();
        f.set(cell(1, 1), Some(0));
        f.set(cell(2, 1), Some(0));
        f.set(cell(9, 9), Some(1));
        let s = GolState::new(f, 100);
        let birth = |at, a, b| Move::Birth {
            at,
            sacrifice: [a, b],
        };
        assert!(s.is_legal(&Move::Pass));
        assert!(s.is_legal(&Move::Kill(cell(9, 9))));
        assert!(s.is_legal(&Move::Kill(cell(1, 1))));
        assert!(!s.is_legal(&Move::Kill(cell(0, 0))));
        assert!(s.is_legal(&birth(cell(5, 5), cell(1, 1), cell(2, 1))));
        assert!(!s.is_legal(&birth(cell(5, 5), cell(1, 1), cell(1, 1))));
        assert!(!s.is_legal(&birth(cell(2, 1), cell(1, 1), cell(2, 1))));
        assert!(!s.is_legal(&birth(cell(5, 5), cell(1, 1), cell(9, 9))));
        let s1 = GolState::from_protocol(f, 1, 1, 100);
        assert!(!s1.is_legal(&birth(cell(5, 5), cell(1, 1), cell(2, 1))));
        // The generic trait agrees, and legal_moves holds exactly the legal ones.
        let moves = s.legal_moves();
        assert_eq!(moves.len(), 3 + (288 - 3) + 1);
        assert!(moves.iter().all(|m| Game::is_legal(&s, *m)));
    }

    #[test]
    fn turns_rounds_and_illegal_moves_as_passes() {
        // Two blocks: stable, so only the moves change the field.
        let mut f = Field::empty();
        for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2)] {
            f.set(cell(x, y), Some(0));
            f.set(cell(x + 10, y + 10), Some(1));
        }
        let mut s = GolState::new(f, 3);
        assert!(!s.apply(Move::Kill(cell(0, 0))));
        assert_eq!((s.round, s.to_move, s.field), (1, 1, f));
        assert!(s.apply(Move::Pass));
        assert_eq!((s.round, s.to_move, s.rounds_played()), (2, 0, 1));
        // Killing one cell of a block leaves an L that grows back into it.
        assert!(s.apply(Move::Kill(cell(11, 11))));
        assert_eq!(s.field, f);
        assert_eq!((s.round, s.to_move, s.rounds_played()), (2, 1, 2));
        s.apply(Move::Pass);
        s.apply(Move::Pass);
        assert_eq!(s.outcome(), None);
        s.apply(Move::Pass);
        assert_eq!((s.round, s.rounds_played()), (4, 3));
        assert_eq!(s.outcome(), Some(Outcome::Draw));
        assert!(!s.apply(Move::Pass));
        assert!(s.legal_moves().is_empty());
    }

    #[test]
    fn the_game_ends_when_a_side_dies() {
        let mut f = Field::empty();
        for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2)] {
            f.set(cell(x, y), Some(0));
        }
        f.set(cell(10, 10), Some(1));
        f.set(cell(11, 10), Some(1));
        let mut s = GolState::new(f, 100);
        // Player 1's lone pair dies in the first generation: player 0 wins
        // after its own move, in round 1.
        s.apply(Move::Pass);
        assert_eq!(s.outcome(), Some(Outcome::Win(0)));
        assert_eq!(s.rounds_played(), 1);
        // Both die: a draw.
        let mut g = Field::empty();
        g.set(cell(1, 1), Some(0));
        g.set(cell(9, 9), Some(1));
        let mut s = GolState::new(g, 100);
        s.apply(Move::Pass);
        assert_eq!(s.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn random_moves_are_legal_and_playouts_end() {
        let mut rng = SmallRng::seed_from_u64(3);
        for seed in 0..20 {
            let mut s = GolState::start(seed, 100);
            let mut n = 0;
            while s.outcome().is_none() {
                let mv = s.random_move(&mut rng);
                assert!(s.is_legal(&mv), "{mv:?}");
                assert!(s.apply(mv));
                n += 1;
            }
            assert!(n <= 200);
            let o = GolState::start(seed, 100).random_playout(&mut rng);
            assert!(matches!(
                o,
                Outcome::Draw | Outcome::Win(0) | Outcome::Win(1)
            ));
        }
    }

    #[test]
    fn json_round_trip_and_errors() {
        let mut s = GolState::start(9, 50);
        s.apply(Move::Pass);
        let v = s.to_json();
        assert_eq!(GolState::from_json(&v), Ok(s));
        assert_eq!(s.render().lines().count(), 16);
        assert!(s.render().lines().all(|l| l.len() == 18));
        for bad in [
            json!({}),
            json!({"field": "x", "round": 1, "to_move": 0}),
            json!({"field": s.field.to_riddles(), "round": 0, "to_move": 0}),
            json!({"field": s.field.to_riddles(), "round": 1, "to_move": 2}),
            json!({"field": s.field.to_riddles(), "round": 1, "to_move": 0, "max_rounds": -1}),
        ] {
            assert!(GolState::from_json(&bad).is_err(), "{bad}");
        }
        let d =
            GolState::from_json(&json!({"field": s.field.to_riddles(), "round": 1, "to_move": 0}));
        assert_eq!(d.map(|d| d.max_rounds), Ok(100));
    }
}
