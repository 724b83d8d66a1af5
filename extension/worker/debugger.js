// @ts-check
// The one owner of chrome.debugger (docs/debugger.md, "The debugger").
// grip attaches to a tab only for what needs the debugger (an action, a
// navigation it makes, trusted input, the developer tools), from that
// request until IDLE_DETACH_MS after the last such (CAPTURE_DETACH_MS
// once the developer tools read the tab's capture), and never while a
// dialog waits for an answer; a read joins an attachment that is there
// but never makes one, and the person's switch "never attach the
// debugger" (NEVER_KEY) refuses it all. Attached, it sees what the page
// alone cannot tell: a JavaScript dialog opening (Chrome reports a dialog
// only to a client that had the Page domain on before it opened; one that
// attaches later can neither see nor answer it), a window the page tried
// to open, and it can give a frame the user activation a real click
// carries. Trusted input goes through here too.
//
// Every method grip sends is listed below; the host may ask only for real
// input (HOST_METHODS), the commands it builds with cdproto types.
//
// State lives in this module, not in chrome.storage: an attached debugger
// keeps the service worker alive (Chrome 118+), and a worker that stops
// loses its sessions with it, so the two end together.
import { wireError } from './errors.js';
import { getOwners } from './sessions.js';

/** How long a tab stays attached after the last request that needed the
 * debugger there: long enough for the read back after an action (its
 * in-flight requests, a dialog its handler opens a moment later), short
 * enough that the browser's bar goes soon after the agent stops acting. */
export const IDLE_DETACH_MS = 3000;
/** How long a tab whose capture the developer tools read (console,
 * network) stays attached after the last request: what they list is what
 * the debugger saw while attached, so a detach between two reads loses
 * what happened in between. */
export const CAPTURE_DETACH_MS = 60000;
/** The person's switch in chrome.storage.local: true, grip never attaches
 * the debugger (docs/debugger.md, "The debugger"). */
export const NEVER_KEY = 'neverDebugger';
/** After a fresh attach, how long a headed browser may take to show its
 * "started debugging this browser" bar (which resizes every page). */
const BAR_SETTLE_MS = 300;
const VERSION = '1.3';
/** How long grip waits for a tab's first page to commit before it attaches
 * to the tab or reads it (firstCommit). */
const FIRST_COMMIT_MS = 10000;

/** The methods the host's cdp requests may carry: real mouse and keyboard
 * input (host/act.go trustedCommands, host/keys.go). */
export const HOST_METHODS = new Set(['Input.dispatchMouseEvent', 'Input.dispatchKeyEvent', 'Input.insertText']);

/** The methods the worker itself sends (dialogs, frames, user activation,
 * the checks before trusted input). */
const OWN_METHODS = new Set([
  'Page.enable', 'Page.handleJavaScriptDialog', 'Page.getFrameTree', 'Page.getNavigationHistory', 'Target.setAutoAttach',
  'Runtime.enable', 'Runtime.disable', 'Runtime.evaluate', 'Runtime.callFunctionOn', 'Runtime.releaseObjectGroup',
  'DOM.getContentQuads', 'DOM.getBoxModel', 'DOM.getFrameOwner', 'DOM.getNodeForLocation', 'DOM.describeNode',
  'DOM.resolveNode',
  // Developer tools (console.js, network.js, evaluate.js, print.js).
  'Runtime.getProperties', 'Log.enable', 'Log.disable', 'Network.enable', 'Network.getResponseBody',
  'Page.printToPDF', 'Page.captureScreenshot', 'Page.getLayoutMetrics', 'DOM.scrollIntoViewIfNeeded',
  'Runtime.runIfWaitingForDebugger',
  // Background work (docs/sessions.md, "Background work"): focus and
  // drawing as in front for a session's tab.
  'Emulation.setFocusEmulationEnabled', 'Page.startScreencast',
]);

/** @typedef {{type: string, message: string, default_prompt: string, url: string}} Dialog */
/** @typedef {{tabId: number, sessionId?: string}} Session */
/** @typedef {{sessionId?: string, method: string, params: any}} TabEvent */
/**
 * A child target (an out-of-process iframe) auto-attached under a tab.
 * targetId is its frame's id, parent the session holding the frame around
 * it (undefined: the tab's own), parentFrameId that frame's id.
 * @typedef {{sessionId: string, targetId: string, parent: string | undefined, parentFrameId: string, url: string}} Child
 */
