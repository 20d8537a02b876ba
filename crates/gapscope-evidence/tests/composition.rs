//! Case-set composition (addendum §4, Tables 6 and 7): the worked examples
//! of §9 by hand, Table 6 on a small mixed set, the committed worked case set
//! against counts read independently from its JSON, and the transitive
//! reduction against a naive one on random DAGs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gapscope_evidence::composition::{composition, reduced_edges, text, SUBTOTAL};
use gapscope_evidence::spec::{read_cases, Case};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};

// ---------------------------------------------------------------- builders

/// An acting case (V1–V3) whose actions are given as JSON; every action's
/// tool is consequential, `charge_read` and `refund_read` are the reads.
fn acting(id: &str, protocol: &str, domain: &str, requirements: Value, actions: Value) -> Value {
    let mut tools: Vec<String> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["tool"].as_str().unwrap().to_string())
        .collect();
    tools.dedup();
    json!({
        "case_id": id, "protocol": protocol, "domain": domain,
        "instruction": "act", "read_budget": 5,
        "tools": {"information": [{"name": "charge_read"}, {"name": "refund_read"}],
                  "consequential": tools.iter().map(|t| json!({"name": t})).collect::<Vec<_>>()},
        "requirements": requirements,
        "actions": actions,
        "terminal": "ACT"
    })
}

fn read_req(id: &str, charge: &str) -> Value {
    json!({"id": id, "fact": id, "source": {"tool": "charge_read", "args": {"charge_id": charge}}})
}

fn action(id: &str, after: &[&str]) -> Value {
    json!({"id": id, "tool": format!("t_{id}"), "args": {}, "requires": ["r1"], "after": after})
}

fn v0(id: &str, domain: &str) -> Value {
    json!({
        "case_id": id, "protocol": "V0", "domain": domain, "instruction": "investigate",
        "read_budget": 5,
        "tools": {"information": [{"name": "charge_read"}], "consequential": [{"name": "refund_issue"}]},
        "requirements": [read_req("r1", "C1"), read_req("r2", "C2")],
        "actions": [], "terminal": "BLOCK"
    })
}

fn legacy(id: &str, domain: &str) -> Value {
    json!({
        "case_id": id, "protocol": "Legacy", "domain": domain, "instruction": "decide",
        "candidate": {"tool": "refund_issue", "args": {"charge_id": "C1"}},
        "expected_decision": "ALLOW"
    })
}

fn load(cases: &[Value]) -> Vec<Case> {
    let text: String = cases.iter().map(|c| c.to_string() + "\n").collect();
    read_cases(&text).unwrap()
}

fn pairs(edges: &[(&str, &str)]) -> Vec<(String, String)> {
    edges
        .iter()
        .map(|(a, b)| ((*a).to_string(), (*b).to_string()))
        .collect()
}

/// §9 "V3 structure": a1 → {a2, a3} → a4, plus a redundant "a4 after a1".
fn v3_structure(id: &str, domain: &str) -> Value {
    acting(
        id,
        "V3",
        domain,
        json!([read_req("r1", "C1")]),
        json!([
            action("a1", &[]),
            action("a2", &["a1"]),
            action("a3", &["a1"]),
            action("a4", &["a2", "a3", "a1"]),
        ]),
    )
}

/// §9 D2: the docs' V2 refund, where after, ref and the required action
/// result all link a1 → a2.
fn d2(id: &str, domain: &str) -> Value {
    acting(
        id,
        "V2",
        domain,
        json!([
            read_req("dup", "C2"),
            {"id": "done", "fact": "the refund is recorded",
             "source": {"action": "a1", "field": "refund_id",
                        "confirm": {"tool": "refund_read", "args": {"refund_id": {"ref": "a1.refund_id"}}}}}
        ]),
        json!([
            {"id": "a1", "tool": "refund_issue", "args": {"charge_id": "C2"},
             "requires": ["dup"], "returns": ["refund_id"]},
            {"id": "a2", "tool": "customer_notify",
             "args": {"refund_id": {"ref": "a1.refund_id"}, "account": "U1"},
             "requires": ["done"], "after": ["a1"], "returns": ["notice_id"]}
        ]),
    )
}

