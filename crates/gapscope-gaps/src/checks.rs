//! Warnings about a profile table that is readable but hostile to the
//! analysis (docs/limits.md, "Hostile inputs"): a constant column, more
//! dimensions than models, a reward column that mixes fractions with percent.
//! None of them changes a number; each is said in the report's `warnings`.

use gapscope_data::profile::{Block, ProfileTable};

/// The warnings of [`crate::analysis::analyze`] about the table itself.
pub fn table_warnings(table: &ProfileTable) -> Vec<String> {
    let mut out = Vec::new();
    let n = table.n_models();
    let constant = |values: Vec<Option<f64>>| -> Option<f64> {
        let present: Vec<f64> = values.into_iter().flatten().collect();
        (present.len() >= 2 && gapscope_stats::summary::is_constant(&present)).then(|| present[0])
    };
    let blocks: [(&Block, &str); 2] = [
        (&table.foundational, "foundational dimension"),
        (&table.operations, "operation"),
    ];
    for (block, what) in blocks {
        for (j, name) in block.names.iter().enumerate() {
            if let Some(v) = constant(block.column(j)) {
                out.push(format!(
                    "{what} {name}: every model with a value has {v}; a constant column has no correlation (—) and no weight in any fit"
                ));
            }
        }
    }
    if let Some(v) = table.reward.clone().and_then(constant) {
        out.push(format!(
            "reward: every model with a value has {v}; correlations and Q² of reward prediction are undefined (—)"
        ));
    }
    let p = table.foundational.names.len();
    let q = table.operations.names.len();
    if p >= n && n > 0 {
        out.push(format!(
            "{p} foundational dimensions for {n} models: with at least as many dimensions as models only the ridge penalty makes the fit unique; held-out predictions lean on alpha"
        ));
    } else if table.reward.is_some() && p + q >= n && n > 0 {
        out.push(format!(
            "{} predictors (F+O) for {n} models: with at least as many predictors as models only the ridge penalty makes the reward fit unique",
            p + q
        ));
    }
    if let (Some(r), false) = (&table.reward, table.reward_scaled) {
        let fraction = table
            .models
            .iter()
            .zip(r)
            .find(|(_, v)| v.is_some_and(|v| v > 0.0 && v < 1.0));
        let max = r
            .iter()
            .flatten()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        if let (Some((model, Some(v))), true) = (fraction, max > 1.0) {
            out.push(format!(
                "reward: {v} (model {model}) lies between 0 and 1 while others reach {max}; every value is read on 0–100, so {v} means {v}%; if some values are fractions, put the column on one scale (or give the reward scale)"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gapscope_data::profile::RoleOverrides;

    fn table(csv: &str) -> ProfileTable {
        ProfileTable::read(csv, &RoleOverrides::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_clean_table_has_no_warning() {
        let t = table("model,family,TU,GI,reward\na,A,1,2,0.5\nb,B,2,1,0.25\nc,C,3,5,1\n");
        assert_eq!(table_warnings(&t), Vec::<String>::new());
    }

    #[test]
    fn constant_columns_are_named_missing_cells_aside() {
        // TU is 7 wherever present (c is missing; 7e0 is 7); GI varies; reward is 40 for all.
        let t =
            table("model,family,TU,GI,reward\na,A,7,2,40\nb,B,7,1,40\nc,C,,5,40\nd,D,7e0,3,40\n");
        let w = table_warnings(&t);
        assert!(
            w.iter().any(
                |s| s.starts_with("foundational dimension TU: every model with a value has 7;")
            ),
            "{w:?}"
        );
        assert!(
            w.iter()
                .any(|s| s.starts_with("reward: every model with a value has 40;")),
            "{w:?}"
        );
        assert!(!w.iter().any(|s| s.contains("GI")), "{w:?}");
    }

    #[test]
    fn more_dimensions_than_models() {
        let t = table("model,family,TU,IS,KU,GI\na,A,1,2,3,1\nb,B,2,1,5,2\nc,C,3,5,1,0\n");
        assert_eq!(
            table_warnings(&t),
            vec!["3 foundational dimensions for 3 models: with at least as many dimensions as models only the ridge penalty makes the fit unique; held-out predictions lean on alpha".to_string()]
        );
    }

    #[test]
    fn a_fraction_among_percent_is_named() {
        // 0.41 cannot be scaled with 47 in the column: auto reads percent.
        let t =
            table("model,family,TU,GI,reward\na,A,1,2,0.41\nb,B,2,1,47\nc,C,3,5,60\nd,D,4,5,0\n");
        assert!(!t.reward_scaled);
        let w = table_warnings(&t);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("reward: 0.41 (model a) lies between 0 and 1 while others reach 60;"),
            "{w:?}"
        );
        // All fractions: scaled by 100, nothing to say.
        let t = table("model,family,TU,GI,reward\na,A,1,2,0.41\nb,B,2,1,0.47\nc,C,3,5,1\n");
        assert!(t.reward_scaled);
        assert!(table_warnings(&t).is_empty());
    }
}
