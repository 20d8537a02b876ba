// Privacy (issue 8, part 4): the built page (dist/) may load only its own
// files. A whole visit — load, import a file, analyse, change α, export
// CSV/JSON/PNG, open every view — records every request (the page's and its
// workers') and fails on any request to another origin, any CSP violation and
// any console error. Then the policy itself is probed: every way a script
// could reach another origin (a live server on another port that counts what
// reaches it) must be blocked, and an injected inline script must not run.
// Needs `trunk build --release` and `cargo build --release -p gapscope-cli`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { foreignServer, launch, record, tryToLeak } from './support/browser.mjs';
import { PAGE, ROOT, need } from './support/needs.mjs';

const SMALL = join(ROOT, 'tests/fixtures/profiles-small.csv');

need(PAGE);

let server;
let foreign;
let context;
let page;
let wb;
let rec;

before(async () => {
  server = await startServer(join(ROOT, 'dist'));
  foreign = await foreignServer();
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
});

after(async () => {
  await context?.close();
  await server?.close();
  await foreign?.close();
});

/** The page's policy as {directive: [sources]}. */
async function policy() {
  const text = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  return Object.fromEntries(text.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([k, ...v]) => [k, v]));
}

test('the policy allows only the page\'s own files, no inline script, and no connection elsewhere', async () => {
  await wb.open(server.url);
  const p = await policy();
  assert.deepEqual(p['default-src'], ["'self'"]);
  assert.deepEqual(p['script-src'], ["'self'", "'wasm-unsafe-eval'"], 'no inline script, no eval, no other host');
  assert.deepEqual(p['connect-src'], ["'self'"]);
  assert.deepEqual(p['object-src'], ["'none'"]);
  assert.deepEqual(p['base-uri'], ["'none'"]);
  assert.deepEqual(p['form-action'], ["'none'"]);
  // No directive names a host or a scheme that reaches the network.
  for (const [k, v] of Object.entries(p)) {
    for (const s of v) {
      assert.ok(["'self'", "'none'", "'wasm-unsafe-eval'", "'unsafe-inline'", 'data:', 'blob:'].includes(s), `${k} allows ${s}`);
    }
  }
  assert.deepEqual(Object.entries(p).filter(([, v]) => v.includes("'unsafe-inline'")).map(([k]) => k), ['style-src'],
    'only styles may be inline');
  // The built page itself has no inline script.
  const inline = await page.evaluate(() => [...document.scripts].filter((s) => !s.src && s.type !== 'application/json').length);
  assert.equal(inline, 0);
});

test('a whole visit makes no request to another origin, and no CSP violation or console error', async () => {
  // Import a file and analyse it.
  await wb.pickFile(SMALL);
  await wb.waitForSource('profiles-small.csv');
  // Change α.
  await wb.setSetting('alpha', '3');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary-detail]')?.textContent.includes('α = 3;'));
  await wb.waitIdle();
  // Exports: a table as CSV, the figure as PNG, the report as JSON, the manifest.
  await wb.openView('predictability');
  const csv = await wb.exportTable('Held-out predictability', 'csv');
  assert.match(csv.text, /^Operation,Q²/);
  const png = await wb.download(() => page.getByTestId('predictability-chart').getByTestId('export-png').click());
  assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG file');
  const json = JSON.parse((await wb.download(() => page.getByTestId('export-json').click())).text);
  assert.equal(json.settings.alpha, 3);
  await wb.download(() => page.getByTestId('export-manifest').click());
  // Every view.
  const views = await page.locator('nav.views button[data-view]').evaluateAll((bs) => bs.map((b) => b.dataset.view));
  assert.ok(views.length >= 10, `views: ${views}`);
  for (const v of views) {
    await wb.openView(v);
    await wb.waitIdle();
  }
  // The synthetic trajectory corpus, analysed in the workers too.
  await wb.openView('trajectories');
  await page.getByTestId('load-corpus').click();
  await wb.waitForSource('synthetic trajectories');
  await page.getByTestId('overview-summary').waitFor({ timeout: 30_000 });
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');

  const origin = new URL(server.url).origin;
  const foreignRequests = rec.requests.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:') && new URL(u).origin !== origin);
  assert.deepEqual(foreignRequests, []);
  // The recorder sees the workers' requests too: the worker's wasm was fetched by a worker.
  assert.ok(rec.requests.some((u) => u === `${origin}/worker_bg.wasm`), `the worker's wasm request is recorded: ${rec.requests}`);
  assert.deepEqual(await rec.violations(), []);
  assert.deepEqual(rec.consoleErrors, []);
  assert.deepEqual(foreign.hits, []);
});

test('the policy blocks every attempt to reach another origin, and injected inline script', async () => {
  const attempts = await tryToLeak(page, foreign.url);
  assert.deepEqual(attempts, {
    fetch: 'blocked', xhr: 'blocked', img: 'blocked', script: 'blocked', style: 'blocked',
    beacon: attempts.beacon, inline: 'blocked',
  });
  assert.deepEqual(foreign.hits, [], 'nothing reached the other origin');
  // Each attempt was a reported violation: the recorder sees violations.
  const directives = new Set((await rec.violations()).map((v) => v.directive));
  for (const d of ['connect-src', 'img-src', 'script-src-elem', 'style-src-elem']) {
    assert.ok(directives.has(d), `a ${d} violation was reported (saw ${[...directives]})`);
  }
  await rec.clearViolations();
  rec.consoleErrors.length = 0;
});

test('a worker cannot reach another origin either', async () => {
  const workers = page.workers();
  assert.ok(workers.length >= 1, 'an analysis worker runs');
  const seen = await workers[0].evaluate((u) => fetch(`${u}from-worker`).then(() => 'reached', () => 'blocked'), foreign.url);
  assert.equal(seen, 'blocked');
  assert.deepEqual(foreign.hits, []);
  rec.consoleErrors.length = 0;
});
