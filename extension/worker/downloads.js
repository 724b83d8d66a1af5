// @ts-check
// Downloads (docs/files.md, "Files in and out"). chrome.downloads
// records every download of the profile, across restarts: that is the
// list grip shows. Its records name no tab, so the worker attributes each
// new download to the tab that started it (kept in chrome.storage.session)
// and waits for one to finish on chrome.downloads' own events, with no
// polling.
import { wireError } from './errors.js';
import { originOf } from './navigation.js';

const TABS_KEY = 'downloadTabs';
/** How many downloads' tabs are remembered (the newest). */
const MAX_TABS = 500;
/** How long a navigation's start or grip's last action explains a new
 * download. */
const RECENT_MS = 30000;
const MAX_NAVIGATIONS = 200;
/** URLs in replies are cut here (a data: URL can be megabytes). */
const MAX_URL = 300;

// Two hints for attributing a download, in memory: each matters only in
// the moments between a navigation or an action and the download it
// starts, when the worker is busy and running. Lost with the worker, they
// leave the attribution to the referrer.
/** A navigation's URL → the tab and frame it started in, the page that
 * frame showed then, when, and whether it became a download.
 * @type {Map<string, {tabId: number, frameId: number, from: string, at: number, download?: boolean}>} */
const navigations = new Map();
/** The tab grip last acted in, and when. */
let lastAct = { tabId: 0, at: 0 };
/** Downloads being attributed: listings and waits wait for these.
 * @type {Map<number, Promise<void>>} */
const attributing = new Map();
/** Waits in progress: each re-checks when a download appears or changes.
 * @type {Set<() => void>} */
const waiters = new Set();
/** When this worker started, and when it last saw a download created: a
 * listing of downloads since a time after both is empty without asking
 * chrome.downloads (the host asks after every action). */
const workerStarted = Date.now();
let lastCreated = 0;

/** The URL each frame of each tab last committed, "tabId/frameId" →
 * URL: the page a navigation leaves is the one that started it.
 * @type {Map<string, string>} */
const committed = new Map();
const MAX_COMMITTED = 2000;

/** webNavigation.onCommitted: the page each frame now shows.
 * @param {{tabId: number, frameId: number, url: string}} d */
export function navigationCommitted(d) {
  if (d.tabId < 0) return;
  const key = `${d.tabId}/${d.frameId}`;
  committed.delete(key);
  committed.set(key, d.url);
  if (committed.size > MAX_COMMITTED) dropOldest(committed);
}

/** Drops a Map's oldest entry (the first inserted).
 * @param {Map<string, unknown>} m */
function dropOldest(m) {
  const oldest = m.keys().next();
  if (!oldest.done) m.delete(oldest.value);
}

/** webNavigation.onBeforeNavigate: a navigation whose response turns out
 * to be an attachment becomes a download of the same URL.
 * @param {{tabId: number, frameId?: number, url: string}} d */
export function navigationStarted(d) {
  if (d.tabId < 0) return;
  const frameId = d.frameId || 0;
  navigations.delete(d.url);
  navigations.set(d.url, { tabId: d.tabId, frameId, from: committed.get(`${d.tabId}/${frameId}`) || '', at: Date.now() });
  if (navigations.size > MAX_NAVIGATIONS) dropOldest(navigations);
}

/** The host asked for an action in tabId.
 * @param {number} tabId */
export function actionStarted(tabId) {
  if (typeof tabId === 'number' && tabId > 0) lastAct = { tabId, at: Date.now() };
}

