//! gapscope-web: the leptos UI. Compiled for wasm32 only; on the host this
//! crate is empty so that `cargo test --workspace` never builds leptos.
#![cfg(target_arch = "wasm32")]
