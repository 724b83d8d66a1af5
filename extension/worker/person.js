// @ts-check
// The person's controls in the worker (docs/person.md, "The person's
// controls"): what the host's requests about them need (a tab's frames for
// the policy, a question for the person; router.js answers the pause, the
// acted mark and a shared tab straight from person-state.js) and the
// person's answers from a notification or the popup (popup-api.js). The
// host enforces; the worker keeps the switches, asks the person and draws
// the badge.
import { getQuestions, storeQuestions, storeShared } from './person-state.js';
import { wireError } from './errors.js';

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
 * Every frame of a tab with its parent and URL: the host decides each
 * frame's rule by its own origin, or its parent's for about:blank.
 * @param {number} tabId
 * @returns {Promise<protocol.FrameInfo[]>}
 */
export async function tabFrames(tabId) {
  let frames;
  try {
    frames = await chrome.webNavigation.getAllFrames({ tabId });
  } catch (err) {
    throw wireError(`no tab ${tabId}: ${err}`, 'bad_request', 'payload', 'list tabs with grip tabs');
  }
  return (frames || []).map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, documentId: f.documentId || '', url: f.url || '' }));
}

/**
 * Puts a question to the person: a notification with Allow and Deny, and
 * the popup; resolves with their answer, or timedOut after timeoutMs.
 * @param {protocol.ConfirmParams} params
 * @returns {Promise<protocol.ConfirmReply>}
 */
export async function ask(params) {
  const timeoutMs = Math.max(1000, Math.min(600000, Number(params.timeoutMs) || 60000));
  /** @type {import('./person-state.js').Question} */
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
  return /** @type {Promise<protocol.ConfirmReply>} */ (answer);
}

/** The most of a target's line a question shows: the element's name is
 * the page's to choose, and a long one must not crowd out the rest. */
const TARGET_MAX = 120;

/**
 * The question in two parts, the site first: where the action lands
 * ("On https://admin.example.com"), on its own line so that nothing the
 * page controls (an element's name) can push it out of view, then what is
 * asked ("Allow claude-code to click @e3: [button 'Delete']?").
 * @param {import('./person-state.js').Question} q
 * @returns {{where: string, what: string}}
 */
export function questionLines(q) {
  if (q.kind === 'handoff') return handoffLines(q);
  let what = q.action === 'resume' ? 'resume (agents may act again)' : oneLine(q.action);
  if (q.target) {
    const target = oneLine(q.target);
    what += ` ${target.length > TARGET_MAX ? target.slice(0, TARGET_MAX - 1) + '…' : target}`;
  }
  if (q.detail && q.action !== 'resume') what += ` (${oneLine(q.detail)})`;
  const where = q.origin ? `On ${oneLine(q.origin)}` : 'In grip itself';
  return { where, what: `Allow ${oneLine(q.client)} to ${what}?` };
}

/**
 * A step handed to the person (grip handoff), the site first as for a
 * question: "On https://shop.example" / "claude-code-4812 asks you to:
 * solve the CAPTCHA. Press Done when you have, or Refuse."
 * @param {import('./person-state.js').Question} q
 * @returns {{where: string, what: string}}
 */
function handoffLines(q) {
  const who = q.session && q.session !== q.client ? `${oneLine(q.client)} (session ${oneLine(q.session)})` : oneLine(q.client);
  const where = q.origin ? `On ${oneLine(q.origin)}` : 'In grip itself';
  return { where, what: `${who} asks you to: ${oneLine(q.detail || '')}. Press Done when you have, or Refuse.` };
}

/**
 * The question as the notification and the popup put it: the site on the
 * first line, the question on the second.
 * @param {import('./person-state.js').Question} q
 */
export function questionText(q) {
  const { where, what } = questionLines(q);
  return `${where}\n${what}`;
}

/** Control characters and line breaks folded to spaces.
 * @param {string} s */
function oneLine(s) {
  // eslint-disable-next-line no-control-regex -- folding control characters is the point
  return String(s).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ');
}

/** @param {import('./person-state.js').Question} q */
function notify(q) {
  const handoff = q.kind === 'handoff';
  try {
    chrome.notifications.create(NOTIFICATION_PREFIX + q.id, {
      type: 'basic',
      iconUrl: ICON,
      // The site is the title, the first thing shown; the question below.
      title: questionLines(q).where,
      message: questionLines(q).what,
      contextMessage: handoff ? 'an agent hands you a step: click to show the tab' : q.rule ? `policy: ${q.rule}` : 'grip',
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
 * see it, so this is one of the two places grip brings a tab to the front
 * (docs/sessions.md, "Background work").
 * @param {string} notificationId
 */
export async function onNotificationClicked(notificationId) {
  if (!notificationId.startsWith(NOTIFICATION_PREFIX)) return;
  const id = notificationId.slice(NOTIFICATION_PREFIX.length);
  const q = (await getQuestions()).find((x) => x.id === id);
  if (q && q.kind === 'handoff' && typeof q.tabId === 'number') await showTab(q.tabId);
}

/** Brings a tab and its window to the front, for the person. @param {number} tabId */
export async function showTab(tabId) {
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
 * The person's Allow or Deny from the popup; false when the question is no
 * longer open.
 * @param {string} id
 * @param {boolean} allowed
 */
export function answer(id, allowed) {
  return settle(id, { allowed });
}
