// Keyboard reachability (issue 18, item 7): on every part × view, every
// visible enabled control is reached by Tab, and the heatmap cells that are
// no tab stop by the arrow keys from the one that is; nothing a pointer can
// click is out of a keyboard's reach. The controls are collected from the
// page (support/contrast.mjs, `reachable`), the walk is real key presses.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch } from './support/browser.mjs';
import { measurer } from './support/contrast.mjs';
import { DIST, PAGE, need, shared } from './support/needs.mjs';
import { eachScene, parts } from './support/scenes.mjs';

// Two τ²-bench runs for the Runs view's side by side (../shared/data).
const RUNS = need(PAGE,
  shared('tau2/airline/results/claude-sonnet-4-5__aide-platform__airline_1trial.json'),
  shared('tau2/airline/results/gpt-oss-120b__langchain-agent__airline_1trial.json')).slice(1);

// Enough for the longest view (a list of 900 trajectories, drawn a window at a time).
const MAX_TABS = 4000;

let server;
let context;
let page;
let wb;

before(async () => {
  server = await startServer(DIST);
  context = await launch({ width: 1280, height: 1000 });
  await context.addInitScript(measurer);
  page = context.pages()[0] ?? await context.newPage();
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
});

after(async () => {
  await context?.close();
  await server?.close();
});

/** Tab from the top of the page until the focus comes round; the selectors focused. */
async function tabThrough() {
  await page.evaluate(() => window.__contrast.listen());
  // The title is no control: a click there starts the Tab order at the top.
  await page.click('header.top h1');
  let presses = 0;
  while (presses < MAX_TABS) {
    for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
    presses += 25;
    if (await page.evaluate(() => window.__contrast.cameRound())) break;
  }
  assert.ok(presses < MAX_TABS, `the Tab order came round within ${MAX_TABS} presses`);
  return page.evaluate(() => window.__contrast.focused());
}

/** Walk every drawn heatmap with the arrow keys (a snake, row by row); the selectors focused. */
async function arrowThrough() {
  await page.evaluate(() => window.__contrast.listen());
  for (const g of await page.evaluate(() => window.__contrast.grids())) {
    if (!g.stop) continue;
    await page.locator(g.stop).focus();
    for (let r = 0; r < g.rows; r++) {
      for (let c = 1; c < g.cols; c++) await page.keyboard.press(r % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
      if (r + 1 < g.rows) await page.keyboard.press('ArrowDown');
    }
  }
  return page.evaluate(() => window.__contrast.focused());
}

/** What the keyboard misses on the page as it is now: selectors. */
async function missed() {
  const want = await page.evaluate(() => window.__contrast.reachable());
  const tabbed = new Set(await tabThrough());
  const arrowed = new Set(await arrowThrough());
  return {
    tab: want.tab.filter((sel) => !tabbed.has(sel)),
    arrow: want.arrow.filter((sel) => !arrowed.has(sel)),
    pointerOnly: want.pointerOnly,
    reached: want.tab.length,
  };
}

test('the walk finds what no key reaches (it is not blind)', async () => {
  await page.evaluate(() => {
    document.querySelector('main').insertAdjacentHTML('afterbegin', `<div data-testid="kb-probe">
      <button id="kb-in">reached</button>
      <button id="kb-out" tabindex="-1">taken out of the Tab order</button>
      <span id="kb-pointer" style="cursor: pointer">clickable text</span>
      <details><summary>closed</summary><button id="kb-hidden">inside a closed details</button></details></div>`);
  });
  const m = await missed();
  await page.evaluate(() => document.querySelector('[data-testid=kb-probe]').remove());
  assert.deepEqual(m.tab, ['#kb-out']);
  assert.deepEqual(m.pointerOnly, ['#kb-pointer']);
  assert.deepEqual(m.arrow, []);
  assert.ok(m.reached > 10, `${m.reached} controls on the first view`);
});

for (const [part, name] of [['gaps', 'realization gaps'], ['evidence', 'evidence to action'], ['runtime', 'runtime contracts']]) {
  test(`keyboard: every control of the ${name} part is reached by Tab (heatmap cells by the arrow keys)`, async () => {
    assert.ok((await parts(page)).includes(part));
    const problems = [];
    let reached = 0;
    await eachScene(page, wb, part, RUNS, async (scene) => {
      const where = `${scene.part}/${scene.view}/${scene.state}`;
      const m = await missed();
      for (const sel of m.tab) problems.push(`${where}: not reached by Tab: ${sel}`);
      for (const sel of m.arrow) problems.push(`${where}: heatmap cell not reached by the arrow keys: ${sel}`);
      for (const sel of m.pointerOnly) problems.push(`${where}: clickable, but no key reaches it: ${sel}`);
      reached += m.reached;
      await page.mouse.move(1, 1);
    });
    console.log(`${part}: ${reached} controls reached over the part's scenes`);
    assert.ok(reached > 0);
    assert.deepEqual(problems, [], `${problems.length} unreachable:\n${problems.join('\n')}`);
  });
}

test('a failure bar focused from the keyboard lists its episodes on Enter, as a click does', async () => {
  await page.click('nav.areas button[data-area=evidence]');
  await page.click('[data-testid=evidence-nav] button[data-view=failures]');
  const seg = page.locator('[data-testid=failure-chart] [data-failure]').first();
  await seg.waitFor({ timeout: 60_000 });
  const failure = await seg.getAttribute('data-failure');
  await seg.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=view]')?.dataset.view === 'episodes');
  await page.getByTestId('clear-episode-filter').waitFor();
  const shown = await page.locator('[data-testid=evidence-episodes] tbody tr[data-id]').count();
  assert.ok(shown > 0, `the episodes of the ${failure} segment are listed`);
});
