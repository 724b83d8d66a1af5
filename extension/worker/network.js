// @ts-check
// A tab's network requests, as the debugger reports them while grip is
// attached to the tab (docs/devtools.md, "Developer tools"): from the
// first request of grip's that touches the tab (a navigation grip makes
// holds the debugger before it starts, so the page's load is in) until
// grip detaches, IDLE_DETACH_MS after its last request. A tab grip never
// touched — the person's own browsing — is never attached, so never listed.
// Requests are kept for the tab's current page: a new top-level document
// starts the list again. Bodies stay in the browser (the Network domain's
// buffers) and are fetched only when asked for, while the session that saw
// the request lasts.
//
// State lives in this module: an attached debugger keeps the worker alive,
// and bodies cannot outlive the session anyway.
import { hold, onSession, onEveryEvent, onDetached, send, children } from './debugger.js';
import { tabInfo } from './tabs.js';
import { wireError } from './errors.js';
import { originOf } from './navigation.js';

/** Requests kept per tab; the oldest go first. */
const MAX_REQUESTS = 1000;
/** Requests in flight when an attachment ended kept per tab, to be told of again. */
const MAX_LOST = 64;
/** URLs longer than this are cut (a data: URL can be megabytes). */
const MAX_URL = 4096;
/** What the browser keeps of bodies for grip, per tab and per response. */
const BUFFER_TOTAL = 64 << 20;
const BUFFER_ONE = 8 << 20;

/**
 * @typedef {Object} Req
 * @property {number} id grip's id, unique in this worker
 * @property {string} requestId the browser's
 * @property {string | undefined} sessionId the session that loaded it, which keeps its body
 * @property {number} session which attachment of the tab saw it
 * @property {string} frameId
 * @property {string} documentURL
 * @property {string} method
 * @property {string} url
 * @property {string} type
 * @property {number} status
 * @property {string} mimeType
 * @property {number} bytes
 * @property {number} started wall clock, ms
 * @property {number} t0 the browser's monotonic timestamp, s
 * @property {number} ms
 * @property {string} failed
 * @property {boolean} answered its response came (its body may still be coming, or never read)
 * @property {boolean} done loaded, failed or redirected: nothing more will come
 * @property {number} t1 the browser's monotonic timestamp when it was done, s (0 until)
 * @property {number} ended wall clock when grip was told it was done, ms (0 until)
 * @property {boolean} lost it began in an attachment that ended before it was done, and grip
 *   has had no news of it since (known)
 */
/**
 * @typedef {Object} TabNet
 * @property {number} since when capture started for this page (wall ms)
 * @property {boolean} loaded capture started with the page's load
 * @property {string} mainFrame the top frame's id
 * @property {number} session the current attachment (counts up)
 * @property {boolean} attached
 * @property {{from: number, to: number}[]} gaps while grip was not attached
 * @property {number} detachedAt
 * @property {Req[]} list in the order they started
 * @property {Map<string, Req>} live by requestId, until done
 * @property {Map<string, Req>} lost by requestId: in flight when an earlier attachment ended,
 *   the newest MAX_LOST
 */

/** @type {Map<number, TabNet>} */
const byTab = new Map();
let nextId = 1;

onSession(async (s, kind) => {
  let st = byTab.get(s.tabId);
  if (kind === 'tab') {
    const now = Date.now();
    if (!st) {
      st = { since: now, loaded: false, mainFrame: '', session: 1, attached: true, gaps: [], detachedAt: 0, list: [], live: new Map(), lost: new Map() };
      byTab.set(s.tabId, st);
    } else {
      st.session++;
      if (!st.attached) st.gaps.push({ from: st.detachedAt, to: now });
      st.attached = true;
      // What was in flight when grip detached may be told of again (known).
      for (const [key, r] of st.live) {
        r.lost = true;
        st.lost.set(key, r);
      }
      for (const key of st.lost.keys()) {
        if (st.lost.size <= MAX_LOST) break;
        st.lost.delete(key);
      }
      st.live.clear();
    }
    const { frameTree } = await send(s, 'Page.getFrameTree');
    st.mainFrame = String(frameTree && frameTree.frame && frameTree.frame.id || '');
  }
  if (kind === 'worker') {
    // A worker's requests go through its own session only where the
    // browser runs it off the page's thread; either way they are seen.
    await send(s, 'Network.enable', { maxTotalBufferSize: BUFFER_TOTAL, maxResourceBufferSize: BUFFER_ONE }).catch(() => {});
    return;
  }
  await send(s, 'Network.enable', { maxTotalBufferSize: BUFFER_TOTAL, maxResourceBufferSize: BUFFER_ONE });
});

