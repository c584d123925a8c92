//! How `best` scores and generates moves: a leaf's value (exact once the
//! game is over, else the learned value model or the territory share), the
//! candidates of a node (today's generator or the pairwise proposer) and of
//! the root (its best births improved), and the candidates the search gives
//! each ply ([`BestConfig::candidates_at`]).

use super::{Best, BestConfig, Gen};
use crate::games::golad::moves::Move;
use crate::games::golad::propose;
use crate::games::golad::territory::{candidates, improve_birth, Territory};
use crate::games::golad::value;
use crate::games::golad::{Field, GolState};

impl BestConfig {
    /// The candidates the search gives the side to move `ply` plies below
    /// the root (0: the root's, improved; 1: the replies to the root's
    /// moves; deeper: a node's with more than one ply left), best first,
    /// and how many of them a node there searches (`widths`).
    pub fn candidates_at(
        &self,
        eval: &Territory,
        s: &GolState,
        ply: usize,
    ) -> (Vec<(f64, Move)>, usize) {
        let value = |p: &GolState, m: Move| leaf_value(eval, self, p, m);
        let moves = match ply {
            0 => root_candidates(s, self.root_gen(), self.improve, value),
            _ => node_candidates(s, self.node_gen(ply, 2), value),
        };
        (moves, self.searched_width(ply))
    }
}

/// The mover's value after `m` in `s` under `cfg`'s evaluation: exact
/// once the game is over, else the learned value model's expected score
/// (`cfg.value`) or the territory share, after `cfg.look` pass
/// generations.
pub fn leaf_value(eval: &Territory, cfg: &BestConfig, s: &GolState, m: Move) -> f64 {
    let (t, f, tempo) = match looked_at(cfg, s, m) {
        Ok(x) => x,
        Err(end) => return end,
    };
    let share = eval.share(&f, s.to_move, tempo);
    if let Some(model) = cfg.value {
        return model.value(&value::inputs(share, &f, s.to_move, value::left(&t)));
    }
    share
}

/// What the value looks at after `m` in `s`: the position, its field after
/// `cfg.look` pass generations and the side given the tempo; or, once the
/// game is over, the mover's exact value.
fn looked_at(
    cfg: &BestConfig,
    s: &GolState,
    m: Move,
) -> Result<(GolState, Field, Option<crate::search::Seat>), f64> {
    let mut t = *s;
    t.apply(m);
    if let Some(o) = t.outcome() {
        return Err(Best::terminal(o, s.to_move));
    }
    Ok((t, t.field.steps(cfg.look), cfg.tempo.then_some(t.to_move)))
}

/// The candidates of a node: the pairwise proposer's ([`propose`]), or
/// today's generator's ([`candidates`]).
pub fn node_candidates(
    s: &GolState,
    gen: Gen,
    value: impl FnMut(&GolState, Move) -> f64,
) -> Vec<(f64, Move)> {
    match gen {
        Gen::Pairwise(p) => propose::candidates(s, p, value),
        Gen::Width(width) => candidates(s, width, value),
    }
}

/// The root's candidates: [`node_candidates`] with `gen`, the best
/// `improve` births improved part by part ([`improve_birth`], two passes),
/// best first.
pub fn root_candidates(
    s: &GolState,
    gen: Gen,
    improve: usize,
    mut value: impl FnMut(&GolState, Move) -> f64,
) -> Vec<(f64, Move)> {
    let mut root = node_candidates(s, gen, &mut value);
    if improve > 0 {
        let births: Vec<(f64, Move)> = root
            .iter()
            .filter(|(_, m)| matches!(m, Move::Birth { .. }))
            .take(improve)
            .copied()
            .collect();
        for b in births {
            let better = improve_birth(s, b, 2, &mut value);
            if !root.iter().any(|&(_, m)| m == better.1) {
                root.push(better);
            }
        }
        root.sort_by(|x, y| y.0.total_cmp(&x.0));
    }
    root
}
