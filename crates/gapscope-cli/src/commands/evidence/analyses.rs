//! The addendum's analyses as text, after the base report: case-set
//! composition (Tables 6, 7), decision readiness, and the intervention
//! analyses (first action, distractors, withheld/contradicted evidence,
//! static vs interactive, SCGR). Rates print in percent, differences in
//! points; "—" is undefined, never 0.

use std::fmt::Write as _;

use gapscope_evidence::interventions::{Contrast, UnpairedRow};
use gapscope_evidence::EvidenceReport;

use super::{pad, pct, side_width};

fn points(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{:+.1}", 100.0 * v))
}

fn interval(v: Option<[f64; 2]>, scale: f64) -> String {
    v.map_or("—".into(), |[lo, hi]| {
        format!("[{:.1}, {:.1}]", scale * lo, scale * hi)
    })
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "—".to_string(),
        Some(p) if p < 1e-3 => format!("{p:.2e}"),
        Some(p) => format!("{p:.4}"),
    }
}

/// One contrast as a line: n matched, both rates, Δ with its interval, the
/// McNemar (binary outcomes), the dropped cases. `scale` 100 for rates
/// (points), 1 for counts.
fn contrast_line(s: &mut String, label: &str, c: &Contrast, scale: f64) {
    let q = &c.paired;
    let (a, b, d) = if scale == 1.0 {
        let f = |v: Option<f64>| v.map_or("—".into(), |v| format!("{v:.2}"));
        (
            f(q.rate_a),
            f(q.rate_b),
            q.delta.map_or("—".into(), |v| format!("{v:+.2}")),
        )
    } else {
        (pct(q.rate_a), pct(q.rate_b), points(q.delta))
    };
    let mut line = format!(
        "    {label:<28} n {:>3}: {} {a}, {} {b}, Δ {d}, 95% interval {}",
        q.n,
        c.treatment,
        c.reference,
        interval(q.interval, scale)
    );
    if let Some(m) = &q.mcnemar {
        let _ = write!(line, "; McNemar S = {}, p = {}", m.s, p_text(m.p_value));
    }
    if q.n == 0 {
        line.push_str(" (no case completed under both)");
    }
    if !c.dropped_treatment.is_empty() || !c.dropped_reference.is_empty() {
        let _ = write!(
            line,
            "; dropped by {}: {}, by {}: {}",
            c.treatment,
            c.dropped_treatment.len(),
            c.reference,
            c.dropped_reference.len()
        );
    }
    let _ = writeln!(s, "{line}");
}

fn unpaired_line(s: &mut String, side: &str, rows: &[UnpairedRow]) {
    let cells: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{} {} (n {}, done {})",
                r.row,
                pct(r.ecs),
                r.cases,
                pct(r.completion)
            )
        })
        .collect();
    let _ = writeln!(s, "    {side:<12} {}", cells.join("; "));
}

/// Every analysis of the addendum after the base report.
pub fn text(s: &mut String, r: &EvidenceReport) {
    let _ = writeln!(
        s,
        "\nCase-set composition (Tables 6 and 7; the planned case set)"
    );
    for line in gapscope_evidence::composition::text(&r.composition).lines() {
        let _ = writeln!(s, "  {line}");
    }
    readiness_text(s, r);
    interventions_text(s, r);
}

fn readiness_text(s: &mut String, r: &EvidenceReport) {
    let _ = writeln!(
        s,
        "\nDecision readiness (V0/V1: share of required reads satisfied before deciding; V2/V3: share of each gate's requirements established before it; within each repetition, then averaged)"
    );
    for c in &r.readiness {
        if let Some(why) = &c.reason {
            let _ = writeln!(
                s,
                "  {} {:<6} — ({why})",
                pad(&c.config, side_width(r)),
                c.protocol.name()
            );
            continue;
        }
        let pts: Vec<String> = c
            .points
            .iter()
            .map(|[x, y]| format!("≤{x:.2}: {}", pct(Some(*y))))
            .collect();
        let _ = writeln!(
            s,
            "  {} {:<6} n {} ({}–{}), mean {}%, at full support {}%  [{}]",
            pad(&c.config, side_width(r)),
            c.protocol.name(),
            c.n_mean.map_or("—".into(), |n| format!("{n:.1}")),
            c.n_min,
            c.n_max,
            pct(c.mean),
            pct(c.full_support),
            pts.join(", ")
        );
    }
}

