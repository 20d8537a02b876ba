use super::*;

/// A cell with the given (id, value) pairs.
fn cell(v: &[(&str, f64)]) -> Cell {
    v.iter().map(|&(id, x)| (id.to_string(), x)).collect()
}

/// Every base cell 0.5 at caps 25 and 80, but Q_PP(25) = 0.5 + T_i, so
/// per-id D(25) = T_i, D(80) = 0 and T = T_i; `drop` leaves (condition, cap,
/// id) out.
fn column(name: &str, t: &[(&str, f64)], drop: &[(Condition, u32, &str)]) -> Column {
    let mut cells = Cells::new();
    for c in Condition::ALL {
        for cap in [25, 80] {
            let v: Vec<(&str, f64)> = t
                .iter()
                .filter(|(id, _)| !drop.contains(&(c, cap, *id)))
                .map(|&(id, ti)| {
                    let x = if (c, cap) == (Condition::PP, 25) {
                        0.5 + ti
                    } else {
                        0.5
                    };
                    (id, x)
                })
                .collect();
            cells.insert((c, cap), cell(&v));
        }
    }
    Column {
        name: name.into(),
        cells,
    }
}

fn settings() -> AcrossSettings {
    AcrossSettings {
        c_tight: 25,
        c_slack: 80,
        common_ids: None,
        own_ids: false,
        draws: 10_000,
        seed: 0,
    }
}

/// The addendum §3 example: seed 0 has ids 0–3 everywhere; seed 1 lacks id
/// 2 in S→S at c_slack and id 3 everywhere.
fn example() -> Vec<Column> {
    vec![
        column(
            "seed 0",
            &[("0", 0.4), ("1", 0.2), ("2", 0.9), ("3", -0.7)],
            &[],
        ),
        column(
            "seed 1",
            &[("0", 0.6), ("1", 0.0), ("2", 0.8)],
            &[(Condition::SS, 80, "2")],
        ),
    ]
}

fn get<'a>(r: &'a AcrossReport, name: &str) -> &'a AcrossRow {
    r.rows.iter().find(|x| x.statistic == name).unwrap()
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-12)
}

#[test]
fn addendum_example() {
    let r = across(&example(), &settings()).unwrap();
    assert_eq!(r.common_ids, vec!["0", "1"]);
    assert_eq!(r.basis, IdBasis::Common);
    assert_eq!(r.method, "clustered by instance");
    let t = get(&r, "T");
    assert!(close(t.columns[0].value, 0.3));
    assert!(close(t.columns[1].value, 0.3));
    assert_eq!(t.columns[0].n_shared, 2);
    assert!(close(t.pooled.value, 0.3));
    let [lo, hi] = t.pooled.ci95.unwrap();
    assert!(
        (lo - 0.1).abs() < 1e-12 && (hi - 0.5).abs() < 1e-12,
        "{lo} {hi}"
    );
    assert_eq!(t.pooled.n, 2);
    // Column intervals: [0.2, 0.4] and [0.0, 0.6].
    let [a, b] = t.columns[0].ci95.unwrap();
    assert!((a - 0.2).abs() < 1e-12 && (b - 0.4).abs() < 1e-12);
    let [a, b] = t.columns[1].ci95.unwrap();
    assert!(a.abs() < 1e-12 && (b - 0.6).abs() < 1e-12);
    assert_eq!(
        (t.positive, t.defined, t.above_zero, t.below_zero),
        (2, 2, 1, 0)
    );
    assert_eq!(t.summary, "T > 0 in 2 of 2 columns");
    // The table mean of seed 0 uses its own four ids.
    assert!(close(t.columns[0].from_table_means, 0.2));
    // M and the Q rows.
    let m = get(&r, "M(80)");
    assert!(close(m.columns[0].value, 0.0) && m.positive == 0);
    assert!(close(get(&r, "Q_PP(25)").columns[1].value, 0.8));
    assert!(close(get(&r, "D(25)").pooled.value, 0.3));
    assert!(close(get(&r, "amplification").pooled.value, 0.3));
    let names: Vec<&str> = r.rows.iter().map(|x| x.statistic.as_str()).collect();
    assert_eq!(
        names,
        [
            "Q_PP(25)",
            "Q_PS(25)",
            "Q_SP(25)",
            "Q_SS(25)",
            "Q_PP(80)",
            "Q_PS(80)",
            "Q_SP(80)",
            "Q_SS(80)",
            "D(25)",
            "D(80)",
            "G_P(25)",
            "G_P(80)",
            "amplification",
            "M(25)",
            "M(80)",
            "T"
        ]
    );
}

#[test]
fn column_values_match_the_slice_contrasts() {
    // On a column whose own ids are I, the per-column T is bit for bit the
    // slice report's contrast.
    let cols = vec![column("a", &[("x", 0.13), ("y", -0.31), ("z", 0.07)], &[])];
    let r = across(&cols, &settings()).unwrap();
    let c = &cols[0].cells;
    let g = |cap: u32, k: f64| {
        [
            (k, c.get(&(Condition::PP, cap))),
            (-k, c.get(&(Condition::PS, cap))),
            (k, c.get(&(Condition::SS, cap))),
            (-k, c.get(&(Condition::SP, cap))),
        ]
    };
    let want = metrics::contrast(
        "D(25) - D(80)".into(),
        &[g(25, 1.0), g(80, -1.0)].concat(),
        10_000,
        0,
    );
    assert_eq!(get(&r, "T").columns[0], want);
    let m = m_contrast(c, 80, 10_000, 0);
    assert_eq!(m.formula, "Q_PS(80) - Q_SS(80)");
    assert_eq!(get(&r, "M(80)").columns[0].value, m.value);
}

