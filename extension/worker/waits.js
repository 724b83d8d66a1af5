// @ts-check
// `grip wait`, answered by events rather than polls: the kernel in each
// frame watches its own DOM (a MutationObserver, op 'watch') and answers
// when the text appears or goes, or the element is gone; the worker follows
// URL changes through the tabs and webNavigation events. Nothing runs while
// nothing changes. Each watch lasts one slice, under the injection
// deadline that guards against a page blocked by a dialog, and is renewed
// until the time is up; a new document in the tab renews it at once.
import { runKernel, runInDocument, INJECTION_TIMEOUT_MS } from './inject.js';
import { wireError, hasCode } from './errors.js';

/** How long one watch in the page lasts before the worker renews it. */
const SLICE_MS = INJECTION_TIMEOUT_MS / 2;

/** @typedef {protocol.WaitReply} WaitReply */

/** @param {protocol.WaitParams} p @returns {Promise<WaitReply>} */
export async function waitFor(p) {
  const deadline = Date.now() + Math.max(0, Number(p.timeoutMs) || 0);
  if (p.url) return waitURL(p.tabId, p.url, deadline);
  if (p.documentId) return waitGone(p.tabId, p.documentId, Number(p.localId), deadline);
  if (p.text) return waitText(p.tabId, p.text, false, deadline);
  if (p.textGone) return waitText(p.tabId, p.textGone, true, deadline);
  throw wireError('wait needs text, textGone, documentId or url', 'bad_request', 'payload');
}

/**
 * Resolves at the next committed navigation of any frame of the tab (a
 * document that the current watches do not cover), or never; stop() drops
 * the listener.
 * @param {number} tabId
 */
function nextDocument(tabId) {
  /** @type {(d: chrome.webNavigation.WebNavigationFramedCallbackDetails) => void} */
  let listener = () => {};
  const promise = new Promise((resolve) => {
    listener = (d) => { if (d.tabId === tabId) resolve('navigated'); };
    chrome.webNavigation.onCommitted.addListener(listener);
  });
  return { promise, stop: () => chrome.webNavigation.onCommitted.removeListener(listener) };
}

/**
 * Text on the page (any frame), or off it (every frame).
 * @param {number} tabId @param {string} text @param {boolean} gone @param {number} deadline
 * @returns {Promise<WaitReply>}
 */
async function waitText(tabId, text, gone, deadline) {
  /** @type {KernelCalls['watch']['req'] & {op: 'watch'}} */
  const req = gone ? { op: 'watch', text, gone: true } : { op: 'watch', text };
  for (;;) {
    const ms = Math.max(0, Math.min(SLICE_MS, deadline - Date.now()));
    const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) || [];
    const documentIds = frames.map((f) => f.documentId).filter(Boolean);
    const nav = nextDocument(tabId);
    // One watch per document, so the first frame that sees the text
    // answers at once (one executeScript over many frames would wait for
    // the slowest).
    const watches = documentIds.map((id) => runKernel({ tabId, documentIds: [id] }, { ...req, ms })
      .then((rs) => rs.length === 0 || !rs[0].result || rs[0].result.met === true, () => gone));
    // A frame gone meanwhile counts as without the text.
    const settled = gone
      ? Promise.all(watches).then((all) => all.every(Boolean))
      : new Promise((resolve) => {
        let left = watches.length;
        if (left === 0) resolve(false);
        for (const w of watches) w.then((met) => { if (met) resolve(true); else if (--left === 0) resolve(false); });
      });
    const outcome = await Promise.race([settled, nav.promise]);
    nav.stop();
    if (outcome === true) return { met: true, detail: gone ? 'text is gone from the page' : 'text is on the page' };
    if (Date.now() >= deadline) return { met: false };
    // A slice ended or a new document came: watch again.
  }
}

/**
 * The element of a ref gone: removed, or its document gone.
 * @param {number} tabId @param {string} documentId @param {number} localId @param {number} deadline
 * @returns {Promise<WaitReply>}
 */
async function waitGone(tabId, documentId, localId, deadline) {
  for (;;) {
    const ms = Math.max(0, Math.min(SLICE_MS, deadline - Date.now()));
    try {
      const res = await runInDocument({ tabId, documentIds: [documentId] }, { op: 'watch', id: localId, ms });
      if (res.met) return { met: true, detail: 'the element is gone' };
    } catch (err) {
      if (hasCode(err, 'document_changed')) return { met: true, detail: 'its document is gone' };
      throw err;
    }
    if (Date.now() >= deadline) return { met: false };
  }
}

/**
 * The tab's URL equal to or containing want.
 * @param {number} tabId @param {string} want @param {number} deadline
 * @returns {Promise<WaitReply>}
 */
async function waitURL(tabId, want, deadline) {
  /** @param {string} url */
  const matches = (url) => !!url && (url === want || url.includes(want));
  const tab = await chrome.tabs.get(tabId);
  if (matches(tab.url || tab.pendingUrl || '')) return { met: true, detail: 'url is ' + (tab.url || tab.pendingUrl) };
  return new Promise((resolve) => {
    /** @type {ReturnType<typeof setTimeout>} */
    let timer;
    /** @param {WaitReply} r */
    const finish = (r) => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.webNavigation.onCommitted.removeListener(onCommitted);
      resolve(r);
    };
    /** @param {number} id @param {chrome.tabs.TabChangeInfo} change */
    const onUpdated = (id, change) => { if (id === tabId && change.url && matches(change.url)) finish({ met: true, detail: 'url is ' + change.url }); };
    /** @param {chrome.webNavigation.WebNavigationFramedCallbackDetails} d */
    const onCommitted = (d) => { if (d.tabId === tabId && d.frameId === 0 && matches(d.url)) finish({ met: true, detail: 'url is ' + d.url }); };
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.webNavigation.onCommitted.addListener(onCommitted);
    timer = setTimeout(() => finish({ met: false }), Math.max(0, deadline - Date.now()));
  });
}
