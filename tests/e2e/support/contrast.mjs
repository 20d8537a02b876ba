// The contrast measurer (issue 18, item 7): a script installed in the page
// (`context.addInitScript(measurer)`) that defines `window.__contrast`. It
// measures, against WCAG 2.x AA:
//   - every visible text node, SVG <text> and form field (its value) against
//     the nearest painted background: 4.5:1, or 3:1 for large text (≥ 24 px,
//     or ≥ 18.66 px and bold), text of disabled controls exempt;
//   - the boundary of a form control (its border, or its own fill) against
//     what is around it: 3:1;
//   - the focus indicator (the outline of the focused element, or of an
//     ancestor that shows its focus, as a label around a hidden file input)
//     against what is behind it: 3:1.
//
// Approximations (what "nearest painted background" means here):
//   - HTML text: the background colours of the element and its ancestors in
//     the DOM, composited top-down over an opaque layer (the page's own
//     background, else white). Inline `style="background: …"` (the heatmap
//     cells) is a computed background like any other. Positioning is not
//     followed: an element drawn over another (absolute, fixed, sticky) is
//     measured against its own ancestors, which is right for this page (the
//     tooltip and the sticky headers paint their own background).
//     Background images (the legend's gradient bar) are not read; the page
//     puts no text on one.
//   - SVG text: what is painted under the centre of its bounding box
//     (`document.elementsFromPoint`): the first filled shape below it (a
//     pattern fill counts as its first rect's fill), then the HTML under the
//     figure. One point per text: a label straddling two fills is measured
//     against the one under its centre.
//   - Opacity: the text colour's alpha times the opacity of every ancestor
//     up to the opaque background (a group's opacity also fades the
//     backgrounds inside it; the page has no such group).
//   - Pseudo-elements (list markers, ::before) and the UA-drawn parts of
//     native widgets (checkboxes, radios, file buttons, option pop-ups) are
//     not measured: the page leaves their colours to the browser.
//   - A halo around SVG text (a stroke of 2 px or more painted under the
//     glyphs, `paint-order: stroke`) is the background the text is read on.
//   - Focus: the outline is measured against the background outside the
//     element (inside it for a negative outline-offset); an outline over
//     neighbouring heatmap cells is measured against the table's background
//     it sits on between the cells. In an SVG figure, against the figure's
//     background (its first rect, when that covers the figure): an outline
//     crossing a neighbouring mark is measured as if it did not.
export function measurer() {
  const ctx = document.createElement('canvas').getContext('2d');
  const WHITE = { r: 255, g: 255, b: 255, a: 1 };
  const CLEAR = { r: 0, g: 0, b: 0, a: 0 };

  function parse(str) {
    if (!str || str === 'none' || str === 'transparent' || str.startsWith('url(')) return CLEAR;
    let m = str.match(/^rgba?\(([^)]*)\)$/);
    if (m) {
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
    }
    m = str.match(/^color\(srgb ([^)]*)\)$/);
    if (m) {
      const p = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
      return { r: p[0] * 255, g: p[1] * 255, b: p[2] * 255, a: p.length > 3 ? p[3] : 1 };
    }
    // Anything else (a name, a hex attribute value): the canvas normalises it.
    ctx.fillStyle = '#000';
    ctx.fillStyle = str;
    const s = ctx.fillStyle;
    if (s.startsWith('#')) {
      return { r: parseInt(s.slice(1, 3), 16), g: parseInt(s.slice(3, 5), 16), b: parseInt(s.slice(5, 7), 16), a: 1 };
    }
    return s.startsWith('rgb') ? parse(s) : CLEAR;
  }
  const hex = (c) => `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}${c.a < 1 ? `/${c.a.toFixed(2)}` : ''}`;
  const over = (top, under) => {
    const a = top.a + under.a * (1 - top.a);
    if (a === 0) return CLEAR;
    const mix = (k) => (top[k] * top.a + under[k] * under.a * (1 - top.a)) / a;
    return { r: mix('r'), g: mix('g'), b: mix('b'), a };
  };
  const lum = (c) => {
    const ch = (v) => { const s = v / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const faded = (c, k) => ({ ...c, a: c.a * k });

  /** The opaque colour painted behind `el`'s content, and the opacity of the way up to it. */
  function behind(el) {
    const layers = [];
    let opacity = 1;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const cs = getComputedStyle(e);
      const c = parse(cs.backgroundColor);
      if (c.a > 0) layers.push(c);
      if (c.a >= 1) break;
      opacity *= Number(cs.opacity);
    }
    let bg = WHITE;
    for (const l of layers.reverse()) bg = over(l, bg);
    return { bg: { ...bg, a: 1 }, opacity };
  }

  const SHAPES = new Set(['rect', 'circle', 'ellipse', 'path', 'polygon', 'polyline']);
  function shapeFill(e) {
    const cs = getComputedStyle(e);
    let c = parse(cs.fill);
    const url = cs.fill.match(/url\("?#([^")]+)"?\)/);
    if (url) c = parse(document.getElementById(url[1])?.querySelector('rect')?.getAttribute('fill') ?? 'none');
    return faded(c, Number(cs.fillOpacity) * Number(cs.opacity));
  }
  /** What is painted under the centre of SVG element `target`, leaving it (and what it holds) out. */
  function svgBehind(target) {
    let r = target.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
      target.scrollIntoView({ block: 'center', inline: 'center' });
      r = target.getBoundingClientRect();
    }
    const layers = [];
    let base = WHITE;
    for (const e of document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2)) {
      if (e === target || target.contains(e)) continue;
      if (!(e instanceof SVGElement) || e.localName === 'svg') {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (e instanceof SVGElement && c.a === 0) continue;
        base = behind(e).bg;
        break;
      }
      if (!SHAPES.has(e.localName)) continue;
      const c = shapeFill(e);
      if (c.a > 0) layers.push(c);
      if (c.a >= 1) break;
    }
    let bg = base;
    for (const l of layers.reverse()) bg = over(l, bg);
    return { ...bg, a: 1 };
  }

  /** The background of a figure: its first rect if that covers it, over what is behind the figure. */
  function chartBackground(svg) {
    const under = behind(svg).bg;
    const rect = svg.querySelector(':scope > rect');
    const box = svg.viewBox.baseVal;
    if (!rect || !box || rect.getBBox().width < box.width - 1 || rect.getBBox().height < box.height - 1) return under;
    return { ...over(shapeFill(rect), under), a: 1 };
  }

  /** A CSS selector for `el`, from its nearest `data-testid` (or id) down. */
  function path(el) {
    const parts = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const testid = e.getAttribute('data-testid');
      if (testid && parts.length > 0) { parts.unshift(`[data-testid="${testid}"]`); break; }
      if (e.id) { parts.unshift(`#${CSS.escape(e.id)}`); break; }
      let s = e.localName;
      if (testid) s += `[data-testid="${testid}"]`;
      for (const a of ['data-area', 'data-view', 'data-r', 'data-c', 'data-row', 'data-id', 'data-failure', 'data-config', 'data-protocol']) {
        const v = e.getAttribute(a);
        if (v !== null && v.length < 60) s += `[${a}="${v.replace(/["\\]/g, '\\$&')}"]`;
      }
      const cls = [...e.classList].slice(0, 2).map((c) => `.${CSS.escape(c)}`).join('');
      s += cls;
      const parent = e.parentElement;
      if (parent && s === e.localName + cls && [...parent.children].filter((c) => c.localName === e.localName).length > 1) {
        s += `:nth-of-type(${[...parent.children].filter((c) => c.localName === e.localName).indexOf(e) + 1})`;
      }
      parts.unshift(s);
      if (e.localName === 'body') break;
    }
    return parts.join(' > ');
  }

  const disabled = (el) => el.closest(':disabled, [aria-disabled="true"]') !== null;
  // Laid out and drawn: not inside a closed <details> (whose contents keep a
  // layout box) nor under display: none or visibility: hidden.
  const drawn = (el) => el.checkVisibility({ visibilityProperty: true });
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && drawn(el);
  };
  // Drawn fully transparent (a file input hidden in its label): its outline is not seen.
  const invisible = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) if (Number(getComputedStyle(e).opacity) === 0) return true;
    return false;
  };
  const large = (px, weight) => px >= 24 || (px >= 18.66 && weight >= 700);
  const FIELD_TYPES = new Set(['text', 'number', 'search', 'email', 'url', 'tel', 'password', '']);

  function textItem(el, text, fg, bg, opacity, px, weight) {
    const c = over(faded(fg, opacity), bg);
    const need = large(px, weight) ? 3 : 4.5;
    return { kind: el instanceof SVGElement ? 'svg text' : 'text', text: text.trim().replace(/\s+/g, ' ').slice(0, 40), sel: path(el), fg: hex(fg), bg: hex(bg), ratio: ratio(c, bg), need };
  }

  /** Every text of `root` that is drawn: text nodes, SVG text, form-field values. */
  function texts(root) {
    const out = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const svgTexts = new Set();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!/\S/.test(n.data)) continue;
      const el = n.parentElement;
      if (!el || el.closest('script, style, title, desc, option, datalist, noscript, textarea') || disabled(el)) continue;
      if (el instanceof SVGElement) {
        const t = el.closest('text');
        if (t) svgTexts.add(t);
        continue;
      }
      const range = document.createRange();
      range.selectNodeContents(n);
      if (!drawn(el) || ![...range.getClientRects()].some((r) => r.width > 0 && r.height > 0)) continue;
      const cs = getComputedStyle(el);
      const { bg, opacity } = behind(el);
      out.push(textItem(el, n.data, parse(cs.color), bg, opacity, parseFloat(cs.fontSize), Number(cs.fontWeight)));
    }
    const fields = root.matches?.('input, select, textarea') ? [root] : [...root.querySelectorAll('input, select, textarea')];
    for (const f of fields) {
      if (f.localName === 'input' && !FIELD_TYPES.has(f.type)) continue;
      if (disabled(f) || !shown(f)) continue;
      const text = f.localName === 'select' ? (f.selectedOptions[0]?.textContent ?? '') : (f.value || f.placeholder || '');
      if (!/\S/.test(text)) continue;
      const cs = getComputedStyle(f);
      const { bg, opacity } = behind(f);
      out.push(textItem(f, text, parse(cs.color), bg, opacity, parseFloat(cs.fontSize), Number(cs.fontWeight)));
    }
    for (const t of svgTexts) {
      if (disabled(t) || !shown(t)) continue;
      const cs = getComputedStyle(t);
      let opacity = 1;
      for (let e = t; e && e.localName !== 'svg'; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      const fg = faded(parse(cs.fill), Number(cs.fillOpacity));
      // The figure is scaled to its box: the size drawn is the size in user units times the scale.
      const scale = t.getScreenCTM()?.a ?? 1;
      const px = parseFloat(cs.fontSize) * scale;
      // A halo (a stroke painted under the glyphs, 2 px or wider) is the background they are read on.
      const stroke = faded(parse(cs.stroke), Number(cs.strokeOpacity));
      const halo = /^stroke/.test(cs.paintOrder) && stroke.a > 0 && parseFloat(cs.strokeWidth) * scale >= 2;
      const bg = halo ? { ...over(stroke, svgBehind(t)), a: 1 } : svgBehind(t);
      out.push(textItem(t, t.textContent, fg, bg, opacity, px, Number(cs.fontWeight)));
    }
    return out;
  }

  const NATIVE = new Set(['checkbox', 'radio', 'file', 'range', 'color', 'hidden', 'image']);
  /** A form control's boundary (its border, else its fill) against what is around it: 3:1. */
  function boundary(el) {
    const isControl = ['button', 'input', 'select', 'textarea'].includes(el.localName) || el.classList.contains('toggle');
    if (!isControl || (el.localName === 'input' && NATIVE.has(el.type)) || disabled(el) || !shown(el)) return null;
    const outside = behind(el.parentElement).bg;
    const cs = getComputedStyle(el);
    const own = over(parse(cs.backgroundColor), outside);
    const fill = ratio(own, outside);
    const sides = ['Top', 'Right', 'Bottom', 'Left']
      .filter((s) => parseFloat(cs[`border${s}Width`]) > 0 && !['none', 'hidden'].includes(cs[`border${s}Style`]))
      .map((s) => over(parse(cs[`border${s}Color`]), outside));
    // No border: a control identified by its fill, or a borderless text
    // control (a link-like button) whose text is what shows it.
    if (sides.length === 0) return null;
    const worst = sides.reduce((w, c) => (ratio(c, outside) < ratio(w, outside) ? c : w));
    const r = Math.max(ratio(worst, outside), fill);
    return { kind: 'boundary', text: (el.innerText ?? el.value ?? '').trim().slice(0, 40), sel: path(el), fg: hex(worst), bg: hex(outside), ratio: r, need: 3 };
  }

  /** The focus indicator of the focused element `el`: its outline, or that of an ancestor showing its focus. */
  function indicator(el) {
    for (let e = el, k = 0; e && e.nodeType === 1 && k < 4; e = e.parentElement, k++) {
      const cs = getComputedStyle(e);
      if (cs.outlineStyle === 'none' || !(parseFloat(cs.outlineWidth) > 0) || invisible(e)) continue;
      const col = parse(cs.outlineColor);
      let bg;
      if (e instanceof SVGElement && e.localName !== 'svg') bg = chartBackground(e.ownerSVGElement);
      else bg = parseFloat(cs.outlineOffset) < 0 ? behind(e).bg : behind(e.parentElement).bg;
      const c = over(col, bg);
      // Chromium's `auto` ring is two-tone (dark and light): it shows on any background.
      const r = cs.outlineStyle === 'auto' ? 21 : ratio(c, bg);
      return { kind: 'focus indicator', text: (el.textContent ?? '').trim().slice(0, 40), sel: path(el), fg: hex(col), bg: hex(bg), ratio: r, need: 3 };
    }
    return { kind: 'focus indicator', text: (el.textContent ?? '').trim().slice(0, 40), sel: path(el), fg: 'none', bg: '', ratio: 0, need: 3, note: 'no outline when focused' };
  }

  const CONTROLS = 'a[href], button, input, select, textarea, summary, label.pick, [tabindex], td.cell, [data-tip]';
  const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';
  const controls = (sel) => [...document.querySelectorAll(sel)].filter((el) => !disabled(el) && shown(el));
  const failing = (items) => items.filter((i) => !(i.ratio >= i.need));

  window.__contrast = {
    ratio: (a, b) => ratio(parse(a), parse(b)),
    path,
    /** Every text and control boundary of the page: {measured, failures}. */
    page() {
      const items = texts(document.body);
      for (const el of controls(`${CONTROLS}, .toggle`)) {
        const b = boundary(el);
        if (b) items.push(b);
      }
      return { measured: items.length, svg: items.filter((i) => i.kind === 'svg text').length, failures: failing(items) };
    },
    /** Every text measured in the elements matching `sel` (passing or not). */
    texts: (sel) => [...document.querySelectorAll(sel)].flatMap((el) => texts(el)),
    /** The selectors of the controls to hover, in page order. */
    hoverTargets: () => controls(CONTROLS).filter((el) => !(el.localName === 'input' && el.type === 'file')).map(path),
    /** Bring the control into view; its centre, or null if it is gone. */
    aim(sel) {
      const el = document.querySelector(sel);
      if (!el) return null;
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const r = el.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    },
    /** The texts and boundary of the control `sel` (hovered now), and the hover card's texts. */
    hovered(sel) {
      const el = document.querySelector(sel);
      if (!el) return { measured: 0, failures: [] };
      const items = texts(el);
      const b = boundary(el);
      if (b) items.push(b);
      const tip = document.querySelector('[data-testid=tooltip]');
      if (tip) items.push(...texts(tip));
      return { measured: items.length, failures: failing(items) };
    },
    /** Focus every focusable control in turn: its focus indicator, texts and boundary. */
    focusAll() {
      const items = [];
      let notVisible = [];
      let n = 0;
      for (const el of controls(FOCUSABLE)) {
        el.focus({ preventScroll: true });
        if (document.activeElement !== el) continue;
        n += 1;
        // Programmatic focus after a key press shows the indicator a keyboard user sees.
        if (!el.matches(':focus-visible')) notVisible.push(path(el));
        items.push(indicator(el), ...texts(el));
        const b = boundary(el);
        if (b) items.push(b);
      }
      document.activeElement?.blur?.();
      notVisible = notVisible.slice(0, 10);
      return { focused: n, measured: items.length, failures: failing(items), notVisible };
    },
    /** Keyboard reachability: record every element focused from now on (by selector). */
    listen() {
      window.__focused = [];
      if (!window.__listening) {
        document.addEventListener('focusin', (e) => window.__focused.push(path(e.target)), true);
        window.__listening = true;
      }
    },
    focused: () => window.__focused,
    /** Whether the Tab walk came round: back at its first element, or focus left the page's controls. */
    cameRound() {
      const f = window.__focused;
      const at = document.activeElement;
      return f.length > 1 && (f.indexOf(f[0], 1) > 0 || !at || at === document.body);
    },
    /**
     * What a keyboard must reach: every visible enabled control and tab stop
     * (`tab`), the heatmap cells that are no tab stop (`arrow`: the arrow
     * keys move between cells), and what a pointer can click that no key can
     * reach (`pointerOnly`: the top of a `cursor: pointer` region that is
     * neither focusable nor holds a focusable element).
     */
    reachable() {
      const tab = controls('a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex="-1"])').map(path);
      const arrow = controls('td.cell[tabindex="-1"]').map(path);
      const pointerOnly = [];
      for (const el of document.body.querySelectorAll('*')) {
        // A pad row of a virtualised table stands for rows not drawn; it is no control.
        if (getComputedStyle(el).cursor !== 'pointer' || !shown(el) || disabled(el) || el.matches('tr.pad')) continue;
        if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue;
        const focusable = (e) => e.tabIndex >= 0 || e.matches('a[href], button, input, select, textarea, summary');
        if (focusable(el) || [...el.querySelectorAll('*')].some(focusable)) continue;
        if (el.localName === 'label' && el.control) continue;
        pointerOnly.push(path(el));
      }
      return { tab, arrow, pointerOnly };
    },
    /** The heatmaps drawn: testid, their tab-stop cell's selector, rows and columns drawn. */
    grids: () => [...document.querySelectorAll('table.heatmap')].filter(shown).map((t) => {
      const rows = [...t.querySelectorAll('tbody tr')].filter((tr) => tr.querySelector('td.cell'));
      return {
        testid: t.dataset.testid,
        stop: t.querySelector('td.cell[tabindex="0"]') ? path(t.querySelector('td.cell[tabindex="0"]')) : null,
        rows: rows.length,
        cols: rows[0]?.querySelectorAll('td.cell').length ?? 0,
      };
    }),
    /** Open every closed <details> (their contents are a state a reader reaches); returns a closer. */
    openDetails() {
      const closed = [...document.querySelectorAll('details:not([open])')];
      closed.forEach((d) => { d.open = true; });
      window.__closeDetails = () => closed.forEach((d) => { d.open = false; });
      return closed.length;
    },
  };
}
