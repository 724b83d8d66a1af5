// @ts-check
// Recording by demonstration (docs/workflows.md, "Recorded workflows"):
// while the person records a tab, the kernel of each of its documents
// listens to their input and tells the worker each step — its verb, and
// its target as a snapshot of this document names it (role, name, the
// context where the pair repeats). It listens in the isolated world, so
// the page can neither see it nor reach the worker through it, and it
// takes only events the browser marks isTrusted: input a script of the
// page made up is not the person's. A secret field's text never leaves
// the page: its step says secret and carries no text.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { snapshot, idOf, flatParent, isSecret, roleOf, nameOf, isVisible, inputType } = K;

  /** The names of fields whose text is a secret even when the page shows
   * it as text: host/recorder.go's secretWords, as one expression. */
  const SECRET_NAME = /pass(word|code|phrase)?\b|\bpin\b|one[- ]?time|\botp\b|2fa|secret|token|\bcvc\b|\bcvv\b|security code/i;
  /** What appears after a click that a replay can wait for. */
  const SALIENT = new Set(['dialog', 'alertdialog', 'alert', 'heading', 'status']);
  /** How long after a click an element that appears is its effect. */
  const EFFECT_MS = 1500;
  /** Typing becomes a step once the person pauses this long, or leaves the field. */
  const TYPING_MS = 600;
  /** Farther than this between press and release, on another element, is a drag. */
  const DRAG_PX = 10;

  /** The recording listened for ('' when none). */
  let rec = '';
  let seq = 0;
  /** @type {{t: {el: Element, target: PersonTarget} | null, x: number, y: number} | null} */
  let pressed = null;
  /** @type {{el: Element, target: PersonTarget} | null} */
  let dragged = null;
  let dragDone = false;
  /** @type {Map<Element, ReturnType<typeof setTimeout>>} */
  const typing = new Map();

  /**
   * The element a snapshot of this document reports for el (itself or its
   * nearest reported ancestor), with its target.
   * @param {EventTarget | null} from
   * @param {Map<number, Reported>} [byId] the reported elements, when the
   *   caller looks up several (reported())
   * @returns {{el: Element, target: PersonTarget} | null}
   */
  function targetOf(from, byId = reported()) {
    const start = from instanceof Element ? from : from instanceof Node ? from.parentElement : null;
    if (!start) return null;
    for (let n = /** @type {Node | null} */ (start); n; n = flatParent(n)) {
      if (n.nodeType !== 1) continue;
      const id = idOf(/** @type {Element} */ (n));
      const r = id === undefined ? undefined : byId.get(id);
      if (r) return { el: /** @type {Element} */ (n), target: { role: r.role, name: r.name, ...(r.ctx ? { ctx: r.ctx } : {}) } };
    }
    return null;
  }

  /** The elements a snapshot of this document reports now, by id. As a
   * request's run does (run.js): the cache as the document holds it now,
   * no labels read before the page changed. @returns {Map<number, Reported>} */
  function reported() {
    K.openCache();
    K.forgetLabels();
    return new Map(snapshot('interactive', true).elements.map((r) => [r.id, r]));
  }

  /** @param {PersonStepMsg} step @returns {number} the step's number */
  function send(step) {
    const n = ++seq;
    try {
      chrome.runtime.sendMessage({ type: 'person_step', rec, seq: n, step }).catch(() => {});
    } catch (_) { /* the extension reloaded: nothing listens */ }
    return n;
  }

  /** An element that appears within EFFECT_MS after step n: its effect.
   * @param {number} n */
  function watchEffect(n) {
    const obs = new MutationObserver((records) => {
      for (const r of records) {
        for (const node of r.addedNodes) {
          if (!(node instanceof Element)) continue;
          for (const el of [node, ...node.querySelectorAll('*')]) {
            const role = roleOf(el);
            if (!SALIENT.has(role) || !isVisible(el)) continue;
            const name = nameOf(el, role);
            if (!name.trim()) continue;
            obs.disconnect();
            try {
              chrome.runtime.sendMessage({ type: 'person_effect', rec, seq: n, appeared: { role, name } }).catch(() => {});
            } catch (_) { /* nothing listens */ }
            return;
          }
        }
      }
    });
    obs.observe(document, { childList: true, subtree: true });
    setTimeout(() => obs.disconnect(), EFFECT_MS);
  }

  /** Fields whose steps come from their own events, not from a click.
   * @param {Element} el @returns {boolean} */
  function ownStep(el) {
    const tag = el.localName;
    if (tag === 'select' || tag === 'textarea' || tag === 'option') return true;
    if (tag === 'input') return inputType(el) !== 'button' && inputType(el) !== 'submit' && inputType(el) !== 'reset' && inputType(el) !== 'image';
    if (tag === 'label') {
      const c = /** @type {HTMLLabelElement} */ (el).control;
      return !!c && ownStep(c);
    }
    return /** @type {HTMLElement} */ (el).isContentEditable === true;
  }

  /** The text field's value, or null for none. @param {Element} el */
  function fieldValue(el) {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
    if (el instanceof HTMLElement && el.isContentEditable) return el.innerText;
    return null;
  }

  /** The text field whose typing becomes a step now. @param {Element} el */
  function flushTyping(el) {
    const timer = typing.get(el);
    if (timer === undefined) return;
    clearTimeout(timer);
    typing.delete(el);
    const t = targetOf(el);
    if (!t) return;
    const secret = isSecret(el) || SECRET_NAME.test(t.target.name);
    const text = fieldValue(t.el.contains(el) ? el : t.el);
    if (text === null) return;
    send(secret ? { verb: 'fill', target: t.target, secret: true, hasText: true }
      : { verb: 'fill', target: t.target, text, hasText: true });
  }

  function flushAll() {
    for (const el of [...typing.keys()]) flushTyping(el);
  }

  /** @param {Event} e */
  const trusted = (e) => rec !== '' && e.isTrusted;

  /** @param {Event} e @returns {Element | null} */
  const origin = (e) => {
    const path = e.composedPath();
    return path.length > 0 && path[0] instanceof Element ? path[0] : e.target instanceof Element ? e.target : null;
  };

  addEventListener('pointerdown', (e) => {
    if (!trusted(e) || e.button !== 0) return;
    flushAll();
    pressed = { t: targetOf(origin(e)), x: e.clientX, y: e.clientY };
    dragDone = false;
  }, true);

  addEventListener('pointerup', (e) => {
    if (!trusted(e) || !pressed || !pressed.t) return;
    const far = Math.hypot(e.clientX - pressed.x, e.clientY - pressed.y) > DRAG_PX;
    if (!far) return;
    const to = dropTarget(e, pressed.t.el);
    if (to) {
      send({ verb: 'drag', target: pressed.t.target, to: to.target });
      dragDone = true;
    }
  }, true);

  /** Where a pointer drag of from ended: the first reported element under
   * the release that is neither from nor holds it nor is inside it. The
   * release's own target is not it where the page holds the pointer
   * (setPointerCapture sends the pointerup to the pressed element, as
   * dnd-kit and most sortables do) or the dragged element follows it.
   * @param {PointerEvent} e @param {Element} from */
  function dropTarget(e, from) {
    const under = [origin(e), ...document.elementsFromPoint(e.clientX, e.clientY)];
    const byId = reported();
    for (const el of under) {
      if (!el || from.contains(el)) continue;
      const to = targetOf(el, byId);
      if (to && to.el !== from && !to.el.contains(from) && !from.contains(to.el)) return to;
    }
    return null;
  }

  addEventListener('click', (e) => {
    if (!trusted(e)) return;
    if (dragDone) { dragDone = false; return; }
    const t = e.detail > 0 && pressed && pressed.t ? pressed.t : targetOf(origin(e));
    pressed = null;
    if (!t || ownStep(t.el)) return;
    watchEffect(send({ verb: 'click', target: t.target }));
  }, true);

  addEventListener('dblclick', (e) => {
    if (!trusted(e)) return;
    const t = targetOf(origin(e));
    if (t && !ownStep(t.el)) send({ verb: 'dblclick', target: t.target });
  }, true);

  // A right-click is a step where the page drew its own menu for it (it
  // cancelled the browser's): one that opened the browser's menu (to copy,
  // to inspect) did nothing in the page. Heard as the event leaves the
  // page's own handlers.
  addEventListener('contextmenu', (e) => {
    if (!trusted(e) || !e.defaultPrevented) return;
    const t = targetOf(origin(e));
    if (t) watchEffect(send({ verb: 'rightclick', target: t.target }));
  });

  addEventListener('dragstart', (e) => {
    if (!trusted(e)) return;
    dragged = targetOf(origin(e));
  }, true);

  addEventListener('drop', (e) => {
    if (!trusted(e) || !dragged) return;
    const to = targetOf(origin(e));
    if (to && to.el !== dragged.el) send({ verb: 'drag', target: dragged.target, to: to.target });
    dragged = null;
    pressed = null;
  }, true);

  addEventListener('input', (e) => {
    if (!trusted(e)) return;
    const el = origin(e);
    if (!el || fieldValue(el) === null || el instanceof HTMLInputElement && !K.TEXT_INPUTS.has(inputType(el))) return;
    const timer = typing.get(el);
    if (timer !== undefined) clearTimeout(timer);
    typing.set(el, setTimeout(() => flushTyping(el), TYPING_MS));
  }, true);

  addEventListener('focusout', (e) => {
    if (!trusted(e)) return;
    const el = origin(e);
    if (el) flushTyping(el);
  }, true);

  addEventListener('keydown', (e) => {
    if (!trusted(e) || e.key !== 'Enter' || e.isComposing) return;
    const el = origin(e);
    if (!el || el.localName === 'textarea' || /** @type {HTMLElement} */ (el).isContentEditable) return;
    if (!(el instanceof HTMLInputElement)) return; // Enter on a button clicks it: the click is the step
    flushTyping(el);
    watchEffect(send({ verb: 'press', text: 'Enter', hasText: true }));
  }, true);

  addEventListener('change', (e) => {
    if (!trusted(e)) return;
    const el = origin(e);
    if (!el) return;
    if (el instanceof HTMLSelectElement) {
      const t = targetOf(el);
      const opt = el.selectedOptions[0];
      if (t && opt) send({ verb: 'select', target: t.target, text: (opt.label || opt.text).trim(), hasText: true });
      return;
    }
    if (!(el instanceof HTMLInputElement)) return;
    const type = inputType(el);
    const t = targetOf(el);
    if (!t) return;
    if (type === 'checkbox' || type === 'radio') {
      watchEffect(send({ verb: el.checked ? 'check' : 'uncheck', target: t.target }));
    } else if (type === 'file') {
      // The person's file: the step names none of its paths.
      send({ verb: 'upload', target: t.target, file: true });
    } else {
      flushTyping(el);
    }
  }, true);

  /**
   * Starts listening for the recording rec, or stops ('').
   * @param {{rec?: string}} r
   */
  function listen(r) {
    flushAll();
    rec = typeof r.rec === 'string' ? r.rec : '';
    pressed = null;
    dragged = null;
    return { ok: true };
  }

  Object.assign(K, { listen });
})();
