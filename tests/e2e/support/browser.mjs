// Shared by the privacy, offline and determinism browser tests: the browser,
// a recorder of requests, console errors and CSP violations, and a "foreign"
// server (another origin) that counts every request reaching it.
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export async function launch(viewport = { width: 1280, height: 1000 }) {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'gapscope-e2e-')), {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Record, from now on, every request the context makes (the page's and its
 * workers'), every console error and uncaught error, and every
 * `securitypolicyviolation` event of the document.
 */
export async function record(context, page) {
  const requests = [];
  const consoleErrors = [];
  context.on('request', (r) => requests.push(r.url()));
  const onConsole = (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); };
  page.on('console', onConsole);
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('worker', (w) => w.on('console', onConsole));
  context.on('weberror', (e) => consoleErrors.push(String(e.error())));
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample });
    });
  });
  return {
    requests,
    consoleErrors,
    violations: () => page.evaluate(() => window.__cspViolations ?? []),
    clearViolations: () => page.evaluate(() => { window.__cspViolations = []; }),
  };
}

/** A server on another origin (another port) that counts the requests reaching it. */
export function foreignServer() {
  const hits = [];
  const server = createServer((req, res) => {
    hits.push(req.url);
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' }).end('reached');
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => {
    ok({ url: `http://127.0.0.1:${server.address().port}/`, hits, close: () => new Promise((d) => server.close(d)) });
  }));
}

/**
 * Try, from the page, every way a script could reach `url` (fetch, an image,
 * a script element, a stylesheet, a beacon, a form, an inline script that
 * would fetch): each must be blocked by the page's policy. Returns what the
 * page saw for each attempt.
 */
export async function tryToLeak(page, url) {
  return page.evaluate(async (u) => {
    const out = {};
    out.fetch = await fetch(`${u}fetch`).then(() => 'reached', () => 'blocked');
    out.xhr = await new Promise((done) => {
      const x = new XMLHttpRequest();
      x.onload = () => done('reached');
      x.onerror = () => done('blocked');
      try { x.open('GET', `${u}xhr`); x.send(); } catch { done('blocked'); }
    });
    out.img = await new Promise((done) => {
      const i = new Image();
      i.onload = () => done('reached');
      i.onerror = () => done('blocked');
      i.src = `${u}img.png`;
    });
    out.script = await new Promise((done) => {
      const s = document.createElement('script');
      s.onload = () => done('reached');
      s.onerror = () => done('blocked');
      s.src = `${u}script.js`;
      document.head.append(s);
    });
    out.style = await new Promise((done) => {
      const l = document.createElement('link');
      l.rel = 'stylesheet';
      l.onload = () => done('reached');
      l.onerror = () => done('blocked');
      l.href = `${u}style.css`;
      document.head.append(l);
    });
    out.beacon = (() => { try { return navigator.sendBeacon(`${u}beacon`, 'x') ? 'queued' : 'blocked'; } catch { return 'blocked'; } })();
    // An inline script (what an injected <script> would be) must not run.
    window.__inlineRan = false;
    const inline = document.createElement('script');
    inline.textContent = 'window.__inlineRan = true;';
    document.head.append(inline);
    out.inline = window.__inlineRan ? 'ran' : 'blocked';
    // Let the violation events arrive.
    await new Promise((r) => setTimeout(r, 200));
    return out;
  }, url);
}
