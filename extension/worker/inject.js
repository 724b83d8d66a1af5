// @ts-check
// Running the in-page kernel. Its files (KERNEL_FILES) are injected once
// per document into the isolated world (invisible to the page), where they
// build globalThis.__gripKernel__; every request then injects only the
// small callKernel, which runs the installed kernel if it is this build's.
// A document without it (new, or holding an older build's kernel after the
// extension was reloaded or updated) answers NO_KERNEL, gets the files by
// its documentId and is asked again: a document that navigated meanwhile
// is not mixed up with its successor, it just does not answer.
// Snapshots, actions and probes all come through here, with one deadline
// and one mapping of injection failures to wire errors.
import { wireError } from './errors.js';
import { KERNEL_FILES } from './kernel-files.js';

/** How long one injection may take before we give up on the page. */
export const INJECTION_TIMEOUT_MS = 10000;


/** What callKernel answers in a document without this build's kernel. */
export const NO_KERNEL = '__grip_no_kernel__';

/**
 * callKernel runs req through the kernel installed in this document if it
 * is this build's (req.build, see kernelBuild); otherwise it answers
 * NO_KERNEL. Kernel files carry no build of their own: the worker stamps
 * them with req.install right after injecting them into this very
 * document, and only then.
 * Injected with executeScript({func}), so standalone: the literal below
 * must equal NO_KERNEL.
 * @param {KernelRequest & {build: string, install?: boolean}} req
 * @returns {any}
 */
export function callKernel(req) {
  const k = globalThis.__gripKernel__;
  if (!k || typeof k.run !== 'function') return '__grip_no_kernel__';
  if (k.build !== req.build) {
    if (req.install !== true || k.build !== '') return '__grip_no_kernel__';
    k.build = req.build;
  }
  return k.run(req);
}

/** @type {Promise<string> | null} */
let build = null;

/**
 * kernelBuild names this running instance of the extension: a random id
 * kept in chrome.storage.session, which Chrome clears when the extension is
 * reloaded, updated or disabled (and when the browser restarts), exactly
 * when an older build's kernel may be left in open pages; a worker that
 * merely stopped and started again finds the same id, and the kernels it
 * installed stay good. It costs one storage read per worker start
 * (fetching and hashing the kernel's files took 50-100 ms on a busy test
 * machine). The promise is a cache, not state: the next worker reads the
 * id again.
 * @returns {Promise<string>}
 */
export function kernelBuild() {
  if (!build) {
    build = sessionBuild().catch((err) => {
      build = null;
      throw wireError(`cannot read the extension's session storage: ${err}`, 'internal', 'browser', 'reload the extension');
    });
  }
  return build;
}

async function sessionBuild() {
  const got = await chrome.storage.session.get('kernelBuild');
  if (typeof got.kernelBuild === 'string' && got.kernelBuild) return got.kernelBuild;
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  await chrome.storage.session.set({ kernelBuild: id });
  return id;
}

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

/** @param {chrome.scripting.InjectionResult<any>} r @returns {string} */
function documentIdOf(r) {
  return /** @type {any} */ (r).documentId || '';
}

/**
 * runKernel runs req through the kernel in every frame target names and
 * returns one result per frame that answered, its `result` the kernel's
 * reply (null for a document that went away before it got the kernel).
 * Common case, one round trip: callKernel everywhere. Documents that lack
 * the kernel get its files and are asked again, by documentId. A failure
 * of the first executeScript (no such tab or frame, a page grip may not
 * script, the deadline) rejects as it is; see documentError.
 * @param {chrome.scripting.InjectionTarget} target
 * @param {KernelRequest} req one of the kernel's calls (KernelCalls in
 *   kernel/kernel.d.ts)
 * @returns {Promise<chrome.scripting.InjectionResult<any>[]>}
 */
export async function runKernel(target, req) {
  const call = { ...req, build: await kernelBuild() };
  const results = await withDeadline(chrome.scripting.executeScript({
    target, world: 'ISOLATED', func: callKernel, args: [call],
  }), 'the page');
  const missing = results.filter((r) => r.result === NO_KERNEL).map(documentIdOf).filter(Boolean);
  if (missing.length === 0) return results;
  const fresh = await install(target.tabId, missing, call);
  return results.map((r) => (r.result !== NO_KERNEL ? r : fresh.get(documentIdOf(r)) || { ...r, result: null }));
}

