//! A population of scripted styles (issue 60): opponents that move their
//! reds and blues in ways our own agents never do, so that the colour
//! beliefs can be fitted on some and scored on the others (leave one style
//! out), and the first-game prior chosen for the worst of them.
//!
//! Every style places its pieces at random (a stranger's setup, not the
//! seed's layouts) and plays by a score over its legal moves, the best
//! score taken with ties broken at random; with probability
//! [`Style::NOISE`] it plays a uniformly random legal move instead, so that
//! its games vary. A blue on an exit always escapes.
//! - `style-reds`: reds charge straight down a file, the most advanced
//!   first, taking what stands in their way; blues stay back (the pattern
//!   Naotti-2020 showed in issue 50: a forward step there means red).
//! - `style-blues`: blues run for the nearer exit, the closest first; reds
//!   stay home and take what comes near (our own agents' way, exaggerated).
//! - `style-mixed`: any piece forward, chosen at random whatever its
//!   colour: a forward step says nothing.
//! - `style-corners`: reds hold the squares beside our own corners (the
//!   opponent's exits) and take what comes there; blues creep up the edge
//!   files.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::geometry::{dist, OUR_EXITS, THEIR_EXITS};
use super::rules::{step, Colour, Dir, Move, Setup, Square};
use super::view::View;
use crate::search::Limits;

/// Which style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Reds,
    Blues,
    Mixed,
    Corners,
}

impl Kind {
    /// Every style, in the order the tables list them.
    pub const ALL: [Kind; 4] = [Kind::Reds, Kind::Blues, Kind::Mixed, Kind::Corners];

    /// The agent's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Reds => "style-reds",
            Kind::Blues => "style-blues",
            Kind::Mixed => "style-mixed",
            Kind::Corners => "style-corners",
        }
    }

    /// The style an agent name stands for.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A scripted style ([`Kind`]).
pub struct Style {
    kind: Kind,
    rng: SmallRng,
}

impl Style {
    /// The share of moves played uniformly at random.
    pub const NOISE: f64 = 0.1;