/**
 * @typedef {Object} TabState
 * @property {Promise<boolean>} ready resolves true once attached and set up
 * @property {number} holds requests working on the tab now
 * @property {ReturnType<typeof setTimeout> | null} idle the idle detach
 * @property {Dialog | null} dialog the dialog waiting for an answer
 * @property {Map<string, Child>} children by sessionId
 * @property {Map<string, {sessionId: string, url: string}>} workers the page's dedicated workers, by sessionId
 * @property {Set<(e: TabEvent) => void>} listeners
 * @property {number} attachedAt
 * @property {boolean} capture the developer tools read this tab's capture
 */

/** @type {Map<number, TabState>} */
const tabs = new Map();
/** What wants to set up every session grip attaches (the tab's own, an
 * out-of-process frame's, a worker's) and to hear every event of every
 * attached tab: network.js. Registered once, at module load.
 * @type {Set<(s: Session, kind: 'tab' | 'iframe' | 'worker') => Promise<unknown>>} */
const sessionHooks = new Set();
/** @type {Set<(tabId: number, e: TabEvent) => void>} */
const everyEvent = new Set();
/** @type {Set<(tabId: number) => void>} */
const detachHooks = new Set();

/**
 * Calls fn with a tab grip is no longer attached to (an idle detach, the
 * person's Cancel, a closed tab): what its sessions held is gone.
 * @param {(tabId: number) => void} fn
 */
export function onDetached(fn) {
  detachHooks.add(fn);
}

/** @param {number} tabId */
function detached(tabId) {
  for (const fn of detachHooks) {
    try { fn(tabId); } catch (_) { /* one hook's bug must not stop the others */ }
  }
}

/**
 * Calls fn for every session grip sets up from now on; a tab's own session
 * is ready only once fn has run for it, so nothing grip does there is
 * missed.
 * @param {(s: Session, kind: 'tab' | 'iframe' | 'worker') => Promise<unknown>} fn
 */
export function onSession(fn) {
  sessionHooks.add(fn);
}

/**
 * Calls fn with every event of every tab grip is attached to.
 * @param {(tabId: number, e: TabEvent) => void} fn
 */
export function onEveryEvent(fn) {
  everyEvent.add(fn);
}

/** @param {Session} s @param {'tab' | 'iframe' | 'worker'} kind */
function runSessionHooks(s, kind) {
  const all = Promise.all(Array.from(sessionHooks, (fn) => fn(s, kind).catch(() => {})));
  // A test hook, settable only by code in this worker (no page can reach
  // it): the e2e suite stalls a frame's set-up to prove the hold is bounded.
  const stall = /** @type {any} */ (globalThis).__gripStallSessionSetUp;
  return typeof stall === 'function' && stall(kind) ? all.then(() => new Promise(() => {})) : all;
}
/** Tabs whose debugging the person cancelled (the bar's Cancel): grip does
 * not attach to them again on its own, only for input asked to be trusted. */
const declined = new Set();

/**
 * Sends one command to a tab's session, if grip sends that method at all.
 * @param {Session} session
 * @param {string} method
 * @param {object} [params]
 * @returns {Promise<any>}
 */
export function send(session, method, params) {
  if (!OWN_METHODS.has(method) && !HOST_METHODS.has(method)) {
    return Promise.reject(wireError(`grip does not send ${method}`, 'bad_request', 'payload'));
  }
  return chrome.debugger.sendCommand(session, method, params || {});
}

/**
 * Attaches to tabId unless grip is attached already; resolves false when it
 * cannot (the person cancelled debugging and required is not set, another
 * extension is attached, policy forbids it).
 * @param {number} tabId
 * @param {boolean} required
 * @returns {Promise<TabState | null>}
 */
async function attach(tabId, required) {
  let st = tabs.get(tabId);
  if (!st) {
    if (declined.has(tabId) && !required) return null;
    st = {
      ready: Promise.resolve(false), holds: 0, idle: null, dialog: null, children: new Map(), workers: new Map(),
      listeners: new Set(), attachedAt: Date.now(), capture: false,
    };
    tabs.set(tabId, st);
    st.ready = setUp(tabId).catch(() => {
      if (tabs.get(tabId) === st) tabs.delete(tabId);
      return false;
    });
  }
  return (await st.ready) ? st : null;
}

