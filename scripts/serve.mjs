// A minimal static file server for dist/, bound to 127.0.0.1 only.
// Used by scripts/run.sh and by the browser tests (no dependency, no network).
//   node scripts/serve.mjs DIR [PORT]
// Every response carries the Content-Security-Policy of DIR/index.html's <meta>
// as a header: a <meta> policy binds only the document, while a worker started
// from a script URL is bound by the policy delivered with that script.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
};

/** The policy of the page's <meta http-equiv="Content-Security-Policy">, if any. */
export function pagePolicy(dir) {
  let html;
  try {
    html = readFileSync(join(dir, 'index.html'), 'utf8');
  } catch {
    return null;
  }
  const meta = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i);
  return meta ? meta[1].replace(/\s+/g, ' ').trim() : null;
}

export function startServer(dir, port = 0) {
  const root = resolve(dir);
  const policy = pagePolicy(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...(policy ? { 'content-security-policy': policy } : {}),
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address();
      ok({ url: `http://127.0.0.1:${p}/`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir = 'dist', port = '8080'] = process.argv.slice(2);
  const { url } = await startServer(dir, Number(port));
  console.log(`serving ${dir} at ${url}`);
}