/** @param {string} url */
function withoutHash(url) {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

/** @typedef {{tab: number, pages?: string[]}} Origin the tab that started
 * a download and the pages that did, as they were then */

/**
 * The tab that started a download, 0 when it cannot be told: the tab where
 * a navigation to its URL just started (a link or form answered with
 * Content-Disposition: attachment); else the one tab showing its referrer
 * (a link with `download`, a blob a page made); else the tab grip acted in
 * just before, when the referrer is empty, names one of that tab's frames,
 * or only their origin (a cross-origin referrer policy). With it, the
 * pages that started it as they are now: the tab's, and the frame's the
 * navigation left (the host judges them all, the strictest rule wins).
 * @param {chrome.downloads.DownloadItem} item
 * @returns {Promise<Origin>}
 */
async function attribute(item) {
  const now = Date.now();
  for (const url of [item.url, item.finalUrl]) {
    const nav = url ? navigations.get(url) : undefined;
    if (nav && now - nav.at < RECENT_MS) {
      nav.download = true;
      return withPages(nav.tabId, nav.from ? [nav.from] : []);
    }
  }
  const ref = withoutHash(item.referrer || '');
  const recent = lastAct.tabId > 0 && now - lastAct.at < RECENT_MS ? lastAct.tabId : 0;
  if (ref) {
    const tabs = await chrome.tabs.query({});
    const showing = tabs.filter((t) => typeof t.id === 'number' && withoutHash(t.url || '') === ref);
    if (showing.length === 1) return withPages(/** @type {number} */ (showing[0].id), []);
    if (recent && showing.some((t) => t.id === recent)) return withPages(recent, []);
  }
  if (!recent) return { tab: 0 };
  if (!ref) {
    // Nothing names the document that made it: a data: export with no
    // referrer may come from any frame of the tab, so each is judged.
    const own = originOf(item.finalUrl || item.url || '');
    if (own) return withPages(recent, []);
    const all = (await chrome.webNavigation.getAllFrames({ tabId: recent }).catch(() => null)) || [];
    return withPages(recent, all.map((f) => f.url));
  }
  const frames = (await chrome.webNavigation.getAllFrames({ tabId: recent }).catch(() => null)) || [];
  if (frames.some((f) => withoutHash(f.url) === ref)) return withPages(recent, []);
  const origin = originOf(ref);
  if (origin && ref === origin + '/' && frames.some((f) => originOf(f.url) === origin)) return withPages(recent, []);
  return { tab: 0 };
}

/** tabId with its page now and the pages given.
 * @param {number} tabId @param {string[]} pages @returns {Promise<Origin>} */
async function withPages(tabId, pages) {
  const t = await chrome.tabs.get(tabId).catch(() => null);
  const top = t ? t.url || t.pendingUrl || '' : '';
  const all = [top, ...pages].filter((u) => u).map(shortURL);
  return all.length ? { tab: tabId, pages: [...new Set(all)] } : { tab: tabId };
}

/**
 * A navigation of tabId that turns into a download (its response is an
 * attachment) never loads: this resolves when a download starts in the
 * name of that navigation, so that navigate need not wait out its load
 * timeout. cancel() stops listening.
 * @param {number} tabId
 */
export function downloadFromNavigation(tabId) {
  const since = Date.now();
  /** @type {() => void} */
  let cancel = () => {};
  const started = new Promise((resolve) => {
    const check = () => {
      for (const nav of navigations.values()) {
        if (nav.tabId === tabId && nav.download && nav.at >= since) {
          cancel();
          resolve(undefined);
          return;
        }
      }
    };
    cancel = () => { waiters.delete(check); };
    waiters.add(check);
  });
  return { started, cancel };
}

/** chrome.downloads.onCreated: attribute the download, then wake the waits.
 * @param {chrome.downloads.DownloadItem} item */
export function downloadCreated(item) {
  lastCreated = Date.now();
  const work = attribute(item)
    .then((o) => (o.tab ? saveTab(item.id, o) : undefined))
    .catch(() => {})
    .finally(() => {
      attributing.delete(item.id);
      wake();
    });
  attributing.set(item.id, work);
}

/** chrome.downloads.onChanged: wake the waits when it matters to them.
 * @param {chrome.downloads.DownloadDelta} delta */
export function downloadChanged(delta) {
  if (delta.state || delta.filename || delta.error || delta.danger) wake();
}

function wake() {
  for (const w of waiters) w();
}

/** Writes are queued: two downloads at once must not lose one's tab. */
let saving = Promise.resolve();

/** @param {number} id @param {Origin} origin */
function saveTab(id, origin) {
  saving = saving.then(async () => {
    const map = await downloadTabs();
    map[id] = origin;
    const ids = Object.keys(map).map(Number).sort((a, b) => a - b);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_TABS))) delete map[old];
    await chrome.storage.session.set({ [TABS_KEY]: map });
  }).catch(() => {});
  return saving;
}

/** @returns {Promise<Record<number, Origin>>} download id → where it came from */
async function downloadTabs() {
  const got = await chrome.storage.session.get(TABS_KEY);
  const map = got[TABS_KEY];
  if (!map || typeof map !== 'object') return {};
  /** @type {Record<number, Origin>} */
  const out = {};
  for (const [k, v] of Object.entries(map)) {
    if (typeof v === 'number') out[Number(k)] = { tab: v }; // kept by an older worker
    else if (v && typeof v === 'object' && typeof v.tab === 'number') out[Number(k)] = v;
  }
  return out;
}

/** @param {string} url */
function shortURL(url) {
  if (url.length <= MAX_URL) return url;
  return url.slice(0, MAX_URL) + `… (${url.length} characters)`;
}

/**
 * A download as the contract describes it.
 * @param {chrome.downloads.DownloadItem} item
 * @param {Record<number, Origin>} tabs
 * @returns {protocol.Download}
 */
