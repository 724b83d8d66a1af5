// @ts-check
// What is drawn rather than built from controls (docs/drawings.md,
// "Drawings and canvases"). An interactive drawing, an <svg> (or an element
// declaring role=graphics-document) with parts that act on a press, is
// listed as one element, [graphics 'Flow 1'] or the role it declares, with
// its parts after it: a flow editor's nodes (groups named by their text),
// their ports (small rects with a crosshair cursor, named by their node and
// side), its wires. A part starts where a cursor that acts (pointer, move,
// crosshair, a resize arrow…) differs from its parent's, or where the page
// put a handler attribute, draggable or a tabindex; the listeners a page
// adds from script are not visible from the extension's world, its cursors
// are. A <canvas> is listed with the size of its box, so that an agent can
// act at a point of it (click --at).
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, hasAttr, fact, flatParent, declaredRole, CONTROL_ROLES, cursorOf, nameOf, titleChild, fold, cut } = K;

  const SVG_NS = 'http://www.w3.org/2000/svg';
  // Cursors that say a part of a drawing acts on a press or a drag.
  const DRAWN_CURSORS = new Set(['pointer', 'grab', 'grabbing', 'move', 'crosshair', 'cell', 'copy', 'alias',
    'all-scroll', 'col-resize', 'row-resize', 'ew-resize', 'ns-resize', 'nesw-resize', 'nwse-resize',
    'n-resize', 'e-resize', 's-resize', 'w-resize', 'ne-resize', 'nw-resize', 'se-resize', 'sw-resize']);
  // SVG elements that are never parts: definitions, metadata and what
  // other elements reference.
  const NOT_PARTS = new Set(['defs', 'title', 'desc', 'metadata', 'style', 'script', 'clipPath', 'mask',
    'marker', 'pattern', 'linearGradient', 'radialGradient', 'filter', 'symbol', 'stop']);
  // Handler attributes that make an element a part.
  const HANDLERS = ['onclick', 'ondblclick', 'onmousedown', 'onpointerdown'];
  // How many elements of a drawing describe() looks at for a part.
  const PART_SCAN = 3000;
  // A part at most this many pixels across is a port of the part it is in.
  const PORT_PX = 24;
  // A canvas smaller than this across is decoration, not an app.
  const CANVAS_MIN_PX = 16;

  /** Whether el is the top of a drawing: an outermost <svg>, or an element
   * declaring role=graphics-document.
   * @param {Element} el */
  function isDrawingRoot(el) {
    if (declaredRole(el) === 'graphics-document') return true;
    if (el.localName !== 'svg' || el.namespaceURI !== SVG_NS) return false;
    const p = flatParent(el);
    return !p || p.nodeType !== 1 || /** @type {Element} */ (p).namespaceURI !== SVG_NS;
  }

  /** The role a drawing is listed with: the one it declares, else graphics.
   * @param {Element} el */
  function drawingRole(el) {
    return declaredRole(el) || 'graphics';
  }

  /** A drawing's name: its label, else its <title>.
   * @param {Element} el @param {string} role */
  function drawingName(el, role) {
    return nameOf(el, role) || cut(fold(titleChild(el) || ''), 300);
  }

  /** Whether el, inside a drawing, is a part of it: it acts on a press by
   * its cursor (one that starts here) or by what the page put on it.
   * @param {Element} el @param {string} cursor @param {string} parentCursor */
  function drawnStart(el, cursor, parentCursor) {
    if (NOT_PARTS.has(el.localName) || isDrawingRoot(el)) return false;
    for (const h of HANDLERS) if (hasAttr(el, h)) return true;
    if (attr(el, 'draggable') === 'true') return true;
    const ti = attr(el, 'tabindex');
    if (ti !== null && ti.trim() !== '' && Number(ti) >= 0) return true;
    return DRAWN_CURSORS.has(cursor) && cursor !== parentCursor;
  }

  /** The drawing el is drawn in (the SVG content of it, not HTML inside a
   * foreignObject, which is read as any page), or null.
   * @param {Element} el @returns {Element|null} */
  function drawingOf(el) {
    if (el.namespaceURI !== SVG_NS) return null;
    for (let n = flatParent(el); n && n.nodeType === 1; n = flatParent(n)) {
      const e = /** @type {Element} */ (n);
      if (e.namespaceURI !== SVG_NS) return declaredRole(e) === 'graphics-document' ? e : null;
      if (isDrawingRoot(e)) return e;
    }
    return null;
  }

  /** drawnStart for an element met outside a walk (an action's meaning
   * check): the parent's cursor is read here.
   * @param {Element} el */
  function isDrawnPart(el) {
    if (!drawingOf(el)) return false;
    const p = flatParent(el);
    return drawnStart(el, cursorOf(el), p && p.nodeType === 1 ? cursorOf(/** @type {Element} */ (p)) : '');
  }

  /** Whether a drawing has a part, looking at its first PART_SCAN elements
   * (describe(): the walk finds them as it goes).
   * @param {Element} root */
  function hasParts(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    const cursors = new Map([[root, cursorOf(root)]]);
    for (let n = walker.nextNode(), i = 0; n && i < PART_SCAN; n = walker.nextNode(), i++) {
      const e = /** @type {Element} */ (n);
      const c = cursorOf(e);
      cursors.set(e, c);
      const p = e.parentElement;
      if (e.namespaceURI !== SVG_NS) {
        if (CONTROL_ROLES.has(K.roleOf(e)) || K.isClickable(e)) return true;
        continue;
      }
      if (drawnStart(e, c, p ? cursors.get(p) ?? cursorOf(p) : '')) return true;
    }
    return false;
  }

  /** The name of a part that has none of its own: the part it is drawn in,
   * and where on it (a port: 'Start: right port'); '' when it is in none.
   * @param {Element} el */
  function partNameNow(el) {
    for (let n = flatParent(el); n && n.nodeType === 1; n = flatParent(n)) {
      const o = /** @type {Element} */ (n);
      if (isDrawingRoot(o) || o.namespaceURI !== SVG_NS) return '';
      if (!isDrawnPart(o)) continue;
      const name = K.clickableName(o);
      if (!name) continue;
      const a = el.getBoundingClientRect(), b = o.getBoundingClientRect();
      const fx = b.width > 0 ? ((a.left + a.right) / 2 - b.left) / b.width : 0.5;
      const fy = b.height > 0 ? ((a.top + a.bottom) / 2 - b.top) / b.height : 0.5;
      const side = fx <= 0.2 ? 'left' : fx >= 0.8 ? 'right' : fy <= 0.2 ? 'top' : fy >= 0.8 ? 'bottom' : 'middle';
      const small = a.width <= PORT_PX && a.height <= PORT_PX;
      return cut(name, 80) + ': ' + side + (small ? ' port' : ' part');
    }
    return '';
  }

  /** The state that says the size of a drawing's or canvas's box, in CSS
   * pixels, the range of the points an action at a point takes.
   * @param {Element} el */
  function boxStateNow(el) {
    const b = el.getBoundingClientRect();
    return 'box=' + Math.round(b.width) + 'x' + Math.round(b.height);
  }

  /** Whether a canvas is large enough to be an app's surface.
   * @param {Element} el */
  function canvasShownNow(el) {
    const b = el.getBoundingClientRect();
    return b.width >= CANVAS_MIN_PX && b.height >= CANVAS_MIN_PX;
  }

  // Facts of layout, noted while a walk records (base.js fact).
  const partName = fact(partNameNow);
  const boxState = fact(boxStateNow);
  const canvasShown = fact(canvasShownNow);

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    isDrawingRoot, drawingRole, drawingName, drawnStart, drawingOf, isDrawnPart, hasParts, partName, boxState, canvasShown,
  }));
})();
