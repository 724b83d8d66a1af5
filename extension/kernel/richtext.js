// @ts-check
// Text into contenteditable editors, so that the editor's own model
// changes, not only the DOM. Each piece of input goes the way a keyboard
// sends it: a cancelable beforeinput (insertText, insertParagraph,
// deleteContentBackward) at the editing host, carrying the selection as its
// target range. Editors that keep a model take it there (CKEditor 5 cancels
// it, or queues it until the DOM changes); unless cancelled,
// document.execCommand then does what the browser itself would, with the
// input events and DOM changes that editors reading the DOM observe
// (ProseMirror, CodeMirror 6, TinyMCE). Between keys the page's event loop
// runs, as it does between a person's keystrokes, and after a line break
// the page draws a frame before the next key, as it would before a person's
// (editors that split a line at once redraw it in the frame).
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { deepActive, keyInit, keyEvent, NO_MODS, endOf, focusAsPerson } = K;

  // What a selection's text and an element's text content may differ in.
  const NOT_TEXT = /[\s\u200b\u2060\ufeff]+/g;
  // The longest a visible page may take to draw a frame before input goes on
  // without it.
  const FRAME_MAX_MS = 50;

  /** Resolves a task later: what the page queued meanwhile (mutation
   * observers, selectionchange, its own zero-delay timers) has run.
   * @returns {Promise<void>} */
  function tick() {
    return new Promise((resolve) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
      ch.port2.postMessage(0);
    });
  }

  /** The document's selection as static ranges, a beforeinput's target. */
  function targetRanges() {
    const sel = document.getSelection();
    if (!sel || !sel.rangeCount) return [];
    const r = sel.getRangeAt(0);
    return [new StaticRange({ startContainer: r.startContainer, startOffset: r.startOffset, endContainer: r.endContainer, endOffset: r.endOffset })];
  }

  /** Dispatches beforeinput at the editing host; true when the page let the
   * browser go on with it.
   * @param {Element} el @param {string} inputType @param {string|null} data */
  function beforeInput(el, inputType, data) {
    return el.dispatchEvent(new InputEvent('beforeinput', {
      bubbles: true, cancelable: true, composed: true, inputType, data, targetRanges: targetRanges(),
    }));
  }

  /** What the browser does when execCommand cannot: the text replaces the
   * selection, and an input event says so.
   * @param {Element} el @param {string} text */
  function insertAtSelection(el, text) {
    const sel = document.getSelection();
    const range = sel && sel.rangeCount && el.contains(sel.getRangeAt(0).startContainer) ? sel.getRangeAt(0) : null;
    const node = document.createTextNode(text);
    if (range) {
      range.deleteContents();
      range.insertNode(node);
    } else {
      el.appendChild(node);
    }
    const after = document.createRange();
    after.setStartAfter(node);
    if (sel) { sel.removeAllRanges(); sel.addRange(after); }
    el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: text }));
  }

  /** Inserts text at the selection of the editing host el.
   * @param {Element} el @param {string} text */
  function editableText(el, text) {
    if (!beforeInput(el, 'insertText', text)) return;
    if (!document.execCommand('insertText', false, text)) insertAtSelection(el, text);
  }

  /** Splits the block at the selection, as Enter does.
   * @param {Element} el */
  function editableBreak(el) {
    if (!beforeInput(el, 'insertParagraph', null)) return;
    if (!document.execCommand('insertParagraph', false)) insertAtSelection(el, '\n');
  }

  /** Deletes the selection, or the character before the caret.
   * @param {Element} el @param {boolean} forward */
  function editableDelete(el, forward) {
    if (!beforeInput(el, forward ? 'deleteContentForward' : 'deleteContentBackward', null)) return;
    document.execCommand(forward ? 'forwardDelete' : 'delete', false);
  }

  /** Puts the caret at the end of the editable region's text, or selects
   * all of it.
   * @param {Element} el @param {boolean} all */
  function placeCaret(el, all) {
    const sel = document.getSelection();
    if (!sel) return;
    const range = document.createRange();
    if (all) {
      range.selectNodeContents(el);
    } else {
      const end = endOf(el);
      range.setStart(end.node, end.offset);
      range.collapse(true);
    }
    sel.removeAllRanges();
    sel.addRange(range);
  }

  /** The shortcut modifier: Command on a Mac, Control elsewhere. @returns {Modifiers} */
  function shortcut() {
    const mac = /Mac|iPhone|iPad/.test(navigator.platform);
    return { ctrl: !mac, shift: false, alt: false, meta: mac };
  }

  /** Presses the shortcut for "end of document" (all false) or "select
   * all" (all true) at el; true when the page took it (code editors move
   * their own caret, over lines they have not drawn too).
   * @param {Element} el @param {boolean} all */
  function docShortcut(el, all) {
    const k = keyInit(all ? 'a' : 'End');
    const m = shortcut();
    const taken = !keyEvent(el, 'keydown', k, m);
    keyEvent(el, 'keyup', k, m);
    return taken;
  }

  /** Focuses the editing host and, as a person would, presses the
   * shortcut for the end of the document or for select all; when the
   * editor does not take it, the caret goes after its last character (or
   * everything is selected) the way the browser would. Then the editor
   * sees it all.
   * @param {Element} el @param {boolean} all */
  async function readyEditable(el, all) {
    // The <body> of an editor's own iframe: keys go to the focused frame.
    if (window.top !== window && !document.hasFocus()) window.focus();
    focusAsPerson(el, { preventScroll: true });
    const taken = docShortcut(el, all);
    // An editor that took it draws its selection in a frame, or not at
    // all while it is still taking the focus in (CKEditor 5): then the
    // browser's way goes too, over the same text.
    if (taken) await frame();
    if (!taken || !selectionIs(el, all)) placeCaret(el, all);
    await tick();
  }

  /** Resolves once the page has drawn its next frame and run the tasks
   * that frame queued: an editor that applies input at once but redraws in
   * a frame has redrawn, as before a person's next key. A hidden document
   * draws no frames (nor runs its timers often): there, a task later; in a
   * visible one that draws none, FRAME_MAX_MS later.
   * @returns {Promise<void>} */
  function frame() {
    if (document.visibilityState === 'hidden') return tick();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, FRAME_MAX_MS);
      requestAnimationFrame(() => { clearTimeout(timer); tick().then(resolve); });
    });
  }

  /** Whether the document's selection is where placeCaret would put it:
   * over all of el's text, or collapsed at its end.
   * @param {Element} el @param {boolean} all */
  function selectionIs(el, all) {
    const sel = document.getSelection();
    if (!sel || !sel.rangeCount) return false;
    const r = sel.getRangeAt(0);
    if (!el.contains(r.commonAncestorContainer)) return false;
    if (all) return r.toString().replace(NOT_TEXT, '') === (el.textContent || '').replace(NOT_TEXT, '');
    const end = endOf(el);
    const at = document.createRange();
    at.setStart(end.node, end.offset);
    return r.collapsed && r.compareBoundaryPoints(Range.START_TO_START, at) === 0;
  }

  /** type (replace false: key by key at the end) or fill (replace true:
   * the whole text instead of what is there) into an editing host.
   * @param {Element} el @param {string} text @param {boolean} replace */
  async function typeEditable(el, text, replace) {
    await readyEditable(el, replace);
    if (replace) {
      if (!text) {
        editableDelete(el, false);
        await tick();
        return;
      }
      // A line break redraws the lines: the next line waits for the frame.
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (i > 0) { editableBreak(el); await frame(); }
        if (lines[i]) editableText(el, lines[i]);
        await tick();
      }
      await frame();
      return;
    }
    for (const ch of text) {
      const k = keyInit(ch === '\n' ? 'Enter' : ch === '\t' ? 'Tab' : ch);
      const target = deepActive() || el;
      if (keyEvent(target, 'keydown', k, NO_MODS) && (k.key === 'Tab' || keyEvent(target, 'keypress', k, NO_MODS))) {
        if (ch === '\n') editableBreak(el); else editableText(el, ch);
      }
      keyEvent(target, 'keyup', k, NO_MODS);
      await (ch === '\n' ? frame() : tick());
    }
    // What the reply reads is what the editor drew.
    await frame();
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    tick, frame, docShortcut, editableText, editableBreak, editableDelete, readyEditable, typeEditable,
  }));
})();