/// A chain a1 → a2 → a3 with an extra "a3 after a1".
fn chain(id: &str, domain: &str) -> Value {
    acting(
        id,
        "V2",
        domain,
        json!([read_req("r1", "C1")]),
        json!([
            action("a1", &[]),
            action("a2", &["a1"]),
            action("a3", &["a2", "a1"])
        ]),
    )
}

fn v1(id: &str, domain: &str) -> Value {
    acting(
        id,
        "V1",
        domain,
        json!([
            read_req("r1", "C1"),
            read_req("r2", "C1"),
            read_req("r3", "C3")
        ]),
        json!([{"id": "a1", "tool": "refund_issue", "args": {}, "requires": ["r1", "r2", "r3"]}]),
    )
}

// ------------------------------------------------------- §9 worked examples

#[test]
fn v3_structure_has_four_edges_a_fork_and_a_join() {
    let cases = load(&[v3_structure("s", "d")]);
    assert_eq!(
        reduced_edges(&cases[0]),
        pairs(&[("a1", "a2"), ("a1", "a3"), ("a2", "a4"), ("a3", "a4")])
    );
    let c = composition(&cases.iter().collect::<Vec<_>>());
    let v3 = c.table7.iter().find(|r| r.protocol == "V3").unwrap();
    assert_eq!(
        (
            v3.cases,
            v3.action_nodes,
            v3.dependency_edges,
            v3.forks,
            v3.joins
        ),
        (1, 4, 4, 1, 1)
    );
    assert_eq!(v3.required_reads_mean, Some(1.0));
    assert_eq!(v3.required_reads_max, Some(1));
}

#[test]
fn d2_collapses_three_relations_into_one_edge() {
    let cases = load(&[d2("d2", "customer_policy")]);
    assert_eq!(reduced_edges(&cases[0]), pairs(&[("a1", "a2")]));
    let c = composition(&cases.iter().collect::<Vec<_>>());
    let v2 = c.table7.iter().find(|r| r.protocol == "V2").unwrap();
    assert_eq!(
        (
            v2.cases,
            v2.action_nodes,
            v2.dependency_edges,
            v2.forks,
            v2.joins
        ),
        (1, 2, 1, 0, 0)
    );
    // charge_read C2 and the confirm refund_read: 2 required reads.
    assert_eq!(v2.required_reads_mean, Some(2.0));
    assert_eq!(v2.required_reads_max, Some(2));
}

#[test]
fn chain_with_a_shortcut_keeps_two_edges_and_no_fork() {
    let cases = load(&[chain("ch", "d")]);
    assert_eq!(
        reduced_edges(&cases[0]),
        pairs(&[("a1", "a2"), ("a2", "a3")])
    );
    let c = composition(&cases.iter().collect::<Vec<_>>());
    let v2 = c.table7.iter().find(|r| r.protocol == "V2").unwrap();
    assert_eq!(
        (v2.action_nodes, v2.dependency_edges, v2.forks, v2.joins),
        (3, 2, 0, 0)
    );
}

// ------------------------------------------------------- a small mixed set

