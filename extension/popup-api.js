// @ts-check
// The popup's requests, answered by the worker (the popup never talks to
// the host itself): the connection, the last snapshot, and the person's
// controls (docs/ARCHITECTURE.md, "The person's controls").
import { askHost, connection, reconnect } from './native-port.js';
import { questionLines, questionText, answer, showTab } from './person.js';
import { storeEnded, storeAllowed, storeOwner, getOwners, leftItsGroup } from './sessions.js';
import { getPaused, storePaused, getShared, storeShared, getQuestions, actedAt } from './person-state.js';

/** @param {any} msg */
export async function popupRequest(msg) {
  switch (msg && msg.type) {
    case 'status': {
      const session = await chrome.storage.session.get(['errors', 'host', 'connection']);
      let host = null;
      let hostError = '';
      if (connection.state === 'connected') {
        try { host = await askHost('status', {}); } catch (err) { hostError = String(err); }
      }
      const { profileId } = await chrome.storage.local.get('profileId');
      return { connection: { ...connection }, profileId, host, hostError, errors: session.errors || [] };
    }
    case 'snapshot': {
      const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
      const tabId = typeof msg.tabId === 'number' ? msg.tabId : tab && tab.id;
      return askHost('snapshot', { tab: tabId, budget: msg.budget || 0 });
    }
    case 'reconnect':
      reconnect();
      return { ok: true };
    // The person's controls.
    case 'person': return personView(Number(msg.tabId));
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
    case 'answer':
      return { ok: await answer(String(msg.id), !!msg.allowed) };
    // Sessions (sessions.js).
    case 'end_session': {
      const session = String(msg.session || '');
      if (!session) throw new Error('end_session: no session');
      await storeEnded(session);
      if (connection.state === 'connected') await askHost('end_session', { session });
      return { ok: true };
    }
    case 'allow_session': {
      const session = String(msg.session || '');
      if (!session) throw new Error('allow_session: no session');
      await storeAllowed(session);
      if (connection.state === 'connected') await askHost('allow_session', { session });
      return { ok: true };
    }
    case 'release': {
      const tabId = Number(msg.tabId);
      if (!Number.isInteger(tabId) || tabId <= 0) throw new Error('release: no tab');
      await chrome.tabs.ungroup(tabId).catch(() => {});
      await handToPerson(tabId);
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
 * Hands a session's tab to the person: no session owns it from now on.
 * @param {number} tabId
 */
async function handToPerson(tabId) {
  await storeOwner(tabId, null);
  if (connection.state === 'connected') await askHost('release_tab', { tabId }).catch(() => {});
}

/**
 * A tab's group changed: a session's tab the person took out of its group
 * is theirs now (docs/ARCHITECTURE.md, "Sessions").
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
    try { host = await askHost('user_view', { tabId, url }); } catch (err) { hostError = String(err && err.message || err); }
  }
  return {
    paused, questions, host, hostError,
    shared: !!shared[String(tabId)], sharedBy: shared[String(tabId)] || '',
    owner: (await getOwners())[String(tabId)] || '',
    actedAt: await actedAt(tabId),
  };
}
