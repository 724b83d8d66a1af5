// @ts-check
// The checks behind `grip wait`: is this text on the page (open shadow
// roots included), is the element with this id still in it — and watch, which
// answers once such a condition holds, re-checking after each batch of DOM
// changes (a MutationObserver), so nothing runs while nothing changes.
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

  /** Open shadow roots under root, to watch them too (a MutationObserver
   * on the document does not see inside them).
   * @param {Node} root @returns {ShadowRoot[]} */
  function openShadowRoots(root) {
    /** @type {ShadowRoot[]} */
    const out = [];
    const tw = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      const sr = shadowOf(/** @type {Element} */ (n));
      if (sr) out.push(sr, ...openShadowRoots(sr));
    }
    return out;
  }

  /** Answers {met: true} once the condition holds — r.text on the page
   * (r.gone: not on it), or the element r.id gone — or {met: false} after
   * r.ms (at most a minute).
   * @param {{text?: string, gone?: boolean, id?: number, ms?: number}} r
   * @returns {Promise<{met: boolean}>} */
  function watch(r) {
    const byId = typeof r.id === 'number';
    const holds = () => {
      const p = probe(r);
      return byId ? !p.present : (r.gone === true ? !p.textFound : p.textFound);
    };
    if (holds()) return Promise.resolve({ met: true });
    return new Promise((resolve) => {
      /** @type {Set<Node>} */
      const watched = new Set();
      let pending = false;
      // New shadow roots are looked for at most once a second: a walk of
      // the whole tree costs more than the check itself on a large page.
      let rootsScanned = 0;
      /** @type {ReturnType<typeof setTimeout>} */
      let timer;
      /** @param {boolean} met */
      const finish = (met) => {
        obs.disconnect();
        clearTimeout(timer);
        resolve({ met });
      };
      /** @param {Node} root */
      const observe = (root) => {
        if (watched.has(root)) return;
        watched.add(root);
        obs.observe(root, { subtree: true, childList: true, characterData: true });
      };
      // One check per batch of changes, after the page's own script ran.
      const obs = new MutationObserver(() => {
        if (pending) return;
        pending = true;
        setTimeout(() => {
          pending = false;
          if (holds()) finish(true);
          else if (!byId && Date.now() - rootsScanned > 1000) {
            rootsScanned = Date.now();
            for (const sr of openShadowRoots(document)) observe(sr);
          }
        }, 0);
      });
      observe(document);
      if (!byId) {
        rootsScanned = Date.now();
        for (const sr of openShadowRoots(document)) observe(sr);
      }
      timer = setTimeout(() => finish(holds()), Math.max(0, Math.min(Number(r.ms) || 0, 60000)));
    });
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ probe, watch }));
})();
