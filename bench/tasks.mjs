// Tokens per task (bench/run --tasks): scripted tasks on the pages of
// pages.mjs (/task/menu, /task/form, /task/pager), driven through each MCP
// server of mcp.mjs the way an agent drives it. The script knows only what
// the tool results told it: it reads refs from them (grip: `@eN: [role
// 'name' …]` lines of browser_snapshot and of action replies, whose `gone:`
// refs it forgets; Playwright MCP: `[ref=eN]` in its YAML) and asks for a
// snapshot when it needs an element it has not been told about. Every tool
// result the agent receives from the first snapshot to the task's end is
// counted. Whether the task succeeded is read from the page over CDP.
//
// Each server is used as its tools are meant to be used: both fill a form
// with one browser_fill_form call; grip checks a box with browser_click {checked: true}, Playwright MCP (which has no such parameter)
// clicks it. Playwright MCP 0.0.83's action replies link a snapshot file
// instead of carrying it: when the agent needs to know what is on the page
// it reads that file, and the file's text is counted as a tool result.
import fs from 'node:fs';
import path from 'node:path';
import { normRole, normName } from './parse.mjs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { tokens, stats } from './mcp.mjs';
import { COMPONENT_TASKS } from './components.mjs';

const key = (role, name) => `${normRole(role)}\u0000${normName(name)}`;

function unquote(s, q) {
  if (s === undefined) return '';
  if (q === '"') {
    try { return JSON.parse(`"${s}"`); } catch { return s; }
  }
  return s.replace(/\\(.)/g, '$1');
}

/** grip's element lines anywhere in a reply (snapshot, changed:, added:). */
export function gripRefs(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^(@e\d+): \[([A-Za-z]+)(?: '((?:[^'\\]|\\.)*)')?/.exec(line);
    if (m) out.push({ ref: m[1], role: m[2], name: unquote(m[3], "'") });
  }
  return out;
}

/** grip's `gone: @e4 @e5 @e9–@e12` line, a run said as its first and last. */
export function gripGone(text) {
  const m = /^gone: (.*)$/m.exec(text);
  if (!m) return [];
  const out = [];
  for (const part of m[1].split(/\s+/).filter(Boolean)) {
    const run = /^@e(\d+)–@e(\d+)$/.exec(part);
    if (!run) { out.push(part); continue; }
    for (let n = Number(run[1]); n <= Number(run[2]); n++) out.push('@e' + n);
  }
  return out;
}

/**
 * gripReplyParts splits the tokens of a grip action reply by line kind:
 * the first line (what was done), the tab line (`Tab N · 'title' · url`),
 * and the rest (changed/added element lines, gone refs), so the report can
 * say where the replies' tokens go.
 */
export function gripReplyParts(text) {
  const lines = text.split('\n');
  const count = (ls) => (ls.length ? countTokens(ls.join('\n')) : 0);
  const tab = lines.slice(1).filter((l) => /^Tab \d+ · /.test(l));
  const rest = lines.slice(1).filter((l) => l && !/^Tab \d+ · /.test(l));
  return { first: count(lines.slice(0, 1)), tab: count(tab), rest: count(rest) };
}

/** Playwright's YAML lines with a ref: `- button "Save" [ref=e5]`, quoted or not. */
export function pwRefs(text) {
  const out = [];
  for (let line of text.split('\n')) {
    const q = /^(\s*)- '(.*)'(:?)$/.exec(line);
    if (q) line = `${q[1]}- ${q[2].replace(/''/g, "'")}${q[3]}`;
    const m = /^\s*- ([A-Za-z]+)(?: "((?:[^"\\]|\\.)*)")?.*\[ref=([^\]\s]+)\]/.exec(line);
    if (m) out.push({ ref: m[3], role: m[1], name: unquote(m[2], '"') });
  }
  return out;
}

/** Playwright MCP 0.0.83's link to the snapshot file it wrote. */
export function pwSnapshotLink(text) {
  const m = /### Snapshot\n- \[Snapshot\]\(([^)]+)\)/.exec(text);
  return m ? m[1] : null;
}

/**
 * Agent drives one MCP server through one task and keeps the ledger of
 * what it received: every tool result's text, counted.
 */
