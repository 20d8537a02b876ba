// Trajectories first (issue 18): a reviewer drops every real τ²-bench
// results file of ../shared/data/tau2 and nothing else (no profile table).
// The page opens the Runs view with no error panel, each run's numbers
// equal to `gapscope compare --json` on the same files; the
// realization-gap views say in one sentence what they need; a trajectory
// opened from the list is read in the viewport.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch, record } from './support/browser.mjs';
import { CLI, DIST, PAGE, RELEASE_CLI, SHARED, need } from './support/needs.mjs';

need(PAGE, RELEASE_CLI, ['the shared τ²-bench files (../shared/data/tau2)', join(SHARED, 'data/tau2')]);
const TAU2 = join(SHARED, 'data/tau2');
const FILES = readdirSync(TAU2, { withFileTypes: true }).filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name)).flatMap((d) => {
  const dir = join(TAU2, d.name, 'results');
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
});

/** What the page shows for a 0–1 number on 0–100 (gapscope_view::format::fmt). */
function pct(v, decimals = 1) {
  if (v === null) return '—';
  const s = (100 * v).toFixed(decimals);
  return /^-0\.0*$/.test(s) ? s.slice(1) : s.replace('-', '−');
}

let server;
let context;
let page;
let wb;
let rec;

before(async () => {
  assert.ok(FILES.length >= 2, `τ²-bench results files under ${TAU2}: ${FILES.length}`);
  server = await startServer(DIST);
  context = await launch({ width: 1280, height: 900 });
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
});

after(async () => {
  await context?.close();
  await server?.close();
});

test('τ²-bench results dropped alone: the Runs view, no error, every run as gapscope compare --json says', async () => {
  await wb.fileInput.setInputFiles(FILES);
  await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('error').count(), 0, 'no error panel');
  assert.equal(await page.getByTestId('view').getAttribute('data-view'), 'compare', 'the Runs view is open');
  assert.match(await page.getByTestId('trajectory-summary').innerText(), new RegExp(`^${FILES.length} files: \\d+ trajectories of \\d+ models`));
  const summary = await page.getByTestId('compare-summary').innerText();
  const [, draws] = summary.match(/B = (\d+) bootstrap draws/);
  const cli = JSON.parse(execFileSync(CLI, ['compare', ...FILES, '--json', '--bootstrap', draws], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const runs = await wb.table('Runs');
  assert.deepEqual(runs.rows.map((r) => r[0]), cli.runs.map((r) => r.name));
  for (const [i, run] of cli.runs.entries()) {
    const s = run.summary;
    // n tasks, N trajectories, the mean over all scored trajectories, excluded.
    assert.deepEqual([runs.rows[i][1], runs.rows[i][2], runs.rows[i][4], runs.rows[i][7]],
      [String(s.tasks), String(s.trajectories), pct(s.mean), String(s.excluded ?? run.excluded?.length ?? 0)], run.name);
  }
  // Exports of eight files' runs: short names (≤ 80 characters), every row.
  for (const title of ['Runs', 'Pairs']) {
    const csv = await wb.exportTable(title, 'csv');
    assert.ok(csv.name.length <= 80 && csv.name.endsWith('.csv'), `${csv.name} (${csv.name.length})`);
    assert.ok(csv.name.startsWith(basename(FILES[0], '.json')), `${csv.name}: named after the files shown, not the example`);
  }
  const runsCsv = (await wb.exportTable('Runs', 'csv')).text.trim().split('\n');
  assert.equal(runsCsv.length, 1 + cli.runs.length);
  // The pair shown first has tasks in common.
  const chosen = await page.getByTestId('chosen-pair').innerText();
  const [a, b] = chosen.split(' against ');
  const pair = cli.pairs.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a));
  assert.ok(pair && pair.comparison.common > 0, `${chosen}: common tasks`);
});

test('a realization-gap view says what it needs, in one sentence, with no synthetic analysis behind it', async () => {
  await wb.openView('gaps');
  const needs = page.getByTestId('needs-profile');
  await needs.waitFor();
  assert.match(await needs.innerText(), /^Realization gaps need a foundational profile table beside these trajectories/);
  assert.equal(await page.getByTestId('gap-heatmap').count(), 0, 'no heatmap of the example');
  assert.equal(await page.locator('.badge.synthetic').count(), 0, 'no synthetic label');
});

