// The comparison benchmark in the browser (issue 17, "Performance"): the
// native bench's input (10 runs × 1,000 tasks × 4 trials, seeded, as one
// canonical JSONL file) dropped on the page's Compare view; it prints the
// time from the drop to the drawn comparison, the worker's share (the
// compare job), and every main-thread task over 50 ms (PerformanceObserver
// `longtask`) while the job runs and while the result is drawn, beside the
// native time of the same comparison (`gapscope compare --json`, measured
// in the same run) as the reference.
//
//   node scripts/bench-compare-page.mjs [--runs 10] [--tasks 1000] [--trials 4]
//
// Needs `trunk build --release` (dist/) and the release CLI. Exit status 0
// whatever it measures (a benchmark, not a test).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { writeCompareInput } from './compare-input.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const CLI = join(ROOT, 'target/release/gapscope');
for (const p of [join(DIST, 'index.html'), CLI]) {
  if (!existsSync(p)) throw new Error(`missing ${p}: run trunk build --release and cargo build --release -p gapscope-cli`);
}
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg('--runs', 10);
const TASKS = arg('--tasks', 1000);
const TRIALS = arg('--trials', 4);

const file = writeCompareInput(RUNS, TASKS, TRIALS);

// The reference: the same comparison natively (the CLI, B = 10,000).
const t0 = performance.now();
execFileSync(CLI, ['compare', file, '--json', '--bootstrap', '10000'], { stdio: ['ignore', 'ignore', 'ignore'] });
const native = (performance.now() - t0) / 1000;

const server = await startServer(DIST);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
await page.goto(`${server.url}?view=compare&B=10000`);
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false');
await page.evaluate(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push({ at: e.startTime, ms: e.duration }); })
    .observe({ type: 'longtask', buffered: false });
  // When the comparison's summary is inserted (the answer's first draw), by
  // the page's own clock, not by Playwright's polling.
  // Every frame's distance from the last (a frame waits for the longest
  // task before it): the longest gap while the answer is drawn, reported
  // below even when no task passes 50 ms.
  window.__frames = { last: performance.now(), gaps: [] };
  const tick = (now) => {
    window.__frames.gaps.push({ at: now, ms: now - window.__frames.last });
    window.__frames.last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  new MutationObserver((_, obs) => {
    if (document.querySelector('[data-testid=compare-summary]')) {
      window.__summaryAt = performance.now();
      obs.disconnect();
    }
  }).observe(document.body, { childList: true, subtree: true });
});
const start = await page.evaluate(() => performance.now());
await page.getByTestId('file-input').setInputFiles(file);
await page.getByTestId('compare-busy').waitFor({ timeout: 120_000 });
const busyAt = await page.evaluate(() => performance.now());
await page.getByTestId('compare-summary').waitFor({ timeout: 600_000 });
const answeredAt = await page.evaluate(() => performance.now());
// The view draws in stages a frame apart, the task heatmap's cells last:
// wait for them, then two frames more (the long-task entries of the last
// stage are delivered after it), then read the long tasks.
await page.locator('[data-testid=task-heatmap] td.cell').first().waitFor({ timeout: 60_000 });
const drawnAt = await page.evaluate(() => performance.now());
await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
const gaps = await page.evaluate(() => window.__frames.gaps);
const long = await page.evaluate(() => window.__long);
const summaryAt = await page.evaluate(() => window.__summaryAt);
// A task that ends before the summary is inserted ran while the job ran
// (the import's answer, the pool); the one that inserts it, and those after,
// draw the answer.
const during = long.filter((t) => t.at >= busyAt && t.at + t.ms < summaryAt);
const drawing = long.filter((t) => t.at + t.ms >= summaryAt);
const fmt = (ts) => (ts.length ? ts.map((t) => `${t.ms.toFixed(0)} ms`).join(', ') : 'none');
console.log(`compare in the page: ${RUNS} runs × ${TASKS} tasks × ${TRIALS} trials (${(RUNS * TASKS * TRIALS).toLocaleString()} trajectories), B = 10,000`);
console.log(`  drop → comparison drawn              ${((drawnAt - start) / 1000).toFixed(2)} s`);
console.log(`  of which the compare job (worker)    ${((answeredAt - busyAt) / 1000).toFixed(2)} s (reading the file and comparing)`);
console.log(`  reference: gapscope compare (native) ${native.toFixed(2)} s (read + compare + JSON)`);
console.log(`  ratio page / native                  ${((drawnAt - start) / 1000 / native).toFixed(2)}`);
console.log(`  main-thread tasks > 50 ms while the job runs: ${fmt(during)}`);
console.log(`  main-thread tasks > 50 ms while the answer is decoded and drawn: ${fmt(drawing)}`);
const longestGap = Math.max(0, ...gaps.filter((g) => g.at >= summaryAt - 1 && g.at <= drawnAt + 1).map((g) => g.ms));
console.log(`  longest frame gap while it is drawn   ${longestGap.toFixed(0)} ms (a 60 Hz frame is 17 ms)`);
await browser.close();
await server.close();