class Agent {
  constructor(peer) {
    this.peer = peer;
    this.known = new Map(); // role + name → ref, from what the agent was told
    this.results = []; // {tool, ms, chars, tokens, tokensChars3, isError}
    this.unreadLink = null; // pw-mcp: the snapshot file the last reply linked
    this.unreadLinkShown = '';
    this.transcript = []; // what the agent sent and received, for bench/out/tasks/
    this.lastWhole = ''; // the last whole snapshot the agent read
  }

  /** call makes one tool call, counts its result and learns its refs. */
  async call(tool, args) {
    const r = await this.peer.call(tool, args);
    this.results.push({ tool, ms: r.ms, isError: r.isError, ...tokens(r.text), parts: this.peer.grip && tool !== 'browser_snapshot' ? gripReplyParts(r.text) : undefined });
    this.transcript.push(`>>> ${tool} ${JSON.stringify(args)}\n${r.text}`);
    this.learn(r.text, tool === 'browser_snapshot');
    return r;
  }

  learn(text, whole) {
    if (whole) this.lastWhole = text;
    if (this.peer.grip) {
      if (whole) this.known.clear();
      for (const e of gripRefs(text)) this.known.set(key(e.role, e.name), e.ref);
      const gone = new Set(gripGone(text));
      if (gone.size) for (const [k, ref] of this.known) if (gone.has(ref)) this.known.delete(k);
      return;
    }
    const link = pwSnapshotLink(text);
    if (link) this.unreadLink = link;
    const els = pwRefs(text);
    // A full snapshot replaces what the agent knew; an incremental one
    // (only what changed) adds to it.
    if (whole || (els.length && this.peer.name === 'pw-mcp-full')) this.known.clear();
    for (const e of els) this.known.set(key(e.role, e.name), e.ref);
  }

  /**
   * look learns the page as it is now: Playwright MCP 0.0.83's linked
   * snapshot file when one is unread (counted as the file-read tool
   * result an agent gets), else a browser_snapshot call.
   */
  async look() {
    if (this.unreadLink) {
      const file = path.resolve(this.peer.workDir, this.unreadLink);
      this.unreadLinkShown = this.unreadLink;
      this.unreadLink = null;
      const text = fs.readFileSync(file, 'utf8');
      this.results.push({ tool: 'read snapshot file', ms: 0, isError: false, ...tokens(text) });
      this.transcript.push(`>>> read ${this.unreadLinkShown}\n${text}`);
      this.known.clear();
      this.learn(text, true);
      return;
    }
    await this.call('browser_snapshot', {});
  }

  knows(role, name) {
    return this.known.has(key(role, name));
  }

  async ref(role, name) {
    if (!this.knows(role, name)) await this.look();
    const ref = this.known.get(key(role, name));
    if (!ref) throw new Error(`${this.peer.name}: no ${role} '${name}' on the page`);
    return ref;
  }

  /**
   * act calls tool on the element role + name; a refusal for a ref that
   * went stale or unknown is answered as an agent would: read the page
   * again and try once more.
   */
  async act(tool, role, name, args = {}) {
    for (let attempt = 0; ; attempt++) {
      const ref = await this.ref(role, name);
      const r = await this.call(tool, { element: `${role} ${name}`, [this.peer.refKey]: ref, ...args });
      if (!r.isError) return r;
      if (attempt > 0 || !/stale|unknown_ref|not found|[Nn]o element|does not match/.test(r.text)) {
        throw new Error(`${this.peer.name} ${tool} ${role} '${name}': ${r.text.slice(0, 300)}`);
      }
      this.known.delete(key(role, name));
    }
  }

  click(role, name) { return this.act('browser_click', role, name); }

  /**
   * refAfter reads the last whole snapshot the way an agent finds an
   * element with no name of its own: the first element line of role
   * (a RegExp) with a ref after the first line that mentions text.
   */
  refAfter(text, role) {
    const lines = this.lastWhole.split('\n');
    const at = lines.findIndex((l) => l.includes(text));
    if (at >= 0) {
      for (const l of lines.slice(at + 1)) {
        const e = this.peer.grip ? gripRefs(l)[0] : pwRefs(l)[0];
        if (e && role.test(e.role)) return e.ref;
      }
    }
    throw new Error(`${this.peer.name}: no ${role} after '${text}' in the snapshot`);
  }

