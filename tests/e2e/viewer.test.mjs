// The trajectory viewer (issue 18, item 2): list and conversation side by
// side on a wide window and stacked on a narrow one; Markdown rendered
// safely (a message's `<img src=x onerror=…>` is text, a remote image is
// its URL and is never fetched, an embedded one a thumbnail); tool calls
// with their results; every Inspect score with its explanation; the
// τ²-bench reward breakdown and the task's scenario; tokens, time and how
// the run ended named for what they are; task ids in natural order.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { foreignServer, launch, record } from './support/browser.mjs';
import { DIST, PAGE, SHARED, need } from './support/needs.mjs';

need(PAGE, ['the shared data files (../shared/data)', join(SHARED, 'data')]);
const INSPECT = join(SHARED, 'data/inspect');
const ARITH_JSON = join(INSPECT, readdirSync(INSPECT).find((f) => /arith-agent.*\.json$/.test(f)));
const AIRLINE = join(SHARED, 'data/tau2/airline/results/gpt-4.1__llm_agent__airline_test20_1trial.json');

let server;
let foreign;
let context;
let page;
let wb;
let rec;

before(async () => {
  server = await startServer(DIST);
  foreign = await foreignServer();
  context = await launch({ width: 1400, height: 900 });
  page = context.pages()[0] ?? await context.newPage();
  rec = await record(context, page);
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
});

after(async () => {
  await context?.close();
  await server?.close();
  await foreign?.close();
});

const rowsOf = () => page.locator('[data-testid=trajectory-list] tbody tr[data-id]');

async function openTrajectory(id) {
  await wb.openView('trajectories');
  const row = page.locator(`[data-testid=trajectory-list] tbody tr[data-id="${id}"]`);
  await row.waitFor({ timeout: 60_000 });
  await row.click();
  const viewer = page.getByTestId('trajectory-viewer');
  await page.waitForFunction((i) => document.querySelector('[data-testid=trajectory-viewer]')?.dataset.id === i, id, { timeout: 60_000 });
  return viewer;
}

const facts = () => page.getByTestId('viewer-facts').evaluate((dl) => Object.fromEntries(
  [...dl.querySelectorAll('div')].map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])));

test('a hostile canonical trajectory: markup is text, remote images are URLs never fetched, embedded images are thumbnails', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-viewer-'));
  const file = join(dir, 'hostile.jsonl');
  const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const line = (id, task, messages) => JSON.stringify({ id, model: 'm', task_id: task, trial: 0, reward: 1, messages });
  writeFileSync(file, [
    line('hostile', '10', [
      { role: 'user', content: `<img src=x onerror="window.__pwned=1"> **bold** ![remote](${foreign.url}pixel.png) <script>window.__pwned=2</script>` },
      { role: 'assistant', content: [{ type: 'reasoning', reasoning: 'I should look it up first.' }, { type: 'text', text: 'Looking [it](javascript:window.__pwned=3) up.' }, { type: 'image', image: png }],
        tool_calls: [{ id: 'c1', name: 'lookup', arguments: { q: '<b>x</b>' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'not found', error: true },
    ]),
    line('two', '2', [{ role: 'user', content: 'hi' }]),
    line('one', '1', [{ role: 'user', content: 'hi' }]),
  ].join('\n') + '\n');
  await wb.fileInput.setInputFiles([file]);
  await wb.openView('trajectories');
  await rowsOf().first().waitFor({ timeout: 60_000 });
  // Natural order of task ids: 1, 2, 10 (the input order is 10, 2, 1).
  await page.getByTestId('trajectory-order').selectOption('task');
  assert.deepEqual(await rowsOf().evaluateAll((trs) => trs.map((tr) => tr.dataset.id)), ['one', 'two', 'hostile']);
  const viewer = await openTrajectory('hostile');
  const conversation = viewer.locator('.conversation');
  const text = await conversation.innerText();
  assert.ok(text.includes('<img src=x onerror="window.__pwned=1">'), `the markup is shown as text: ${text}`);
  assert.ok(text.includes('<script>window.__pwned=2</script>'), text);
  assert.ok(text.includes(`[image: remote — ${foreign.url}pixel.png]`), text);
  assert.equal(await conversation.locator('strong').innerText(), 'bold', 'Markdown is rendered');
  // Only the embedded image is an <img>; the javascript: link is no link.
  const imgs = await conversation.locator('img').evaluateAll((is) => is.map((i) => [i.className, i.getAttribute('src').slice(0, 22)]));
  assert.deepEqual(imgs, [['thumb', 'data:image/png;base64,']]);
  assert.equal(await conversation.locator('a').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'nothing the message holds ran');
  // Reasoning collapsed; the call with its arguments and its error result.
  const reasoning = conversation.locator('details.reasoning');
  assert.equal(await reasoning.getAttribute('open'), null, 'reasoning collapsed');
  assert.match(await reasoning.locator('summary').innerText(), /^reasoning \(6 words\)$/);
  const call = conversation.locator('.call');
  assert.match(await call.innerText(), /lookup[\s\S]*"q": "<b>x<\/b>"[\s\S]*result \(error\)[\s\S]*not found/);
  assert.notEqual(await call.locator('details.tool-result.error').getAttribute('open'), null, 'an error result is open');
  assert.deepEqual(foreign.hits, [], 'the remote image was never requested');
  assert.deepEqual(rec.requests.filter((u) => u.startsWith(foreign.url)), []);
});

test('an Inspect sample: every score with its scorer and explanation; tokens, time; the model\'s last stop is not a termination', async () => {
  await wb.fileInput.setInputFiles([ARITH_JSON]);
  await wb.openView('trajectories');
  await rowsOf().first().waitFor({ timeout: 60_000 });
  const id = await rowsOf().evaluateAll((trs) => trs.map((tr) => tr.dataset.id).find((i) => i.includes('div-1')));
  await openTrajectory(id);
  const log = JSON.parse(readFileSync(ARITH_JSON, 'utf8'));
  const sample = log.samples.find((s) => s.id === 'div-1' && `${s.epoch}` === id.match(/epoch(\d+)/)[1]);
  const rows = await page.locator('[data-testid=viewer-scores] table.scores tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    scorer: tr.dataset.scorer, cells: [...tr.querySelectorAll('td')].map((td) => td.innerText.trim()),
  })));
  assert.deepEqual(rows.map((r) => r.scorer), Object.keys(sample.scores), 'every scorer, in the file\'s order');
  for (const r of rows) {
    const s = sample.scores[r.scorer];
    if (typeof s.value === 'number') assert.equal(Number(r.cells[0]), s.value, r.scorer);
    else if (typeof s.value === 'string') assert.equal(r.cells[0], s.value, r.scorer);
    else assert.deepEqual(JSON.parse(r.cells[0]), s.value, r.scorer);
    if (s.explanation) assert.ok(r.cells[2].replace(/\s+/g, ' ').includes(s.explanation.split('\n')[0].trim()), `${r.scorer}: ${r.cells[2]}`);
  }
  const f = await facts();
  assert.equal(f.ended, 'no termination reason recorded (no limit, no error)');
  assert.equal(f["model's last stop reason"], sample.output.choices[0].stop_reason);
  const usage = sample.model_usage['mockllm/model'];
  assert.ok(f.tokens.includes(`mockllm/model: ${usage.input_tokens} in, ${usage.output_tokens} out`), f.tokens);
  assert.match(f.duration, /s \(.* working\)$/);
});

