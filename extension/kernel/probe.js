// @ts-check
// The probe behind `grip wait`: is this text on the page (open shadow roots
// included), is the element with this id still in it. The host polls it.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fold, shadowOf, textOf, elementOf } = K;

  /** @param {{text?: string, id?: number}} r */
  function probe(r) {
    let textFound = false;
    if (typeof r.text === 'string' && r.text) {
      const want = fold(r.text);
      const body = document.body || document.documentElement;
      textFound = !!body && fold(body.textContent || '').indexOf(want) >= 0;
      if (!textFound && body) {
        // Open shadow roots are not in textContent.
        const tw = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT);
        for (let n = tw.nextNode(); n && !textFound; n = tw.nextNode()) {
          const sr = shadowOf(/** @type {Element} */ (n));
          if (sr && textOf(sr, {}).indexOf(want) >= 0) textFound = true;
        }
      }
    }
    let present = false;
    if (typeof r.id === 'number') {
      const el = elementOf(r.id);
      present = !!el && el.isConnected;
    }
    return { textFound, present };
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ probe }));
})();
