// Starts the page: imports the app's wasm-bindgen glue and instantiates its
// wasm. Trunk's default loader is an inline script, which the page's
// Content-Security-Policy would have to allow with 'unsafe-inline'; Trunk.toml's
// `pattern_script` emits instead
//   <script type="module" src="/start.js" id="gapscope-start"
//           data-app-js="/app-….js" data-app-wasm="/app-…_bg.wasm">
// so every script the page runs is one of its own files ('self').
const start = document.getElementById('gapscope-start');
const { default: init } = await import(start.dataset.appJs);
const app = await init({ module_or_path: start.dataset.appWasm });
// The page's own wasm memory, for the import-memory benchmark
// (scripts/bench-browser.mjs); read-only use, nothing leaves the page.
globalThis.__gapscopePageMemory = () => app.memory.buffer.byteLength;
