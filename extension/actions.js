// @ts-check
// Actions run the kernel in exactly the document a ref belongs to
// (documentIds), so they land in that frame or fail; a document that is
// gone is a refusal, never an action in its successor.
import { wireError } from './errors.js';
import { runInDocument, withDeadline } from './inject.js';

/**
 * The document a frame holds now, to pin the next step to it.
 * @param {number} tabId
 * @param {number} frameId
 * @returns {Promise<string>}
 */
async function documentOf(tabId, frameId) {
  const f = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
  if (!f || !f.documentId) {
    throw wireError(`frame ${frameId} of tab ${tabId} is gone`, 'document_changed', 'document', 'the page changed; take a new snapshot');
  }
  return f.documentId;
}

/**
 * Standalone, injected into child frames: this frame's index in its
 * parent's window.frames, or -1. Comparing WindowProxies works across
 * origins and shows nothing to the page.
 * @returns {number}
 */
function indexInParent() {
  try {
    const p = window.parent;
    for (let i = 0; i < p.length; i++) if (p[i] === window) return i;
  } catch (_) { /* detached */ }
  return -1;
}

/**
 * Each child frame of parentFrameId by its index in the parent's
 * window.frames, with the document it holds.
 * @param {number} tabId
 * @param {number} parentFrameId
 * @returns {Promise<Map<number, {frameId: number, documentId: string}>>}
 */
async function childrenByIndex(tabId, parentFrameId) {
  const frames = await chrome.webNavigation.getAllFrames({ tabId }) || [];
  const frameIds = frames.filter((f) => f.parentFrameId === parentFrameId).map((f) => f.frameId);
  /** @type {Map<number, {frameId: number, documentId: string}>} */
  const byIndex = new Map();
  if (frameIds.length === 0) return byIndex;
  const results = await withDeadline(chrome.scripting.executeScript({ target: { tabId, frameIds }, world: 'ISOLATED', func: indexInParent }), 'the frames')
    .catch((err) => { if (err && err.code) throw err; return []; });
  for (const r of results) {
    if (typeof r.result === 'number' && r.result >= 0) byIndex.set(r.result, { frameId: r.frameId, documentId: /** @type {any} */ (r).documentId || '' });
  }
  return byIndex;
}

/**
 * Finds the document a CSS chain names: every segment but the last selects
 * an iframe in the document before it. Each step runs in the document the
 * previous one found (documentIds, not frameIds), so a frame that
 * navigates meanwhile makes the action fail instead of landing in its new
 * document.
 * @param {number} tabId
 * @param {string[]} chain
 * @returns {Promise<{frameId: number, documentId: string}>}
 */
async function resolveChain(tabId, chain) {
  let frameId = 0;
  let documentId = await documentOf(tabId, 0);
  for (const selector of chain.slice(0, -1)) {
    const { index } = await runInDocument({ tabId, documentIds: [documentId] }, { op: 'frameIndex', selector });
    const child = (await childrenByIndex(tabId, frameId)).get(index);
    if (!child || !child.documentId) {
      throw wireError(`the iframe ${JSON.stringify(selector)} has no document grip can reach`, 'not_actionable', 'node',
        'wait for the frame to load, or take a snapshot and act on a ref');
    }
    ({ frameId, documentId } = child);
  }
  // A test hook, settable only by code in this worker (no page can reach
  // it): the e2e suite navigates the frame here to prove the pin holds.
  const hook = /** @type {any} */ (globalThis).__gripAfterChainLookup;
  if (typeof hook === 'function') await hook(tabId, frameId);
  return { frameId, documentId };
}

/**
 * Translates a point in a frame's viewport to the top frame's viewport by
 * adding each ancestor iframe's content-box offset.
 * @param {number} tabId
 * @param {number} frameId
 * @param {{x: number, y: number}} point
 */
