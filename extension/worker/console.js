// @ts-check
// A tab's console (docs/devtools.md, "Developer tools"): what the
// page logged and the errors it did not catch, since its document loaded.
// The browser keeps them itself (V8 keeps up to 1000 console messages and
// uncaught errors per page and process; Blink its own messages: failed
// loads, blocked content, interventions), and replays them to a debugger
// that turns the Runtime and Log domains on. So a read turns them on, takes
// the replay, and turns them off again, in every session of the tab: its
// own (the top frame and frames in its process), each out-of-process frame,
// each dedicated worker. Messages logged before grip first touched the tab
// are there; nothing is injected into the page, and Runtime is never left
// on (while it is, Chrome hands the page's logged values to the debugger,
// which some pages notice).
import { hold, send, children, workers, onTabEvent } from './debugger.js';
import { tabInfo } from './tabs.js';
import { wireError } from './errors.js';
import { originOf } from './navigation.js';

/** Text of one message, at most (the host cuts further for the budget). */
const MAX_TEXT = 2000;
/** Object arguments shown with their own properties, per read: each is a
 * round trip. The rest show as the browser describes them ("Object"). */
const MAX_EXPANDED = 100;

/** @typedef {import('./debugger.js').Session} Session */
/**
 * @typedef {Object} Message
 * @property {string} level error | warning | info | debug
 * @property {string} source console | exception | browser
 * @property {string} text
 * @property {string} url where it was logged or thrown
 * @property {number} line 1-based, 0: unknown
 * @property {number} column 1-based
 * @property {number} time wall clock, ms
 * @property {string} frame_origin the origin of the frame (or worker) it came from
 * @property {boolean} [worker] it came from a dedicated worker of the page
 * @property {string[]} [stack]
 */

/** @param {string} t a console API call's type */
function levelOf(t) {
  switch (t) {
    case 'error': case 'assert': return 'error';
    case 'warning': return 'warning';
    case 'debug': case 'verbose': return 'debug';
    default: return 'info';
  }
}

/**
 * The frames of a stack trace, "fn (url:line:col)", the innermost first.
 * @param {any} st
 */
function stackOf(st) {
  if (!st || !Array.isArray(st.callFrames)) return undefined;
  return st.callFrames.slice(0, 8).map((/** @type {any} */ f) => `${f.functionName || '(anonymous)'} (${f.url}:${f.lineNumber + 1}:${f.columnNumber + 1})`);
}

/**
 * Reads one session's replay: its execution contexts (which frame, which
 * world) and what was logged in them.
 * @param {Session} s
 * @param {boolean} worker
 * @param {{expanded: number}} budget
 * @returns {Promise<Message[]>}
 */
