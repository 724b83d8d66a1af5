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
  const { fail, attr, idOf, elementOf, setSig, shadowOf, flatParent, containsFlat, hiddenReason, isVisible, areaBox,
    CONTROL_ROLES, declaredRole, inputType, roleOf, labelsOf, hasOwnText, endingAnimations, surfaceOf, ownPart, viewRect, isDisabled, describe, brief } = K;

  /** Visibility, enabled state, scrolling and the hit test at the action point.
   * @param {Element} el @param {boolean} needEnabled
   * @returns {{point: {x: number, y: number}} | {error: GripError}} */
  function actionable(el, needEnabled) {
    const hid = hiddenReason(el);
    if (hid) return fail('not_actionable', 'actionability', hid);
    if (!isVisible(el)) return fail('not_actionable', 'actionability', 'element is not visible');
    if (needEnabled && isDisabled(el)) return fail('not_actionable', 'actionability', 'element is disabled');
    // An editor's hidden input is acted on where the editor shows its text;
    // a box without area where what it holds shows (visibility.js areaBox).
    const box = surfaceOf(el) || areaBox(el) || el;
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
      const occ = occluder(hit);
      const going = leaving(occ);
      if (going) {
        return fail('not_actionable', 'point', 'occluded by ' + brief(occ) + ', which is ' + going.how + ' (its animation ends in ' + seconds(going.ms) + ')',
          'try again once it is gone, or dismiss it');
      }
      return fail('not_actionable', 'point', 'occluded by ' + brief(occ),
        'close or dismiss the covering element first, or scroll');
    }
    return { point };
  }

  /** How an element covering another is leaving, when an animation that
   * will end runs on it or around it: fading out (its opacity goes towards
   * 0), else moving; null when it stands still (a toast that is on its
   * way out is worth waiting for, one that stays is not).
   * @param {Element} occ @returns {{how: string, ms: number}|null} */
  function leaving(occ) {
    /** @type {{how: string, ms: number}|null} */
    let out = null;
    for (const { anim, ms } of endingAnimations()) {
      const fx = /** @type {KeyframeEffect} */ (anim.effect);
      const target = fx && fx.target;
      if (!target || !(target === occ || containsFlat(target, occ))) continue;
      let fade = false;
      try {
        const frames = fx.getKeyframes();
        const last = frames[frames.length - 1];
        fade = !!last && last.opacity !== undefined && last.opacity !== null && Number(last.opacity) < 0.5;
      } catch (_) { /* no keyframes to read */ }
      const how = fade ? 'fading out' : 'moving';
      if (!out || (fade && out.how !== 'fading out') || ms > out.ms) out = { how: fade || !out ? how : out.how, ms: Math.max(ms, out ? out.ms : 0) };
    }
    return out;
  }

  /** @param {number} ms */
  function seconds(ms) {
    return (Math.max(ms, 0) / 1000).toFixed(1) + ' s';
  }

  // Elements under a point that hold another document: a point there
  // lands in that frame, which the agent did not name (and the policy did
  // not judge), so a point action is refused there.
  const FRAME_TAGS = new Set(['iframe', 'frame', 'object', 'embed', 'portal', 'fencedframe']);

  /** Actionability at a point the agent chose inside el (a canvas, a
   * drawing): el visible and enabled, the point inside its box and brought
   * into view, and what is under it el or inside it, never another frame
   * (docs/drawings.md, "Drawings and canvases").
   * @param {Element} el @param {{x: number, y: number, percent?: boolean}} spot @param {boolean} needEnabled @param {string} what
   * @returns {{point: {x: number, y: number}, hit: Element} | {error: GripError}} */
  function actionableAt(el, spot, needEnabled, what) {
    const hid = hiddenReason(el);
    if (hid) return fail('not_actionable', 'actionability', what + hid);
    if (!isVisible(el)) return fail('not_actionable', 'actionability', what + 'element is not visible');
    if (needEnabled && isDisabled(el)) return fail('not_actionable', 'actionability', what + 'element is disabled');
    let b = el.getBoundingClientRect();
    if (!(b.width > 0 && b.height > 0)) return fail('not_actionable', 'actionability', what + 'element has no size');
    const dx = spot.percent ? b.width * spot.x / 100 : spot.x, dy = spot.percent ? b.height * spot.y / 100 : spot.y;
    const said = spotText(spot);
    if (dx < 0 || dy < 0 || dx > b.width || dy > b.height) {
      return fail('not_actionable', 'point', what + 'the point ' + said + ' is outside ' + brief(el) + ', whose box is ' +
        Math.round(b.width) + '×' + Math.round(b.height) + ' CSS pixels', 'give X,Y from its top-left corner, within its width and height');
    }
    const vw = window.innerWidth, vh = window.innerHeight;
    const inView = () => {
      const x = b.left + dx, y = b.top + dy;
      return x >= 0 && y >= 0 && x < vw && y < vh;
    };
    if (!inView()) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      b = el.getBoundingClientRect();
      if (!inView()) {
        // A box larger than the viewport: bring the point itself to the middle.
        window.scrollBy({ left: b.left + dx - vw / 2, top: b.top + dy - vh / 2, behavior: 'instant' });
        b = el.getBoundingClientRect();
      }
      if (!inView()) return fail('not_actionable', 'actionability', what + 'the point ' + said + ' of ' + brief(el) + ' could not be scrolled into view');
    }
    // Inside the box, clear of its edge by a hair: the box's right and
    // bottom edges belong to what is next to it.
    const point = { x: round2(Math.min(b.left + dx, b.right - 0.5)), y: round2(Math.min(b.top + dy, b.bottom - 0.5)) };
    const hit = hitAt(point.x, point.y);
    if (!hit) return fail('not_actionable', 'point', what + 'nothing is at the point ' + said + ' (' + point.x + ', ' + point.y + ' in the viewport)');
    if (FRAME_TAGS.has(hit.localName) && hit !== el) {
      return fail('not_actionable', 'point', what + 'the point ' + said + ' of ' + brief(el) + ' lands in another frame, ' + brief(hit),
        'act on that frame\'s own elements: a snapshot lists them under its frame line');
    }
    if (FRAME_TAGS.has(hit.localName)) {
      return fail('not_actionable', 'point', what + brief(el) + ' holds another document: a point on it lands in that frame',
        'act on that frame\'s own elements: a snapshot lists them under its frame line');
    }
    if (!hits(el, hit) && !seeThrough(el, hit)) {
      const occ = occluder(hit);
      const going = leaving(occ);
      return fail('not_actionable', 'point', what + 'the point ' + said + ' of ' + brief(el) + ' is occluded by ' + brief(occ) +
        (going ? ', which is ' + going.how + ' (its animation ends in ' + seconds(going.ms) + ')' : ''),
        going ? 'try again once it is gone, or dismiss it' : 'close or dismiss the covering element first, or choose another point');
    }
    return { point, hit };
  }

  // The most a layer's background may show and still be see-through (a
  // selection's tint), and how much of the element's box it must cover.
  const SEE_THROUGH_ALPHA = 0.25;
  const LAYER_COVER = 0.8;

  /** Whether hit is in a see-through layer laid over el, which takes el's
   * input (a canvas app's overlay: x-data-spreadsheet's, a map's): every
   * element from hit up to what holds both is unlisted, shows no text of
   * its own and no more than a tint of background, and the topmost of
   * them covers most of el's box. A person's press there lands on the
   * layer, and so does the agent's. A toast or a dialog over a canvas
   * shows text or a background: it occludes.
   * @param {Element} el @param {Element} hit */
  function seeThrough(el, hit) {
    /** @type {Element|null} */
    let top = null;
    for (let n = /** @type {Node|null} */ (hit); n && n.nodeType === 1; n = flatParent(n)) {
      const e = /** @type {Element} */ (n);
      if (containsFlat(e, el)) break;
      const role = roleOf(e);
      if ((role && (CONTROL_ROLES.has(role) || declaredRole(e))) || hasOwnText(e)) return false;
      let cs;
      try { cs = getComputedStyle(e); } catch (_) { return false; }
      if (cs.backgroundImage && cs.backgroundImage !== 'none') return false;
      const m = /rgba?\(([^)]*)\)/.exec(cs.backgroundColor || '');
      const parts = m ? m[1].split(/[\s,/]+/).filter(Boolean) : [];
      const alpha = parts.length >= 4 ? parseFloat(parts[3]) : m ? 1 : 0;
      if (alpha > SEE_THROUGH_ALPHA) return false;
      top = e;
    }
    if (!top) return false;
    const a = el.getBoundingClientRect(), b = top.getBoundingClientRect();
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0 && h > 0 && w * h >= LAYER_COVER * a.width * a.height;
  }

  /** A spot as the agent wrote it: "120,80" or "40%,60%".
   * @param {{x: number, y: number, percent?: boolean}} s */
  function spotText(s) {
    return s.percent ? s.x + '%,' + s.y + '%' : s.x + ',' + s.y;
  }

  /** What a reply says of a point action: where it landed, on what, in
   * which document; el, when given, is the element the point is in.
   * @param {Element|null} el @param {{x: number, y: number, percent?: boolean}} spot @param {Element} hit */
  function underPoint(el, spot, hit) {
    const where = location.protocol === 'about:' ? location.href : location.origin + location.pathname;
    return 'at ' + spotText(spot) + (el ? ' of ' + brief(el) : '') + ': under the point ' + (hit === el ? 'the element itself' : brief(hit)) +
      ', in the frame of ' + where;
  }

  // Where else in an element's box a press may land, as fractions of it.
  const SPOTS = [[0.2, 0.5], [0.8, 0.5], [0.5, 0.2], [0.5, 0.8], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]];

  /** A point of el's first visible box, other than its centre, where the
   * hit test reaches el; null when it is covered at every one.
   * @param {Element} el @param {number} vw @param {number} vh
   * @returns {{x: number, y: number}|null} */
  function uncovered(el, vw, vh) {
    const on = onShape(el, vw, vh);
    if (on) return on;
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

  // How many points along an SVG shape's outline are tried.
  const SHAPE_POINTS = 24;

  /** A point on an SVG shape (a wire's stroke, whose box's centre is
   * empty canvas) where the hit test reaches it, or null: points along its
   * outline, in the viewport's coordinates.
   * @param {Element} el @param {number} vw @param {number} vh
   * @returns {{x: number, y: number}|null} */
  function onShape(el, vw, vh) {
    const g = /** @type {any} */ (el);
    if (typeof g.getTotalLength !== 'function' || typeof g.getScreenCTM !== 'function') return null;
    let len = 0, m = null;
    try { len = g.getTotalLength(); m = g.getScreenCTM(); } catch (_) { return null; }
    if (!m || !(len > 0)) return null;
    for (let i = 0; i < SHAPE_POINTS; i++) {
      // The middle first, then outwards: where a person aims at a line.
      const f = 0.5 + (i % 2 ? 1 : -1) * Math.ceil(i / 2) / SHAPE_POINTS;
      const q = g.getPointAtLength(len * Math.min(Math.max(f, 0), 1));
      const p = { x: round2(m.a * q.x + m.c * q.y + m.e), y: round2(m.b * q.x + m.d * q.y + m.f) };
      if (p.x < 0 || p.y < 0 || p.x > vw || p.y > vh) continue;
      const h = hitAt(p.x, p.y);
      if (h && hits(el, h)) return p;
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

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ actionable, actionableAt, underPoint, done, labelOf, occluder, hitAt }));
})();
