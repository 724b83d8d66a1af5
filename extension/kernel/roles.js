// @ts-check
// Roles: declared (the first token of role=, unless it means "no role"),
// else implicit from the tag (ARIA in HTML, the parts grip reports).
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, hasAttr } = K;

  // Roles a snapshot reports in every mode.
  const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider',
    'spinbutton', 'listbox', 'treeitem']);
  // Roles whose name comes from their content.
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'heading', 'cell', 'gridcell',
    'columnheader', 'rowheader', 'tooltip', 'row']);
  // Non-control roles that report their own text in content mode.
  const TEXT_ROLES = new Set(['heading', 'paragraph', 'listitem', 'blockquote', 'term', 'definition',
    'caption', 'row', 'cell', 'gridcell', 'columnheader', 'rowheader', 'alert', 'status', 'note',
    'tooltip', 'log', 'marquee', 'timer', 'code', 'math', 'mark', 'comment', 'text']);
  // Declared roles that mean "no role": the element keeps its implicit one.
  const NO_ROLE = new Set(['none', 'presentation', 'generic']);
  const PROSE_TAGS = new Map([['p', 'paragraph'], ['li', 'listitem'], ['blockquote', 'blockquote'],
    ['pre', 'paragraph'], ['dt', 'term'], ['dd', 'definition'], ['figcaption', 'caption'],
    ['caption', 'caption'], ['tr', 'row']]);
  const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
  const TEXT_INPUTS = new Set(['text', 'email', 'search', 'tel', 'url', 'password', 'number', 'date',
    'datetime-local', 'month', 'time', 'week', 'color']);
  const BUTTON_INPUTS = new Set(['submit', 'reset', 'button', 'image', 'file']);
  // Declared roles of things one types into: an editable region keeps them.
  const TEXT_ENTRY = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

  /** The declared role, or '' when none or one that means "no role".
   * @param {Element} el @returns {string} */
  function declaredRole(el) {
    const r = attr(el, 'role');
    if (!r) return '';
    const first = r.trim().split(/\s+/)[0].toLowerCase();
    return NO_ROLE.has(first) ? '' : first;
  }

  /** The input's type, lower case ('text' when absent or unknown).
   * @param {Element} el */
  function inputType(el) {
    return /** @type {HTMLInputElement} */ (el).type || 'text';
  }

  /** Whether el is the top of a contenteditable region.
   * @param {Element} el */
  function isEditingHost(el) {
    const h = /** @type {HTMLElement} */ (el);
    if (!h.isContentEditable) return false;
    const p = h.parentElement;
    return !p || !p.isContentEditable;
  }

  /** The element's role: declared, else implicit, else ''.
   * @param {Element} el @returns {string} */
  function roleOf(el) {
    return roleWith(el, declaredRole(el));
  }

  /** roleOf, given el's declared role (the walk reads it once). The top of
   * an editable region is something to type into whatever it declares or
   * is: block editors make each block an editable <p>, <h2> or an element
   * with a role of its own (document, group), and the agent must still be
   * able to type there. A declared role of text entry stays; an editable
   * island inside another editable region is part of that one's text.
   * @param {Element} el @param {string} declared @returns {string} */
  function roleWith(el, declared) {
    if (hasAttr(el, 'contenteditable') && isEditingHost(el) && !inEditable(el)) return TEXT_ENTRY.has(declared) ? declared : 'textbox';
    return declared || implicitRole(el);
  }

  /** Whether el is inside another editable region, across a part of it
   * that is not editable (a caption in an editor's image widget): that
   * region is the textbox, and el a part of its document.
   * @param {Element} el */
  function inEditable(el) {
    for (let a = el.parentElement && el.parentElement.closest('[contenteditable]'); a; a = a.parentElement && a.parentElement.closest('[contenteditable]')) {
      if (/** @type {HTMLElement} */ (a).isContentEditable) return true;
    }
    return false;
  }

  /** The role ExtJS 3's grid says only by its classes: it draws the grid
   * (Deluge's torrent list) with no ARIA at all, a .x-grid3 box holding a
   * .x-grid3-row box per record, each a table of one row of its cells
   * (docs/widgets.md, *Widgets*). '' for any other element.
   * @param {Element} el @returns {string} */
  function extGridRole(el) {
    const c = el.className;
    if (typeof c !== 'string' || c.indexOf('x-grid3') < 0) return '';
    const l = el.classList;
    return l.contains('x-grid3-row') ? 'row' : l.contains('x-grid3') ? 'grid' : '';
  }

  /** Whether el is the one row of the table an ExtJS 3 grid row draws its
   * cells in: the record's row is the box around it (extGridRole).
   * @param {Element} el */
  function inExtGridRow(el) {
    const table = el.parentElement && el.parentElement.parentElement;
    return !!table && table.localName === 'table' && table.classList.contains('x-grid3-row-table');
  }

  /** @param {Element} el @returns {string} */
  function implicitRole(el) {
    const tag = el.localName;
    switch (tag) {
      case 'div':
        return extGridRole(el);
      case 'tr':
        if (inExtGridRow(el)) return '';
        break;
      case 'a': case 'area':
        return hasAttr(el, 'href') || hasAttr(el, 'xlink:href') ? 'link' : '';
      case 'button': case 'summary':
        return 'button';
      case 'input': {
        const t = inputType(el);
        if (t === 'hidden') return '';
        if (t === 'checkbox' || t === 'radio') return t;
        if (t === 'range') return 'slider';
        if (t === 'number') return 'spinbutton';
        if (BUTTON_INPUTS.has(t)) return 'button';
        if (hasAttr(el, 'list') && t !== 'password') return 'combobox';
        if (t === 'search') return 'searchbox';
        return 'textbox';
      }
      case 'select': {
        const s = /** @type {HTMLSelectElement} */ (el);
        return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
      }
      case 'textarea':
        return 'textbox';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
        return 'heading';
      case 'img':
        return 'img';
      case 'canvas':
        // No ARIA role: grip's own, so that an app drawn in a canvas is
        // listed and acted on at a point (drawings.js).
        return 'canvas';
      case 'th':
        return attr(el, 'scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'td':
        return 'cell';
    }
    const prose = PROSE_TAGS.get(tag);
    if (prose) return prose;
    // A document in design mode is edited as a whole (older iframe editors).
    if (tag === 'body' && el.ownerDocument.designMode === 'on') return 'textbox';
    return '';
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    CONTROL_ROLES, NAME_FROM_CONTENT, TEXT_ROLES, PROSE_TAGS, HEADING_TAGS, TEXT_INPUTS, BUTTON_INPUTS,
    declaredRole, inputType, isEditingHost, roleOf, roleWith, implicitRole,
  }));
})();
