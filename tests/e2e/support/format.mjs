// Numbers as the page shows them, for the browser tests' expectations.

/** A number as the page shows it (gapscope_view::format::fmt): no "−0.00", U+2212 as the minus. */
export const shown = (v, d) => {
  const s = v.toFixed(d);
  return /^-?[0.]+$/.test(s) ? s.replace('-', '') : s.replace('-', '\u2212');
};
