// What the browser tests need built or present, in one place: the paths and
// the check that fails loudly, naming the command that builds what is
// missing (a test never skips quietly; CI has ../shared beside its clone).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const DIST = join(ROOT, 'dist');
export const CLI = join(ROOT, 'target/release/gapscope');
export const ARTIFACTS = join(ROOT, 'tests/e2e/artifacts');
export const SHARED = resolve(ROOT, '../shared');

/** The built page. */
export const PAGE = ['the built page (trunk build --release)', join(DIST, 'index.html')];
/** The release CLI the numbers are checked against. */
export const RELEASE_CLI = ['the release CLI (cargo build --release -p gapscope-cli)', CLI];
/** The single-file page. */
export const SINGLE_FILE = ['the single file (node scripts/build-single.mjs)', join(ROOT, 'dist-single/gapscope.html')];

/** A file of ../shared/data (`rel` below it), as a need. */
export function shared(rel) {
  return [`the shared data (../shared/data/${rel.split('/')[0]})`, join(SHARED, 'data', rel)];
}

/** Throw, naming each one, unless every [what, path] of `needs` exists. */
export function need(...needs) {
  const missing = needs.filter(([, path]) => !existsSync(path)).map(([what, path]) => `missing ${what}: ${path}`);
  if (missing.length > 0) throw new Error(missing.join('\n'));
  return needs.map(([, path]) => path);
}
