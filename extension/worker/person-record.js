// @ts-check
// Recording by demonstration in the worker (docs/workflows.md,
// "Recorded workflows"): the person shows a task once in one tab, started
// from the popup (Record what I do) or when an agent asks
// (record_person). The kernel of each of the tab's documents listens
// (kernel/listen.js) and sends each step here; the worker adds the tab's
// URLs, the navigations the person made themselves (the address bar,
// back, forward, reload) and where a step took the tab, and keeps the
// steps in chrome.storage.session, where the popup shows them and the
// person drops one or makes a typed value a parameter. At Done the steps
// go to the host, which writes the workflow: to the agent that asked, or
// (popup-api.js sends them) into grip's output folder.
import { runKernel } from './inject.js';
import { renderBadge } from './person-state.js';

const KEY = 'personRecording';

/**
 * @typedef {{verb: string, target?: PersonTarget, to?: PersonTarget, text?: string, hasText?: boolean,
 *   secret?: boolean, file?: boolean, param?: string, frameUrl?: string, tabUrl?: string,
 *   afterUrl?: string, appeared?: PersonTarget, seq?: string}} Step
 * @typedef {{id: string, client: string, session: string, file: string, expires: number}} Ask
 * @typedef {{id: string, tabId: number, startedAt: number, steps: Step[], urls: string[], ask?: Ask}} Recording
 * @typedef {{recording: Recording | null, ask: Ask | null, saved: string}} RecordState
 */

/**
 * The reply each agent's request waits for, by its id. In memory: it
 * lives as long as the host's request, and both end with the worker.
 * @type {Map<string, (reply: protocol.RecordPersonReply) => void>}
 */
const waiting = new Map();

/** @returns {Promise<RecordState>} */
export async function recordState() {
  const got = await chrome.storage.session.get(KEY);
  const st = got[KEY];
  return st && typeof st === 'object' ? { recording: st.recording || null, ask: st.ask || null, saved: st.saved || '' } : { recording: null, ask: null, saved: '' };
}

/** @param {RecordState} st */
async function storeState(st) {
  await chrome.storage.session.set({ [KEY]: st });
  await renderBadge();
}

/** One change of the state at a time: steps arrive while the popup edits.
 * @type {Promise<unknown>} */
let chain = Promise.resolve();

/**
 * @template T
 * @param {(st: RecordState) => T | Promise<T>} change
 * @returns {Promise<T>}
 */
function update(change) {
  const run = chain.then(async () => {
    const st = await recordState();
    const out = await change(st);
    await storeState(st);
    return out;
  });
  chain = run.catch(() => {});
  return run;
}

/**
 * An agent asks the person to show a task (the host's record_person):
 * the popup shows the request until the person starts recording or
 * refuses; the reply comes at their Done, their refusal, or the timeout.
 * @param {protocol.RecordPersonParams} p
 * @returns {Promise<protocol.RecordPersonReply>}
 */
export async function recordPerson(p) {
  const timeoutMs = Math.max(1000, Math.min(3600000, Number(p.timeoutMs) || 600000));
  /** @type {Ask} */
  const ask = { id: String(p.id || crypto.randomUUID()), client: String(p.client || 'an agent'), session: String(p.session || ''),
    file: String(p.file || ''), expires: Date.now() + timeoutMs };
  const reply = new Promise((resolve) => {
    const timer = setTimeout(() => { endAsk(ask.id, { done: false, timedOut: true }); }, timeoutMs);
    waiting.set(ask.id, (r) => { clearTimeout(timer); resolve(r); });
  });
  const busy = await update((st) => {
    if (st.ask || (st.recording && st.recording.ask)) return true;
    if (st.recording) st.recording.ask = ask; else st.ask = ask;
    return false;
  });
  if (busy) {
    waiting.delete(ask.id);
    throw new Error('the person is already showing a task to another agent; ask again when they are done');
  }
  return /** @type {Promise<protocol.RecordPersonReply>} */ (reply);
}

/**
 * Ends an agent's request with a reply, and the recording that answers
 * it; false when it is not open.
 * @param {string} id
 * @param {protocol.RecordPersonReply} reply
 */
async function endAsk(id, reply) {
  const listening = await update((st) => {
    if (st.ask && st.ask.id === id) st.ask = null;
    const rec = st.recording;
    if (rec && rec.ask && rec.ask.id === id) {
      st.recording = null;
      return rec;
    }
    return null;
  });
  if (listening) await listenIn(listening.tabId, '');
  const done = waiting.get(id);
  waiting.delete(id);
  if (!done) return false;
  done(reply);
  return true;
}

