// @ts-check
// The synthetic events grip dispatches from the isolated world: mouse,
// pointer, keyboard, input and change, built the way a browser fills them.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { KEYS } = K;

  /** button: the one pressed or released, 0 the primary (2 the secondary).
   * @param {string} type @param {{x: number, y: number}} pt @param {number} detail @param {number} buttons @param {number} [button] */
  function mouse(type, pt, detail, buttons, button) {
    const win = window;
    const noBubble = type === 'mouseenter' || type === 'mouseleave';
    return new MouseEvent(type, {
      bubbles: !noBubble, cancelable: !noBubble, composed: true, view: win,
      clientX: pt.x, clientY: pt.y, screenX: pt.x + (win.screenX || 0), screenY: pt.y + (win.screenY || 0),
      button: button || 0, buttons, detail,
    });
  }

  /** @param {string} type @param {{x: number, y: number}} pt @param {number} buttons @param {number} [button] */
  function pointer(type, pt, buttons, button) {
    const win = window;
    const noBubble = type === 'pointerenter' || type === 'pointerleave';
    const init = {
      bubbles: !noBubble, cancelable: !noBubble, composed: true, view: win,
      clientX: pt.x, clientY: pt.y, screenX: pt.x + (win.screenX || 0), screenY: pt.y + (win.screenY || 0),
      button: type === 'pointermove' || type === 'pointerover' || type === 'pointerenter' ? -1 : button || 0,
      buttons, pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1,
      pressure: buttons ? 0.5 : 0,
    };
    return typeof PointerEvent === 'function' ? new PointerEvent(type, init) : new MouseEvent(type, init);
  }

  /** The key, code and keyCode of a named key (keycodes.js) or one character.
   * @param {string} ch @returns {KeyInit} */
  function keyInit(ch) {
    const named = KEYS[ch];
    if (named) return { key: named[0], code: named[1], keyCode: named[2] };
    let code = '';
    let keyCode = ch.toUpperCase().charCodeAt(0);
    if (/^[a-z]$/i.test(ch)) code = 'Key' + ch.toUpperCase();
    else if (/^[0-9]$/.test(ch)) code = 'Digit' + ch;
    else if (ch === ' ') { code = 'Space'; keyCode = 32; }
    else keyCode = 0;
    return { key: ch, code, keyCode };
  }

  /** Dispatches one key event; false when the page cancelled it.
   * @param {Element} target @param {string} type @param {KeyInit} k @param {Modifiers} m */
  function keyEvent(target, type, k, m) {
    const charCode = type === 'keypress' ? (k.key === 'Enter' ? 13 : k.key.charCodeAt(0)) : 0;
    const ev = new KeyboardEvent(type, {
      bubbles: true, cancelable: true, composed: true, view: window,
      key: k.key, code: k.code, keyCode: type === 'keypress' ? charCode : k.keyCode,
      which: type === 'keypress' ? charCode : k.keyCode, charCode,
      ctrlKey: m.ctrl, shiftKey: m.shift, altKey: m.alt, metaKey: m.meta,
    });
    return target.dispatchEvent(ev);
  }

  /** @type {Modifiers} */
  const NO_MODS = { ctrl: false, shift: false, alt: false, meta: false };

  /** Dispatches a (before)input event; false when the page cancelled it.
   * @param {Element} el @param {string} type @param {string} inputType @param {string|null} data @param {boolean} cancelable */
  function inputEvent(el, type, inputType, data, cancelable) {
    return el.dispatchEvent(new InputEvent(type, { bubbles: true, cancelable, composed: true, inputType, data }));
  }

  /** @param {Element} el */
  function fireChange(el) {
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    mouse, pointer, keyInit, keyEvent, NO_MODS, inputEvent, fireChange,
  }));
})();
