// @ts-check
// The page's own world's half of "the timers an action set off"
// (docs/settling.md, "Settling"; the worker's half is worker/timers.js).
// A classic script, run in the page's own world either at document_start,
// for the origins agents have acted in (registered by worker/timers.js),
// or just before an action in any other document. It wraps setTimeout and
// clearTimeout; the wrapper passes every call on, and notes when a timer
// is due only while an action's read back waits (noting, from just before
// the input until the read first asks) and while a noted timer runs.
// Run at document_start, it is the setTimeout every script of the page
// sees, including those that keep a reference from when they loaded
// (TiddlyWiki's modules get setTimeout at boot); run later, it steps
// aside once the settle bound has passed, so such a page sees a wrapped
// setTimeout only around an action.
(function () {
  'use strict';
  const w = /** @type {any} */ (window);
  const key = Symbol.for('grip.actionTimers');
  if (w[key]) return;
  const own = { set: w.setTimeout, clear: w.clearTimeout };
  // Run by the browser before any script of the page: a registered
  // content script at document_start. Later, a document has a body or
  // has stopped loading.
  const early = document.readyState === 'loading' && !document.body;
  const st = {
    /** @type {Map<any, number>} when each noted timer is due */
    due: new Map(),
    noting: false,
    inside: 0,
    replacing: false,
    until: 0,
    bound: 0,
    kept: early,
    /**
     * From now until the read back asks (worker/timers.js timersDue), the
     * timers set are noted, up to boundMs from now.
     * @param {number} boundMs
     */
    note(boundMs) {
      st.noting = true;
      st.bound = boundMs;
      st.until = performance.now() + boundMs;
      if (!st.kept) own.set.call(w, stepAside, boundMs + 10);
    },
  };
  /** @param {any} fn @param {any} ms @param {any[]} rest */
  const set = function (fn, ms, ...rest) {
    if (typeof fn !== 'function' || !(st.noting || st.inside > 0 || st.replacing)) return own.set.call(w, fn, ms, ...rest);
    const t = performance.now();
    const d = Math.max(0, Number(ms) || 0);
    if (t + d > st.until) return own.set.call(w, fn, ms, ...rest);
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
  // Passed on unless the page replaced the wrapper meanwhile (then the
  // page's own passes every call on to it).
  const stepAside = () => {
    if (performance.now() < st.until) { own.set.call(w, stepAside, st.until - performance.now() + 10); return; }
    if (w.setTimeout === set) w.setTimeout = own.set;
    if (w.clearTimeout === clear) w.clearTimeout = own.clear;
    if (w[key] === st && w.setTimeout === own.set) delete w[key];
  };
  w.setTimeout = set;
  w.clearTimeout = clear;
  w[key] = st;
})();
