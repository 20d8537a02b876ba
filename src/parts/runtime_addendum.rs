//! The addendum's views of the Runtime-contracts page — the condition set
//! (Table 18), horizon and turn accounting (Tables 19, 20), replications
//! (M, Tables 12, 21, Figure 3), coverage and decision (Table 14, Figure
//! 2b), the SFT filter (Table 8), and the token cost ratio beside the 2×2
//! — drawn from the text the runtime worker writes beside the report
//! (`gapscope_view::runtime_addendum::page`). A row of a trace list opens
//! its episode in the stepper at the turn it names.

use gapscope_view::nav::RuntimeView as View;
use gapscope_view::runtime_addendum::{RtItem, TraceList};
use leptos::prelude::*;

use crate::parts::widgets::{Figure, TextPanel};
use crate::parts::Workbench;

/// Open `episode` in the stepper at the turn whose index is `turn`.
fn open(wb: Workbench, episode: String, turn: Option<u32>) {
    let at = wb.rt.report.answer.with_untracked(|a| match (a, turn) {
        (Some(Ok((r, _))), Some(t)) => r
            .episodes
            .iter()
            .find(|e| e.episode.episode_id == episode)
            .and_then(|e| e.turns.iter().position(|m| m.index == t)),
        _ => None,
    });
    wb.rt.episode.set(Some(episode));
    wb.rt.turn.set(at.unwrap_or(0));
    wb.rt.view.set(View::Stepper);
}

/// A list of episodes, each row opening its episode at its turn.
#[component]
fn Traces(wb: Workbench, list: TraceList) -> impl IntoView {
    let TraceList {
        title,
        headers,
        rows,
    } = list;
    view! {
        <section class="panel" data-testid="runtime-traces">
            <h3>{title}</h3>
            <table class="data">
                <thead>
                    <tr>{headers.into_iter().map(|h| view! { <th>{h}</th> }).collect_view()}</tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|row| {
                            let (id, turn) = (row.episode_id.clone(), row.turn);
                            view! {
                                <tr
                                    class="click"
                                    tabindex="0"
                                    data-episode=row.episode_id.clone()
                                    data-turn=row.turn.map(|t| t.to_string())
                                    on:click={
                                        let id = id.clone();
                                        move |_| open(wb, id.clone(), turn)
                                    }
                                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                        if matches!(ev.key().as_str(), "Enter" | " ") {
                                            ev.prevent_default();
                                            open(wb, id.clone(), turn);
                                        }
                                    }
                                >
                                    {row
                                        .cells
                                        .into_iter()
                                        .map(|c| view! { <td>{c}</td> })
                                        .collect_view()}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </section>
    }
}

/// The items of view `id` from the worker's page: headings, figures,
/// tables as text with their downloads, and trace lists.
pub(crate) fn items(wb: Workbench, id: &str) -> AnyView {
    let items: Vec<RtItem> = wb.rt.page.with_value(|p| p.items(id).to_vec());
    view! {
        {items
            .into_iter()
            .enumerate()
            .map(|(k, item)| match item {
                RtItem::Heading(h) => view! { <h3 class="addendum">{h}</h3> }.into_any(),
                RtItem::Figure(f) => {
                    let name = format!("runtime-{}-{k}", f.section);
                    view! { <Figure svg=f.svg name=name wb=wb testid="analysis-chart" /> }
                        .into_any()
                }
                RtItem::Panel(p) => {
                    view! { <TextPanel wb=wb panel=p testid="runtime-panel" /> }.into_any()
                }
                RtItem::Traces(list) => view! { <Traces wb=wb list=list /> }.into_any(),
            })
            .collect_view()}
    }
    .into_any()
}
