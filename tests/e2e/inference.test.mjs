// How sure each number is (issue 19), browser against native: the page's
// "Compute intervals and tests" runs the inference in the files worker; its
// JSON download, and the report's export then, equal `gapscope report --json
// --inference` (same files and settings) under `inference`, number by number
// (the determinism walk); the
// gap heatmap marks exactly the gaps whose interval (from the CLI) excludes
// 0, and the hover card shows the interval; the Association, Predictability
// and Penalty views show their panels; the Association heatmap marks the
// BH-significant correlations (adjusted p-values, permutation
// tests, operation curves, nested selection) with the CLI's numbers.
// Needs `trunk build --release` and `cargo build --release -p gapscope-cli`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { basename, dirname, join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch, record } from './support/browser.mjs';
import { CLI, PAGE, RELEASE_CLI, ROOT, need } from './support/needs.mjs';
import { shown } from './support/format.mjs';
import { differences } from './support/json.mjs';

need(PAGE, RELEASE_CLI);

const FILES = [join(ROOT, 'tests/fixtures/foundational-small.csv'), join(ROOT, 'tests/fixtures/trajectories-small.jsonl')];
const SOURCE = 'foundational-small.csv + trajectories-small.jsonl';
const SETTINGS = { alpha: '0.5', bootstrap: '2000', seed: '11' };
const ARGS = ['--alpha', '0.5', '--bootstrap', '2000', '--seed', '11'];

let server;
let context;
let page;
let wb;
let rec;
let native;

