// The Runtime-contracts page's addendum views (issue 21), browser against
// native: the addendum's teaching example (`gapscope runtime simulate
// --preset addendum`, scripted policies, not language models) analysed in
// the page with B = 2000 and seed 5 shows `gapscope runtime analyze --json
// --bootstrap 2000 --seed 5`'s numbers in the token cost ratio (beside the
// 2×2), Table 18 (conditions and contrasts), Table 20 (turn accounting),
// Table 19 (horizon sweep), M and Tables 12/21 (across seeds), Table 14
// (coverage and decision) and the gain summary; the SFT filter view equals
// `gapscope runtime filter --json`, and an invalid trace opens its episode
// in the stepper at the turn that failed.
// Needs `trunk build --release` and `cargo build --release -p gapscope-cli`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
let filter;
let logPath;

const num = (v, d) => (v === null || v === undefined ? '—' : shown(v, d));
const interval = (iv, d) => (iv ? `[${shown(iv[0], d)}, ${shown(iv[1], d)}]` : '—');
const withIv = (v, iv, d) => (iv ? `${num(v, d)} [${shown(iv[0], d)}, ${shown(iv[1], d)}]` : num(v, d));
const arrow = (s) => s.replaceAll('->', '→');

function cliRun(args) {
  const run = spawnSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

async function runtimeView(id) {
  await page.click(`[data-testid=runtime-nav] button[data-view=${id}]`);
  await page.waitForFunction((v) => document.querySelector('[data-testid=view]')?.dataset.view === v, id);
}

/** The table whose title starts with `start` and names `slice`. */
async function table(start, slice) {
  const sel = slice === undefined ? `table.data[data-title^="${start}"]` : `table.data[data-title^="${start}"][data-title$="— ${slice}"]`;
  const t = page.locator(sel).first();
  await t.waitFor();
  return t.evaluate((el) => ({
    headers: [...el.querySelectorAll('thead th')].map((th) => th.textContent),
    rows: [...el.querySelectorAll('tbody tr:not(.pad)')].map((tr) => [...tr.children].map((td) => td.textContent)),
  }));
}

const col = (t, name) => {
  const k = t.headers.indexOf(name);
  assert.ok(k >= 0, `no column ${name} in ${t.headers}`);
  return k;
};

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-rt-add-'));
  const log = join(dir, 'addendum.jsonl');
  writeFileSync(log, cliRun(['runtime', 'simulate', '--preset', 'addendum']));
  logPath = log;
  cli = JSON.parse(cliRun(['runtime', 'analyze', '--episodes', log, '--json', '--no-episodes', '--bootstrap', '2000', '--seed', '5']));
  filter = JSON.parse(cliRun(['runtime', 'filter', '--episodes', log, '--json']));
  server = await startServer(join(ROOT, 'dist'));
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
  await wb.setSetting('bootstrap', '2000');
  await wb.setSetting('seed', '5');
  await wb.waitIdle();
  await page.click('nav.areas button[data-area=runtime]');
  await page.getByTestId('runtime-summary').waitFor({ timeout: 120_000 });
  await page.getByTestId('simulate-addendum').click();
  await page.waitForFunction((n) => document.querySelector('[data-testid=runtime-summary]')?.textContent.startsWith(`${n} episodes`),
    cli.episodes_read, { timeout: 120_000 });
});

after(async () => {
  await context?.close();
  await server?.close();
});

test('the addendum example is the CLI\'s preset: same summary, every section present', async () => {
  assert.equal(await page.getByTestId('runtime-summary').textContent(), cli.summary);
  assert.ok(cli.across.length > 0 && cli.horizon_sweeps.length > 0, 'across and horizon sections');
  assert.ok(cli.slices.some((s) => s.contrasts.length > 0), 'contrasts');
});

