// @ts-check
// The popup's requests, answered by the worker (the popup never talks to
// the host itself): the connection, the last snapshot, and the person's
// controls (docs/person.md, "The person's controls").
import { askHost, connection, reconnect } from './native-port.js';
import { questionLines, questionText, answer, showTab } from './person.js';
import { storeEnded, storeAllowed, storeOwner, getOwners, leftItsGroup } from './sessions.js';
import { getPaused, storePaused, getShared, storeShared, getQuestions, actedAt } from './person-state.js';
import { neverAttach, NEVER_KEY } from './debugger.js';
import { messageOf } from './errors.js';
import { recordView, recordState, startRecording, finishRecording, refuseAsk, dropStep, setParam, noteSaved, wireStep } from './person-record.js';

/** The popup's calls, one handler per type of PopupCalls (popup-calls.d.ts).
 * @type {PopupHandlers} */
const HANDLERS = {
  async status() {
    const session = await chrome.storage.session.get(['errors', 'host', 'connection']);
    let host = null;
    let hostError = '';
    if (connection.state === 'connected') {
      try { host = await askHost('status', {}); } catch (err) { hostError = String(err); }
    }
    const { profileId } = await chrome.storage.local.get('profileId');
    return { connection: { ...connection }, profileId, host, hostError, errors: session.errors || [] };
  },
  async snapshot(msg) {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    const tabId = typeof msg.tabId === 'number' ? msg.tabId : tab && tab.id;
    return askHost('snapshot', { tab: tabId, budget: msg.budget || 0 });
  },
  reconnect() {
    reconnect();
    return { ok: true };
  },
  // The person's controls.
  person: (msg) => personView(Number(msg.tabId)),
  async set_paused(msg) {
    const paused = !!msg.paused;
    await storePaused(paused);
    // Not connected: the next hello carries it.
    if (connection.state === 'connected') await askHost('set_paused', { paused });
    return { paused };
  },
  // The person's "Never attach the debugger" (debugger.js NEVER_KEY): the
  // worker detaches at once when it turns on (storage.onChanged).
  async set_never_debugger(msg) {
    const never = !!msg.never;
    await chrome.storage.local.set({ [NEVER_KEY]: never });
    return { never };
  },
  async share(msg) {
    const tabId = Number(msg.tabId);
    if (!Number.isInteger(tabId) || tabId <= 0) throw new Error('share: no tab');
    await storeShared(tabId, msg.shared ? 'person' : null);
    if (connection.state === 'connected') await askHost('set_shared', { tabId, shared: !!msg.shared });
    return { ok: true };
  },
  answer: async (msg) => ({ ok: await answer(String(msg.id), !!msg.allowed) }),
  // Sessions (sessions.js).
  async end_session(msg) {
    const session = String(msg.session || '');
    if (!session) throw new Error('end_session: no session');
    await storeEnded(session);
    if (connection.state === 'connected') await askHost('end_session', { session });
    return { ok: true };
  },
  async allow_session(msg) {
    const session = String(msg.session || '');
    if (!session) throw new Error('allow_session: no session');
    await storeAllowed(session);
    if (connection.state === 'connected') await askHost('allow_session', { session });
    return { ok: true };
  },
  async release(msg) {
    const tabId = Number(msg.tabId);
    if (!Number.isInteger(tabId) || tabId <= 0) throw new Error('release: no tab');
    await chrome.tabs.ungroup(tabId).catch(() => {});
    await handToPerson(tabId);
    return { ok: true };
  },
  async show_tab(msg) {
    const tabId = Number(msg.tabId);
    if (!Number.isInteger(tabId) || tabId <= 0) throw new Error('show_tab: no tab');
    await showTab(tabId);
    return { ok: true };
  },
  // Recording by demonstration (person-record.js).
  record_view: () => recordView(),
  async record_start(msg) {
    const tabId = Number(msg.tabId);
    if (!Number.isInteger(tabId) || tabId <= 0) throw new Error('record: no tab');
    return startRecording(tabId);
  },
  async record_finish(msg) {
    // Done on a recording the person started: the host writes it into
    // grip's output folder, and only then does the recording end, so a
    // refusal (the name is taken, grip is not connected) loses no step.
    const { recording } = await recordState();
    if (!msg.done || !recording || recording.ask) return finishRecording(!!msg.done);
    if (connection.state !== 'connected') throw new Error('grip is not connected to its host: press Done again once it is (the steps are kept)');
    const res = await askHost('save_recording', { name: typeof msg.name === 'string' ? msg.name : '', tabId: recording.tabId, steps: recording.steps.map(wireStep) });
    await finishRecording(false);
    const cut = Math.max(res.path.lastIndexOf('/'), res.path.lastIndexOf('\\'));
    const notes = [];
    if (res.params && res.params.length) notes.push(`each replay asks for ${res.params.join(', ')}`);
    if (res.refused) notes.push(`${res.refused} on sites closed to agents left out`);
    await noteSaved(`Saved ${res.steps} steps as ${res.path.slice(cut + 1)}` + (notes.length ? ` (${notes.join('; ')})` : '') +
      ` in grip's folder ${res.path.slice(0, cut + 1)}. An agent replays it by that name (browser_replay), or: grip replay FILE.`);
    return { ok: true, path: res.path, steps: res.steps };
  },
  record_refuse: (msg) => refuseAsk(String(msg.id || '')),
  record_drop: (msg) => dropStep(Number(msg.index)),
  record_param: (msg) => setParam(Number(msg.index), String(msg.name || '')),
};

