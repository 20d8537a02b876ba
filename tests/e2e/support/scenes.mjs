// Every part × view of the workbench as a sequence of scenes, for the
// contrast and keyboard tests (issue 18, item 7). The part and view ids are
// read from the page's own tabs, so a new view is visited without a change
// here. Some views get more than one scene: the Trajectories view before and
// after the synthetic corpus is loaded and with a trajectory open; a task of
// the Runs view side by side, of the corpus and of two real runs that
// diverge; the evidence replay of an episode; the runtime stepper at the turn the cap cuts
// a block and at the NameError after a reset.
import assert from 'node:assert/strict';

/** Two animation frames: what a state change drew is laid out. */
export const frames = (page) => page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));

/** Wait until no analysis, job or reading is under way on the page. */
export async function settle(page) {
  await page.waitForFunction(() => {
    if (document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') !== 'false') return false;
    const view = document.querySelector('[data-testid=view]');
    if (!view) return false;
    // A job's placeholder ("Scoring in a worker…", "Reading the trajectories…").
    return ![...view.querySelectorAll('p.explain, p.muted, [data-testid$=busy], [data-testid=viewer-loading]')]
      .some((p) => /…$/.test(p.textContent.trim()));
  }, null, { timeout: 120_000 });
  await frames(page);
}

/**
 * Scroll the box of list `testid` back to its top: a list drawn a window at
 * a time (scrolled by an earlier walk through it) draws its first rows again.
 */
async function toTop(page, testid) {
  await page.locator('.table-box', { has: page.getByTestId(testid) }).evaluate((el) => { el.scrollTop = 0; });
  await frames(page);
  await page.getByTestId(testid).locator('tbody tr[data-id]').first().waitFor();
}

async function openView(page, view) {
  await page.click(`nav.views button[data-view=${view}]`);
  await page.waitForFunction((v) => document.querySelector('[data-testid=view]')?.dataset.view === v, view);
  await settle(page);
}

/** The part ids of the page's part tabs. */
export async function parts(page) {
  const ids = await page.locator('nav.areas button[data-area]').evaluateAll((bs) => bs.map((b) => b.dataset.area));
  assert.deepEqual(ids, ['gaps', 'evidence', 'runtime'], 'the parts this test knows how to fill');
  return ids;
}

// Scenes beyond "the view as opened", by part/view. Each yields a state name
// once the page shows it.
const MORE = {
  async *'gaps/trajectories'(page, wb) {
    yield 'no trajectories loaded';
    await page.getByTestId('load-corpus').click();
    await wb.waitForSource('synthetic trajectories');
    await page.getByTestId('overview-summary').waitFor({ timeout: 60_000 });
    await settle(page);
    yield 'synthetic corpus listed';
    await toTop(page, 'trajectory-list');
    await page.locator('[data-testid=trajectory-list] tbody tr[data-id]').first().click();
    await page.getByTestId('trajectory-viewer').waitFor({ timeout: 30_000 });
    await settle(page);
    yield 'a trajectory open in the viewer';
  },
  async *'gaps/stability'(page) {
    await page.locator('table.data[data-title^="Cross-task stability"]').waitFor({ timeout: 120_000 });
    await settle(page);
    yield 'stability of the corpus';
  },
  async *'gaps/compare'(page, wb, runs) {
    yield 'runs of the corpus';
    // A task of the per-task table, its two trajectories side by side.
    await page.locator('[data-testid=view] table.data tr.pick').first().click();
    await page.getByTestId('side-by-side').waitFor({ timeout: 30_000 });
    await page.getByTestId('aligned-calls').waitFor({ timeout: 30_000 });
    await settle(page);
    yield 'a task side by side';
    // Two real runs (τ²-bench files) differ in their tool calls: the rows
    // where they diverge are marked.
    await wb.fileInput.setInputFiles(runs);
    await page.getByTestId('compare-summary').waitFor({ timeout: 120_000 });
    await settle(page);
    const tasks = page.locator('table.data[data-title^="Tasks:"] tbody tr[data-row]');
    const n = await tasks.count();
    for (let i = 0; i < n && (await page.locator('table.side tr.diverge').count()) === 0; i++) {
      await tasks.nth(i).click();
      await page.getByTestId('side-summary').waitFor({ timeout: 30_000 });
      await settle(page);
    }
    assert.ok(await page.locator('table.side tr.diverge').count() > 0, 'a task where the two runs diverge');
    yield 'two τ²-bench runs, a task where they diverge';
  },
  async *'evidence/episodes'(page) {
    yield 'every episode listed';
    // Opening a row moves to the Episode view with its replay (the next scene).
    await toTop(page, 'evidence-episodes');
    await page.locator('[data-testid=evidence-episodes] tbody tr[data-id]').first().click();
    await page.getByTestId('evidence-replay').waitFor({ timeout: 30_000 });
  },
  async *'evidence/episode'(page) {
    await page.getByTestId('evidence-replay').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=replay-steps] .text').length > 0);
    yield 'an episode replayed with its ledger';
  },
  async *'runtime/episodes'(page) {
    yield 'every episode listed';
    // A P→S episode at cap 5: the cap cuts a block, then a reset brings a NameError.
    // From the top of the list, the first such episode.
    await toTop(page, 'runtime-episodes');
    const k = await page.locator('[data-testid=runtime-episodes] tbody tr').evaluateAll((trs) =>
      trs.findIndex((tr) => tr.children[2]?.textContent === 'P→S' && tr.children[3]?.textContent === '5'));
    assert.ok(k >= 0, 'a P→S episode at cap 5 in the runtime list');
    await page.locator('[data-testid=runtime-episodes] tbody tr').nth(k).click();
    await page.getByTestId('runtime-stepper').waitFor();
  },
  async *'runtime/stepper'(page) {
    await page.getByTestId('runtime-stepper').waitFor();
    const stepUntil = async (attr) => {
      for (let i = 0; i < 40 && (await page.getByTestId('turn').getAttribute(attr)) !== 'true'; i++) {
        await page.getByTestId('turn-next').click();
      }
      assert.equal(await page.getByTestId('turn').getAttribute(attr), 'true', `the stepper reaches a turn with ${attr}`);
      await frames(page);
    };
    await stepUntil('data-cap-hit');
    yield 'stepper: the cap cuts a block';
    await stepUntil('data-name-error');
    assert.ok(await page.locator('[data-testid=turn] pre.invalid').isVisible(), 'the NameError text is shown');
    yield 'stepper: a NameError after the reset';
  },
};

/**
 * Visit every view of part `part` (its tab clicked first), calling
 * `visit({part, view, state})` once per scene with the page showing it.
 * `runs`: two τ²-bench results files, dropped last (on the Runs view).
 * Returns the views visited.
 */
export async function eachScene(page, wb, part, runs, visit) {
  await page.click(`nav.areas button[data-area=${part}]`);
  await settle(page);
  const views = await page.locator('nav.views button[data-view]').evaluateAll((bs) => bs.map((b) => b.dataset.view));
  assert.ok(views.length >= 5, `the ${part} part's views: ${views}`);
  for (const view of views) {
    await openView(page, view);
    const more = MORE[`${part}/${view}`];
    if (!more) {
      await visit({ part, view, state: 'as opened' });
      continue;
    }
    for await (const state of more(page, wb, runs)) await visit({ part, view, state });
  }
  return views;
}
