// @ts-check
// Editors that take input through an EditContext (Monaco's default in
// Chrome): the element that has the focus is a box of no width at the
// caret, and the editor draws its lines itself, beside it, hidden from
// assistive technology (the focused element speaks for them). Here: which
// element takes input that way, the text such an editor draws (its lines in
// the order they show, without a gutter of line numbers), and text given to
// an EditContext the way the browser gives it a key's text. See
// docs/acting.md, *Rich-text and code editors*.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { containsFlat } = K;

  const ZERO_WIDTH = /[\u200b\u2060\ufeff]/g;
  const DIGITS = /^\s*\d+\s*$/;
  // At most this many text nodes are read from a surface: editors draw only
  // the lines in view, so this is far more than any draws.
  const DRAWN_MAX = 5000;

  /** The EditContext el takes input through, or null.
   * @param {Element} el @returns {EditContext|null} */
  function editContextOf(el) {
    return /** @type {any} */ (el).editContext || null;
  }

  /** The lines an editor draws in surface, in the order they show (top to
   * bottom, then left to right): each block's text, without skip's subtree
   * (the focused element, which draws nothing) and without the gutter's
   * line numbers.
   * @param {Element} surface @param {Element|null} skip
   * @returns {{text: string, last: Text, box: DOMRect}[]} */
  function drawnLines(surface, skip) {
    /** @type {Map<Element, {text: string, last: Text, box: DOMRect}>} */
    const blocks = new Map();
    /** @type {Map<Element, boolean>} */
    const inline = new Map();
    const isInline = (/** @type {Element} */ e) => {
      let v = inline.get(e);
      if (v === undefined) { v = getComputedStyle(e).display.startsWith('inline'); inline.set(e, v); }
      return v;
    };
    const walker = document.createTreeWalker(surface, NodeFilter.SHOW_TEXT);
    let n = 0;
    for (let t = walker.nextNode(); t && n < DRAWN_MAX; t = walker.nextNode(), n++) {
      const text = /** @type {Text} */ (t);
      if (!text.data.replace(ZERO_WIDTH, '').trim()) continue;
      const p = text.parentElement;
      if (!p || (skip && skip !== surface && containsFlat(skip, p))) continue;
      if (p.getClientRects().length === 0 || getComputedStyle(p).visibility !== 'visible') continue;
      let b = p;
      while (b !== surface && b.parentElement && isInline(b)) b = b.parentElement;
      const got = blocks.get(b);
      if (got) { got.text += text.data; got.last = text; } else blocks.set(b, { text: text.data, last: text, box: b.getBoundingClientRect() });
    }
    // A line number is a block of digits much narrower than the surface;
    // the editor's lines span it (a line of digits too).
    const narrow = surface.getBoundingClientRect().width / 4;
    return Array.from(blocks.values()).filter((l) => !(DIGITS.test(l.text) && l.box.width < narrow))
      .sort((a, b) => (a.box.top - b.box.top) || (a.box.left - b.box.left));
  }

  /** The text an editor draws in surface, a line each.
   * @param {Element} surface @param {Element|null} skip */
  function drawnText(surface, skip) {
    return drawnLines(surface, skip).map((l) => l.text).join('\n');
  }

  /** The last text node of the last line an editor draws in surface.
   * @param {Element} surface @param {Element|null} skip @returns {Text|null} */
  function lastDrawn(surface, skip) {
    const lines = drawnLines(surface, skip);
    return lines.length ? lines[lines.length - 1].last : null;
  }

  /** Gives the EditContext of el text in place of its selection as the
   * browser gives it a key's text: its text and selection change, then it
   * fires textupdate, which the editor applies to its model. With del, a
   * collapsed selection first takes in the character before the caret
   * (backward) or after it (forward), as Backspace and Delete do. False
   * when el has no EditContext.
   * @param {Element} el @param {string} text @param {'backward'|'forward'} [del] */
  function editContextInput(el, text, del) {
    const ec = editContextOf(el);
    if (!ec) return false;
    let start = Math.min(ec.selectionStart, ec.selectionEnd);
    let end = Math.max(ec.selectionStart, ec.selectionEnd);
    if (del === 'backward' && start === end && start > 0) start--;
    if (del === 'forward' && start === end && end < ec.text.length) end++;
    const at = start + text.length;
    ec.updateText(start, end, text);
    ec.updateSelection(at, at);
    ec.dispatchEvent(new TextUpdateEvent('textupdate', {
      text, updateRangeStart: start, updateRangeEnd: end, selectionStart: at, selectionEnd: at,
    }));
    return true;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    editContextOf, drawnText, lastDrawn, editContextInput,
  }));
})();
