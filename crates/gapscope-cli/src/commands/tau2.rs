//! `gapscope tau2 check`: re-check τ²-bench results files' recorded action
//! checks, and the tasks their recorded actions belong to.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use gapscope_data::formats::tau2;

use crate::input;
use crate::output::term_safe;

#[derive(Subcommand)]
pub enum Tau2Command {
    /// Re-check every recorded action check with τ²-bench's own rule, and report
    /// simulations whose recorded actions belong to another task than their task_id.
    Check(CheckArgs),
}

#[derive(Args)]
pub struct CheckArgs {
    /// Results files (object with info/tasks/simulations, or a bare list).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A tasks.json for files without embedded tasks.
    #[arg(long)]
    tasks: Option<PathBuf>,
    /// Print JSON (one report per file) instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(command: Tau2Command) -> Result<String, String> {
    match command {
        Tau2Command::Check(args) => check(&args),
    }
}

fn check(args: &CheckArgs) -> Result<String, String> {
    let tasks = match &args.tasks {
        Some(p) => {
            let text = input::read_input_text(p, input::MAX_INPUT_BYTES)?;
            Some(tau2::read_tasks(&text).map_err(|e| format!("{}: {e}", p.display()))?)
        }
        None => None,
    };
    let mut out = String::new();
    let mut reports = Vec::new();
    let mut all = Vec::new();
    let (mut n, mut m) = (0, 0);
    for path in &args.files {
        let text = input::read_input_text(path, input::MAX_INPUT_BYTES)?;
        // Message contents are not needed: skipped, never built.
        let results =
            tau2::read_results_light(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        drop(text);
        let r = tau2::check(&results, tasks.as_deref());
        n += r.reproduced;
        m += r.checks;
        file_text(&mut out, &path.display().to_string(), &results, &r);
        reports.push((path.display().to_string(), r));
        all.push((path.display().to_string(), results));
    }
    if args.json {
        let v: Vec<serde_json::Value> = reports
            .iter()
            .map(|(f, r)| serde_json::json!({"file": f, "report": r}))
            .collect();
        let body = serde_json::json!({"files": v, "reproduced": n, "checks": m});
        serde_json::to_string_pretty(&body)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string())
    } else {
        let refs: Vec<(String, &tau2::Results<_>)> =
            all.iter().map(|(f, r)| (f.clone(), r)).collect();
        for w in tau2::task_set_warnings(&refs) {
            let _ = writeln!(out, "warning: {w}");
        }
        let _ = writeln!(out, "{n}/{m} recorded action checks reproduced");
        Ok(term_safe(&out))
    }
}

/// One file's lines of the text report.
fn file_text<M>(out: &mut String, shown: &str, results: &tau2::Results<M>, r: &tau2::CheckReport) {
    let _ = write!(
        out,
        "{shown}: {} simulations ({}), {}/{} recorded action checks reproduced",
        r.simulations,
        tau2::model_name(results).unwrap_or_else(|| "no model in the file".into()),
        r.reproduced,
        r.checks
    );
    if r.compared_with_tasks > 0 {
        let _ = write!(
            out,
            "; recorded actions vs the {}: {} of {} simulations differ from the task their task_id names",
            r.task_source,
            r.mislabelled.len(),
            r.compared_with_tasks
        );
    } else {
        out.push_str("; no tasks to compare the recorded actions with (give --tasks)");
    }
    out.push('\n');
    for d in &r.disagreements {
        let _ = writeln!(
            out,
            "  simulation {}: the rule disagrees with the recorded check of `{}`",
            d.0, d.1
        );
    }
    for ml in r.mislabelled.iter().take(5) {
        let _ = writeln!(
            out,
            "  simulation {} (task_id {}): recorded actions {}",
            ml.simulation,
            ml.task_id,
            if ml.equals_tasks.is_empty() {
                "match no task".to_string()
            } else {
                format!(
                    "equal those of task {}{}",
                    ml.equals_tasks.join(", "),
                    match ml.equals_tasks_total.saturating_sub(ml.equals_tasks.len()) {
                        0 => String::new(),
                        more => format!(" and {more} more"),
                    }
                )
            }
        );
    }
    if r.mislabelled.len() > 5 {
        let _ = writeln!(out, "  … and {} more", r.mislabelled.len() - 5);
    }
}
