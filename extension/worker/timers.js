// @ts-check
// The timers an action set off (docs/settling.md, "Settling"). Apps
// put off what a click or a key does by a timer longer than the quiet
// period: TiddlyWiki redraws a draft 400 ms after the last key, a search
// box asks its server 300 ms after typing stops. The page is quiet until
// then, and a reply read at the quiet period would miss what the timer
// draws. So the page's own world has a wrapper of setTimeout
// (page/timers.js) that, from just before an action's input until the read
// back first asks, notes when each timer set is due — and each timer set
// while one of those runs, which is how a redraw queued in a zero timer
// sets its throttle; the read back waits until the last of them has run.
// In the origins an agent navigated to or acted in, the wrapper runs at
// document_start (coverOrigin), so it also sees the timers of scripts that
// took setTimeout when they loaded; in any other document it is run just
// before the action and steps aside once the settle bound has passed. A
// page that rewrites it only makes the read wait, at most to the bound, as
// for any busy page.

import { originOf } from './navigation.js';

/**
 * Each tab's last action: the documents it was given the wrapper's noting
 * in, and every document the tab had then (one it has since is one the
 * action loaded: its set-up is waited for too).
 * @typedef {{documentIds: string[], known: Set<string>, at: number}} Watch
 */
/** @type {Map<number, Watch>} */
const watched = new Map();
/** How long after its action a watch is asked at most (well past the settle bound). */
const WATCH_MS = 10000;

/** The page world's half, run at document_start where it is registered. */
const PAGE_TIMERS = 'page/timers.js';
const REGISTRATION = 'grip-timers';
/** The origins registered at most: the newest ones stay. */
const MAX_ORIGINS = 64;

/**
 * Standalone, injected into the page's own world: the wrapper
 * (page/timers.js) notes the timers set from now until the first read
 * (timersDue), up to boundMs from now. Returns the document's URL, or ''
 * where the document has no wrapper yet.
 * @param {number} boundMs
 * @returns {string}
 */
function noteTimers(boundMs) {
  const st = /** @type {any} */ (window)[Symbol.for('grip.actionTimers')];
  if (!st || typeof st.note !== 'function') return '';
  st.note(boundMs);
  return location.href;
}

/**
 * Standalone, injected into the page's own world: ms until the last timer
 * the action set off (or the document's set-up, page/timers.js) is due, at
 * least 5 for one due that has not run yet and for an idle callback not
 * run yet (0: none is left), and noting stops.
 * @returns {number}
 */
function timersDue() {
  const st = /** @type {any} */ (window)[Symbol.for('grip.actionTimers')];
  if (!st) return 0;
  st.noting = false;
  const now = performance.now();
  let last = 0;
  for (const pending of [st.due, st.idle]) {
    if (!pending) continue;
    for (const [id, due] of pending) {
      // One not run yet though due counts until it has run (a busy page
      // runs its timers late), but not past the bound: a hidden page runs
      // them once a second at most.
      if (now - due > st.bound) pending.delete(id);
      else last = Math.max(last, due - now, 5);
    }
  }
  return Math.ceil(last);
}

/**
 * Gives the wrapper's noting, just before an action's input, for boundMs
 * (the settle bound, settle.js), to the acted-on document and every other
 * document of the tab of its origin: the script that answers an input may
 * be its parent's (TiddlyWiki's editor is a textarea in a blank frame of
 * its own, and the wiki's handlers and timers are the page's). No frame
 * of another origin is touched (a blocked one stays unrun). The wrapper is
 * there already where it ran at document_start, and is run now elsewhere;
 * its origin is registered, so the documents it loads next have it from
 * their start. A frame that cannot be reached is acted on without it.
 * @param {number} tabId
 * @param {string} documentId the acted-on document (none: nothing is watched)
 * @param {number} boundMs
 */
export async function watchActionTimers(tabId, documentId, boundMs) {
  watched.delete(tabId);
  if (!documentId) return;
  const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || [];
  const documentIds = sameOrigin(frames, documentId);
  /** @param {string[]} ids */
  const note = (ids) => chrome.scripting.executeScript({ target: { tabId, documentIds: ids }, world: 'MAIN', func: noteTimers, args: [boundMs] })
    .catch(() => /** @type {chrome.scripting.InjectionResult<string>[]} */ ([]));
  const rs = await note(documentIds);
  const noted = rs.filter((r) => r.result);
  const bare = documentIds.filter((id) => !noted.some((r) => r.documentId === id));
  if (bare.length) {
    await chrome.scripting.executeScript({ target: { tabId, documentIds: bare }, world: 'MAIN', files: [PAGE_TIMERS] }).catch(() => {});
    const late = (await note(bare)).filter((r) => r.result);
    for (const r of late) coverOrigin(String(r.result));
    noted.push(...late);
  }
  const known = new Set(frames.map((f) => f.documentId).filter(Boolean));
  watched.set(tabId, { documentIds: noted.map((r) => /** @type {string} */ (r.documentId)).filter(Boolean), known, at: Date.now() });
}

