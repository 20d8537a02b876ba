//! A file given to the wrong part: the core names it
//! (`gapscope_data::kind::misplaced`: "this is a runtime-contracts episode
//! log, read by Runtime contracts"), and the page offers to open it there.

use gapscope_data::kind::{part_named_in, Part};
use gapscope_view::nav::Area;
use gapscope_worker::Source;
use leptos::prelude::*;

use crate::folders::Picked;
use crate::parts::Workbench;

impl Workbench {
    /// Open `files` in `part` (the files a part's reader named as another
    /// part's): that part's tab, its reader, its views.
    pub(crate) fn open_in(self, part: Part, files: Vec<web_sys::File>) {
        if files.is_empty() {
            return;
        }
        match part {
            Part::Gaps => {
                self.area.set(Area::Gaps);
                let picked = files
                    .into_iter()
                    .map(|file| Picked {
                        name: file.name(),
                        file,
                    })
                    .collect();
                self.open_picked(picked, Vec::new());
            }
            Part::Evidence => {
                let names = files.iter().map(web_sys::File::name).collect();
                self.ev.files.set_value(files);
                self.ev.source.set_value(Some(Source::attached(names)));
                self.ev.report.answer.set(None);
                self.area.set(Area::Evidence);
                self.run_evidence();
            }
            Part::Runtime => {
                let names = files.iter().take(1).map(web_sys::File::name).collect();
                self.rt.files.set_value(files.into_iter().take(1).collect());
                self.rt.source.set_value(Some(Source::attached(names)));
                self.rt.report.answer.set(None);
                self.area.set(Area::Runtime);
                self.run_runtime();
            }
        }
    }
}

/// The file a misplaced-file sentence names: the text before its first
/// ": this is" (the sentence starts with the file's name).
fn named_file(message: &str) -> Option<&str> {
    message.split(": this is ").next().filter(|n| *n != message)
}

/// A part's error message. When it says a file is another part's, it is
/// shown without the command line, with a button that opens the file
/// there (the files of `files` named by the message, else all of them).
#[component]
pub(crate) fn ErrorText(
    wb: Workbench,
    message: String,
    /// The files the failing part was given.
    files: Vec<web_sys::File>,
) -> impl IntoView {
    // The page's words: its controls, not the command line's flags.
    let text = gapscope_view::words::for_page(&message);
    let Some((part, _)) = part_named_in(&message) else {
        return view! { <span data-testid="error-message">{text}</span> }.into_any();
    };
    let named: Vec<web_sys::File> = match named_file(&message) {
        Some(name) => files
            .iter()
            .filter(|f| f.name() == name || name.ends_with(&format!("/{}", f.name())))
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    // A case file needs its trajectories: every file goes to the evidence
    // part; the runtime part reads one log, the one named.
    let chosen = if part == Part::Runtime && !named.is_empty() {
        named
    } else {
        files
    };
    let chosen = StoredValue::new_local(chosen);
    view! {
        <span data-testid="error-message">{text}</span>
        " "
        <button
            class="move"
            data-testid="open-in-part"
            data-part=part.id()
            on:click=move |_| wb.open_in(part, chosen.get_value())
        >
            {format!("Open it in {}", part.label())}
        </button>
    }
    .into_any()
}
