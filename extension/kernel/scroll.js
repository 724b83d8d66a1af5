// @ts-check
// Scrolling: an element into view, or the page by most of a screen.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { idOf, done } = K;

  /** Scrolls the page by fractions of the viewport.
   * @param {number} fy @param {number} fx */
  function scrollPage(fy, fx) {
    window.scrollBy({ left: fx * window.innerWidth, top: fy * window.innerHeight, behavior: 'instant' });
  }

  /** @param {Element|null} el @param {{text?: string, value?: string}} r */
  function doScroll(el, r) {
    if (el) {
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      const id = idOf(el);
      return typeof id === 'number' ? done(el, id, { ok: true }) : { ok: true };
    }
    const dir = String(r.text || r.value || 'down').toLowerCase();
    if (dir === 'up') scrollPage(-0.8, 0);
    else if (dir === 'left') scrollPage(0, -0.8);
    else if (dir === 'right') scrollPage(0, 0.8);
    else scrollPage(0.8, 0);
    return { ok: true, detail: 'scrolled to ' + Math.round(window.scrollX) + ', ' + Math.round(window.scrollY) };
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ scrollPage, doScroll }));
})();
