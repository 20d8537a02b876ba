#!/usr/bin/env node
// Module cycles: within each crate, the modules that refer to each other
// through `crate::…` / `super::…` paths must form no cycle.
//
//   node scripts/check-modules.mjs              every crate of the workspace
//   node scripts/check-modules.mjs --self-test  also prove it finds a planted cycle
//
// Why a script of our own: the edges we care about are the source-level
// references between a crate's modules (`use crate::x`, `crate::x::f()`,
// `super::y`), which no cargo subcommand reports; this reads them from the
// text. Comments and string literals are stripped first, so doc links do not
// count. A reference is charged to the two modules just below the lowest
// common ancestor of the referring file and the referenced module (so a
// child naming its parent, or `lib.rs` re-exporting a child, is no edge), and
// items re-exported by `lib.rs` (`crate::Alpha`) resolve to the module they
// come from. A cycle is reported with one `file:line` per edge.

import { readFileSync, readdirSync, statSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { join, relative, sep, dirname } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Source text with comments, strings and char literals blanked (line breaks kept). */
export function strip(text) {
  let out = "";
  let i = 0;
  const n = text.length;
  const keepLines = (s) => s.replace(/[^\n]/g, " ");
  while (i < n) {
    const c = text[i];
    const d = text[i + 1];
    if (c === "/" && d === "/") {
      const j = text.indexOf("\n", i);
      const end = j < 0 ? n : j;
      out += keepLines(text.slice(i, end));
      i = end;
    } else if (c === "/" && d === "*") {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (text[j] === "/" && text[j + 1] === "*") { depth++; j += 2; }
        else if (text[j] === "*" && text[j + 1] === "/") { depth--; j += 2; }
        else j++;
      }
      out += keepLines(text.slice(i, j));
      i = j;
    } else if (c === "r" && /^r#*"/.test(text.slice(i, i + 260)) && !/[A-Za-z0-9_]/.test(text[i - 1] ?? "")) {
      const hashes = text.slice(i + 1).match(/^#*/)[0];
      const close = '"' + hashes;
      const start = i + 2 + hashes.length;
      const j = text.indexOf(close, start);
      const end = j < 0 ? n : j + close.length;
      out += keepLines(text.slice(i, end));
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += keepLines(text.slice(i, j + 1));
      i = j + 1;
    } else if (c === "'" && /^'(\\.|[^\\'])'/u.test(text.slice(i, i + 12))) {
      const m = text.slice(i).match(/^'(\\.|[^\\'])'/u)[0];
      out += keepLines(m);
      i += m.length;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `text` (already stripped) with every `#[cfg(test)] mod x { … }` blanked:
 * tests may use any module of their crate. */
export function withoutTests(text) {
  let out = text;
  const re = /#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{/g;
  let m;
  while ((m = re.exec(out)) !== null) {
    let depth = 1;
    let j = m.index + m[0].length;
    while (j < out.length && depth > 0) {
      if (out[j] === "{") depth++;
      else if (out[j] === "}") depth--;
      j++;
    }
    out = out.slice(0, m.index) + out.slice(m.index, j).replace(/[^\n]/g, " ") + out.slice(j);
  }
  return out;
}

/** Names of file modules declared `#[cfg(test)] mod x;` in `text`. */
function testModules(text) {
  return [...text.matchAll(/#\[cfg\(test\)\]\s*mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;/g)].map((m) => m[1]);
}

/** Every `.rs` file below `dir`, but not in folders named in `skip`. */
export function rsFiles(dir, skip = new Set()) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...rsFiles(p, skip));
    else if (name.endsWith(".rs")) out.push(p);
  }
  return out;
}

/** `a/b.rs` → ["a","b"]; `a/mod.rs` → ["a"]; `lib.rs`/`main.rs` → []. */
function modulePath(src, file) {
  const parts = relative(src, file).split(sep);
  const last = parts.pop().replace(/\.rs$/, "");
  if (parts.length === 0 && (last === "lib" || last === "main")) return [];
  if (last !== "mod") parts.push(last);
  return parts;
}

