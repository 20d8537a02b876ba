// Browser import benchmark (issue 5, "Performance"): reading trajectory files
// in the page (one import job in a worker: files up to 64 MB fetched whole and
// parsed one by one, larger ones streamed in chunks; the manifest's digests
// follow in a second job) against Python's json.load of the same files,
// measured in the same run: end to end, the import job, and gapscope's reader
// alone (bytes to trajectories in the worker's wasm); then the memory
// growth (worker and page wasm memory, page JS heap) when importing one large
// canonical JSONL file, and with --huge a 1 GB one, imported and cancelled.
//
//   node scripts/bench-browser.mjs [--big-mb 200] [--huge]
//
// Needs `trunk build --release` (dist/) and ../shared/data/tau2. --huge also
// imports a 1 GB file (bounded memory, progress) and cancels one (not part of
// any test: ~2 minutes and ~3 GB of memory).
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

/** A page just loaded; with `idle`, left alone that long first (as a person
 * would, while the workers warm their import path; see `warm_up`). */
async function freshPage(idle = 0) {
  const page = await browser.newPage();
  await page.goto(`${server.url}?view=trajectories`);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false'
    && document.querySelector('[data-testid=summary]'));
  if (idle) await page.waitForTimeout(idle);
  return page;
}

/**
 * Drop `paths` on the page; seconds from the input's change event to the
 * trajectory overview in the document, both timed in the page (a
 * MutationObserver; Playwright's own waiting polls at growing intervals,
 * which would add up to half a second to the measurement).
 */
