//! Components shared by every part: tables and figures with their exports,
//! the heatmap, clickable lists, the view tabs and the area panel; and the
//! job slot ([`job`]).

pub(crate) mod job;
pub(crate) mod window;

use gapscope_view::format::fmt;
use gapscope_view::heatmap::{HeatCell, Heatmap};
use gapscope_view::nav::{Choice, ViewId};
use gapscope_view::table::Table;
use leptos::prelude::*;
use std::ops::Range;

use crate::parts::Workbench;
use crate::web;
use gapscope_worker::{Source, CORPUS_LABEL, EXAMPLE_LABEL};
use window::Window;

/// The hover card: its text and the pointer position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Hover {
    pub(crate) text: String,
    pub(crate) x: i32,
    pub(crate) y: i32,
}

/// A table with CSV and LaTeX export; with `on_row`, a click (or Enter) on
/// a row picks it; `windowed`: a long table scrolls in a box that draws
/// [`gapscope_view::window::DRAWN`] rows at a time (the exports have every
/// row).
#[component]
pub(crate) fn TableView(
    table: Table,
    wb: Workbench,
    #[prop(optional)] on_row: Option<Callback<usize>>,
    #[prop(optional)] windowed: bool,
) -> impl IntoView {
    let slug = gapscope_view::table::slug(&table.title);
    let pickable = on_row.is_some();
    let win = Window::new(table.rows.len());
    let windowed = windowed && win.windowed();
    // A windowed table's columns keep the width of their widest cell,
    // whichever rows are drawn.
    let widths = if windowed {
        table.column_chars(48)
    } else {
        Vec::new()
    };
    let whole = (!windowed).then(|| table.body_html(usize::MAX, pickable));
    let (title, caption, headers) = (
        table.title.clone(),
        table.title.clone(),
        table.headers.clone(),
    );
    // The exports are written when asked for (a table may have thousands of rows).
    let table = StoredValue::new(table);
    let body = move || {
        if let Some(html) = &whole {
            return html.clone();
        }
        let rows = win.rows.get();
        table.with_value(|t| win.wrap(&rows, &t.rows_html(rows.clone(), pickable)))
    };
    let (n1, n2) = (slug.clone(), slug.clone());
    // One listener on the body, not one per row: the row is the event's
    // `tr[data-row]` (rows are drawn from one HTML string, Table::rows_html).
    let pick = move |ev: &web_sys::Event| {
        if let (Some(f), Some(i)) = (on_row, picked(ev, "tr[data-row]", "data-row")) {
            f.run(i);
        }
    };
    view! {
        <div class="table-wrap">
            <div
                class="table-box"
                class:windowed=windowed
                on:scroll=move |ev| {
                    if windowed {
                        win.scrolled(&ev);
                    }
                }
            >
                <table class="data" data-testid="table" data-title=title>
                    <caption>{caption}</caption>
                    <thead>
                        <tr>{header_cells(headers, &widths)}</tr>
                    </thead>
                    <tbody
                        node_ref=win.body
                        inner_html=body
                        on:click=move |ev| pick(&ev)
                        on:keydown=move |ev| {
                            if ev.key() == "Enter" {
                                pick(&ev);
                            }
                        }
                    ></tbody>
                </table>
            </div>
            <div class="exports">
                <button
                    class="link"
                    data-testid="export-csv"
                    on:click=move |_| {
                        let _ = web::download(
                            &format!("{}-{n1}.csv", wb.file_stem()),
                            "text/csv",
                            &table.with_value(Table::to_csv),
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
                            &table.with_value(Table::to_latex),
                        );
                    }
                >
                    "LaTeX"
                </button>
            </div>
        </div>
    }
}

/// A table's header cells; with `widths` (characters per column, from
/// `Table::column_chars`), each column keeps that width whichever rows are
/// drawn.
fn header_cells(headers: Vec<String>, widths: &[usize]) -> impl IntoView {
    headers
        .into_iter()
        .enumerate()
        .map(|(i, h)| {
            let width = widths.get(i).map(|w| format!("width: {}ch", w + 1));
            // An abbreviation is expanded on hover (the page's glossary).
            let title = gapscope_view::glossary::hover_text(&h);
            view! {
                <th scope="col" style=width title=title>
                    {h}
                </th>
            }
        })
        .collect_view()
}