/** The module graph of one crate's `src` folder: {edges: Map<"a→b", "file:line">}. */
export function moduleEdges(src, rootFile = "lib.rs") {
  let files = rsFiles(src).filter((f) => !relative(src, f).startsWith("bin" + sep));
  // Test-only file modules (`#[cfg(test)] mod x;`) are left out like inline ones.
  const testOnly = new Set();
  for (const f of files) {
    const parent = modulePath(src, f);
    for (const name of testModules(strip(readFileSync(f, "utf8")))) testOnly.add(parent.concat(name).join("::"));
  }
  files = files.filter((f) => !testOnly.has(modulePath(src, f).join("::")));
  const modules = new Map(files.map((f) => [modulePath(src, f).join("::"), f]));
  const known = (path) => modules.has(path.join("::"));
  // Items re-exported at the root: `pub use a::b::{X, Y}` / `pub use a::X;`.
  const reexport = new Map();
  const rootPath = join(src, rootFile);
  let rootText = "";
  try { rootText = strip(readFileSync(rootPath, "utf8")); } catch { /* no root file */ }
  for (const m of rootText.matchAll(/pub\s+use\s+((?:[a-z_][a-z0-9_]*::)+)(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)\s*;/g)) {
    const from = m[1].split("::").filter(Boolean);
    if (from[0] === "crate") from.shift();
    const names = m[2].startsWith("{") ? m[2].slice(1, -1).split(",") : [m[2]];
    for (const raw of names) {
      const name = raw.trim().split(/\s+as\s+/).pop();
      if (name && name !== "self") reexport.set(name, from);
    }
  }
  const edges = new Map();
  for (const file of files) {
    const me = modulePath(src, file);
    const lines = withoutTests(strip(readFileSync(file, "utf8"))).split("\n");
    lines.forEach((line, k) => {
      for (const m of line.matchAll(/\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
        const segs = m[2].split("::").filter(Boolean);
        let base;
        if (m[1] === "crate") base = [];
        else {
          // `super` is the parent of the file's module (a `mod tests` inside a
          // file makes `super` the file itself: charge nothing for that).
          if (/^\s*use\s+super::\*/.test(line)) continue;
          base = me.slice(0, -1);
          while (segs[0] === "super") { segs.shift(); base = base.slice(0, -1); }
        }
        // The longest known module prefix of base + segs.
        let target = null;
        for (let len = segs.length; len >= 0; len--) {
          const cand = base.concat(segs.slice(0, len));
          if (known(cand)) { target = cand; break; }
        }
        if (target && target.length === 0 && segs.length > 0 && reexport.has(segs[0])) {
          target = reexport.get(segs[0]);
        }
        if (!target) continue;
        // Charge the edge below the lowest common ancestor.
        let i = 0;
        while (i < me.length && i < target.length && me[i] === target[i]) i++;
        if (i >= me.length || i >= target.length) continue; // ancestor/descendant
        const a = me.slice(0, i + 1).join("::");
        const b = target.slice(0, i + 1).join("::");
        const key = `${a}→${b}`;
        if (!edges.has(key)) edges.set(key, `${relative(ROOT, file)}:${k + 1}`);
      }
    });
  }
  return edges;
}

/** Strongly connected components with more than one node (Tarjan). */
export function cycles(edges) {
  const adj = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split("→");
    if (!adj.has(a)) adj.set(a, []);
    if (!adj.has(b)) adj.set(b, []);
    adj.get(a).push(b);
  }
  let index = 0;
  const idx = new Map(), low = new Map(), on = new Set(), stack = [], out = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const w of adj.get(v)) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do { w = stack.pop(); on.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...adj.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

function report(name, edges) {
  const found = cycles(edges);
  for (const comp of found) {
    console.error(`check-modules: ${name}: modules ${comp.join(", ")} refer to each other in a cycle:`);
    for (const [key, where] of edges) {
      const [a, b] = key.split("→");
      if (comp.includes(a) && comp.includes(b)) console.error(`  ${a} → ${b}  (${where})`);
    }
  }
  return found.length;
}

function crates() {
  const out = [];
  const cratesDir = join(ROOT, "crates");
  for (const name of readdirSync(cratesDir).sort()) {
    const src = join(cratesDir, name, "src");
    try { statSync(src); } catch { continue; }
    const root = (() => { try { statSync(join(src, "lib.rs")); return "lib.rs"; } catch { return "main.rs"; } })();
    out.push([name, src, root]);
  }
  out.push(["gapscope-web", join(ROOT, "src"), "lib.rs"]);
  return out;
}

function selfTest() {
  const dir = mkdtempSync(join(tmpdir(), "check-modules-"));
  try {
    mkdirSync(join(dir, "src", "b"), { recursive: true });
    writeFileSync(join(dir, "src", "lib.rs"), "pub mod a;\npub mod b;\npub mod c;\npub use c::Thing;\n");
    writeFileSync(join(dir, "src", "a.rs"), "// crate::c is only a comment\nuse crate::b::inner::f;\n");
    writeFileSync(join(dir, "src", "b", "mod.rs"), "pub mod inner;\n");
    writeFileSync(join(dir, "src", "b", "inner.rs"), 'const S: &str = "crate::a";\npub fn f() { let _ = crate::Thing; }\n');
    writeFileSync(join(dir, "src", "c.rs"), "pub struct Thing;\nfn g() { super::a::h(); }\n");
    const edges = moduleEdges(join(dir, "src"));
    const found = cycles(edges);
    const want = "a,b,c";
    if (found.length !== 1 || found[0].join(",") !== want) {
      console.error(`check-modules self-test: expected one cycle a → b → c → a, found ${JSON.stringify(found)} from ${JSON.stringify([...edges.keys()])}; the check is broken`);
      return 1;
    }
    // Without the c → a edge there is none (comments and strings do not count).
    writeFileSync(join(dir, "src", "c.rs"), "pub struct Thing;\n/// [`crate::a`]\nfn g() {}\n#[cfg(test)]\nmod tests {\n    fn t() { crate::a::h(); }\n}\n");
    if (cycles(moduleEdges(join(dir, "src"))).length !== 0) {
      console.error("check-modules self-test: found a cycle in an acyclic crate; the check is broken");
      return 1;
    }
    console.log("check-modules self-test: a planted cycle a → b → c → a is found, a comment, string or test module is not an edge");
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run as a script (not when another script imports `rsFiles`).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let status = 0;
  if (process.argv.includes("--self-test")) status |= selfTest();
  let total = 0;
  for (const [name, src, root] of crates()) total += report(name, moduleEdges(src, root));
  if (total > 0) status = 1;
  else console.log("check-modules: no module cycle in any crate");
  process.exit(status);
}
