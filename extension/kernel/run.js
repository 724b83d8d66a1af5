// @ts-check
// The kernel's entry point, K.run(req), last of the files: one request in
// this document, one JSON-able reply (or a Promise of one: watch,
// nextChange, some acts). The requests and their replies are the table
// KernelCalls in kernel.d.ts; HANDLERS below has one handler per op.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, quote, openCache, idFor, elementOf, sigOf, forgetLabels, hiddenReason, roleOf, checkedOf,
    isDisabled, describe, brief, reread, probe, watch, frameIndexOf, actionable, actionableAt, underPoint, done, hoverAt, clickAt, contextClickAt, drawnTarget,
    mouse, editKind, readyToType, typeInto, selectIn, checkable, setChecked, doScroll, find, doPress, doDrag,
    setMark, stageUpload, uploadInto, settleState, nextChange, endingAnimations, readText,
    focusAsPerson, saidMark, saidSince, changesFromHere, noMatch, listen, readOnlyRefusal } = K;

  // The actions the page carries out: protocol/actions.go lists the same
  // ones as in-page actions (a test compares the two lists).
  const NEEDS_NODE = new Set(['click', 'dblclick', 'rightclick', 'hover', 'focus', 'type', 'fill', 'select', 'check', 'uncheck', 'drag', 'upload']);
  const KNOWN = new Set([...NEEDS_NODE, 'press', 'scroll', 'find']);

  /** The element an act request names, if it can be found (no checks:
   * act makes them). @param {any} r @returns {Element|null} */
  function actedOn(r) {
    if (typeof r.id === 'number') return elementOf(r.id) || null;
    if (typeof r.selector === 'string' && r.selector.trim()) {
      try { return document.querySelector(r.selector); } catch (_) { return null; }
    }
    return null;
  }

  /** An action on one element, every boundary checked in order: the node
   * (still there), its meaning (the signature the agent saw), its
   * actionability, then the act.
   * @param {any} r
   * @returns {any} KernelCalls' act reply: a result, a refusal, or a
   * promise of one once the page stops moving */
  function act(r) {
    const action = String(r.action || '');
    if (!KNOWN.has(action)) return fail('bad_request', 'node', 'unknown action ' + quote(action));

    // a. node
    /** @type {Element|null} */
    let el = null;
    /** @type {number} */
    let id = 0;
    if (typeof r.id === 'number') {
      id = r.id;
      el = elementOf(id) || null;
      // One wording for both (the host adds the ref and the next step).
      if (!el || !el.isConnected) return fail('stale_ref', 'node', 'its element is no longer on the page', 'take a new snapshot');
    } else if (typeof r.selector === 'string' && r.selector.trim()) {
      try { el = document.querySelector(r.selector); } catch (_) {
        return fail('invalid_locator', 'node', 'invalid selector ' + quote(r.selector));
      }
      if (!el) return noMatch(r.selector);
      id = idFor(el);
    } else if (NEEDS_NODE.has(action)) {
      return fail('bad_request', 'node', action + ' needs an element (id or selector)');
    }

    // b. meaning (refs only)
    if (el && typeof r.id === 'number') {
      const changed = meaningChanged(el, id, action, '');
      if (changed) return changed;
    }
    const node = el;
    if (action === 'drag' && node) {
      // The drop target: the same checks, in the same order, before anything moves.
      const to = nodeOf(r.toId, r.toSelector, 'the drop target');
      if ('error' in to) return to;
      if (typeof r.toId === 'number') {
        const changed = meaningChanged(to.el, to.id, action, 'the drop target: ');
        if (changed) return changed;
      }
      const toAt = r.toAt && typeof r.toAt === 'object' ? r.toAt : null;
      const from = r.at && typeof r.at === 'object' ? r.at : null;
      // Within one element only from one point of it to another (a shape
      // moved on a canvas, a range chosen on a drawn sheet).
      if (to.el === node && !(toAt && from)) {
        return fail('bad_request', 'node', 'the element cannot be dropped on itself',
          'name another element as the drop target, or give both points inside it: --at X,Y and --to-offset X,Y');
      }
      return doDrag(node, id, to.el, to.id, toAt, from);
    }

    if (action === 'scroll') return doScroll(node, r);
    if (action === 'find') return find(node, r);
    if (action === 'press') return doPress(node, r);

    if (!node) return fail('bad_request', 'node', action + ' needs an element');
    // An upload checks its own way: the input may be hidden (files.js).
    if (action === 'upload') return uploadInto(node, id, r);
    const trusted = r.trusted === true;

    // c. actionability
    const needEnabled = action !== 'hover';
    if (action === 'focus') {
      const hid = hiddenReason(node);
      if (hid) return fail('not_actionable', 'actionability', hid);
      if (isDisabled(node)) return fail('not_actionable', 'actionability', 'element is disabled');
      // A focus the page moves on at once (a Bootstrap modal keeps it
      // inside itself; the walker found Syncthing's) or an element that
      // takes none is no focus: said, not ok.
      if (!focusAsPerson(node)) {
        return fail('not_actionable', 'actionability', 'the element did not keep the focus: ' + K.focusReason(node),
          'an open dialog may hold the focus: act inside it or close it first; an element that takes no focus is clicked instead');
      }
      return done(node, id, { ok: true });
    }
    // A point the agent chose inside the element (a canvas app): checked
    // there, and the press lands on what is under it.
    const spot = r.at && typeof r.at === 'object' && (action === 'click' || action === 'dblclick' || action === 'rightclick' || action === 'hover') ? r.at : null;
    // (A drag's point was taken above.)
    if (r.at && !spot) return fail('bad_request', 'node', action + ' takes no point inside its element');
    const check = spot ? actionableAt(node, spot, needEnabled, '') : actionable(node, needEnabled);
    if ('error' in check) {
      // A page still moving (a dialog sliding in, a panel fading out) is
      // acted on once it stops, as a person would wait for it: bounded,
      // and only once, so a refusal on a still page is as quick as ever.
      if (r.waited !== true && moving()) return whenStill().then(() => act({ ...r, waited: true }));
      return check;
    }
    const pt = check.point;
    if (spot) return actAt(node, id, action, spot, pt, /** @type {{hit: Element}} */ (/** @type {unknown} */ (check)).hit, trusted);

    if (action === 'type' || action === 'fill') {
      const kind = editKind(node);
      if (!kind) return fail('not_actionable', 'actionability', 'element is not editable: ' + brief(node));
      if ((kind === 'input' || kind === 'textarea') && /** @type {HTMLInputElement} */ (node).readOnly) {
        return readOnlyRefusal(node);
      }
    }
    if ((action === 'check' || action === 'uncheck') && !checkable(node)) {
      return fail('not_actionable', 'actionability', 'element is not a checkbox, radio button or switch: ' + brief(node));
    }

    // Trusted input: the host sends real mouse and keyboard input at the
    // point we return; here only focus and selection are prepared.
    if (trusted) {
      if (action === 'type' || action === 'fill') {
        return readyToType(node, action === 'fill').then(() => ({ ok: true, id, point: pt }));
      }
      if (action === 'check' || action === 'uncheck') {
        const on = checkedOf(node, roleOf(node)) === 'checked';
        if (on === (action === 'check')) return done(node, id, { ok: true, detail: 'already ' + (on ? 'checked' : 'unchecked') });
      }
      return { ok: true, id, point: pt };
    }

    // d. act. Checks above may have waited (an animation, a scroll): a
    // frame removed or replaced meanwhile has a document with no window,
    // where a press dispatches to no handler at all, so it is refused,
    // never reported done. The dispatch below is synchronous, so nothing
    // detaches the frame between this check and the press.
    if (node && !node.ownerDocument.defaultView) {
      return fail('document_changed', 'node', 'the frame was removed or replaced before the action could land', 'take a new snapshot');
    }
    switch (action) {
      case 'click':
        clickAt(node, pt, 1);
        return done(node, id, { ok: true });
      case 'dblclick':
        clickAt(node, pt, 1);
        clickAt(node, pt, 2);
        drawnTarget(node, pt).dispatchEvent(mouse('dblclick', pt, 2, 0));
        return done(node, id, { ok: true });
      case 'rightclick':
        contextClickAt(node, pt);
        return done(node, id, { ok: true });
      case 'hover':
        hoverAt(drawnTarget(node, pt), pt);
        return done(node, id, { ok: true });
      case 'type':
      case 'fill':
        return typeInto(node, id, String(r.text ?? r.value ?? ''), action === 'fill');
      case 'select':
        return selectIn(node, id, String(r.value ?? r.text ?? ''));
      case 'check':
      case 'uncheck':
        return setChecked(node, id, action === 'check', pt);
    }
    return fail('bad_request', 'node', 'unknown action ' + quote(action));
  }

  /** A click, double click or hover at the agent's point: the events go
   * to what is under it (inside the element, checked), with the point's
   * coordinates; the reply names what was under it and in which frame.
   * @param {Element} node @param {number} id @param {string} action @param {protocol.Spot} spot
   * @param {{x: number, y: number}} pt @param {Element} hit @param {boolean} trusted */
  function actAt(node, id, action, spot, pt, hit, trusted) {
    const detail = underPoint(node, spot, hit);
    if (trusted) return { ok: true, id, point: pt, detail };
    if (action === 'hover') {
      hoverAt(hit, pt);
    } else if (action === 'rightclick') {
      contextClickAt(hit, pt);
    } else {
      clickAt(hit, pt, 1, true);
      if (action === 'dblclick') {
        clickAt(hit, pt, 2, true);
        hit.dispatchEvent(mouse('dblclick', pt, 2, 0));
      }
    }
    return done(node, id, { ok: true, detail });
  }

  /** How long an action waits for a moving page to stop before it is
   * refused as it stands (docs/acting.md, "Acting on a ref"). */
  const STILL_MS = 2000;
  /** How long the read back after an action waits, at most, for the
   * page's next frame (nextFrame). */
  const NEXT_FRAME_MS = 100;

  /** Whether the page is animating: a CSS animation or transition that
   * will end runs, which is how dialogs, drawers and tiddlers slide into
   * place (settle.js `endingAnimations`; spinners do not count). */
  function moving() {
    return endingAnimations().length > 0;
  }

  /** Resolves when every running, finite animation has ended, at the
   * next frame after it, or after STILL_MS, whichever is first.
   * @returns {Promise<void>} */
  function whenStill() {
    const ended = Promise.all(endingAnimations().map(({ anim }) => anim.finished.catch(() => undefined)));
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    let timer;
    const bound = new Promise((resolve) => { timer = setTimeout(resolve, STILL_MS); });
    return Promise.race([ended, bound]).then(() => {
      clearTimeout(timer);
      // The frame after the last one lays out where things came to rest;
      // a background tab gets no frames, so a short timer stands in.
      return new Promise((resolve) => {
        const t = setTimeout(resolve, 100);
        requestAnimationFrame(() => { clearTimeout(t); resolve(undefined); });
      });
    });
  }

  /** The element a request names by local id or selector, or a refusal.
   * @param {any} localId @param {any} selector @param {string} what
   * @returns {{el: Element, id: number} | {error: GripError}} */
  function nodeOf(localId, selector, what) {
    if (typeof localId === 'number') {
      const el = elementOf(localId);
      if (!el || !el.isConnected) return fail('stale_ref', 'node', what + ' is no longer on the page', 'take a new snapshot');
      return { el, id: localId };
    }
    if (typeof selector === 'string' && selector.trim()) {
      let el;
      try { el = document.querySelector(selector); } catch (_) {
        return fail('invalid_locator', 'node', 'invalid selector ' + quote(selector));
      }
      if (!el) return noMatch(selector, what);
      return { el, id: idFor(el) };
    }
    return fail('bad_request', 'node', 'no ' + what + ' was named');
  }

  /** A meaning_changed refusal when el no longer means what the agent saw
   * (the signature kept at snapshot time), else null.
   * @param {Element} el @param {number} id @param {string} action @param {string} prefix
   * @returns {{error: GripError} | null} */
  function meaningChanged(el, id, action, prefix) {
    const stored = sigOf(id);
    if (!stored) return null;
    const now = describe(el).sig;
    const diff = [];
    for (const k of /** @type {(keyof Signature)[]} */ (['tag', 'type', 'role', 'name', 'href', 'action', 'checked', 'selected'])) {
      if (k === 'checked' && (action === 'check' || action === 'uncheck')) continue;
      if (stored[k] !== now[k]) {
        diff.push(k + ' changed from ' + (stored[k] ? quote(stored[k]) : 'none') + ' to ' + (now[k] ? quote(now[k]) : 'none'));
      }
    }
    if (!diff.length) return null;
    return fail('meaning_changed', 'meaning', prefix + diff.join('; '), 'take a new snapshot and pick the element again');
  }

  /** The text of the element a ref names (grip read): the node and its
   * meaning checked as for an action, then read.js's part of its text.
   * Nothing is scrolled, focused or pressed.
   * @param {any} r */
  function read(r) {
    const found = nodeOf(r.id, undefined, 'the element');
    if ('error' in found) return found;
    const changed = meaningChanged(found.el, found.id, 'read', '');
    if (changed) return changed;
    const d = describe(found.el);
    return { ...readText(found.el, r), role: d.role, name: d.name };
  }

  /** A snapshot of this document, as the snapshot call asks for it. A
   * plain read starts no watch of the page's changes: an action does, and
   * the read back after it asks how it settled (settle.js). A page that is
   * only read keeps no observer, whose records of a long re-render would
   * be held until it ends. From the last walk when the page has not
   * changed since (reread.js).
   * @param {KernelCalls['snapshot']['req']} req @returns {SnapshotReply} */
  function readNow(req) {
    const result = /** @type {any} */ (reread(req.mode === 'content' ? 'content' : 'interactive', req.keepSignatures === true,
        req.allContexts === true, req.known));
    if (req.settle === true) result.settle = settleState();
    // The read after an action: what the app said since it began (said.js).
    if (typeof req.saidSince === 'number' && req.saidSince > 0) result.said = saidSince(req.saidSince);
    // One string crosses from the page to the worker far faster than
    // thousands of small objects cloned one by one (bench/: 74 vs 250 ms
    // at 5,000 elements).
    return req.asJSON === true ? JSON.stringify(result) : result;
  }

  /** Resolves at this document's next animation frame, after the
   * callbacks the page asked for before it, or after NEXT_FRAME_MS on a
   * page too busy to draw one. @returns {Promise<void>} */
  function nextFrame() {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, NEXT_FRAME_MS);
      requestAnimationFrame(() => { clearTimeout(t); resolve(); });
    });
  }

  /** The kernel's calls, one handler per op of KernelCalls (kernel.d.ts).
   * @type {KernelHandlers} */
  const HANDLERS = {
    snapshot(req) {
      // The read back after an action comes after the page's next frame:
      // apps that answer input in an animation frame (Chart.js, most
      // drawn apps) have answered by then, and what they changed is seen
      // as a change to settle after, not missed (docs/settling.md,
      // "Settling"). A hidden document draws no frames: read at once.
      if (req.settle === true && document.visibilityState === 'visible') return nextFrame().then(() => readNow(req));
      return readNow(req);
    },
    act(req) {
      changesFromHere(Number(req.began) || 0);
      saidMark(actedOn(req), String(req.action || ''));
      const out = act(req);
      if (out instanceof Promise) {
        return out.catch((e) => fail('internal', 'document', String((e && e.message) || e)));
      }
      return out;
    },
    settle: (req) => settleState(req),
    nextChange: (req) => nextChange(req),
    mark: (req) => setMark(req),
    probe: (req) => probe(req),
    watch: (req) => watch(req),
    frameIndex: (req) => frameIndexOf(req),
    stage: (req) => stageUpload(req),
    read: (req) => read(req),
    listen: (req) => listen(req),
  };

  /** Runs one request in this document through its handler and returns
   * its reply; nothing it throws escapes (an internal error is a reply too).
   * @param {KernelRequest} req @returns {any} */
  function run(req) {
    try {
      if (!req || typeof req !== 'object') return fail('bad_request', 'document', 'request must be an object');
      const op = /** @type {KernelOp} */ (req.op);
      if (!Object.hasOwn(HANDLERS, op)) return fail('bad_request', 'document', 'unknown op ' + quote(String(req.op)));
      // Per call: the cache as the document holds it now, no labels read
      // before the page changed.
      openCache();
      forgetLabels();
      return /** @type {(r: object) => any} */ (HANDLERS[op])(req);
    } catch (e) {
      const err = /** @type {any} */ (e);
      return fail('internal', 'document', String((err && err.message) || err));
    }
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ run }));
})();
