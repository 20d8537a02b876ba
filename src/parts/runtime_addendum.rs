//! The addendum's views of the Runtime-contracts page — the condition set
//! (Table 18), horizon and turn accounting (Tables 19, 20), replications
//! (M, Tables 12, 21, Figure 3), coverage and decision (Table 14, Figure
//! 2b), the SFT filter (Table 8), and the token cost ratio beside the 2×2
//! — drawn from the text the runtime worker writes beside the report
//! (`gapscope_view::runtime_addendum::page`). A row of a trace list opens
//! its episode in the stepper at the turn it names.

use gapscope_view::evidence::analyses::Item;
use gapscope_view::nav::RuntimeView as View;
use leptos::prelude::*;

use crate::parts::widgets::{closest_of, Figure, TextPanel};
use crate::parts::Workbench;

/// Open `episode` in the stepper at the turn whose index is `turn`, with
/// the page's slice set to the episode's (the lists span every slice).
fn open(wb: Workbench, episode: String, turn: Option<u32>) {
    let (slice, at) = wb.rt.report.answer.with_untracked(|a| match a {
        Some(Ok((r, _))) => r
            .episodes
            .iter()
            .find(|e| e.episode.episode_id == episode)
            .map_or((None, None), |e| {
                let at = turn.and_then(|t| e.turns.iter().position(|m| m.index == t));
                (Some(e.slice), at)
            }),
        _ => (None, None),
    });
    if let Some(s) = slice {
        wb.rt.slice.set(s);
    }
    wb.rt.episode.set(Some(episode));
    wb.rt.turn.set(at.unwrap_or(0));
    wb.rt.view.set(View::Stepper);
}

/// The episode (and turn) of the trace-list row an event is on.
fn link_of(ev: &web_sys::Event) -> Option<(String, Option<u32>)> {
    let tr = closest_of(ev, "tr[data-episode]")?;
    let episode = tr.get_attribute("data-episode")?;
    let turn = tr
        .get_attribute("data-turn")
        .and_then(|t| t.parse::<u32>().ok());
    Some((episode, turn))
}

/// The items of view `id` from the worker's page: headings, figures, and
/// tables as text with their downloads; a row of a trace list (its `tr`
/// has `data-episode`) opens its episode, by a click or Enter / space.
pub(crate) fn items(wb: Workbench, id: &str) -> AnyView {
    let items: Vec<Item> = wb.rt.page.with_value(|p| p.items(id).to_vec());
    view! {
        <div
            class="runtime-addendum"
            on:click=move |ev| {
                if let Some((e, t)) = link_of(&ev) {
                    open(wb, e, t);
                }
            }
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if matches!(ev.key().as_str(), "Enter" | " ") {
                    if let Some((e, t)) = link_of(&ev) {
                        ev.prevent_default();
                        open(wb, e, t);
                    }
                }
            }
        >
            {items
                .into_iter()
                .enumerate()
                .map(|(k, item)| match item {
                    Item::Heading(h) => view! { <h3 class="addendum">{h}</h3> }.into_any(),
                    Item::Figure(f) => {
                        let name = format!("runtime-{}-{k}", f.section);
                        view! { <Figure svg=f.svg name=name wb=wb testid="analysis-chart" /> }
                            .into_any()
                    }
                    Item::Panel(p) => {
                        view! { <TextPanel wb=wb panel=p testid="runtime-panel" /> }.into_any()
                    }
                })
                .collect_view()}
        </div>
    }
    .into_any()
}
