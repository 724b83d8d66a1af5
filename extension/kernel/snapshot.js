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
  const { attrMemo, visibleMemo, readsInto, idFor, sigOf, setSig, pruneCache, SKIP_WALK, shadowOf, isHiddenAttr, isVisible, noBox, clippedShut, speck, farOff, areaBox, labelsOf,
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

  // How a walk lists an element (listed): as a drawing or canvas, as a
  // clickable, by its role, or as text (content mode).
  const AS_DRAWING = 1, AS_CLICKABLE = 2, AS_ROLE = 3, AS_TEXT = 4;

  /**
   * The line of el as the walk lists it the way `how` says, with its
   * signature now and its widget states; null when, read now, el is not
   * listed that way (a link whose name went, a text that says nothing).
   * One function for the walk and for a re-read that lists again only the
   * lines a change of text reached (reread.js), so the two cannot differ.
   * @param {Element} el @param {ListedAs} how
   * @param {boolean} content @param {boolean} keepSignatures
   * @returns {{r: Reported, sig: Signature, ws: string[], says: boolean}|null}
   */
  function listed(el, how, content, keepSignatures) {
    const role = how.role;
    let name = '', text = '', inferred = false, says = false;
    if (how.as === AS_DRAWING) {
      name = how.drawing ? drawingName(el, role) : nameOf(el, role);
      says = el.localName === 'canvas' || PRESENTATIONAL.has(role);
    } else if (how.as === AS_CLICKABLE) {
      name = clickableName(el);
      inferred = nameInferred();
      if (!name && how.svgPart) {
        name = partName(el);
        inferred = !!name;
      }
      says = true;
    } else if (how.as === AS_ROLE) {
      const wrapped = how.wrapped;
      name = wrapped ? wrapperName(el, wrapped) : nameOf(el, role);
      inferred = !wrapped && nameInferred();
      // An unnamed link that is a speck is a focus anchor, not a link
      // anyone follows (visibility.js speck).
      if (!(how.control || name) || (role === 'link' && !name && speck(el))) return null;
      // A region, article or dialog named by its label does not say
      // what it holds: its text of its own goes on its line, and the
      // plain elements inside it are reported (a mail's body).
      says = how.control || saysContent(el, role);
      text = !says && content && hasOwnText(el) ? ownText(el) : '';
      if (text) says = true;
      if (text === name) text = '';
    } else {
      name = nameOf(el, 'text');
      if (!name) return null;
      text = labelledByAria(el) ? ownText(el) : '';
      if (text === name) text = '';
      says = true;
    }
    const id = idFor(el);
    const sig = signatureOf(el, role, name);
    if (!keepSignatures || sigOf(id) === undefined) setSig(id, sig);
    /** @type {Reported} */
    const r = { id, role, name };
    const v = CONTROL_ROLES.has(role) ? valueText(el, role) || (role === 'combobox' ? comboValue(el) : '') : text;
    if (v) r.value = v;
    const st = statesOf(el, role, content);
    if (role === 'link') {
      const h = hrefOf(el);
      if (h) r.href = h;
    }
    const ws = widgetStates(el, role);
    if (ws.length) st.push(...ws);
    if (inferred) st.push('inferred');
    if (how.as === AS_DRAWING) st.push(boxState(el));
    if (st.length) r.states = st;
    return { r, sig, ws, says };
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
   *   what it kept costs no second reading of them); and, for a re-read
   *   after a change of text alone, how each line was listed, what text
   *   and layout its line read, and what the walk's own choices read
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

    // The tree the walk is in (names.js setWalkRoot), for listing a line again.
    /** @type {Node|null} */
    let root = document;
    /** What the walk's choices read (which elements it lists), apart from
     * what each line read. @type {Reads|null} */
    const walkReads = found ? { text: [], facts: [] } : null;
    /** Lists el the way how says, when it is listed so; its reads go to
     * its line, or, when it is not listed, to the walk's own.
     * @param {Element} el @param {ListedAs} how @returns {Reported|null} */
    const list = (el, how) => {
      /** @type {Reads|null} */
      const lineReads = found ? { text: [], facts: [] } : null;
      if (found) readsInto(lineReads);
      let l;
      try { l = listed(el, how, content, keepSignatures); } finally { if (found) readsInto(walkReads); }
      if (!l) {
        if (walkReads && lineReads) mergeReads(walkReads, lineReads);
        return null;
      }
      how.says = l.says;
      if (CONTROL_ROLES.has(how.role)) controls++;
      out.push(l.r);
      if (found && lineReads) {
        found.els.push(el);
        found.sigs.push(l.sig);
        found.ws.push(l.ws);
        found.how.push(how);
        found.reads.push(lineReads);
        found.roots.push(root);
      }
      says = l.says;
      return l.r;
    };
    /** @type {boolean} set by list: whether the line just listed says the text under it */
    let says = false;
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
    /** Drops the line at i, and what found holds for it; what it read
     * goes to the walk's own reads when the choice to drop it read it.
     * @param {number} i @param {boolean} [chosenByText] */
    const drop = (i, chosenByText) => {
      out.splice(i, 1);
      if (found) {
        found.sigs.splice(i, 1);
        found.ws.splice(i, 1);
        const [el] = found.els.splice(i, 1);
        const [how] = found.how.splice(i, 1);
        const [r] = found.reads.splice(i, 1);
        const [inRoot] = found.roots.splice(i, 1);
        // A line dropped by count (a row whose controls speak for it) set
        // its element's meaning all the same: a re-read sets it again when
        // a change reaches what it read.
        if (chosenByText && walkReads) mergeReads(walkReads, r);
        else found.dropped.push({ el, how, reads: r, root: inRoot });
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
      // mode: loose text below is not reported again); list sets it.
      says = false;
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
          reported = !!list(el, { as: AS_DRAWING, role, drawing: isDrawing, svgPart: false, control: false, wrapped: null });
        }
      }
      if (!reported && !control && !inControl && (svgPart ? drawnStart(el, cursor, parentCursor) : clickStart(el, cursor, parentCursor))) {
        visible = isVisible(el) ? 1 : 0;
        if (!visible && found) found.unseen.push(el);
        // Listed only where a press can land, as an action's check has it.
        if (visible && areaBox(el) && !far(el, outOfFlow)) {
          role = 'clickable';
          reported = !!list(el, { as: AS_CLICKABLE, role, drawing: false, svgPart, control: false, wrapped: null });
        }
      }
      if (reported) {
        // listed as clickable
      } else if (role && (control || (content && (TEXT_ROLES.has(role) || declared)) )) {
        visible = isVisible(el) ? 1 : 0;
        if (!visible && found) found.unseen.push(el);
        if (visible && !far(el, outOfFlow)) {
          reported = !!list(el, { as: AS_ROLE, role, drawing: false, svgPart: false, control, wrapped });
        }
      } else if (content && !inside && tag !== 'label' && tag !== 'legend' && hasOwnText(el)) {
        visible = isVisible(el) ? 1 : 0;
        if (!visible && found) found.unseen.push(el);
        if (visible && !far(el, outOfFlow)) {
          reported = !!list(el, { as: AS_TEXT, role: 'text', drawing: false, svgPart: false, control: false, wrapped: null });
          if (reported) role = 'text';
        }
      }
      const saysText = reported && says;
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
      if (saysText) inside++;
      if (isCtl) inControl++;
      const farOuter = farIn;
      if (outOfFlow) farIn = farOnce(el) ? farIn + 1 : 0;
      if (isDrawing) drawing = true;
      else if (inDrawing && tag === 'foreignObject') drawing = false;
      if (sr) {
        const outer = setWalkRoot(sr);
        root = sr;
        walkChildren(sr, cursor);
        setWalkRoot(outer);
        root = outer;
      } else if (tag === 'slot') {
        const assigned = /** @type {HTMLSlotElement} */ (el).assignedElements();
        if (assigned.length) {
          // Slotted elements live in the host's tree, not this shadow root.
          const outer = setWalkRoot(null);
          root = null;
          for (const a of assigned) visit(a, cursor);
          setWalkRoot(outer);
          root = outer;
        } else {
          walkChildren(el, cursor);
        }
      } else {
        walkChildren(el, cursor);
      }
      drawing = inDrawing;
      farIn = farOuter;
      if (isCtl) inControl--;
      if (saysText) inside--;
      // A grid row or a clickable that holds controls: the controls speak
      // for it (a calendar's week of day buttons, the clickable box around
      // a custom select's input).
      if (reported && (role === 'row' || (role === 'clickable' && !svgPart)) && controls > controlsBefore && out[at] && out[at].role === role) {
        drop(at);
      } else if (reported && role === 'listitem' && controls === controlsBefore + 1 && out[at] && out[at].role === role &&
        out.length === at + 2) {
        // A list item that says only what the one control in it says (a
        // menu's item around its link): the control speaks for it. The
        // choice reads both lines' text: it is the walk's own read.
        if (found && walkReads) mergeReads(walkReads, found.reads[at + 1]);
        if (!out[at].value && out[at + 1].name === out[at].name) drop(at, true);
        else if (found && walkReads) mergeReads(walkReads, found.reads[at]);
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
    const outerReads = readsInto(walkReads);
    try {
      if (rootEl) visit(rootEl, '');
    } finally {
      attrMemo(false);
      visibleMemo(false);
      hoverMemo(false);
      setWalkRoot(null);
      readsInto(outerReads);
    }
    if (found && walkReads) found.walkReads = walkReads;
    // Repeats of a role and name get their context (context.js); every
    // element does for the host's resolving of a target line.
    addContexts(out, elementOf, allContexts === true, found ? found.contexts = new Map() : undefined);
    return {
      url: location.href,
      title: document.title,
      elements: out,
      stats: { nodes, ms: Math.round((performance.now() - t0) * 100) / 100 },
    };
  }

  /** Adds what `from` read to what `to` read. @param {Reads} to @param {Reads} from */
  function mergeReads(to, from) {
    for (let i = 0; i < from.text.length; i++) to.text.push(from.text[i]);
    for (let i = 0; i < from.facts.length; i++) to.facts.push(from.facts[i]);
  }

  /**
   * Lists again the lines a change of text reached (reread.js): each the
   * way the walk listed it, in the tree it was in, with what it reads now;
   * null when one is not listed that way any more (a full walk is due).
   * @param {Element[]} els @param {ListedAs[]} hows @param {(Node|null)[]} roots
   * @param {boolean} content @param {boolean} keepSignatures
   * @returns {{r: Reported, sig: Signature, ws: string[], reads: Reads}[]|null}
   */
  function relist(els, hows, roots, content, keepSignatures) {
    /** @type {{r: Reported, sig: Signature, ws: string[], reads: Reads}[]} */
    const out = [];
    attrMemo(true);
    visibleMemo(true);
    hoverMemo(true);
    try {
      for (let i = 0; i < els.length; i++) {
        /** @type {Reads} */
        const reads = { text: [], facts: [] };
        const outerRoot = setWalkRoot(roots[i]);
        const outerReads = readsInto(reads);
        let l;
        try { l = listed(els[i], hows[i], content, keepSignatures); } finally { readsInto(outerReads); setWalkRoot(outerRoot); }
        if (!l || l.says !== hows[i].says) return null;
        out.push({ r: l.r, sig: l.sig, ws: l.ws, reads });
      }
    } finally {
      attrMemo(false);
      visibleMemo(false);
      hoverMemo(false);
    }
    return out;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ snapshot, relist, mergeReads }));
})();
