//! `gapscope compare`: is run A better than run B on the same tasks, and by
//! how much beyond noise (spec: comparisons.md; `gapscope_compare::compare`).

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gapscope_compare::{compare, CompareReport, Merge, RunKey, RunOptions, Source};
use gapscope_data::ingest::TrajectoryOptions;
use gapscope_stats::paired::{Adjusted, BootInterval, Settings};

use crate::args::{parse_renames, parse_scorer};
use crate::ingest;

#[derive(Args)]
pub struct CompareArgs {
    /// Trajectory files or folders of any format gapscope reads
    /// (docs/formats.md); folders are walked.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// What makes a run: `model` (default), `file`, or `field:NAME` with
    /// NAME one of model, family, domain, scenario_group,
    /// termination_reason, or a detail the format gives (docs/compare.md
    /// lists them per format).
    ///
    /// The details per format, by the label the viewer shows (compared as
    /// text; a trajectory without it goes to the run `(no NAME)`):
    /// τ²/τ³ simulation files: `mode` and the review details;
    /// τ-bench v1: `error`, `τ-bench reward info`;
    /// ATIF: `agent`, `ATIF`, `notes`, `tokens and cost`;
    /// Harbor: `agent`, `rewards`, `tokens and cost`;
    /// SWE-agent, mini-swe-agent: `exit status`, `submission`, `model stats`;
    /// Gemini CLI: `tokens`; OpenHands: `error`, `test result`;
    /// Claude Code: `session`, `models`, `tokens`, `subagents`, `subagent of`;
    /// Codex: `session`, `models`, `tokens`.
    /// `domain` is the τ² domain, the Inspect task, the τ-bench domain.
    #[arg(long, default_value = "model")]
    by: String,
    /// Merge runs into one: A,B=NAME; repeatable.
    #[arg(long)]
    merge: Vec<String>,
    /// Rename a run (by model: a model, before keying): OLD=NEW; repeatable.
    #[arg(long)]
    rename: Vec<String>,
    /// Inspect AI logs: the score that becomes the reward, SCORER or
    /// SCORER:KEY (default: the header's first scorer).
    #[arg(long)]
    scorer: Option<String>,
    /// An outcomes CSV (trajectory_id,task_id,reward) for files without
    /// rewards (Claude Code, Codex).
    #[arg(long)]
    outcomes: Option<PathBuf>,
    /// The domain (task set) of files that name none.
    #[arg(long)]
    domain: Option<String>,
    /// Count excluded trajectories (infrastructure errors, unscored) as
    /// failures (reward 0) instead of leaving them out.
    #[arg(long)]
    excluded_as_failures: bool,
    /// Divide every reward by this (default: as is on [0, 1], 0–100
    /// divided by 100, anything else refused).
    #[arg(long)]
    scale: Option<f64>,
    /// Bootstrap draws (0: no bootstrap interval).
    #[arg(long, default_value_t = 10_000)]
    bootstrap: usize,
    /// Random sign patterns of the permutation test when it is not exact.
    #[arg(long, default_value_t = 10_000)]
    permutations: usize,
    /// The seed of every draw.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the report as JSON (docs/report.md, "Comparison report").
    #[arg(long)]
    json: bool,
}

pub fn run(args: CompareArgs) -> Result<String, String> {
    let by: RunKey = args.by.parse().map_err(|e| format!("{e}"))?;
    let merges = args
        .merge
        .iter()
        .map(|m| m.parse::<Merge>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let renames = parse_renames(&args.rename)?;
    let settings = Settings::new(args.bootstrap, args.permutations, args.seed)
        .map_err(|e| format!("--bootstrap/--permutations: {e}"))?;
    let options = TrajectoryOptions {
        renames: if by == RunKey::Model {
            renames.clone()
        } else {
            Vec::new()
        },
        all_tasks: true,
        score: parse_scorer(args.scorer.as_deref())?,
        domain: args.domain,
        keep_repeats: false,
        model: None,
    };
    let inputs =
        ingest::read_trajectory_inputs(&args.paths, None, args.outcomes.as_deref(), &options)?;
    let src = Source::of(&inputs);
    let run_options = RunOptions {
        renames: if by == RunKey::Model {
            Vec::new()
        } else {
            renames
        },
        by,
        merges,
        excluded_as_failures: args.excluded_as_failures,
        scale: args.scale,
    };
    let report = compare(&src, &run_options, &settings).map_err(|e| e.to_string())?;
    for n in &report.notes {
        eprintln!("note: {}", crate::output::term_safe(n));
    }
    if args.json {
        serde_json::to_string_pretty(&report)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string())
    } else {
        Ok(text(&report))
    }
}

