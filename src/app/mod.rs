//! The page: the root component (area tabs, settings bar, status line,
//! footer, hover card); the state it renders is [`crate::parts::Workbench`].

mod place;
mod top_bar;

use gapscope_view::nav::{Area, ViewId};
use leptos::prelude::*;

use crate::parts::evidence::EvidenceArea;
use crate::parts::gaps::GapsArea;
use crate::parts::runtime::RuntimeArea;
use crate::parts::{Workbench, THEME};
use crate::web;
use top_bar::{SettingsBar, Status};

/// Mount the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

#[component]
pub(crate) fn App() -> impl IntoView {
    let wb = Workbench::new();
    wb.workers.watch();
    // A hover card belongs to what was under the pointer: a new view drops it.
    Effect::new(move |_| {
        wb.gaps.view.track();
        wb.area.track();
        wb.ev.view.track();
        wb.rt.view.track();
        wb.hover.set(None);
    });
    wb.run(wb.restored_source());
    Effect::new(move |_| {
        let t = wb.theme.get();
        web::set_theme(&t);
        let _ = web::store(THEME, &t);
    });

    // Settings, part, views and the open trajectory live in the URL, so a
    // view can be shared as a link; Back and Forward move between views.
    place::keep_in_url(wb);
    // A trajectory link applies once the files it names are loaded.
    Effect::new(move |_| {
        wb.traj.overview.track();
        wb.traj.fingerprint.track();
        if wb.traj.wanted.with_untracked(Option::is_some) {
            wb.apply_link();
        }
    });

    view! {
        <header class="top">
            <h1>"gapscope"</h1>
            <p class="tagline">
                "Capability realization gaps: where agents execute above or below what their foundational profile predicts. Everything runs in this page; no file leaves your machine."
            </p>
        </header>
        <main>
            <nav class="areas" aria-label="parts of the workbench" data-testid="areas">
                {Area::ALL
                    .iter()
                    .map(|&area| {
                        view! {
                            <button
                                data-area=area.id()
                                class:on=move || wb.area.get() == area
                                aria-pressed=move || (wb.area.get() == area).to_string()
                                on:click=move |_| wb.area.set(area)
                            >
                                {area.label()}
                            </button>
                        }
                    })
                    .collect_view()}
            </nav>
            <SettingsBar wb=wb />
            <Status wb=wb />
            {move || match wb.area.get() {
                Area::Evidence => view! { <EvidenceArea wb=wb /> }.into_any(),
                Area::Runtime => view! { <RuntimeArea wb=wb /> }.into_any(),
                Area::Gaps => view! { <GapsArea wb=wb /> }.into_any(),
            }}
        </main>
        <Glossary />
        <footer>
            "gapscope " {env!("CARGO_PKG_VERSION")}
            " — offline workbench for agent-evaluation artifacts. Synthetic data is labelled as such wherever it appears."
        </footer>
        {move || {
            wb.hover
                .get()
                .map(|h| {
                    view! {
                        <div
                            class="tooltip"
                            role="tooltip"
                            data-testid="tooltip"
                            style=format!("left: {}px; top: {}px", h.x + 14, h.y + 14)
                        >
                            {h
                                .text
                                .lines()
                                .map(|l| view! { <div>{l.to_string()}</div> })
                                .collect_view()}
                        </div>
                    }
                })
        }}
    }
}

/// Every abbreviation the page shows, expanded ([`gapscope_view::glossary`]),
/// by part; the same expansions are the hover text of table headers and
/// heatmap labels.
#[component]
fn Glossary() -> impl IntoView {
    use gapscope_view::glossary::GLOSSARY;
    let mut parts: Vec<&str> = Vec::new();
    for t in GLOSSARY {
        if !parts.contains(&t.part) {
            parts.push(t.part);
        }
    }
    view! {
        <details class="glossary" data-testid="glossary">
            <summary>"Glossary: every abbreviation on this page"</summary>
            {parts
                .into_iter()
                .map(|part| {
                    view! {
                        <h3>{part}</h3>
                        <dl>
                            {GLOSSARY
                                .iter()
                                .filter(|t| t.part == part)
                                .map(|t| {
                                    view! {
                                        <dt data-abbr=t.abbr>
                                            <abbr title=t.name>{t.abbr}</abbr>
                                            " — "
                                            {t.name}
                                        </dt>
                                        <dd>{t.meaning}</dd>
                                    }
                                })
                                .collect_view()}
                        </dl>
                    }
                })
                .collect_view()}
        </details>
    }
}
