// @ts-check
// The requests an action started that are still in flight
// (docs/settling.md, "Settling"): an app that answers a click by
// fetching shows nothing until the answer comes, and a reply read before
// it says the app is done when it is not. The extension sees a tab's
// requests while grip's debugger is attached to it (network.js: after an
// action, trusted input, a network read, a navigation grip made); from an
// action's start until its read back has settled, the fetches, XHRs,
// scripts and WebSocket openings started since are counted, and the read
// waits while any is in flight, within the bound. A page's own polling is
// not the action's (docs/settling.md, "The page's own requests"): a
// request to the method and path of one the page had in flight when the
// action began, or sent again right after the page's own one there was
// answered, is a long poll or a polling loop going on, which the page
// keeps open for as long as it shows; waiting for it is waiting for the
// bound. What the page had in flight is known from the debugger, for the
// requests it saw begin, and from the page's own resource timeline
// (kernel/polls.js), for those begun while grip was not attached, which
// the read back notes here (notePolled). There is no webRequest: holding
// that permission makes Chrome hold the browser's first requests until
// the worker is up, which left a person's first tab blank (navigation.js).
import { answerRequests } from './network.js';
import { caughtUp } from './debugger.js';

/** @typedef {import('./network.js').Req} Req */

/** A watch ends this long after its action began, read back or not. */
const WATCH_MS = 15000;
/** How often a wait for the requests to end looks again. */
const POLL_MS = 40;
/** A request the page sends within this long of its own one to the same
 * method and path being answered is that one sent again: a long poll or
 * a polling loop re-sends from the answer's handler (Syncthing's GUI sent
 * its next `GET /rest/events` 37 ms after the last was answered, on a
 * loaded machine), a click's own fetch comes when the click does. */
export const RESEND_MS = 250;

/** The current action on each tab: when it began (wall ms), and the URLs
 * (the query left out) the page's timeline says it had requests in flight
 * to then, answered since. @type {Map<number, {since: number, polled: Set<string>}>} */
const watched = new Map();

/** An action on tabId begins: count the requests it starts.
 * @param {number} tabId */
export function watchRequests(tabId) {
  if (typeof tabId === 'number') watched.set(tabId, { since: Date.now(), polled: new Set() });
}

/** When the action on tabId began (wall ms), which also names it to the
 * kernel (kernel/polls.js); 0 when none is watched.
 * @param {number} tabId */
export function actionBegan(tabId) {
  const w = watched.get(tabId);
  return w ? w.since : 0;
}

/** A frame's timeline says the page had requests to these URLs in flight
 * when the action on tabId began (kernel/polls.js `polledSince`).
 * @param {number} tabId @param {string[] | undefined} urls */
export function notePolled(tabId, urls) {
  const w = watched.get(tabId);
  if (w && urls) for (const u of urls) w.polled.add(String(u));
}

/** The action's read back has settled: stop counting.
 * @param {number} tabId */
export function stopWatching(tabId) {
  watched.delete(tabId);
}

/** How many requests the action on tabId started are still in flight.
 * @param {number} tabId */
function inFlight(tabId) {
  return startedByAction(tabId).length;
}

/** Whether none of the requests the action on tabId started is in flight,
 * once the worker has been told of every request the page made before
 * now (debugger.js caughtUp): one heard of late counts.
 * @param {number} tabId */
export async function noneInFlight(tabId) {
  if (inFlight(tabId)) return false;
  await caughtUp(tabId);
  return !inFlight(tabId);
}

/** The requests the action on tabId started that are still in flight.
 * @param {number} tabId @returns {Req[]} */
function startedByAction(tabId) {
  return actionRequests(tabId).filter(inFlightNow);
}

/** The requests the action on tabId started (startedBy).
 * @param {number} tabId @returns {Req[]} */
function actionRequests(tabId) {
  const w = watched.get(tabId);
  if (!w) return [];
  if (Date.now() - w.since > WATCH_MS) {
    watched.delete(tabId);
    return [];
  }
  const requests = answerRequests(tabId);
  return requests ? startedBy(requests, w.since, w.polled) : [];
}

/** How many requests the action on tabId started, answered or not, which
 * the read back tells the host: a click that asked the server and changed
 * nothing the page shows did something all the same, and its reply does
 * not say it did nothing (host/effects.go untrustedHint).
 * @param {number} tabId */
