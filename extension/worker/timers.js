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

/** The documents each tab's last action was given the wrapper's noting in. */
/** @type {Map<number, string[]>} */
const watched = new Map();

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
  const documentIds = await sameOrigin(tabId, documentId);
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
  if (noted.length) watched.set(tabId, noted.map((r) => /** @type {string} */ (r.documentId)).filter(Boolean));
}

/**
 * The document and the tab's other documents of its origin: a blank or
 * srcdoc frame has its parent's.
 * @param {number} tabId
 * @param {string} documentId
 * @returns {Promise<string[]>}
 */
async function sameOrigin(tabId, documentId) {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || [];
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
 * of its documents (0: none left, or no action watched).
 * @param {number} tabId
 * @returns {Promise<number>}
 */
export async function timersLeft(tabId) {
  const documentIds = watched.get(tabId);
  if (!documentIds) return 0;
  const rs = await chrome.scripting.executeScript({
    target: { tabId, documentIds }, world: 'MAIN', func: timersDue,
  }).catch(() => []);
  const ms = Math.max(0, ...rs.map((r) => Number(r.result) || 0));
  if (ms <= 0) watched.delete(tabId);
  return ms;
}
