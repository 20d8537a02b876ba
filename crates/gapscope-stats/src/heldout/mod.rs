//! Held-out ridge prediction by group (model family, or one model per fold):
//! one definition, two implementations. [`reference`](mod@reference) refits from rows and is
//! the definition the tests trust; [`engine`] computes every fold, target and
//! penalty from per-group sums and is what the analyses call.

pub mod engine;
pub mod reference;
