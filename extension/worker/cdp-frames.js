// @ts-check
// A tab's frames as the debugger sees them, for trusted input and user
// activation (docs/debugger.md, "The debugger"): grip's own isolated
// world in a frame (found by a mark the kernel sets there, so it is the
// document the ref names and no other), the browser's geometry of an
// element and of the iframes around it (CSS transforms included), the
// browser's hit test at a point, through out-of-process frames, and which
// element has focus. Everything here reads the page through grip's
// isolated world or the browser itself, never through the page's own
// scripts, which could lie.
import { send, children, onTabEvent, sessionsOf } from './debugger.js';
import { runInDocument } from './inject.js';
import { wireError } from './errors.js';

const OURS = chrome.runtime.getURL('').replace(/\/$/, '');

/** @typedef {import('./debugger.js').Session} Session */
/** @typedef {{x: number, y: number}} Point */
/** grip's isolated world in one frame: the session holding the frame, the
 * world's execution context there, the frame's id in the debugger.
 * @typedef {{session: Session, contextId: number, frameId: string}} World */
/** Every grip world of a tab, by the debugger's frame id.
 * @typedef {Map<string, World>} Worlds */

/**
 * Lists grip's isolated worlds in every frame of the tab. The Runtime
 * domain is on only for the listing: while it is on, Chrome reports the
 * page's console calls to the debugger, which some pages can notice.
 * @param {number} tabId
 * @returns {Promise<Worlds>}
 */
export async function listWorlds(tabId) {
  /** @type {Worlds} */
  const worlds = new Map();
  const stop = onTabEvent(tabId, (e) => {
    if (e.method !== 'Runtime.executionContextCreated') return;
    const c = e.params.context || {};
    const aux = c.auxData || {};
    if (c.origin !== OURS || aux.type !== 'isolated' || typeof aux.frameId !== 'string') return;
    const session = e.sessionId ? { tabId, sessionId: e.sessionId } : { tabId };
    worlds.set(aux.frameId, { session, contextId: c.id, frameId: aux.frameId });
  });
  try {
    for (const s of sessionsOf(tabId)) {
      try {
        await send(s, 'Runtime.enable');
      } finally {
        await send(s, 'Runtime.disable').catch(() => {});
      }
    }
    await new Promise((r) => setTimeout(r, 0)); // events still in flight
  } finally {
    stop();
  }
  return worlds;
}

/**
 * Finds grip's world in the document documentId: the kernel there sets a
 * fresh mark, and the world holding it is the one.
 * @param {number} tabId
 * @param {string} documentId
 * @returns {Promise<{world: World, worlds: Worlds}>}
 */
export async function worldOf(tabId, documentId) {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  const mark = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  await runInDocument({ tabId, documentIds: [documentId] }, { op: 'mark', mark });
  const worlds = await listWorlds(tabId);
  const found = await Promise.all(Array.from(worlds.values(), async (w) => {
    const r = await send(w.session, 'Runtime.evaluate', {
      expression: 'globalThis.__gripKernel__ ? globalThis.__gripKernel__.mark : ""', contextId: w.contextId, returnByValue: true,
    }).catch(() => null);
    return r && r.result && r.result.value === mark ? w : null;
  }));
  const world = found.find((w) => w !== null);
  if (!world) {
    throw wireError("the debugger does not show grip's world in the element's document", 'document_changed', 'document',
      'the page changed; take a new snapshot');
  }
  return { world, worlds };
}

/**
 * Gives the frame of world the transient user activation a real click
 * gives it: pages may then open windows, go fullscreen, copy, play sound.
 * @param {World | Session} where a world, or a session whose main frame it is
 */
export async function activate(where) {
  if ('contextId' in where) {
    await send(where.session, 'Runtime.evaluate', { expression: '0', contextId: where.contextId, userGesture: true });
  } else {
    await send(where, 'Runtime.evaluate', { expression: '0', userGesture: true });
  }
}

/**
 * Calls fn (a function's source) on the element localId in world, with
 * args, and returns its value.
 * @param {World} world
 * @param {number} localId
 * @param {string} fn  called with (kernel, element, ...args)
 * @param {any[]} [args]
 */
async function onElement(world, localId, fn, args) {
  const r = await send(world.session, 'Runtime.callFunctionOn', {
    functionDeclaration: `function (id, ...rest) { const K = globalThis.__gripKernel__; const el = K && K.elementOf(id); return (${fn})(K, el || null, ...rest); }`,
    executionContextId: world.contextId,
    arguments: [{ value: localId }, ...(args || []).map((value) => ({ value }))],
    returnByValue: true,
  });
  if (r.exceptionDetails) throw wireError('grip\'s check in the page failed: ' + (r.exceptionDetails.text || ''), 'internal', 'document');
  return r.result ? r.result.value : undefined;
}

