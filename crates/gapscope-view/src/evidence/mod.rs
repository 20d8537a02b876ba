//! View models of the "Evidence to action" page (docs/evidence.md): tables
//! and figures built from an [`EvidenceReport`] (`evidence::evaluate`), the
//! episode ids behind each bar segment for click-through, the filterable
//! episode list, and an episode view model that replays one trajectory
//! message by message with its ledger events. No leptos here; every number
//! is a field of the report (rates are shown in percent).

use gapscope_evidence::{Episode, EvidenceReport, FailureType, MeanSd, Protocol};

use crate::chart::{self, Join, LegendItem, Line, LinePoint, Segment, StackedBar, FAMILY_COLOURS};
use crate::format::fmt;
use crate::table::{Cell, Table};

pub mod analyses;
mod replay;
pub use replay::{
    episode_view, CallView, EpisodeView, EstablishedAt, LedgerEvent, RequirementView, ResultView,
    StepView, Tone,
};

/// The page's sub-views, in menu order: (id, label, one-line explanation).
pub const EVIDENCE_VIEWS: [(&str, &str, &str); 10] = [
    ("ecs", "ECS", "Evidence-consistent success: the share of scored episodes where every action was supported by evidence observed before it, per protocol and domain (mean ± SD over repetitions)."),
    ("coverage", "Coverage", "Which planned runs were scored; infrastructure failures and missing runs are counted apart, never as agent failures."),
    ("failures", "Failure types", "Why episodes failed, per configuration and protocol (stacked bars). Click a segment for its episodes."),
    ("effort", "Investigation effort", "Share of episodes that completed the required reads using at most x times the required number of information calls."),
    ("paired", "Paired comparison", "Two configurations on the same cases, by protocol with V0–V3 as the headline and Legacy apart: per-case ECS difference with a bootstrap 95% interval, the clustered exact McNemar test (cases as units), and the difference per repetition."),
    ("readiness", "Decision readiness", "How much of the required evidence an agent held when it decided: V0/V1 the share of required reads satisfied before acting (or by the end), V2/V3 the share of each action's requirements established before it."),
    ("interventions", "Interventions", "Conditions against their reference on matched pairs: when agents first act, what distractors cost, how they respond to withheld or contradicted evidence, static vs interactive, SCGR variants. Click a point, bar or row for its episodes."),
    ("composition", "Case set", "The planned case set: cases by protocol and domain (Table 6), and required reads, actions, dependency edges, forks and joins (Table 7)."),
    ("episodes", "Episodes", "Every episode with its case, configuration, verdict and failure type; filter by configuration, protocol and failure."),
    ("episode", "Episode replay", "One trajectory message by message: the tool calls, when each requirement was established, and why each action was or was not supported."),
];

/// The `data-failure` value (and filter value) of supported episodes.
pub const SUCCESS: &str = "success";
/// Filter value of unscored (infrastructure-failure) episodes.
pub const UNSCORED: &str = "unscored";

/// Okabe–Ito bluish green: supported, established.
pub const GOOD: &str = "#009E73";
/// Okabe–Ito vermillion: failed, not established.
pub const BAD: &str = "#D55E00";
/// Grey of supported segments in the failure chart.
const SUCCESS_FILL: &str = "#d9d9d9";

fn pct(v: Option<f64>) -> Option<f64> {
    v.map(|x| x * 100.0)
}

/// Colour of a failure type: the palette in the spec's order; types beyond
/// the eighth reuse a colour with hatching (`true`).
pub fn failure_colour(f: FailureType) -> (&'static str, bool) {
    let k = FailureType::ALL.iter().position(|x| *x == f).unwrap_or(0);
    (
        FAMILY_COLOURS[k % FAMILY_COLOURS.len()],
        k >= FAMILY_COLOURS.len(),
    )
}

/// The colour of a side (by its label), in the order of `sides`.
fn config_colour(r: &EvidenceReport, side: &str) -> &'static str {
    let k = r.sides.iter().position(|c| c.label == side).unwrap_or(0);
    FAMILY_COLOURS[k % FAMILY_COLOURS.len()]
}

/// An episode's side label: `config`, or `config@condition` (addendum §1).
pub fn side_of(e: &Episode) -> String {
    gapscope_evidence::side_label(&e.config, &e.condition)
}

fn mean_sd_cells(m: Option<&MeanSd>) -> [Cell; 3] {
    [
        Cell::num(pct(m.and_then(|m| m.mean)), 1),
        Cell::num(pct(m.and_then(|m| m.sd)), 1),
        Cell::text(m.map_or("0".into(), |m| m.n.to_string())),
    ]
}

/// One row of an ECS table: the label, then mean, SD and n of `pick` for
/// each side of `tables` (scored-only or all-planned).
fn ecs_row(
    label: String,
    tables: &[gapscope_evidence::ConfigEcs],
    pick: &dyn Fn(&gapscope_evidence::ConfigEcs) -> Option<MeanSd>,
) -> Vec<Cell> {
    let mut cells = vec![Cell::text(label)];
    for c in tables {
        cells.extend(mean_sd_cells(pick(c).as_ref()));
    }
    cells
}

fn per_config_headers(r: &EvidenceReport, first: &str) -> Vec<String> {
    let mut h = vec![first.to_string()];
    for c in r.ecs.iter().map(|c| &c.config) {
        h.push(format!("{c} ECS %"));
        h.push(format!("{c} SD"));
        h.push(format!("{c} n"));
    }
    h
}