/**
 * Waits, at most FIRST_COMMIT_MS, while tabId is still at its initial
 * empty document with a navigation pending (a tab the browser opened with
 * a URL: the person's first tab, a link's or a script's new tab, a tab
 * another DevTools client made and holds). Resolves whether the tab has
 * a page of its own now. Measured (Chromium 156, a URL on the command
 * line): a debugger attaching to such a tab while the browser held the
 * navigation cancelled it, and the tab stayed blank for good; a read
 * there fails with Chrome's "Cannot access contents of the page".
 * @param {number} tabId
 * @returns {Promise<boolean>}
 */
export function firstCommit(tabId) {
  return new Promise((resolve) => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    /** @param {boolean} v */
    const done = (v) => {
      clearTimeout(timer);
      chrome.webNavigation.onCommitted.removeListener(onCommitted);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      resolve(v);
    };
    /** @param {chrome.webNavigation.WebNavigationTransitionCallbackDetails} d */
    const onCommitted = (d) => { if (d.tabId === tabId && d.frameId === 0) done(true); };
    /** @param {number} id */
    const onRemoved = (id) => { if (id === tabId) done(false); };
    // Listening first: a commit between the look and the listener is not missed.
    chrome.webNavigation.onCommitted.addListener(onCommitted);
    chrome.tabs.onRemoved.addListener(onRemoved);
    initialPending(tabId).then((pending) => {
      if (!pending) { done(true); return; }
      timer = setTimeout(() => { initialPending(tabId).then((p) => done(!p)); }, FIRST_COMMIT_MS);
    });
  });
}

/**
 * Whether tabId shows no page of its own yet while one is pending: no
 * committed top document, or only the initial blank one.
 * @param {number} tabId
 */
async function initialPending(tabId) {
  const t = await chrome.tabs.get(tabId).catch(() => null);
  if (!t || !t.pendingUrl || t.pendingUrl === 'about:blank') return false;
  const f = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  return !f || !f.url || f.url === 'about:blank';
}

/** @param {number} tabId */
async function setUp(tabId) {
  // Never attach while the tab's first navigation is pending: attaching
  // then cancelled it (firstCommit).
  if (!(await firstCommit(tabId))) throw new Error(`tab ${tabId} has not committed its first page`);
  try {
    await chrome.debugger.attach({ tabId }, VERSION);
  } catch (err) {
    // Ours from a worker that stopped? Then detaching works and we start over.
    if (!/already attached/i.test(String(err))) throw err;
    await chrome.debugger.detach({ tabId });
    await chrome.debugger.attach({ tabId }, VERSION);
  }
  declined.delete(tabId);
  await send({ tabId }, 'Page.enable');
  // A session's tab works in the background as it would in front
  // (docs/sessions.md, "Background work"), without the person's window
  // moving: its page is told it has the focus (focus and blur handlers,
  // :focus styles, document.hasFocus()), and a screencast nobody reads
  // keeps the browser drawing it, so requestAnimationFrame runs at the
  // display's rate instead of about once a second (an editor that redraws
  // on the next frame, a wait for what it draws). Frames are not acked:
  // after the first few none is encoded or sent, but drawing goes on. Both
  // end when grip detaches, IDLE_DETACH_MS after the last request that
  // needed it.
  if ((await getOwners())[String(tabId)]) {
    await send({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => {});
    await send({ tabId }, 'Page.startScreencast', { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8, everyNthFrame: 1000 }).catch(() => {});
  }
  await runSessionHooks({ tabId }, 'tab');
  await send({ tabId }, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
  return true;
}

/** Whether the person set "never attach the debugger"; read at load and
 * kept by storage.onChanged (a hold must not wait on storage). */
let never = false;
/** Resolves once never has been read from storage. */
const neverRead = chrome.storage.local.get(NEVER_KEY).then((got) => { never = got[NEVER_KEY] === true; }).catch(() => {});
chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local' || !(NEVER_KEY in changes)) return;
  never = changes[NEVER_KEY].newValue === true;
  if (never) detachAll();
});

/** Whether the person's switch forbids the debugger. */
export async function neverAttach() {
  await neverRead;
  return never;
}

/** Detaches from every tab now (the person turned the debugger off). */
function detachAll() {
  for (const [tabId, st] of Array.from(tabs)) {
    if (st.idle) clearTimeout(st.idle);
    tabs.delete(tabId);
    detached(tabId);
    chrome.debugger.detach({ tabId }).catch(() => {});
  }
}

