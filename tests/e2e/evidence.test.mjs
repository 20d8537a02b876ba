// The Evidence-to-action page's addendum views (issue 20), browser against
// native: the worked set (conditions included) scored in the page with B =
// 2000 and seed 5 shows `gapscope evidence score --json --bootstrap 2000
// --seed 5`'s numbers in the paired comparison by protocol and Table 12, the
// all-planned ECS, the case set (Tables 6, 7), decision readiness, and every
// intervention analysis; a marker of a first-action curve and a segment of
// the evidence-response bars open exactly the CLI's episodes behind them.
// Needs `trunk build --release` and `cargo build --release -p gapscope-cli`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch, record } from './support/browser.mjs';
import { ARTIFACTS, CLI, PAGE, RELEASE_CLI, ROOT, need } from './support/needs.mjs';
import { shown } from './support/format.mjs';

need(PAGE, RELEASE_CLI);

let server;
let context;
let page;
let wb;
let rec;
let cli;

/** A rate as the page shows it: percent, `d` decimals, "—" for null. */
const pctShown = (v, d) => (v === null || v === undefined ? '—' : shown(100 * v, d));
const num = (v, d) => (v === null || v === undefined ? '—' : shown(v, d));
/** A p-value cell: the page rounds ties to even (Rust), JS's toFixed away
 * from zero, so the shown value is checked to be within half a unit. */
const pShown = (text, v) => (v === null ? text === '—' : Math.abs(Number(text) - v) <= 0.5e-4 + 1e-12);
const interval = (iv, scale, d) => (iv ? `[${shown(iv[0] * scale, d)}, ${shown(iv[1] * scale, d)}]` : '—');

async function evidenceView(id) {
  await page.click(`[data-testid=evidence-nav] button[data-view=${id}]`);
  await page.waitForFunction((v) => document.querySelector('[data-testid=view]')?.dataset.view === v, id);
}

/** The episode list's ids after a click on `locator`. */
async function listedAfterClick(locator) {
  await locator.click();
  await page.getByTestId('evidence-episodes').waitFor();
  return page.locator('[data-testid=evidence-episodes] tbody tr[data-id]').evaluateAll((trs) => trs.map((tr) => tr.dataset.id));
}

