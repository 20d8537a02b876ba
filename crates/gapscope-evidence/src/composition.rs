//! Case-set composition (addendum §4; the paper's App B, Tables 6 and 7):
//! descriptive counts over the planned case set, with no interval.
//!
//! - [`Table6`]: cases by protocol (Legacy, V0–V3) × domain, with row,
//!   column and grand totals and a V0–V3 subtotal.
//! - [`Table7Row`]: per protocol V0–V3 and for V0–V3 together, the cases,
//!   required reads (§3) as mean and max, action nodes, dependency edges after
//!   transitive reduction, and the cases with a fork or a join.
//!
//! The dependency graph of a case has an edge a → b when a ∈ b.`after`, when
//! one of b's arguments `ref`s a, or when b requires a requirement whose
//! source is a's result (the base validation's edges); an edge given by
//! several relations counts once. The paper is silent on redundant edges; we
//! choose the transitive reduction, so a chain a1 → a2 → a3 with an extra
//! "a3 after a1" has 2 edges and no fork.

use serde::{Deserialize, Serialize};
use std::collections::HashSet;

use crate::spec::{dependency_edges, Case, Protocol};

/// The name of the V0–V3 subtotal row (with an en dash).
pub const SUBTOTAL: &str = "V0–V3";

/// Tables 6 and 7 of one case set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Composition {
    /// Cases by protocol × domain.
    pub table6: Table6,
    /// Structure per protocol V0, V1, V2, V3, then the V0–V3 row.
    pub table7: Vec<Table7Row>,
}

/// Table 6: the number of cases by protocol × domain.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Table6 {
    /// The domains, in order of first appearance in the case list.
    pub domains: Vec<String>,
    /// One row per protocol Legacy, V0, V1, V2, V3 (all five, even with no
    /// case), then the V0–V3 subtotal row.
    pub rows: Vec<Table6Row>,
    /// Column totals over all protocols (Legacy included, the subtotal row
    /// not counted again), aligned with `domains`.
    pub totals_by_domain: Vec<usize>,
    /// The grand total: the number of cases.
    pub total: usize,
}

/// One row of Table 6.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table6Row {
    /// "Legacy", "V0", …, "V3", or "V0–V3" for the subtotal.
    pub protocol: String,
    /// Cases per domain, aligned with [`Table6::domains`].
    pub by_domain: Vec<usize>,
    /// The row total.
    pub total: usize,
}

/// One row of Table 7.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table7Row {
    /// "V0", "V1", "V2", "V3", or "V0–V3".
    pub protocol: String,
    /// The number of cases.
    pub cases: usize,
    /// Mean required reads per case (addendum §3); `None` over no case.
    pub required_reads_mean: Option<f64>,
    /// The most required reads of a case; `None` over no case.
    pub required_reads_max: Option<usize>,
    /// Spec actions, summed over the cases.
    pub action_nodes: usize,
    /// Dependency edges after each case's transitive reduction, summed.
    pub dependency_edges: usize,
    /// Cases with an action of out-degree ≥ 2 in the reduction.
    pub forks: usize,
    /// Cases with an action of in-degree ≥ 2 in the reduction.
    pub joins: usize,
}

/// The structure of one case's reduced dependency graph.
struct Shape {
    nodes: usize,
    edges: usize,
    fork: bool,
    join: bool,
}

fn shape(case: &Case) -> Shape {
    let n = case.actions.len();
    let edges = reduced_edge_indices(case);
    let mut out_degree = vec![0usize; n];
    let mut in_degree = vec![0usize; n];
    for &(a, b) in &edges {
        if let Some(d) = out_degree.get_mut(a) {
            *d += 1;
        }
        if let Some(d) = in_degree.get_mut(b) {
            *d += 1;
        }
    }
    Shape {
        nodes: n,
        edges: edges.len(),
        fork: out_degree.iter().any(|&d| d >= 2),
        join: in_degree.iter().any(|&d| d >= 2),
    }
}

