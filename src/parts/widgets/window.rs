//! The scrolling box of a virtualised table or heatmap: which rows it draws
//! (`gapscope_view::window`), updated as the box scrolls.

use std::ops::Range;

use gapscope_view::window;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A row's height until one is measured (the first scroll measures it).
const ROW_PX: f64 = 24.0;

/// The drawn rows of a table of `n` rows and its body element.
#[derive(Clone, Copy)]
pub(crate) struct Window {
    /// The rows drawn.
    pub(crate) rows: RwSignal<Range<usize>>,
    row_px: StoredValue<f64>,
    n: usize,
    /// The `<tbody>` whose rows are windowed.
    pub(crate) body: NodeRef<leptos::html::Tbody>,
}

impl Window {
    pub(crate) fn new(n: usize) -> Self {
        Self {
            rows: RwSignal::new(window::drawn(0.0, ROW_PX, f64::NAN, n)),
            row_px: StoredValue::new(ROW_PX),
            n,
            body: NodeRef::new(),
        }
    }

    /// Whether the table is long enough to be windowed.
    pub(crate) fn windowed(self) -> bool {
        self.n > window::DRAWN
    }

    /// On a scroll of the box `ev` is for: move the window if the rows in
    /// view left it (keeping the focus on the cell or row that had it).
    pub(crate) fn scrolled(self, ev: &web_sys::Event) {
        let (Some(scroller), Some(body)) = (
            ev.current_target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok()),
            self.body.get_untracked(),
        ) else {
            return;
        };
        let measured = body
            .query_selector("tr:not(.pad)")
            .ok()
            .flatten()
            .map(|tr| tr.get_bounding_client_rect().height())
            .filter(|h| *h > 0.0);
        let changed_px = measured.is_some_and(|h| (h - self.row_px.get_value()).abs() > 0.5);
        if let Some(h) = measured {
            self.row_px.set_value(h);
        }
        let top = scroller.get_bounding_client_rect().top() - body.get_bounding_client_rect().top();
        let view = f64::from(scroller.client_height());
        let rows = window::drawn(top, self.row_px.get_value(), view, self.n);
        if changed_px || rows != self.rows.get_untracked() {
            let refocus = focused_in(&body);
            self.rows.set(rows);
            if let Some(selector) = refocus {
                request_animation_frame(move || focus(self.body, &selector));
            }
        }
    }

    /// The body's HTML: `html` (the drawn rows) between the empty rows
    /// that stand for the others.
    pub(crate) fn wrap(self, rows: &Range<usize>, html: &str) -> String {
        let (above, below) = window::pads(rows, self.n, self.row_px.get_value());
        format!(
            "{}{html}{}",
            window::pad_html(above),
            window::pad_html(below)
        )
    }
}

/// A selector for the focused cell or row of `body` (by its indices), if
/// the focus is in it: the window's redraw replaces that element.
fn focused_in(body: &web_sys::Element) -> Option<String> {
    let active = web_sys::window()?.document()?.active_element()?;
    if !body.contains(Some(&active)) {
        return None;
    }
    // Indices only (a heatmap cell's `data-row` is its row's name).
    let index = |name: &str| {
        let v: usize = active.get_attribute(name)?.parse().ok()?;
        Some(format!("[{name}=\"{v}\"]"))
    };
    match (index("data-r"), index("data-c")) {
        (Some(r), Some(c)) => Some(format!("{r}{c}")),
        _ => index("data-row"),
    }
}

/// Focus the element of `body` matching `selector`, if it is drawn.
fn focus(body: NodeRef<leptos::html::Tbody>, selector: &str) {
    // The table may be gone by the next frame: a disposed ref is no element.
    if let Some(el) = body
        .try_get_untracked()
        .flatten()
        .and_then(|b| b.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}
