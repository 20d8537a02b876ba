//! Label CSVs (`trajectory_id,operation,requirement,label[,turn]`) applied to
//! a corpus (spec: formats.md, "Labels").

use indexmap::IndexMap;

use crate::formats::Corpus;
use crate::trajectory::{bad_operation_name, long_operation_name};

/// Why a label CSV could not be applied.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LabelError {
    #[error("the label file has no `{0}` column (expected trajectory_id,operation,requirement,label[,turn])")]
    MissingColumn(String),
    #[error("line {line}: {message}")]
    Line { line: u64, message: String },
}

/// Add the labels of a CSV `trajectory_id,operation,requirement,label[,turn]`
/// to the trajectories (joined on `id`; `requirement` orders labels within an
/// operation). Labels already in a trajectory for that operation are replaced.
pub fn apply_label_csv(corpus: &mut Corpus, text: &str) -> Result<usize, LabelError> {
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| LabelError::Line {
            line: 1,
            message: e.to_string(),
        })?
        .iter()
        .map(|h| h.trim().to_string())
        .collect::<Vec<_>>();
    if headers.len() > crate::profile::MAX_CSV_COLUMNS {
        return Err(LabelError::Line {
            line: 1,
            message: format!(
                "the header has {} columns; at most {} are read",
                headers.len(),
                crate::profile::MAX_CSV_COLUMNS
            ),
        });
    }
    // Lines by `\n` (the csv crate's own count lags in CRLF files).
    let mut lines = crate::profile::LineOf::new(text, false);
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| LabelError::MissingColumn(name.into()))
    };
    let (ct, co, cr, cl) = (
        col("trajectory_id")?,
        col("operation")?,
        col("requirement")?,
        col("label")?,
    );
    // (trajectory index, operation) -> [(requirement, label)]
    type Labels = Vec<(String, Option<f64>)>;
    let mut found: IndexMap<(usize, String), Labels> = IndexMap::new();
    let index: IndexMap<&str, usize> = corpus
        .trajectories
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let mut n = 0;
    for record in reader.records() {
        let record = record.map_err(|e| LabelError::Line {
            line: e.position().map_or(0, |p| lines.at(p.byte())),
            message: e.to_string(),
        })?;
        let line = record.position().map_or(0, |p| lines.at(p.byte()));
        // Cells written by csv_safe lose their neutralising quote.
        let id = crate::profile::csv_unsafe(record[ct].trim()).trim();
        let &t = index.get(id).ok_or_else(|| LabelError::Line {
            line,
            message: format!("no trajectory with id `{id}`"),
        })?;
        let text = record[cl].trim();
        let label = match text {
            "" | "null" | "NA" | "na" => None,
            "0" | "0.0" => Some(0.0),
            "0.5" | ".5" => Some(0.5),
            "1" | "1.0" => Some(1.0),
            other => {
                return Err(LabelError::Line {
                    line,
                    message: format!("label `{other}` is not 0, 0.5, 1 or null"),
                })
            }
        };
        let op = crate::profile::csv_unsafe(record[co].trim()).trim();
        if op.len() > crate::profile::MAX_NAME_BYTES {
            return Err(LabelError::Line {
                line,
                message: long_operation_name(op),
            });
        }
        if let Some(why) = bad_operation_name(op) {
            return Err(LabelError::Line {
                line,
                message: format!("`{op}` cannot name an operation ({why})"),
            });
        }
        found.entry((t, op.to_string())).or_default().push((
            crate::profile::csv_unsafe(record[cr].trim())
                .trim()
                .to_string(),
            label,
        ));
        n += 1;
    }
    for ((t, op), mut labels) in found {
        labels.sort_by(|a, b| a.0.cmp(&b.0));
        corpus.trajectories[t]
            .labels
            .insert(op, labels.into_iter().map(|(_, l)| l).collect());
    }
    Ok(n)
}
