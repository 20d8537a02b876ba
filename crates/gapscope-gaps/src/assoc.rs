//! Association sensitivity for one (foundational dimension, operation) pair
//! (spec: realization-gaps.md, "Association sensitivity"; paper D.3, Fig. 6):
//! Pearson and Spearman under every specification, with the models counted.

use serde::{Deserialize, Serialize};

use gapscope_data::profile::ProfileTable;
use gapscope_stats::heldout::reference::distinct_in_order;
use gapscope_stats::summary;

/// One specification's correlations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Specification {
    /// E.g. "all models", "without Anthropic", "within-family centred".
    pub label: String,
    pub pearson: Option<f64>,
    pub spearman: Option<f64>,
    /// Models included (complete pairs).
    pub n: usize,
}

/// Every specification for one pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AssociationSensitivity {
    pub foundational: String,
    pub operation: String,
    pub all: Specification,
    /// Each family removed in turn, in order of first appearance.
    pub family_removed: Vec<Specification>,
    /// The provider the user named, removed (also among `family_removed`).
    pub provider_removed: Option<Specification>,
    /// Each variable minus its family mean; single-model families drop out.
    pub family_centred: Specification,
}

/// Why a sensitivity analysis could not be run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AssocError {
    #[error("no foundational dimension `{0}` (the data has: {1})")]
    UnknownFoundational(String, String),
    #[error("no operation `{0}` (the data has: {1})")]
    UnknownOperation(String, String),
    #[error("no family `{0}` to remove (the families are: {1})")]
    UnknownProvider(String, String),
}

fn spec(label: String, x: &[Option<f64>], y: &[Option<f64>]) -> Specification {
    let (a, b) = summary::complete_pairs(x, y);
    Specification {
        label,
        pearson: summary::pearson(&a, &b),
        spearman: summary::spearman(&a, &b),
        n: a.len(),
    }
}

/// Run every specification for `(foundational, operation)`; `provider` names a
/// family to report removed on its own line.
pub fn association_sensitivity(
    table: &ProfileTable,
    foundational: &str,
    operation: &str,
    provider: Option<&str>,
) -> Result<AssociationSensitivity, AssocError> {
    let j = table
        .foundational
        .names
        .iter()
        .position(|n| n == foundational)
        .ok_or_else(|| {
            AssocError::UnknownFoundational(
                foundational.into(),
                table.foundational.names.join(", "),
            )
        })?;
    let k = table
        .operations
        .names
        .iter()
        .position(|n| n == operation)
        .ok_or_else(|| {
            AssocError::UnknownOperation(operation.into(), table.operations.names.join(", "))
        })?;
    let families = distinct_in_order(&table.families);
    if let Some(p) = provider {
        if !families.iter().any(|f| *f == p) {
            return Err(AssocError::UnknownProvider(
                p.into(),
                families
                    .iter()
                    .map(|f| f.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            ));
        }
    }
    let x = table.foundational.column(j);
    let y = table.operations.column(k);
    let without = |fam: &str| -> Specification {
        let keep = |v: &[Option<f64>]| -> Vec<Option<f64>> {
            v.iter()
                .zip(&table.families)
                .map(|(v, f)| if f == fam { None } else { *v })
                .collect()
        };
        spec(format!("without {fam}"), &keep(&x), &keep(&y))
    };
    // Within-family centring over complete pairs; single-model families drop out.
    let mut cx = vec![None; x.len()];
    let mut cy = vec![None; y.len()];
    for fam in &families {
        let members: Vec<usize> = (0..x.len())
            .filter(|&i| &table.families[i] == *fam && x[i].is_some() && y[i].is_some())
            .collect();
        if members.len() < 2 {
            continue;
        }
        let mx = members.iter().filter_map(|&i| x[i]).sum::<f64>() / members.len() as f64;
        let my = members.iter().filter_map(|&i| y[i]).sum::<f64>() / members.len() as f64;
        for &i in &members {
            cx[i] = x[i].map(|v| v - mx);
            cy[i] = y[i].map(|v| v - my);
        }
    }
    Ok(AssociationSensitivity {
        foundational: foundational.into(),
        operation: operation.into(),
        all: spec("all models".into(), &x, &y),
        family_removed: families.iter().map(|f| without(f)).collect(),
        provider_removed: provider.map(without),
        family_centred: spec("within-family centred".into(), &cx, &cy),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gapscope_data::profile::RoleOverrides;

    #[test]
    fn specifications_by_hand() {
        let csv = "model,family,CE,RC\n\
                   a1,A,1,2\na2,A,3,4\n\
                   b1,B,2,1\nb2,B,4,5\nb3,B,6,6\n\
                   c1,C,5,3\n";
        let t = ProfileTable::read(csv, &RoleOverrides::default()).unwrap();
        let s = association_sensitivity(&t, "CE", "RC", Some("B")).unwrap();
        assert_eq!(s.all.n, 6);
        let without_b = s.provider_removed.as_ref().unwrap();
        assert_eq!(without_b.n, 3);
        assert_eq!(without_b, &s.family_removed[1]);
        // Without B: (1,2), (3,4), (5,3): pearson by hand: mx = 3, my = 3,
        // sxy = (-2)(-1) + 0 + (2)(0) = 2, sxx = 8, syy = 2 => 2 / 4 = 0.5
        assert!((without_b.pearson.unwrap() - 0.5).abs() < 1e-15);
        // Centred: A: (-1,-1), (1,1); B: (-2,-3), (0,1), (2,2); C drops out.
        // sxy = 1 + 1 + 6 + 0 + 4 = 12; sxx = 1 + 1 + 4 + 0 + 4 = 10; syy = 1 + 1 + 9 + 1 + 4 = 16
        assert_eq!(s.family_centred.n, 5);
        assert!((s.family_centred.pearson.unwrap() - 12.0 / (10f64 * 16.0).sqrt()).abs() < 1e-15);
        assert!(matches!(
            association_sensitivity(&t, "CE", "RC", Some("Z")),
            Err(AssocError::UnknownProvider(..))
        ));
        assert!(association_sensitivity(&t, "XX", "RC", None)
            .unwrap_err()
            .to_string()
            .contains("the data has: CE"));
    }
}
