//! Data for `best`'s fitted evaluation and for the solver's benchmark
//! (`ladderbot-lab four3d`): self-play games, positions labelled by exact
//! solves (late in the game) or by the game's result (earlier), the fit,
//! and the accuracy of an evaluation at predicting solved results.
//!
//! A game is the list of its drops (peg numbers 0..16) and its winner; a
//! position is a prefix of a game. Everything here is deterministic for a
//! given seed.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use ladderbot::games::four3d::best::endgames::Endgame;
use ladderbot::games::four3d::best::eval::{evaluate, Weights};
use ladderbot::games::four3d::best::fitted::{inputs_of, Model, INPUTS};
pub use ladderbot::games::four3d::best::position::replay;
use ladderbot::games::four3d::best::position::{result_of, root_moves, sides, RootMoves};
use ladderbot::games::four3d::best::solve::{solve_exact, solve_wdl};
use ladderbot::games::four3d::best::threats::threats;
use ladderbot::games::four3d::best::tt::Table;
use ladderbot::games::four3d::tactics::{candidate_cells, random_peg_of};
use ladderbot::games::four3d::Board;
use ladderbot::search::{logistic, Agent, Game, Limits};

/// One played game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedGame {
    pub pegs: Vec<u8>,
    pub winner: Option<u8>,
    /// The plies of its exploratory drops ([`Explore`]), if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explored: Vec<u32>,
}

/// Exploratory drops in the middle of a self-play game, so that its later
/// positions leave the line the agent would choose against itself:
/// `drops` plies drawn without repeat from `from..=to` (from a generator of
/// their own, so that the rest of the game's randomness is unchanged), at
/// each a uniformly random drop among the tactically sound ones (the win if
/// there is one, else the forced blocks, else the drops that do not put a
/// bead under the opponent's winning cell) instead of the agent's move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Explore {
    pub drops: u32,
    pub from: u32,
    pub to: u32,
}

impl Explore {
    /// The plies to explore in game `index` of a series seeded by `seed`, in
    /// order.
    pub fn plies(&self, seed: u64, index: u64) -> Vec<u32> {
        if self.drops == 0 || self.to < self.from {
            return Vec::new();
        }
        let mut rng = SmallRng::seed_from_u64(
            seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5851_f42d_4c95_7f2d,
        );
        let span = (self.to - self.from + 1) as usize;
        let k = (self.drops as usize).min(span);
        let mut plies: Vec<u32> = rand::seq::index::sample(&mut rng, span, k)
            .into_iter()
            .map(|i| self.from + i as u32)
            .collect();
        plies.sort_unstable();
        plies
    }
}

/// Plays game `index` of a self-play series: the drops of `start` (an
/// opening: legal drops that do not end the game), `random_plies` random
/// drops (from a generator seeded by `seed` and `index`), then `agent`
/// against a copy of itself at `nodes` nodes a move, both sides the same
/// agent, but for the exploratory drops of `explore`.
pub fn self_play_game(
    agent: &mut dyn Agent<Board>,
    nodes: u64,
    start: &[u8],
    random_plies: u32,
    explore: Explore,
    seed: u64,
    index: u64,
) -> Result<PlayedGame, String> {
    let mut rng = SmallRng::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let explore_at = explore.plies(seed, index);
    let mut explored = Vec::new();
    let stop = AtomicBool::new(false);
    agent.new_game();
    let mut b = replay(start)?;
    if b.outcome().is_some() {
        return Err(format!("the opening {start:?} ends the game"));
    }
    let mut pegs = start.to_vec();
    let random_until = start.len() as u32 + random_plies;
    while b.outcome().is_none() {
        let mv = if b.ply() < random_until {
            let m = b.legal_moves();
            m[rng.gen_range(0..m.len())]
        } else if explore_at.contains(&b.ply()) {
            explored.push(b.ply());
            random_peg_of(candidate_cells(&b), &mut rng)
        } else {
            agent.select(&b, &Limits::playouts(nodes), &stop).mv
        };
        pegs.push(mv.0);
        b.play(mv);
    }
    let winner = b.outcome().and_then(|o| o.winner()).map(|s| s as u8);
    Ok(PlayedGame {
        pegs,
        winner,
        explored,
    })
}