#[test]
fn table6_and_table7_on_a_mixed_set() {
    // Domains in order of first appearance: x, y, z. No V1 case.
    let cases = load(&[
        legacy("L1", "x"),
        v0("A", "y"),
        v3_structure("B", "x"),
        v0("C", "x"),
        d2("D", "z"),
        chain("E", "y"),
        legacy("L2", "y"),
        v0("F", "y"),
    ]);
    let refs: Vec<&Case> = cases.iter().collect();
    let c = composition(&refs);
    let t6 = &c.table6;
    assert_eq!(t6.domains, ["x", "y", "z"]);
    let names: Vec<&str> = t6.rows.iter().map(|r| r.protocol.as_str()).collect();
    assert_eq!(names, ["Legacy", "V0", "V1", "V2", "V3", "V0–V3"]);
    let by: Vec<(Vec<usize>, usize)> = t6
        .rows
        .iter()
        .map(|r| (r.by_domain.clone(), r.total))
        .collect();
    assert_eq!(
        by,
        [
            (vec![1, 1, 0], 2), // Legacy
            (vec![1, 2, 0], 3), // V0
            (vec![0, 0, 0], 0), // V1
            (vec![0, 1, 1], 2), // V2
            (vec![1, 0, 0], 1), // V3
            (vec![2, 3, 1], 6), // V0–V3
        ]
    );
    assert_eq!(t6.totals_by_domain, [3, 4, 1]);
    assert_eq!(t6.total, 8);

    let names: Vec<&str> = c.table7.iter().map(|r| r.protocol.as_str()).collect();
    assert_eq!(names, ["V0", "V1", "V2", "V3", SUBTOTAL]);
    let v0r = &c.table7[0];
    assert_eq!(
        (v0r.cases, v0r.action_nodes, v0r.dependency_edges),
        (3, 0, 0)
    );
    assert_eq!(v0r.required_reads_mean, Some(2.0));
    let v1r = &c.table7[1];
    assert_eq!(v1r.cases, 0);
    assert_eq!(v1r.required_reads_mean, None);
    assert_eq!(v1r.required_reads_max, None);
    assert_eq!(
        (v1r.action_nodes, v1r.dependency_edges, v1r.forks, v1r.joins),
        (0, 0, 0, 0)
    );
    // V2: D2 (2 nodes, 1 edge, 2 reads) + chain (3 nodes, 2 edges, 1 read).
    let v2r = &c.table7[2];
    assert_eq!(
        (v2r.cases, v2r.action_nodes, v2r.dependency_edges),
        (2, 5, 3)
    );
    assert_eq!(v2r.required_reads_mean, Some(1.5));
    assert_eq!(v2r.required_reads_max, Some(2));
    let all = &c.table7[4];
    assert_eq!(
        (
            all.cases,
            all.action_nodes,
            all.dependency_edges,
            all.forks,
            all.joins
        ),
        (6, 9, 7, 1, 1)
    );
    // Reads: V0 2, 2, 2; V2 2, 1; V3 1 → 10 / 6.
    assert!((all.required_reads_mean.unwrap() - 10.0 / 6.0).abs() < 1e-12);
    assert_eq!(all.required_reads_max, Some(2));

    let t = text(&c);
    assert!(t.contains("Table 6"), "{t}");
    assert!(t.contains("Table 7"), "{t}");
    let v1_line = t.lines().find(|l| l.starts_with("V1 ") && l.contains('—'));
    assert!(v1_line.is_some(), "{t}");
    assert!(
        t.lines()
            .any(|l| l.starts_with("V0–V3") && l.contains("1.7")),
        "{t}"
    );
}

#[test]
fn duplicate_reads_count_once_and_repeated_cases_once() {
    // r1 and r2 both read charge C1: 2 required reads, not 3.
    let cases = load(&[v1("v", "d")]);
    let c = composition(&[&cases[0], &cases[0]]);
    assert_eq!(c.table6.total, 1);
    let v1r = &c.table7[1];
    assert_eq!((v1r.cases, v1r.required_reads_max), (1, Some(2)));
    assert_eq!((v1r.action_nodes, v1r.dependency_edges), (1, 0));
}

#[test]
fn empty_case_set() {
    let c = composition(&[]);
    assert!(c.table6.domains.is_empty());
    assert_eq!(c.table6.rows.len(), 6);
    assert_eq!(c.table6.total, 0);
    assert!(c
        .table7
        .iter()
        .all(|r| r.cases == 0 && r.required_reads_mean.is_none()));
    let t = text(&c);
    assert!(t.contains('—'), "{t}");
    let back: gapscope_evidence::composition::Composition =
        serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(back, c);
}

// ---------------------------------------------- the committed worked set

const WORKED: &str = include_str!("../../../assets/evidence/cases.jsonl");

fn worked_json() -> Vec<Value> {
    WORKED
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The raw dependency edges of a case read from its JSON: after, `ref`
/// arguments, required action results; each (from, to) once.
fn raw_edges(case: &Value) -> BTreeSet<(String, String)> {
    let sources: HashMap<&str, &Value> = case["requirements"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|r| (r["id"].as_str().unwrap(), &r["source"]))
                .collect()
        })
        .unwrap_or_default();
    let mut out = BTreeSet::new();
    for a in case["actions"].as_array().into_iter().flatten() {
        let to = a["id"].as_str().unwrap().to_string();
        for d in a["after"].as_array().into_iter().flatten() {
            out.insert((d.as_str().unwrap().to_string(), to.clone()));
        }
        for v in a["args"].as_object().into_iter().flatten().map(|(_, v)| v) {
            if let Some(r) = v.get("ref").and_then(Value::as_str) {
                out.insert((r.split('.').next().unwrap().to_string(), to.clone()));
            }
        }
        for r in a["requires"].as_array().into_iter().flatten() {
            if let Some(from) = sources[r.as_str().unwrap()].get("action") {
                out.insert((from.as_str().unwrap().to_string(), to.clone()));
            }
        }
    }
    out
}

