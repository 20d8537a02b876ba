//! Folders from the browser: a folder picked with the directory picker
//! (each file's `webkitRelativePath`) or dropped (its entries walked with
//! `webkitGetAsEntry`, `createReader` and `readEntries`). Both give the
//! same [`Picked`] files, named by their path under the folder's name, and
//! the folders' names; the worker reads each folder as one input
//! (`Source::Attached { names, folders }`), as the command line reads a
//! directory.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A file and its name as the worker sees it (`folder/sub/file` for a
/// file of a folder).
pub(crate) struct Picked {
    pub file: web_sys::File,
    pub name: String,
}

/// The files of a file input: named by their path under the picked folder
/// (directory picker), else by their own name; and the folders.
pub(crate) fn picked(list: &web_sys::FileList) -> (Vec<Picked>, Vec<String>) {
    let files: Vec<Picked> = (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|file| {
            let name = js_sys::Reflect::get(&file, &JsValue::from_str("webkitRelativePath"))
                .ok()
                .and_then(|v| v.as_string())
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| file.name());
            Picked { file, name }
        })
        .collect();
    let folders = folders_of(&files);
    (files, folders)
}

/// The distinct first parts of the names that have a folder, in order.
fn folders_of(files: &[Picked]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in files {
        if let Some((top, _)) = f.name.split_once('/') {
            if !out.iter().any(|o| o == top) {
                out.push(top.to_string());
            }
        }
    }
    out
}

/// The entries of a drop, taken at once (the browser empties the
/// `DataTransfer` after the event); `None` when the browser gives none
/// (then the drop's plain file list serves).
pub(crate) fn drop_entries(dt: &web_sys::DataTransfer) -> Option<Vec<web_sys::FileSystemEntry>> {
    let items = dt.items();
    let entries: Vec<web_sys::FileSystemEntry> = (0..items.length())
        .filter_map(|i| items.get(i))
        .filter(|item| item.kind() == "file")
        .filter_map(|item| item.webkit_get_as_entry().ok().flatten())
        .collect();
    (!entries.is_empty() && entries.iter().any(web_sys::FileSystemEntry::is_directory))
        .then_some(entries)
}

/// Walk dropped entries: every file under each folder, named by its path.
pub(crate) async fn walk(
    entries: Vec<web_sys::FileSystemEntry>,
) -> Result<(Vec<Picked>, Vec<String>), String> {
    let mut files = Vec::new();
    let mut stack: Vec<(web_sys::FileSystemEntry, String)> = entries
        .into_iter()
        .rev()
        .map(|e| (e, String::new()))
        .collect();
    while let Some((entry, prefix)) = stack.pop() {
        let name = format!("{prefix}{}", entry.name());
        if entry.is_directory() {
            let dir: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
            let reader = dir.create_reader();
            let mut children = Vec::new();
            // `readEntries` gives a batch at a time, then an empty one.
            loop {
                let batch = JsFuture::from(js_sys::Promise::new(&mut |ok, err| {
                    if let Err(e) = reader.read_entries_with_callback_and_callback(&ok, &err) {
                        let _ = err.call1(&JsValue::NULL, &e);
                    }
                }))
                .await
                .map_err(|e| format!("{name}: the folder could not be read ({e:?})"))?;
                let batch: js_sys::Array = batch.unchecked_into();
                if batch.length() == 0 {
                    break;
                }
                children.extend(
                    batch
                        .iter()
                        .map(JsCast::unchecked_into::<web_sys::FileSystemEntry>),
                );
            }
            children.sort_by_key(web_sys::FileSystemEntry::name);
            let inner = format!("{name}/");
            stack.extend(children.into_iter().rev().map(|c| (c, inner.clone())));
        } else {
            let entry: web_sys::FileSystemFileEntry = entry.unchecked_into();
            let file = JsFuture::from(js_sys::Promise::new(&mut |ok, err| {
                entry.file_with_callback_and_callback(&ok, &err);
            }))
            .await
            .map_err(|e| format!("{name}: the file could not be read ({e:?})"))?;
            files.push(Picked {
                file: file.unchecked_into(),
                name,
            });
        }
    }
    let folders = folders_of(&files);
    Ok((files, folders))
}
