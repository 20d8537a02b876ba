// Issue 20's benchmark row, in the browser: scoring 10,000 episodes (the
// worked set's trajectories replicated with fresh ids and repetitions, as in
// crates/gapscope-evidence/benches/score.rs) on the Evidence-to-action page:
// the case file and the trajectories opened with the page's file input, timed
// in the page from the input's change event to the ECS table of the opened
// files on screen (the worker reads, scores, computes every table and
// answers; the page draws). Beside it, measured in the same run: the release
// CLI, `gapscope evidence score --json` on the same files, process to
// process. Speed is read here; nothing is asserted.
//
//   node scripts/bench-evidence-browser.mjs
//
// Needs `trunk build --release` (dist/) and `cargo build --release -p gapscope-cli`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const CLI = join(ROOT, 'target/release/gapscope');
if (!existsSync(join(DIST, 'index.html'))) throw new Error('missing dist/: run trunk build --release first');
if (!existsSync(CLI)) throw new Error('missing target/release/gapscope: run cargo build --release -p gapscope-cli first');
const EPISODES = 10_000;

// The replicated trajectories (ids …/xK, repetitions shifted by K × span).
const base = readFileSync(join(ROOT, 'assets/evidence/trajectories.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const span = Math.max(...base.map((t) => t.repetition)) + 1;
const copies = Math.ceil(EPISODES / base.length);
const lines = [];
for (let k = 0; k < copies; k++) {
  for (const t of base) lines.push(JSON.stringify({ ...t, id: `${t.id}/x${k}`, repetition: t.repetition + k * span }));
}
const dir = mkdtempSync(join(tmpdir(), 'gapscope-bench-evidence-'));
const cases = join(dir, 'cases.jsonl');
const trajectories = join(dir, 'trajectories.jsonl');
writeFileSync(cases, readFileSync(join(ROOT, 'assets/evidence/cases.jsonl')));
writeFileSync(trajectories, lines.join('\n') + '\n');
const mb = readFileSync(trajectories).length / 1e6;

// The CLI, process to process, best of 3.
let cli = Infinity;
for (let i = 0; i < 3; i++) {
  const t = process.hrtime.bigint();
  execFileSync(CLI, ['evidence', 'score', '--cases', cases, '--trajectories', trajectories, '--json'], { maxBuffer: 1 << 30 });
  cli = Math.min(cli, Number(process.hrtime.bigint() - t) / 1e9);
}

const server = await startServer(DIST);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const runs = [];
let draws = '';
for (let i = 0; i < 3; i++) {
  const page = await browser.newPage();
  await page.goto(`${server.url}?area=evidence`);
  // The worked set first (the part's pool warm), then the opened files.
  await page.locator('table.data[data-title^="ECS per protocol"]').waitFor({ timeout: 120_000 });
  draws = await page.getByTestId('bootstrap').inputValue().catch(() => '');
  await page.evaluate(() => {
    window.__score = {};
    document.querySelector('[data-testid=evidence-input]').addEventListener('change', () => {
      window.__score.start = performance.now();
    }, { capture: true, once: true });
    const seen = new MutationObserver(() => {
      if (!document.querySelector('[data-testid=worked-badge]') && document.querySelector('table.data[data-title^="ECS per protocol"]')) {
        window.__score.end = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  await page.getByTestId('evidence-input').setInputFiles([cases, trajectories]);
  await page.waitForFunction(() => window.__score.end > 0, null, { timeout: 600_000 });
  const { start, end } = await page.evaluate(() => window.__score);
  runs.push((end - start) / 1000);
  await page.close();
}
await browser.close();
await server.close();
const best = Math.min(...runs);
console.log(`evidence score: ${lines.length} episodes (${mb.toFixed(1)} MB of JSONL), the page's B = ${draws || '?'} (fastest of 3 fresh pages)`);
console.log(`  browser: open the two files → ECS table on screen   ${best.toFixed(3)} s  (${(best / lines.length * 1e6).toFixed(0)} µs per episode)`);
console.log(`  release CLI, evidence score --json, process          ${cli.toFixed(3)} s`);
console.log(`  browser / CLI: ${(best / cli).toFixed(2)}×`);