test('the token cost ratio beside the 2×2 equals the CLI', async () => {
  const k = cli.slices.findIndex((s) => s.cost.some((c) => c.value !== null));
  const s = cli.slices[k];
  await runtimeView('quality');
  const t = await table('Token cost ratio', s.name);
  for (const c of s.cost) {
    const r = t.rows.find((row) => row[0] === String(c.cap));
    assert.equal(r[col(t, 'R')], num(c.value, 2), `R at cap ${c.cap}`);
    assert.equal(r[col(t, 'R') + 1], interval(c.ci95, 2), `interval at cap ${c.cap}`);
    assert.equal(r[col(t, 'n shared')], String(c.n_shared));
  }
  for (const tr of s.trace.filter((x) => !x.intervention)) {
    const r = t.rows.find((row) => row[0] === String(tr.cap));
    assert.equal(r[col(t, `Input share ${arrow(tr.condition.replace(/^(.)(.)$/, '$1->$2'))}`)], num(tr.input_share, 3));
  }
});

test('Table 18 (conditions) and the contrasts equal the CLI', async () => {
  const s = cli.slices.find((x) => x.contrasts.length > 0);
  await runtimeView('conditions');
  const t = await table('Table 18.', s.name);
  assert.equal(t.rows.length, s.trace.length);
  for (const [i, tr] of s.trace.entries()) {
    const r = t.rows[i];
    const label = arrow(`${tr.condition.replace(/^(.)(.)$/, '$1->$2')}${tr.intervention ? `+${tr.intervention}` : ''}`);
    assert.equal(r[0], label);
    assert.equal(r[1], String(tr.cap));
    assert.ok(r.includes(num(tr.name_error_carried.mean, 2)), `${label} NameErrors on carried turns ${num(tr.name_error_carried.mean, 2)} in ${r}`);
  }
  const c = await table('Contrasts', s.name).catch(() => table('Δ', s.name));
  for (const [i, x] of s.contrasts.entries()) {
    const r = c.rows[i];
    assert.ok(r.includes(num(x.contrast.value, 3)) || r.includes(num(x.contrast.value, 2)), `${x.a} − ${x.b} at ${x.cap}: ${r}`);
  }
});

test('Tables 20 and 19 (horizon) equal the CLI', async () => {
  const s = cli.slices.find((x) => x.accounting.some((a) => a.failed > 0));
  await runtimeView('horizon');
  const t = await table('Table 20.', s.name);
  for (const [i, a] of s.accounting.entries()) {
    const r = t.rows[i];
    assert.ok(r.includes(String(a.failed)) && r.includes(String(a.rejected)) && r.includes(String(a.unclassified)), `${r}`);
    // Rust rounds ties to even, JS's toFixed away from zero: within half a unit.
    assert.ok(r.some((cell) => Math.abs(Number(cell) - a.attempted.value) <= 0.05 + 1e-9), `attempted ${a.attempted.value} in ${r}`);
  }
  const h = cli.horizon_sweeps.find((x) => x.sweep);
  const t19 = await table('Table 19.');
  assert.equal(t19.rows.length, h.sweep.rows.length);
  const q = h.sweep.rows[1].cells[0];
  assert.ok(t19.rows[1].some((cell) => cell.includes(num(q.q.value, 3))), `Q ${q.q.value} in ${t19.rows[1]}`);
});

test('M and the across tables (12, 21) with the pooled column equal the CLI', async () => {
  await runtimeView('replications');
  const a = cli.across.find((x) => x.report);
  const t21 = await table('Table 21.', a.group);
  const tRow = a.report.rows.find((r) => r.statistic === 'T');
  const r = t21.rows.find((row) => row[0] === 'T');
  assert.ok(r, `a T row in ${t21.rows.map((x) => x[0])}`);
  assert.ok(r.includes(withIv(tRow.pooled.value, tRow.pooled.ci95, 3)), `pooled T ${withIv(tRow.pooled.value, tRow.pooled.ci95, 3)} in ${r}`);
  for (const c of tRow.columns) {
    assert.ok(r.includes(withIv(c.value, c.ci95, 3)), `column T ${withIv(c.value, c.ci95, 3)} in ${r}`);
  }
  assert.ok(await page.getByText(tRow.summary).count() > 0, tRow.summary);
});

