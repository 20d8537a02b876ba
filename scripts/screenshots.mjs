// README screenshots of the main views from the built page (dist/).
//   node scripts/screenshots.mjs
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const server = await startServer(join(ROOT, 'dist'));
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'gapscope-shots-')), {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, viewport: { width: 1180, height: 900 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] ?? await context.newPage();
const shoot = async (view, name, before) => {
  await page.goto(`${server.url}?view=${view}`);
  await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false' && document.querySelector('[data-testid=summary]'));
  if (before) await before();
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.activeElement?.blur());
  const panel = page.getByTestId('view');
  await panel.screenshot({ path: join(ROOT, 'docs', `view-${name}.png`) });
  console.log(`docs/view-${name}.png`);
};
await shoot('gaps', 'gaps', async () => { await page.locator('td.cell[data-row="Dorado Pro"][data-col="ST"]').click(); });
await shoot('association', 'association', async () => { await page.locator('td.cell[data-row="TU"][data-col="ST"]').click(); });
await shoot('reward', 'reward');
await shoot('penalty', 'penalty');
await context.close();
await server.close();
