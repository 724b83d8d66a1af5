// @ts-check
// Snapshots: the kernel runs in every frame of the tab (isolated world);
// each frame's result goes to the host, which merges, allocates refs and
// renders. Frames that navigated while we collected are dropped, not mixed.
import { wireError } from './errors.js';
import { runKernel, unscriptable, blankTop } from './inject.js';
import { tabLoading } from './tabs.js';
import { dialogOf, hold } from './debugger.js';
import { Watch } from './effects.js';
import { quietFor, settleTab, answerQuietLeft } from './settle.js';
import { timersLeft, stopTimers } from './timers.js';
import { noneInFlight, stopWatching, actionBegan, requestsStarted } from './inflight.js';
import { navigationPending } from './pendingnav.js';
import { openers } from './openers.js';
import { errorPage, errorPageRefusal } from './navigation.js';

/**
 * The kernel answers a snapshot with one JSON string (see kernel/run.js); a
 * frame that failed answers with an object or nothing.
 * @param {any} result
 */
function parseResult(result) {
  if (typeof result !== 'string') return result;
  try {
    return JSON.parse(result);
  } catch (_) {
    return null;
  }
}

/**
 * @param {number} tabId
 * @param {string} mode
 * @param {boolean} [keepSignatures] see the kernel's snapshot
 * @param {boolean} [settle] read once the page has settled (settle.js):
 *   each frame's read says how long ago it last changed; a page already
 *   quiet is this read, one still changing is waited for and read again
 * @param {boolean} [allContexts] every element gets its context, not only
 *   repeats (the host resolving a target line)
 * @param {string[]} [known] the walks whose elements the host holds: a
 *   frame whose page has not changed since one of them answers "the same"
 *   (kernel/reread.js)
 * @param {number} [saidSince] ask each frame what the app said since then
 *   (wall ms: when the action began; kernel/said.js)
 * @returns {Promise<protocol.SnapshotReply>}
 */
export async function snapshotTab(tabId, mode, keepSignatures, settle, allContexts, known, saidSince) {
  const started = Date.now();
  const read = await readTab(tabId, mode, keepSignatures, settle, allContexts, known, saidSince);
  if (!settle || read.dialog) return read;
  const readAt = Date.now();
  const states = read.frames.map((/** @type {any} */ f) => f.settle || null);
  for (const f of read.frames) delete f.settle;
  const began = actionBegan(tabId);
  // Whether a frame changed what it shows after the action began (its last
  // change less long ago than the action), which no line may show: a
  // reply that says the action did nothing must not (host/effects.go).
  // One that settles by waiting was changing, or had reason to wait.
  const mutated = !!began && states.some((s) => s && typeof s.sinceChange === 'number' && s.sinceChange <= readAt - began);
  if (quietFor(states) <= 0 && answerQuietLeft(tabId) <= 0 && !(began && navigationPending(tabId) >= began) && await noneInFlight(tabId) &&
      await timersLeft(tabId, read.frames.map((/** @type {any} */ f) => f.documentId).filter(Boolean)) <= 0) {
    const requests = requestsStarted(tabId);
    stopWatching(tabId);
    stopTimers(tabId);
    return { ...read, settle: { settled: true, ms: Date.now() - started, ...(requests ? { requests } : {}), ...(mutated ? { mutated } : {}) } };
  }
  const how = await settleTab({ tabId }, started);
  const requests = requestsStarted(tabId);
  stopWatching(tabId);
  stopTimers(tabId);
  const again = await readTab(tabId, mode, keepSignatures, false, allContexts, known, saidSince);
  return { ...again, settle: { ...how, ...(requests ? { requests } : {}), mutated: true } };
}

/**
 * @param {number} tabId
 * @param {string} mode
 * @param {boolean} [keepSignatures]
 * @param {boolean} [settle]
 * @param {boolean} [allContexts]
 * @param {string[]} [known]
 * @param {number} [saidSince]
 */
async function readTab(tabId, mode, keepSignatures, settle, allContexts, known, saidSince) {
  const tab = await tabLoading(tabId);
  // A tab showing a JavaScript dialog cannot be read: the reply says so.
  const open = dialogOf(tabId);
  if (open) return { tab: { id: tab.id, url: tab.url, title: tab.title }, frames: [], dialog: open };
  const held = await hold(tabId, { read: true });
  try {
    return await readFrames(tabId, tab, mode, keepSignatures, settle, allContexts, known, saidSince);
  } finally {
    held.release();
  }
}