onDetached((tabId) => {
  const st = byTab.get(tabId);
  if (!st) return;
  st.attached = false;
  st.detachedAt = Date.now();
});

chrome.tabs.onRemoved.addListener((tabId) => { byTab.delete(tabId); });

onEveryEvent((tabId, e) => {
  if (!e.method.startsWith('Network.')) return;
  const st = byTab.get(tabId);
  if (!st) return;
  const p = e.params;
  // One request can be told of in two sessions (an out-of-process frame's
  // document: sent in its parent's, loaded in its own; a worker's script):
  // the browser's request ids are unique across them.
  const key = String(p.requestId);
  switch (e.method) {
    case 'Network.requestWillBeSent': {
      const prev = st.live.get(key);
      if (prev && p.redirectResponse) {
        prev.status = Number(p.redirectResponse.status) || 0;
        prev.mimeType = String(p.redirectResponse.mimeType || '');
        prev.ms = Math.max(0, (Number(p.timestamp) - prev.t0) * 1000);
        prev.done = prev.answered = true;
        prev.t1 = Number(p.timestamp) || 0;
        prev.ended = Date.now();
        prev.requestId = ''; // its body is the redirect's, which the browser does not keep
      }
      if (!e.sessionId && p.type === 'Document' && p.frameId === st.mainFrame && p.requestId === p.loaderId && !p.redirectResponse) {
        // A new top-level document: the page's list starts again.
        st.list = [];
        st.live.clear();
        st.lost.clear();
        st.since = Date.now();
        st.loaded = true;
        st.gaps = [];
      }
      const url = String(p.request && p.request.url || '');
      /** @type {Req} */
      const r = {
        id: nextId++, requestId: String(p.requestId), sessionId: e.sessionId, session: st.session,
        frameId: String(p.frameId || ''), documentURL: cut(String(p.documentURL || '')),
        method: String(p.request && p.request.method || ''), url: cut(url),
        type: String(p.type || 'Other').toLowerCase(), status: 0, mimeType: '', bytes: 0,
        started: Number(p.wallTime) ? Math.round(Number(p.wallTime) * 1000) : Date.now(),
        t0: Number(p.timestamp) || 0, ms: 0, failed: '', answered: false, done: false,
        t1: 0, ended: 0, lost: false,
      };
      st.list.push(r);
      st.live.set(key, r);
      if (st.list.length > MAX_REQUESTS) st.list.splice(0, st.list.length - MAX_REQUESTS);
      break;
    }
    case 'Network.responseReceivedExtraInfo': {
      // Told in the page's session even when the response itself is told
      // only in a session grip had not enabled yet (a worker's script).
      const r = st.live.get(key);
      if (r && !r.status) r.status = Number(p.statusCode) || 0;
      break;
    }
    case 'Network.dataReceived': {
      const r = known(st, key);
      if (r) r.bytes += Number(p.encodedDataLength) || 0;
      break;
    }
    case 'Network.responseReceived': {
      // The answer to a request grip saw begin in an earlier attachment
      // comes typed "Other" whatever it was.
      const before = !st.live.has(key);
      const r = known(st, key);
      if (!r) return;
      const res = p.response || {};
      r.answered = true;
      r.ms = Math.max(0, (Number(p.timestamp) - r.t0) * 1000);
      r.status = Number(res.status) || 0;
      r.mimeType = String(res.mimeType || '');
      r.sessionId = e.sessionId;
      if (p.type && !before) r.type = String(p.type).toLowerCase();
      break;
    }
    case 'Network.loadingFinished': {
      const r = known(st, key);
      if (!r) return;
      r.bytes = Math.max(r.bytes, Number(p.encodedDataLength) || 0);
      r.sessionId = e.sessionId;
      r.answered = true;
      r.ms = Math.max(0, (Number(p.timestamp) - r.t0) * 1000);
      r.done = true;
      r.t1 = Number(p.timestamp) || 0;
      r.ended = Date.now();
      st.live.delete(key);
      break;
    }
    case 'Network.webSocketCreated': {
      // A WebSocket's opening is in flight until its handshake is answered
      // (an app that reconnects after a click, as Jupyter does to a
      // restarted kernel, shows "Connected" then). It is counted, not
      // listed: its frames are not requests.
      st.live.set(key, {
        id: 0, requestId: key, sessionId: e.sessionId, session: st.session, frameId: '', documentURL: '',
        method: 'GET', url: cut(String(p.url || '')), type: 'websocket', status: 0, mimeType: '', bytes: 0,
        started: Date.now(), t0: 0, ms: 0, failed: '', answered: false, done: false,
        t1: 0, ended: 0, lost: false,
      });
      break;
    }
    case 'Network.webSocketHandshakeResponseReceived':
    case 'Network.webSocketFrameError':
    case 'Network.webSocketClosed': {
      const r = st.live.get(key);
      if (r && r.type === 'websocket') {
        r.done = r.answered = true;
        r.t1 = Number(p.timestamp) || 0;
        r.ended = Date.now();
        st.live.delete(key);
      }
      break;
    }
    case 'Network.loadingFailed': {
      const r = known(st, key);
      if (!r) return;
      r.failed = p.canceled ? 'canceled' : String(p.blockedReason ? 'blocked: ' + p.blockedReason : p.errorText || 'failed');
      r.ms = Math.max(0, (Number(p.timestamp) - r.t0) * 1000);
      r.done = r.answered = true;
      r.t1 = Number(p.timestamp) || 0;
      r.ended = Date.now();
      st.live.delete(key);
      break;
    }
  }
});

