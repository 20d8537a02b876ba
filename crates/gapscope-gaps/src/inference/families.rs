//! Family summaries (spec: "Family summaries"): the mean gap per family and
//! operation, with the number of models behind each mean — the paper's
//! "Claude services tend to exceed" (section 4.2) made visible.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use gapscope_stats::heldout::reference::distinct_in_order;

use crate::analysis::{Fit, Report};

/// One family's mean gap of one operation over its models with a gap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyMean {
    pub mean: Option<f64>,
    /// Models of the family with a defined gap.
    pub n: usize,
}

/// Mean gaps per family (in order of first appearance) and operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyMeans {
    pub families: Vec<String>,
    /// Per operation, per family.
    pub operations: IndexMap<String, Vec<FamilyMean>>,
    /// The overall (macro) gap, per family.
    #[serde(rename = "macro")]
    pub macro_gap: Vec<FamilyMean>,
}

fn per_family(families: &[String], names: &[&String], fit: &Fit) -> Vec<FamilyMean> {
    names
        .iter()
        .map(|f| {
            let gaps: Vec<f64> = fit
                .gap
                .iter()
                .zip(families)
                .filter(|(_, g)| g == f)
                .filter_map(|(v, _)| *v)
                .collect();
            FamilyMean {
                mean: gapscope_stats::summary::mean(&gaps),
                n: gaps.len(),
            }
        })
        .collect()
}

/// The family means of `report`'s gaps.
#[must_use]
pub fn family_means(report: &Report) -> FamilyMeans {
    let names = distinct_in_order(&report.families);
    FamilyMeans {
        families: names.iter().map(|f| (*f).clone()).collect(),
        operations: report
            .operations
            .iter()
            .map(|(k, fit)| (k.clone(), per_family(&report.families, &names, fit)))
            .collect(),
        macro_gap: per_family(&report.families, &names, &report.macro_fit.fit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analyze, Settings};
    use gapscope_data::ProfileTable;

    #[test]
    fn means_by_hand() {
        // Six models, three families; the gaps are the report's own, so
        // the means are checked against the report's gaps by hand.
        let csv = "model,family,RE,PL\na1,A,1,1\na2,A,2,3\nb1,B,3,2\nb2,B,4,\nc1,C,5,5\nc2,C,6,7\n";
        let t = ProfileTable::read(csv, &Default::default()).unwrap();
        let r = analyze(
            &t,
            &Settings {
                bootstrap: 0,
                nested: false,
                ..Settings::default()
            },
        )
        .unwrap();
        let m = family_means(&r);
        assert_eq!(m.families, ["A", "B", "C"]);
        let g = &r.operations["PL"].gap;
        let pl = &m.operations["PL"];
        assert_eq!(pl[0].n, 2);
        assert!((pl[0].mean.unwrap() - f64::midpoint(g[0].unwrap(), g[1].unwrap())).abs() < 1e-12);
        // b2 has no PL score: B's mean is b1's gap alone.
        assert_eq!(pl[1].n, 1);
        assert_eq!(pl[1].mean, g[2]);
        assert_eq!(m.macro_gap.len(), 3);
    }
}
