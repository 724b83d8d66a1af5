// @ts-check
// The snapshot: one walk of the flat tree that reports every visible
// control (interactive mode), plus headings and prose (content mode), each
// under its local id. Skipped by what they are: <option> of a native
// select (the select reports its value), input[type=hidden], anything
// hidden, inert or aria-hidden; and anything that does not render.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attrMemo, idFor, sigOf, setSig, pruneCache, SKIP_WALK, shadowOf, isHiddenAttr, isVisible, noBox,
    CONTROL_ROLES, TEXT_ROLES, declaredRole, implicitRole, inputType, nameOf, hasOwnText, setWalkRoot,
    valueText, statesOf, signatureOf } = K;

  // A subtree with this many children or more is tested for a box before
  // the walk enters it.
  const PRUNE_FANOUT = 8;

  /**
   * @param {string} mode
   * @param {boolean} keepSignatures the host reading the page for its own
   *   bookkeeping (after an action) rather than showing it to the agent: an
   *   element's meaning stays what the agent last saw, so a rename the agent
   *   never saw still refuses with meaning_changed.
   */
  function snapshot(mode, keepSignatures) {
    const t0 = performance.now();
    const content = mode === 'content';
    pruneCache();
    /** @type {Reported[]} */
    const out = [];
    let nodes = 0;
    // Depth of reported elements above the current one (content mode: loose
    // text inside them is not reported again).
    let inside = 0;

    /** @param {Element} el @param {string} role @param {string} name */
    const report = (el, role, name) => {
      const id = idFor(el);
      if (!keepSignatures || sigOf(id) === undefined) setSig(id, signatureOf(el, role, name));
      /** @type {Reported} */
      const r = { id, role, name };
      const v = CONTROL_ROLES.has(role) ? valueText(el, role) : '';
      if (v) r.value = v;
      const st = statesOf(el, role, content);
      if (st.length) r.states = st;
      out.push(r);
    };

    /** @param {Element} el */
    const visit = (el) => {
      nodes++;
      if (isHiddenAttr(el)) return;
      const tag = el.localName;
      if (tag === 'input' && inputType(el) === 'hidden') return;
      const declared = declaredRole(el);
      let role = declared || implicitRole(el);
      let reported = false;
      let visible = -1; // -1 unknown, 0 no, 1 yes
      if (role && (CONTROL_ROLES.has(role) || (content && (TEXT_ROLES.has(role) || declared)) )) {
        visible = isVisible(el) ? 1 : 0;
        if (visible) {
          const name = nameOf(el, role);
          if (CONTROL_ROLES.has(role) || name) {
            report(el, role, name);
            reported = true;
          }
        }
      } else if (content && !inside && tag !== 'label' && tag !== 'legend' && hasOwnText(el)) {
        visible = isVisible(el) ? 1 : 0;
        if (visible) {
          const name = nameOf(el, 'text');
          if (name) { report(el, 'text', name); reported = true; role = 'text'; }
        }
      }
      if (SKIP_WALK.has(tag)) return;
      const sr = shadowOf(el);
      if (!sr && !el.firstElementChild && tag !== 'slot') return;
      // Prune subtrees without a box (display:none here or above). Every
      // reported element is checked itself, so this only saves walking: test
      // what was found invisible, and containers with many children.
      if (visible === 0 ? noBox(el) : (visible === -1 && el.childElementCount >= PRUNE_FANOUT && noBox(el))) return;
      if (reported) inside++;
      if (sr) {
        const outer = setWalkRoot(sr);
        walkChildren(sr);
        setWalkRoot(outer);
      } else if (tag === 'slot') {
        const assigned = /** @type {HTMLSlotElement} */ (el).assignedElements();
        if (assigned.length) {
          // Slotted elements live in the host's tree, not this shadow root.
          const outer = setWalkRoot(null);
          for (const a of assigned) visit(a);
          setWalkRoot(outer);
        } else {
          walkChildren(el);
        }
      } else {
        walkChildren(el);
      }
      if (reported) inside--;
    };
    /** @param {Element|ShadowRoot} p */
    const walkChildren = (p) => {
      for (let c = p.firstElementChild; c; c = c.nextElementSibling) visit(c);
    };

    const rootEl = document.documentElement;
    attrMemo(true);
    setWalkRoot(document);
    try {
      if (rootEl) visit(rootEl);
    } finally {
      attrMemo(false);
      setWalkRoot(null);
    }
    return {
      url: location.href,
      title: document.title,
      elements: out,
      stats: { nodes, ms: Math.round((performance.now() - t0) * 100) / 100 },
    };
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ snapshot }));
})();