/**
 * The request key names that is in flight as far as grip knows: one it saw
 * begin in this attachment, or one it saw begin in an earlier attachment
 * (lost) whose news the browser tells this one (it tells a new attachment
 * of the requests in flight when it attached, though not their start).
 * @param {TabNet} st @param {string} key @returns {Req | undefined}
 */
function known(st, key) {
  const r = st.live.get(key) || st.lost.get(key);
  if (r && r.lost) {
    r.lost = false;
    st.lost.delete(key);
    st.live.set(key, r);
  }
  return r;
}

/** @param {string} s */
function cut(s) {
  return s.length > MAX_URL ? s.slice(0, MAX_URL) + '…' : s;
}

/**
 * The origin and URL of every frame of the tab the debugger knows now, by
 * frame id: each request is judged by the frame that made it.
 * @param {number} tabId
 * @returns {Promise<Map<string, {origin: string, url: string}>>}
 */
async function frameOrigins(tabId) {
  /** @type {Map<string, {origin: string, url: string}>} */
  const out = new Map();
  const sessions = [{ tabId }, ...children(tabId).map((c) => ({ tabId, sessionId: c.sessionId }))];
  for (const s of sessions) {
    const r = await send(s, 'Page.getFrameTree').catch(() => null);
    /** @type {any[]} */
    const todo = r && r.frameTree ? [r.frameTree] : [];
    while (todo.length) {
      const t = todo.pop();
      const f = t.frame || {};
      out.set(String(f.id), { origin: String(f.securityOrigin || ''), url: String(f.url || '') + String(f.urlFragment || '') });
      for (const c of t.childFrames || []) todo.push(c);
    }
  }
  return out;
}

/** The types of request an app fetches its answer with, and a WebSocket opening. */
const ANSWER_TYPES = new Set(['xhr', 'fetch', 'script', 'websocket']);

/**
 * tabId's fetches, XHRs, scripts and WebSocket openings of its current
 * page as grip saw them begin, for inflight.js to judge which an action
 * started: in the order they began, the WebSocket openings in flight
 * last; null while grip's debugger is not attached to the tab, when it is
 * told of none.
 * @param {number} tabId @returns {Req[] | null}
 */
export function answerRequests(tabId) {
  const st = byTab.get(tabId);
  if (!st || !st.attached) return null;
  /** @type {Req[]} */
  const out = [];
  for (const r of st.list) if (ANSWER_TYPES.has(r.type)) out.push(r);
  for (const r of st.live.values()) if (r.type === 'websocket') out.push(r);
  return out;
}

/**
 * The tab's requests since its page loaded, or since grip first touched
 * it. Reading attaches (if grip was not attached, capture starts now).
 * @param {{tabId: number}} params
 */