/**
 * The refusal of something that cannot work without the debugger while
 * the person's switch is on.
 * @param {string} what what was asked, as the agent would name it
 * @param {string} instead what the agent can do without the debugger
 */
export function neverError(what, instead) {
  return wireError(`${what} needs the browser's debugger, and the person set grip to never attach it ("Never attach the debugger" in grip's popup)`,
    'policy', 'user', `${instead}, or ask the person to turn "Never attach the debugger" off`);
}

/**
 * hold marks a request working on tabId, attaching first when the request
 * needs the debugger: the tab stays attached until every hold is released
 * and IDLE_DETACH_MS more have passed (CAPTURE_DETACH_MS once capture was
 * asked for). attached is false when grip is not attached (see attach).
 * - read: a read (snapshot, wait) never attaches; where grip is attached
 *   already it holds the attachment while it reads, so a dialog or a
 *   request the page starts meanwhile is still seen.
 * - required: the request cannot work without the debugger (trusted
 *   input, eval, pdf): not attaching is an error (a `policy` error under
 *   the person's switch, naming `instead`).
 * - capture: the developer tools read what the debugger captured; as
 *   required, and the tab stays attached CAPTURE_DETACH_MS after.
 * Otherwise (an action, a navigation grip makes) grip attaches if it may
 * and goes on without it if not.
 * @param {number} tabId
 * @param {{required?: boolean, read?: boolean, capture?: boolean, what?: string, instead?: string}} [opt]
 * @returns {Promise<{attached: boolean, release: () => void}>}
 */
export async function hold(tabId, opt) {
  const o = opt || {};
  const required = !!(o.required || o.capture);
  let st;
  if (await neverAttach()) {
    if (required) throw neverError(o.what || 'this request', o.instead || 'do without it');
    return { attached: false, release: () => {} };
  }
  if (o.read) {
    const there = tabs.get(tabId);
    st = there && (await there.ready) && tabs.get(tabId) === there ? there : null;
  } else {
    try {
      st = await attach(tabId, required);
    } catch (_) {
      st = null;
    }
  }
  if (!st) {
    if (required) {
      throw wireError(`cannot attach the debugger to tab ${tabId}`, 'not_actionable', 'browser',
        declined.has(tabId) ? 'the person cancelled debugging in the browser; use synthetic input (leave out --trusted)'
          : 'another extension may be debugging this tab, or policy forbids it; use synthetic input (leave out --trusted)');
    }
    return { attached: false, release: () => {} };
  }
  const state = st;
  if (o.capture) state.capture = true;
  state.holds++;
  if (state.idle) { clearTimeout(state.idle); state.idle = null; }
  let released = false;
  return {
    attached: true,
    release: () => {
      if (released) return;
      released = true;
      state.holds--;
      scheduleIdle(tabId, state);
    },
  };
}

/** @param {number} tabId @param {TabState} st */
function scheduleIdle(tabId, st) {
  if (st.holds > 0 || st.dialog || st.idle || tabs.get(tabId) !== st) return;
  st.idle = setTimeout(() => {
    st.idle = null;
    if (st.holds > 0 || st.dialog || tabs.get(tabId) !== st) return;
    tabs.delete(tabId);
    detached(tabId);
    chrome.debugger.detach({ tabId }).catch(() => {});
  }, st.capture ? CAPTURE_DETACH_MS : (Number(/** @type {any} */ (globalThis).__gripIdleDetachMs) || IDLE_DETACH_MS));
}

/**
 * Waits, after a fresh attach, for the browser's debugging bar to have
 * resized the page: trusted input computes its point after this.
 * @param {number} tabId
 */
export async function settled(tabId) {
  const st = tabs.get(tabId);
  if (!st) return;
  const left = st.attachedAt + BAR_SETTLE_MS - Date.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left));
}

/** How long caughtUp waits for a session's answer. */
const CAUGHT_UP_MS = 300;

/**
 * Resolves once the worker has had every event tabId's pages sent before
 * now (a request the click made: Network.requestWillBeSent), or after
 * CAUGHT_UP_MS for a page busy in a long task; at once when grip is not
 * attached. The events of a session and the answer to a command on it
 * come in order, while a read's result (chrome.scripting) comes by
 * another way and can pass them: a read back that found the page quiet
 * and nothing in flight had been answered before the worker was told of
 * the request the click had made, and the reply said settled with
 * nothing of the answer (CI40's TestReplyIsNotHeldByThePagesLongPoll,
 * on a loaded machine). A command on each session, answered by the page,
 * comes back after them.
 * @param {number} tabId
 */
