// @ts-check
// press: one key (with modifiers) to an element or
// to whatever has focus, and the default actions synthetic key events do
// not perform themselves: Tab moves focus, Enter submits or activates,
// characters and Backspace/Delete edit, Space and the arrows scroll.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, quote, activate, hasAttr, idOf, SKIP_WALK, shadowOf, deepActive, isHiddenAttr, isVisible, inputType,
    BUTTON_INPUTS, brief, actionable, done, KEYS, keyInit, keyEvent, inputEvent, focusable, editKind, setValue,
    selectAllIn, insertInto, implicitSubmit, scrollPage, editableText, editableBreak, editableDelete,
    contextKey, editContextInput, focusAsPerson, mouse } = K;

  /** Next/previous tabbable element from the current one. @param {boolean} back */
  function moveFocus(back) {
    /** @type {HTMLElement[]} */
    const pos = [];
    /** @type {HTMLElement[]} */
    const zero = [];
    /** @param {Element} el */
    const visit = (el) => {
      if (isHiddenAttr(el)) return;
      const h = /** @type {HTMLElement} */ (el);
      const sr = shadowOf(el);
      if (focusable(el) && h.tabIndex >= 0 && isVisible(el)) (h.tabIndex > 0 ? pos : zero).push(h);
      if (SKIP_WALK.has(el.localName)) return;
      if (sr) { for (let c = sr.firstElementChild; c; c = c.nextElementSibling) visit(c); }
      if (el.localName === 'slot') {
        const a = /** @type {HTMLSlotElement} */ (el).assignedElements();
        if (a.length) { for (const c of a) visit(c); return; }
      }
      if (!sr) for (let c = el.firstElementChild; c; c = c.nextElementSibling) visit(c);
    };
    if (document.body) visit(document.body);
    pos.sort((a, b) => a.tabIndex - b.tabIndex);
    const order = pos.concat(zero);
    if (!order.length) return null;
    const cur = deepActive();
    let i = cur ? order.indexOf(/** @type {HTMLElement} */ (cur)) : -1;
    if (i < 0) i = back ? order.length : -1;
    const next = order[(i + (back ? -1 : 1) + order.length) % order.length];
    next.focus();
    if (editKind(next) === 'input') { try { /** @type {HTMLInputElement} */ (next).select(); } catch (_) { /* ignore */ } }
    return next;
  }

  /** The key and modifiers come as the host parsed them from the agent's
   * text (host/keys.go): a name of KEYS or one character, and modifiers
   * among Control, Shift, Alt, Meta.
   * @param {Element|null} el @param {{key?: string, modifiers?: string[], trusted?: boolean}} r */
  function doPress(el, r) {
    const keyName = String(r.key || '');
    if (!keyName) return fail('bad_request', 'node', 'press needs a key');
    if (!KEYS[keyName] && [...keyName].length !== 1) return fail('bad_request', 'node', 'unknown key ' + quote(keyName));
    const mods = Array.isArray(r.modifiers) ? r.modifiers : [];
    /** @type {Modifiers} */
    const m = { ctrl: mods.includes('Control'), shift: mods.includes('Shift'), alt: mods.includes('Alt'), meta: mods.includes('Meta') };
    let k = keyInit(keyName);
    if (m.shift && k.key.length === 1 && /[a-z]/.test(k.key)) k = { key: k.key.toUpperCase(), code: k.code, keyCode: k.keyCode };

    /** @type {Element} */
    let target;
    if (el) {
      const check = actionable(el, true);
      if ('error' in check) return check;
      if (focusable(el)) focusAsPerson(el);
      if (r.trusted === true) return { ok: true, id: idOf(el), point: check.point };
      target = el;
    } else {
      if (r.trusted === true) return { ok: true };
      target = deepActive() || document.body || document.documentElement;
    }
    const id = el ? idOf(el) : undefined;
    const kind = editKind(target);
    const plain = !m.ctrl && !m.alt && !m.meta;
    let detail = '';
    if (keyEvent(target, 'keydown', k, m)) {
      const printable = k.key.length === 1;
      let pressOk = true;
      if ((printable && plain) || k.key === 'Enter') pressOk = keyEvent(target, 'keypress', k, m);
      if (pressOk) detail = defaultAction(target, kind, k.key, m, plain);
    }
    keyEvent(target, 'keyup', k, m);
    // Space activates buttons on key up.
    if (k.key === ' ' && plain && activatesOnSpace(target)) activateByKey(target);
    /** @type {any} */
    const reply = { ok: true };
    if (detail) reply.detail = detail;
    if (el && typeof id === 'number') return done(el, id, reply);
    return reply;
  }

  /** A key's activation of t: click() where it has one, else the click
   * event at its centre (an SVG link has no click(), pointer.js).
   * @param {Element} t */
  function activateByKey(t) {
    const b = t.getBoundingClientRect();
    activate(t, { x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 }, 1, false);
  }

  /** @param {Element} t */
  function activatesOnSpace(t) {
    if (t.localName === 'button' || t.localName === 'summary') return true;
    if (t.localName === 'input') {
      const ty = inputType(t);
      return ty === 'checkbox' || ty === 'radio' || BUTTON_INPUTS.has(ty) || ty === 'reset';
    }
    return false;
  }

  /** The default action of a key that synthetic events do not perform.
   * @param {Element} t @param {EditKind} kind @param {string} key
   * @param {Modifiers} m @param {boolean} plain */
  function defaultAction(t, kind, key, m, plain) {
    const doc = document, win = window;
    const text = kind === 'input' || kind === 'textarea';
    if (key === 'Tab' && !m.ctrl && !m.alt && !m.meta) {
      const n = moveFocus(m.shift);
      return n ? 'focus moved to ' + brief(n) : '';
    }
    // The menu key, and Shift+F10: the context menu of the focused
    // element, at its middle, as the browser opens it from the keyboard.
    if ((key === 'ContextMenu' && !m.ctrl && !m.alt && !m.meta) || (key === 'F10' && m.shift && !m.ctrl && !m.alt && !m.meta)) {
      const b = t.getBoundingClientRect();
      const pt = { x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 };
      const opened = !t.dispatchEvent(mouse('contextmenu', pt, 0, 0, 2));
      return opened ? 'opened the context menu of ' + brief(t) : '';
    }
    if ((m.ctrl || m.meta) && !m.alt && key.toLowerCase() === 'a' && kind) {
      selectAllIn(t);
      return 'selected all text';
    }
    if (!plain) return '';
    if (key === 'Enter') {
      if (kind === 'input') return implicitSubmit(t) ? 'submitted the form' : '';
      if (kind === 'textarea') { insertInto(t, '\n', 'insertLineBreak'); return ''; }
      if (kind === 'editable') { editableBreak(t); return ''; }
      if (kind === 'context') { contextKey(t, '\n'); return ''; }
      const ln = t.localName;
      if (ln === 'button' || ln === 'summary' || ((ln === 'a' || ln === 'area') && hasAttr(t, 'href')) ||
        (ln === 'input' && BUTTON_INPUTS.has(inputType(t)))) {
        activateByKey(t);
        return 'activated ' + brief(t);
      }
      return '';
    }
    if (key.length === 1) {
      if (text) { insertInto(t, key, 'insertText'); return ''; }
      if (kind === 'editable') { editableText(t, key); return ''; }
      if (kind === 'context') { contextKey(t, key); return ''; }
      if (key === ' ' && !activatesOnSpace(t)) { scrollPage(m.shift ? -0.8 : 0.8, 0); }
      return '';
    }
    if (key === 'Backspace' || key === 'Delete') {
      if (kind === 'editable') { editableDelete(t, key === 'Delete'); return ''; }
      if (kind === 'context') {
        if (inputEvent(t, 'beforeinput', key === 'Delete' ? 'deleteContentForward' : 'deleteContentBackward', null, true)) {
          editContextInput(t, '', key === 'Delete' ? 'forward' : 'backward');
        }
        return '';
      }
      if (!text) return '';
      const i = /** @type {HTMLInputElement} */ (t);
      const v = i.value;
      let s = v.length, e = v.length;
      try { if (typeof i.selectionStart === 'number' && typeof i.selectionEnd === 'number') { s = i.selectionStart; e = i.selectionEnd; } } catch (_) { /* no selection API */ }
      if (s === e) { if (key === 'Backspace') s = Math.max(0, s - 1); else e = Math.min(v.length, e + 1); }
      if (s === e) return '';
      const it = key === 'Backspace' ? 'deleteContentBackward' : 'deleteContentForward';
      if (!inputEvent(t, 'beforeinput', it, null, true)) return '';
      setValue(t, v.slice(0, s) + v.slice(e));
      try { i.setSelectionRange(s, s); } catch (_) { /* no selection API */ }
      inputEvent(t, 'input', it, null, false);
      return '';
    }
    if (!kind && (t === doc.body || t === doc.documentElement)) {
      switch (key) {
        case 'PageDown': scrollPage(0.8, 0); break;
        case 'PageUp': scrollPage(-0.8, 0); break;
        case 'ArrowDown': win.scrollBy(0, 40); break;
        case 'ArrowUp': win.scrollBy(0, -40); break;
        case 'ArrowRight': win.scrollBy(40, 0); break;
        case 'ArrowLeft': win.scrollBy(-40, 0); break;
        case 'Home': win.scrollTo(win.scrollX, 0); break;
        case 'End': win.scrollTo(win.scrollX, (doc.scrollingElement || doc.documentElement).scrollHeight); break;
      }
    }
    return '';
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ doPress }));
})();
