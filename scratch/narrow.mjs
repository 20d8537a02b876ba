import { startServer } from '../scripts/serve.mjs';
import { WorkbenchPage } from '../tests/e2e/pages/workbench.mjs';
import { launch } from '../tests/e2e/support/browser.mjs';
import { writeCompareInput } from '../scripts/compare-input.mjs';
const AIR = '/work/shared/data/tau2/airline/results/';
const server = await startServer('/work/main/dist');
const context = await launch();
const page = context.pages()[0] ?? await context.newPage();
const wb = new WorkbenchPage(page);
await wb.open(server.url);
await wb.fileInput.setInputFiles([AIR + 'claude-sonnet-4-5__aide-platform__airline_1trial.json', AIR + 'gpt-oss-120b__langchain-agent__airline_1trial.json']);
await wb.openView('compare');
await page.getByTestId('compare-summary').waitFor({ timeout: 120000 });
await page.locator('table.data[data-title^="Tasks:"] tbody tr[data-row]').nth(3).click();
await page.getByTestId('side-summary').waitFor({ timeout: 30000 });
await page.setViewportSize({ width: 400, height: 800 });
await page.waitForTimeout(300);
const r = await page.evaluate(() => {
  const W = window.innerWidth;
  const out = [`scrollWidth ${document.documentElement.scrollWidth} body ${document.body.scrollWidth}`];
  for (const el of document.querySelectorAll('body *')) {
    const b = el.getBoundingClientRect();
    let scrolled = false;
    for (let p = el.parentElement; p; p = p.parentElement) if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) scrolled = true;
    const pb = el.parentElement?.getBoundingClientRect();
    if (b.right > W + 1 && pb && pb.right <= W + 1) {
      const chain = [];
      for (let p = el; p && p !== document.body; p = p.parentElement) chain.push(`${p.tagName.toLowerCase()}.${p.className?.baseVal ?? p.className}[${getComputedStyle(p).overflowX}]`);
      out.push(`${Math.round(b.left)}-${Math.round(b.right)} ${chain.slice(0, 9).join(' < ')}`);
    }
  }
  const probe = (root, depth) => {
    for (const el of root.children) {
      const d = el.style.display;
      el.style.display = 'none';
      const w = document.documentElement.scrollWidth;
      el.style.display = d;
      if (w < 433) {
        out.push(`${'  '.repeat(depth)}hiding ${el.tagName}.${el.className?.baseVal ?? el.className}[${el.dataset?.testid ?? ''}] -> ${w}`);
        if (depth < 8) probe(el, depth + 1);
      }
    }
  };
  probe(document.body, 0);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const range = document.createRange(); range.selectNodeContents(n);
    const b = range.getBoundingClientRect();
    if (b.right > W + 1) {
      let scrolled = false;
      for (let p = n.parentElement; p; p = p.parentElement) if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) scrolled = true;
      if (!scrolled) out.push(`text ${Math.round(b.left)}-${Math.round(b.right)} in ${n.parentElement.tagName}.${n.parentElement.className}: ${n.textContent.slice(0, 120)}`);
    }
  }
  return out.slice(0, 60);
});
console.log(r.join('\n'));
await page.screenshot({ path: '/work/main/scratch/narrow.png', fullPage: false });
await page.setViewportSize({ width: 1280, height: 1000 });
await wb.fileInput.setInputFiles(writeCompareInput(3, 400, 1));
await page.waitForFunction(() => /run-2/.test(document.querySelector('table.data[data-title=Runs]')?.textContent ?? ''), null, { timeout: 120000 });
const t = page.locator('.table-box.windowed').first();
await t.scrollIntoViewIfNeeded();
await t.evaluate((el) => { el.scrollTop = 3000; });
await page.waitForTimeout(300);
await page.screenshot({ path: '/work/main/scratch/window.png' });
await context.close(); await server.close();