async function readSession(s, worker, budget) {
  // The browser's own messages name no frame: they count as the session's
  // own frame's, as it is now.
  let rootOrigin = '';
  if (!worker) {
    const ft = await send(s, 'Page.getFrameTree').catch(() => null);
    rootOrigin = ft && ft.frameTree ? String(ft.frameTree.frame.securityOrigin || '') : '';
  }
  /** @type {Map<number, {origin: string, main: boolean}>} */
  const contexts = new Map();
  /** @type {{method: string, params: any}[]} */
  const events = [];
  const stop = onTabEvent(s.tabId, (e) => {
    if ((e.sessionId || '') !== (s.sessionId || '')) return;
    if (e.method === 'Runtime.executionContextCreated') {
      const c = e.params.context || {};
      const aux = c.auxData || {};
      // A worker's one context has no auxData; a frame's page world is
      // its default context; isolated worlds (grip's, other extensions')
      // are not the page's.
      contexts.set(c.id, { origin: originOf(String(c.origin || '')), main: !c.auxData || aux.isDefault === true });
    } else if (e.method === 'Runtime.consoleAPICalled' || e.method === 'Runtime.exceptionThrown' || e.method === 'Log.entryAdded') {
      events.push({ method: e.method, params: e.params });
    }
  });
  try {
    try {
      await send(s, 'Runtime.enable');
    } finally {
      await send(s, 'Runtime.disable').catch(() => {});
    }
    if (!worker) {
      try {
        await send(s, 'Log.enable');
      } finally {
        await send(s, 'Log.disable').catch(() => {});
      }
    }
    await new Promise((r) => setTimeout(r, 0)); // events still in flight
  } finally {
    stop();
  }
  /** @type {Message[]} */
  const out = [];
  for (const e of events) {
    const p = e.params;
    if (e.method === 'Runtime.consoleAPICalled') {
      const c = contexts.get(p.executionContextId);
      if (!c || !c.main) continue;
      const top = p.stackTrace && p.stackTrace.callFrames && p.stackTrace.callFrames[0];
      const text = await format(s, p.args || [], budget);
      out.push({
        level: levelOf(String(p.type)), source: 'console', text: clip(p.type === 'assert' ? 'Assertion failed: ' + text : text),
        url: top ? String(top.url || '') : '', line: top ? top.lineNumber + 1 : 0, column: top ? top.columnNumber + 1 : 0,
        time: Math.round(Number(p.timestamp) || Date.now()), frame_origin: c.origin, stack: stackOf(p.stackTrace),
      });
    } else if (e.method === 'Runtime.exceptionThrown') {
      const d = p.exceptionDetails || {};
      const c = contexts.get(d.executionContextId);
      if (d.executionContextId && c && !c.main) continue;
      const desc = d.exception && (d.exception.description || (d.exception.value !== undefined ? String(d.exception.value) : ''));
      const first = String(desc || '').split('\n')[0];
      out.push({
        level: 'error', source: 'exception', text: clip((d.text || 'Uncaught') + (first ? ' ' + first : '')),
        url: String(d.url || ''), line: Number(d.lineNumber) + 1 || 0, column: Number(d.columnNumber) + 1 || 0,
        time: Math.round(Number(p.timestamp) || Date.now()), frame_origin: c ? c.origin : rootOrigin,
        stack: stackOf(d.stackTrace),
      });
    } else {
      const l = p.entry || {};
      out.push({
        level: levelOf(String(l.level)), source: l.source === 'worker' ? 'console' : 'browser', text: clip(String(l.text || '')),
        url: String(l.url || ''), line: Number(l.lineNumber) + 1 || 0, column: 0, time: Math.round(Number(l.timestamp) || Date.now()),
        frame_origin: rootOrigin, stack: stackOf(l.stackTrace),
      });
      // A worker's messages reach the page's log too: the same message
      // read from the worker's own session is the one kept.
      if (l.source === 'worker') out[out.length - 1].worker = true;
    }
    if (worker) out[out.length - 1].worker = true;
  }
  return out;
}


/** @param {string} t */
function clip(t) {
  return t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) + '…' : t;
}

/**
 * A console call's arguments as the DevTools console writes them, roughly:
 * printf-style directives in the first string applied, then the rest
 * space-separated; objects by their own properties (read without running
 * the page's getters), as far as the budget goes.
 * @param {Session} s
 * @param {any[]} args RemoteObjects
 * @param {{expanded: number}} budget
 */
async function format(s, args, budget) {
  /** @type {string[]} */
  const parts = [];
  let i = 0;
  if (args.length > 0 && args[0].type === 'string' && /%[sdifoOc]/.test(args[0].value)) {
    const fmt = String(args[0].value);
    i = 1;
    let out = '';
    for (let k = 0; k < fmt.length; k++) {
      const ch = fmt[k];
      if (ch === '%' && k + 1 < fmt.length && 'sdifoOc%'.includes(fmt[k + 1])) {
        const d = fmt[++k];
        if (d === '%') { out += '%'; continue; }
        if (i >= args.length) { out += '%' + d; continue; }
        const a = args[i++];
        if (d === 'c') continue; // CSS: nothing to print
        if (d === 'd' || d === 'i') out += String(Math.trunc(Number(a.value)));
        else if (d === 'f') out += String(Number(a.value));
        else out += await show(s, a, budget);
        continue;
      }
      out += ch;
    }
    parts.push(out);
  }
  for (; i < args.length; i++) parts.push(await show(s, args[i], budget));
  return parts.join(' ');
}

/**
 * One RemoteObject as text.
 * @param {Session} s
 * @param {any} a
 * @param {{expanded: number}} budget
 */
