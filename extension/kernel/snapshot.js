// @ts-check
// The snapshot: one walk of the flat tree that reports every visible
// control (interactive mode), plus headings and prose (content mode), each
// under its local id. Skipped by what they are: <option> of a native
// select (the select reports its value), input[type=hidden], anything
// hidden, inert or aria-hidden; and anything that does not render.
// Elements with no role that act on click are listed as `clickable`, the
// rows of grids as rows, with the rules of widgets.js.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attrMemo, visibleMemo, idFor, sigOf, setSig, pruneCache, SKIP_WALK, shadowOf, isHiddenAttr, isVisible, noBox, clippedShut, speck, farOff, areaBox, labelsOf,
    CONTROL_ROLES, TEXT_ROLES, NAME_FROM_CONTENT, declaredRole, roleOf, roleWith, inputType, nameOf, nameInferred, labelledByAria, ownText, hasOwnText, setWalkRoot,
    valueText, statesOf, signatureOf, comboValue, unseenSelect, selectStandIn, wrappedSelect, wrapperName, clickableName, hrefOf, clickStart, hoverMemo, isWidget, widgetStates, isControlRole, addContexts, elementOf,
    isDrawingRoot, hasParts, drawingRole, drawingName, drawnStart, partName, boxState, canvasShown } = K;

  // A subtree with this many children or more is tested for a box before
  // the walk enters it.
  const PRUNE_FANOUT = 8;
  // Roles whose children are presentational (ARIA): what they hold is no
  // text of its own to report.
  const PRESENTATIONAL = new Set(['img', 'math', 'meter', 'progressbar', 'scrollbar', 'separator']);

  const SVG_NS = 'http://www.w3.org/2000/svg';

  // Positions that take a box out of the flow, to wherever its offsets say.
  const OUT_OF_FLOW = new Set(['absolute', 'fixed']);

  // Roles of a combobox's popup.
  const POPUP_ROLES = new Set(['listbox', 'menu', 'tree', 'grid', 'dialog']);

  /** The ids of the popups that comboboxes say are collapsed
   * (aria-expanded=false, aria-controls naming the popup).
   * @returns {Set<string>} */
  function collapsedPopups() {
    /** @type {Set<string>} */
    const ids = new Set();
    const boxes = document.querySelectorAll('[aria-expanded="false"][aria-controls]');
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i];
      if (roleOf(b) !== 'combobox') continue;
      for (const id of (b.getAttribute('aria-controls') || '').trim().split(/\s+/)) if (id) ids.add(id);
    }
    return ids;
  }

  /** Whether the line of a non-control el of this role says the text it
   * holds: its name comes from its content, not from a label.
   * @param {Element} el @param {string} role */
  function saysContent(el, role) {
    if (PRESENTATIONAL.has(role)) return true;
    return (NAME_FROM_CONTENT.has(role) || TEXT_ROLES.has(role)) && !labelledByAria(el);
  }

  /**
   * @param {string} mode
   * @param {boolean} keepSignatures the host reading the page for its own
   *   bookkeeping (after an action) rather than showing it to the agent: an
   *   element's meaning stays what the agent last saw, so a rename the agent
   *   never saw still refuses with meaning_changed.
   * @param {boolean} [allContexts] every element gets its context, not only
   *   repeats (the host resolving a target line).
   * @param {WalkFound} [found] collects, for a re-read to check
   *   (reread.js), the elements tested and found not to render, the
   *   subtrees not entered for having no box, and the shadow hosts and
   *   custom elements walked; and, one each for the elements of the
   *   reply in its order, the element, its signature now and its widget
   *   states, which the walk computed already (so the re-read's list of
   *   what it kept costs no second reading of them)
   */
  function snapshot(mode, keepSignatures, allContexts, found) {
    const t0 = performance.now();
    const content = mode === 'content';
    pruneCache();
    /** @type {Reported[]} */
    const out = [];
    let nodes = 0;
    // Depth of reported elements above the current one whose lines say
    // their text (content mode: loose text inside them is not reported
    // again).
    let inside = 0;
    // Depth of reported controls and clickables above the current element:
    // a clickable inside one is not listed again.
    let inControl = 0;
    // Controls reported so far: a grid row that holds controls is dropped
    // once they are listed (a calendar's week, whose days are buttons).
    let controls = 0;
    // Whether the walk is in a drawing's SVG content, whose parts start by
    // the rules of drawings.js.
    let drawing = false;

    /** @param {Element} el @param {string} role @param {string} name
     * @param {string} [text] what a non-control holds, when its name is a label
     * @param {boolean} [inferred] the name is grip's guess, not the page's (names.js) */
    const report = (el, role, name, text, inferred) => {
      const id = idFor(el);
      const keep = !keepSignatures || sigOf(id) === undefined;
      const sig = keep || found ? signatureOf(el, role, name) : null;
      if (keep && sig) setSig(id, sig);
      /** @type {Reported} */
      const r = { id, role, name };
      const v = CONTROL_ROLES.has(role) ? valueText(el, role) || (role === 'combobox' ? comboValue(el) : '') : text || '';
      if (v) r.value = v;
      const st = statesOf(el, role, content);
      if (role === 'link') {
        const h = hrefOf(el);
        if (h) r.href = h;
      }
      const ws = widgetStates(el, role);
      if (ws.length) st.push(...ws);
      if (inferred) st.push('inferred');
      if (st.length) r.states = st;
      if (CONTROL_ROLES.has(role)) controls++;
      out.push(r);
      if (found && sig) {
        found.els.push(el);
        found.sigs.push(sig);
        found.ws.push(ws);
      }
    };
    // How many boxes out of the flow (absolute, fixed) holding boxes above
    // the current element lie where no scrolling brings them: only there,
    // or on such a box itself, can an element be out of reach, so only
    // there is its box read (visibility.js farOff; reading every listed
    // element's box cost a fifth of a walk of 18,000 elements).
    let farIn = 0;
    /** farOff(el), read once for the element being visited. @type {Element|null} */
    let farEl = null;
    let farVal = false;
    /** @param {Element} el */
    const farOnce = (el) => {
      if (farEl !== el) { farEl = el; farVal = farOff(el); }
      return farVal;
    };
    /** Whether el, rendering, is where no scrolling brings it, so not
     * listed; a field whose label shows is, as before (a styled checkbox
     * kept off-screen behind its label). Kept for the re-read to check.
     * @param {Element} el @param {boolean} outOfFlow el's box is out of the flow */
    const far = (el, outOfFlow) => {
      if ((!farIn && !outOfFlow) || !farOnce(el)) return false;
      for (const l of labelsOf(el)) if (isVisible(l) && !farOff(l)) return false;
      if (found) found.far.push(el);
      return true;
    };
    /** @param {Element} el */
    const styleOf = (el) => {
      try { return getComputedStyle(el); } catch (_) { return null; }
    };
    /** Drops the line at i, and what found holds for it. @param {number} i */
    const drop = (i) => {
      out.splice(i, 1);
      if (found) {
        found.els.splice(i, 1);
        found.sigs.splice(i, 1);
        found.ws.splice(i, 1);
      }
    };

    /** @param {Element} el @param {string} parentCursor the parent's computed cursor ('' inside a control) */
    const visit = (el, parentCursor) => {
      nodes++;
      if (isHiddenAttr(el)) return;
      const tag = el.localName;
      if (tag === 'input' && inputType(el) === 'hidden') return;
      const declared = declaredRole(el);
      let role = roleWith(el, declared);
      // The popup of a collapsed combobox is closed, whatever its styles
      // say (Slim Select keeps its lists rendered off-screen).
      if (closed.size && POPUP_ROLES.has(role) && closed.has(el.id)) return;
      // A popup clipped to a pixel is closed too (OOUI's menu, kept for
      // screen readers while its dropdown has focus; visibility.js).
      if (POPUP_ROLES.has(role) && clippedShut(el)) return;
      // A hidden native select a library's control stands in for is read
      // through that control (widgets.js).
      if (tag === 'select' && unseenSelect(/** @type {HTMLSelectElement} */ (el)) && selectStandIn(/** @type {HTMLSelectElement} */ (el))) return;
      const wrapped = wrappedSelect(el, role);
      if (wrapped) role = 'combobox';
      let reported = false;
      // Whether the line reported for el says the text inside it (content
      // mode: loose text below is not reported again).
      let says = false;
      let visible = -1; // -1 unknown, 0 no, 1 yes
      const control = CONTROL_ROLES.has(role) || isWidget(el, role);
      // Outside controls every element's cursor is read once, for its
      // children's test of where a pointer cursor starts.
      // A box holding boxes is read for whether it is out of the flow
      // (a menu of items kept off the page).
      const holds = !inControl && el.childElementCount > 1;
      const cs = inControl || (CONTROL_ROLES.has(role) && !holds) ? null : styleOf(el);
      const cursor = !cs || CONTROL_ROLES.has(role) ? '' : cs.cursor;
      const outOfFlow = holds && !!cs && OUT_OF_FLOW.has(cs.position);
      // A drawing with parts, and a canvas, are listed as what they are,
      // with the size of their box (drawings.js).
      const inDrawing = drawing;
      // Only SVG content follows the rules of parts; HTML in a drawing (a
      // foreignObject's, a graphics-document's) is read as any page, as
      // describe() reads it (drawings.js drawingOf).
      const svgPart = inDrawing && el.namespaceURI === SVG_NS;
      let isDrawing = false;
      if (!control && !inControl && !inDrawing && (tag === 'canvas' || isDrawingRoot(el))) {
        visible = isVisible(el) ? 1 : 0;
        if (!visible && found) found.unseen.push(el);
        if (visible && (tag === 'canvas' ? canvasShown(el) : hasParts(el)) && !far(el, outOfFlow)) {
          isDrawing = tag !== 'canvas';
          if (isDrawing) role = drawingRole(el);
          report(el, role, isDrawing ? drawingName(el, role) : nameOf(el, role));
          const line = out[out.length - 1];
          line.states = [...(line.states || []), boxState(el)];
          reported = true;
          says = tag === 'canvas' || PRESENTATIONAL.has(role);
        }
      }
      if (!reported && !control && !inControl && (svgPart ? drawnStart(el, cursor, parentCursor) : clickStart(el, cursor, parentCursor))) {
        visible = isVisible(el) ? 1 : 0;
        if (!visible && found) found.unseen.push(el);
        // Listed only where a press can land, as an action's check has it.
        if (visible && areaBox(el) && !far(el, outOfFlow)) {
          role = 'clickable';
          let name = clickableName(el);
          let inferred = nameInferred();
          if (!name && svgPart) {
            name = partName(el);
            inferred = !!name;
          }
          report(el, role, name, '', inferred);
          reported = says = true;
        }
      }
      if (reported) {
        // listed as clickable
      } else if (role && (control || (content && (TEXT_ROLES.has(role) || declared)) )) {
        visible = isVisible(el) ? 1 : 0;
        if (!visible && found) found.unseen.push(el);
        if (visible && !far(el, outOfFlow)) {
          const name = wrapped ? wrapperName(el, wrapped) : nameOf(el, role);
          const inferred = !wrapped && nameInferred();
          // An unnamed link that is a speck is a focus anchor, not a link
          // anyone follows (visibility.js speck).
          if ((control || name) && !(role === 'link' && !name && speck(el))) {
            // A region, article or dialog named by its label does not say
            // what it holds: its text of its own goes on its line, and the
            // plain elements inside it are reported (a mail's body).
            says = control || saysContent(el, role);
            const text = !says && content && hasOwnText(el) ? ownText(el) : '';
            report(el, role, name, text === name ? '' : text, inferred);
            reported = true;
            if (text) says = true;
          }
        }
      } else if (content && !inside && tag !== 'label' && tag !== 'legend' && hasOwnText(el)) {
        visible = isVisible(el) ? 1 : 0;
        if (!visible && found) found.unseen.push(el);
        if (visible && !far(el, outOfFlow)) {
          const name = nameOf(el, 'text');
          if (name) {
            const text = labelledByAria(el) ? ownText(el) : '';
            report(el, 'text', name, text === name ? '' : text);
            reported = says = true;
            role = 'text';
          }
        }
      }
      if (SKIP_WALK.has(tag)) return;
      const sr = shadowOf(el);
      if (found && (sr || tag.indexOf('-') > 0)) found.hosts.push(el);
      if (!sr && !el.firstElementChild && tag !== 'slot') return;
      // Prune subtrees without a box (display:none here or above). Every
      // reported element is checked itself, so this only saves walking: test
      // what was found invisible, and containers with many children.
      if (visible === 0 ? noBox(el) : (visible === -1 && el.childElementCount >= PRUNE_FANOUT && noBox(el))) {
        if (found) found.pruned.push(el);
        return;
      }
      // A part of a drawing does not hide the parts drawn in it (a node's ports).
      const isCtl = reported && isControlRole(role) && !(svgPart && role === 'clickable');
      const at = out.length - 1, controlsBefore = controls;
      if (says) inside++;
      if (isCtl) inControl++;
      const farOuter = farIn;
      if (outOfFlow) farIn = farOnce(el) ? farIn + 1 : 0;
      if (isDrawing) drawing = true;
      else if (inDrawing && tag === 'foreignObject') drawing = false;
      if (sr) {
        const outer = setWalkRoot(sr);
        walkChildren(sr, cursor);
        setWalkRoot(outer);
      } else if (tag === 'slot') {
        const assigned = /** @type {HTMLSlotElement} */ (el).assignedElements();
        if (assigned.length) {
          // Slotted elements live in the host's tree, not this shadow root.
          const outer = setWalkRoot(null);
          for (const a of assigned) visit(a, cursor);
          setWalkRoot(outer);
        } else {
          walkChildren(el, cursor);
        }
      } else {
        walkChildren(el, cursor);
      }
      drawing = inDrawing;
      farIn = farOuter;
      if (isCtl) inControl--;
      if (says) inside--;
      // A grid row or a clickable that holds controls: the controls speak
      // for it (a calendar's week of day buttons, the clickable box around
      // a custom select's input).
      if (reported && (role === 'row' || (role === 'clickable' && !svgPart)) && controls > controlsBefore && out[at] && out[at].role === role) {
        drop(at);
      } else if (reported && role === 'listitem' && controls === controlsBefore + 1 && out[at] && out[at].role === role &&
        out.length === at + 2 && !out[at].value && out[at + 1].name === out[at].name) {
        // A list item that says only what the one control in it says (a
        // menu's item around its link): the control speaks for it.
        drop(at);
      }
    };
    /** @param {Element|ShadowRoot} p @param {string} cursor */
    const walkChildren = (p, cursor) => {
      for (let c = p.firstElementChild; c; c = c.nextElementSibling) visit(c, cursor);
    };

    const rootEl = document.documentElement;
    const closed = collapsedPopups();
    attrMemo(true);
    visibleMemo(true);
    hoverMemo(true);
    setWalkRoot(document);
    try {
      if (rootEl) visit(rootEl, '');
    } finally {
      attrMemo(false);
      visibleMemo(false);
      hoverMemo(false);
      setWalkRoot(null);
    }
    // Repeats of a role and name get their context (context.js); every
    // element does for the host's resolving of a target line.
    addContexts(out, elementOf, allContexts === true);
    return {
      url: location.href,
      title: document.title,
      elements: out,
      stats: { nodes, ms: Math.round((performance.now() - t0) * 100) / 100 },
    };
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ snapshot }));
})();
