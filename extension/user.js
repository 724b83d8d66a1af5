// @ts-check
// The person's controls in the worker (docs/ARCHITECTURE.md, "The person's
// controls"): the host's requests about them (a tab's frames for the
// policy, the pause changed by grip pause/resume, a question for the
// person, an agent acted, an agent opened a tab) and the popup's (the
// pause button, "Let agents use this tab", Allow and Deny). The host
// enforces; the worker keeps the switches, asks the person and draws the
// badge.
import { askHost, connection } from './native-port.js';
import {
  getPaused, storePaused, getShared, storeShared, getQuestions, storeQuestions, markActed, actedAt,
} from './user-state.js';
import { ownTab, endSession, releaseTab, getOwners } from './sessions.js';

const NOTIFICATION_PREFIX = 'grip-question-';
const ICON = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAARUlEQVR42mNgGAVQIFX84j898agDRh0w6gCiHUApGD4OGPAoGHXAoHXAgCfCQZsLRh0w6oDh44DR9sCoA0YdQDcHjFgAAOPdBFnbZGF6AAAAAElFTkSuQmCC';

/**
 * The answer each open question waits for. In memory only: a question
 * lives as long as the host's request that asked it, and both end when
 * the worker does.
 * @type {Map<string, (answer: {allowed: boolean, timedOut?: boolean}) => void>}
 */
const waiting = new Map();

/**
 * @param {string} type
 * @param {any} params
 */
export async function handleUserHostRequest(type, params) {
  switch (type) {
    case 'frames': return { frames: await tabFrames(params.tabId) };
    case 'paused': await storePaused(!!params.paused); return { ok: true };
    case 'confirm': return ask(params);
    case 'acted': await markActed(params.tabId); return { ok: true };
    case 'share_tab': await ownTab(params.tabId, String(params.session || '')); return { ok: true };
    default: throw Object.assign(new Error(`unknown request ${JSON.stringify(type)}`), { code: 'bad_request', boundary: 'payload' });
  }
}

/**
 * Every frame of a tab with its parent and URL: the host decides each
 * frame's rule by its own origin, or its parent's for about:blank.
 * @param {number} tabId
 */
async function tabFrames(tabId) {
  let frames;
  try {
    frames = await chrome.webNavigation.getAllFrames({ tabId });
  } catch (err) {
    throw Object.assign(new Error(`no tab ${tabId}: ${err}`), { code: 'bad_request', boundary: 'payload', hint: 'list tabs with grip tabs' });
  }
  return (frames || []).map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, documentId: f.documentId || '', url: f.url || '' }));
}

/**
 * Puts a question to the person: a notification with Allow and Deny, and
 * the popup; resolves with their answer, or timedOut after timeoutMs.
 * @param {any} params a ConfirmParams
 * @returns {Promise<{allowed: boolean, timedOut?: boolean}>}
 */
async function ask(params) {
  const timeoutMs = Math.max(1000, Math.min(600000, Number(params.timeoutMs) || 60000));
  /** @type {import('./user-state.js').Question} */
  const q = {
    id: String(params.id || crypto.randomUUID()),
    tabId: typeof params.tabId === 'number' ? params.tabId : undefined,
    origin: String(params.origin || ''),
    action: String(params.action || ''),
    target: String(params.target || ''),
    detail: String(params.detail || ''),
    client: String(params.client || 'an agent'),
    rule: String(params.rule || ''),
    session: String(params.session || ''),
    kind: params.kind === 'handoff' ? 'handoff' : '',
    expires: Date.now() + timeoutMs,
  };
  const answer = new Promise((resolve) => {
    const timer = setTimeout(() => { settle(q.id, { allowed: false, timedOut: true }); }, timeoutMs);
    waiting.set(q.id, (a) => { clearTimeout(timer); resolve(a); });
  });
  await storeQuestions([...(await getQuestions()), q]);
  notify(q);
  return /** @type {Promise<{allowed: boolean, timedOut?: boolean}>} */ (answer);
}

/**
 * The question as one sentence: "Allow claude-code to click @e3: [button
 * 'Delete'] on https://admin.example.com?"
 * @param {import('./user-state.js').Question} q
 */
export function questionText(q) {
  if (q.kind === 'handoff') return handoffText(q);
  let what = q.action === 'resume' ? 'resume (agents may act again)' : q.action;
  if (q.target) what += ` ${q.target}`;
  if (q.detail && q.action !== 'resume') what += ` (${q.detail})`;
  const where = q.origin ? ` on ${q.origin}` : '';
  return `Allow ${q.client} to ${what}${where}?`;
}

/**
 * A step handed to the person: "claude-code-4812 asks you to: solve the
 * CAPTCHA (on https://shop.example)".
 * @param {import('./user-state.js').Question} q
 */
function handoffText(q) {
  const who = q.session && q.session !== q.client ? `${q.client} (session ${q.session})` : q.client;
  const where = q.origin ? ` (on ${q.origin})` : '';
  return `${who} asks you to: ${q.detail}${where}. Press Done when you have, or Refuse.`;
}

