// @ts-check
// Context for elements an agent could not otherwise tell apart
// (docs/snapshot.md, "Snapshot format"): where a role and name repeat
// in this document, each such element gets the name of its nearest named
// container — a row, a list item, a dialog, a form, a region — or the
// heading of the nearest section that has one. The host decides, over all
// frames, where a repeat makes the context show; this only computes the
// candidates, and only for repeats, so a page without any pays one count.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, fold, cut, flatParent, nameOf, textOf, noteText, textIn, readsInto } = K;

  /** Contexts are short: they only have to tell repeats apart. */
  const CONTEXT_MAX = 40;
  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
  const CHILD_HEADINGS = HEADINGS.split(', ').map((h) => ':scope > ' + h).join(', ');
  const SKIP_TEXT = new Set(['button', 'a', 'input', 'select', 'textarea', 'script', 'style', 'svg']);

  /** @param {Element} el @returns {string} */
  function roleAttr(el) {
    return (attr(el, 'role') || '').trim().split(/\s+/)[0];
  }

  /** The first text of el outside its controls: what a row or list item
   * is about ("Milk" for <li>Milk <button>Delete</button></li>); with
   * noLabels, outside its <label>s too.
   * @param {Element} el @param {boolean} [noLabels] @returns {string} */
  function leadText(el, noLabels) {
    noteText(el);
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => n.nodeType === 1 && (SKIP_TEXT.has(/** @type {Element} */ (n).localName) || /** @type {Element} */ (n).hasAttribute('role') ||
        (noLabels && /** @type {Element} */ (n).localName === 'label'))
        && n !== el ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      if (n.nodeType === 3) {
        const t = fold(n.nodeValue || '');
        // A separator between links ("Documentation | License", "a → b")
        // says nothing of what the box is about.
        if (t && WORDY.test(t)) return t;
      }
    }
    return '';
  }

  // Text that has a letter or a digit in it.
  const WORDY = /[\p{L}\p{N}]/u;

  // What a row of a table laid out for the page holds, not a row of data
  // (phpLiteAdmin's page is one row: its navigation in one cell, the rest
  // in the other).
  const LAYOUT_IN_ROW = 'table, fieldset, h1, h2, h3, h4, h5, h6';

  /** A heading's text as a context: without the controls it holds, as
   * MediaWiki's "Details[edit]" is the section "Details", and without the
   * brackets and bars left around them; a heading that is all link (a
   * post's title) is its text. @param {Element} h @returns {string} */
  function headingText(h) {
    const f = ownText(h);
    return keepPairs(f, f.replace(/^[\s[\]()|·•:-]+|[\s[\]()|·•:-]+$/g, '')) || textOf(h, { checkVis: true });
  }

  /** The text of el outside the controls it holds. @param {Element} el @returns {string} */
  function ownText(el) {
    noteText(el);
    let own = '';
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => n.nodeType === 1 && (SKIP_TEXT.has(/** @type {Element} */ (n).localName) || /** @type {Element} */ (n).hasAttribute('role'))
        && n !== el ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    for (let n = tw.nextNode(); n; n = tw.nextNode()) if (n.nodeType === 3) own += n.nodeValue || '';
    return fold(own);
  }

  /** t, the trimmed heading text s, with the closing brackets back that
   * close one it holds ("Team offsite (v2)", not "Team offsite (v2"):
   * only the brackets left around the controls taken out are trimmed.
   * @param {string} s @param {string} t */
  function keepPairs(s, t) {
    let end = s.indexOf(t) + t.length;
    const open = (/** @type {string} */ o, /** @type {string} */ c) => t.split(o).length - t.split(c).length;
    while (t && end < s.length && ((s[end] === ')' && open('(', ')') > 0) || (s[end] === ']' && open('[', ']') > 0))) {
      t += s[end++];
    }
    return t;
  }

  /** The heading el holds, if any, as text. @param {Element} el */
  function headingIn(el) {
    const h = el.querySelector(HEADINGS);
    return h ? headingText(h) : '';
  }

  /** In a box whose headings are its children's siblings (an article's
   * flat sections: h2, p, p, h2, p), the section of el is the last
   * heading before it. @param {Element[]} heads in document order
   * @param {Element} el @returns {string} */
  function sectionOf(heads, el) {
    let found = '';
    for (const h of heads) {
      if (h === el || h.contains(el) || (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) found = headingText(h);
      else break;
    }
    return found;
  }

  /** The name el gives the elements inside it, or '', or, for a box of
   * flat sections, its headings (contextIn picks the one before).
   * @param {Element} el @returns {string|{heads: Element[]}} */
  function ownContext(el) {
    const tag = el.localName;
    const role = roleAttr(el);
    const labelled = () => (attr(el, 'aria-label') || attr(el, 'aria-labelledby') ? nameOf(el, role || 'region') : '');
    if (tag === 'dialog' || role === 'dialog' || role === 'alertdialog') return labelled() || headingIn(el);
    // A header cell names what it holds besides its controls, not the
    // row's first text: DokuWiki's comparison of two revisions has one
    // header cell a side, each its revision's link and summary.
    if (tag === 'th' || role === 'columnheader' || role === 'rowheader') return ownText(el);
    if (tag === 'tr' || role === 'row') {
      if (tag === 'tr' && el.querySelector(LAYOUT_IN_ROW)) return '';
      // A row whose only text is its header's link (Django admin's
      // "Groups | Add | Change") is named by that header.
      const lead = leadText(el);
      if (lead) return lead;
      const head = el.querySelector('th, [role=rowheader]');
      return head ? textOf(head, { checkVis: true }) : '';
    }
    if (tag === 'li' || role === 'listitem' || role === 'treeitem') return labelled() || headingIn(el) || leadText(el);
    if (tag === 'form' || role === 'form' || tag === 'section' || tag === 'article' || tag === 'aside' || tag === 'nav' ||
      tag === 'fieldset' || role === 'region' || role === 'group' || role === 'tabpanel' || role === 'article') {
      const legend = tag === 'fieldset' ? el.querySelector('legend') : null;
      return labelled() || (legend ? fold(textIn(legend)) : '') || headingIn(el);
    }
    if (tag === 'body' || tag === 'html') return '';
    // ExtJS 3's windows and titled panels mark up no dialog, region or
    // heading: their title bar's text says where a control is (Deluge's
    // "Add Torrents" and "Add from Url" each end with an Add).
    if (tag === 'div' && typeof el.className === 'string' && el.className.indexOf('x-') >= 0) {
      const title = el.querySelector(':scope > .x-window-tl .x-window-header-text, :scope > .x-panel-header .x-panel-header-text');
      if (title) return fold(textIn(title));
    }
    // A heading is the context of what it holds (the edit link of
    // MediaWiki's "Details[edit]").
    if (el.matches(HEADINGS)) return headingText(el);
    // Any other box that starts with a heading is that heading's section,
    // or, with more headings in it, sections (sectionOf).
    const first = el.firstElementChild;
    if (first && first.matches(HEADINGS)) {
      const heads = [...el.querySelectorAll(CHILD_HEADINGS)];
      return heads.length > 1 ? { heads } : headingText(first);
    }
    // A card whose header holds its one heading and little else
    // (Bootstrap's .panel-heading > h3.panel-title, .card-header > h5,
    // .modal-header with its × before the h4) is that heading's: Syncthing's
    // notices each end with an OK.
    if (first && !first.matches(HEADINGS)) {
      const inner = first.querySelectorAll(HEADINGS);
      if (inner.length === 1) {
        const head = headingText(inner[0]);
        if (head && fold(textIn(first)).length <= head.length + 20) return head;
      }
    }
    // A card whose controls come before its one heading (Trac's reports:
    // Delete and Edit, then the report's title) is that heading's too.
    if (first) {
      const heads = el.querySelectorAll(CHILD_HEADINGS);
      if (heads.length === 1) return headingText(heads[0]);
    }
    // A box that says what its links are before them ("Trace: start »
    // wiki", "You are here: Home › Docs") is named by that; a field's
    // <label> ending in a colon names the field, not the box around it
    // (ExtJS's form items, in Deluge's preferences).
    const lead = leadText(el, true);
    if (lead.length <= 30 && /\S:$/.test(lead)) return lead.slice(0, -1);
    return '';
  }

  /** ownContext as text for the element el inside n. Each box's context
   * is kept in memo with what it read (a box of sections: its whole text),
   * so that a re-read after a change of text keeps those it did not reach
   * (reread.js). @param {Element} n @param {Element} el
   * @param {ContextMemo} memo @returns {string} */
  function contextIn(n, el, memo) {
    let m = memo.get(n);
    if (m === undefined) {
      /** @type {Reads} */
      const reads = { text: [], facts: [] };
      const outer = readsInto(reads);
      let c;
      try { c = ownContext(n); } finally { readsInto(outer); }
      if (typeof c === 'string') c = cut(fold(c), CONTEXT_MAX);
      else reads.text.push(n);
      m = { c, reads };
      memo.set(n, m);
    }
    const c = m.c;
    return typeof c === 'string' ? c : cut(fold(sectionOf(c.heads, el)), CONTEXT_MAX);
  }

  /**
   * Adds ctx to the reported elements whose role and name repeat in this
   * document, or, with all, to every one (resolving a target line, whose
   * context the agent may have from another state of the page).
   * @param {{id: number, role: string, name: string, ctx?: string}[]} out
   * @param {(id: number) => Element|undefined} elementOf
   * @param {boolean} [all]
   * @param {ContextMemo} [kept] the boxes' contexts so far (a walk's, for
   *   its re-read to keep): filled in here
   */
  function addContexts(out, elementOf, all, kept) {
    // Names first: most are unique, and a key made of role and name costs
    // a new string per element (up to a tenth of a walk's CPU at 5,000
    // elements, by a V8 profile), so only the elements whose name repeats
    // get one.
    /** @type {Map<string, number>} */
    const names = new Map();
    for (const r of out) names.set(r.name, (names.get(r.name) || 0) + 1);
    /** @type {Map<string, number>} */
    const count = new Map();
    for (const r of out) {
      if (/** @type {number} */ (names.get(r.name)) < 2) continue;
      const k = r.role + '\u0000' + r.name;
      count.set(k, (count.get(k) || 0) + 1);
    }
    /** @type {ContextMemo} */
    const memo = kept || new Map();
    for (const r of out) {
      if (!all && (/** @type {number} */ (names.get(r.name)) < 2 || (count.get(r.role + '\u0000' + r.name) || 0) < 2)) continue;
      const el = elementOf(r.id);
      if (!el) continue;
      for (let n = flatParent(el); n && n.nodeType === 1; n = flatParent(n)) {
        const c = contextIn(/** @type {Element} */ (n), el, memo);
        if (c && c !== r.name) {
          r.ctx = c;
          break;
        }
      }
    }
  }

  /** Where el is, for a reply that names it alone (a find): the name of
   * its nearest named container or section, or ''.
   * @param {Element} el @returns {string} */
  function contextOf(el) {
    /** @type {ContextMemo} */
    const memo = new Map();
    for (let n = flatParent(el); n && n.nodeType === 1; n = flatParent(n)) {
      const c = contextIn(/** @type {Element} */ (n), el, memo);
      if (c) return c;
    }
    return '';
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ addContexts, contextOf }));
})();
