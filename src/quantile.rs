//! Nearest-rank percentiles, shared by every report of move times.

/// The nearest-rank `p`-quantile (`p` in 0..=1) of the ascending `sorted`;
/// `None` when it is empty.
pub fn nearest_rank<T: Copy>(sorted: &[T], p: f64) -> Option<T> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let rank = ((p * n as f64).ceil() as usize).clamp(1, n);
    Some(sorted[rank - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_by_the_definition() {
        assert_eq!(nearest_rank::<u64>(&[], 0.5), None);
        assert_eq!(nearest_rank(&[7u64], 0.999), Some(7));
        let xs: Vec<u64> = (1..=200).collect();
        // ceil(0.99 * 200) = 198th value; ceil(0.5 * 200) = 100th.
        assert_eq!(nearest_rank(&xs, 0.99), Some(198));
        assert_eq!(nearest_rank(&xs, 0.5), Some(100));
        assert_eq!(nearest_rank(&xs, 0.0), Some(1));
        assert_eq!(nearest_rank(&xs, 1.0), Some(200));
    }
}
