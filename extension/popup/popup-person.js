// @ts-check
// The popup's part for the person's controls (docs/person.md, "The
// person's controls"): questions waiting for an Allow or a Deny (or, for a
// step an agent handed over, Done or Refuse), the sessions with their
// tabs and an End access button each, this tab's owner, the pause
// button, "Let agents use this tab" in the shared mode, the policy in
// force and this tab's rule, and what agents did on this tab. Like the
// rest of the popup it talks to the worker only, and writes host and page
// text with textContent.
import { el, ask, currentTab, oneAtATime } from './common.js';

/**
 * @param {HTMLElement} dl
 * @param {[string, string][]} pairs
 */
function fillList(dl, pairs) {
  dl.replaceChildren();
  for (const [term, value] of pairs) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    dl.append(dt, dd);
  }
}

/** Control characters, line separators and direction overrides as
 * escapes: one entry reads as one line (actlog.Escape on the host).
 * @param {unknown} s */
function fold(s) {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return String(s).replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** @param {any} e a LogEntry */
function logText(e) {
  const t = new Date(e.time);
  const when = Number.isNaN(t.getTime()) ? String(e.time) : t.toLocaleTimeString();
  let what = fold(e.action);
  if (e.target) what += ` ${fold(e.target)}`;
  if (e.detail) what += ` (${fold(e.detail)})`;
  let outcome = fold(e.outcome);
  if (e.confirmed) outcome += e.action === 'handoff' ? ', done by you' : ', allowed by you';
  const who = e.session && e.session !== e.client ? `${fold(e.client)}, session ${fold(e.session)}` : fold(e.client);
  return `${when} ${what} — ${outcome} (${who})`;
}

let tabId = 0;

// One refresh at a time: see oneAtATime.
const refresh = oneAtATime(async () => {
  tabId = await currentTab();
  /** @type {any} */
  let v;
  try {
    v = await ask({ type: 'person', tabId });
  } catch (err) {
    el('policy-error').hidden = false;
    el('policy-error').textContent = `grip's service worker did not answer: ${err && /** @type {any} */ (err).message || err}`;
    return;
  }
  if (!v) return;
  const paused = !!v.paused;
  const shared = !!v.shared;
  const state = el('pause-state');
  state.textContent = paused ? 'agents paused' : 'agents may act';
  state.className = 'state ' + (paused ? 'paused' : 'connected');
  el('pause').textContent = paused ? 'Resume agents' : 'Pause agents';
  const never = /** @type {HTMLInputElement} */ (el('never-debugger'));
  never.checked = !!v.neverDebugger;
  el('never-what').hidden = !never.checked;

  renderQuestions(v.questions || []);

  const acted = el('acted');
  const ago = v.actedAt ? Date.now() - v.actedAt : Infinity;
  acted.hidden = !(ago < 10000);
  acted.textContent = acted.hidden ? '' : `● an agent acted on this tab ${Math.max(0, Math.round(ago / 1000))} s ago`;

  const host = v.host;
  const policyError = el('policy-error');
  /** @type {[string, string][]} */
  const facts = [];
  if (host) {
    const pol = host.policy || {};
    facts.push(['policy', pol.file || '—']);
    if (host.decision) facts.push(['this tab', `${host.decision.rule} — ${host.decision.why}`]);
    facts.push(['other sites', pol.default || 'act']);
    facts.push(['tabs', pol.tabs === 'shared' ? 'only the tabs you share' : 'every tab']);
    policyError.hidden = !pol.error;
    policyError.textContent = pol.error ? `The policy file does not read well: ${pol.error}` : '';
    const share = el('share');
    share.hidden = pol.tabs !== 'shared';
    share.textContent = shared ? 'Stop sharing this tab' : 'Let agents use this tab';
    renderLog(host.log || [], host.other_tabs || 0);
    renderOwner(host.owner || '');
    await renderSessions(host.sessions || []);
  } else {
    policyError.hidden = !v.hostError;
    policyError.textContent = v.hostError ? `host: ${v.hostError}` : '';
  }
  fillList(el('policy-facts'), facts);
});

/** @param {any[]} questions */
function renderQuestions(questions) {
  const box = el('questions');
  box.replaceChildren();
  for (const q of questions) {
    const div = document.createElement('div');
    div.className = 'question';
    div.dataset.id = q.id;
    // The site first, on its own line: the question's rest holds an
    // element's name, which the page chose.
    const p = document.createElement('p');
    const where = document.createElement('strong');
    where.className = 'origin';
    where.textContent = q.where || '';
    const what = document.createElement('span');
    what.textContent = q.what || q.text;
    p.append(where, what);
    const left = Math.max(0, Math.round((q.expires - Date.now()) / 1000));
    const rule = document.createElement('p');
    rule.className = 'rule';
    rule.textContent = (q.rule ? `policy: ${q.rule}; ` : '') + `denied by itself in ${left} s`;
    const handoff = q.kind === 'handoff';
    if (handoff) {
      div.classList.add('handoff');
      rule.textContent = `refused by itself in ${left} s`;
    }
    const allow = button(handoff ? 'Done' : 'Allow', 'allow', () => answer(q.id, true));
    const deny = button(handoff ? 'Refuse' : 'Deny', 'deny', () => answer(q.id, false));
    div.append(p, rule, allow, deny);
    if (handoff && typeof q.tabId === 'number' && q.tabId !== tabId) {
      div.append(button('Show the tab', 'show', () => ask({ type: 'show_tab', tabId: q.tabId })));
    }
    box.append(div);
  }
}

/**
 * @param {string} label
 * @param {string} className
 * @param {() => unknown} onClick
 */
function button(label, className, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

/** This tab's owner: a session's tab can be taken back. @param {string} owner */
function renderOwner(owner) {
  const p = el('owner');
  p.hidden = !owner;
  el('release').hidden = !owner;
  el('owner-text').textContent = owner ? `This tab belongs to session ${owner}.` : '';
  el('share').hidden = el('share').hidden || !!owner;
}

/**
 * The live sessions, each with its tabs and an End access button.
 * @param {any[]} sessions
 */
async function renderSessions(sessions) {
  const ul = el('sessions');
  const items = [];
  for (const s of sessions) {
    const li = document.createElement('li');
    li.className = 'session';
    li.dataset.session = s.name;
    const name = document.createElement('strong');
    name.textContent = s.name;
    const state = document.createElement('span');
    state.className = 'muted';
    state.textContent = s.ended ? ' ended' : s.connections > 0 ? ' working' : ' idle';
    li.append(name, state);
    const tabs = document.createElement('ul');
    for (const id of s.tabs || []) {
      const t = await chrome.tabs.get(id).catch(() => null);
      const tli = document.createElement('li');
      tli.textContent = t ? `${t.title || t.url || 'tab'} (tab ${id})` : `tab ${id}`;
      tabs.append(tli);
    }
    if (s.ended) li.append(button('Let back in', 'allow', () => sessionAccess('allow_session', s.name)));
    else li.append(button('End access', 'end', () => sessionAccess('end_session', s.name)));
    li.append(tabs);
    items.push(li);
  }
  if (items.length === 0) {
    const li = document.createElement('li');
    li.textContent = 'none';
    items.push(li);
  }
  ul.replaceChildren(...items);
}

/** Ends a session's access, or lets an ended one back in.
 * @param {'end_session'|'allow_session'} type @param {string} session */
async function sessionAccess(type, session) {
  try {
    await ask({ type, session });
  } catch (err) {
    el('policy-error').hidden = false;
    el('policy-error').textContent = `${type === 'end_session' ? 'end' : 'let back in'}: ${err && /** @type {any} */ (err).message || err}`;
  }
  refresh();
}

/**
 * @param {any[]} entries
 * @param {number} others
 */
function renderLog(entries, others) {
  const ul = el('agent-log');
  ul.replaceChildren();
  if (entries.length === 0) {
    const li = document.createElement('li');
    li.textContent = 'none';
    ul.append(li);
  }
  for (const e of entries.slice().reverse()) {
    const li = document.createElement('li');
    li.textContent = logText(e);
    if (e.outcome !== 'ok') li.className = 'refused';
    ul.append(li);
  }
  el('agent-log-others').textContent = others > 0 ? `${others} on other tabs (grip log lists them)` : '';
}

/**
 * @param {string} id
 * @param {boolean} allowed
 */
async function answer(id, allowed) {
  try {
    await ask({ type: 'answer', id, allowed });
  } finally {
    refresh();
  }
}

// The button does what its label says, even if the state changed since
// it was drawn (grip pause or resume meanwhile).
el('pause').addEventListener('click', async () => {
  try {
    await ask({ type: 'set_paused', paused: el('pause').textContent === 'Pause agents' });
  } catch (err) {
    el('policy-error').hidden = false;
    el('policy-error').textContent = `pause: ${err && /** @type {any} */ (err).message || err}`;
  }
  refresh();
});

el('never-debugger').addEventListener('change', async () => {
  const never = /** @type {HTMLInputElement} */ (el('never-debugger'));
  try {
    await ask({ type: 'set_never_debugger', never: never.checked });
  } catch (err) {
    el('policy-error').hidden = false;
    el('policy-error').textContent = `debugger: ${err && /** @type {any} */ (err).message || err}`;
  }
  refresh();
});

el('share').addEventListener('click', async () => {
  try {
    await ask({ type: 'share', tabId, shared: el('share').textContent === 'Let agents use this tab' });
  } catch (err) {
    el('policy-error').hidden = false;
    el('policy-error').textContent = `share: ${err && /** @type {any} */ (err).message || err}`;
  }
  refresh();
});

el('release').addEventListener('click', async () => {
  try {
    await ask({ type: 'release', tabId });
  } catch (err) {
    el('policy-error').hidden = false;
    el('policy-error').textContent = `release: ${err && /** @type {any} */ (err).message || err}`;
  }
  refresh();
});

refresh();
setInterval(refresh, 1000);
