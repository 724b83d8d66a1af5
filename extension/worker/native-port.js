// @ts-check
// This module alone owns connectNative. It connects, says hello, answers the
// host's requests through the router, and reconnects with backoff when the
// host goes away. Nothing here relies on worker globals surviving: the
// profile id and the last errors live in chrome.storage. Every frame is
// typed by protocol.d.ts (protocol.FromHost, protocol.ToHost).
import { handleHostRequest } from './router.js';
import { recordError, getProfileId } from './state.js';
import { toWireError } from './errors.js';
import { helloState } from './person-state.js';
import { sessionsHello } from './sessions.js';

export const HOST_NAME = 'dev.grip.host';
export const PROTOCOL = 1;

/** @type {chrome.runtime.Port | null} */
let port = null;
let connecting = false;
let attempts = 0;
/** @type {ReturnType<typeof setTimeout> | null} */
let retryTimer = null;
let nextId = 1;
/** @type {Map<number, {resolve: (v: any) => void, reject: (e: any) => void}>} */
const pending = new Map();

/**
 * The build grip stamped into the manifest it installed (version_name
 * "0.1.0 build 1a2b3c4d5e6f"), which the host compares with its own; '' for
 * an extension loaded from the source folder.
 * @returns {string}
 */
function extensionBuild() {
  const m = / build ([0-9a-f]+)$/.exec(chrome.runtime.getManifest().version_name || '');
  return m ? m[1] : '';
}

/** Connection state, for the popup. */
export const connection = { state: 'disconnected', error: '', since: Date.now() };

export function ensureConnected() {
  if (port || connecting) return;
  if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
  connect();
}

/** Reconnect now, resetting the backoff (the popup's Reconnect button). */
export function reconnect() {
  attempts = 0;
  if (port) { try { port.disconnect(); } catch (_) { /* already gone */ } port = null; }
  ensureConnected();
}

async function connect() {
  connecting = true;
  try {
    const profile = await getProfileId();
    // The pause, shared tabs and sessions' tabs, before any agent can reach a host.
    const person = { ...(await helloState()), ...(await sessionsHello()) };
    const p = chrome.runtime.connectNative(HOST_NAME);
    port = p;
    p.onMessage.addListener((msg) => onMessage(p, msg));
    p.onDisconnect.addListener(() => onDisconnect(p));
    send(p, {
      type: 'hello',
      params: {
        protocol: PROTOCOL,
        profile,
        extension_version: chrome.runtime.getManifest().version,
        build: extensionBuild(),
        browser: navigator.userAgent,
        ...person,
      },
    });
    setState('connecting', '');
  } catch (err) {
    port = null;
    setState('error', String(err));
    scheduleRetry();
  } finally {
    connecting = false;
  }
}

/** @param {chrome.runtime.Port} p */
function onDisconnect(p) {
  // Reading lastError is what tells us why (host not installed, exited…),
  // and also keeps Chrome from logging it as unchecked.
  const why = chrome.runtime.lastError ? chrome.runtime.lastError.message || '' : '';
  if (port !== p) return;
  port = null;
  for (const { reject } of pending.values()) reject(new Error('host disconnected'));
  pending.clear();
  const state = /not found|not installed/i.test(why) ? 'host not installed' : 'host exited';
  setState(state, why);
  if (why) recordError(`native host: ${why}`);
  scheduleRetry();
}

function scheduleRetry() {
  if (retryTimer) return;
  // A host that died gets restarted at once; repeated failures back off up
  // to 30 s (the keep-alive alarm also retries).
  const delay = attempts === 0 ? 0 : Math.min(30000, 250 * 2 ** Math.min(attempts, 7));
  attempts++;
  retryTimer = setTimeout(() => { retryTimer = null; ensureConnected(); }, delay);
}

/**
 * @param {string} state
 * @param {string} error
 */
function setState(state, error) {
  connection.state = state;
  connection.error = error;
  connection.since = Date.now();
  chrome.storage.session.set({ connection: { ...connection } }).catch(() => {});
}

/**
 * Posts one frame to the host.
 * @param {chrome.runtime.Port} p
 * @param {protocol.ToHost} frame
 */
function send(p, frame) {
  p.postMessage(frame);
}

/**
 * @param {chrome.runtime.Port} p
 * @param {protocol.FromHost} msg
 */
async function onMessage(p, msg) {
  if (!msg || typeof msg !== 'object') return;
  if (msg.type === 'welcome') {
    attempts = 0;
    setState('connected', '');
    chrome.storage.session.set({ host: msg.params || {} }).catch(() => {});
    return;
  }
  if (msg.type === 'refused') {
    setState('refused', (msg.error && msg.error.message) || 'host refused the connection');
    recordError(connection.error);
    return;
  }
  if (msg.type === 'reply') {
    const waiter = pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id);
    if (msg.error) waiter.reject(Object.assign(new Error(msg.error.message), msg.error));
    else waiter.resolve(msg.result);
    return;
  }
  if (typeof msg.id === 'number' && typeof msg.type === 'string') {
    // What is left with a type is a request (a Reply's type is optional,
    // so tsc cannot tell them apart by it).
    const req = /** @type {protocol.ExtRequestFrame} */ (msg);
    /** @type {protocol.Reply} */
    let reply;
    try {
      reply = { id: req.id, result: await handleHostRequest(req.type, req.params || {}) };
    } catch (err) {
      const error = toWireError(err);
      reply = { id: req.id, error };
      recordError(`${req.type}: ${error.code}: ${error.message}`);
    }
    if (port === p) {
      try { send(p, reply); } catch (err) { recordError(`reply: ${err}`); }
    }
  }
}

/**
 * Sends an event to the host; dropped when not connected (the host
 * re-reads live documents when it starts).
 * @param {protocol.EventKind} kind
 * @param {Omit<protocol.Event, 'kind'>} params
 */
export function notifyHost(kind, params) {
  if (!port) { ensureConnected(); return; }
  try { send(port, { type: 'event', params: { kind, ...params } }); } catch (_) { /* disconnected */ }
}

/**
 * Asks the host something (the popup's status, snapshot and the person's
 * controls).
 * @template {protocol.HostRequest} K
 * @param {K} type
 * @param {protocol.HostCalls[K]['params']} params
 * @returns {Promise<protocol.HostCalls[K]['reply']>}
 */
export function askHost(type, params) {
  if (!port) return Promise.reject(new Error(`not connected to the grip host (${connection.state}${connection.error ? ': ' + connection.error : ''})`));
  const id = nextId++;
  const p = port;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    send(p, /** @type {protocol.HostRequestFrame} */ ({ id, type, params }));
    setTimeout(() => {
      if (pending.delete(id)) reject(new Error(`the host did not answer ${type} within 30 s`));
    }, 30000);
  });
}
