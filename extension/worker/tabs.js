// @ts-check
// Tab-level requests: list, open, close, select, navigate, history,
// screenshot, and the live documents the host checks its refs against.
import { wireError } from './errors.js';
import { dialogOf, firstCommit, hold, send } from './debugger.js';
import { refuseIfDialog } from './dialogs.js';
import { Watch } from './effects.js';
import { openedBy, openers } from './openers.js';
import { downloadFromNavigation } from './downloads.js';
import { ownTab } from './sessions.js';
import { errorPage, loadableURL, LoadWatch, netErrorHint } from './navigation.js';
import { coverOrigin } from './timers.js';

const LOAD_TIMEOUT_MS = 15000;
/** How long, after the page's document is ready (DOMContentLoaded), the
 * reply still waits for the rest of its load: an image, a tracker or a
 * long poll the server holds must not hold an agent's navigation for
 * LOAD_TIMEOUT_MS. The reply then says the page is still loading. */
const LOAD_GRACE_MS = 2000;

/** @param {chrome.tabs.Tab} t @returns {protocol.Tab} */
function describe(t) {
  // A tab without an id (none that tabs.query lists) goes out as 0, as
  // the host read its missing id before.
  return { id: t.id ?? 0, url: t.url || t.pendingUrl || '', title: t.title || '', active: !!t.active, windowId: t.windowId };
}

/** Every tab, with the tab that opened it and the dialog it shows (if
 * grip knows them); or only the focused window's active tab.
 * @param {protocol.TabsParams} params @returns {Promise<protocol.Tab[]>} */
export async function listTabs(params) {
  const query = params && params.active ? { active: true, lastFocusedWindow: true } : {};
  let tabs = await chrome.tabs.query(query);
  if (params && params.active && tabs.length === 0) tabs = await chrome.tabs.query({ active: true });
  const [by, from] = await Promise.all([openers(), openedBy()]);
  return tabs.filter((t) => typeof t.id === 'number' && t.id >= 0).map((t) => {
    const id = /** @type {number} */ (t.id);
    const out = describe(t);
    const opener = by.get(id);
    if (opener) out.opener = opener;
    const doc = from.get(id);
    if (doc) out.opened_by = doc;
    const d = dialogOf(id);
    if (d) out.dialog = d;
    return out;
  });
}

/**
 * Runs a tab operation whose end is the tab's load (navigate, back,
 * forward, reload, close) while watching for what stops it: a
 * beforeunload dialog (the page asks before it lets go), or the tab
 * closing. Resolves with the dialog when one opened.
 * @param {number} tabId
 * @param {() => Promise<unknown>} work
 * @returns {Promise<{dialog?: import('./debugger.js').Dialog, closed?: boolean}>}
 */
async function watched(tabId, work) {
  refuseIfDialog(tabId);
  const held = await hold(tabId);
  const w = new Watch(tabId);
  try {
    const out = await w.race(work);
    if (w.dialog) return { dialog: w.dialog };
    if (out.error) throw out.error;
    return w.closed ? { closed: true } : {};
  } finally {
    w.stop();
    held.release();
  }
}

/** @param {number} tabId @returns {Promise<protocol.Tab>} */
export async function tabInfo(tabId) {
  return describe(await getTab(tabId));
}

/**
 * tabLoading is tabInfo with whether the tab is still loading, which it is
 * while any of its frames is (a snapshot injects into each frame apart
 * then, see snapshot.js).
 * @param {number} tabId @returns {Promise<protocol.Tab & {loading: boolean}>}
 */
export async function tabLoading(tabId) {
  await getTab(tabId); // an unknown tab is the agent's bad_request
  // A tab still at its initial blank document, its first page pending, is
  // read once that page commits; Chrome's own "Cannot access contents"
  // would otherwise be the reply (debugger.js firstCommit).
  if (!(await firstCommit(tabId))) {
    const t = await getTab(tabId);
    throw wireError(`tab ${tabId} is still loading its first page (${t.pendingUrl || t.url || 'no URL yet'}); nothing of it can be read yet`,
      'timeout', 'browser', 'wait a moment and read it again; another DevTools client (Playwright, DevTools) may be holding the tab');
  }
  const t = await getTab(tabId);
  return { ...describe(t), loading: t.status === 'loading' };
}

