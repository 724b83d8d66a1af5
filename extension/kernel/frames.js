// @ts-check
// Frames seen from their parent document: which child frame an iframe
// element holds (to follow a CSS chain into a frame). (Where a frame's
// viewport sits in the top one, for trusted input, is the browser's own
// geometry: extension/worker/cdp-frames.js.) Chrome gives content scripts no
// frameId for an element, so a child frame is named by its index in
// window.frames: the worker asks each child frame for its own index in its
// parent (extension/worker/actions.js) and matches the two. Nothing here is
// visible to the page.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, quote } = K;

  /** The index in window.frames of the iframe r.selector selects.
   * @param {{selector?: string}} r */
  function frameIndexOf(r) {
    if (typeof r.selector !== 'string' || !r.selector.trim()) return fail('bad_request', 'node', 'frameIndex needs a selector');
    let el;
    try { el = document.querySelector(r.selector); } catch (_) {
      return fail('invalid_locator', 'node', 'invalid selector ' + quote(r.selector));
    }
    if (!el) {
      return fail('not_found', 'node', 'no iframe matches CSS ' + quote(r.selector),
        'check the selector: each segment of a chain but the last selects an iframe');
    }
    if (el.localName !== 'iframe' && el.localName !== 'frame') {
      return fail('invalid_locator', 'node', quote(r.selector) + ' matches a <' + el.localName + '>, not an iframe',
        'every segment of a chain but the last must select an iframe');
    }
    const w = /** @type {HTMLIFrameElement} */ (el).contentWindow;
    for (let i = 0; w && i < window.length; i++) {
      if (window[i] === w) return { index: i };
    }
    return fail('not_actionable', 'node', 'the iframe ' + quote(r.selector) + ' has no document yet');
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ frameIndexOf }));
})();
