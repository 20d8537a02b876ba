// Trace the Compare view's drawing (CDP Tracing): each main-thread task over
// 30 ms split into script, HTML parse, style and layout (input:
// compare-input.mjs, 10 × 1,000 × 4). Needs dist/ (trunk build --release).
//   node scripts/trace-compare-page.mjs
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { writeCompareInput } from './compare-input.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
const file = writeCompareInput(10, 1000, 4);
const server = await startServer(DIST);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
await page.goto(`${server.url}?view=compare&B=10000`);
await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false');
const cdp = await page.context().newCDPSession(page);
const events = [];
cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
const done = new Promise((ok) => cdp.on('Tracing.tracingComplete', ok));
await page.getByTestId('file-input').setInputFiles(file);
await page.getByTestId('compare-busy').waitFor({ timeout: 120_000 });
await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,blink', transferMode: 'ReportEvents' });
await page.getByTestId('compare-summary').waitFor({ timeout: 600_000 });
await page.waitForTimeout(1500);
await cdp.send('Tracing.end');
await done;
// main thread
const tn = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
const mains = new Set(tn.map((e) => `${e.pid}:${e.tid}`));
const main = events.filter((e) => mains.has(`${e.pid}:${e.tid}`) && e.ph === 'X');
const tasks = main.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur > 30000);
for (const t of tasks) {
  const inside = main.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
  const by = {};
  for (const e of inside) by[e.name] = (by[e.name] ?? 0) + e.dur;
  const top = Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`);
  console.log(`task ${(t.dur / 1000).toFixed(1)} ms at ${(t.ts / 1000).toFixed(0)}: ${top.join(' | ')}`);
  const marks = inside.filter((e) => e.name === 'FunctionCall' || e.name === 'Layout' || e.name === 'ParseHTML' || e.name === 'UpdateLayoutTree' || e.name === 'TimerFire' || e.name === 'FireAnimationFrame' || e.name === 'EventDispatch' || e.name === 'V8.GC_MC_BACKGROUND' || e.name.startsWith('MajorGC') || e.name.startsWith('MinorGC'));
  for (const m of marks.slice(0, 40)) console.log(`    ${m.name} +${((m.ts - t.ts) / 1000).toFixed(1)} ${(m.dur / 1000).toFixed(1)} ms ${m.args?.data?.type ?? ''} ${m.args?.beginData?.stackTrace?.[0]?.functionName ?? ''}`);
}
await browser.close();
await server.close();
