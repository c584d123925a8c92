//! `control`: a shallow search over a territory evaluation (issue 10's
//! first lever, the evaluation).
//!
//! - **Evaluation**: who controls the field. Both sides' living cells flood
//!   outwards one 4-neighbour step at a time; a dead cell reached first by
//!   one side is that side's, and a cell reached by both at once is nobody's.
//!   Each cell counts by its closeness to the centre, and by `decay` to the
//!   power of its distance from the side's cells. The value is our share of
//!   the total, after the move's own generation and `look` more generations
//!   of passes.
//! - **Moves**: every kill of an opponent cell; births on the dead cells
//!   next to a living cell, each paired with the cheapest sacrifices (the
//!   own cells whose loss hurts the evaluation least); pass.
//! - **Search**: every candidate is scored; then the best `two` of them are
//!   scored again by the opponent's best reply from its own candidates
//!   (a two-ply minimax), until the soft deadline.
//!
//! It takes no randomness and no playouts: the same position gives the same
//! move.

use std::sync::atomic::AtomicBool;

use super::field::{Field, ROW_MASK};
use super::moves::{Cell, Move, HEIGHT, WIDTH};
use super::GolState;
use crate::search::{Agent, Decision, Limits, Seat};

/// The `control` agent (see the module documentation).
pub struct Control {
    pub look: usize,
    pub decay: f64,
    pub two_ply: usize,
    weights: [f64; 288],
}

impl Control {
    /// `look` pass generations after the move's own, the flood's `decay`
    /// per step, and how many of the best candidates get a two-ply look.
    pub fn new(look: usize, decay: f64, two_ply: usize) -> Self {
        let mut weights = [0.0; 288];
        let max = ((16.0f64 * 16.0) + (18.0 * 18.0)).sqrt();
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                // Distance from the field's centre (8.5, 7.5), the centre of
                // its 180-degree symmetry.
                let d = ((8.5 - x as f64).powi(2) + (7.5 - y as f64).powi(2)).sqrt();
                weights[y * WIDTH + x] = (max - d) / max;
            }
        }
        Control {
            look,
            decay,
            two_ply,
            weights,
        }
    }

    fn wsum(&self, rows: &[u32; HEIGHT]) -> f64 {
        let mut s = 0.0;
        for (y, &r) in rows.iter().enumerate() {
            let mut m = r;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                s += self.weights[y * WIDTH + x];
            }
        }
        s
    }

    /// `me`'s share of the control of `f`, in 0..=1 (1 when only `me` has
    /// living cells, 0 when only the opponent has, 1/2 when nobody has).
    pub fn control(&self, f: &Field, me: Seat) -> f64 {
        let mut a = *f.rows(me);
        let mut b = *f.rows(1 - me);
        let alive_a = a.iter().any(|&r| r != 0);
        let alive_b = b.iter().any(|&r| r != 0);
        match (alive_a, alive_b) {
            (false, false) => return 0.5,
            (false, true) => return 0.0,
            (true, false) => return 1.0,
            _ => {}
        }
        let mut claimed = [0u32; HEIGHT];
        for y in 0..HEIGHT {
            claimed[y] = a[y] | b[y];
        }
        let mut sa = self.wsum(&a);
        let mut sb = self.wsum(&b);
        let mut w = 1.0;
        for _ in 0..12 {
            w *= self.decay;
            let na = dilate(&a, &claimed);
            let nb = dilate(&b, &claimed);
            let mut any = false;
            for y in 0..HEIGHT {
                let both = na[y] & nb[y];
                a[y] = na[y] & !both;
                b[y] = nb[y] & !both;
                claimed[y] |= na[y] | nb[y];
                any |= (na[y] | nb[y]) != 0;
            }
            if !any {
                break;
            }
            sa += w * self.wsum(&a);
            sb += w * self.wsum(&b);
        }
        sa / (sa + sb)
    }

    fn value_after(&self, s: &GolState, mv: Move, me: Seat) -> f64 {
        let mut t = *s;
        t.apply(mv);
        let f = t.field.steps(self.look);
        self.control(&f, me)
    }

    fn candidates(&self, s: &GolState) -> Vec<Move> {
        let me = s.to_move;
        let f = &s.field;
        let mut out = vec![Move::Pass];
        for c in f.living(1 - me) {
            out.push(Move::Kill(c));
        }
        let own: Vec<Cell> = f.living(me).collect();
        if own.len() >= 2 {
            // cheapest sacrifices
            let mut sac: Vec<(f64, Cell)> = own
                .iter()
                .map(|&c| (self.value_after(s, Move::Kill(c), me), c))
                .collect();
            sac.sort_by(|x, y| y.0.total_cmp(&x.0));
            sac.truncate(6);
            let pair = [sac[0].1, sac[1].1];
            let mut births: Vec<(f64, Cell)> = super::best::frontier(f)
                .into_iter()
                .map(|at| {
                    (
                        self.value_after(
                            s,
                            Move::Birth {
                                at,
                                sacrifice: pair,
                            },
                            me,
                        ),
                        at,
                    )
                })
                .collect();
            births.sort_by(|x, y| y.0.total_cmp(&x.0));
            births.truncate(8);
            for (_, at) in births {
                for i in 0..sac.len() {
                    for j in i + 1..sac.len() {
                        out.push(Move::Birth {
                            at,
                            sacrifice: [sac[i].1, sac[j].1],
                        });
                    }
                }
            }
        }
        out.retain(|m| s.is_legal(m));
        out
    }
}