export async function networkRequests(params) {
  const { tabId } = params;
  const tab = await tabInfo(tabId);
  const held = await hold(tabId, { capture: true, what: "reading the tab's requests", instead: 'read what the page shows with grip snapshot' });
  try {
    const st = byTab.get(tabId);
    if (!held.attached || !st) {
      throw wireError(`grip cannot watch tab ${tabId}'s requests: the debugger is not attached`, 'not_actionable', 'browser',
        'another debugger may be attached to the tab, or the person cancelled debugging in the browser');
    }
    const frames = await frameOrigins(tabId);
    const requests = st.list.map((r) => {
      const f = frames.get(r.frameId);
      return {
        id: r.id, method: r.method, url: r.url, type: r.type, status: r.status, mime_type: r.mimeType,
        bytes: r.bytes, ms: Math.round(r.ms), started: r.started,
        ...(r.failed ? { failed: r.failed } : {}), ...(r.done || r.answered || r.status ? {} : { pending: true }),
        frame_origin: f ? f.origin : originOf(r.documentURL), frame_url: f ? f.url : r.documentURL,
        body: r.session === st.session && !!r.requestId && r.done && !r.failed,
      };
    });
    return { tab: { id: tab.id, url: tab.url, title: tab.title }, since: st.since, loaded: st.loaded, gaps: st.gaps, requests };
  } finally {
    held.release();
  }
}

/**
 * One response body, cut at maxBytes (base64 for binary bodies).
 * @param {{id: number, maxBytes: number}} params
 */
export async function networkBody(params) {
  const id = Number(params.id);
  for (const [tabId, st] of byTab) {
    const r = st.list.find((x) => x.id === id);
    if (!r) continue;
    const tab = await tabInfo(tabId);
    const frames = await frameOrigins(tabId).catch(() => new Map());
    const f = frames.get(r.frameId);
    const where = {
      tab: { id: tab.id, url: tab.url, title: tab.title }, id: r.id, url: r.url, method: r.method, status: r.status, mime_type: r.mimeType,
      frame_origin: f ? f.origin : originOf(r.documentURL),
    };
    if (r.failed || !r.done || !r.requestId) {
      throw wireError(`request ${id} has no body: ${r.failed || (r.done ? 'it was redirected' : 'it has not finished')}`, 'bad_request', 'payload',
        r.done ? 'ask for another request (grip network lists them)' : 'wait for it to finish, then ask again');
    }
    if (r.session !== st.session || !st.attached) {
      throw wireError(`the body of request ${id} is gone: grip detached from tab ${tabId} since, and the browser keeps bodies only for a debugger attached`,
        'not_actionable', 'browser', 'reload the page with grip (grip reload) and ask for the new request\'s body');
    }
    const held = await hold(tabId, { capture: true, what: "reading the tab's requests", instead: 'read what the page shows with grip snapshot' });
    try {
      const s = r.sessionId ? { tabId, sessionId: r.sessionId } : { tabId };
      let got;
      try {
        got = await send(s, 'Network.getResponseBody', { requestId: r.requestId });
      } catch (err) {
        throw wireError(`the browser no longer has the body of request ${id}: ${err}`, 'not_actionable', 'browser',
          'the page may have gone, or the body was larger than the browser keeps; reload it with grip and ask again');
      }
      const max = Math.max(1, Number(params.maxBytes) || 1 << 20);
      const body = String(got.body || '');
      if (got.base64Encoded) {
        const bytes = Math.floor(body.length * 3 / 4) - (body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0);
        const keep = Math.floor(max / 3) * 4;
        return { ...where, base64: true, bytes, truncated: body.length > keep, body: body.length > keep ? body.slice(0, keep) : body };
      }
      const enc = new TextEncoder().encode(body);
      if (enc.length <= max) return { ...where, base64: false, bytes: enc.length, truncated: false, body };
      const text = new TextDecoder().decode(enc.slice(0, max)).replace(/\uFFFD$/, '');
      return { ...where, base64: false, bytes: enc.length, truncated: true, body: text };
    } finally {
      held.release();
    }
  }
  throw wireError(`no request ${id}`, 'bad_request', 'payload', 'grip network lists the requests and their ids; ids of a page that was left are gone');
}
