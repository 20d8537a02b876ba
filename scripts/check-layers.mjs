#!/usr/bin/env node
// Internal dependency rule between the workspace's crates (ARCHITECTURE.md):
// every edge points down the layers, and the paper crates never name each
// other.
//
//   node scripts/check-layers.mjs              check the workspace (exit 1 on a violation)
//   node scripts/check-layers.mjs --self-test  also prove it rejects planted bad edges
//
// Normal and build dependencies must go to a strictly lower layer. A
// dev-dependency (tests, benches) may also reach the generators (`synth`),
// which are test fixtures, but a paper crate never names another paper crate
// in any section.

import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Layer of each workspace crate: lower numbers may be used by higher ones. */
export const LAYERS = {
  "gapscope-stats": 0,
  "gapscope-data": 1,
  "gapscope-gaps": 2,
  "gapscope-evidence": 2,
  "gapscope-runtime": 2,
  "gapscope-compare": 2,
  "gapscope-synth": 3,
  "gapscope-view": 4,
  "gapscope-worker": 5,
  "gapscope-cli": 5,
  "gapscope-web": 6,
};
export const PAPERS = new Set(["gapscope-gaps", "gapscope-evidence", "gapscope-runtime"]);

/** Violations among `edges`: [{from, to, kind}] with kind "normal" | "build" | "dev". */
export function violations(edges) {
  const out = [];
  for (const { from, to, kind } of edges) {
    if (!(to in LAYERS)) continue; // an external crate: scripts/check-deps.sh
    if (!(from in LAYERS)) {
      out.push({ from, to, kind, why: `${from} has no layer in scripts/check-layers.mjs (add it, and a line in ARCHITECTURE.md)` });
      continue;
    }
    if (PAPERS.has(from) && PAPERS.has(to)) {
      out.push({ from, to, kind, why: "a paper crate must not depend on another paper crate" });
    } else if (kind === "dev" && to === "gapscope-synth") {
      // generators are fixtures for every crate's tests
    } else if (LAYERS[to] >= LAYERS[from]) {
      out.push({
        from, to, kind,
        why: `layer ${LAYERS[from]} may depend only on lower layers, ${to} is layer ${LAYERS[to]}`,
      });
    }
  }
  return out;
}

function workspaceEdges() {
  const meta = JSON.parse(
    execFileSync("cargo", ["metadata", "--format-version", "1", "--no-deps", "--locked"], {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    }),
  );
  const edges = [];
  for (const p of meta.packages) {
    for (const d of p.dependencies) {
      edges.push({ from: p.name, to: d.name, kind: d.kind ?? "normal" });
    }
    if (!(p.name in LAYERS)) edges.push({ from: p.name, to: "gapscope-stats", kind: "normal" });
  }
  return edges;
}

function print(list) {
  for (const v of list) console.error(`  ${v.from} → ${v.to} (${v.kind} dependency): ${v.why}`);
}

let status = 0;
if (process.argv.includes("--self-test")) {
  const planted = [
    { from: "gapscope-evidence", to: "gapscope-gaps", kind: "normal" },
    { from: "gapscope-runtime", to: "gapscope-evidence", kind: "dev" },
    { from: "gapscope-data", to: "gapscope-gaps", kind: "normal" },
    { from: "gapscope-stats", to: "gapscope-data", kind: "build" },
    { from: "gapscope-gaps", to: "gapscope-synth", kind: "dev" }, // allowed
    { from: "gapscope-gaps", to: "gapscope-data", kind: "normal" }, // allowed
  ];
  const found = violations(planted);
  const want = ["gapscope-evidence→gapscope-gaps", "gapscope-runtime→gapscope-evidence", "gapscope-data→gapscope-gaps", "gapscope-stats→gapscope-data"];
  const got = found.map((v) => `${v.from}→${v.to}`);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    console.error(`check-layers self-test: expected ${want.join(", ")}, got ${got.join(", ") || "nothing"}; the check is broken`);
    status = 1;
  } else {
    console.log("check-layers self-test: a paper crate naming another, and a lower layer naming a higher one, are rejected");
  }
}
const found = violations(workspaceEdges());
if (found.length > 0) {
  console.error("check-layers: dependency edges against the rule of ARCHITECTURE.md:");
  print(found);
  status = 1;
} else {
  console.log("check-layers: every internal dependency points down the layers; no paper crate names another");
}
process.exit(status);