/** @param {number} tabId */
async function getTab(tabId) {
  try {
    return await chrome.tabs.get(tabId);
  } catch (err) {
    throw wireError(`no tab ${tabId}: ${err}`, 'bad_request', 'payload', 'list tabs with grip tabs');
  }
}

/**
 * Resolves when the tab has finished loading, or LOAD_GRACE_MS after its
 * top document was ready, or after the timeout: a page that never
 * finishes loading is still usable, and the reply says it is loading.
 * cancel ends the wait at once (a load that will not come).
 * @param {number} tabId
 * @returns {Promise<void> & {cancel: () => void}}
 */
function waitForLoad(tabId) {
  /** @type {() => void} */
  let cancel = () => {};
  const wait = new Promise((resolve) => {
    let done = false;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    let grace;
    const finish = () => {
      if (done) return;
      done = true;
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.webNavigation.onDOMContentLoaded.removeListener(onReady);
      clearTimeout(timer);
      clearTimeout(grace);
      resolve(undefined);
    };
    /** @param {number} id @param {chrome.tabs.TabChangeInfo} info */
    const onUpdated = (id, info) => { if (id === tabId && info.status === 'complete') finish(); };
    /** @param {chrome.webNavigation.WebNavigationFramedCallbackDetails} d */
    const onReady = (d) => {
      if (d.tabId !== tabId || d.frameId !== 0) return;
      clearTimeout(grace);
      grace = setTimeout(finish, LOAD_GRACE_MS);
    };
    const timer = setTimeout(finish, LOAD_TIMEOUT_MS);
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.webNavigation.onDOMContentLoaded.addListener(onReady);
    cancel = finish;
  });
  return Object.assign(/** @type {Promise<void>} */ (wait), { cancel });
}

/** @param {number} tabId @param {string} url @returns {Promise<protocol.TabReply>} */
export async function navigate(tabId, url) {
  const href = loadableURL(url);
  await tabInfo(tabId); // an unknown tab is the agent's bad_request
  const load = new LoadWatch();
  try {
    let downloaded = false;
    const got = await watched(tabId, async () => {
      const loaded = waitForLoad(tabId);
      const download = downloadFromNavigation(tabId); // a file: nothing loads
      try {
        await coverOrigin(href);
        await chrome.tabs.update(tabId, { url: href });
        await Promise.race([loaded, download.started.then(() => { downloaded = true; })]);
      } catch (err) {
        throw wireError(err, 'bad_request', 'payload', 'check the URL and the tab id');
      } finally {
        download.cancel();
      }
    });
    if (!got.dialog && !got.closed) {
      await load.check(tabId);
      if (!downloaded && !load.committed(tabId)) await notLeft(tabId);
    }
    return { ...(await tabInfo(tabId)), ...got };
  } finally {
    load.stop();
  }
}

/**
 * After a navigation whose load ended with no new document committed in
 * the tab: when the tab is still on its way there (a pending URL, a load
 * the browser goes on with), the reply says it is loading; when nothing
 * is pending, the navigation did not happen (another DevTools client
 * held or cancelled it; a same-page URL commits nothing new but moves no
 * further either) and the reply must not be ok.
 * @param {number} tabId
 * @param {string} [prefix]
 */
async function notLeft(tabId, prefix = '') {
  const t = await chrome.tabs.get(tabId).catch(() => null);
  if (!t || t.pendingUrl || t.status === 'loading') return;
  throw wireError(`${prefix}the tab did not leave the page it was on: the browser committed no new page`, 'navigation_failed', 'browser',
    'another DevTools client (Playwright, DevTools) may be holding this tab; navigate again, or take a snapshot to see where it is');
}

