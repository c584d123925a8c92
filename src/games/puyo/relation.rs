//! Relation matrices (the seed, chapter 3), on any board of `n` cells.
//!
//! - The **state matrix** `S` (n x n): `S_ij = +1` when cells `i` and `j`
//!   hold the same kind, `-1` different kinds, `0` when either is empty;
//!   symmetric, the diagonal counts.
//! - A **template matrix** `T` (n x n, real): `T_ij > 0` when `i` and `j`
//!   should hold the same colour, `< 0` when they should differ, `0` when
//!   either is fine; the magnitude is a priority weight.
//! - The **match score**: `-inf` when any `S_ij T_ij < 0` (a contradiction
//!   is fatal), else `sum S_ij T_ij / sum |T_ij|`, so a completed template
//!   scores 1.
//!
//! These dense forms are the definition. The agents use
//! [`Matcher`](super::template::Matcher), which gives the same scores from
//! per-label counts (a test checks it against [`match_score`]).

/// The state matrix of a board given as its cells' kinds (`None` empty),
/// row-major n x n.
pub fn state_matrix(cells: &[Option<u8>]) -> Vec<i8> {
    let n = cells.len();
    let mut s = vec![0i8; n * n];
    for i in 0..n {
        for j in 0..n {
            s[i * n + j] = match (cells[i], cells[j]) {
                (Some(a), Some(b)) if a == b => 1,
                (Some(_), Some(_)) => -1,
                _ => 0,
            };
        }
    }
    s
}

/// The match score of state matrix `s` against template matrix `t` (both
/// n x n, row-major): `-inf` on any contradiction.
pub fn match_score(s: &[i8], t: &[f64]) -> f64 {
    assert_eq!(s.len(), t.len(), "matrices of different sizes");
    let mut num = 0.0;
    let mut den = 0.0;
    for (&sij, &tij) in s.iter().zip(t) {
        let p = sij as f64 * tij;
        if p < 0.0 {
            return f64::NEG_INFINITY;
        }
        num += p;
        den += tij.abs();
    }
    if den == 0.0 {
        0.0
    } else {
        num / den
    }
}

/// A template matrix from groups of cells that should share a colour, every
/// two groups differing, all with weight `w` (the seed's 2x3 example).
pub fn groups_template(n: usize, groups: &[&[usize]], w: f64) -> Vec<f64> {
    let mut group = vec![None; n];
    for (g, cells) in groups.iter().enumerate() {
        for &c in cells.iter() {
            group[c] = Some(g);
        }
    }
    let mut t = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            t[i * n + j] = match (group[i], group[j]) {
                (Some(a), Some(b)) if a == b => w,
                (Some(_), Some(_)) => -w,
                _ => 0.0,
            };
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's worked example (section 3.4): a 2 x 3 board, cells 1, 2
    /// and 6 one colour, cell 4 another, 3 and 5 empty; the template "1, 2,
    /// 5, 6 same; 3, 4 same", weights 10: 160 / 360 = 0.44.
    #[test]
    fn the_seeds_two_by_three_example_scores_0_44() {
        let cells = [Some(0), Some(0), None, Some(1), None, Some(0)];
        let s = state_matrix(&cells);
        assert_eq!(&s[..6], &[1, 1, 0, -1, 0, 1]);
        let t = groups_template(6, &[&[0, 1, 4, 5], &[2, 3]], 10.0);
        let score = match_score(&s, &t);
        assert!((score - 160.0 / 360.0).abs() < 1e-12, "{score}");
        assert_eq!(format!("{score:.2}"), "0.44");
        // A contradiction is fatal: cell 3 takes cell 1's colour.
        let cells = [Some(0), Some(0), Some(0), Some(1), None, Some(0)];
        assert_eq!(match_score(&state_matrix(&cells), &t), f64::NEG_INFINITY);
        // The completed template scores 1.
        let cells = [Some(2), Some(2), Some(3), Some(3), Some(2), Some(2)];
        assert!((match_score(&state_matrix(&cells), &t) - 1.0).abs() < 1e-12);
    }
}
