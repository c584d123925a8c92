//! Captures that count the risk (issue 60): with three of the opponent's
//! reds already taken, taking a fourth ends the game, so a capture is only
//! as good as the chance that the piece is blue. The search values it with
//! the belief's chance, and against a stranger that chance is the least
//! reliable number it has (issue 50: 60 of 61 first games lost to
//! Naotti-2020 ended on `best` taking the fourth red). `doubt` shrinks the
//! belief's confidence that the piece is blue toward an even chance before
//! the root's capture of an unknown piece is compared with the other moves:
//! a capture valued `v` with blue chance `p` (`v` = `p` times its value when
//! blue, a red being a loss) is valued `v * p' / p`, `p' = 1/2 + (1 -
//! doubt) (p - 1/2)` for `p` above 1/2. Lower chances are left alone (the
//! search already fears them), as are captures of pieces whose colour is
//! known and every move before the third red.

use super::super::rules::{step, Colour, Move, PIECES};
use super::super::view::View;

/// A root move with its visits and summed reward.
pub type RootStat = (Move, u32, f64);

/// The share of the most visited move's visits a root move needs for its
/// mean to be compared.
pub const MIN_SHARE: f64 = 0.2;

/// The opponent piece `mv` would take, if its colour is unknown.
pub fn unknown_target(view: &View, mv: Move) -> Option<u8> {
    let from = view.own(mv.piece).square()?;
    let to = step(from, mv.dir, 0)?;
    let q = view.opp_at(to)?;
    view.opp_colour(q).is_none().then_some(q)
}

/// The move to play instead of `chosen` (the most visited), given the
/// root's statistics, the belief's blue chance of each opponent piece and
/// `doubt` in 0..=1 (0: `chosen`, always).
pub fn reconsider(
    view: &View,
    chosen: Move,
    root: &[RootStat],
    blue: &[f64; PIECES],
    doubt: f64,
) -> Move {
    if doubt <= 0.0 || view.opp_captured(Colour::Red) < 3 {
        return chosen;
    }
    let doubt = doubt.min(1.0);
    let top = root.iter().map(|r| r.1).max().unwrap_or(0);
    let floor = MIN_SHARE * f64::from(top);
    let value = |&(mv, visits, reward): &RootStat| {
        let mean = reward / f64::from(visits.max(1));
        match unknown_target(view, mv) {
            Some(q) if blue[q as usize] > 0.5 => {
                let p = blue[q as usize];
                mean * (0.5 + (1.0 - doubt) * (p - 0.5)) / p
            }
            _ => mean,
        }
    };
    // Only a doubted capture gives way: the most visited move keeps its
    // place unless the risk counted is what makes another better.
    let Some(c) = root.iter().find(|r| r.0 == chosen) else {
        return chosen;
    };
    let counted = value(c);
    if counted >= c.2 / f64::from(c.1.max(1)) {
        return chosen;
    }
    let mut best: Option<(Move, f64)> = None;
    for r in root
        .iter()
        .filter(|r| r.0 != chosen && r.1 > 0 && f64::from(r.1) >= floor)
    {
        let v = value(r);
        if best.is_none_or(|(_, bv)| v > bv) {
            best = Some((r.0, v));
        }
    }
    match best {
        Some((mv, v)) if v > counted => mv,
        _ => chosen,
    }
}

/// The least and most blue chance a capture's record is scored with (a
/// belief sure either way would end the calibration on one capture).
const CLAMP: f64 = 0.05;

/// How far this game's captures say the belief can be trusted
/// ([`super::search::TreeConfig::trust`]): two accounts of each capture of
/// a piece of unknown colour, the belief's blue chance `p` and the count's
/// `p0`, are scored on the colour the piece turned out to be; the trust is
/// the posterior of the belief's account, from a first-game prior. Against
/// an opponent whose moves mean what the belief reads, each capture raises
/// it; against one that baits with pieces the belief reads as blue, each
/// red taken lowers it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibration {
    /// Summed log-likelihood ratio of the belief's account over the count's.
    evidence: f64,
    /// Captures scored so far.
    scored: u32,
    /// The piece our last move took, with `p` and `p0` then, until its
    /// colour shows.
    pending: Option<(u8, f64, f64)>,
}

impl Calibration {
    /// A new game: nothing known.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Our move takes the opponent's piece `q` (colour unknown), which the
    /// belief gives blue chance `p` and the count `p0`.
    pub fn took(&mut self, q: u8, p: f64, p0: f64) {
        self.pending = Some((q, p, p0));
    }

    /// Our turn: the colour of the piece our last move took shows on the
    /// board; it is scored.
    pub fn observe(&mut self, view: &View) {
        let Some((q, p, p0)) = self.pending.take() else {
            return;
        };
        let Some(c) = view.opp_colour(q) else {
            return;
        };
        let (p, p0) = (p.clamp(CLAMP, 1.0 - CLAMP), p0.clamp(CLAMP, 1.0 - CLAMP));
        self.evidence += match c {
            Colour::Blue => (p / p0).ln(),
            Colour::Red => ((1.0 - p) / (1.0 - p0)).ln(),
        };
        self.scored += 1;
    }

