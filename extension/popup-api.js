// @ts-check
// The popup's requests, answered by the worker (the popup never talks to
// the host itself).
import { askHost, connection, reconnect } from './native-port.js';
import { personPopupRequest } from './person.js';

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
    default:
      return personPopupRequest(msg); // the person's controls
  }
}
