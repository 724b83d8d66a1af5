// @ts-check
// Rich-text and code editors, as they show themselves: a contenteditable
// region (CKEditor 5, ProseMirror/Tiptap, CodeMirror 6, the <body> of
// TinyMCE's iframe), a textarea kept out of sight behind the lines the
// editor draws (CodeMirror 5 as in Jupyter, Ace), or an element of no width
// that takes input through an EditContext (Monaco, editcontext.js). Here: which
// visible surface a hidden input stands for, the text an editor shows,
// which elements are the editor's own parts (they never occlude it), and
// where a person clicks to type at the end. Reads only; text entry is
// richtext.js and editing.js.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fold, attr, fact, noteText, flatParent, containsFlat, isHiddenAttr, hiddenReason, textOf, editContextOf, drawnText, lastDrawn } = K;

  // Characters editors put in empty lines and around inline widgets so the
  // caret has somewhere to go (CodeMirror 5's U+200B line, CKEditor 5's
  // U+2060 filler): not text anyone wrote.
  const ZERO_WIDTH = /[\u200b\u2060\ufeff]/g;
  const ZERO_WIDTH_AT_END = /[\u200b\u2060\ufeff]+$/;
  // An input whose visible part is at most this many pixels across stands
  // for something else on screen.
  const HIDDEN_PX = 4;
  // How far above a hidden input its editor's surface may be, and how big
  // a surface must be to type into.
  const SURFACE_DEPTH = 3;
  const SURFACE_MIN_W = 24, SURFACE_MIN_H = 12;
  // How much larger than the editable region the box of an editor's parts
  // (gutters, tooltips, status lines) may be.
  const OWN_BOX_SLACK = 160;

  /** s without zero-width characters, folded.
   * @param {string} s */
  function visibleText(s) {
    return fold(s.replace(ZERO_WIDTH, ''));
  }

  /** The part of el's box that is not clipped away by ancestors that hide
   * their overflow (the nearest few), as width and height.
   * @param {Element} el */
  function clippedSize(el) {
    const r = el.getBoundingClientRect();
    let left = r.left, right = r.right, top = r.top, bottom = r.bottom;
    let n = flatParent(el);
    for (let i = 0; n && n.nodeType === 1 && i < SURFACE_DEPTH; i++, n = flatParent(n)) {
      const e = /** @type {Element} */ (n);
      const cs = getComputedStyle(e);
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
        const p = e.getBoundingClientRect();
        left = Math.max(left, p.left); right = Math.min(right, p.right);
        top = Math.max(top, p.top); bottom = Math.min(bottom, p.bottom);
      }
    }
    return { w: Math.max(0, right - left), h: Math.max(0, bottom - top) };
  }

  /** The part of el's box on screen: inside the viewport and every
   * ancestor that clips its overflow (an editor's scroller); null when
   * less than a pixel square of it shows.
   * @param {Element} el @returns {{left: number, top: number, right: number, bottom: number}|null} */
  function viewRect(el) {
    const r = el.getBoundingClientRect();
    let left = Math.max(r.left, 0), right = Math.min(r.right, window.innerWidth);
    let top = Math.max(r.top, 0), bottom = Math.min(r.bottom, window.innerHeight);
    for (let n = flatParent(el); n && n.nodeType === 1; n = flatParent(n)) {
      const e = /** @type {Element} */ (n);
      if (e === document.documentElement || e === document.body) break;
      const cs = getComputedStyle(e);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const p = e.getBoundingClientRect();
      left = Math.max(left, p.left); right = Math.min(right, p.right);
      top = Math.max(top, p.top); bottom = Math.min(bottom, p.bottom);
    }
    return right - left >= 1 && bottom - top >= 1 ? { left, top, right, bottom } : null;
  }

  /** Whether el is kept out of sight: a box of a few pixels, clipped to
   * that, or transparent.
   * @param {Element} el */
  function outOfSight(el) {
    const size = clippedSize(el);
    return size.w <= HIDDEN_PX || size.h <= HIDDEN_PX || parseFloat(getComputedStyle(el).opacity) === 0;
  }

  /** For a textarea an editor keeps out of sight while it draws the text
   * itself, or an element taking input through an EditContext: the element
   * showing that text, the nearest ancestor big enough to type into that
   * holds no other form field (Monaco keeps a textarea for IMEs beside its
   * EditContext, hidden from everyone). An EditContext element big enough to type
   * into is its own surface. null for anything else.
   * @param {Element} el @returns {Element|null} */
  function surfaceOfNow(el) {
    const ec = editContextOf(el);
    if (el.localName !== 'textarea' && !ec) return null;
    if (!outOfSight(el)) return ec ? el : null;
    let n = flatParent(el);
    for (let i = 0; n && n.nodeType === 1 && i < SURFACE_DEPTH; i++, n = flatParent(n)) {
      const e = /** @type {Element} */ (n);
      if (e.localName === 'body' || e.localName === 'form' || e.localName === 'html') return null;
      const r = e.getBoundingClientRect();
      if (r.width >= SURFACE_MIN_W && r.height >= SURFACE_MIN_H) {
        const fields = e.querySelectorAll('input:not([type=hidden]),textarea,select,[contenteditable]');
        for (let j = 0; j < fields.length; j++) if (fields[j] !== el && !(ec && (hiddenReason(fields[j]) || outOfSight(fields[j])))) return null;
        return e;
      }
    }
    return null;
  }

  /** The text an editor shows, lines and blocks apart, without the
   * zero-width characters editors use as caret holders; '' when el is not
   * an editor.
   * @param {Element} el */
  function editorText(el) {
    const surface = surfaceOf(el);
    // An EditContext editor's lines are hidden from assistive technology,
    // and its focused element is labelled: what it draws is its text.
    if (surface && editContextOf(el)) return visibleText(drawnOf(el));
    // Not its hidden input: the label it carries is not the editor's text.
    if (surface) return visibleText(textOf(surface, { checkVis: true, skip: el }));
    if (/** @type {HTMLElement} */ (el).isContentEditable) return visibleText(textOf(el, { checkVis: false }));
    return '';
  }

  /** Whether hit is one of the editor's own parts: inside the surface of
   * its hidden input, or under an ancestor of the editable region whose
   * box is the editor's (its gutters, lines, cursor and tooltip layers),
   * not much bigger than the region itself.
   * @param {Element} el @param {Element} hit */
  function ownPart(el, hit) {
    const surface = surfaceOf(el);
    if (surface) return containsFlat(surface, hit);
    if (!(/** @type {HTMLElement} */ (el).isContentEditable)) return false;
    const r = el.getBoundingClientRect();
    let n = flatParent(el);
    for (let i = 0; n && n.nodeType === 1 && i < SURFACE_DEPTH; i++, n = flatParent(n)) {
      const e = /** @type {Element} */ (n);
      if (e.localName === 'body' || e.localName === 'html') return false;
      const b = e.getBoundingClientRect();
      if (b.width > r.width + OWN_BOX_SLACK || b.height > r.height + OWN_BOX_SLACK) return false;
      if (containsFlat(e, hit)) return true;
    }
    return false;
  }

  /** The last text node under root that shows something, skipping parts
   * hidden from everyone (line-number gutters) and zero-width holders.
   * @param {Element} root @returns {Text|null} */
  function lastText(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    /** @type {Text|null} */
    let found = null;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = /** @type {Text} */ (n);
      if (!t.data.replace(ZERO_WIDTH, '').trim()) continue;
      const p = t.parentElement;
      const hidden = p && p.closest('[aria-hidden="true"]');
      if (!p || (hidden && containsFlat(root, hidden)) || p.getClientRects().length === 0) continue;
      found = t;
    }
    return found;
  }

  /** Where a person clicks to type after the last character surface shows:
   * just right of it, inside the surface; the surface's centre when it
   * shows no text. el is the editor's input: an EditContext editor's last
   * character is the last it draws.
   * @param {Element} surface @param {Element} el @returns {Point} */
  function endPoint(surface, el) {
    const box = surface.getBoundingClientRect();
    const inside = (/** @type {number} */ x, /** @type {number} */ y) => ({
      x: Math.round(Math.min(Math.max(x, box.left + 1), box.right - 2) * 100) / 100,
      y: Math.round(Math.min(Math.max(y, box.top + 1), box.bottom - 2) * 100) / 100,
    });
    const t = editContextOf(el) ? lastDrawn(surface, el) : lastText(surface);
    if (t) {
      const range = document.createRange();
      range.setStart(t, Math.max(0, t.data.length - 1));
      range.setEnd(t, t.data.length);
      const rects = range.getClientRects();
      const last = rects.length ? rects[rects.length - 1] : null;
      if (last && last.height > 0) return inside(last.right + 2, (last.top + last.bottom) / 2);
    }
    return inside((box.left + box.right) / 2, (box.top + box.bottom) / 2);
  }

  /** The caret position at the end of an editable region: after the last
   * character of its last block, or inside that block when it is empty
   * (never after the blocks, where editors keep no text). Line breaks,
   * zero-width holders, parts hidden from everyone and non-editable
   * widgets at the end are stepped over.
   * @param {Element} el @returns {{node: Node, offset: number}} */
  function endOf(el) {
    /** @type {Node} */
    let e = el;
    for (let depth = 0; depth < 64; depth++) {
      let c = e.lastChild;
      while (c && passOver(c)) c = c.previousSibling;
      if (!c) break;
      if (c.nodeType === 3) {
        const t = /** @type {Text} */ (c);
        return { node: t, offset: t.data.replace(ZERO_WIDTH_AT_END, '').length };
      }
      e = c;
    }
    return { node: e, offset: 0 };
  }

  /** Whether the caret search at the end of a region steps over n.
   * @param {Node} n */
  function passOver(n) {
    if (n.nodeType === 3) return !/** @type {Text} */ (n).data.replace(ZERO_WIDTH, '').trim();
    if (n.nodeType !== 1) return true;
    const c = /** @type {Element} */ (n);
    return c.localName === 'br' || c.localName === 'img' || isHiddenAttr(c) || attr(c, 'contenteditable') === 'false' ||
      c.getClientRects().length === 0;
  }

  // Facts of layout, noted while a walk records (base.js fact).
  // What an EditContext editor draws is read by where its lines lie.
  const drawnOf = fact((el) => { const sf = surfaceOf(el); noteText(sf || el); return sf ? drawnText(sf, el) : ''; });
  const surfaceOf = fact(surfaceOfNow);

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    visibleText, viewRect, surfaceOf, editorText, ownPart, endPoint, endOf,
  }));
})();
