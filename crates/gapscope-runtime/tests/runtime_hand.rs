//! Every runtime-contracts quantity on a small hand-made log, with the
//! expected values worked out by hand in the comments.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_runtime::{analyze, Condition, RuntimeSettings, ScoreSource};
use serde_json::{json, Value};

const CAP_ERR: &str = "ToolCallLimitExceeded: Tool call limit exceeded (2 calls per turn)";

fn call(tool: &str, id: Option<&str>, ok: bool, cached: bool) -> Value {
    let mut c = json!({"tool": tool, "ok": ok, "cached": cached});
    if let Some(i) = id {
        c["args"] = json!({"id": i});
    }
    if !ok {
        c["error"] = json!("Tool call limit exceeded");
    }
    c
}

fn turn(index: u32, calls: Vec<Value>, error: Option<&str>, tin: u64, tout: u64) -> Value {
    json!({"index": index, "logged": true, "code": "...", "calls": calls, "error": error,
           "tokens_in": tin, "tokens_out": tout})
}

fn minimal() -> Vec<Value> {
    vec![turn(
        0,
        vec![call("finish", None, true, false)],
        None,
        10,
        1,
    )]
}

fn episode(id: &str, inst: &str, c: &str, cap: u32, score: f64, turns: Vec<Value>) -> Value {
    json!({"episode_id": id, "task_family": "opaque_knapsack", "instance_id": inst,
           "train_runtime": &c[0..1], "deploy_runtime": &c[1..2], "cap": cap, "seed": 0,
           "rollout": 0, "base_model": "m", "score": score, "termination": "finish",
           "turns": turns})
}

/// Items x (w 3, v 10), y (w 2, v 6), z (w 4, v 9) of class A and q (w 1,
/// v 100) of the disallowed class B; capacity 5, budget 2. The optimum over
/// allowed items: {x, y} weighs 5 and is worth 16; {z} 9, {x} 10, {y, z} weighs
/// 6 > 5. So OPT = 16 with 2 items; the largest takeable value 10 is 62.5% of it.
fn instance() -> Value {
    json!({"capacity": 5, "budget": 2, "allowed_classes": ["A"], "items": [
        {"id": "x", "weight": 3, "value": 10, "class": "A"},
        {"id": "y", "weight": 2, "value": 6, "class": "A"},
        {"id": "z", "weight": 4, "value": 9, "class": "A"},
        {"id": "q", "weight": 1, "value": 100, "class": "B"}]})
}

