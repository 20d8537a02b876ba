//! The committed synthetic example must be exactly what the generator makes.
//! If this fails, regenerate it:
//! `cargo run -p gapscope-cli -- synth > assets/synthetic-example.csv`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_range_loop)]

/// Stays a byte comparison, not an insta snapshot: the committed file is itself what the page, the worker, the tests and the docs read, and a `.snap` would be a second copy of it behind a header.
#[test]
fn committed_example_is_current() {
    let committed = include_str!("../../../assets/synthetic-example.csv");
    assert!(
        committed == gapscope_synth::profiles::example_csv(),
        "assets/synthetic-example.csv is stale: run \
         `cargo run -p gapscope-cli -- synth > assets/synthetic-example.csv`"
    );
}

#[test]
fn committed_example_reads_back_to_the_generated_table() {
    let committed = include_str!("../../../assets/synthetic-example.csv");
    let read = gapscope_data::ProfileTable::read(committed, &Default::default()).unwrap();
    let generated = gapscope_synth::profiles::generate(&Default::default()).table;
    assert_eq!(read, generated);
}
