//! The addendum's views of the Evidence-to-action page: decision readiness,
//! the intervention analyses and the case set. Every figure's point, row or
//! segment opens the episodes behind it in the episode list (a click, or
//! Enter / space on a focused mark).

use gapscope_evidence::EvidenceReport;
use gapscope_view::evidence as tv_evidence;
use gapscope_view::evidence::analyses::{self as an, AnalysisFigure};
use gapscope_view::nav::EvidenceView as View;
use leptos::prelude::*;

use crate::parts::widgets::{closest_of, Figure, TableView};
use crate::parts::Workbench;

/// A figure whose marks open their episodes.
#[component]
fn ClickFigure(wb: Workbench, figure: AnalysisFigure, name: String) -> impl IntoView {
    let targets = StoredValue::new(figure.targets);
    let open = move |ev: &web_sys::Event| -> bool {
        let Some(el) = closest_of(ev, "[data-row], [data-series], [data-target]") else {
            return false;
        };
        let k = ["data-row", "data-series", "data-target"]
            .iter()
            .find_map(|a| el.get_attribute(a)?.parse::<usize>().ok());
        let Some((label, ids)) = k.and_then(|k| targets.with_value(|t| t.get(k).cloned())) else {
            return false;
        };
        wb.ev.filter.set(gapscope_view::evidence::EpisodeFilter {
            ids: Some((label, ids)),
            ..Default::default()
        });
        wb.ev.view.set(View::Episodes);
        true
    };
    view! {
        <div
            class="click-figure"
            data-section=figure.section
            on:click=move |ev| {
                open(&ev);
            }
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if matches!(ev.key().as_str(), "Enter" | " ") && open(&ev) {
                    ev.prevent_default();
                }
            }
        >
            <Figure svg=figure.svg name=name wb=wb testid="analysis-chart" />
        </div>
    }
}

/// The paired comparisons by protocol, Table 12, and each comparison's
/// per-case differences (folded).
pub(crate) fn paired(wb: Workbench, r: &EvidenceReport) -> AnyView {
    view! {
        <TableView table=tv_evidence::paired_table(r) wb=wb />
        <TableView table=tv_evidence::per_repetition_table(r) wb=wb />
        {(0..r.paired.len())
            .filter_map(|k| tv_evidence::paired_cases_table(r, k))
            .map(|t| {
                view! {
                    <details class="alt">
                        <summary>{t.title.clone()}</summary>
                        <TableView table=t wb=wb />
                    </details>
                }
            })
            .collect_view()}
    }
    .into_any()
}

/// Decision readiness: a figure per protocol and the table.
pub(crate) fn readiness(wb: Workbench, r: &EvidenceReport) -> AnyView {
    view! {
        <p class="detail">"Click a curve's marker to list the episodes behind it."</p>
        <div class="figures">
            {an::readiness_figures(r)
                .into_iter()
                .map(|(p, f)| {
                    view! { <ClickFigure wb=wb figure=f name=format!("readiness-{}", p.name()) /> }
                })
                .collect_view()}
        </div>
        <TableView table=an::readiness_table(r) wb=wb />
    }
    .into_any()
}

/// The intervention analyses (§8), each a figure and a table.
pub(crate) fn interventions(wb: Workbench, r: &EvidenceReport) -> AnyView {
    let iv = &r.interventions;
    if iv.first_action.is_empty()
        && iv.distractors.is_empty()
        && iv.evidence.is_empty()
        && iv.static_vs_interactive.is_empty()
        && iv.scgr.is_empty()
    {
        return view! {
            <p class="explain" data-testid="no-interventions">
                "No intervention analysis applies: every trajectory ran under the baseline condition. Trajectories with a "
                <code>"condition"</code>
                " (withheld, contradicted, distractor, withheld_distractor, evidence_package, static, scgr_eg, scgr_select, …) add them."
            </p>
        }
            .into_any();
    }
    let (fa_figures, fa_table) = an::first_action(r);
    view! {
        <p class="detail">
            "Conditions against their reference on pairs completed under both (rule C). Click a point, bar or segment to list its episodes."
        </p>
        <section data-testid="first-action">
            <h3>"First action"</h3>
            <div class="figures">
                {fa_figures
                    .into_iter()
                    .enumerate()
                    .map(|(k, f)| {
                        view! { <ClickFigure wb=wb figure=f name=format!("first-action-{k}") /> }
                    })
                    .collect_view()}
            </div>
            <TableView table=fa_table wb=wb />
        </section>
        {an::distractors(r)
            .map(|(f, t)| {
                view! {
                    <section data-testid="distractors">
                        <h3>"Distractors"</h3>
                        <ClickFigure wb=wb figure=f name="distractors".into() />
                        <TableView table=t wb=wb />
                    </section>
                }
            })}
        {an::evidence_responses(r)
            .map(|(f, t)| {
                view! {
                    <section data-testid="evidence-responses">
                        <h3>"Withheld or contradicted evidence"</h3>
                        <ClickFigure wb=wb figure=f name="evidence-responses".into() />
                        <TableView table=t wb=wb />
                        {an::evidence_contrasts(r).map(|t| view! { <TableView table=t wb=wb /> })}
                    </section>
                }
            })}
        {an::static_gap(r)
            .map(|(f, t, neg)| {
                view! {
                    <section data-testid="static">
                        <h3>"Static vs interactive"</h3>
                        <ClickFigure wb=wb figure=f name="static".into() />
                        <TableView table=t wb=wb />
                        <TableView table=neg wb=wb />
                    </section>
                }
            })}
        {an::scgr(r)
            .map(|(f, t, unpaired)| {
                view! {
                    <section data-testid="scgr">
                        <h3>"SCGR variants"</h3>
                        <ClickFigure wb=wb figure=f name="scgr".into() />
                        <TableView table=t wb=wb />
                        <TableView table=unpaired wb=wb />
                    </section>
                }
            })}
    }
    .into_any()
}

/// The case set: Tables 6 and 7.
pub(crate) fn composition(wb: Workbench, r: &EvidenceReport) -> AnyView {
    let [t6, t7] = an::composition_tables(r);
    view! {
        <TableView table=t6 wb=wb />
        <TableView table=t7 wb=wb />
    }
    .into_any()
}