/** How long one frame of several may take to answer a snapshot before it
 * is left out (counted as a frame that did not answer): a frame that stays
 * loading, or that another debugger holds paused, never answers. */
const FRAME_DEADLINE_MS = 3000;
/** How long the top frame may take before the worker looks whether
 * another debugger holds it (then it is left out too), and how often after. */
const STALL_MS = 1000, STALL_CHECK_MS = 250;

/**
 * Runs the snapshot in every frame of the tab. A tab that has loaded gets
 * one injection into all its frames: one call for the whole tab costs
 * about half of one call per frame at 30 frames (bench/RESULTS.md,
 * "Scale"). A tab still loading — some frame of it is, and a frame that
 * stays loading, or that another debugger holds paused at its start, never
 * answers, while one injection into all frames waits for all — gets one
 * injection per frame, side by side, each within FRAME_DEADLINE_MS, so such
 * a frame costs only itself; so does a loaded tab whose injection into all
 * frames did not answer within the injection deadline (a frame paused by a
 * debugger). The top frame is waited for up to the injection deadline,
 * unless another debugger holds it.
 * @param {number} tabId
 * @param {boolean} loading
 * @param {KernelRequest} req
 * @returns {Promise<chrome.scripting.InjectionResult<any>[]>}
 */
async function readEachFrame(tabId, loading, req) {
  /** @type {any} */
  let timedOut = null;
  if (!loading) {
    try {
      return await unlessHeld(tabId, runKernel({ tabId, allFrames: true }, req));
    } catch (err) {
      if (!err || /** @type {any} */ (err).code !== 'timeout') throw err;
      timedOut = err;
    }
  }
  const list = await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null) || [];
  if (list.length <= 1) {
    // One frame that did not answer within the deadline (a page busy in a
    // long task) would not answer a second try sooner.
    if (timedOut) throw timedOut;
    return unlessHeld(tabId, runKernel({ tabId, allFrames: true }, req));
  }
  /** @type {ReturnType<typeof setTimeout>[]} */
  const timers = [];
  const late = new Promise((resolve) => { timers.push(setTimeout(() => resolve(null), FRAME_DEADLINE_MS)); });
  const each = await Promise.all(list.map((f) => {
    const one = runKernel({ tabId, frameIds: [f.frameId] }, req).then((rs) => rs[0] || null);
    // The top frame's failure is the snapshot's; another frame's only its own.
    if (f.frameId === 0) return unlessHeld(tabId, one);
    return Promise.race([one.catch(() => null), late]);
  }));
  for (const t of timers) clearTimeout(t);
  return /** @type {chrome.scripting.InjectionResult<any>[]} */ (each.filter(Boolean));
}

/**
 * work, or a refusal once it has not answered for STALL_MS and another
 * debugger holds the tab (see heldElsewhere).
 * @template T
 * @param {number} tabId @param {Promise<T>} work
 * @returns {Promise<T>}
 */
function unlessHeld(tabId, work) {
  let done = false;
  work.then(() => { done = true; }, () => { done = true; });
  const watch = async () => {
    await sleep(STALL_MS);
    while (!done) {
      if (await heldElsewhere(tabId)) {
        throw wireError(`tab ${tabId} is held paused by another debugger (it holds a tab this page opened, which shares its process)`,
          'not_actionable', 'browser', 'let the other debugger (DevTools, Playwright) resume the new tab, or close that tab, then try again');
      }
      await sleep(STALL_CHECK_MS);
    }
    return work;
  };
  return Promise.race([work, watch()]);
}

/**
 * Whether another debugger holds the tab's page paused: one holds a tab
 * the page opened (Playwright and DevTools hold each new target until they
 * let it run, and a popup that shares its opener's process holds the
 * opener). grip attaches to no tab it has not worked on. The tabs the page
 * opened are the worker's record (openers.js: a link or window.open), not
 * chrome.tabs' openerTabId, which Chrome also sets on a tab a debugger
 * created while this one was in front: such a tab shares no process with
 * it, and counting it took a slow read of a tab beside Playwright's pages
 * for a held one.
 * @param {number} tabId
 */
