// @ts-check
// Text entry: type (key by key, at the caret) and fill (replace the whole
// value), into inputs, textareas and contenteditable regions. Values go
// through the prototype's setter plus beforeinput/input events, so
// framework-controlled inputs see the change.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fold, cut, quote, deepActive, inputType, isSecret, TEXT_INPUTS, keyInit, keyEvent, NO_MODS, inputEvent,
    fireChange, done } = K;

  /** 'input', 'textarea', 'editable' or '' (not editable).
   * @param {Element} el @returns {EditKind} */
  function editKind(el) {
    if (el.localName === 'input') return TEXT_INPUTS.has(inputType(el)) ? 'input' : '';
    if (el.localName === 'textarea') return 'textarea';
    if (/** @type {HTMLElement} */ (el).isContentEditable) return 'editable';
    return '';
  }

  /** Set a value through the prototype setter, so framework-controlled
   * inputs see the change on the next input event.
   * @param {Element} el @param {string} v */
  function setValue(el, v) {
    const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype
      : el.localName === 'select' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    const d = Object.getOwnPropertyDescriptor(proto, 'value');
    if (d && d.set) d.set.call(el, v);
    else /** @type {HTMLInputElement} */ (el).value = v;
  }

  /** @param {Element} el */
  function selectAllIn(el) {
    const k = editKind(el);
    if (k === 'input' || k === 'textarea') {
      try { /** @type {HTMLInputElement} */ (el).select(); } catch (_) { /* not selectable */ }
    } else if (k === 'editable') {
      const sel = document.getSelection();
      if (sel) {
        const range = document.createRange();
        range.selectNodeContents(el);
        sel.removeAllRanges();
        sel.addRange(range);
      }
    }
  }

  /** @param {Element} el */
  function caretToEnd(el) {
    const k = editKind(el);
    if (k === 'input' || k === 'textarea') {
      const i = /** @type {HTMLInputElement} */ (el);
      try { i.setSelectionRange(i.value.length, i.value.length); } catch (_) { /* email, number… */ }
    } else if (k === 'editable') {
      const sel = document.getSelection();
      if (sel) {
        const range = document.createRange();
        range.selectNodeContents(el);
        range.collapse(false);
        sel.removeAllRanges();
        sel.addRange(range);
      }
    }
  }

  /** Insert text at the caret of an input/textarea (replacing the selection),
   * through the setter, with beforeinput/input. Returns false when refused.
   * @param {Element} el @param {string} text @param {string} how the InputEvent's inputType */
  function insertInto(el, text, how) {
    const i = /** @type {HTMLInputElement} */ (el);
    if (!inputEvent(el, 'beforeinput', how, text, true)) return false;
    const v = i.value;
    let start = v.length, end = v.length;
    try {
      if (typeof i.selectionStart === 'number' && typeof i.selectionEnd === 'number' && document.activeElement === el) {
        start = i.selectionStart; end = i.selectionEnd;
      }
    } catch (_) { /* no selection API for this type */ }
    const max = i.maxLength;
    if (typeof max === 'number' && max >= 0 && v.length - (end - start) + text.length > max) {
      text = text.slice(0, Math.max(0, max - (v.length - (end - start))));
      if (!text) return false;
    }
    setValue(el, v.slice(0, start) + text + v.slice(end));
    try { i.setSelectionRange(start + text.length, start + text.length); } catch (_) { /* type without selection */ }
    inputEvent(el, 'input', how, text, false);
    return true;
  }

  /** type (replace false) or fill (replace true) el with text.
   * @param {Element} el @param {number} id @param {string} text @param {boolean} replace */
  function typeInto(el, id, text, replace) {
    const doc = document;
    const kind = editKind(el);
    const h = /** @type {HTMLElement} */ (el);
    if (deepActive() !== el) h.focus();
    const secret = isSecret(el);
    if (kind === 'editable') {
      if (replace) selectAllIn(el); else caretToEnd(el);
      if (replace) {
        if (!text) {
          if (!doc.execCommand('delete', false)) el.textContent = '';
        } else if (!doc.execCommand('insertText', false, text)) {
          el.textContent = text;
          inputEvent(el, 'input', 'insertText', text, false);
        }
      } else {
        for (const ch of text) {
          const k = keyInit(ch);
          if (keyEvent(el, 'keydown', k, NO_MODS)) {
            keyEvent(el, 'keypress', k, NO_MODS);
            if (!doc.execCommand('insertText', false, ch)) {
              el.appendChild(doc.createTextNode(ch));
              inputEvent(el, 'input', 'insertText', ch, false);
            }
          }
          keyEvent(el, 'keyup', k, NO_MODS);
        }
      }
      const now = fold(el.textContent || '');
      return done(el, id, { ok: true, detail: 'text is now ' + quote(cut(now, 80)) });
    }
    const i = /** @type {HTMLInputElement} */ (el);
    if (replace) {
      if (i.value !== '') {
        try { i.select(); } catch (_) { /* no selection API */ }
        if (inputEvent(el, 'beforeinput', 'deleteContentBackward', null, true)) {
          setValue(el, '');
          inputEvent(el, 'input', 'deleteContentBackward', null, false);
        }
      }
      if (text) insertInto(el, text, 'insertText');
    } else {
      caretToEnd(el);
      for (const ch of text) {
        const k = keyInit(ch);
        if (keyEvent(el, 'keydown', k, NO_MODS)) {
          if (keyEvent(el, 'keypress', k, NO_MODS)) {
            if (ch === '\n' && kind === 'input') implicitSubmit(el);
            else insertInto(el, ch, ch === '\n' ? 'insertLineBreak' : 'insertText');
          }
        }
        keyEvent(el, 'keyup', k, NO_MODS);
      }
    }
    fireChange(el);
    const got = i.value;
    const want = replace ? text : null;
    /** @type {any} */
    const reply = { ok: true };
    if (!secret) {
      reply.detail = want !== null && got !== want ? 'the page changed the value to ' + quote(cut(got, 80))
        : 'value is now ' + quote(cut(got, 80));
    } else if (want !== null && got !== want) {
      reply.detail = 'the page did not keep the typed secret as is';
    }
    return done(el, id, reply);
  }

  /** Submits el's form the way Enter in a text field does: through its
   * default button, or directly when it has a single text field. False when
   * implicit submission does not apply or is blocked.
   * @param {Element} el */
  function implicitSubmit(el) {
    const form = /** @type {HTMLInputElement} */ (el).form;
    if (!form) return false;
    /** @type {HTMLElement|null} */
    let submitter = null;
    let fields = 0;
    for (const c of Array.from(form.elements)) {
      const t = c.localName === 'input' ? inputType(c) : '';
      if (!submitter && ((c.localName === 'button' && /** @type {HTMLButtonElement} */ (c).type === 'submit') ||
        (c.localName === 'input' && (t === 'submit' || t === 'image')))) submitter = /** @type {HTMLElement} */ (c);
      if (c.localName === 'input' && (TEXT_INPUTS.has(t))) fields++;
    }
    if (submitter) {
      if (submitter.matches(':disabled')) return false;
      form.requestSubmit(submitter);
      return true;
    }
    if (fields === 1) { form.requestSubmit(); return true; }
    return false;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    editKind, setValue, selectAllIn, caretToEnd, insertInto, typeInto, implicitSubmit,
  }));
})();