before(async () => {
  server = await startServer(join(ROOT, 'dist'));
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
  const run = spawnSync(CLI, ['report', '--profiles', FILES.map((f) => basename(f)).join(','), '--json', '--inference', ...ARGS],
    { cwd: dirname(FILES[0]), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(run.status, 0, run.stderr);
  native = JSON.parse(run.stdout);
  for (const [k, v] of Object.entries(SETTINGS)) await wb.setSetting(k, v);
  await wb.waitIdle();
  await wb.fileInput.setInputFiles(FILES);
  await wb.waitForSource(SOURCE);
});

after(async () => {
  await context?.close();
  await server?.close();
});

test('asked for in the Realization gaps view, the inference equals the CLI\'s, number by number', async () => {
  await wb.openView('gaps');
  const section = page.locator('[data-testid=inference][data-view=gaps]');
  await section.getByTestId('run-inference').click();
  await section.getByTestId('export-inference').waitFor({ timeout: 60_000 });
  const text = (await wb.download(() => section.getByTestId('export-inference').click())).text;
  const diffs = differences(JSON.parse(text), native.inference);
  assert.deepEqual(diffs, [], `${diffs.length} differences`);
  assert.ok(native.inference.gap_intervals, 'the trajectories give gap intervals');
  // "Export report (JSON)" now carries it too, as the CLI's last key.
  const exported = JSON.parse((await wb.download(() => page.getByTestId('export-json').click())).text);
  assert.deepEqual(Object.keys(exported), Object.keys(native));
  assert.deepEqual(differences(exported.inference, native.inference), []);
  assert.deepEqual(differences(exported.operations, native.operations), []);
});

test('the heatmap marks exactly the gaps whose interval excludes 0, and the hover card shows the interval', async () => {
  const ops = Object.keys(native.operations);
  const cells = await wb.cells(wb.gapHeatmap);
  let marked = 0;
  let unmarked = 0;
  for (const [i, model] of native.models.entries()) {
    for (const op of ops) {
      const interval = native.inference.gap_intervals.operations[op][i];
      const cell = cells.find((c) => c.row === model && c.col === op);
      assert.ok(cell, `a cell for ${model} · ${op}`);
      // gapscope_view::heatmap::excludes_zero: a bound within 1e-9 (relative) of 0 is 0.
      const tol = interval && 1e-9 * Math.max(1, Math.abs(interval[0]), Math.abs(interval[1]));
      const excludes = interval !== null && (interval[0] > tol || interval[1] < -tol);
      assert.equal(cell.text.endsWith('*'), excludes, `${model} · ${op}: ${cell.text} with interval ${JSON.stringify(interval)}`);
      if (excludes) marked += 1; else unmarked += 1;
    }
  }
  assert.ok(marked > 0 && unmarked > 0, `both kinds occur (${marked} marked, ${unmarked} not)`);
  await page.getByTestId('gap-marks').waitFor();
  const [model, op] = [native.models[0], ops[0]];
  const [lo, hi] = native.inference.gap_intervals.operations[op][0];
  const hover = await wb.hoverCell(wb.gapHeatmap, model, op);
  assert.ok(hover.includes(`95% interval (trajectories resampled) [${shown(lo, 2)}, ${shown(hi, 2)}]`), hover);
});

test('each view shows its panels with the CLI\'s numbers', async () => {
  const inf = native.inference;
  await wb.openView('association');
  const corr = await wb.table('Correlation significance');
  const f = native.dimensions.foundational;
  const o = native.dimensions.operations;
  assert.equal(corr.rows.length, f.length * o.length);
  // The first cell's Holm-adjusted Pearson p, as shown (4 decimals).
  const holm = inf.correlations.pearson.holm[0][0];
  assert.equal(corr.rows[0][6], holm === null ? '—' : shown(holm, 4));

  await wb.openView('predictability');
  const sig = await wb.table('Held-out Q² against chance');
  const op0 = Object.keys(native.operations)[0];
  assert.deepEqual(sig.rows[0].slice(0, 2), [op0, 'F']);
  assert.equal(sig.rows[0][3], shown(inf.permutations.operations[op0].p, 4));
  await wb.table('Standardized ridge coefficients');

  await wb.openView('penalty');
  const charts = page.locator('[data-testid=inference][data-view=penalty] [data-testid=inference-panel] svg');
  assert.equal(await charts.count(), 2, 'operation Q² and MAE against α');
  const nested = await wb.table('Nested selection: α chosen by inner');
  assert.equal(nested.rows.length, inf.penalty.nested.reward.length + Object.keys(inf.penalty.nested.operations).length);
  const csv = await wb.exportTable('Nested selection: α chosen by inner', 'csv');
  assert.match(csv.name, /nested-selection\.csv$/);
  assert.deepEqual(rec.consoleErrors, []);
});

test('the Association heatmap marks the correlations significant after BH, Pearson\'s and Spearman\'s, as the CLI\'s adjusted p-values say', async () => {
  await wb.openView('association');
  await page.getByTestId('correlation-marks').waitFor();
  for (const kind of ['pearson', 'spearman']) {
    if (kind === 'spearman') await wb.chooseCorrelation('Spearman');
    const bh = native.inference.correlations[kind].bh;
    const cells = await wb.corrHeatmap.locator('td.cell').evaluateAll((tds) => tds.map((td) => ({
      r: Number(td.dataset.r), c: Number(td.dataset.c), text: td.textContent,
    })));
    const want = cells.map((c) => (bh[c.r][c.c] ?? 1) < 0.05);
    assert.deepEqual(cells.map((c) => c.text.endsWith('*')), want, kind);
    // On this 6-model fixture no correlation survives BH (the marking of
    // a significant cell is tested in gapscope-view's heatmap tests); the
    // hover cards carry every cell's p-values.
    assert.ok(cells.length > 0);
  }
  await wb.chooseCorrelation('Pearson');
});

test('another analysis clears the inference (its numbers would be stale)', async () => {
  await wb.openView('gaps');
  await wb.setSetting('seed', '12');
  await page.waitForFunction(() => /seed 12\./.test(document.querySelector('[data-testid=summary-detail]')?.textContent ?? ''));
  await wb.waitIdle();
  const section = page.locator('[data-testid=inference][data-view=gaps]');
  await section.getByTestId('run-inference').waitFor();
  const cells = await wb.cells(wb.gapHeatmap);
  assert.ok(cells.every((c) => !c.text.endsWith('*')), 'no marks without an inference');
});

test('the permutation counts are the page\'s to set: 300 and 50 give `--permutations 300 --delta-permutations 50`\'s numbers', async () => {
  await wb.setSetting('seed', '11');
  await page.waitForFunction(() => /seed 11\./.test(document.querySelector('[data-testid=summary-detail]')?.textContent ?? ''));
  await wb.waitIdle();
  await wb.openView('gaps');
  const section = page.locator('[data-testid=inference][data-view=gaps]');
  for (const [id, v] of [['permutations', '300'], ['delta-permutations', '50']]) {
    await section.getByTestId(id).fill(v);
    await section.getByTestId(id).press('Tab');
  }
  // A text that is not a count puts the field back.
  await section.getByTestId('permutations').fill('-3');
  await section.getByTestId('permutations').press('Tab');
  assert.equal(await section.getByTestId('permutations').inputValue(), '300');
  assert.match(await section.innerText(), /300 permutations per target, 50 for ΔQ²/);
  await section.getByTestId('run-inference').click();
  await section.getByTestId('export-inference').waitFor({ timeout: 60_000 });
  const text = (await wb.download(() => section.getByTestId('export-inference').click())).text;
  const run = spawnSync(CLI, ['report', '--profiles', FILES.map((f) => basename(f)).join(','), '--json', '--inference',
    ...ARGS, '--permutations', '300', '--delta-permutations', '50'], { cwd: dirname(FILES[0]), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(run.status, 0, run.stderr);
  const want = JSON.parse(run.stdout).inference;
  assert.deepEqual(differences(JSON.parse(text), want), []);
  assert.notDeepEqual(differences(want, native.inference), [], 'the counts change the p-values');
});
