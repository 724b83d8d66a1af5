// @ts-check
// The whole text of one element, for `grip read` (docs/reading.md,
// "Reading one element"): what a snapshot's line cuts at a hundred
// characters, as the page shows it — blocks on lines of their own, table
// cells apart, preformatted text as it is — through open shadow roots,
// without what a snapshot leaves out (hidden, inert, aria-hidden, what does
// not render) and never a secret field's value. The host asks for a part
// of it, by character offsets, so a long text crosses in pieces the size
// of the agent's budget.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, inputType, shadowOf, isHiddenAttr, selectValue, isSecret, surfaceOf, editorText, editContextOf,
    TEXT_INPUTS } = K;

  // Elements whose content is no text a person reads.
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'frame', 'object', 'embed',
    'datalist', 'title', 'meta', 'link', 'head', 'svg', 'canvas', 'video', 'audio']);
  // Blocks set apart by an empty line, as a reader sees paragraphs.
  const PARAGRAPHS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol', 'dl',
    'table', 'figure', 'hr', 'section', 'article', 'header', 'footer', 'aside', 'form', 'fieldset']);

  // The text being written: parts, and what the last part left pending.
  /** @type {string[]} */
  let parts = [];
  let breaks = 0;     // line breaks owed before the next text (0, 1 or 2)
  let space = false;  // a space owed before the next text on this line
  let started = false; // some text was written
  let secrets = 0;    // secret fields left out

  /** Writes s, the owed breaks or space first.
   * @param {string} s */
  function put(s) {
    if (!s) return;
    if (started) {
      if (breaks) parts.push(breaks > 1 ? '\n\n' : '\n');
      else if (space) parts.push(' ');
    }
    breaks = 0;
    space = false;
    started = true;
    parts.push(s);
  }

  /** @param {number} n */
  function lineBreak(n) {
    if (started && n > breaks) breaks = n;
  }

  /** Text of a text node: whitespace folded unless the element keeps it.
   * @param {string} data @param {boolean} pre */
  function textNode(data, pre) {
    if (pre) {
      const lines = data.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (i > 0) {
          if (!started) started = true; // a leading newline of a pre is not text
          else parts.push('\n');
          breaks = 0;
          space = false;
        }
        if (lines[i]) put(lines[i]);
      }
      return;
    }
    const words = data.split(/[ \t\n\r\f]+/);
    for (let i = 0; i < words.length; i++) {
      if (i > 0) space = true;
      if (words[i]) put(words[i]);
    }
  }

  /** A form control's value inside the element read, as the page shows
   * it; nothing for a secret.
   * @param {Element} e */
  function controlText(e) {
    if (isSecret(e)) {
      secrets++;
      return;
    }
    const tag = e.localName;
    if (tag === 'select') return put(selectValue(/** @type {HTMLSelectElement} */ (e)));
    if (tag === 'textarea') return textNode(/** @type {HTMLTextAreaElement} */ (e).value, true);
    const t = inputType(e);
    if (TEXT_INPUTS.has(t)) textNode(/** @type {HTMLInputElement} */ (e).value, false);
  }

  /** @param {Node} n @param {boolean} pre @param {Element|null} skip */
  function walk(n, pre, skip) {
    if (n.nodeType === 3) return textNode(/** @type {Text} */ (n).data, pre);
    if (n.nodeType !== 1) return;
    const e = /** @type {Element} */ (n);
    const tag = e.localName;
    if (e === skip || SKIP.has(tag) || isHiddenAttr(e)) return;
    const style = getComputedStyle(e);
    if (style.display === 'none') return;
    if (tag === 'br') return lineBreak(1);
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      if (style.visibility === 'visible') { space = true; controlText(e); space = true; }
      return;
    }
    if (tag === 'img' || tag === 'area') {
      const alt = attr(e, 'alt') || attr(e, 'aria-label') || '';
      if (alt && style.visibility === 'visible') { space = true; textNode(alt, false); space = true; }
      return;
    }
    const d = style.display;
    const ws = style.whiteSpace;
    const keep = ws === 'pre' || ws === 'pre-wrap' || ws === 'pre-line' || ws === 'break-spaces';
    const cell = d === 'table-cell';
    const block = !cell && d !== 'contents' && !d.startsWith('inline') && d !== 'ruby' && d !== 'ruby-text';
    const gap = PARAGRAPHS.has(tag) ? 2 : 1;
    if (block) lineBreak(gap);
    if (cell && started && !breaks) { space = false; parts.push(' | '); }
    // visibility:hidden hides an element's own text, not a child that
    // sets visibility:visible again.
    const shows = style.visibility === 'visible';
    walkChildren(e, keep, skip, shows);
    if (block) lineBreak(gap);
  }

  /** The children of e in the flat tree: its open shadow root's, a
   * slot's assigned nodes, or its own.
   * @param {Element} e @param {boolean} pre @param {Element|null} skip @param {boolean} shows */
  function walkChildren(e, pre, skip, shows) {
    /** @type {Iterable<Node>} */
    let kids = e.childNodes;
    const sr = shadowOf(e);
    if (sr) kids = sr.childNodes;
    else if (e.localName === 'slot') {
      const assigned = /** @type {HTMLSlotElement} */ (e).assignedNodes();
      if (assigned.length) kids = assigned;
    }
    for (const c of kids) {
      if (c.nodeType === 3 && !shows) continue;
      walk(c, pre, skip);
    }
  }

  /** The whole text of el, and how many secret fields it left out.
   * @param {Element} el @returns {{text: string, secrets: number}} */
  function wholeText(el) {
    parts = [];
    breaks = 0;
    space = false;
    started = false;
    secrets = 0;
    try {
      const tag = el.localName;
      if (tag === 'input' || tag === 'textarea' || tag === 'select') {
        const surface = tag === 'textarea' ? surfaceOf(el) : null;
        if (surface && editContextOf(el)) put(editorText(el));
        else if (surface) walkChildren(surface, false, el, true);
        else controlText(el);
      } else {
        // An EditContext editor draws its lines for eyes only.
        const surface = surfaceOf(el);
        if (surface && editContextOf(el)) put(editorText(el));
        else walkChildren(el, keepsSpace(el), null, getComputedStyle(el).visibility === 'visible');
      }
      return { text: parts.join(''), secrets };
    } finally {
      parts = [];
    }
  }

  /** @param {Element} el */
  function keepsSpace(el) {
    const ws = getComputedStyle(el).whiteSpace;
    return ws === 'pre' || ws === 'pre-wrap' || ws === 'pre-line' || ws === 'break-spaces';
  }

  /** The characters (code points, as the host counts them) of text from
   * from, at most max of them, and how many it has in all.
   * @param {string} text @param {number} from @param {number} max */
  function slice(text, from, max) {
    if (!/[\ud800-\udfff]/.test(text)) return { part: text.slice(from, from + max), total: text.length };
    const chars = Array.from(text);
    return { part: chars.slice(from, from + max).join(''), total: chars.length };
  }

  /** The part of el's whole text that a read asks for: {text, total},
   * secret when el is a field whose value grip never reads, secrets when
   * the element holds such fields, left out.
   * @param {Element} el @param {{from?: number, max?: number}} r */
  function readText(el, r) {
    const from = Math.max(0, Math.floor(Number(r.from) || 0));
    const max = Math.max(1, Math.floor(Number(r.max) || 0));
    if (isSecret(el)) return { text: '', total: 0, secret: true };
    const whole = wholeText(el);
    const { part, total } = slice(whole.text, from, max);
    /** @type {{text: string, total: number, secrets?: number}} */
    const out = { text: part, total };
    if (whole.secrets) out.secrets = whole.secrets;
    return out;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ readText }));
})();
