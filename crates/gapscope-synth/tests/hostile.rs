//! Hostile sizes at the generators (issue 14; moved from the former core
//! crate's tests/hostile.rs, whose reader cases are in
//! crates/gapscope-data/tests/hostile.rs).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[test]
fn huge_synthetic_sizes_are_refused_before_allocating() {
    use gapscope_synth::trajectories::{check_sizes, generate, TrajParams};
    assert_eq!(
        check_sizes(1 << 40, 1 << 40, 60, 1).unwrap_err(),
        "--families × --per-family: 1099511627776 × 1099511627776 = 18446744073709551615 models exceed the limit of 10000"
    );
    assert_eq!(
        check_sizes(10, 10, 1_000_000, 1).unwrap_err(),
        "--tasks: 1000000 exceeds the limit of 100000"
    );
    assert_eq!(
        check_sizes(100, 100, 1000, 1).unwrap_err(),
        "models × --tasks × --trials: 10000 × 1000 × 1 = 10000000 trajectories exceed the limit of 1000000"
    );
    // generate checks the same before building anything.
    let p = TrajParams {
        trials: usize::MAX,
        ..TrajParams::default()
    };
    assert!(generate(&p)
        .unwrap_err()
        .contains("trajectories exceed the limit of 1000000"));
    assert_eq!(
        gapscope_synth::profiles::check_sizes(8, 3, 1 << 50, 7).unwrap_err(),
        "--foundational: 1125899906842624 exceeds the limit of 1000 dimensions"
    );
}
