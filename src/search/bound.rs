//! Alpha-beta bounds, written once for every game's table: what a
//! fail-soft search result says of the true value, and whether a stored
//! one settles a window.

/// How a value found under a window bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least this (a cut).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

impl Bound {
    /// What `value`, searched with the window `(alpha, beta)`, says of the
    /// true value.
    pub fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// Whether a stored `value` with this bound answers the window
    /// `(alpha, beta)` without searching.
    pub fn cuts(self, value: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Bound;

    #[test]
    fn a_result_bounds_by_its_window_and_a_bound_cuts_only_its_side() {
        assert_eq!(Bound::of(-5, -5, 5), Bound::Upper);
        assert_eq!(Bound::of(5, -5, 5), Bound::Lower);
        assert_eq!(Bound::of(0, -5, 5), Bound::Exact);
        assert!(Bound::Lower.cuts(7, 0, 5));
        assert!(!Bound::Lower.cuts(3, 0, 5));
        assert!(Bound::Upper.cuts(0, 0, 5));
        assert!(!Bound::Upper.cuts(1, 0, 5));
        assert!(Bound::Exact.cuts(3, 0, 1));
    }
}
