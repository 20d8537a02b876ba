//! The addendum's runtime views on a small hand-made log: every view id is
//! there, the numbers shown are the report's, and every link and click
//! target names an episode (and turn) of the report.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_runtime::filter::{filter, FilterSettings};
use gapscope_runtime::{analyze, read_jsonl, RuntimeReport, RuntimeSettings};
use gapscope_view::format::fmt;
use gapscope_view::runtime_addendum::{
    items_page as page, with_interval, RtItem, RuntimePage, VIEW_IDS,
};
use serde_json::{json, Value};

/// Capacity 5, allowed {A}: a (2, 6), b (3, 10), c (4, 12), d (1, 3, B);
/// OPT = 16 with {a, b}.
fn instance() -> Value {
    json!({"capacity": 5, "budget": 3, "allowed_classes": ["A"], "items": [
        {"id": "a", "weight": 2, "value": 6, "class": "A"},
        {"id": "b", "weight": 3, "value": 10, "class": "A"},
        {"id": "c", "weight": 4, "value": 12, "class": "A"},
        {"id": "d", "weight": 1, "value": 3, "class": "B"}
    ]})
}

fn call(tool: &str, id: Option<&str>) -> Value {
    match id {
        Some(id) => json!({"tool": tool, "args": {"id": id}, "ok": true}),
        None => json!({"tool": tool, "ok": true}),
    }
}

/// One episode: seeds 0/1, turn limits 5/10, caps 2/4, the four base
/// conditions and `P->S+carry`, instances i1..i3.
#[allow(clippy::too_many_arguments)]
fn episode(
    n: usize,
    seed: u64,
    turn_limit: u32,
    cap: u32,
    train: &str,
    deploy: &str,
    carry: bool,
    id: &str,
) -> Value {
    let pp = train == "P" && deploy == "P";
    let ss = train == "S" && deploy == "S";
    let k: u64 = id[1..].parse().unwrap_or(1);
    let t0_code = "items = list_items()\ninspect('a')\ninspect('b')";
    let mut turns = vec![json!({
        "index": 0, "logged": true, "code": t0_code,
        "calls": [call("list_items", None), call("inspect", Some("a")), call("inspect", Some("b"))],
        "error": if deploy == "S" { Some("Tool call limit exceeded") } else { None },
        "tokens_in": 100 + 10 * k, "tokens_out": 20
    })];
    // Turn 1: S->S on i3 repeats turn 0 (a loop); P->S after its cap hit
    // and P->P on seed 1, i3 have a NameError.
    let t1_code = if ss && id == "i3" {
        t0_code.to_string()
    } else {
        "print(notes)\nfor j in range(3):\n    pass\ninspect('c')".to_string()
    };
    let t1_err = if (deploy == "S" && train == "P") || (pp && seed == 1 && id == "i3") {
        Some("NameError: name 'items' is not defined")
    } else {
        None
    };
    turns.push(json!({
        "index": 1, "logged": true, "code": t1_code,
        "calls": [call("inspect", Some("c"))],
        "error": t1_err,
        "tokens_in": 300 * k, "tokens_out": 40
    }));
    turns.push(json!({"index": 2, "logged": false, "failure": "context_overflow"}));
    let take: Vec<Value> = if pp {
        vec![call("take_item", Some("a")), call("take_item", Some("b"))]
    } else {
        vec![call("take_item", Some("c"))]
    };
    let mut calls = take;
    calls.push(call("finish", None));
    turns.push(json!({
        "index": 3, "logged": true,
        "code": "take_item('a')\ntake_item('b')\nfinish()  # done",
        "calls": calls,
        "tokens_in": if deploy == "S" && !pp { 900 } else { 400 }, "tokens_out": 30
    }));
    // One episode per slice and cap ends at the turn limit with fewer turns.
    let limited = turn_limit == 5 && id == "i1" && pp;
    let score = match (train, deploy, carry) {
        ("P", "P", _) => 1.0,
        ("P", "S", false) => 0.4 + 0.05 * k as f64 + 0.02 * seed as f64,
        ("P", "S", true) => 0.55,
        ("S", "P", _) => 0.75,
        _ => 0.6 - 0.03 * k as f64 + if cap == 4 { 0.1 } else { 0.0 },
    };
    let mut e = json!({
        "episode_id": format!("e{n}"),
        "task_family": "opaque_knapsack",
        "instance_id": id,
        "train_runtime": train,
        "deploy_runtime": deploy,
        "cap": cap,
        "seed": seed,
        "rollout": 0,
        "base_model": "m",
        "score": score,
        "termination": if limited { "turn_limit" } else { "finish" },
        "instance": instance(),
        "turns": turns,
        "turn_limit": turn_limit,
        "context_window": 1000,
        "output_reservation": 200
    });
    if carry {
        e["intervention"] = json!("carry");
    }
    e
}