/**
 * Goes back, forward or reloads, and says so only when a page loaded: one
 * that ended on the browser's error page is navigation_failed with the
 * net error (docs/navigating.md, "Navigating").
 * @param {number} tabId @param {'back'|'forward'|'reload'} how @returns {Promise<protocol.TabReply>}
 */
export async function goHistory(tabId, how) {
  const doing = how === 'reload' ? 'the reload' : `going ${how}`;
  if (how === 'reload') {
    // The error page of a history step onto the answer to a form (POST):
    // reloading it would send the form again, and Chrome would ask first
    // (see travel), bringing the tab to the front.
    const failed = await errorPage(tabId);
    if (failed && failed.error === 'net::ERR_CACHE_MISS') {
      throw Object.assign(wireError(`tab ${tabId} shows the browser's error page for ${failed.url} (${failed.error}); grip did not reload it`,
        'navigation_failed', 'browser', netErrorHint(failed.error, 'reload')), { status: failed.error });
    }
  }
  const load = new LoadWatch();
  try {
    const got = await watched(tabId, () => travel(tabId, how));
    if (!got.dialog && !got.closed) await load.check(tabId, `${doing}: `, how);
    return { ...(await tabInfo(tabId)), ...got };
  } finally {
    load.stop();
  }
}

/** @param {number} tabId @param {'back'|'forward'|'reload'} how */
async function travel(tabId, how) {
  const before = await tabInfo(tabId);
  const loaded = waitForLoad(tabId);
  if (how === 'reload') {
    await reload(tabId, before).catch((err) => { loaded.cancel(); throw err; });
  } else {
    await refuseNoEntry(tabId, how);
    // The page's own history.back()/forward(): chrome.tabs.goBack skips
    // entries made without a user gesture (Chrome's history intervention),
    // which is every entry an agent made by navigating.
    try {
      await chrome.scripting.executeScript({
        target: { tabId }, world: 'ISOLATED',
        func: (/** @type {string} */ dir) => { if (dir === 'back') history.back(); else history.forward(); },
        args: [how],
      });
    } catch (_) {
      // A page we may not script (chrome://…): the browser's own navigation.
      try {
        if (how === 'back') await chrome.tabs.goBack(tabId); else await chrome.tabs.goForward(tabId);
      } catch (err) {
        throw wireError(`cannot go ${how}: ${err}`, 'bad_request', 'payload', `there is no page to go ${how} to`);
      }
    }
  }
  await Promise.race([loaded, urlChange(tabId, before.url)]);
}

/**
 * Refuses back or forward with no entry there to go to: the page's
 * history.back() or forward() then does nothing, and the reply came after
 * the 15 s load bound as "ok" (measured). The tab's history, as the
 * debugger reads it (watched attached it, where it may), says; without
 * the debugger the step is taken as before.
 * @param {number} tabId @param {'back'|'forward'} how
 */
async function refuseNoEntry(tabId, how) {
  const h = await send({ tabId }, 'Page.getNavigationHistory').catch(() => null);
  if (!h || !Array.isArray(h.entries) || typeof h.currentIndex !== 'number') return;
  const none = how === 'back' ? h.currentIndex <= 0 : h.currentIndex >= h.entries.length - 1;
  if (none) throw wireError(`cannot go ${how}: the tab's history has no page ${how === 'back' ? 'before' : 'after'} this one`, 'bad_request', 'payload', `there is no page to go ${how} to; open one with grip navigate URL`);
}

/**
 * Reloads the tab, or refuses at once when the browser did not start to:
 * a page that was the answer to a form (POST) is reloaded only once the
 * person confirms sending the form again, in a dialog of the browser's
 * own that no extension can answer, which also brings the tab to the front
 * (measured: the 15 s load bound, then "Reloaded" on an unchanged page).
 * chrome.tabs.reload answers after the browser has started the load or
 * opened that dialog, so the tab is then loading, or shows another
 * document (a load that already ended), or neither: then nothing started.
 * The tab the person had in front is put back.
 * @param {number} tabId
 * @param {protocol.Tab} before
 */
