// The reviewer flow of issue 18, in screenshots: the built page (dist/),
// every real τ²-bench results file of ../shared/data/tau2 dropped alone
// (no profile table), then a trajectory opened. Writes into DIR:
//   1-dropped.png  the page right after the drop (the viewport)
//   2-full.png     the whole page
//   3-opened.png   the viewport after the first trajectory of the list is opened
//
//   node scripts/reviewer-flow.mjs DIR
//
// Needs `trunk build --release`; for looking at, not a test.
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const out = resolve(process.argv[2] ?? 'reviewer-flow');
mkdirSync(out, { recursive: true });
const tau2 = resolve(ROOT, '../shared/data/tau2');
const files = readdirSync(tau2).flatMap((d) => {
  try {
    return readdirSync(join(tau2, d, 'results')).filter((f) => f.endsWith('.json')).map((f) => join(tau2, d, 'results', f));
  } catch {
    return [];
  }
});
if (files.length === 0) throw new Error(`no τ²-bench results files under ${tau2}`);
const server = await startServer(join(ROOT, 'dist'));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(server.url);
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false');
await page.getByTestId('file-input').setInputFiles(files);
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false'
  && document.querySelector('[data-testid=summary]')?.dataset.source !== 'synthetic-example.csv', null, { timeout: 120_000 });
await page.waitForTimeout(1500);
await page.screenshot({ path: join(out, '1-dropped.png') });
await page.screenshot({ path: join(out, '2-full.png'), fullPage: true });
const row = page.locator('[data-testid=trajectory-list] tbody tr[data-id]').first();
if (await row.count() === 0) {
  const trajectories = page.locator('nav.views button[data-view=trajectories]');
  if (await trajectories.count()) await trajectories.click();
}
await page.locator('[data-testid=trajectory-list] tbody tr[data-id] td').first().click({ timeout: 30_000 });
await page.getByTestId('trajectory-viewer').waitFor({ timeout: 30_000 });
await page.waitForTimeout(500);
await page.screenshot({ path: join(out, '3-opened.png') });
console.log(`${files.length} files dropped; screenshots in ${out}`);
await browser.close();
await server.close();
