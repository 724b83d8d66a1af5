// @ts-check
// Text entry: type (key by key, at the end) and fill (replace the whole
// value), into inputs, textareas and editors. Values go through the
// prototype's setter plus beforeinput/input events, so framework-controlled
// inputs see the change. Contenteditable editors take their text through
// richtext.js; editors behind a hidden input (editors.js surfaceOf) are
// clicked where their text ends, as a person would, then typed into.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, quote, containsFlat, deepActive, inputType, isSecret, TEXT_INPUTS, visibleText, surfaceOf,
    editorText, endPoint, done, keyInit, keyEvent, NO_MODS, inputEvent, fireChange, clickAt, tick, frame, docShortcut, readyEditable,
    typeEditable, editContextOf, editContextInput, focusAsPerson, attr, hasAttr, textOf } = K;

  /** 'input', 'textarea', 'editable', 'context' (input through an
   * EditContext) or '' (not editable).
   * @param {Element} el @returns {EditKind} */
  function editKind(el) {
    if (el.localName === 'input') return TEXT_INPUTS.has(inputType(el)) ? 'input' : '';
    if (editContextOf(el)) return 'context';
    if (el.localName === 'textarea') return 'textarea';
    if (/** @type {HTMLElement} */ (el).isContentEditable) return 'editable';
    return '';
  }

  // Words with which a page says why a field takes no typing: a lock
  // another user holds first, then any other reason.
  const LOCK_WORDS = /\b(lock|locked|another user|being edited|checked out|in use)\b/i;
  const REASON_WORDS = /\b(read[- ]?only|cannot|can't|can not|not (be )?(edited|changed|modified)|permission|not allowed|view only|archived|closed)\b/i;
  // How far readOnlyWhy looks: ancestors, and earlier siblings at each.
  const WHY_LEVELS = 4;
  const WHY_SIBLINGS = 6;

  /** Whether a read-only input is a picker's: the page fills it from what
   * it opens on a click (a date picker, a combobox), so typing is not how
   * it takes a value. @param {Element} el */
  function pickerField(el) {
    if (el.localName !== 'input') return false;
    if (attr(el, 'role') === 'combobox' || hasAttr(el, 'aria-haspopup') || hasAttr(el, 'aria-expanded') || hasAttr(el, 'list')) return true;
    return /date|time|picker|calendar|colou?r|select|choose/i.test([el.id, attr(el, 'class'), attr(el, 'name'), attr(el, 'placeholder')].join(' '));
  }

  /** What the page says, near a read-only text field, of why it is so:
   * its description, else the nearest text before it (its earlier
   * siblings, then its ancestors'), a lock first ("Currently locked by:
   * alice"), then any reason ("This page is read only"); '' when none.
   * @param {Element} el */
  function readOnlyWhy(el) {
    const described = attr(el, 'aria-describedby');
    if (described) {
      const root = /** @type {Document|ShadowRoot} */ (el.getRootNode());
      const parts = described.trim().split(/\s+/).map((id) => root.getElementById && root.getElementById(id)).filter(Boolean);
      const text = parts.map((p) => textOf(/** @type {Element} */ (p), { checkVis: false })).join(' ').trim();
      if (text) return text;
    }
    /** @type {string[]} */
    const near = [];
    let node = el;
    for (let level = 0; level < WHY_LEVELS && node.parentElement && node !== document.body; level++) {
      let sib = node.previousElementSibling;
      for (let n = 0; sib && n < WHY_SIBLINGS; n++, sib = sib.previousElementSibling) {
        const text = textOf(sib, { checkVis: true });
        if (text) near.push(text);
      }
      node = node.parentElement;
    }
    return near.find((t) => LOCK_WORDS.test(t)) || near.find((t) => REASON_WORDS.test(t)) || '';
  }

  /** The refusal to type into a read-only input or textarea. A picker's
   * field takes its value from what the page opens; a text field the page
   * keeps read-only takes none, and the page often says why near it.
   * @param {Element} el */
  function readOnlyRefusal(el) {
    if (pickerField(el)) {
      return fail('not_actionable', 'actionability', 'element is read-only: it takes its value from a picker the page opens',
        'click it and pick from what the page opens (grip snapshot shows it)');
    }
    const why = readOnlyWhy(el);
    return fail('not_actionable', 'actionability', 'element is a read-only text field: typing into it will not work' + (why ? '; the page says ' + quote(why) : ''),
      'do what the page asks first (wait for a lock to end, sign in, get permission), then take a new snapshot; or leave the field');
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

  /** type (replace false) or fill (replace true) el with text: key by key
   * at the end, or the whole text instead of what is there. Editors (a
   * contenteditable region, or a hidden input behind an editor's lines)
   * answer a Promise: they take input a task at a time.
   * @param {Element} el @param {number} id @param {string} text @param {boolean} replace */
  function typeInto(el, id, text, replace) {
    text = text.replace(/\r\n?/g, '\n');
    const kind = editKind(el);
    const surface = kind === 'editable' ? null : surfaceOf(el);
    const before = kind === 'editable' || surface ? editorText(el) : '';
    if (kind === 'editable') return typed(el, id, text, replace, before, typeEditable(el, text, replace));
    if (surface) return typed(el, id, text, replace, before, typeHidden(el, surface, text, replace));
    focusAsPerson(el);
    const secret = isSecret(el);
    const i = /** @type {HTMLInputElement} */ (el);
    const old = i.value;
    if (replace) {
      if (i.value !== '') {
        try { i.select(); } catch (_) { /* no selection API */ }
        if (inputEvent(el, 'beforeinput', 'deleteContentBackward', null, true)) {
          setValue(el, '');
          inputEvent(el, 'input', 'deleteContentBackward', null, false);
        }
      }
      if (text) pasteInto(el, text);
    } else {
      caretToEnd(el);
      for (const ch of text) typeKey(el, kind, ch);
    }
    fireChange(el);
    const got = i.value;
    const want = replace ? text : null;
    /** @type {any} */
    const reply = { ok: true };
    if (!secret) {
      // Where the caret is, which typing leaves after what it typed (an
      // email or number field has no selection: the end).
      const caret = typeof i.selectionEnd === 'number' ? i.selectionEnd : got.length;
      reply.detail = want !== null && got !== want ? 'the page changed the value to ' + excerpt(got, firstDifference(got, want), DIFF_LEAD)
        : 'value is now ' + (replace ? excerpt(got, changeAt(got, old), DIFF_LEAD) : excerpt(got, caret, CARET_LEAD));
    } else if (want !== null && got !== want) {
      reply.detail = 'the page did not keep the typed secret as is';
    } else if (!replace && old !== '') {
      // A secret's value is never shown, so an agent cannot see that the
      // page put text back in it (DokuWiki refills the password after a
      // failed sign-in): typing went after that text.
      reply.detail = 'typed after the text the field already held (a secret, not shown): fill it (replace) to type in its place';
    }
    // A workflow being recorded keeps a secret field's text only as a
    // placeholder (host/recorder.go).
    if (secret) reply.secret = true;
    return done(el, id, reply);
  }

  // The keys of a paste: Control, then V with it held.
  const CTRL = { ctrl: true, shift: false, alt: false, meta: false };
  const KEY_CONTROL = { key: 'Control', code: 'ControlLeft', keyCode: 17 };
  const KEY_V = { key: 'v', code: 'KeyV', keyCode: 86 };

  /** A fill's text put in as a person's paste puts it: Control+V's keys,
   * the paste event with the text on its clipboard, then the insertion
   * (insertFromPaste) unless the page took the paste itself, so a form
   * that validates only on keyup or paste sees its field filled
   * (docs/acting.md, "Acting on a ref"). A page that cancels the
   * key gets the text typed in as before.
   * @param {Element} el @param {string} text */
  function pasteInto(el, text) {
    keyEvent(el, 'keydown', KEY_CONTROL, CTRL);
    if (keyEvent(el, 'keydown', KEY_V, CTRL)) {
      const dt = new DataTransfer();
      dt.setData('text/plain', text);
      const ev = new ClipboardEvent('paste', { bubbles: true, cancelable: true, composed: true, clipboardData: dt });
      if (el.dispatchEvent(ev)) insertInto(el, text, 'insertFromPaste');
    } else {
      insertInto(el, text, 'insertText');
    }
    keyEvent(el, 'keyup', KEY_V, CTRL);
    keyEvent(el, 'keyup', KEY_CONTROL, NO_MODS);
  }

  /** One character typed into an input or textarea: its keys, and the
   * insertion unless the page took the key; Enter in a text field submits
   * its form.
   * @param {Element} el @param {EditKind} kind @param {string} ch */
  function typeKey(el, kind, ch) {
    const k = keyInit(ch === '\n' ? 'Enter' : ch === '\t' ? 'Tab' : ch);
    if (keyEvent(el, 'keydown', k, NO_MODS) && (k.key === 'Tab' || keyEvent(el, 'keypress', k, NO_MODS))) {
      if (ch === '\n' && kind === 'input') implicitSubmit(el);
      else if (editContextOf(el)) contextKey(el, ch);
      else insertInto(el, ch, ch === '\n' ? 'insertLineBreak' : 'insertText');
    }
    keyEvent(el, 'keyup', k, NO_MODS);
  }

  /** What the browser does with a key's character at an element that
   * takes input through an EditContext: Enter is only a beforeinput
   * (insertParagraph), which the editor acts on; other text goes to the
   * EditContext unless its beforeinput is cancelled.
   * @param {Element} el @param {string} ch */
  function contextKey(el, ch) {
    if (ch === '\n') inputEvent(el, 'beforeinput', 'insertParagraph', null, true);
    else if (inputEvent(el, 'beforeinput', 'insertText', ch, true)) editContextInput(el, ch);
  }

  /** The reply once an editor took the text: what it shows once it drew
   * it (a fill whose text the editor changed says so). before is what it
   * showed before the typing.
   * @param {Element} el @param {number} id @param {string} text @param {boolean} replace @param {string} before
   * @param {Promise<void>} work */
  async function typed(el, id, text, replace, before, work) {
    try {
      await work;
    } catch (e) {
      return fail('internal', 'document', 'typing into the editor failed: ' + String((/** @type {any} */ (e) && /** @type {any} */ (e).message) || e));
    }
    const now = await shownText(el, before, replace ? visibleText(text) : null);
    const changed = replace && now !== visibleText(text);
    // Typing goes at the end of the editor's text.
    const detail = changed ? 'the editor changed the text to ' + excerpt(now, firstDifference(now, visibleText(text)), DIFF_LEAD)
      : 'text is now ' + (replace ? excerpt(now, changeAt(now, before), DIFF_LEAD) : excerpt(now, now.length, CARET_LEAD));
    return done(el, id, { ok: true, detail });
  }

  // What a reply shows of a long value (docs/acting.md, "Acting on a
  // ref"): at most SHOW_MAX characters, from about CARET_LEAD before the
  // caret (where typing left it: what the agent just typed, at the end of
  // a long textarea) or DIFF_LEAD before the first character a page
  // changed, each cut side marked with …, and the value's whole length.
  const SHOW_MAX = 80;
  const CARET_LEAD = SHOW_MAX - 12;
  const DIFF_LEAD = 20;

  /** The value quoted for a reply, whole when it is short, else the part
   * around at, which begins lead characters before it where it can.
   * @param {string} text @param {number} at @param {number} lead @returns {string} */
  function excerpt(text, at, lead) {
    if (text.length <= SHOW_MAX) return escaped(quote(text));
    const room = SHOW_MAX - 2; // the marks
    let start = Math.max(0, Math.min(at - lead, text.length - room));
    let end = Math.min(text.length, start + room);
    // Never half a surrogate pair at either side.
    if (start > 0 && isLow(text.charCodeAt(start))) start++;
    if (end < text.length && isLow(text.charCodeAt(end))) end--;
    const part = (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
    return escaped(quote(part)) + ' (' + text.length + ' characters)';
  }

  /** Where a fill's reply shows the value from: its start, unless the
   * fill changed it only past what the start shows (a word in the middle
   * of a long text), then around the first character it changed, so the
   * reply shows the change took.
   * @param {string} now @param {string} was */
  function changeAt(now, was) {
    const at = firstDifference(now, was);
    return now.length > SHOW_MAX && now !== was && at > SHOW_MAX - 2 - DIFF_LEAD ? at : 0;
  }

  // Whitespace, controls and direction marks a value's line writes as
  // escapes (frames/line.go appendEscaped), a space kept as it is.
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  const ESCAPE_RE = /[\u0000-\u001f\u007f-\u00a0\u061c\u1680\u2000-\u200a\u200e\u200f\u2028-\u202f\u205f\u2066-\u2069\u3000]/g;
  /** @type {Record<string, string>} */
  const ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

  /** A quoted value written as a value's line writes it: every space kept,
   * line breaks, tabs and returns as \n, \r, \t, other whitespace,
   * controls and direction marks as \uXXXX, so a reply's line stays one
   * line and says the value exactly. @param {string} q */
  function escaped(q) {
    return q.replace(ESCAPE_RE, (c) => ESCAPES[c] || '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  }

  /** @param {number} c */
  function isLow(c) {
    return c >= 0xdc00 && c <= 0xdfff;
  }

  /** The first index at which a and b differ (the shorter's length when
   * one starts the other).
   * @param {string} a @param {string} b */
  function firstDifference(a, b) {
    const n = Math.min(a.length, b.length);
    let i = 0;
    while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    return i;
  }

  // How long an editor gets to show the input it took: many draw it on a
  // later animation frame (Ace, Monaco, Lexical), and a reply must say
  // what the editor holds, not what it showed before.
  const SHOW_MS = 500;

  /** The text an editor shows once it has drawn the input it took: for a
   * fill, when it shows want; for typing (want null), when it shows other
   * text than before; either way once it stays so for a frame, or what it
   * shows after SHOW_MS.
   * @param {Element} el @param {string} before @param {string|null} want @returns {Promise<string>} */
  async function shownText(el, before, want) {
    const t0 = Date.now();
    let now = editorText(el);
    for (;;) {
      if (want !== null ? now === want : now !== before) {
        await frame();
        const again = editorText(el);
        if (again === now) return now;
        now = again;
        continue;
      }
      if (Date.now() - t0 > SHOW_MS) return now;
      await frame();
      now = editorText(el);
    }
  }

  /** A person clicks where the editor's text ends, which focuses its
   * hidden input and puts the editor's caret there, then presses the
   * shortcut for the end of the document (or, for a fill, select all).
   * @param {Element} el @param {Element} surface @param {boolean} all */
  async function readyHidden(el, surface, all) {
    const pt = endPoint(surface, el);
    const hit = document.elementFromPoint(pt.x, pt.y);
    clickAt(hit && containsFlat(surface, hit) ? hit : surface, pt, 1);
    // Editors focus their input a moment after the press (a hidden page
    // runs its timers once a second: there, a task at a time).
    const hidden = document.visibilityState === 'hidden';
    for (let i = 0; i < 10 && deepActive() !== el; i++) await (hidden ? tick() : new Promise((r) => setTimeout(r, 10)));
    focusAsPerson(el, { preventScroll: true });
    // The editor draws only the lines in view: its own shortcut takes the
    // caret to the end of the document, or selects all of it.
    docShortcut(el, all);
    await tick();
  }

  /** type or fill through an editor's hidden input: key by key, or (fill)
   * the text pasted over everything, as the editor takes a paste.
   * @param {Element} el @param {Element} surface @param {string} text @param {boolean} replace */
  async function typeHidden(el, surface, text, replace) {
    await readyHidden(el, surface, replace);
    const context = !!editContextOf(el);
    if (replace) {
      if (!text) {
        const k = keyInit('Backspace');
        if (keyEvent(el, 'keydown', k, NO_MODS) && inputEvent(el, 'beforeinput', 'deleteContentBackward', null, true)) {
          if (context) {
            editContextInput(el, '', 'backward');
          } else {
            setValue(el, '');
            inputEvent(el, 'input', 'deleteContentBackward', null, false);
          }
        }
        keyEvent(el, 'keyup', k, NO_MODS);
      } else if (!paste(el, text)) {
        if (context) editContextInput(el, text);
        else insertInto(el, text, 'insertFromPaste');
      }
      await frame();
      return;
    }
    const kind = editKind(el);
    for (const ch of text) {
      typeKey(el, kind, ch);
      // A line break redraws the lines: the next key waits for the frame.
      await (ch === '\n' ? frame() : tick());
    }
    // What the reply reads is what the editor drew.
    await frame();
  }

  /** Dispatches a paste of text at el; true when the page took it.
   * @param {Element} el @param {string} text */
  function paste(el, text) {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    return !el.dispatchEvent(new ClipboardEvent('paste', { bubbles: true, cancelable: true, composed: true, clipboardData: data }));
  }

  /** Before trusted typing (the host sends the keys): focus, and the caret
   * at the end or everything selected, as typeInto would have them.
   * @param {Element} el @param {boolean} all @returns {Promise<void>} */
  async function readyToType(el, all) {
    if (editKind(el) === 'editable') return readyEditable(el, all);
    const surface = surfaceOf(el);
    if (surface) return readyHidden(el, surface, all);
    focusAsPerson(el);
    if (all) selectAllIn(el); else caretToEnd(el);
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
    editKind, setValue, selectAllIn, caretToEnd, insertInto, typeInto, shownText, readyToType, implicitSubmit, contextKey, readOnlyRefusal,
  }));
})();