function describe(item, tabs) {
  const path = item.filename || '';
  const complete = item.state === 'complete';
  /** @type {protocol.Download} */
  const d = {
    id: item.id, path, filename: path ? path.split(/[\\/]/).pop() || '' : '',
    bytes: complete && item.fileSize >= 0 ? item.fileSize : Math.max(0, item.bytesReceived || 0),
    state: item.state, url: shortURL(item.finalUrl || item.url || ''), tab: tabs[item.id] ? tabs[item.id].tab : 0,
    mime: item.mime || '', started: item.startTime,
  };
  // What the host judges the download by besides its URL; it sends
  // neither on to agents.
  if (item.finalUrl && item.url && item.finalUrl !== item.url) d.source_url = shortURL(item.url);
  if (item.referrer) d.referrer = shortURL(item.referrer);
  const pages = tabs[item.id] && tabs[item.id].pages;
  if (pages && pages.length) d.pages = pages;
  if (item.totalBytes > 0) d.total = item.totalBytes;
  if (item.error) d.error = item.error;
  if (item.danger && item.danger !== 'safe' && item.danger !== 'accepted') d.danger = item.danger;
  return d;
}

/** Whether d belongs to tabId (or to no known tab); any tab when 0.
 * @param {protocol.Download} d @param {number} tabId */
function ofTab(d, tabId) {
  return !tabId || !d.tab || d.tab === tabId;
}

/**
 * The downloads of the profile that started at or after since (Unix ms),
 * newest first or oldest first, of tabId (or of no known tab).
 * @param {{since?: number, tabId?: number, oldest?: boolean, limit?: number, path?: string}} params
 */
async function search(params) {
  /** @type {chrome.downloads.DownloadQuery} */
  const query = { orderBy: [params.oldest ? 'startTime' : '-startTime'], limit: params.tabId ? 0 : params.limit || 0 };
  if (params.since) query.startedAfter = new Date(params.since - 1).toISOString();
  if (params.path) query.filename = params.path;
  const items = await chrome.downloads.search(query);
  await Promise.all(items.filter((i) => attributing.has(i.id)).map((i) => attributing.get(i.id)));
  const tabs = await downloadTabs();
  return items.map((i) => describe(i, tabs)).filter((d) => ofTab(d, params.tabId || 0));
}

/** @param {protocol.DownloadsParams} params @returns {Promise<protocol.DownloadsReply>} */
export async function listDownloads(params) {
  const limit = Math.min(Math.max(Number(params.limit) || 20, 1), 1000);
  const since = Number(params.since) || 0;
  if (since > workerStarted && since > lastCreated && !params.path) return { downloads: [] };
  const list = await search({ ...params, limit });
  return { downloads: list.slice(0, limit) };
}

/**
 * Waits for the first download, in the order they started, with an id
 * above afterId that started at or after since, of tabId (or of no known
 * tab), to finish, and answers it, complete or interrupted (the host makes
 * the latter an error). Event-driven: chrome.downloads' events wake it.
 * @param {protocol.DownloadWaitParams} params
 * @returns {Promise<protocol.Download>}
 */
export function waitDownload(params) {
  const timeoutMs = Math.min(Math.max(Number(params.timeoutMs) || 10000, 1), 24 * 3600 * 1000);
  const afterId = Number(params.afterId) || 0;
  return new Promise((resolve, reject) => {
    let over = false;
    let busy = false;
    let again = false;
    /** @type {protocol.Download | null} */
    let pending = null;
    /** @param {() => void} settle */
    const finish = (settle) => {
      if (over) return;
      over = true;
      waiters.delete(check);
      clearTimeout(timer);
      settle();
    };
    async function check() {
      if (over) return;
      if (busy) { again = true; return; }
      busy = true;
      try {
        do {
          again = false;
          const list = await search({ since: params.since, tabId: params.tabId, oldest: true });
          const next = list.find((d) => d.id > afterId && !attributing.has(d.id));
          pending = next || null;
          if (next && next.state !== 'in_progress') {
            finish(() => resolve(next));
            return;
          }
        } while (again && !over);
      } catch (err) {
        finish(() => reject(wireError(`cannot read the browser's downloads: ${err}`, 'internal', 'browser')));
      } finally {
        busy = false;
      }
    }
    const timer = setTimeout(() => finish(() => reject(waitTimeout(pending, timeoutMs))), timeoutMs);
    waiters.add(check);
    check();
  });
}

/**
 * The timeout of a wait: the download still running, or none started.
 * @param {protocol.Download | null} d @param {number} ms
 */
function waitTimeout(d, ms) {
  const after = `${Math.round(ms / 100) / 10} s`;
  if (!d) {
    return wireError(`no download finished within ${after}: none started`, 'timeout', 'browser',
      'start it with an action first (grip click …); a page that already started a download after a synthetic click ' +
      'may be refused another by Chrome (automatic downloads): reload the page and click with --trusted');
  }
  const name = d.filename || d.url;
  const size = d.total ? `${d.bytes} of ${d.total} bytes` : `${d.bytes} bytes`;
  if (d.danger) {
    return wireError(`${name} is held by Chrome as possibly dangerous (${d.danger}) after ${after}`, 'timeout', 'browser',
      'a person must keep or discard it in the browser\'s downloads');
  }
  return wireError(`${name} is still downloading after ${after} (${size})`, 'timeout', 'browser',
    'wait longer: grip wait --download --timeout 5m');
}
