// @ts-check
// URLs an agent gives, read the way the browser will load them, and how a
// tab's load ended (docs/navigating.md, "Navigating"). The host judges a
// navigation by the policy on the href this returns, so the two can never
// disagree about which site a URL names (https:pay.example, backslashes,
// tabs in the host, percent-encoded or full-width hosts, 0x7f.1…).
import { wireError } from './errors.js';

/**
 * A URL's origin; '' where it has none two documents could share (opaque:
 * data:, about:blank, a sandbox) or it does not parse.
 * @param {string} url
 * @returns {string}
 */
export function originOf(url) {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? '' : o;
  } catch (_) {
    return '';
  }
}

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

/**
 * The URL a tab is sent to: one Chrome loads as written (http:, https:,
 * file:, a blank tab), never one it would rewrite first — chrome.tabs
 * fixes localhost:8080/x, which the parser reads as the scheme
 * "localhost", to http://localhost:8080/x — or show another site through
 * (view-source:, filesystem:). The host refuses these before they come
 * here, naming the policy; this is the last guard.
 * @param {string} url
 * @returns {string}
 */
export function loadableURL(url) {
  const href = browserURL(url);
  if (href === 'about:blank' || /^(https?|file):\/\//i.test(href)) return href;
  throw wireError(`${JSON.stringify(url)} is refused: the browser would not load it as the site it names`, 'policy', 'policy',
    'give a whole http://, https:// or file:// URL');
}

/** @param {protocol.TabParams} params @returns {protocol.ParseURLReply} */
export function parseURL(params) {
  return { href: browserURL(String(params && params.url || '')) };
}

/**
 * @typedef {{error?: string, committed?: boolean}} LoadEnd
 */

/** @typedef {'navigate'|'back'|'forward'|'reload'|'read'} LoadHow what led to the page, for the hint */

/**
 * The next step after Chrome's net error err ended a load (navigate, back,
 * forward, reload), or after the tab was found showing its error page
 * (read): what the error means for an agent, in a few words.
 * @param {string} err e.g. net::ERR_CACHE_MISS
 * @param {LoadHow} how
 */
export function netErrorHint(err, how) {
  const e = String(err || '').replace(/^net::/, '');
  if (e === 'ERR_CACHE_MISS') {
    const again = { back: 'going back would send it again', forward: 'going forward would send it again', reload: 'reloading would send it again' }[/** @type {string} */ (how)]
      || 'the browser does not send it again by itself';
    return `the page was the answer to a form (POST); ${again} — open its URL with grip navigate, or submit the form again`;
  }
  if (e === 'ERR_CONNECTION_REFUSED') return 'nothing answers at that address: check the URL and its port, or whether the site runs';
  if (e === 'ERR_NAME_NOT_RESOLVED') return 'the host name does not resolve: check its spelling';
  if (/^ERR_(CONNECTION_TIMED_OUT|TIMED_OUT)$/.test(e)) return 'the site did not answer in time; try again later';
  if (/^ERR_(INTERNET_DISCONNECTED|ADDRESS_UNREACHABLE|NETWORK_CHANGED|NETWORK_ACCESS_DENIED)$/.test(e)) return 'this machine cannot reach the site; check the network';
  if (/^ERR_(EMPTY_RESPONSE|CONNECTION_RESET|CONNECTION_CLOSED|INVALID_RESPONSE)$/.test(e)) return 'the server ended the connection without a page; try again, or check the server';
  if (e === 'ERR_TOO_MANY_REDIRECTS') return 'the site redirects in a loop (often a sign-in or cookie problem)';
  if (e === 'ERR_UNSAFE_PORT') return 'the browser loads no web page from that port; use another port';
  if (/^ERR_CERT_|^ERR_SSL_/.test(e)) return 'the site\'s certificate or TLS is not trusted, and grip does not get past the browser\'s warning: ask the person';
  if (/^ERR_BLOCKED_BY_(CLIENT|ADMINISTRATOR)$/.test(e)) return 'an extension or the browser\'s own policy blocks the page';
  if (e === 'ERR_FILE_NOT_FOUND') return 'there is no such file: check the path';
  return 'check the URL; the site may be down or unreachable from this machine';
}

/** How many error pages loadErrors remembers. */
const LOAD_ERRORS_KEPT = 64;
/** @type {Map<string, string>} the net error each error page shows, by its documentId */
const loadErrors = new Map();

/**
 * Records the net error of a top frame's load that ended on the browser's
 * error page (webNavigation.onErrorOccurred; registered in background.js):
 * the error page is its own document, and webNavigation.getFrame gives its
 * documentId and the URL it failed, but not the error. Kept in
 * chrome.storage.session too, for a worker Chrome restarted.
 * ERR_ABORTED leaves the page that was there.
 * @param {chrome.webNavigation.WebNavigationFramedErrorCallbackDetails} d
 */
export function noteLoadError(d) {
  if (d.frameId !== 0 || !d.documentId || d.error === 'net::ERR_ABORTED') return;
  loadErrors.set(d.documentId, d.error);
  while (loadErrors.size > LOAD_ERRORS_KEPT) loadErrors.delete(/** @type {string} */ (loadErrors.keys().next().value));
  chrome.storage.session.set({ loadErrors: Object.fromEntries(loadErrors) }).catch(() => {});
}

/**
 * What the tab's top frame shows when it is the browser's error page (a
 * load that failed: chrome-error://, which no extension may script): the
 * URL it failed to load and the net error, '' when no longer known.
 * @param {number} tabId
 * @returns {Promise<{url: string, error: string} | null>}
 */
export async function errorPage(tabId) {
  const f = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  if (!f || !f.errorOccurred || f.url === 'about:blank') return null;
  let error = loadErrors.get(f.documentId);
  if (error === undefined) {
    const got = await chrome.storage.session.get('loadErrors').catch(() => ({}));
    error = (/** @type {any} */ (got).loadErrors || {})[f.documentId];
  }
  return { url: f.url, error: String(error || '') };
}

/**
 * The refusal for a tab found showing the browser's error page.
 * @param {number} tabId
 * @param {{url: string, error: string}} failed
 */
export function errorPageRefusal(tabId, failed) {
  return Object.assign(wireError(`tab ${tabId} shows the browser's error page: ${failed.url} did not load (${failed.error || 'a network error'})`,
    'navigation_failed', 'browser', netErrorHint(failed.error, 'read')), failed.error ? { status: failed.error } : {});
}

/**
 * Watches the top-level loads of every tab from now on, for the one
 * request that started them: the network error Chrome reports
 * (webNavigation.onErrorOccurred) and whether a new document committed
 * (webNavigation.onCommitted); check then reads the HTTP status of the
 * document that committed from the page itself (the navigation timing
 * entry's responseStatus, after redirects). Registered only while a
 * navigation runs; call stop when it is over.
 *
 * No webRequest: an extension holding that permission has Chrome hold the
 * requests of the browser's start until its worker is up, and a DevTools
 * client that attaches to a tab then (grip itself, Playwright's
 * connectOverCDP, DevTools) cancels the held navigation, which leaves the
 * tab at its initial empty document for good: the person's first tab
 * stayed blank and connectOverCDP, which waits for every such page's first
 * commit, never returned (docs/navigating.md, "Navigating").
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
    /** @param {chrome.webNavigation.WebNavigationTransitionCallbackDetails} d */
    this.onCommitted = (d) => {
      if (d.frameId === 0 && !this.ends.get(d.tabId)?.error) this.ends.set(d.tabId, { committed: true });
    };
    chrome.webNavigation.onErrorOccurred.addListener(this.onError);
    chrome.webNavigation.onCommitted.addListener(this.onCommitted);
    // A URL that differs from the page's only in its #fragment moves
    // within the document: that navigation commits no new one.
    chrome.webNavigation.onReferenceFragmentUpdated.addListener(this.onCommitted);
  }

  stop() {
    chrome.webNavigation.onErrorOccurred.removeListener(this.onError);
    chrome.webNavigation.onCommitted.removeListener(this.onCommitted);
    chrome.webNavigation.onReferenceFragmentUpdated.removeListener(this.onCommitted);
  }

  /**
   * Whether a top-level navigation committed in tabId since the watch
   * began, a new document or a move to a #fragment (a download, or a navigation another client held or cancelled,
   * commits none).
   * @param {number} tabId
   */
  committed(tabId) {
    return !!this.ends.get(tabId)?.committed;
  }

  /**
   * Throws navigation_failed when tabId's page did not load: a network
   * error, or an HTTP error status (400 and up). The message names no
   * URL: the navigation may have been redirected to a site the agent may
   * not see.
   * @param {number} tabId
   * @param {string} [prefix] what the message starts with ("tab 7 opened, but ")
   * @param {LoadHow} [how] what started the load, for the hint
   */
  async check(tabId, prefix = '', how = 'navigate') {
    const end = this.ends.get(tabId);
    if (!end) return;
    if (end.error) {
      throw Object.assign(wireError(`${prefix}the page did not load: ${end.error}; the tab shows the browser's error page`, 'navigation_failed', 'browser',
        netErrorHint(end.error, how)), { status: end.error });
    }
    const status = await responseStatus(tabId);
    if (status >= 400) {
      throw Object.assign(wireError(`${prefix}the page answered HTTP ${status}`, 'navigation_failed', 'browser',
        'the tab shows the site\'s error page; check the URL, or take a snapshot to read what it says'), { status: String(status) });
    }
  }
}

/**
 * The HTTP status of the response tabId's top document came from, as the
 * page records it (PerformanceNavigationTiming.responseStatus), or 0 when
 * it cannot be read (a page grip may not script, a document that came from
 * no HTTP response).
 * @param {number} tabId
 * @returns {Promise<number>}
 */
async function responseStatus(tabId) {
  try {
    const [r] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] }, world: 'ISOLATED', injectImmediately: true,
      func: () => {
        const nav = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType('navigation')[0]);
        return nav ? Number(/** @type {any} */ (nav).responseStatus) || 0 : 0;
      },
    });
    return Number(r && r.result) || 0;
  } catch (_) {
    return 0;
  }
}