/// The drops `pegs` under symmetry `s` of the grid of pegs
/// ([`ladderbot::games::four3d::best::solve::symmetry`], 0..8; 0 leaves them as they are): the
/// same game on a mirrored or turned board, whose every position has the
/// value of the original's (the lines map to lines, and gravity is kept).
pub fn pegs_image(s: u8, pegs: &[u8]) -> Vec<u8> {
    pegs.iter()
        .map(|&p| {
            ladderbot::games::four3d::best::solve::symmetry::apply(s, 1u64 << (p & 15))
                .trailing_zeros() as u8
        })
        .collect()
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// The game it came from (its index in the games file).
    pub game: usize,
    /// The drops that lead to it.
    pub pegs: Vec<u8>,
    /// The result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub label: f64,
    /// Whether the label is an exact solve (else a deep search's or the
    /// game's result).
    pub solved: bool,
    /// The solved value (`WIN - p` for a win at ply `p` from here), when
    /// solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// The nodes of the deep search that labelled it (its label is the
    /// search's win share for the side to move), when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deep: Option<u64>,
    /// The game's result for the side to move (1, 0.5 or 0), whatever
    /// labelled the position (written by `label` since issue 59).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<f64>,
}

/// What labelled a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LabelKind {
    /// The exact solver.
    Solved,
    /// A search much deeper than a move's.
    Deep,
    /// The game's result.
    Result,
}

impl Sample {
    /// What labelled it.
    pub fn kind(&self) -> LabelKind {
        if self.solved {
            LabelKind::Solved
        } else if self.deep.is_some() {
            LabelKind::Deep
        } else {
            LabelKind::Result
        }
    }

    /// The position's ply (drops made).
    pub fn ply(&self) -> u32 {
        self.pegs.len() as u32
    }
}

/// How `label` labels the quiet positions of a game: an exact solve when
/// at most `solve_empties` cells are empty and the solver finishes within
/// `max_nodes`; else, from ply `deep_from` on, a search of `deep_nodes`
/// nodes (0: none); else the game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelPlan {
    pub solve_empties: u32,
    pub max_nodes: u64,
    pub deep_nodes: u64,
    pub deep_from: u32,
    /// Solve for win, draw or loss only ([`solve_wdl`]): the same labels,
    /// found several times faster, without the distance (`value` unset).
    pub wdl: bool,
}

/// The quiet positions of a game worth a sample (the side to move has a
/// choice: no win on the spot, no forced block, not already lost), with
/// labels as `plan` says (the deep searches by `deep`, each from an empty
/// table, on one thread).
/// Positions are solved from the end of the game backwards, sharing
/// `table`, so each solve reuses the later ones.
pub fn label_game(
    index: usize,
    game: &PlayedGame,
    plan: &LabelPlan,
    table: &Table,
    deep: &ladderbot::games::four3d::best::Best,
) -> Result<Vec<Sample>, String> {
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for n in (0..game.pegs.len()).rev() {
        let b = replay(&game.pegs[..n])?;
        if b.outcome().is_some() {
            continue;
        }
        let (me, opp) = sides(&b);
        let RootMoves::Search(cells) = root_moves(me, opp) else {
            continue;
        };
        let empties = 64 - n as u32;
        // A solve's label, and its exact value unless it settled win, draw
        // or loss only.
        let solved: Option<(f64, Option<i32>)> = match (empties <= plan.solve_empties, plan.wdl) {
            (false, _) => None,
            (true, false) => {
                solve_exact(table, me, opp, plan.max_nodes).map(|v| (result_of(v), Some(v)))
            }
            (true, true) => solve_wdl(table, me, opp, plan.max_nodes)
                .map(|sign| (0.5 + 0.5 * f64::from(sign), None)),
        };
        let result = match game.winner {
            None => 0.5,
            Some(w) if w as usize == b.to_move() => 1.0,
            Some(_) => 0.0,
        };
        let searched = (solved.is_none() && plan.deep_nodes > 0 && n as u32 >= plan.deep_from)
            .then(|| {
                // A fresh table: each label is the search's own verdict,
                // whatever was searched before it.
                deep.clear_table();
                let limits = Limits::playouts(plan.deep_nodes);
                ladderbot::games::four3d::best::share(
                    deep.search(me, opp, &cells, &limits, &stop).value,
                )
            });
        let label = match (solved, searched) {
            (Some((label, _)), _) => label,
            (None, Some(share)) => share,
            (None, None) => result,
        };
        out.push(Sample {
            game: index,
            pegs: game.pegs[..n].to_vec(),
            label,
            solved: solved.is_some(),
            value: solved.and_then(|(_, value)| value),
            deep: searched.map(|_| plan.deep_nodes),
            result: Some(result),
        });
    }
    out.reverse();
    Ok(out)
}

