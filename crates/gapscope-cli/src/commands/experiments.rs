//! `gapscope interventions` and `gapscope continuations`: the experiments
//! beside the corpus (realization-gaps.md; docs/experiments.md) — branch
//! runs from restored checkpoints, and shared-initial-state continuations.
//! Both read trajectories in any format the CLI reads; only the runs that
//! name a `checkpoint` enter.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gapscope_data::ingest::TrajectoryOptions;
use gapscope_gaps::experiments::interventions::MIN_TASKS;
use gapscope_gaps::experiments::{
    continuations, interventions, json_text, Continuations, Interventions,
};

use crate::ingest;
use crate::output::term_safe;

/// What both subcommands read.
#[derive(Args)]
pub struct ExperimentInputs {
    /// Trajectory files or folders (canonical JSONL carries the experiment
    /// fields: checkpoint, branch, intervention, stratum, condition, round,
    /// repetition, violations).
    #[arg(long, required = true, value_delimiter = ',')]
    trajectories: Vec<PathBuf>,
    /// The domain (task set) of trajectory files that name none.
    #[arg(long)]
    domain: Option<String>,
    /// Keep trajectories read twice (by default they count once, with a warning).
    #[arg(long)]
    keep_repeats: bool,
    /// Write the result as JSON (docs/experiments.md).
    #[arg(long)]
    json: bool,
}

impl ExperimentInputs {
    fn read(&self) -> Result<Vec<gapscope_data::trajectory::Trajectory>, String> {
        let corpus = ingest::read_corpus(
            &self.trajectories,
            None,
            None,
            &TrajectoryOptions {
                domain: self.domain.clone(),
                keep_repeats: self.keep_repeats,
                ..TrajectoryOptions::default()
            },
        )?;
        Ok(corpus.trajectories)
    }
}

#[derive(Args)]
pub struct InterventionsArgs {
    #[command(flatten)]
    inputs: ExperimentInputs,
    /// Bootstrap draws of each row's task-clustered interval.
    #[arg(long, default_value_t = 10_000)]
    bootstrap: usize,
    /// Seed of the bootstrap stream (each row's is fresh from it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

#[derive(Args)]
pub struct ContinuationsArgs {
    #[command(flatten)]
    inputs: ExperimentInputs,
}

pub fn run_interventions(args: &InterventionsArgs) -> Result<String, String> {
    let ts = args.inputs.read()?;
    let r = interventions(&ts, args.bootstrap, args.seed).map_err(|e| e.to_string())?;
    if r.cases.is_empty() {
        return Err(
            "no branch run: interventions read trajectories with `checkpoint` and `branch` (original, edited or control); see docs/experiments.md"
                .into(),
        );
    }
    if args.inputs.json {
        return json_text(&r).map_err(|e| e.to_string());
    }
    Ok(interventions_text(&r))
}

pub fn run_continuations(args: &ContinuationsArgs) -> Result<String, String> {
    let ts = args.inputs.read()?;
    let r = continuations(&ts);
    if r.coverage.is_empty() {
        return Err(
            "no continuation: continuations read trajectories with a `checkpoint` and no `branch`; see docs/experiments.md"
                .into(),
        );
    }
    if args.inputs.json {
        return json_text(&r).map_err(|e| e.to_string());
    }
    Ok(continuations_text(&r))
}

/// Two decimals, with a mean that rounds to zero written `0.00`, not `-0.00`.
fn fixed2(v: f64) -> String {
    let s = format!("{v:.2}");
    if s == "-0.00" {
        "0.00".into()
    } else {
        s
    }
}

fn opt(s: Option<&str>) -> String {
    term_safe(s.unwrap_or("—"))
}

fn interventions_text(r: &Interventions) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} cases; 95% intervals: task-clustered bootstrap, B = {}, seed {}; fewer than {MIN_TASKS} tasks: descriptive (no interval)",
        r.cases.len(),
        r.bootstrap,
        r.seed
    );
    for (title, rows) in [
        ("By model and intervention", &r.by_intervention),
        ("By model, intervention and stratum", &r.by_stratum),
    ] {
        let _ = writeln!(out, "\n{title}");
        let _ = writeln!(
            out,
            "{:<16} {:<18} {:<10} {:<10} {:<20} {:>5} {:>5} {:>8} {:>8}  interval",
            "model",
            "intervention",
            "stratum",
            "measure",
            "contrast",
            "cases",
            "tasks",
            "mean",
            "non-zero"
        );
        for row in rows {
            let interval = match (&row.interval, row.descriptive) {
                (_, true) => "descriptive".to_string(),
                (Some(iv), false) => match iv.bounds() {
                    Some([lo, hi]) => format!("[{lo:.2}, {hi:.2}]"),
                    None => "—".into(),
                },
                (None, false) => "—".into(),
            };
            let _ = writeln!(
                out,
                "{:<16} {:<18} {:<10} {:<10} {:<20} {:>5} {:>5} {:>8} {:>7.0}%  {interval}",
                term_safe(&row.model),
                term_safe(&row.intervention),
                opt(row.stratum.as_deref()),
                term_safe(&row.measure),
                row.contrast.label(),
                row.cases,
                row.tasks,
                fixed2(row.mean),
                100.0 * row.nonzero,
            );
        }
    }
    let _ = writeln!(
        out,
        "\nReward changes: {} edited repetitions whose reward differs from their original branch's mean (per case: the repetitions, their rewards)",
        r.reward_changes.len()
    );
    // A case's changes are adjacent (listed case by case).
    let cases = r.reward_changes.chunk_by(|a, b| {
        (&a.model, &a.intervention, &a.checkpoint) == (&b.model, &b.intervention, &b.checkpoint)
    });
    for changes in cases {
        let first = &changes[0];
        let runs: Vec<String> = changes
            .iter()
            .map(|c| format!("{} ({:.1})", term_safe(&c.trajectory), c.reward))
            .collect();
        let _ = writeln!(
            out,
            "  {} {} {} ({}), original mean {:.1}: {}",
            term_safe(&first.model),
            term_safe(&first.intervention),
            term_safe(&first.checkpoint),
            term_safe(&first.task),
            first.original_mean,
            runs.join(", ")
        );
    }
    out
}

