// @ts-check
// The worker's side of its lifetime: the keeper document (keeper.js) that
// wakes the worker when Chrome stops it. No side effects at import: the
// keeper document imports the port's name from here too. See
// docs/lifetime.md, "The worker's lifetime".

import { messageOf } from './errors.js';

/** The name of the keeper's runtime port. */
export const KEEPER_PORT = 'grip-keeper';

const KEEPER_URL = 'keeper/keeper.html';

/**
 * Opens the keeper document unless it is open. Chrome allows one
 * offscreen document per extension, and two starts of the worker may race
 * here: the loser's "only a single offscreen document" is no failure.
 * @returns {Promise<void>}
 */
export async function ensureKeeper() {
  if (!chrome.offscreen || !chrome.runtime.getContexts) return; // a browser without the API: the alarm alone
  const open = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT] });
  if (open.length > 0) return;
  try {
    await chrome.offscreen.createDocument({
      url: KEEPER_URL,
      // Chrome has no reason for keeping a worker; it limits the lifetime
      // of none but AUDIO_PLAYBACK's documents.
      reasons: [chrome.offscreen.Reason.WORKERS],
      justification: "brings grip's service worker back within a second when Chrome stops it, so the agent's connection to this browser returns",
    });
  } catch (err) {
    if (!/single offscreen/i.test(messageOf(err))) throw err;
  }
}

/**
 * Whether a runtime port is the keeper's: named so, from this extension's
 * own keeper document.
 * @param {chrome.runtime.Port} port
 * @returns {boolean}
 */
export function isKeeperPort(port) {
  const s = port.sender;
  return port.name === KEEPER_PORT && !!s && s.id === chrome.runtime.id && !!s.url && s.url === chrome.runtime.getURL(KEEPER_URL);
}