/// Tables 6 and 7 over the planned case set, in case-file order. A case id
/// given more than once counts once (its first occurrence).
pub fn composition(cases: &[&Case]) -> Composition {
    let mut seen: HashSet<&str> = HashSet::new();
    let cases: Vec<&Case> = cases
        .iter()
        .copied()
        .filter(|c| seen.insert(c.case_id.as_str()))
        .collect();
    Composition {
        table6: table6(&cases),
        table7: table7(&cases),
    }
}

fn table6(cases: &[&Case]) -> Table6 {
    let mut domains: Vec<String> = Vec::new();
    for c in cases {
        if !domains.contains(&c.domain) {
            domains.push(c.domain.clone());
        }
    }
    let row = |name: &str, keep: &dyn Fn(Protocol) -> bool| {
        let by_domain: Vec<usize> = domains
            .iter()
            .map(|d| {
                cases
                    .iter()
                    .filter(|c| keep(c.protocol) && &c.domain == d)
                    .count()
            })
            .collect();
        Table6Row {
            protocol: name.to_string(),
            total: by_domain.iter().sum(),
            by_domain,
        }
    };
    let mut rows: Vec<Table6Row> = Protocol::ALL
        .into_iter()
        .map(|p| row(p.name(), &|q| q == p))
        .collect();
    rows.push(row(SUBTOTAL, &|q| q != Protocol::Legacy));
    let totals_by_domain = domains
        .iter()
        .map(|d| cases.iter().filter(|c| &c.domain == d).count())
        .collect();
    Table6 {
        domains,
        rows,
        totals_by_domain,
        total: cases.len(),
    }
}

fn table7(cases: &[&Case]) -> Vec<Table7Row> {
    let measured: Vec<(Protocol, usize, Shape)> = cases
        .iter()
        .filter(|c| c.protocol != Protocol::Legacy)
        .map(|c| (c.protocol, c.required_reads(), shape(c)))
        .collect();
    let row = |name: &str, keep: &dyn Fn(Protocol) -> bool| {
        let rows: Vec<&(Protocol, usize, Shape)> =
            measured.iter().filter(|(p, _, _)| keep(*p)).collect();
        let n = rows.len();
        let reads_sum: usize = rows.iter().map(|(_, r, _)| r).sum();
        Table7Row {
            protocol: name.to_string(),
            cases: n,
            required_reads_mean: (n > 0).then(|| reads_sum as f64 / n as f64),
            required_reads_max: rows.iter().map(|(_, r, _)| *r).max(),
            action_nodes: rows.iter().map(|(_, _, s)| s.nodes).sum(),
            dependency_edges: rows.iter().map(|(_, _, s)| s.edges).sum(),
            forks: rows.iter().filter(|(_, _, s)| s.fork).count(),
            joins: rows.iter().filter(|(_, _, s)| s.join).count(),
        }
    };
    let mut out: Vec<Table7Row> = Protocol::ALL
        .into_iter()
        .filter(|&p| p != Protocol::Legacy)
        .map(|p| row(p.name(), &|q| q == p))
        .collect();
    out.push(row(SUBTOTAL, &|q| q != Protocol::Legacy));
    out
}

/// The edges of one case's dependency graph after transitive reduction, as
/// (from, to) action ids, sorted by spec order (of `from`, then `to`).
///
/// An edge a → b is dropped when b is reachable from a by a path of two or
/// more edges. Cases are acyclic once loaded; on a cyclic graph (a case
/// built by hand) this still returns without panicking, but the result is
/// not a reduction.
pub fn reduced_edges(case: &Case) -> Vec<(String, String)> {
    reduced_edge_indices(case)
        .into_iter()
        .filter_map(|(a, b)| {
            Some((
                case.actions.get(a)?.id.clone(),
                case.actions.get(b)?.id.clone(),
            ))
        })
        .collect()
}