fn log() -> String {
    // The rich episode: P->S at cap 2 on instance a (logged score 0).
    //  t0: list, inspect x, inspect y rejected by the cap -> cap hit
    //  t1: a failed model call (not logged)
    //  t2: NameError, no calls; the next executed turn after t0's cap hit:
    //      no listing, nothing acquired -> not a restart
    //  t3: list, inspect x (cached), inspect y rejected -> cap hit
    //  t4: list, then inspect y rejected -> after t3's cap hit, the listing
    //      comes first -> a restart; t4 is itself a cap hit
    //  t5: inspect y (new: acquiring first -> not a restart), take y, finish
    let rich = vec![
        turn(
            0,
            vec![
                call("list_items", None, true, false),
                call("inspect", Some("x"), true, false),
                call("inspect", Some("y"), false, false),
            ],
            Some(CAP_ERR),
            100,
            10,
        ),
        json!({"index": 1, "logged": false, "calls": []}),
        turn(
            2,
            vec![],
            Some("NameError: name 'table' is not defined"),
            120,
            5,
        ),
        turn(
            3,
            vec![
                call("list_items", None, true, false),
                call("inspect", Some("x"), true, true),
                call("inspect", Some("y"), false, false),
            ],
            Some(CAP_ERR),
            130,
            10,
        ),
        turn(
            4,
            vec![
                call("list_items", None, true, false),
                call("inspect", Some("y"), false, false),
            ],
            Some(CAP_ERR),
            140,
            10,
        ),
        turn(
            5,
            vec![
                call("inspect", Some("y"), true, false),
                call("take_item", Some("y"), true, false),
                call("finish", None, true, false),
            ],
            None,
            160,
            10,
        ),
    ];
    let mut rich = episode("ps2a", "a", "PS", 2, 0.0, rich);
    rich["termination"] = json!("turn_limit");
    rich["instance"] = instance();
    // P->S at cap 10 on a: blocks of 3, 0 and 1 calls (exposure); it takes x
    // and z (weight 7 > 5, an inconsistent log): overflow, verified score 0.
    let mut slack = episode(
        "ps10a",
        "a",
        "PS",
        10,
        0.7,
        vec![
            turn(
                0,
                vec![
                    call("list_items", None, true, false),
                    call("take_item", Some("x"), true, false),
                    call("take_item", Some("z"), true, false),
                ],
                None,
                10,
                1,
            ),
            turn(
                1,
                vec![],
                Some("NameError: name 'plan' is not defined"),
                10,
                1,
            ),
            turn(2, vec![call("finish", None, true, false)], None, 10, 1),
        ],
    );
    slack["instance"] = instance();
    let mut lines = vec![rich, slack];
    // Scores (cap 2): PP a .8 b .6; PS b .2 c 1.0 (a above, 0); SP a .5 b .5; SS a .4 b .6
    // Scores (cap 10): PP a .9 b .7; PS b .5 (a above, .7); SP a .6 b .4; SS a .5 b .5
    let rest = [
        ("PP", 2, "a", 0.8),
        ("PP", 2, "b", 0.6),
        ("PS", 2, "b", 0.2),
        ("PS", 2, "c", 1.0),
        ("SP", 2, "a", 0.5),
        ("SP", 2, "b", 0.5),
        ("SS", 2, "a", 0.4),
        ("SS", 2, "b", 0.6),
        ("PP", 10, "a", 0.9),
        ("PP", 10, "b", 0.7),
        ("PS", 10, "b", 0.5),
        ("SP", 10, "a", 0.6),
        ("SP", 10, "b", 0.4),
        ("SS", 10, "a", 0.5),
        ("SS", 10, "b", 0.5),
    ];
    for (c, cap, inst, s) in rest {
        lines.push(episode(
            &format!("{c}{cap}{inst}"),
            inst,
            c,
            cap,
            s,
            minimal(),
        ));
    }
    lines
        .iter()
        .map(std::string::ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

fn close(a: Option<f64>, b: f64) {
    let a = a.expect("defined");
    assert!((a - b).abs() < 1e-12, "{a} != {b}");
}

#[test]
fn quality_gaps_interaction_by_hand() {
    let r = analyze(&log(), &RuntimeSettings::default()).unwrap();
    assert_eq!(r.slices.len(), 1);
    let s = &r.slices[0];
    assert_eq!(s.caps, [2, 10]);
    let t2 = &s.tables[0];
    // Q_PS(2) over its own three instances: (0 + 0.2 + 1.0) / 3 = 0.4.
    let ps = &t2.cells[1];
    assert_eq!(ps.condition, Condition::PS);
    assert_eq!(ps.q.n, 3);
    close(ps.q.value, 0.4);
    // Three values: P(a draw's mean = 0) = P(= 1) = 1/27 = 3.7% > 2.5%, so
    // the percentile interval is exactly [0, 1].
    assert_eq!(ps.q.ci95, Some([0.0, 1.0]));
    // G_P(2) on the shared ids {a, b}: (0.8 + 0.6)/2 - (0 + 0.2)/2 = 0.6;
    // from the table's means: 0.7 - 0.4 = 0.3.
    close(t2.g_p.value, 0.6);
    close(t2.g_p.from_table_means, 0.3);
    assert_eq!(t2.g_p.n_shared, 2);
    // Per-instance differences a: 0.8, b: 0.4. Two values: P(both draws = b)
    // = 1/4 > 2.5%, so the interval is [0.4, 0.8].
    let [lo, hi] = t2.g_p.ci95.unwrap();
    assert!((lo - 0.4).abs() < 1e-12 && (hi - 0.8).abs() < 1e-12);
    // G_S(2) = Q_SS - Q_SP = 0.5 - 0.5 = 0; D(2) = G_P + G_S = 0.6.
    close(t2.g_s.value, 0.0);
    close(t2.d.value, 0.6);
    // Cap 10: G_P = 0.8 - 0.6 = 0.2, G_S = 0.5 - 0.5 = 0, D = 0.2.
    let t10 = &s.tables[1];
    close(t10.g_p.value, 0.2);
    close(t10.g_s.value, 0.0);
    close(t10.d.value, 0.2);
    // T = D(2) - D(10) = 0.4 and A_P = G_P(2) - G_P(10) = 0.4 on {a, b};
    // A_S = 0.
    let c = s.comparison.as_ref().unwrap();
    assert_eq!((c.c_tight, c.c_slack), (2, 10));
    close(c.t.value, 0.4);
    close(c.amplification_p.value, 0.4);
    assert_eq!(c.amplification_p.n_shared, 2);
    close(c.amplification_s.value, 0.0);
    // The sweep lists Q_PS at both caps.
    let sw = &s.sweep[1];
    assert_eq!(sw.points.iter().map(|p| p.cap).collect::<Vec<_>>(), [2, 10]);
    close(sw.points[1].q.value, 0.6);
}

#[test]
fn trace_quantities_by_hand() {
    let r = analyze(&log(), &RuntimeSettings::default()).unwrap();
    let s = &r.slices[0];
    let row = s
        .trace
        .iter()
        .find(|t| t.cap == 2 && t.condition == Condition::PS)
        .unwrap();
    // Episodes a (rich), b, c (one finish turn each).
    assert_eq!(row.episodes, 3);
    // Steps: 5 logged turns + 1 + 1 -> 7/3; attempted 6 + 1 + 1 -> 8/3.
    close(row.steps.mean, 7.0 / 3.0);
    close(row.attempted.mean, 8.0 / 3.0);
    // Listing calls: t0, t3, t4 -> 3, 0, 0 -> 1.
    close(row.listing_calls.mean, 1.0);
    // Tokens over logged turns: 110 + 125 + 140 + 150 + 170 = 695; 11; 11 -> 239.
    close(row.tokens.mean, 239.0);
    // Cap-hit share: t0, t3, t4 of 5 steps = 0.6; 0; 0 -> 0.2.
    close(row.cap_hit_share.mean, 0.2);
    // NameError turns: 1, 0, 0 -> 1/3.
    close(row.name_error_turns.mean, 1.0 / 3.0);
    // Termination: a turn_limit, b and c finish.
    assert_eq!(
        (
            row.termination.finish,
            row.termination.turn_limit,
            row.termination.timeout
        ),
        (2, 1, 0)
    );
    // Restart: events t2 (no), t4 (yes), t5 (no) -> 1/3, pooled.
    assert_eq!((row.restart.events, row.restart.restarts), (3, 1));
    close(row.restart.rate, 1.0 / 3.0);
    // Inspect calls recorded: 2 + 2 + 1 + 1 = 6 (a); 0; 0 -> 2.
    close(row.inspect_calls.mean, 2.0);
    // Distinct: {x, y} = 2; 0; 0 -> 2/3.
    close(row.distinct_items.mean, 2.0 / 3.0);
    // Replay (addendum §0 replaces the denominator): cached re-inspections
    // over all 6 recorded inspect calls, x (cached) -> 1/6; b, c have none:
    // undefined, left out and counted.
    close(row.replay_fraction.mean, 1.0 / 6.0);
    assert_eq!(
        (row.replay_fraction.n, row.replay_fraction.undefined),
        (1, 2)
    );
    // Per-turn markers of the rich episode.
    let e = r
        .episodes
        .iter()
        .find(|e| e.episode.episode_id == "ps2a")
        .unwrap();
    let restarts: Vec<Option<bool>> = e.turns.iter().map(|t| t.restart).collect();
    assert_eq!(
        restarts,
        [None, None, Some(false), None, Some(true), Some(false)]
    );
    assert_eq!(e.turns[5].distinct_items, 2);
    // Exposure of P->S at the slack cap 10: blocks of 3, 0 and 1 calls (the
    // episode on b has one block of 1): 4 blocks; E_2 = 1/4 (the 3-call block).
    let x = s
        .exposure
        .iter()
        .find(|x| x.condition == Condition::PS)
        .unwrap();
    assert_eq!(x.blocks, 4);
    assert_eq!(x.by_cap[0].cap, 2);
    assert_eq!(x.by_cap[0].over, 1);
    close(x.by_cap[0].share, 0.25);
    close(x.by_cap[1].share, 0.0);
}

#[test]
fn verification_by_hand() {
    let r = analyze(&log(), &RuntimeSettings::default()).unwrap();
    let v = &r.verification;
    assert_eq!((v.checked, v.verified, v.without_instance), (2, 2, 15));
    // ps2a takes y: 6 / 16 = 0.375, logged 0 -> disagrees.
    // ps10a takes x and z: weight 7 > 5, overflow -> 0, logged 0.7 -> disagrees.
    assert_eq!(v.disagreements.len(), 2);
    let d0 = &v.disagreements[0];
    assert_eq!(
        (d0.episode_id.as_str(), d0.line, d0.logged),
        ("ps2a", 1, 0.0)
    );
    close(d0.verified, 0.375);
    let d1 = &v.disagreements[1];
    assert_eq!((d1.episode_id.as_str(), d1.logged), ("ps10a", 0.7));
    assert_eq!(d1.verified, Some(0.0));
    assert!(d1.overflow);
    assert_eq!(v.flagged.len(), 1, "the overflow is a rule problem");
    assert_eq!(
        v.flagged[0].problems,
        ["taken weight 7 exceeds the capacity 5 (score 0)"]
    );
    // Anti-collapse on instance a: 2 optimal items (< 3) and 10/16 > 40%.
    assert_eq!(v.instances.len(), 1);
    let i = &v.instances[0];
    assert_eq!(i.optimum, 16.0);
    assert_eq!(i.optimal_set, ["x", "y"]);
    assert!(!i.anti_collapse.holds);
    assert_eq!(i.anti_collapse.optimal_items, 2);
    close(i.anti_collapse.max_item_share, 0.625);
    assert_eq!(i.episodes, 2);
    // With the verified score, Q_PS(2) = (0.375 + …) uses only instance a
    // (b and c carry no instance and are left out, counted).
    let rv = analyze(
        &log(),
        &RuntimeSettings {
            score: ScoreSource::Verified,
            ..Default::default()
        },
    )
    .unwrap();
    let ps = &rv.slices[0].tables[0].cells[1].q;
    assert_eq!(ps.n, 1);
    close(ps.value, 0.375);
    assert!(rv.slices[0].warnings[0].starts_with("15 episode(s) without a verified score"));
}

#[test]
fn slices_are_apart_unless_pooled_and_bad_settings_refused() {
    let mut text = log();
    // The same episodes again under seed 1 (new ids).
    let again: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v["seed"] = json!(1);
            v["episode_id"] = json!(format!("{}-s1", v["episode_id"].as_str().unwrap()));
            v.to_string()
        })
        .collect();
    text = format!("{text}\n{}", again.join("\n"));
    let r = analyze(&text, &RuntimeSettings::default()).unwrap();
    assert_eq!(r.slices.len(), 2);
    assert!(r.slices[1].name.contains("seed 1"));
    let pooled = analyze(
        &text,
        &RuntimeSettings {
            pool: vec![gapscope_runtime::SliceDim::Seed],
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(pooled.slices.len(), 1);
    assert!(pooled.slices[0].name.contains("seed all"));
    // Each instance's two episodes are averaged first: same Q, a warning.
    close(pooled.slices[0].tables[0].cells[1].q.value, 0.4);
    assert!(pooled.slices[0].warnings[0].starts_with("17 episode(s) repeat an instance"));
    let e = analyze("nonsense\n", &RuntimeSettings::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no episode could be read (1 line(s) skipped; first: line 1: column 2: expected ident)"
    );
    let e = analyze(
        &log(),
        &RuntimeSettings {
            tolerance: -1.0,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the score tolerance must be a finite number ≥ 0, got -1"
    );
}

/// Two items of weight 2^63 accepted: their weights sum past u64 (to 0 with
/// wrapping arithmetic). The line is refused at the offending weight (2^63 >
/// 2^53, the largest integer a JSON number carries exactly), and the honest
/// episode beside it is verified as logged.
#[test]
fn weights_beyond_exact_integers_are_refused_at_their_line() {
    let big = 9_223_372_036_854_775_808u64; // 2^63
    let inst = json!({"capacity": 5, "budget": 3, "allowed_classes": ["A"], "items": [
        {"id": "h1", "weight": big, "value": 50, "class": "A"},
        {"id": "h2", "weight": big, "value": 50, "class": "A"},
        {"id": "s", "weight": 1, "value": 1, "class": "A"}]});
    let takes = vec![turn(
        0,
        vec![
            json!({"tool": "take_item", "args": {"id": "h1"}, "ok": true}),
            json!({"tool": "take_item", "args": {"id": "h2"}, "ok": true}),
        ],
        None,
        1,
        1,
    )];
    let mut hostile = episode("big", "i", "PP", 5, 0.0, takes);
    hostile["instance"] = inst;
    // The honest neighbour: OPT over x, y, z = 16, takes x (10): 0.625.
    let mut honest = episode(
        "ok",
        "j",
        "PP",
        5,
        0.625,
        vec![turn(
            0,
            vec![json!({"tool": "take_item", "args": {"id": "x"}, "ok": true})],
            None,
            1,
            1,
        )],
    );
    honest["instance"] = instance();
    let text = format!("{honest}\n{hostile}\n");
    let r = analyze(&text, &RuntimeSettings::default()).unwrap();
    assert_eq!(r.skipped.len(), 1, "{:?}", r.skipped);
    assert_eq!(
        r.skipped[0].to_string(),
        "line 2: field `instance.items[0].weight`: 9223372036854775808 exceeds 9007199254740992 (2^53, the largest integer a JSON number holds exactly)"
    );
    assert_eq!(r.verification.verified, 1);
    assert_eq!(r.verification.agree, 1);
    assert!(r.verification.disagreements.is_empty());
}

/// Values beyond 2^53 in magnitude are refused the same way.
#[test]
fn values_beyond_exact_range_are_refused_at_their_line() {
    let mut inst = instance();
    inst["items"][2]["value"] = json!(1e300);
    let mut e = episode("v", "i", "PP", 5, 0.0, minimal());
    e["instance"] = inst;
    let r = analyze(
        &format!("{e}\n{}\n", episode("w", "k", "PP", 5, 0.5, minimal())),
        &RuntimeSettings::default(),
    )
    .unwrap();
    assert_eq!(
        r.skipped[0].to_string(),
        "line 1: field `instance.items[2].value`: 1e+300 exceeds 9007199254740992 (2^53) in magnitude; values must be sums of exact numbers"
    );
}

/// A score is a normalized value in 0..1 (runtime-contracts addendum §8: warn
/// outside [0, 1] and keep it). A logged 100, and a verified score above 1
/// (x and an accepted q of the disallowed class: weight 4 ≤ 5, achieved
/// 10 + 100 = 110 over OPT 16 = 6.875, logged as such), are said.
#[test]
fn scores_outside_zero_one_are_warned_about() {
    let mut blind = episode(
        "q",
        "j",
        "PP",
        5,
        6.875,
        vec![turn(
            0,
            vec![
                json!({"tool": "take_item", "args": {"id": "x"}, "ok": true}),
                json!({"tool": "take_item", "args": {"id": "q"}, "ok": true}),
            ],
            None,
            1,
            1,
        )],
    );
    blind["instance"] = instance();
    let text = format!(
        "{}\n{blind}\n",
        episode("h", "i", "PP", 5, 100.0, minimal())
    );
    let r = analyze(&text, &RuntimeSettings::default()).unwrap();
    assert_eq!(r.verification.agree, 1);
    let want = [
        "2 episode(s) with a logged score outside [0, 1] (first: line 1, episode `h`, score 100): a score is a normalized value in 0..1; kept as logged",
        "1 episode(s) with a verified score above 1 (first: line 2, episode `q`, 6.875): the log accepted items the instance does not allow (see verification.flagged)",
    ];
    for w in want {
        assert!(r.warnings.iter().any(|x| x == w), "{w}\n{:?}", r.warnings);
    }
}