/**
 * The person pressed Record what I do on a tab: the kernel of each of its
 * documents listens from now on.
 * @param {number} tabId
 */
export async function startRecording(tabId) {
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (!tab) throw new Error('record: no such tab');
  const id = crypto.randomUUID();
  await update((st) => {
    if (st.recording) throw new Error('already recording a tab: press Done or Cancel first');
    st.recording = { id, tabId, startedAt: Date.now(), steps: [], urls: [tab.url || ''] };
    if (st.ask) { st.recording.ask = st.ask; st.ask = null; }
    st.saved = '';
  });
  await listenIn(tabId, id);
  return { ok: true };
}

/**
 * Tells the kernel of every document of the tab to listen for the
 * recording rec ('' stops). A page grip may not script stays silent.
 * @param {number} tabId
 * @param {string} rec
 * @param {number} [frameId] only this frame
 */
async function listenIn(tabId, rec, frameId) {
  /** @type {chrome.scripting.InjectionTarget} */
  const target = typeof frameId === 'number' ? { tabId, frameIds: [frameId] } : { tabId, allFrames: true };
  await runKernel(target, { op: 'listen', rec }).catch(() => {});
}

/**
 * The recording ends: Done (done) answers the agent that asked with its
 * steps, Cancel with none; a recording the person started is saved
 * before it ends (popup-api.js).
 * @param {boolean} done
 * @returns {Promise<{ok: boolean, steps?: number}>}
 */
export async function finishRecording(done) {
  const rec = await update((st) => {
    const r = st.recording;
    st.recording = null;
    return r;
  });
  if (!rec) return { ok: false };
  await listenIn(rec.tabId, '');
  const steps = rec.steps.map(wireStep);
  if (rec.ask) {
    const reply = done ? { done: true, tabId: rec.tabId, steps } : { done: false };
    const ask = rec.ask;
    const answer = waiting.get(ask.id);
    waiting.delete(ask.id);
    if (answer) answer(reply);
    const saved = done ? `Sent ${steps.length} steps to ${ask.client}` + (ask.file ? ` (${ask.file}).` : '.') : '';
    await update((st) => { st.saved = saved; });
    return { ok: true, steps: steps.length };
  }
  return { ok: true };
}

/** What the popup says after a recording ended. @param {string} text */
export async function noteSaved(text) {
  await update((st) => { st.saved = text; });
}

/** A step as the host takes it. @param {Step} s @returns {protocol.PersonStep} */
export function wireStep(s) {
  const out = { ...s };
  delete out.seq;
  return /** @type {protocol.PersonStep} */ (out);
}

/** The person refused an agent's request before recording. @param {string} id */
export async function refuseAsk(id) {
  return { ok: await endAsk(id, { done: false }) };
}

/** The person dropped step i. @param {number} i */
export async function dropStep(i) {
  await update((st) => {
    if (st.recording && i >= 0 && i < st.recording.steps.length) st.recording.steps.splice(i, 1);
  });
  return { ok: true };
}

/** The person made step i's text a parameter named name ('' undoes it).
 * @param {number} i @param {string} name */
export async function setParam(i, name) {
  const clean = String(name || '').toUpperCase().replace(/[^A-Z0-9_]+/g, '_').replace(/^[^A-Z]+/, '').slice(0, 40);
  await update((st) => {
    const s = st.recording && st.recording.steps[i];
    if (!s) return;
    if (clean) s.param = clean; else delete s.param;
  });
  return { ok: true };
}

/**
 * A step from a listening kernel: only from a document of the tab being
 * recorded, for this recording, and not on a site the policy closes to
 * agents (blocked answers that; the host leaves such steps out again at
 * Done, whatever the worker kept).
 * @param {any} msg
 * @param {chrome.runtime.MessageSender} sender
 * @param {(tabId: number, url: string) => Promise<boolean>} blocked
 */
