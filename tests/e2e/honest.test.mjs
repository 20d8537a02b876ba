// Issue 18, items 4–6: each part's exports are its own; the episode lists
// have the filters they advertise; the simulator form refuses what it
// cannot run, with a message; the recovery curve is cleared when α
// changes; the glossary names every abbreviation, and headers expand them
// on hover.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch } from './support/browser.mjs';
import { DIST, PAGE, need } from './support/needs.mjs';

need(PAGE);

let server;
let context;
let page;
let wb;

before(async () => {
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

const openArea = (id) => page.click(`nav.areas button[data-area=${id}]`);
const openSub = async (id) => {
  await page.click(`nav.views button[data-view=${id}]`);
  await page.waitForFunction((v) => document.querySelector('[data-testid=view]')?.dataset.view === v, id);
};

test('the glossary lists every abbreviation of the page; a header expands its abbreviation on hover', async () => {
  const glossary = page.getByTestId('glossary');
  await glossary.locator('summary').click();
  const listed = await glossary.locator('dt[data-abbr]').evaluateAll((dts) => dts.map((d) => d.dataset.abbr));
  for (const a of ['TU', 'IS', 'KU', 'CI', 'RE', 'SM', 'CE', 'GI', 'ST', 'PL', 'AS', 'PM', 'RC', 'TM', 'Q²', 'ECS', 'G_P', 'G_S', 'D', 'P-M', 'D-M']) {
    assert.ok(listed.includes(a), `${a} in the glossary (${listed.join(' ')})`);
    const dd = await glossary.locator(`dt[data-abbr="${a}"] + dd`).innerText();
    assert.ok(dd.length > 10, `${a} is explained: ${dd}`);
  }
  // The gap heatmap's rows and columns: the operation abbreviations expand on hover.
  const gi = page.locator('[data-testid=gap-heatmap] thead th', { hasText: /^GI/ }).first();
  assert.match(await gi.getAttribute('title'), /^GI: goal interpretation — /);
});

test('each part exports its own report, named after its own inputs (≤ 80 characters)', async () => {
  const gaps = await wb.download(() => page.getByTestId('export-json').click());
  assert.ok(JSON.parse(gaps.text).models, `the realization report: ${gaps.name}`);
  await openArea('evidence');
  await page.locator('table.data[data-title^="ECS per protocol"]').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('export-manifest').isVisible(), false, 'no realization manifest in the evidence part');
  const ev = await wb.download(() => page.getByTestId('export-json').click());
  assert.match(ev.name, /^evidence-worked-set-evidence\.json$/);
  const evReport = JSON.parse(ev.text);
  assert.ok(Array.isArray(evReport.episodes) && !evReport.models, 'the evidence report, not the realization report');
  const table = await wb.exportTable('ECS per protocol', 'csv');
  assert.ok(table.name.startsWith('evidence-worked-set-') && table.name.length <= 80, table.name);
  await openArea('runtime');
  await page.locator('table.data[data-title^="Cap 20: 2×2"]').waitFor({ timeout: 60_000 });
  const rt = await wb.download(() => page.getByTestId('export-json').click());
  assert.match(rt.name, /^runtime-simulated-runtime\.json$/);
  const rtReport = JSON.parse(rt.text);
  assert.ok(rtReport.slices && rtReport.verification && !rtReport.models, 'the runtime report');
});

test('the runtime episode list filters by slice, condition and cap', async () => {
  await openSub('episodes');
  const rows = () => page.locator('[data-testid=runtime-episodes] tbody tr[data-id]');
  await rows().first().waitFor({ timeout: 60_000 });
  const title = () => page.locator('[data-testid=runtime-episodes]').getAttribute('data-title');
  const total = Number((await title()).match(/of (\d+)\)/)[1]);
  const filters = page.getByTestId('runtime-filter');
  const labels = await filters.locator('label').allInnerTexts();
  assert.ok(labels.some((l) => l.startsWith('condition')) && labels.some((l) => l.startsWith('cap')), labels.join(' | '));
  await page.getByTestId('runtime-filter-1').selectOption('P->S');
  await page.getByTestId('runtime-filter-2').selectOption({ index: 1 });
  const cap = await page.getByTestId('runtime-filter-2').inputValue();
  const shown = Number((await title()).match(/\((\d+) of/)[1]);
  assert.ok(shown > 0 && shown < total, `${shown} of ${total}`);
  const cells = await rows().evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  const header = await page.locator('[data-testid=runtime-episodes] thead th').allInnerTexts();
  const [ci, ki] = [header.indexOf('Condition'), header.indexOf('Cap')];
  assert.ok(cells.every((c) => c[ci] === 'P→S' && c[ki] === cap), `every row is P→S at cap ${cap}: ${JSON.stringify(cells.slice(0, 2))}`);
  assert.equal(await page.getByTestId('runtime-filter-1').locator('option:checked').innerText(), 'P→S', 'named as the table names it');
});

test('the simulator form refuses a value it cannot run, with a message, and Simulate waits', async () => {
  const capacity = page.getByTestId('sim-capacity');
  const message = page.getByTestId('sim-invalid');
  await capacity.fill('0');
  await capacity.press('Tab');
  assert.equal(await message.innerText(), 'capacity: expected at least 1, got 0');
  assert.equal(await page.getByTestId('simulate').isDisabled(), true);
  const caps = page.getByTestId('sim-caps');
  await capacity.fill('40');
  await capacity.press('Tab');
  assert.equal(await message.count(), 0);
  await caps.fill('2,x');
  await caps.press('Tab');
  assert.match(await message.innerText(), /^caps: expected whole numbers separated by commas/);
  assert.equal(await page.getByTestId('simulate').isDisabled(), true);
  await caps.fill('2,5,20');
  await caps.press('Tab');
  assert.equal(await message.count(), 0);
  assert.equal(await page.getByTestId('simulate').isDisabled(), false);
});

test('the evidence episode list filters by configuration, protocol and outcome', async () => {
  await openArea('evidence');
  await openSub('episodes');
  const rows = page.locator('[data-testid=evidence-episodes] tbody tr[data-id]');
  await rows.first().waitFor({ timeout: 60_000 });
  const select = page.getByTestId('evidence-filter-0');
  const configs = await select.locator('option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(configs.length >= 2, configs.join(', '));
  await select.selectOption(configs[1]);
  const header = await page.locator('[data-testid=evidence-episodes] thead th').allInnerTexts();
  const ci = header.findIndex((h) => /^Config/.test(h));
  const shown = await rows.evaluateAll((trs, i) => trs.map((tr) => tr.querySelectorAll('td, th')[i].textContent), ci);
  assert.ok(shown.length > 0 && shown.every((c) => c === configs[1]), `only ${configs[1]}: ${shown.slice(0, 3)}`);
});

test('the recovery curve says its α and is cleared when α changes', async () => {
  await openArea('gaps');
  await wb.openView('teaching');
  await page.getByTestId('load-corpus').click();
  await wb.waitForSource('synthetic trajectories');
  await page.getByTestId('run-recovery').click();
  const table = page.locator('table.data[data-title^="Recovery of planted gaps"]');
  await table.waitFor({ timeout: 300_000 });
  assert.match(await table.getAttribute('data-title'), /α = 10$/);
  await wb.setSetting('alpha', 3);
  await page.waitForFunction(() => !document.querySelector('table.data[data-title^="Recovery of planted gaps"]'), null, { timeout: 30_000 });
  assert.match(await page.getByTestId('recovery-stale').innerText(), /fitted at α = 10; α is now 3/);
  await wb.setSetting('alpha', 10);
});

test('a dropped-back report that disagrees says which numbers differ', async () => {
  await openArea('gaps');
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
  const exported = JSON.parse((await wb.download(() => page.getByTestId('export-json').click())).text);
  // A hand edits one gap of the file.
  const m = 2;
  const old = exported.operations.GI.gap[m];
  exported.operations.GI.gap[m] = old + 1.5;
  await wb.fileInput.setInputFiles({ name: 'edited-report.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported, null, 2)) });
  await wb.waitForSource('edited-report.json');
  const warning = await page.getByTestId('warnings').innerText();
  const where = `operations.GI.gap[${exported.models[m]}]`;
  assert.match(warning, new RegExp(`1 of \\d+ numbers differ — ${where.replace(/[[\].]/g, '\\$&')}: file ${old + 1.5}, recomputed ${old}`));
  await wb.openView('data');
  const t = await wb.table('Numbers of the dropped report that differ');
  assert.deepEqual(t.rows, [[where, String(old + 1.5), String(old)]]);
  await page.getByTestId('load-example').click();
  await wb.waitForSource('synthetic example');
});