/// A naive transitive reduction: drop (a, b) when some c reachable from a
/// reaches b.
fn naive_reduction(edges: &BTreeSet<(String, String)>) -> BTreeSet<(String, String)> {
    let reach = |from: &str| {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(x) = stack.pop() {
            for (a, b) in edges {
                if *a == x && seen.insert(b.clone()) {
                    stack.push(b.clone());
                }
            }
        }
        seen
    };
    edges
        .iter()
        .filter(|(a, b)| !reach(a).iter().any(|c| c != b && reach(c).contains(b)))
        .cloned()
        .collect()
}

/// Distinct (tool, args) of the requirement sources and confirms.
fn required_reads(case: &Value) -> usize {
    let mut specs: Vec<Value> = Vec::new();
    for r in case["requirements"].as_array().into_iter().flatten() {
        let s = &r["source"];
        let spec = if s.get("tool").is_some() {
            Some(s.clone())
        } else {
            s.get("confirm").cloned()
        };
        if let Some(spec) = spec {
            if !specs.contains(&spec) {
                specs.push(spec);
            }
        }
    }
    specs.len()
}

#[test]
fn worked_set_against_its_json() {
    let json = worked_json();
    let cases = read_cases(WORKED).unwrap();
    assert_eq!(cases.len(), 42);
    let c = composition(&cases.iter().collect::<Vec<_>>());

    // Table 6: 6 domains × (1 Legacy, 2 V0, 2 V1, 1 V2, 1 V3).
    let mut domains: Vec<String> = Vec::new();
    for j in &json {
        let d = j["domain"].as_str().unwrap().to_string();
        if !domains.contains(&d) {
            domains.push(d);
        }
    }
    assert_eq!(domains.len(), 6);
    assert_eq!(c.table6.domains, domains);
    let per_protocol = [("Legacy", 1), ("V0", 2), ("V1", 2), ("V2", 1), ("V3", 1)];
    for (i, (p, n)) in per_protocol.iter().enumerate() {
        let row = &c.table6.rows[i];
        assert_eq!(row.protocol, *p);
        for (k, d) in domains.iter().enumerate() {
            let count = json
                .iter()
                .filter(|j| j["protocol"] == *p && j["domain"] == d.as_str())
                .count();
            assert_eq!(count, *n, "{p} {d}");
            assert_eq!(row.by_domain[k], count, "{p} {d}");
        }
        assert_eq!(row.total, 6 * n);
    }
    let sub = &c.table6.rows[5];
    assert_eq!(sub.protocol, "V0–V3");
    assert_eq!(sub.by_domain, vec![6; 6]);
    assert_eq!(sub.total, 36);
    assert_eq!(c.table6.totals_by_domain, vec![7; 6]);
    assert_eq!(c.table6.total, 42);

    // Table 7, each row from the JSON.
    let groups: [&[&str]; 5] = [
        &["V0"],
        &["V1"],
        &["V2"],
        &["V3"],
        &["V0", "V1", "V2", "V3"],
    ];
    for (row, group) in c.table7.iter().zip(groups) {
        let of: Vec<&Value> = json
            .iter()
            .filter(|j| group.contains(&j["protocol"].as_str().unwrap()))
            .collect();
        let reads: Vec<usize> = of.iter().map(|j| required_reads(j)).collect();
        let nodes: usize = of
            .iter()
            .map(|j| j["actions"].as_array().map_or(0, Vec::len))
            .sum();
        let reduced: Vec<BTreeSet<(String, String)>> =
            of.iter().map(|j| naive_reduction(&raw_edges(j))).collect();
        let edges: usize = reduced.iter().map(BTreeSet::len).sum();
        let degree_two = |e: &BTreeSet<(String, String)>, out: bool| {
            let mut d: HashMap<&str, usize> = HashMap::new();
            for (a, b) in e {
                *d.entry(if out { a.as_str() } else { b.as_str() })
                    .or_default() += 1;
            }
            d.values().any(|&n| n >= 2)
        };
        let forks = reduced.iter().filter(|e| degree_two(e, true)).count();
        let joins = reduced.iter().filter(|e| degree_two(e, false)).count();
        assert_eq!(row.cases, of.len(), "{}", row.protocol);
        assert_eq!(
            row.required_reads_mean,
            Some(reads.iter().sum::<usize>() as f64 / reads.len() as f64),
            "{}",
            row.protocol
        );
        assert_eq!(row.required_reads_max, reads.iter().copied().max());
        assert_eq!(row.action_nodes, nodes, "{}", row.protocol);
        assert_eq!(row.dependency_edges, edges, "{}", row.protocol);
        assert_eq!((row.forks, row.joins), (forks, joins), "{}", row.protocol);
    }
    // The set's design: V0 and V1 have no edges; each V2 case nodes − 1
    // edges and no fork or join; each V3 case is a fork and a join.
    let [v0r, v1r, v2r, v3r, all] = &c.table7[..] else {
        panic!("five rows")
    };
    assert_eq!(
        (v0r.cases, v0r.action_nodes, v0r.dependency_edges),
        (12, 0, 0)
    );
    assert_eq!(
        (v1r.cases, v1r.action_nodes, v1r.dependency_edges),
        (12, 12, 0)
    );
    assert_eq!(v2r.cases, 6);
    assert_eq!(v2r.dependency_edges, v2r.action_nodes - 6);
    assert_eq!((v2r.forks, v2r.joins), (0, 0));
    assert_eq!((v3r.cases, v3r.forks, v3r.joins), (6, 6, 6));
    assert_eq!(all.cases, 36);
    assert_eq!(
        all.dependency_edges,
        v2r.dependency_edges + v3r.dependency_edges
    );
}

