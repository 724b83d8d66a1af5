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

  // What a walk read that a change of text alone can change (reread.js,
  // docs/settling.md "A change of text alone"): the nodes whose text (the
  // text of their subtree, flat tree included, or of their children) it
  // read, and the facts of layout it judged by, each a function of one
  // element with the result it gave. A walk gathers them per line, and for
  // its own choices apart, so that a change to a text re-reads only the
  // lines that read it. null outside a walk.
  /** @type {Reads|null} */
  let reads = null;
  let factDepth = 0;

  /** Makes r the record that reads go to (null: none); returns the one
   * they went to. @param {Reads|null} r @returns {Reads|null} */
  function readsInto(r) {
    const outer = reads;
    reads = r;
    return outer;
  }

  /** Notes that what is being computed read the text under n (its
   * subtree's text, or its child nodes: text nodes among them).
   * @param {Node} n */
  function noteText(n) {
    if (reads) reads.text.push(n);
  }

  /** n's textContent, noted as read. @param {Node} n */
  function textIn(n) {
    if (reads) reads.text.push(n);
    return n.textContent || '';
  }

  /** f, whose result follows layout (a box's size or place), noted as a
   * fact while a walk records: a re-read after a change of text calls f
   * again and compares. Layout read outside such a function is a hole a
   * kerneltest looks for (TestTextReadsAreNotedInAWalk).
   * @template {(el: any) => any} F @param {F} f @returns {F} */
  function fact(f) {
    return /** @type {F} */ ((el) => {
      factDepth++;
      let v;
      try { v = f(el); } finally { factDepth--; }
      if (reads) reads.facts.push(f, el, v);
      return v;
    });
  }

  /** The record reads go to now, and whether a fact is being judged (for
   * tests). */
  function readsNow() {
    return { reads, inFact: factDepth > 0 };
  }

  // The extension APIs of the isolated world. Tests evaluate the kernel in
  // a page's main world, where there are none: whatever needs them says so.
  /** @type {any} */
  const G = globalThis;
  /** @type {any} */
  const chromeApi = typeof G.chrome === 'object' && G.chrome ? G.chrome : null;
  const domApi = chromeApi && chromeApi.dom && typeof chromeApi.dom.openOrClosedShadowRoot === 'function' ? chromeApi.dom : null;

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    fail, fold, cut, quote, attr, hasAttr, attrMemo, domApi, readsInto, noteText, textIn, fact, readsNow,
  }));
})();