async function reload(tabId, before) {
  const [doc, front] = await Promise.all([
    chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null),
    chrome.tabs.query({ active: true, windowId: before.windowId }).catch(() => []),
  ]);
  await chrome.tabs.reload(tabId);
  const [t, now] = await Promise.all([chrome.tabs.get(tabId), chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null)]);
  if (t.status === 'loading' || !doc || !now || now.documentId !== doc.documentId) return;
  const was = front[0] && front[0].id;
  if (t.active && typeof was === 'number' && was !== tabId) await chrome.tabs.update(was, { active: true }).catch(() => {});
  throw wireError('the browser did not reload the page: it was the answer to a form (POST), and reloading sends the form again once the person confirms it in the browser',
    'navigation_failed', 'browser', 'open its URL with grip navigate (that sends no form), or submit the form again');
}

/**
 * Resolves when the tab's URL differs from url: a page restored from the
 * back/forward cache may not report loading again. Times out like a load.
 * @param {number} tabId
 * @param {string} url
 */
function urlChange(tabId, url) {
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = async () => {
      const t = await chrome.tabs.get(tabId).catch(() => null);
      if (!t || (t.url !== url && t.status === 'complete') || Date.now() - started > LOAD_TIMEOUT_MS) {
        resolve(undefined);
        return;
      }
      setTimeout(tick, 50);
    };
    setTimeout(tick, 50);
  });
}

/**
 * Opens a tab for a session: in the background (the person's tab stays in
 * front), in the session's tab group (sessions.js).
 * @param {string} [url] none: a blank tab
 * @param {string} [session]
 * @returns {Promise<protocol.Tab>}
 */
export async function newTab(url, session) {
  const href = url ? loadableURL(url) : 'about:blank';
  const t = await chrome.tabs.create({ url: 'about:blank', active: false });
  if (typeof t.id !== 'number') throw wireError('the browser did not open a tab', 'internal', 'browser');
  const id = t.id;
  // The session's before grip attaches: the debugger's set-up gives a
  // session's tab the focus and keeps it drawn (debugger.js).
  if (session) await ownTab(id, session);
  // Watched from before its page loads: a dialog it opens is seen, and its
  // requests are listed from the first (network.js). (Attaching while the
  // first document loads would slow that load by half a second; attaching
  // to the blank tab first does not.)
  const held = await hold(id);
  const load = url ? new LoadWatch() : null;
  try {
    if (load) {
      const loaded = waitForLoad(id);
      await coverOrigin(href);
      await chrome.tabs.update(id, { url: href });
      await loaded;
      try {
        await load.check(id, `tab ${id} opened, but `);
        if (!load.committed(id)) await notLeft(id, `tab ${id} opened, but `);
      } catch (err) {
        // The tab stays, on the page that failed: the agent closes or reads it.
        throw Object.assign(/** @type {object} */ (err), { tab: id });
      }
    }
  } finally {
    if (load) load.stop();
    held.release();
  }
  return tabInfo(id);
}

/** Closes a tab; a page that asks first (beforeunload) answers with its
 * dialog, and the tab stays until it is accepted.
 * @param {number} tabId @returns {Promise<protocol.TabReply>} */
export async function closeTab(tabId) {
  const info = await tabInfo(tabId);
  const held = await hold(tabId);
  const w = new Watch(tabId);
  try {
    const out = await w.race(() => chrome.tabs.remove(tabId));
    if (w.dialog) return { ...info, dialog: w.dialog };
    if (out.error) throw out.error;
    return info;
  } finally {
    w.stop();
    held.release();
  }
}

/** @param {number} tabId @returns {Promise<protocol.TabRef>} */
export async function selectTab(tabId) {
  const t = await chrome.tabs.update(tabId, { active: true });
  if (t && typeof t.windowId === 'number') await chrome.windows.update(t.windowId, { focused: true }).catch(() => {});
  return tabInfo(tabId);
}

