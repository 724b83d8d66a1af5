// @ts-check
// The popup's part for recording by demonstration (docs/workflows.md,
// "Recorded workflows"): Record what I do on this tab, the steps as they
// are recorded (each can be dropped, a typed value made a parameter),
// Done and Cancel, and an agent's request to be shown a task. Like the
// rest of the popup it talks to the worker only, and writes page text
// with textContent.
import { el, ask, currentTab, oneAtATime } from './common.js';

/** @param {unknown} err */
function showError(err) {
  el('record-error').hidden = false;
  el('record-error').textContent = String(err && /** @type {any} */ (err).message || err);
}

/** Quoted as a workflow line quotes, control characters folded.
 * @param {unknown} s */
function quote(s) {
  // eslint-disable-next-line no-control-regex -- folding control characters is the point
  return `'${String(s).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/'/g, "\\'")}'`;
}

/** A field's name as a parameter's, as the host names one (workflow.ParamName).
 * @param {string} field */
export function paramName(field) {
  const name = String(field || '').toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean).join('_').replace(/^[0-9_]+/, '').slice(0, 40);
  return name || 'VALUE';
}

/** @param {any} t */
function targetText(t) {
  if (!t) return '';
  return t.role + (t.name ? ` ${quote(t.name)}` : '') + (t.ctx ? ` in ${quote(t.ctx)}` : '');
}

/** The step as the workflow file will read it, roughly: the line a
 * step's tooltip shows, for those who read the file.
 * @param {any} s @returns {string} */
function fileLine(s) {
  let line = s.verb;
  if (s.target) line += ' ' + targetText(s.target);
  if (s.to) line += ' to ' + targetText(s.to);
  if (s.verb === 'navigate') line += ' ' + quote(s.text || '');
  else if (s.file || s.secret) line += ` with {{${s.param || paramName(s.target && s.target.name) || 'FILE'}}}`;
  else if (s.param) line += ` with {{${s.param}}}`;
  else if (s.hasText) line += ` with ${quote(s.text || '')}`;
  return line;
}

/** What a person calls an element of this role, before its name ('' for
 * none: a card or an option is just its name). */
const ROLE_WORDS = /** @type {Record<string, string>} */ ({
  button: 'the button', link: 'the link', textbox: 'the field', searchbox: 'the search field', combobox: 'the list',
  listbox: 'the list', tab: 'the tab', menuitem: 'the menu item', switch: 'the switch', slider: 'the slider',
});

/** An element as a person names it: 'Receipt', the button 'Sign in'.
 * @param {any} t */
function thing(t) {
  if (!t) return 'something';
  const word = ROLE_WORDS[t.role] || '';
  const name = t.name ? quote(t.name) : (word ? '' : `a ${t.role}`);
  return [word, name].filter(Boolean).join(' ') + (t.ctx ? ` in ${quote(t.ctx)}` : '');
}

/** Where a step went, by its path only: a form sent by GET puts what was
 * typed (a password too) in the query, which the popup never shows.
 * @param {string} url */
function where(url) {
  try {
    return new URL(url).pathname;
  } catch (_) { return ''; }
}

/** The step in plain words, as the person did it.
 * @param {any} s @returns {{line: string, secret: boolean}} */
function stepLine(s) {
  const value = s.param ? `{{${s.param}}}` : quote(s.text || '');
  /** @type {Record<string, () => string>} */
  const say = {
    click: () => `Clicked ${thing(s.target)}`,
    dblclick: () => `Double-clicked ${thing(s.target)}`,
    rightclick: () => `Right-clicked ${thing(s.target)}`,
    fill: () => s.secret ? `Typed your secret into ${thing(s.target)} (never saved: asked for at each replay)` : `Typed ${value} into ${thing(s.target)}`,
    type: () => `Typed ${value} into ${thing(s.target)}`,
    select: () => `Chose ${value} in ${thing(s.target)}`,
    check: () => s.target && s.target.role === 'radio' ? `Chose ${thing(s.target)}` : `Ticked ${thing(s.target)}`,
    uncheck: () => `Unticked ${thing(s.target)}`,
    press: () => `Pressed ${s.text || 'a key'}`,
    drag: () => `Dragged ${thing(s.target)} onto ${thing(s.to)}`,
    upload: () => `Chose a file for ${s.target && s.target.name ? quote(s.target.name) : 'a file field'} (your file is not saved: asked for at each replay)`,
    navigate: () => `Went to ${s.text || ''}`,
    back: () => 'Went back',
    forward: () => 'Went forward',
    reload: () => 'Reloaded the page',
  };
  let line = (say[s.verb] || (() => fileLine(s)))();
  if (s.afterUrl && s.verb !== 'navigate' && s.verb !== 'back' && s.verb !== 'forward' && s.verb !== 'reload') {
    line += `, which opened ${where(s.afterUrl)}`;
  } else if (s.appeared) line += `, and ${thing(s.appeared)} appeared`;
  return { line, secret: !!s.secret };
}

/** @param {string} label @param {string} className @param {() => unknown} onClick */
function button(label, className, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = label;
  b.addEventListener('click', async () => {
    try { await onClick(); } catch (err) { showError(err); }
    refresh();
  });
  return b;
}

/** A parameter's name for step i no other step uses: its field's, or
 * TEXT for a field with no name, numbered where taken.
 * @param {any[]} steps @param {number} i */