fn log() -> String {
    let mut lines = Vec::new();
    let mut n = 0;
    for seed in [0u64, 1] {
        for turn_limit in [5u32, 10] {
            for cap in [2u32, 4] {
                for (train, deploy, carry) in [
                    ("P", "P", false),
                    ("P", "S", false),
                    ("S", "P", false),
                    ("S", "S", false),
                    ("P", "S", true),
                ] {
                    for id in ["i1", "i2", "i3"] {
                        n += 1;
                        lines.push(
                            episode(n, seed, turn_limit, cap, train, deploy, carry, id).to_string(),
                        );
                    }
                }
            }
        }
    }
    lines.join("\n")
}

fn build() -> (
    RuntimeReport,
    gapscope_runtime::filter::FilterReport,
    RuntimePage,
) {
    let text = log();
    let settings = RuntimeSettings {
        bootstrap: 200,
        ..RuntimeSettings::default()
    };
    let r = analyze(&text, &settings).expect("the log analyses");
    let l = read_jsonl(&text);
    let scores: Vec<Option<f64>> = l.episodes.iter().map(|e| Some(e.score)).collect();
    let f = filter(&l.episodes, &l.lines, &scores, &FilterSettings::default())
        .expect("the filter runs");
    let p = page(&r, Some(&f));
    (r, f, p)
}

fn panel<'a>(
    p: &'a RuntimePage,
    view: &str,
    name: &str,
) -> &'a gapscope_view::inference::PanelText {
    p.items(view)
        .iter()
        .find_map(|i| match i {
            RtItem::Panel(t) if t.name == name => Some(t),
            _ => None,
        })
        .unwrap_or_else(|| panic!("panel {name} in view {view}"))
}

#[test]
fn every_view_is_there_and_round_trips() {
    let (r, _, p) = build();
    assert_eq!(r.slices.len(), 4, "seeds × horizons");
    assert!(!r.across.is_empty() && r.across.iter().all(|a| a.report.is_some()));
    assert!(
        !r.horizon_sweeps.is_empty() && r.horizon_sweeps.iter().all(|h| h.sweep.is_some()),
        "{:?}",
        r.horizon_sweeps
            .iter()
            .map(|h| &h.error)
            .collect::<Vec<_>>()
    );
    for id in VIEW_IDS {
        assert!(!p.items(id).is_empty(), "view {id}");
        assert!(
            p.items(id).iter().any(|i| !matches!(i, RtItem::Heading(_))),
            "view {id} has more than headings"
        );
    }
    // What the worker sends reads back whole.
    let sent = gapscope_view::runtime_addendum::as_text(p.clone());
    let back: gapscope_view::evidence::analyses::AddendumPage =
        serde_json::from_str(&serde_json::to_string(&sent).expect("to JSON")).expect("from JSON");
    assert_eq!(back, sent);
    assert!(RuntimePage::default().items("quality").is_empty());
    // Without a filter report the filter view says why.
    let q = page(&r, None);
    assert!(matches!(q.items("filter"), [RtItem::Heading(_)]));
}