test('a τ²-bench simulation: the reward breakdown, the task\'s scenario, duration and cost', async () => {
  await wb.fileInput.setInputFiles([AIRLINE]);
  await wb.openView('trajectories');
  await rowsOf().first().waitFor({ timeout: 60_000 });
  const results = JSON.parse(readFileSync(AIRLINE, 'utf8'));
  const sim = results.simulations.find((s) => (s.reward_info?.nl_assertions ?? []).length > 0) ?? results.simulations[0];
  await openTrajectory(sim.id);
  const scores = await page.locator('[data-testid=viewer-scores] table.scores tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.scorer, tr.querySelector('td').innerText]));
  for (const [k, v] of Object.entries(sim.reward_info.reward_breakdown ?? {})) {
    assert.ok(scores.some(([s, x]) => s === k && Number(x) === v), `${k} ${v} in ${JSON.stringify(scores)}`);
  }
  const nl = scores.filter(([s]) => s === 'NL assertion').map(([, x]) => x);
  assert.deepEqual(nl, (sim.reward_info.nl_assertions ?? []).map((a) => (a.met ? 'met' : 'not met')));
  const task = results.tasks.find((t) => t.id === sim.task_id);
  const scenario = await page.getByTestId('viewer-task').innerText();
  assert.ok(scenario.includes(task.user_scenario.instructions.reason_for_call.split('\n')[0].trim()), scenario);
  const f = await facts();
  assert.equal(f.ended, sim.termination_reason);
  assert.ok(f.duration && f['agent cost'].startsWith('$'), JSON.stringify(f));
});

test('wide: list and conversation side by side, the conversation in view; narrow: stacked', async () => {
  const list = page.locator('.reader-list');
  const slot = page.locator('.viewer-slot');
  let [l, v] = [await list.boundingBox(), await slot.boundingBox()];
  assert.ok(v.x >= l.x + l.width - 1 && Math.abs(v.y - l.y) < 40, `side by side at 1400 px: list ${JSON.stringify(l)}, viewer ${JSON.stringify(v)}`);
  // Scrolled down the list, the viewer stays in view.
  await page.evaluate(() => window.scrollBy(0, 600));
  const inView = () => page.getByTestId('trajectory-viewer').evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0;
  });
  assert.ok(await inView(), 'the viewer is in the viewport');
  await page.setViewportSize({ width: 800, height: 900 });
  [l, v] = [await list.boundingBox(), await slot.boundingBox()];
  assert.ok(v.y >= l.y + l.height - 1, `stacked at 800 px: list ${JSON.stringify(l)}, viewer ${JSON.stringify(v)}`);
  // Opened from the list, the conversation is scrolled into view.
  await rowsOf().nth(1).click();
  await page.waitForTimeout(300);
  assert.ok(await inView(), 'the viewer is scrolled into view');
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('no console errors and no request to any other origin', async () => {
  assert.deepEqual(rec.consoleErrors, []);
  const foreignReq = rec.requests.filter((u) => !u.startsWith(server.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreignReq, []);
});
