// A file given to the wrong part (issue 18, item 1): named for what it is
// ("this is a runtime-contracts episode log … — open it in Runtime
// contracts"), with a button that opens it there; no parser complaint about
// a missing field, no command-line flag in the page's words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch } from './support/browser.mjs';
import { CLI, DIST, PAGE, RELEASE_CLI, SHARED, need } from './support/needs.mjs';

need(PAGE, RELEASE_CLI, ['the shared τ²-bench files (../shared/data/tau2)', join(SHARED, 'data/tau2')]);
const TELECOM = join(SHARED, 'data/tau2/telecom/results/gpt-4.1__llm_agent_solo__telecom_no-user_4trials_5tasks.json');

let server;
let context;
let page;
let wb;
let dir;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gapscope-routing-'));
  writeFileSync(join(dir, 'episodes.jsonl'), execFileSync(CLI, ['runtime', 'simulate', '--caps', '2,5'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  execFileSync(CLI, ['evidence', 'worked', '--out', dir]);
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

const area = () => page.locator('nav.areas button.on').getAttribute('data-area');

test('an episode log dropped among trajectories is named, and opens in Runtime contracts', async () => {
  await wb.fileInput.setInputFiles([join(dir, 'episodes.jsonl')]);
  await wb.errorMessage.waitFor({ timeout: 60_000 });
  const text = await wb.errorMessage.innerText();
  assert.equal(text, 'episodes.jsonl: this is a runtime-contracts episode log (`episode_id`, `train_runtime`, `deploy_runtime`), read by Runtime contracts — open it in Runtime contracts');
  assert.doesNotMatch(await wb.error.innerText(), /--|gapscope /, 'no command line in the page');
  await page.getByTestId('open-in-part').click();
  assert.equal(await area(), 'runtime');
  await page.waitForFunction(() => document.querySelector('[data-testid=runtime-source] .file')?.textContent === 'episodes.jsonl', null, { timeout: 60_000 });
  await page.locator('[data-testid=view] table').first().waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('runtime-error').count(), 0);
});

test('a τ²-bench results file given to Runtime contracts opens in Realization gaps', async () => {
  await page.getByTestId('runtime-input').setInputFiles([TELECOM]);
  const err = page.getByTestId('runtime-error');
  await err.waitFor({ timeout: 60_000 });
  assert.match(await err.innerText(), /^gpt-4\.1__llm_agent_solo__telecom_no-user_4trials_5tasks\.json: this is a trajectory file \(τ²-bench results\), read by Realization gaps — open it in Realization gaps/);
  await err.getByTestId('open-in-part').click();
  assert.equal(await area(), 'gaps');
  await page.waitForFunction(() => document.querySelector('[data-testid=trajectory-summary]')?.textContent.includes('20 trajectories'), null, { timeout: 120_000 });
});

test('an evidence case file and its trajectories dropped among trajectories go to Evidence to action together', async () => {
  await page.click('nav.areas button[data-area=gaps]');
  // The Runs view is open (the last test's drop): a misplaced file is named there too.
  assert.equal(await page.getByTestId('view').getAttribute('data-view'), 'compare');
  await wb.fileInput.setInputFiles([join(dir, 'cases.jsonl'), join(dir, 'trajectories.jsonl')]);
  await wb.errorMessage.first().waitFor({ timeout: 60_000 });
  assert.match(await wb.errorMessage.first().innerText(), /^cases\.jsonl: this is an evidence-to-action case file .* — open it in Evidence to action$/);
  await page.getByTestId('open-in-part').first().click();
  assert.equal(await area(), 'evidence');
  await page.waitForFunction(() => document.querySelector('[data-testid=evidence-source] .file')?.textContent.includes('cases.jsonl'), null, { timeout: 60_000 });
  await page.locator('[data-testid=view] table').first().waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('evidence-error').count(), 0, 'scored in its own part');
});
