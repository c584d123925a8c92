//! `puct`: the one PUCT search ([`crate::search::puct`]) over `best`'s
//! candidates (issue 61, item 3).
//!
//! A node's children are the candidates `best` searches at that ply
//! ([`BestConfig::candidates_at`]: the pairwise proposer with `pw_root`,
//! `pw_reply`, `pw_node`, else today's generator; the best
//! `widths[ply]`), each with the mover's value a ply deep (the learned value
//! model), best first. Their prior is a softmax of those values at
//! temperature `temp`; the position's value is the best of them (what a
//! one-ply search of it says). The tree is kept from one move to the next,
//! as eric-clinch/Golad keeps its own.

use super::best::{BestConfig, WIN};
use super::moves::Move;
use super::territory::Territory;
use super::GolState;
use crate::games::params::Decl;
use crate::games::AgentParams;
use crate::search::puct::{Child, Expansion, Guide, Puct, PuctConfig};

/// The `puct` agent.
pub type GoladPuct = Puct<GolState, GoladGuide>;

/// What the search asks of GOLAD: `best`'s scored candidates.
pub struct GoladGuide {
    cfg: BestConfig,
    eval: Territory,
    /// Softmax temperature of the priors (in value units).
    temp: f64,
    /// Evaluations so far (the search's budget counts them, as `best`'s).
    evals: u64,
}

impl GoladGuide {
    pub fn new(cfg: BestConfig, temp: f64) -> Self {
        GoladGuide {
            eval: cfg.territory(),
            cfg,
            temp: temp.max(1e-6),
            evals: 0,
        }
    }
}

