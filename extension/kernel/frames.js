// @ts-check
// Frames seen from their parent document: which child frame an iframe
// element holds (to follow a CSS chain into a frame), and where a child
// frame's viewport sits in this one (to turn a point in a frame into a point
// in the top frame for trusted input). Chrome gives content scripts no
// frameId for an element, so a child frame is named by its index in
// window.frames: the worker asks each child frame for its own index in its
// parent (extension/actions.js) and matches the two. Nothing here is
// visible to the page.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, quote } = K;

  /** The frame element whose window is window.frames[index], or null.
   * (window.frames counts the frames of the document tree, not those inside
   * shadow roots, and so does this.)
   * @param {number} index @returns {Element|null} */
  function frameElementAt(index) {
    const w = index >= 0 && index < window.length ? window[index] : null;
    if (!w) return null;
    for (const f of Array.from(document.querySelectorAll('iframe,frame'))) {
      if (/** @type {HTMLIFrameElement} */ (f).contentWindow === w) return f;
    }
    return null;
  }

  /** The content-box offset of the frame element at r.index of
   * window.frames, in this document's viewport.
   * @param {{index?: number}} r */
  function frameOffset(r) {
    if (typeof r.index !== 'number') return fail('bad_request', 'document', 'frameOffset needs a numeric index');
    const f = frameElementAt(r.index);
    if (!f) {
      return fail('document_changed', 'document', 'no frame element at index ' + r.index + ' in this document',
        'the frame may have been removed; take a new snapshot');
    }
    const rect = f.getBoundingClientRect();
    const cs = getComputedStyle(f);
    return {
      x: rect.left + f.clientLeft + (parseFloat(cs.paddingLeft) || 0),
      y: rect.top + f.clientTop + (parseFloat(cs.paddingTop) || 0),
    };
  }

  /** The index in window.frames of the iframe r.selector selects.
   * @param {{selector?: string}} r */
  function frameIndexOf(r) {
    if (typeof r.selector !== 'string' || !r.selector.trim()) return fail('bad_request', 'node', 'frameIndex needs a selector');
    let el;
    try { el = document.querySelector(r.selector); } catch (_) {
      return fail('invalid_locator', 'node', 'invalid selector ' + quote(r.selector));
    }
    if (!el) return fail('not_actionable', 'node', 'no element matches ' + quote(r.selector));
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

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ frameOffset, frameIndexOf }));
})();
