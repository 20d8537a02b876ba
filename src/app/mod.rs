//! The page: the root component (area tabs, settings bar, status line,
//! footer, hover card); the state it renders is [`crate::parts::Workbench`].

mod top_bar;

use gapscope_gaps::analysis::MacroDefinition;
use gapscope_view::heatmap::CorrelationKind;
use gapscope_view::nav::{Area, Choice, ViewId};
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

    // Settings and view live in the URL, so a view can be shared as a link.
    Effect::new(move |_| {
        let k = wb.knobs.get();
        let mut q = vec![
            ("view", wb.gaps.view.get().id().to_string()),
            ("alpha", k.alpha.to_string()),
            ("B", k.bootstrap.to_string()),
            ("seed", k.seed.to_string()),
        ];
        if wb.area.get() != Area::Gaps {
            q.push(("area", wb.area.get().id().to_string()));
        }
        if k.macro_definition != MacroDefinition::Mean {
            q.push(("macro", k.macro_definition.name().into()));
        }
        if wb.gaps.corr_kind.get() == CorrelationKind::Spearman {
            q.push(("corr", "spearman".into()));
        }
        // The Compare view's settings, when not the defaults.
        let by = wb.cmp.by.get();
        if by != "model" {
            q.push(("by", by));
        }
        let merges = wb.cmp.merges.get();
        if !merges.trim().is_empty() {
            q.push(("merge", merges));
        }
        if wb.cmp.failures.get() {
            q.push(("fail", "1".into()));
        }
        let p = wb.cmp.p.get();
        if p != gapscope_view::compare::PKind::default() {
            q.push(("p", p.id().into()));
        }
        web::set_query(&q);
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
