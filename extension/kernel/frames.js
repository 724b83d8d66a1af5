// @ts-check
// Frames seen from their parent document: which frameId an iframe element
// holds (to follow a CSS chain into a frame), and where a child frame's
// viewport sits in this one (to turn a point in a frame into a point in the
// top frame for trusted input). Both need chrome.runtime.getFrameId, so
// they answer only in the extension's isolated world.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, quote, runtimeApi, shadowOf } = K;

  /** Every iframe/frame in the document, light DOM first then open shadow roots. */
  function allFrames() {
    const doc = document;
    /** @type {Element[]} */
    const list = Array.from(doc.querySelectorAll('iframe,frame'));
    const tw = doc.createTreeWalker(doc.documentElement, NodeFilter.SHOW_ELEMENT);
    /** @type {(ShadowRoot)[]} */
    const roots = [];
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      const sr = shadowOf(/** @type {Element} */ (n));
      if (sr) roots.push(sr);
    }
    while (roots.length) {
      const sr = /** @type {ShadowRoot} */ (roots.shift());
      list.push(...Array.from(sr.querySelectorAll('iframe,frame')));
      const w = doc.createTreeWalker(sr, NodeFilter.SHOW_ELEMENT);
      for (let n = w.nextNode(); n; n = w.nextNode()) {
        const inner = shadowOf(/** @type {Element} */ (n));
        if (inner) roots.push(inner);
      }
    }
    return list;
  }

  /** The content-box offset of the frame element holding r.frameId.
   * @param {{frameId?: number}} r */
  function frameOffset(r) {
    if (!runtimeApi) return fail('internal', 'document', 'chrome.runtime.getFrameId is not available in this world');
    if (typeof r.frameId !== 'number') return fail('bad_request', 'document', 'frameOffset needs a numeric frameId');
    for (const f of allFrames()) {
      let fid = -1;
      try { fid = runtimeApi.getFrameId(f); } catch (_) { fid = -1; }
      if (fid !== r.frameId) continue;
      const rect = f.getBoundingClientRect();
      const cs = getComputedStyle(f);
      return {
        x: rect.left + f.clientLeft + (parseFloat(cs.paddingLeft) || 0),
        y: rect.top + f.clientTop + (parseFloat(cs.paddingTop) || 0),
      };
    }
    return fail('document_changed', 'document', 'no frame element with frameId ' + r.frameId + ' in this document',
      'the frame may have been removed; take a new snapshot');
  }

  /** The frameId of the iframe r.selector selects.
   * @param {{selector?: string}} r */
  function frameIdOf(r) {
    if (typeof r.selector !== 'string' || !r.selector.trim()) return fail('bad_request', 'node', 'frameId needs a selector');
    let el;
    try { el = document.querySelector(r.selector); } catch (_) {
      return fail('invalid_locator', 'node', 'invalid selector ' + quote(r.selector));
    }
    if (!el) return fail('not_actionable', 'node', 'no element matches ' + quote(r.selector));
    if (el.localName !== 'iframe' && el.localName !== 'frame') {
      return fail('invalid_locator', 'node', quote(r.selector) + ' matches a <' + el.localName + '>, not an iframe',
        'every segment of a chain but the last must select an iframe');
    }
    if (!runtimeApi) return fail('internal', 'document', 'chrome.runtime.getFrameId is not available in this world');
    const fid = runtimeApi.getFrameId(el);
    if (typeof fid !== 'number' || fid < 0) return fail('not_actionable', 'node', 'the iframe ' + quote(r.selector) + ' has no document yet');
    return { frameId: fid };
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ frameOffset, frameIdOf }));
})();
