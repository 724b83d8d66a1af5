// @ts-check
// What is there to see. Elements are skipped by what they are ([hidden],
// [inert], aria-hidden="true": hidden from everyone, styles aside) and by
// whether they render (display:none, visibility:hidden or collapse, or
// inside content-visibility:hidden, here or above).
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, hasAttr, flatParent, closestFlat } = K;

  /** Whether el itself is hidden by what it is.
   * @param {Element} el */
  function isHiddenAttr(el) {
    return hasAttr(el, 'hidden') || hasAttr(el, 'inert') || attr(el, 'aria-hidden') === 'true';
  }

  /** Why el, or an ancestor in the flat tree, counts as hidden by what it
   * is ([hidden], [inert], aria-hidden), or ''.
   * @param {Element} el */
  function hiddenReason(el) {
    const h = closestFlat(el, '[hidden],[aria-hidden="true"],[inert]');
    if (!h) return '';
    if (hasAttr(h, 'inert')) return 'element is inert';
    if (hasAttr(h, 'hidden')) return 'element is hidden (hidden attribute)';
    return 'element is hidden from assistive technology (aria-hidden)';
  }

  /** @param {Element} el */
  function displayContents(el) {
    try { return getComputedStyle(el).display === 'contents'; } catch (_) { return false; }
  }

  const VIS_OPTS = { visibilityProperty: true };

  /** Whether el renders (it, and every ancestor, have a box and visibility:visible).
   * @param {Element} el */
  function isVisible(el) {
    const e = /** @type {any} */ (el);
    if (typeof e.checkVisibility === 'function') {
      if (e.checkVisibility(VIS_OPTS)) return true;
      // display:contents has no box of its own but its children render.
      return displayContents(el) && !!el.parentElement && isVisibleStyle(el);
    }
    return isVisibleStyle(el);
  }

  /** Fallback for engines without checkVisibility: one computed style per element.
   * @param {Element} el */
  function isVisibleStyle(el) {
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.visibility === 'collapse') return false;
    for (let n = /** @type {Node|null} */ (el); n; n = flatParent(n)) {
      if (n.nodeType === 1 && getComputedStyle(/** @type {Element} */ (n)).display === 'none') return false;
    }
    return true;
  }

  /** Whether el and its whole subtree do not render (display:none, or
   * skipped by content-visibility:hidden, here or above), so a walk need
   * not enter it.
   * @param {Element} el */
  function noBox(el) {
    const e = /** @type {any} */ (el);
    if (typeof e.checkVisibility !== 'function') return false;
    return !e.checkVisibility() && !displayContents(el);
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    isHiddenAttr, hiddenReason, isVisible, noBox,
  }));
})();