    /// The captures scored this game.
    pub fn scored(&self) -> u32 {
        self.scored
    }

    /// The trust now, from the first-game trust `prior` in 0..=1 (1: the
    /// belief as it is, whatever happens; 0: never).
    pub fn trust(&self, prior: f64) -> f64 {
        if prior >= 1.0 || prior <= 0.0 {
            return prior.clamp(0.0, 1.0);
        }
        let logit = (prior / (1.0 - prior)).ln() + self.evidence;
        1.0 / (1.0 + (-logit).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::geister::rules::Dir;

    // Our A on (2,2) faces the opponent's piece on (2,1); our B on (4,4)
    // may step aside. Three of the opponent's reds are taken (the last
    // three pieces, `r` on the board string's captured squares).
    const BOARD: &str = "22R44R34R14R15B25B35B45B21u31u41u11u40u99r99r99r";

    fn view() -> View {
        View::from_gat(BOARD).unwrap()
    }

    #[test]
    fn with_three_reds_taken_a_doubted_capture_gives_way() {
        let v = view();
        assert_eq!(v.opp_captured(Colour::Red), 3, "{BOARD}");
        let take = Move::new(0, Dir::N);
        assert_eq!(unknown_target(&v, take), Some(0));
        let aside = Move::new(1, Dir::N);
        assert_eq!(unknown_target(&v, aside), None);
        // The capture: most visited, mean 0.72 at a blue chance of 0.8
        // (0.9 when blue); stepping aside 0.6.
        let root = [(take, 600, 432.0), (aside, 300, 180.0)];
        let mut blue = [0.0; PIECES];
        blue[0] = 0.8;
        assert_eq!(reconsider(&v, take, &root, &blue, 0.0), take);
        // doubt 0.5: p' = 0.65, the capture worth 0.585 < 0.6.
        assert_eq!(reconsider(&v, take, &root, &blue, 0.5), aside);
        // doubt 0.25: p' = 0.725, worth 0.6525: it stays.
        assert_eq!(reconsider(&v, take, &root, &blue, 0.25), take);
        // A move searched too little is not compared.
        let thin = [(take, 600, 432.0), (aside, 100, 60.0)];
        assert_eq!(reconsider(&v, take, &thin, &blue, 0.5), take);
        // A piece the belief already thinks red is the search's business.
        blue[0] = 0.4;
        let root = [(take, 600, 0.4 * 600.0 * 0.9), (aside, 300, 180.0)];
        assert_eq!(reconsider(&v, take, &root, &blue, 1.0), take);
    }

    #[test]
    fn each_capture_moves_the_trust_toward_the_account_that_called_its_colour() {
        // Our A took the opponent's `a` (now captured, shown red).
        let red = View::from_gat("21R44R34R14R15B25B35B45B99r31u41u11u40u50u01u99b").unwrap();
        assert_eq!(red.opp_colour(0), Some(Colour::Red));
        let mut c = Calibration::default();
        assert_eq!(c.trust(0.5), 0.5);
        // The belief said 0.8 blue, the count 0.5: a red says the count was right.
        c.took(0, 0.8, 0.5);
        c.observe(&red);
        assert_eq!(c.scored(), 1);
        let after_red = c.trust(0.5);
        assert!((after_red - 0.2 / (0.2 + 0.5)).abs() < 1e-9, "{after_red}");
        // A blue the belief called (0.8) raises it again.
        let blue = View::from_gat("21R44R34R14R15B25B35B45B99r99b41u11u40u50u01u31u").unwrap();
        c.took(1, 0.8, 0.5);
        c.observe(&blue);
        assert!(c.trust(0.5) > after_red);
        // The ends stay put, and a new game forgets.
        assert_eq!((c.trust(1.0), c.trust(0.0)), (1.0, 0.0));
        c.reset();
        assert_eq!(c.scored(), 0);
        assert!((c.trust(0.3) - 0.3).abs() < 1e-12);
        // A piece whose colour does not show yet is not scored.
        c.took(2, 0.8, 0.5);
        c.observe(&blue);
        assert_eq!(c.scored(), 0);
    }

    #[test]
    fn before_the_third_red_nothing_changes() {
        // The same position with only two reds taken.
        let v = View::from_gat("22R44R34R14R15B25B35B45B21u31u41u11u40u50u99r99r").unwrap();
        assert_eq!(v.opp_captured(Colour::Red), 2);
        let take = Move::new(0, Dir::N);
        let aside = Move::new(1, Dir::N);
        let root = [(take, 600, 432.0), (aside, 300, 180.0)];
        let mut blue = [0.0; PIECES];
        blue[0] = 0.8;
        assert_eq!(reconsider(&v, take, &root, &blue, 1.0), take);
    }
}
