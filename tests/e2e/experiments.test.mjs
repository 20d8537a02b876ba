// The Experiments view (issue 19: interventions and continuations), browser
// against native: "Open the synthetic experiments" opens the seeded corpus
// as a file; the view's JSON downloads are byte for byte `gapscope
// interventions --json` and `gapscope continuations --json` on the same
// corpus with the page's B and seed; the tables show the CLI's numbers; a
// reward change opens its edited run beside the original branch; the
// planted repeated violations (synth-d at state-2) are the row marked
// repeated, and it lists its continuations, the violating step marked.
// Cross-task stability takes the page's B and seed (issue 19).
// Needs `trunk build --release` and `cargo build --release -p gapscope-cli`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch, record } from './support/browser.mjs';
import { ARTIFACTS, CLI, PAGE, RELEASE_CLI, ROOT, need } from './support/needs.mjs';
import { shown } from './support/format.mjs';

need(PAGE, RELEASE_CLI);

const SETTINGS = { bootstrap: '2000', seed: '5' };
const ARGS = ['--bootstrap', '2000', '--seed', '5'];

let server;
let context;
let page;
let wb;
let rec;
let dir;
const native = {};

function cli(args) {
  const run = spawnSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gapscope-experiments-'));
  cli(['synth-experiments', '--out', dir]);
  const file = join(dir, 'experiments.jsonl');
  native.interventions = cli(['interventions', '--trajectories', file, '--json', ...ARGS]);
  native.continuations = cli(['continuations', '--trajectories', file, '--json']);
  server = await startServer(join(ROOT, 'dist'));
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
  for (const [k, v] of Object.entries(SETTINGS)) await wb.setSetting(k, v);
  await wb.waitIdle();
  await wb.openView('experiments');
  await page.getByTestId('load-experiments').click();
  await page.getByTestId('export-interventions').waitFor({ timeout: 60_000 });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the synthetic experiments open as a file, and the view\'s JSON is the CLI\'s, byte for byte', async () => {
  assert.equal(await wb.source(), 'synthetic-experiments.jsonl');
  const i = await wb.download(() => page.getByTestId('export-interventions').click());
  assert.equal(i.text, native.interventions);
  const c = await wb.download(() => page.getByTestId('export-continuations').click());
  assert.equal(c.text, native.continuations);
});

test('the contrast tables show the CLI\'s rows: mean, non-zero share, interval or descriptive', async () => {
  const n = JSON.parse(native.interventions);
  for (const [title, rows, offset] of [['Contrasts by model and intervention', n.by_intervention, 0],
    ['Contrasts by model, intervention and stratum', n.by_stratum, 1]]) {
    const t = await wb.table(title);
    assert.equal(t.rows.length, rows.length, title);
    rows.forEach((r, k) => {
      const row = t.rows[k];
      assert.deepEqual(row.slice(0, 2), [r.model, r.intervention]);
      assert.equal(row[2 + offset], r.measure);
      assert.equal(row[3 + offset], { edited_original: 'edited − original', control_original: 'control − original', edited_control: 'edited − control' }[r.contrast]);
      assert.deepEqual(row.slice(4 + offset, 6 + offset), [String(r.cases), String(r.tasks)]);
      assert.equal(row[6 + offset], shown(r.mean, 2), `${title} row ${k}`);
      assert.equal(row[7 + offset], shown(100 * r.nonzero, 0));
      assert.equal(row[8 + offset], r.descriptive ? 'descriptive' : 'interval');
      assert.equal(row[9 + offset], r.interval ? `[${shown(r.interval.lo, 2)}, ${shown(r.interval.hi, 2)}]` : '—');
    });
  }
  // The planted repair effect: synth-a's reward contrast excludes 0.
  const planted = n.by_intervention.find((r) => r.model === 'synth-a' && r.intervention === 'planning_repair'
    && r.measure === 'reward' && r.contrast === 'edited_original');
  assert.ok(planted.interval.lo > 0, JSON.stringify(planted));
});

