// Offline, from one file (issue 8, part 5): dist-single/gapscope.html, copied
// alone into an empty folder and opened from disk (file://), analyses the
// embedded example, a dropped file and a change of α in its workers, equal to
// the CLI, with no request but the file itself; its policy blocks every way
// out, in the page and in the workers.
// Needs `trunk build --release`, `node scripts/build-single.mjs` and
// `cargo build --release -p gapscope-cli` (scripts/test.sh does all three).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { WorkbenchPage } from './pages/workbench.mjs';
import { foreignServer, launch, record, tryToLeak } from './support/browser.mjs';
import { CLI, RELEASE_CLI, ROOT, SINGLE_FILE, need } from './support/needs.mjs';

const SINGLE = join(ROOT, 'dist-single/gapscope.html');
const SMALL = join(ROOT, 'tests/fixtures/profiles-small.csv');
const REL = 1e-12;

need(SINGLE_FILE, RELEASE_CLI);

function cliReport(file, ...args) {
  return JSON.parse(execFileSync(CLI, ['report', '--profiles', file, '--json', ...args], { encoding: 'utf8' }));
}

function close(a, b) {
  return a === b || (a !== null && b !== null && Math.abs(a - b) <= REL * Math.max(1, Math.abs(b)));
}

/** Every gap cell of the heatmap equals the report's gap. */
async function assertGapsMatch(wb, report) {
  const cells = await wb.cells(wb.gapHeatmap);
  assert.equal(cells.length, report.models.length * report.dimensions.operations.length);
  for (const c of cells) {
    const expected = report.operations[c.col].gap[report.models.indexOf(c.row)];
    assert.ok(close(c.value, expected), `${c.row} × ${c.col}: page ${c.value}, CLI ${expected}`);
  }
}

let dir;
let url;
let foreign;
let context;
let page;
let wb;
let rec;

before(async () => {
  // Alone in an empty folder: nothing beside it to load.
  dir = mkdtempSync(join(tmpdir(), 'gapscope-single-'));
  copyFileSync(SINGLE, join(dir, 'gapscope.html'));
  url = pathToFileURL(join(dir, 'gapscope.html')).href;
  foreign = await foreignServer();
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
});

after(async () => {
  await context?.close();
  await foreign?.close();
});

test('the file is self-contained: it names nothing outside itself', () => {
  const html = readFileSync(SINGLE, 'utf8');
  // The markup, scripts emptied (their text is code and data, not references).
  const markup = html.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');
  const refs = [...markup.matchAll(/\s(?:src|href|action|srcset|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]);
  assert.deepEqual(refs.filter((r) => !r.startsWith('data:')), [], 'every src/href is a data: URL');
  assert.ok(refs.length >= 1, 'the scan sees the icon');
  assert.doesNotMatch(markup, /url\(\s*["']?(?!data:)[a-z]/i, 'no CSS url() outside data:');
  const inline = [...markup.matchAll(/<script(?![^>]*type="application\/octet-stream")[^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(inline, ['<script type="module">'], 'one executable script, inline');
  const size = statSync(SINGLE).size;
  console.log(`# dist-single/gapscope.html: ${size} B`);
  assert.ok(size < 4 * 1024 * 1024, `${size} B`);
});

test('opened from disk, it analyses the example in its workers, equal to the CLI', async () => {
  await wb.open(url);
  await wb.waitForSource('synthetic example');
  assert.equal(await wb.summary.innerText(), '15 models in 8 families, 7 foundational dimensions, 7 operations, reward.');
  const workers = page.workers().map((w) => w.url());
  assert.ok(workers.length >= 1 && workers.every((u) => u.startsWith('data:text/javascript,')), `workers from data: URLs: ${workers.map((u) => u.slice(0, 40))}`);
  await assertGapsMatch(wb, cliReport(join(ROOT, 'assets/synthetic-example.csv')));
});

test('a dropped file and a change of α are analysed, equal to the CLI', async () => {
  await wb.dropFile(SMALL);
  await wb.waitForSource('profiles-small.csv');
  await assertGapsMatch(wb, cliReport(SMALL));
  await wb.setSetting('alpha', '1');
  await page.waitForFunction(() => document.querySelector('[data-testid=summary-detail]')?.textContent.includes('α = 1;'));
  await wb.waitIdle();
  const report = cliReport(SMALL, '--alpha', '1');
  await assertGapsMatch(wb, report);
  // The JSON export works from disk too, and carries the same Q².
  const exported = JSON.parse((await wb.download(() => page.getByTestId('export-json').click())).text);
  assert.ok(close(exported.operations.PL.q2, report.operations.PL.q2));
  // The manifest's SHA-256 of the dropped file, whichever way the worker
  // read it from disk (fetched whole and hashed by a second job after the
  // answer, or streamed and hashed as read).
  const manifest = JSON.parse((await wb.download(() => page.getByTestId('export-manifest').click())).text);
  assert.equal(manifest.inputs[0].sha256, createHash('sha256').update(readFileSync(SMALL)).digest('hex'));
  await wb.openView('predictability');
  await wb.openView('gaps');
});

test('no request but the file itself, no CSP violation, no console error', async () => {
  const other = rec.requests.filter((u) => u !== url && !u.startsWith('data:'));
  assert.deepEqual(other, [], 'nothing loaded besides the file');
  assert.ok(rec.requests.includes(url), 'the recorder saw the file itself');
  assert.deepEqual(await rec.violations(), []);
  assert.deepEqual(rec.consoleErrors, []);
});

test('its policy blocks every way out, from the page and from a worker', async () => {
  const attempts = await tryToLeak(page, foreign.url);
  assert.deepEqual(attempts, {
    fetch: 'blocked', xhr: 'blocked', img: 'blocked', script: 'blocked', style: 'blocked',
    beacon: attempts.beacon, inline: 'blocked',
  });
  const fromWorker = await page.workers()[0].evaluate((u) => fetch(`${u}from-worker`).then(() => 'reached', () => 'blocked'), foreign.url);
  assert.equal(fromWorker, 'blocked');
  assert.deepEqual(foreign.hits, [], 'nothing reached the other origin');
  assert.ok((await rec.violations()).length >= 4, 'the attempts were reported as violations');
});

test('every part is in the file: evidence and runtime start their own data: workers from disk, with no request', async () => {
  const before = page.workers().length;
  const seen = rec.requests.length;
  await page.click('nav.areas button[data-area=evidence]');
  await page.locator('table.data[data-title^="ECS per protocol"]').waitFor({ timeout: 60_000 });
  await page.click('nav.areas button[data-area=runtime]');
  await page.locator('table.data[data-title^="Cap 20: 2×2"]').waitFor({ timeout: 60_000 });
  const workers = page.workers().map((w) => w.url());
  assert.ok(workers.length > before, `the two parts' pools started (${before} → ${workers.length} workers)`);
  assert.ok(workers.every((u) => u.startsWith('data:text/javascript,')), 'every worker from a data: URL');
  assert.deepEqual(rec.requests.slice(seen).filter((u) => !u.startsWith('data:')), [], 'nothing fetched');
  await page.click('nav.areas button[data-area=gaps]');
});
