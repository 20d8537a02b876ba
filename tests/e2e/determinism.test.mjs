// Determinism (issue 8, part 3), browser against native: the JSON report the
// page exports ("Export report (JSON)") for a file and settings equals
// `gapscope report --json` on the same file and settings, walked key by key:
// the same keys, the same array lengths, strings and booleans and nulls equal,
// every number within 1e-12 × max(1, |native|). One thing differs, by design of
// the two front ends, and is checked exactly: the notes on joining several
// files (which files, how many trajectories, which tasks) are the first
// entries of the page's `warnings`, while the CLI prints them on stderr as
// `note: …` lines (with the file names as given, so the CLI runs here in the
// files' folder on bare names, as the page knows them).
// And the page's export is byte-identical when the same analysis is computed
// again (by whichever worker of the pool takes it).
// Needs `trunk build --release` and `cargo build --release -p gapscope-cli`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { basename, dirname, join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch, record } from './support/browser.mjs';
import { CLI, PAGE, RELEASE_CLI, ROOT, need } from './support/needs.mjs';
import { differences } from './support/json.mjs';

need(PAGE, RELEASE_CLI);

/** The largest |a − b| / max(1, |b|) over the numbers of two trees of one shape, and how many differ at all. */
function deviation(a, b, acc = { max: 0, differ: 0 }) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a !== b) acc.differ += 1;
    acc.max = Math.max(acc.max, Math.abs(a - b) / Math.max(1, Math.abs(b)));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of Object.keys(a)) if (k in b) deviation(a[k], b[k], acc);
  }
  return acc;
}

/** How many numbers a tree holds. */
function countNumbers(v) {
  if (typeof v === 'number') return 1;
  if (v && typeof v === 'object') return Object.values(v).reduce((n, x) => n + countNumbers(x), 0);
  return 0;
}

/** The CLI's report text, and its report with the stderr notes put first in `warnings` (as the page does). */
function cliReport(files, args) {
  const run = spawnSync(CLI, ['report', '--profiles', files.map((f) => basename(f)).join(','), '--json', ...args],
    { cwd: dirname(files[0]), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(run.status, 0, run.stderr);
  const notes = run.stderr.split('\n').filter((l) => l.startsWith('note: ')).map((l) => l.slice('note: '.length));
  const report = JSON.parse(run.stdout);
  return { text: run.stdout, notes, report: { ...report, warnings: [...notes, ...report.warnings] } };
}

let server;
let context;
let page;
let wb;
let rec;

before(async () => {
  server = await startServer(join(ROOT, 'dist'));
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
});

after(async () => {
  await context?.close();
  await server?.close();
});

test('the walk finds what differs (it is not blind)', () => {
  assert.deepEqual(differences({ a: [1, 2, null], s: 'x', n: 1e6 }, { a: [1, 2, null], s: 'x', n: 1e6 + 1e-7 }), []);
  assert.deepEqual(differences({ a: [1, 2.000001], s: 'x', n: 1e6 }, { a: [1, 2], s: 'y', n: 1e6 + 1e-5, m: 0 }), [
    '$.a[1]: 2.000001 against 2',
    '$.s: "x" against "y"',
    '$.n: 1000000 against 1000000.00001',
    '$.m: missing in the first',
  ]);
  assert.deepEqual(differences([null], [0]), ['$[0]: null null against number 0']);
});

/** Set the settings fields, then pick the files, and wait for the analysis. */
async function analyse(files, settings, source) {
  for (const [k, v] of Object.entries(settings)) await wb.setSetting(k, v);
  await wb.waitIdle();
  await wb.fileInput.setInputFiles(files);
  await wb.waitForSource(source);
}

async function exportReport() {
  return (await wb.download(() => page.getByTestId('export-json').click())).text;
}

const CASES = [
  {
    name: 'the synthetic example with the defaults (α 10, B 10,000, seed 0)',
    files: [join(ROOT, 'assets/synthetic-example.csv')],
    source: 'synthetic-example.csv',
    settings: { alpha: '10', bootstrap: '10000', seed: '0' },
    args: [],
    notes: 0,
  },
  {
    name: 'a small table with missing values under other settings (α 3, B 500, seed 5)',
    files: [join(ROOT, 'tests/fixtures/profiles-small.csv')],
    source: 'profiles-small.csv',
    settings: { alpha: '3', bootstrap: '500', seed: '5' },
    args: ['--alpha', '3', '--bootstrap', '500', '--seed', '5'],
    notes: 0,
  },
  {
    name: 'a foundational profile joined with labelled trajectories (α 0.5, B 2,000, seed 11)',
    files: [join(ROOT, 'tests/fixtures/foundational-small.csv'), join(ROOT, 'tests/fixtures/trajectories-small.jsonl')],
    source: 'foundational-small.csv + trajectories-small.jsonl',
    settings: { alpha: '0.5', bootstrap: '2000', seed: '11' },
    args: ['--alpha', '0.5', '--bootstrap', '2000', '--seed', '11'],
    notes: 1,
  },
];

for (const c of CASES) {
  test(`page and CLI agree on every number: ${c.name}`, async () => {
    await analyse(c.files, c.settings, c.source);
    const pageText = await exportReport();
    const native = cliReport(c.files, c.args);
    assert.equal(native.notes.length, c.notes, 'join notes on the CLI\'s stderr');
    const diffs = differences(JSON.parse(pageText), native.report);
    assert.deepEqual(diffs, [], `${diffs.length} differences`);
    const n = countNumbers(native.report);
    assert.ok(n > 200, `a real report (${n} numbers)`);
    // For the record: how many numbers are not bit-equal (wasm's libm and the
    // native one may round a power or a logarithm differently in the last
    // place), and whether the texts are byte-identical.
    const dev = deviation(JSON.parse(pageText), native.report);
    const same = pageText.trimEnd() === native.text.trimEnd();
    console.log(`# ${c.source}: ${n} numbers, ${dev.differ} not bit-equal, largest relative deviation ${dev.max.toExponential(2)}; JSON texts ${same ? 'byte-identical' : 'differ'}`);
  });
}

test('the page exports byte-identical reports when the same analysis runs again', async () => {
  const first = await exportReport();
  // Another analysis in between, then the same settings again: the pool may
  // hand the job to another worker.
  await wb.setSetting('seed', '12');
  await page.waitForFunction(() => /seed 12\./.test(document.querySelector('[data-testid=summary-detail]')?.textContent ?? ''));
  await wb.waitIdle();
  const other = await exportReport();
  assert.notEqual(other, first, 'another seed changes the report');
  await wb.setSetting('seed', '11');
  await page.waitForFunction(() => /seed 11\./.test(document.querySelector('[data-testid=summary-detail]')?.textContent ?? ''));
  await wb.waitIdle();
  assert.equal(await exportReport(), first);
  assert.deepEqual(rec.consoleErrors, []);
});