test('a reward change opens its edited run beside the original branch', async () => {
  const n = JSON.parse(native.interventions);
  const changes = page.getByTestId('reward-changes');
  const rows = await changes.locator('tbody tr[data-row]').count();
  assert.ok(rows > 0);
  const k = 3;
  await changes.locator(`tbody tr[data-row="${k}"]`).click();
  const pair = page.getByTestId('change-side-by-side');
  await pair.getByTestId('edited-run').waitFor({ timeout: 30_000 });
  await pair.getByTestId('original-run').waitFor({ timeout: 30_000 });
  assert.equal(await pair.getByTestId('edited-run').getAttribute('data-id'), n.reward_changes[k].trajectory);
  assert.equal(await pair.getByTestId('original-run').getAttribute('data-id'), n.reward_changes[k].original[0]);
  const edited = await pair.getByTestId('edited-run').innerText();
  assert.match(edited, new RegExp(`reward ${n.reward_changes[k].reward.toFixed(1)}`));
  assert.match(await pair.getByTestId('original-run').innerText(), /branch original/);
  mkdirSync(ARTIFACTS, { recursive: true });
  await pair.screenshot({ path: join(ARTIFACTS, 'experiments-side.png') });
});

test('the planted repeated violations are the row marked repeated; it lists its continuations, the violating step marked', async () => {
  const n = JSON.parse(native.continuations);
  const t = await wb.table('Violations per checkpoint and model');
  assert.equal(t.rows.length, n.violations.length);
  n.violations.forEach((r, k) => {
    const cells = r.cells.map((c) => `${c.violated}/${c.scoreable}${c.repeated ? ' *' : ''}`);
    assert.deepEqual(t.rows[k], [r.checkpoint, r.model, ...cells, r.repeated ? 'yes' : 'no']);
  });
  const k = n.violations.findIndex((r) => r.model === 'synth-d' && r.checkpoint === 'state-2');
  assert.ok(n.violations[k].repeated);
  await page.getByTestId('violations').locator(`tbody tr[data-row="${k}"]`).click();
  const list = page.getByTestId('row-continuations');
  await list.waitFor();
  const runs = await list.getByTestId('continuation').evaluateAll((bs) => bs.map((b) => b.dataset.open));
  assert.deepEqual(runs, n.violations[k].cells.flatMap((c) => c.trajectories));
  await list.getByTestId('continuation').first().click();
  const card = list.getByTestId('continuation-run');
  await card.waitFor({ timeout: 30_000 });
  assert.equal(await card.getAttribute('data-id'), n.violations[k].cells[0].trajectories[0]);
  assert.equal(await card.getByTestId('violation-step').getAttribute('data-step'), '2');
  assert.match(await card.getByTestId('violation-step').innerText(), /violates: no refund without verification/);
  await list.screenshot({ path: join(ARTIFACTS, 'experiments-continuations.png') });
  await page.getByTestId('experiments').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ARTIFACTS, 'experiments.png') });
  assert.deepEqual(rec.consoleErrors, []);
});

test('cross-task stability takes the page\'s B and seed (here 2,000 and 5), as `gapscope stability --bootstrap 2000 --seed 5`', async () => {
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
  await wb.openView('stability');
  await page.getByTestId('load-corpus').click();
  await page.locator('table.data[data-title^="Cross-task stability"]').waitFor({ timeout: 60_000 });
  const corpus = join(ROOT, 'assets/synthetic-trajectories');
  const n = JSON.parse(cli(['stability', '--profiles', join(corpus, 'foundational.csv'),
    '--trajectories', join(corpus, 'trajectories.jsonl'), '--json', ...ARGS]));
  assert.equal(n.bootstrap, 2000);
  const st = await wb.table('Cross-task stability');
  assert.ok(st.rows.length > 0);
  assert.match(await page.getByTestId('stability-halves').innerText(), /2000 bootstrap draws/);
  for (const r of st.rows) {
    const s = n.stability[r[0]];
    assert.equal(r[1], shown(s.rho, 2), `${r[0]} rho`);
    assert.equal(r[2], s.ci95 ? `[${shown(s.ci95[0], 2)}, ${shown(s.ci95[1], 2)}]` : '—', `${r[0]} interval`);
  }
});