fn interventions_text(s: &mut String, r: &EvidenceReport) {
    let iv = &r.interventions;
    if !iv.first_action.is_empty() {
        let _ = writeln!(
            s,
            "\nFirst action (§8.1; F(k) = share of pairs acting after ≤ k information calls, mean over matched cases; rule C)"
        );
        for f in &iv.first_action {
            let _ = writeln!(
                s,
                "  {}: reference {}, {} matched cases{}",
                f.config,
                f.reference,
                f.matched_cases,
                if f.dropped.is_empty() {
                    String::new()
                } else {
                    format!(", dropped {}", f.dropped.join(", "))
                }
            );
            for c in &f.curves {
                let fk: Vec<String> = c.f.iter().map(|v| format!("{v:.2}")).collect();
                let _ = writeln!(
                    s,
                    "    {:<22} F(0..{}) = {}; acted {}%",
                    c.condition,
                    f.k_max,
                    fk.join(" "),
                    pct(c.acted)
                );
            }
            for c in &f.acted {
                contrast_line(s, "Δ acted", c, 100.0);
            }
        }
    }
    if !iv.distractors.is_empty() {
        let _ = writeln!(s, "\nDistractors (§8.2; rule C)");
        for d in &iv.distractors {
            let _ = writeln!(
                s,
                "  {}: {} vs {}",
                d.config, d.acted.treatment, d.acted.reference
            );
            contrast_line(s, "information calls (mean)", &d.information_calls, 1.0);
            contrast_line(s, "Δ action probability", &d.acted, 100.0);
        }
    }
    if !iv.evidence.is_empty() {
        let _ = writeln!(
            s,
            "\nWithheld or contradicted evidence (§8.3; probed = every affected read called, any status; shares of matched episodes, %)"
        );
        for e in &iv.evidence {
            let _ = writeln!(
                s,
                "  {}: {} vs baseline, {} cases with an affected read",
                e.config, e.condition, e.cases
            );
            for sh in [&e.treatment, &e.reference] {
                let _ = writeln!(
                    s,
                    "    {:<22} n {:>3}: investigated stop {}, acted despite {}, acted uninvestigated {}, stopped uninvestigated {}; stops BLOCK {}, DEFER {}, other {}",
                    sh.condition,
                    sh.episodes,
                    pct(sh.investigated_stop),
                    pct(sh.acted_despite),
                    pct(sh.acted_uninvestigated),
                    pct(sh.stopped_uninvestigated),
                    sh.block,
                    sh.defer,
                    sh.other
                );
            }
            contrast_line(s, "Δ acted", &e.acted, 100.0);
            contrast_line(s, "Δ probed", &e.probed, 100.0);
        }
    }
    if !iv.static_vs_interactive.is_empty() {
        let _ = writeln!(
            s,
            "\nStatic vs interactive (§8.4, Table 9; V1 cases: static accuracy − interactive ECS; rule C)"
        );
        for st in &iv.static_vs_interactive {
            let _ = writeln!(s, "  {}", st.config);
            contrast_line(s, "gap", &st.gap, 100.0);
            let _ = writeln!(
                s,
                "    Legacy negatives under static: correct {}/{}, rejected (decision ≠ ALLOW) {}/{}",
                st.legacy_correct, st.legacy_scored, st.legacy_rejected, st.legacy_scored
            );
        }
    }
    if !iv.scgr.is_empty() {
        let _ = writeln!(
            s,
            "\nSCGR (§8.5, Tables 13, 14; unpaired: scored-only ECS %, planned cases, run completion %; then paired on the matched set)"
        );
        for g in &iv.scgr {
            let _ = writeln!(
                s,
                "  {}: {} vs baseline{}",
                g.config,
                g.condition,
                if g.case_sets_differ {
                    " (warning: the two case sets differ; the unpaired figures compare different cases)"
                } else {
                    ""
                }
            );
            unpaired_line(s, &g.condition, &g.treatment);
            unpaired_line(s, "baseline", &g.reference);
            for (row, c) in g.paired_rows.iter().zip(&g.paired) {
                contrast_line(s, row, c, 100.0);
            }
        }
    }
}
