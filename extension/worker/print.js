// @ts-check
// Pixels and paper of a tab, through the debugger (docs/devtools.md,
// "Developer tools"): a PDF of the page, a PNG of one element, a PNG of
// the viewport with the boxes of elements, for the host to draw refs on.
// None of it activates the tab or moves the person's focus.
import { hold, send } from './debugger.js';
import { tabInfo } from './tabs.js';
import { wireError } from './errors.js';
import { refuseIfDialog } from './dialogs.js';
import { worldOf, rectOf, frameOffset } from './cdp-frames.js';

/** @param {number} tabId */
async function ref(tabId) {
  const t = await tabInfo(tabId);
  return { id: t.id, url: t.url, title: t.title };
}

/**
 * @param {{tabId: number, landscape?: boolean}} params
 */
export async function printPDF(params) {
  const { tabId } = params;
  refuseIfDialog(tabId);
  const held = await hold(tabId, { required: true, what: 'a PDF of the page', instead: 'take a screenshot of the tab in front, or a snapshot' });
  try {
    const r = await send({ tabId }, 'Page.printToPDF', { printBackground: true, landscape: !!params.landscape, transferMode: 'ReturnAsBase64' });
    return { tab: await ref(tabId), data: String(r.data || '') };
  } catch (err) {
    if (err && /** @type {any} */ (err).code) throw err;
    throw wireError(`the browser made no PDF of tab ${tabId}: ${err}`, 'not_actionable', 'browser', 'a page the browser cannot print (a PDF viewer, a browser page) has no PDF');
  } finally {
    held.release();
  }
}

/**
 * A PNG of the viewport as it is (no activation: the debugger captures a
 * background tab too).
 * @param {number} tabId
 * @param {{x: number, y: number, width: number, height: number, scale: number}} [clip]
 */
async function capture(tabId, clip) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  // A headed window draws no frames for a tab behind another: the capture
  // would wait for one forever.
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(wireError(`the browser drew no frame of tab ${tabId} within ${CAPTURE_TIMEOUT_MS / 1000} s: a headed browser does not draw a tab behind another`,
      'not_actionable', 'browser', `bring it to the front first (grip tabs select ${tabId}), then take the screenshot again`)), CAPTURE_TIMEOUT_MS);
  });
  try {
    const r = await Promise.race([send({ tabId }, 'Page.captureScreenshot', clip ? { format: 'png', clip, captureBeyondViewport: true } : { format: 'png' }), late]);
    return String(r.data || '');
  } finally {
    clearTimeout(timer);
  }
}

/** How long a capture may wait for the browser to draw the tab. */
const CAPTURE_TIMEOUT_MS = 5000;

/**
 * A PNG of one element: its border box as the browser lays it out, in
 * whatever frame, scrolled into view first.
 * @param {{tabId: number, documentId: string, localId: number}} params
 */
export async function elementShot(params) {
  const { tabId, documentId, localId } = params;
  refuseIfDialog(tabId);
  const held = await hold(tabId, { required: true, what: 'a screenshot of an element or of refs', instead: 'take a screenshot of the whole tab in front (grip screenshot), or a snapshot' });
  try {
    const { world } = await worldOf(tabId, documentId);
    const rect = await rectOf(tabId, world, localId);
    const m = await send({ tabId }, 'Page.getLayoutMetrics');
    const vp = m.cssVisualViewport || m.visualViewport || {};
    const x = Math.max(rect.x, 0), y = Math.max(rect.y, 0);
    const w = Math.min(rect.x + rect.width, Number(vp.clientWidth) || Infinity) - x;
    const h = Math.min(rect.y + rect.height, Number(vp.clientHeight) || Infinity) - y;
    if (!(w >= 1 && h >= 1)) {
      throw wireError('the element shows nothing in the viewport', 'not_actionable', 'actionability', 'it may be hidden or empty: take a snapshot');
    }
    const clip = { x: x + (Number(vp.pageX) || 0), y: y + (Number(vp.pageY) || 0), width: w, height: h, scale: 1 };
    return { tab: await ref(tabId), data: await capture(tabId, clip), width: Math.round(w), height: Math.round(h), clipped: w < rect.width - 0.5 || h < rect.height - 0.5,
      left: Math.round(x - rect.x), top: Math.round(y - rect.y) };
  } finally {
    held.release();
  }
}

/**
 * A PNG of the viewport and, for each element asked for, its box in it
 * (CSS px of the top frame's viewport), for the host to label: frames by
 * documentId, each with the local ids of its elements.
 * @param {{tabId: number, frames: {documentId: string, ids: number[]}[]}} params
 */
export async function boxesShot(params) {
  const { tabId } = params;
  refuseIfDialog(tabId);
  const held = await hold(tabId, { required: true, what: 'a screenshot of an element or of refs', instead: 'take a screenshot of the whole tab in front (grip screenshot), or a snapshot' });
  try {
    /** @type {{documentId: string, id: number, x: number, y: number, width: number, height: number}[]} */
    const boxes = [];
    for (const f of params.frames || []) {
      let world;
      try {
        ({ world } = await worldOf(tabId, f.documentId));
      } catch (_) {
        continue; // the frame went: its refs are drawn nowhere
      }
      const off = await frameOffset(tabId, world).catch(() => null);
      if (!off) continue;
      const r = await send(world.session, 'Runtime.callFunctionOn', {
        // Only what shows in the frame's own viewport: an element scrolled
        // out of an iframe is not drawn over the page around it.
        functionDeclaration: `function (ids) { const K = globalThis.__gripKernel__; return ids.map((id) => {
          const el = K && K.elementOf(id); if (!el || !el.isConnected) return null;
          const b = el.getBoundingClientRect();
          const l = Math.max(b.left, 0), t = Math.max(b.top, 0), r = Math.min(b.right, innerWidth), d = Math.min(b.bottom, innerHeight);
          return r > l && d > t ? [l, t, r - l, d - t] : null; }); }`,
        executionContextId: world.contextId, arguments: [{ value: f.ids }], returnByValue: true,
      });
      const rects = r.result && Array.isArray(r.result.value) ? r.result.value : [];
      f.ids.forEach((id, i) => {
        const b = rects[i];
        if (!b || !(b[2] > 0 && b[3] > 0)) return;
        boxes.push({ documentId: f.documentId, id, x: off.x + b[0] * off.scale, y: off.y + b[1] * off.scale, width: b[2] * off.scale, height: b[3] * off.scale });
      });
    }
    const m = await send({ tabId }, 'Page.getLayoutMetrics');
    const vp = m.cssVisualViewport || m.visualViewport || {};
    return { tab: await ref(tabId), data: await capture(tabId), boxes, width: Number(vp.clientWidth) || 0, height: Number(vp.clientHeight) || 0 };
  } finally {
    held.release();
  }
}
