//! Long profile tables (issue 16): `ProfileTable::read_reporting` on a text
//! (long by its header) and, when the second part (after the first NUL) is a
//! `--long` specification, with those columns. Checked: a specification
//! prints back to itself; a pivot's counts agree with the table read; and
//! every table read (long or wide) written out in long form reads back as
//! the same table.
#![no_main]
use gapscope_data::profile::long::{LongColumns, MAX_LONG_CELLS};
use gapscope_data::profile::{csv_field, RewardScale, RoleOverrides};
use gapscope_data::ProfileTable;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// `t` in long form, every cell a row (missing ones with an empty score).
fn long_form(t: &ProfileTable) -> String {
    let mut out = String::from("model,family,dimension,score\n");
    let mut row = |i: usize, name: &str, v: Option<f64>| {
        let cells = [
            csv_field(&t.models[i]),
            csv_field(&t.families[i]),
            csv_field(name),
            v.map(|x| x.to_string()).unwrap_or_default(),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    };
    for i in 0..t.n_models() {
        for (j, name) in t.foundational.names.iter().enumerate() {
            row(i, name, t.foundational.values[i][j]);
        }
        for (j, name) in t.operations.names.iter().enumerate() {
            row(i, name, t.operations.values[i][j]);
        }
        if let (Some(r), Some(name)) = (&t.reward, &t.outcome_column) {
            row(i, name, r[i]);
        }
    }
    out
}

fn check(t: &ProfileTable) {
    let mut names: Vec<&String> = t.foundational.names.iter().collect();
    names.extend(&t.operations.names);
    names.extend(&t.outcome_column);
    let reserved = names
        .iter()
        .any(|n| n.eq_ignore_ascii_case("model") || n.eq_ignore_ascii_case("family"));
    if names.is_empty() || reserved || t.n_models() * names.len() > MAX_LONG_CELLS {
        return; // no long form: no dimension, or one named like a key column
    }
    let roles = RoleOverrides {
        foundational: Some(t.foundational.names.clone()),
        operations: Some(t.operations.names.clone()),
        outcome: t.outcome_column.clone(),
        no_outcome: t.outcome_column.is_none(),
        reward_scale: RewardScale::Percent,
        long: None,
    };
    match ProfileTable::read_reporting(&long_form(t), &roles) {
        Ok((b, pivot)) => {
            let pivot = pivot.expect("a long header is read as a long table");
            assert_eq!(pivot.models, t.n_models());
            assert_eq!(pivot.dimensions, names.len());
            assert_eq!(pivot.rows, t.n_models() * names.len());
            assert_eq!(b.models, t.models);
            assert_eq!(b.families, t.families);
            assert_eq!(b.foundational, t.foundational);
            assert_eq!(b.operations, t.operations);
            assert_eq!(b.reward, t.reward);
        }
        Err(e) => panic!("the long form of a read table does not read: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let (a, b) = common::split2(data);
    let text = common::text(a);
    let spec_text = common::text(b);
    let spec = spec_text.lines().next().unwrap_or_default();
    let mut specs = vec![None];
    if let Ok(s) = LongColumns::parse(spec) {
        assert_eq!(LongColumns::parse(&s.to_string()), Ok(s.clone()));
        specs.push(Some(s));
    }
    for long in specs {
        let o = RoleOverrides {
            long,
            ..Default::default()
        };
        if let Ok((t, pivot)) = ProfileTable::read_reporting(&text, &o) {
            if let Some(p) = &pivot {
                let cells = p.models * p.dimensions;
                assert_eq!(p.models, t.n_models());
                assert!(p.empty <= cells && p.rows <= cells && p.rows + p.empty >= cells);
                let _ = p.sentences("f.csv");
            }
            check(&t);
        }
    }
});