#[test]
fn numbers_shown_are_the_reports() {
    let (r, f, p) = build();
    // The token cost ratio at the first cap of slice 0.
    let c = &r.slices[0].cost[0];
    let v = c.value.expect("R defined");
    let t = panel(&p, "quality", "runtime-cost-0");
    assert!(t.html.contains(&fmt(Some(v), 2)), "{}", t.html);
    assert!(t.csv.contains(&v.to_string()), "{}", t.csv);
    // A pooled T.
    let a = r.across[0].report.as_ref().expect("across report");
    let trow = a.rows.iter().find(|x| x.statistic == "T").expect("T row");
    assert!(trow.pooled.value.is_some());
    let t21 = panel(&p, "replications", "runtime-table21-0");
    let shown = with_interval(trow.pooled.value, trow.pooled.ci95, 3);
    assert!(t21.html.contains(&shown), "{shown} in {}", t21.html);
    assert!(t21.title.contains(&a.method));
    assert!(p
        .items("replications")
        .iter()
        .any(|i| matches!(i, RtItem::Heading(h) if *h == trow.summary)));
    // A coverage mean.
    let m = &r.slices[0].mechanism[0];
    let cov = m.cell.coverage.value.expect("coverage");
    let t14 = panel(&p, "mechanism", "runtime-table14-0");
    assert!(t14.csv.contains(&cov.to_string()), "{}", t14.csv);
    assert!(t14.html.contains(&fmt(Some(cov), 2)));
    // A yield.
    let y = f.groups[0].pairs.pair_yield.expect("yield");
    assert!(y > 0.0 && y < 1.0, "{y}");
    let t8 = panel(&p, "filter", "runtime-table8-pairs");
    assert!(t8.html.contains(&fmt(Some(y * 100.0), 1)), "{}", t8.html);
    // Table 18 and the contrasts on the slice with an intervention.
    let s0 = &r.slices[0];
    assert!(s0.conditions.len() > 4);
    let t18 = panel(&p, "conditions", "runtime-table18-0");
    assert_eq!(t18.csv.lines().count(), s0.trace.len() + 1);
    assert!(t18.html.contains("P→S+carry"));
    let d = s0.contrasts[0].contrast.value.expect("Δ");
    let tc = panel(&p, "conditions", "runtime-contrasts-0");
    assert!(tc.csv.contains(&d.to_string()));
    // Table 20 and Table 19.
    let a20 = &s0.accounting[0];
    let t20 = panel(&p, "horizon", "runtime-table20-0");
    assert!(t20
        .csv
        .contains(&a20.attempted.value.expect("attempted").to_string()));
    let sw = r.horizon_sweeps[0].sweep.as_ref().expect("sweep");
    let t19 = panel(&p, "horizon", "runtime-table19-0");
    assert!(t19.title.contains(&sw.baseline));
    assert!(t19.title.contains(&format!("cap {}", sw.cap)));
    assert_eq!(t19.csv.lines().count(), sw.rows.len() + 1);
}

#[test]
fn links_and_targets_name_episodes_of_the_report() {
    let (r, _, p) = build();
    let turns_of = |id: &str| -> Option<Vec<u32>> {
        r.episodes
            .iter()
            .find(|e| e.episode.episode_id == id)
            .map(|e| e.episode.turns.iter().map(|t| t.index).collect())
    };
    let (mut links, mut figures, mut with_turn) = (0, 0, 0);
    for (view, items) in &p.views {
        for i in items {
            match i {
                RtItem::Traces(l) => {
                    for row in &l.rows {
                        links += 1;
                        assert_eq!(row.cells.len(), l.headers.len(), "{view}: {row:?}");
                        let turns = turns_of(&row.episode_id).unwrap_or_else(|| {
                            panic!("{view}: {} not in the report", row.episode_id)
                        });
                        if let Some(t) = row.turn {
                            with_turn += 1;
                            assert!(turns.contains(&t), "{view}: turn {t} of {}", row.episode_id);
                        }
                    }
                }
                RtItem::Figure(f) => {
                    figures += 1;
                    assert!(f.svg.starts_with("<svg"));
                    for (what, ids) in &f.targets {
                        assert!(!ids.is_empty(), "{view}: {what}");
                        for id in ids {
                            assert!(turns_of(id).is_some(), "{view}: {what}: {id}");
                        }
                    }
                }
                _ => {}
            }
        }
    }
    assert!(
        links > 0 && with_turn > 0 && figures >= 2,
        "{links} {with_turn} {figures}"
    );
    // The invalid traces open at their evidence: a loop's later step.
    let filter_list = p
        .items("filter")
        .iter()
        .find_map(|i| match i {
            RtItem::Traces(l) => Some(l),
            _ => None,
        })
        .expect("invalid traces");
    assert!(filter_list
        .rows
        .iter()
        .any(|row| row.cells[4].contains("R3") && row.turn == Some(1)));
}

/// The page as the worker sends it: every trace list is a panel whose
/// rows carry their episode (and turn) for the page's click.
#[test]
fn trace_lists_travel_as_panels_with_their_links() {
    let (r, f, rich) = build();
    let sent = gapscope_view::runtime_addendum::page(&r, Some(&f));
    for id in VIEW_IDS {
        for (a, b) in rich.items(id).iter().zip(sent.items(id)) {
            if let (RtItem::Traces(l), gapscope_view::evidence::analyses::Item::Panel(p)) = (a, b) {
                for (k, row) in l.rows.iter().enumerate() {
                    let want = format!("data-row=\"{k}\" data-episode=\"{}\"", row.episode_id);
                    assert!(p.html.contains(&want), "{want}");
                    if let Some(t) = row.turn {
                        assert!(p.html.contains(&format!("{want} data-turn=\"{t}\"")));
                    }
                }
            }
        }
    }
}