/// ECS per protocol: overall, each protocol, and the protocol macro P-M;
/// per configuration the mean and sample SD across repetitions (percent) and
/// the repetitions where it is defined.
pub fn ecs_protocol_table(r: &EvidenceReport) -> Table {
    let mut rows = Vec::new();
    let mut row =
        |label: String, pick: &dyn Fn(&gapscope_evidence::ConfigEcs) -> Option<MeanSd>| {
            rows.push(ecs_row(label, &r.ecs, pick));
        };
    row("Overall".into(), &|c| Some(c.summary.overall));
    for p in &r.protocols {
        row(p.name().into(), &|c| {
            c.summary.by_protocol.get(p.name()).copied()
        });
    }
    row("P-M (protocol macro)".into(), &|c| {
        Some(c.summary.protocol_macro)
    });
    Table {
        title: format!(
            "ECS per protocol (percent; mean ± SD over {} repetition{})",
            r.repetitions.len(),
            if r.repetitions.len() == 1 { "" } else { "s" }
        ),
        headers: per_config_headers(r, "Protocol"),
        rows,
    }
}

/// ECS per domain and the domain macro D-M, as [`ecs_protocol_table`].
pub fn ecs_domain_table(r: &EvidenceReport) -> Table {
    let mut rows = Vec::new();
    let mut row =
        |label: String, pick: &dyn Fn(&gapscope_evidence::ConfigEcs) -> Option<MeanSd>| {
            rows.push(ecs_row(label, &r.ecs, pick));
        };
    for d in &r.domains {
        row(d.clone(), &|c| c.summary.by_domain.get(d).copied());
    }
    row("D-M (domain macro)".into(), &|c| {
        Some(c.summary.domain_macro)
    });
    Table {
        title: format!(
            "ECS per domain (percent; mean ± SD over {} repetition{})",
            r.repetitions.len(),
            if r.repetitions.len() == 1 { "" } else { "s" }
        ),
        headers: per_config_headers(r, "Domain"),
        rows,
    }
}

