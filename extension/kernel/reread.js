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
// A change of text alone (a text node's data, text nodes added or
// removed, no element and no attribute) lists again only the lines that
// read it (docs/settling.md, "A change of text alone"): with no style rule
// that follows text (:empty, :dir(), a container query) and no direction
// taken from text, the page's style is what the walk saw, so its choices
// stand but for what they read of text or judged by layout, which the walk
// noted (base.js readsInto, fact): a choice that read a text reached, or a
// fact of layout that no longer holds, is a full walk; a line that read
// one, or whose facts changed, is listed again by the walk's own function
// (snapshot.js relist), and every context is worked out again, each box's
// kept while what it read stands. A text in a style sheet, a field, an
// option, the title, or in SVG or MathML is a full walk.
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
   * @typedef {{el: Element, role: string, kind: number, sig: Signature, props: string}} KeptElement
   * @typedef {{key: string, walk: string, refs: any, result: any, kept: KeptElement[], unseen: Element[], far: Element[], pruned: Element[],
   *   hosts: Element[], shadows: (ShadowRoot|null)[], sheets: string, view: string,
   *   hows: ListedAs[], reads: Reads[], roots: (Node|null)[], walkReads: Reads, contexts: ContextMemo,
   *   byText: Map<Node, number[]>|null, pending: Node[], content: boolean, keepSignatures: boolean,
   *   dropped: WalkFound['dropped'], droppedDirty: number[], labels: KeptLabels}} Kept
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

  // At most this many text changes wait for the next read: a page that
  // changes its text all the time (a clock) and is not read meanwhile is
  // walked afresh.
  const PENDING_MAX = 2000;

  /** Throws the kept walk away unless every record is of an attribute
   * that changes nothing it read, or of text (kept for the next read).
   * @param {MutationRecord[]} records */
  const seen = (records) => {
    if (kept && !harmless(records, kept)) kept = null;
  };

  /** Whether each record is of an attribute that changes nothing a walk
   * read (pageOwn) or of text alone, whose node k's next read looks at
   * (k.pending). @param {MutationRecord[]} records @param {Kept} k */
  function harmless(records, k) {
    /** @type {MutationRecord[]} */
    const attrs = [];
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      if (r.type === 'attributes') attrs.push(r);
      else if (r.type === 'characterData' || (onlyText(r.addedNodes) && onlyText(r.removedNodes))) {
        if (k.pending.length >= PENDING_MAX) return false;
        k.pending.push(r.target);
      } else return false;
    }
    return !attrs.length || pageOwn(attrs, k.hosts);
  }

  /** @param {NodeList} nodes */
  function onlyText(nodes) {
    for (let i = 0; i < nodes.length; i++) {
      const t = nodes[i].nodeType;
      if (t !== 3 && t !== 8) return false;
    }
    return true;
  }

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

  // What kind of control a kept element is, for propsOf: read once when
  // it is kept, since its tag and an input's type change only by a
  // mutation, which throws the kept walk away. Each property read from
  // this isolated world costs about a third of a visibility check, and a
  // re-read makes one for every element it kept.
  const PLAIN = 0, FIELD = 1, CHECK = 2, FILE = 3, SELECT = 4;

  /** @param {Element} el */
  function kindOf(el) {
    switch (el.localName) {
      case 'input': {
        const t = /** @type {HTMLInputElement} */ (el).type;
        return t === 'checkbox' || t === 'radio' ? CHECK : t === 'file' ? FILE : FIELD;
      }
      case 'textarea': return FIELD;
      case 'select': return SELECT;
    }
    return PLAIN;
  }

  /** What of a reported element changes with no mutation and no event
   * seen yet: a control's value and checked state (set by a script), and
   * the states of layout — where a scrolling widget stands (its scroll
   * event comes with the next frame), a clickable's cursor. kind: el's
   * kindOf; states: el's widget states, when the walk has just read them.
   * @param {Element} el @param {string} role @param {number} kind @param {string[]} [states] */
  function propsOf(el, role, kind, states) {
    const e = /** @type {any} */ (el);
    const ws = states || widgetStates(el, role);
    const w = ws.length ? ws.join(' ') : '';
    switch (kind) {
      case FIELD: return w + '\u0000' + e.value;
      // A check box's checked and indeterminate each: not their sum, the
      // same for a box ticked and one half-ticked.
      case CHECK: return w + '\u0000' + e.value + '\u0000' + (e.checked ? 'c' : '') + (e.indeterminate ? 'i' : '');
      case FILE: return w + '\u0000' + e.value + '\u0000' + (e.files ? e.files.length : 0);
      // The value is the selected option's, which changes with the index
      // or by a mutation.
      case SELECT: return w + '\u0000' + e.selectedIndex;
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
   * read any attribute. textSafe: no rule follows text (:empty, :dir(),
   * a container query, which follows a box's size) and no element takes
   * its direction from its text (dir=auto, <bdi>), with every sheet
   * readable: then a change of text alone changes no computed style.
   * key is null until the rules are read: the key of a page with no
   * sheet at all is '', which must not find the memo read already (it
   * made every such page's change of text a full walk).
   * @type {{key: string|null, names: Set<string>|null, textSafe: boolean}} */
  const UNREAD = { key: null, names: null, textSafe: false };
  let styleMemo = UNREAD;
  /** @param {Element[]} hosts */
  function styleNames(hosts) {
    return styleRead(hosts).names;
  }
  /** @param {Element[]} hosts */
  function styleRead(hosts) {
    const key = sheetsOf(hosts);
    if (key === styleMemo.key) return styleMemo;
    /** @type {Set<string>|null} */
    let names = new Set();
    let textSafe = true;
    /** @param {CSSStyleSheet} sh @param {number} depth */
    const add = (sh, depth) => {
      let rules;
      try { rules = sh.cssRules; } catch (_) { names = null; textSafe = false; return; }
      for (let i = 0; i < rules.length && names; i++) {
        const rule = /** @type {any} */ (rules[i]);
        // An @import's own text is its address: its sheet's rules apply.
        if (rule.styleSheet) {
          if (depth < 8) add(rule.styleSheet, depth + 1);
          else names = null;
          continue;
        }
        const text = rule.cssText.toLowerCase();
        if (textSafe && TEXT_STYLE.test(text)) textSafe = false;
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
      if (textSafe && root.querySelector('[dir=auto i], bdi')) textSafe = false;
    }
    if (!names) textSafe = false;
    styleMemo = { key, names, textSafe };
    return styleMemo;
  }

  // What in a rule makes style follow text or a box's size.
  const TEXT_STYLE = /:empty|:dir\(|@container|:blank/;

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

  /** Whether the kept walk still holds for key: false when it does not;
   * when text changed, the lines to list again (reread.js, head). A kept
   * walk that does not hold is thrown away.
   * @param {Kept} k @param {string} key @returns {boolean|number[]} */
  function holds(k, key) {
    if (k.key !== key || k.refs !== /** @type {any} */ (globalThis).__gripRefCache__ || k.view !== viewOf()) return false;
    if (obs) {
      const records = obs.takeRecords();
      if (records.length && !harmless(records, k)) return false;
    }
    /** @type {Set<number>|null} */
    const dirty = k.pending.length ? textReached(k) : null;
    if (k.pending.length && !dirty) return false;
    for (let i = 0; i < k.kept.length; i++) {
      const c = k.kept[i];
      // A removed element renders no more: isVisible is false for it.
      if (!isVisible(c.el) || (!(dirty && dirty.has(i)) && propsOf(c.el, c.role, c.kind) !== c.props)) return false;
    }
    for (let i = 0; i < k.unseen.length; i++) if (isVisible(k.unseen[i])) return false;
    for (let i = 0; i < k.far.length; i++) if (!farOff(k.far[i])) return false;
    for (let i = 0; i < k.pruned.length; i++) if (!noBox(k.pruned[i])) return false;
    for (let i = 0; i < k.hosts.length; i++) if (shadowOf(k.hosts[i]) !== k.shadows[i]) return false;
    if (sheetsOf(k.hosts) !== k.sheets) return false;
    return dirty ? [...dirty].sort((a, b) => a - b) : true;
  }

  // Where a change of text is a full walk: the text is a style sheet's, a
  // field's value, an option's, the title's (the tab's name), or drawn.
  const TEXT_WALKS = new Set(['style', 'textarea', 'title', 'option', 'optgroup', 'select', 'datalist', 'script']);
  const HTML_NS = 'http://www.w3.org/1999/xhtml';

  /** The lines of k that the text changes pending reach, by what each
   * read and the facts of layout it judged by; null when a change of text
   * is a full walk here (see the head of this file), or reaches what the
   * walk's own choices read, or one of their facts no longer holds.
   * @param {Kept} k @returns {Set<number>|null} */
  function textReached(k) {
    if (!styleRead(k.hosts).textSafe) return null;
    const touched = reachedBy(k.pending);
    if (!touched) return null;
    if (readsReached(k.walkReads, touched)) return null;
    if (!k.byText) {
      /** @type {Map<Node, number[]>} */
      const by = new Map();
      for (let i = 0; i < k.reads.length; i++) indexReads(by, k.reads[i], i);
      // The lines a walk dropped by count, by -1 - their place.
      for (let j = 0; j < k.dropped.length; j++) indexReads(by, k.dropped[j].reads, -1 - j);
      k.byText = by;
    }
    /** @type {Set<number>} */
    const dirty = new Set();
    for (const n of touched) {
      const lines = k.byText.get(n);
      if (lines) for (const i of lines) dirty.add(i);
    }
    for (let i = 0; i < k.reads.length; i++) if (!dirty.has(i) && !factsHold(k.reads[i])) dirty.add(i);
    for (let j = 0; j < k.dropped.length; j++) if (!dirty.has(-1 - j) && !factsHold(k.dropped[j].reads)) dirty.add(-1 - j);
    k.droppedDirty = [];
    for (const i of dirty) {
      if (i >= 0) continue;
      dirty.delete(i);
      k.droppedDirty.push(-1 - i);
    }
    for (const [n, m] of k.contexts) if (readsReached(m.reads, touched)) k.contexts.delete(n);
    return dirty;
  }

  /** @param {Map<Node, number[]>} by @param {Reads} r @param {number} i */
  function indexReads(by, r, i) {
    for (let j = 0; j < r.text.length; j++) {
      const n = r.text[j];
      const list = by.get(n);
      if (!list) by.set(n, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  }

  /** Whether r read a text that touched holds, or judged by a fact of
   * layout that no longer holds. @param {Reads} r @param {Set<Node>} touched */
  function readsReached(r, touched) {
    for (let i = 0; i < r.text.length; i++) if (touched.has(r.text[i])) return true;
    return !factsHold(r);
  }

  /** @param {Reads} r */
  function factsHold(r) {
    const f = r.facts;
    for (let i = 0; i < f.length; i += 3) if (f[i](f[i + 1]) !== f[i + 2]) return false;
    return true;
  }

  /** The nodes whose text the changes at targets changed: each target and
   * everything above it, in the tree and in the flat tree (a slotted
   * text is its slot's too); null when one of them is a full walk (see
   * TEXT_WALKS), or a closed shadow root hides where it is slotted.
   * @param {Node[]} targets @returns {Set<Node>|null} */
  function reachedBy(targets) {
    /** @type {Set<Node>} */
    const set = new Set();
    const stack = targets.slice();
    while (stack.length) {
      const n = /** @type {Node} */ (stack.pop());
      if (set.has(n)) continue;
      set.add(n);
      if (n.nodeType === 1) {
        const e = /** @type {Element} */ (n);
        if (e.namespaceURI !== HTML_NS || TEXT_WALKS.has(e.localName)) return null;
      }
      const p = n.parentNode;
      if (!p) continue;
      stack.push(p);
      if (p.nodeType === 11) {
        const host = /** @type {ShadowRoot} */ (p).host;
        if (host) stack.push(host);
      } else if (p.nodeType === 1) {
        const slot = /** @type {Element|Text} */ (n).assignedSlot;
        if (slot) stack.push(slot);
        else if (!(/** @type {Element} */ (p)).shadowRoot && shadowOf(/** @type {Element} */ (p))) return null;
      }
    }
    return set;
  }

  /**
   * The snapshot (snapshot.js), from the kept walk when nothing it depends
   * on changed, else walked and kept; walk names it. When the caller holds
   * that walk's elements (known lists it), they are left out: same; when
   * it holds the walk a change of text replaced, only the lines that
   * differ are sent (relisted: base and patch).
   * @param {string} mode @param {boolean} keepSignatures @param {boolean} allContexts @param {unknown} [known]
   * @returns {ReturnType<GripKernel['snapshot']> & {walk?: string, same?: boolean, alive?: number[], base?: string, patch?: {at: number, el: Reported}[]}}
   */
  function reread(mode, keepSignatures, allContexts, known) {
    const t0 = performance.now();
    watch();
    // The host's own read after an action (keepSignatures) and the agent's
    // next snapshot see the same page: one kept walk serves both.
    const key = mode + (allContexts ? '+contexts' : '');
    const k = kept;
    const held = k ? holds(k, key) : false;
    if (k && Array.isArray(held)) {
      const r = relisted(k, held, keepSignatures, t0, known);
      if (r) return r;
    } else if (k && held) {
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
    styleMemo = UNREAD;
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
    const found = { unseen: [], far: [], pruned: [], hosts: [], els: [], sigs: [], ws: [], how: [], reads: [], roots: [], dropped: [] };
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
      const kind = kindOf(el);
      list.push({ el, role: r.role, kind, sig: found.sigs[i], props: propsOf(el, r.role, kind, found.ws[i]) });
    }
    // A walk that ran while the page changed (a mutation between its
    // start and now) is not kept.
    const alive = aliveUnlisted(result.elements);
    if (obs) {
      const records = obs.takeRecords();
      if (records.length && !pageOwn(records, found.hosts)) return { ...result, alive };
    }
    const walk = INSTANCE + '.' + ++walks;
    /** @type {Kept} */
    const next = { key, walk, refs: /** @type {any} */ (globalThis).__gripRefCache__, result, kept: list, unseen: found.unseen, far: found.far,
      pruned: found.pruned, hosts: found.hosts, shadows: found.hosts.map((h) => shadowOf(h)), sheets: '', view: viewOf(),
      hows: found.how, reads: found.reads, roots: found.roots, walkReads: found.walkReads || { text: [], facts: [] },
      contexts: found.contexts || new Map(), byText: null, pending: [], content: mode === 'content', keepSignatures,
      dropped: found.dropped, droppedDirty: [], labels: K.labelsKept() };
    kept = next;
    next.sheets = sheetsOf(found.hosts);
    return { ...result, alive, walk };
  }

  /**
   * The kept walk with the lines at `dirty` listed again (a change of
   * text reached them), its contexts worked out again, kept in turn as a
   * new walk; null when one of them is not listed the same way now (a
   * full walk is due). When the caller holds the walk it replaces (known
   * lists it), only the lines that differ are sent, with their places:
   * patch, against base (the host puts them into the elements it holds).
   * @param {Kept} k @param {number[]} dirty
   * @param {boolean} keepSignatures @param {number} t0 @param {unknown} known
   */
  function relisted(k, dirty, keepSignatures, t0, known) {
    // What the walk found of the labels holds: only text changed since.
    K.useLabels(k.labels);
    const again = K.relist(dirty.map((i) => k.kept[i].el), dirty.map((i) => k.hows[i]), dirty.map((i) => k.roots[i]), k.content, keepSignatures);
    if (!again) return null;
    // The lines dropped by count set their meanings as the walk did; what
    // they list is not shown, so one that would not be listed now is no
    // matter (its meaning stays).
    for (const j of k.droppedDirty) {
      const d = k.dropped[j];
      const l = K.relist([d.el], [d.how], [d.root], k.content, keepSignatures);
      if (l) {
        d.reads = l[0].reads;
        if (k.byText) indexReads(k.byText, d.reads, -1 - j);
      }
    }
    k.droppedDirty = [];
    /** @type {Reported[]} */
    const elements = k.result.elements.slice();
    for (let j = 0; j < dirty.length; j++) {
      const i = dirty[j], l = again[j];
      elements[i] = l.r;
      const c = k.kept[i];
      k.kept[i] = { el: c.el, role: l.r.role, kind: c.kind, sig: l.sig, props: propsOf(c.el, l.r.role, c.kind, l.ws) };
      k.reads[i] = l.reads;
      if (k.byText) indexReads(k.byText, l.reads, i);
    }
    // The meanings an action checks, as a walk would set them, for the
    // lines kept (those listed again set theirs).
    const redone = new Set(dirty);
    for (let i = 0; i < k.kept.length; i++) {
      if (redone.has(i)) continue;
      const c = k.kept[i];
      const id = idOf(c.el);
      if (id !== undefined && (!keepSignatures || sigOf(id) === undefined)) setSig(id, c.sig);
    }
    for (let i = 0; i < elements.length; i++) {
      if (elements[i].ctx === undefined) continue;
      const line = { ...elements[i] };
      delete line.ctx;
      elements[i] = line;
    }
    K.addContexts(elements, K.elementOf, k.key.endsWith('+contexts'), k.contexts);
    k.pending = [];
    k.labels = K.labelsKept();
    const base = k.walk;
    const walk = INSTANCE + '.' + ++walks;
    const r = k.result;
    k.result = { ...r, url: location.href, title: document.title, elements };
    k.walk = walk;
    const alive = aliveUnlisted(elements);
    if (obs) {
      const records = obs.takeRecords();
      if (records.length && !harmless(records, k)) kept = null;
    }
    const stats = { nodes: r.stats.nodes, ms: Math.round((performance.now() - t0) * 100) / 100, relisted: dirty.length };
    if (Array.isArray(known) && known.indexOf(base) >= 0) {
      /** @type {{at: number, el: Reported}[]} */
      const patch = [];
      for (let i = 0; i < elements.length; i++) if (!sameLine(r.elements[i], elements[i])) patch.push({ at: i, el: elements[i] });
      return { url: location.href, title: document.title, elements: [], alive, walk, base, patch, stats };
    }
    return { url: location.href, title: document.title, elements, alive, walk, stats };
  }

  /** Whether two lines of a reply say the same: every field, a list's
   * items in order. @param {Reported} a @param {Reported} b */
  function sameLine(a, b) {
    if (a === b) return true;
    const x = /** @type {Record<string, unknown>} */ (a), y = /** @type {Record<string, unknown>} */ (b);
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      const u = x[key], v = y[key];
      if (u === v) continue;
      if (!Array.isArray(u) || !Array.isArray(v) || u.length !== v.length) return false;
      for (let j = 0; j < u.length; j++) if (u[j] !== v[j]) return false;
    }
    return true;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ reread }));
})();
