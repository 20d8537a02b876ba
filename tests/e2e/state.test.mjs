// State you can share (issue 18, item 4): the part, each part's view, the
// sub-views (coefficient, slice, open episode) and the open trajectory live
// in the URL; a reload restores them; Back and Forward move between views;
// a link to a trajectory of files not loaded says so, and opens the
// trajectory once files with the same SHA-256 are dropped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch } from './support/browser.mjs';
import { CLI, DIST, PAGE, RELEASE_CLI, SHARED, need } from './support/needs.mjs';

need(PAGE, RELEASE_CLI, ['the shared τ²-bench files (../shared/data/tau2)', join(SHARED, 'data/tau2')]);
const AIRLINE = join(SHARED, 'data/tau2/airline/results');
const TELECOM = join(SHARED, 'data/tau2/telecom/results/gpt-4.1__llm_agent_solo__telecom_no-user_4trials_5tasks.json');
const FILES = readdirSync(AIRLINE).filter((f) => f.endsWith('.json')).sort().map((f) => join(AIRLINE, f));

let server;
let context;
let page;
let wb;

before(async () => {
  assert.ok(FILES.length >= 2, `airline results files under ${AIRLINE}: ${FILES.length}`);
  server = await startServer(DIST);
  context = await launch({ width: 1280, height: 900 });
  page = context.pages()[0] ?? await context.newPage();
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
});

after(async () => {
  await context?.close();
  await server?.close();
});

const query = () => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
const shownView = () => page.getByTestId('view').getAttribute('data-view');
const shownArea = () => page.locator('nav.areas button.on').getAttribute('data-area');
const waitView = (id) => page.waitForFunction((v) => document.querySelector('[data-testid=view]')?.dataset.view === v, id);

test('a reload restores part, view and sub-view; Back and Forward move between views', async () => {
  await wb.openView('association');
  await wb.chooseCorrelation('Spearman');
  await page.click('nav.areas button[data-area=evidence]');
  await waitView('ecs');
  await page.click('nav.views button[data-view=paired]');
  await waitView('paired');
  let q = await query();
  assert.equal(q.area, 'evidence');
  assert.equal(q.ev, 'paired');
  assert.equal(q.view, 'association');
  assert.equal(q.corr, 'spearman');

  await page.reload();
  await waitView('paired');
  assert.equal(await shownArea(), 'evidence');
  q = await query();
  assert.equal(q.ev, 'paired', 'the reload keeps the evidence view');

  // Back: the evidence part's first view, then the realization part's
  // Association view with Spearman's coefficient still chosen.
  await page.goBack();
  await waitView('ecs');
  assert.equal(await shownArea(), 'evidence');
  await page.goBack();
  await waitView('association');
  assert.equal(await shownArea(), 'gaps');
  assert.equal(await page.getByRole('radio', { name: 'Spearman' }).getAttribute('aria-checked'), 'true');
  await page.goForward();
  await waitView('ecs');
  assert.equal(await shownArea(), 'evidence');
});

test('an episode open in the runtime stepper comes back after a reload', async () => {
  await page.click('nav.areas button[data-area=runtime]');
  await waitView('quality');
  await page.click('nav.views button[data-view=episodes]');
  const row = page.locator('[data-testid=runtime-episodes] tbody tr[data-id]').nth(3);
  await row.waitFor({ timeout: 60_000 });
  const id = await row.getAttribute('data-id');
  await row.click();
  await page.getByTestId('runtime-stepper').waitFor();
  assert.equal((await query()).rep, id);
  await page.reload();
  const stepper = page.getByTestId('runtime-stepper');
  await stepper.waitFor({ timeout: 60_000 });
  assert.equal(await stepper.getAttribute('data-id'), id);
  // Back to the list the episode was opened from.
  await page.goBack();
  await waitView('episodes');
});

