// @ts-check
// The page's own requests by its resource timeline (docs/settling.md,
// "The page's own requests"): which fetch and XHR URLs the page had in
// flight when an action began and got the answer to since. grip's
// debugger tells the worker of the requests it saw begin; of one begun
// while grip was not attached the browser tells at most its answer, with
// no method, and only its end when the server sent the headers at once
// (Syncthing's /rest/events does). The page's timeline has it, with its
// URL, once it ends, before the page's handler sends the next. A
// PerformanceObserver keeps the newest entries, since the timeline's
// buffer stops at 250 and a page that polls fills it within minutes; its
// records are taken at each read, so none is waiting for delivery.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  /** @type {any} */
  const G = globalThis;
  /** How many of the page's fetches and XHRs are kept. */
  const KEEP = 64;

  /** The observer, the newest requests (their URL without the query, and
   * when they began and ended, on this document's clock), and when the
   * last action acted in this document (by the worker's name for it).
   * @typedef {{obs: PerformanceObserver, list: {url: string, start: number, end: number}[], from: {action: number, at: number}}} Requests */

  /** @param {Requests} t @param {PerformanceEntryList} entries */
  function note(t, entries) {
    for (const e of entries) {
      const r = /** @type {PerformanceResourceTiming} */ (e);
      if (r.initiatorType !== 'fetch' && r.initiatorType !== 'xmlhttprequest') continue;
      t.list.push({ url: r.name.split(/[?#]/, 1)[0], start: r.startTime, end: r.responseEnd });
    }
    if (t.list.length > KEEP) t.list.splice(0, t.list.length - KEEP);
  }

  /** Starts keeping the page's requests, once per document (on the
   * isolated world's global, like settle.js's tracker); the first action
   * there or the read back after one starts it. @returns {Requests} */
  function keepRequests() {
    /** @type {Requests|undefined} */
    const have = G.__gripRequests__;
    if (have) {
      if (!have.from) have.from = { action: 0, at: 0 }; // an older kernel's
      note(have, have.obs.takeRecords());
      return have;
    }
    /** @type {Requests} */
    const t = { obs: /** @type {any} */ (null), list: [], from: { action: 0, at: 0 } };
    t.obs = new PerformanceObserver((entries) => note(t, entries.getEntries()));
    try {
      t.obs.observe({ type: 'resource', buffered: true });
    } catch (_) { /* no resource timing in this document */ }
    G.__gripRequests__ = t;
    note(t, t.obs.takeRecords());
    return t;
  }

  /** An action acts in this document now: what is sent from here on may
   * be its doing. @param {number} action the worker's name for it */
  function requestsFromHere(action) {
    keepRequests().from = { action, at: performance.now() };
  }

  /** The URLs (the query left out) of the fetches and XHRs that began
   * before the action and have ended since: before it acted here, or, in a
   * document it did not act in, before it began, began ms ago (by the
   * worker's clock: a little late, by the time this call took to come).
   * @param {number} action @param {number} began @returns {string[]} */
  function polledSince(action, began) {
    const t = keepRequests();
    const from = t.from.action === action ? t.from.at : performance.now() - began;
    const out = new Set();
    for (const r of t.list) if (r.start < from && r.end >= from) out.add(r.url);
    return Array.from(out);
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ keepRequests, requestsFromHere, polledSince }));
})();
