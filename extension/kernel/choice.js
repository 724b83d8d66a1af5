// @ts-check
// Choosing: select an option (of a native <select>, or of a custom listbox
// or combobox, opened first when needed), check and uncheck.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, fold, quote, attr, textIn, idFor, setSig, hiddenReason, isHiddenAttr, isVisible,
    inputType, roleOf, controlRole, wrappedSelect, standInOptions, nameOf, checkedOf, valueText, describe, brief, actionable,
    done, fireChange, clickAt, setValue, inputEvent, focusAsPerson, keyEvent, keyInit, NO_MODS } = K;

  /** @param {Element} el @param {number} id @param {string} want */
  function selectIn(el, id, want) {
    if (el.localName === 'select') {
      const s = /** @type {HTMLSelectElement} */ (el);
      const opts = Array.from(s.options);
      const w = fold(want);
      const match = opts.find((o) => o.value === want) ||
        opts.find((o) => fold(o.label || o.text) === w) ||
        opts.find((o) => fold(o.label || o.text).toLowerCase() === w.toLowerCase());
      if (!match) {
        return fail('not_actionable', 'actionability', 'no option ' + quote(want) + ' in ' + brief(el) +
          '; options: ' + selectLabels(s), 'give an option label or value');
      }
      if (match.disabled || (match.parentElement && match.parentElement.localName === 'optgroup' &&
        /** @type {HTMLOptGroupElement} */ (match.parentElement).disabled)) {
        return fail('not_actionable', 'actionability', 'option ' + quote(fold(match.label || match.text)) + ' is disabled');
      }
      // Press it first, as a person opening it does: pages that close a
      // popup on blur (a date picker holding this select) see the press
      // inside it before the focus moves.
      const at = actionable(el, true);
      if (!('error' in at)) clickAt(el, at.point, 1);
      focusAsPerson(s);
      if (s.multiple) {
        for (const o of opts) o.selected = o === match;
      } else {
        s.selectedIndex = match.index;
      }
      s.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      fireChange(s);
      return done(el, id, { ok: true, detail: 'selected ' + quote(fold(match.label || match.text)) });
    }
    // Custom listbox / combobox: open it, then click the matching option.
    const role = controlRole(el);
    if (role === 'option') {
      const check = actionable(el, true);
      if ('error' in check) return check;
      clickAt(el, check.point, 1);
      return done(el, id, { ok: true, detail: 'selected ' + quote(nameOf(el, 'option')) });
    }
    if (role !== 'combobox' && role !== 'listbox' && role !== 'button') {
      return fail('not_actionable', 'actionability', 'element is not a select, listbox or combobox: ' + brief(el));
    }
    // Open it (a listbox that already shows the option is not), wait for
    // the options as a person would (libraries open on a timer, and a
    // pick in the same task as the opening click is undone by it), click
    // the option named, then check that the choice took.
    /** @type {any} the option's last refusal while its popup opened */
    let notYet = null;
    /** @param {boolean} [shown] a listbox's option, looked for before any opening
     * @returns {any} */
    const pick = (shown) => {
      const o = findOption(el, want);
      if (!o) return null;
      const check = actionable(o, true);
      if ('error' in check) {
        // Found but not yet where a person could click it: a popup still
        // opening (Slim Select's scaleY from 0, which a loaded machine
        // may not have begun to draw at the first look) is looked at again
        // until the bound; an option a listbox already shows is not waited on.
        if (shown) return check;
        notYet = check;
        return null;
      }
      notYet = null;
      const label = nameOf(o, 'option');
      const before = nearText(el);
      clickAt(o, check.point, 1);
      const oid = idFor(o);
      if (o.isConnected) setSig(oid, describe(o).sig);
      return confirmChoice(el, id, o, label, before);
    };
    const now = role === 'listbox' ? pick(true) : null;
    if (now) return now;
    // A popup already open is not clicked again: its toggle would close it
    // (an OOUI dropdown left open by someone else) and grip would look for
    // the option in a closed menu.
    const wasOpen = attr(el, 'aria-expanded') === 'true';
    if (!wasOpen) {
      const first = actionable(el, true);
      if ('error' in first) return first;
      clickAt(el, first.point, 1);
    }
    /** A refusal leaves the widget as it was found: the popup grip opened
     * is closed again (docs/widgets.md, *Widgets*).
     * @param {any} r */
    const refuse = (r) => {
      if (!wasOpen) closePopup(el);
      return r;
    };
    return new Promise((resolve) => {
      const t0 = Date.now();
      let typed = false;
      /** @type {string[]} the options shown before typing */
      let shown = [];
      const tick = () => {
        try {
          const r = el.isConnected ? pick() : fail('stale_ref', 'node', 'the element was removed while opening it');
          if (r) { resolve(r.error && el.isConnected ? refuse(r) : r); return; }
          if (!typed && Date.now() - t0 > SEARCH_MS && searchable(el)) {
            // Not among the options shown: a searchable combobox lists
            // only some (Tom Select's maxOptions, remote data) until one
            // types, as a person would.
            typed = true;
            shown = listOptions(el).slice(0, 10).map((o) => quote(nameOf(o, 'option')));
            setValue(el, want);
            inputEvent(el, 'input', 'insertText', want, false);
          }
          if (Date.now() - t0 > 1500 + (typed ? SEARCH_MS : 0)) {
            if (notYet) {
              resolve(refuse(notYet));
              return;
            }
            let names = listOptions(el).slice(0, 10).map((o) => quote(nameOf(o, 'option')));
            if (typed) {
              // Leave the search as it was found: empty.
              setValue(el, '');
              inputEvent(el, 'input', 'deleteContentBackward', null, false);
              if (!names.length) names = shown;
            }
            // A control standing in for a hidden select has its whole list
            // there, not only the options its menu shows now.
            const wrapped = wrappedSelect(el, roleOf(el));
            const all = wrapped ? selectLabels(wrapped) : '';
            resolve(refuse(fail('not_actionable', 'actionability', 'no option ' + quote(want) + ' in ' + brief(el) +
              (all ? '; options: ' + all : names.length ? '; options: ' + names.join(', ') : '; no options appeared after opening it'),
              'give the option text as shown')));
            return;
          }
          setTimeout(tick, 50);
        } catch (e) {
          resolve(fail('internal', 'document', String(/** @type {any} */ (e) && /** @type {any} */ (e).message || e)));
        }
      };
      setTimeout(tick, OPEN_MS);
    });
  }

  // How long a custom select gets to open before grip looks for the option,
  // and to show a choice after the option was clicked.
  const OPEN_MS = 50;
  const CONFIRM_MS = 600;
  // How long the options shown after opening are looked through before a
  // searchable combobox gets the option's text typed into it.
  const SEARCH_MS = 250;

  /** The first labels of a native select's options, and how many more.
   * @param {HTMLSelectElement} s */
  function selectLabels(s) {
    const opts = Array.from(s.options);
    const labels = opts.slice(0, 10).map((o) => quote(fold(o.label || o.text)));
    return labels.join(', ') + (opts.length > 10 ? ' … (' + (opts.length - 10) + ' more)' : '');
  }

  /** Closes the popup of el that grip opened: Escape, as a person closes
   * one, then a second click on el if it still says it is expanded (a
   * toggle that ignores the key).
   * @param {Element} el */
  function closePopup(el) {
    if (!el.isConnected || attr(el, 'aria-expanded') !== 'true') return;
    const esc = keyInit('Escape');
    keyEvent(el, 'keydown', esc, NO_MODS);
    keyEvent(el, 'keyup', esc, NO_MODS);
    if (attr(el, 'aria-expanded') !== 'true') return;
    const at = actionable(el, true);
    if (!('error' in at)) clickAt(el, at.point, 1);
  }

  /** Whether el is a combobox one types into to filter its options.
   * @param {Element} el */
  function searchable(el) {
    if (el.localName !== 'input' || inputType(el) !== 'text' && inputType(el) !== 'search') return false;
    const i = /** @type {HTMLInputElement} */ (el);
    return !i.readOnly && !i.disabled;
  }

  /** The text around a custom select's input, where libraries show the
   * chosen item beside it (Tom Select's .item, react-select's value).
   * @param {Element} el */
  function nearText(el) {
    const box = el.parentElement && el.parentElement.parentElement || el.parentElement || el;
    return fold(textIn(box));
  }

  /** Waits until the choice of option o (named label) shows, and answers
   * for el: the option is selected or checked, or el's value says label,
   * or the text around el came to say it; else a refusal that says the
   * option was clicked but the choice did not take.
   * @param {Element} el @param {number} id @param {Element} o @param {string} label @param {string} before
   * @returns {Promise<any>} */
  function confirmChoice(el, id, o, label, before) {
    const took = () => {
      if (o.isConnected && (attr(o, 'aria-selected') === 'true' || attr(o, 'aria-checked') === 'true')) return true;
      if (!el.isConnected) return false;
      if (valueText(el, controlRole(el)).indexOf(label) >= 0) return true;
      const after = nearText(el);
      return after.indexOf(label) >= 0 && before.indexOf(label) < 0;
    };
    return new Promise((resolve) => {
      const t0 = Date.now();
      const tick = () => {
        if (took()) {
          resolve(el.isConnected ? done(el, id, { ok: true, detail: 'selected ' + quote(label) }) : { ok: true, id, detail: 'selected ' + quote(label) });
        } else if (Date.now() - t0 > CONFIRM_MS) {
          resolve(fail('not_actionable', 'actionability', 'clicked the option ' + quote(label) + ' but ' + brief(el) +
            ' does not show it chosen', 'take a snapshot to see what the page shows'));
        } else {
          setTimeout(tick, 30);
        }
      };
      setTimeout(tick, 0);
    });
  }

  /** Visible [role=option] elements that belong to el: in its aria-controls /
   * aria-owns targets, its subtree, else the whole document.
   * @param {Element} el */
  function listOptions(el) {
    /** @type {Element[]} */
    const scopes = [];
    const root = /** @type {Document|ShadowRoot} */ (el.getRootNode());
    for (const which of ['aria-controls', 'aria-owns']) {
      const ids = attr(el, which);
      if (!ids) continue;
      for (const x of ids.trim().split(/\s+/)) {
        const t = root.getElementById ? root.getElementById(x) : document.getElementById(x);
        if (t) scopes.push(t);
      }
    }
    scopes.push(el);
    for (const s of scopes) {
      const found = Array.from(s.querySelectorAll('[role=option]')).filter((o) => !isHiddenAttr(o) && isVisible(o));
      if (found.length) return found;
    }
    // A custom select whose options have no role: what shows its select's options.
    const wrapped = wrappedSelect(el, roleOf(el));
    if (wrapped) {
      const shown = standInOptions(el, wrapped);
      if (shown.length) return shown;
    }
    const all = Array.from(root.querySelectorAll('[role=option]'));
    if (root !== document) all.push(...Array.from(document.querySelectorAll('[role=option]')));
    return all.filter((o) => !hiddenReason(o) && isVisible(o));
  }

  /** The option of el named (or valued) want: exact name, then value, then
   * the name ignoring case.
   * @param {Element} el @param {string} want */
  function findOption(el, want) {
    const w = fold(want);
    const opts = listOptions(el);
    return opts.find((o) => nameOf(o, 'option') === w) ||
      opts.find((o) => attr(o, 'data-value') === want || attr(o, 'value') === want || o.id === want) ||
      opts.find((o) => nameOf(o, 'option').toLowerCase() === w.toLowerCase()) || null;
  }

  /** @param {Element} el */
  function checkable(el) {
    if (el.localName === 'input') {
      const t = inputType(el);
      return t === 'checkbox' || t === 'radio';
    }
    const role = roleOf(el);
    return role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio';
  }

  /** check (want true) or uncheck el by clicking it, unless it already is.
   * @param {Element} el @param {number} id @param {boolean} want @param {{x: number, y: number}} pt */
  function setChecked(el, id, want, pt) {
    const role = roleOf(el);
    const word = role === 'switch' ? 'switch' : role === 'radio' || role === 'menuitemradio' ? 'radio button' : 'checkbox';
    const before = checkedOf(el, role) === 'checked';
    if (before === want) return done(el, id, { ok: true, detail: 'already ' + (want ? 'checked' : 'unchecked') });
    if (!want && (role === 'radio' || role === 'menuitemradio')) {
      return fail('not_actionable', 'actionability', 'a radio button cannot be unchecked', 'check another option of its group');
    }
    clickAt(el, pt, 1);
    const after = el.isConnected && checkedOf(el, roleOf(el)) === 'checked';
    if (after !== want) {
      return fail('not_actionable', 'actionability', 'the ' + word + ' did not become ' + (want ? 'checked' : 'unchecked'));
    }
    return done(el, id, { ok: true, detail: want ? 'checked' : 'unchecked' });
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ selectIn, checkable, setChecked }));
})();
