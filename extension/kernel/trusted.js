// @ts-check
// What the worker asks the kernel around an action, beyond acting: a mark
// that lets the debugger find this very document's isolated world, and the
// checks just before trusted input (is the browser's hit at the action
// point this element; is the focus on it).
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { containsFlat, shadowOf, brief, labelOf, occluder } = K;

  /** Sets the mark the worker looks for through the debugger.
   * @param {{mark?: string}} r */
  function setMark(r) {
    K.mark = typeof r.mark === 'string' ? r.mark : '';
    return { ok: true };
  }

  /** '' when hit (the browser's hit at the action point) is el, inside it,
   * or in a label of it; else what covers el.
   * @param {Element} el @param {Element} hit */
  function hitReason(el, hit) {
    if (containsFlat(el, hit) || labelOf(el, hit)) return '';
    return 'occluded by ' + brief(occluder(hit));
  }

  /** '' when el has the focus of its own document (through shadow roots),
   * else where the focus is. For an iframe element: whether its frame has
   * its parent's focus.
   * @param {Element} el */
  function focusReason(el) {
    const doc = el.ownerDocument;
    let a = doc.activeElement;
    for (let i = 0; a && a !== el && i < 32; i++) {
      const sr = shadowOf(a);
      if (!sr || !sr.activeElement) break;
      a = sr.activeElement;
    }
    if (a === el) return '';
    return 'focus is on ' + (a && a !== doc.body && a !== doc.documentElement ? brief(a) : 'the page, not the element');
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ mark: '', setMark, hitReason, focusReason }));
})();
