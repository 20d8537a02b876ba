// The comparison benchmark's input, shared by bench-compare-page.mjs and
// trace-compare-page.mjs: RUNS runs × TASKS tasks × TRIALS trials of binary
// rewards (run r succeeds with probability 0.3 + 0.4 · r / (RUNS − 1)),
// seeded, as one canonical JSONL file in a fresh temporary folder.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A seeded generator (mulberry32: a few lines, reproducible in any JS
// engine; the numbers only need to be the same on every run of the script).
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes the input and returns its path. */
export function writeCompareInput(runs, tasks, trials) {
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-bench-compare-'));
  const file = join(dir, `compare-${runs}x${tasks}x${trials}.jsonl`);
  const next = rng(17);
  const lines = [];
  for (let r = 0; r < runs; r++) {
    const skill = 0.3 + 0.4 * (r / Math.max(1, runs - 1));
    for (let t = 0; t < tasks; t++) {
      for (let k = 0; k < trials; k++) {
        lines.push(JSON.stringify({
          id: `r${r}-t${t}-k${k}`, model: `run-${r}`, domain: 'bench', task_id: `task-${t}`, trial: k,
          reward: next() < skill ? 1 : 0, messages: [],
        }));
      }
    }
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
