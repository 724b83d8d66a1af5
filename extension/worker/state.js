// @ts-check
// What must outlast the service worker lives in chrome.storage: the
// profile id (local: survives browser restarts) and recent errors
// (session: survive the worker stopping, cleared with the browser).

const MAX_ERRORS = 20;

/** @returns {Promise<string>} the profile's random id, made on first use. */
export async function getProfileId() {
  const got = await chrome.storage.local.get('profileId');
  if (typeof got.profileId === 'string' && /^[a-f0-9]{16}$/.test(got.profileId)) return got.profileId;
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  await chrome.storage.local.set({ profileId: id });
  return id;
}

/** @param {string} text */
export async function recordError(text) {
  try {
    const got = await chrome.storage.session.get('errors');
    const errors = Array.isArray(got.errors) ? got.errors : [];
    errors.push({ at: new Date().toISOString(), text: String(text).slice(0, 500) });
    await chrome.storage.session.set({ errors: errors.slice(-MAX_ERRORS) });
  } catch (_) { /* storage unavailable while shutting down */ }
}
