// @ts-check
// The top-level navigation each tab has on the way: begun, not yet
// committed nor failed. A page can answer an action by loading itself
// again once the app's answer came (qBittorrent's settings, saved:
// location.reload() in the request's success handler, the same URL); until
// that navigation commits, the page read is the one about to go, so the
// read back waits for it (settle.js; docs/settling.md).

/** When each tab's pending top-level navigation began (wall ms).
 * @type {Map<number, number>} */
const pending = new Map();

chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  if (d.frameId === 0 && d.tabId >= 0) pending.set(d.tabId, Date.now());
});
/** @param {{tabId: number, frameId: number}} d */
const ended = (d) => {
  if (d.frameId === 0) pending.delete(d.tabId);
};
chrome.webNavigation.onCommitted.addListener(ended);
chrome.webNavigation.onErrorOccurred.addListener(ended);
chrome.tabs.onRemoved.addListener((tabId) => { pending.delete(tabId); });

/** When the top-level navigation tabId has on the way began (wall ms),
 * 0 for none. @param {number} tabId */
export function navigationPending(tabId) {
  return pending.get(tabId) || 0;
}
