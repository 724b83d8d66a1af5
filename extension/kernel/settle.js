// @ts-check
// Whether the page has settled after an action (docs/settling.md,
// "Settling"): a MutationObserver kept per document notes when the page
// last changed what it shows, and settleState answers at once how long ago
// that was and whether a busy indicator shows. The timing is the worker's
// (extension/worker/settle.js): timers in a background tab fire at most once a
// second, the worker's do not. nextChange answers at the next change, so
// the worker waits on a busy page by events, never by polling.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { shadowOf, isVisible, fold, keepRequests, requestsFromHere, polledSince } = K;

  // The attributes whose change is a change of what the page shows. Not
  // style: a script animating an element rewrites it every frame, and
  // would keep every page that has one from ever settling.
  const SHOWN_ATTRS = ['class', 'hidden', 'open', 'disabled', 'value', 'checked', 'selected', 'role',
    'aria-hidden', 'aria-expanded', 'aria-busy', 'aria-selected', 'aria-checked', 'aria-pressed',
    'aria-valuenow', 'aria-label', 'aria-disabled'];

  // What a page shows while it works: something marked busy, a progress
  // bar that gives no value (a spinner), and a status region that says it
  // is working ("Saving…", "Loading").
  const BUSY_SELECTOR = '[aria-busy="true"], progress:not([value]), [role="progressbar"]:not([aria-valuenow])';
  const STATUS_SELECTOR = '[role="status"], [role="alert"], output';
  const WORKING = /(…|\.\.\.)$|^(loading|saving|working|please wait|processing|uploading|searching)\b/i;
  // Any element that appeared or changed since the action began and says
  // it is working ("Loading...", "Please wait"), or is a spinner by its
  // class: apps show these in plain elements, with no role.
  // The word alone, or followed by a few words and dots ("Loading
  // issues…"); not a title that begins with it ("Loading dock schedule").
  const FRESH_WORKING = /^(loading|saving|working|please wait|processing|uploading|searching|submitting|sending|updating|refreshing|fetching)(\.{0,3}|…|\s[^.…]{0,40}(…|\.\.\.?))$/i;
  const SPINNER_WORDS = /^(spinner|spin|spinning|loader|loading|throbber|busy)$/;
  const SPINNER_SELECTOR = '[class*="spin" i], [class*="load" i], [class*="throbber" i], [class*="busy" i]';
  /** How many changed elements are kept to look at. */
  const MAX_FRESH = 64;

  // A live page (a dashboard, a feed, a clock) changes what it shows at a
  // rhythm and is never quiet: waiting for quiet is waiting for the bound,
  // on every action. A document that has changed at least every RUN_GAP_MS
  // for LIVE_RUN_MS before the action began is live; the worker reads it
  // after one such beat (extension/worker/settle.js LIVE_READ_MS) and says it is
  // still changing.
  const RUN_GAP_MS = 250;
  const LIVE_RUN_MS = 1000;

  /** The tracker lives on the isolated world's global, not on the kernel
   * object: a kernel injected again (a new build) takes the old one over
   * instead of leaving a second observer behind. runFrom is when the
   * current run of changes began (no gap of RUN_GAP_MS since).
   * fresh are the elements that appeared or changed since the current
   * action began (the newest MAX_FRESH), where a loading message shows.
   * scripts are the scripts seen loading, by URL, with when first seen.
   * @typedef {{obs: MutationObserver, last: number, runFrom: number, roots: WeakSet<Node>, list: Node[], fresh: Element[], scripts: Map<string, number>}} Tracker */
  /** @type {any} */
  const G = globalThis;

  /** Starts noting changes in this document, once; snapshots and actions
   * call it, so the document a reply is read from has been watched since
   * before the action. @returns {Tracker} */
  function trackChanges() {
    /** @type {Tracker|undefined} */
    const have = G.__gripChanges__;
    if (have) {
      if (!have.scripts) have.scripts = new Map();
      // Records not yet delivered hold every node a re-render removed: a
      // page that re-renders in one long task (and our own snapshot after
      // it) must not keep them all until that task ends.
      const pending = have.obs.takeRecords();
      if (pending.length) noteChanges(have, pending);
      return have;
    }
    /** @type {Tracker} */
    const t = { obs: /** @type {any} */ (null), last: -Infinity, runFrom: -Infinity, roots: new WeakSet(), list: [], fresh: [], scripts: new Map() };
    t.obs = new MutationObserver((records) => noteChanges(t, records));
    observeRoot(t, document);
    const tw = document.createTreeWalker(document.documentElement || document, NodeFilter.SHOW_ELEMENT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      if (/** @type {Element} */ (n).localName.indexOf('-') < 0 && !(/** @type {Element} */ (n).shadowRoot)) continue;
      const sr = shadowOf(/** @type {Element} */ (n));
      if (sr) observeRoot(t, sr);
    }
    G.__gripChanges__ = t;
    keepRequests();
    return t;
  }

  /** Notes that the page changed; custom elements added later bring their
   * shadow roots with them.
   * @param {Tracker} t @param {MutationRecord[]} records */
  function noteChanges(t, records) {
    const now = performance.now();
    if (now - t.last >= RUN_GAP_MS) t.runFrom = now;
    t.last = now;
    if (!Array.isArray(t.fresh)) t.fresh = []; // a tracker an older kernel made
    for (const r of records) {
      if (r.type === 'childList') {
        for (const n of r.addedNodes) {
          if (n.nodeType === 1) {
            fresh(t, /** @type {Element} */ (n));
            if (/** @type {Element} */ (n).localName.indexOf('-') > 0) {
              const sr = shadowOf(/** @type {Element} */ (n));
              if (sr) observeRoot(t, sr);
            }
          } else if (n.parentElement) {
            fresh(t, n.parentElement);
          }
        }
      } else if (r.type === 'characterData') {
        if (r.target.parentElement) fresh(t, r.target.parentElement);
      } else if (r.target.nodeType === 1) {
        fresh(t, /** @type {Element} */ (r.target));
      }
    }
  }

  /** @param {Tracker} t @param {Element} el */
  function fresh(t, el) {
    if (t.fresh.length && t.fresh[t.fresh.length - 1] === el) return;
    t.fresh.push(el);
    if (t.fresh.length > MAX_FRESH) t.fresh.shift();
  }

  /** An action begins (the worker's name for it: action): what appears
   * from now on is its doing, and so are the requests sent from now on.
   * @param {number} [action] */
  function changesFromHere(action) {
    const t = trackChanges();
    t.fresh = [];
    if (action) requestsFromHere(action);
  }

  /** Whether el's class or id names a spinner. @param {Element} el */
  function spinnerWords(el) {
    const cls = typeof el.className === 'string' ? el.className : el.getAttribute('class') || '';
    return (cls + ' ' + (el.id || '')).toLowerCase().split(/[^a-z0-9]+/).some((w) => SPINNER_WORDS.test(w));
  }

  /** What a changed element shows of work going on, described, or ''.
   * @param {Element} el */
  function freshBusy(el) {
    if (!el.isConnected) return '';
    const text = fold(el.textContent || '');
    if (text && text.length <= 60 && FRESH_WORKING.test(text) && isVisible(el)) return 'the text ' + JSON.stringify(text);
    if (text.length <= 60) {
      const spin = spinnerWords(el) ? el : Array.from(el.querySelectorAll(SPINNER_SELECTOR)).find(spinnerWords);
      if (spin && isVisible(spin)) return 'a spinner';
    }
    return '';
  }

  /** @param {Tracker} t @param {Node} root */
  function observeRoot(t, root) {
    if (t.roots.has(root)) return;
    t.roots.add(root);
    t.list.push(root);
    t.obs.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: SHOWN_ATTRS });
  }

  /** The busy indicator showing, described, or ''.
   * @param {Tracker} t @returns {string} */
  function busyIndicator(t) {
    for (const root of t.list) {
      if (!root.isConnected) continue;
      const scope = /** @type {Document|ShadowRoot} */ (root);
      for (const el of scope.querySelectorAll(BUSY_SELECTOR)) {
        if (isVisible(el)) return el.localName === 'progress' || el.getAttribute('role') === 'progressbar' ? 'a progress bar' : 'an element marked busy';
      }
      for (const el of scope.querySelectorAll(STATUS_SELECTOR)) {
        const text = fold(el.textContent || '');
        if (text && text.length <= 80 && WORKING.test(text) && isVisible(el)) return 'the status ' + JSON.stringify(text);
      }
    }
    for (const el of t.fresh || []) {
      const b = freshBusy(el);
      if (b) return b;
    }
    return scriptLoading(t);
  }

  /** How long a script seen loading holds the page busy, at most (one
   * that failed leaves no entry on the timeline either). */
  const SCRIPT_WAIT_MS = 1500;
  /** The resource timeline's default size: past it, entries are dropped. */
  const TIMELINE_FULL = 250;

  /** 'a script still loading' while a script a script added (async, in a
   * loaded document) has no entry on the resource timeline yet: its
   * response has not ended, and the app's answer comes when it runs
   * (MediaWiki loads its modules so, and the debugger that would see the
   * request is seldom attached). '' otherwise.
   * @param {Tracker} t */
  function scriptLoading(t) {
    if (document.readyState !== 'complete') return '';
    const entries = performance.getEntriesByType('resource');
    if (entries.length >= TIMELINE_FULL) return '';
    const now = performance.now();
    /** @type {Set<string>|null} */
    let names = null;
    for (const el of document.querySelectorAll('script[src]')) {
      const src = /** @type {HTMLScriptElement} */ (el).src;
      if (!/** @type {HTMLScriptElement} */ (el).async || !/^https?:/.test(src)) continue;
      names = names || new Set(entries.map((e) => e.name));
      if (names.has(src)) continue;
      const seen = t.scripts.get(src);
      if (seen === undefined) t.scripts.set(src, now);
      if (now - (seen === undefined ? now : seen) < SCRIPT_WAIT_MS) return 'a script still loading';
    }
    return '';
  }

  /** How long an animation may still run and be waited for: one that
   * ends later (a slow carousel, a countdown) is the page's decoration,
   * and waiting for it would only reach the settle bound. */
  const ANIMATION_WAIT_MS = 1500;

  /** ms until the CSS animations and transitions running now have ended
   * (0: none runs). A dialog fading in, a panel sliding shut, a tiddler
   * closing change nothing the observer sees until they end, when the
   * page removes or shows what they moved. Infinite ones (spinners) and
   * ones ending after ANIMATION_WAIT_MS do not count.
   * @returns {number} */
  function animatingFor() {
    let left = 0;
    for (const { ms } of endingAnimations()) {
      if (ms > 0 && ms <= ANIMATION_WAIT_MS) left = Math.max(left, ms);
    }
    return Math.ceil(left);
  }

  /** The CSS animations and transitions running in this document that
   * will end (not infinite ones: spinners), each with the ms it has left;
   * settling and an action's wait for a moving page both go by them.
   * @returns {{anim: Animation, ms: number}[]} */
  function endingAnimations() {
    if (typeof document.getAnimations !== 'function') return [];
    const out = [];
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running' || !a.effect) continue;
      const timing = a.effect.getComputedTiming();
      const end = Number(timing.endTime), now = Number(timing.localTime);
      if (!isFinite(end) || !isFinite(now)) continue;
      out.push({ anim: a, ms: (end - now) / Math.abs(a.playbackRate || 1) });
    }
    return out;
  }

  /** When this document last loaded something, by the performance
   * timeline: its load event's end, or its newest resource's (of the
   * last few recorded); -1e9 when the timeline has neither. */
  function loadedAt() {
    let at = -1e9;
    const nav = /** @type {PerformanceNavigationTiming|undefined} */ (performance.getEntriesByType('navigation')[0]);
    if (nav) at = nav.loadEventEnd > 0 ? nav.loadEventEnd : performance.now();
    const res = performance.getEntriesByType('resource');
    for (let i = Math.max(0, res.length - 8); i < res.length; i++) at = Math.max(at, /** @type {PerformanceResourceTiming} */ (res[i]).responseEnd);
    return at;
  }

  /** How this document stands: ms since it last changed what it shows (a
   * document nothing watched yet — a frame the action did not land in, a
   * page just loaded — counts from when it last loaded something
   * (loadedAt): one loaded long before is quiet, and waiting a quiet
   * period for each would cost every first action on a page with frames),
   * the busy
   * indicator it shows, how long its running animations have left, and
   * whether it is live: changing without a pause since LIVE_RUN_MS before
   * the read began, r.ago ms ago (a document first watched by this action
   * is not known to be live; its first action waits for the bound), and
   * whether its animations stand still (a hidden document draws no frames);
   * and, asked of an action (r.action, begun r.began ms ago), the URLs of
   * the requests the page had in flight when it began and got the answer
   * to since (polls.js: what it sends there after is its own polling).
   * @param {{ago?: number, action?: number, began?: number}} [r] @returns {{sinceChange: number, busy: string, animating: number, live?: boolean, still?: boolean, polled?: string[]}} */
  function settleState(r) {
    const t = trackChanges();
    const now = performance.now();
    // A document not watched before (one an action's navigation just
    // loaded) changed last, as far as is known, when it finished loading
    // or got its newest script or style: an app that sets itself up just
    // after its load event (MediaWiki's modules, run when the browser is
    // idle) is still changing then.
    const since = Math.round(now - (t.last === -Infinity ? loadedAt() : t.last));
    const ago = Math.max(0, Number(r && r.ago) || 0);
    const live = t.last !== -Infinity && since < RUN_GAP_MS && t.runFrom <= now - ago - LIVE_RUN_MS;
    /** @type {{sinceChange: number, busy: string, animating: number, live?: boolean, still?: boolean, polled?: string[]}} */
    const st = { sinceChange: since, busy: busyIndicator(t), animating: animatingFor() };
    const began = Number(r && r.began);
    if (r && r.action && began >= 0) {
      const polled = polledSince(Number(r.action), began);
      if (polled.length) st.polled = polled;
    }
    // A hidden document draws no frames, and its animations do not advance
    // until it shows again: what they have left is counted from the read's
    // start, not waited for again at every look (extension/worker/settle.js).
    if (st.animating > 0 && document.visibilityState === 'hidden') st.still = true;
    if (live) st.live = true;
    return st;
  }

  /** Answers at the next change of any kind (style too: a spinner hidden
   * by its style is a busy indicator gone), or after r.ms.
   * @param {{ms?: number}} r @returns {Promise<{changed: boolean}>} */
  function nextChange(r) {
    const t = trackChanges();
    return new Promise((resolve) => {
      /** @type {ReturnType<typeof setTimeout>} */
      let timer;
      const obs = new MutationObserver(() => {
        obs.disconnect();
        clearTimeout(timer);
        resolve({ changed: true });
      });
      for (const root of t.list) obs.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
      timer = setTimeout(() => { obs.disconnect(); resolve({ changed: false }); }, Math.max(0, Math.min(Number(r.ms) || 0, 10000)));
    });
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ trackChanges, changesFromHere, settleState, nextChange, endingAnimations }));
})();
