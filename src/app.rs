//! The leptos components. They hold signals and render view models from
//! `crate::model`; every number comes from the worker's core report.

use gapscope_worker::{Analysis, Request, Source, EXAMPLE_LABEL};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::model::{correlation_heatmap, fmt, gap_heatmap, CorrelationKind, Heatmap};
use crate::worker_client::WorkerClient;

/// Mount the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// The hover card of a heatmap cell: its text and the pointer position.
#[derive(Clone, Debug, PartialEq)]
struct Hover {
    text: String,
    x: i32,
    y: i32,
}

/// Read a dropped or picked file as UTF-8 text, with the offset of a bad byte.
async fn read_text(file: &web_sys::File) -> Result<String, String> {
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("could not be read ({e:?})"))?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {}); save the file as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}

#[component]
fn App() -> impl IntoView {
    let client = StoredValue::new_local(WorkerClient::spawn());
    let analysis = RwSignal::new(None::<Analysis>);
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(None::<String>);
    let generation = StoredValue::new(0u64);
    let hover = RwSignal::new(None::<Hover>);
    let corr_kind = RwSignal::new(CorrelationKind::Pearson);

    // Send one request to the worker; only the newest request's answer is applied,
    // and a failed one leaves the previous analysis on screen.
    let submit = move |source: Source| {
        let label = match &source {
            Source::Example => EXAMPLE_LABEL.to_string(),
            Source::File { name, .. } => name.clone(),
        };
        let id = generation.get_value() + 1;
        generation.set_value(id);
        busy.set(Some(label));
        let request = Request {
            source,
            alpha: gapscope_core::Alpha::DEFAULT.get(),
            bootstrap: gapscope_core::Settings::default().bootstrap,
            seed: 0,
            roles: Default::default(),
        };
        let answer = client.with_value(|c| c.run(&request));
        spawn_local(async move {
            let result = answer.await;
            if generation.get_value() != id {
                return;
            }
            busy.set(None);
            match result {
                Ok(a) => {
                    analysis.set(Some(a));
                    error.set(None);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let open_file = move |file: web_sys::File| {
        let name = file.name();
        spawn_local(async move {
            match read_text(&file).await {
                Ok(text) => submit(Source::File { name, text }),
                Err(e) => error.set(Some(format!("{name}: {e}"))),
            }
        });
    };
    submit(Source::Example);

    let gaps = Memo::new(move |_| analysis.with(|a| a.as_ref().map(|a| gap_heatmap(&a.report))));
    let corr = Memo::new(move |_| {
        let kind = corr_kind.get();
        analysis.with(|a| a.as_ref().map(|a| correlation_heatmap(&a.report, kind)))
    });

    view! {
        <header class="top">
            <h1>"gapscope"</h1>
            <p class="tagline">"Capability realization gaps: where agents execute above or below what their foundational profile predicts. Everything runs in this page; no file leaves your machine."</p>
        </header>
        <main>
            <DropZone on_file=open_file on_example=move || submit(Source::Example) />
            <Status busy=busy />
            {move || error.get().map(|e| view! {
                <div class="error" role="alert" data-testid="error">
                    <strong>"Could not analyse the file. "</strong>
                    <span data-testid="error-message">{e}</span>
                    {move || analysis.with(|a| a.is_some()).then(|| view! {
                        <span class="keep">" The previous analysis is still shown below."</span>
                    })}
                </div>
            })}
            {move || analysis.get().map(|a| view! { <Summary analysis=a /> })}
            <section class="panel">
                <h2>"Realization gaps" <SyntheticMark analysis=analysis /></h2>
                <p class="explain">"Observed operation score minus its family-held-out ridge prediction from the foundational profile (α = 10). Blue: execution above what the foundational profile predicts; red: below. One symmetric scale; hover a cell for the numbers."</p>
                {move || gaps.get().map(|h| view! { <HeatmapView heatmap=h testid="gap-heatmap" corner="model" hover=hover /> })}
            </section>
            <section class="panel">
                <h2>"Foundational × operation association" <SyntheticMark analysis=analysis /></h2>
                <p class="explain">"Correlation across models between each foundational dimension (rows) and each operation (columns); undefined cells (fewer than 3 pairs, a constant column) are grey."</p>
                <div class="toggle" role="radiogroup" aria-label="correlation">
                    {[CorrelationKind::Pearson, CorrelationKind::Spearman].into_iter().map(|k| view! {
                        <button
                            role="radio"
                            aria-checked=move || (corr_kind.get() == k).to_string()
                            class:on=move || corr_kind.get() == k
                            on:click=move |_| corr_kind.set(k)
                        >{k.label()}</button>
                    }).collect_view()}
                </div>
                {move || corr.get().map(|h| view! { <HeatmapView heatmap=h testid="correlation-heatmap" corner="F \\ O" hover=hover /> })}
            </section>
        </main>
        <footer>"gapscope — offline workbench for agent-evaluation artifacts. Synthetic data is labelled as such wherever it appears."</footer>
        {move || hover.get().map(|h| view! {
            <div class="tooltip" role="tooltip" data-testid="tooltip"
                 style=format!("left: {}px; top: {}px", h.x + 14, h.y + 14)>
                {h.text.lines().map(|l| view! { <div>{l.to_string()}</div> }).collect_view()}
            </div>
        })}
    }
}

#[component]
fn DropZone<F, E>(on_file: F, on_example: E) -> impl IntoView
where
    F: Fn(web_sys::File) + Copy + 'static,
    E: Fn() + Copy + 'static,
{
    let over = RwSignal::new(false);
    let first_file = |files: Option<web_sys::FileList>| files.and_then(|f| f.get(0));
    view! {
        <div class="dropzone" class:over=move || over.get() data-testid="dropzone"
            on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); over.set(true); }
            on:dragleave=move |_| over.set(false)
            on:drop=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                over.set(false);
                if let Some(file) = first_file(ev.data_transfer().and_then(|d| d.files())) {
                    on_file(file);
                }
            }
        >
            <p>
                "Drop a profile file here (wide CSV or JSON: "
                <code>"model,family,TU,…,GI,…,reward"</code>
                "), or "
                <label class="pick">
                    "choose a file"
                    <input type="file" accept=".csv,.json,.txt,text/csv,application/json" data-testid="file-input"
                        on:change=move |ev| {
                            let input: web_sys::HtmlInputElement = event_target(&ev);
                            if let Some(file) = first_file(input.files()) {
                                on_file(file);
                            }
                            input.set_value("");
                        } />
                </label>
                ", or "
                <button class="link" on:click=move |_| on_example() data-testid="load-example">"load the synthetic example"</button>
                "."
            </p>
        </div>
    }
}

#[component]
fn Status(busy: RwSignal<Option<String>>) -> impl IntoView {
    view! {
        <div class="status" aria-live="polite" data-testid="status" aria-busy=move || busy.with(|b| b.is_some()).to_string()>
            {move || busy.get().map(|label| view! {
                <span class="spinner" aria-hidden="true"></span>
                <span>{format!("Analysing {label} in a background worker…")}</span>
            })}
        </div>
    }
}

/// The "synthetic example" label beside a view's title while the example is shown.
#[component]
fn SyntheticMark(analysis: RwSignal<Option<Analysis>>) -> impl IntoView {
    move || {
        analysis
            .with(|a| a.as_ref().is_some_and(|a| a.synthetic))
            .then(|| view! { <span class="badge synthetic small">"synthetic example"</span> })
    }
}

#[component]
fn Summary(analysis: Analysis) -> impl IntoView {
    let r = &analysis.report;
    let folds = match r.folds.kind {
        gapscope_core::crossval::FoldKind::Family => "held out by family".to_string(),
        gapscope_core::crossval::FoldKind::Model => {
            "held out model by model (leave-one-model-out)".to_string()
        }
    };
    let sentence = format!("{}.", r.summary);
    let detail = format!("Ridge, {folds}, α = {}.", r.settings.alpha);
    let warnings = r.warnings.clone();
    view! {
        <section class="summary" data-testid="summary" data-source=analysis.source.clone()>
            <div class="source">
                {if analysis.synthetic {
                    view! {
                        <span class="badge synthetic" data-testid="synthetic-badge">"synthetic example"</span>
                        <span class="origin">"made by gapscope's seeded generator (not real models; "<code>"gapscope synth"</code>" regenerates it)"</span>
                    }.into_any()
                } else {
                    view! { <span class="file">{analysis.source.clone()}</span> }.into_any()
                }}
            </div>
            <p class="sentence" data-testid="summary-sentence">{sentence}</p>
            <p class="detail">{detail}</p>
            {(!warnings.is_empty()).then(|| view! {
                <ul class="warnings" data-testid="warnings">
                    {warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
                </ul>
            })}
        </section>
    }
}

#[component]
fn HeatmapView(
    heatmap: Heatmap,
    testid: &'static str,
    corner: &'static str,
    hover: RwSignal<Option<Hover>>,
) -> impl IntoView {
    let scale = heatmap.scale;
    let cols = heatmap.cols.clone();
    let notes = heatmap.col_notes.clone();
    let body = heatmap
        .rows
        .iter()
        .zip(heatmap.cells)
        .map(|(row, cells)| {
            let row = row.clone();
            let tds = cells
                .into_iter()
                .zip(cols.clone())
                .map(|(cell, col)| {
                    let detail = cell.detail.clone();
                    let value_attr = cell.value.map(|v| v.to_string()).unwrap_or_default();
                    view! {
                        <td class="cell" data-row=row.clone() data-col=col data-value=value_attr
                            style=format!("background: {}; color: {}", cell.fill, cell.ink)
                            on:mouseenter=move |ev: leptos::ev::MouseEvent| hover.set(Some(Hover { text: detail.clone(), x: ev.client_x(), y: ev.client_y() }))
                            on:mousemove=move |ev: leptos::ev::MouseEvent| hover.update(|h| if let Some(h) = h { h.x = ev.client_x(); h.y = ev.client_y(); })
                            on:mouseleave=move |_| hover.set(None)
                        >{cell.label}</td>
                    }
                })
                .collect_view();
            view! { <tr><th scope="row">{row}</th>{tds}</tr> }
        })
        .collect_view();
    view! {
        <div class="heatmap-wrap">
            <table class="heatmap" data-testid=testid>
                <thead>
                    <tr>
                        <th class="corner">{corner}</th>
                        {cols.iter().zip(notes).map(|(c, n)| view! {
                            <th scope="col">{c.clone()}{(!n.is_empty()).then(|| view! { <div class="note">{n}</div> })}</th>
                        }).collect_view()}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
            <div class="legend" aria-label="colour scale">
                <span>{fmt(Some(-scale), 1)}</span>
                <span class="bar"></span>
                <span>{fmt(Some(scale), 1)}</span>
            </div>
        </div>
    }
}
