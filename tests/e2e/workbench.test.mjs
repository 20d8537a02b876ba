// Browser tests: the built page (dist/) in Debian's headless Chromium, driven
// by Playwright as a person would, checked against the CLI's JSON for the same
// data. Needs `trunk build --release` and `cargo build --release -p gapscope-cli`
// first (scripts/test.sh does both).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { assertManifestReproduces } from './support/manifest.mjs';
import { ARTIFACTS, CLI, PAGE, RELEASE_CLI, ROOT, need } from './support/needs.mjs';

const EXAMPLE = join(ROOT, 'assets/synthetic-example.csv');
const SMALL = join(ROOT, 'tests/fixtures/profiles-small.csv');
const BROKEN = join(ROOT, 'tests/fixtures/profiles-broken.csv');
const TOL = 1e-9;

need(PAGE, RELEASE_CLI);

/** The CLI's JSON report for a file. */
function cliReport(file, ...args) {
  return JSON.parse(execFileSync(CLI, ['report', '--profiles', file, '--json', ...args], { encoding: 'utf8' }));
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
/** The page's manifest and JSON report, downloaded (the manifest waits for its digests). */
async function manifestAndReport() {
  await page.waitForFunction(() => !document.querySelector('[data-testid=export-manifest]')?.disabled, null, { timeout: 30_000 });
  const manifest = JSON.parse((await wb.download(() => page.getByTestId('export-manifest').click())).text);
  const report = JSON.parse((await wb.download(() => page.getByTestId('export-json').click())).text);
  return { manifest, report };
}

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
  assert.equal(await page.locator('section.panel h2 .badge.synthetic').count(), 1);
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
  await wb.openView('association');
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
  // Click-through: a cell opens the scatter of that pair, titled with its r.
  await wb.corrHeatmap.locator('td.cell[data-row="CE"][data-col="RC"]').click();
  const scatter = page.getByTestId('association-scatter');
  await scatter.waitFor();
  const j = report.dimensions.foundational.indexOf('CE');
  const k = report.dimensions.operations.indexOf('RC');
  assert.match(await scatter.locator('svg > title').textContent(), new RegExp(`RC against CE: r = ${shown(report.correlations.pearson[j][k], 3)}`));
  assert.equal(await scatter.locator('g.pt circle').count(), report.models.length, 'one point per model');
  await wb.openView('gaps');
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

test('a long analysis shows its stages, and cancel stops its worker and keeps the last result', async () => {
  // 3,000 models in 300 families: seconds of work for the worker.
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-'));
  const big = join(dir, 'big.csv');
  writeFileSync(big, execFileSync(CLI, ['synth', '--families', '300', '--per-family', '10'], { encoding: 'utf8' }));
  const before = await wb.cells(wb.gapHeatmap);
  // No job of an earlier test still running or about to start (cancelled
  // by the new file, it would be counted as terminated here: seen under
  // load). The file's digests are asked for 300 ms after its answer
  // (DIGESTS_AFTER_MS), so idle is checked until it holds twice, 500 ms apart.
  let pool0;
  for (let stable = 0; stable < 2;) {
    await page.waitForTimeout(500);
    await wb.waitWorkersIdle();
    const p = await wb.pool();
    stable = pool0 && p.terminated === pool0.terminated ? stable + 1 : 0;
    pool0 = p;
  }
  assert.ok(pool0.size >= 1 && pool0.size <= 4, `pool sized to the machine: ${JSON.stringify(pool0)}`);
  await wb.pickFile(big);
  // The stage moves past reading to the model fits, on a progress bar.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=progress]')?.getAttribute('value')) >= 3,
    null, { timeout: 30_000 });
  const p = await wb.progress();
  assert.equal(p.of, 7);
  assert.match(p.stage, /^(held-out fits of the operations|reward from F|reward from O|reward from F\+O|nested selection) \(step \d of 7\)$/);
  await page.getByTestId('cancel').click();
  await wb.waitIdle();
  const pool1 = await wb.pool();
  assert.equal(pool1.terminated, pool0.terminated + 1, 'the worker running the cancelled job was terminated');
  assert.ok(pool1.live >= 1, 'a fresh worker took its place');
  assert.equal(await wb.source(), 'synthetic-example.csv', 'the last good result stays');
  assert.deepEqual(await wb.cells(wb.gapHeatmap), before);
  assert.equal(await wb.error.count(), 0, 'a cancel is not an error');
  // The replacement worker answers the next request.
  await wb.pickFile(SMALL);
  await wb.waitForSource('profiles-small.csv');
  await wb.pickFile(EXAMPLE);
  await wb.waitForSource('synthetic-example.csv');
});

// ---- The workbench views (issue 4) ----

