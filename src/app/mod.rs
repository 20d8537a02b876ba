//! The page: the root component (area tabs, settings bar, status line,
//! footer, hover card), the [`Workbench`] that holds every part's state, and
//! the URL (settings and view ids, parsed here and only here).

mod top_bar;

use gapscope_gaps::analysis::MacroDefinition;
use gapscope_view::heatmap::CorrelationKind;
use gapscope_view::nav::{Area, GapsView, ViewId};
use gapscope_worker::{Source, CORPUS_LABEL, EXAMPLE_LABEL};
use leptos::prelude::*;

use crate::parts::evidence::{EvidenceArea, EvidenceState};
use crate::parts::gaps::{GapsArea, GapsState};
use crate::parts::runtime::{RuntimeArea, RuntimeState};
use crate::parts::trajectories::TrajectoriesState;
use crate::web;
use crate::widgets::job::Workers;
use crate::widgets::Hover;
use top_bar::{SettingsBar, Status};

/// Mount the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// Analysis settings as the user typed them (validated before use).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Knobs {
    pub(crate) alpha: f64,
    pub(crate) bootstrap: usize,
    pub(crate) seed: u64,
    pub(crate) macro_definition: MacroDefinition,
}

const THEME: &str = "gapscope.theme";

/// The files opened for a page's own source (`None`: its built-in data).
pub(crate) fn opened(
    source: &Option<Source>,
    files: StoredValue<Vec<web_sys::File>, LocalStorage>,
) -> Vec<web_sys::File> {
    if source.is_some() {
        files.get_value()
    } else {
        Vec::new()
    }
}

/// The name a source is shown by.
pub(crate) fn source_label(source: &Source) -> String {
    match source {
        Source::Example => EXAMPLE_LABEL.to_string(),
        Source::File { name, .. } => name.clone(),
        Source::Files { files } => files
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
        Source::Attached { names } => names.join(" + "),
        Source::Corpus => CORPUS_LABEL.to_string(),
    }
}

/// The whole page state: the pool, what every part shares (settings, area,
/// hover card, theme) and one state struct per part.
#[derive(Clone, Copy)]
pub(crate) struct Workbench {
    pub(crate) workers: Workers,
    pub(crate) knobs: RwSignal<Knobs>,
    pub(crate) hover: RwSignal<Option<Hover>>,
    pub(crate) theme: RwSignal<String>,
    /// Which part of the workbench: realization gaps, evidence, runtime.
    pub(crate) area: RwSignal<Area>,
    pub(crate) gaps: GapsState,
    pub(crate) traj: TrajectoriesState,
    pub(crate) ev: EvidenceState,
    pub(crate) rt: RuntimeState,
}

impl Workbench {
    fn new() -> Self {
        let mut knobs = Knobs {
            alpha: 10.0,
            bootstrap: gapscope_gaps::Settings::default().bootstrap,
            seed: 0,
            macro_definition: MacroDefinition::Mean,
        };
        let mut view = GapsView::Gaps;
        let mut corr = CorrelationKind::Pearson;
        let mut area = Area::Gaps;
        for (k, v) in web::query() {
            match k.as_str() {
                // An unknown view or area keeps the default, like any other
                // bad query value.
                "view" => view = GapsView::parse(&v).unwrap_or(view),
                "alpha" => {
                    knobs.alpha = v
                        .parse()
                        .ok()
                        .filter(|a: &f64| *a > 0.0 && a.is_finite())
                        .unwrap_or(knobs.alpha)
                }
                "B" => {
                    knobs.bootstrap = v
                        .parse()
                        .ok()
                        .filter(|b| *b <= gapscope_gaps::analysis::MAX_BOOTSTRAP)
                        .unwrap_or(knobs.bootstrap)
                }
                "seed" => knobs.seed = v.parse().unwrap_or(knobs.seed),
                "macro" => {
                    knobs.macro_definition =
                        MacroDefinition::parse(&v).unwrap_or(knobs.macro_definition)
                }
                "corr" if v == "spearman" => corr = CorrelationKind::Spearman,
                "area" => area = Area::parse(&v).unwrap_or(area),
                _ => {}
            }
        }
        Workbench {
            workers: Workers::new(),
            knobs: RwSignal::new(knobs),
            hover: RwSignal::new(None),
            theme: RwSignal::new(web::load(THEME).unwrap_or_else(|| "auto".into())),
            area: RwSignal::new(area),
            gaps: GapsState::new(view, corr),
            traj: TrajectoriesState::new(),
            ev: EvidenceState::new(),
            rt: RuntimeState::new(),
        }
    }
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