test('Table 14 (coverage and decision) and the gain summary equal the CLI', async () => {
  const s = cli.slices.find((x) => x.mechanism.length > 0 && x.gain?.report);
  await runtimeView('mechanism');
  const t = await table('Coverage OPT(inspected)/OPT', s.name);
  for (const [i, m] of s.mechanism.entries()) {
    const r = t.rows[i];
    assert.ok(r.includes(num(m.cell.coverage.value, 2)), `coverage ${m.cell.coverage.value} in ${r}`);
    assert.ok(r.includes(num(m.cell.decision.value, 2)), `decision ${m.cell.decision.value} in ${r}`);
  }
  const g = await table('Gain summary', s.name);
  for (const [i, c] of s.gain.report.conditions.entries()) {
    assert.ok(g.rows[i].includes(num(c.gain.value, 1)), `Ḡ ${c.gain.value} in ${g.rows[i]}`);
  }
  assert.ok(await page.locator('[data-testid=analysis-chart]').count() > 0, 'the gain curve');
});

test('the SFT filter equals `gapscope runtime filter`, and an invalid trace opens at its turn', async () => {
  await runtimeView('filter');
  const t = await table('Table 8. SFT');
  let k = 0;
  for (const g of filter.report.groups) {
    for (const rc of g.runtimes) {
      const r = t.rows[k++];
      assert.equal(r[3], String(rc.traces));
      assert.equal(r[col(t, 'Valid')], String(rc.valid), `${g.base_model} ${rc.runtime} valid`);
      assert.equal(r[col(t, 'Fail R3')], String(rc.failures.loop));
    }
  }
  const p = await table('Table 8. Pairs');
  for (const [i, g] of filter.report.groups.entries()) {
    assert.equal(p.rows[i][col(p, 'Dual-valid')], String(g.pairs.dual_valid));
    assert.equal(p.rows[i][col(p, 'Yield %')], num(g.pairs.yield === null ? null : 100 * g.pairs.yield, 1));
  }
  // The list holds the invalid traces in log order; take one that fails
  // only R3 (it opens at the loop's later step).
  const invalid = filter.report.traces.filter((x) => x.verdict.kind !== 'valid');
  const at0 = invalid.findIndex((x) => x.verdict.rules.length === 1 && x.evidence.first_loop);
  assert.ok(at0 >= 0, "an invalid trace failing R3 alone");
  const want = invalid[at0];
  const row = page.locator(`table[data-testid=runtime-traces] tr[data-row="${at0}"]`);
  assert.equal(await row.locator('td').first().textContent(), want.episode_id);
  await row.click();
  await page.getByTestId('runtime-stepper').waitFor();
  assert.equal(await page.getByTestId('runtime-stepper').getAttribute('data-id'), want.episode_id);
  // The stepper is at the loop's later turn: its position among the
  // episode's turns (turn indices are the log's).
  const full = JSON.parse(cliRun(['runtime', 'analyze', '--episodes', logPath, '--json', '--bootstrap', '0']));
  const ep = full.episodes.find((e) => e.episode.episode_id === want.episode_id);
  const at = ep.episode.turns.findIndex((t) => t.index === want.evidence.first_loop.j.turn);
  // The page's slice follows the episode (the list spans every slice).
  const sliceName = await page.getByTestId('runtime-slice').evaluate((s) => s.options[s.selectedIndex].text);
  assert.equal(sliceName, full.slices[ep.slice].name);
  assert.equal(await page.getByTestId('turn-index').textContent(), ` turn ${at + 1} of ${ep.episode.turns.length} `);
  await page.screenshot({ path: join(ARTIFACTS, 'runtime-filter-stepper.png'), fullPage: false });
});

test('screenshots of the views, and no console error', async () => {
  for (const v of ['conditions', 'horizon', 'replications', 'mechanism', 'filter']) {
    await runtimeView(v);
    await page.screenshot({ path: join(ARTIFACTS, `runtime-${v}.png`), fullPage: true });
  }
  assert.deepEqual(rec.consoleErrors, []);
});
