// The offline page in one file: dist-single/gapscope.html, built from dist/
// (run `trunk build --release` first). Opened from disk (file://) it works
// without a server and makes no request:
//   - the CSS and the icon are inlined;
//   - the app's wasm, and each part's worker module, are gzipped and base64-encoded
//     in non-executed <script type="application/octet-stream"> blocks, inflated
//     in the page with DecompressionStream;
//   - the app's wasm-bindgen glue runs as the one inline module script, with
//     a short loader appended; its SHA-256 is the only script the policy allows;
//   - the workers start from a data: URL holding a module (worker glue + its
//     wasm as base64 + the lines that call the glue's init with the bytes), one
//     per worker bin (src/pool.rs: `worker`, `worker_files`, `worker_parts`), handed to the app
//     through globalThis.__GAPSCOPE_WORKER_URL, __GAPSCOPE_WORKER_URL_FILES and
//     __GAPSCOPE_WORKER_URL_PARTS; every
//     part is in the file (a part's pool still starts on its first job).
//     A data: worker inherits the page's policy, so the workers cannot connect
//     anywhere either.
//   node scripts/build-single.mjs [DIST] [OUT]
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(process.argv[2] ?? join(ROOT, 'dist'));
const OUT = resolve(process.argv[3] ?? join(ROOT, 'dist-single/gapscope.html'));

/** The policy of the single file: nothing but its own inline module script, data: workers and wasm. */
function policy(scriptHash) {
  return [
    "default-src 'none'",
    `script-src '${scriptHash}' 'wasm-unsafe-eval'`,
    'worker-src data:',
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    "connect-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

function fail(message) {
  console.error(`build-single: ${message}`);
  process.exit(1);
}

/** Replace exactly one match of `pattern` in `text`; fail if there is none or several. */
function replaceOnce(text, pattern, replacement, what) {
  const all = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)) ?? [];
  if (all.length !== 1) fail(`dist/index.html: expected one ${what}, found ${all.length} (did Trunk's output change?)`);
  return text.replace(pattern, () => replacement);
}

