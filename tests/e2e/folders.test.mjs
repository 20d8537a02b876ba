// Folders (issue 16): a folder given through the directory picker
// (Playwright's `setInputFiles(dir)`, the path a real drop takes too) is
// read as the command line reads a directory: directory formats first,
// every other file by content, the rest skipped with the reason; the page
// lists what it read and skipped as the CLI prints it, and shows the
// trajectories in the list and the viewer.
// Needs `trunk build --release` and `cargo build --release -p gapscope-cli`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

import { startServer } from '../../scripts/serve.mjs';
import { WorkbenchPage } from './pages/workbench.mjs';
import { launch } from './support/browser.mjs';
import { ARTIFACTS, CLI, PAGE, RELEASE_CLI, ROOT, need } from './support/needs.mjs';

need(PAGE, RELEASE_CLI);

let server;
let context;
let page;
let wb;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer(join(ROOT, 'dist'));
  context = await launch();
  page = context.pages()[0] ?? await context.newPage();
  wb = new WorkbenchPage(page);
  await wb.open(server.url);
});

after(async () => {
  await context?.close();
  await server?.close();
});

/** The folder lines the CLI prints for `profiles --trajectories DIR` (run beside DIR, so it names the folder as the page does). */
function cliFolderLines(dir) {
  const out = spawnSync(CLI, ['profiles', '--trajectories', basename(dir)], { cwd: dirname(dir), encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const lines = out.stderr.split('\n');
  const at = lines.findIndex((l) => l.startsWith('folder '));
  assert.ok(at >= 0, out.stderr);
  const listed = [];
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith('  ')) break;
    listed.push(l.slice(2));
  }
  return { sentence: lines[at].slice('folder '.length), listed };
}

/** Pick a folder with the directory picker and open the trajectory list. */
async function pickFolder(dir) {
  await page.getByTestId('folder-input').setInputFiles(dir);
  await wb.openView('trajectories');
  await page.getByTestId('overview-summary').waitFor({ timeout: 30_000 });
}

async function folderShown() {
  const box = page.getByTestId('overview-folder').first();
  await box.locator('summary').click();
  return {
    sentence: (await box.locator('summary').innerText()).replace(/^Folder /, ''),
    listed: await box.locator('li').allInnerTexts(),
  };
}

test('a picked folder is read by content, with what was skipped and why, as the CLI reads it', async () => {
  const lines = readFileSync(join(ROOT, 'tests/fixtures/trajectories-small.jsonl'), 'utf8').split('\n').filter(Boolean);
  const dir = join(mkdtempSync(join(tmpdir(), 'gapscope-folder-')), 'runs');
  mkdirSync(join(dir, 'a'), { recursive: true });
  mkdirSync(join(dir, 'b'), { recursive: true });
  writeFileSync(join(dir, 'a/first.jsonl'), `${lines.slice(0, 4).join('\n')}\n`);
  writeFileSync(join(dir, 'b/second.jsonl'), `${lines.slice(4).join('\n')}\n`);
  writeFileSync(join(dir, 'README.md'), '# two halves of a run\n');
  writeFileSync(join(dir, 'b/tasks.json'), JSON.stringify([{ id: '0', user_scenario: {}, evaluation_criteria: {} }]));
  await pickFolder(dir);
  const cli = cliFolderLines(dir);
  const shown = await folderShown();
  assert.equal(shown.sentence, cli.sentence);
  assert.deepEqual(shown.listed, cli.listed);
  assert.deepEqual(cli.listed, [
    'read runs/a/first.jsonl: canonical JSONL, 4 trajectories',
    `read runs/b/second.jsonl: canonical JSONL, ${lines.length - 4} trajectories`,
    'skipped runs/README.md: not a trajectory, profile, label or outcomes file (not JSON, and not a table with a `model` column)',
    'skipped runs/b/tasks.json: a τ²-bench tasks file (tasks, not trajectories; give it to `gapscope tau2 --tasks` for the results it belongs to)',
  ]);
  // The trajectories of both files, as the CLI counts them.
  const profile = JSON.parse(execFileSync(CLI, ['profiles', '--trajectories', dir, '--json'], { encoding: 'utf8' }));
  assert.equal(await page.getByTestId('trajectory-count').innerText(), `${profile.n_total} of ${profile.n_total} trajectories`);
  await page.screenshot({ path: join(ARTIFACTS, 'folder.png'), fullPage: true });
});

