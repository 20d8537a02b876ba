// One worker pool per part, loaded on first use (issue 15, part 5): the
// first load (the analysed gaps page) fetches only the gaps worker; opening
// the evidence-to-action part, then the runtime-contracts part, starts that
// part's workers and fetches their wasm then, and not before. Requests are
// recorded through the context (the page's and its workers').
// Needs `trunk build --release`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch, record } from './support/browser.mjs';
import { PAGE, ROOT, need } from './support/needs.mjs';

need(PAGE);

const PARTS = {
  gaps: { loader: 'worker_loader.js', wasm: 'worker_bg.wasm' },
  // One worker bin serves the evidence and runtime pools (src/bin/worker_parts.rs).
  evidence: { loader: 'worker_parts_loader.js', wasm: 'worker_parts_bg.wasm' },
  runtime: { loader: 'worker_parts_loader.js', wasm: 'worker_parts_bg.wasm' },
};

let server;
let context;
let page;
let wb;
let rec;

before(async () => {
  server = await startServer(join(ROOT, 'dist'));
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
});

after(async () => {
  await context?.close();
  await server?.close();
});

/** The file names requested so far (page and workers), and the scripts of the live workers. */
function seen() {
  const path = (u) => (u.startsWith(server.url) ? u.slice(server.url.length).split('?')[0] : u);
  return {
    requests: new Set(rec.requests.map(path)),
    workers: page.workers().map((w) => path(w.url())),
  };
}

test('the first load starts only the gaps pool and fetches only the gaps worker', async () => {
  await wb.open(`${server.url}?view=gaps`);
  await page.locator('[data-testid=gap-heatmap] td.cell').first().waitFor();
  const s = seen();
  assert.ok(s.requests.has(PARTS.gaps.wasm), `the gaps worker's wasm was fetched: ${[...s.requests]}`);
  for (const part of ['evidence', 'runtime']) {
    assert.ok(!s.requests.has(PARTS[part].loader) && !s.requests.has(PARTS[part].wasm), `nothing of the ${part} worker yet: ${[...s.requests]}`);
  }
  assert.ok(s.workers.length >= 1 && s.workers.every((w) => w === PARTS.gaps.loader), `only gaps workers: ${s.workers}`);
  const pool = await wb.pool();
  assert.equal(pool.size, pool.live, 'one pool, all its workers started');
  assert.ok(pool.size >= 1 && pool.size <= 4, `sized to the machine: ${JSON.stringify(pool)}`);
});

test('opening the evidence part starts its pool and loads its worker; the runtime part still waits', async () => {
  const before = await wb.pool();
  await page.click('nav.areas button[data-area=evidence]');
  await page.locator('table.data[data-title^="ECS per protocol"]').waitFor({ timeout: 60_000 });
  const s = seen();
  assert.ok(s.requests.has(PARTS.evidence.wasm), `the evidence worker's wasm was fetched: ${[...s.requests]}`);
  assert.ok(s.workers.includes(PARTS.evidence.loader), `an evidence worker runs: ${s.workers}`);
  const after = await wb.pool();
  assert.equal(s.workers.filter((w) => w === PARTS.evidence.loader).length, after.size - before.size, 'only the evidence pool runs it');
  assert.equal(after.size, 2 * before.size, `a second pool of the same size: ${JSON.stringify([before, after])}`);
});

test('opening the runtime part starts its pool and loads its worker', async () => {
  await page.click('nav.areas button[data-area=runtime]');
  await page.locator('table.data[data-title^="Cap 20: 2×2"]').waitFor({ timeout: 60_000 });
  const s = seen();
  assert.ok(s.requests.has(PARTS.runtime.wasm), `the runtime worker's wasm was fetched: ${[...s.requests]}`);
  const pool = await wb.pool();
  assert.equal(pool.size, pool.live, 'every pool started');
  assert.equal(s.workers.filter((w) => w === PARTS.runtime.loader).length, 2 * (pool.size / 3), `the runtime pool runs its own copies: ${s.workers}`);
  // Back to the gaps: its pool still answers.
  await page.click('nav.areas button[data-area=gaps]');
  await page.locator('[data-testid=gap-heatmap] td.cell').first().waitFor();
  assert.deepEqual(rec.consoleErrors, []);
});