before(async () => {
  const run = spawnSync(CLI, ['evidence', 'score', '--cases', join(ROOT, 'assets/evidence/cases.jsonl'),
    '--trajectories', join(ROOT, 'assets/evidence/trajectories.jsonl'), '--json', '--bootstrap', '2000', '--seed', '5'],
  { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, run.stderr);
  cli = JSON.parse(run.stdout);
  server = await startServer(join(ROOT, 'dist'));
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
  await wb.setSetting('bootstrap', '2000');
  await wb.setSetting('seed', '5');
  await wb.waitIdle();
  await page.click('nav.areas button[data-area=evidence]');
  await page.locator('table.data[data-title^="ECS per protocol"]').waitFor({ timeout: 120_000 });
});

after(async () => {
  await context?.close();
  await server?.close();
});

test('the worked set has conditions, and the CLI report has every analysis', () => {
  assert.ok(cli.sides.length > 2, `sides: ${cli.sides.map((s) => s.label)}`);
  const iv = cli.interventions;
  for (const k of ['first_action', 'distractors', 'evidence', 'static_vs_interactive', 'scgr']) {
    assert.ok(iv[k].length > 0, `interventions.${k}`);
  }
});

test('paired comparisons by protocol and Table 12 equal the CLI', async () => {
  await evidenceView('paired');
  const t = await wb.table('Paired configuration comparisons by protocol');
  let k = 0;
  for (const p of cli.paired) {
    for (const row of p.rows) {
      const r = t.rows[k++];
      const q = row.paired;
      assert.equal(r[0], `${p.a} − ${p.b}`);
      assert.equal(r[1], row.headline ? `${row.row} (headline)` : row.row);
      assert.equal(r[3], String(q.n));
      assert.equal(r[4], pctShown(q.rate_a, 1));
      assert.equal(r[5], pctShown(q.rate_b, 1));
      assert.equal(r[6], pctShown(q.delta, 1), `${p.a} − ${p.b} ${row.row} Δ`);
      assert.equal(r[7], interval(q.interval, 100, 1), `${row.row} interval`);
      assert.ok(pShown(r[15], q.mcnemar.p_value), `${row.row} p: ${r[15]} vs ${q.mcnemar.p_value}`);
    }
  }
  assert.equal(k, t.rows.length);
  const t12 = await wb.table('Per repetition (Table 12)');
  let j = 0;
  for (const p of cli.paired) {
    for (const d of p.per_repetition.repetitions) {
      const r = t12.rows[j++];
      assert.deepEqual([r[1], r[2], r[3], r[4]], [String(d.repetition), pctShown(d.a, 1), pctShown(d.b, 1), pctShown(d.delta, 1)]);
    }
    j++; // the mean ± SD row
  }
});

test('the all-planned ECS and the case set equal the CLI', async () => {
  await evidenceView('ecs');
  const t = await wb.table('ECS over all planned runs');
  for (const [k, c] of cli.ecs_all_planned.entries()) {
    const overall = t.rows.find((r) => r[0] === 'Overall');
    assert.equal(overall[1 + 3 * k], pctShown(c.summary.overall.mean, 1), `${c.config} all-planned`);
  }
  await evidenceView('composition');
  const t6 = await wb.table('Table 6.');
  for (const [i, row] of cli.composition.table6.rows.entries()) {
    assert.deepEqual(t6.rows[i], [row.protocol, ...row.by_domain.map(String), String(row.total)]);
  }
  const t7 = await wb.table('Table 7.');
  for (const [i, row] of cli.composition.table7.entries()) {
    assert.deepEqual(t7.rows[i], [row.protocol, String(row.cases), num(row.required_reads_mean, 1),
      row.required_reads_max === null ? '—' : String(row.required_reads_max), String(row.action_nodes),
      String(row.dependency_edges), String(row.forks), String(row.joins)]);
  }
});

test('decision readiness equals the CLI, and a curve opens its episodes', async () => {
  await evidenceView('readiness');
  const t = await wb.table('Decision readiness');
  for (const [i, c] of cli.readiness.entries()) {
    const r = t.rows[i];
    assert.deepEqual([r[0], r[1], r[4], r[5]], [c.config, c.protocol, pctShown(c.mean, 1), pctShown(c.full_support, 1)]);
  }
  const first = cli.readiness.find((c) => c.reason === null && c.protocol === 'V0');
  const fig = page.locator('[data-section=readiness]').first();
  const ids = await listedAfterClick(fig.locator('[data-series="0"]').first());
  assert.deepEqual(ids.sort(), [...first.episode_ids].sort());
});

test('the intervention analyses equal the CLI, and their marks open the episodes behind them', async () => {
  await evidenceView('interventions');
  const iv = cli.interventions;
  // First action: the Δ acted rows, then a curve's marker.
  const fa = await wb.table('First action');
  const acted = iv.first_action.flatMap((f) => f.acted);
  assert.equal(fa.rows.length, acted.length);
  for (const [i, c] of acted.entries()) {
    const r = fa.rows[i];
    assert.equal(r[1], `${c.treatment} vs ${c.reference}`);
    assert.equal(r[2], String(c.paired.n));
    assert.equal(r[5], num(c.paired.delta === null ? null : 100 * c.paired.delta, 2), `first action ${c.treatment} Δ`);
    assert.equal(r[6], interval(c.paired.interval, 100, 2));
    assert.ok(pShown(r[7], c.paired.mcnemar.p_value), `first action p: ${r[7]} vs ${c.paired.mcnemar.p_value}`);
  }
  // Distractors, static, SCGR: forest tables row by row.
  const forestRows = (items) => items.map(([label, c, scale]) => [label, c, scale]);
  const checks = [
    ['Distractors (§8.2)', forestRows(iv.distractors.flatMap((d) => [
      [`${d.config} · ${d.acted.treatment} · calls`, d.information_calls, 1],
      [`${d.config} · ${d.acted.treatment} · acted`, d.acted, 100]]))],
    ['Static vs interactive (§8.4', forestRows(iv.static_vs_interactive.map((s) => [s.config, s.gap, 100]))],
    ['SCGR (§8.5', forestRows(iv.scgr.flatMap((g) => g.paired.map((c, k) => [`${g.config} · ${g.condition} · ${g.paired_rows[k]}`, c, 100])))],
  ];
  for (const [title, items] of checks) {
    const t = await wb.table(title);
    assert.equal(t.rows.length, items.length, title);
    for (const [i, [label, c, scale]] of items.entries()) {
      const r = t.rows[i];
      assert.equal(r[0], label);
      assert.equal(r[2], String(c.paired.n));
      assert.equal(r[5], num(c.paired.delta === null ? null : scale * c.paired.delta, 2), `${label} Δ`);
      assert.equal(r[6], interval(c.paired.interval, scale, 2), `${label} interval`);
    }
  }
  // Evidence responses: the shares, then a segment's episodes.
  const t = await wb.table('Responses to withheld or contradicted evidence');
  let k = 0;
  for (const e of iv.evidence) {
    for (const sh of [e.treatment, e.reference]) {
      const r = t.rows[k++];
      assert.deepEqual(r.slice(0, 7), [e.config, sh.condition, String(sh.episodes), pctShown(sh.investigated_stop, 1),
        pctShown(sh.acted_despite, 1), pctShown(sh.acted_uninvestigated, 1), pctShown(sh.stopped_uninvestigated, 1)]);
      assert.equal(r[7], `${sh.block} / ${sh.defer} / ${sh.other}`);
    }
  }
  const legacy = await wb.table('Legacy cases under static');
  for (const [i, s] of iv.static_vs_interactive.entries()) {
    assert.deepEqual(legacy.rows[i], [s.config, String(s.legacy_scored), `${s.legacy_correct}/${s.legacy_scored}`, `${s.legacy_rejected}/${s.legacy_scored}`]);
  }
  await page.locator('[data-testid=view]').screenshot({ path: join(ARTIFACTS, 'evidence-interventions.png') });
  // The first segment of the response bars: the treatment's investigated stops.
  const e0 = iv.evidence[0];
  const byId = new Map(cli.episodes.map((e) => [e.trajectory_id, e]));
  const expected = e0.treatment.episode_ids.filter((id) => e0.treatment.probed_ids.includes(id) && !byId.get(id).acted);
  if (expected.length > 0) {
    const ids = await listedAfterClick(page.locator('[data-section=evidence] [data-target="0"]').first());
    assert.deepEqual(ids.sort(), [...expected].sort());
    await evidenceView('interventions');
  }
  // A first-action marker: the reference curve's matched episodes.
  const f0 = iv.first_action[0];
  const ids = await listedAfterClick(page.locator('[data-section=first-action] [data-series="0"]').first());
  assert.deepEqual(ids.sort(), f0.curves[0].episodes.map((e) => e.trajectory_id).sort());
  assert.deepEqual(rec.consoleErrors, []);
});

test('the rows of the intervention analyses are set on the page as on the command line', async () => {
  const run = spawnSync(CLI, ['evidence', 'score', '--cases', join(ROOT, 'assets/evidence/cases.jsonl'),
    '--trajectories', join(ROOT, 'assets/evidence/trajectories.jsonl'), '--json', '--bootstrap', '2000', '--seed', '5',
    '--first-action', 'baseline:evidence_package'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, run.stderr);
  const other = JSON.parse(run.stdout);
  await evidenceView('interventions');
  await page.getByTestId('rows-form').locator('summary').click();
  // A name no side has is refused, with the conditions listed, and the
  // form stays to mend it.
  await page.getByTestId('rows-scgr').fill('scgr_nope');
  await page.getByTestId('rows-apply').click();
  await page.getByTestId('evidence-error').waitFor({ timeout: 60_000 });
  assert.match(await page.getByTestId('evidence-error').innerText(), /condition `scgr_nope`, which no side of the plan has \(conditions: baseline, /);
  await page.getByTestId('rows-scgr').fill('');
  await page.getByTestId('rows-first-action').fill('baseline:evidence_package');
  await page.getByTestId('rows-apply').click();
  await page.waitForFunction(() => {
    const trs = [...document.querySelectorAll('table.data[data-title^="First action"] tbody tr')];
    return trs.length > 0 && trs.every((tr) => tr.children[1]?.textContent === 'evidence_package vs baseline');
  }, null, { timeout: 60_000 });
  const fa = await wb.table('First action');
  const acted = other.interventions.first_action.flatMap((f) => f.acted);
  assert.equal(fa.rows.length, acted.length);
  for (const [i, c] of acted.entries()) {
    assert.equal(fa.rows[i][1], `${c.treatment} vs ${c.reference}`);
    assert.equal(fa.rows[i][5], num(c.paired.delta === null ? null : 100 * c.paired.delta, 2));
  }
  // Back to the defaults.
  await page.getByTestId('rows-form').locator('summary').isVisible();
  await page.getByTestId('rows-first-action').fill('');
  await page.getByTestId('rows-apply').click();
  await page.waitForFunction(() => [...document.querySelectorAll('table.data[data-title^="First action"] tbody tr')]
    .some((tr) => tr.children[1]?.textContent.endsWith('vs withheld')), null, { timeout: 60_000 });
});
