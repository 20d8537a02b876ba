//! Outcomes CSVs (`trajectory_id,task_id,reward[,domain]`): the task and the
//! reward of trajectories whose files name neither (Claude Code and Codex
//! sessions, [`crate::formats::claude_code`], [`crate::formats::codex`]),
//! applied to a corpus by trajectory id as label CSVs are ([`crate::labels`]).
//!
//! - The header is exactly these columns (any order, trimmed; a byte-order
//!   mark is fine); `domain` is optional (the task set, so that task `7` of
//!   two benchmarks stays two tasks).
//! - `reward` is a number in [0, 1], or empty / `NA` / `null` for a task
//!   whose outcome is not known (the reward stays missing, never 0).
//! - An id that matches no trajectory is an error naming it and its line
//!   (as in a label CSV: a mistyped id would silently score nothing); an id
//!   given on two rows is an error naming both lines; an id that several
//!   trajectories share (two files with the same ids) is an error too.
//! - The rows replace what the trajectory had: its task id, its reward, and
//!   (with a `domain` column) its domain.

use indexmap::IndexMap;

use crate::formats::Corpus;
use crate::trajectory::bad_name;

/// The columns an outcomes CSV has (and `domain`, optional).
pub const COLUMNS: [&str; 3] = ["trajectory_id", "task_id", "reward"];

/// Why an outcomes CSV could not be applied. Lines are 1-based lines of the
/// file (the header is line 1).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OutcomesError {
    #[error("line 1: the header is `{found}`; expected the columns trajectory_id,task_id,reward (and optionally domain)")]
    Header { found: String },
    #[error("line 1: column `{0}` appears twice in the header")]
    RepeatedColumn(String),
    #[error("the outcomes file has no rows (expected trajectory_id,task_id,reward lines after the header)")]
    Empty,
    #[error("line {line}: {message}")]
    Record { line: u64, message: String },
    #[error("line {line}, column `{column}`: {message}")]
    Cell {
        line: u64,
        column: &'static str,
        message: String,
    },
    #[error("line {line}: no trajectory has the id `{id}`")]
    UnknownTrajectory { line: u64, id: String },
    #[error("line {line}: {count} trajectories have the id `{id}`; an outcome must name one")]
    Ambiguous { line: u64, id: String, count: usize },
    #[error("line {second}: trajectory `{id}` already has an outcome on line {first}")]
    Repeated { id: String, first: u64, second: u64 },
}

/// The header's cells, trimmed and unquoted (after a byte-order mark).
fn header_cells(text: &str) -> Vec<String> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap_or_default()
        .split(',')
        .map(|c| c.trim().trim_matches('"').trim().to_string())
        .collect()
}

/// Whether `text` is an outcomes CSV: its header names `trajectory_id`,
/// `task_id` and `reward` (a label CSV, with `operation` and `label`, is not).
pub fn is_outcomes_csv(text: &str) -> bool {
    let cols = header_cells(text);
    COLUMNS.iter().all(|c| cols.iter().any(|x| x == c))
        && !cols.iter().any(|x| x == "operation" || x == "label")
}

/// One row, read.
struct Row {
    trajectory: usize,
    task: String,
    reward: Option<f64>,
    /// With a `domain` column: the cell (`None` when empty).
    domain: Option<String>,
}

/// Apply an outcomes CSV to the corpus: each row sets its trajectory's task
/// id, reward and (with a `domain` column) domain. Returns how many rows
/// were applied; nothing is applied when a row is wrong.
pub fn apply_outcomes(corpus: &mut Corpus, text: &str) -> Result<usize, OutcomesError> {
    let body = text.trim_start_matches('\u{feff}');
    let cells = header_cells(body);
    let mut col: IndexMap<&str, usize> = IndexMap::new();
    for (j, c) in cells.iter().enumerate() {
        let Some(known) = ["trajectory_id", "task_id", "reward", "domain"]
            .into_iter()
            .find(|k| k == c)
        else {
            return Err(OutcomesError::Header {
                found: cells.join(","),
            });
        };
        if col.insert(known, j).is_some() {
            return Err(OutcomesError::RepeatedColumn(known.into()));
        }
    }
    let (Some(&ct), Some(&ck), Some(&cr)) = (
        col.get("trajectory_id"),
        col.get("task_id"),
        col.get("reward"),
    ) else {
        return Err(OutcomesError::Header {
            found: cells.join(","),
        });
    };
    let cd = col.get("domain").copied();
    let mut index: std::collections::HashMap<&str, (usize, usize)> = Default::default();
    for (i, t) in corpus.trajectories.iter().enumerate() {
        index.entry(t.id.as_str()).or_insert((i, 0)).1 += 1;
    }
    let mut reader = csv::ReaderBuilder::new().from_reader(body.as_bytes());
    let mut lines = crate::profile::LineOf::new(body, false);
    let mut seen: std::collections::HashMap<usize, u64> = Default::default();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| OutcomesError::Record {
            line: e.position().map_or(0, |p| lines.at(p.byte())),
            message: e.to_string(),
        })?;
        let line = record.position().map_or(0, |p| lines.at(p.byte()));
        let cell = |j: usize| crate::profile::csv_unsafe(record[j].trim()).trim();
        let bad = |column: &'static str, message: String| OutcomesError::Cell {
            line,
            column,
            message,
        };
        let id = cell(ct);
        if let Some(why) = bad_name("trajectory id", id) {
            return Err(bad("trajectory_id", why));
        }
        let &(trajectory, count) =
            index
                .get(id)
                .ok_or_else(|| OutcomesError::UnknownTrajectory {
                    line,
                    id: id.to_string(),
                })?;
        if count > 1 {
            return Err(OutcomesError::Ambiguous {
                line,
                id: id.into(),
                count,
            });
        }
        if let Some(&first) = seen.get(&trajectory) {
            return Err(OutcomesError::Repeated {
                id: id.into(),
                first,
                second: line,
            });
        }
        seen.insert(trajectory, line);
        let task = cell(ck);
        if let Some(why) = bad_name("task id", task) {
            return Err(bad("task_id", why));
        }
        let reward = reward(cell(cr)).map_err(|m| bad("reward", m))?;
        let domain = match cd.map(cell) {
            None | Some("") => None,
            Some(d) => {
                if let Some(why) = bad_name("domain", d) {
                    return Err(bad("domain", why));
                }
                Some(d.to_string())
            }
        };
        rows.push(Row {
            trajectory,
            task: task.to_string(),
            reward,
            domain,
        });
    }
    if rows.is_empty() {
        return Err(OutcomesError::Empty);
    }
    let n = rows.len();
    for r in rows {
        let t = &mut corpus.trajectories[r.trajectory];
        t.task_id = r.task;
        t.reward = r.reward;
        if cd.is_some() {
            t.domain = r.domain;
        }
    }
    Ok(n)
}

