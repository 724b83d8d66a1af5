// @ts-check
// What pages build out of plain elements: things that act on click with no
// role (a div with cursor:pointer and a handler, an onclick attribute, a
// React list row), the rows of ARIA grids (a data grid lists its rows, a
// calendar its day buttons), and composite widgets whose content scrolls
// (a virtualized grid renders only the rows in view: the snapshot says
// there is more above or below, and how many rows there are in all).
// docs/widgets.md, *Widgets*, says why each rule is what it is.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, hasAttr, cut, fold, noteText, textIn, fact, flatParent, isHiddenAttr, isVisible, thinBox, CONTROL_ROLES, declaredRole, roleOf, selectValue,
    labelName, nameOf, textOf } = K;

  // Tags that never count as clickable on their own: the page itself, and
  // labels (a click on one is a click on its control, listed already).
  const NOT_CLICKABLE = new Set(['html', 'body', 'label', 'option', 'optgroup']);
  // Composite widgets a snapshot lists in every mode, like controls.
  const WIDGET_ROLES = new Set(['grid', 'treegrid']);
  // Roles whose content may scroll: their line says whether there is more.
  const SCROLL_ROLES = new Set(['grid', 'treegrid', 'listbox', 'tree', 'menu']);
  // Cursors that say "this acts on click, or can be dragged".
  const ACTIVE_CURSORS = new Set(['pointer', 'grab', 'move']);
  // How many descendants scrollerOf looks at for the one that scrolls.
  const SCROLLER_SEARCH = 400;
  // How many levels above a hidden select the control standing in for it
  // may wrap it (Choices.js), and which roles such a control has.
  const WRAP_DEPTH = 3;
  const STAND_IN_ROLES = new Set(['combobox', 'listbox', 'button']);
  const POPUP_ROLES = '[role=combobox],[role=listbox]';

  /** The computed cursor of el, '' when it has no style (not rendered).
   * @param {Element} el */
  function cursorOf(el) {
    try { return getComputedStyle(el).cursor; } catch (_) { return ''; }
  }

  /** Whether el acts on click (or drag) without a role that says so: it
   * has an onclick attribute or draggable="true", or a pointer (grab, move)
   * cursor that starts here: its parent's is none of those, since the
   * children of a clickable inherit its cursor and are not listed again.
   * parentCursor is the parent's computed cursor.
   * @param {Element} el @param {string} cursor @param {string} parentCursor */
  function clickStart(el, cursor, parentCursor) {
    if (NOT_CLICKABLE.has(el.localName)) return false;
    if (hasAttr(el, 'onclick') || attr(el, 'draggable') === 'true') return true;
    if (ACTIVE_CURSORS.has(parentCursor)) return false;
    return ACTIVE_CURSORS.has(cursor) || pointsOnHover(el);
  }

  // At most this share of a document's elements may take a pointer on
  // hover by one rule for it to say "these act on click" (`main *:hover
  // {cursor: pointer}` says nothing of any one element).
  const HOVER_SHARE = 0.5;

  /** The elements the page's style rules give an active cursor only under
   * the pointer (`#transferList tr:hover {cursor: pointer}`: qBittorrent's
   * torrent rows, whose cursor reads `default` until hovered), read once
   * per walk (hoverMemo); null outside one. @type {Set<Element>|null} */
  let hoverSet = null;
  let hoverWalk = false;

  /** Starts (a walk begins) or ends the walk's set of pointsOnHover.
   * @param {boolean} on */
  function hoverMemo(on) {
    hoverWalk = on;
    hoverSet = null;
  }

  /** Whether a style rule of el's document gives el an active cursor on
   * hover (`sel:hover {cursor: pointer}`), with :hover left out of the
   * selector: the page's own word that it acts on click, as a cursor it
   * has now is. Rules of sheets of another origin cannot be read.
   * @param {Element} el */
  function pointsOnHover(el) {
    if (el.getRootNode() !== document) return false;
    // Outside a walk (an action's meaning check) the set is read afresh,
    // by the same rules, so the check sees the element as the walk did.
    if (!hoverWalk) return hoverElements().has(el);
    if (!hoverSet) hoverSet = hoverElements();
    return hoverSet.has(el);
  }

  /** What the document's pointer-on-hover rules match, each rule that
   * matches more than HOVER_SHARE of the document left out.
   * @returns {Set<Element>} */
  function hoverElements() {
    /** @type {Set<Element>} */
    const set = new Set();
    const all = document.getElementsByTagName('*').length;
    for (const sel of hoverSelectors()) {
      const found = document.querySelectorAll(sel);
      if (found.length <= all * HOVER_SHARE) for (let i = 0; i < found.length; i++) set.add(found[i]);
    }
    return set;
  }

  /** The selectors, :hover left out, of the document's style rules that
   * set an active cursor under the pointer; kept while the sheets' rule
   * counts stay. @type {{key: string, sels: string[]}} */
  let hoverRules = { key: '', sels: [] };

  function hoverSelectors() {
    /** @type {CSSStyleSheet[]} */
    const sheets = [...document.styleSheets, ...(document.adoptedStyleSheets || [])];
    /** @type {CSSRuleList[]} */
    const lists = [];
    let key = '';
    for (const sh of sheets) {
      try { lists.push(sh.cssRules); key += sh.cssRules.length + ','; } catch (_) { key += 'x,'; }
    }
    if (key === hoverRules.key) return hoverRules.sels;
    /** @type {string[]} */
    const sels = [];
    /** @param {CSSRuleList} rules */
    const scan = (rules) => {
      for (let i = 0; i < rules.length; i++) {
        const r = /** @type {CSSStyleRule} */ (rules[i]);
        if (r.selectorText !== undefined && r.selectorText.indexOf(':hover') >= 0 && ACTIVE_CURSORS.has(r.style.cursor)) {
          for (const part of topLevelParts(r.selectorText)) {
            if (part.indexOf(':hover') < 0) continue;
            const sel = part.replace(/:hover\b/g, '').trim();
            // A bare tag (`div:hover`, `*:hover`) says nothing of any one element.
            if (!sel || /[>+~]$/.test(sel) || /^(\*|[a-z][\w-]*)$/i.test(sel)) continue;
            try { document.createDocumentFragment().querySelector(sel); } catch (_) { continue; }
            sels.push(sel);
          }
        }
        const inner = /** @type {CSSGroupingRule} */ (/** @type {unknown} */ (r)).cssRules;
        if (inner && inner.length) scan(inner);
      }
    };
    for (const l of lists) scan(l);
    hoverRules = { key, sels };
    return sels;
  }

  /** A selector list's selectors: split at its commas, not those inside
   * parentheses (`:is(a, b)`). @param {string} list */
  function topLevelParts(list) {
    /** @type {string[]} */
    const out = [];
    let depth = 0, from = 0;
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === ',' && depth === 0) { out.push(list.slice(from, i)); from = i + 1; }
    }
    out.push(list.slice(from));
    return out;
  }

  /** clickStart for an element met outside a walk (an action's meaning
   * check): the parent's cursor is read here.
   * @param {Element} el */
  function isClickable(el) {
    // A part of a drawing starts by the rules of drawings (drawings.js).
    if (K.drawingOf(el)) return K.isDrawnPart(el);
    const p = flatParent(el);
    return clickStart(el, cursorOf(el), p && p.nodeType === 1 ? cursorOf(/** @type {Element} */ (p)) : '');
  }

  /** Whether a snapshot lists el, of this role, as a widget in every mode:
   * grids, and the rows of a grid (a data grid's records; a row holding
   * controls is dropped again once they are listed, see snapshot.js).
   * @param {Element} el @param {string} role */
  function isWidget(el, role) {
    if (WIDGET_ROLES.has(role)) return true;
    // A row by its role, or by ExtJS 3's class (roles.js extGridRole).
    return role === 'row' && (hasAttr(el, 'role') || el.classList.contains('x-grid3-row')) && !!el.closest('[role=grid],[role=treegrid],.x-grid3');
  }

  /** Whether el's style lets it scroll vertically (asked before its
   * layout: a change of text alone changes no style, see clippedShut).
   * @param {Element} el */
  function scrollsByStyle(el) {
    const o = getComputedStyle(el).overflowY;
    return o === 'auto' || o === 'scroll' || o === 'overlay';
  }

  /** Whether el's content reaches beyond its box vertically. @param {Element} el */
  function overflowsYNow(el) {
    return el.scrollHeight > el.clientHeight + 1;
  }

  /** overflowsY, for a box that has a height. @param {Element} el */
  function tallOverflowsYNow(el) {
    return el.clientHeight > 0 && overflowsYNow(el);
  }

  /** The element that scrolls el's content vertically: el itself, or the
   * first of its descendants (breadth first, a bounded search) that does,
   * as a grid's body viewport; null when none does.
   * @param {Element} el @returns {Element|null} */
  function scrollerOf(el) {
    if (scrollsByStyle(el) && overflowsY(el)) return el;
    /** @type {Element[]} */
    const queue = [el];
    let seen = 0;
    for (let i = 0; i < queue.length && seen < SCROLLER_SEARCH; i++) {
      for (let c = queue[i].firstElementChild; c && seen < SCROLLER_SEARCH; c = c.nextElementSibling) {
        seen++;
        if (scrollsByStyle(c) && tallOverflowsY(c)) return c;
        if (c.firstElementChild) queue.push(c);
      }
    }
    return null;
  }

  /** Where a scroller stands: more content above it, below it, or both.
   * @param {Element} sc @returns {string[]} */
  function scrollMarks(sc) {
    /** @type {string[]} */
    const s = [];
    if (sc.scrollTop > 1) s.push('more-above');
    if (sc.scrollTop + sc.clientHeight < sc.scrollHeight - 1) s.push('more-below');
    return s;
  }

  /** The rows of a grid or table that are rendered, of how many in all:
   * 'rows=FIRST-LAST/TOTAL' from aria-rowindex and aria-rowcount (a
   * virtualized grid renders a window of its rows), 'rows=TOTAL' when the
   * rendered ones carry no index, '' when the grid says neither.
   * @param {Element} el */
  function rowSpan(el) {
    const total = parseInt(attr(el, 'aria-rowcount') || '', 10);
    let lo = Infinity, hi = -Infinity;
    const rows = el.querySelectorAll('[role=row][aria-rowindex]');
    for (let i = 0; i < rows.length; i++) {
      const n = parseInt(rows[i].getAttribute('aria-rowindex') || '', 10);
      if (n > 0) { lo = Math.min(lo, n); hi = Math.max(hi, n); }
    }
    if (hi >= lo && total > 0) return 'rows=' + lo + '-' + hi + '/' + total;
    if (hi >= lo) return 'rows=' + lo + '-' + hi;
    return total > 0 ? 'rows=' + total : '';
  }

  /** States a snapshot adds to a composite widget's line: its rows and
   * whether its content scrolls further (see scrollMarks).
   * @param {Element} el @param {string} role @returns {string[]} */
  function widgetStates(el, role) {
    if (role === 'clickable') {
      const c = cursorOf(el);
      return attr(el, 'draggable') === 'true' || c === 'grab' || c === 'move' ? ['draggable'] : [];
    }
    if (!SCROLL_ROLES.has(role)) return [];
    /** @type {string[]} */
    const s = [];
    if (role === 'grid' || role === 'treegrid') {
      const r = rowSpan(el);
      if (r) s.push(r);
    }
    const sc = scrollerOf(el);
    const marks = sc ? marksOf(sc) : '';
    if (marks) s.push(...marks.split(' '));
    return s;
  }

  /** Whether role names a control or widget that a click on el would
   * already reach (clickables inside one are not listed again).
   * @param {string} role */
  function isControlRole(role) {
    return CONTROL_ROLES.has(role) || role === 'clickable';
  }

  /** A clickable's name: its label, else its text, with the items of a
   * flex or grid box kept apart ('Ada Quarterly numbers', where the row's
   * cells render as separate boxes, not 'AdaQuarterly numbers').
   * @param {Element} el */
  function clickableName(el) {
    const n = clickableOwnName(el);
    // A cell to click that shows nothing (an empty amount in a budget's
    // grid) is named by its column and row headers.
    return n || K.cellName(el);
  }

  /** @param {Element} el */
  function clickableOwnName(el) {
    if (hasAttr(el, 'aria-labelledby') || hasAttr(el, 'aria-label') || !el.firstElementChild) return nameOf(el, 'button');
    let d = '';
    try { d = getComputedStyle(el).display; } catch (_) { d = ''; }
    if (d.indexOf('flex') < 0 && d.indexOf('grid') < 0) return nameOf(el, 'button');
    /** @type {string[]} */
    const parts = [];
    noteText(el);
    for (let c = /** @type {Node|null} */ (el.firstChild); c; c = c.nextSibling) {
      const t = c.nodeType === 3 ? (/** @type {Text} */ (c).data).trim() : c.nodeType === 1 ? textOf(c, { checkVis: true }) : '';
      if (t) parts.push(t);
    }
    return parts.length ? cut(parts.join(' '), 300) : nameOf(el, 'button');
  }

  /** What a custom combobox has chosen when its own value is empty (an
   * input that shows the choice beside it, as Tom Select does): the chosen
   * option of the hidden select it stands in for, else the text of the
   * option marked aria-selected in the listbox it controls, open or not;
   * '' when there is none.
   * @param {Element} el */
  function comboValue(el) {
    const s = wrappedSelect(el, 'combobox');
    if (s) return cut(chosenText(s), 200);
    const ids = attr(el, 'aria-controls') || attr(el, 'aria-owns');
    if (!ids) return '';
    const root = /** @type {Document|ShadowRoot} */ (el.getRootNode());
    for (const id of ids.trim().split(/\s+/)) {
      const box = root.getElementById ? root.getElementById(id) : document.getElementById(id);
      const o = box && box.querySelector('[role=option][aria-selected=true]');
      if (o) return cut(fold(textIn(o)), 200);
    }
    return '';
  }

  // Custom selects (docs/widgets.md, *Widgets*): libraries hide a
  // native <select> and show a control of their own that stands in for
  // it, keeping the two in step. The select holds what the control means:
  // its label names the control, its chosen option is the control's value.

  /** Whether a native select is out of people's sight: hidden, not
   * rendered, transparent, or a few pixels across one way or the other (a
   * library's "hidden accessible" select, clipped to a pixel); style
   * first, see visibility.js clippedShut. @param {HTMLSelectElement} s */
  function unseenSelect(s) {
    if (isHiddenAttr(s) || !isVisible(s) || parseFloat(getComputedStyle(s).opacity) === 0) return true;
    return thinBox(s);
  }

  /** The control that stands in for a hidden select: the nearest ancestor
   * (a few levels up) with a popup's role (Choices.js), else, in the
   * element right after the select, the first one with a popup's role
   * (Select2, Tom Select, Slim Select), else that element or a button in
   * it when it is focusable, has a popup or shows the chosen option (Nice
   * Select, bootstrap-select). null when there is none to be seen.
   * @param {HTMLSelectElement} s @returns {Element|null} */
  function selectStandIn(s) {
    let a = s.parentElement;
    for (let i = 0; a && i < WRAP_DEPTH && a.localName !== 'body' && a.localName !== 'form'; i++, a = a.parentElement) {
      const r = declaredRole(a);
      if (r === 'combobox' || r === 'listbox') return isVisible(a) ? a : null;
    }
    const next = s.nextElementSibling;
    if (!next || next.localName === 'select') return null;
    /** @type {Element|null} */
    let c = next.matches(POPUP_ROLES) ? next : next.querySelector(POPUP_ROLES);
    if (!c) {
      const chosen = chosenText(s);
      const standsIn = (/** @type {Element} */ e) => hasAttr(e, 'aria-haspopup') ||
        (hasAttr(e, 'tabindex') && e.localName !== 'button' && e.localName !== 'a') ||
        (!!chosen && fold(textIn(e)).indexOf(chosen) >= 0);
      c = standsIn(next) ? next : null;
      if (!c) {
        const b = next.querySelector('button,[tabindex],[aria-haspopup]');
        c = b && standsIn(b) ? b : null;
      }
    }
    return c && isVisible(c) ? c : null;
  }

  /** The hidden select el stands in for, or null. role is el's role; only
   * a control with a popup's role wraps its select, and elements with no
   * role come right after theirs.
   * @param {Element} el @param {string} role @returns {HTMLSelectElement|null} */
  function wrappedSelect(el, role) {
    if (role && !STAND_IN_ROLES.has(role)) return null;
    /** @type {Element|null} */
    let s = null;
    if (role === 'combobox' || role === 'listbox') s = el.querySelector('select');
    if (s && !match(/** @type {HTMLSelectElement} */ (s), el)) s = null;
    /** @type {Element|null} */
    let a = el;
    for (let i = 0; !s && a && i <= (role ? WRAP_DEPTH : 0) && a.localName !== 'body'; i++, a = a.parentElement) {
      const p = a.previousElementSibling;
      if (p && p.localName === 'select' && match(/** @type {HTMLSelectElement} */ (p), el)) s = p;
    }
    return /** @type {HTMLSelectElement|null} */ (s);
  }

  /** @param {HTMLSelectElement} s @param {Element} el */
  function match(s, el) {
    return unseenSelect(s) && selectStandIn(s) === el;
  }

  /** The labels of a select's chosen options, ', ' apart, leaving out a
   * placeholder (an option with an empty value): '' when nothing is chosen.
   * @param {HTMLSelectElement} s */
  function chosenText(s) {
    for (let i = 0; i < s.options.length; i++) {
      const o = s.options[i];
      if (o.selected && o.value !== '') return selectValue(s);
    }
    return '';
  }

  /** The name of a control standing in for select s: the select's label,
   * else the control's own name, else the select's title or placeholder.
   * @param {Element} el @param {HTMLSelectElement} s */
  function wrapperName(el, s) {
    return labelName(s) || nameOf(el, 'combobox') || nameOf(s, 'combobox');
  }

  /** el's role as the snapshot shows it: a control standing in for a
   * hidden select is a combobox, whatever role it has.
   * @param {Element} el */
  function controlRole(el) {
    const role = roleOf(el);
    return wrappedSelect(el, role) ? 'combobox' : role;
  }

  /** The visible elements inside a stand-in el that show one of its
   * select's options (the innermost with an option's label), for a
   * library whose options have no role (Nice Select's list items).
   * @param {Element} el @param {HTMLSelectElement} s @returns {Element[]} */
  function standInOptions(el, s) {
    /** @type {Set<string>} */
    const labels = new Set();
    for (let i = 0; i < s.options.length; i++) labels.add(fold(s.options[i].label || s.options[i].text));
    /** @type {Element[]} */
    const out = [];
    const all = el.querySelectorAll('*');
    for (let i = 0; i < all.length; i++) {
      const e = all[i];
      if (!labels.has(fold(textIn(e)))) continue;
      const inner = e.firstElementChild;
      if (inner && fold(textIn(inner)) === fold(textIn(e))) continue;
      if (!isHiddenAttr(e) && isVisible(e)) out.push(e);
    }
    return out;
  }

  /** A link's destination as the browser resolves it (absolute), or ''.
   * @param {Element} el */
  function hrefOf(el) {
    const h = /** @type {any} */ (el).href;
    if (typeof h === 'string') return h;
    const raw = attr(el, 'href') || attr(el, 'xlink:href');
    if (!raw) return '';
    try { return new URL(raw, document.baseURI).href; } catch (_) { return raw; }
  }

  // Facts of layout, noted while a walk records (base.js fact).
  const marksOf = fact((sc) => scrollMarks(sc).join(' '));
  const overflowsY = fact(overflowsYNow);
  const tallOverflowsY = fact(tallOverflowsYNow);

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    unseenSelect, selectStandIn, wrappedSelect, chosenText, wrapperName, controlRole, standInOptions,
    comboValue, clickableName, hrefOf, cursorOf, clickStart, hoverMemo, isClickable, isWidget, scrollerOf, scrollMarks, widgetStates, isControlRole,
  }));
})();