test('the gap and correlation heatmaps export CSV, LaTeX, SVG and PNG with every cell, under short names', async () => {
  for (const [view, id] of [['gaps', 'gap-heatmap'], ['association', 'correlation-heatmap']]) {
    await wb.openView(view);
    const heat = page.getByTestId(id);
    await heat.waitFor();
    const cells = await wb.cells(heat);
    const wrap = page.locator('.heatmap-wrap', { has: heat });
    const csv = await wb.download(() => wrap.getByTestId('export-csv').click());
    assert.ok(csv.name.endsWith(`-${id}.csv`) && csv.name.length <= 80, csv.name);
    const [head, ...lines] = csv.text.trim().split('\n').map((l) => l.split(','));
    for (const c of cells) {
      const line = lines.find((l) => l[0] === c.row);
      const got = line[head.indexOf(c.col)];
      if (c.value === null) assert.equal(got, '', `${c.row} ${c.col}`);
      else assert.ok(Math.abs(Number(got) - c.value) < 1e-9, `${id} ${c.row} ${c.col}: ${got} vs ${c.value}`);
    }
    assert.equal(lines.length * (head.length - 1), cells.length, 'every cell exported');
    const tex = await wb.download(() => wrap.getByTestId('export-latex').click());
    assert.match(tex.text, /\\toprule/);
    const svg = await wb.download(() => wrap.getByTestId('export-svg').click());
    assert.match(svg.text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.equal((svg.text.match(/<rect /g) ?? []).length, 1 + cells.length, 'a square per cell');
    // PNG: the same SVG through the canvas at twice its size, decoded when
    // the pointer reaches the button so the click downloads it at once (a
    // download started after the click counts towards Chrome's automatic
    // downloads, blocked after two).
    await wrap.getByTestId('export-png').hover();
    await page.waitForTimeout(300);
    const png = await wb.download(() => wrap.getByTestId('export-png').click());
    assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
    assert.ok(png.name.endsWith(`-${id}.png`) && png.name.length <= 80, png.name);
    const svgWidth = Number(svg.text.match(/^<svg[^>]* width="(\d+)"/)[1]);
    assert.equal(png.bytes.readUInt32BE(16), 2 * svgWidth, 'the PNG is twice the SVG wide');
  }
});

test('predictability shows Q² with family-bootstrap intervals equal to the CLI', async () => {
  const report = cliReport(EXAMPLE);
  await wb.openView('predictability');
  const t = await wb.table('Held-out predictability');
  assert.deepEqual(t.headers, ['Operation', 'Q²', 'Q² 95% interval', 'MAE', 'RMSE', 'ρ', 'n']);
  for (const row of t.rows) {
    const fit = report.operations[row[0]];
    assert.equal(row[1], shown(fit.q2, 3), `${row[0]} Q²`);
    assert.equal(row[2], `[${shown(fit.ci95.q2[0], 3)}, ${shown(fit.ci95.q2[1], 3)}]`, `${row[0]} interval`);
    assert.equal(row[3], shown(fit.mae, 2));
  }
  // CSV export parses back to the CLI's full-precision numbers.
  const csv = await wb.exportTable('Held-out predictability', 'csv');
  assert.match(csv.name, /\.csv$/);
  const lines = csv.text.trim().split('\n').map((l) => l.split(','));
  assert.deepEqual(lines[0], ['Operation', 'Q²', 'Q² 95% interval_lo', 'Q² 95% interval_hi', 'MAE', 'RMSE', 'ρ', 'n']);
  for (const l of lines.slice(1)) {
    const fit = report.operations[l[0]];
    assert.ok(Math.abs(Number(l[1]) - fit.q2) <= 1e-12, `${l[0]} Q² from CSV`);
    assert.ok(Math.abs(Number(l[2]) - fit.ci95.q2[0]) <= 1e-12 && Math.abs(Number(l[3]) - fit.ci95.q2[1]) <= 1e-12);
  }
  const tex = await wb.exportTable('Held-out predictability', 'latex');
  assert.match(tex.text, /\\toprule[\s\S]*\\midrule[\s\S]*\\bottomrule/);
  // The figure exports as SVG and as PNG.
  const svg = await wb.download(() => page.getByTestId('predictability-chart').getByTestId('export-svg').click());
  assert.match(svg.text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((svg.text.match(/<rect x=/g) ?? []).length, report.dimensions.operations.length + 1);
  const png = await wb.download(() => page.getByTestId('predictability-chart').getByTestId('export-png').click());
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
  await wb.openView('gaps');
});

test('reward prediction, differences and penalty views equal the CLI', async () => {
  const report = cliReport(EXAMPLE);
  await wb.openView('reward');
  const t = await wb.table('Reward prediction');
  const o = report.outcome;
  assert.deepEqual(t.rows.map((r) => r[0]), ['Training-mean baseline', 'Foundational profile F', 'Operation profile O', 'Joint profile F+O']);
  assert.equal(t.rows[0][2], shown(o.baseline.mae, 2));
  for (const [i, fit] of [[1, o.F], [2, o.O], [3, o['F+O']]]) {
    assert.deepEqual(t.rows[i].slice(1, 5), [shown(fit.spearman, 3), shown(fit.mae, 2), shown(fit.rmse, 2), shown(fit.q2, 3)]);
  }
  const d = await wb.table('Paired differences');
  assert.equal(d.rows[0][1], shown(report.differences['F+O - F'].q2, 3));
  assert.equal(await page.getByTestId('reward-chart').count(), 3);
  await wb.openView('penalty');
  assert.equal(await page.getByTestId('penalty-chart').count(), 3);
  const nested = await wb.table('Nested selection');
  for (const [fold, alpha] of Object.entries(o.nested.chosen_alpha)) {
    assert.ok(nested.rows.some((r) => r[0] === fold && Number(r[1]) === alpha), `fold ${fold} chose ${alpha}`);
  }
  await wb.openView('gaps');
});

test('clicking a gap cell opens the observed-vs-predicted scatter with that model highlighted', async () => {
  await wb.gapHeatmap.locator('td.cell[data-row="Dorado Pro"][data-col="ST"]').click();
  const scatter = page.getByTestId('gap-scatter');
  await scatter.waitFor();
  assert.match(await scatter.locator('svg > title').textContent(), /^ST: observed against held-out prediction/);
  assert.equal(await scatter.locator('circle[r="7"]').count(), 1, 'one highlighted point');
  assert.match(await scatter.locator('g.pt', { has: page.locator('circle[r="7"]') }).getAttribute('data-tip'), /^Dorado Pro/);
});

test('keyboard: arrow keys move across heatmap cells and Enter opens the scatter', async () => {
  const first = wb.gapHeatmap.locator('td.cell[data-r="0"][data-c="0"]');
  await first.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const focused = await page.evaluate(() => [document.activeElement.dataset.r, document.activeElement.dataset.c]);
  assert.deepEqual(focused, ['1', '1']);
  assert.match(await wb.tooltip.innerText(), /observed/);
  await page.keyboard.press('Enter');
  assert.match(await page.getByTestId('gap-scatter').locator('svg > title').textContent(), /^ST:/);
});

test('changing alpha recomputes every view, lives in the URL and survives a reload', async () => {
  await wb.setSetting('alpha', '1');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary-detail]')?.textContent.includes('α = 1;'));
  await wb.waitIdle();
  const report = cliReport(EXAMPLE, '--alpha', '1');
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), report);
  assert.match(page.url(), /alpha=1(&|$)/);
  await wb.openView('predictability');
  const t = await wb.table('Held-out predictability');
  assert.match(t.rows.length ? (await page.locator('table.data caption').first().innerText()) : '', /α = 1\)/);
  assert.equal(t.rows[0][1], shown(report.operations[t.rows[0][0]].q2, 3));
  // The JSON export is the CLI's report for the same settings.
  const json = await wb.download(() => page.getByTestId('export-json').click());
  const exported = JSON.parse(json.text);
  assert.deepEqual(exported.operations.PL.ci95, report.operations.PL.ci95);
  assert.equal(exported.settings.alpha, 1);
  assert.ok(Math.abs(exported.outcome['F+O'].q2 - report.outcome['F+O'].q2) <= 1e-12);
  // A shared link reproduces the settings and the view.
  await page.reload();
  await wb.waitIdle();
  assert.equal(await page.getByTestId('alpha').inputValue(), '1');
  assert.equal(await page.getByTestId('view').getAttribute('data-view'), 'predictability');
  // An invalid value is refused with a message, and nothing is recomputed.
  await wb.setSetting('alpha', '-3');
  assert.match(await page.getByTestId('settings-error').innerText(), /α must be a number greater than 0, got “-3”/);
  await wb.setSetting('alpha', '10');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary-detail]')?.textContent.includes('α = 10;'));
  await wb.openView('gaps');
});