/** @param {import('./user-state.js').Question} q */
function notify(q) {
  const handoff = q.kind === 'handoff';
  try {
    chrome.notifications.create(NOTIFICATION_PREFIX + q.id, {
      type: 'basic',
      iconUrl: ICON,
      title: handoff ? 'grip: an agent hands you a step' : 'grip: an agent asks',
      message: questionText(q),
      contextMessage: handoff ? 'click to show the tab' : q.rule ? `policy: ${q.rule}` : 'grip',
      buttons: handoff ? [{ title: 'Done' }, { title: 'Refuse' }] : [{ title: 'Allow' }, { title: 'Deny' }],
      requireInteraction: true,
      priority: 2,
    }, () => { void chrome.runtime.lastError; });
  } catch (_) { /* no notifications here: the popup still asks */ }
}

/**
 * Ends a question with an answer; false when it is not open (answered,
 * timed out, or asked by a worker that is gone).
 * @param {string} id
 * @param {{allowed: boolean, timedOut?: boolean}} answer
 */
async function settle(id, answer) {
  const done = waiting.get(id);
  waiting.delete(id);
  await storeQuestions((await getQuestions()).filter((q) => q.id !== id));
  try { chrome.notifications.clear(NOTIFICATION_PREFIX + id, () => { void chrome.runtime.lastError; }); } catch (_) { /* none shown */ }
  if (!done) return false;
  done(answer);
  return true;
}

/**
 * A notification button: 0 is Allow, 1 is Deny.
 * @param {string} notificationId
 * @param {number} buttonIndex
 */
export function onNotificationButton(notificationId, buttonIndex) {
  if (!notificationId.startsWith(NOTIFICATION_PREFIX)) return;
  settle(notificationId.slice(NOTIFICATION_PREFIX.length), { allowed: buttonIndex === 0 });
}

/**
 * A click on a handoff's notification shows its tab: the person asked to
 * see it, so this is the one place grip brings a tab to the front.
 * @param {string} notificationId
 */
export async function onNotificationClicked(notificationId) {
  if (!notificationId.startsWith(NOTIFICATION_PREFIX)) return;
  const id = notificationId.slice(NOTIFICATION_PREFIX.length);
  const q = (await getQuestions()).find((x) => x.id === id);
  if (q && typeof q.tabId === 'number') await showTab(q.tabId);
}

/** Brings a tab and its window to the front, for the person. @param {number} tabId */
async function showTab(tabId) {
  const t = await chrome.tabs.update(tabId, { active: true }).catch(() => null);
  if (t && typeof t.windowId === 'number') await chrome.windows.update(t.windowId, { focused: true }).catch(() => {});
}

/**
 * A notification the person closed is a no.
 * @param {string} notificationId
 * @param {boolean} byUser
 */
export function onNotificationClosed(notificationId, byUser) {
  if (!byUser || !notificationId.startsWith(NOTIFICATION_PREFIX)) return;
  settle(notificationId.slice(NOTIFICATION_PREFIX.length), { allowed: false });
}

/** @param {number} tabId */
export async function forgetTab(tabId) {
  await storeShared(tabId, null);
}

/**
 * The popup's requests about the person's controls.
 * @param {any} msg
 */
export async function userPopupRequest(msg) {
  switch (msg && msg.type) {
    case 'user': return userView(Number(msg.tabId));
    case 'set_paused': {
      const paused = !!msg.paused;
      await storePaused(paused);
      // Not connected: the next hello carries it.
      if (connection.state === 'connected') await askHost('set_paused', { paused });
      return { paused };
    }
    case 'share': {
      const tabId = Number(msg.tabId);
      if (!Number.isInteger(tabId) || tabId <= 0) throw new Error('share: no tab');
      await storeShared(tabId, msg.shared ? 'person' : null);
      if (connection.state === 'connected') await askHost('set_shared', { tabId, shared: !!msg.shared });
      return { ok: true };
    }
    case 'answer': {
      const settled = await settle(String(msg.id), { allowed: !!msg.allowed });
      return { ok: settled };
    }
    case 'end_session': return endSession(String(msg.session || ''));
    case 'release': {
      const tabId = Number(msg.tabId);
      if (!Number.isInteger(tabId) || tabId <= 0) throw new Error('release: no tab');
      if (typeof chrome.tabs.ungroup === 'function') await chrome.tabs.ungroup(tabId).catch(() => {});
      await releaseTab(tabId);
      return { ok: true };
    }
    case 'show_tab': {
      const tabId = Number(msg.tabId);
      if (!Number.isInteger(tabId) || tabId <= 0) throw new Error('show_tab: no tab');
      await showTab(tabId);
      return { ok: true };
    }
    default:
      throw new Error(`unknown popup request ${JSON.stringify(msg && msg.type)}`);
  }
}

/**
 * Everything the popup shows of the person's controls for one tab.
 * @param {number} tabId
 */
async function userView(tabId) {
  const paused = await getPaused();
  const shared = await getShared();
  const questions = (await getQuestions()).map((q) => ({ ...q, text: questionText(q) }));
  let url = '';
  if (Number.isInteger(tabId) && tabId > 0) {
    const t = await chrome.tabs.get(tabId).catch(() => null);
    url = t ? t.url || t.pendingUrl || '' : '';
  }
  let host = null;
  let hostError = '';
  if (connection.state === 'connected') {
    try { host = await askHost('user_view', { tabId, url }); } catch (err) { hostError = String(err && err.message || err); }
  }
  return {
    paused, questions, host, hostError,
    shared: !!shared[String(tabId)], sharedBy: shared[String(tabId)] || '',
    owner: (await getOwners())[String(tabId)] || '',
    actedAt: await actedAt(tabId),
  };
}