/**
 * The document and the tab's other documents of its origin: a blank or
 * srcdoc frame has its parent's.
 * @param {chrome.webNavigation.GetAllFrameResultDetails[]} frames the tab's
 * @param {string} documentId
 * @returns {string[]}
 */
function sameOrigin(frames, documentId) {
  const byId = new Map(frames.map((f) => [f.frameId, f]));
  /** @param {chrome.webNavigation.GetAllFrameResultDetails | undefined} f @returns {string} */
  const frameOrigin = (f) => {
    for (let hops = 0; f && hops < 32; hops++) {
      if (!/^about:/.test(f.url)) return originOf(f.url);
      f = byId.get(f.parentFrameId);
    }
    return '';
  };
  const acted = frames.find((f) => f.documentId === documentId);
  const origin = frameOrigin(acted);
  if (!origin) return [documentId];
  const ids = frames.filter((f) => f.documentId && frameOrigin(f) === origin).map((f) => /** @type {string} */ (f.documentId));
  return ids.includes(documentId) ? ids : [documentId, ...ids];
}

/** @type {Promise<unknown>} registrations, one after another */
let registering = Promise.resolve();

/**
 * Registers the wrapper (page/timers.js) to run at document_start in
 * every frame of the URL's origin (http and https only) from the next
 * document on, until the browser closes: a page's scripts that take
 * setTimeout when they load take the wrapper. Only origins an agent
 * navigates to or acts in are registered, so no other page the person
 * visits has it; the newest MAX_ORIGINS stay.
 * @param {string} url
 * @returns {Promise<void>}
 */
export function coverOrigin(url) {
  const origin = /^https?:/i.test(url) ? originOf(url) : '';
  if (!origin) return Promise.resolve();
  const done = registering.then(() => register(origin + '/*')).catch(() => {});
  registering = done;
  return done;
}

/** @param {string} pattern */
async function register(pattern) {
  const [got] = await chrome.scripting.getRegisteredContentScripts({ ids: [REGISTRATION] });
  const had = (got && got.matches) || [];
  if (had.includes(pattern)) return;
  const matches = [...had, pattern].slice(-MAX_ORIGINS);
  if (got) {
    await chrome.scripting.updateContentScripts([{ id: REGISTRATION, matches }]);
    return;
  }
  await chrome.scripting.registerContentScripts([{
    id: REGISTRATION, js: [PAGE_TIMERS], matches, runAt: 'document_start', world: 'MAIN', allFrames: true, matchOriginAsFallback: true, persistAcrossSessions: false,
  }]);
}

/**
 * Ms until the last timer the tab's last action set off has run, in any
 * of its documents, and the last one a document the action loaded set
 * while setting itself up (page/timers.js; 0: none left, or no action
 * watched). A document the tab did not have at the action (a click that
 * loaded a page, a frame it added) is asked too: where the wrapper ran at
 * document_start it noted the timers and idle callbacks of the page's
 * set-up, and elsewhere it answers 0.
 * @param {number} tabId
 * @param {string[]} [now] the tab's documents now, if the caller has them
 * @returns {Promise<number>}
 */
export async function timersLeft(tabId, now) {
  const w = watched.get(tabId);
  if (!w) return 0;
  if (Date.now() - w.at > WATCH_MS) {
    watched.delete(tabId);
    return 0;
  }
  const current = now || ((await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || []).map((f) => f.documentId).filter(Boolean);
  // Only documents the tab has: asking one that is gone fails the call.
  const documentIds = current.filter((id) => w.documentIds.includes(id) || !w.known.has(id));
  if (!documentIds.length) return 0;
  const rs = await chrome.scripting.executeScript({
    target: { tabId, documentIds }, world: 'MAIN', func: timersDue,
  }).catch(() => []);
  return Math.max(0, ...rs.map((r) => Number(r.result) || 0));
}

/**
 * The tab's read back is done: its last action's timers are asked no more.
 * @param {number} tabId
 */
export function stopTimers(tabId) {
  watched.delete(tabId);
}