test('association sensitivity for a chosen pair equals the CLI', async () => {
  await wb.openView('sensitivity');
  await page.getByTestId('pair-foundational').selectOption('CE');
  await page.getByTestId('pair-operation').selectOption('RC');
  await page.getByTestId('pair-provider').selectOption('Aurora');
  await page.waitForFunction(() => document.querySelector('table.data')?.textContent.includes('without Aurora'));
  await wb.waitIdle();
  const report = cliReport(EXAMPLE, '--pair', 'CE:RC', '--provider', 'Aurora');
  const a = report.association_sensitivity;
  const t = await wb.table('Association of CE with RC');
  const specs = [a.all, a.provider_removed, a.family_centred, ...a.family_removed];
  assert.deepEqual(t.rows.map((r) => r[0]), specs.map((s) => s.label));
  for (const [i, s] of specs.entries()) {
    assert.deepEqual(t.rows[i].slice(1), [shown(s.pearson, 3), shown(s.spearman, 3), `(${s.n})`]);
  }
  await wb.openView('gaps');
});

test('rankings, overall gap, data and paper tables render from the report', async () => {
  const report = cliReport(EXAMPLE);
  await wb.openView('overall');
  assert.match(await page.getByTestId('overall-line').innerText(), new RegExp(`MAE ${shown(report.macro.mae, 2)} versus ${shown(report.macro.baseline_mae, 2)}`));
  const overall = await wb.table('Overall capability');
  assert.equal(overall.rows[0][4], shown(report.macro.gap[0], 2));
  await wb.openView('rankings');
  assert.match(await page.getByTestId('rankings-chart').locator('svg > title').textContent(), new RegExp(`ρ = ${shown(report.rankings.spearman, 3)}`));
  await wb.openView('data');
  assert.equal((await wb.table('Profiles')).rows.length, 15);
  await wb.openView('paper');
  const t5 = await wb.table('Table 5');
  assert.deepEqual(t5.rows[0], ['GPT-5.6 Sol', '65.1', '68.34', '-3.24']);
  assert.match(await page.locator('[data-testid=view]').innerText(), /paper, partial tables/);
  await wb.openView('gaps');
});

test('column roles: ignoring a foundational column reruns the analysis without it', async () => {
  await wb.openView('data');
  await page.locator('details.roles summary').click();
  await page.locator('select[data-column="TU"]').selectOption('ignore');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary-sentence]')?.textContent.includes('6 foundational dimensions'));
  await wb.waitIdle();
  assert.match(await wb.summary.innerText(), /ignored: TU/);
  await wb.openView('gaps');
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), cliReport(EXAMPLE, '--foundational', 'IS,KU,CI,RE,SM,CE'));
  // The manifest's command carries the role override (issue 14 item 4, case c).
  {
    const { manifest, report } = await manifestAndReport();
    assert.match(manifest.command, / --foundational IS,KU,CI,RE,SM,CE /);
    // The example as built in, or as the file an earlier test dropped.
    assertManifestReproduces(manifest, report, { 'synthetic-example.csv': EXAMPLE });
  }
  // Loading a dataset again starts from the default roles.
  await page.getByTestId('load-example').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=summary-sentence]')?.textContent.includes('7 foundational dimensions'));
  await wb.waitIdle();
});

test('an exported JSON report, dropped back in, reproduces the view with its own settings', async () => {
  const exported = await wb.download(() => page.getByTestId('export-json').click());
  await wb.setSetting('alpha', '3');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary-detail]')?.textContent.includes('α = 3;'));
  await wb.waitIdle();
  await wb.fileInput.setInputFiles({ name: 'exported-report.json', mimeType: 'application/json', buffer: exported.bytes });
  await wb.waitForSource('exported-report.json');
  assert.equal(await page.getByTestId('alpha').inputValue(), '10');
  assert.match(await page.getByTestId('warnings').innerText(), /recomputed from its input with its settings: every number agrees/);
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), cliReport(EXAMPLE));
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
});

test('several profile files are joined on model and the join is reported', async () => {
  await wb.fileInput.setInputFiles([join(ROOT, 'tests/fixtures/split-foundational.csv'), join(ROOT, 'tests/fixtures/split-operations.csv')]);
  await wb.waitForSource('split-foundational.csv + split-operations.csv');
  assert.match(await wb.summary.innerText(), /7 models in 4 families, 3 foundational dimensions, 3 operations, reward .*\(joined on model from 2 files\)/);
  assert.match(await page.getByTestId('warnings').innerText(), /not in split-operations.csv: Gamma One/);
  const report = cliReport(join(ROOT, 'tests/fixtures/split-foundational.csv') + ',' + join(ROOT, 'tests/fixtures/split-operations.csv'));
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), report);
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
});

