//! A large answer in pieces: the worker posts the long lists of an
//! [`Answer`] (the trajectory list of an import or overview, each run's
//! tasks and each pair's task table of a comparison) as [`Chunk`]s before
//! the answer itself, and the page puts them back ([`assemble`]) when the
//! answer comes. Each chunk is a message of its own, so the page decodes it
//! in a task of its own: 40,000 trajectories or 45 pairs × 1,000 tasks are
//! decoded in slices of a few milliseconds instead of one long task that
//! freezes the page (docs/compare.md, "Speed").
//!
//! [`split`] and [`assemble`] are inverses: `assemble(split(a)) == a` for
//! every answer (tested on real answers and on empty lists).

use gapscope_compare::report::RunTask;
use gapscope_gaps::overview::{Overview, TrajectorySummary};
use gapscope_stats::paired::TaskDiff;
use serde::{Deserialize, Serialize};

use super::Answer;

/// At most this many units in one chunk: a trajectory row, a task of a
/// pair's table, or a trial of a run's task (each ~30–220 bytes of JSON).
/// 2,000 trajectory rows (445 KB) took 50 ms to decode in Chromium's wasm
/// on a 2-core machine; 500 take about 12 ms.
pub const CHUNK_UNITS: usize = 500;

/// A piece of the answer that follows it (same job id), in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Chunk {
    /// Rows of the answer's trajectory list (`Overview::trajectories`).
    Trajectories(Vec<TrajectorySummary>),
    /// Tasks of run `run` of a comparison (`runs[run].tasks`).
    RunTasks { run: usize, tasks: Vec<RunTask> },
    /// Rows of pair `pair`'s task table (`pairs[pair].comparison.tasks`).
    PairTasks { pair: usize, tasks: Vec<TaskDiff> },
}

/// Take the long lists out of `answer`, as chunks of at most
/// [`CHUNK_UNITS`] units each, in the order [`assemble`] puts them back.
/// Lists that fit one chunk stay in the answer.
pub fn split(answer: &mut Answer) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    match answer {
        Answer::Import { overview, .. } | Answer::Overview(overview) => {
            if let Ok(Some(o)) = overview.as_mut() {
                split_overview(o, &mut chunks);
            }
        }
        Answer::Compare(report) => {
            if let Ok(r) = report.as_mut() {
                let units: usize = r.runs.iter().map(run_units).sum::<usize>()
                    + r.pairs
                        .iter()
                        .map(|p| p.comparison.tasks.len())
                        .sum::<usize>();
                if units > CHUNK_UNITS {
                    for (run, report) in r.runs.iter_mut().enumerate() {
                        for tasks in
                            pieces(std::mem::take(&mut report.tasks), |t| t.trials.len().max(1))
                        {
                            chunks.push(Chunk::RunTasks { run, tasks });
                        }
                    }
                    for (pair, row) in r.pairs.iter_mut().enumerate() {
                        for tasks in pieces(std::mem::take(&mut row.comparison.tasks), |_| 1) {
                            chunks.push(Chunk::PairTasks { pair, tasks });
                        }
                    }
                }
            }
        }
        _ => {}
    }
    chunks
}

fn split_overview(o: &mut Overview, chunks: &mut Vec<Chunk>) {
    if o.trajectories.len() > CHUNK_UNITS {
        chunks.extend(
            pieces(std::mem::take(&mut o.trajectories), |_| 1)
                .into_iter()
                .map(Chunk::Trajectories),
        );
    }
}

fn run_units(run: &gapscope_compare::RunReport) -> usize {
    run.tasks.iter().map(|t| t.trials.len().max(1)).sum()
}

/// `items` in consecutive pieces of at most [`CHUNK_UNITS`] units (an item
/// heavier than that is a piece of its own).
fn pieces<T>(items: Vec<T>, units: impl Fn(&T) -> usize) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = Vec::new();
    let mut current = Vec::new();
    let mut weight = 0;
    for item in items {
        let w = units(&item);
        if !current.is_empty() && weight + w > CHUNK_UNITS {
            out.push(std::mem::take(&mut current));
            weight = 0;
        }
        weight += w;
        current.push(item);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Put the chunks posted before `answer` back into it, in order; a chunk
/// that does not fit the answer (a run or pair it does not have, an answer
/// without such lists) is an internal error, said so.
pub fn assemble(answer: &mut Answer, chunks: Vec<Chunk>) -> Result<(), String> {
    if chunks.is_empty() {
        return Ok(());
    }
    let kind = answer.kind();
    let misfit = |what: &str| {
        format!("internal error: the worker sent {what} before an answer of kind {kind}")
    };
    match answer {
        Answer::Import { overview, .. } | Answer::Overview(overview) => {
            let Ok(Some(o)) = overview.as_mut() else {
                return Err(misfit("trajectory rows"));
            };
            for chunk in chunks {
                let Chunk::Trajectories(rows) = chunk else {
                    return Err(misfit("a comparison's tasks"));
                };
                o.trajectories.extend(rows);
            }
        }
        Answer::Compare(report) => {
            let Ok(r) = report.as_mut() else {
                return Err(misfit("a comparison's tasks"));
            };
            for chunk in chunks {
                match chunk {
                    Chunk::RunTasks { run, tasks } => r
                        .runs
                        .get_mut(run)
                        .ok_or_else(|| misfit(&format!("the tasks of run {run}")))?
                        .tasks
                        .extend(tasks),
                    Chunk::PairTasks { pair, tasks } => r
                        .pairs
                        .get_mut(pair)
                        .ok_or_else(|| misfit(&format!("the tasks of pair {pair}")))?
                        .comparison
                        .tasks
                        .extend(tasks),
                    Chunk::Trajectories(_) => return Err(misfit("trajectory rows")),
                }
            }
        }
        _ => return Err(misfit("pieces")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_keep_order_and_respect_the_unit_bound() {
        let n = CHUNK_UNITS;
        let items: Vec<usize> = (0..5 * n / 2).collect();
        let out = pieces(items.clone(), |_| 1);
        assert_eq!(out.iter().map(Vec::len).collect::<Vec<_>>(), [n, n, n / 2]);
        assert_eq!(out.concat(), items);
        // Weighted: 3 units each → ⌊n / 3⌋ a piece; an item heavier than
        // the bound is a piece of its own.
        let out = pieces((0..n).collect::<Vec<usize>>(), |_| 3);
        assert_eq!(out[0].len(), n / 3);
        let out = pieces(vec![1, 2 * n, 2], |&w| w);
        assert_eq!(out, [vec![1], vec![2 * n], vec![2]]);
        assert!(pieces(Vec::<usize>::new(), |_| 1).is_empty());
    }

    #[test]
    fn a_chunk_that_does_not_fit_is_an_internal_error() {
        let mut answer = Answer::Failed("x".into());
        let err = assemble(&mut answer, vec![Chunk::Trajectories(vec![])]).unwrap_err();
        assert!(err.contains("internal error"), "{err}");
        assert!(err.contains("Failed"), "{err}");
        assert_eq!(assemble(&mut answer, vec![]), Ok(()));
    }
}
