//! Descriptive statistics used everywhere: means, population variance, average
//! ranks, Pearson and Spearman correlation with pairwise deletion.
//!
//! Undefined stays undefined: a correlation over fewer than three pairs, or with
//! a constant variable, is `None`, never 0.

/// Minimum number of complete pairs for a correlation to be reported.
pub const MIN_PAIRS: usize = 3;

/// Arithmetic mean; `None` for an empty slice.
pub fn mean(x: &[f64]) -> Option<f64> {
    if x.is_empty() {
        return None;
    }
    Some(x.iter().sum::<f64>() / x.len() as f64)
}

/// Population variance (divides by n) around the given mean.
pub fn population_variance(x: &[f64], mean: f64) -> f64 {
    if x.is_empty() {
        return 0.0;
    }
    x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / x.len() as f64
}

/// Whether every value is the same (exact equality; an empty slice is constant).
///
/// Constancy is decided on the values, not on a computed variance: the mean of
/// n identical values can differ from them by an ulp, leaving a variance of
/// ~1e-30 instead of 0, while values that differ at all have a real variance.
pub fn is_constant(x: &[f64]) -> bool {
    x.windows(2).all(|w| w[0] == w[1])
}

/// The pairs of `x` and `y` where both are present, as two aligned vectors.
pub fn complete_pairs(x: &[Option<f64>], y: &[Option<f64>]) -> (Vec<f64>, Vec<f64>) {
    x.iter()
        .zip(y)
        .filter_map(|(a, b)| match (a, b) {
            (Some(a), Some(b)) => Some((*a, *b)),
            _ => None,
        })
        .unzip()
}

/// Pearson correlation of two complete, equally long samples.
///
/// `None` when n < [`MIN_PAIRS`] or either variable is constant. The result is
/// clamped to [-1, 1] against rounding.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    if n != y.len() || n < MIN_PAIRS {
        return None;
    }
    if is_constant(x) || is_constant(y) {
        return None;
    }
    let mx = mean(x)?;
    let my = mean(y)?;
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    let syy: f64 = y.iter().map(|b| (b - my) * (b - my)).sum();
    let r = sxy / (sxx.sqrt() * syy.sqrt());
    r.is_finite().then(|| r.clamp(-1.0, 1.0))
}

/// Ranks 1..n with ties given the average of the ranks they span
/// (scipy's `rankdata(method="average")`). NaN-free input is assumed.
pub fn average_ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut ranks = vec![0.0; x.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && x[order[end]] == x[order[start]] {
            end += 1;
        }
        // Positions start..end (0-based) share ranks start+1 ..= end.
        let avg = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = avg;
        }
        start = end;
    }
    ranks
}

/// Spearman's rho: Pearson correlation of average ranks.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < MIN_PAIRS {
        return None;
    }
    pearson(&average_ranks(x), &average_ranks(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_average_ties_like_scipy() {
        // scipy.stats.rankdata([10, 20, 20, 5, 20]) == [2, 4, 4, 1, 4]
        assert_eq!(
            average_ranks(&[10.0, 20.0, 20.0, 5.0, 20.0]),
            vec![2.0, 4.0, 4.0, 1.0, 4.0]
        );
        assert_eq!(average_ranks(&[3.0, 1.0, 2.0]), vec![3.0, 1.0, 2.0]);
        assert!(average_ranks(&[]).is_empty());
    }

    #[test]
    fn pearson_by_hand() {
        // x = 1,2,3,4 ; y = 2,4,5,9: mx = 2.5, my = 5,
        // sxy = (-1.5)(-3)+(-0.5)(-1)+(0.5)(0)+(1.5)(4) = 4.5+0.5+0+6 = 11
        // sxx = 5, syy = 9+1+0+16 = 26, r = 11/sqrt(130)
        let r = pearson(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 5.0, 9.0]).unwrap();
        assert!((r - 11.0 / 130f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn spearman_with_ties_by_hand() {
        // x ranks: 1, 2.5, 2.5, 4 ; y ranks: 1, 2, 3, 4
        // mean 2.5 each; dx = -1.5, 0, 0, 1.5 ; dy = -1.5, -0.5, 0.5, 1.5
        // sxy = 2.25 + 0 + 0 + 2.25 = 4.5 ; sxx = 4.5 ; syy = 5  => 4.5 / sqrt(22.5)
        let rho = spearman(&[1.0, 2.0, 2.0, 3.0], &[10.0, 20.0, 30.0, 40.0]).unwrap();
        assert!((rho - 4.5 / 22.5f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn undefined_stays_undefined() {
        assert_eq!(pearson(&[1.0, 2.0], &[1.0, 2.0]), None);
        assert_eq!(pearson(&[0.1, 0.1, 0.1, 0.1], &[1.0, 2.0, 3.0, 4.0]), None);
        assert_eq!(spearman(&[5.0, 5.0, 5.0], &[1.0, 2.0, 3.0]), None);
        let (a, b) = complete_pairs(
            &[Some(1.0), None, Some(3.0), Some(4.0)],
            &[Some(1.0), Some(2.0), None, Some(4.0)],
        );
        assert_eq!((a.len(), pearson(&a, &b)), (2, None));
    }

    #[test]
    fn constant_detection_survives_rounding() {
        let x = [0.1, 0.1, 0.1];
        // The computed variance is not exactly 0 ...
        let m = mean(&x).unwrap();
        assert!(population_variance(&x, m) > 0.0 || m != 0.1);
        // ... but the column is constant.
        assert!(is_constant(&x));
        assert!(!is_constant(&[73.0, 73.0 + 1e-9, 73.0]));
        assert!(is_constant(&[]));
    }
}