/**
 * Injects the kernel's files into the documents, then runs call in those
 * that took them. Returns each answering document's result by documentId.
 * @param {number} tabId
 * @param {string[]} documentIds
 * @param {object} call
 * @returns {Promise<Map<string, chrome.scripting.InjectionResult<any>>>}
 */
async function install(tabId, documentIds, call) {
  const installed = await inDocuments(tabId, documentIds, { files: KERNEL_FILES });
  const answered = await inDocuments(tabId, installed.map(documentIdOf), { func: callKernel, args: [{ ...call, install: true }] });
  /** @type {Map<string, chrome.scripting.InjectionResult<any>>} */
  const byDocument = new Map();
  for (const r of answered) {
    if (r.result === NO_KERNEL) {
      /** @type {{error: protocol.Error}} */
      const failed = { error: { code: 'internal', boundary: 'document', message: "grip's page scripts did not install in this document", hint: '' } };
      r.result = failed;
    }
    byDocument.set(documentIdOf(r), r);
  }
  return byDocument;
}

/**
 * One executeScript into these documents of the tab (isolated world). When
 * it fails because one of them went away, each is tried alone so the
 * others still answer; a document that is gone gives no result. Only our
 * deadline's error passes through.
 * @param {number} tabId
 * @param {string[]} documentIds
 * @param {{files: string[]} | {func: (req: any) => any, args: any[]}} what
 * @returns {Promise<chrome.scripting.InjectionResult<any>[]>}
 */
async function inDocuments(tabId, documentIds, what) {
  if (documentIds.length === 0) return [];
  try {
    return await withDeadline(chrome.scripting.executeScript(/** @type {any} */ ({
      target: { tabId, documentIds }, world: 'ISOLATED', ...what,
    })), 'the page');
  } catch (err) {
    if (err && /** @type {any} */ (err).code) throw err; // our deadline: the page is stuck
    if (documentIds.length === 1) return [];
    const each = await Promise.all(documentIds.map((id) => inDocuments(tabId, [id], what)));
    return each.flat();
  }
}

/**
 * Maps a failure to run in one element's document to a wire error: the
 * document or frame is gone (document_changed), or grip may not script
 * this page (not_actionable). Our own wire errors pass through.
 * @param {any} err
 */
export function documentError(err) {
  if (err && err.code) return err;
  const text = String(err && err.message || err);
  // Chrome's own words name its ids and URLs, which the agent can do
  // nothing with: the reply says what happened in grip's.
  if (unscriptable(err)) {
    return wireError('grip may not read or act in this document (a browser page, or a blank page the browser opened)', 'not_actionable', 'document',
      'navigate the tab to a web page (grip navigate URL), or go forward (grip forward)');
  }
  if (/showing error page/i.test(text)) {
    return wireError("the tab shows the browser's error page: its page did not load", 'navigation_failed', 'document',
      'grip snapshot says which URL failed and why; open a page with grip navigate URL');
  }
  if (/no document|no frame|frame with id|document with id|no tab/i.test(text)) {
    return wireError("the element's document is gone", 'document_changed', 'document', 'the page navigated or the frame was removed; take a new snapshot');
  }
  return wireError(text, 'not_actionable', 'document', 'grip cannot act on this page');
}

/** Whether a failed injection is Chrome refusing grip the document: a
 * browser page, or the blank page the extension opened a tab with (its
 * origin is the extension's; extension/tabs.js newTab).
 * @param {any} err */
export function unscriptable(err) {
  return !(err && err.code) && /cannot access contents of|cannot access a chrome/i.test(String(err && err.message || err));
}

/** Whether the tab's top frame shows about:blank: a page with nothing on
 * it, read as empty (docs/benchmarks.md, "The walker": `back` to the
 * blank page a tab was opened with). @param {number} tabId */
export async function blankTop(tabId) {
  const f = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  return !!f && f.url === 'about:blank';
}

/**
 * runInDocument runs req in the one frame target names (a document, or a
 * frame of a tab) and returns the kernel's reply; a refusal in the page
 * rejects with its wire error, a document that is gone with
 * document_changed.
 * @param {chrome.scripting.InjectionTarget} target
 * @param {KernelRequest} req
 * @returns {Promise<any>}
 */
export async function runInDocument(target, req) {
  let results;
  try {
    results = await runKernel(target, req);
  } catch (err) {
    throw documentError(err);
  }
  const r = results && results[0];
  if (!r || r.result == null) throw wireError('the page returned nothing', 'document_changed', 'document', 'take a new snapshot');
  const res = r.result;
  if (res.error) throw Object.assign(new Error(res.error.message), res.error);
  return res;
}