test('a foundational profile and labelled trajectories dropped together run the whole analysis', async () => {
  const files = [join(ROOT, 'tests/fixtures/foundational-small.csv'), join(ROOT, 'tests/fixtures/trajectories-small.jsonl')];
  await wb.fileInput.setInputFiles(files);
  await wb.waitForSource('foundational-small.csv + trajectories-small.jsonl');
  assert.match(await wb.summary.innerText(), /^4 models in 4 families, 2 foundational dimensions, 3 operations, reward/);
  assert.match(await page.getByTestId('warnings').innerText(), /trajectories-small.jsonl: 9 trajectories of 4 models; operation profile from the 8 on the 2 tasks every model attempted/);
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), cliReport(files.join(','), '--bootstrap', '10000'));
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
});

test('dropped files are hashed for the manifest: fetched whole (hashed by a second job once the analysis is shown) or streamed (hashed as read), the same digests and analysis', async () => {
  const files = [join(ROOT, 'tests/fixtures/foundational-small.csv'), join(ROOT, 'tests/fixtures/trajectories-small.jsonl')];
  const expected = files.map((f) => ({
    name: f.split('/').pop(), bytes: readFileSync(f).length, sha256: createHash('sha256').update(readFileSync(f)).digest('hex'),
  }));
  const run = async () => {
    await wb.fileInput.setInputFiles(files);
    await wb.waitForSource('foundational-small.csv + trajectories-small.jsonl');
    // The export waits (disabled) until the digests are in.
    const manifest = JSON.parse((await wb.download(() => page.getByTestId('export-manifest').click())).text);
    return { inputs: manifest.inputs, summary: await wb.summary.innerText(), streamed: Number(await page.getByTestId('pool').getAttribute('data-last-streamed-bytes')) };
  };
  const whole = await run();
  assert.deepEqual(whole.inputs, expected);
  assert.equal(whole.streamed, 0);
  // Every worker of the pool now streams files of any size.
  for (const w of page.workers()) await w.evaluate(() => { globalThis.__GAPSCOPE_PREFETCH_BYTES = 0; });
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
  const streamed = await run();
  assert.deepEqual(streamed.inputs, expected);
  assert.equal(streamed.streamed, expected[0].bytes + expected[1].bytes);
  assert.equal(streamed.summary, whole.summary);
  for (const w of page.workers()) await w.evaluate(() => { delete globalThis.__GAPSCOPE_PREFETCH_BYTES; });
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
});

test('trajectory files split by model, with a label file, form one corpus; pooled macro and renames equal the CLI', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-'));
  const lines = readFileSync(join(ROOT, 'tests/fixtures/trajectories-small.jsonl'), 'utf8').split('\n').filter(Boolean);
  const parts = ['A1', 'B1', 'C1', 'D1'].map((m) => {
    const path = join(dir, `${m}.jsonl`);
    writeFileSync(path, lines.filter((l) => JSON.parse(l).model === m).map((l) => `${l}\n`).join(''));
    return path;
  });
  const labels = join(dir, 'labels.csv');
  writeFileSync(labels, 'trajectory_id,operation,requirement,label\nt-001,GI,r1,0\nt-002,PL,r1,0.5\n');
  const foundational = join(ROOT, 'tests/fixtures/foundational-small.csv');
  await wb.fileInput.setInputFiles([foundational, ...parts, labels]);
  await wb.waitForSource('foundational-small.csv + A1.jsonl + B1.jsonl + C1.jsonl + D1.jsonl + labels.csv');
  const cli = (...extra) => cliReport(foundational, '--trajectories', parts.join(','), '--labels', labels, '--bootstrap', '10000', ...extra);
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), cli());
  assert.match(await page.getByTestId('warnings').innerText(), /labels.csv: 2 labels applied/);
  // The manifest's command names every file by its role (issue 14 item 4, case b).
  const sources = Object.fromEntries([foundational, ...parts, labels].map((p) => [p.split('/').pop(), p]));
  {
    const { manifest, report } = await manifestAndReport();
    assert.match(manifest.command, /^gapscope report --profiles foundational-small\.csv --trajectories A1\.jsonl --trajectories B1\.jsonl --trajectories C1\.jsonl --trajectories D1\.jsonl --labels labels\.csv /);
    assertManifestReproduces(manifest, report, sources);
  }
  // The pooled macro: the overall view shows the CLI's macro MAE, and the URL says pooled.
  await page.getByTestId('macro').selectOption('pooled');
  await wb.waitIdle();
  await wb.openView('overall');
  const pooled = cli('--macro', 'pooled');
  const overall = await wb.table('Overall');
  const a1 = overall.rows.find((r) => r[0] === 'A1');
  const i = pooled.models.indexOf('A1');
  assert.ok(a1.includes(shown(pooled.macro.observed[i], 1)), `A1 pooled macro ${pooled.macro.observed[i]} in ${a1}`);
  assert.match(page.url(), /[?&]macro=pooled/);
  // Merge B1's trajectories into A1 (as if the file metadata were wrong).
  await wb.openView('data');
  await page.getByTestId('renames').fill('B1=A1');
  await page.getByTestId('renames').press('Tab');
  await wb.waitIdle();
  await page.waitForFunction(() => /renamed \(B1 → A1\)/.test(document.querySelector('[data-testid=warnings]')?.textContent ?? ''));
  await wb.openView('gaps');
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), cli('--macro', 'pooled', '--rename', 'B1=A1'));
  // … and the macro definition and the rename (case c).
  {
    const { manifest, report } = await manifestAndReport();
    assert.match(manifest.command, / --macro pooled .*--rename B1=A1 /);
    assertManifestReproduces(manifest, report, sources);
  }
  await page.getByTestId('macro').selectOption('mean');
  await wb.waitIdle();
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
});