#[test]
fn worked_set_reduction_properties() {
    let json = worked_json();
    let cases = read_cases(WORKED).unwrap();
    for (case, j) in cases.iter().zip(&json) {
        assert_eq!(case.case_id, j["case_id"].as_str().unwrap());
        let raw = raw_edges(j);
        let reduced = reduced_edges(case);
        assert!(reduced.len() <= raw.len(), "{}", case.case_id);
        // Every reduced edge is a raw edge, each once.
        let set: BTreeSet<(String, String)> = reduced.iter().cloned().collect();
        assert_eq!(set.len(), reduced.len(), "{}", case.case_id);
        assert!(set.is_subset(&raw), "{}", case.case_id);
        if j["protocol"] == "V2" {
            assert_eq!(reduced.len(), case.actions.len() - 1, "{}", case.case_id);
        }
    }
}

// ------------------------------------------------- random DAGs (property)

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// On a random DAG (edges only from a lower to a higher index, given as
    /// `after`), the reduction equals the naive one and keeps reachability.
    #[test]
    fn reduction_matches_naive(n in 1usize..8, bits in proptest::collection::vec(any::<bool>(), 28)) {
        let mut k = 0;
        let mut actions = Vec::new();
        for j in 0..n {
            let mut after = Vec::new();
            for i in 0..j {
                if bits[k] {
                    after.push(format!("a{i}"));
                }
                k += 1;
            }
            let after: Vec<&str> = after.iter().map(String::as_str).collect();
            actions.push(action(&format!("a{j}"), &after));
        }
        let case = acting("p", "V3", "d", json!([read_req("r1", "C1")]), Value::Array(actions));
        let raw = raw_edges(&case);
        let loaded = load(&[case]);
        let reduced = reduced_edges(&loaded[0]);
        let expected: Vec<(String, String)> = naive_reduction(&raw).into_iter().collect();
        let mut got = reduced.clone();
        got.sort();
        prop_assert_eq!(got, expected);
        // Sorted by spec order of `from`, then `to`.
        let index = |id: &str| id[1..].parse::<usize>().unwrap();
        let order: Vec<(usize, usize)> = reduced.iter().map(|(a, b)| (index(a), index(b))).collect();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        prop_assert_eq!(order, sorted);
    }
}