/// Coverage per configuration and in total.
pub fn coverage_table(r: &EvidenceReport) -> Table {
    Table {
        title: "Coverage: scored of planned runs (infrastructure failures are not agent failures)"
            .into(),
        headers: [
            "Configuration",
            "Planned",
            "Scored",
            "Coverage %",
            "Infrastructure failures",
            "Missing",
            "Unscored episodes",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .coverage
            .iter()
            .map(|c| {
                vec![
                    Cell::text(c.config.clone().unwrap_or_else(|| "All".into())),
                    Cell::text(c.planned.to_string()),
                    Cell::text(c.scored.to_string()),
                    Cell::num(pct(c.coverage), 1),
                    Cell::text(c.infrastructure_failures.to_string()),
                    Cell::text(c.missing.to_string()),
                    Cell::text(c.infrastructure_failure_ids.join(", ")),
                ]
            })
            .collect(),
    }
}

/// The failure decomposition as stacked bars: one bar per configuration ×
/// protocol, segments = supported (grey) then each failure type, lengths =
/// shares (within each repetition, then averaged). Every segment carries
/// `data-config`, `data-protocol` and `data-failure` (a failure name or
/// [`SUCCESS`]); [`bar_episodes`] gives its episode ids.
pub fn failure_chart(r: &EvidenceReport) -> String {
    let bars: Vec<StackedBar> = r
        .failures
        .iter()
        .map(|b| {
            let data = |f: &str| {
                vec![
                    ("config", b.config.clone()),
                    ("protocol", b.protocol.name().to_string()),
                    ("failure", f.to_string()),
                ]
            };
            let mut segments = vec![Segment {
                value: b.success_share.unwrap_or(0.0),
                colour: SUCCESS_FILL.into(),
                hatch: false,
                tip: format!(
                    "{} · {}\nsupported: {} of {} scored ({} %)",
                    b.config,
                    b.protocol.name(),
                    b.successes,
                    b.scored,
                    fmt(pct(b.success_share), 1)
                ),
                data: data(SUCCESS),
            }];
            for s in &b.segments {
                let (colour, hatch) = failure_colour(s.failure);
                segments.push(Segment {
                    value: s.share.unwrap_or(0.0),
                    colour: colour.into(),
                    hatch,
                    tip: format!(
                        "{} · {}\n{}: {} of {} scored ({} %)\nclick for the episodes",
                        b.config,
                        b.protocol.name(),
                        s.failure.name(),
                        s.count,
                        b.scored,
                        fmt(pct(s.share), 1)
                    ),
                    data: data(s.failure.name()),
                });
            }
            StackedBar {
                label: format!("{} · {}", b.config, b.protocol.name()),
                segments,
            }
        })
        .collect();
    let mut legend = vec![LegendItem {
        label: "supported".into(),
        colour: SUCCESS_FILL.into(),
        hatch: false,
    }];
    legend.extend(FailureType::ALL.iter().map(|f| {
        let (colour, hatch) = failure_colour(*f);
        LegendItem {
            label: f.name().into(),
            colour: colour.into(),
            hatch,
        }
    }));
    chart::stacked_bars(
        "Failure decomposition per configuration and protocol",
        "share of scored episodes (per repetition, averaged)",
        &bars,
        &legend,
    )
}

/// The episode ids behind one bar segment (`failure`: a failure name or
/// [`SUCCESS`]); empty when there is no such bar.
pub fn bar_episodes(
    r: &EvidenceReport,
    config: &str,
    protocol: &str,
    failure: &str,
) -> Vec<String> {
    let Some(bar) = r
        .failures
        .iter()
        .find(|b| b.config == config && b.protocol.name() == protocol)
    else {
        return Vec::new();
    };
    if failure == SUCCESS {
        return r
            .episodes
            .iter()
            .filter(|e| {
                e.scored
                    && e.success == Some(true)
                    && side_of(e) == config
                    && e.protocol == bar.protocol
            })
            .map(|e| e.trajectory_id.clone())
            .collect();
    }
    bar.segments
        .iter()
        .find(|s| s.failure.name() == failure)
        .map(|s| s.episode_ids.clone())
        .unwrap_or_default()
}

/// The failure chart as a table: every outcome with at least one episode,
/// per configuration × protocol (the chart's text alternative).
pub fn failure_table(r: &EvidenceReport) -> Table {
    let mut rows = Vec::new();
    for b in &r.failures {
        rows.push(vec![
            Cell::text(&b.config),
            Cell::text(b.protocol.name()),
            Cell::text(SUCCESS),
            Cell::text(b.successes.to_string()),
            Cell::text(b.scored.to_string()),
            Cell::num(pct(b.success_share), 1),
        ]);
        for s in b.segments.iter().filter(|s| s.count > 0) {
            rows.push(vec![
                Cell::text(&b.config),
                Cell::text(b.protocol.name()),
                Cell::text(s.failure.name()),
                Cell::text(s.count.to_string()),
                Cell::text(b.scored.to_string()),
                Cell::num(pct(s.share), 1),
            ]);
        }
    }
    Table {
        title: "Failure decomposition (outcomes with at least one episode)".into(),
        headers: [
            "Configuration",
            "Protocol",
            "Outcome",
            "Episodes",
            "Scored",
            "Share %",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// The protocols that have effort curves, in order.
pub fn effort_protocols(r: &EvidenceReport) -> Vec<Protocol> {
    r.protocols
        .iter()
        .copied()
        .filter(|p| r.effort.iter().any(|c| c.protocol == *p))
        .collect()
}

/// Investigation-effort step curves, one chart per protocol (one line per
/// configuration): from (0, 0) through the report's corners, held to the
/// largest effort of the protocol.
pub fn effort_charts(r: &EvidenceReport) -> Vec<(Protocol, String)> {
    effort_protocols(r)
        .into_iter()
        .map(|p| {
            let curves: Vec<_> = r.effort.iter().filter(|c| c.protocol == p).collect();
            let x_end = curves
                .iter()
                .flat_map(|c| c.episode_points.iter().map(|e| e.normalized_effort))
                .fold(1.0f64, f64::max);
            let lines: Vec<Line> = curves
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    let mut points = vec![LinePoint {
                        x: 0.0,
                        y: Some(0.0),
                        ci: None,
                        tip: String::new(),
                    }];
                    points.extend(c.points.iter().map(|[x, y]| LinePoint {
                        x: *x,
                        y: Some(*y),
                        ci: None,
                        tip: format!(
                            "{} · {}\neffort ≤ {}: {} % complete",
                            c.config,
                            p.name(),
                            fmt(Some(*x), 2),
                            fmt(Some(y * 100.0), 1)
                        ),
                    }));
                    let last = points.last().map_or(0.0, |q| q.y.unwrap_or(0.0));
                    points.push(LinePoint {
                        x: x_end,
                        y: Some(last),
                        ci: None,
                        tip: String::new(),
                    });
                    Line {
                        name: c.config.clone(),
                        colour: config_colour(r, &c.config).into(),
                        dash: if k % 2 == 0 { "" } else { "5 3" },
                        points,
                    }
                })
                .collect();
            let svg = chart::lines(
                &format!("Investigation effort, {}", p.name()),
                "information calls / required reads",
                "share complete",
                &lines,
                Join::StepAfter,
                Some((0.0, 1.0)),
            );
            (p, svg)
        })
        .collect()
}

/// The effort curves as a table: one row per corner, plus each curve's
/// plateau and denominator.
pub fn effort_table(r: &EvidenceReport) -> Table {
    let mut rows = Vec::new();
    for c in &r.effort {
        for [x, y] in &c.points {
            rows.push(vec![
                Cell::text(&c.config),
                Cell::text(c.protocol.name()),
                Cell::num(Some(*x), 2),
                Cell::num(Some(y * 100.0), 1),
                Cell::num(pct(c.plateau), 1),
                Cell::text(c.episodes.to_string()),
            ]);
        }
        if c.points.is_empty() {
            rows.push(vec![
                Cell::text(&c.config),
                Cell::text(c.protocol.name()),
                Cell::num(None, 2),
                Cell::num(None, 1),
                Cell::num(pct(c.plateau), 1),
                Cell::text(c.episodes.to_string()),
            ]);
        }
    }
    Table {
        title: "Investigation effort: share complete with effort ≤ x (per repetition, averaged)"
            .into(),
        headers: [
            "Configuration",
            "Protocol",
            "Effort ≤ x",
            "Share complete %",
            "Plateau %",
            "Episodes",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
}

/// Paired comparisons (addendum §6), one row per comparison and protocol
/// row (V0 … V3, the V0–V3 headline, Legacy apart): both ECS, the mean
/// per-case difference in points with its bootstrap interval, how many cases
/// favour each side, and the clustered exact McNemar test (cases as units).
pub fn paired_table(r: &EvidenceReport) -> Table {
    Table {
        title: format!(
            "Paired configuration comparisons by protocol (A − B; V0–V3 is the headline, Legacy apart; bootstrap over cases, {} draws, seed {})",
            r.settings.bootstrap, r.settings.seed
        ),
        headers: [
            "A − B",
            "Cases",
            "Rule",
            "n",
            "ECS A %",
            "ECS B %",
            "Δ (points)",
            "95% interval",
            "Cases A better",
            "Cases equal",
            "Cases B better",
            "Only A succeeds",
            "Only B succeeds",
            "Both succeed",
            "Both fail",
            "clustered McNemar p",
            "Unscored A",
            "Unscored B",
        ]
        .map(String::from)
        .to_vec(),
        rows: r
            .paired
            .iter()
            .flat_map(|p| p.rows.iter().map(move |row| (p, row)))
            .map(|(p, row)| {
                let q = &row.paired;
                let better = |s: f64| q.per_case.iter().filter(|c| c.difference * s > 0.0).count();
                let equal = q.per_case.iter().filter(|c| c.difference == 0.0).count();
                let m = q.mcnemar.as_ref();
                let count = |f: fn(&gapscope_evidence::report::McNemar) -> usize| {
                    Cell::text(m.map_or("—".into(), |m| f(m).to_string()))
                };
                vec![
                    Cell::text(format!("{} − {}", p.a, p.b)),
                    Cell::text(if row.headline {
                        format!("{} (headline)", row.row)
                    } else {
                        row.row.clone()
                    }),
                    Cell::text(p.rule.name()),
                    Cell::text(q.n.to_string()),
                    Cell::num(pct(q.rate_a), 1),
                    Cell::num(pct(q.rate_b), 1),
                    Cell::num(pct(q.delta), 1),
                    Cell::Interval {
                        value: q.interval.map(|[a, b]| [a * 100.0, b * 100.0]),
                        decimals: 1,
                    },
                    Cell::text(better(1.0).to_string()),
                    Cell::text(equal.to_string()),
                    Cell::text(better(-1.0).to_string()),
                    count(|m| m.only_a),
                    count(|m| m.only_b),
                    count(|m| m.both_succeed),
                    count(|m| m.both_fail),
                    Cell::Num {
                        value: m.and_then(|m| m.p_value),
                        decimals: 4,
                    },
                    Cell::text(q.unscored_a.to_string()),
                    Cell::text(q.unscored_b.to_string()),
                ]
            })
            .collect(),
    }
}

/// Table 12 (addendum §6): per repetition, each side's all-planned ECS over
/// the V0–V3 cases and Δ_r, then mean ± SD and the signs.
pub fn per_repetition_table(r: &EvidenceReport) -> Table {
    let mut rows = Vec::new();
    for p in &r.paired {
        let t = &p.per_repetition;
        for d in &t.repetitions {
            rows.push(vec![
                Cell::text(format!("{} − {}", p.a, p.b)),
                Cell::text(d.repetition.to_string()),
                Cell::num(pct(d.a), 1),
                Cell::num(pct(d.b), 1),
                Cell::num(pct(d.delta), 1),
            ]);
        }
        let ms = |m: &MeanSd| match (m.mean, m.sd) {
            (Some(x), Some(sd)) => format!("{:.1} ± {:.1}", 100.0 * x, 100.0 * sd),
            (Some(x), None) => format!("{:.1}", 100.0 * x),
            _ => "—".into(),
        };
        rows.push(vec![
            Cell::text(format!("{} − {}", p.a, p.b)),
            Cell::text(format!(
                "mean ± SD ({} up, {} down, {} equal{})",
                t.positive,
                t.negative,
                t.zero,
                if t.consistent { "; consistent" } else { "" }
            )),
            Cell::text(ms(&t.a)),
            Cell::text(ms(&t.b)),
            Cell::text(ms(&t.delta)),
        ]);
    }
    Table {
        title: "Per repetition (Table 12): all-planned ECS over the V0–V3 cases; the SD is run-to-run variation, not an interval".into(),
        headers: ["A − B", "Repetition", "ECS A %", "ECS B %", "Δ_r (points)"]
            .map(String::from)
            .to_vec(),
        rows,
    }
}

/// The per-case differences of one comparison's headline row (V0–V3; `k`:
/// index into `paired`).
pub fn paired_cases_table(r: &EvidenceReport, k: usize) -> Option<Table> {
    let p = r.paired.get(k)?;
    let row = p.headline()?;
    let protocol = |id: &str| {
        r.cases
            .iter()
            .find(|c| c.case_id == id)
            .map_or("", |c| c.protocol.name())
    };
    Some(Table {
        title: format!(
            "Per-case ECS, {} − {}, V0–V3 (averaged over repetitions; {})",
            p.a,
            p.b,
            match p.rule {
                gapscope_evidence::pairs::Rule::AllPlanned => "unscored runs count 0",
                gapscope_evidence::pairs::Rule::Completed => "pairs completed under both",
            }
        ),
        headers: vec![
            "Case".into(),
            "Protocol".into(),
            format!("{} ECS", p.a),
            format!("{} ECS", p.b),
            "Difference".into(),
        ],
        rows: row
            .paired
            .per_case
            .iter()
            .zip(&row.case_ids)
            .map(|(c, id)| {
                vec![
                    Cell::text(id),
                    Cell::text(protocol(id)),
                    Cell::num(Some(c.a), 2),
                    Cell::num(Some(c.b), 2),
                    Cell::num(Some(c.difference), 2),
                ]
            })
            .collect(),
    })
}

/// Which episodes the list shows; `None` fields do not filter. `failure` is
/// a failure name, [`SUCCESS`] or [`UNSCORED`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EpisodeFilter {
    /// A side's label (`config` or `config@condition`).
    pub config: Option<String>,
    pub protocol: Option<String>,
    pub failure: Option<String>,
    /// The episodes behind a point or a bar of an analysis: what they are,
    /// and their trajectory ids.
    pub ids: Option<(String, Vec<String>)>,
}

impl EpisodeFilter {
    pub fn accepts(&self, e: &Episode) -> bool {
        self.config.as_ref().is_none_or(|c| &side_of(e) == c)
            && self
                .ids
                .as_ref()
                .is_none_or(|(_, ids)| ids.iter().any(|i| i == &e.trajectory_id))
            && self
                .protocol
                .as_ref()
                .is_none_or(|p| e.protocol.name() == p)
            && self.failure.as_deref().is_none_or(|f| match f {
                SUCCESS => e.scored && e.success == Some(true),
                UNSCORED => !e.scored,
                name => e.failure.is_some_and(|x| x.name() == name),
            })
    }
}

/// What the episode list's filters offer: the configurations, protocols
/// and outcomes of the report's episodes, in order of first appearance.
pub fn filter_options(r: &EvidenceReport) -> [Vec<String>; 3] {
    let mut out: [Vec<String>; 3] = Default::default();
    for e in &r.episodes {
        let side = side_of(e);
        for (k, v) in [side.as_str(), e.protocol.name(), outcome(e)]
            .into_iter()
            .enumerate()
        {
            if !out[k].iter().any(|x| x == v) {
                out[k].push(v.to_string());
            }
        }
    }
    out
}

impl EpisodeFilter {
    /// The filter with field `k` (0 configuration, 1 protocol, 2 outcome)
    /// set to `value` (`""`: any).
    #[must_use]
    pub fn with(&self, k: usize, value: &str) -> EpisodeFilter {
        let mut f = self.clone();
        let v = (!value.is_empty()).then(|| value.to_string());
        match k {
            0 => f.config = v,
            1 => f.protocol = v,
            _ => f.failure = v,
        }
        f
    }

    /// The value of field `k` (`""`: any).
    pub fn value(&self, k: usize) -> String {
        [&self.config, &self.protocol, &self.failure][k.min(2)]
            .clone()
            .unwrap_or_default()
    }
}

/// The outcome of an episode as one word: [`SUCCESS`], [`UNSCORED`] or the
/// failure type.
pub fn outcome(e: &Episode) -> &'static str {
    match (e.scored, e.failure) {
        (false, _) => UNSCORED,
        (true, Some(f)) => f.name(),
        (true, None) => SUCCESS,
    }
}

/// The episode list under a filter: the ids (row order, for click-through)
/// and the table.
pub fn episode_list(r: &EvidenceReport, filter: &EpisodeFilter) -> (Vec<String>, Table) {
    let eps: Vec<&Episode> = r.episodes.iter().filter(|e| filter.accepts(e)).collect();
    let mut parts = Vec::new();
    for (name, v) in [
        ("configuration", &filter.config),
        ("protocol", &filter.protocol),
        ("outcome", &filter.failure),
    ] {
        if let Some(v) = v {
            parts.push(format!("{name} {v}"));
        }
    }
    if let Some((what, _)) = &filter.ids {
        parts.push(what.clone());
    }
    let table = Table {
        title: format!(
            "Episodes ({} of {}{})",
            eps.len(),
            r.episodes.len(),
            if parts.is_empty() {
                String::new()
            } else {
                format!("; {}", parts.join(", "))
            }
        ),
        headers: [
            "Episode",
            "Case",
            "Domain",
            "Protocol",
            "Configuration",
            "Repetition",
            "ECS",
            "Failure type",
            "Failure step",
            "Reason",
        ]
        .map(String::from)
        .to_vec(),
        rows: eps
            .iter()
            .map(|e| {
                vec![
                    Cell::text(&e.trajectory_id),
                    Cell::text(&e.case_id),
                    Cell::text(&e.domain),
                    Cell::text(e.protocol.name()),
                    Cell::text(side_of(e)),
                    Cell::text(e.repetition.to_string()),
                    Cell::num(e.success.map(|s| f64::from(u8::from(s))), 0),
                    Cell::text(match (e.scored, e.failure) {
                        (false, _) => "unscored (infrastructure failure)".to_string(),
                        (true, Some(f)) => f.name().to_string(),
                        (true, None) => "—".to_string(),
                    }),
                    Cell::text(e.failure_step.map_or("—".into(), |s| s.to_string())),
                    Cell::text(e.failure_reason.clone().unwrap_or_default()),
                ]
            })
            .collect(),
    };
    (eps.iter().map(|e| e.trajectory_id.clone()).collect(), table)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn filter_options_are_the_episodes_values_and_set_the_filter() {
        let r = report();
        let [configs, protocols, outcomes] = filter_options(r);
        assert!(
            configs.len() >= 2 && protocols.len() >= 2 && outcomes.contains(&SUCCESS.to_string())
        );
        let f = EpisodeFilter::default()
            .with(0, &configs[1])
            .with(2, SUCCESS);
        assert_eq!(f.value(0), configs[1]);
        assert_eq!(f.value(1), "");
        let (ids, _) = episode_list(r, &f);
        let want = r
            .episodes
            .iter()
            .filter(|e| e.config == configs[1] && e.scored && e.success == Some(true))
            .count();
        assert_eq!(ids.len(), want);
        assert!(want > 0);
        assert_eq!(f.with(0, "").config, None);
    }
    use gapscope_evidence::{evaluate, EvidenceSettings};

    pub(crate) const CASES: &str = include_str!("../../../../assets/evidence/cases.jsonl");
    pub(crate) const TRAJECTORIES: &str =
        include_str!("../../../../assets/evidence/trajectories.jsonl");

    /// The default evaluation of the committed worked set, computed once.
    /// The worked set's baseline runs (the lines without a `condition`):
    /// the tables these tests check by hand against docs/evidence.md.
    pub(crate) fn report() -> &'static EvidenceReport {
        static R: std::sync::OnceLock<EvidenceReport> = std::sync::OnceLock::new();
        R.get_or_init(|| {
            let baseline: String = TRAJECTORIES
                .lines()
                .filter(|l| !l.contains("\"condition\""))
                .map(|l| format!("{l}\n"))
                .collect();
            evaluate(CASES, &baseline, &EvidenceSettings::default()).unwrap()
        })
    }

    /// The whole worked set, conditions included (the addendum's analyses).
    pub(crate) fn full_report() -> &'static EvidenceReport {
        static R: std::sync::OnceLock<EvidenceReport> = std::sync::OnceLock::new();
        R.get_or_init(|| {
            evaluate(
                CASES,
                TRAJECTORIES,
                &EvidenceSettings {
                    bootstrap: 500,
                    ..Default::default()
                },
            )
            .unwrap()
        })
    }

    fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
        let key = format!(" data-{name}=\"");
        let i = tag.find(&key)? + key.len();
        Some(&tag[i..i + tag[i..].find('"')?])
    }

    #[test]
    fn ecs_tables_show_the_report_in_percent() {
        let r = report();
        let t = ecs_protocol_table(r);
        // Overall, Legacy, V0–V3, P-M; 1 + 3 columns per configuration.
        assert_eq!(t.rows.len(), 7);
        assert_eq!(t.headers.len(), 1 + 3 * r.configs.len());
        assert_eq!(t.headers[1], "Scripted / Careful ECS %");
        // docs/evidence.md (CLI on the committed set): Careful 75.9 ± 3.0 %,
        // Hasty 37.3 ± 4.5 %; P-M 74.9 and 35.3.
        assert_eq!(t.rows[0][1].display(), "75.9");
        assert_eq!(t.rows[0][2].display(), "3.0");
        assert_eq!(t.rows[0][3].display(), "2");
        assert_eq!(t.rows[0][4].display(), "37.3");
        assert_eq!(t.rows[0][5].display(), "4.5");
        assert_eq!(t.rows[6][1].display(), "74.9");
        assert_eq!(t.rows[6][4].display(), "35.3");
        // Independently: Careful's overall ECS per repetition counted from the
        // episodes, then mean and sample SD of the two.
        let per_rep: Vec<f64> = r
            .repetitions
            .iter()
            .map(|&rep| {
                let eps: Vec<_> = r
                    .episodes
                    .iter()
                    .filter(|e| e.config == "Scripted / Careful" && e.repetition == rep && e.scored)
                    .collect();
                eps.iter().filter(|e| e.failure.is_none()).count() as f64 / eps.len() as f64
            })
            .collect();
        let mean = f64::midpoint(per_rep[0], per_rep[1]);
        let sd = ((per_rep[0] - mean).powi(2) + (per_rep[1] - mean).powi(2)).sqrt();
        let Cell::Num { value: Some(v), .. } = t.rows[0][1] else {
            panic!()
        };
        assert!((v - 100.0 * mean).abs() < 1e-9);
        let Cell::Num { value: Some(s), .. } = t.rows[0][2] else {
            panic!()
        };
        assert!((s - 100.0 * sd).abs() < 1e-9);
        let d = ecs_domain_table(r);
        assert_eq!(d.rows.len(), 6 + 1, "six domains and D-M");
        assert!(d.rows[6][0].display().starts_with("D-M"));
    }

    #[test]
    fn coverage_counts_infrastructure_failures_apart() {
        let r = report();
        let t = coverage_table(r);
        let all = t.rows.last().unwrap();
        // 42 cases × 2 configurations × 2 repetitions = 168 planned; 2 infra failures.
        assert_eq!(all[0].display(), "All");
        assert_eq!(
            (all[1].display(), all[2].display()),
            ("168".into(), "166".into())
        );
        assert_eq!(all[3].display(), fmt(Some(166.0 / 168.0 * 100.0), 1));
        assert_eq!(all[4].display(), "2");
        assert_eq!(all[6].display().matches(", ").count(), 1, "two ids");
    }

    #[test]
    fn failure_bars_click_through_to_their_episodes() {
        let r = report();
        let svg = failure_chart(r);
        chart::well_formed(&svg).unwrap();
        let mut seen = 0;
        let mut total_share = std::collections::HashMap::new();
        for tag in svg
            .split('<')
            .filter(|t| t.starts_with("rect class=\"pt seg\""))
        {
            let (c, p, f) = (
                attr(tag, "config").unwrap(),
                attr(tag, "protocol").unwrap(),
                attr(tag, "failure").unwrap(),
            );
            let ids = bar_episodes(r, c, p, f);
            assert!(!ids.is_empty(), "a drawn segment has episodes: {c} {p} {f}");
            for id in &ids {
                let e = r.episodes.iter().find(|e| &e.trajectory_id == id).unwrap();
                assert_eq!(
                    (e.config.as_str(), e.protocol.name(), outcome(e)),
                    (c, p, f)
                );
            }
            seen += ids.len();
            let w: f64 = attr(tag, "tip").map_or(0.0, |_| {
                let i = tag.find("width=\"").unwrap() + 7;
                tag[i..i + tag[i..].find('"').unwrap()].parse().unwrap()
            });
            *total_share
                .entry((c.to_string(), p.to_string()))
                .or_insert(0.0) += w;
        }
        // Every scored episode sits in exactly one drawn segment.
        assert_eq!(seen, r.episodes.iter().filter(|e| e.scored).count());
        assert_eq!(seen, 166);
        // Each bar spans the full width 254 px (shares sum to 1), to rounding.
        for ((c, p), w) in &total_share {
            assert!((w - 254.0).abs() < 0.5, "{c} {p}: {w}");
        }
        assert_eq!(total_share.len(), r.failures.len());
        assert!(bar_episodes(r, "nope", "V1", SUCCESS).is_empty());
        // The text alternative: one success row per bar plus every non-empty
        // failure segment; episodes in it add up to the scored ones.
        let t = failure_table(r);
        let nonzero: usize = r
            .failures
            .iter()
            .map(|b| b.segments.iter().filter(|s| s.count > 0).count())
            .sum();
        assert_eq!(t.rows.len(), r.failures.len() + nonzero);
        let sum: usize = t
            .rows
            .iter()
            .map(|row| row[3].display().parse::<usize>().unwrap())
            .sum();
        assert_eq!(sum, 166);
        // All ten failure types occur in the worked set (docs/evidence.md).
        for f in FailureType::ALL {
            assert!(t.rows.iter().any(|row| row[2].display() == f.name()), "{f}");
        }
    }

    #[test]
    fn effort_curves_are_step_charts_with_a_table() {
        let r = report();
        let charts = effort_charts(r);
        assert_eq!(
            charts.iter().map(|(p, _)| p.name()).collect::<Vec<_>>(),
            ["V0", "V1", "V2", "V3"]
        );
        for (_, svg) in &charts {
            chart::well_formed(svg).unwrap();
            assert_eq!(svg.matches("<path d=").count(), r.configs.len());
        }
        let t = effort_table(r);
        let corners: usize = r.effort.iter().map(|c| c.points.len().max(1)).sum();
        assert_eq!(t.rows.len(), corners);
        // The last corner of each curve is its plateau.
        for c in &r.effort {
            if let Some([_, y]) = c.points.last() {
                assert!((y - c.plateau.unwrap()).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn paired_comparison_matches_the_documented_numbers() {
        let r = report();
        let t = paired_table(r);
        // V0, V1, V2, V3, the V0–V3 headline, Legacy apart (addendum §6).
        let rows: Vec<String> = t.rows.iter().map(|x| x[1].display()).collect();
        assert_eq!(rows, ["V0", "V1", "V2", "V3", "V0–V3 (headline)", "Legacy"]);
        let row = &t.rows[4];
        assert_eq!(row[0].display(), "Scripted / Careful − Scripted / Hasty");
        // docs/evidence.md: +37.5 points [16.7, 56.9] over the 36 V0–V3
        // cases; 37 vs 10 discordant pairs; the clustered exact McNemar:
        // D_k = +2 ×14, +1 ×8, 0 ×7, −1 ×5, −2 ×2, S = 27, and by an
        // independent enumeration of the sign patterns in exact fractions
        // (Python) p = 311,783 / 2^27 = 2.323e-3.
        assert_eq!(row[3].display(), "36");
        assert_eq!(row[6].display(), "37.5");
        assert_eq!(row[7].display(), "[16.7, 56.9]");
        assert_eq!(
            (row[11].display(), row[12].display()),
            ("37".into(), "10".into())
        );
        let Cell::Num { value: Some(p), .. } = row[15] else {
            panic!()
        };
        assert!((p - 311_783.0 / f64::from(1u32 << 27)).abs() < 1e-15, "{p}");
        // Cases better / equal / worse add up to the cases.
        let n: usize = (8..11)
            .map(|j| row[j].display().parse::<usize>().unwrap())
            .sum();
        assert_eq!(n, 36);
        let per_case = paired_cases_table(r, 0).unwrap();
        assert_eq!(per_case.rows.len(), 36);
        assert!(paired_cases_table(r, 1).is_none());
        // Table 12: two repetitions and the mean ± SD row.
        let t12 = per_repetition_table(r);
        assert_eq!(t12.rows.len(), 3);
        assert_eq!(t12.rows[2][4].display(), "37.5 ± 5.9");
    }

    #[test]
    fn episode_list_filters() {
        let r = report();
        let (ids, t) = episode_list(r, &EpisodeFilter::default());
        assert_eq!((ids.len(), t.rows.len()), (168, 168));
        let f = EpisodeFilter {
            config: Some("Scripted / Hasty".into()),
            protocol: Some("V1".into()),
            failure: Some("early_action".into()),
            ids: None,
        };
        let (ids, t) = episode_list(r, &f);
        assert_eq!(
            ids,
            bar_episodes(r, "Scripted / Hasty", "V1", "early_action")
        );
        assert!(!ids.is_empty());
        assert!(t.title.contains("outcome early_action"));
        assert!(t.rows.iter().all(|row| row[7].display() == "early_action"));
        let (unscored, _) = episode_list(
            r,
            &EpisodeFilter {
                failure: Some(UNSCORED.into()),
                ..Default::default()
            },
        );
        assert_eq!(unscored.len(), 2);
    }

    #[test]
    fn names_with_markup_are_escaped_and_still_click_through() {
        // The same worked set with a configuration named with <, > and &.
        let odd = "Care<ful> & co";
        let text = TRAJECTORIES.replace("Scripted / Careful", odd);
        let settings = EvidenceSettings {
            bootstrap: 0,
            ..Default::default()
        };
        let r = evaluate(CASES, &text, &settings).unwrap();
        let svg = failure_chart(&r);
        chart::well_formed(&svg).unwrap();
        assert!(!svg.contains(odd));
        let mut found = 0;
        for tag in svg
            .split('<')
            .filter(|t| t.starts_with("rect class=\"pt seg\""))
        {
            // What a click handler reads: the attribute value, unescaped.
            let c = attr(tag, "config")
                .unwrap()
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&");
            if c == odd {
                let ids = bar_episodes(
                    &r,
                    &c,
                    attr(tag, "protocol").unwrap(),
                    attr(tag, "failure").unwrap(),
                );
                found += ids.len();
            }
        }
        // Careful: 84 planned runs, one of them an infrastructure failure.
        let scored = r
            .episodes
            .iter()
            .filter(|e| e.scored && e.config == odd && e.condition == "baseline")
            .count();
        assert_eq!(found, scored);
        assert_eq!(scored, 83);
        for (_, svg) in effort_charts(&r) {
            chart::well_formed(&svg).unwrap();
            assert!(svg.contains("Care&lt;ful&gt; &amp; co"));
        }
    }

    #[test]
    fn the_addendum_views_show_the_report_and_open_its_episodes() {
        use super::analyses as an;
        let r = full_report();
        let known: std::collections::HashSet<&str> = r
            .episodes
            .iter()
            .map(|e| e.trajectory_id.as_str())
            .collect();
        // Every figure is well formed, has one target per mark index, and its
        // targets name episodes of the report.
        let (fa, fa_table) = an::first_action(r);
        let mut figures: Vec<an::AnalysisFigure> = fa;
        figures.extend(an::readiness_figures(r).into_iter().map(|(_, f)| f));
        figures.extend(an::distractors(r).map(|(f, _)| f));
        figures.extend(an::evidence_responses(r).map(|(f, _)| f));
        figures.extend(an::static_gap(r).map(|(f, _, _)| f));
        figures.extend(an::scgr(r).into_iter().flat_map(|(f, _, _)| f));
        assert!(figures.len() >= 8, "{}", figures.len());
        for f in &figures {
            chart::well_formed(&f.svg).unwrap();
            assert!(!f.targets.is_empty(), "{}", f.section);
            for (label, ids) in &f.targets {
                assert!(ids.iter().all(|id| known.contains(id.as_str())), "{label}");
            }
            // The marks' indices are target indices.
            for attr_name in ["row", "series", "target"] {
                for tag in f.svg.split('<') {
                    if let Some(k) = attr(tag, attr_name) {
                        assert!(
                            k.parse::<usize>().unwrap() < f.targets.len(),
                            "{}",
                            f.section
                        );
                    }
                }
            }
        }
        // The first-action table: one row per treatment's Δ acted, as the report.
        let n: usize = r
            .interventions
            .first_action
            .iter()
            .map(|f| f.acted.len())
            .sum();
        assert_eq!(fa_table.rows.len(), n);
        let c = &r.interventions.first_action[0].acted[0];
        assert_eq!(
            fa_table.rows[0][5].display(),
            fmt(c.paired.delta.map(|d| d * 100.0), 2)
        );
        // The response bars: each side's four segments partition its
        // matched episodes.
        let (fig, _) = an::evidence_responses(r).unwrap();
        for (e, pair) in r.interventions.evidence.iter().zip(fig.targets.chunks(8)) {
            let n: usize = pair[..4].iter().map(|(_, ids)| ids.len()).sum();
            assert_eq!(n, e.treatment.episodes);
            let m: usize = pair[4..].iter().map(|(_, ids)| ids.len()).sum();
            assert_eq!(m, e.reference.episodes);
        }
        // Tables 6 and 7: the planned case set's 42 cases.
        let [t6, t7] = an::composition_tables(r);
        assert_eq!(t6.rows.last().unwrap().last().unwrap().display(), "42");
        assert_eq!(t7.rows.len(), 5);
        // Readiness: a row per side and protocol; undefined rows say why.
        let t = an::readiness_table(r);
        assert_eq!(t.rows.len(), r.readiness.len());
        assert!(t
            .rows
            .iter()
            .any(|row| row[6].display() == "no episode qualifies"));
    }
}
