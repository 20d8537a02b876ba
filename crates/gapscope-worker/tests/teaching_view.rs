//! The teaching view's planted-vs-recovered table and figure on the worker's
//! analysis of the embedded corpus (here, not in gapscope-view: the view
//! crate sits below the worker and may not name it).
#![allow(clippy::unwrap_used)]

use gapscope_view::trajectories::{planted_vs_recovered, read_planted};
use gapscope_worker::{handle, Request, Source, CORPUS_PLANTED};

#[test]
fn planted_and_recovered_gaps_of_the_embedded_corpus() {
    let a = handle(&Request {
        bootstrap: 0,
        ..Request::new(Source::Corpus)
    })
    .unwrap();
    let planted = read_planted(CORPUS_PLANTED);
    assert_eq!(planted.len(), 15);
    // The first data row of planted.csv, as written by the generator.
    assert_eq!(planted[0].0, "Aurora Max");
    assert!((planted[0].1[0].1 - -4.292771615117124).abs() < 1e-12);
    let (t, svg, rho) = planted_vs_recovered(&a.report, &planted, "macro").unwrap();
    assert_eq!(t.rows.len(), 15);
    assert!(svg.starts_with("<svg"));
    // Held-out prediction limits recovery at 15 models: high, not perfect.
    let rho = rho.unwrap();
    assert!((0.5..1.0).contains(&rho), "{rho}");
    assert!(planted_vs_recovered(&a.report, &planted, "GI").is_some());
    assert!(planted_vs_recovered(&a.report, &planted, "nope").is_none());
}
