// Browser import benchmark (issue 5, "Performance"): reading trajectory files
// in the page (worker pool, File objects read in chunks in a worker) against
// Python's json.load of the same files, measured in the same run; then the
// worker memory growth when importing one large canonical JSONL file.
//
//   node scripts/bench-browser.mjs [--big-mb 200] [--huge]
//
// Needs `trunk build --release` (dist/) and ../shared/data/tau2. --huge also
// imports a 1 GB file (bounded memory, progress; not part of any test).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const TAU2 = join(ROOT, '../shared/data/tau2');
if (!existsSync(join(DIST, 'index.html'))) throw new Error('missing dist/: run trunk build --release first');
if (!existsSync(TAU2)) throw new Error(`missing ${TAU2}: the benchmark reads the shared τ²-bench files`);
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const BIG_MB = arg('--big-mb', 200);

function results(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...results(p));
    else if (p.includes('/results/') && p.endsWith('.json')) out.push(p);
  }
  return out.sort();
}
const files = results(TAU2);
const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
const mb = bytes / 1e6;

// Python json.load of the same files, best of 5.
const py = execFileSync('python3', ['-c', `
import json, sys, time
files = sys.argv[1:]
best = 1e9
for _ in range(5):
    t = time.perf_counter()
    for f in files:
        with open(f, 'rb') as fh:
            json.load(fh)
    best = min(best, time.perf_counter() - t)
print(best)
`, ...files], { encoding: 'utf8' });
const pySeconds = Number(py.trim());

const server = await startServer(DIST);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function freshPage() {
  const page = await browser.newPage();
  await page.goto(`${server.url}?view=trajectories`);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false'
    && document.querySelector('[data-testid=summary]'));
  return page;
}

/** Drop `paths` on the page; seconds until the trajectory overview is shown. */
async function importTime(page, paths) {
  const t0 = Date.now();
  await page.getByTestId('file-input').setInputFiles(paths);
  await page.getByTestId('overview-summary').waitFor({ timeout: 600_000 });
  return (Date.now() - t0) / 1000;
}

const times = [];
const workerTimes = [];
for (let i = 0; i < 3; i++) {
  const page = await freshPage();
  times.push(await importTime(page, files));
  // Both jobs (analysis and overview) read every file; the slower one's time.
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false');
  await page.waitForTimeout(200);
  workerTimes.push(Number(await page.getByTestId('pool').getAttribute('data-last-job-ms')) / 1000);
  await page.close();
}
const best = Math.min(...times);
const bestWorker = Math.min(...workerTimes);
console.log(`τ²-bench results files: ${files.length} files, ${mb.toFixed(1)} MB`);
console.log(`  browser import (worker reads the File objects, parses, builds the overview; best of 3): ${best.toFixed(2)} s = ${(mb / best).toFixed(0)} MB/s`);
console.log(`  in the worker alone (read the File objects in chunks + parse + overview; best of 3):  ${bestWorker.toFixed(2)} s = ${(mb / bestWorker).toFixed(0)} MB/s`);
console.log(`  python json.load (parse only; best of 5):                                          ${pySeconds.toFixed(2)} s = ${(mb / pySeconds).toFixed(0)} MB/s`);
console.log(`  ratio python / browser: ${(pySeconds / best).toFixed(2)}× end to end, ${(pySeconds / bestWorker).toFixed(2)}× in the worker (target ≥ 1×)`);

/** Write a canonical JSONL corpus of about `target` MB (synthetic, labelled). */
async function bigCorpus(target) {
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-big-'));
  const path = join(dir, `corpus-${target}MB.jsonl`);
  const out = createWriteStream(path);
  const filler = 'x'.repeat(400);
  let written = 0;
  let i = 0;
  while (written < target * 1e6) {
    const line = JSON.stringify({
      id: `t${i}`, model: `m${i % 12}`, family: `f${i % 5}`, task_id: `task-${i % 500}`,
      scenario_group: `g${i % 20}`, trial: 0, reward: (i % 3) / 2,
      messages: [{ role: 'user', content: `please help ${filler}` },
        { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, name: 'get_x', arguments: { k: i } }] },
        { role: 'tool', tool_call_id: `c${i}`, content: `{"ok": true, "pad": "${filler}"}` },
        { role: 'assistant', content: `done ${filler}` }],
      labels: { GI: [1, 0.5], PL: [i % 2], RC: [null] },
    }) + '\n';
    if (!out.write(line)) await new Promise((r) => out.once('drain', r));
    written += Buffer.byteLength(line);
    i++;
  }
  await new Promise((r) => out.end(r));
  return { path, mb: written / 1e6, lines: i };
}

async function memoryRun(target) {
  const big = await bigCorpus(target);
  const page = await freshPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heap = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize').value;
  const worker = async () => Number(await page.getByTestId('pool').getAttribute('data-memory'));
  const pageWasm = () => page.evaluate(() => globalThis.__gapscopePageMemory());
  const [w0, h0, p0] = [await worker(), await heap(), await pageWasm()];
  const seconds = await importTime(page, [big.path]);
  await page.waitForTimeout(300);
  const [w1, h1, p1] = [await worker(), await heap(), await pageWasm()];
  const growth = (w1 - w0) + Math.max(0, h1 - h0) + (p1 - p0);
  console.log(`large canonical JSONL: ${big.mb.toFixed(0)} MB, ${big.lines} trajectories: imported in ${seconds.toFixed(1)} s (${(big.mb / seconds).toFixed(0)} MB/s)`);
  console.log(`  largest worker wasm memory ${(w0 / 1e6).toFixed(0)} → ${(w1 / 1e6).toFixed(0)} MB; page wasm memory ${(p0 / 1e6).toFixed(0)} → ${(p1 / 1e6).toFixed(0)} MB; page JS heap ${(h0 / 1e6).toFixed(0)} → ${(h1 / 1e6).toFixed(0)} MB`);
  console.log(`  growth ${(growth / 1e6).toFixed(0)} MB = ${(growth / (big.mb * 1e6)).toFixed(2)}× the file (target ≤ 2×; wasm memory is a high-water mark: it never shrinks)`);
  await page.close();
}

await memoryRun(BIG_MB);
if (process.argv.includes('--huge')) await memoryRun(1000);
await browser.close();
await server.close();
