// @ts-check
// Settling (docs/settling.md, "Settling"): the read back after an
// action is taken once the tab's page has settled — no frame changed what
// it shows for a quiet period and none shows a busy indicator — or at the
// bound. The kernel in each frame keeps the time of its document's last
// change (kernel/settle.js) and tells it with the read itself, so a page
// already quiet costs nothing more; for one still changing, settleTab waits
// here, by timers set to the exact moment a frame's quiet period ends and,
// while a frame shows a busy indicator, by its next change, and the page is
// read again.
import { runKernel } from './inject.js';
import { whileNoDialog } from './dialogs.js';
import { noneInFlight, requestsDone, actionBegan, notePolled, actionActivity } from './inflight.js';
import { navigationPending } from './pendingnav.js';
import { timersLeft } from './timers.js';

/** No change for this long is a page that settled. */
export const QUIET_MS = 100;
/** How long an action's reply waits, at most, for its page to settle. */
export const SETTLE_BOUND_MS = 1500;
/** How long a live frame (one that has changed without a pause since well
 * before the action: kernel/settle.js) is waited for: one beat of the
 * slowest rhythm the kernel calls live, time for the action's own change
 * to show. Its quiet never comes, so waiting longer only makes every reply
 * on a dashboard or a feed take the bound. */
export const LIVE_READ_MS = 250;

/**
 * @typedef {{tabId: number, quietMs?: number, boundMs?: number}} SettleParams
 * @typedef {{settled: boolean, ms: number, busy?: string, live?: boolean}} SettleReply
 * @typedef {{sinceChange: number, busy: string, animating?: number, live?: boolean, still?: boolean, polled?: string[]}} FrameState
 */

/**
 * How long, in ms, until every frame has been quiet for quiet ms and its
 * running animations have ended (0 or less: it has); Infinity while one
 * shows a busy indicator. A frame that did not answer (null) holds
 * nothing back; a live one, only until LIVE_READ_MS after the read began
 * (elapsed ms ago). What an animation ends in (a panel removed once it
 * has slid shut) changes the page then, so the quiet period is counted
 * from there too. Animations that stand still (a hidden document's: it
 * draws no frames) say the same ms left at every read: that time is
 * counted from the read's start, so they hold the reply as long as they
 * would have run, not until the bound.
 * @param {(FrameState|null)[]} states @param {number} [quiet] @param {number} [elapsed]
 */
export function quietFor(states, quiet = QUIET_MS, elapsed = 0) {
  let wait = 0;
  for (const st of states) {
    if (!st) continue;
    if (st.busy) return Infinity;
    let own = st.sinceChange < 0 ? quiet : quiet - st.sinceChange;
    if (st.animating && st.animating > 0) own = Math.max(own, st.animating + quiet - (st.still ? elapsed : 0));
    if (st.live) own = Math.min(own, LIVE_READ_MS - elapsed);
    wait = Math.max(wait, own);
  }
  return wait;
}

/** How long, in ms, until the quiet period after the last answer to a
 * request the action on tabId started has passed (0 or less: it has, or
 * there was none). The answer is a change to the page the app may not
 * have drawn yet: ExtJS 3 reads its XHRs on a 50 ms interval, and
 * Deluge's login showed nothing of its answer until then, while the page
 * had changed nothing since the key (inflight.js actionActivity).
 * @param {number} tabId @param {number} [quiet] */
export function answerQuietLeft(tabId, quiet = QUIET_MS) {
  return quietAfter(actionActivity(tabId).lastAnswered, quiet);
}

/** @param {number} answered wall ms, 0 for none @param {number} quiet */
function quietAfter(answered, quiet) {
  return answered ? quiet - (Date.now() - answered) : 0;
}

/** Whether a frame read now is still changing: a live one that changed
 * within the quiet period. @param {(FrameState|null)[]} states @param {number} quiet */
function stillLive(states, quiet) {
  return states.some((st) => st && st.live && st.sinceChange < quiet);
}

/** Resolves once the navigation of tabId begun at navAt committed or
 * failed (or another began), or after ms.
 * @param {number} tabId @param {number} navAt @param {number} ms */
async function untilNoNavigation(tabId, navAt, ms) {
  const end = Date.now() + ms;
  while (navigationPending(tabId) === navAt && Date.now() < end) await sleep(Math.min(POLL_NAV_MS, end - Date.now()));
}

// How often untilNoNavigation looks again.
const POLL_NAV_MS = 20;

