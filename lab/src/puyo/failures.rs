//! Why a one-player build fell short (issue 49): a run's fields, one per
//! move, read for the chain the field held ([`potential`]), the losing
//! column, the room left and the puyos outside the chain, and the run put
//! in one category. Pure: the lab feeds it the fields.

use serde::Serialize;

use ladderbot::games::puyo::best::eval::potential;
use ladderbot::games::puyo::board::{Board, CELLS, DEATH_COL};

/// Puyos a trigger may need when the potential chain is read.
const NEED: u8 = 2;
/// Empty cells at or below which a field counts as full.
pub const FULL_AT: u32 = 10;
/// Rows of the losing column from which it counts as too tall (Tsu loses
/// at twelve).
pub const TALL_AT: usize = 10;
/// A fall of the potential chain this many links or more, in one move,
/// after which the run never held as long a chain again, is a broken
/// build.
pub const BROKEN_DROP: u8 = 3;

/// What one field of a run held.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct FieldNote {
    /// The longest chain one or two puyos dropped on a column start.
    pub potential: u8,
    /// Rows of the losing column (Tsu's third).
    pub tall: u8,
    /// Empty cells (the hidden row included).
    pub empty: u32,
    /// Puyos outside the potential chain.
    pub waste: u32,
}

impl FieldNote {
    pub fn of(b: &Board) -> Self {
        let p = potential(b, NEED);
        FieldNote {
            potential: p.links,
            tall: b.height(DEATH_COL) as u8,
            empty: CELLS as u32 - b.count(),
            waste: p.waste(b),
        }
    }
}

/// Why a run fell short (the first that applies, in this order).
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The field was lost before any chain was fired.
    Died,
    /// The field held a chain at least [`BROKEN_DROP`] links longer than
    /// the one fired, and one move took it away (a trigger buried, a link
    /// cut) for good.
    Broken,
    /// The losing column reached [`TALL_AT`] rows while the field still
    /// had more than [`FULL_AT`] empty cells: fired (or died) for want of
    /// that column.
    Tall,
    /// The field filled up (at most [`FULL_AT`] empty cells) before the
    /// chain was long enough: too many puyos outside it.
    Full,
    /// None of these: fired short with room left and the chain never
    /// longer (the search chose to).
    Early,
}

impl Failure {
    pub const ALL: [Failure; 5] = [
        Failure::Died,
        Failure::Broken,
        Failure::Tall,
        Failure::Full,
        Failure::Early,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Failure::Died => "died",
            Failure::Broken => "broken",
            Failure::Tall => "tall",
            Failure::Full => "full",
            Failure::Early => "early",
        }
    }
}

/// A run read for its failure.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Diagnosis {
    /// Links fired (0: none).
    pub chain: u8,
    /// The longest potential chain any field of the run held, and the
    /// move (1-based) after which it first did.
    pub peak: u8,
    pub peak_move: u32,
    /// The largest fall of the potential chain in one move, and the move.
    pub worst_drop: u8,
    pub drop_move: u32,
    /// The field before the firing move (or the last one).
    pub last: Option<FieldNote>,
    pub failure: Failure,
}

/// Reads a run: `fields[k]` is the field after move k+1, `fired` the
/// links of the final chain (0 when none was fired); `fields` ends with
/// the field before the firing move when one was fired.
pub fn diagnose(fields: &[FieldNote], fired: u8) -> Diagnosis {
    let mut d = Diagnosis {
        chain: fired,
        peak: 0,
        peak_move: 0,
        worst_drop: 0,
        drop_move: 0,
        last: fields.last().copied(),
        failure: Failure::Early,
    };
    for (k, f) in fields.iter().enumerate() {
        if f.potential > d.peak {
            d.peak = f.potential;
            d.peak_move = k as u32 + 1;
        }
        if k > 0 {
            let drop = fields[k - 1].potential.saturating_sub(f.potential);
            if drop > d.worst_drop {
                d.worst_drop = drop;
                d.drop_move = k as u32 + 1;
            }
        }
    }
    // The fall that broke the build: the last one of BROKEN_DROP or more
    // from a chain longer than any held after it.
    let broken = fields.windows(2).enumerate().any(|(k, w)| {
        let drop = w[0].potential.saturating_sub(w[1].potential);
        let after = fields[k + 1..]
            .iter()
            .map(|f| f.potential)
            .max()
            .unwrap_or(0);
        drop >= BROKEN_DROP && w[0].potential > after && w[0].potential >= fired + BROKEN_DROP
    });
    d.failure = if fired == 0 {
        Failure::Died
    } else if broken {
        Failure::Broken
    } else {
        match d.last {
            Some(l) if l.tall as usize >= TALL_AT && l.empty > FULL_AT => Failure::Tall,
            Some(l) if l.empty <= FULL_AT => Failure::Full,
            _ => Failure::Early,
        }
    };
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(potential: u8, tall: u8, empty: u32) -> FieldNote {
        FieldNote {
            potential,
            tall,
            empty,
            waste: 0,
        }
    }

    #[test]
    fn each_category_is_told_by_its_own_sign() {
        // Never fired: died.
        assert_eq!(diagnose(&[note(3, 11, 30)], 0).failure, Failure::Died);
        // Held 11, one move took 5 away, fired 6: broken.
        let broken = [
            note(9, 4, 40),
            note(11, 5, 36),
            note(6, 5, 34),
            note(7, 6, 30),
        ];
        let d = diagnose(&broken, 6);
        assert_eq!(d.failure, Failure::Broken);
        assert_eq!(
            (d.peak, d.peak_move, d.worst_drop, d.drop_move),
            (11, 2, 5, 3)
        );
        // The same fall, but the chain came back to 11 later: not broken.
        let back = [note(11, 5, 36), note(6, 5, 34), note(11, 10, 20)];
        assert_eq!(diagnose(&back, 11).failure, Failure::Tall);
        // Column 3 ten high with room elsewhere: tall.
        assert_eq!(diagnose(&[note(8, 10, 20)], 8).failure, Failure::Tall);
        // The field full: full.
        assert_eq!(diagnose(&[note(9, 9, 8)], 9).failure, Failure::Full);
        // Room left, column 3 low, nothing lost: early.
        assert_eq!(diagnose(&[note(9, 6, 30)], 9).failure, Failure::Early);
    }

    #[test]
    fn a_field_note_reads_the_chain_the_column_and_the_waste() {
        // Three reds on the left and a green beside: one red starts one
        // link; the green is outside it.
        let b = Board::from_rows(&["R.....", "R.....", "RG...."]).unwrap();
        let n = FieldNote::of(&b);
        assert_eq!(n.potential, 1);
        assert_eq!(n.tall, 0);
        assert_eq!(n.empty, CELLS as u32 - 4);
        assert_eq!(n.waste, 1);
    }
}
