// @ts-check
// The in-page kernel, part 1 of the files listed in KERNEL_FILES
// (extension/worker/kernel-files.js): the worker injects them in order into a document's
// isolated world, where the page cannot see them. This one makes the object
// every later file adds its part to, globalThis.__gripKernel__, a new one
// each time: a re-injection replaces whatever an older build left. Here:
// failures, text helpers and attribute reads.
(() => {
  'use strict';

  /** @type {GripKernel} */
  const K = /** @type {any} */ ({ build: '' });
  globalThis.__gripKernel__ = K;

  /**
   * A refusal or failure as the kernel replies it.
   * @param {protocol.Code} code
   * @param {protocol.Boundary} boundary
   * @param {string} message
   * @param {string} [hint]
   * @returns {{error: GripError}}
   */
  function fail(code, boundary, message, hint) {
    return { error: { code, boundary, message, hint: hint || '' } };
  }

  /** @param {string} s */
  function fold(s) {
    return s.replace(/\s+/g, ' ').trim();
  }

  /** @param {string} s @param {number} n */
  function cut(s, n) {
    if (s.length <= n) return s;
    // Do not split a surrogate pair.
    const c = s.charCodeAt(n - 1);
    return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
  }

  /** @param {string} s */
  function quote(s) {
    return "'" + cut(s, 80).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
  }

  // During a snapshot walk nothing can change the DOM, so each element's
  // attribute names are read once and most getAttribute calls are skipped
  // (attrMemo turns this on for the walk only).
  /** @type {string[]} */
  const NONE = [];
  /** @type {Element|null} */
  let memoEl = null;
  /** @type {string[]} */
  let memoNames = NONE;
  let memoOn = false;

  /** getAttribute, or null when absent.
   * @param {Element} el @param {string} name @returns {string|null} */
  function attr(el, name) {
    if (!memoOn) return el.getAttribute(name);
    if (el !== memoEl) {
      memoEl = el;
      memoNames = el.hasAttributes() ? el.getAttributeNames() : NONE;
    }
    return memoNames.length !== 0 && memoNames.indexOf(name) >= 0 ? el.getAttribute(name) : null;
  }

  /** @param {Element} el @param {string} name */
  function hasAttr(el, name) {
    return attr(el, name) !== null;
  }

  /** Turns the attribute memo on (a walk starts) or off (it ended).
   * @param {boolean} on */
  function attrMemo(on) {
    memoOn = on;
    memoEl = null;
    memoNames = NONE;
  }

  // The extension APIs of the isolated world. Tests evaluate the kernel in
  // a page's main world, where there are none: whatever needs them says so.
  /** @type {any} */
  const G = globalThis;
  /** @type {any} */
  const chromeApi = typeof G.chrome === 'object' && G.chrome ? G.chrome : null;
  const domApi = chromeApi && chromeApi.dom && typeof chromeApi.dom.openOrClosedShadowRoot === 'function' ? chromeApi.dom : null;

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    fail, fold, cut, quote, attr, hasAttr, attrMemo, domApi,
  }));
})();
