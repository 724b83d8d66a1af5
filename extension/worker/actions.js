// @ts-check
// Actions run the kernel in exactly the document a ref belongs to
// (documentIds), so they land in that frame or fail; a document that is
// gone is a refusal, never an action in its successor.
import { wireError } from './errors.js';
import { runInDocument, withDeadline, blankTop } from './inject.js';
import { hold, settled, sendHostCommands } from './debugger.js';
import { activate, worldOf, pointOf, hitReason, focusReason } from './cdp-frames.js';
import { refuseIfDialog } from './dialogs.js';
import { withEffects, afterOneTask } from './effects.js';
import { handToPage } from './uploads.js';
import { watchActionTimers } from './timers.js';
import { SETTLE_BOUND_MS } from './settle.js';
import { actionBegan } from './inflight.js';

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

/** The actions a person performs with a press (mouse or key): they give
 * the frame the user activation a real press gives (see activateFrame). */
const PRESSES = new Set(['click', 'dblclick', 'rightclick', 'check', 'uncheck', 'press', 'type', 'fill', 'select']);

/**
 * Gives the frame an action lands in the transient user activation a real
 * click or key press gives it, so what the page does in its handler works
 * as for a person: window.open, fullscreen, clipboard writes, media. A
 * synthetic event from the isolated world carries none (the browser's
 * popup blocker stops the window it opens). Needs the debugger; without
 * it the action goes on without activation, and a window the page then
 * asks for is reported as blocked.
 * @param {number} tabId
 * @param {number} frameId
 * @param {string} documentId
 */
async function activateFrame(tabId, frameId, documentId) {
  if (frameId === 0) await activate({ tabId });
  else await activate((await worldOf(tabId, documentId)).world);
}

/**
 * Where an action runs: the ref's document, the one a CSS chain names, or
 * the top frame's (keys and scrolling without an element).
 * @param {any} params
 * @returns {Promise<{target: chrome.scripting.InjectionTarget, frameId: number, documentId: string, req: object}>}
 */
async function placeOf(params) {
  const { tabId } = params;
  if (params.documentId) {
    return { target: { tabId, documentIds: [params.documentId] }, frameId: params.frameId || 0, documentId: params.documentId, req: { id: params.localId } };
  }
  if (Array.isArray(params.chain) && params.chain.length > 0) {
    const found = await resolveChain(tabId, params.chain);
    return { target: { tabId, documentIds: [found.documentId] }, frameId: found.frameId, documentId: found.documentId, req: { selector: params.chain[params.chain.length - 1] } };
  }
  const documentId = await documentOf(tabId, 0);
  return { target: { tabId, documentIds: [documentId] }, frameId: 0, documentId, req: {} };
}

/**
 * Drag's second element, in the same document as the first: by its local
 * id (a ref) or by a CSS chain that must lead to that document.
 * @param {any} params
 * @param {{documentId: string}} place
 */
async function dropTargetOf(params, place) {
  if (params.toLocalId) return { toId: params.toLocalId };
  if (Array.isArray(params.toChain) && params.toChain.length > 0) {
    const found = await resolveChain(params.tabId, params.toChain);
    if (found.documentId !== place.documentId) {
      throw wireError('the drop target is in another frame than the element dragged', 'bad_request', 'payload',
        'drag between elements of one frame');
    }
    return { toSelector: params.toChain[params.toChain.length - 1] };
  }
  return {};
}

/**
 * An action in a page. Synthetic: the kernel acts, with the frame's user
 * activation given first, under a Watch of what the action then does (a
 * dialog, a navigation, tabs opened). Trusted: the kernel checks and
 * prepares, and the reply carries the point the browser's own geometry
 * gives, for the host to press there through sendCDP.
 * @param {protocol.ActParams} params
 * @returns {Promise<protocol.ActReply>}
 */
export async function act(params) {
  const { tabId, action } = params;
  refuseIfDialog(tabId);
  const trusted = !!params.trusted;
  // A find or a scroll presses nothing: for the debugger it is a read
  // (docs/debugger.md, "The debugger").
  const held = await hold(tabId, trusted ? { required: true, what: 'trusted input (--trusted)', instead: 'use synthetic input (leave out --trusted)' }
    : { read: action === 'find' || action === 'scroll' });
  try {
    const place = await placeOf(params);
    /** @type {KernelCalls['act']['req'] & {op: 'act'}} */
    const req = {
      // The action's name for the kernel's note of where it began (polls.js).
      op: 'act', began: actionBegan(tabId), action, text: params.text, value: params.text, key: params.key,
      modifiers: params.modifiers || [], trusted, ...place.req, ...await dropTargetOf(params, place),
      ...(params.find ? { find: params.find } : {}),
      // A point inside the element, or the drop point inside the drop
      // target (docs/drawings.md, "Drawings and canvases").
      ...(params.at ? { at: params.at } : {}), ...(params.toAt ? { toAt: params.toAt } : {}),
    };
    if (params.upload) {
      // The files' bytes go to the page before the act that puts them in
      // (uploads.js).
      await handToPage(place.target, params.upload);
      Object.assign(req, { upload: params.upload });
    }
    if (trusted) {
      // Attached first: a headed browser's debugging bar has resized the
      // page before anything is measured.
      await settled(tabId);
      const res = await runInDocument(place.target, req);
      if (res.point && typeof res.id === 'number') {
        const { world } = await worldOf(tabId, place.documentId);
        res.point = await pointOf(tabId, world, res.id);
      }
      return { ...res, documentId: place.documentId };
    }
    if (held.attached && PRESSES.has(action)) {
      await activateFrame(tabId, place.frameId, place.documentId).catch(() => {});
    }
    // The timers the input sets off are waited for by the read back
    // (timers.js).
    await watchActionTimers(tabId, place.documentId, SETTLE_BOUND_MS);
    const out = await withEffects(tabId, async () => {
      const value = await runInDocument(place.target, req);
      await afterOneTask(place.target);
      return value;
    });
    const { value, ...effects } = out;
    if (!value) {
      const why = effects.dialog ? '' : effects.closed ? 'the page closed its tab'
        : effects.opened && effects.opened.length && !effects.navigation
          ? 'the page opened a tab and stopped before it answered: another debugger holds the new tab paused until it lets it run'
          : 'the page navigated away before it answered';
      return { ok: true, ...(why ? { detail: why } : {}), ...effects };
    }
    // A find or a list's scroll names elements of this document by local
    // id (host/find.go).
    return { ...value, ...effects, ...(value.find || value.list ? { documentId: place.documentId } : {}) };
  } catch (err) {
    throw await onBlankPage(params, err);
  } finally {
    held.release();
  }
}

