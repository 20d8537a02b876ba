//! The addendum's views of the Evidence-to-action page — paired comparisons
//! by protocol, all-planned ECS, decision readiness, the intervention
//! analyses and the case set — drawn from the text the evidence worker
//! writes beside the report (`gapscope_view::evidence::analyses::page`).
//! Every figure's point, row or segment opens the episodes behind it in the
//! episode list (a click, or Enter / space on a focused mark).

use gapscope_view::evidence::analyses::{AnalysisFigure, Item};
use gapscope_view::nav::EvidenceView as View;
use leptos::prelude::*;

use crate::parts::widgets::{closest_of, Figure, TextPanel};
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

/// The rows of §8's analyses, in the CLI's syntax (`--first-action`,
/// `--distractor`, `--evidence-condition`, `--scgr`): applied, the part is
/// scored again with them (the worker parses them; a name no side has is
/// its error, shown with this form to mend it).
#[component]
pub(crate) fn RowsForm(wb: Workbench) -> impl IntoView {
    let current = wb.ev.rows.get_untracked();
    let changed = current.iter().any(|f| !f.trim().is_empty());
    let fields: [RwSignal<String>; 4] = current.map(RwSignal::new);
    let apply = move |_| {
        wb.ev.rows.set(fields.map(|f| f.get_untracked()));
        wb.ev.report.answer.set(None);
        wb.run_evidence();
    };
    let labels = [
        ("first action, reference:treatments", "rows-first-action"),
        (
            "distractor pairs, treatment:reference; …",
            "rows-distractors",
        ),
        ("withheld or contradicted conditions, …", "rows-evidence"),
        ("SCGR conditions, …", "rows-scgr"),
    ];
    view! {
        // Open while rows other than the defaults apply (it is drawn anew
        // with the report they gave).
        <details class="alt" data-testid="rows-form" open=changed>
            <summary>"Rows of the analyses (default: the addendum's)"</summary>
            <p class="detail">
                "As the command line's --first-action, --distractor, --evidence-condition and --scgr; empty: the default rows."
            </p>
            {labels
                .into_iter()
                .zip(fields)
                .map(|((label, testid), field)| {
                    view! {
                        <label class="row-field">
                            {label} " "
                            <input
                                type="text"
                                data-testid=testid
                                prop:value=move || field.get()
                                on:input=move |ev| field.set(event_target_value(&ev))
                            />
                        </label>
                    }
                })
                .collect_view()}
            <button data-testid="rows-apply" on:click=apply>
                "Apply"
            </button>
        </details>
    }
}

/// The items of view `id` from the worker's page: headings, figures whose
/// marks open their episodes, tables as text with their downloads.
pub(crate) fn items(wb: Workbench, id: &str) -> AnyView {
    let items: Vec<Item> = wb.ev.page.with_value(|p| p.items(id).to_vec());
    let form = (id == "interventions").then(|| view! { <RowsForm wb=wb /> });
    if id == "interventions" && items.is_empty() {
        return view! {
            <p class="explain" data-testid="no-interventions">
                "No intervention analysis applies: every trajectory ran under the baseline condition. Trajectories with a "
                <code>"condition"</code>
                " (withheld, contradicted, distractor, withheld_distractor, evidence_package, static, scgr_eg, scgr_select, …) add them."
            </p>
        }
            .into_any();
    }
    let hint = matches!(id, "readiness" | "interventions")
        .then(|| {
            view! {
                <p class="detail">
                    "Click a point, bar or segment (or focus it and press Enter) to list the episodes behind it."
                </p>
            }
        });
    view! {
        {form}
        {hint}
        {items
            .into_iter()
            .enumerate()
            .map(|(k, item)| match item {
                Item::Heading(h) => view! { <h3>{h}</h3> }.into_any(),
                Item::Figure(f) => {
                    let name = format!("{}-{k}", f.section);
                    view! { <ClickFigure wb=wb figure=f name=name /> }.into_any()
                }
                Item::Panel(p) => {
                    view! { <TextPanel wb=wb panel=p testid="evidence-panel" /> }.into_any()
                }
            })
            .collect_view()}
    }
    .into_any()
}
