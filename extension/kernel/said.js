// @ts-check
// What the app said in answer to an action (docs/effects.md, "What the
// app said"): text that appeared or changed in alerts, status and live
// regions, flashes and toasts, and the validation messages of the fields
// the action touched or that a submit found invalid, in every snapshot
// mode. Each document keeps the text it last showed in such places (a read,
// or an action's start, takes it as the baseline); the read after an
// action reports what differs from it, each message stamped with when a
// read first saw it, so the second read of a page that took time to settle
// still reports it and the next action's reply does not.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fold, cut, isVisible, roleOf, nameOf, idOf } = K;

  /** Where apps put what they say: roles and live regions, then the
   * class and id words of flashes and toasts (checked word by word). */
  const ROLE_SELECTOR = '[role="alert"], [role="status"], [role="log"], [aria-live]:not([aria-live="off"]), output';
  const WORD_SELECTOR = ['flash', 'toast', 'snackbar', 'notice', 'notif', 'alert', 'error', 'success', 'warning', 'messages']
    .map((w) => `[class*="${w}" i], [id*="${w}" i]`).join(', ');
  // A word that begins with one of these (Django's errornote, errorlist
  // and messagelist, Rails' errorExplanation, a toaster) names a message.
  const WORDS = /^(flash|toast|snackbar|notice|notif|alert|error|success|warning|callout)|^messages$|^messagelist$/;
  const INVALID_SELECTOR = '[aria-invalid="true"]';
  // A control is not a message, and a box that holds fields is a form.
  const CONTROL = /^(input|select|textarea|button|a|option)$/;
  /** The longest text a message may have: past it, the element is a
   * region of the page, not something said. */
  const MAX_REGION = 1000;
  /** Each message is cut to this many characters, and at most MAX_SAID go
   * in one reply. */
  const MAX_TEXT = 160;
  const MAX_SAID = 6;
  /** The actions whose field's own validation message counts: those that
   * change a value. */
  const VALUE_ACTIONS = new Set(['fill', 'type', 'select', 'check', 'uncheck', 'upload', 'press']);

  /** @typedef {{el: Element, role: string, text: string, at: number}} Heard
   * @typedef {{base: WeakMap<Element, string>, heard: Heard[], invalid: {el: Element, at: number}[],
   *   touched: {el: Element, at: number}[]}} SaidState */
  /** @type {any} */
  const G = globalThis;

  /** This document's state, made (with its listener for the browser's
   * own validation) on first use. @returns {SaidState} */
  function state() {
    /** @type {SaidState|undefined} */
    const have = G.__gripSaid__;
    if (have && have.base instanceof WeakMap && Array.isArray(have.heard)) return have;
    /** @type {SaidState} */
    const s = { base: new WeakMap(), heard: [], invalid: [], touched: [] };
    // A submit the browser stops fires `invalid` at each field it refuses.
    document.addEventListener('invalid', (e) => {
      if (e.target instanceof Element) remember(s.invalid, e.target);
    }, { capture: true, passive: true });
    G.__gripSaid__ = s;
    return s;
  }

  /** @param {{el: Element, at: number}[]} list @param {Element} el */
  function remember(list, el) {
    const now = Date.now();
    for (const x of list) if (x.el === el) { x.at = now; return; }
    list.push({ el, at: now });
    if (list.length > 50) list.shift();
  }

  /** The words of el's class and id, lower-cased, camelCase split too.
   * @param {Element} el */
  function words(el) {
    const cls = typeof el.className === 'string' ? el.className : el.getAttribute('class') || '';
    return (cls + ' ' + (el.id || '')).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  }

  /** The validation message of a field: what the page ties to it when it
   * marks it invalid, else the browser's own. @param {Element} el */
  function validationOf(el) {
    if (el.getAttribute('aria-invalid') === 'true') {
      const ids = (el.getAttribute('aria-errormessage') || el.getAttribute('aria-describedby') || '').trim().split(/\s+/);
      const text = ids.filter(Boolean).map((id) => {
        const d = el.ownerDocument.getElementById(id);
        return d ? fold(/** @type {HTMLElement} */ (d).innerText || d.textContent || '') : '';
      }).filter(Boolean).join(' ');
      if (text) return text;
    }
    const f = /** @type {HTMLInputElement} */ (el);
    if (typeof f.validationMessage === 'string' && f.willValidate && f.validity && !f.validity.valid) return f.validationMessage;
    return el.getAttribute('aria-invalid') === 'true' ? 'invalid' : '';
  }

  /** Controls a message may carry that are not what it says: a notice's
   * close link (Trac's `<a href="#">close</a>`), a toast's × or Undo. */
  const OWN_CONTROLS = 'button, [role="button"], input[type="button"], input[type="submit"], a[href="#"], a[href^="javascript:"], a:not([href])';

  /** el's text without the words of the controls it leads or ends with:
   * "close Your changes have been saved" says "Your changes have been
   * saved". A link inside the sentence ("saved in version 2 (diff)")
   * stays. @param {Element} el */
  function messageText(el) {
    let text = fold(/** @type {HTMLElement} */ (el).innerText || '');
    for (const c of el.querySelectorAll(OWN_CONTROLS)) {
      const own = fold(/** @type {HTMLElement} */ (c).innerText || /** @type {HTMLInputElement} */ (c).value || '');
      if (!own) continue;
      if (text === own) return '';
      if (text.startsWith(own + ' ')) text = text.slice(own.length + 1);
      else if (text.endsWith(' ' + own)) text = text.slice(0, -own.length - 1);
    }
    return text;
  }

  /** The roots to look in: the document and the open shadow roots the
   * change tracker found (settle.js). */
  function roots() {
    /** @type {(Document|ShadowRoot)[]} */
    const out = [document];
    const t = G.__gripChanges__;
    if (t && Array.isArray(t.list)) for (const r of t.list) if (r !== document && r.isConnected) out.push(r);
    return out;
  }

  /** What the page says now, in page order: each message element with
   * its role (the one it declares, `validation` for a field marked
   * invalid, `flash` for one its class names) and its text.
   * @returns {{el: Element, role: string, text: string}[]} */
  function messages() {
    /** @type {{el: Element, role: string, text: string}[]} */
    const out = [];
    /** @type {Element[]} */
    const taken = [];
    for (const root of roots()) {
      const found = root.querySelectorAll(ROLE_SELECTOR + ', ' + WORD_SELECTOR + ', ' + INVALID_SELECTOR);
      for (const el of found) {
        if (taken.some((t) => t.contains(el))) continue;
        if (el.matches(INVALID_SELECTOR)) {
          const text = validationOf(el);
          if (text && isVisible(el)) out.push({ el, role: 'validation', text });
          continue;
        }
        const declared = el.matches(ROLE_SELECTOR);
        if (!declared && !words(el).some((w) => WORDS.test(w))) continue;
        if (CONTROL.test(el.localName) || el.querySelector('input:not([type="hidden"]), select, textarea')) continue;
        if (!isVisible(el)) continue;
        const text = messageText(el);
        if (!text || text.length > MAX_REGION) continue;
        taken.push(el);
        const role = declared ? (el.getAttribute('role') || (el.localName === 'output' ? 'status' : 'live')) : 'flash';
        out.push({ el, role, text });
      }
    }
    return out;
  }

  /** Takes what the page says now as what the agent has been shown: a
   * read (snapshot.js) and the start of an action call it. */
  function saidBaseline() {
    const s = state();
    for (const m of messages()) s.base.set(m.el, m.text);
  }

  /** An action begins on el (or on none): what the page says now is the
   * baseline, and el's validation message counts in the reply.
   * @param {Element|null} el @param {string} action */
  function saidMark(el, action) {
    const s = state();
    saidBaseline();
    if (el && VALUE_ACTIONS.has(action)) remember(s.touched, el);
    else if (!el && action === 'press' && document.activeElement) remember(s.touched, document.activeElement);
  }

  /** What the page said since the action that began at since (wall ms):
   * messages new or changed against the baseline (which they become),
   * then the validation messages of the fields the action touched or a
   * submit refused. A message that grew (a log) says only what it added.
   * @param {number} since @returns {{role: string, text: string, id?: number}[]} */
  function saidSince(since) {
    const s = state();
    const now = Date.now();
    for (const m of messages()) {
      const was = s.base.get(m.el);
      if (was === m.text) continue;
      s.base.set(m.el, m.text);
      const text = was && m.text.startsWith(was) ? m.text.slice(was.length).trim() : m.text;
      if (!text) continue;
      s.heard = s.heard.filter((h) => h.el !== m.el);
      s.heard.push({ el: m.el, role: m.role, text, at: now });
    }
    s.heard = s.heard.filter((h) => h.el.isConnected && now - h.at < 60000);
    /** @type {{role: string, text: string, id?: number}[]} */
    const out = [];
    /** @type {Set<string>} */
    const said = new Set();
    /** @param {string} role @param {string} text @param {Element} [field] */
    const add = (role, text, field) => {
      const t = cut(fold(text), MAX_TEXT);
      if (!t || said.has(t) || out.length >= MAX_SAID) return;
      said.add(t);
      /** @type {{role: string, text: string, id?: number}} */
      const e = { role, text: t.length < fold(text).length ? t + '…' : t };
      const id = field ? idOf(field) : undefined;
      if (typeof id === 'number') e.id = id;
      out.push(e);
    };
    for (const h of s.heard) {
      if (h.at >= since && isVisible(h.el)) {
        add(h.role, h.text, h.role === 'validation' ? h.el : undefined);
      }
    }
    for (const list of [s.invalid, s.touched]) {
      for (const x of list) {
        if (x.at < since || !x.el.isConnected) continue;
        const text = validationOf(x.el);
        if (text && text !== 'invalid') add('validation', text, x.el);
        else if (text) add('validation', (nameOf(x.el, roleOf(x.el)) || 'the field') + ' is invalid', x.el);
      }
    }
    return out;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ saidBaseline, saidMark, saidSince }));
})();
