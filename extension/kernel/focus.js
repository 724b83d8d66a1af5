// @ts-check
// Focus as a person gives it (docs/acting.md, "Acting on a ref").
// The browser fires focus and blur events only in a page that has the
// focus: the tab in front of a focused window, or a session's tab under
// the debugger's focus emulation ("Background work"). Anywhere else
// element.focus() moves document.activeElement and tells the page nothing,
// and a field the page focused itself on load (a search box) never had its
// focus event. A person's click or typing always comes with the page in
// front, so the field they type into has had its focus and focusin first:
// what a popup opened on focus waits for (TiddlyWiki's search dropdown, a
// combobox's list, an editor's focused state). Where the browser told the
// page nothing, the kernel dispatches what it would have, once per move of
// the focus: nothing more where the page was already told.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { deepActive } = K;

  // The element the page was last told has the focus, by the browser's
  // events or the kernel's; null once it was told of its blur. A page that
  // has the focus was told of its active element when either came.
  /** @type {Element|null} */
  let told = document.hasFocus() ? deepActive() : null;
  // Focus events the browser (or the page) dispatched: one during
  // el.focus() says the browser tells the page itself.
  let focusEvents = 0;

  addEventListener('focus', (e) => {
    focusEvents++;
    const t = e.composedPath()[0];
    if (t instanceof Element) told = t;
  }, true);
  addEventListener('blur', (e) => {
    const t = e.composedPath()[0];
    if (t === told) told = null;
  }, true);

  /** @param {Element} el @param {string} type @param {Element|null} related */
  function focusEvent(el, type, related) {
    const bubbles = type === 'focusin' || type === 'focusout';
    el.dispatchEvent(new FocusEvent(type, { bubbles, composed: true, view: window, relatedTarget: related }));
  }

  /** Gives el the focus as a person's click or first key would: el.focus()
   * and, where the browser told the page nothing (it has not the focus),
   * the blur and focusout of the element it was told had the focus, then
   * el's focus and focusin, as the browser orders them. el already told
   * gets nothing. False when el did not take the focus (not focusable, or
   * the page moved it on).
   * @param {Element} el @param {FocusOptions} [opts] */
  function focusAsPerson(el, opts) {
    const was = told;
    if (deepActive() !== el) {
      const before = focusEvents;
      /** @type {HTMLElement} */ (el).focus(opts);
      if (focusEvents !== before) return deepActive() === el;
    }
    if (deepActive() !== el) return false;
    // A document with the focus has had its events from the browser (one
    // the kernel cannot see, inside a closed shadow root, too).
    if (told === el || document.hasFocus()) return true;
    if (was && was !== el && was.isConnected) {
      focusEvent(was, 'blur', el);
      focusEvent(was, 'focusout', el);
    }
    const from = was && was !== el && was.isConnected ? was : null;
    focusEvent(el, 'focus', from);
    focusEvent(el, 'focusin', from);
    return true;
  }

  /** Takes the focus from el as a press outside any focusable element
   * does: el.blur() and, where the browser told the page nothing, its blur
   * and focusout.
   * @param {HTMLElement} el */
  function blurAsPerson(el) {
    el.blur();
    if (told !== el || !el.isConnected || deepActive() === el) return;
    focusEvent(el, 'blur', null);
    focusEvent(el, 'focusout', null);
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ focusAsPerson, blurAsPerson }));
})();