/** Open the first trajectory of the list; its viewer's id and message count. */
async function openFirstTrajectory() {
  const first = page.locator('[data-testid=trajectory-list] tbody tr').first();
  await first.focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByTestId('trajectory-viewer');
  await viewer.waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=messages] li').length > 0, null, { timeout: 30_000 });
  return { id: await viewer.getAttribute('data-id'), messages: await page.locator('[data-testid=messages] li').count() };
}

/** The CLI's count of what a path holds (`profiles --all-tasks --json`). */
function cliProfile(path) {
  return JSON.parse(execFileSync(CLI, ['profiles', '--all-tasks', '--json', '--trajectories', path], { encoding: 'utf8' }));
}

test('a Harbor job folder, given through the directory picker, shows its scored trials in the list and the viewer', async () => {
  const job = join(ROOT, 'crates/gapscope-data/tests/fixtures/harbor/job-small');
  await pickFolder(job);
  const cli = cliFolderLines(job);
  const shown = await folderShown();
  assert.deepEqual(shown.listed, cli.listed);
  // Three scored trials and one infrastructure error (counted, listed, in no denominator).
  assert.deepEqual(shown.listed, ['read job-small: Harbor job directory, 23 files, 3 trajectories, 1 excluded']);
  assert.match(await page.getByTestId('overview-notes').innerText(), /1 run\(s\) excluded as infrastructure errors, in no denominator \(hello-world__Env4ddd \(task terminal-bench\/hello-world\): EnvironmentStartTimeoutError/);
  assert.equal(await page.getByTestId('trajectory-count').innerText(), '3 of 3 trajectories');
  const t = await openFirstTrajectory();
  assert.ok(t.messages > 1, `${t.id}: ${t.messages} messages shown`);
  // The agent timed out but the verifier scored it: scored, with the exception shown.
  assert.equal(t.id, 'hello-world-timeout__Time3cc');
  assert.match(await page.getByTestId('viewer-details').innerText(), /exception \(scored: Harbor counts the reward\)[\s\S]*AgentTimeoutError/);
  await page.screenshot({ path: join(ARTIFACTS, 'folder-harbor.png'), fullPage: true });
});

test('a τ³ results directory, given through the directory picker, shows its simulations in the list and the viewer', async () => {
  const dir = join(ROOT, '../shared/data/external/tau2/derived_dir_format/whissle_hd_retail_n5_dir');
  assert.ok(existsSync(dir), `${dir} (the tests need ../shared)`);
  await pickFolder(dir);
  const shown = await folderShown();
  assert.deepEqual(shown.listed, cliFolderLines(dir).listed);
  assert.deepEqual(shown.listed, ['read whissle_hd_retail_n5_dir: τ³ results directory, 6 files, 5 trajectories']);
  const profile = cliProfile(dir);
  assert.equal(profile.n_total, 5);
  assert.equal(await page.getByTestId('trajectory-count').innerText(), '5 of 5 trajectories');
  const t = await openFirstTrajectory();
  assert.ok(t.messages > 1, `${t.id}: ${t.messages} messages shown`);
  await page.screenshot({ path: join(ARTIFACTS, 'folder-tau3.png'), fullPage: true });
});

test('every file of ../shared/data/external reads in the page as in the CLI; only the side files and docs are skipped', async () => {
  const dir = join(ROOT, '../shared/data/external');
  assert.ok(existsSync(dir), `${dir} (the tests need ../shared)`);
  await pickFolder(dir);
  const cli = cliFolderLines(dir);
  const shown = await folderShown();
  assert.equal(shown.sentence, cli.sentence);
  assert.deepEqual(shown.listed, cli.listed);
  const skipped = shown.listed.filter((l) => l.startsWith('skipped ')).map((l) => l.split(':')[0].replace('skipped external/', ''));
  assert.deepEqual(skipped.filter((p) => !p.startsWith('LICENSES/') && p !== 'SOURCE.md'),
    ['tau2/medical_triage/tasks.json', 'tau2/voice_dir_fixture/expected_metrics.json']);
  const profile = cliProfile(dir);
  // Every trajectory listed (the list draws a window of them).
  assert.equal(await page.getByTestId('trajectory-count').innerText(),
    `${profile.n_total} of ${profile.n_total} trajectories`);
  assert.ok(await page.locator('[data-testid=trajectory-list] tbody tr[data-id]').count() < profile.n_total, 'a window of rows drawn');
  await page.screenshot({ path: join(ARTIFACTS, 'folder-external.png'), fullPage: true });
});