/// The element matching `selector` that holds the event's target (the
/// row, cell or mark of a table or figure drawn from HTML, whose listener
/// sits on the container).
pub(crate) fn closest_of(ev: &web_sys::Event, selector: &str) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    let el: web_sys::Element = ev.target()?.dyn_into().ok()?;
    el.closest(selector).ok().flatten()
}

/// The index in attribute `attr` of [`closest_of`]`(ev, selector)`.
fn picked(ev: &web_sys::Event, selector: &str, attr: &str) -> Option<usize> {
    closest_of(ev, selector)?.get_attribute(attr)?.parse().ok()
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
    // The SVG decoded ahead of a PNG export (web::prepare_png).
    let ahead = StoredValue::new(svg.clone());
    let (n1, n2) = (name.clone(), name);
    let tip = move |ev: &leptos::ev::MouseEvent| -> Option<String> {
        closest_of(ev, "[data-tip]")?.get_attribute("data-tip")
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
                    on:pointerenter=move |_| ahead.with_value(|s| web::prepare_png(s))
                    on:focus=move |_| ahead.with_value(|s| web::prepare_png(s))
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
/// move between cells; `windowed`: a long heatmap scrolls in a box that
/// draws [`gapscope_view::window::DRAWN`] rows at a time, and with
/// `cells_of` the heatmap comes without cells and the cells of the rows
/// drawn are made as they are drawn.
#[component]
#[allow(
    clippy::too_many_lines,
    reason = "one view! tree and the listeners it names, in markup order"
)]
pub(crate) fn HeatmapView(
    heatmap: Heatmap,
    testid: &'static str,
    corner: &'static str,
    wb: Workbench,
    on_pick: Callback<(usize, usize)>,
    #[prop(optional)] windowed: bool,
    #[prop(optional)] cells_of: Option<Callback<Range<usize>, Vec<Vec<HeatCell>>>>,
) -> impl IntoView {
    let scale = heatmap.scale;
    let cols = heatmap.cols.clone();
    let notes = heatmap.col_notes.clone();
    let (nr, nc) = (heatmap.rows.len(), cols.len());
    let win = Window::new(nr);
    let windowed = windowed && win.windowed();
    // A windowed heatmap's row names keep the width of the longest.
    let corner_width = windowed.then(|| {
        let w = heatmap
            .rows
            .iter()
            .map(|r| r.chars().count())
            .max()
            .unwrap_or(0);
        format!("width: {}ch", w.min(48) + 1)
    });
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
    let mut heatmap = heatmap;
    if let (Some(f), false) = (cells_of, windowed) {
        heatmap.cells = f.run(0..nr);
    }
    let whole = (!windowed).then(|| heatmap.body_html());
    let heatmap = StoredValue::new(heatmap);
    // With `cells_of`: the first row drawn and the cells of the rows drawn.
    let drawn = StoredValue::new((0usize, Vec::<Vec<HeatCell>>::new()));
    let body = move || match (&whole, cells_of) {
        (Some(html), _) => html.clone(),
        (None, None) => {
            let rows = win.rows.get();
            heatmap.with_value(|h| win.wrap(&rows, &h.rows_html(rows.clone())))
        }
        (None, Some(f)) => {
            let rows = win.rows.get();
            let cells = f.run(rows.clone());
            let html = heatmap.with_value(|h| h.rows_html_of(rows.start, &cells));
            drawn.set_value((rows.start, cells));
            win.wrap(&rows, &html)
        }
    };
    // The exports: every row (a heatmap made window by window gets all its
    // cells now), written when asked for.
    let whole_of = move || {
        heatmap.with_value(|h| {
            let mut h = h.clone();
            if let Some(f) = cells_of {
                h.cells = f.run(0..nr);
            }
            h
        })
    };
    let png_ahead = move || {
        web::prepare_png(&whole_of().to_svg(&testid.replace('-', " "), corner));
    };
    let export = move |ext: &str| {
        let whole = whole_of();
        let title = testid.replace('-', " ");
        let name = format!("{}-{testid}.{ext}", wb.file_stem());
        let _ = match ext {
            "csv" => web::download(&name, "text/csv", &whole.to_table(&title, corner).to_csv()),
            "tex" => web::download(
                &name,
                "text/x-tex",
                &whole.to_table(&title, corner).to_latex(),
            ),
            "svg" => web::download(&name, "image/svg+xml", &whole.to_svg(&title, corner)),
            _ => web::download_png(&name, &whole.to_svg(&title, corner)),
        };
    };
    let detail = move |r: usize, c: usize| {
        let of = |cells: &[Vec<HeatCell>], r: usize| {
            cells
                .get(r)
                .and_then(|row| row.get(c))
                .map(|c| c.detail.clone())
        };
        if windowed && cells_of.is_some() {
            drawn.with_value(|(start, cells)| of(cells, r.checked_sub(*start)?))
        } else {
            heatmap.with_value(|h| of(&h.cells, r))
        }
    };
    // The cells are drawn from one HTML string (Heatmap::body_html); the
    // body listens for them all: the cell is the event's `td.cell`.
    let cell = |ev: &web_sys::Event| -> Option<(web_sys::Element, usize, usize)> {
        let td = closest_of(ev, "td.cell")?;
        let at = |name: &str| td.get_attribute(name)?.parse::<usize>().ok();
        let (r, c) = (at("data-r")?, at("data-c")?);
        Some((td, r, c))
    };
    let keys = move |ev: leptos::ev::KeyboardEvent| {
        let Some((_, ri, ci)) = cell(&ev) else {
            return;
        };
        let (r, c) = match ev.key().as_str() {
            "ArrowUp" => (ri.saturating_sub(1), ci),
            "ArrowDown" => ((ri + 1).min(nr.saturating_sub(1)), ci),
            "ArrowLeft" => (ri, ci.saturating_sub(1)),
            "ArrowRight" => (ri, (ci + 1).min(nc.saturating_sub(1))),
            "Enter" | " " => {
                ev.prevent_default();
                on_pick.run((ri, ci));
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        focus(r, c);
    };
    let body = view! {
        <tbody
            node_ref=win.body
            inner_html=body
            on:mouseover=move |ev: leptos::ev::MouseEvent| {
                wb.hover
                    .set(
                        cell(&ev)
                            .and_then(|(_, r, c)| detail(r, c))
                            .map(|text| Hover {
                                text,
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
            on:focusin=move |ev: leptos::ev::FocusEvent| {
                if let Some((td, r, c)) = cell(&ev) {
                    let rect = td.get_bounding_client_rect();
                    wb.hover
                        .set(
                            detail(r, c)
                                .map(|text| Hover {
                                    text,
                                    x: rect.right() as i32,
                                    y: rect.top() as i32,
                                }),
                        );
                }
            }
            on:focusout=move |_| wb.hover.set(None)
            on:click=move |ev| {
                if let Some((_, r, c)) = cell(&ev) {
                    on_pick.run((r, c));
                }
            }
            on:keydown=keys
        ></tbody>
    };
    view! {
        <div class="heatmap-wrap">
            <div
                class="heatmap-box"
                class:windowed=windowed
                on:scroll=move |ev| {
                    if windowed {
                        win.scrolled(&ev);
                    }
                }
            >
                <table class="heatmap" data-testid=testid>
                    <thead>
                        <tr>
                            <th class="corner" style=corner_width>
                                {corner}
                            </th>
                            {cols
                                .iter()
                                .zip(notes.into_iter().chain(std::iter::repeat(String::new())))
                                .map(|(c, n)| {
                                    view! {
                                        <th
                                            scope="col"
                                            title=gapscope_view::glossary::hover_text(c)
                                        >
                                            {c.clone()}
                                            {(!n.is_empty())
                                                .then(|| view! { <div class="note">{n}</div> })}
                                        </th>
                                    }
                                })
                                .collect_view()}
                        </tr>
                    </thead>
                    {body}
                </table>
            </div>
            <div class="legend" aria-label="colour scale">
                <span>{fmt(Some(-scale), 1)}</span>
                <span class="bar"></span>
                <span>{fmt(Some(scale), 1)}</span>
                <span class="hint">
                    "Click a cell (or focus it and press Enter) for its scatter; arrow keys move between cells."
                </span>
            </div>
            <div class="exports">
                {[("csv", "CSV"), ("tex", "LaTeX"), ("svg", "SVG"), ("png", "PNG")]
                    .into_iter()
                    .map(|(ext, label)| {
                        view! {
                            <button
                                class="link"
                                data-testid=format!(
                                    "export-{}",
                                    if ext == "tex" { "latex" } else { ext },
                                )
                                on:pointerenter=move |_| {
                                    if ext == "png" {
                                        png_ahead();
                                    }
                                }
                                on:focus=move |_| {
                                    if ext == "png" {
                                        png_ahead();
                                    }
                                }
                                on:click=move |_| export(ext)
                            >
                                {label}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        </div>
    }
}

/// A list whose rows open items (trajectories, episodes): row `i` opens
/// `ids[i]` on a click, Enter or space (↓/j and ↑/k move between rows); a
/// long list scrolls in a box that draws a window of rows; with `open`,
/// the open item's row is marked. One listener on the body, rows drawn
/// from one HTML string (`table::id_rows_html`); the columns keep the
/// width of their widest cell, long cells cut with the whole text as title.
#[component]
pub(crate) fn ClickTable(
    table: Table,
    ids: Vec<String>,
    testid: &'static str,
    on_open: Callback<String>,
    #[prop(optional, into)] open: Option<Signal<Option<String>>>,
) -> impl IntoView {
    use gapscope_view::table::{id_rows_html, CUT_CHARS};
    let widths = table.column_chars(CUT_CHARS);
    let win = Window::new(ids.len());
    let (title, caption, headers) = (
        table.title.clone(),
        table.title.clone(),
        table.headers.clone(),
    );
    let (table, ids) = (StoredValue::new(table), StoredValue::new(ids));
    let body = move || {
        let drawn = win.rows.get();
        let open = open.and_then(|o| {
            o.with(|o| {
                let o = o.as_ref()?;
                ids.with_value(|ids| ids.iter().position(|id| id == o))
            })
        });
        let html =
            table.with_value(|t| ids.with_value(|ids| id_rows_html(t, ids, drawn.clone(), open)));
        win.wrap(&drawn, &html)
    };
    let id_of = move |ev: &web_sys::Event| -> Option<String> {
        let i: usize = closest_of(ev, "tr[data-row]")?
            .get_attribute("data-row")?
            .parse()
            .ok()?;
        ids.with_value(|ids| ids.get(i).cloned())
    };
    view! {
        <div class="table-wrap">
            <div
                class="table-box"
                class:windowed=win.windowed()
                on:scroll=move |ev| win.scrolled(&ev)
            >
                <table class="data trajectories" data-testid=testid data-title=title>
                    <caption>{caption}</caption>
                    <thead>
                        <tr>{header_cells(headers, &widths)}</tr>
                    </thead>
                    <tbody
                        node_ref=win.body
                        inner_html=body
                        on:click=move |ev| {
                            if let Some(id) = id_of(&ev) {
                                on_open.run(id);
                            }
                        }
                        on:keydown=move |ev| {
                            let id = id_of(&ev);
                            row_keys(
                                &ev,
                                || {
                                    if let Some(id) = id {
                                        on_open.run(id);
                                    }
                                },
                            );
                        }
                    ></tbody>
                </table>
            </div>
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

/// A `<select>` of the values of a [`Choice`], bound to `value`.
#[component]
pub(crate) fn EnumSelect<T: Choice>(value: RwSignal<T>, testid: &'static str) -> impl IntoView {
    view! {
        <select
            data-testid=testid
            on:change=move |ev| {
                if let Some(v) = T::parse(&event_target_value(&ev)) {
                    value.set(v);
                }
            }
        >
            {T::ALL
                .iter()
                .map(|&k| {
                    view! {
                        <option value=k.id() selected=move || value.get() == k>
                            {k.label()}
                        </option>
                    }
                })
                .collect_view()}
        </select>
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
            // Trajectories alone: the realization views show no analysis.
            wb.gaps.needs.with(Option::is_none)
                && wb
                    .gaps
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

/// A list's filters: one `<select>` per field (`labels[k]`, options as
/// (value, label); "any" first), each showing `value(k)` and calling
/// `on_change(k, value)`. The test id of select `k` is `{testid}-{k}`.
#[component]
pub(crate) fn FilterSelects(
    labels: [&'static str; 3],
    options: [Vec<(String, String)>; 3],
    #[prop(into)] value: Callback<usize, String>,
    #[prop(into)] on_change: Callback<(usize, String)>,
    testid: &'static str,
) -> impl IntoView {
    view! {
        <div class="filters" data-testid=testid>
            {options
                .into_iter()
                .enumerate()
                .filter(|(_, o)| o.len() > 1)
                .map(|(k, opts)| {
                    view! {
                        <label>
                            {labels[k]} " "
                            <select
                                data-testid=format!("{testid}-{k}")
                                on:change=move |ev| on_change.run((k, event_target_value(&ev)))
                            >
                                <option value="" selected=move || value.run(k).is_empty()>
                                    "any"
                                </option>
                                {opts
                                    .into_iter()
                                    .map(|(v, l)| {
                                        let v2 = v.clone();
                                        view! {
                                            <option value=v selected=move || value.run(k) == v2>
                                                {l}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </label>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// A table or chart written as text by a worker
/// ([`gapscope_view::inference::PanelText`]: HTML, and for a table its CSV
/// and LaTeX) with its downloads. With `on_row`, a click (or Enter) on a
/// row of its table picks that row (the HTML's `tr[data-row]`).
#[component]
pub(crate) fn TextPanel(
    wb: Workbench,
    panel: gapscope_view::inference::PanelText,
    testid: &'static str,
    #[prop(optional)] on_row: Option<Callback<usize>>,
) -> impl IntoView {
    let gapscope_view::inference::PanelText {
        name,
        csv,
        latex,
        html,
        ..
    } = panel;
    let chart = csv.is_empty();
    let data_name = name.clone();
    let file = move |ext: &str| format!("{name}.{ext}");
    let box_html = html.clone();
    let row_of = move |ev: &web_sys::Event| picked(ev, "tr[data-row]", "data-row");
    view! {
        <div class="table-wrap" data-testid=testid data-name=data_name>
            <div
                class="table-box"
                inner_html=box_html
                on:click=move |ev| {
                    if let (Some(f), Some(i)) = (on_row, row_of(&ev)) {
                        f.run(i);
                    }
                }
                on:keydown=move |ev| {
                    if let (Some(f), Some(i)) = (on_row, row_of(&ev)) {
                        row_keys(&ev, || f.run(i));
                    }
                }
            ></div>
            <div class="exports">
                {if chart {
                    export_button(
                            wb,
                            file("svg"),
                            "image/svg+xml",
                            html,
                            "export-svg",
                            "SVG".into(),
                        )
                        .into_any()
                } else {
                    view! {
                        {export_button(
                            wb,
                            file("csv"),
                            "text/csv",
                            csv,
                            "export-csv",
                            "CSV".into(),
                        )}
                        {export_button(
                            wb,
                            file("tex"),
                            "text/x-tex",
                            latex,
                            "export-latex",
                            "LaTeX".into(),
                        )}
                    }
                        .into_any()
                }}
            </div>
        </div>
    }
}

/// A button that downloads `text` as `{file stem}-{file}` (the stem of the
/// part's files when it is clicked: `Workbench::file_stem`).
pub(crate) fn export_button(
    wb: Workbench,
    file: String,
    mime: &'static str,
    text: String,
    testid: &'static str,
    label: String,
) -> impl IntoView {
    view! {
        <button
            class="link"
            data-testid=testid
            on:click=move |_| {
                let _ = crate::web::download(&format!("{}-{file}", wb.file_stem()), mime, &text);
            }
        >
            {label}
        </button>
    }
}