/// The reduced edges as (from, to) action indices, sorted.
///
/// For each action u with two or more successors, a depth-first search from
/// its successors marks what they reach, restricted to actions no later in a
/// topological order than u's last successor; a successor so marked is
/// reached by a longer path. Actions with one successor keep their edge.
fn reduced_edge_indices(case: &Case) -> Vec<(usize, usize)> {
    let n = case.actions.len();
    // Successor lists, each edge once, no self-loops.
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, deps) in dependency_edges(case).into_iter().enumerate() {
        for (a, _) in deps {
            if a != b && a < n {
                succ[a].push(b);
            }
        }
    }
    for s in &mut succ {
        s.sort_unstable();
        s.dedup();
    }
    let pos = topological_positions(&succ);
    // `mark[x] == u + 1`: x is reachable from a successor of u.
    let mut mark = vec![0usize; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for u in 0..n {
        let targets = &succ[u];
        if targets.len() < 2 {
            out.extend(targets.iter().map(|&v| (u, v)));
            continue;
        }
        let stamp = u + 1;
        let limit = targets.iter().map(|&v| pos[v]).max().unwrap_or(0);
        for &w in targets {
            for &x in &succ[w] {
                if pos[x] <= limit && mark[x] != stamp {
                    mark[x] = stamp;
                    stack.push(x);
                }
            }
        }
        while let Some(x) = stack.pop() {
            for &y in &succ[x] {
                if pos[y] <= limit && mark[y] != stamp {
                    mark[y] = stamp;
                    stack.push(y);
                }
            }
        }
        out.extend(
            targets
                .iter()
                .filter(|&&v| mark[v] != stamp)
                .map(|&v| (u, v)),
        );
    }
    out.sort_unstable();
    out
}

/// Each node's position in a topological order (Kahn's algorithm, smallest
/// index first); nodes on or behind a cycle get `n`, so searches through
/// them are not cut short.
fn topological_positions(succ: &[Vec<usize>]) -> Vec<usize> {
    let n = succ.len();
    let mut indegree = vec![0usize; n];
    for s in succ {
        for &v in s {
            indegree[v] += 1;
        }
    }
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<usize>> = (0..n)
        .filter(|&v| indegree[v] == 0)
        .map(std::cmp::Reverse)
        .collect();
    let mut pos = vec![n; n];
    let mut next = 0;
    while let Some(std::cmp::Reverse(u)) = ready.pop() {
        pos[u] = next;
        next += 1;
        for &v in &succ[u] {
            indegree[v] -= 1;
            if indegree[v] == 0 {
                ready.push(std::cmp::Reverse(v));
            }
        }
    }
    pos
}

/// Left-aligned first column, right-aligned others, widths by characters.
fn aligned(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            let pad = widths[i].saturating_sub(cell.chars().count());
            if i == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Tables 6 and 7 as aligned plain text (for the CLI): mean required reads
/// with 1 decimal, "—" for a statistic over no case.
pub fn text(c: &Composition) -> String {
    let t6 = &c.table6;
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header = vec!["protocol".to_string()];
    header.extend(t6.domains.iter().cloned());
    header.push("total".into());
    rows.push(header);
    for r in &t6.rows {
        let mut row = vec![r.protocol.clone()];
        row.extend(r.by_domain.iter().map(ToString::to_string));
        row.push(r.total.to_string());
        rows.push(row);
    }
    let mut total = vec!["total".to_string()];
    total.extend(t6.totals_by_domain.iter().map(ToString::to_string));
    total.push(t6.total.to_string());
    rows.push(total);
    let mut out = String::from("Table 6. Cases by protocol and domain\n");
    out.push_str(&aligned(&rows));

    let mut rows: Vec<Vec<String>> = vec![[
        "protocol",
        "cases",
        "reads mean",
        "reads max",
        "actions",
        "edges",
        "forks",
        "joins",
    ]
    .iter()
    .map(ToString::to_string)
    .collect()];
    let mut empty = false;
    for r in &c.table7 {
        empty |= r.cases == 0;
        rows.push(vec![
            r.protocol.clone(),
            r.cases.to_string(),
            r.required_reads_mean
                .map_or_else(|| "—".to_string(), |m| format!("{m:.1}")),
            r.required_reads_max
                .map_or_else(|| "—".to_string(), |m| m.to_string()),
            r.action_nodes.to_string(),
            r.dependency_edges.to_string(),
            r.forks.to_string(),
            r.joins.to_string(),
        ]);
    }
    out.push_str(
        "\nTable 7. Case structure (required reads per case; edges after transitive reduction)\n",
    );
    out.push_str(&aligned(&rows));
    if empty {
        out.push_str("—: no case of the protocol\n");
    }
    out
}
