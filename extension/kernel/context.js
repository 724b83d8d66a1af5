// @ts-check
// Context for elements an agent could not otherwise tell apart
// (docs/ARCHITECTURE.md, "Snapshot format"): where a role and name repeat
// in this document, each such element gets the name of its nearest named
// container — a row, a list item, a dialog, a form, a region — or the
// heading of the nearest section that has one. The host decides, over all
// frames, where a repeat makes the context show; this only computes the
// candidates, and only for repeats, so a page without any pays one count.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, fold, cut, flatParent, nameOf, textOf } = K;

  /** Contexts are short: they only have to tell repeats apart. */
  const CONTEXT_MAX = 40;
  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
  const SKIP_TEXT = new Set(['button', 'a', 'input', 'select', 'textarea', 'script', 'style', 'svg']);

  /** @param {Element} el @returns {string} */
  function roleAttr(el) {
    return (attr(el, 'role') || '').trim().split(/\s+/)[0];
  }

  /** The first text of el outside its controls: what a row or list item
   * is about ("Milk" for <li>Milk <button>Delete</button></li>).
   * @param {Element} el @returns {string} */
  function leadText(el) {
    const tw = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => n.nodeType === 1 && (SKIP_TEXT.has(/** @type {Element} */ (n).localName) || /** @type {Element} */ (n).hasAttribute('role'))
        && n !== el ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      if (n.nodeType === 3) {
        const t = fold(n.nodeValue || '');
        if (t) return t;
      }
    }
    return '';
  }

  /** The heading el holds, if any, as text. @param {Element} el */
  function headingIn(el) {
    const h = el.querySelector(HEADINGS);
    return h ? textOf(h, { checkVis: true }) : '';
  }

  /** The name el gives the elements inside it, or ''.
   * @param {Element} el @returns {string} */
  function ownContext(el) {
    const tag = el.localName;
    const role = roleAttr(el);
    const labelled = () => (attr(el, 'aria-label') || attr(el, 'aria-labelledby') ? nameOf(el, role || 'region') : '');
    if (tag === 'dialog' || role === 'dialog' || role === 'alertdialog') return labelled() || headingIn(el);
    if (tag === 'tr' || role === 'row') return leadText(el);
    if (tag === 'li' || role === 'listitem' || role === 'treeitem') return labelled() || headingIn(el) || leadText(el);
    if (tag === 'form' || role === 'form' || tag === 'section' || tag === 'article' || tag === 'aside' || tag === 'nav' ||
      tag === 'fieldset' || role === 'region' || role === 'group' || role === 'tabpanel' || role === 'article') {
      const legend = tag === 'fieldset' ? el.querySelector('legend') : null;
      return labelled() || (legend ? fold(legend.textContent || '') : '') || headingIn(el);
    }
    if (tag === 'body' || tag === 'html') return '';
    // Any other box that starts with a heading is that heading's section.
    const first = el.firstElementChild;
    if (first && first.matches(HEADINGS)) return textOf(first, { checkVis: true });
    return '';
  }

  /**
   * Adds ctx to the reported elements whose role and name repeat in this
   * document, or, with all, to every one (resolving a target line, whose
   * context the agent may have from another state of the page).
   * @param {{id: number, role: string, name: string, ctx?: string}[]} out
   * @param {(id: number) => Element|undefined} elementOf
   * @param {boolean} [all]
   */
  function addContexts(out, elementOf, all) {
    /** @type {Map<string, number>} */
    const count = new Map();
    for (const r of out) {
      const k = r.role + '\u0000' + r.name;
      count.set(k, (count.get(k) || 0) + 1);
    }
    /** @type {Map<Node, string>} */
    const memo = new Map();
    for (const r of out) {
      if (!all && (count.get(r.role + '\u0000' + r.name) || 0) < 2) continue;
      const el = elementOf(r.id);
      if (!el) continue;
      for (let n = flatParent(el); n && n.nodeType === 1; n = flatParent(n)) {
        let c = memo.get(n);
        if (c === undefined) {
          c = cut(fold(ownContext(/** @type {Element} */ (n))), CONTEXT_MAX);
          memo.set(n, c);
        }
        if (c && c !== r.name) {
          r.ctx = c;
          break;
        }
      }
    }
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ addContexts }));
})();