/// The hand evaluation (`ab-v1`'s) of a position, in evaluation units.
pub fn hand_value(b: &Board) -> i32 {
    let (me, opp) = sides(b);
    let empty = !(me | opp);
    evaluate(
        me,
        opp,
        b.to_move(),
        threats(me, empty),
        threats(opp, empty),
        &Weights::default(),
    )
}

/// Fits the evaluation on `samples` (L2 penalty `l2`).
pub fn fit(samples: &[Sample], l2: f64) -> Result<Model, String> {
    let data: Vec<([f64; INPUTS], f64)> = samples
        .iter()
        .map(|s| Ok((inputs_of(&replay(&s.pegs)?), s.label)))
        .collect::<Result<_, String>>()?;
    let w = logistic::fit_toward(&data, &[0.0; INPUTS], l2);
    Ok(Model::from_inputs(&w))
}

/// How well an evaluation predicts results.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Accuracy {
    pub positions: usize,
    /// Positions whose result is a win or a loss.
    pub decisive: usize,
    /// Share of the decisive positions where the evaluation's sign is the
    /// result's (a value of 0 counts as wrong).
    pub sign_accuracy: f64,
    /// Mean log loss of `sigmoid(value / 200)` against the result (a draw
    /// as 1/2), over all positions.
    pub log_loss: f64,
}

/// Scores `value` (evaluation units, side to move's view) on `samples`.
pub fn accuracy(
    samples: &[&Sample],
    mut value: impl FnMut(&Board) -> f64,
) -> Result<Accuracy, String> {
    let mut a = Accuracy {
        positions: samples.len(),
        ..Accuracy::default()
    };
    let (mut right, mut loss) = (0usize, 0.0);
    for s in samples {
        let v = value(&replay(&s.pegs)?);
        let p = logistic::sigmoid(v / ladderbot::games::four3d::best::fitted::SCALE)
            .clamp(1e-12, 1.0 - 1e-12);
        loss -= s.label * p.ln() + (1.0 - s.label) * (1.0 - p).ln();
        if s.label != 0.5 {
            a.decisive += 1;
            if (v > 0.0 && s.label == 1.0) || (v < 0.0 && s.label == 0.0) {
                right += 1;
            }
        }
    }
    a.sign_accuracy = right as f64 / a.decisive.max(1) as f64;
    a.log_loss = loss / samples.len().max(1) as f64;
    Ok(a)
}

