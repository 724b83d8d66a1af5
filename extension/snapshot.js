// @ts-check
// Snapshots: the kernel runs in every frame of the tab (isolated world);
// each frame's result goes to the host, which merges, allocates refs and
// renders. Frames that navigated while we collected are dropped, not mixed.
import { gripKernel } from './kernel.js';
import { callInstalledKernel, kernelID, NO_KERNEL } from './kernel-loader.js';

const KERNEL_ID = kernelID();
import { wireError, tabInfo } from './tabs.js';

export const INJECTION_TIMEOUT_MS = 10000;

/**
 * Runs an injection with a deadline: a page blocked by an alert, confirm,
 * prompt or beforeunload dialog never answers, and the tab's queue must
 * move on.
 * @template T
 * @param {Promise<T>} work
 * @param {string} what
 * @returns {Promise<T>}
 */
export function withDeadline(work, what) {
  /** @type {ReturnType<typeof setTimeout>} */
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(wireError(
      `${what} did not answer within ${INJECTION_TIMEOUT_MS / 1000} s`, 'timeout', 'document',
      'the page may be showing an alert, confirm, prompt or beforeunload dialog, or be busy; dismiss it or try again')), INJECTION_TIMEOUT_MS);
  });
  return /** @type {Promise<T>} */ (Promise.race([work, deadline]).finally(() => clearTimeout(timer)));
}

/**
 * Injects the whole kernel into the documents that lacked it, each by its
 * documentId (a frame that navigated meanwhile answers nothing).
 * @param {number} tabId
 * @param {chrome.scripting.InjectionResult<any>[]} missing
 * @param {any} req
 * @returns {Promise<Map<number, chrome.scripting.InjectionResult<any>>>}
 */
async function injectKernel(tabId, missing, req) {
  const documentIds = missing.map((r) => /** @type {any} */ (r).documentId).filter(Boolean);
  /** @type {chrome.scripting.InjectionTarget} */
  const target = documentIds.length === missing.length
    ? { tabId, documentIds }
    : { tabId, frameIds: missing.map((r) => r.frameId) };
  const got = await withDeadline(chrome.scripting.executeScript({ target, world: 'ISOLATED', func: gripKernel, args: [req] }), 'the page')
    .catch((err) => {
      if (err && err.code) throw err; // our deadline: the page is stuck
      return []; // a document went away between the two injections
    });
  /** @type {Map<number, chrome.scripting.InjectionResult<any>>} */
  const byFrame = new Map();
  for (const r of got) byFrame.set(r.frameId, r);
  return byFrame;
}

/**
 * The kernel answers a snapshot with one JSON string (see kernel.js); a
 * frame that failed answers with an object or nothing.
 * @param {any} result
 */
function parseResult(result) {
  if (typeof result !== 'string') return result;
  try {
    return JSON.parse(result);
  } catch (_) {
    return null;
  }
}

/**
 * @param {number} tabId
 * @param {string} mode
 * @param {boolean} [keepSignatures] see the kernel's snapshot
 */
export async function snapshotTab(tabId, mode, keepSignatures) {
  const tab = await tabInfo(tabId);
  const started = performance.now();
  /** @type {chrome.scripting.InjectionResult<any>[]} */
  let results;
  const req = { op: 'snapshot', mode, keepSignatures: !!keepSignatures, asJSON: true, kernel: KERNEL_ID };
  try {
    // First the tiny caller everywhere; then the whole kernel only into
    // the documents that do not have it yet (new pages, new frames).
    results = await withDeadline(chrome.scripting.executeScript({
      target: { tabId, allFrames: true }, world: 'ISOLATED', func: callInstalledKernel, args: [req],
    }), 'the page');
    const missing = results.filter((r) => r.result === NO_KERNEL);
    if (missing.length > 0) {
      const fresh = await injectKernel(tabId, missing, req);
      results = results.map((r) => (r.result === NO_KERNEL ? fresh.get(r.frameId) || { ...r, result: null } : r));
    }
  } catch (err) {
    if (err && /** @type {any} */ (err).code) throw err;
    throw wireError(`cannot read tab ${tabId} (${tab.url}): ${err}`, 'not_actionable', 'document',
      'grip cannot read browser-internal pages (chrome://, the Web Store); open a web page');
  }
  const injected = performance.now();
  const after = await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null) || [];
  /** @type {Map<number, string>} */
  const liveByFrame = new Map();
  for (const f of after) liveByFrame.set(f.frameId, f.documentId || '');

  /** @type {any[]} */
  const frames = [];
  /** @type {Set<number>} */
  const answered = new Set();
  for (const r of results) {
    const frameId = r.frameId;
    const documentId = /** @type {any} */ (r).documentId || '';
    answered.add(frameId);
    const res = parseResult(r.result);
    if (liveByFrame.get(frameId) !== documentId) {
      frames.push({ frameId, documentId, url: '', error: 'navigated during the snapshot' });
    } else if (!res || res.error || !Array.isArray(res.elements)) {
      frames.push({ frameId, documentId, url: res && res.url || '', error: res && res.error ? res.error.message : 'the frame returned nothing' });
    } else {
      frames.push({ frameId, documentId, url: res.url, title: res.title, elements: res.elements, stats: res.stats });
    }
  }
  for (const f of after) {
    if (answered.has(f.frameId)) continue;
    frames.push({ frameId: f.frameId, documentId: f.documentId || '', url: f.url, error: f.url === 'about:blank' || !f.url ? 'blank frame' : 'did not answer (not permitted or still loading)' });
  }
  const top = frames.find((f) => f.frameId === 0);
  return {
    tab: { id: tab.id, url: (top && top.url) || tab.url, title: (top && top.title) || tab.title },
    frames,
    timing: { injectMs: injected - started, totalMs: performance.now() - started },
  };
}