fn dilate(a: &[u32; HEIGHT], claimed: &[u32; HEIGHT]) -> [u32; HEIGHT] {
    let mut out = [0u32; HEIGHT];
    for y in 0..HEIGHT {
        let mut n = (a[y] << 1 | a[y] >> 1) & ROW_MASK;
        if y > 0 {
            n |= a[y - 1];
        }
        if y + 1 < HEIGHT {
            n |= a[y + 1];
        }
        out[y] = n & !claimed[y];
    }
    out
}

impl Agent<GolState> for Control {
    fn name(&self) -> &str {
        "control"
    }
    fn select(&mut self, s: &GolState, limits: &Limits, stop: &AtomicBool) -> Decision<Move> {
        let me = s.to_move;
        let cands = self.candidates(s);
        if cands.is_empty() {
            // Only on a finished game: nothing is legal but the pass.
            return Decision {
                mv: Move::Pass,
                playouts: 0,
                value: None,
            };
        }
        let mut scored: Vec<(f64, Move)> = cands
            .iter()
            .map(|&m| (self.value_after(s, m, me), m))
            .collect();
        scored.sort_by(|x, y| y.0.total_cmp(&x.0));
        let mut best = scored[0];
        if self.two_ply > 0 {
            let mut best2 = (f64::NEG_INFINITY, Move::Pass);
            for &(_, m) in scored.iter().take(self.two_ply) {
                if stop.load(std::sync::atomic::Ordering::Relaxed)
                    || limits.deadline.is_some_and(|d| d.soft_passed())
                {
                    break;
                }
                let mut t = *s;
                t.apply(m);
                if t.outcome().is_some() {
                    let v = self.control(&t.field, me);
                    if v > best2.0 {
                        best2 = (v, m);
                    }
                    continue;
                }
                // opponent's best reply (minimises our control)
                let replies = self.candidates(&t);
                let mut worst = f64::INFINITY;
                for r in replies {
                    let v = self.value_after(&t, r, me);
                    if v < worst {
                        worst = v;
                    }
                }
                if worst > best2.0 {
                    best2 = (worst, m);
                }
            }
            if best2.0 > f64::NEG_INFINITY {
                best = best2;
            }
        }
        Decision {
            mv: best.1,
            playouts: cands.len() as u64,
            value: Some(best.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Outcome;

    fn agent() -> Control {
        Control::new(1, 0.5, 60)
    }

    #[test]
    fn control_is_a_share_and_knows_the_ends() {
        let c = agent();
        let s = GolState::start(3, 100);
        // The start is symmetric: an even share.
        let v = c.control(&s.field, 0);
        assert!((v - 0.5).abs() < 1e-9, "{v}");
        assert!((c.control(&s.field, 0) + c.control(&s.field, 1) - 1.0).abs() < 1e-9);
        let only0 = Field::from_rows(*s.field.rows(0), [0; HEIGHT]).unwrap();
        assert_eq!(c.control(&only0, 0), 1.0);
        assert_eq!(c.control(&only0, 1), 0.0);
        assert_eq!(c.control(&Field::empty(), 0), 0.5);
    }

    #[test]
    fn plays_legal_moves_to_the_end_and_is_deterministic() {
        let stop = AtomicBool::new(false);
        let limits = Limits::playouts(1);
        for seed in 0..3 {
            let mut a = agent();
            let mut s = GolState::start(seed, 30);
            let mut moves = Vec::new();
            while s.outcome().is_none() {
                let d = a.select(&s, &limits, &stop);
                assert!(s.is_legal(&d.mv), "{:?}", d.mv);
                moves.push(d.mv);
                s.apply(d.mv);
            }
            // The same game again, move for move.
            let mut b = agent();
            let mut t = GolState::start(seed, 30);
            for m in &moves {
                assert_eq!(b.select(&t, &limits, &stop).mv, *m);
                t.apply(*m);
            }
        }
    }

    #[test]
    fn beats_the_seeds_ai3() {
        let stop = AtomicBool::new(false);
        let limits = Limits::playouts(50);
        let mut score = 0.0;
        for g in 0..4u64 {
            let mut a = agent();
            let mut b = super::super::agents::build("ai3", &Default::default(), g).unwrap();
            let mut s = GolState::start(g / 2, 100);
            let me = (g % 2) as Seat;
            while s.outcome().is_none() {
                let d = if s.to_move == me {
                    a.select(&s, &limits, &stop).mv
                } else {
                    b.select(&s, &limits, &stop).mv
                };
                s.apply(d);
            }
            score += s.outcome().unwrap().reward_for(me, 0.5);
            assert_ne!(s.outcome(), Some(Outcome::Win(1 - me)), "game {g}");
        }
        assert_eq!(score, 4.0);
    }
}
