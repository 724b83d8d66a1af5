// @ts-check
// Before and after an action. Actionability: the element is visible,
// enabled, not inert or aria-hidden, scrolled into view, and the element
// at its action point (elementFromPoint at its centre) is it or inside it,
// or one of its editor's own parts (editors.js);
// otherwise the refusal names the boundary and the reason, e.g.
// `occluded by [button 'Accept cookies']`. After: the signatures our action
// may have changed are read again.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, attr, idOf, elementOf, setSig, shadowOf, flatParent, containsFlat, hiddenReason, isVisible,
    CONTROL_ROLES, declaredRole, inputType, roleOf, labelsOf, surfaceOf, ownPart, viewRect, isDisabled, describe, brief } = K;

  /** Visibility, enabled state, scrolling and the hit test at the action point.
   * @param {Element} el @param {boolean} needEnabled
   * @returns {{point: {x: number, y: number}} | {error: GripError}} */
  function actionable(el, needEnabled) {
    const hid = hiddenReason(el);
    if (hid) return fail('not_actionable', 'actionability', hid);
    if (!isVisible(el)) return fail('not_actionable', 'actionability', 'element is not visible');
    if (needEnabled && isDisabled(el)) return fail('not_actionable', 'actionability', 'element is disabled');
    // An editor's hidden input is acted on where the editor shows its text.
    const box = surfaceOf(el) || el;
    const rects = box.getClientRects();
    if (!hasArea(rects)) return fail('not_actionable', 'actionability', 'element has no size');
    const vw = window.innerWidth, vh = window.innerHeight;
    // An editor taller than its scroller is acted on in the part the
    // scroller shows, without scrolling it if some of it is in view.
    const editor = box !== el || /** @type {HTMLElement} */ (el).isContentEditable;
    const shown = editor ? viewRect(box) : null;
    const b = box.getBoundingClientRect();
    let scrolled = false;
    if (!shown && (b.top < 0 || b.left < 0 || b.bottom > vh || b.right > vw)) {
      box.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      scrolled = true;
    }
    const pointOn = () => {
      const v = editor ? viewRect(box) : null;
      return v ? { x: round2((v.left + v.right) / 2), y: round2((v.top + v.bottom) / 2) } : pointIn(box.getClientRects(), vw, vh);
    };
    let point = pointOn();
    if (!point) return fail('not_actionable', 'actionability', 'element is outside the viewport and could not be scrolled into view');
    let hit = hitAt(point.x, point.y);
    if (!scrolled && (!hit || !hits(el, hit))) {
      // Inside the viewport but maybe clipped by a scrolling container (an
      // option below the fold of a dropdown's list): scroll every container
      // that holds it, then look again.
      box.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
      point = pointOn();
      if (!point) return fail('not_actionable', 'actionability', 'element is outside the viewport and could not be scrolled into view');
      hit = hitAt(point.x, point.y);
    }
    if (!hit) return fail('not_actionable', 'point', 'nothing is at the action point (' + point.x + ', ' + point.y + ')');
    if (!hits(el, hit)) {
      // Covered at its centre but maybe not everywhere (a transparent
      // select wider than its label, under the next one): a person clicks
      // the part they see.
      const other = uncovered(el, vw, vh);
      if (other) return { point: other };
      return fail('not_actionable', 'point', 'occluded by ' + brief(occluder(hit)),
        'close or dismiss the covering element first, or scroll');
    }
    return { point };
  }

  // Where else in an element's box a press may land, as fractions of it.
  const SPOTS = [[0.2, 0.5], [0.8, 0.5], [0.5, 0.2], [0.5, 0.8], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]];

  /** A point of el's first visible box, other than its centre, where the
   * hit test reaches el; null when it is covered at every one.
   * @param {Element} el @param {number} vw @param {number} vh
   * @returns {{x: number, y: number}|null} */
  function uncovered(el, vw, vh) {
    const rects = el.getClientRects();
    for (let i = 0; i < rects.length; i++) {
      const r = rects[i];
      const left = Math.max(r.left, 0), right = Math.min(r.right, vw);
      const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, vh);
      if (right - left < 1 || bottom - top < 1) continue;
      for (const [fx, fy] of SPOTS) {
        const p = { x: round2(left + (right - left) * fx), y: round2(top + (bottom - top) * fy) };
        const h = hitAt(p.x, p.y);
        if (h && hits(el, h)) return p;
      }
      return null;
    }
    return null;
  }

  /** Whether a hit at el's action point reaches el (it, inside it, or its label).
   * @param {Element} el @param {Element} hit */
  function hits(el, hit) {
    // An editor's own parts (its lines, gutters, cursor and tooltip
    // layers) never occlude it.
    return containsFlat(el, hit) || labelOf(el, hit) || ownPart(el, hit);
  }

  /** The centre of the first of rects with an area inside the viewport.
   * @param {DOMRectList} rects @param {number} vw @param {number} vh
   * @returns {{x: number, y: number}|null} */
  function pointIn(rects, vw, vh) {
    for (let i = 0; i < rects.length; i++) {
      const r = rects[i];
      const left = Math.max(r.left, 0), right = Math.min(r.right, vw);
      const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, vh);
      if (right - left >= 1 && bottom - top >= 1) {
        return { x: round2((left + right) / 2), y: round2((top + bottom) / 2) };
      }
    }
    return null;
  }

  /** @param {DOMRectList} rects */
  function hasArea(rects) {
    for (let i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) return true;
    return false;
  }

  /** @param {number} v */
  function round2(v) {
    return Math.round(v * 100) / 100;
  }

  /** The deepest element at the point, through shadow roots.
   * @param {number} x @param {number} y @returns {Element|null} */
  function hitAt(x, y) {
    let e = document.elementFromPoint(x, y);
    for (let i = 0; e && i < 32; i++) {
      const sr = shadowOf(e);
      if (!sr) break;
      const inner = sr.elementFromPoint(x, y);
      if (!inner || inner === e) break;
      e = inner;
    }
    return e;
  }

  /** Whether hit is inside a <label> of el (clicking it activates el).
   * @param {Element} el @param {Element} hit */
  function labelOf(el, hit) {
    const labels = labelsOf(el);
    for (let i = 0; i < labels.length; i++) if (containsFlat(labels[i], hit)) return true;
    return false;
  }

  /** The nearest element at or above hit worth naming.
   * @param {Element} hit */
  function occluder(hit) {
    /** @type {Node|null} */
    let n = hit;
    for (let i = 0; n && i < 8; i++, n = flatParent(n)) {
      if (n.nodeType !== 1) continue;
      const e = /** @type {Element} */ (n);
      const role = roleOf(e);
      if (role && role !== 'generic' && (CONTROL_ROLES.has(role) || declaredRole(e))) return e;
    }
    return hit;
  }

  /** Refresh the signature of el (and of the radio / tab / option group it
   * belongs to, whose state our action may have changed) and return reply.
   * @param {Element} el @param {number} id @param {any} reply */
  function done(el, id, reply) {
    if (el.isConnected) {
      setSig(id, describe(el).sig);
      refreshGroup(el);
    }
    if (reply.ok && reply.id === undefined) reply.id = id;
    return reply;
  }

  /** @param {Element} el */
  function refreshGroup(el) {
    /** @type {Element[]} */
    let peers = [];
    if (el.localName === 'input' && inputType(el) === 'radio') {
      const name = attr(el, 'name');
      const root = /** @type {Document|ShadowRoot} */ (el.getRootNode());
      if (name) peers = Array.from(root.querySelectorAll('input[type=radio]')).filter((p) => attr(p, 'name') === name);
    } else {
      const role = roleOf(el);
      const container = role === 'tab' ? '[role=tablist]' : role === 'option' ? '[role=listbox]' :
        role === 'treeitem' ? '[role=tree]' : role === 'radio' ? '[role=radiogroup]' :
          role === 'menuitemradio' ? '[role=menu],[role=menubar],[role=group]' : '';
      const box = container ? el.closest(container) : null;
      if (box) peers = Array.from(box.querySelectorAll('[role=' + role + ']'));
    }
    for (const p of peers) {
      const pid = idOf(p);
      if (typeof pid === 'number' && elementOf(pid) === p) setSig(pid, describe(p).sig);
    }
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ actionable, done, labelOf, occluder }));
})();
