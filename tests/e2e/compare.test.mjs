// Compare runs (issue 17): two real τ²-bench airline runs dropped alone (no
// profile table) are compared on the Compare view; every number the page
// shows equals `gapscope compare --json` on the same files, and a task
// opens both runs' trajectories side by side, their tool calls aligned and
// the first divergence marked where an independent computation here (the
// tool calls read from the τ²-bench JSON, a plain LCS) puts it.
// Needs `trunk build --release` and `cargo build --release -p gapscope-cli`,
// and ../shared/data (fails loudly without it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { writeCompareInput } from '../../scripts/compare-input.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch, record } from './support/browser.mjs';
import { ARTIFACTS, CLI, DIST, PAGE, RELEASE_CLI, need, shared } from './support/needs.mjs';

const [A, B, EVAL, EVAL_JSON] = need(PAGE, RELEASE_CLI,
  shared('tau2/airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json'),
  shared('tau2/airline/results/gpt-oss-120b__langchain-agent__airline_1trial.json'),
  shared('inspect/2026-11-29T16-54-07-00-00_arith-agent_ZKFTMo2fnNsmPRjuUtSfAY.eval'),
  shared('inspect/2026-11-29T16-54-10-00-00_arith-agent_RUTTu4uSk2DFBUScuc9P9j.json')).slice(2);
const INSPECT = dirname(EVAL);

/** What the page shows for a 0–1 number on 0–100 (gapscope_view::format::fmt). */
function pct(v, decimals = 1) {
  if (v === null) return '—';
  const s = (100 * v).toFixed(decimals);
  return /^-0\.0*$/.test(s) ? s.slice(1) : s.replace('-', '−');
}
const signed = (v) => (v > 0 && /[1-9]/.test(pct(v)) ? `+${pct(v)}` : pct(v));
/** gapscope_view::compare::p_text. */
function pText(p) {
  if (p === null) return '—';
  return p >= 0.001 ? p.toFixed(3) : p.toExponential(1).replace('-', '−');
}
const interval = (b) => (b && b.lo !== null ? `[${pct(b.lo)}, ${pct(b.hi)}]` : '—');

/** JSON text with sorted keys at every depth (the alignment's key). */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The tool calls of a task's simulation in a τ²-bench results file, read here. */
function calls(file, taskId) {
  const sim = JSON.parse(readFileSync(file, 'utf8')).simulations.find((s) => String(s.task_id) === taskId);
  return sim.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => `${c.name}(${canonical(c.arguments ?? {})})`));
}

/** The LCS length by the textbook table (independent of gapscope's align). */
function lcs(a, b) {
  const t = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
    }
  }
  return t[0][0];
}

let server;
let context;
let page;
let wb;
let rec;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer(DIST);
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

/** The page's cells of a heatmap by test id: {row, col, value, text}. */
const cells = (id) => wb.cells(page.getByTestId(id));