export async function caughtUp(tabId) {
  if (!tabs.has(tabId)) return;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  await Promise.race([
    Promise.all(sessionsOf(tabId).map((s) => send(s, 'Runtime.evaluate', { expression: '0', silent: true, returnByValue: true }).catch(() => null))),
    new Promise((r) => { timer = setTimeout(r, CAUGHT_UP_MS); }),
  ]);
  clearTimeout(timer);
}

/** Whether grip is attached to tabId now. @param {number} tabId */
export function watching(tabId) {
  return tabs.has(tabId);
}

/**
 * The dialog tabId shows and waits on, or null.
 * @param {number} tabId
 * @returns {Dialog | null}
 */
export function dialogOf(tabId) {
  const st = tabs.get(tabId);
  return st ? st.dialog : null;
}

/**
 * Answers the dialog of tabId.
 * @param {number} tabId
 * @param {boolean} accept
 * @param {string} [text] a prompt's answer
 */
export async function answerDialog(tabId, accept, text) {
  /** @type {{accept: boolean, promptText?: string}} */
  const p = { accept };
  if (typeof text === 'string' && accept) p.promptText = text;
  await send({ tabId }, 'Page.handleJavaScriptDialog', p);
}

/**
 * The sessions of tabId: the tab itself, then each auto-attached
 * out-of-process frame.
 * @param {number} tabId
 * @returns {Child[]}
 */
export function children(tabId) {
  const st = tabs.get(tabId);
  return st ? Array.from(st.children.values()) : [];
}

/**
 * The sessions of a tab: itself, then its out-of-process frames.
 * @param {number} tabId
 * @returns {Session[]}
 */
export function sessionsOf(tabId) {
  return [{ tabId }, ...children(tabId).map((c) => ({ tabId, sessionId: c.sessionId }))];
}

/**
 * The sessions of tabId's dedicated workers grip is attached to.
 * @param {number} tabId
 * @returns {Session[]}
 */
export function workers(tabId) {
  const st = tabs.get(tabId);
  return st ? Array.from(st.workers.keys(), (sessionId) => ({ tabId, sessionId })) : [];
}

/**
 * Calls fn with every event of tabId's sessions until the returned
 * function is called.
 * @param {number} tabId
 * @param {(e: TabEvent) => void} fn
 * @returns {() => void}
 */
export function onTabEvent(tabId, fn) {
  const st = tabs.get(tabId);
  if (!st) return () => {};
  st.listeners.add(fn);
  return () => { st.listeners.delete(fn); };
}

/**
 * The host's cdp request: real input it built, only HOST_METHODS, sent in
 * order; after each but the last, pace may return a promise to wait for
 * (the page drawing a frame after a line break). Nothing is sent when one
 * method is not allowed.
 * @param {number} tabId
 * @param {protocol.CDPCommand[]} commands the host's (cdproto's params)
 * @param {(c: protocol.CDPCommand) => Promise<void> | undefined} [pace]
 */
export async function sendHostCommands(tabId, commands, pace) {
  for (const c of commands) {
    if (!c || !HOST_METHODS.has(c.method)) {
      throw wireError(`the extension sends only real input through the debugger; ${JSON.stringify(c && c.method)} refused`,
        'bad_request', 'payload', 'grip itself builds these commands; this is a bug or a foreign caller');
    }
  }
  const out = [];
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i];
    out.push(await send({ tabId }, c.method, /** @type {object | undefined} */ (c.params)));
    const wait = pace && i + 1 < commands.length ? pace(c) : undefined;
    if (wait) await wait;
  }
  return out;
}

/**
 * Lets a target that waits for the debugger (auto-attached with
 * waitForDebuggerOnStart) run.
 * @param {Session} s @param {any} p the attachedToTarget params
 */
function resume(s, p) {
  if (p.waitingForDebugger) send(s, 'Runtime.runIfWaitingForDebugger').catch(() => {});
}

/** The longest grip holds a target it auto-attached paused while it sets
 * the target's session up (the page's frame or worker waits meanwhile). */
const HOLD_BOUND_MS = 2000;

/**
 * Sets up an auto-attached target's session with work, then lets the
 * target run: once work is done, or HOLD_BOUND_MS after it began,
 * whichever is first, so a set-up that hangs (a session hook's command
 * the target never answers while paused) cannot hold the frame or worker
 * for good.
 * @param {Session} s @param {any} p the attachedToTarget params
 * @param {() => Promise<unknown>} work
 */