// ---- Trajectories (issue 5) ----

test('several real τ²-bench files and a label file: summary, profile, list, and an unmatched gold action', async () => {
  const dir = join(ROOT, '../shared/data/tau2/airline/results');
  const files = ['gpt-4.1__llm_agent__airline_test20_1trial.json', 'claude-sonnet-4-5__aide-platform__airline_1trial.json']
    .map((f) => join(dir, f));
  for (const f of files) assert.ok(existsSync(f), `${f} (the tests need ../shared)`);
  // A label file for two of the simulations (ids read from the files).
  const sims = files.map((f) => JSON.parse(readFileSync(f, 'utf8')).simulations[0].id);
  const tmp = mkdtempSync(join(tmpdir(), 'gapscope-'));
  const labels = join(tmp, 'labels.csv');
  writeFileSync(labels, `trajectory_id,operation,requirement,label\n${sims[0]},PL,r1,1\n${sims[1]},PL,r1,0.5\n`);
  await wb.fileInput.setInputFiles([...files, labels]);
  await wb.openView('trajectories');
  await page.getByTestId('overview-summary').waitFor({ timeout: 30_000 });
  const profile = JSON.parse(execFileSync(CLI, ['profiles', '--trajectories', files.join(','), '--labels', labels, '--json'], { encoding: 'utf8' }));
  const total = profile.n_total;
  assert.match(await page.getByTestId('overview-summary').innerText(), new RegExp(`^${total} trajectories of 2 models on \\d+ tasks; 2 labelled\\.$`));
  assert.match(await page.getByTestId('overview-notes').innerText(), /labels.csv: 2 labels applied/);
  // The profile table equals the CLI's profile (reward per model).
  const t = await wb.table('Operation profile from the trajectories');
  for (const [i, m] of profile.models.entries()) {
    const row = t.rows.find((r) => r[0] === m);
    assert.ok(row, `row for ${m}`);
    assert.equal(row.at(-2), shown(profile.reward[i], 1), `${m} reward`);
  }
  // Without a foundational profile: no error; the realization views say
  // what they need (tests/e2e/runs.test.mjs reads them).
  assert.equal(await wb.error.count(), 0, 'trajectories alone are not an error');
  assert.match(await page.getByTestId('trajectory-summary').innerText(), new RegExp(`: ${total} trajectories of 2 models`));
  // Filter to trajectories that missed a gold action; open the first.
  assert.equal(await page.getByTestId('trajectory-count').innerText(), `${total} of ${total} trajectories`);
  await page.getByTestId('filter-gold').check();
  const missed = Number((await page.getByTestId('trajectory-count').innerText()).split(' ')[0]);
  assert.ok(missed > 0 && missed < total, `${missed} with missed gold actions`);
  const first = page.locator('[data-testid=trajectory-list] tbody tr').first();
  await first.focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('trajectory-viewer').waitFor();
  const unmatched = page.getByTestId('gold-unmatched');
  assert.ok(await unmatched.count() > 0, 'the viewer highlights the gold actions not performed');
  assert.match(await unmatched.first().innerText(), /^✗ not performed: \w+\(/);
  assert.ok(await page.locator('[data-testid=messages] li').count() > 2, 'the conversation is shown');
  // Keyboard: ArrowDown moves to the next row, Enter opens it.
  const id0 = await page.getByTestId('trajectory-viewer').getAttribute('data-id');
  await first.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => document.querySelector('[data-testid=trajectory-viewer]')?.dataset.id !== id, id0);
  await page.screenshot({ path: join(ARTIFACTS, 'trajectories.png'), fullPage: true });
});

test('proxy labels for τ²-bench files: the button adds the CLI\'s label file, and the profile uses it', async () => {
  const dir = join(ROOT, '../shared/data/tau2/airline/results');
  const names = ['gpt-4.1__llm_agent__airline_test20_1trial.json', 'claude-sonnet-4-5__aide-platform__airline_1trial.json'];
  const files = names.map((f) => join(dir, f));
  for (const f of files) assert.ok(existsSync(f), `${f} (the tests need ../shared)`);
  await wb.fileInput.setInputFiles(files);
  await wb.openView('trajectories');
  await page.getByTestId('overview-summary').waitFor({ timeout: 30_000 });
  assert.equal(await page.getByTestId('overview-summary').innerText(), '70 trajectories of 2 models on 50 tasks; 0 labelled.');
  await page.getByTestId('derive-proxy-labels').click();
  await page.getByTestId('proxy-note').waitFor({ timeout: 30_000 });
  // The label file equals `gapscope evidence tau2-labels` of the same files.
  const cliCsv = execFileSync(CLI, ['evidence', 'tau2-labels', ...names], { cwd: dir, encoding: 'utf8' });
  const downloaded = await wb.download(() => page.getByTestId('proxy-download').click());
  assert.equal(downloaded.name, 'proxy-labels.csv');
  assert.equal(downloaded.text, cliCsv);
  const rows = cliCsv.trim().split('\n').length - 1;
  assert.equal(await page.getByTestId('proxy-note').innerText(),
    `proxy-labels.csv: ${rows} labels from ${names.join(', ')}; the operation profile below uses them.`);
  // The source now includes the labels: the profile equals the CLI's with them.
  const tmp = mkdtempSync(join(tmpdir(), 'gapscope-'));
  writeFileSync(join(tmp, 'proxy-labels.csv'), cliCsv);
  const profile = JSON.parse(execFileSync(CLI, ['profiles', '--trajectories', names.join(','), '--labels', join(tmp, 'proxy-labels.csv'), '--json'], { cwd: dir, encoding: 'utf8' }));
  await page.waitForFunction(() => / [1-9][0-9]* labelled\.$/.test(document.querySelector('[data-testid=overview-summary]')?.textContent ?? ''), null, { timeout: 30_000 });
  const t = await wb.table('Operation profile from the trajectories');
  assert.deepEqual(t.rows.map((r) => r[0]), profile.models);
  for (const [i, m] of profile.models.entries()) {
    const row = t.rows.find((r) => r[0] === m);
    for (const [k, op] of profile.operations.entries()) {
      assert.equal(row[t.headers.indexOf(op)], shown(profile.scores[i][k], 1), `${m} ${op}`);
      assert.equal(row[t.headers.indexOf(`n ${op}`)], String(profile.eligible[i][k]), `${m} n ${op}`);
    }
  }
  // The list's filter controls show the filter in force (it outlives a
  // change of files: the earlier test left "missed gold actions" on).
  const [shownRows, allRows] = (await page.getByTestId('trajectory-count').innerText()).match(/^(\d+) of (\d+)/).slice(1).map(Number);
  assert.equal(await page.getByTestId('filter-gold').isChecked(), shownRows < allRows, `${shownRows} of ${allRows} listed`);
  assert.equal(await page.getByTestId('filter-tool-errors').isChecked(), false);
  await page.screenshot({ path: join(ARTIFACTS, 'proxy-labels.png'), fullPage: true });
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
});