test('two runs dropped alone: the Compare view equals gapscope compare --json, and a task opens side by side', async () => {
  await wb.fileInput.setInputFiles([A, B]);
  await wb.openView('compare');
  await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
  // A trajectory-only drop: no error panel in front of the comparison.
  assert.equal(await page.getByTestId('error').count(), 0);
  const summary = await page.getByTestId('compare-summary').innerText();
  const [, draws] = summary.match(/B = (\d+) bootstrap draws/);
  assert.match(summary, /^2 runs \(by model\), 1 pairs; B = \d+ bootstrap draws, P = 10000 permutations, seed 0/);
  const cli = JSON.parse(execFileSync(CLI, ['compare', A, B, '--json', '--bootstrap', draws], { encoding: 'utf8' }));

  // The runs table: n, N, mean and both intervals of each run.
  const runs = await wb.table('Runs');
  assert.equal(runs.rows.length, cli.runs.length);
  for (const [i, run] of cli.runs.entries()) {
    const row = runs.rows[i];
    const s = run.summary;
    assert.equal(row[0], run.name);
    assert.equal(row[1], String(s.tasks));
    assert.equal(row[2], String(s.trajectories));
    assert.equal(row[4], pct(s.mean), `${run.name} mean`);
    assert.equal(row[5], `[${pct(s.normal[0])}, ${pct(s.normal[1])}]`, `${run.name} clustered CI`);
    assert.equal(row[6], interval(s.bootstrap), `${run.name} bootstrap CI`);
  }

  // The pairs table and the matrix: Δ, its intervals, MDE, every p.
  const [pair] = cli.pairs;
  const c = pair.comparison;
  const pairs = await wb.table('Pairs');
  const prow = pairs.rows[0];
  assert.deepEqual(prow.slice(0, 7), [pair.a, pair.b, String(c.common), pct(c.delta), interval(c.bootstrap),
    `[${pct(c.normal[0])}, ${pct(c.normal[1])}]`, pct(c.mde)]);
  assert.deepEqual(prow.slice(8), [pair.sign_test_p.raw, pair.sign_test_p.holm, pair.sign_test_p.bh,
    pair.permutation_p.raw, pair.permutation_p.holm, pair.permutation_p.bh].map(pText));
  const matrix = await cells('pair-matrix');
  // What a reader sees above the columns: the corner, then each run's name.
  const heads = await page.locator('[data-testid=pair-matrix] thead th').allInnerTexts();
  assert.deepEqual(heads.map((h) => h.trim()), ['row − column', ...cli.runs.map((r) => r.name)]);
  await page.getByTestId('task-heatmap').waitFor();
  const taskHeads = await page.locator('[data-testid=task-heatmap] thead th').allInnerTexts();
  assert.deepEqual(taskHeads.map((h) => h.trim()), ['task \\ run', ...cli.runs.map((r) => r.name)]);
  const ab = matrix.find((m) => m.row === pair.a && m.col === pair.b);
  const ba = matrix.find((m) => m.row === pair.b && m.col === pair.a);
  assert.equal(ab.text, `${signed(c.delta)} (p ${pText(pair.permutation_p.holm)})`);
  assert.ok(Math.abs(ab.value - 100 * c.delta) < 1e-9 && Math.abs(ba.value + 100 * c.delta) < 1e-9);
  // The toggle: the sign test's Holm p, and the URL says so.
  await page.getByTestId('compare-p').selectOption('sign');
  await page.waitForFunction((t) => [...document.querySelectorAll('[data-testid=pair-matrix] td.cell')]
    .some((td) => td.textContent === t), `${signed(c.delta)} (p ${pText(pair.sign_test_p.holm)})`);
  assert.match(page.url(), /[?&]p=sign/);

  // The per-task table of the pair: only the tasks where the runs differ.
  await page.getByTestId('task-differing').check();
  const differing = c.tasks.filter((t) => Math.abs(t.d) > 1e-12);
  const tasks = await wb.table('Tasks:');
  assert.equal(tasks.rows.length, differing.length);
  assert.deepEqual(tasks.rows.map((r) => r[0]), differing.map((t) => t.key));
  assert.deepEqual(tasks.rows.map((r) => r[5]), differing.map((t) => pct(t.d)));

  // Click the first differing task: both trajectories, side by side.
  const key = differing[0].key;
  await page.locator(`table.data[data-title^="Tasks:"] tbody tr[data-row]`).first().click();
  const side = page.getByTestId('side-by-side');
  await side.waitFor();
  assert.equal(await side.getAttribute('data-task'), key);
  await page.getByTestId('side-summary').waitFor({ timeout: 30_000 });
  const taskId = key.slice(key.indexOf('/') + 1);
  const ca = calls(A, taskId);
  const cb = calls(B, taskId);
  const matched = lcs(ca, cb);
  const text = await page.getByTestId('side-summary').innerText();
  const rows = await page.locator('[data-testid=aligned-calls] tbody tr').count();
  assert.equal(rows, ca.length + cb.length - matched, 'one row per match and per unmatched call');
  if (matched === ca.length && ca.length === cb.length) {
    assert.match(text, /match, in order/);
  } else {
    assert.match(text, new RegExp(`^${matched} of ${ca.length} \\(A\\) and ${cb.length} \\(B\\) tool calls match`));
    // The first divergence follows the longest common prefix of the two call lists.
    let prefix = 0;
    while (prefix < ca.length && prefix < cb.length && ca[prefix] === cb[prefix]) prefix++;
    const first = page.getByTestId('first-divergence');
    assert.equal(await first.count(), 1);
    assert.equal(await first.locator('td').first().innerText(), String(prefix + 1));
    assert.match(text, new RegExp(`first diverge at row ${prefix + 1}`));
  }
  await page.screenshot({ path: join(ARTIFACTS, 'compare.png'), fullPage: true });
  await page.getByTestId('compare-summary').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'compare-top.png') });
  await page.getByTestId('side-by-side').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'compare-side.png') });
  // Nothing on the view is wider than the window (long tool calls wrap).
  const wide = await page.evaluate(() => (document.documentElement.scrollWidth <= window.innerWidth + 1 ? [] : [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
    .filter((el) => { for (let p = el.parentElement; p; p = p.parentElement) { if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return false; } return true; }))
    .slice(0, 5).map((el) => `${el.tagName}.${el.className}[${el.dataset.testid ?? ''}] ${Math.round(el.getBoundingClientRect().width)}px`));
  assert.deepEqual(wide, [], 'no sideways scrolling');
  // A narrow window (400 px), the task still open: the page does not scroll
  // sideways (wide tables scroll in their boxes, long calls and names wrap).
  await page.setViewportSize({ width: 400, height: 800 });
  try {
    await page.waitForFunction(() => window.innerWidth === 400);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 400, 'the Compare view fits 400 px');
  } finally {
    await page.setViewportSize({ width: 1280, height: 1000 });
  }
});