async function toTopPoint(tabId, frameId, point) {
  if (frameId === 0) return point;
  const frames = await chrome.webNavigation.getAllFrames({ tabId }) || [];
  const parentOf = new Map(frames.map((f) => [f.frameId, f.parentFrameId]));
  let { x, y } = point;
  let child = frameId;
  while (child !== 0) {
    const parent = parentOf.get(child);
    if (parent === undefined || parent < 0) break;
    const [r] = await withDeadline(chrome.scripting.executeScript({ target: { tabId, frameIds: [child] }, world: 'ISOLATED', func: indexInParent }), 'the frame');
    const index = r && typeof r.result === 'number' ? r.result : -1;
    if (index < 0) throw wireError(`frame ${child} is not in its parent's frames`, 'not_actionable', 'point', 'take a new snapshot');
    const off = await runInDocument({ tabId, frameIds: [parent] }, { op: 'frameOffset', index });
    x += off.x;
    y += off.y;
    child = parent;
  }
  return { x, y };
}

// Trusted actions the host carries out with the keyboard alone.
const KEYBOARD_ONLY = new Set(['type', 'fill', 'press']);

/** @param {any} params */
export async function act(params) {
  const { tabId, action } = params;
  const req = {
    op: 'act', action, text: params.text, value: params.text, key: params.key,
    modifiers: params.modifiers || [], trusted: !!params.trusted,
  };
  /** @type {chrome.scripting.InjectionTarget} */
  let target;
  let frameId = params.frameId || 0;
  if (params.documentId) {
    target = { tabId, documentIds: [params.documentId] };
    Object.assign(req, { id: params.localId });
  } else if (Array.isArray(params.chain) && params.chain.length > 0) {
    const found = await resolveChain(tabId, params.chain);
    frameId = found.frameId;
    target = { tabId, documentIds: [found.documentId] };
    Object.assign(req, { selector: params.chain[params.chain.length - 1] });
  } else {
    // No element: keyboard and scrolling go to the focused element / page.
    target = { tabId, frameIds: [0] };
  }
  const res = await runInDocument(target, req);
  // Keys go to the focused element, wherever it is: only the mouse needs
  // the point in the top frame's viewport.
  if (params.trusted && res.point && !KEYBOARD_ONLY.has(action)) {
    res.point = await toTopPoint(tabId, frameId, res.point);
  }
  return res;
}

// Trusted input: the host builds the CDP commands (cdproto types) and we
// pass them through chrome.debugger. We detach when idle so the "being
// debugged" bar does not linger.
const IDLE_DETACH_MS = 5000;
/** @type {Map<number, ReturnType<typeof setTimeout>>} */
const attached = new Map();

/** @param {number} tabId */
async function attach(tabId) {
  const t = attached.get(tabId);
  if (t) { clearTimeout(t); } else {
    try {
      await chrome.debugger.attach({ tabId }, '1.3');
    } catch (err) {
      if (!/already attached/i.test(String(err))) {
        throw wireError(`cannot attach the debugger for trusted input: ${err}`, 'not_actionable', 'browser',
          'another debugger (DevTools?) may be attached, or policy forbids it; close DevTools or use synthetic input');
      }
    }
  }
  attached.set(tabId, setTimeout(() => {
    attached.delete(tabId);
    chrome.debugger.detach({ tabId }).catch(() => {});
  }, IDLE_DETACH_MS));
}

chrome.debugger.onDetach.addListener((source) => {
  if (typeof source.tabId === 'number') {
    const t = attached.get(source.tabId);
    if (t) clearTimeout(t);
    attached.delete(source.tabId);
  }
});

/** @param {{tabId: number, commands: {method: string, params: object}[]}} params */
export async function sendCDP(params) {
  await attach(params.tabId);
  const out = [];
  for (const c of params.commands || []) {
    out.push(await chrome.debugger.sendCommand({ tabId: params.tabId }, c.method, c.params));
  }
  return { results: out };
}