test('derived proxy labels: the manifest\'s command derives them itself and gives the page\'s report', async () => {
  // Test data: a made-up foundational profile for four models of the shared
  // airline results (issue 14 item 4, case d).
  const dir = join(ROOT, '../shared/data/tau2/airline/results');
  const names = ['claude-sonnet-4-5__aide-platform__airline_1trial.json', 'gpt-4.1__llm_agent__airline_test20_1trial.json',
    'gpt-oss-120b__langchain-agent__airline_1trial.json', 'toolorchestra__airline_1trial_trimmed.json'];
  const files = names.map((f) => join(dir, f));
  for (const f of files) assert.ok(existsSync(f), `${f} (the tests need ../shared)`);
  const tmp = mkdtempSync(join(tmpdir(), 'gapscope-'));
  const foundational = join(tmp, 'foundational-airline.csv');
  writeFileSync(foundational, 'model,family,TU,RE\nclaude-sonnet-4-5,Anthropic,71,64\ngpt-4.1,OpenAI,62,55\nopenai/gpt-oss-120b,OpenAI-open,58,61\ngpt-4.1-mini-2025-04-14,OpenAI-mini,49,47\n');
  await wb.fileInput.setInputFiles([foundational, ...files]);
  await wb.openView('trajectories');
  await page.getByTestId('overview-summary').waitFor({ timeout: 30_000 });
  await page.getByTestId('derive-proxy-labels').click();
  await page.getByTestId('proxy-note').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => / [1-9][0-9]* labelled\.$/.test(document.querySelector('[data-testid=overview-summary]')?.textContent ?? ''), null, { timeout: 30_000 });
  await wb.waitIdle();
  const { manifest, report } = await manifestAndReport();
  assert.match(manifest.command, new RegExp(`^gapscope evidence tau2-labels ${names.map((n) => n.replace(/[.]/g, '\\.')).join(' ')} > proxy-labels\\.csv && gapscope report --profiles foundational-airline\\.csv( --trajectories \\S+){4} --labels proxy-labels\\.csv `));
  assert.ok(Object.keys(report.operations).length > 0, 'the proxy labels give operations');
  assertManifestReproduces(manifest, report, { 'foundational-airline.csv': foundational, ...Object.fromEntries(names.map((n, i) => [n, files[i]])) });
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
});

test('the synthetic corpus: a gap cell leads to that model\'s trajectories, and the stability table equals the CLI', async () => {
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
  await wb.openView('trajectories');
  await page.getByTestId('load-corpus').click();
  await wb.waitForSource('synthetic trajectories');
  assert.equal(await wb.syntheticBadge.innerText(), 'SYNTHETIC TRAJECTORIES');
  await page.getByTestId('overview-summary').waitFor({ timeout: 30_000 });
  assert.equal(await page.getByTestId('overview-summary').innerText(), '900 trajectories of 15 models on 60 tasks in 12 scenario groups; 900 labelled.');
  // From the gap heatmap to the trajectories behind a cell.
  await wb.openView('gaps');
  await wb.gapHeatmap.locator('td.cell[data-col="PL"]').first().click();
  const model = await wb.gapHeatmap.locator('td.cell[data-col="PL"]').first().getAttribute('data-row');
  await page.getByTestId('to-trajectories').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=view]')?.dataset.view === 'trajectories');
  assert.equal(await page.getByTestId('trajectory-count').innerText(), '60 of 900 trajectories');
  const list = await wb.table('Trajectories');
  assert.ok(list.rows.every((r) => r[1] === model), `only ${model}`);
  const pl = list.headers.indexOf('PL');
  const scores = list.rows.map((r) => (r[pl] === '—' ? Infinity : Number(r[pl])));
  assert.ok(scores.every((v, i) => i === 0 || scores[i - 1] <= v), 'lowest PL first');
  await page.locator('[data-testid=trajectory-list] tbody tr').first().click();
  await page.getByTestId('trajectory-viewer').waitFor();
  assert.match(await page.getByTestId('viewer-labels').innerText(), /PL \[/);
  // Every model: all 900 listed (no cap), in a box that draws a window of
  // rows; scrolled through, the windows hold every trajectory of the file.
  await page.getByTestId('filter-model').selectOption('');
  assert.equal(await page.getByTestId('trajectory-count').innerText(), '900 of 900 trajectories');
  const box = page.locator('.table-box', { has: page.getByTestId('trajectory-list') });
  assert.ok(await page.locator('[data-testid=trajectory-list] tbody tr[data-id]').count() < 900, 'a window of rows is drawn');
  const seen = new Set();
  for (let top = 0; ; ) {
    const ids = await page.locator('[data-testid=trajectory-list] tbody tr[data-id]').evaluateAll((trs) => trs.map((tr) => tr.dataset.id));
    ids.forEach((id) => seen.add(id));
    const [h, all] = await box.evaluate((el) => [el.clientHeight, el.scrollHeight]);
    if (top + h >= all) break;
    top += h;
    await box.evaluate((el, t) => { el.scrollTop = t; }, top);
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  }
  const fileIds = readFileSync(join(ROOT, 'assets/synthetic-trajectories/trajectories.jsonl'), 'utf8')
    .trim().split('\n').map((l) => JSON.parse(l).id);
  assert.deepEqual([...seen].sort(), [...fileIds].sort(), 'scrolling the list reaches every trajectory');
  // Stability: equal to `gapscope stability` on the same files and seed.
  await wb.openView('stability');
  await page.locator('table.data[data-title^="Cross-task stability"]').waitFor({ timeout: 60_000 });
  const corpus = join(ROOT, 'assets/synthetic-trajectories');
  const cli = JSON.parse(execFileSync(CLI, ['stability', '--profiles', join(corpus, 'foundational.csv'),
    '--trajectories', join(corpus, 'trajectories.jsonl'), '--json'], { encoding: 'utf8' }));
  const st = await wb.table('Cross-task stability');
  assert.deepEqual(st.rows.map((r) => r[0]), Object.keys(cli.stability));
  for (const r of st.rows) {
    assert.equal(r[1], shown(cli.stability[r[0]].rho, 2), `${r[0]} rho`);
  }
  assert.equal(await page.getByTestId('stability-halves').innerText().then((t) => t.startsWith(`Half A: ${cli.half_a.join(', ')}.`)), true);
  await page.getByTestId('stability-scatter').waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'stability.png'), fullPage: true });
  // Teaching: planted vs recovered gaps, and recovery growing with the number of models.
  await wb.openView('teaching');
  await page.getByTestId('planted-scatter').waitFor();
  assert.match(await page.getByTestId('planted-scatter').innerText(), /macro: planted vs recovered gap \(Spearman 0\.\d\d\)/);
  await page.getByTestId('run-recovery').click();
  await page.locator('table.data[data-title^="Recovery of planted gaps"]').waitFor({ timeout: 180_000 });
  const rec = await wb.table('Recovery of planted gaps');
  assert.deepEqual(rec.rows.map((r) => r[0]), ['15', '50', '200']);
  const macro = rec.rows.map((r) => Number(r[3]));
  assert.ok(macro[0] < macro[1] && macro[1] < macro[2], `recovery grows: ${macro}`);
  assert.ok(macro[2] >= 0.9, `200 models: ${macro[2]}`);
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
  await wb.openView('gaps');
});