/// Picks up to `per_depth` positions at each of `empties` from `games`
/// (at most one per game and depth, quiet ones only, games in order) and
/// labels them with the solver (`max_nodes` each; a position not solved
/// within it is skipped).
pub fn pick_endgames(
    games: &[PlayedGame],
    empties: &[u32],
    per_depth: usize,
    max_nodes: u64,
) -> Result<Vec<Endgame>, String> {
    let mut out = Vec::new();
    let table = Table::new(22);
    for &e in empties {
        let mut got = 0;
        for g in games {
            if got == per_depth {
                break;
            }
            let n = 64 - e as usize;
            if g.pegs.len() <= n {
                continue;
            }
            let b = replay(&g.pegs[..n])?;
            let (me, opp) = sides(&b);
            if b.outcome().is_some() || !matches!(root_moves(me, opp), RootMoves::Search(_)) {
                continue;
            }
            table.clear();
            if let Some(v) = solve_exact(&table, me, opp, max_nodes) {
                out.push(Endgame {
                    pegs: g.pegs[..n].to_vec(),
                    value: v,
                });
                got += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladderbot::games::four3d::best::endgames::shipped_endgames;
    use ladderbot::games::four3d::best::plain::plain_solve;
    use ladderbot::games::four3d::best::{Best, BestConfig};
    use ladderbot::games::four3d::tactics::pegs_of;
    use ladderbot::games::four3d::Peg;

    /// `best` on one thread with a small table, else as `config`.
    fn small_agent(config: BestConfig) -> Best {
        Best::new(BestConfig {
            threads: 1,
            tt_bits: 14,
            ..config
        })
    }

    #[test]
    fn exploratory_drops_leave_the_agents_line_at_their_plies_only() {
        let agent = || small_agent(BestConfig::v1());
        let explore = Explore {
            drops: 3,
            from: 10,
            to: 20,
        };
        let mut left = 0;
        for index in 0..4 {
            let plain =
                self_play_game(&mut agent(), 500, &[], 4, Explore::default(), 5, index).unwrap();
            let g = self_play_game(&mut agent(), 500, &[], 4, explore, 5, index).unwrap();
            assert_eq!(
                g,
                self_play_game(&mut agent(), 500, &[], 4, explore, 5, index).unwrap(),
                "deterministic"
            );
            assert!(plain.explored.is_empty());
            assert!(g.pegs.len() > 21, "{:?}", g.pegs);
            // Three distinct plies of the span, the ones the plan draws.
            assert_eq!(g.explored, explore.plies(5, index));
            assert_eq!(g.explored.len(), 3);
            assert!(g.explored.windows(2).all(|w| w[0] < w[1]));
            assert!(g.explored.iter().all(|p| (10..=20).contains(p)));
            // Until the first of them the game is the plain one (the random
            // start is unchanged)...
            let first = g.explored[0] as usize;
            assert_eq!(g.pegs[..first], plain.pegs[..first]);
            // ...and each is a sound drop of its position.
            for &p in &g.explored {
                let b = replay(&g.pegs[..p as usize]).unwrap();
                let sound = pegs_of(candidate_cells(&b));
                assert!(sound.contains(&Peg(g.pegs[p as usize])), "ply {p}");
            }
            left += usize::from(g.pegs != plain.pegs);
        }
        assert!(
            left >= 2,
            "the exploration left the line in {left} of 4 games"
        );
        // No drops, or an empty span: nothing explored.
        assert!(Explore::default().plies(5, 0).is_empty());
        let backwards = Explore {
            drops: 2,
            from: 20,
            to: 10,
        };
        assert!(backwards.plies(5, 0).is_empty());
        // More drops than plies: each ply of the span once.
        let all = Explore {
            drops: 9,
            from: 30,
            to: 33,
        };
        assert_eq!(all.plies(5, 0), vec![30, 31, 32, 33]);
    }

    #[test]
    fn labels_follow_solves_late_and_results_early() {
        // A fresh agent per game (its table is kept from game to game).
        let agent = || small_agent(BestConfig::v1());
        let g = self_play_game(&mut agent(), 2000, &[], 4, Explore::default(), 1, 0).unwrap();
        assert_eq!(
            g,
            self_play_game(&mut agent(), 2000, &[], 4, Explore::default(), 1, 0).unwrap(),
            "deterministic"
        );
        let table = Table::new(16);
        let plan = LabelPlan {
            solve_empties: 10,
            max_nodes: 1_000_000,
            deep_nodes: 0,
            deep_from: 0,
            wdl: false,
        };
        let samples = label_game(0, &g, &plan, &table, &agent()).unwrap();
        assert!(!samples.is_empty());
        // Win, draw or loss only: the same positions, the same label wherever
        // both solve, and in this game every position the exact solve settles
        // settled too (it is faster under the same node cap; over the 200
        // held-out games it missed 3 of 3,025 and settled 91 more); no distance.
        let exact = LabelPlan {
            solve_empties: 30,
            ..plan
        };
        let wdl = LabelPlan { wdl: true, ..exact };
        let slow = label_game(0, &g, &exact, &Table::new(18), &agent()).unwrap();
        let fast = label_game(0, &g, &wdl, &Table::new(18), &agent()).unwrap();
        assert_eq!(fast.len(), slow.len());
        for (f, s) in fast.iter().zip(&slow) {
            assert_eq!(f.pegs, s.pegs);
            assert!(f.solved || !s.solved, "{:?}", s.pegs);
            if s.solved {
                assert_eq!(f.label, s.label, "{:?}", s.pegs);
            }
            assert!(f.value.is_none());
        }
        assert!(fast.iter().any(|s| s.solved));
        for s in &samples {
            let b = replay(&s.pegs).unwrap();
            assert_eq!(s.deep, None);
            if s.solved {
                assert!(b.ply() >= 54);
                let (me, opp) = sides(&b);
                let mut n = 0;
                let v = plain_solve(me, opp, &mut n);
                assert_eq!(result_of(v), s.label, "{:?}", s.pegs);
            } else {
                let expect = match g.winner {
                    None => 0.5,
                    Some(w) if w as usize == b.to_move() => 1.0,
                    Some(_) => 0.0,
                };
                assert_eq!(s.label, expect);
            }
            assert_eq!(s.kind() == LabelKind::Result, s.result == Some(s.label));
        }
    }

    #[test]
    fn a_games_images_are_the_turned_boards_with_the_same_values() {
        let agent = || small_agent(BestConfig::v1());
        let g = self_play_game(&mut agent(), 500, &[], 6, Explore::default(), 9, 2).unwrap();
        let end = replay(&g.pegs).unwrap();
        let mut distinct = std::collections::HashSet::new();
        for s in 0..8u8 {
            let image = pegs_image(s, &g.pegs);
            let b = replay(&image).unwrap();
            // Each seat's beads are the original's mapped cell by cell.
            for seat in 0..2 {
                assert_eq!(
                    b.stones(seat),
                    ladderbot::games::four3d::best::solve::symmetry::apply(s, end.stones(seat))
                );
            }
            // The same side has a line, so the game ends the same way.
            for seat in 0..2 {
                assert_eq!(
                    ladderbot::games::four3d::best::solve::has_line(b.stones(seat)),
                    ladderbot::games::four3d::best::solve::has_line(end.stones(seat))
                );
            }
            distinct.insert(image);
        }
        assert_eq!(pegs_image(0, &g.pegs), g.pegs);
        assert!(distinct.len() > 1, "the images differ from the game");
        // Turned endgames of real games keep their solved values.
        let small: Vec<Endgame> = shipped_endgames()
            .into_iter()
            .filter(|e| e.empties() <= 8)
            .collect();
        assert!(
            small.len() >= 8,
            "{} endgames of 8 empty cells",
            small.len()
        );
        for e in &small {
            let b = e.board();
            let (me, opp) = sides(&b);
            let mut n = 0;
            let v = plain_solve(me, opp, &mut n);
            for s in 1..8u8 {
                let apply = |x| ladderbot::games::four3d::best::solve::symmetry::apply(s, x);
                let mut n = 0;
                assert_eq!(plain_solve(apply(me), apply(opp), &mut n), v);
            }
        }
    }

    #[test]
    fn an_opening_starts_the_game_and_deep_searches_label_the_middle() {
        let agent = || small_agent(BestConfig::default());
        let g =
            self_play_game(&mut agent(), 1000, &[5, 10, 0], 2, Explore::default(), 7, 3).unwrap();
        assert_eq!(&g.pegs[..3], &[5, 10, 0]);
        // An opening that ends the game or holds an illegal drop is refused.
        let five = [0u8, 0, 0, 0, 0];
        assert!(self_play_game(&mut agent(), 10, &five, 0, Explore::default(), 1, 0).is_err());
        let plan = LabelPlan {
            solve_empties: 8,
            max_nodes: 1_000_000,
            deep_nodes: 3000,
            deep_from: 20,
            wdl: false,
        };
        let samples = label_game(1, &g, &plan, &Table::new(16), &agent()).unwrap();
        let kinds = |k| samples.iter().filter(|s| s.kind() == k).count();
        assert!(kinds(LabelKind::Deep) > 0, "{samples:?}");
        for s in &samples {
            let result = match g.winner {
                None => 0.5,
                Some(w) if w as u32 == s.ply() % 2 => 1.0,
                Some(_) => 0.0,
            };
            assert_eq!(s.result, Some(result));
            match s.kind() {
                LabelKind::Solved => assert!(s.ply() >= 56),
                LabelKind::Deep => {
                    assert!(s.ply() >= 20 && s.value.is_none());
                    assert_eq!(s.deep, Some(3000));
                    assert!((0.0..=1.0).contains(&s.label));
                    // The label is the search's own verdict: a fresh
                    // search of the same budget gives it again.
                    let b = replay(&s.pegs).unwrap();
                    let (me, opp) = sides(&b);
                    let RootMoves::Search(cells) = root_moves(me, opp) else {
                        panic!("a quiet position")
                    };
                    let stop = AtomicBool::new(false);
                    let f = agent().search(me, opp, &cells, &Limits::playouts(3000), &stop);
                    assert_eq!(
                        ladderbot::games::four3d::best::share(f.value),
                        s.label,
                        "{:?}",
                        s.pegs
                    );
                }
                LabelKind::Result => {
                    assert!(s.ply() < 20);
                    assert_eq!(s.label, result);
                }
            }
        }
    }
}