/**
 * Whether the policy closes url to agents: the person's steps there are
 * not recorded (person-record.js). Not connected, the host decides at Done.
 * @param {number} tabId
 * @param {string} url
 */
export async function blockedSite(tabId, url) {
  if (connection.state !== 'connected') return false;
  try {
    /** @type {protocol.PersonView} */
    const v = await askHost('user_view', { tabId, url });
    return !!(v && v.decision && v.decision.rule === 'block');
  } catch (_) {
    return false;
  }
}

/** Answers one message of the popup through its handler.
 * @param {any} msg */
export async function popupRequest(msg) {
  const type = msg && msg.type;
  if (typeof type !== 'string' || !Object.hasOwn(HANDLERS, type)) {
    throw new Error(`unknown popup request ${JSON.stringify(type)}`);
  }
  return /** @type {(m: any) => any} */ (HANDLERS[/** @type {PopupType} */ (type)])(msg);
}

/**
 * Hands a session's tab to the person: no session owns it from now on.
 * @param {number} tabId
 */
async function handToPerson(tabId) {
  await storeOwner(tabId, null);
  if (connection.state === 'connected') await askHost('release_tab', { tabId }).catch(() => {});
}

/**
 * A tab's group changed: a session's tab the person took out of its group
 * is theirs now (docs/sessions.md, "Sessions").
 * @param {number} tabId
 * @param {chrome.tabs.TabChangeInfo} change
 * @param {chrome.tabs.Tab} tab
 */
export async function tabRegrouped(tabId, change, tab) {
  if (await leftItsGroup(tabId, change, tab)) await handToPerson(tabId);
}

/**
 * Everything the popup shows of the person's controls for one tab.
 * @param {number} tabId
 */
async function personView(tabId) {
  const paused = await getPaused();
  const shared = await getShared();
  const questions = (await getQuestions()).map((q) => ({ ...q, ...questionLines(q), text: questionText(q) }));
  let url = '';
  if (Number.isInteger(tabId) && tabId > 0) {
    const t = await chrome.tabs.get(tabId).catch(() => null);
    url = t ? t.url || t.pendingUrl || '' : '';
  }
  /** @type {protocol.PersonView | null} */
  let host = null;
  let hostError = '';
  if (connection.state === 'connected') {
    try { host = await askHost('user_view', { tabId, url }); } catch (err) { hostError = messageOf(err); }
  }
  return {
    paused, questions, host, hostError,
    shared: !!shared[String(tabId)], sharedBy: shared[String(tabId)] || '',
    owner: (await getOwners())[String(tabId)] || '',
    actedAt: await actedAt(tabId),
    neverDebugger: await neverAttach(),
  };
}
