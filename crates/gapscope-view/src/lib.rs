//! gapscope-view: what the page shows, built from core reports by plain
//! functions, so every view model is unit-tested on the host. No leptos, no
//! web-sys: the components of the web crate (`src/`) only render these
//! structs and strings, and the exports write them.
//!
//! - [`format`](mod@format), [`colour`]: number text and the diverging colour scale;
//! - [`table`]: tables with CSV and booktabs LaTeX export;
//! - [`chart`]: figures as standalone SVG text (the string shown is the
//!   string exported);
//! - [`heatmap`]: the gap and correlation heatmaps;
//! - [`nav`]: the parts of the page and their views, as enums, and the
//!   page's place in the URL;
//! - [`glossary`]: every abbreviation the page shows, expanded;
//! - [`words`]: the core's messages in the page's words (its controls, not
//!   the command line's flags);
//! - one module per part of the page: [`gaps`] (realization gaps),
//!   [`trajectories`] (trajectory list, stability, planted vs recovered),
//!   [`compare`] (run comparisons, with two trajectories side by side),
//!   [`conversation`] (one trajectory in the viewer, Markdown made safe),
//!   [`evidence`] (evidence to action, with the episode replay) and
//!   [`runtime`] (runtime contracts, with the episode stepper).

pub mod chart;
pub mod colour;
pub mod compare;
pub mod conversation;
pub mod evidence;
pub mod experiments;
pub mod format;
pub mod gaps;
pub mod glossary;
pub mod heatmap;
pub mod inference;
pub mod labels;
pub mod markup;
pub mod nav;
pub mod runtime;
pub mod runtime_addendum;
pub mod scatter;
pub mod table;
pub mod trajectories;
pub mod window;
pub mod words;
