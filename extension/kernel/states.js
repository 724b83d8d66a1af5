// @ts-check
// What a control holds and how it stands: its value (never a password's),
// checked / selected / expanded / disabled / required / readonly, and the
// signature an action checks before it acts: the element must still mean
// what it meant when the agent saw it.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fold, cut, quote, attr, textIn, hasAttr, inputType, roleOf, HEADING_TAGS, nameOf, textOf, selectValue,
    hasOwnText, CONTROL_ROLES, isWidget, isClickable, clickableName, surfaceOf, editorText, wrappedSelect, chosenText,
    wrapperName, isDrawingRoot, hasParts, drawingRole, drawingName, drawingOf, partName } = K;

  const VALUE_MAX = 200;
  // Form-associated tags: they can be :disabled and belong to a form.
  const FORM_TAGS = new Set(['button', 'input', 'select', 'textarea', 'fieldset', 'optgroup', 'option']);

  // Autofill tokens of fields whose value is a secret: passwords, one-time
  // codes, a card's number and security code. (A card's expiry or holder
  // name is not secret enough to hide from the agent filling the form.)
  const SECRET_AUTOFILL = new Set(['current-password', 'new-password', 'one-time-code', 'cc-number', 'cc-csc']);
  // Inputs once seen as type=password: a page's "show password" switches
  // them to text, and their value stays a secret.
  /** @type {WeakSet<Element>} */
  const wasPassword = new WeakSet();

  /** Whether el holds a secret whose value grip never reports: a password
   * field (also after a page switched it to "show"), a field whose
   * autocomplete names a secret, or an input the page masks with
   * -webkit-text-security.
   * @param {Element} el @returns {boolean} */
  function isSecret(el) {
    const tag = el.localName;
    if (tag !== 'input' && tag !== 'textarea') return false;
    if (tag === 'input' && inputType(el) === 'password') {
      wasPassword.add(el);
      return true;
    }
    if (wasPassword.has(el)) return true;
    const ac = attr(el, 'autocomplete');
    if (ac) {
      for (const token of ac.toLowerCase().split(/\s+/)) if (SECRET_AUTOFILL.has(token)) return true;
    }
    const style = /** @type {any} */ (getComputedStyle(el));
    const mask = style.webkitTextSecurity || style.getPropertyValue('-webkit-text-security');
    return !!mask && mask !== 'none';
  }

  /** A value cut at VALUE_MAX, the cut marked with … (its last
   * character), so a line that shows a value's later part (frames/line.go
   * appendValue, around a change) never passes a cut for the value's end.
   * @param {string} v */
  function cutValue(v) {
    return v.length > VALUE_MAX ? cut(v, VALUE_MAX - 1) + '…' : v;
  }

  /** The value a snapshot shows for a control, cut; '' for none, and
   * always for a secret (isSecret).
   * @param {Element} el @param {string} role @returns {string} */
  function valueText(el, role) {
    const tag = el.localName;
    // Inputs that show no value are asked nothing more (isSecret reads a
    // computed style).
    const t = tag === 'input' ? inputType(el) : '';
    if (t === 'hidden' || t === 'checkbox' || t === 'radio' || t === 'submit' ||
      t === 'reset' || t === 'button' || t === 'image') return '';
    if (isSecret(el)) return '';
    if (tag === 'input') {
      const inp = /** @type {HTMLInputElement} */ (el);
      if (t === 'file') {
        const files = inp.files;
        if (!files || !files.length) return '';
        /** @type {string[]} */
        const names = [];
        for (let i = 0; i < files.length; i++) names.push(files[i].name);
        return cutValue(names.join(', '));
      }
      return cutValue(inp.value);
    }
    if (tag === 'textarea') {
      // An editor's hidden textarea holds none of the text the editor shows.
      if (surfaceOf(el)) return cutValue(editorText(el));
      return cutValue(/** @type {HTMLTextAreaElement} */ (el).value);
    }
    if (tag === 'select') return cutValue(selectValue(/** @type {HTMLSelectElement} */ (el)));
    if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'scrollbar' || role === 'meter') {
      const vt = attr(el, 'aria-valuetext');
      if (vt) return cutValue(fold(vt));
      return cutValue(attr(el, 'aria-valuenow') || '');
    }
    if (role === 'textbox' || role === 'searchbox' || role === 'combobox') {
      // A custom select's control: the option its hidden select holds,
      // not the text of every option it draws.
      const s = role === 'combobox' ? wrappedSelect(el, 'combobox') : null;
      if (s) return cutValue(chosenText(s));
      if (/** @type {HTMLElement} */ (el).isContentEditable || surfaceOf(el)) return cutValue(editorText(el));
      return cutValue(fold(textIn(el)));
    }
    return '';
  }

  /** 'checked', 'mixed' or ''.
   * @param {Element} el @param {string} role */
  function checkedOf(el, role) {
    if (el.localName === 'input') {
      const t = inputType(el);
      if (t === 'checkbox' || t === 'radio') {
        const i = /** @type {HTMLInputElement} */ (el);
        if (t === 'checkbox' && i.indeterminate) return 'mixed';
        return i.checked ? 'checked' : '';
      }
    }
    if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' ||
      role === 'menuitemradio' || role === 'treeitem' || role === 'option') {
      const a = attr(el, 'aria-checked');
      if (a === 'true') return 'checked';
      if (a === 'mixed') return 'mixed';
      // A control that says it is a checkbox without aria-checked, around
      // the one native box that keeps its state (Jupyter's file list:
      // `<button role=checkbox>` holding `<input type=checkbox>`): its
      // state is that box's, which a click on it sets.
      if (a === null && (role === 'checkbox' || role === 'radio' || role === 'switch')) {
        const boxes = el.querySelectorAll('input[type=checkbox], input[type=radio]');
        if (boxes.length === 1) return checkedOf(boxes[0], '');
      }
    }
    return '';
  }

  /** @param {Element} el */
  function selectedOf(el) {
    // ExtJS 3 marks a grid's chosen record by a class alone.
    return attr(el, 'aria-selected') === 'true' || el.classList.contains('x-grid3-row-selected') ? 'selected' : '';
  }

  /** @param {Element} el */
  function isDisabled(el) {
    if (FORM_TAGS.has(el.localName) && el.matches(':disabled')) return true;
    return attr(el, 'aria-disabled') === 'true';
  }

  /** @param {Element} el @param {string} role @param {boolean} content @returns {string[]} */
  function statesOf(el, role, content) {
    /** @type {string[]} */
    const s = [];
    if (content && role === 'heading') {
      const tag = el.localName;
      const level = HEADING_TAGS.has(tag) && !hasAttr(el, 'aria-level') ? tag.charAt(1)
        : String(parseInt(attr(el, 'aria-level') || '2', 10) || 2);
      s.push('level=' + level);
    }
    const c = checkedOf(el, role);
    if (c) s.push(c);
    if (selectedOf(el)) s.push('selected');
    const exp = attr(el, 'aria-expanded');
    if (exp === 'true') s.push('expanded');
    else if (exp === 'false') s.push('collapsed');
    else if (el.localName === 'summary') {
      const d = el.parentElement;
      if (d && d.localName === 'details' && d.querySelector(':scope > summary') === el) {
        s.push(/** @type {HTMLDetailsElement} */ (d).open ? 'expanded' : 'collapsed');
      }
    }
    if (isDisabled(el)) s.push('disabled');
    const tag = el.localName;
    const formCtl = tag === 'input' || tag === 'select' || tag === 'textarea';
    if ((formCtl && /** @type {HTMLInputElement} */ (el).required) || attr(el, 'aria-required') === 'true') s.push('required');
    const editable = role === 'textbox' || role === 'searchbox' || role === 'spinbutton' || role === 'combobox';
    if (editable && (((tag === 'input' || tag === 'textarea') && /** @type {HTMLInputElement} */ (el).readOnly) ||
      attr(el, 'aria-readonly') === 'true')) s.push('readonly');
    // A secret's value is never shown: that it holds text is (a page that
    // puts the password back after a failed sign-in; typing adds to it).
    if ((tag === 'input' || tag === 'textarea') && /** @type {HTMLInputElement} */ (el).value !== '' && isSecret(el)) s.push('filled');
    return s;
  }

  /** What an element means, as an action checks it: tag, input type, role,
   * name, href, form action, checked and selected state.
   * @param {Element} el @param {string} role @param {string} name @returns {Signature} */
  function signatureOf(el, role, name) {
    const tag = el.localName;
    const form = /** @type {any} */ (el).form;
    let action = '';
    if (FORM_TAGS.has(tag) && form && form.nodeType === 1) {
      action = attr(el, 'formaction') || attr(form, 'action') || '';
    }
    return {
      tag,
      type: tag === 'input' || tag === 'button' ? String(/** @type {any} */ (el).type || '') : '',
      role,
      name,
      href: attr(el, 'href') || attr(el, 'xlink:href') || '',
      action,
      checked: checkedOf(el, role),
      selected: selectedOf(el),
    };
  }

  /** Role (falling back to 'clickable', then 'text' / 'generic', for
   * elements that have none a snapshot lists), name and signature of any
   * element, as the snapshot walk gives them.
   * @param {Element} el */
  function describe(el) {
    let role = roleOf(el);
    const wrapped = wrappedSelect(el, role);
    if (wrapped) {
      const name = wrapperName(el, wrapped);
      return { role: 'combobox', name, sig: signatureOf(el, 'combobox', name) };
    }
    // A canvas, and a drawing with parts, are listed as what they are
    // (drawings.js), whatever their cursor.
    if (el.localName === 'canvas' && !CONTROL_ROLES.has(role)) {
      const name = nameOf(el, role);
      return { role, name, sig: signatureOf(el, role, name) };
    }
    if (!CONTROL_ROLES.has(role) && isDrawingRoot(el) && hasParts(el)) {
      const r = drawingRole(el);
      const name = drawingName(el, r);
      return { role: r, name, sig: signatureOf(el, r, name) };
    }
    if (!CONTROL_ROLES.has(role) && !isWidget(el, role) && isClickable(el)) {
      const name = clickableName(el) || (drawingOf(el) ? partName(el) : '');
      return { role: 'clickable', name, sig: signatureOf(el, 'clickable', name) };
    }
    if (!role) role = hasOwnText(el) ? 'text' : 'generic';
    const name = nameOf(el, role);
    return { role, name, sig: signatureOf(el, role, name) };
  }

  /** The element as a message shows it: [role 'name'].
   * @param {Element} el @returns {string} */
  function brief(el) {
    const d = describe(el);
    const role = d.role === 'generic' || d.role === 'text' ? el.localName : d.role;
    const name = d.name || (d.role === 'generic' || d.role === 'text' ? textOf(el, { checkVis: true }) : '');
    return '[' + role + (name ? ' ' + quote(name) : '') + ']';
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    isSecret,
    FORM_TAGS, valueText, checkedOf, isDisabled, statesOf, signatureOf, describe, brief,
  }));
})();
