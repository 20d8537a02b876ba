//! Correlation inference as JSON, for the cross-check
//! `bench/compare_corr.py`.
//!
//! stdin: `{"pairs": [{"x": [..], "y": [..]}, ..]}`. stdout: one object per
//! pair: `{"pearson", "spearman", "n", "pearson_ci", "pearson_p",
//! "spearman_p"}` (`null` where undefined), then `{"holm", "bh"}` of the
//! Pearson p-values as one row. An invalid input is reported on stderr,
//! exit code 1.
//!
//!     cargo run -p gapscope-stats --example corr_json < input.json

use std::io::Read;

use gapscope_stats::inference::{adjust_matrix, correlation_p, fisher_interval};
use gapscope_stats::summary::{pearson, spearman};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
struct Input {
    pairs: Vec<Pair>,
}

#[derive(Deserialize)]
struct Pair {
    x: Vec<f64>,
    y: Vec<f64>,
}

fn main() {
    let mut text = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut text) {
        eprintln!("corr_json: could not read stdin: {e}");
        std::process::exit(1);
    }
    let input: Input = match serde_json::from_str(&text) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("corr_json: stdin is not the expected JSON: {e}");
            std::process::exit(1);
        }
    };
    let mut rows = Vec::new();
    let mut ps = Vec::new();
    for p in &input.pairs {
        let n = p.x.len();
        let r = pearson(&p.x, &p.y);
        let rho = spearman(&p.x, &p.y);
        let pp = r.and_then(|r| correlation_p(r, n));
        ps.push(pp);
        rows.push(json!({
            "pearson": r,
            "spearman": rho,
            "n": n,
            "pearson_ci": r.and_then(|r| fisher_interval(r, n)),
            "pearson_p": pp,
            "spearman_p": rho.and_then(|r| correlation_p(r, n)),
        }));
    }
    let adjusted = adjust_matrix(&[ps]);
    let out = json!({ "cells": rows, "holm": adjusted.holm[0], "bh": adjusted.bh[0] });
    println!("{out}");
}
