//! `gapscope evidence score`: per-episode verdicts with failure types, then
//! ECS (scored-only and all-planned), coverage, failure decomposition,
//! investigation effort, paired comparisons by protocol, and the addendum's
//! analyses ([`super::analyses`]; docs/evidence.md).

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use gapscope_evidence::report::MeanSd;
use gapscope_evidence::{evaluate, EvidenceReport, EvidenceSettings, FailureType, RunPlan};

use super::{pad, pct, read, side_width};

#[derive(Args)]
pub struct ScoreArgs {
    /// Case specs: JSONL, one JSON object, or a JSON array.
    #[arg(long)]
    cases: PathBuf,
    /// Trajectories (JSONL with case_id, config, condition (default
    /// baseline), repetition, status).
    #[arg(long)]
    trajectories: PathBuf,
    /// Run manifest {"cases": [...], "configs": [...], "conditions": [...],
    /// "repetitions": N}, or an array of such objects (their union);
    /// default: per side, the cases seen (baseline: every case) × the
    /// repetitions 0..max seen.
    #[arg(long)]
    plan: Option<PathBuf>,
    /// Sides to compare, A,B (A − B), each `config` or `config@condition`;
    /// repeatable. Default: every pair of configurations within each
    /// condition.
    #[arg(long)]
    pair: Vec<String>,
    /// First-action analysis (§8.1) other than the default: the reference
    /// and its treatments, `REF:T1,T2,…` (default: withheld, else baseline,
    /// against every other condition but static).
    #[arg(long, value_name = "REF:T1,T2")]
    first_action: Option<String>,
    /// A distractor pair (§8.2) `T:R` (treatment, reference); repeatable
    /// (default: X_distractor vs X, distractor vs baseline).
    #[arg(long, value_name = "T:R")]
    distractor: Vec<String>,
    /// A condition compared with baseline as withheld or contradicted
    /// evidence (§8.3); repeatable (default: those a case's `conditions`
    /// names, or starting withheld / contradicted).
    #[arg(long, value_name = "CONDITION")]
    evidence_condition: Vec<String>,
    /// A condition compared with baseline as an SCGR variant (§8.5);
    /// repeatable (default: scgr_*).
    #[arg(long, value_name = "CONDITION")]
    scgr: Vec<String>,
    /// Paired-bootstrap draws over cases.
    #[arg(long, default_value_t = gapscope_evidence::DEFAULT_BOOTSTRAP)]
    bootstrap: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the full report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ScoreArgs) -> Result<String, String> {
    let cases_text = read(&args.cases)?;
    let trajectories_text = read(&args.trajectories)?;
    let plan = match &args.plan {
        Some(p) => Some(RunPlan::parse(&read(p)?).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };
    let pairs = args
        .pair
        .iter()
        .map(|p| match p.split_once(',') {
            Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
                Ok((a.trim().to_string(), b.trim().to_string()))
            }
            _ => Err(format!("--pair: expected A,B, got `{p}`")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    // One parser with the page (`Rows::parse`): distractor pairs joined by
    // `;`, conditions by `,`.
    let rows = gapscope_evidence::interventions::Rows::parse(
        args.first_action.as_deref().unwrap_or(""),
        &args.distractor.join(";"),
        &args.evidence_condition.join(","),
        &args.scgr.join(","),
    )
    .map_err(|e| format!("--{}", e.replacen("first action", "first-action", 1)))?;
    let settings = EvidenceSettings {
        bootstrap: args.bootstrap,
        seed: args.seed,
        pairs,
        plan,
        rows,
    };
    let report = evaluate(&cases_text, &trajectories_text, &settings).map_err(|e| {
        use gapscope_evidence::EvidenceError as E;
        let file = match e {
            E::CaseJson { .. } | E::Case { .. } | E::CasesOfOtherPart(_) => {
                args.cases.display().to_string()
            }
            E::TrajectoryJson { .. } | E::Trajectory { .. } | E::TrajectoriesOfOtherPart(_) => {
                args.trajectories.display().to_string()
            }
            E::Plan(_) | E::Settings(_) => return e.to_string(),
        };
        format!("{file}: {e}")
    })?;
    if args.json {
        serde_json::to_string_pretty(&report)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string())
    } else {
        Ok(text(&report))
    }
}

/// The widest the episode list's id column gets.
const ID_COLUMN: usize = 64;

fn mean_sd(m: &MeanSd) -> String {
    match (m.mean, m.sd) {
        (Some(mean), Some(sd)) => format!("{:.1}±{:.1}", 100.0 * mean, 100.0 * sd),
        (Some(mean), None) => format!("{:.1}", 100.0 * mean),
        _ => "—".into(),
    }
}

/// The report as readable text (rates in percent).
pub fn text(r: &EvidenceReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Evidence to action: {} cases, {} trajectories; {} configuration{}, repetitions {:?}",
        r.cases.len(),
        r.episodes.len(),
        r.configs.len(),
        if r.configs.len() == 1 { "" } else { "s" },
        r.repetitions
    );
    for w in &r.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    episodes_text(&mut s, r);
    coverage_and_ecs_text(&mut s, r);
    failures_and_effort_text(&mut s, r);
    paired_text(&mut s, r);
    super::analyses::text(&mut s, r);
    let _ = writeln!(
        s,
        "\nFailure types: {}",
        FailureType::ALL.map(FailureType::name).join(", ")
    );
    s
}

/// The episode list: a verdict per trajectory.
fn episodes_text(s: &mut String, r: &EvidenceReport) {
    let _ = writeln!(s, "\nEpisodes (verdict, failure type, where)");
    // The id column is as wide as the longest id up to ID_COLUMN characters
    // (longer ids overflow it). Padded by hand: a format width above 65,535
    // panics ("Formatting argument out of range"), as a 64 KB id did.
    let idw = r
        .episodes
        .iter()
        .map(|e| e.trajectory_id.chars().count())
        .max()
        .unwrap_or(2)
        .min(ID_COLUMN);
    for e in &r.episodes {
        let verdict = match (e.scored, e.failure) {
            (false, _) => "unscored (infrastructure failure)".to_string(),
            (true, None) => "ECS 1".to_string(),
            (true, Some(f)) => format!(
                "ECS 0  {f}  {}",
                e.failure_reason.clone().unwrap_or_default()
            ),
        };
        let _ = writeln!(
            s,
            "  {}  {:<6}  {verdict}",
            pad(&e.trajectory_id, idw),
            e.protocol.name()
        );
    }
}

/// Coverage, then ECS overall, by protocol and by domain.
fn coverage_and_ecs_text(s: &mut String, r: &EvidenceReport) {
    let _ = writeln!(
        s,
        "\nCoverage (scored / planned; unscored runs are not failures)"
    );
    for c in &r.coverage {
        let _ = writeln!(
            s,
            "  {} {:>4} / {:<4} {:>6}%  infrastructure failures {}, missing {}",
            pad(c.config.as_deref().unwrap_or("all"), side_width(r)),
            c.scored,
            c.planned,
            pct(c.coverage),
            c.infrastructure_failures,
            c.missing
        );
    }

    let _ = writeln!(
        s,
        "\nECS, % (within each repetition over scored runs; mean ± sample SD across repetitions)"
    );
    ecs_table(s, r, &r.ecs);
    if r.coverage.last().and_then(|c| c.coverage) != Some(1.0) {
        let _ = writeln!(
            s,
            "\nECS over all planned runs, % (addendum §5: unscored runs count 0; equal to the above at coverage 1)"
        );
        ecs_table(s, r, &r.ecs_all_planned);
    }
    if r.ecs.iter().any(|c| c.manipulated) {
        let _ = writeln!(
            s,
            "  †: the side's condition manipulates evidence (a case's `conditions`); scored against the unmanipulated spec, diagnostic only"
        );
    }
    let _ = writeln!(s, "\nECS by domain, %");
    for c in &r.ecs {
        let _ = writeln!(s, "  {}", c.config);
        for (d, m) in &c.summary.by_domain {
            let _ = writeln!(s, "    {d:<28} {:>10}", mean_sd(m));
        }
    }
}

/// One ECS table (overall, per protocol of the plan, P-M, D-M), a row per
/// side; a side without a protocol's cases shows a blank.
fn ecs_table(s: &mut String, r: &EvidenceReport, rows: &[gapscope_evidence::ConfigEcs]) {
    let w = r
        .ecs
        .iter()
        .map(|c| c.config.chars().count() + 2)
        .max()
        .unwrap_or(0)
        .max(24);
    let mut header = format!("  {} {:>10}", pad("side", w), "overall");
    for p in &r.protocols {
        let _ = write!(header, " {:>10}", p.name());
    }
    let _ = write!(header, " {:>10} {:>10}", "P-M", "D-M");
    let _ = writeln!(s, "{header}");
    for c in rows {
        let label = if c.manipulated {
            format!("{} †", c.config)
        } else {
            c.config.clone()
        };
        let mut line = format!("  {} {:>10}", pad(&label, w), mean_sd(&c.summary.overall));
        for p in &r.protocols {
            let cell = c
                .summary
                .by_protocol
                .get(p.name())
                .map_or(String::new(), mean_sd);
            let _ = write!(line, " {cell:>10}");
        }
        let _ = write!(
            line,
            " {:>10} {:>10}",
            mean_sd(&c.summary.protocol_macro),
            mean_sd(&c.summary.domain_macro)
        );
        let _ = writeln!(s, "{line}");
    }
}

/// The failure decomposition and the investigation-effort curves.
fn failures_and_effort_text(s: &mut String, r: &EvidenceReport) {
    let _ = writeln!(
        s,
        "\nFailure decomposition (episodes over repetitions; share of scored, %)"
    );
    for b in &r.failures {
        let parts: Vec<String> = b
            .segments
            .iter()
            .filter(|g| g.count > 0)
            .map(|g| format!("{} {} ({})", g.failure, g.count, pct(g.share)))
            .collect();
        let _ = writeln!(
            s,
            "  {} {:<6} scored {:>3}, success {:>3} ({}){}{}",
            pad(&b.config, side_width(r)),
            b.protocol.name(),
            b.scored,
            b.successes,
            pct(b.success_share),
            if parts.is_empty() { "" } else { "; " },
            parts.join(", ")
        );
    }

    let _ = writeln!(
        s,
        "\nInvestigation effort (share with completed investigation at normalized information calls ≤ x)"
    );
    for c in &r.effort {
        let pts: Vec<String> = c
            .points
            .iter()
            .map(|[x, y]| format!("≤{x:.2}: {}", pct(Some(*y))))
            .collect();
        let _ = writeln!(
            s,
            "  {} {:<6} n {:>3}, plateau {}%  [{}]",
            pad(&c.config, side_width(r)),
            c.protocol.name(),
            c.episodes,
            pct(c.plateau),
            pts.join(", ")
        );
    }
}

/// The paired comparisons, and the failure types named.
fn p_text(p: Option<f64>) -> String {
    match p {
        None => "— (no case)".to_string(),
        Some(p) if p < 1e-3 => format!("{p:.2e}"),
        Some(p) => format!("{p:.4}"),
    }
}

fn paired_text(s: &mut String, r: &EvidenceReport) {
    for p in &r.paired {
        let _ = writeln!(
            s,
            "\nPaired comparison {} − {} over {} cases planned on both, rule {} (B = {})",
            p.a,
            p.b,
            p.cases,
            p.rule.name(),
            p.bootstrap
        );
        for row in &p.rows {
            let q = &row.paired;
            let ci = q.interval.map_or("—".into(), |[lo, hi]| {
                format!("[{:.1}, {:.1}]", 100.0 * lo, 100.0 * hi)
            });
            let pct = |x: Option<f64>| x.map_or("—".into(), |v| format!("{:.1}", 100.0 * v));
            let _ = writeln!(
                s,
                "  {:<7}{} n {:>3}: ECS A {} %, B {} %, Δ {} points, 95% interval {ci}; unscored A {}, B {}",
                row.row,
                if row.headline { "*" } else { " " },
                q.n,
                pct(q.rate_a),
                pct(q.rate_b),
                q.delta.map_or("—".into(), |d| format!("{:+.1}", 100.0 * d)),
                q.unscored_a,
                q.unscored_b
            );
            if let Some(m) = &q.mcnemar {
                let _ = writeln!(
                    s,
                    "           clustered exact McNemar: {} pairs; both {}, only A {}, only B {}, neither {}; {} discordant cases, S = {}; p = {}",
                    m.pairs,
                    m.both_succeed,
                    m.only_a,
                    m.only_b,
                    m.both_fail,
                    m.discordant_cases,
                    m.s,
                    p_text(m.p_value)
                );
            }
        }
        let t = &p.per_repetition;
        let ms = |m: &gapscope_evidence::MeanSd| match (m.mean, m.sd) {
            (Some(x), Some(sd)) => format!("{:.1} ± {:.1}", 100.0 * x, 100.0 * sd),
            (Some(x), None) => format!("{:.1}", 100.0 * x),
            _ => "—".into(),
        };
        let _ = writeln!(
            s,
            "  * headline (V0–V3; Legacy apart). Per repetition (Table 12, all-planned ECS over V0–V3): A {}, B {}, Δ {} points; {} up, {} down, {} equal{}",
            ms(&t.a),
            ms(&t.b),
            ms(&t.delta),
            t.positive,
            t.negative,
            t.zero,
            if t.consistent { ", consistent" } else { "" }
        );
    }
}