test('a trajectory link: a reload opens it; without its files the page says so, with them it opens', async () => {
  // The telecom file is small enough to be kept in this browser's storage.
  await page.click('nav.areas button[data-area=gaps]');
  await wb.fileInput.setInputFiles([TELECOM]);
  await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
  await wb.openView('trajectories');
  const row = page.locator('[data-testid=trajectory-list] tbody tr[data-id]').nth(5);
  await row.waitFor({ timeout: 30_000 });
  const id = await row.getAttribute('data-id');
  await row.click();
  await page.getByTestId('trajectory-viewer').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => new URLSearchParams(location.search).get('files')?.length > 0, null, { timeout: 60_000 });
  const q = await query();
  assert.equal(q.traj, id);
  assert.match(q.files, /^[0-9a-f]{16}$/, 'one file, the first 16 hex digits of its SHA-256');
  const link = page.url();

  // The file is kept in this browser: a reload reopens it and the trajectory.
  await page.reload();
  const viewer = page.getByTestId('trajectory-viewer');
  await viewer.waitFor({ timeout: 60_000 });
  assert.equal(await viewer.getAttribute('data-id'), id);
  assert.equal(await page.getByTestId('link-note').count(), 0);

  // Another browser, without the file: the page says what the link needs.
  const other = await launch({ width: 1280, height: 900 });
  try {
    const p = other.pages()[0] ?? await other.newPage();
    const w = new WorkbenchPage(p);
    await w.open(link);
    const note = p.getByTestId('link-note');
    await note.waitFor({ timeout: 30_000 });
    const text = await note.innerText();
    assert.match(text, /files not loaded here/);
    assert.ok(text.includes(id) && text.includes(q.files), text);
    // Other files do not apply it.
    await w.fileInput.setInputFiles(FILES);
    // The link's view (Trajectories) stays; the list fills with the airline runs.
    await p.waitForFunction((n) => document.querySelector('[data-testid=trajectory-summary]')?.textContent.startsWith(`${n} files`),
      FILES.length, { timeout: 120_000 });
    await w.openView('trajectories');
    await p.locator('[data-testid=trajectory-list] tbody tr[data-id]').first().waitFor({ timeout: 60_000 });
    await p.waitForTimeout(500);
    assert.equal(await p.getByTestId('trajectory-viewer').count(), 0, 'no trajectory opened from other files');
    assert.match(await p.getByTestId('link-note').innerText(), /files not loaded here/);
    // The same file: the trajectory opens.
    await w.fileInput.setInputFiles([TELECOM]);
    const v = p.getByTestId('trajectory-viewer');
    await v.waitFor({ timeout: 120_000 });
    assert.equal(await v.getAttribute('data-id'), id);
    assert.equal(await p.getByTestId('link-note').count(), 0);
  } finally {
    await other.close();
  }
});

test('a cancelled import returns every view to what it showed before', async () => {
  await wb.fileInput.setInputFiles(FILES);
  await page.waitForFunction((n) => document.querySelector('[data-testid=trajectory-summary]')?.textContent.startsWith(`${n} files`),
    FILES.length, { timeout: 120_000 });
  await wb.openView('compare');
  await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
  const runs = await wb.table('Runs');
  await wb.openView('trajectories');
  const list = () => page.locator('[data-testid=trajectory-list] tbody tr[data-id]').evaluateAll((trs) => trs.map((tr) => tr.dataset.id));
  const ids = await list();
  const summary = await page.getByTestId('overview-summary').innerText();
  // A profile table of 3,000 models: seconds of work, cancelled midway.
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-'));
  const big = join(dir, 'big.csv');
  writeFileSync(big, execFileSync(CLI, ['synth', '--families', '300', '--per-family', '10'], { encoding: 'utf8' }));
  await wb.waitWorkersIdle();
  await wb.pickFile(big);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=progress]')?.getAttribute('value')) >= 2,
    null, { timeout: 30_000 });
  await page.getByTestId('cancel').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false');
  assert.equal(await shownView(), 'trajectories');
  assert.equal(await page.getByTestId('overview-summary').innerText(), summary);
  assert.deepEqual(await list(), ids, 'the same trajectory list');
  await wb.openView('compare');
  assert.deepEqual(await wb.table('Runs'), runs, 'the same runs');
  assert.equal(await wb.error.count(), 0, 'a cancel is not an error');
  // A new analysis (another seed) reads the airline files again, not big.csv.
  await wb.setSetting('seed', 7);
  await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
  assert.deepEqual((await wb.table('Runs')).rows.map((r) => r[0]), runs.rows.map((r) => r[0]));
});