/// A `best` value (a win 2, a loss -1) as a share of the game (0..=1).
fn share(v: f64) -> f64 {
    if v >= WIN {
        1.0
    } else if v <= 1.0 - WIN {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

/// Children with softmax priors from `(value, move)` pairs best first.
pub fn expansion(moves: &[(f64, Move)], temp: f64) -> Expansion<Move> {
    let top = moves.first().map_or(0.5, |&(v, _)| share(v));
    let children: Vec<Child<Move>> = moves
        .iter()
        .map(|&(v, mv)| {
            let value = share(v);
            Child {
                mv,
                prior: ((value - top) / temp).exp(),
                value,
            }
        })
        .collect();
    if children.is_empty() {
        // Passing is always legal.
        return Expansion {
            children: vec![Child {
                mv: Move::Pass,
                prior: 1.0,
                value: 0.5,
            }],
            value: 0.5,
        };
    }
    Expansion {
        children,
        value: top,
    }
}

impl Guide<GolState> for GoladGuide {
    fn expand(&mut self, pos: &GolState, ply: usize) -> Expansion<Move> {
        let (mut moves, width, evals) = self.cfg.candidates_counted(&self.eval, pos, ply);
        self.evals += evals;
        moves.truncate(width);
        expansion(&moves, self.temp)
    }
    fn work(&self) -> u64 {
        self.evals
    }
}

/// The search's own parameters, with their defaults.
const C_PUCT: f64 = 0.5;
const TEMP: f64 = 0.02;
const MINIMAX: f64 = 0.5;

/// `puct`'s parameters: `best`'s ([`BestConfig::decl`]) and the search's.
pub fn decl(name: &str) -> Decl {
    let p = PuctConfig::default();
    BestConfig::default().decl(name).with(
        Decl::new(name)
            .float(
                "c_puct",
                C_PUCT,
                0.0..=100.0,
                0.1,
                "PUCT's exploration constant c in q + c p sqrt(n) / (1 + m)",
            )
            .float(
                "temp",
                TEMP,
                0.0001..=10.0,
                0.005,
                "the priors' softmax temperature over the candidates' values",
            )
            .float(
                "widen_base",
                p.widen_base,
                1.0..=1000.0,
                1.0,
                "children a node selects among before any visit (progressive widening)",
            )
            .float(
                "widen_k",
                p.widen_k,
                0.0..=100.0,
                0.25,
                "progressive widening: k in base + k n^e children open at n visits",
            )
            .float(
                "widen_exp",
                p.widen_exp,
                0.0..=1.0,
                0.05,
                "progressive widening: e in base + k n^e children open at n visits",
            )
            .float(
                "minimax",
                MINIMAX,
                0.0..=1.0,
                0.1,
                "weight of the implicit minimax value (the negamax of the candidates' values below a child) against its mean in selection",
            )
            .flag(
                "keep_tree",
                p.keep_tree,
                "the next move's search starts from the kept subtree",
            ),
    )
}

/// The keys [`decl`] adds to `best`'s.
const OWN: [&str; 7] = [
    "c_puct",
    "minimax",
    "temp",
    "widen_base",
    "widen_k",
    "widen_exp",
    "keep_tree",
];

/// Builds `puct` from a profile's `agent_params`.
pub fn build(name: &'static str, params: &AgentParams) -> Result<GoladPuct, String> {
    let d = decl(name);
    let p = d.read(params)?;
    let mut rest = params.clone();
    for k in OWN {
        rest.remove(k);
    }
    let cfg = BestConfig::from_params_over(&rest, BestConfig::default(), name)?;
    let mut pc = PuctConfig {
        c_puct: p.f64("c_puct").unwrap_or(C_PUCT),
        minimax: p.f64("minimax").unwrap_or(MINIMAX),
        // A playout budget counts evaluations, as `best`'s does.
        count_work: true,
        ..PuctConfig::default()
    };
    if let Some(x) = p.f64("widen_base") {
        pc.widen_base = x;
    }
    if let Some(x) = p.f64("widen_k") {
        pc.widen_k = x;
    }
    if let Some(x) = p.f64("widen_exp") {
        pc.widen_exp = x;
    }
    if let Some(k) = p.flag("keep_tree") {
        pc.keep_tree = k;
    }
    let temp = p.f64("temp").unwrap_or(TEMP);
    Ok(Puct::new(name, pc, GoladGuide::new(cfg, temp)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Agent, Limits};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn priors_follow_the_values_and_ends_are_exact() {
        let a = Move::Pass;
        let b = Move::Kill(super::super::Cell::new(0, 0).unwrap());
        let c = Move::Kill(super::super::Cell::new(1, 0).unwrap());
        let e = expansion(&[(WIN, a), (0.55, b), (1.0 - WIN, c)], 0.02);
        assert_eq!(e.value, 1.0);
        assert_eq!(e.children[0].value, 1.0);
        assert_eq!(e.children[2].value, 0.0);
        assert!(e.children[0].prior > e.children[1].prior);
        assert!(e.children[1].prior > e.children[2].prior);
        let e = expansion(&[(0.6, a), (0.58, b)], 0.02);
        assert!((e.children[1].prior - (-1.0f64).exp()).abs() < 1e-9);
        assert_eq!(e.value, 0.6);
        // No candidate: a pass.
        let e = expansion(&[], 0.02);
        assert_eq!(e.children.len(), 1);
        assert_eq!(e.children[0].mv, Move::Pass);
    }

    #[test]
    fn it_reads_its_own_and_bests_parameters_and_refuses_others() {
        let mut p = AgentParams::new();
        p.insert("c_puct".into(), 2.5.into());
        p.insert("keep_tree".into(), 0.into());
        p.insert("minimax".into(), 0.75.into());
        p.insert("pw_root".into(), 300.into());
        let a = build("puct", &p).unwrap();
        assert_eq!(a.config.c_puct, 2.5);
        assert_eq!(a.config.minimax, 0.75);
        assert!(!a.config.keep_tree);
        assert_eq!(a.guide.cfg.pw_root, 300);
        p.insert("nope".into(), 1.into());
        let e = build("puct", &p).err().unwrap();
        assert!(e.contains("nope"), "{e}");
    }

    #[test]
    fn it_keeps_its_tree_across_a_reply_it_searched() {
        let mut a = build("puct", &AgentParams::new()).unwrap();
        let stop = AtomicBool::new(false);
        let s = GolState::start(3, 100);
        let d = a.select(&s, &Limits::playouts(30_000), &stop);
        assert!(s.is_legal(&d.mv));
        // (30,000 evaluations.) The opponent answers with the reply our
        // search visited most.
        let t = a.tree();
        let i = t[0].first_child as usize
            + a.children_of(0)
                .iter()
                .position(|n| n.mv == Some(d.mv))
                .unwrap();
        let reply = a
            .children_of(i)
            .iter()
            .max_by_key(|n| n.visits)
            .unwrap()
            .mv
            .unwrap();
        let had = a.children_of(i).iter().map(|n| n.visits).max().unwrap();
        let mut next = s;
        next.apply(d.mv);
        next.apply(reply);
        a.select(&next, &Limits::playouts(5), &stop);
        assert_eq!(a.reused(), had);
        assert!(had > 1, "{had}");
    }
}
