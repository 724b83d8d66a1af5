// @ts-check
// Sessions in the worker (docs/sessions.md, "Sessions"): which session
// owns which tab, the Chrome tab group each session's tabs go into, the
// sessions the person ended, and what the person's rearranging of the
// groups means. The host enforces ownership; the worker keeps the state in
// chrome.storage.session (tab ids die with the browser) — except the
// sessions the person ended, kept in chrome.storage.local until they let
// one back in, so a restart of the browser does not lift it — and sends it
// in its hello, so a new host starts with it.
//
// What the person's moves mean:
// - a tab dragged out of its session's group (or the group ungrouped) is
//   handed to the person: no session owns it any more;
// - closing the group closes its tabs (Chrome's own), so the session
//   loses them;
// - ending a session (the popup) keeps its tabs in their group, titled
//   "NAME (ended)", so no other agent gets its work; the person closes or
//   drags them out when they like.
//
// This module keeps the state and the groups only; what tells the host
// (a tab handed to the person, a session ended) is in popup-api.js, which
// may reach the native port without an import cycle.

/** @returns {Promise<Record<string, string>>} tab id → session */
export async function getOwners() {
  const got = await chrome.storage.session.get('owners');
  return got.owners && typeof got.owners === 'object' ? got.owners : {};
}

/** @param {number} tabId @param {string | null} session null: no one's */
export async function storeOwner(tabId, session) {
  const owners = await getOwners();
  if (session) owners[String(tabId)] = session; else delete owners[String(tabId)];
  await chrome.storage.session.set({ owners });
}

/** @returns {Promise<string[]>} the sessions the person ended */
export async function getEnded() {
  const got = await chrome.storage.local.get('ended');
  return Array.isArray(got.ended) ? got.ended.filter((s) => typeof s === 'string' && s !== '') : [];
}

/** @returns {Promise<Record<string, number>>} "windowId:session" → group id */
async function getGroups() {
  const got = await chrome.storage.session.get('groups');
  return got.groups && typeof got.groups === 'object' ? got.groups : {};
}

/** Tabs being put into their group now: their groupId change is ours. */
const grouping = new Set();

/** Tab groups are missing where the browser has no tab strip (or an old
 * Chrome): ownership still holds, only the grouping is left out. */
function haveGroups() {
  return typeof chrome.tabGroups !== 'undefined' && typeof chrome.tabs.group === 'function';
}

/**
 * Makes tabId session's own and puts it into the session's tab group in
 * its window (made on first use, titled with the session's name).
 * @param {number} tabId
 * @param {string} session
 */
export async function ownTab(tabId, session) {
  if (!session) return;
  await storeOwner(tabId, session);
  if (!haveGroups()) return;
  grouping.add(tabId);
  try {
    const tab = await chrome.tabs.get(tabId);
    if (tab.windowId === undefined || tab.pinned) return;
    const win = await chrome.windows.get(tab.windowId).catch(() => null);
    if (!win || win.type !== 'normal') return; // a popup window has no groups
    const groups = await getGroups();
    const key = `${tab.windowId}:${session}`;
    let groupId = groups[key];
    const existing = typeof groupId === 'number' ? await chrome.tabGroups.get(groupId).catch(() => null) : null;
    if (existing && tab.groupId === groupId) return;
    if (existing) {
      await chrome.tabs.group({ tabIds: [tabId], groupId });
    } else {
      groupId = await chrome.tabs.group({ tabIds: [tabId], createProperties: { windowId: tab.windowId } });
      await chrome.tabGroups.update(groupId, { title: session, collapsed: false });
      groups[key] = groupId;
      await chrome.storage.session.set({ groups });
    }
  } catch (_) {
    // The tab closed meanwhile, or the browser refuses groups here.
  } finally {
    grouping.delete(tabId);
  }
}

/**
 * Whether a tab's group change took a session's tab out of its group:
 * the person's doing (grip's own grouping is skipped).
 * @param {number} tabId
 * @param {chrome.tabs.TabChangeInfo} change
 * @param {chrome.tabs.Tab} tab
 */
export async function leftItsGroup(tabId, change, tab) {
  if (change.groupId === undefined || grouping.has(tabId)) return false;
  const session = (await getOwners())[String(tabId)];
  if (!session) return false;
  const groupId = (await getGroups())[`${tab.windowId}:${session}`];
  return change.groupId !== groupId;
}

/** A closed tab is no one's. @param {number} tabId */
export async function forgetOwner(tabId) {
  if ((await getOwners())[String(tabId)]) await storeOwner(tabId, null);
}

/**
 * A tab a session's page opened is the session's too (Chrome puts a tab
 * opened from a grouped tab into its group).
 * @param {number} tabId
 * @param {number} opener
 */
export async function openedFrom(tabId, opener) {
  const session = (await getOwners())[String(opener)];
  if (session) await storeOwner(tabId, session);
}

/**
 * Notes that the person ended a session (the popup, through
 * popup-api.js, which tells the host) and retitles its groups.
 * @param {string} session
 */
export async function storeEnded(session) {
  const ended = await getEnded();
  if (!ended.includes(session)) await chrome.storage.local.set({ ended: [...ended, session] });
  await retitle(session, { title: `${session} (ended)`, color: 'grey' });
}

/**
 * Notes that the person let an ended session back in (the popup) and
 * gives its groups their name back.
 * @param {string} session
 */
export async function storeAllowed(session) {
  const ended = await getEnded();
  if (ended.includes(session)) await chrome.storage.local.set({ ended: ended.filter((s) => s !== session) });
  await retitle(session, { title: session });
}

/** Retitles the session's groups.
 * @param {string} session @param {chrome.tabGroups.UpdateProperties} how */
async function retitle(session, how) {
  if (!haveGroups()) return;
  const groups = await getGroups();
  for (const [key, groupId] of Object.entries(groups)) {
    if (key.slice(key.indexOf(':') + 1) !== session) continue;
    await chrome.tabGroups.update(groupId, how).catch(() => {});
  }
}

/** What the hello tells a new host about sessions. */
export async function sessionsHello() {
  const owners = await getOwners();
  return {
    owned_tabs: Object.entries(owners).map(([id, session]) => ({ tabId: Number(id), session }))
      .filter((o) => Number.isInteger(o.tabId) && o.tabId > 0),
    ended_sessions: await getEnded(),
  };
}