const read = (name) => {
  try {
    return readFileSync(join(DIST, name.replace(/^\//, '')));
  } catch {
    return fail(`missing ${join(DIST, name)}: run \`trunk build --release\` first`);
  }
};

let html = read('index.html').toString('utf8');
const start = html.match(/<script type="module" src="[^"]*start\.js" id="gapscope-start" data-app-js="([^"]+)" data-app-wasm="([^"]+)"><\/script>/);
if (!start) fail('dist/index.html has no start.js tag (Trunk.toml pattern_script)');
const [, appJsName, appWasmName] = start;
const css = html.match(/<link rel="stylesheet" href="([^"]+)"[^>]*\/>/);
const icon = html.match(/<link rel="icon" href="([^"]+)"[^>]*\/>/);
if (!css || !icon) fail('dist/index.html: no stylesheet or icon link');

const appGlue = read(appJsName).toString('utf8');
// The app's glue is inlined as script text: it must not end the element early.
if (/<\/script|<!--/i.test(appGlue)) fail(`${appJsName} contains </script or <!--; it cannot be inlined as is`);
const block = (id, bytes) => `<script type="application/octet-stream" id="${id}">${gzipSync(bytes, { level: 9 }).toString('base64')}</script>`;

// The worker's module: its glue, then its gzipped wasm as base64 text,
// inflated and passed to the glue's init (what worker_loader.js does with a
// URL). It starts from a data: URL: Chromium refuses a *module* worker from a
// blob: URL on a file:// page ("Refused to cross-origin redirects of the
// top-level worker script"; a file:// page has an opaque origin), and the pool
// starts module workers. A data: worker, like a blob: one, inherits the page's
// policy. Chromium caps URLs at 2 MiB, hence the check below.
const workerModule = (bin) => [
  read(`${bin}.js`).toString('utf8'),
  '\n// ---- gapscope single-file worker start (scripts/build-single.mjs) ----\n',
  `const __gapscopeWasm = "${gzipSync(read(`${bin}_bg.wasm`), { level: 9 }).toString('base64')}";\n`,
  'const __gapscopeBin = atob(__gapscopeWasm);\n',
  'const __gapscopeGz = new Uint8Array(__gapscopeBin.length);\n',
  'for (let i = 0; i < __gapscopeBin.length; i++) __gapscopeGz[i] = __gapscopeBin.charCodeAt(i);\n',
  "await __wbg_init({ module_or_path: await new Response(new Blob([__gapscopeGz]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer() });\n",
].join('');
// One worker per part: its bin (Trunk's output names) and the global src/pool.rs reads.
const WORKERS = [
  { bin: 'worker', global: '__GAPSCOPE_WORKER_URL' },
  { bin: 'worker_files', global: '__GAPSCOPE_WORKER_URL_FILES' },
  { bin: 'worker_parts', global: '__GAPSCOPE_WORKER_URL_PARTS' },
].map((w) => ({ ...w, module: workerModule(w.bin) }));
const WORKER_URL_PREFIX = 'data:text/javascript,';
const URL_LIMIT = 2 * 1024 * 1024;
for (const w of WORKERS) {
  w.urlLength = WORKER_URL_PREFIX.length + encodeURIComponent(w.module).length;
  if (w.urlLength >= URL_LIMIT) fail(`the ${w.bin} worker's data: URL would be ${w.urlLength} characters, over Chromium's limit of ${URL_LIMIT}`);
}

// The loader appended to the app's glue (same module, so `__wbg_init` is in scope).
const loader = `
// ---- gapscope single-file loader (scripts/build-single.mjs) ----
const __gapscopeBytes = async (id) => {
  const bin = atob(document.getElementById(id).textContent);
  const gz = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) gz[i] = bin.charCodeAt(i);
  return new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
};
${WORKERS.map((w) => `globalThis.${w.global} = ${JSON.stringify(WORKER_URL_PREFIX)}
  + encodeURIComponent(new TextDecoder().decode(await __gapscopeBytes('gapscope-${w.bin}')));
`).join('')}await __wbg_init({ module_or_path: await __gapscopeBytes('gapscope-app-wasm') });
`;
const script = `${appGlue}\n${loader}`;
const hash = `sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}`;

const iconName = icon[1];
const iconType = iconName.endsWith('.svg') ? 'image/svg+xml' : 'image/png';
html = replaceOnce(html, /<meta http-equiv="Content-Security-Policy"\s+content="[^"]*"\s*\/>/, `<meta http-equiv="Content-Security-Policy"\n        content="${policy(hash)}" />`, 'policy');
html = replaceOnce(html, /<!-- Privacy:[\s\S]*?-->/, '<!-- Privacy: one file, opened from disk: it loads nothing and connects nowhere.\n       Built by scripts/build-single.mjs from dist/. -->', 'privacy comment');
html = replaceOnce(html, /<link rel="stylesheet" href="[^"]+"[^>]*\/>/, `<style>\n${read(css[1]).toString('utf8')}</style>`, 'stylesheet');
html = replaceOnce(html, /<link rel="icon" href="[^"]+"[^>]*\/>/, `<link rel="icon" href="data:${iconType};base64,${read(iconName).toString('base64')}" />`, 'icon');
html = replaceOnce(html, /<link rel="modulepreload"[^>]*>/, '', 'module preload');
html = replaceOnce(html, /<link rel="preload"[^>]*>/, '', 'wasm preload');
html = replaceOnce(html, /<script type="module" src="[^"]*start\.js"[^>]*><\/script>/, [
  block('gapscope-app-wasm', read(appWasmName)),
  ...WORKERS.map((w) => block(`gapscope-${w.bin}`, Buffer.from(w.module, 'utf8'))),
  `<script type="module">${script}</script>`,
].join('\n'), 'start script');

mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, html);
const size = Buffer.byteLength(html);
console.log(`${OUT}: ${size} B (${(size / 1024 / 1024).toFixed(2)} MiB), ${gzipSync(html, { level: 9 }).length} B gzipped; workers' data: URLs ${WORKERS.map((w) => `${w.bin} ${w.urlLength}`).join(', ')} characters (limit ${URL_LIMIT} each)`);
