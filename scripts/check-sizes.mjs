#!/usr/bin/env node
// No Rust source file over 1,200 lines (CODE_STYLE.md, "Size"): a file that
// grows past it is split by topic. Functions are held to 150 lines by
// clippy's too_many_lines (clippy.toml).
//   node scripts/check-sizes.mjs
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { rsFiles } from "./check-modules.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const MAX = 1200;
const SKIP = new Set(["target", "node_modules", ".git", "dist", "dist-single"]);

const over = [];
for (const dir of ["crates", "src", "fuzz"]) {
  for (const f of rsFiles(join(ROOT, dir), SKIP)) {
    const n = readFileSync(f, "utf8").split("\n").length - 1;
    if (n > MAX) over.push(`  ${relative(ROOT, f)}: ${n} lines`);
  }
}
if (over.length > 0) {
  console.error(`check-sizes: source files over ${MAX} lines (split them by topic):\n${over.join("\n")}`);
  process.exit(1);
}
console.log(`check-sizes: no Rust source file over ${MAX} lines`);