/** @param {number[]} q a quad, 8 numbers @returns {Point} */
function centre(q) {
  return { x: (q[0] + q[2] + q[4] + q[6]) / 4, y: (q[1] + q[3] + q[5] + q[7]) / 4 };
}

/** @param {number} ax @param {number} ay */
function len(ax, ay) {
  return Math.sqrt(ax * ax + ay * ay);
}

/**
 * The content box of the iframe holding child's frame, in its parent's
 * session: the quad (after CSS transforms) and the frame's viewport size.
 * @param {number} tabId
 * @param {import('./debugger.js').Child} child
 */
async function ownerBox(tabId, child) {
  const parent = child.parent ? { tabId, sessionId: child.parent } : { tabId };
  const { backendNodeId } = await send(parent, 'DOM.getFrameOwner', { frameId: child.targetId });
  return boxOf(parent, backendNodeId);
}

/**
 * An iframe element's content quad and the size of the viewport it shows
 * (its untransformed content box: border box scaled by the quads' ratio).
 * @param {Session} session
 * @param {number} backendNodeId
 */
async function boxOf(session, backendNodeId) {
  const { model } = await send(session, 'DOM.getBoxModel', { backendNodeId });
  const c = model.content, b = model.border;
  const w = model.width * len(c[2] - c[0], c[3] - c[1]) / (len(b[2] - b[0], b[3] - b[1]) || 1);
  const h = model.height * len(c[6] - c[0], c[7] - c[1]) / (len(b[6] - b[0], b[7] - b[1]) || 1);
  return { quad: /** @type {number[]} */ (c), w, h };
}

/**
 * A point in a frame's viewport, in the viewport of the element holding it.
 * @param {{quad: number[], w: number, h: number}} box @param {Point} p @returns {Point}
 */
function outOf(box, p) {
  const c = box.quad, u = p.x / box.w, v = p.y / box.h;
  return { x: c[0] + u * (c[2] - c[0]) + v * (c[6] - c[0]), y: c[1] + u * (c[3] - c[1]) + v * (c[7] - c[1]) };
}

/**
 * The inverse of outOf: a point of the parent's viewport in the frame's, or
 * null when the box is flat.
 * @param {{quad: number[], w: number, h: number}} box @param {Point} p @returns {Point | null}
 */
function into(box, p) {
  const c = box.quad;
  const ax = c[2] - c[0], ay = c[3] - c[1], bx = c[6] - c[0], by = c[7] - c[1];
  const det = ax * by - ay * bx;
  if (Math.abs(det) < 1e-9) return null;
  const dx = p.x - c[0], dy = p.y - c[1];
  return { x: (dx * by - dy * bx) / det * box.w, y: (ax * dy - ay * dx) / det * box.h };
}

/**
 * Runs use with the remote object of the element localId of world and
 * then releases it; an element no longer on the page is refused
 * stale_ref (pointOf, rectOf).
 * @template T
 * @param {World} world
 * @param {number} localId
 * @param {(objectId: string) => Promise<T>} use
 * @returns {Promise<T>}
 */
async function withElement(world, localId, use) {
  const obj = await send(world.session, 'Runtime.callFunctionOn', {
    functionDeclaration: 'function (id) { const K = globalThis.__gripKernel__; return K && K.elementOf(id) || null; }',
    executionContextId: world.contextId, arguments: [{ value: localId }],
  });
  const objectId = obj.result && obj.result.objectId;
  if (!objectId) throw wireError('its element is no longer on the page', 'stale_ref', 'node', 'take a new snapshot');
  try {
    return await use(objectId);
  } finally {
    send(world.session, 'Runtime.releaseObjectGroup', { objectGroup: '' }).catch(() => {});
  }
}

/**
 * Where to press the element localId of world, in the top frame's
 * viewport, by the browser's own geometry: the centre of its first box
 * that shows in its frame's viewport, carried out through every
 * out-of-process iframe around it. (Frames in the same process are in
 * their session's coordinates already.)
 * @param {number} tabId
 * @param {World} world
 * @param {number} localId
 * @returns {Promise<Point>}
 */
