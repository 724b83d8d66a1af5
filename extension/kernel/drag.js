// @ts-check
// Drag and drop, synthetically, once both ends passed every check (run.js).
// Two ways pages listen for a drag, and the sequence picks the one the page
// uses: after the press, an element that is (or became, as SortableJS makes
// its item on pointerdown) draggable gets HTML5 drag and drop: dragstart,
// dragenter/dragover along the way, drop where the last dragover was
// accepted, dragend, all sharing one DataTransfer. Anything else gets the
// pointer and mouse moves that pointer-driven sortables follow
// (pointermove steps, a pause over the target, pointerup). Steps are spread
// over a few frames, as a hand would, because libraries start a drag on a
// timer and test what is under the pointer on an interval.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, flatParent, containsFlat, brief, actionable, actionableAt, underPoint, done, mouse, pointer, hoverAt, describe, setSig } = K;

  // Moves between the two ends, and the pause between two of them (ms).
  const STEPS = 8;
  const STEP_MS = 16;
  // How long the pointer rests over the target before the drop: longer
  // than the 50 ms interval at which SortableJS's fallback looks under it.
  const HOVER_MS = 120;

  /** @param {number} ms */
  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** The element a drag starts from: el or the nearest ancestor that is
   * draggable (draggable="true", or a link or image, which are by default).
   * @param {Element} el @returns {HTMLElement|null} */
  function draggableOf(el) {
    for (let n = /** @type {Node|null} */ (el); n && n !== document.body; n = flatParent(n)) {
      if (n.nodeType === 1 && /** @type {HTMLElement} */ (n).draggable === true) return /** @type {HTMLElement} */ (n);
    }
    return null;
  }

  /** @param {number} x @param {number} y @param {Element} fallback */
  function under(x, y, fallback) {
    return document.elementFromPoint(x, y) || fallback;
  }

  /** @param {string} type @param {{x: number, y: number}} pt @param {DataTransfer} dt */
  function dragEvent(type, pt, dt) {
    const cancelable = type !== 'dragleave' && type !== 'dragend';
    return new DragEvent(type, {
      bubbles: true, cancelable, composed: true, view: window, dataTransfer: dt,
      clientX: pt.x, clientY: pt.y, screenX: pt.x + (window.screenX || 0), screenY: pt.y + (window.screenY || 0),
      button: 0, buttons: type === 'dragend' || type === 'drop' ? 0 : 1,
    });
  }

  /** The centre of el's box now, or null when it is outside the viewport.
   * @param {Element} el */
  function centre(el) {
    const b = el.getBoundingClientRect();
    const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return null;
    return { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
  }

  /** The point from inside el, checked again once the drop target was
   * brought into view, or null when it left the view.
   * @param {Element} el @param {protocol.Spot} from */
  function recheck(el, from) {
    const again = actionableAt(el, from, true, '');
    return 'error' in again ? null : again;
  }

  /** Drags src onto dst. Both were checked for staleness and meaning;
   * here for actionability (each visible, enabled, not covered, and both
   * in the viewport at once), then the drag.
   * A drop point (toAt) inside dst is checked as a point action's is
   * (acts.js actionableAt): inside its box, in view, not covered by
   * anything outside it, not in another frame.
   * @param {Element} src @param {number} srcId @param {Element} dst @param {number} dstId
   * A point inside src (from) is where the press starts, checked the same
   * way.
   * @param {protocol.Spot|null} toAt @param {protocol.Spot|null} [from] */
  function doDrag(src, srcId, dst, dstId, toAt, from) {
    const a = from ? actionableAt(src, from, true, '') : actionable(src, true);
    if ('error' in a) return a;
    const b = toAt ? actionableAt(dst, toAt, false, 'the drop target: ') : actionable(dst, false);
    if ('error' in b) {
      if (!toAt) b.error.message = 'the drop target: ' + b.error.message;
      return b;
    }
    // Bringing the target into view may have moved the source out of it.
    const at = from ? recheck(src, from) : null;
    const p1 = at ? at.point : from ? null : centre(src);
    if (!p1 || !containsFlat(src, under(p1.x, p1.y, document.documentElement)) && !from) {
      return fail('not_actionable', 'actionability', 'the element and the drop target are not in the viewport together',
        'scroll so that both show, or drag in two steps through an element between them');
    }
    const p2 = b.point;
    const what = brief(src) + ' onto ' + brief(dst) + (toAt ? ' ' + underPoint(null, toAt, /** @type {{hit: Element}} */ (/** @type {unknown} */ (b)).hit) : '');
    // From a point, the press lands on what is under it (a see-through
    // layer over a canvas takes it, as it takes a click).
    return run(at ? at.hit : src, dst, p1, p2).then((how) => {
      if (how.error) return how;
      if (dst.isConnected) setSig(dstId, describe(dst).sig);
      const reply = { ok: true, detail: 'dragged ' + what + ' (' + how.mode + ')' };
      return src.isConnected ? done(src, srcId, reply) : Object.assign(reply, { id: srcId });
    }).catch((e) => fail('internal', 'document', String(e && e.message || e)));
  }

  /** The whole gesture: press, then HTML5 drag and drop or pointer moves.
   * @param {Element} src @param {Element} dst @param {{x: number, y: number}} p1 @param {{x: number, y: number}} p2
   * @returns {Promise<any>} */
  async function run(src, dst, p1, p2) {
    hoverAt(src, p1);
    const down = src.dispatchEvent(pointer('pointerdown', p1, 1));
    if (down) src.dispatchEvent(mouse('mousedown', p1, 1, 1));
    await sleep(STEP_MS);
    const dragEl = draggableOf(src);
    if (dragEl && down) return html5(dragEl, dst, p1, p2);
    return pointerMoves(src, dst, p1, p2);
  }

  /** @param {{x: number, y: number}} p1 @param {{x: number, y: number}} p2 @param {number} i */
  function along(p1, p2, i) {
    return { x: p1.x + (p2.x - p1.x) * i / STEPS, y: p1.y + (p2.y - p1.y) * i / STEPS };
  }

  /** HTML5 drag and drop with one DataTransfer, dropping only where the
   * page accepted it (it cancelled the last dragover), as a browser does.
   * @param {HTMLElement} dragEl @param {Element} dst @param {{x: number, y: number}} p1 @param {{x: number, y: number}} p2 */
  async function html5(dragEl, dst, p1, p2) {
    const dt = new DataTransfer();
    if (!dragEl.dispatchEvent(dragEvent('dragstart', p1, dt))) {
      return fail('not_actionable', 'actionability', 'the page cancelled the drag of ' + brief(dragEl) + ' (dragstart)');
    }
    await sleep(STEP_MS);
    /** @type {Element|null} */
    let over = null;
    let accepted = false;
    let anyAccepted = false;
    for (let i = 1; i <= STEPS + 3; i++) {
      const pt = along(p1, p2, Math.min(i, STEPS));
      const el = i >= STEPS ? under(pt.x, pt.y, dst) : under(pt.x, pt.y, dragEl);
      dragEl.dispatchEvent(dragEvent('drag', pt, dt));
      if (el !== over) {
        if (over) over.dispatchEvent(dragEvent('dragleave', pt, dt));
        el.dispatchEvent(dragEvent('dragenter', pt, dt));
        over = el;
      }
      // Accepted when the page cancelled it. (A DataTransfer made here is
      // not the browser's drag data store: Chromium ignores writes to its
      // dropEffect, so the page's choice of effect cannot be read back.)
      accepted = !over.dispatchEvent(dragEvent('dragover', pt, dt));
      anyAccepted = anyAccepted || accepted;
      await sleep(i >= STEPS ? HOVER_MS / 3 : STEP_MS);
    }
    const target = over || dst;
    if (!accepted) {
      target.dispatchEvent(dragEvent('dragleave', p2, dt));
      dragEl.dispatchEvent(dragEvent('dragend', p2, dt));
      // A sortable that moved the item under the pointer while it passed
      // refuses the last dragover (it is over the item itself) and finishes
      // on dragend, as it does in a browser: the page took part.
      if (anyAccepted) return { mode: 'HTML5 drag and drop, ended on dragend: the page took the drag while it passed but not the drop' };
      return fail('not_actionable', 'actionability', 'the drop target ' + brief(dst) + ' did not accept the drop (no dragover handler allowed it)',
        'drop on an element that takes drops: the list or zone itself, not a label inside it');
    }
    target.dispatchEvent(dragEvent('drop', p2, dt));
    dragEl.dispatchEvent(dragEvent('dragend', p2, dt));
    return { mode: 'HTML5 drag and drop' };
  }

  /** Pointer and mouse moves with the button held, a rest over the
   * target, and the release there.
   * @param {Element} src @param {Element} dst @param {{x: number, y: number}} p1 @param {{x: number, y: number}} p2 */
  async function pointerMoves(src, dst, p1, p2) {
    let last = src;
    for (let i = 1; i <= STEPS; i++) {
      const pt = along(p1, p2, i);
      last = under(pt.x, pt.y, dst);
      last.dispatchEvent(pointer('pointermove', pt, 1));
      last.dispatchEvent(mouse('mousemove', pt, 0, 1));
      await sleep(STEP_MS);
    }
    for (let i = 0; i < 3; i++) {
      await sleep(HOVER_MS / 3);
      last = under(p2.x, p2.y, dst);
      last.dispatchEvent(pointer('pointermove', p2, 1));
      last.dispatchEvent(mouse('mousemove', p2, 0, 1));
    }
    last = under(p2.x, p2.y, dst);
    last.dispatchEvent(pointer('pointerup', p2, 0));
    last.dispatchEvent(mouse('mouseup', p2, 1, 0));
    await sleep(STEP_MS);
    return { mode: 'pointer moves' };
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ doDrag }));
})();