/** @param {number} ms */
function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * @param {any} v @param {number} dflt @param {number} max
 */
function bounded(v, dflt, max) {
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, max) : dflt;
}

/**
 * Waits until the tab's page has settled, or the bound (counted from
 * started) is reached.
 * @param {SettleParams} p @param {number} started @returns {Promise<SettleReply>}
 */
export async function settleTab(p, started) {
  try {
    return await whileNoDialog(p.tabId, () => settleFrames(p, started));
  } catch (err) {
    // A dialog stops the page: nothing more will change until it is
    // answered, and the reply names it.
    if (err && /** @type {any} */ (err).dialog) return { settled: true, ms: Date.now() - started };
    throw err;
  }
}

/** @param {SettleParams} p @param {number} started @returns {Promise<SettleReply>} */
async function settleFrames(p, started) {
  const { tabId } = p;
  const quiet = bounded(p.quietMs, QUIET_MS, 5000);
  const bound = bounded(p.boundMs, SETTLE_BOUND_MS, 10000);
  for (;;) {
    const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || [];
    const documentIds = frames.map((f) => f.documentId).filter(Boolean);
    // A frame that cannot be read (gone, not permitted) does not hold the
    // reply back.
    // A frame that does not answer within the bound (a page busy in a
    // long task) holds nothing back: waiting on it past the bound would
    // make the reply wait as long as the page is stuck.
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), Math.max(0, bound - (Date.now() - started))); });
    // Each frame also tells which requests its page had in flight when the
    // action began and got the answer to since (inflight.js).
    const began = actionBegan(tabId);
    const states = await Promise.all(documentIds.map((id) => Promise.race([
      runKernel({ tabId, documentIds: [id] }, { op: 'settle', ago: Date.now() - started, ...(began ? { action: began, began: Date.now() - began } : {}) })
        .then((rs) => (rs[0] && rs[0].result && !rs[0].result.error ? rs[0].result : null), () => null),
      late,
    ])));
    clearTimeout(timer);
    for (const st of states) if (st) notePolled(tabId, st.polled);
    // No frame answering at all (the tab between documents) is no news
    // that it settled: ask again after a quiet period.
    const elapsed = Date.now() - started;
    // A timer the action set off, or the set-up of a document it loaded,
    // that has not run yet holds the read until it has (timers.js).
    const deferred = await timersLeft(tabId, documentIds);
    // A load the action set off (a page that reloads itself once the
    // app answered) holds the read until it commits: the page read now is
    // the one about to go.
    const navAt = navigationPending(tabId);
    if (began && navAt >= began) {
      const left = bound - (Date.now() - started);
      if (left <= 0) return { settled: false, ms: Date.now() - started, busy: 'the page the action loaded had not arrived' };
      await untilNoNavigation(tabId, navAt, left);
      continue;
    }
    const activity = actionActivity(tabId);
    const wait = Math.max(states.some(Boolean) ? quietFor(states, quiet, elapsed) : quiet, deferred > 0 ? deferred + 10 : 0, quietAfter(activity.lastAnswered, quiet));
    const busyDocs = documentIds.filter((_, i) => states[i] && states[i].busy);
    const first = states.find((st) => st && st.busy);
    const requests = activity.inFlight;
    const busy = first ? first.busy : requests ? (requests === 1 ? 'a request the action started was' : requests + ' requests the action started were') + ' in flight' : '';
    if (busyDocs.length === 0 && wait <= 0 && !requests) {
      // One the worker heard of late holds it too.
      if (!(await noneInFlight(tabId))) continue;
      // A live frame read as it is: it was not quiet, and the reply says so.
      return stillLive(states, quiet) ? { settled: false, ms: elapsed, live: true } : { settled: true, ms: elapsed };
    }
    const left = bound - elapsed;
    if (left <= 0) return busy ? { settled: false, ms: elapsed, busy } : { settled: false, ms: elapsed };
    if (busyDocs.length === 0 && !requests) {
      // Quiet so far: ask again when the last frame's quiet period ends.
      await sleep(Math.min(wait, left));
      continue;
    }
    if (busyDocs.length === 0) {
      // Waiting for the app's answer: then its page changes.
      await requestsDone(tabId, left);
      continue;
    }
    // A busy indicator goes away by a change: wait for the next one.
    await Promise.race([
      ...busyDocs.map((id) => runKernel({ tabId, documentIds: [id] }, { op: 'nextChange', ms: left }).catch(() => null)),
      sleep(left),
    ]);
  }
}
