// @ts-check
// One router for everything the host asks the worker (over native
// messaging): one handler per request of protocol/extension.go's ExtCalls.
// The table is typed against protocol.d.ts (generated from the Go types),
// so tsc fails on a request without a handler, a handler for no request,
// or a params or reply field that is not the Go side's.
import { listTabs, newTab, closeTab, selectTab, navigate, goHistory, screenshot, liveDocuments, tabInfo, resizeWindow } from './tabs.js';
import { snapshotTab } from './snapshot.js';
import { act, sendCDP } from './actions.js';
import { waitFor } from './waits.js';
import { tabFrames, ask } from './person.js';
import { storePaused, markActed } from './person-state.js';
import { ownTab } from './sessions.js';
import { dialogRequest, whileNoDialog } from './dialogs.js';
import { uploadChunk } from './uploads.js';
import { listDownloads, waitDownload, actionStarted } from './downloads.js';
import { watchRequests } from './inflight.js';
import { wireError } from './errors.js';
import { parseURL } from './navigation.js';
import { consoleMessages } from './console.js';
import { networkRequests, networkBody } from './network.js';
import { evaluate } from './evaluate.js';
import { printPDF, elementShot, boxesShot } from './print.js';
import { readElement } from './read.js';
import { recordPerson } from './person-record.js';

/**
 * @typedef {{[K in protocol.ExtRequest]: (params: protocol.ExtCalls[K]['params'], type: K) =>
 *   Promise<protocol.ExtCalls[K]['reply']> | protocol.ExtCalls[K]['reply']}} Handlers
 */

/**
 * The tab a request names: every request of TabParams but tab_new names
 * one (the host sends its tabId; Chrome's tab ids are never 0, which Go
 * leaves out).
 * @param {{tabId?: number}} p
 * @returns {number}
 */
function tabOf(p) {
  if (typeof p.tabId !== 'number') throw wireError('the request names no tab', 'bad_request', 'payload', 'send the tabId of the tab to act on');
  return p.tabId;
}

/** @type {Handlers} */
const handlers = {
  tabs: async (p) => ({ tabs: await listTabs(p) }),
  tab_info: (p) => tabInfo(tabOf(p)),
  snapshot: (p) => snapshotTab(p.tabId, p.mode || 'interactive', p.keepSignatures, p.settle, p.allContexts, p.known, p.saidSince),
  act: (p) => { actionStarted(p.tabId); watchRequests(p.tabId); return act(p); },
  wait: (p) => whileNoDialog(p.tabId, () => waitFor(p)),
  cdp: (p) => sendCDP(p),
  dialog: (p) => dialogRequest(p),
  navigate: (p) => navigate(tabOf(p), p.url || ''),
  back: (p, type) => goHistory(tabOf(p), type),
  forward: (p, type) => goHistory(tabOf(p), type),
  reload: (p, type) => goHistory(tabOf(p), type),
  tab_new: (p) => newTab(p.url, p.session),
  parse_url: (p) => parseURL(p),
  tab_close: (p) => closeTab(tabOf(p)),
  resize: (p) => resizeWindow(p),
  tab_select: (p) => selectTab(tabOf(p)),
  screenshot: (p) => screenshot(tabOf(p)),
  documents: async () => ({ documents: await liveDocuments() }),
  ping: () => ({ ok: true }),
  // The person's controls: person.js, person-state.js.
  frames: async (p) => ({ frames: await tabFrames(tabOf(p)) }),
  paused: async (p) => { await storePaused(!!p.paused, p.by || ''); return { ok: true }; },
  confirm: (p) => ask(p),
  acted: async (p) => { await markActed(p.tabId); return { ok: true }; },
  share_tab: async (p) => { await ownTab(tabOf(p), p.session || ''); return { ok: true }; },
  // Files in and out: uploads.js, downloads.js.
  upload_chunk: (p) => uploadChunk(p),
  downloads: (p) => listDownloads(p),
  download_wait: (p) => waitDownload(p),
  // Developer tools: console.js, network.js, evaluate.js, print.js.
  console: (p) => consoleMessages({ tabId: Number(p.tabId) }),
  network: (p) => networkRequests({ tabId: Number(p.tabId) }),
  network_body: (p) => networkBody(p),
  evaluate: (p) => evaluate(p),
  pdf: (p) => printPDF(p),
  element_shot: (p) => elementShot(p),
  boxes_shot: (p) => boxesShot(p),
  read: (p) => readElement(p),
  // Recording by demonstration: person-record.js.
  record_person: (p) => recordPerson(p),
};

/**
 * Answers one request of the host.
 * @param {string} type
 * @param {any} params
 * @returns {Promise<unknown>}
 */
export async function handleHostRequest(type, params) {
  if (!Object.hasOwn(handlers, type)) throw wireError(`unknown request type ${JSON.stringify(type)}`, 'bad_request', 'payload');
  const handler = /** @type {(params: unknown, type: string) => unknown} */ (handlers[/** @type {protocol.ExtRequest} */ (type)]);
  return handler(params || {}, type);
}
