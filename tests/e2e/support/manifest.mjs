// Running a manifest's command (issue 14 item 4): the inputs are copied into
// an empty folder under their manifest names, built-in and derived files are
// written by the command itself, and its JSON report is compared with the
// page's export number by number.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
const REL = 1e-12;

/** Every difference between two JSON trees (numbers within REL × max(1, |b|)). */
function differences(a, b, path = '$', out = []) {
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) out.push(`${path}: ${JSON.stringify(a)?.slice(0, 80)} against ${JSON.stringify(b)?.slice(0, 80)}`);
  else if (kind(a) === 'number') {
    if (!(Math.abs(a - b) <= REL * Math.max(1, Math.abs(b)))) out.push(`${path}: ${a} against ${b}`);
  } else if (kind(a) === 'array') {
    if (a.length !== b.length) out.push(`${path}: ${a.length} items against ${b.length}`);
    else a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
  } else if (kind(a) === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a)) out.push(`${path}.${k}: missing in the page's report`);
      else if (!(k in b)) out.push(`${path}.${k}: missing in the command's report`);
      else differences(a[k], b[k], `${path}.${k}`, out);
    }
  } else if (a !== b) out.push(`${path}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`);
  return out;
}

/**
 * Run `manifest.command` in a fresh folder holding `sources` (manifest name →
 * local path) and assert that its report equals `pageReport`. The page puts
 * the notes on reading the files first in `warnings`, the CLI prints them on
 * stderr: warnings are compared as "every CLI warning is the page's".
 */
export function assertManifestReproduces(manifest, pageReport, sources = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gapscope-manifest-'));
  for (const f of manifest.recipe.files) {
    if (f.written_by) continue;
    const from = sources[f.name];
    assert.ok(from, `no local copy given for the manifest's ${f.name} (recipe: ${JSON.stringify(manifest.recipe.files)}; command: ${manifest.command})`);
    mkdirSync(dirname(join(dir, f.name)), { recursive: true });
    copyFileSync(from, join(dir, f.name));
  }
  const run = spawnSync('sh', ['-c', manifest.command], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, PATH: `${join(ROOT, 'target/release')}:${process.env.PATH}` },
  });
  assert.equal(run.status, 0, `the manifest's command failed: ${manifest.command}\n${run.stderr}`);
  const cli = JSON.parse(run.stdout);
  const page = structuredClone(pageReport);
  for (const w of cli.warnings) assert.ok(page.warnings.includes(w), `CLI warning not on the page: ${w}`);
  delete cli.warnings;
  delete page.warnings;
  const diff = differences(page, cli);
  assert.deepEqual(diff, [], `${manifest.command}\n${diff.slice(0, 20).join('\n')}`);
  return cli;
}
