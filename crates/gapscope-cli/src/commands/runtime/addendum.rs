//! The text of the addendum's sections of `gapscope runtime analyze`: per
//! slice M(c), the open condition set's contrasts, Table 20's turn
//! accounting and flags, Table 14's coverage and decision, the token cost
//! ratio, the gain curve's summary; per report the across analyses
//! (Tables 12, 21) and the horizon sweeps (Table 19). Every number comes
//! from the report.

use std::fmt::Write as _;

use gapscope_runtime::metrics::{Contrast, Estimate};
use gapscope_runtime::sections::{AcrossSection, HorizonSection};
use gapscope_runtime::{RuntimeReport, SliceReport};

use super::{arm_label, ci, num};

fn est(e: &Estimate, prec: usize) -> String {
    let v = num(e.value, prec, false);
    match e.ci95 {
        Some([lo, hi]) => format!("{v} [{lo:.prec$}, {hi:.prec$}]"),
        None => v,
    }
}

fn con(c: &Contrast) -> String {
    format!(
        "{} {} n={}",
        num(c.value, 2, true),
        ci(c.ci95, true),
        c.n_shared
    )
}

/// The addendum's sections of one slice.
pub(super) fn slice_text(s: &mut String, sl: &SliceReport) {
    let ms: Vec<String> = sl
        .tables
        .iter()
        .map(|t| format!("M({}) = {}", t.cap, con(&t.m)))
        .collect();
    if !ms.is_empty() {
        let _ = writeln!(
            s,
            "model selection under S, M = Q_PS - Q_SS: {}",
            ms.join("; ")
        );
    }
    if !sl.contrasts.is_empty() {
        let _ = writeln!(
            s,
            "\ncontrasts of the condition set (Q_A - Q_B, shared ids, paired)"
        );
        // The label column fits the longest pair of arms.
        let label = |c: &gapscope_runtime::ArmContrast| format!("{} - {}", c.a, c.b);
        let w = sl
            .contrasts
            .iter()
            .map(|c| label(c).chars().count())
            .max()
            .unwrap_or(0)
            .max(26);
        for c in &sl.contrasts {
            let _ = writeln!(s, "  {:>5}  {:<w$} {}", c.cap, label(c), con(&c.contrast));
        }
    }
    let carried: Vec<String> = sl
        .trace
        .iter()
        .filter(|t| t.carried_turns > 0)
        .map(|t| {
            format!(
                "{} c={}: {} carried turn(s), NameError on them {}/ep{}",
                arm_label(t.condition, t.intervention.as_deref()),
                t.cap,
                t.carried_turns,
                num(t.name_error_carried.mean, 2, false),
                if t.carried_in_other > 0 {
                    format!(
                        ", carried_in on {} other turn(s) (flagged)",
                        t.carried_in_other
                    )
                } else {
                    String::new()
                }
            )
        })
        .collect();
    if !carried.is_empty() {
        let _ = writeln!(s, "\ncarried turns (the next logged turn after a cap hit)");
        for c in carried {
            let _ = writeln!(s, "  {c}");
        }
    }
    accounting_text(s, sl);
    mechanism_text(s, sl);
}

/// Table 20 and the flags.
fn accounting_text(s: &mut String, sl: &SliceReport) {
    if !sl.accounting.is_empty() {
        let _ = writeln!(
            s,
            "\nturn accounting (Table 20)\n{:>5} {:<22} {:>20} {:>20} {:>6} {:>8} {:>7} {:>7} {:>16}",
            "cap", "cond", "attempted", "steps", "failed", "rejected", "unclass", "context", "overflowed y/n/?"
        );
        for a in &sl.accounting {
            let _ = writeln!(
                s,
                "{:>5} {:<22} {:>20} {:>20} {:>6} {:>8} {:>7} {:>7} {:>16}",
                a.cap,
                a.condition.label(),
                est(&a.attempted, 1),
                est(&a.steps, 1),
                a.failed,
                a.rejected,
                a.unclassified,
                a.context
                    .as_ref()
                    .map_or("—".into(), gapscope_runtime::accounting::KOfN::label),
                format!(
                    "{}/{}/{}",
                    a.overflowed.yes, a.overflowed.no, a.overflowed.unknown
                )
            );
        }
        let flags: Vec<String> = sl
            .accounting
            .iter()
            .flat_map(|a| {
                a.flags
                    .iter()
                    .map(gapscope_runtime::accounting::AccountingFlag::describe)
            })
            .collect();
        for f in flags.iter().take(20) {
            let _ = writeln!(s, "  flag: {f}");
        }
        if flags.len() > 20 {
            let _ = writeln!(
                s,
                "  … and {} more flags (--json lists them)",
                flags.len() - 20
            );
        }
    }
}