/// A reward cell: a number in [0, 1], or missing.
fn reward(text: &str) -> Result<Option<f64>, String> {
    if text.is_empty()
        || crate::profile::MISSING_MARKERS
            .iter()
            .any(|m| m.eq_ignore_ascii_case(text))
    {
        return Ok(None);
    }
    let v: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number (expected a reward in [0, 1], or empty)"))?;
    if !(0.0..=1.0).contains(&v) {
        return Err(format!("reward {text} is outside [0, 1]"));
    }
    Ok(Some(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trajectory::Trajectory;

    fn corpus(ids: &[&str]) -> Corpus {
        Corpus {
            trajectories: ids
                .iter()
                .map(|id| Trajectory {
                    id: (*id).into(),
                    model: "m".into(),
                    task_id: (*id).into(),
                    ..Trajectory::default()
                })
                .collect(),
            ..Corpus::default()
        }
    }

    #[test]
    fn rows_set_task_reward_and_domain() {
        let mut c = corpus(&["a", "b", "c"]);
        let text = "\u{feff}domain,trajectory_id,task_id,reward\r\nswe,a,t1,1\r\n,b,t1,0.25\r\nswe,c,t2,\r\n";
        assert!(is_outcomes_csv(text));
        assert_eq!(apply_outcomes(&mut c, text), Ok(3));
        let t = &c.trajectories;
        assert_eq!(
            (t[0].task_id.as_str(), t[0].reward, t[0].domain.as_deref()),
            ("t1", Some(1.0), Some("swe"))
        );
        assert_eq!(
            (t[1].task_id.as_str(), t[1].reward, t[1].domain.as_deref()),
            ("t1", Some(0.25), None)
        );
        assert_eq!((t[2].task_id.as_str(), t[2].reward), ("t2", None));
    }

    #[test]
    fn errors_are_located() {
        let cases: [(&str, &str); 8] = [
            ("trajectory_id,task,reward\na,t,1\n", "line 1: the header is `trajectory_id,task,reward`; expected the columns trajectory_id,task_id,reward (and optionally domain)"),
            ("trajectory_id,task_id,reward,reward\na,t,1,1\n", "line 1: column `reward` appears twice in the header"),
            ("trajectory_id,task_id,reward\n", "the outcomes file has no rows (expected trajectory_id,task_id,reward lines after the header)"),
            ("trajectory_id,task_id,reward\na,t,1.5\n", "line 2, column `reward`: reward 1.5 is outside [0, 1]"),
            ("trajectory_id,task_id,reward\na,t,yes\n", "line 2, column `reward`: `yes` is not a number (expected a reward in [0, 1], or empty)"),
            ("trajectory_id,task_id,reward\na,t,1\nzz,t,1\n", "line 3: no trajectory has the id `zz`"),
            ("trajectory_id,task_id,reward\na,t,1\nb,t,0\na,u,0\n", "line 4: trajectory `a` already has an outcome on line 2"),
            ("trajectory_id,task_id,reward\na,,1\n", "line 2, column `task_id`: the task id is empty"),
        ];
        for (text, want) in cases {
            let mut c = corpus(&["a", "b"]);
            let before = c.clone();
            let e = apply_outcomes(&mut c, text).unwrap_err();
            assert_eq!(e.to_string(), want, "{text:?}");
            assert_eq!(c, before, "nothing applied: {text:?}");
        }
        let mut c = corpus(&["a", "a"]);
        assert_eq!(
            apply_outcomes(&mut c, "trajectory_id,task_id,reward\na,t,1\n")
                .unwrap_err()
                .to_string(),
            "line 2: 2 trajectories have the id `a`; an outcome must name one"
        );
    }

    #[test]
    fn a_label_csv_is_not_an_outcomes_csv() {
        assert!(!is_outcomes_csv(
            "trajectory_id,operation,requirement,label\n"
        ));
        assert!(!is_outcomes_csv("model,family,reward\n"));
        assert!(is_outcomes_csv(" trajectory_id , \"task_id\" , reward\n"));
    }
}
