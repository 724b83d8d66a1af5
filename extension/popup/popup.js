// @ts-check
// The popup shows the connection and the last snapshot's figures. It talks
// to the service worker only (never to the host), and builds its DOM with
// textContent: nothing from a page or the host is parsed as HTML.

import { el, oneAtATime } from './common.js';

/** One call of the popup to the worker (PopupCalls in popup-calls.d.ts).
 * The status card reads a worker's failure off the reply itself, so this
 * is not common.js's ask, which throws it.
 * @param {PopupRequest} msg */
function ask(msg) {
  return chrome.runtime.sendMessage(msg);
}

/**
 * Replaces a <dl>'s content with term/value pairs.
 * @param {HTMLElement} dl
 * @param {[string, string | number][]} pairs
 */
function fillList(dl, pairs) {
  dl.replaceChildren();
  for (const [term, value] of pairs) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = String(value);
    dl.append(dt, dd);
  }
}

/** The tab to snapshot: ?tab=N when the popup is opened as a page. */
function targetTab() {
  const n = Number(new URLSearchParams(location.search).get('tab'));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

// One refresh at a time: see oneAtATime.
const refresh = oneAtATime(async () => {
  /** @type {any} */
  let st;
  try {
    st = await ask({ type: 'status' });
  } catch (err) {
    st = { connection: { state: 'error', error: String(err) }, errors: [] };
  }
  // No answer (no listener took the message) or the worker's own failure:
  // say so instead of leaving the placeholder.
  if (!st || typeof st !== 'object') {
    st = { connection: { state: 'error', error: 'the grip service worker did not answer' }, errors: [] };
  } else if (st.error) {
    st = { connection: { state: 'error', error: `the grip service worker failed: ${st.error}` }, errors: [] };
  }
  const state = el('state');
  const conn = st.connection || {};
  state.textContent = conn.state || 'unknown';
  state.className = 'state ' + (conn.state === 'connected' ? 'connected' : conn.state === 'connecting' ? '' : 'bad');
  const stateError = el('state-error');
  stateError.hidden = !conn.error;
  stateError.textContent = conn.error || '';

  const host = st.host || null;
  // An extension from another build of grip than the host: say so, with
  // the fix (the host words it).
  const warning = el('build-warning');
  const warningText = (host && host.host && host.host.warning) || '';
  warning.hidden = !warningText;
  warning.textContent = warningText;
  /** @type {[string, string | number][]} */
  const facts = [
    ['profile id', st.profileId || '—'],
    ['extension', chrome.runtime.getManifest().version],
  ];
  if (host) {
    facts.push(['host version', host.host.host_version]);
    facts.push(['protocol', host.host.protocol]);
    facts.push(['host pid', host.host.pid]);
    facts.push(['live refs', host.live_refs]);
    facts.push(['stale refs kept', host.inactive_refs]);
    if (host.ledger_error) facts.push(['ledger', host.ledger_error]);
  } else if (st.hostError) {
    facts.push(['host', st.hostError]);
  }
  fillList(el('facts'), facts);

  const last = host && host.last_snapshot;
  if (last) {
    fillList(el('last-snapshot'), [
      ['tab', last.tab],
      ['frames answered', last.frames_answered],
      ['frames skipped', last.frames_skipped],
      ['elements', last.elements],
      ['tokens', `${last.tokens} of ${last.budget}`],
      ['omitted', last.omitted],
    ]);
  }

  const errs = [...(st.errors || [])];
  if (host && Array.isArray(host.last_errors)) {
    for (const text of host.last_errors) errs.push({ at: 'host', text });
  }
  const ul = el('errors');
  ul.replaceChildren();
  if (errs.length === 0) {
    const li = document.createElement('li');
    li.textContent = 'none';
    ul.append(li);
  }
  for (const e of errs.slice(-10)) {
    const li = document.createElement('li');
    li.textContent = `${e.at}: ${e.text}`;
    ul.append(li);
  }
});

el('snapshot').addEventListener('click', async () => {
  const figures = el('snapshot-figures');
  const pre = el('snapshot-text');
  figures.textContent = 'taking a snapshot…';
  try {
    /** @type {any} */
    const snap = await ask({ type: 'snapshot', tabId: targetTab() });
    if (!snap) throw new Error('the grip service worker did not answer');
    if (snap.error) throw new Error(snap.error);
    figures.textContent = `${snap.tokens} tokens of ${snap.budget}` + (snap.omitted ? `, ${snap.omitted} omitted` : '');
    pre.textContent = snap.text;
    pre.hidden = false;
  } catch (err) {
    figures.textContent = `snapshot failed: ${err && /** @type {any} */ (err).message || err}`;
  }
  refresh();
});

el('reconnect').addEventListener('click', async () => {
  try {
    await ask({ type: 'reconnect' });
  } catch (err) {
    el('state-error').hidden = false;
    el('state-error').textContent = `reconnect failed: ${err && /** @type {any} */ (err).message || err}`;
  }
  setTimeout(refresh, 500);
});

refresh();
setInterval(refresh, 2000);