// ---- Evidence to action (issue 6) and runtime contracts (issue 7) ----

test('evidence to action: the worked set\'s ECS equals the CLI; a failure bar leads to its episodes and a replay with the ledger', async () => {
  await page.click('nav.areas button[data-area=evidence]');
  await page.locator('table.data[data-title^="ECS per protocol"]').waitFor({ timeout: 60_000 });
  assert.match(page.url(), /[?&]area=evidence/);
  assert.equal(await page.getByTestId('worked-badge').innerText(), 'WORKED CASE SET');
  const cli = JSON.parse(execFileSync(CLI, ['evidence', 'score', '--cases', join(ROOT, 'assets/evidence/cases.jsonl'),
    '--trajectories', join(ROOT, 'assets/evidence/trajectories.jsonl'), '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const t = await wb.table('ECS per protocol');
  for (const [k, c] of cli.ecs.entries()) {
    const col = 1 + 3 * k;
    assert.equal(t.headers[col], `${c.config} ECS %`);
    const overall = t.rows.find((r) => r[0] === 'Overall');
    assert.equal(overall[col], shown(100 * c.summary.overall.mean, 1), `${c.config} overall ECS`);
    for (const [p, m] of Object.entries(c.summary.by_protocol)) {
      const row = t.rows.find((r) => r[0] === p);
      assert.equal(row[col], shown(m.mean === null ? null : 100 * m.mean, 1), `${c.config} ${p}`);
    }
  }
  // A failure bar: its segment lists exactly the CLI's episode ids for it.
  await page.click('[data-testid=evidence-nav] button[data-view=failures]');
  const bar = cli.failures.find((b) => b.segments.some((s) => s.count > 0));
  const seg = bar.segments.find((s) => s.count > 0);
  await page.locator(`[data-testid=failure-chart] [data-config="${bar.config}"][data-protocol="${bar.protocol}"][data-failure="${seg.failure}"]`).first().click();
  await page.getByTestId('evidence-episodes').waitFor();
  const ids = await page.locator('[data-testid=evidence-episodes] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.id));
  assert.deepEqual(ids.sort(), [...seg.episode_ids].sort());
  // Open the first: the replay shows its verdict and its ledger.
  await page.locator('[data-testid=evidence-episodes] tbody tr').first().click();
  await page.getByTestId('evidence-replay').waitFor();
  const ep = cli.episodes.find((e) => e.trajectory_id === ids[0]);
  assert.equal(await page.getByTestId('evidence-replay').getAttribute('data-outcome'), ep.failure);
  assert.match(await page.getByTestId('evidence-verdict').innerText(), new RegExp(ep.failure));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=replay-steps] .text').length > 0);
  assert.ok(await page.locator('[data-testid=ledger-events] .event').count() > 0, 'ledger events are shown at their steps');
  assert.ok(await page.locator('[data-testid=ledger-events] .event.red').count() > 0, 'the failing action is marked');
  await page.screenshot({ path: join(ARTIFACTS, 'evidence.png'), fullPage: true });
});

test('runtime contracts: the simulator\'s 2×2 tables equal the CLI; the stepper shows a cap cutting a block', async () => {
  await page.click('nav.areas button[data-area=runtime]');
  await page.locator('table.data[data-title^="Cap 20: 2×2"]').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('simulated-badge').innerText(), 'TEACHING SIMULATOR');
  const log = execFileSync(CLI, ['runtime', 'simulate'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-'));
  writeFileSync(join(dir, 'episodes.jsonl'), log);
  const cli = JSON.parse(execFileSync(CLI, ['runtime', 'analyze', '--episodes', join(dir, 'episodes.jsonl'), '--json', '--no-episodes'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const slice = cli.slices[0];
  for (const table of slice.tables) {
    const t = await wb.table(`Cap ${table.cap}: 2×2`);
    for (const c of table.cells) {
      const label = { PP: 'P→P', PS: 'P→S', SP: 'S→P', SS: 'S→S' }[c.condition];
      const row = t.rows.find((r) => r[0] === `Q ${label}` || r[0] === `Q ${c.condition[0]}->${c.condition[1]}`);
      assert.ok(row, `row Q ${label} in ${t.rows.map((r) => r[0])}`);
      assert.equal(row[2], shown(c.q.value, 3), `cap ${table.cap} ${c.condition}`);
    }
  }
  // Every page of the part: the sweep chart, the trace metrics, the verification.
  await page.click('[data-testid=runtime-nav] button[data-view=sweep]');
  await page.getByTestId('sweep-chart').waitFor();
  await page.click('[data-testid=runtime-nav] button[data-view=trace]');
  assert.ok(await page.locator('[data-testid=view] table.data').count() >= 2, 'trace and exposure tables');
  await page.click('[data-testid=runtime-nav] button[data-view=verification]');
  assert.match(await page.getByTestId("verification-summary").innerText(), /^128 opaque_knapsack episode\(s\) with an instance: 128 verified, 128 agree .*, 0 disagree, 0 flagged;.* anti-collapse holds on 8 of 8 instances$/);
  // Step through a P→S episode at cap 5 until the cap cuts a block.
  await page.click('[data-testid=runtime-nav] button[data-view=episodes]');
  await page.getByTestId('runtime-episodes').waitFor();
  const k = await page.locator('[data-testid=runtime-episodes] tbody tr').evaluateAll((trs) =>
    trs.findIndex((tr) => tr.children[2].textContent === 'P→S' && tr.children[3].textContent === '5'));
  assert.ok(k >= 0, 'a P→S episode at cap 5');
  await page.locator('[data-testid=runtime-episodes] tbody tr').nth(k).click();
  await page.getByTestId('runtime-stepper').waitFor();
  for (let i = 0; i < 30 && (await page.getByTestId('turn').getAttribute('data-cap-hit')) !== 'true'; i++) {
    await page.getByTestId('turn-next').click();
  }
  assert.equal(await page.getByTestId('turn').getAttribute('data-cap-hit'), 'true', 'a turn where the cap cut the block');
  assert.ok(await page.locator('[data-testid=turn] .calls li.cut').count() > 0, 'the cut calls are marked');
  // The next turns run after a reset: the persistent-trained policy meets a NameError.
  for (let i = 0; i < 30 && (await page.getByTestId('turn').getAttribute('data-name-error')) !== 'true'; i++) {
    await page.getByTestId('turn-next').click();
  }
  assert.equal(await page.getByTestId('turn').getAttribute('data-name-error'), 'true', 'a NameError after the reset');
  assert.match(await page.getByTestId('turn-index').innerText(), /turn ([2-9]|\d\d+) of \d+/);
  await page.screenshot({ path: join(ARTIFACTS, 'runtime.png'), fullPage: true });
  await page.click('nav.areas button[data-area=gaps]');
  await wb.waitIdle();
});

test('a loaded file survives a reload, and one click forgets it', async () => {
  await wb.pickFile(SMALL);
  await wb.waitForSource('profiles-small.csv');
  assert.match(await page.getByTestId('kept').innerText(), /profiles-small.csv is kept in this browser's storage \(never uploaded\)/);
  await page.reload();
  await wb.waitForSource('profiles-small.csv');
  assert.match(await page.getByTestId('kept').innerText(), /restored from this browser's storage/);
  assertHeatmapMatchesReport(await wb.cells(wb.gapHeatmap), cliReport(SMALL));
  await page.getByTestId('forget').click();
  await wb.waitForSource('synthetic example');
  assert.equal(await page.evaluate(() => localStorage.getItem('gapscope.file')), null, 'nothing kept');
  await page.reload();
  await wb.waitForSource('synthetic example');
});

test('the manifest names the input by SHA-256 with the settings, and the theme switches', async () => {
  const manifest = JSON.parse((await wb.download(() => page.getByTestId('export-manifest').click())).text);
  const sha = createHash('sha256').update(readFileSync(EXAMPLE)).digest('hex');
  assert.deepEqual(manifest.inputs, [{ name: 'synthetic example', bytes: readFileSync(EXAMPLE).length, sha256: sha }]);
  assert.equal(manifest.settings.seed, 0);
  assert.equal(manifest.settings.bootstrap, 10000);
  // The embedded example is written by the command that makes it, and the
  // command gives the page's report (issue 14 item 4, case a).
  assert.match(manifest.command, /^gapscope synth > synthetic-example\.csv && gapscope report --profiles synthetic-example\.csv --alpha 10 --bootstrap 10000 --seed 0 --grid 0\.01 10000 25 --json$/);
  const report = JSON.parse((await wb.download(() => page.getByTestId('export-json').click())).text);
  assertManifestReproduces(manifest, report);
  await page.getByTestId('theme').selectOption('dark');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(20, 22, 27)');
  await page.screenshot({ path: join(ARTIFACTS, 'dark.png'), fullPage: true });
  await page.getByTestId('theme').selectOption('light');
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(245, 246, 248)');
});

test('readable in a narrow window: no sideways scrolling of the page at 400 px', async () => {
  await page.setViewportSize({ width: 400, height: 800 });
  await wb.openView('gaps');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 400, 'the page fits; wide tables scroll inside their panels');
  await page.setViewportSize({ width: 1280, height: 1000 });
});

// Last: covers the whole visit (load, import, analyses, exports, reload).
test('no console errors and no request to any other origin', () => {
  assert.deepEqual(consoleErrors, []);
  const origin = new URL(server.url).origin;
  const foreign = requests.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:') && new URL(u).origin !== origin);
  assert.deepEqual(foreign, []);
  assert.ok(requests.some((u) => u.endsWith('.wasm')), 'the page loaded its wasm from its own origin');
});