export async function pageStep(msg, sender, blocked) {
  const tabId = sender.tab && sender.tab.id;
  if (typeof tabId !== 'number' || typeof msg.rec !== 'string' || msg.rec === '') return;
  const key = `${sender.documentId || sender.frameId}:${Number(msg.seq)}`;
  // Queued at once, in the order the steps arrived: a link's click comes
  // before the navigation it starts commits (navigationCommitted), which
  // must find the click already kept to give it its `then url`.
  await update(async (st) => {
    const rec = st.recording;
    if (!rec || rec.id !== msg.rec || rec.tabId !== tabId) return;
    for (const url of [sender.url || '', (sender.tab && sender.tab.url) || '']) {
      if (/^(https?|file):/i.test(url) && await blocked(tabId, url)) return;
    }
    if (msg.type === 'person_effect') {
      const s = rec.steps.find((x) => x.seq === key);
      if (s && !s.afterUrl && msg.appeared && typeof msg.appeared.role === 'string') {
        s.appeared = { role: String(msg.appeared.role), name: String(msg.appeared.name || '') };
      }
      return;
    }
    const p = msg.step || {};
    /** @type {Step} */
    const step = { verb: String(p.verb || ''), seq: key, frameUrl: sender.url || '', tabUrl: (sender.tab && sender.tab.url) || '' };
    if (p.target) step.target = targetOf(p.target);
    if (p.to) step.to = targetOf(p.to);
    if (p.secret) step.secret = true;
    else if (typeof p.text === 'string') step.text = p.text;
    if (p.hasText) step.hasText = true;
    if (p.file) step.file = true;
    const last = rec.steps[rec.steps.length - 1];
    // Typing on: the field's last text is the step.
    if (last && step.verb === 'fill' && last.verb === 'fill' && sameTarget(last, step)) {
      rec.steps[rec.steps.length - 1] = { ...step, ...(last.param ? { param: last.param } : {}) };
      return;
    }
    // A double click is one step, not its two clicks.
    if (step.verb === 'dblclick') {
      while (rec.steps.length > 0 && rec.steps[rec.steps.length - 1].verb === 'click' && sameTarget(rec.steps[rec.steps.length - 1], step)) rec.steps.pop();
    }
    rec.steps.push(step);
  });
}

/** @param {any} t @returns {PersonTarget} */
function targetOf(t) {
  return { role: String(t.role || ''), name: String(t.name || ''), ...(t.ctx ? { ctx: String(t.ctx) } : {}) };
}

/** @param {Step} a @param {Step} b */
function sameTarget(a, b) {
  return !!a.target && !!b.target && a.frameUrl === b.frameUrl && a.target.role === b.target.role &&
    a.target.name === b.target.name && (a.target.ctx || '') === (b.target.ctx || '');
}

/**
 * A document of the tab being recorded committed: the person's own
 * navigation (the address bar, a bookmark, back or forward, reload) is a
 * step; one a step caused (a link, a form) is that step's effect.
 * @param {chrome.webNavigation.WebNavigationTransitionCallbackDetails} d
 */
export async function navigationCommitted(d) {
  if (d.frameId !== 0) return;
  await update((st) => {
    const rec = st.recording;
    if (!rec || rec.tabId !== d.tabId) return;
    const q = d.transitionQualifiers || [];
    const before = rec.urls[rec.urls.length - 1] || '';
    if (q.includes('forward_back')) {
      const back = rec.urls.length >= 2 && rec.urls[rec.urls.length - 2] === d.url;
      rec.steps.push({ verb: back ? 'back' : 'forward', tabUrl: before, afterUrl: d.url });
      if (back) rec.urls.pop(); else rec.urls.push(d.url);
      return;
    }
    rec.urls.push(d.url);
    if (d.transitionType === 'reload') {
      rec.steps.push({ verb: 'reload', tabUrl: before, afterUrl: d.url });
    } else if (q.includes('from_address_bar') || ['typed', 'auto_bookmark', 'generated', 'keyword'].includes(d.transitionType)) {
      rec.steps.push({ verb: 'navigate', text: d.url, hasText: true, tabUrl: before, afterUrl: d.url });
    } else {
      const last = rec.steps[rec.steps.length - 1];
      if (last && !last.afterUrl) { last.afterUrl = d.url; delete last.appeared; }
    }
  });
}

/**
 * A document of the tab being recorded is ready: its kernel listens too.
 * @param {chrome.webNavigation.WebNavigationFramedCallbackDetails} d
 */
export async function documentReady(d) {
  const { recording } = await recordState();
  if (recording && recording.tabId === d.tabId) await listenIn(d.tabId, recording.id, d.frameId);
}

/** The tab being recorded closed: the recording is cancelled. @param {number} tabId */
export async function tabClosed(tabId) {
  const { recording } = await recordState();
  if (recording && recording.tabId === tabId) await finishRecording(false);
}

/** What the popup shows: the agent's request, the recording's steps. */
export async function recordView() {
  const st = await recordState();
  return {
    ask: st.ask,
    saved: st.saved,
    recording: st.recording && {
      tabId: st.recording.tabId, startedAt: st.recording.startedAt, ask: st.recording.ask || null,
      steps: st.recording.steps.map(wireStep),
    },
  };
}

/** After the worker (re)starts: an agent's request died with its host
 * request, and the listening kernels go on with the same recording. */
export async function restoreRecording() {
  await update((st) => {
    st.ask = null;
    if (st.recording && st.recording.ask) st.recording = null;
  });
}
