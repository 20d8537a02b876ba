// Page object for the gapscope workbench: what a person sees and does.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

export class WorkbenchPage {
  constructor(page) {
    this.page = page;
    this.summary = page.getByTestId('summary-sentence');
    this.summaryBox = page.getByTestId('summary');
    this.syntheticBadge = page.getByTestId('synthetic-badge');
    this.error = page.getByTestId('error');
    this.errorMessage = page.getByTestId('error-message');
    this.status = page.getByTestId('status');
    this.gapHeatmap = page.getByTestId('gap-heatmap');
    this.corrHeatmap = page.getByTestId('correlation-heatmap');
    this.tooltip = page.getByTestId('tooltip');
    this.fileInput = page.getByTestId('file-input');
    this.dropzone = page.getByTestId('dropzone');
  }

  async open(url) {
    await this.page.goto(url);
    await this.waitIdle();
  }

  /** Wait until no analysis is running. */
  async waitIdle() {
    await this.page.waitForFunction(
      () => document.querySelector('[data-testid=status]')?.getAttribute('aria-busy') === 'false'
        && document.querySelector('[data-testid=summary]') !== null,
      null,
      { timeout: 30_000 },
    );
  }

  /** Wait until the summary names this source. */
  async waitForSource(name) {
    await this.page.waitForFunction(
      (n) => document.querySelector('[data-testid=summary]')?.dataset.source === n,
      name,
      { timeout: 30_000 },
    );
    await this.waitIdle();
  }

  /** Every cell of a heatmap: {row, col, value (number|null), text}. */
  async cells(heatmap) {
    return heatmap.locator('td.cell').evaluateAll((tds) => tds.map((td) => ({
      row: td.dataset.row,
      col: td.dataset.col,
      value: td.dataset.value === '' ? null : Number(td.dataset.value),
      text: td.textContent,
    })));
  }

  /** Which source the summary describes. */
  async source() {
    return this.summaryBox.getAttribute('data-source');
  }

  /** Record every text the status line shows from now on. */
  async recordStatus() {
    await this.page.evaluate(() => {
      window.__statusLog = [];
      const el = document.querySelector('[data-testid=status]');
      new MutationObserver(() => window.__statusLog.push(el.textContent))
        .observe(el, { childList: true, subtree: true, characterData: true });
    });
  }

  async statusLog() {
    return this.page.evaluate(() => window.__statusLog);
  }

  /** The worker pool as the status line reports it: {size, live, terminated}. */
  /** Wait until no worker runs a job (a job left over from an earlier step). */
  async waitWorkersIdle() {
    await this.page.waitForFunction(() => document.querySelector('[data-testid=pool]')?.dataset.busy === '0',
      null, { timeout: 60_000 });
  }

  async pool() {
    const el = this.page.getByTestId('pool');
    return {
      size: Number(await el.getAttribute('data-size')),
      live: Number(await el.getAttribute('data-live')),
      terminated: Number(await el.getAttribute('data-terminated')),
    };
  }

  /** The progress bar while an analysis runs: {step, of, stage}. */
  async progress() {
    const bar = this.page.getByTestId('progress');
    return {
      step: Number(await bar.getAttribute('value')),
      of: Number(await bar.getAttribute('max')),
      stage: await this.page.getByTestId('stage').innerText(),
    };
  }

  async columnHeaders(heatmap) {
    return heatmap.locator('thead th[scope=col]').evaluateAll((ths) => ths.map((th) => th.firstChild.textContent));
  }

  async pickFile(path) {
    await this.fileInput.setInputFiles(path);
  }

  /** Drop a file on the drop zone as a person dragging it from the desktop would. */
  async dropFile(path, type = 'text/csv') {
    const text = await readFile(path, 'utf8');
    const name = basename(path);
    const transfer = await this.page.evaluateHandle(([t, n, ty]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], n, { type: ty }));
      return dt;
    }, [text, name, type]);
    await this.dropzone.dispatchEvent('dragover', { dataTransfer: transfer });
    await this.dropzone.dispatchEvent('drop', { dataTransfer: transfer });
  }

  async hoverCell(heatmap, row, col) {
    await heatmap.locator(`td.cell[data-row="${row}"][data-col="${col}"]`).hover();
    await this.tooltip.waitFor();
    return this.tooltip.innerText();
  }

  /** Open a view by its id (data, association, predictability, gaps, …). */
  async openView(id) {
    await this.page.click(`nav.views button[data-view=${id}]`);
    await this.page.waitForFunction((v) => document.querySelector('[data-testid=view]')?.dataset.view === v, id);
  }

  /** A table of the current view by its title: {headers, rows (text)}. */
  async table(titleStart) {
    const t = this.page.locator(`table.data[data-title^="${titleStart}"]`).first();
    await t.waitFor();
    return t.evaluate((el) => ({
      headers: [...el.querySelectorAll('thead th')].map((th) => th.textContent),
      rows: [...el.querySelectorAll('tbody tr:not(.pad)')].map((tr) => [...tr.children].map((td) => td.textContent)),
    }));
  }

  /** Click an export button of the table titled `titleStart`; returns the downloaded text. */
  async exportTable(titleStart, which) {
    const wrap = this.page.locator('.table-wrap', { has: this.page.locator(`table.data[data-title^="${titleStart}"]`) }).first();
    return this.download(() => wrap.getByTestId(`export-${which}`).click());
  }

  /** Run `action` and return the download it triggers: {name, text, bytes}. */
  async download(action) {
    const [d] = await Promise.all([this.page.waitForEvent('download'), action()]);
    const stream = await d.createReadStream();
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    const bytes = Buffer.concat(chunks);
    return { name: d.suggestedFilename(), bytes, text: bytes.toString('utf8') };
  }

  /** Set a settings field (alpha, bootstrap, seed) as a person would: type and leave. */
  async setSetting(testid, value) {
    const input = this.page.getByTestId(testid);
    await input.fill(String(value));
    await input.press('Tab');
  }

  async summaryDetail() {
    return this.page.getByTestId('summary-detail').innerText();
  }

  async chooseCorrelation(label) {
    await this.page.getByRole('radio', { name: label }).click();
  }
}
