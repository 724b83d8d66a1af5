// @ts-check
// The kernel's entry point, K.run(req), last of the files: one request in
// this document, one JSON-able reply (or, for a custom listbox `select`, a
// Promise of one). Requests: {op:'snapshot', mode, keepSignatures, asJSON, known},
// {op:'act', id|selector, action, …}, {op:'probe', text?, id?},
// {op:'watch', text?, gone?, id?, ms} (a Promise),
// {op:'settle'}, {op:'nextChange', ms} (a Promise); a snapshot with
// settle: true carries the document's settle state too.
// {op:'frameIndex', selector}, {op:'mark', mark},
// {op:'stage', upload, file, data}, {op:'read', id, from, max}.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, quote, openCache, idFor, elementOf, sigOf, forgetLabels, hiddenReason, roleOf, checkedOf,
    isDisabled, describe, brief, reread, probe, watch, frameIndexOf, actionable, done, hoverAt, clickAt,
    mouse, editKind, readyToType, typeInto, selectIn, checkable, setChecked, doScroll, find, doPress, doDrag,
    setMark, stageUpload, uploadInto, trackChanges, settleState, nextChange, endingAnimations, readText,
    focusAsPerson } = K;

  // The actions the page carries out: protocol/actions.go lists the same
  // ones as in-page actions (a test compares the two lists).
  const NEEDS_NODE = new Set(['click', 'dblclick', 'hover', 'focus', 'type', 'fill', 'select', 'check', 'uncheck', 'drag', 'upload']);
  const KNOWN = new Set([...NEEDS_NODE, 'press', 'scroll', 'find']);

  /** An action on one element, every boundary checked in order: the node
   * (still there), its meaning (the signature the agent saw), its
   * actionability, then the act.
   * @param {any} r */
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
      if (!el) return fail('stale_ref', 'node', 'the element is no longer in the page', 'take a new snapshot');
      if (!el.isConnected) return fail('stale_ref', 'node', 'the element was removed from the page', 'take a new snapshot');
    } else if (typeof r.selector === 'string' && r.selector.trim()) {
      try { el = document.querySelector(r.selector); } catch (_) {
        return fail('invalid_locator', 'node', 'invalid selector ' + quote(r.selector));
      }
      if (!el) return fail('not_actionable', 'node', 'no element matches ' + quote(r.selector), 'check the selector or take a snapshot');
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
      if (to.el === node) return fail('bad_request', 'node', 'the element cannot be dropped on itself', 'name another element as the drop target');
      return doDrag(node, id, to.el, to.id);
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
      focusAsPerson(node);
      return done(node, id, { ok: true });
    }
    const check = actionable(node, needEnabled);
    if ('error' in check) {
      // A page still moving (a dialog sliding in, a panel fading out) is
      // acted on once it stops, as a person would wait for it: bounded,
      // and only once, so a refusal on a still page is as quick as ever.
      if (r.waited !== true && moving()) return whenStill().then(() => act({ ...r, waited: true }));
      return check;
    }
    const pt = check.point;

    if (action === 'type' || action === 'fill') {
      const kind = editKind(node);
      if (!kind) return fail('not_actionable', 'actionability', 'element is not editable: ' + brief(node));
      if ((kind === 'input' || kind === 'textarea') && /** @type {HTMLInputElement} */ (node).readOnly) {
        return fail('not_actionable', 'actionability', 'element is read-only');
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

    // d. act
    switch (action) {
      case 'click':
        clickAt(node, pt, 1);
        return done(node, id, { ok: true });
      case 'dblclick':
        clickAt(node, pt, 1);
        clickAt(node, pt, 2);
        node.dispatchEvent(mouse('dblclick', pt, 2, 0));
        return done(node, id, { ok: true });
      case 'hover':
        hoverAt(node, pt);
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

  /** How long an action waits for a moving page to stop before it is
   * refused as it stands (docs/ARCHITECTURE.md, "Acting on a ref"). */
  const STILL_MS = 2000;

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
      if (!el) return fail('stale_ref', 'node', what + ' is no longer in the page', 'take a new snapshot');
      if (!el.isConnected) return fail('stale_ref', 'node', what + ' was removed from the page', 'take a new snapshot');
      return { el, id: localId };
    }
    if (typeof selector === 'string' && selector.trim()) {
      let el;
      try { el = document.querySelector(selector); } catch (_) {
        return fail('invalid_locator', 'node', 'invalid selector ' + quote(selector));
      }
      if (!el) return fail('not_actionable', 'node', 'no element matches ' + quote(selector) + ' for ' + what, 'check the selector or take a snapshot');
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

  /** Runs one request in this document and returns its reply; nothing it
   * throws escapes (an internal error is a reply too).
   * @param {any} req @returns {any} */
  function run(req) {
    try {
      if (!req || typeof req !== 'object') return fail('bad_request', 'document', 'request must be an object');
      // Per call: the cache as the document holds it now, no labels read
      // before the page changed.
      openCache();
      forgetLabels();
      switch (req.op) {
        case 'snapshot': {
          // A plain read starts no watch of the page's changes: an action
          // does (below), and the read back after it asks how it settled
          // (settle.js). A page that is only read keeps no observer, whose
          // records of a long re-render would be held until it ends.
          // From the last walk when the page has not changed since (reread.js).
          const result = /** @type {any} */ (reread(req.mode === 'content' ? 'content' : 'interactive', req.keepSignatures === true,
            req.allContexts === true, req.known));
          if (req.settle === true) result.settle = settleState();
          // One string crosses from the page to the worker far faster than
          // thousands of small objects cloned one by one (bench/: 74 vs 250 ms
          // at 5,000 elements).
          return req.asJSON === true ? JSON.stringify(result) : result;
        }
        case 'act': {
          trackChanges();
          const out = act(req);
          if (out instanceof Promise) {
            return out.catch((e) => fail('internal', 'document', String((e && e.message) || e)));
          }
          return out;
        }
        case 'settle':
          return settleState(req);
        case 'nextChange':
          return nextChange(req);
        case 'mark':
          return setMark(req);
        case 'probe':
          return probe(req);
        case 'watch':
          return watch(req);
        case 'frameIndex':
          return frameIndexOf(req);
        case 'stage':
          return stageUpload(req);
        case 'read':
          return read(req);
        default:
          return fail('bad_request', 'document', 'unknown op ' + quote(String(req.op)));
      }
    } catch (e) {
      const err = /** @type {any} */ (e);
      return fail('internal', 'document', String((err && err.message) || err));
    }
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ run }));
})();