    pub fn new(kind: Kind, seed: u64) -> Self {
        Style {
            kind,
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// Nothing to forget between games.
    pub fn new_game(&mut self) {}

    /// It runs no playouts.
    pub fn last_playouts(&self) -> u64 {
        0
    }

    /// No estimate of the position's value.
    pub fn last_value(&self) -> Option<f64> {
        None
    }

    pub fn setup(&mut self) -> Setup {
        Setup::random(&mut self.rng)
    }

    pub fn choose(&mut self, view: &View, _limits: &Limits, _stop: &AtomicBool) -> Move {
        let moves = view.legal_moves();
        assert!(!moves.is_empty(), "choose called with no legal move");
        if let Some(&escape) = moves
            .iter()
            .find(|m| is_escape(view, **m) && view.own_colour(m.piece) == Colour::Blue)
        {
            return escape;
        }
        if self.rng.gen_bool(Self::NOISE) {
            return moves[self.rng.gen_range(0..moves.len())];
        }
        let scored: Vec<(f64, Move)> = moves
            .iter()
            .map(|&m| (score(self.kind, view, m), m))
            .collect();
        let top = scored.iter().map(|s| s.0).fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<Move> = scored.iter().filter(|s| s.0 >= top).map(|s| s.1).collect();
        best[self.rng.gen_range(0..best.len())]
    }
}

/// Whether `mv` takes its piece off the board through an exit.
fn is_escape(view: &View, mv: Move) -> bool {
    view.own(mv.piece)
        .square()
        .is_some_and(|sq| step(sq, mv.dir, 0).is_none() && OUR_EXITS.contains(&sq))
}

/// The squares beside the opponent's exits (our own back corners), which
/// `style-corners`' reds hold.
const GUARD_SQUARES: [Square; 4] = [
    Square(24), // (0, 4)
    Square(31), // (1, 5)
    Square(29), // (5, 4)
    Square(34), // (4, 5)
];

/// How much `kind` wants `mv` (higher is better).
fn score(kind: Kind, view: &View, mv: Move) -> f64 {
    let Some(from) = view.own(mv.piece).square() else {
        return f64::NEG_INFINITY;
    };
    let Some(to) = step(from, mv.dir, 0) else {
        // A red on an exit cannot leave; nothing else steps off the board.
        return f64::NEG_INFINITY;
    };
    let red = view.own_colour(mv.piece) == Colour::Red;
    let takes = view.opp_at(to).is_some();
    let forward = mv.dir == Dir::N;
    // How far up the board the piece stands (0 on our back row).
    let advance = f64::from(5 - from.y());
    match kind {
        Kind::Reds => {
            if red {
                let mut s = if forward { 10.0 + advance } else { 0.0 };
                if takes {
                    s += 8.0;
                }
                // A red on the far row steps along it, into the exits' way.
                if from.y() == 0 && !forward && mv.dir != Dir::S {
                    s += 6.0;
                }
                s
            } else if takes {
                3.0
            } else if forward {
                1.0
            } else {
                0.5
            }
        }
        Kind::Blues => {
            if red {
                if takes {
                    9.0
                } else {
                    0.5
                }
            } else {
                let near = |sq: Square| OUR_EXITS.iter().map(|&e| dist(sq, e)).min().unwrap_or(0);
                let closer = near(to) < near(from);
                let mut s = if closer {
                    10.0 + f64::from(10 - near(from))
                } else {
                    1.0
                };
                if takes {
                    s += 3.0;
                }
                s
            }
        }
        Kind::Mixed => {
            if takes {
                6.0
            } else if forward {
                5.0
            } else if mv.dir == Dir::S {
                0.0
            } else {
                1.0
            }
        }
        Kind::Corners => {
            let at_home = |sq: Square| THEIR_EXITS.iter().any(|&e| dist(sq, e) <= 1);
            if takes && at_home(to) {
                return 20.0;
            }
            if red {
                let gap = |sq: Square| {
                    GUARD_SQUARES
                        .iter()
                        .map(|&g| dist(sq, g))
                        .min()
                        .unwrap_or(0)
                };
                if gap(from) == 0 {
                    0.0
                } else if gap(to) < gap(from) && view.own_at(to).is_none() {
                    8.0 - f64::from(gap(to))
                } else {
                    0.5
                }
            } else {
                let edge = to.x() == 0 || to.x() == 5;
                match (forward, edge) {
                    (true, true) => 4.0 + if takes { 1.0 } else { 0.0 },
                    (false, true) => 2.0,
                    (true, false) => 1.5,
                    (false, false) => 1.0,
                }
            }
        }
    }
}

geister_agent!(Style, "style");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::{Geister, Place, PIECES};

    /// Plays `games` games of `kind` against `random`, seats alternated, and
    /// counts the forward steps of the style's reds and of its blues.
    fn forward_steps(kind: Kind, games: u64) -> (u32, u32) {
        let (mut red, mut blue) = (0, 0);
        let stop = AtomicBool::new(false);
        for g in 0..games {
            let mut style = Style::new(kind, g);
            let mut rng = SmallRng::seed_from_u64(1000 + g);
            let seat = (g % 2) as usize;
            let mut setups = [Setup::random(&mut rng); 2];
            setups[seat] = style.setup();
            let mut game = Geister::new(setups);
            while game.outcome().is_none() {
                let moves = game.legal_moves();
                if game.to_move() == seat {
                    let view = game.view(seat);
                    let mv = style.choose(&view, &Limits::playouts(1), &stop);
                    assert!(moves.contains(&mv), "{kind:?} played an illegal move");
                    if mv.dir == Dir::N {
                        match view.own_colour(mv.piece) {
                            Colour::Red => red += 1,
                            Colour::Blue => blue += 1,
                        }
                    }
                    game.play(mv);
                } else {
                    game.play(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        (red, blue)
    }

    #[test]
    fn each_style_moves_its_colours_its_own_way() {
        let (r, b) = forward_steps(Kind::Reds, 20);
        assert!(r > 3 * b, "style-reds: red steps {r}, blue {b}");
        let (r, b) = forward_steps(Kind::Blues, 20);
        assert!(b > 3 * r, "style-blues: red steps {r}, blue {b}");
        let (r, b) = forward_steps(Kind::Mixed, 20);
        let (lo, hi) = (r.min(b), r.max(b));
        assert!(lo * 2 > hi, "style-mixed: red steps {r}, blue {b}");
    }

    #[test]
    fn corner_reds_go_to_the_squares_beside_our_corners() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut guarded = 0;
        for g in 0..20 {
            let mut style = Style::new(Kind::Corners, g);
            let setups = [style.setup(), Setup::random(&mut rng)];
            let mut game = Geister::new(setups);
            // Twenty moves each, the opponent passing its time far away.
            for _ in 0..40 {
                if game.outcome().is_some() {
                    break;
                }
                let moves = game.legal_moves();
                let mv = if game.to_move() == 0 {
                    style.choose(&game.view(0), &Limits::playouts(1), &AtomicBool::new(false))
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                game.play(mv);
            }
            let view = game.view(0);
            guarded += (0..PIECES as u8)
                .filter(|&p| view.own_colour(p) == Colour::Red)
                .filter(|&p| matches!(view.own(p), Place::At(sq) if GUARD_SQUARES.contains(&sq)))
                .count();
        }
        // Four guard squares a game; at random about one in nine squares.
        assert!(
            guarded >= 30,
            "{guarded} reds on the guard squares in 20 games"
        );
    }

    #[test]
    fn a_blue_on_an_exit_escapes_and_names_round_trip() {
        // E (blue) on the exit (5,0).
        let v = View::from_gat("14R24R34R44R50B25B35B45B41u31u21u11u40u30u20u10u").unwrap();
        for kind in Kind::ALL {
            let mut s = Style::new(kind, 3);
            let mv = s.choose(&v, &Limits::playouts(1), &AtomicBool::new(false));
            assert_eq!(mv, Move::new(4, Dir::N), "{kind:?}");
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(Kind::from_name("style"), None);
    }
}
