// @ts-check
// The requests an action started that are still in flight
// (docs/settling.md, "Settling"): an app that answers a click by
// fetching shows nothing until the answer comes, and a reply read before
// it says the app is done when it is not. The extension sees a tab's
// requests while grip's debugger is attached to it (network.js: after
// trusted input, a network read, a navigation grip made); from an
// action's start until its read back has settled, the fetches, XHRs and
// scripts started since are counted, and the read waits while any is in
// flight, within the bound. There is no webRequest: holding that
// permission makes Chrome hold the browser's first requests until the
// worker is up, which left a person's first tab blank (navigation.js).
import { requestsInFlight } from './network.js';

/** A watch ends this long after its action began, read back or not. */
const WATCH_MS = 15000;
/** How often a wait for the requests to end looks again. */
const POLL_MS = 40;

/** When the current action on each tab began (wall ms). @type {Map<number, number>} */
const watched = new Map();

/** An action on tabId begins: count the requests it starts.
 * @param {number} tabId */
export function watchRequests(tabId) {
  if (typeof tabId === 'number') watched.set(tabId, Date.now());
}

/** The action's read back has settled: stop counting.
 * @param {number} tabId */
export function stopWatching(tabId) {
  watched.delete(tabId);
}

/** How many requests the action on tabId started are still in flight.
 * @param {number} tabId */
export function inFlight(tabId) {
  const since = watched.get(tabId);
  if (since === undefined) return 0;
  if (Date.now() - since > WATCH_MS) {
    watched.delete(tabId);
    return 0;
  }
  return requestsInFlight(tabId, since);
}

/** Resolves once none of them is in flight, or after ms.
 * @param {number} tabId @param {number} ms @returns {Promise<void>} */
export async function requestsDone(tabId, ms) {
  const end = Date.now() + Math.max(0, ms);
  while (inFlight(tabId) > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, end - Date.now()))));
  }
}
