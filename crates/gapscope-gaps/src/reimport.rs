//! A report given back (re-imported into the page, or `gapscope verify`):
//! recomputed from the table and settings it carries, then compared with
//! the file number by number, so that a report that disagrees says which
//! numbers differ, not only that some do.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::analysis::Report;

/// The relative tolerance under which two numbers agree: the report is
/// written with every digit (`float_roundtrip`), so the same build gives
/// the same bits; another platform's `libm` may differ in the last ones.
pub const TOLERANCE: f64 = 1e-9;

/// Keys compared for nothing: the version that wrote the report, the
/// sentences (a joined table adds to the summary; warnings name files).
const NOT_COMPARED: [&str; 3] = ["version", "summary", "warnings"];

/// How a re-imported report compares with its recomputation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Numbers compared.
    pub compared: usize,
    /// The numbers (and texts, and entries only one side has) that differ,
    /// in the report's order.
    pub differences: Vec<Difference>,
}

/// One place where the file and the recomputation differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// Where, as a path into the report (`operations.GI.gap[Beta One]`):
    /// an index into a list of one entry per model is the model's name.
    pub path: String,
    /// The file's value (`—`: absent).
    pub reported: String,
    /// The recomputed value (`—`: absent).
    pub recomputed: String,
}

impl Comparison {
    /// Whether every number agrees.
    pub fn agrees(&self) -> bool {
        self.differences.is_empty()
    }

    /// One sentence: "every number agrees (N compared)", or the first
    /// `shown` differences and how many more.
    pub fn sentence(&self, shown: usize) -> String {
        if self.agrees() {
            return format!("every number agrees ({} compared)", self.compared);
        }
        let first: Vec<String> = self
            .differences
            .iter()
            .take(shown)
            .map(|d| {
                format!(
                    "{}: file {}, recomputed {}",
                    d.path, d.reported, d.recomputed
                )
            })
            .collect();
        let more = self.differences.len().saturating_sub(shown);
        format!(
            "{} of {} numbers differ — {}{}",
            self.differences.len(),
            self.compared,
            first.join("; "),
            if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            }
        )
    }
}

/// Compare the file's report `old` with its recomputation `new`.
pub fn compare(old: &Report, new: &Report) -> Comparison {
    let mut c = Comparison::default();
    let (Ok(a), Ok(b)) = (serde_json::to_value(old), serde_json::to_value(new)) else {
        return c;
    };
    let mut path = String::new();
    walk(&a, &b, &mut path, &old.models, &mut c, true);
    c
}

fn agree(x: f64, y: f64) -> bool {
    x == y || (x - y).abs() <= TOLERANCE * x.abs().max(y.abs()).max(1.0)
}

fn shown(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "—".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v @ (Value::Array(_) | Value::Object(_))) => {
            let s = v.to_string();
            if s.chars().count() > 60 {
                format!("{}…", s.chars().take(60).collect::<String>())
            } else {
                s
            }
        }
        Some(v) => v.to_string(),
    }
}

fn differ(c: &mut Comparison, path: &str, a: Option<&Value>, b: Option<&Value>) {
    c.differences.push(Difference {
        path: path.to_string(),
        reported: shown(a),
        recomputed: shown(b),
    });
}

fn walk(a: &Value, b: &Value, path: &mut String, models: &[String], c: &mut Comparison, top: bool) {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            c.compared += 1;
            if let (Some(x), Some(y)) = (x.as_f64(), y.as_f64()) {
                if !agree(x, y) {
                    differ(c, path, Some(a), Some(b));
                }
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for k in keys {
                if top && NOT_COMPARED.contains(&k.as_str()) {
                    continue;
                }
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => walk(u, v, path, models, c, false),
                    (u, v) => differ(c, path, u, v),
                }
                path.truncate(len);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            // A list of one entry per model is indexed by the model's name.
            let by_model = models.len() > 1 && x.len() == models.len();
            for i in 0..x.len().max(y.len()) {
                let len = path.len();
                match models.get(i).filter(|_| by_model) {
                    Some(m) => path.push_str(&format!("[{m}]")),
                    None => path.push_str(&format!("[{i}]")),
                }
                match (x.get(i), y.get(i)) {
                    (Some(u), Some(v)) => walk(u, v, path, models, c, false),
                    (u, v) => differ(c, path, u, v),
                }
                path.truncate(len);
            }
        }
        (x, y) => {
            if x.is_number() || y.is_number() {
                c.compared += 1;
            }
            if x != y {
                differ(c, path, Some(x), Some(y));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::analysis::analyze;
    use crate::settings::Settings;

    fn report() -> Report {
        let csv = gapscope_synth::profiles::example_csv();
        let t = gapscope_data::profile::ProfileTable::read(&csv, &Default::default()).unwrap();
        analyze(&t, &Settings::default()).unwrap()
    }

    #[test]
    fn a_report_agrees_with_itself_and_names_what_was_changed() {
        let r = report();
        let same = compare(&r, &r);
        assert!(same.agrees());
        assert!(same.compared > 500, "{}", same.compared);
        assert_eq!(
            same.sentence(3),
            format!("every number agrees ({} compared)", same.compared)
        );
        // Edit two numbers of the file, as a hand might.
        let mut edited = r.clone();
        let gi = edited.operations.get_mut("GI").unwrap();
        let old = gi.gap[2].unwrap();
        gi.gap[2] = Some(old + 0.5);
        edited.correlations.pearson[0][0] = Some(0.123);
        // A last-bit difference is not one.
        let q2 = edited.macro_fit.fit.q2.unwrap();
        edited.macro_fit.fit.q2 = Some(q2 * (1.0 + 1e-13));
        edited.summary = "edited".into();
        let c = compare(&edited, &r);
        assert_eq!(c.compared, same.compared);
        let paths: Vec<&str> = c.differences.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths.len(), 2, "{paths:?}");
        assert!(paths.contains(&"correlations.pearson[0][0]"), "{paths:?}");
        let gap = c
            .differences
            .iter()
            .find(|d| d.path.contains(".gap["))
            .unwrap();
        assert_eq!(gap.path, format!("operations.GI.gap[{}]", r.models[2]));
        assert_eq!(gap.reported, (old + 0.5).to_string());
        assert_eq!(gap.recomputed, old.to_string());
        let s = c.sentence(1);
        assert!(
            s.starts_with(&format!("2 of {} numbers differ — ", c.compared)),
            "{s}"
        );
        assert!(s.ends_with("; and 1 more"), "{s}");
    }

    #[test]
    fn entries_only_one_side_has_are_differences() {
        let r = report();
        let mut edited = r.clone();
        edited.operations.shift_remove("TM");
        let c = compare(&edited, &r);
        assert!(
            c.differences
                .iter()
                .any(|d| d.path == "operations.TM" && d.reported == "—"),
            "{:?}",
            &c.differences[..2.min(c.differences.len())]
        );
    }
}