fn continuations_text(r: &Continuations) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Coverage (Table 7)");
    let _ = writeln!(
        out,
        "{:<14} {:>6} {:>7} {:>6} {:>6} {:>9}",
        "round", "states", "repeats", "steps", "runs", "scoreable"
    );
    for c in &r.coverage {
        let _ = writeln!(
            out,
            "{:<14} {:>6} {:>7} {:>6} {:>6} {:>9}",
            opt(c.round.as_deref()),
            c.states,
            c.repeats,
            c.steps,
            c.runs,
            c.scoreable
        );
    }
    let _ = writeln!(out, "\nViolations (Table 15): repetitions with a violation / scoreable, per round and condition");
    let mut head = format!("{:<16} {:<16}", "checkpoint", "model");
    for col in &r.columns {
        let _ = write!(
            head,
            " {:>12}",
            format!(
                "{}/{}",
                opt(col.round.as_deref()),
                opt(col.condition.as_deref())
            )
        );
    }
    let _ = writeln!(out, "{head} repeated");
    for row in &r.violations {
        let mut line = format!(
            "{:<16} {:<16}",
            term_safe(&row.checkpoint),
            term_safe(&row.model)
        );
        for c in &row.cells {
            let _ = write!(line, " {:>12}", format!("{}/{}", c.violated, c.scoreable));
        }
        let _ = writeln!(out, "{line} {}", if row.repeated { "yes" } else { "" });
    }
    let _ = writeln!(out, "\nLater reversals: scoreable continuations with ≥ 2 steps and no violation at step 1 that violate later");
    let _ = writeln!(
        out,
        "{:<16} {:<10} {:>8} {:>9} {:>6}",
        "model", "condition", "eligible", "reversals", "share"
    );
    for x in &r.reversals {
        let cond = if x.pooled {
            "all".to_string()
        } else {
            opt(x.condition.as_deref())
        };
        let share = x
            .share
            .map_or("—".to_string(), |s| format!("{:.0}%", 100.0 * s));
        let _ = writeln!(
            out,
            "{:<16} {:<10} {:>8} {:>9} {:>6}",
            term_safe(&x.model),
            cond,
            x.eligible,
            x.reversals,
            share
        );
    }
    out
}