async function show(s, a, budget) {
  if (!a) return '';
  if (a.type === 'string') return String(a.value);
  if (a.unserializableValue) return String(a.unserializableValue);
  if (a.type === 'undefined') return 'undefined';
  if (a.type !== 'object' && a.type !== 'function') return String(a.value);
  if (a.subtype === 'null') return 'null';
  if (a.type === 'function' || a.subtype === 'error' || a.subtype === 'node' || a.subtype === 'regexp' || a.subtype === 'date' || !a.objectId || budget.expanded <= 0) {
    return String(a.description || a.className || a.type);
  }
  if (a.preview && Array.isArray(a.preview.properties)) return previewText(a.preview, a.subtype === 'array');
  budget.expanded--;
  const r = await send(s, 'Runtime.getProperties', { objectId: a.objectId, ownProperties: true, generatePreview: false }).catch(() => null);
  if (!r || !Array.isArray(r.result)) return String(a.description || 'Object');
  const arr = a.subtype === 'array';
  /** @type {string[]} */
  const items = [];
  for (const p of r.result) {
    if (!p.enumerable || p.name === '__proto__' || (arr && p.name === 'length')) continue;
    if (items.length >= 12) { items.push('…'); break; }
    const v = p.value ? brief(p.value) : (p.get ? '(getter)' : '');
    items.push(arr ? v : `${p.name}: ${v}`);
  }
  const head = arr ? '' : (a.className && a.className !== 'Object' ? a.className + ' ' : '');
  return arr ? `[${items.join(', ')}]` : `${head}{${items.join(', ')}}`;
}

/** @param {any} v a RemoteObject, one level down */
function brief(v) {
  if (v.type === 'string') return JSON.stringify(String(v.value).slice(0, 200));
  if (v.unserializableValue) return String(v.unserializableValue);
  if (v.type === 'undefined') return 'undefined';
  if (v.type === 'object' || v.type === 'function') return v.subtype === 'null' ? 'null' : String(v.description || v.type);
  return String(v.value);
}

/** @param {any} pv an ObjectPreview @param {boolean} arr */
function previewText(pv, arr) {
  const items = pv.properties.map((/** @type {any} */ p) => {
    const v = p.type === 'string' ? JSON.stringify(String(p.value)) : String(p.value);
    return arr ? v : `${p.name}: ${v}`;
  });
  if (pv.overflow) items.push('…');
  return arr ? `[${items.join(', ')}]` : `{${items.join(', ')}}`;
}

/**
 * Every console message and uncaught error of the tab's page, oldest
 * first, with the origin of the frame each came from (the host leaves out
 * those of blocked frames).
 * @param {{tabId: number}} params
 */
export async function consoleMessages(params) {
  const { tabId } = params;
  const tab = await tabInfo(tabId);
  const held = await hold(tabId, { capture: true, what: "reading the tab's console", instead: 'read what the page shows with grip snapshot' });
  try {
    if (!held.attached) {
      throw wireError(`grip cannot read tab ${tabId}'s console: the debugger is not attached`, 'not_actionable', 'browser',
        'another debugger may be attached to the tab, or the person cancelled debugging in the browser');
    }
    const budget = { expanded: MAX_EXPANDED };
    /** @type {[Session, boolean][]} */
    const sessions = [[{ tabId }, false],
      ...children(tabId).map((c) => /** @type {[Session, boolean]} */ ([{ tabId, sessionId: c.sessionId }, false])),
      ...workers(tabId).map((w) => /** @type {[Session, boolean]} */ ([w, true]))];
    /** @type {Message[]} */
    const messages = [];
    for (const [s, worker] of sessions) {
      const got = await readSession(s, worker, budget).catch(() => /** @type {Message[]} */ ([]));
      messages.push(...got);
    }
    // A worker's message read from its own session and again from the
    // page's log (where the browser copies it) is one message.
    const fromWorkers = new Set(messages.filter((m) => m.worker && m.column > 0).map((m) => `${m.text}\n${m.url}\n${m.line}`));
    const unique = messages.filter((m) => !(m.worker && m.column === 0 && fromWorkers.has(`${m.text}\n${m.url}\n${m.line}`)));
    unique.sort((a, b) => a.time - b.time);
    return { tab: { id: tab.id, url: tab.url, title: tab.title }, messages: unique };
  } finally {
    held.release();
  }
}
