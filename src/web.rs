//! Browser helpers: downloads (text, SVG, PNG), files made from text, the URL query string.

use wasm_bindgen::{closure::Closure, JsCast, JsValue};

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// A `File` named `name` holding `text` (UTF-8), as if the user had dropped it.
pub fn text_file(name: &str, text: &str) -> Result<web_sys::File, JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    web_sys::File::new_with_str_sequence(&parts, name)
}

/// Offer `text` as a download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    download_blob(name, &blob)
}

fn download_blob(name: &str, blob: &web_sys::Blob) -> Result<(), JsValue> {
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let doc = document().ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    // Every export's name is kept short (≤ 80 characters; a long one keeps
    // its start, a digest of the whole and its extension).
    a.set_download(&gapscope_view::format::short_file_name(name));
    a.click();
    // The URL is revoked a minute later, not at once: a download the browser
    // starts after this task (a busy machine) would find it gone (seen in CI
    // as a download that never came).
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    web_sys::window()
        .ok_or("no window")?
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000)?;
    Ok(())
}

thread_local! {
    /// The last SVG decoded ahead of a PNG export ([`prepare_png`]) and
    /// its image.
    static PREPARED: std::cell::RefCell<Option<(String, web_sys::HtmlImageElement)>> =
        const { std::cell::RefCell::new(None) };
}

/// An image of `svg` (decoded by the browser, which takes a task).
fn svg_image(svg: &str) -> Result<(web_sys::HtmlImageElement, String), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(svg));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let img = web_sys::HtmlImageElement::new()?;
    img.set_src(&url);
    Ok((img, url))
}

/// Decode `svg` ahead of a PNG export (when the pointer or the focus
/// reaches the PNG button), so that the click draws and downloads it at
/// once: a download started after the click's task is one the browser
/// counts as automatic (Chrome asks before a third).
pub fn prepare_png(svg: &str) {
    let fresh = PREPARED.with_borrow(|p| p.as_ref().is_none_or(|(s, _)| s != svg));
    if fresh {
        if let Ok((img, url)) = svg_image(svg) {
            // The image keeps its decoded picture; the blob URL can go.
            let img2 = img.clone();
            let onload = Closure::once_into_js(move || {
                let _ = web_sys::Url::revoke_object_url(&url);
                drop(img2);
            });
            img.set_onload(Some(onload.unchecked_ref()));
            PREPARED.with_borrow_mut(|p| *p = Some((svg.to_string(), img)));
        }
    }
}

/// Draw a decoded `img` at twice its size and offer it as a PNG download.
fn png_of(name: &str, img: &web_sys::HtmlImageElement) -> Result<(), JsValue> {
    let doc = document().ok_or("no document")?;
    let canvas: web_sys::HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
    let (w, h) = (img.natural_width() * 2, img.natural_height() * 2);
    canvas.set_width(w);
    canvas.set_height(h);
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")?
        .ok_or("no 2d context")?
        .dyn_into()?;
    ctx.draw_image_with_html_image_element_and_dw_and_dh(
        img,
        0.0,
        0.0,
        f64::from(w),
        f64::from(h),
    )?;
    let data = canvas.to_data_url_with_type("image/png")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
    a.set_href(&data);
    a.set_download(&gapscope_view::format::short_file_name(name));
    a.click();
    Ok(())
}

/// Render an SVG string to a PNG at twice its size and offer it as a
/// download: at once when [`prepare_png`] has decoded it, else once the
/// browser has.
pub fn download_png(name: &str, svg: &str) -> Result<(), JsValue> {
    let ready = PREPARED.with_borrow(|p| {
        p.as_ref()
            .filter(|(s, img)| s == svg && img.complete() && img.natural_width() > 0)
            .map(|(_, img)| img.clone())
    });
    if let Some(img) = ready {
        return png_of(name, &img);
    }
    let (img, url) = svg_image(svg)?;
    let name = name.to_string();
    let img2 = img.clone();
    let onload = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
        if let Err(e) = png_of(&name, &img2) {
            web_sys::console::error_2(&"PNG export failed".into(), &e);
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    Ok(())
}

/// The page's query parameters, in order.
pub fn query() -> Vec<(String, String)> {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return Vec::new();
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&params) {
        for entry in entries.flatten() {
            let pair = js_sys::Array::from(&entry);
            if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                pairs.push((k, v));
            }
        }
    }
    pairs
}

/// Set the query string (no reload): a new history entry when `push`
/// (Back returns to the previous one), else the current entry replaced.
/// Nothing happens when the query is already this one.
pub fn set_query(pairs: &[(&str, String)], push: bool) {
    let Ok(params) = web_sys::UrlSearchParams::new() else {
        return;
    };
    for (k, v) in pairs {
        params.append(k, v);
    }
    let q: String = params.to_string().into();
    let Some(window) = web_sys::window() else {
        return;
    };
    let current = window.location().search().unwrap_or_default();
    if current.trim_start_matches('?') == q {
        return;
    }
    if let Ok(history) = window.history() {
        let url = format!("?{q}");
        let _ = if push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    }
}

/// Call `f` whenever the user moves through the page's history (Back,
/// Forward): the query is then the entry's.
pub fn on_history(f: impl Fn() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let handler = Closure::<dyn Fn()>::new(f);
    let _ = window.add_event_listener_with_callback("popstate", handler.as_ref().unchecked_ref());
    // The page's own listener, for the page's lifetime.
    handler.forget();
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Read a value kept in this browser's own storage.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

/// Keep a value in this browser's own storage (never sent anywhere).
pub fn store(key: &str, value: &str) -> Result<(), String> {
    let s = storage().ok_or("this browser has no local storage")?;
    s.set_item(key, value)
        .map_err(|_| "the browser's storage is full or disabled".to_string())
}

/// Forget a kept value.
pub fn forget(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// Set the colour theme on the root element: `light`, `dark`, or `auto`
/// (resolved from the system's preference), so the stylesheet has one dark palette.
pub fn set_theme(theme: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let resolved = match theme {
        "light" | "dark" => theme,
        _ => match window.match_media("(prefers-color-scheme: dark)") {
            Ok(Some(q)) if q.matches() => "dark",
            _ => "light",
        },
    };
    if let Some(root) = window.document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-theme", resolved);
    }
}