function freeName(steps, i) {
  const s = steps[i];
  const base = s.target && s.target.name ? paramName(s.target.name) : 'TEXT';
  const taken = new Set(steps.filter((x, j) => j !== i && x.param).map((x) => x.param));
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}

let drawn = '';

/** @param {any[]} steps */
function renderSteps(steps) {
  // Drawn again only when they changed: a redraw under the person's
  // pointer would swallow their click.
  const now = JSON.stringify(steps);
  if (now === drawn) return;
  drawn = now;
  const ol = el('record-steps');
  const items = steps.map((s, i) => {
    const li = document.createElement('li');
    const { line, secret } = stepLine(s);
    const row = document.createElement('div');
    row.className = 'step-row';
    const p = document.createElement('div');
    p.className = 'step' + (secret ? ' secret' : '');
    p.textContent = line;
    p.title = `In the file: ${fileLine(s)}`;
    const drop = button('Remove', 'drop', () => ask({ type: 'record_drop', index: i }));
    drop.title = 'Leave this step out of the recording';
    row.append(p, drop);
    li.append(row);
    if ((s.verb === 'fill' || s.verb === 'type' || s.verb === 'select') && !s.secret) {
      const tools = document.createElement('div');
      tools.className = 'step-tools';
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.className = 'param-box';
      box.checked = !!s.param;
      box.addEventListener('change', async () => {
        try {
          await ask({ type: 'record_param', index: i, name: box.checked ? freeName(steps, i) : '' });
        } catch (err) { showError(err); }
        refresh();
      });
      label.append(box, ' ask for a new value at each replay');
      tools.append(label);
      if (s.param) {
        const named = document.createElement('label');
        const name = document.createElement('input');
        name.type = 'text';
        name.className = 'param-name';
        name.value = s.param;
        name.spellcheck = false;
        name.addEventListener('change', async () => {
          try {
            await ask({ type: 'record_param', index: i, name: name.value || freeName(steps, i) });
          } catch (err) { showError(err); }
          refresh();
        });
        named.append('named ', name);
        tools.append(named);
      }
      li.append(tools);
    }
    return li;
  });
  const grew = items.length > ol.children.length;
  ol.replaceChildren(...items);
  // The newest step in sight: the list scrolls on its own, Done stays below it.
  if (grew && ol.lastElementChild) ol.scrollTop = ol.scrollHeight;
  el('record-none').hidden = steps.length > 0;
}

let tabId = 0;

// One refresh at a time: see oneAtATime.
const refresh = oneAtATime(async () => {
  tabId = await currentTab();
  /** @type {any} */
  let v;
  try {
    v = await ask({ type: 'record_view' });
  } catch (err) {
    showError(err);
    return;
  }
  if (!v) return;
  const rec = v.recording;
  const pending = v.ask;
  el('record-ask').hidden = !pending || !!rec;
  if (pending && !rec) {
    el('record-ask-who').textContent = pending.session && pending.session !== pending.client ? `${pending.client} (session ${pending.session})` : pending.client;
    el('record-ask-what').textContent = 'asks you to show it a task on this tab: go to where it starts, press Record what I do, do it once, then Done.' +
      (pending.file ? ` It will be saved as ${pending.file}.` : '');
    el('record-ask-left').textContent = `refused by itself in ${Math.max(0, Math.round((pending.expires - Date.now()) / 1000))} s`;
  }
  el('record-idle').hidden = !!rec || !!pending;
  el('record-live').hidden = !rec;
  const saved = el('record-saved');
  saved.hidden = !v.saved || !!rec;
  saved.textContent = v.saved || '';
  if (rec) {
    const t = await chrome.tabs.get(rec.tabId).catch(() => null);
    const here = rec.tabId === tabId ? 'this tab' : 'another tab' + (t && t.title ? `: ${t.title}` : '');
    el('record-where').textContent = `Recording what you do on ${here}` + (rec.ask ? ` for ${rec.ask.client}` : '');
    el('record-name-row').hidden = !!rec.ask;
    const name = /** @type {HTMLInputElement} */ (el('record-name'));
    if (!name.value) name.value = `my-task-${new Date(rec.startedAt).toISOString().slice(0, 16).replace(/[T:]/g, '-')}.grip`;
    renderSteps(rec.steps || []);
  }
});

async function start() {
  el('record-error').hidden = true;
  try {
    await ask({ type: 'record_start', tabId });
  } catch (err) { showError(err); }
  refresh();
}

el('record-start').addEventListener('click', start);
el('record-ask-start').addEventListener('click', start);
el('record-ask-refuse').addEventListener('click', async () => {
  try {
    const v = await ask({ type: 'record_view' });
    if (v && v.ask) await ask({ type: 'record_refuse', id: v.ask.id });
  } catch (err) { showError(err); }
  refresh();
});
el('record-done').addEventListener('click', async () => {
  el('record-error').hidden = true;
  try {
    await ask({ type: 'record_finish', done: true, name: /** @type {HTMLInputElement} */ (el('record-name')).value.trim() });
    /** @type {HTMLInputElement} */ (el('record-name')).value = '';
  } catch (err) { showError(err); }
  refresh();
});
el('record-cancel').addEventListener('click', async () => {
  try {
    await ask({ type: 'record_finish', done: false });
  } catch (err) { showError(err); }
  refresh();
});

refresh();
setInterval(refresh, 1000);