async function heldElsewhere(tabId) {
  const [targets, recorded] = await Promise.all([chrome.debugger.getTargets().catch(() => []), openers().catch(() => new Map())]);
  const opened = new Set([...recorded].filter(([, opener]) => opener === tabId).map(([tab]) => tab));
  return targets.some((t) => t.attached && typeof t.tabId === 'number' && opened.has(t.tabId));
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * @param {number} tabId
 * @param {{id: number, url: string, title: string, loading: boolean}} tab
 * @param {string} mode
 * @param {boolean} [keepSignatures]
 * @param {boolean} [settle]
 * @param {boolean} [allContexts]
 * @param {string[]} [known]
 * @param {number} [saidSince]
 */
async function readFrames(tabId, tab, mode, keepSignatures, settle, allContexts, known, saidSince) {
  const started = performance.now();
  /** @type {chrome.scripting.InjectionResult<any>[]} */
  let results;
  /** @type {KernelRequest} */
  const req = { op: 'snapshot', mode, keepSignatures: !!keepSignatures, asJSON: true, settle: !!settle, allContexts: !!allContexts,
    known: known || [], saidSince: Number(saidSince) || 0 };
  // A dialog that opens meanwhile (a timer) stops the page: answer with it.
  const w = new Watch(tabId, { navigations: false });
  try {
    const out = await w.race(() => readEachFrame(tabId, tab.loading, req));
    if (w.dialog) return { tab: { id: tab.id, url: tab.url, title: tab.title }, frames: [], dialog: w.dialog };
    if (out.error) throw out.error;
    results = /** @type {chrome.scripting.InjectionResult<any>[]} */ (out.value);
  } catch (err) {
    if (err && /** @type {any} */ (err).code) throw err;
    // The blank page a tab was opened with (`back` leads there) is the
    // extension's own, which Chrome lets no script read: it shows nothing,
    // and the reply is that empty page.
    if (unscriptable(err) && await blankTop(tabId)) {
      const top = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
      return { tab: { id: tab.id, url: 'about:blank', title: '' }, frames: [{ frameId: 0, documentId: (top && top.documentId) || '', url: 'about:blank', title: '', elements: [] }] };
    }
    // A load that failed shows Chrome's error page ("Frame with ID 0 is
    // showing error page"), no browser page: say which URL failed and why.
    const failed = await errorPage(tabId);
    if (failed) throw errorPageRefusal(tabId, failed);
    throw wireError(`cannot read tab ${tabId} (${tab.url}): grip may not read this page`, 'not_actionable', 'document',
      'grip cannot read browser-internal pages (chrome://, the Web Store); open a web page');
  } finally {
    w.stop();
  }
  const injected = performance.now();
  const after = await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null) || [];
  /** @type {Map<number, string>} */
  const liveByFrame = new Map();
  for (const f of after) liveByFrame.set(f.frameId, f.documentId || '');

  /** @type {any[]} */
  const frames = [];
  /** @type {Set<number>} */
  const answered = new Set();
  for (const r of results) {
    const frameId = r.frameId;
    const documentId = /** @type {any} */ (r).documentId || '';
    answered.add(frameId);
    const res = parseResult(r.result);
    if (liveByFrame.get(frameId) !== documentId) {
      frames.push({ frameId, documentId, url: '', error: 'navigated during the snapshot' });
    } else if (!res || res.error || !Array.isArray(res.elements)) {
      frames.push({ frameId, documentId, url: res && res.url || '', error: res && res.error ? res.error.message : 'the frame returned nothing' });
    } else {
      frames.push({ frameId, documentId, url: res.url, title: res.title, elements: res.elements, stats: res.stats, settle: res.settle,
        walk: res.walk, same: res.same, base: res.base, patch: res.patch, alive: res.alive, said: res.said });
    }
  }
  for (const f of after) {
    if (answered.has(f.frameId)) continue;
    frames.push({ frameId: f.frameId, documentId: f.documentId || '', url: f.url, error: f.url === 'about:blank' || !f.url ? 'blank frame' : 'did not answer (not permitted, still loading, or held paused by another debugger)' });
  }
  const top = frames.find((f) => f.frameId === 0);
  // Loading when the read began, and still: the reply says the page may
  // show more soon (a loaded tab pays nothing for the question).
  const loading = tab.loading && (await chrome.tabs.get(tabId).catch(() => null))?.status === 'loading';
  return {
    tab: { id: tab.id, url: (top && top.url) || tab.url, title: (top && top.title) || tab.title },
    frames,
    timing: { injectMs: injected - started, totalMs: performance.now() - started },
    ...(loading ? { loading: true } : {}),
  };
}
