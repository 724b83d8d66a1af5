// @ts-check
// URLs an agent gives, read the way the browser will load them, and how a
// tab's load ended (docs/ARCHITECTURE.md, "Navigating"). The host judges a
// navigation by the policy on the href this returns, so the two can never
// disagree about which site a URL names (https:pay.example, backslashes,
// tabs in the host, percent-encoded or full-width hosts, 0x7f.1…).
import { wireError } from './errors.js';

/**
 * The URL as the browser reads it. A string the browser cannot read as an
 * absolute URL is refused: chrome.tabs would take it as a path inside
 * this extension (chrome-extension://…/not%20a%20url). grip's own pages
 * are never a navigation's target.
 * @param {string} url
 * @returns {string}
 */
export function browserURL(url) {
  let href;
  try {
    href = new URL(url).href;
  } catch (_) {
    throw wireError(`${JSON.stringify(url)} is not a URL the browser can load`, 'bad_request', 'payload',
      'give a whole URL with its scheme, e.g. https://example.com/');
  }
  if (href.startsWith(chrome.runtime.getURL(''))) {
    throw wireError('grip does not navigate tabs to its own pages', 'bad_request', 'payload', 'give the URL of a site');
  }
  return href;
}

/** @param {protocol.TabParams} params @returns {protocol.ParseURLReply} */
export function parseURL(params) {
  return { href: browserURL(String(params && params.url || '')) };
}

/**
 * @typedef {{error?: string, status?: number, statusLine?: string}} LoadEnd
 */

/**
 * Watches the top-level loads of every tab from now on, for the one
 * request that started them: the network error Chrome reports
 * (webNavigation.onErrorOccurred) and the HTTP status of the last
 * response (webRequest.onCompleted, after redirects). Registered only
 * while a navigation runs; call stop when it is over.
 */
export class LoadWatch {
  constructor() {
    /** @type {Map<number, LoadEnd>} the latest end of each tab's top-level load */
    this.ends = new Map();
    /** @param {chrome.webNavigation.WebNavigationFramedCallbackDetails & {error: string}} d */
    this.onError = (d) => {
      // ERR_ABORTED: another navigation took over, or the response was a
      // download; neither is a page that failed.
      if (d.frameId === 0 && d.error !== 'net::ERR_ABORTED') this.ends.set(d.tabId, { error: d.error });
    };
    /** @param {chrome.webRequest.WebResponseCacheDetails} d */
    this.onCompleted = (d) => {
      if (d.type === 'main_frame' && d.tabId >= 0) this.ends.set(d.tabId, { status: d.statusCode, statusLine: d.statusLine });
    };
    chrome.webNavigation.onErrorOccurred.addListener(this.onError);
    chrome.webRequest.onCompleted.addListener(this.onCompleted, { urls: ['<all_urls>'], types: ['main_frame'] });
  }

  stop() {
    chrome.webNavigation.onErrorOccurred.removeListener(this.onError);
    chrome.webRequest.onCompleted.removeListener(this.onCompleted);
  }

  /**
   * Throws navigation_failed when tabId's page did not load: a network
   * error, or an HTTP error status (400 and up). The message names no
   * URL: the navigation may have been redirected to a site the agent may
   * not see.
   * @param {number} tabId
   * @param {string} [prefix] what the message starts with ("tab 7 opened, but ")
   */
  check(tabId, prefix = '') {
    const end = this.ends.get(tabId);
    if (!end) return;
    if (end.error) {
      throw Object.assign(wireError(`${prefix}the page did not load: ${end.error}`, 'navigation_failed', 'browser',
        'check the URL; the site may be down or unreachable from this machine'), { status: end.error });
    }
    if (typeof end.status === 'number' && end.status >= 400) {
      const line = (end.statusLine || '').replace(/^HTTP\/[\d.]+\s*/, '') || String(end.status);
      throw Object.assign(wireError(`${prefix}the page answered HTTP ${line}`, 'navigation_failed', 'browser',
        'the tab shows the site\'s error page; check the URL, or take a snapshot to read what it says'), { status: String(end.status) });
    }
  }
}
