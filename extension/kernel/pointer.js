// @ts-check
// The mouse, synthetically: hover (over/enter/move), click (the pointer and
// mouse sequence, then the click itself) and what a real press does to focus.
// An HTML element gets click(), which runs its activation behaviour; an SVG
// or MathML element has no click(), so it gets the click event a person's
// press dispatches, at the point, on the deepest part of it under the point
// (docs/drawings.md, "Drawings and canvases").
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { hasAttr, flatParent, containsFlat, inputType, isEditingHost, FORM_TAGS, mouse, pointer, focusAsPerson, blurAsPerson } = K;

  /** @param {Element} el @param {{x: number, y: number}} pt */
  function hoverAt(el, pt) {
    el.dispatchEvent(pointer('pointerover', pt, 0));
    el.dispatchEvent(pointer('pointerenter', pt, 0));
    el.dispatchEvent(mouse('mouseover', pt, 0, 0));
    el.dispatchEvent(mouse('mouseenter', pt, 0, 0));
    el.dispatchEvent(pointer('pointermove', pt, 0));
    el.dispatchEvent(mouse('mousemove', pt, 0, 0));
  }

  /** The press and release at pt, then the click. at says the point was
   * the agent's (a point action): the click event carries it, as a
   * person's does, instead of click()'s zero coordinates.
   * @param {Element} el @param {{x: number, y: number}} pt @param {number} detail @param {boolean} [at] */
  function clickAt(el, pt, detail, at) {
    const t = drawnTarget(el, pt);
    if (detail === 1) hoverAt(t, pt);
    const down = t.dispatchEvent(pointer('pointerdown', pt, 1));
    let focusOk = true;
    if (down) focusOk = t.dispatchEvent(mouse('mousedown', pt, detail, 1));
    if (focusOk) focusOnPress(t);
    t.dispatchEvent(pointer('pointerup', pt, 0));
    if (down) t.dispatchEvent(mouse('mouseup', pt, detail, 0));
    activate(t, pt, detail, at === true);
  }

  /** A press and release of the secondary button at pt, as a person's
   * right-click: the context menu event comes after the press (as on
   * Linux and macOS), then auxclick after the release; no click. A page
   * that draws its own menu opens it on contextmenu; the browser's own
   * menu never opens for an event a script sent.
   * @param {Element} el @param {{x: number, y: number}} pt */
  function contextClickAt(el, pt) {
    const t = drawnTarget(el, pt);
    hoverAt(t, pt);
    const down = t.dispatchEvent(pointer('pointerdown', pt, 2, 2));
    let focusOk = true;
    if (down) focusOk = t.dispatchEvent(mouse('mousedown', pt, 1, 2, 2));
    if (focusOk) focusOnPress(t);
    t.dispatchEvent(mouse('contextmenu', pt, 0, 2, 2));
    t.dispatchEvent(pointer('pointerup', pt, 0, 2));
    if (down) t.dispatchEvent(mouse('mouseup', pt, 1, 0, 2));
    t.dispatchEvent(mouse('auxclick', pt, 1, 0, 2));
  }

  /** Where a press on el lands: el itself when it is an HTML element (the
   * events go to the element acted on, as they always have); for an SVG or
   * MathML element, the deepest part of it under pt (a group's rect or
   * text), which is what a person's press hits and what a drawing's
   * handlers test.
   * @param {Element} el @param {{x: number, y: number}} pt @returns {Element} */
  function drawnTarget(el, pt) {
    if (typeof (/** @type {any} */ (el)).click === 'function') return el;
    const hit = K.hitAt(pt.x, pt.y);
    return hit && containsFlat(el, hit) ? hit : el;
  }

  /** The click itself: click() where the element has it (its activation
   * behaviour: a link followed, a box checked), else the event.
   * @param {Element} el @param {{x: number, y: number}} pt @param {number} detail @param {boolean} at */
  function activate(el, pt, detail, at) {
    const h = /** @type {any} */ (el);
    if (!at && typeof h.click === 'function') { h.click(); return; }
    el.dispatchEvent(mouse('click', pt, detail, 0));
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

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ hoverAt, clickAt, contextClickAt, activate, drawnTarget, focusable }));
})();