/// A reward on 0–100, one decimal; "—" when undefined.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |v| format!("{:.1}", 100.0 * v))
}

fn interval(i: Option<[f64; 2]>) -> String {
    i.map_or_else(
        || "—".into(),
        |[lo, hi]| format!("[{:.1}, {:.1}]", 100.0 * lo, 100.0 * hi),
    )
}

fn boot(i: Option<&BootInterval>) -> String {
    match i {
        None => "—".into(),
        Some(b) => match (b.lo, b.hi) {
            (Some(lo), Some(hi)) => format!(
                "[{:.1}, {:.1}]{}",
                100.0 * lo,
                100.0 * hi,
                if b.one_unit { " one unit" } else { "" }
            ),
            _ => "—".into(),
        },
    }
}

fn p(x: Option<f64>) -> String {
    match x {
        None => "—".into(),
        Some(v) if v < 1e-4 => format!("{v:.1e}"),
        Some(v) => format!("{v:.4}"),
    }
}

fn adjusted(a: &Adjusted) -> String {
    format!("{} (Holm {}, BH {})", p(a.raw), p(a.holm), p(a.bh))
}

/// The text tables: the runs, then every pair.
fn text(r: &CompareReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "runs by {}: reward 0–100; 95% intervals, clustered by task and task bootstrap (B = {}, seed {}){}",
        r.by,
        r.settings.draws(),
        r.settings.seed(),
        if r.excluded_as_failures {
            "; excluded trajectories counted as failures"
        } else {
            ""
        }
    );
    let k_max = r.max_pass_k();
    let mut header = vec![
        "run".to_string(),
        "mean".into(),
        "clustered".into(),
        "bootstrap".into(),
        "tasks, trajectories (k)".into(),
        "excluded".into(),
    ];
    header.extend((1..=k_max).map(|k| format!("pass^{k}")));
    header.push("flip rate".into());
    let mut rows = vec![header];
    for run in &r.runs {
        let s = &run.summary;
        let k = if run.trials[0] == run.trials[1] {
            format!("k {}", run.trials[0])
        } else {
            format!("k {}–{}", run.trials[0], run.trials[1])
        };
        let mut row = vec![
            run.name.clone(),
            pct(s.mean),
            interval(s.normal),
            boot(s.bootstrap.as_ref()),
            format!(
                "{} task{}, {} trajector{} ({k})",
                s.tasks,
                if s.tasks == 1 { "" } else { "s" },
                s.trajectories,
                if s.trajectories == 1 { "y" } else { "ies" }
            ),
            run.excluded.len().to_string(),
        ];
        row.extend((0..k_max).map(|i| {
            s.pass_hat
                .get(i)
                .map_or("—".into(), |pk| pct(Some(pk.value)))
        }));
        row.push(pct(s.flip_rate));
        rows.push(row);
    }
    table(&mut out, &rows);
    if r.pairs.is_empty() {
        let _ = writeln!(out, "\none run: nothing to compare it with");
        return out;
    }
    let _ = writeln!(
        out,
        "\npairs: Δ = A − B over the tasks both scored (each task weighs the same); p-values adjusted across the {} pair(s)",
        r.pairs.len()
    );
    let mut rows = vec![vec![
        "A − B".to_string(),
        "tasks".into(),
        "Δ".into(),
        "bootstrap".into(),
        "normal".into(),
        "sign test p".into(),
        "permutation p".into(),
        "MDE".into(),
    ]];
    for pair in &r.pairs {
        let c = &pair.comparison;
        let only = c.only_a.len() + c.only_b.len();
        rows.push(vec![
            format!("{} − {}", pair.a, pair.b),
            if only > 0 {
                format!("{} ({only} in one only)", c.common)
            } else {
                c.common.to_string()
            },
            c.delta.map_or("—".into(), |d| format!("{:+.1}", 100.0 * d)),
            boot(c.bootstrap.as_ref()),
            interval(c.normal),
            format!(
                "{}{}",
                adjusted(&pair.sign_test_p),
                if c.sign_test.exact_mcnemar {
                    " exact McNemar"
                } else {
                    ""
                }
            ),
            adjusted(&pair.permutation_p),
            pct(c.mde),
        ]);
    }
    table(&mut out, &rows);
    out
}

/// Columns padded to their widest cell (counted in characters).
fn table(out: &mut String, rows: &[Vec<String>]) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let pad = width[c].saturating_sub(cell.chars().count());
                format!("{cell}{}", " ".repeat(pad))
            })
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
}
