// Browser tests: the built page (dist/) in Debian's headless Chromium, driven
// by Playwright as a person would, checked against the CLI's JSON for the same
// data. Needs `trunk build --release` and `cargo build --release -p gapscope-cli`
// first (scripts/test.sh does both).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'target/release/gapscope');
const ARTIFACTS = join(ROOT, 'tests/e2e/artifacts');
const EXAMPLE = join(ROOT, 'assets/synthetic-example.csv');
const SMALL = join(ROOT, 'tests/fixtures/profiles-small.csv');
const BROKEN = join(ROOT, 'tests/fixtures/profiles-broken.csv');
const TOL = 1e-9;

for (const [what, path] of [['the built page (trunk build --release)', join(ROOT, 'dist/index.html')],
  ['the release CLI (cargo build --release -p gapscope-cli)', CLI]]) {
  if (!existsSync(path)) throw new Error(`missing ${what}: ${path}`);
}

/** The CLI's JSON report for a file. */
function cliReport(file) {
  return JSON.parse(execFileSync(CLI, ['report', '--profiles', file, '--json'], { encoding: 'utf8' }));
}

/** What the page shows for a number: one decimal, a true minus sign, em dash for undefined. */
function shown(v, decimals) {
  if (v === null) return '—';
  const s = v.toFixed(decimals);
  return /^-0\.0*$/.test(s) ? s.slice(1) : s.replace('-', '−');
}

let server;
let context;
let page;
let wb;
const requests = [];
const consoleErrors = [];

before(async () => {
  server = await startServer(join(ROOT, 'dist'));
  context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'gapscope-e2e-')), {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? await context.newPage();
  context.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  context.on('weberror', (e) => consoleErrors.push(String(e.error())));
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await context?.close();
  await server?.close();
});

function assertHeatmapMatchesReport(cells, report) {
  const ops = report.dimensions.operations;
  assert.equal(cells.length, report.models.length * ops.length, 'one cell per model × operation');
  for (const cell of cells) {
    const i = report.models.indexOf(cell.row);
    assert.ok(i >= 0, `row ${cell.row} is a model of the report`);
    const expected = report.operations[cell.col].gap[i];
    if (expected === null) {
      assert.equal(cell.value, null, `${cell.row} × ${cell.col} is undefined`);
    } else {
      assert.ok(Math.abs(cell.value - expected) <= TOL, `${cell.row} × ${cell.col}: page ${cell.value}, CLI ${expected}`);
    }
    assert.equal(cell.text, shown(expected, 1), `${cell.row} × ${cell.col} shows its gap`);
  }
}

test('opens with the synthetic example analysed, matching the CLI', async () => {
  assert.equal(await wb.summary.innerText(), '15 models in 8 families, 7 foundational dimensions, 7 operations, reward.');
  assert.equal(await wb.syntheticBadge.innerText(), 'SYNTHETIC EXAMPLE');
  assert.equal(await wb.source(), 'synthetic example');
  // Every view of the example carries the label.
  assert.equal(await page.locator('section.panel h2 .badge.synthetic').count(), 2);
  // The analysis ran in a web worker, loaded from the page's own origin.
  const workers = page.workers().map((w) => w.url());
  assert.ok(workers.some((u) => u.startsWith(server.url) && /worker/.test(u)), `a worker runs: ${workers}`);
  const report = cliReport(EXAMPLE);
  assert.deepEqual(await wb.columnHeaders(wb.gapHeatmap), report.dimensions.operations);
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), report);
  // Q² under each operation's name.
  const notes = await wb.gapHeatmap.locator('thead .note').allInnerTexts();
  assert.deepEqual(notes, report.dimensions.operations.map((op) => `Q² ${shown(report.operations[op].q2, 2)}`));
  await page.screenshot({ path: join(ARTIFACTS, 'example.png'), fullPage: true });
});

test('hovering a gap cell shows observed, predicted and gap', async () => {
  const report = cliReport(EXAMPLE);
  const [model, op] = [report.models[1], 'PL'];
  const text = await wb.hoverCell(wb.gapHeatmap, model, op);
  const fit = report.operations[op];
  assert.match(text, new RegExp(`observed ${shown(fit.observed[1], 1)}`));
  assert.match(text, new RegExp(`predicted ${shown(fit.predicted[1], 2)}`));
  assert.match(text, new RegExp(`gap ${shown(fit.gap[1], 2)}`));
  await page.mouse.move(0, 0);
});

