// @ts-check
// The timers an action set off (docs/settling.md, "Settling"). Apps
// put off what a click or a key does by a timer longer than the quiet
// period: TiddlyWiki redraws a draft 400 ms after the last key, a search
// box asks its server 300 ms after typing stops. The page is quiet until
// then, and a reply read at the quiet period would miss what the timer
// draws. So, just before an action's input, the page's own world gets a
// wrapper of setTimeout that notes when each timer set from then on is due
// — and each timer set while one of those runs, which is how a redraw
// queued in a zero timer sets its throttle — until the read back first
// asks; the read back waits until the last of them has run. The wrapper
// steps aside by itself once the settle bound has passed: a page sees a
// wrapped setTimeout only around an action, and one that rewrites it only
// makes the read wait, at most to the bound, as for any busy page.

/** The document each tab's last action was given the wrapper in. */
/** @type {Map<number, string>} */
const watched = new Map();

/**
 * Standalone, injected into the page's own world: from now until the
 * first read (timersLeft), the timers set are noted with when they are
 * due, and, while one of those runs, the timers it sets; none due after
 * boundMs from now is noted (a loop of timers ends there). Once boundMs has
 * passed, setTimeout and clearTimeout are the page's own again, unless the
 * page replaced them meanwhile (then the wrapper passes every call on).
 * @param {number} boundMs
 */
function watchTimers(boundMs) {
  const w = /** @type {any} */ (window);
  const key = Symbol.for('grip.actionTimers');
  const now = performance.now();
  let st = w[key];
  if (!st) {
    const own = { set: w.setTimeout, clear: w.clearTimeout };
    st = { due: new Map(), noting: false, inside: 0, until: 0, own };
    w[key] = st;
    /** @param {any} fn @param {any} ms @param {any[]} rest */
    const set = function (fn, ms, ...rest) {
      const t = performance.now();
      const d = Math.max(0, Number(ms) || 0);
      if (typeof fn !== 'function' || !(st.noting || st.inside > 0) || t + d > st.until) return own.set.call(w, fn, ms, ...rest);
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
    /** @param {any} id */
    const clear = function (id) {
      st.due.delete(id);
      return own.clear.call(w, id);
    };
    w.setTimeout = set;
    w.clearTimeout = clear;
    st.wrapper = { set, clear };
  }
  st.noting = true;
  st.bound = boundMs;
  st.until = now + boundMs;
  const stepAside = () => {
    if (performance.now() < st.until) { st.own.set.call(w, stepAside, st.until - performance.now() + 10); return; }
    if (w.setTimeout === st.wrapper.set) w.setTimeout = st.own.set;
    if (w.clearTimeout === st.wrapper.clear) w.clearTimeout = st.own.clear;
    if (w[key] === st && w.setTimeout === st.own.set) delete w[key];
  };
  st.own.set.call(w, stepAside, boundMs + 10);
  return true;
}

/**
 * Standalone, injected into the page's own world: ms until the last timer
 * the action set off is due, at least 5 for one due that has not run yet
 * (0: none is left), and noting stops.
 * @returns {number}
 */
function timersDue() {
  const st = /** @type {any} */ (window)[Symbol.for('grip.actionTimers')];
  if (!st) return 0;
  st.noting = false;
  const now = performance.now();
  let last = 0;
  for (const [id, due] of st.due) {
    // One not run yet though due counts until it has run (a busy page
    // runs its timers late), but not past the bound: a hidden page runs
    // them once a second at most.
    if (now - due > st.bound) st.due.delete(id);
    else last = Math.max(last, due - now, 5);
  }
  return Math.ceil(last);
}

/**
 * Gives the document the wrapper, just before an action's input, for
 * boundMs (the settle bound, settle.js); a page that cannot be reached is
 * acted on without it.
 * @param {number} tabId
 * @param {string} documentId
 * @param {number} boundMs
 */
export async function watchActionTimers(tabId, documentId, boundMs) {
  watched.delete(tabId);
  if (!documentId) return;
  const ok = await chrome.scripting.executeScript({
    target: { tabId, documentIds: [documentId] }, world: 'MAIN', func: watchTimers, args: [boundMs],
  }).then((rs) => !!(rs[0] && rs[0].result), () => false);
  if (ok) watched.set(tabId, documentId);
}

/**
 * Ms until the last timer the tab's last action set off has run (0: none
 * left, or no action watched).
 * @param {number} tabId
 * @returns {Promise<number>}
 */
export async function timersLeft(tabId) {
  const documentId = watched.get(tabId);
  if (!documentId) return 0;
  const ms = await chrome.scripting.executeScript({
    target: { tabId, documentIds: [documentId] }, world: 'MAIN', func: timersDue,
  }).then((rs) => Number(rs[0] && rs[0].result) || 0, () => 0);
  if (ms <= 0) watched.delete(tabId);
  return ms;
}
