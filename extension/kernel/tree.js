// @ts-check
// The flat tree: what the kernel walks is the document as it renders, with
// open shadow roots (and, in the isolated world, closed ones through
// chrome.dom) entered and slotted nodes under their slots.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { domApi } = K;

  // Elements whose subtree a walk does not enter: not rendered, rendered
  // by another document, or (select, textarea) reported whole.
  const SKIP_WALK = new Set(['head', 'script', 'style', 'template', 'noscript', 'iframe', 'frame',
    'object', 'embed', 'select', 'datalist', 'textarea', 'title', 'meta', 'link']);

  /** @param {Element} el @returns {ShadowRoot|null} */
  function shadowOf(el) {
    const open = el.shadowRoot;
    if (open) return open;
    if (domApi && el.localName.indexOf('-') > 0) {
      try { return domApi.openOrClosedShadowRoot(el) || null; } catch (_) { return null; }
    }
    return null;
  }

  /** The parent in the flat tree (slots and shadow hosts crossed).
   * @param {Node} n @returns {Node|null} */
  function flatParent(n) {
    const slot = /** @type {any} */ (n).assignedSlot;
    if (slot) return slot;
    const p = n.parentNode;
    if (p && p.nodeType === 11) return /** @type {ShadowRoot} */ (p).host || null;
    return p;
  }

  /** @param {Node} outer @param {Node|null} inner */
  function containsFlat(outer, inner) {
    for (let n = inner; n; n = flatParent(n)) if (n === outer) return true;
    return false;
  }

  /** The first element matching sel on el or its ancestors, crossing shadow boundaries.
   * @param {Element} el @param {string} sel @returns {Element|null} */
  function closestFlat(el, sel) {
    /** @type {Element|null} */
    let e = el;
    while (e) {
      const m = e.closest(sel);
      if (m) return m;
      const root = e.getRootNode();
      e = root && root.nodeType === 11 ? /** @type {ShadowRoot} */ (root).host : null;
    }
    return null;
  }

  /** The focused element, through shadow roots. */
  function deepActive() {
    let a = document.activeElement;
    for (let i = 0; a && i < 32; i++) {
      const sr = shadowOf(a);
      if (!sr || !sr.activeElement) break;
      a = sr.activeElement;
    }
    return a;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    SKIP_WALK, shadowOf, flatParent, containsFlat, closestFlat, deepActive,
  }));
})();
