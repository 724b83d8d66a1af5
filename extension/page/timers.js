// @ts-check
// The page's own world's half of "the timers an action set off"
// (docs/settling.md, "Settling"; the worker's half is worker/timers.js).
// A classic script, run in the page's own world either at document_start,
// for the origins agents have acted in (registered by worker/timers.js),
// or just before an action in any other document. It wraps setTimeout,
// clearTimeout, requestIdleCallback and cancelIdleCallback; the wrapper
// passes every call on, and notes when a timer is due (an idle callback:
// from when it was asked for) only while an action's read back waits
// (noting, from just before the input until the read first asks), while
// a noted one runs, and, run at document_start, while the document sets
// itself up (booting: until its load event and the settle bound after
// it; MediaWiki's modules run from idle callbacks and timers after the
// load event, and a click that loaded the page is read after them).
// Run at document_start, it is the setTimeout every script of the page
// sees, including those that keep a reference from when they loaded
// (TiddlyWiki's modules get setTimeout at boot, MediaWiki binds
// requestIdleCallback); run later, it steps aside once the settle bound
// has passed, so such a page sees a wrapped setTimeout only around an
// action.
(function () {
  'use strict';
  const w = /** @type {any} */ (window);
  const key = Symbol.for('grip.actionTimers');
  if (w[key]) return;
  /** The settle bound (worker/settle.js SETTLE_BOUND_MS): a document's set-up is noted until this long after its load event. */
  const BOOT_MS = 1500;
  const BOOT_LOADING_MS = 10000;
  const own = { set: w.setTimeout, clear: w.clearTimeout, idle: w.requestIdleCallback, cancelIdle: w.cancelIdleCallback };
  // Run by the browser before any script of the page: a registered
  // content script at document_start. Later, a document has a body or
  // has stopped loading.
  const early = document.readyState === 'loading' && !document.body;
  const st = {
    /** @type {Map<any, number>} when each noted timer is due */
    due: new Map(),
    /** @type {Map<any, number>} when each noted idle callback was asked for */
    idle: new Map(),
    noting: false,
    inside: 0,
    replacing: false,
    /** the end of the action's noting, performance.now() ms */
    until: 0,
    /** the end of the set-up's: the settle bound after the load event
     * (none: not run at document_start), and until then, at most
     * BOOT_LOADING_MS from the document's start (a page whose load never
     * ends has its polls noted only so long) */
    bootUntil: early ? BOOT_LOADING_MS : 0,
    bound: early ? BOOT_MS : 0,
    kept: early,
    /**
     * From now until the read back asks (worker/timers.js timersDue), the
     * timers set are noted, up to boundMs from now.
     * @param {number} boundMs
     */
    note(boundMs) {
      st.noting = true;
      st.bound = Math.max(st.bound, boundMs);
      st.until = performance.now() + boundMs;
      if (!st.kept) own.set.call(w, stepAside, boundMs + 10);
    },
  };
  /**
   * Until when a timer set at t may be due to be noted: the action's bound,
   * and while the document sets itself up, the bound from now and at most
   * the set-up's end (MediaWiki's store saves itself 2 s after a module
   * loads, which no read back waits for).
   * @param {number} t
   */
  const limit = (t) => Math.max(st.until, t < st.bootUntil ? Math.min(st.bootUntil, t + BOOT_MS) : 0);
  /** Whether a call made now may be noted. */
  const noted = () => st.noting || st.inside > 0 || st.replacing || performance.now() < st.bootUntil;
  /** @param {any} fn @param {any} ms @param {any[]} rest */
  const set = function (fn, ms, ...rest) {
    if (typeof fn !== 'function' || !noted()) return own.set.call(w, fn, ms, ...rest);
    const d = Math.max(0, Number(ms) || 0);
    const t = performance.now();
    if (t + d > limit(t)) return own.set.call(w, fn, ms, ...rest);
    /** @type {any} */
    let id;
    /** @this {unknown} @param {any[]} args */
    const run = function (...args) {
      st.due.delete(id);
      st.inside++;
      try { return fn.apply(this, args); } finally { st.inside--; }
    };
    id = own.set.call(w, run, ms, ...rest);
    st.due.set(id, t + d);
    return id;
  };
  // A timer set in the same run of script that cleared a noted one
  // replaces it: a debounce or a throttle put off again (TiddlyWiki puts
  // its redraw of a draft off by 400 ms each time the draft changes, also
  // when the server's answer to saving it comes in after the read began).
  // It is noted as the one it replaces was.
  /** @param {any} id */
  const clear = function (id) {
    if (st.due.delete(id) && !st.replacing) {
      st.replacing = true;
      queueMicrotask(() => { st.replacing = false; });
    }
    return own.clear.call(w, id);
  };
  // An idle callback runs once the browser has nothing else to do, which
  // on a page that just loaded is soon; it is waited for until it has run
  // (at most the bound after it was asked for, worker/timers.js).
  /** @param {any} fn @param {any} [opts] */
  const idle = function (fn, opts) {
    if (typeof fn !== 'function' || !noted()) return own.idle.call(w, fn, opts);
    const t = performance.now();
    if (t > limit(t)) return own.idle.call(w, fn, opts);
    /** @type {any} */
    let id;
    /** @this {unknown} @param {any} deadline */
    const run = function (deadline) {
      st.idle.delete(id);
      st.inside++;
      try { return fn.call(this, deadline); } finally { st.inside--; }
    };
    id = own.idle.call(w, run, opts);
    st.idle.set(id, t);
    return id;
  };
  /** @param {any} id */
  const cancelIdle = function (id) {
    st.idle.delete(id);
    return own.cancelIdle.call(w, id);
  };
  // Passed on unless the page replaced the wrapper meanwhile (then the
  // page's own passes every call on to it).
  const stepAside = () => {
    if (performance.now() < st.until) { own.set.call(w, stepAside, st.until - performance.now() + 10); return; }
    if (w.setTimeout === set) w.setTimeout = own.set;
    if (w.clearTimeout === clear) w.clearTimeout = own.clear;
    if (w.requestIdleCallback === idle) w.requestIdleCallback = own.idle;
    if (w.cancelIdleCallback === cancelIdle) w.cancelIdleCallback = own.cancelIdle;
    if (w[key] === st && w.setTimeout === own.set) delete w[key];
  };
  if (early) {
    // The set-up is over the settle bound after the load event; timers its
    // noted ones set until then are noted too.
    w.addEventListener('load', () => { st.bootUntil = performance.now() + BOOT_MS; }, { once: true });
  }
  w.setTimeout = set;
  w.clearTimeout = clear;
  if (typeof own.idle === 'function' && typeof own.cancelIdle === 'function') {
    w.requestIdleCallback = idle;
    w.cancelIdleCallback = cancelIdle;
  }
  w[key] = st;
})();
