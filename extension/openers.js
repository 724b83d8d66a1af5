// @ts-check
// Which tab opened which: a link with target=_blank, window.open, a popup.
// chrome.tabs' own openerTabId is forgotten when the person switches tabs,
// so the worker keeps its own record in chrome.storage.session (it must
// outlast the worker; the browser clears it when it restarts, with the
// tabs). `grip tabs` shows it; the host hears of each new tab (tab_opened)
// to name it in its opener's next reply.

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

/** @param {number} tabId @param {number} opener */
export function noteOpener(tabId, opener) {
  return update((m) => { m[String(tabId)] = opener; });
}

/** @param {number} tabId */
export function forgetOpenerOf(tabId) {
  return update((m) => {
    delete m[String(tabId)];
    for (const k of Object.keys(m)) if (m[k] === tabId) delete m[k];
  });
}

/** @returns {Promise<Map<number, number>>} each recorded tab's opener */
export async function openers() {
  await queue;
  const got = await chrome.storage.session.get('openers').catch(() => ({ openers: {} }));
  const m = got.openers && typeof got.openers === 'object' ? got.openers : {};
  return new Map(Object.entries(m).map(([k, v]) => [Number(k), Number(v)]));
}