  /**
   * refOn is the ref of the element on the last whole snapshot's first
   * line that says text, or of the nearest element above it that has one
   * (the text is in a part that has none).
   */
  refOn(text) {
    let above = null;
    for (const l of this.lastWhole.split('\n')) {
      const m = /\[ref=([^\]\s]+)\]|^(@e\d+):/.exec(l);
      if (m) above = m[1] || m[2];
      if (l.includes(text) && above) return above;
    }
    throw new Error(`${this.peer.name}: no element saying '${text}' in the snapshot`);
  }

  /** actRef calls tool on a ref the agent picked itself (refAfter). */
  async actRef(tool, ref, element, args = {}) {
    const r = await this.call(tool, { element, [this.peer.refKey]: ref, ...args });
    if (r.isError) throw new Error(`${this.peer.name} ${tool} ${element}: ${r.text.slice(0, 300)}`);
    return r;
  }

  clickRef(ref, element) { return this.actRef('browser_click', ref, element); }

  check(role, name) {
    return this.act('browser_click', role, name, this.peer.grip ? { checked: true } : {});
  }

  fill(role, name, text) {
    return this.act('browser_type', role, name, this.peer.grip ? { text, replace: true } : { text });
  }

  select(role, name, value) { return this.act('browser_select_option', role, name, { values: [value] }); }

  async waitText(text) {
    const r = await this.call('browser_wait_for', { text });
    if (r.isError) throw new Error(`${this.peer.name} browser_wait_for ${JSON.stringify(text)}: ${r.text.slice(0, 300)}`);
  }
}

// ------------------------------------------------------------ the tasks

const FORM = [
  ['textbox', 'Full name', 'Ada Lovelace'],
  ['textbox', 'Email', 'ada@example.org'],
  ['textbox', 'Phone', '+44 20 7946 0000'],
  ['textbox', 'Street address', '12 St James Square'],
  ['textbox', 'City', 'London'],
  ['textbox', 'Postal code', 'SW1Y 4JH'],
  ['combobox', 'Country', 'France'],
  ['checkbox', 'I accept the terms', 'true'],
];

/**
 * The tasks: what the agent does, and what the page must say afterwards.
 * expect(outcome, agent) gets document.body.dataset.outcome (or what the
 * task's outcome function returns in the page), parsed; a task whose
 * result is what the agent read has check(agent) instead.
 */
export const TASKS = {
  menu: {
    what: 'select message 3, open "More actions" (its items are made on open), pick "Archive"',
    async run(a) {
      await a.call('browser_snapshot', {});
      await a.check('checkbox', 'Select message 3');
      await a.click('button', 'More actions');
      await a.click('menuitem', 'Archive');
      await a.waitText('Archive: message 3');
    },
    expect: (o) => o?.action === 'Archive' && JSON.stringify(o.messages) === '["3"]',
  },
  form: {
    what: 'fill a checkout form of 8 fields (6 text, a select, a checkbox), submit, wait for the confirmation',
    async run(a) {
      await a.call('browser_snapshot', {});
      const fields = [];
      for (const [role, name, value] of FORM) fields.push({ name, type: role, [a.peer.refKey]: await a.ref(role, name), value });
      const r = await a.call('browser_fill_form', { fields });
      if (r.isError) throw new Error(`${a.peer.name} browser_fill_form: ${r.text.slice(0, 300)}`);
      await a.click('button', 'Place order');
      await a.waitText('Thank you, Ada Lovelace');
    },
    expect: (o) => !!o && FORM.every(([, name, value]) => {
      const field = { 'Full name': 'name', Email: 'email', Phone: 'phone', 'Street address': 'street', City: 'city', 'Postal code': 'zip', Country: 'country', 'I accept the terms': 'terms' }[name];
      return String(o[field]) === value;
    }),
  },
  pager: {
    what: 'page through a 5-page orders table with "Next" until order #1047 shows, then "View order #1047"',
    async run(a) {
      await a.call('browser_snapshot', {});
      const target = 'View order #1047';
      for (let i = 0; i < 6 && !a.knows('button', target); i++) {
        await a.click('button', 'Next');
        // What is on the page now: in the reply, or (pw-mcp) in the file it links.
        if (!a.knows('button', target) && a.peer.linksSnapshots) await a.look();
      }
      await a.click('button', target);
      await a.waitText('Order #1047 details');
    },
    expect: (o) => o?.viewed === 1047 && o?.page === 5,
  },
  ...COMPONENT_TASKS,
};