function setUpThenResume(s, p, work) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  // The e2e suite lengthens the bound (a worker-only test hook) to prove a
  // restarted worker releases what its predecessor held.
  const ms = Number(/** @type {any} */ (globalThis).__gripHoldBoundMs) || HOLD_BOUND_MS;
  const bound = new Promise((resolve) => { timer = setTimeout(resolve, ms); });
  Promise.race([work().catch(() => {}), bound]).finally(() => {
    clearTimeout(timer);
    resume(s, p);
  });
}

chrome.debugger.onEvent.addListener((src, method, params) => {
  /** @type {{tabId?: number, sessionId?: string}} */
  const source = src;
  const tabId = source.tabId;
  if (typeof tabId !== 'number') return;
  const st = tabs.get(tabId);
  if (!st) return;
  const p = /** @type {any} */ (params) || {};
  switch (method) {
    case 'Page.javascriptDialogOpening':
      st.dialog = { type: String(p.type || ''), message: String(p.message || ''), default_prompt: String(p.defaultPrompt || ''), url: String(p.url || '') };
      if (st.idle) { clearTimeout(st.idle); st.idle = null; }
      break;
    case 'Page.javascriptDialogClosed':
      st.dialog = null;
      scheduleIdle(tabId, st);
      break;
    case 'Target.attachedToTarget': {
      const info = p.targetInfo || {};
      if (info.type === 'iframe' && typeof p.sessionId === 'string') {
        st.children.set(p.sessionId, {
          sessionId: p.sessionId, targetId: String(info.targetId || ''), parent: source.sessionId,
          parentFrameId: String(info.parentFrameId || ''), url: String(info.url || ''),
        });
        const child = { tabId, sessionId: p.sessionId };
        // Windows the frame opens (Page.windowOpen) and its own frames;
        // the frame waits for them (waitForDebuggerOnStart), so the
        // requests it makes as it loads are seen too (network.js).
        setUpThenResume(child, p, async () => {
          await send(child, 'Page.enable').catch(() => {});
          await send(child, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }).catch(() => {});
          await runSessionHooks(child, 'iframe');
        });
      } else if (info.type === 'worker' && typeof p.sessionId === 'string') {
        const worker = { tabId, sessionId: p.sessionId };
        st.workers.set(p.sessionId, { sessionId: p.sessionId, url: String(info.url || '') });
        setUpThenResume(worker, p, () => runSessionHooks(worker, 'worker'));
      } else if (typeof p.sessionId === 'string') {
        resume({ tabId, sessionId: p.sessionId }, p); // nothing of grip's to set up there
      }
      break;
    }
    case 'Target.detachedFromTarget':
      if (typeof p.sessionId === 'string') { st.children.delete(p.sessionId); st.workers.delete(p.sessionId); }
      break;
  }
  /** @type {TabEvent} */
  const ev = { sessionId: source.sessionId, method, params: p };
  for (const fn of everyEvent) {
    try { fn(tabId, ev); } catch (_) { /* as below */ }
  }
  for (const fn of Array.from(st.listeners)) {
    try { fn(ev); } catch (_) { /* a listener's own bug must not stop the others */ }
  }
});

chrome.debugger.onDetach.addListener((source, reason) => {
  const tabId = source.tabId;
  if (typeof tabId !== 'number') return;
  const st = tabs.get(tabId);
  if (st && st.idle) clearTimeout(st.idle);
  tabs.delete(tabId);
  detached(tabId);
  if (reason === 'canceled_by_user') declined.add(tabId);
});

// A worker that starts finds grip attached to no tab: sessions a stopped
// worker left (Chrome keeps them past the worker) are detached, which lets
// every target they held paused for grip's debugger run. Their state was
// in that worker's memory; setUp attaches afresh when a request needs it.
chrome.debugger.getTargets().then((targets) => {
  for (const t of targets) {
    if (t.attached && typeof t.tabId === 'number' && !tabs.has(t.tabId)) {
      // Rejects, harmlessly, where the session attached is another client's.
      chrome.debugger.detach({ tabId: t.tabId }).catch(() => {});
    }
  }
}).catch(() => {});

chrome.tabs.onRemoved.addListener((tabId) => {
  tabs.delete(tabId);
  detached(tabId);
  declined.delete(tabId);
});