async function importTime(page, paths) {
  await page.evaluate(() => {
    window.__import = {};
    document.querySelector('[data-testid=file-input]').addEventListener('change', () => {
      window.__import.start = performance.now();
    }, { capture: true, once: true });
    const seen = new MutationObserver(() => {
      if (document.querySelector('[data-testid=overview-summary]')) {
        window.__import.end = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  await page.getByTestId('file-input').setInputFiles(paths);
  await page.getByTestId('overview-summary').waitFor({ timeout: 600_000 });
  const { start, end } = await page.evaluate(() => window.__import);
  return (end - start) / 1000;
}

async function tau2Run(idle) {
  const runs = [];
  for (let i = 0; i < 7; i++) {
    const page = await freshPage(idle);
    const end = await importTime(page, files);
    // The import job's own numbers (the pool line keeps the last import's,
    // whatever finished after it: the manifest's digests).
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=pool]')?.dataset.importMs) > 0);
    const pool = page.getByTestId('pool');
    const attr = async (name) => Number(await pool.getAttribute(name)) / 1000;
    runs.push({ end, job: await attr('data-import-ms'), read: await attr('data-import-read-ms'), parse: await attr('data-import-parse-ms') });
    await page.close();
  }
  // Each quantity: the fastest of 7 fresh pages (the least disturbed run;
  // this machine is shared).
  const best = (k) => Math.min(...runs.map((r) => r[k]));
  const line = (what, s) => console.log(`  ${what.padEnd(86)} ${s.toFixed(3)} s = ${String((mb / s).toFixed(0)).padStart(4)} MB/s`);
  console.log(`τ²-bench results files: ${files.length} files, ${mb.toFixed(1)} MB, dropped ${idle ? `${idle / 1000} s after the page loaded` : 'as soon as the page has loaded'} (fastest of 7 fresh pages each; python best of 5)`);
  line('browser, end to end (drop → trajectory overview on screen)', best('end'));
  line('  import job in the worker (file bytes, parse, profile, overview, analysis)', best('job'));
  line('    of which waiting for the browser to hand over the file bytes (Blob reads)', best('read'));
  line('    of which gapscope\'s reader: bytes → trajectories, in wasm', best('parse'));
  line('python json.load (read + parse)', pySeconds);
  console.log(`  python / browser: ${(pySeconds / best('end')).toFixed(2)}× end to end, ${(pySeconds / best('job')).toFixed(2)}× the import job, ${(pySeconds / best('parse')).toFixed(2)}× gapscope's reader in the browser (target ≥ 1×)`);
}
await tau2Run(0);
await tau2Run(3000);

/** Write a canonical JSONL corpus of about `target` MB (synthetic, labelled). */
const corpora = new Map();
async function bigCorpus(target) {
  if (!corpora.has(target)) corpora.set(target, await writeCorpus(target));
  return corpora.get(target);
}

async function writeCorpus(target) {
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

async function memoryRun(target, { cancel = false } = {}) {
  const big = await bigCorpus(target);
  const page = await freshPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heap = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize').value;
  const worker = async () => Number(await page.getByTestId('pool').getAttribute('data-memory'));
  const pageWasm = () => page.evaluate(() => globalThis.__gapscopePageMemory());
  const [w0, h0, p0] = [await worker(), await heap(), await pageWasm()];
  // Progress: the stage line, sampled while the import runs.
  const stages = new Set();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const s = await page.getByTestId('stage').textContent({ timeout: 50 }).catch(() => null);
      if (s) stages.add(s.replace(/[0-9.]+ of/, 'N of'));
      await page.waitForTimeout(100);
    }
  })();
  if (cancel) {
    const t0 = Date.now();
    await page.getByTestId('file-input').setInputFiles([big.path]);
    await page.waitForFunction(() => /reading .*: [1-9][0-9]{2,}\./.test(document.querySelector('[data-testid=stage]')?.textContent ?? ''), null, { timeout: 600_000 });
    const terminated = Number(await page.getByTestId('pool').getAttribute('data-terminated'));
    await page.getByTestId('cancel').click();
    await page.waitForFunction((t) => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false'
      && Number(document.querySelector('[data-testid=pool]')?.dataset.terminated) === t + 1, terminated, { timeout: 60_000 });
    sampling = false;
    await sampler;
    // The page still answers: the example is analysed again.
    await page.getByTestId('load-example').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false'
      && /synthetic example/.test(document.body.textContent), null, { timeout: 60_000 });
    console.log(`cancel: ${big.mb.toFixed(0)} MB import cancelled after ${((Date.now() - t0) / 1000).toFixed(1)} s while reading (worker terminated and replaced); progress seen: ${[...stages].length} distinct stage lines`);
    await page.close();
    return;
  }
  const seconds = await importTime(page, [big.path]);
  sampling = false;
  await sampler;
  await page.waitForTimeout(300);
  const [w1, h1, p1] = [await worker(), await heap(), await pageWasm()];
  const growth = (w1 - w0) + Math.max(0, h1 - h0) + (p1 - p0);
  console.log(`large canonical JSONL: ${big.mb.toFixed(0)} MB, ${big.lines} trajectories: imported in ${seconds.toFixed(1)} s (${(big.mb / seconds).toFixed(0)} MB/s)`);
  console.log(`  largest worker wasm memory ${(w0 / 1e6).toFixed(0)} → ${(w1 / 1e6).toFixed(0)} MB; page wasm memory ${(p0 / 1e6).toFixed(0)} → ${(p1 / 1e6).toFixed(0)} MB; page JS heap ${(h0 / 1e6).toFixed(0)} → ${(h1 / 1e6).toFixed(0)} MB`);
  console.log(`  growth ${(growth / 1e6).toFixed(0)} MB = ${(growth / (big.mb * 1e6)).toFixed(2)}× the file (target ≤ 2×; wasm memory is a high-water mark: it never shrinks)`);
  console.log(`  progress lines seen while importing: ${[...stages].slice(0, 3).join(' | ')}${stages.size > 3 ? ` | … (${stages.size})` : ''}`);
  await page.close();
}

await memoryRun(BIG_MB);
if (process.argv.includes('--huge')) {
  await memoryRun(1000);
  await memoryRun(1000, { cancel: true });
}
await browser.close();
await server.close();