test('two Inspect AI logs of one model: split by file, epochs as trials, the numbers of gapscope compare --json', async () => {
  await wb.fileInput.setInputFiles([EVAL, EVAL_JSON]);
  await page.waitForFunction(() => /mockllm\/model/.test(document.querySelector('table.data[data-title=Runs]')?.textContent ?? ''),
    null, { timeout: 120_000 });
  const summary = await page.getByTestId('compare-summary').innerText();
  const [, draws] = summary.match(/B = (\d+) bootstrap draws/);
  const cli = JSON.parse(execFileSync(CLI, ['compare', EVAL, EVAL_JSON, '--json', '--bootstrap', draws], { encoding: 'utf8' }));
  // The CLI names a file by the path it was given; the page by the file's name.
  const named = (n) => n.replace(`${INSPECT}/`, '');
  assert.match(await page.getByTestId('compare-notes').innerText(), /its 2 files repeat \(task, trial\) pairs, so it is split by file/);
  const runs = await wb.table('Runs');
  assert.deepEqual(runs.rows.map((r) => r[0]), cli.runs.map((r) => named(r.name)));
  for (const [i, run] of cli.runs.entries()) {
    const s = run.summary;
    assert.deepEqual(runs.rows[i].slice(1, 7), [String(s.tasks), String(s.trajectories), '2', pct(s.mean),
      `[${pct(s.normal[0])}, ${pct(s.normal[1])}]`, interval(s.bootstrap)]);
    assert.equal(runs.rows[i][8], pct(s.pass_hat[0].value));
    assert.equal(runs.rows[i][9], pct(s.pass_hat[1].value));
  }
  const [pair] = cli.pairs;
  const prow = (await wb.table('Pairs')).rows[0];
  assert.deepEqual(prow.slice(2, 4), [String(pair.comparison.common), pct(pair.comparison.delta)]);
  assert.equal(prow[12], pText(pair.permutation_p.holm));
});

test('a long comparison: the per-task table and the heatmap scroll in windows that reach every task, and the focus follows the arrow keys', async () => {
  // 3 runs × 400 tasks: more than the rows a window draws
  // (gapscope_view::window::DRAWN, 80).
  await wb.fileInput.setInputFiles(writeCompareInput(3, 400, 1));
  await page.waitForFunction(() => /run-2/.test(document.querySelector('table.data[data-title=Runs]')?.textContent ?? ''),
    null, { timeout: 120_000 });
  await page.getByTestId('task-differing').uncheck(); // checked by the first test
  const csv = (await wb.exportTable('Tasks:', 'csv')).text.trim().split('\n').slice(1).map((l) => l.split(',')[0]);
  assert.equal(csv.length, 400, 'the CSV has every task');
  const table = page.locator('table.data[data-title^="Tasks:"]');
  const drawn = () => table.locator('tbody tr[data-row]').evaluateAll((trs) => trs.map((tr) => [Number(tr.dataset.row), tr.cells[0].textContent]));
  let rows = await drawn();
  const n = rows.length;
  assert.ok(n >= 24 && n < 400, `a window of ${n} rows`);
  assert.deepEqual(rows, csv.slice(0, n).map((k, i) => [i, k]), 'the first window: the first tasks');
  // Scrolled to the end: the last window, in the order of the CSV.
  const box = page.locator('.table-box', { has: table });
  await box.evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await page.waitForFunction(() => document.querySelector('table.data[data-title^="Tasks:"] tbody tr[data-row="399"]'));
  rows = await drawn();
  assert.deepEqual(rows, csv.slice(400 - n).map((k, i) => [400 - n + i, k]), 'the last window: the last tasks');
  // The box is shorter than the table: the page does not grow with the tasks.
  const [boxH, tableH] = await box.evaluate((el) => [el.clientHeight, el.scrollHeight]);
  assert.ok(boxH < tableH / 4, `box ${boxH}px, table ${tableH}px`);
  // The last task, clicked, opens side by side.
  await table.locator('tbody tr[data-row="399"]').click();
  await page.waitForFunction((k) => document.querySelector('[data-testid=side-by-side]')?.dataset.task === k, csv[399]);

  // The heatmap: every task a row; ↓ from the first cell past the first
  // window keeps the focus (the window redraws under it).
  const heat = page.getByTestId('task-heatmap');
  await heat.locator('td[data-r="0"][data-c="1"]').focus();
  for (let r = 1; r <= 130; r++) {
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((want) => document.activeElement?.dataset.r === String(want), r);
  }
  const focused = await page.evaluate(() => [document.activeElement.dataset.c, document.activeElement.closest('tr').querySelector('th').textContent]);
  const keys = [...new Set(csv)].sort();
  assert.deepEqual(focused, ['1', keys[130]], 'the focus is on task 131, run 2');
  assert.ok(await heat.locator('tbody tr:not(.pad)').count() <= n, 'at most a window of rows drawn');
});

test('no console errors and no request to any other origin', async () => {
  assert.deepEqual(rec.consoleErrors, []);
  const foreign = rec.requests.filter((u) => !u.startsWith(server.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, []);
});