test('gap colours are blue above, red below, on one symmetric scale', async () => {
  const report = cliReport(EXAMPLE);
  const colours = await wb.gapHeatmap.locator('td.cell').evaluateAll((tds) => tds.map((td) => ({
    v: Number(td.dataset.value), bg: getComputedStyle(td).backgroundColor })));
  const max = Math.max(...colours.map((c) => Math.abs(c.v)));
  assert.ok(Math.abs(max - report.max_abs_gap) <= TOL);
  for (const { v, bg } of colours) {
    const [r, , b] = bg.match(/\d+/g).map(Number);
    if (v > 0.05 * max) assert.ok(b > r, `positive gap ${v} is blue (${bg})`);
    if (v < -0.05 * max) assert.ok(r > b, `negative gap ${v} is red (${bg})`);
    if (Math.abs(v) === max) assert.ok(bg === 'rgb(33, 102, 172)' || bg === 'rgb(178, 24, 43)', `the largest |gap| is fully saturated (${bg})`);
  }
});

test('correlation heatmap shows Pearson, and Spearman on request', async () => {
  const report = cliReport(EXAMPLE);
  const check = async (matrix) => {
    const cells = await wb.cells(wb.corrHeatmap);
    assert.equal(cells.length, 49);
    for (const c of cells) {
      const j = report.dimensions.foundational.indexOf(c.row);
      const k = report.dimensions.operations.indexOf(c.col);
      assert.ok(Math.abs(c.value - matrix[j][k]) <= TOL, `${c.row} × ${c.col}`);
    }
  };
  await check(report.correlations.pearson);
  await wb.chooseCorrelation('Spearman ρ');
  await check(report.correlations.spearman);
  await wb.chooseCorrelation('Pearson r');
  await check(report.correlations.pearson);
});

test('picking a profile CSV shows busy state, then its summary and heatmap', async () => {
  await wb.recordStatus();
  await wb.pickFile(SMALL);
  await wb.waitForSource('profiles-small.csv');
  assert.ok((await wb.statusLog()).some((t) => t.includes('Analysing profiles-small.csv in a background worker')),
    'the status line said the file was being analysed');
  assert.equal(await page.locator('.badge.synthetic').count(), 0, 'a user file is not labelled synthetic');
  assert.equal(await wb.summary.innerText(),
    '7 models in 4 families, 3 foundational dimensions, 3 operations, reward read as fractions and multiplied by 100.');
  const report = cliReport(SMALL);
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), report);
  const missing = (await wb.cells(wb.gapHeatmap)).find((c) => c.row === 'Delta Two' && c.col === 'RC');
  assert.equal(missing.text, '—', 'a missing operation score has no gap');
  assert.match(await page.getByTestId('warnings').innerText(), /operation RC: left out of the fit for a missing value: Delta Two/);
});

test('a broken CSV shows its located error and keeps the previous analysis', async () => {
  const before = await wb.cells(wb.gapHeatmap);
  await wb.pickFile(BROKEN);
  await wb.error.waitFor();
  assert.equal(await wb.errorMessage.innerText(),
    'profiles-broken.csv: line 4, column `RE`: expected a number (or an empty cell for a missing value), found `n/a?`');
  assert.match(await wb.error.innerText(), /previous analysis is still shown/);
  assert.equal(await wb.source(), 'profiles-small.csv');
  assert.deepEqual(await wb.cells(wb.gapHeatmap), before);
  await page.screenshot({ path: join(ARTIFACTS, 'error.png'), fullPage: true });
});

test('dropping a file on the page analyses it', async () => {
  await wb.dropFile(EXAMPLE);
  await wb.waitForSource('synthetic-example.csv');
  assert.equal(await wb.error.count(), 0, 'a good file clears the error');
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), cliReport(EXAMPLE));
});

test('no console errors and no request to any other origin', () => {
  assert.deepEqual(consoleErrors, []);
  const origin = new URL(server.url).origin;
  const foreign = requests.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:') && new URL(u).origin !== origin);
  assert.deepEqual(foreign, []);
  assert.ok(requests.some((u) => u.endsWith('.wasm')), 'the page loaded its wasm from its own origin');
});