/**
 * An action on the tab's page (no ref) refused because the tab shows the
 * blank page it was opened with, which no script may enter (inject.js
 * blankTop): that page has nothing on it, and the refusal says so and
 * what to do; any other refusal passes as it is.
 * @param {any} params @param {any} err
 */
async function onBlankPage(params, err) {
  if (params.documentId || !err || err.code !== 'not_actionable' || err.boundary !== 'document' || !(await blankTop(params.tabId))) return err;
  if (params.action === 'find') {
    return wireError(`no element says ${JSON.stringify(params.text || '')}: the tab shows about:blank, an empty page`, 'not_found', 'page',
      'navigate the tab to a page first (grip navigate URL, or grip forward)');
  }
  return wireError('the tab shows about:blank, an empty page: there is nothing to act on', 'not_actionable', 'document',
    'navigate the tab to a page first (grip navigate URL, or grip forward)');
}

/**
 * Trusted input: real mouse and keyboard input the host built (cdproto
 * types), sent through the debugger, only after checking, just before,
 * that it reaches the element the agent named. guard names the element
 * (its document and local id); with a point, the browser's hit test there
 * must reach it (nothing covering it or the iframes around it); with
 * focus, the page's focus must be on it (a page that pulls the focus away
 * on blur does not get the text). Then the same Watch as a synthetic
 * action's reports what the input did.
 * @param {protocol.CDPParams} params
 * @returns {Promise<protocol.CDPReply>}
 */
export async function sendCDP(params) {
  const { tabId } = params;
  refuseIfDialog(tabId);
  const commands = Array.isArray(params.commands) ? params.commands : [];
  const held = await hold(tabId, { required: true, what: 'trusted input (--trusted)', instead: 'use synthetic input (leave out --trusted)' });
  try {
    const g = params.guard;
    if (g && g.documentId) {
      const { world, worlds } = await worldOf(tabId, g.documentId);
      if (g.point) {
        const why = await hitReason(tabId, world, worlds, g.localId, g.point);
        if (why) throw wireError(why, 'not_actionable', 'point', 'the page changed under the action point; nothing was pressed. Close or dismiss what covers it, or take a new snapshot');
      }
      if (g.focus) {
        // Let the page react to the focus change first (blur handlers).
        await new Promise((r) => setTimeout(r, FOCUS_SETTLE_MS));
        const why = await focusReason(tabId, world, worlds, g.localId);
        if (why) throw wireError(why, 'not_actionable', 'actionability', 'the page moved the focus away from the element; nothing was typed. Take a new snapshot and try again');
      }
    }
    const target = g && g.documentId ? { tabId, documentIds: [g.documentId] } : { tabId, frameIds: [0] };
    if (g && g.documentId) await watchActionTimers(tabId, g.documentId, SETTLE_BOUND_MS);
    const out = await withEffects(tabId, async () => {
      const value = await sendHostCommands(tabId, commands, (c) => (enterUp(c) ? afterFrame(target) : undefined));
      await afterOneTask(target);
      return value;
    });
    const { value, ...effects } = out;
    return { results: value || [], ...effects };
  } finally {
    held.release();
  }
}

/**
 * Whether c lets go of Enter: a line break typed, after which an editor
 * redraws its lines in the next frame.
 * @param {{method: string, params: any}} c
 */
function enterUp(c) {
  return c.method === 'Input.dispatchKeyEvent' && !!c.params && c.params.type === 'keyUp' && c.params.key === 'Enter';
}

/** The longest trusted typing waits for the page to draw a frame. */
const FRAME_WAIT_MS = 100;

/**
 * Waits, bounded, until the document target names has drawn its next
 * frame and run the tasks it queued, as a page does between a person's
 * keys; a hidden page draws none and is not waited for.
 * @param {chrome.scripting.InjectionTarget} target
 */
async function afterFrame(target) {
  await Promise.race([
    chrome.scripting.executeScript({ target, world: 'ISOLATED', func: nextFrame }).catch(() => {}),
    new Promise((r) => setTimeout(r, FRAME_WAIT_MS)),
  ]);
}

/**
 * Standalone, injected: resolves after the next frame and a task, at once
 * in a hidden document.
 * @returns {Promise<void>}
 */
function nextFrame() {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') { resolve(); return; }
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

/** How long trusted typing waits after focusing, before it checks where the
 * focus is: a page's blur and focus handlers run in that time. */
const FOCUS_SETTLE_MS = 50;
