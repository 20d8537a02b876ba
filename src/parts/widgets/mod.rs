//! Components shared by every part: tables and figures with their exports,
//! the heatmap, clickable lists, the view tabs and the area panel; and the
//! job slot ([`job`]).

pub(crate) mod job;

use gapscope_view::format::fmt;
use gapscope_view::heatmap::Heatmap;
use gapscope_view::nav::ViewId;
use gapscope_view::table::Table;
use leptos::prelude::*;

use crate::parts::Workbench;
use crate::web;
use gapscope_worker::{Source, CORPUS_LABEL, EXAMPLE_LABEL};

/// The hover card: its text and the pointer position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Hover {
    pub(crate) text: String,
    pub(crate) x: i32,
    pub(crate) y: i32,
}

/// A table with CSV and LaTeX export; with `on_row`, a click (or Enter) on
/// a row picks it; with `shown`, only the first `shown` rows are drawn (the
/// exports have every row).
#[component]
pub(crate) fn TableView(
    table: Table,
    wb: Workbench,
    #[prop(optional)] on_row: Option<Callback<usize>>,
    #[prop(optional)] shown: Option<usize>,
) -> impl IntoView {
    let slug: String = table
        .title
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let (csv, latex) = (table.to_csv(), table.to_latex());
    let (n1, n2) = (slug.clone(), slug.clone());
    view! {
        <div class="table-wrap">
            <table class="data" data-testid="table" data-title=table.title.clone()>
                <caption>{table.title.clone()}</caption>
                <thead>
                    <tr>
                        {table
                            .headers
                            .iter()
                            .map(|h| view! { <th scope="col">{h.clone()}</th> })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {table
                        .rows
                        .iter()
                        .take(shown.unwrap_or(usize::MAX))
                        .enumerate()
                        .map(|(i, row)| {
                            let pick = move || {
                                if let Some(f) = on_row {
                                    f.run(i);
                                }
                            };
                            view! {
                                <tr
                                    class:pick=on_row.is_some()
                                    tabindex=on_row.map(|_| "0")
                                    on:click=move |_| pick()
                                    on:keydown=move |ev| {
                                        if ev.key() == "Enter" {
                                            pick();
                                        }
                                    }
                                >
                                    {row
                                        .iter()
                                        .map(|c| view! { <td>{c.display()}</td> })
                                        .collect_view()}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
            <div class="exports">
                <button
                    class="link"
                    data-testid="export-csv"
                    on:click=move |_| {
                        let _ = web::download(
                            &format!("{}-{n1}.csv", wb.file_stem()),
                            "text/csv",
                            &csv,
                        );
                    }
                >
                    "CSV"
                </button>
                <button
                    class="link"
                    data-testid="export-latex"
                    on:click=move |_| {
                        let _ = web::download(
                            &format!("{}-{n2}.tex", wb.file_stem()),
                            "text/x-tex",
                            &latex,
                        );
                    }
                >
                    "LaTeX"
                </button>
            </div>
        </div>
    }
}

/// An SVG figure with hover cards (delegated from `data-tip`) and SVG/PNG export.
#[component]
pub(crate) fn Figure(
    svg: String,
    name: String,
    wb: Workbench,
    testid: &'static str,
) -> impl IntoView {
    let (s1, s2) = (svg.clone(), svg.clone());
    let (n1, n2) = (name.clone(), name);
    let tip = move |ev: &leptos::ev::MouseEvent| -> Option<String> {
        use wasm_bindgen::JsCast;
        let el: web_sys::Element = ev.target()?.dyn_into().ok()?;
        el.closest("[data-tip]")
            .ok()
            .flatten()?
            .get_attribute("data-tip")
    };
    view! {
        <figure class="figure" data-testid=testid>
            <div
                class="svg"
                inner_html=svg
                on:mouseover=move |ev: leptos::ev::MouseEvent| {
                    wb.hover
                        .set(
                            tip(&ev)
                                .map(|text| Hover {
                                    text,
                                    x: ev.client_x(),
                                    y: ev.client_y(),
                                }),
                        );
                }
                on:mouseleave=move |_| wb.hover.set(None)
            ></div>
            <figcaption class="exports">
                <button
                    class="link"
                    data-testid="export-svg"
                    on:click=move |_| {
                        let _ = web::download(
                            &format!("{}-{n1}.svg", wb.file_stem()),
                            "image/svg+xml",
                            &s1,
                        );
                    }
                >
                    "SVG"
                </button>
                <button
                    class="link"
                    data-testid="export-png"
                    on:click=move |_| {
                        let _ = web::download_png(&format!("{}-{n2}.png", wb.file_stem()), &s2);
                    }
                >
                    "PNG"
                </button>
            </figcaption>
        </figure>
    }
}

/// A heatmap table: hover cards, click (or Enter) to pick a cell, arrow keys
/// move between cells.
#[component]
pub(crate) fn HeatmapView(
    heatmap: Heatmap,
    testid: &'static str,
    corner: &'static str,
    wb: Workbench,
    on_pick: Callback<(usize, usize)>,
) -> impl IntoView {
    let scale = heatmap.scale;
    let cols = heatmap.cols.clone();
    let notes = heatmap.col_notes.clone();
    let (nr, nc) = (heatmap.rows.len(), cols.len());
    let focus = move |r: usize, c: usize| {
        if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
            d.query_selector(&format!(
                "[data-testid={testid}] td[data-r=\"{r}\"][data-c=\"{c}\"]"
            ))
            .ok()
            .flatten()
        }) {
            use wasm_bindgen::JsCast;
            if let Ok(h) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = h.focus();
            }
        }
    };
    let body = heatmap
        .rows
        .iter()
        .zip(heatmap.cells)
        .enumerate()
        .map(|(ri, (row, cells))| {
            let row = row.clone();
            let tds = cells
                .into_iter()
                .zip(cols.clone())
                .enumerate()
                .map(|(ci, (cell, col))| {
                    let (d1, d2) = (cell.detail.clone(), cell.detail.clone());
                    let value_attr = cell.value.map(|v| v.to_string()).unwrap_or_default();
                    let label = format!("{}, {}", row, cell.detail.replace('\n', ", "));
                    view! {
                        <td
                            class="cell"
                            data-row=row.clone()
                            data-col=col
                            data-value=value_attr
                            data-r=ri
                            data-c=ci
                            tabindex=if ri == 0 && ci == 0 { "0" } else { "-1" }
                            aria-label=label
                            style=format!("background: {}; color: {}", cell.fill, cell.ink)
                            on:mouseenter=move |ev: leptos::ev::MouseEvent| {
                                wb.hover
                                    .set(
                                        Some(Hover {
                                            text: d1.clone(),
                                            x: ev.client_x(),
                                            y: ev.client_y(),
                                        }),
                                    );
                            }
                            on:mousemove=move |ev: leptos::ev::MouseEvent| {
                                wb.hover
                                    .update(|h| {
                                        if let Some(h) = h {
                                            h.x = ev.client_x();
                                            h.y = ev.client_y();
                                        }
                                    });
                            }
                            on:mouseleave=move |_| wb.hover.set(None)
                            on:focus=move |ev: leptos::ev::FocusEvent| {
                                use wasm_bindgen::JsCast;
                                let rect = ev
                                    .target()
                                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                                    .map(|e| e.get_bounding_client_rect());
                                if let Some(rect) = rect {
                                    wb.hover
                                        .set(
                                            Some(Hover {
                                                text: d2.clone(),
                                                x: rect.right() as i32,
                                                y: rect.top() as i32,
                                            }),
                                        );
                                }
                            }
                            on:blur=move |_| wb.hover.set(None)
                            on:click=move |_| on_pick.run((ri, ci))
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                let (r, c) = match ev.key().as_str() {
                                    "ArrowUp" => (ri.saturating_sub(1), ci),
                                    "ArrowDown" => ((ri + 1).min(nr - 1), ci),
                                    "ArrowLeft" => (ri, ci.saturating_sub(1)),
                                    "ArrowRight" => (ri, (ci + 1).min(nc - 1)),
                                    "Enter" | " " => {
                                        ev.prevent_default();
                                        on_pick.run((ri, ci));
                                        return;
                                    }
                                    _ => return,
                                };
                                ev.prevent_default();
                                focus(r, c);
                            }
                        >
                            {cell.label}
                        </td>
                    }
                })
                .collect_view();
            view! {
                <tr>
                    <th scope="row">{row}</th>
                    {tds}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="heatmap-wrap">
            <table class="heatmap" data-testid=testid>
                <thead>
                    <tr>
                        <th class="corner">{corner}</th>
                        {cols
                            .iter()
                            .zip(notes)
                            .map(|(c, n)| {
                                view! {
                                    <th scope="col">
                                        {c.clone()}
                                        {(!n.is_empty())
                                            .then(|| view! { <div class="note">{n}</div> })}
                                    </th>
                                }
                            })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
            <div class="legend" aria-label="colour scale">
                <span>{fmt(Some(-scale), 1)}</span>
                <span class="bar"></span>
                <span>{fmt(Some(scale), 1)}</span>
                <span class="hint">
                    "Click a cell (or focus it and press Enter) for its scatter; arrow keys move between cells."
                </span>
            </div>
        </div>
    }
}

/// A clickable list of ids rendered as a table (rows open an item).
#[component]
pub(crate) fn ClickTable(
    table: Table,
    ids: Vec<String>,
    testid: &'static str,
    on_open: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="data trajectories" data-testid=testid data-title=table.title.clone()>
                <caption>{table.title.clone()}</caption>
                <thead>
                    <tr>
                        {table
                            .headers
                            .iter()
                            .map(|h| view! { <th scope="col">{h.clone()}</th> })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {table
                        .rows
                        .into_iter()
                        .zip(ids)
                        .map(|(cells, id)| {
                            let id2 = id.clone();
                            view! {
                                <tr
                                    tabindex="0"
                                    data-id=id.clone()
                                    on:click=move |_| on_open.run(id.clone())
                                    on:keydown=move |ev| row_keys(&ev, || on_open.run(id2.clone()))
                                >
                                    {cells
                                        .into_iter()
                                        .map(|c| view! { <td>{c.display()}</td> })
                                        .collect_view()}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// Keys on a row of a clickable list: Enter or space opens it (`open`),
/// ↓/j and ↑/k move the focus to the next or previous row.
pub(crate) fn row_keys(ev: &leptos::ev::KeyboardEvent, open: impl FnOnce()) {
    let row = event_target::<web_sys::HtmlElement>(ev);
    let next = match ev.key().as_str() {
        "Enter" | " " => {
            ev.prevent_default();
            open();
            None
        }
        "ArrowDown" | "j" => row.next_element_sibling(),
        "ArrowUp" | "k" => row.previous_element_sibling(),
        _ => None,
    };
    if let Some(el) =
        next.and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
    {
        ev.prevent_default();
        let _ = el.focus();
    }
}

/// The view tabs of an area (`testid`: its `data-testid`, if any).
pub(crate) fn sub_nav<V: ViewId>(
    current: RwSignal<V>,
    testid: Option<&'static str>,
) -> impl IntoView {
    view! {
        <nav class="views" aria-label="views" role="tablist" data-testid=testid>
            {V::ALL
                .iter()
                .map(|&v| {
                    view! {
                        <button
                            role="tab"
                            data-view=v.id()
                            aria-selected=move || (current.get() == v).to_string()
                            class:on=move || current.get() == v
                            on:click=move |_| current.set(v)
                        >
                            {v.label()}
                        </button>
                    }
                })
                .collect_view()}
        </nav>
    }
}

/// The panel of an area's current view: its title (with the synthetic-data
/// mark beside it when `synthetic_mark`), its one-line explanation and
/// `body`.
pub(crate) fn area_panel<V: ViewId>(
    wb: Workbench,
    current: RwSignal<V>,
    synthetic_mark: bool,
    body: impl Fn(V) -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <section class="panel" data-testid="view" data-view=move || current.get().id()>
            {move || {
                let id = current.get();
                let (label, explain) = (id.label(), id.explain());
                if synthetic_mark {
                    view! {
                        <h2>{label} <SyntheticMark wb=wb /></h2>
                        <p class="explain">{explain}</p>
                        {body(id)}
                    }
                        .into_any()
                } else {
                    view! {
                        <h2>{label}</h2>
                        <p class="explain">{explain}</p>
                        {body(id)}
                    }
                        .into_any()
                }
            }}
        </section>
    }
}

/// The "synthetic example" label beside a view's title while the example is shown.
#[component]
pub(crate) fn SyntheticMark(wb: Workbench) -> impl IntoView {
    move || {
        // The trajectory pages show the files last opened, which may not be
        // the analysis on screen (when that one failed).
        let trajectory_page = wb.gaps.view.get().is_trajectory_page();
        let synthetic = if trajectory_page {
            wb.traj.side_source.get_value() == Source::Corpus
        } else {
            wb.gaps
                .analysis
                .with(|a| a.as_ref().is_some_and(|a| a.synthetic))
        };
        synthetic.then(|| {
            let label = if wb.gaps.source.get_value() == Source::Corpus {
                CORPUS_LABEL
            } else {
                EXAMPLE_LABEL
            };
            view! { <span class="badge synthetic small">{label}</span> }
        })
    }
}