/// Table 14, the cost ratio and the gain curve's summary.
fn mechanism_text(s: &mut String, sl: &SliceReport) {
    if !sl.mechanism.is_empty() {
        let _ = writeln!(
            s,
            "\ncoverage and decision (Table 14; per id first)\n{:>5} {:<22} {:>20} {:>20} {:>20} {:>6} {:>9}",
            "cap", "cond", "coverage", "decision", "recall", "blind", "left out"
        );
        for m in &sl.mechanism {
            let c = &m.cell;
            let left = c.left_out.no_instance
                + c.left_out.unreadable_instance
                + c.left_out.opt_zero
                + c.left_out.opt_inspected_zero;
            let _ = writeln!(
                s,
                "{:>5} {:<22} {:>20} {:>20} {:>20} {:>6} {:>9}",
                m.cap,
                arm_label(m.condition, m.intervention.as_deref()),
                est(&c.coverage, 2),
                est(&c.decision, 2),
                est(&c.recall, 2),
                c.blind_takes,
                left
            );
        }
    }
    if !sl.cost.is_empty() {
        let _ = writeln!(
            s,
            "\ntoken cost ratio (ratio of mean tokens on shared ids, paired)"
        );
        for r in &sl.cost {
            let v = match (&r.value, &r.undefined) {
                (Some(v), _) => format!(
                    "{v:.2}× {} n={} (T̄ {} / {}; input share {} / {})",
                    ci(r.ci95, false),
                    r.n_shared,
                    num(r.mean_a, 0, false),
                    num(r.mean_b, 0, false),
                    num(r.cell_a.input_share, 3, false),
                    num(r.cell_b.input_share, 3, false)
                ),
                (None, Some(u)) => format!("— ({u})"),
                (None, None) => "—".into(),
            };
            let _ = writeln!(s, "  {}: {v}", r.label);
        }
    }
    if let Some(g) = &sl.gain {
        let _ = writeln!(
            s,
            "\ndistinct items gained against inspect calls (cap {})",
            g.cap
        );
        match (&g.report, &g.undefined) {
            (Some(r), _) => {
                let _ = writeln!(
                    s,
                    "  {} shared id(s); common baseline b̄ = {}",
                    r.shared_ids,
                    est(&r.common_baseline, 1)
                );
                for c in &r.conditions {
                    let _ = writeln!(
                        s,
                        "  {:<22} X̄ = {}, Ḡ = {}, b̄ = {}{}",
                        c.label,
                        est(&c.inspect_calls, 1),
                        est(&c.gain, 1),
                        est(&c.baseline, 1),
                        c.gain_vs_first
                            .as_ref()
                            .map(|d| format!(", Ḡ − first {}", con(d)))
                            .unwrap_or_default()
                    );
                }
            }
            (None, Some(u)) => {
                let _ = writeln!(s, "  undefined: {u}");
            }
            (None, None) => {}
        }
    }
}

fn across_text(s: &mut String, a: &AcrossSection) {
    let fields: Vec<String> = a
        .fields
        .iter()
        .map(|f| {
            serde_json::to_value(f)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        })
        .collect();
    let _ = writeln!(s, "\n== across {} · {}", fields.join(","), a.group);
    let Some(r) = &a.report else {
        let _ = writeln!(s, "not computed: {}", a.error.as_deref().unwrap_or("—"));
        return;
    };
    let names: Vec<String> = r
        .columns
        .iter()
        .map(|c| format!("{} (n={})", c.name, c.n_ids))
        .collect();
    let _ = writeln!(
        s,
        "columns: {}; c_tight {}, c_slack {}; {} common id(s); pooled: {}",
        names.join(", "),
        r.c_tight,
        r.c_slack,
        r.common_ids.len(),
        r.method
    );
    for w in &r.warnings {
        let _ = writeln!(s, "note: {w}");
    }
    if !r.requested_not_found.is_empty() {
        let _ = writeln!(
            s,
            "note: requested ids not found: {}",
            r.requested_not_found.join(", ")
        );
    }
    for row in &r.rows {
        let cols: Vec<String> = row
            .columns
            .iter()
            .map(|c| {
                format!(
                    "{:<22}",
                    format!("{} {}", num(c.value, 2, true), ci(c.ci95, true))
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "  {:<16} {} | pooled {} {} | {} ({} above 0, {} below)",
            row.statistic,
            cols.join(" "),
            num(row.pooled.value, 2, true),
            ci(row.pooled.ci95, true),
            row.summary,
            row.above_zero,
            row.below_zero
        );
    }
}

fn horizon_text(s: &mut String, h: &HorizonSection) {
    let _ = writeln!(s, "\n== horizon sweep · {}", h.group);
    let Some(sw) = &h.sweep else {
        let _ = writeln!(s, "not computed: {}", h.error.as_deref().unwrap_or("—"));
        return;
    };
    let _ = writeln!(
        s,
        "cap {}; {} common id(s); differences against {}",
        sw.cap,
        sw.common_ids.len(),
        sw.baseline
    );
    for w in &sw.warnings {
        let _ = writeln!(s, "note: {w}");
    }
    for row in &sw.rows {
        let cells: Vec<String> = row
            .cells
            .iter()
            .map(|c| {
                format!(
                    "{} {}{} overflow {}{}",
                    c.condition.label(),
                    est(&c.q, 2),
                    c.delta
                        .as_ref()
                        .map(|d| format!(" Δ {}", con(d)))
                        .unwrap_or_default(),
                    c.overflowed.label(),
                    if c.overflow.unknown > 0 {
                        format!(" ({} unknown)", c.overflow.unknown)
                    } else {
                        String::new()
                    }
                )
            })
            .collect();
        let _ = writeln!(s, "  {}: {}", row.label, cells.join("; "));
    }
}

/// The report-level sections.
pub(super) fn report_text(s: &mut String, r: &RuntimeReport) {
    for a in &r.across {
        across_text(s, a);
    }
    for h in &r.horizon_sweeps {
        horizon_text(s, h);
    }
}