/** How long a background tab's screenshot may take before grip says the
 * browser will not render it. */
const CAPTURE_TIMEOUT_MS = 5000;

/**
 * A screenshot that never brings the tab or its window to the front: the
 * tab in front of its window is captured as shown; any other through the
 * debugger (Page.captureScreenshot), which renders it where it is.
 * @param {number} tabId
 * @returns {Promise<protocol.ScreenshotReply>}
 */
export async function screenshot(tabId) {
  const t = await chrome.tabs.get(tabId);
  if (t.active) {
    const dataUrl = await chrome.tabs.captureVisibleTab(t.windowId, { format: 'png' });
    return { tab: describe(await chrome.tabs.get(tabId)), data: dataUrl.slice(dataUrl.indexOf(',') + 1) };
  }
  const held = await hold(tabId, { required: true, what: 'a screenshot of a tab in the background', instead: 'take a snapshot (it reads a background tab), or bring the tab to the front first (grip tabs select)' });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  try {
    const shot = send({ tabId }, 'Page.captureScreenshot', { format: 'png' });
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(wireError(`the browser did not render tab ${tabId} in the background within ${CAPTURE_TIMEOUT_MS} ms`,
        'timeout', 'browser', 'take a snapshot instead (grip snapshot reads a background tab), or ask the person to look at the tab')), CAPTURE_TIMEOUT_MS);
    });
    const got = /** @type {any} */ (await Promise.race([shot, late]));
    return { tab: describe(await chrome.tabs.get(tabId)), data: String(got.data || '') };
  } finally {
    clearTimeout(timer);
    held.release();
  }
}

/** Every live document of every tab: the host invalidates refs of the rest.
 * @returns {Promise<protocol.LiveDocument[]>} */
export async function liveDocuments() {
  const tabs = await chrome.tabs.query({});
  /** @type {protocol.LiveDocument[]} */
  const docs = [];
  for (const t of tabs) {
    if (typeof t.id !== 'number') continue;
    const frames = await chrome.webNavigation.getAllFrames({ tabId: t.id }).catch(() => null);
    for (const f of frames || []) {
      if (f.documentId) docs.push({ tabId: t.id, frameId: f.frameId, documentId: f.documentId });
    }
  }
  return docs;
}

/**
 * Sets the size of the window tabId is in (host/resize.go decides whether
 * it may), then reads the size back and the tab's viewport, what its
 * page's layout follows.
 * @param {protocol.ResizeParams} p
 * @returns {Promise<protocol.ResizeReply>}
 */
export async function resizeWindow(p) {
  const t = await chrome.tabs.get(p.tabId);
  // From the screen's corner: Chrome refuses bounds mostly off the screen
  // (a headless browser's screen is its first window's size).
  /** @type {chrome.windows.Window} */
  let w;
  try {
    w = await chrome.windows.update(t.windowId, { state: 'normal', left: 0, top: 0, width: p.width, height: p.height });
  } catch (err) {
    throw wireError(`the window cannot be ${p.width}x${p.height}: ${String((/** @type {any} */ (err) && /** @type {any} */ (err).message) || err)}`,
      'not_actionable', 'browser', 'give a size that fits on the screen: Chrome keeps at least half of a window on it (a headless browser grip launch started has a screen of 1920x1080, or its --window-size when larger)');
  }
  /** @type {protocol.ResizeReply} */
  const reply = { windowId: w.id || t.windowId, width: w.width || 0, height: w.height || 0 };
  try {
    const [r] = await chrome.scripting.executeScript({ target: { tabId: p.tabId }, func: () => [innerWidth, innerHeight] });
    const v = /** @type {number[]} */ (r && r.result);
    if (Array.isArray(v)) { reply.viewportWidth = v[0]; reply.viewportHeight = v[1]; }
  } catch (_) {
    // A page grip cannot read (chrome://): the window's size is the answer.
  }
  return reply;
}
