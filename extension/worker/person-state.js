// @ts-check
// The person's switches as the worker keeps them (docs/person.md,
// "The person's controls"), in chrome.storage because the worker can be
// stopped at any time: the pause (local: it survives browser restarts and
// goes to every new host in the hello, so a host never starts unpaused by
// mistake), the tabs shared with agents and the questions waiting for the
// person (session: tab ids and questions die with the browser), and the
// icon's badge that shows them.

/** How long the badge marks a tab after an agent acted on it. */
export const ACTED_MS = 5000;

/** @returns {Promise<boolean>} */
export async function getPaused() {
  const got = await chrome.storage.local.get('paused');
  return got.paused === true;
}

/** @returns {Promise<string>} the agent session that paused ('': the person) */
export async function getPausedBy() {
  const got = await chrome.storage.local.get('pausedBy');
  return typeof got.pausedBy === 'string' ? got.pausedBy : '';
}

/**
 * @param {boolean} paused
 * @param {string} [by] the agent session that pauses ('': the person),
 *   kept with the pause so a new host still says whose pause it is
 */
export async function storePaused(paused, by = '') {
  await chrome.storage.local.set({ paused: !!paused, pausedBy: paused ? by : '' });
  await renderBadge();
}

/**
 * The tabs shared with agents: tab id → who shared it ('person', or
 * 'agent' for a tab an agent opened).
 * @returns {Promise<Record<string, string>>}
 */
export async function getShared() {
  const got = await chrome.storage.session.get('shared');
  return got.shared && typeof got.shared === 'object' ? got.shared : {};
}

/**
 * @param {number} tabId
 * @param {string | null} by who shares it, or null to stop sharing
 */
export async function storeShared(tabId, by) {
  const shared = await getShared();
  if (by) shared[String(tabId)] = by; else delete shared[String(tabId)];
  await chrome.storage.session.set({ shared });
}

/** What the hello tells a new host about the person's switches. */
export async function helloState() {
  const shared = await getShared();
  return {
    paused: await getPaused(),
    paused_by: await getPausedBy(),
    shared_tabs: Object.keys(shared).map(Number).filter((n) => Number.isInteger(n) && n > 0),
  };
}

/**
 * @typedef {{id: string, tabId?: number, origin?: string, action: string, target?: string,
 *   detail?: string, client: string, rule?: string, session?: string, kind?: string,
 *   expires: number}} Question
 */

/** @returns {Promise<Question[]>} the questions waiting for the person */
export async function getQuestions() {
  const got = await chrome.storage.session.get('questions');
  return Array.isArray(got.questions) ? got.questions : [];
}

/** @param {Question[]} questions */
export async function storeQuestions(questions) {
  await chrome.storage.session.set({ questions });
  await renderBadge();
}

/**
 * The icon's badge: '?' while a question waits for the person, '||' while
 * agents are paused; a tab an agent just acted on shows '●' for a few
 * seconds (markActed), over the others.
 */
export async function renderBadge() {
  const questions = await getQuestions();
  const paused = await getPaused();
  let text = '';
  let color = '#5f6368';
  let title = 'grip';
  const rec = (await chrome.storage.session.get('personRecording')).personRecording;
  if (rec && rec.recording) {
    // The person is showing grip a task (person-record.js).
    text = 'REC';
    color = '#c5221f';
    title = 'grip: recording what you do on a tab (open this popup to see the steps, then Done)';
  } else if (questions.length > 0 || (rec && rec.ask)) {
    text = '?';
    color = '#e37400';
    title = 'grip: an agent waits for your answer (open this popup)';
  } else if (paused) {
    text = '||';
    color = '#c5221f';
    title = 'grip: agents are paused';
  }
  await chrome.action.setBadgeText({ text });
  await chrome.action.setBadgeBackgroundColor({ color });
  await chrome.action.setTitle({ title });
}

/**
 * Marks a tab on the badge: an agent acted there.
 * @param {number} tabId
 */
export async function markActed(tabId) {
  const got = await chrome.storage.session.get('acted');
  const acted = got.acted && typeof got.acted === 'object' ? got.acted : {};
  acted[String(tabId)] = Date.now();
  await chrome.storage.session.set({ acted });
  try {
    await chrome.action.setBadgeText({ tabId, text: '●' });
    await chrome.action.setBadgeBackgroundColor({ tabId, color: '#1a73e8' });
  } catch (_) { /* the tab closed meanwhile */ }
  setTimeout(() => { unmarkActed(tabId); }, ACTED_MS + 50);
}

/**
 * Clears a tab's mark once ACTED_MS passed since the last action there;
 * the tab then shows the global badge again.
 * @param {number} tabId
 */
export async function unmarkActed(tabId) {
  const got = await chrome.storage.session.get('acted');
  const acted = got.acted && typeof got.acted === 'object' ? got.acted : {};
  const at = acted[String(tabId)];
  if (typeof at === 'number' && Date.now() - at < ACTED_MS) return;
  delete acted[String(tabId)];
  await chrome.storage.session.set({ acted });
  try {
    // null, not '': a tab's own text of '' would hide the global badge.
    await chrome.action.setBadgeText({ tabId, text: /** @type {any} */ (null) });
    await chrome.action.setBadgeBackgroundColor({ tabId, color: /** @type {any} */ (null) });
  } catch (_) { /* the tab is gone */ }
}

/**
 * When an agent last acted on a tab (ms since the epoch), or 0.
 * @param {number} tabId
 */
export async function actedAt(tabId) {
  const got = await chrome.storage.session.get('acted');
  const at = got.acted && got.acted[String(tabId)];
  return typeof at === 'number' ? at : 0;
}

/**
 * After the worker (re)starts: questions asked by an earlier worker have
 * no one left to answer them (their host request died with it), marks
 * whose timer died are cleared, and the badge is drawn again.
 */
export async function restorePersonState() {
  await chrome.storage.session.set({ questions: [] });
  const got = await chrome.storage.session.get('acted');
  for (const id of Object.keys(got.acted || {})) await unmarkActed(Number(id));
  await renderBadge();
}
