// The page's budget, measured in a real browser:
//   node scripts/budget.mjs            load time, longest main-thread task, bundle size
//   node scripts/budget.mjs --bundle   bundle size only (deterministic; the test command enforces it)
// Targets (issue 4): interactive within 1.5 s of load, no main-thread task over
// 50 ms while analysing, total transfer ≤ 1.5 MB gzipped.
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const BUNDLE_LIMIT = 1.5 * 1024 * 1024;

function bundle() {
  const files = readdirSync(DIST).map((f) => {
    const raw = readFileSync(join(DIST, f));
    return { f, raw: raw.length, gz: gzipSync(raw, { level: 9 }).length };
  });
  return { files, raw: files.reduce((a, b) => a + b.raw, 0), gz: files.reduce((a, b) => a + b.gz, 0) };
}

const b = bundle();
for (const { f, raw, gz } of b.files) console.log(`  ${f.padEnd(34)} ${String(raw).padStart(9)} B  ${String(gz).padStart(8)} B gzip`);
console.log(`bundle: ${(b.raw / 1024).toFixed(0)} KB raw, ${(b.gz / 1024).toFixed(0)} KB gzip (limit ${BUNDLE_LIMIT / 1024} KB)`);
let failed = b.gz > BUNDLE_LIMIT;

if (!process.argv.includes('--bundle')) {
  const { chromium } = await import('playwright-core');
  const { startServer } = await import('./serve.mjs');
  const server = await startServer(DIST);
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'gapscope-budget-')), {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: true });
  });
  const loads = [];
  let longest = 0;
  let longestLoad = 0;
  for (let i = 0; i < 5; i++) {
    await page.goto(server.url + '?view=gaps');
    await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false'
      && document.querySelector('[data-testid=gap-heatmap] td.cell'));
    loads.push(await page.evaluate(() => performance.now()));
    // Tasks so far belong to the load (a cold load compiles the app's wasm);
    // the target applies to the tasks while analysing, after it.
    longestLoad = Math.max(longestLoad, ...(await page.evaluate(() => window.__longTasks.splice(0))), 0);
    // Analyse again under other settings, as a person would.
    for (const alpha of ['1', '100', '10']) {
      await page.getByTestId('alpha').fill(alpha);
      await page.getByTestId('alpha').press('Tab');
      await page.waitForFunction((a) => document.querySelector('[data-testid=summary-detail]')?.textContent.includes(`α = ${a};`), alpha);
    }
    longest = Math.max(longest, ...(await page.evaluate(() => window.__longTasks)), 0);
  }
  // Prove the observer sees long tasks here: an 80 ms busy loop must be recorded.
  const seen = await page.evaluate(async () => {
    const before = window.__longTasks.length;
    setTimeout(() => { const t = performance.now(); while (performance.now() - t < 80) { /* busy */ } }, 0);
    await new Promise((r) => setTimeout(r, 300));
    return window.__longTasks.length > before;
  });
  console.log(`long-task observer check (an 80 ms busy loop is recorded): ${seen ? 'ok' : 'NOT SEEN'}`);
  if (!seen) failed = true;
  loads.sort((x, y) => x - y);
  const median = loads[2];
  console.log(`load to analysed page (median of 5): ${median.toFixed(0)} ms (target ≤ 1500 ms)`);
  console.log(`longest main-thread task during the 5 loads (first one cold): ${longestLoad.toFixed(0)} ms (reported; 0 = none over 50 ms)`);
  console.log(`longest main-thread task while analysing (15 re-analyses): ${longest.toFixed(0)} ms (target ≤ 50 ms; 0 = none over 50 ms observed)`);
  await context.close();
  await server.close();
  if (median > 1500 || longest > 50) failed = true;
}
process.exit(failed ? 1 : 0);
