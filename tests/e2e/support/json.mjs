// Comparing JSON trees: the page's exports against the CLI's (determinism,
// inference).

/** Numbers may differ by at most this × max(1, |b|). */
export const REL = 1e-12;

/**
 * Every difference between two JSON trees, as "path: what" lines. Numbers may
 * differ by at most REL × max(1, |b|); anything else must be equal.
 */
export function differences(a, b, path = '$', out = []) {
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) {
    out.push(`${path}: ${kind(a)} ${JSON.stringify(a)?.slice(0, 60)} against ${kind(b)} ${JSON.stringify(b)?.slice(0, 60)}`);
  } else if (kind(a) === 'number') {
    if (!(Math.abs(a - b) <= REL * Math.max(1, Math.abs(b)))) out.push(`${path}: ${a} against ${b}`);
  } else if (kind(a) === 'array') {
    if (a.length !== b.length) out.push(`${path}: ${a.length} items against ${b.length}`);
    else a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
  } else if (kind(a) === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      if (!(k in a)) out.push(`${path}.${k}: missing in the first`);
      else if (!(k in b)) out.push(`${path}.${k}: missing in the second`);
      else differences(a[k], b[k], `${path}.${k}`, out);
    }
  } else if (a !== b) {
    out.push(`${path}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`);
  }
  return out;
}

