// @ts-check
// Actions run the kernel in exactly the document a ref belongs to
// (documentIds), so they land in that frame or fail; a document that is
// gone is a refusal, never an action in its successor.
import { wireError } from './errors.js';
import { runInDocument, runKernel } from './inject.js';

/**
 * Finds the frame a CSS chain names: every segment but the last selects an
 * iframe in the frame before it.
 * @param {number} tabId
 * @param {string[]} chain
 */
async function resolveChain(tabId, chain) {
  let frameId = 0;
  for (const selector of chain.slice(0, -1)) {
    const res = await runInDocument({ tabId, frameIds: [frameId] }, { op: 'frameId', selector });
    frameId = res.frameId;
  }
  return frameId;
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
    const off = await runInDocument({ tabId, frameIds: [parent] }, { op: 'frameOffset', frameId: child });
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
    frameId = await resolveChain(tabId, params.chain);
    target = { tabId, frameIds: [frameId] };
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

/** @param {any} params */
export async function probe(params) {
  const { tabId } = params;
  if (params.documentId) {
    try {
      return await runInDocument({ tabId, documentIds: [params.documentId] }, { op: 'probe', id: params.localId });
    } catch (err) {
      if (err && /** @type {any} */ (err).code === 'document_changed') return { present: false, textFound: false };
      throw err;
    }
  }
  const results = await runKernel({ tabId, allFrames: true }, { op: 'probe', text: params.text });
  return { textFound: results.some((r) => r.result && r.result.textFound), present: false };
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