export function requestsStarted(tabId) {
  return actionRequests(tabId).length;
}

/** What the requests the action on tabId started are doing, in one pass
 * over them: how many are still in flight, and when grip was told of the
 * last answer among them (wall ms, 0 for none). An app draws what it got
 * after it has it, and not always at once: ExtJS 3 reads its XHRs on a
 * 50 ms interval, so Deluge's login showed nothing of its answer until up
 * to 50 ms after it came; the read back's quiet period counts from the
 * last answer (settle.js). @param {number} tabId
 * @returns {{inFlight: number, lastAnswered: number}} */
export function actionActivity(tabId) {
  let inFlight = 0, lastAnswered = 0;
  for (const r of actionRequests(tabId)) {
    if (inFlightNow(r)) inFlight++;
    else if (r.done && r.ended > lastAnswered) lastAnswered = r.ended;
  }
  return { inFlight, lastAnswered };
}

/**
 * The requests of a page (network.js answerRequests, in the order they
 * began) that an action begun at since (wall ms) started and that are
 * still in flight. The page's own are told apart by what the page did,
 * per method and URL path (the query left out: a long poll asks for the
 * events after the last it got):
 * - every request that began before the action is the page's own, and a
 *   path one of them was in flight on when the action began is the
 *   page's polling: what the page sends there after is its own too;
 * - a request sent within RESEND_MS of the page's own one to its path
 *   being answered is that one sent again (a poll the action began
 *   between two of), and is its own.
 * polled are the URLs the page's timeline says it had in flight when the
 * action began, answered since: requests begun while grip was not
 * attached. The timeline does not tell a method, and one stands for a GET
 * (a poll reads), so a POST to its path is still the action's. A
 * WebSocket opening is always the action's: a socket is opened once and
 * reconnected when it closed (Jupyter's kernel restarted), never kept in
 * flight as a poll is.
 * @param {Req[]} requests @param {number} since @param {Set<string>} polled @returns {Req[]}
 */
export function startedInFlight(requests, since, polled) {
  return startedBy(requests, since, polled).filter(inFlightNow);
}

/** Whether a request is still in flight as far as grip knows: not done,
 * and not lost with an attachment that ended (a WebSocket opening is not
 * lost: its handshake is told again). @param {Req} r */
function inFlightNow(r) {
  return !r.done && (r.type === 'websocket' || !r.lost);
}

/** The requests of a page an action begun at since started, answered or
 * not (startedInFlight tells them apart from the page's own).
 * @param {Req[]} requests @param {number} since @param {Set<string>} polled @returns {Req[]} */
function startedBy(requests, since, polled) {
  /** The page's own requests per method and path: one was in flight when
   * the action began (held), and when the browser told each was done
   * (ends, its monotonic seconds). @type {Map<string, {held: boolean, ends: number[]}>} */
  const own = new Map();
  for (const url of polled) own.set('GET ' + url, { held: true, ends: [] });
  /** @type {Req[]} */
  const out = [];
  for (const r of requests) {
    if (r.type === 'websocket') {
      if (r.started >= since) out.push(r);
      continue;
    }
    const key = r.method + ' ' + r.url.split(/[?#]/, 1)[0];
    let path = own.get(key);
    if (!path) own.set(key, path = { held: false, ends: [] });
    let pages;
    if (r.started < since) {
      pages = true;
      if (!r.lost && (!r.done || r.ended >= since)) path.held = true;
    } else {
      pages = path.held || path.ends.some((t) => r.t0 >= t && (r.t0 - t) * 1000 <= RESEND_MS);
    }
    if (pages && r.done && r.t1) path.ends.push(r.t1);
    if (!pages) out.push(r);
  }
  return out;
}

/** Resolves once none of them is in flight, or one more is (the read
 * back asks the page whether it is its own: notePolled), or after ms.
 * @param {number} tabId @param {number} ms @returns {Promise<void>} */
export async function requestsDone(tabId, ms) {
  const end = Date.now() + Math.max(0, ms);
  const was = new Set(startedByAction(tabId));
  for (;;) {
    const now = startedByAction(tabId);
    if (now.length === 0 || now.some((r) => !was.has(r)) || Date.now() >= end) return;
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, end - Date.now()))));
  }
}
