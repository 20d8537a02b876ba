// Screenshot a running gapscope page once its analysis is shown.
//   node scripts/screenshot.mjs [URL] [OUT.png]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [url = 'http://127.0.0.1:8080/', out = 'docs/screenshot.png'] = process.argv.slice(2);
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'gapscope-shot-')), {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 1000 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] ?? await context.newPage();
await page.goto(url);
await page.getByTestId('gap-heatmap').waitFor({ timeout: 30_000 });
await page.screenshot({ path: out, fullPage: true });
await context.close();
console.log(`wrote ${out}`);
