// @ts-check
// Which tab opened which: a link with target=_blank, window.open, a popup.
// chrome.tabs' own openerTabId is forgotten when the person switches tabs,
// so the worker keeps its own record in chrome.storage.session (it must
// outlast the worker; the browser clears it when it restarts, with the
// tabs). `grip tabs` shows it; the host hears of each new tab (tab_opened)
// to name it in its opener's next reply. With it, the document that opened
// each tab (its frame's URL and its tab's page, as they were then): a
// blank popup has that document's origin, and the host judges it by them
// even after the opener navigated away or closed (docs/person.md,
// "The person's controls").

/** @type {Promise<unknown>} writes, one after the other */
let queue = Promise.resolve();

/**
 * @param {(m: Record<string, number>) => void} change
 */
function update(change) {
  queue = queue.then(async () => {
    const got = await chrome.storage.session.get('openers');
    const m = got.openers && typeof got.openers === 'object' ? got.openers : {};
    change(m);
    await chrome.storage.session.set({ openers: m });
  }).catch(() => {});
  return queue;
}

/** @type {Promise<unknown>} writes of openedBy, one after the other */
let byQueue = Promise.resolve();

/**
 * @param {(m: Record<string, string[]>) => void | Promise<void>} change
 */
function updateBy(change) {
  byQueue = byQueue.then(async () => {
    const got = await chrome.storage.session.get('openedBy');
    const m = got.openedBy && typeof got.openedBy === 'object' ? got.openedBy : {};
    await change(m);
    await chrome.storage.session.set({ openedBy: m });
  }).catch(() => {});
  return byQueue;
}

/** How long a URL kept of an opening document may be. */
const MAX_URL = 2048;

/**
 * webNavigation.onCreatedNavigationTarget: tabId was opened by frame
 * sourceFrameId of sourceTabId. Its URL and its tab's are read at once,
 * before that document can move on; one that cannot be read any more is
 * kept as nothing known, which the host judges blocked.
 * @param {{tabId: number, sourceTabId: number, sourceFrameId: number}} d
 */
export function noteOpener(d) {
  const { tabId, sourceTabId: opener, sourceFrameId: frameId } = d;
  const noted = update((m) => { m[String(tabId)] = opener; });
  const reading = Promise.all([
    chrome.webNavigation.getFrame({ tabId: opener, frameId }).catch(() => null),
    chrome.tabs.get(opener).catch(() => null),
  ]).then(([frame, tab]) => {
    /** @type {string[]} */
    const by = [];
    if (frame && frame.url) by.push(frame.url);
    if (tab && (tab.url || tab.pendingUrl)) by.push(/** @type {string} */ (tab.url || tab.pendingUrl));
    return [...new Set(by.map((u) => u.slice(0, MAX_URL)))];
  });
  // Queued now, written once read: a listing (which waits for the queue)
  // never finds the opener without the document that opened.
  updateBy(async (m) => {
    const kept = await reading;
    m[String(tabId)] = kept.length ? kept : [''];
  });
  return noted;
}

/** A tab closed: its own records go; the record of the tabs it opened
 * stays as who opened them, without it as their opener.
 * @param {number} tabId */
export function forgetOpenerOf(tabId) {
  updateBy((m) => { delete m[String(tabId)]; });
  return update((m) => {
    delete m[String(tabId)];
    for (const k of Object.keys(m)) if (m[k] === tabId) delete m[k];
  });
}

/** @returns {Promise<Map<number, string[]>>} the document that opened each recorded tab */
export async function openedBy() {
  await byQueue;
  const got = await chrome.storage.session.get('openedBy').catch(() => ({ openedBy: {} }));
  const m = got.openedBy && typeof got.openedBy === 'object' ? got.openedBy : {};
  return new Map(Object.entries(m).filter(([, v]) => Array.isArray(v)).map(([k, v]) => [Number(k), v.map(String)]));
}

/** @returns {Promise<Map<number, number>>} each recorded tab's opener */
export async function openers() {
  await queue;
  const got = await chrome.storage.session.get('openers').catch(() => ({ openers: {} }));
  const m = got.openers && typeof got.openers === 'object' ? got.openers : {};
  return new Map(Object.entries(m).map(([k, v]) => [Number(k), Number(v)]));
}