export async function pointOf(tabId, world, localId) {
  const quads = await withElement(world, localId,
    async (objectId) => (await send(world.session, 'DOM.getContentQuads', { objectId })).quads);
  if (!quads || quads.length === 0) throw wireError('the element has no box on screen', 'not_actionable', 'actionability');
  let p = centre(quads[0]);
  let sessionId = world.session.sessionId;
  while (sessionId) {
    const child = children(tabId).find((c) => c.sessionId === sessionId);
    if (!child) throw wireError('the frame holding the element is gone', 'document_changed', 'document', 'take a new snapshot');
    p = outOf(await ownerBox(tabId, child), p);
    sessionId = child.parent;
  }
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

/**
 * The browser's hit test at a point of the top frame's viewport, followed
 * into out-of-process frames: the element a real press there would reach.
 * @param {number} tabId
 * @param {Point} top
 * @returns {Promise<{session: Session, backendNodeId: number, frameId: string} | null>}
 */
async function hitAt(tabId, top) {
  /** @type {Session} */
  let session = { tabId };
  let p = top;
  for (let depth = 0; depth < 16; depth++) {
    const hit = await send(session, 'DOM.getNodeForLocation', {
      x: Math.round(p.x), y: Math.round(p.y), includeUserAgentShadowDOM: false, ignorePointerEventsNone: false,
    }).catch(() => null);
    if (!hit) return null;
    const { node } = await send(session, 'DOM.describeNode', { backendNodeId: hit.backendNodeId });
    const inner = node && node.frameId && children(tabId).find((c) => c.targetId === node.frameId && c.parent === session.sessionId);
    if (!inner) return { session, backendNodeId: hit.backendNodeId, frameId: hit.frameId };
    const q = into(await boxOf(session, hit.backendNodeId), p);
    if (!q) return null;
    session = { tabId, sessionId: inner.sessionId };
    p = q;
  }
  return null;
}

/**
 * Names an element the browser found, through grip's world in its frame
 * when there is one ("[button 'Accept cookies']"), else by tag.
 * @param {Worlds} worlds
 * @param {{session: Session, backendNodeId: number, frameId: string}} hit
 */
async function nameHit(worlds, hit) {
  const w = worlds.get(hit.frameId);
  if (w) {
    const r = await send(w.session, 'DOM.resolveNode', { backendNodeId: hit.backendNodeId, executionContextId: w.contextId }).catch(() => null);
    if (r && r.object && r.object.objectId) {
      const v = await send(w.session, 'Runtime.callFunctionOn', {
        objectId: r.object.objectId, returnByValue: true,
        functionDeclaration: 'function () { const K = globalThis.__gripKernel__; return K ? K.brief(K.occluder(this)) : ""; }',
      }).catch(() => null);
      if (v && v.result && typeof v.result.value === 'string' && v.result.value) return v.result.value;
    }
  }
  const d = await send(hit.session, 'DOM.describeNode', { backendNodeId: hit.backendNodeId }).catch(() => null);
  return d && d.node ? '<' + String(d.node.localName || d.node.nodeName || '?').toLowerCase() + '>' : 'something else';
}

/**
 * Whether a real press at top (the top frame's viewport) reaches the
 * element localId of world: '' when it does, else what it reaches instead
 * ("occluded by [button 'Accept cookies']").
 * @param {number} tabId
 * @param {World} world
 * @param {Worlds} worlds
 * @param {number} localId
 * @param {Point} top
 */
export async function hitReason(tabId, world, worlds, localId, top) {
  const hit = await hitAt(tabId, top);
  if (!hit) return 'nothing is at the action point (' + top.x + ', ' + top.y + ')';
  if (hit.frameId === world.frameId && (hit.session.sessionId || '') === (world.session.sessionId || '')) {
    const r = await send(world.session, 'DOM.resolveNode', { backendNodeId: hit.backendNodeId, executionContextId: world.contextId }).catch(() => null);
    if (r && r.object && r.object.objectId) {
      const v = await send(world.session, 'Runtime.callFunctionOn', {
        objectId: r.object.objectId, returnByValue: true, arguments: [{ value: localId }],
        functionDeclaration: 'function (id) { const K = globalThis.__gripKernel__; const el = K && K.elementOf(id); return el ? K.hitReason(el, this) : "its element is no longer on the page"; }',
      });
      if (v && v.result && typeof v.result.value === 'string') return v.result.value;
    }
  }
  return 'occluded by ' + await nameHit(worlds, hit);
}

/**
 * The frame around frameId: the session holding it and its id; null for
 * the top frame.
 * @param {number} tabId
 * @param {Session} session the session holding frameId
 * @param {string} frameId
 * @returns {Promise<{session: Session, frameId: string} | null>}
 */
async function parentOf(tabId, session, frameId) {
  const root = children(tabId).find((c) => c.sessionId === session.sessionId && c.targetId === frameId);
  if (root) return { session: root.parent ? { tabId, sessionId: root.parent } : { tabId }, frameId: root.parentFrameId };
  const { frameTree } = await send(session, 'Page.getFrameTree');
  /** @type {any[]} */
  const todo = [frameTree];
  while (todo.length) {
    const t = todo.pop();
    if (t.frame && t.frame.id === frameId) return t.frame.parentId ? { session, frameId: t.frame.parentId } : null;
    for (const c of t.childFrames || []) todo.push(c);
  }
  return null;
}

/**
 * Whether keys sent now reach the element localId of world: '' when the
 * page's focus is on it, else where it is instead ("focus is on [textbox
 * 'Search']"). Every frame around the element must have its focus on the
 * iframe holding the next one; each is asked in grip's own world, so the
 * page cannot fake the answer.
 * @param {number} tabId
 * @param {World} world
 * @param {Worlds} worlds
 * @param {number} localId
 */
export async function focusReason(tabId, world, worlds, localId) {
  const own = await onElement(world, localId, '(K, el) => el ? K.focusReason(el) : "its element is no longer on the page"');
  if (own) return String(own);
  let cur = { session: world.session, frameId: world.frameId };
  for (let depth = 0; depth < 16; depth++) {
    const up = await parentOf(tabId, cur.session, cur.frameId);
    if (!up) return '';
    const { backendNodeId } = await send(up.session, 'DOM.getFrameOwner', { frameId: cur.frameId });
    const w = worlds.get(up.frameId);
    const r = w && await send(w.session, 'DOM.resolveNode', { backendNodeId, executionContextId: w.contextId }).catch(() => null);
    if (!w || !r || !r.object || !r.object.objectId) return 'grip cannot see where the focus is in a frame around the element';
    const v = await send(w.session, 'Runtime.callFunctionOn', {
      objectId: r.object.objectId, returnByValue: true,
      functionDeclaration: 'function () { const K = globalThis.__gripKernel__; return K ? K.focusReason(this) : "?"; }',
    });
    const why = v && v.result ? String(v.result.value || '') : '';
    if (why) return why + ' (in a frame around the element)';
    cur = up;
  }
  return '';
}

/**
 * A point of a session's viewport in the top frame's viewport, carried out
 * through every out-of-process iframe around the session.
 * @param {number} tabId
 * @param {Session} session
 * @param {Point} p
 * @returns {Promise<Point>}
 */
async function toTop(tabId, session, p) {
  let sessionId = session.sessionId;
  while (sessionId) {
    const child = children(tabId).find((c) => c.sessionId === sessionId);
    if (!child) throw wireError('the frame holding the element is gone', 'document_changed', 'document', 'take a new snapshot');
    p = outOf(await ownerBox(tabId, child), p);
    sessionId = child.parent;
  }
  return p;
}

/**
 * The element localId of world, scrolled into view, as the rectangle
 * around its border box in the top frame's viewport (CSS px), by the
 * browser's own geometry (grip screenshot @eN).
 * @param {number} tabId
 * @param {World} world
 * @param {number} localId
 * @returns {Promise<{x: number, y: number, width: number, height: number}>}
 */
export async function rectOf(tabId, world, localId) {
  const quads = await withElement(world, localId, async (objectId) => {
    try {
      await send(world.session, 'DOM.scrollIntoViewIfNeeded', { objectId }).catch(() => {});
      const { model } = await send(world.session, 'DOM.getBoxModel', { objectId });
      return [model.border];
    } catch (_) {
      return (await send(world.session, 'DOM.getContentQuads', { objectId }).catch(() => ({ quads: [] }))).quads;
    }
  });
  if (!quads || quads.length === 0) throw wireError('the element has no box on screen', 'not_actionable', 'actionability', 'it may be hidden: take a snapshot');
  const q = quads[0];
  const pts = await Promise.all([0, 2, 4, 6].map((i) => toTop(tabId, world.session, { x: q[i], y: q[i + 1] })));
  const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * Where world's frame's viewport starts in the top frame's viewport, and
 * how much larger one of its CSS px shows there (a scaled iframe).
 * @param {number} tabId
 * @param {World} world
 * @returns {Promise<{x: number, y: number, scale: number}>}
 */
export async function frameOffset(tabId, world) {
  const { frameTree } = await send(world.session, 'Page.getFrameTree');
  /** @type {(p: Point) => Promise<Point>} */
  let local = async (p) => p;
  if (!frameTree || frameTree.frame.id !== world.frameId) {
    // A frame in its parent's process: its iframe's content box, in the
    // session's viewport.
    const { backendNodeId } = await send(world.session, 'DOM.getFrameOwner', { frameId: world.frameId });
    const box = await boxOf(world.session, backendNodeId);
    local = async (p) => outOf(box, p);
  }
  const o = await toTop(tabId, world.session, await local({ x: 0, y: 0 }));
  const u = await toTop(tabId, world.session, await local({ x: 100, y: 0 }));
  return { x: o.x, y: o.y, scale: len(u.x - o.x, u.y - o.y) / 100 };
}
