// @ts-check
// What the app said in answer to an action (docs/effects.md, "What the
// app said"): text that appeared in alerts, flashes and toasts, text that
// changed in status and live regions, and the validation messages of the
// fields the action touched or that a submit found invalid, in every
// snapshot mode. Each document keeps the text it last showed in such places
// (a read, or an action's start, takes it as the baseline); the read after
// an action reports what differs from it, each message stamped with when a
// read first saw it, so the second read of a page that took time to settle
// still reports it and the next action's reply does not. What a status or
// live region shows when it is put on the page, or in a page the action
// loaded, is the page being drawn, not said; nor is what a ticker (a clock)
// changes to.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fold, cut, isVisible, roleOf, nameOf, idOf } = K;

  /** Where apps put what they say: roles and live regions, statuses by
   * their class or id, then the class and id words of flashes and toasts
   * (checked word by word). */
  const ROLE_SELECTOR = '[role="alert"], [role="status"], [role="log"], [aria-live]:not([aria-live="off"]), output';
  const STATUS_SELECTOR = '[class*="status" i], [id*="status" i]';
  const REGION_SELECTOR = ROLE_SELECTOR + ', ' + STATUS_SELECTOR;
  const WORD_SELECTOR = ['flash', 'toast', 'snackbar', 'notice', 'notif', 'alert', 'error', 'success', 'warning', 'messages', 'confirm']
    .map((w) => `[class*="${w}" i], [id*="${w}" i]`).join(', ');
  // A word that begins with one of these (Django's errornote, errorlist
  // and messagelist, Rails' errorExplanation, a toaster, phpLiteAdmin's
  // confirm: "1 row(s) inserted.") names a message.
  const WORDS = /^(flash|toast|snackbar|notice|notif|alert|error|success|warning|callout|confirm)|^messages$|^messagelist$/;
  // A class or id that names a status line: `status`, DokuWiki's
  // `draft__status`, `save-status`, `saveStatus`, `statusbar`,
  // `editor-statusbar`, `status-message`; not a state (`status-open`,
  // `status-1`, a tracker's row).
  const STATUS_NAME = /(^|[-_])status([-_]?(bar|line|text|msg|message))?$/;
  const INVALID_SELECTOR = '[aria-invalid="true"]';
  /** A dialog that comes up holding no field asks something (Syncthing's
   * "Are you sure you want to remove device Laptop?" over its Yes and No):
   * what it says is said, as a screen reader reads a dialog that takes the
   * focus. Bootstrap's `.modal` declares no role. */
  const DIALOG_SELECTOR = '[role="dialog"], [role="alertdialog"], dialog[open], .modal';
  // A control is not a message, and a box that holds fields is a form.
  const CONTROL = /^(input|select|textarea|button|a|option)$/;
  /** The longest text a message may have: past it, the element is a
   * region of the page, not something said. */
  const MAX_REGION = 1000;
  /** What holds a message as part of its own name: a status inside a
   * button (Syncthing's folder heading, `Unshared`, inside the button that
   * opens the folder) is the button's name, whose change the button's own
   * line says; redrawn with it, it is not something said. */
  const IN_CONTROL = 'button, a[href], summary, [role="button"], [role="link"], [role="tab"], [role="menuitem"], [role="option"], [role="treeitem"]';
  /** A status its class or id names is a line: past this, a panel. */
  const MAX_STATUS = 200;
  /** Each message is cut to this many characters, and at most MAX_SAID go
   * in one reply. */
  const MAX_TEXT = 160;
  const MAX_SAID = 6;
  /** A region whose text changed on its own TICKER_TICKS times in the
   * TICKER_MS before an action began (a clock, a counter) is a ticker:
   * what it changes to is not said in answer to the action. */
  const TICKER_TICKS = 3;
  const TICKER_MS = 10000;
  /** A batch of changes past this many records is a page re-rendering,
   * not a ticker ticking: its regions' texts are not compared. */
  const MAX_TICK_RECORDS = 300;
  /** The actions whose field's own validation message counts: those that
   * change a value. */
  const VALUE_ACTIONS = new Set(['fill', 'type', 'select', 'check', 'uncheck', 'upload', 'press']);

  /** born: the text content each status or live region had when it was
   * put on the page (or given its role) after this document's first
   * baseline; ticks: each region's text content and when it changed;
   * first: no baseline has been taken here yet (a document the action
   * loaded, or a frame it did not act in, read for the first time).
   * @typedef {{el: Element, role: string, text: string, at: number}} Heard
   * @typedef {{base: WeakMap<Element, string>, heard: Heard[], invalid: {el: Element, at: number}[],
   *   touched: {el: Element, at: number}[], born: WeakMap<Element, string>,
   *   ticks: WeakMap<Element, {text: string, times: number[]}>, obs: MutationObserver,
   *   watched: WeakSet<Node>, first: boolean}} SaidState */
  /** @type {any} */
  const G = globalThis;

  /** This document's state, made (with its listener for the browser's
   * own validation and its observer of regions) on first use.
   * @returns {SaidState} */
  function state() {
    /** @type {SaidState|undefined} */
    const have = G.__gripSaid__;
    if (have && have.base instanceof WeakMap && Array.isArray(have.heard) && have.born instanceof WeakMap) return have;
    /** @type {SaidState} */
    const s = { base: new WeakMap(), heard: [], invalid: [], touched: [], born: new WeakMap(), ticks: new WeakMap(),
      obs: /** @type {any} */ (null), watched: new WeakSet(), first: true };
    // A submit the browser stops fires `invalid` at each field it refuses.
    document.addEventListener('invalid', (e) => {
      if (e.target instanceof Element) remember(s.invalid, e.target);
    }, { capture: true, passive: true });
    if (have && have.obs) have.obs.disconnect(); // an older kernel's
    s.obs = new MutationObserver((records) => watchRegions(s, records));
    G.__gripSaid__ = s;
    return s;
  }

  /** Watches every root (roots()) not watched yet. @param {SaidState} s */
  function watchRoots(s) {
    for (const root of roots()) {
      if (s.watched.has(root)) continue;
      s.watched.add(root);
      s.obs.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['role', 'aria-live'] });
    }
  }

  /** Whether el is a status or live region: a role or aria-live, or a
   * status its class or id names. @param {Element} el */
  function isRegion(el) {
    return el.matches(ROLE_SELECTOR) || statusNamed(el);
  }

  /** el's class attribute (an SVG element's className is not a string).
   * @param {Element} el */
  function classOf(el) {
    return typeof el.className === 'string' ? el.className : el.getAttribute('class') || '';
  }

  /** Whether el's class or id names a status line (not a cell of a
   * table: data, not the app speaking). @param {Element} el */
  function statusNamed(el) {
    if (el.localName === 'td' || el.localName === 'th') return false;
    return (classOf(el) + ' ' + (el.id || '')).split(/\s+/).some((t) => STATUS_NAME.test(t.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()));
  }

  /** The nearest status or live region el is in, or null. @param {Element|null} el */
  function regionOf(el) {
    for (let e = el && el.closest(REGION_SELECTOR); e; e = e.parentElement && e.parentElement.closest(REGION_SELECTOR)) {
      if (isRegion(e)) return e;
    }
    return null;
  }

  /** Notes the regions put on the page (with the text they came with) and
   * the regions whose text changed, with when.
   * @param {SaidState} s @param {MutationRecord[]} records */
  function watchRegions(s, records) {
    const now = Date.now();
    /** @type {Set<Element>} */
    const touched = new Set();
    for (const r of records) {
      if (r.type === 'childList') {
        for (const n of r.addedNodes) {
          if (n.nodeType !== 1) continue;
          const el = /** @type {Element} */ (n);
          if (isRegion(el)) born(s, el);
          if (el.firstElementChild) for (const x of el.querySelectorAll(REGION_SELECTOR)) if (isRegion(x)) born(s, x);
        }
      } else if (r.type === 'attributes' && isRegion(/** @type {Element} */ (r.target))) {
        born(s, /** @type {Element} */ (r.target));
      }
      if (records.length > MAX_TICK_RECORDS) continue;
      const reg = regionOf(r.target.nodeType === 1 ? /** @type {Element} */ (r.target) : r.target.parentElement);
      if (reg) touched.add(reg);
    }
    for (const reg of touched) {
      const text = fold(reg.textContent || '');
      const t = s.ticks.get(reg);
      if (!t) s.ticks.set(reg, { text, times: [now] });
      else if (t.text !== text) {
        t.text = text;
        t.times.push(now);
        if (t.times.length > TICKER_TICKS + 2) t.times.shift();
      }
    }
  }

  /** A region el came on the page now, showing what it shows. @param {SaidState} s @param {Element} el */
  function born(s, el) {
    if (!s.base.has(el) && !s.born.has(el)) s.born.set(el, fold(el.textContent || ''));
  }

  /** Whether el changed on its own TICKER_TICKS times in the TICKER_MS
   * before since. @param {SaidState} s @param {Element} el @param {number} since */
  function ticker(s, el, since) {
    const t = s.ticks.get(el);
    return !!t && t.times.filter((at) => at < since && at >= since - TICKER_MS).length >= TICKER_TICKS;
  }

  /** Takes the changes not yet delivered to the observer. @param {SaidState} s */
  function catchUp(s) {
    const pending = s.obs.takeRecords();
    if (pending.length) watchRegions(s, pending);
    watchRoots(s);
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
    return (classOf(el) + ' ' + (el.id || '')).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  }

  /** The validation message of a field: what the page ties to it when it
   * marks it invalid; else, when the page marks it invalid by its class or
   * its group's (has-error, is-invalid, ng-invalid), the text the page
   * shows under it in its group; else the browser's own, which the page
   * may never show but which is so. @param {Element} el */
  function validationOf(el) {
    if (el.getAttribute('aria-invalid') === 'true') {
      const ids = (el.getAttribute('aria-errormessage') || el.getAttribute('aria-describedby') || '').trim().split(/\s+/);
      const text = ids.filter(Boolean).map((id) => {
        const d = el.ownerDocument.getElementById(id);
        return d ? fold(/** @type {HTMLElement} */ (d).innerText || d.textContent || '') : '';
      }).filter(Boolean).join(' ');
      if (text) return text;
    }
    const group = markedInvalid(el);
    const shown = group ? helpText(el, group) : '';
    if (shown) return shown;
    const f = /** @type {HTMLInputElement} */ (el);
    if (typeof f.validationMessage === 'string' && f.willValidate && f.validity && !f.validity.valid) return f.validationMessage;
    return el.getAttribute('aria-invalid') === 'true' || group ? 'invalid' : '';
  }

  /** The class words by which pages mark a field invalid, on the field
   * (Bootstrap 4–5's is-invalid, AngularJS's ng-invalid once the field is
   * ng-dirty) or on the group around it (Bootstrap 3's has-error). */
  const INVALID_WORDS = /^(is-invalid|invalid|has-error|error|field-error|input-error)$/;

  /** The group of a field the page marks invalid (the field's own
   * container that holds no other field), or null when it marks it not.
   * @param {Element} el @returns {Element|null} */
  function markedInvalid(el) {
    const own = classOf(el).split(/\s+/);
    const ng = own.includes('ng-invalid') && own.includes('ng-dirty');
    const group = groupOf(el);
    const invalid = (/** @type {string[]} */ cls) => cls.some((w) => INVALID_WORDS.test(w.toLowerCase()));
    let marked = ng || invalid(own);
    for (let e = el.parentElement; !marked && e && group && group.contains(e); e = e.parentElement) {
      marked = invalid(classOf(e).split(/\s+/));
    }
    return marked ? group || el.parentElement : null;
  }

  /** The field's group: its outermost container, at most four up, that
   * holds no other field. @param {Element} el @returns {Element|null} */
  function groupOf(el) {
    let group = null;
    for (let e = el.parentElement, up = 0; e && up < 4 && e !== document.body; e = e.parentElement, up++) {
      const fields = e.querySelectorAll('input:not([type="hidden"]), select, textarea');
      if (fields.length !== 1) break;
      group = e;
    }
    return group;
  }

  /** Whether c, or an element between it and group, matches sel.
   * @param {Element} c @param {Element} group @param {string} sel */
  function inside(c, group, sel) {
    for (let e = /** @type {Element|null} */ (c); e && e !== group; e = e.parentElement) if (e.matches(sel)) return true;
    return false;
  }

  /** The text the page shows in group after the field (a help block, a
   * feedback line), without labels and controls: what it says of the
   * field now. @param {Element} el @param {Element} group */
  function helpText(el, group) {
    /** @type {{el: Element, t: string}[]} */
    const parts = [];
    for (const c of group.querySelectorAll('*')) {
      if (!(el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) || el.contains(c)) continue;
      if (inside(c, group, 'label, button, select, option, datalist, [role="button"]')) continue;
      // A leaf of text, or an element holding text of its own: read once,
      // at the outermost such element after the field.
      if (parts.some((p) => p.el.contains(c))) continue;
      if (!isVisible(c)) continue;
      const t = fold(/** @type {HTMLElement} */ (c).innerText || '');
      if (t) parts.push({ el: c, t });
    }
    return parts.map((p) => p.t).join(' ');
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
    const owns = [...el.querySelectorAll(OWN_CONTROLS)]
      .map((c) => fold(/** @type {HTMLElement} */ (c).innerText || /** @type {HTMLInputElement} */ (c).value || '')).filter(Boolean);
    // Each pass takes one control's words off an end: a dialog ends with
    // its Yes and No, in either order.
    for (let cut = true; cut && text;) {
      cut = false;
      for (const own of owns) {
        if (text === own) return '';
        if (text.startsWith(own + ' ')) text = text.slice(own.length + 1);
        else if (text.endsWith(' ' + own)) text = text.slice(0, -own.length - 1);
        else continue;
        cut = true;
      }
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
   * its role (the one it declares, `live` for an aria-live region,
   * `status` for a status its class or id names, `validation` for a field
   * marked invalid, `flash` for one its class names, `dialog` for a dialog
   * holding no field), its text, and
   * whether it speaks when it appears (an alert, a flash) or only when
   * its text changes (a status or live region).
   * @returns {{el: Element, role: string, text: string, appears: boolean}[]} */
  function messages() {
    /** @type {{el: Element, role: string, text: string, appears: boolean}[]} */
    const out = [];
    /** @type {Element[]} */
    const taken = [];
    for (const root of roots()) {
      const found = root.querySelectorAll(DIALOG_SELECTOR + ', ' + ROLE_SELECTOR + ', ' + WORD_SELECTOR + ', ' + STATUS_SELECTOR + ', ' + INVALID_SELECTOR);
      for (const el of found) {
        if (taken.some((t) => t.contains(el))) continue;
        if (el.matches(INVALID_SELECTOR)) {
          const text = validationOf(el);
          if (text && isVisible(el)) out.push({ el, role: 'validation', text, appears: true });
          continue;
        }
        const dialog = el.matches(DIALOG_SELECTOR);
        const declared = !dialog && el.matches(ROLE_SELECTOR);
        const flash = !dialog && words(el).some((w) => WORDS.test(w));
        const named = !dialog && !declared && !flash && statusNamed(el);
        if (!dialog && !declared && !flash && !named) continue;
        if (CONTROL.test(el.localName) || el.querySelector('input:not([type="hidden"]), select, textarea')) continue;
        if (el.parentElement && el.parentElement.closest(IN_CONTROL)) continue;
        if (!isVisible(el)) continue;
        const text = messageText(el);
        if (!text || text.length > (named ? MAX_STATUS : MAX_REGION)) continue;
        taken.push(el);
        const r = el.getAttribute('role');
        const role = dialog ? 'dialog' : !declared ? (named ? 'status' : 'flash')
          : r === 'alert' || r === 'status' || r === 'log' ? r : el.localName === 'output' ? 'status' : 'live';
        out.push({ el, role, text, appears: role === 'alert' || role === 'dialog' || flash });
      }
    }
    return out;
  }

  /** Takes what the page says now as what the agent has been shown: a
   * read (snapshot.js) and the start of an action call it. */
  function saidBaseline() {
    const s = state();
    catchUp(s);
    for (const m of messages()) s.base.set(m.el, m.text);
    s.first = false;
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

  /** Whether m, new against the baseline, is something said: an alert or
   * a flash that appeared, or text a status or live region changed to
   * while on the page. What a region showed when it came on the page, or
   * at the first read of a document the action loaded, is the page being
   * drawn (screen readers announce a live region's changes, not the text
   * it comes with); a ticker's change is its own. An element that declares
   * role=status and comes on the page after the baseline with its text is
   * a toast (react-hot-toast puts each one on the page so): said.
   * @param {SaidState} s @param {{el: Element, appears: boolean}} m @param {number} since */
  function spoke(s, m, since) {
    if (ticker(s, m.el, since)) return false;
    if (m.appears || s.base.has(m.el)) return true;
    if (!s.first && m.el.getAttribute('role') === 'status') return true;
    const came = s.born.get(m.el);
    if (came !== undefined) return fold(m.el.textContent || '') !== came;
    return !s.first;
  }

  /** What the page said since the action that began at since (wall ms):
   * messages new or changed against the baseline (which they become),
   * then the validation messages of the fields the action touched or a
   * submit refused. A message that grew (a log) says only what it added.
   * @param {number} since @returns {{role: string, text: string, id?: number}[]} */
  function saidSince(since) {
    const s = state();
    catchUp(s);
    const now = Date.now();
    for (const m of messages()) {
      const was = s.base.get(m.el);
      if (was === m.text) continue;
      const said = spoke(s, m, since);
      s.base.set(m.el, m.text);
      if (!said) continue;
      const text = was && m.text.startsWith(was) ? m.text.slice(was.length).trim() : m.text;
      if (!text) continue;
      s.heard = s.heard.filter((h) => h.el !== m.el);
      s.heard.push({ el: m.el, role: m.role, text, at: now });
    }
    s.first = false;
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
