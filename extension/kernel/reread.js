// @ts-check
// Re-reads of a page that has not changed (docs/settling.md, "Re-reading
// an unchanged page"): an agent reads the same page again and again between
// small actions, and most re-reads find nothing changed. The last walk's
// result is kept per document, with what it found, and given again when
// nothing it depends on changed since — checked, not assumed:
//
// - what a MutationObserver sees (the DOM, text, every attribute, in the
//   document and its open shadow roots) and the events of what it does not
//   see (scrolling, focus, hover, input, animations and transitions, popovers
//   toggling, images and fonts loading, the viewport's size) throw the kept
//   walk away at once, so a changed page never holds old nodes; all but a
//   change of one of the page's own attributes (data-*) that neither the
//   kernel nor any style rule reads (pageOwn), which changes nothing shown;
// - at the re-read: each reported control's value and checked state (a
//   script may set them with no event) and the states that follow layout
//   (a scrolling widget's, a clickable's cursor), every reported element
//   still rendering and every element the walk found not rendering, or did
//   not enter, still not (visibility through CSS: a stylesheet rule, a class
//   above it, a media query), every element found out of every scroll's
//   reach still so (visibility.js farOff), custom elements' shadow roots
//   (one attached later), the style sheets' rule counts (rules inserted or deleted through
//   the CSSOM) and the viewport's size.
//
// Anything else is a full walk, whose result is kept in turn. Not seen: a
// rule of a style sheet edited in place (rule.style.cursor = …, or a
// selector rewritten to name a data-* attribute) that changes a cursor, a
// name's hidden text or a masked field without changing whether anything
// renders. Nothing here is visible to the page: the kept walk lives
// in this isolated world's closure, elements are keyed weakly.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { snapshot, shadowOf, isVisible, farOff, noBox, idOf, sigOf, setSig, widgetStates, aliveUnlisted } = K;

  // The events of changes a MutationObserver does not see, listened for in
  // the capture phase at the window (non-bubbling ones included).
  const UNSEEN_EVENTS = ['scroll', 'focusin', 'focusout', 'input', 'change', 'mouseover', 'mouseout',
    'animationstart', 'animationend', 'animationcancel', 'transitionrun', 'transitionend', 'transitioncancel',
    'toggle', 'load', 'resize', 'pageshow', 'fullscreenchange'];

  /**
   * @typedef {{el: Element, role: string, sig: Signature, props: string}} KeptElement
   * @typedef {{key: string, walk: string, refs: any, result: any, kept: KeptElement[], unseen: Element[], far: Element[], pruned: Element[],
   *   hosts: Element[], shadows: (ShadowRoot|null)[], sheets: string, view: string}} Kept
   */

  /** The kept walk, or null when the page changed since. @type {Kept|null} */
  let kept = null;
  // Each walk kept is named, uniquely across documents and kernels, so the
  // host, which holds the elements of the walks it was sent, can be told
  // "the same as walk W" instead of being sent them again.
  const INSTANCE = Math.random().toString(36).slice(2, 10);
  let walks = 0;
  /** @type {MutationObserver|null} */
  let obs = null;
  /** @type {WeakSet<Node>} */
  let observed = new WeakSet();

  const drop = () => { kept = null; };

  // The page's own attributes (data-*: HTML gives them no meaning, no
  // user-agent style reads them) that the kernel reads by name. Any other
  // data-* attribute changes nothing a walk reads unless a style rule names
  // it, so a change of one alone keeps the kept walk (see pageOwn); a test
  // holds this list to the kernel's sources (extension TestPageOwnAttributesRead).
  const KERNEL_READS_DATA = new Set(['data-placeholder', 'data-placeholder-active', 'data-value']);

  /** Throws the kept walk away unless every record is of an attribute
   * that changes nothing it read. @param {MutationRecord[]} records */
  const seen = (records) => {
    if (kept && !pageOwn(records, kept.hosts)) kept = null;
  };

  /** Starts watching this document, once. */
  function watch() {
    if (obs) return;
    obs = new MutationObserver(seen);
    observe(document);
    for (const type of UNSEEN_EVENTS) addEventListener(type, drop, { capture: true, passive: true });
    if (document.fonts) document.fonts.addEventListener('loadingdone', drop);
  }

  /** @param {Node} root */
  function observe(root) {
    if (!obs || observed.has(root)) return;
    observed.add(root);
    obs.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  }

  /** What of a reported element changes with no mutation and no event
   * seen yet: a control's value and checked state (set by a script), and
   * the states of layout — where a scrolling widget stands (its scroll
   * event comes with the next frame), a clickable's cursor. states: el's
   * widget states, when the walk has just read them.
   * @param {Element} el @param {string} role @param {string[]} [states] */
  function propsOf(el, role, states) {
    const e = /** @type {any} */ (el);
    const ws = states || widgetStates(el, role);
    const w = ws.length ? ws.join(' ') : '';
    switch (el.localName) {
      case 'input':
        return w + '\u0000' + e.value + '\u0000' + e.checked + e.indeterminate + (e.files ? e.files.length : 0);
      case 'textarea':
        return w + '\u0000' + e.value;
      case 'select':
        return w + '\u0000' + e.selectedIndex + '\u0000' + e.value;
    }
    return w;
  }

  /** Whether every record is of a data-* attribute that nothing a walk
   * reads depends on: not one the kernel reads (KERNEL_READS_DATA), not
   * named anywhere in the style rules of the document or of the shadow
   * roots walked (a selector, attr() in a declaration), with every sheet
   * readable, and no element's style attribute calling attr(). A page
   * setting such an attribute (a framework's marker, a timestamp, an
   * analytics tag) changed nothing a snapshot shows; whatever its scripts
   * do about it is seen in turn. @param {MutationRecord[]} records
   * @param {Element[]} hosts */
  function pageOwn(records, hosts) {
    /** @type {Set<string>|null|undefined} */
    let named;
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const name = r.type === 'attributes' && !r.attributeNamespace ? r.attributeName : null;
      // Only names a rule writes as they are (no escapes) are looked for.
      if (!name || !PAGE_OWN_NAME.test(name) || KERNEL_READS_DATA.has(name)) return false;
      if (named === undefined) named = styleNames(hosts);
      if (named === null || named.has(name)) return false;
    }
    return true;
  }

  const PAGE_OWN_NAME = /^data-[a-z0-9_-]+$/;
  const DATA_NAMES = /data-[a-z0-9_-]+/g;

  /** The data-* names that the style rules which can apply write anywhere
   * (lowercased), kept while the sheets' rule counts say the same and the
   * kept walk is the same; null when a sheet cannot be read (another
   * origin's) or an element's style attribute calls attr(): either may
   * read any attribute. @type {{key: string, names: Set<string>|null}} */
  let styleMemo = { key: '', names: null };
  /** @param {Element[]} hosts */
  function styleNames(hosts) {
    const key = sheetsOf(hosts);
    if (key === styleMemo.key) return styleMemo.names;
    /** @type {Set<string>|null} */
    let names = new Set();
    /** @param {CSSStyleSheet} sh @param {number} depth */
    const add = (sh, depth) => {
      let rules;
      try { rules = sh.cssRules; } catch (_) { names = null; return; }
      for (let i = 0; i < rules.length && names; i++) {
        const rule = /** @type {any} */ (rules[i]);
        // An @import's own text is its address: its sheet's rules apply.
        if (rule.styleSheet) {
          if (depth < 8) add(rule.styleSheet, depth + 1);
          else names = null;
          continue;
        }
        const text = rule.cssText.toLowerCase();
        if (text.indexOf('data-') < 0) continue;
        const found = text.match(DATA_NAMES);
        if (found) for (const n of found) names.add(n);
      }
    };
    /** @param {StyleSheetList|CSSStyleSheet[]} list */
    const addAll = (list) => {
      for (let i = 0; i < list.length && names; i++) add(/** @type {CSSStyleSheet} */ (list[i]), 0);
    };
    /** @type {(Document|ShadowRoot)[]} */
    const roots = [document];
    for (const h of hosts) {
      const sr = shadowOf(h);
      if (sr) roots.push(sr);
    }
    for (const root of roots) {
      if (!names) break;
      addAll(root.styleSheets);
      if (root.adoptedStyleSheets) addAll(root.adoptedStyleSheets);
      if (root.querySelector('[style*="attr(" i]')) names = null;
    }
    styleMemo = { key, names };
    return names;
  }

  /** The style sheets' rule counts, as one string: a rule inserted or
   * deleted through the CSSOM (no mutation) changes it. A sheet of another
   * origin cannot be read and counts as one. hosts: the shadow hosts the
   * walk entered. @param {Element[]} hosts */
  function sheetsOf(hosts) {
    let s = '';
    /** @param {StyleSheetList|CSSStyleSheet[]} list */
    const add = (list) => {
      for (let i = 0; i < list.length; i++) {
        const sh = /** @type {CSSStyleSheet} */ (list[i]);
        let n = -1;
        try { n = sh.cssRules.length; } catch (_) { /* another origin's */ }
        s += n + (sh.disabled ? 'd' : '') + (sh.media && sh.media.length ? sh.media.mediaText : '') + ',';
      }
    };
    add(document.styleSheets);
    if (document.adoptedStyleSheets) add(document.adoptedStyleSheets);
    for (const h of hosts) {
      const sr = shadowOf(h);
      if (sr) { add(sr.styleSheets); if (sr.adoptedStyleSheets) add(sr.adoptedStyleSheets); }
    }
    return s;
  }

  /** The viewport, whose size media queries follow (its resize event
   * comes with the next frame). */
  function viewOf() {
    return innerWidth + 'x' + innerHeight + '@' + devicePixelRatio;
  }

  /** Whether the kept walk still holds for key. @param {Kept} k @param {string} key */
  function holds(k, key) {
    if (k.key !== key || k.refs !== /** @type {any} */ (globalThis).__gripRefCache__ || k.view !== viewOf()) return false;
    if (obs) {
      const records = obs.takeRecords();
      if (records.length && !pageOwn(records, k.hosts)) return false;
    }
    for (let i = 0; i < k.kept.length; i++) {
      const c = k.kept[i];
      if (!c.el.isConnected || propsOf(c.el, c.role) !== c.props || !isVisible(c.el)) return false;
    }
    for (let i = 0; i < k.unseen.length; i++) if (isVisible(k.unseen[i])) return false;
    for (let i = 0; i < k.far.length; i++) if (!farOff(k.far[i])) return false;
    for (let i = 0; i < k.pruned.length; i++) if (!noBox(k.pruned[i])) return false;
    for (let i = 0; i < k.hosts.length; i++) if (shadowOf(k.hosts[i]) !== k.shadows[i]) return false;
    return sheetsOf(k.hosts) === k.sheets;
  }

  /**
   * The snapshot (snapshot.js), from the kept walk when nothing it depends
   * on changed, else walked and kept; walk names it. When the caller holds
   * that walk's elements (known lists it), they are left out: same.
   * @param {string} mode @param {boolean} keepSignatures @param {boolean} allContexts @param {unknown} [known]
   * @returns {ReturnType<GripKernel['snapshot']> & {walk?: string, same?: boolean, alive?: number[]}}
   */
  function reread(mode, keepSignatures, allContexts, known) {
    const t0 = performance.now();
    watch();
    // The host's own read after an action (keepSignatures) and the agent's
    // next snapshot see the same page: one kept walk serves both.
    const key = mode + (allContexts ? '+contexts' : '');
    const k = kept;
    if (k && holds(k, key)) {
      // The meanings an action checks are what this walk would set.
      for (const c of k.kept) {
        const id = idOf(c.el);
        if (id !== undefined && (!keepSignatures || sigOf(id) === undefined)) setSig(id, c.sig);
      }
      const r = k.result;
      const same = Array.isArray(known) && known.indexOf(k.walk) >= 0;
      const stats = { nodes: r.stats.nodes, ms: Math.round((performance.now() - t0) * 100) / 100, reread: true };
      const alive = aliveUnlisted(r.elements);
      return same ? { url: location.href, title: document.title, elements: [], alive, walk: k.walk, same, stats }
        : { url: location.href, title: document.title, elements: r.elements, alive, walk: k.walk, stats };
    }
    kept = null;
    // The style rules are read again for this walk: its elements' style
    // attributes may differ.
    styleMemo = { key: '', names: null };
    // Start observing afresh: until its records are delivered (the end of
    // the page's task), an observer keeps every subtree removed under it,
    // and a page that re-renders many times in one task, our reads between,
    // would hold them all (kerneltest TestNoLeakOnRerender).
    if (obs) {
      obs.disconnect();
      observed = new WeakSet();
      observe(document);
    }
    /** @type {WalkFound} */
    const found = { unseen: [], far: [], pruned: [], hosts: [], els: [], sigs: [], ws: [] };
    const result = snapshot(mode, keepSignatures, allContexts, found);
    for (const h of found.hosts) {
      const sr = shadowOf(h);
      if (sr) observe(sr);
    }
    /** @type {KeptElement[]} */
    const list = [];
    // The meaning each element has now, which a walk without
    // keepSignatures sets (the kept one may be what the agent saw before):
    // the walk's, one for each element of the reply, in its order.
    for (let i = 0; i < result.elements.length; i++) {
      const el = found.els[i];
      const r = result.elements[i];
      list.push({ el, role: r.role, sig: found.sigs[i], props: propsOf(el, r.role, found.ws[i]) });
    }
    // A walk that ran while the page changed (a mutation between its
    // start and now) is not kept.
    const alive = aliveUnlisted(result.elements);
    if (obs) {
      const records = obs.takeRecords();
      if (records.length && !pageOwn(records, found.hosts)) return { ...result, alive };
    }
    const walk = INSTANCE + '.' + ++walks;
    const next = { key, walk, refs: /** @type {any} */ (globalThis).__gripRefCache__, result, kept: list, unseen: found.unseen, far: found.far,
      pruned: found.pruned, hosts: found.hosts, shadows: found.hosts.map((h) => shadowOf(h)), sheets: '', view: viewOf() };
    kept = next;
    next.sheets = sheetsOf(found.hosts);
    return { ...result, alive, walk };
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ reread }));
})();