test('the Data view keeps the trajectory options: a model renamed there is renamed in Runs, as compare --rename does', async () => {
  await wb.openView('data');
  await page.getByTestId('needs-profile').waitFor();
  const options = page.getByTestId('trajectory-options');
  await options.waitFor();
  assert.equal(await page.locator('table.data[data-title^="Runs"]').count(), 0, 'the Data view shows no Runs table');
  const models = (await options.locator('.muted').innerText()).replace(/^Models now: |\.$/g, '').split(', ');
  assert.ok(models.length >= 2, models.join(', '));
  const old = models[0];
  await page.getByTestId('renames').fill(`${old}=Renamed run`);
  await page.getByTestId('renames').press('Tab');
  await page.waitForFunction(() => /Renamed run/.test(document.querySelector('[data-testid=trajectory-options] .muted')?.textContent ?? ''), null, { timeout: 120_000 });
  await wb.openView('compare');
  await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
  const summary = await page.getByTestId('compare-summary').innerText();
  const [, draws] = summary.match(/B = (\d+) bootstrap draws/);
  const cli = JSON.parse(execFileSync(CLI, ['compare', ...FILES, '--json', '--bootstrap', draws, '--rename', `${old}=Renamed run`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const runs = await wb.table('Runs');
  assert.deepEqual(runs.rows.map((r) => [r[0], r[4]]), cli.runs.map((r) => [r.name, pct(r.summary.mean)]));
  assert.ok(runs.rows.some((r) => r[0] === 'Renamed run') && !runs.rows.some((r) => r[0] === old));
  // Undo, for the tests below.
  await wb.openView('data');
  await page.getByTestId('renames').fill('');
  await page.getByTestId('renames').press('Tab');
  await page.waitForFunction((m) => (document.querySelector('[data-testid=trajectory-options] .muted')?.textContent ?? '').includes(m), old, { timeout: 120_000 });
});

test('a trajectory opened from the list is read in the viewport', async () => {
  await wb.openView('trajectories');
  // Runs of different domains share no task: no empty profile table, a reason.
  assert.match(await page.getByTestId('no-profile').innerText(), /^No operation profile: no task is attempted by every one of the \d+ models/);
  assert.equal(await page.locator('table.data[data-title^="Operation profile"]').count(), 0);
  const first = page.locator('[data-testid=trajectory-list] tbody tr[data-id]').first();
  await first.click();
  const viewer = page.getByTestId('trajectory-viewer');
  await viewer.waitFor({ timeout: 30_000 });
  assert.equal(await viewer.getAttribute('data-id'), await first.getAttribute('data-id'));
  const top = await viewer.evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 900 / 2, `the viewer starts in the upper half of the window (top ${top}px)`);
});

test('no console errors and no request to any other origin', async () => {
  assert.deepEqual(rec.consoleErrors, []);
  const foreign = rec.requests.filter((u) => !u.startsWith(server.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, []);
});

test('the Inspect scorer picker changes the rewards as the CLI\'s --scorer does', async () => {
  const dir = join(SHARED, 'data/inspect');
  const logs = readdirSync(dir).filter((f) => /arith-agent/.test(f)).sort().map((f) => join(dir, f));
  assert.equal(logs.length, 2, `the two arith-agent logs in ${dir}`);
  await wb.fileInput.setInputFiles(logs);
  await wb.openView('compare');
  await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
  const picker = page.getByTestId('scorer');
  await picker.waitFor();
  const offered = await picker.locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(offered, ['', 'match', 'tool_steps', 'detail', 'detail:exact', 'detail:steps', 'model_graded_qa']);
  const means = async () => (await wb.table('Runs')).rows.map((r) => [r[0], r[4]]);
  const cliMeans = (scorer) => {
    // Run in the logs' folder, so that runs are named by file name as on the page.
    const args = ['compare', ...logs.map((f) => basename(f)), '--json', ...(scorer ? ['--scorer', scorer] : [])];
    const cli = JSON.parse(execFileSync(CLI, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    return cli.runs.map((r) => [r.name, pct(r.summary.mean)]);
  };
  assert.deepEqual(await means(), cliMeans(null), 'default: each log\'s first scorer');
  const before = await means();
  for (const scorer of ['model_graded_qa', 'detail:steps']) {
    await picker.selectOption(scorer);
    await page.waitForFunction((s) => new URLSearchParams(location.search).get('scorer') === s, scorer);
    await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=compare-busy]') === null);
    assert.deepEqual(await means(), cliMeans(scorer), scorer);
  }
  assert.notDeepEqual(await means(), before, 'another score, other rewards');
  assert.equal(await page.getByTestId('scorer').inputValue(), 'detail:steps');
});