/**
 * runTasks runs every task (or those only names) through every peer, runs times, alternating
 * the order of the peers; each run opens the task's page fresh with the
 * peer's own browser_navigate (not counted: the count starts with the
 * task's first snapshot) and checks the outcome over CDP.
 */
export async function runTasks(ctx, peers, { runs, only, urls, log, out: dir }) {
  fs.mkdirSync(dir, { recursive: true });
  const names = Object.keys(peers);
  const out = [];
  for (const [task, t] of Object.entries(TASKS)) {
    if (only ? !only.includes(task) : t.named) continue;
    const row = { task, what: t.what, peers: {} };
    for (const n of names) row.peers[n] = { runs: [] };
    for (let round = 0; round < runs; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const n of order) {
        const peer = peers[n];
        const url = `${urls[task]}?run=${n}-${round}-${Date.now()}`;
        const nav = await peer.call('browser_navigate', { url });
        if (nav.isError) throw new Error(`${n} browser_navigate ${url}: ${nav.text.slice(0, 300)}`);
        // Playwright learns of the navigation a moment after the server replied.
        let page = null;
        for (let i = 0; i < 50 && !page; i++) {
          page = ctx.context.pages().find((pg) => pg.url() === url);
          if (!page) await new Promise((r) => setTimeout(r, 100));
        }
        if (!page) throw new Error(`${n} navigated, but no tab shows ${url}: ${nav.text.slice(0, 300)}`);
        const a = new Agent(peer);
        // Where things are drawn, for the drawn tasks: what a model reads
        // off a screenshot, read here from the app's own layout.
        a.page = page;
        const t0 = performance.now();
        let error = null;
        try {
          await t.run(a);
        } catch (e) {
          error = e.message.slice(0, 400);
          log(`task ${task} / ${n}: ${error}`);
        }
        const ms = performance.now() - t0;
        fs.writeFileSync(path.join(dir, `${task}.${n}.txt`), a.transcript.join('\n\n') + '\n');
        const outcome = await page.evaluate(t.outcome || (() => document.body.dataset.outcome || null)).catch(() => null);
        let parsed = null;
        try { parsed = outcome && JSON.parse(outcome); } catch { /* not ours */ }
        const succeeded = !error && (t.check ? t.check(a) : t.expect(parsed, a));
        const sum = (k) => a.results.reduce((s, x) => s + x[k], 0);
        const parts = a.results.filter((x) => x.parts);
        row.peers[n].runs.push({
          succeeded, error, outcome, ms, calls: a.results.length,
          replyParts: parts.length ? ['first', 'tab', 'rest'].reduce((o, k) => ({ ...o, [k]: parts.reduce((t, x) => t + x.parts[k], 0) }), {}) : undefined,
          tokens: sum('tokens'), tokensChars3: sum('tokensChars3'), chars: sum('chars'),
          results: a.results.map((x) => ({ tool: x.tool, tokens: x.tokens, chars: x.chars, ms: Math.round(x.ms), isError: x.isError })),
        });
      }
    }
    for (const n of names) {
      const rs = row.peers[n].runs;
      const s = row.peers[n];
      s.succeeded = rs.every((r) => r.succeeded);
      s.tokens = stats(rs.map((r) => r.tokens)).median;
      s.tokensChars3 = stats(rs.map((r) => r.tokensChars3)).median;
      s.calls = stats(rs.map((r) => r.calls)).median;
      s.time = stats(rs.map((r) => r.ms));
      s.steps = rs[rs.length - 1].results;
      s.replyParts = rs[rs.length - 1].replyParts;
    }
    out.push(row);
    log(`task ${task}: ${names.map((n) => `${n} ${row.peers[n].tokens} tok${row.peers[n].succeeded ? '' : ' FAILED'}`).join(' | ')}`);
  }
  return out;
}
