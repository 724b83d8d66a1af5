// @ts-check
// The mouse, synthetically: hover (over/enter/move), click (the pointer and
// mouse sequence, then click()) and what a real press does to focus.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { hasAttr, flatParent, inputType, isEditingHost, FORM_TAGS, mouse, pointer, focusAsPerson, blurAsPerson } = K;

  /** @param {Element} el @param {{x: number, y: number}} pt */
  function hoverAt(el, pt) {
    el.dispatchEvent(pointer('pointerover', pt, 0));
    el.dispatchEvent(pointer('pointerenter', pt, 0));
    el.dispatchEvent(mouse('mouseover', pt, 0, 0));
    el.dispatchEvent(mouse('mouseenter', pt, 0, 0));
    el.dispatchEvent(pointer('pointermove', pt, 0));
    el.dispatchEvent(mouse('mousemove', pt, 0, 0));
  }

  /** @param {Element} el @param {{x: number, y: number}} pt @param {number} detail */
  function clickAt(el, pt, detail) {
    if (detail === 1) hoverAt(el, pt);
    const down = el.dispatchEvent(pointer('pointerdown', pt, 1));
    let focusOk = true;
    if (down) focusOk = el.dispatchEvent(mouse('mousedown', pt, detail, 1));
    if (focusOk) focusOnPress(el);
    el.dispatchEvent(pointer('pointerup', pt, 0));
    if (down) el.dispatchEvent(mouse('mouseup', pt, detail, 0));
    /** @type {HTMLElement} */ (el).click();
  }

  /** What a real mouse press does to focus: the nearest focusable element at
   * or above el gets it, or the active element loses it.
   * @param {Element} el */
  function focusOnPress(el) {
    for (let n = /** @type {Node|null} */ (el); n; n = flatParent(n)) {
      if (n.nodeType !== 1) continue;
      const e = /** @type {HTMLElement} */ (n);
      if (focusable(e)) {
        focusAsPerson(e, { preventScroll: true });
        return;
      }
    }
    const a = /** @type {HTMLElement|null} */ (document.activeElement);
    if (a && a !== document.body && typeof a.blur === 'function') blurAsPerson(a);
  }

  /** @param {Element} e */
  function focusable(e) {
    const h = /** @type {HTMLElement} */ (e);
    if (FORM_TAGS.has(e.localName) && e.matches(':disabled')) return false;
    if (hasAttr(e, 'tabindex')) return true;
    switch (e.localName) {
      case 'button': case 'select': case 'textarea': case 'iframe': case 'summary':
        return true;
      case 'input':
        return inputType(e) !== 'hidden';
      case 'a': case 'area':
        return hasAttr(e, 'href');
    }
    return !!h.isContentEditable && isEditingHost(e);
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ hoverAt, clickAt, focusable }));
})();