#[test]
fn m_of_table_12() {
    let mut cells = Cells::new();
    cells.insert((Condition::PS, 80), cell(&[("0", 0.615)]));
    cells.insert((Condition::SS, 80), cell(&[("0", 0.505)]));
    let m = m_contrast(&cells, 80, 100, 0);
    assert!(close(m.value, 0.110));
    assert_eq!(m.n_shared, 1);
    assert_eq!(m_contrast(&cells, 25, 100, 0).value, None);
}

#[test]
fn clustered_pool_is_the_mean_of_the_columns() {
    let cols = vec![
        column("a", &[("1", 0.13), ("2", -0.31), ("3", 0.07)], &[]),
        column(
            "b",
            &[("1", 0.5), ("2", 0.25), ("3", -0.125), ("4", 9.0)],
            &[],
        ),
        column("c", &[("1", -0.2), ("2", 0.4), ("3", 0.1)], &[]),
    ];
    let r = across(&cols, &settings()).unwrap();
    assert_eq!(r.common_ids.len(), 3);
    for row in &r.rows {
        let m = row.columns.iter().map(|c| c.value.unwrap()).sum::<f64>() / 3.0;
        assert!(close(row.pooled.value, m), "{}", row.statistic);
    }
}

#[test]
fn stratified_pool_by_hand() {
    let s = AcrossSettings {
        own_ids: true,
        ..settings()
    };
    let r = across(&example(), &s).unwrap();
    assert_eq!(r.basis, IdBasis::Own);
    assert_eq!(r.method, "stratified by column");
    assert_eq!(
        r.columns.iter().map(|c| c.n_ids).collect::<Vec<_>>(),
        [4, 2]
    );
    let t = get(&r, "T");
    // Seed 0: 0.4 + 0.2 + 0.9 − 0.7 on 4 ids; seed 1: 0.6 + 0.0 on 2.
    assert!(close(t.columns[0].value, 0.2));
    assert!(close(t.columns[1].value, 0.3));
    assert!(close(t.pooled.value, 1.4 / 6.0));
    assert_eq!(t.pooled.n, 6);
    let [lo, hi] = t.pooled.ci95.unwrap();
    assert!((-0.7..1.4 / 6.0).contains(&lo) && (1.4 / 6.0..=0.9).contains(&hi) && hi > 1.4 / 6.0);

    // One id a column: every draw is the pooled value.
    let cols = vec![
        column("a", &[("1", 0.25)], &[]),
        column("b", &[("2", 0.75)], &[]),
    ];
    let r = across(&cols, &settings()).unwrap();
    assert_eq!(r.basis, IdBasis::OwnBecauseNoCommonId);
    assert!(r.common_ids.is_empty());
    assert_eq!(r.warnings.len(), 1);
    let t = get(&r, "T");
    assert!(close(t.pooled.value, 0.5));
    let [lo, hi] = t.pooled.ci95.unwrap();
    assert!((lo - 0.5).abs() < 1e-12 && (hi - 0.5).abs() < 1e-12);
}

#[test]
fn stratified_draws_each_column_from_its_own_stream() {
    // Two identical columns: with one stream for both the pool would
    // double each draw; with seed + r the draws differ, so the interval is
    // narrower than one column's.
    let ids = [("1", 0.0), ("2", 1.0), ("3", 0.5), ("4", 0.25)];
    let cols = vec![column("a", &ids, &[]), column("b", &ids, &[])];
    let s = AcrossSettings {
        own_ids: true,
        ..settings()
    };
    let r = across(&cols, &s).unwrap();
    let t = get(&r, "T");
    let [plo, phi] = t.pooled.ci95.unwrap();
    let [clo, chi] = t.columns[0].ci95.unwrap();
    assert!(phi - plo < chi - clo);
    // Deterministic.
    assert_eq!(across(&cols, &s).unwrap(), r);
}

#[test]
fn requested_ids_and_errors() {
    let s = AcrossSettings {
        common_ids: Some(vec!["0".into(), "3".into(), "9".into(), "3".into()]),
        ..settings()
    };
    let r = across(&example(), &s).unwrap();
    assert_eq!(r.common_ids, vec!["0"]);
    assert_eq!(r.requested_not_found, vec!["3", "9"]);
    assert!(close(get(&r, "T").pooled.value, 0.5));

    let mut cols = example();
    cols[1].cells.retain(|&(_, cap), _| cap != 80);
    let e = across(&cols, &settings()).unwrap_err();
    assert_eq!(
        e,
        AcrossError::MissingCap {
            column: "seed 1".into(),
            which: "c_slack".into(),
            cap: 80
        }
    );
    assert!(e.to_string().contains("column `seed 1`"));
    assert_eq!(
        across(&[], &settings()).unwrap_err(),
        AcrossError::NoColumns
    );
}

#[test]
fn an_undefined_column_is_counted_not_zero() {
    // Own ids; column b lacks S->P at 25 entirely (the cap exists).
    let mut cols = example();
    cols[1].cells.remove(&(Condition::SP, 25));
    let s = AcrossSettings {
        own_ids: true,
        ..settings()
    };
    let r = across(&cols, &s).unwrap();
    let t = get(&r, "T");
    assert_eq!(t.columns[1].value, None);
    assert_eq!(t.defined, 1);
    assert_eq!(t.summary, "T > 0 in 1 of 2 columns (1 defined)");
    assert!(close(t.pooled.value, 0.2));
}
