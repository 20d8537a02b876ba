//! Number formatting for display: the one place that turns a core number
//! into the text shown (a missing value is an em dash, never 0).

/// Format a number for display; `None` is an em dash.
pub fn fmt(value: Option<f64>, decimals: usize) -> String {
    match value {
        Some(v) => {
            let s = format!("{v:.decimals$}");
            // "-0.00" reads as a sign error; show it as zero.
            if s.trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                s.trim_start_matches('-').to_string()
            } else {
                s.replace('-', "−")
            }
        }
        None => "—".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(fmt(Some(-3.24), 2), "−3.24");
        assert_eq!(fmt(Some(-0.001), 2), "0.00");
        assert_eq!(fmt(None, 2), "—");
    }
}
