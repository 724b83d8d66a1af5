// MCP servers as an agent's peers (bench/run --mcp, --tasks): `grip mcp`
// and Playwright MCP, each over MCP stdio against the one benchmark
// Chromium, and the MCP-to-MCP figures: browser_snapshot round trips and
// tokens at three page sizes, and wait latency (browser_wait_for from the
// page's change to the reply).
//
// Playwright MCP is measured in the three ways it has answered actions
// (each pinned in package.json):
//   pw-mcp             @playwright/mcp 0.0.83, the current release: an
//                      action's reply links a snapshot file it wrote
//                      ("### Snapshot\n- [Snapshot](.playwright-mcp/page-….yml)")
//   pw-mcp-incremental 0.0.68, the last release that put the snapshot in
//                      the reply; by default only the part that changed
//   pw-mcp-full        0.0.68 with --snapshot-mode full: the whole snapshot
//                      after each action
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const HERE = path.dirname(new URL(import.meta.url).pathname);

export const PEERS = ['grip-mcp', 'pw-mcp', 'pw-mcp-incremental', 'pw-mcp-full'];

const PW_CLI = {
  'pw-mcp': ['@playwright/mcp', []],
  'pw-mcp-incremental': ['playwright-mcp-0.0.68', []],
  'pw-mcp-full': ['playwright-mcp-0.0.68', ['--snapshot-mode', 'full']],
  // With the coordinate tools (browser_mouse_click_xy, …_drag_xy): what
  // Playwright MCP offers for what is drawn (the drawn tasks of
  // components.mjs); not one of the default PEERS.
  'pw-mcp-vision': ['@playwright/mcp', ['--caps', 'vision']],
};

// Peers --mcp-peers may name besides PEERS.
export const MORE_PEERS = ['pw-mcp-vision'];

const now = () => performance.timeOrigin + performance.now();

/** The text of a tool result as the agent receives it: every text part. */
export function resultText(r) {
  return (r.content || []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export function tokens(text) {
  return { chars: text.length, tokens: countTokens(text), tokensChars3: Math.ceil(text.length / 3) };
}

function pkgVersion(name) {
  try { return JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules', name, 'package.json'), 'utf8')).version; } catch { return 'missing'; }
}

/**
 * startPeer starts one MCP server and connects to it. grip: the grip binary
 * bench/run built, `grip mcp`, with the run's GRIP_STATE_DIR. Playwright
 * MCP: its cli.js with --cdp-endpoint on the run's Chromium (it never
 * launches or downloads a browser of its own), in a workspace folder of its
 * own where it writes its snapshot files. A server that does not start or
 * lacks the tools the benchmark calls throws: the run stops on it.
 */
export async function startPeer(name, { bin, stateDir, port, workDir }) {
  let transport;
  let version;
  if (name === 'grip-mcp') {
    transport = new StdioClientTransport({ command: path.join(bin, 'grip'), args: ['mcp'], env: { ...process.env, GRIP_STATE_DIR: stateDir }, stderr: 'ignore' });
  } else {
    const [pkg, extra] = PW_CLI[name];
    const cli = path.join(HERE, 'node_modules', pkg, 'cli.js');
    if (!fs.existsSync(cli)) throw new Error(`${name}: ${cli} is missing (npm ci in bench/)`);
    fs.mkdirSync(workDir, { recursive: true });
    version = `@playwright/mcp ${pkgVersion(pkg)}${extra.length ? ` ${extra.join(' ')}` : ''}`;
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, '--cdp-endpoint', `http://127.0.0.1:${port}`, ...extra],
      cwd: workDir,
      env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
      stderr: 'ignore',
    });
  }
  const client = new Client({ name: 'grip-bench', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = new Set(tools.map((t) => t.name));
  for (const need of ['browser_snapshot', 'browser_click', 'browser_navigate', 'browser_wait_for', 'browser_select_option']) {
    if (!names.has(need)) throw new Error(`${name}: no ${need} tool`);
  }
  // What the agent pays once per session, before any work: the tool list
  // as the client holds it (JSON.stringify of the tools/list result) and
  // the instructions of the initialize result.
  const listing = { tools: tools.length, list: tokens(JSON.stringify({ tools })), instructions: tokens(client.getInstructions() || '') };
  const click = tools.find((t) => t.name === 'browser_click');
  const refKey = click.inputSchema.properties.ref ? 'ref' : 'target';
  const server = client.getServerVersion();
  return {
    name, client, workDir, refKey,
    grip: name === 'grip-mcp',
    // Whether action replies link a snapshot file instead of carrying it.
    linksSnapshots: name === 'pw-mcp',
    version: version || `${server?.name} ${server?.version}`,
    tools: names,
    listing,
    async call(tool, args, timeout = 120_000) {
      const t0 = now();
      const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout });
      const ms = now() - t0;
      return { ms, text: resultText(r), isError: !!r.isError };
    },
    close: () => client.close().catch(() => {}),
    pid: () => transport.pid,
  };
}

export async function startPeers(names, opts) {
  const peers = {};
  for (const n of names) peers[n] = await startPeer(n, { ...opts, workDir: path.join(opts.tmp, n) });
  return peers;
}

export async function closePeers(peers) {
  for (const p of Object.values(peers)) await p.close();
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return null;
  const q = (p) => {
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
  };
  return { n: s.length, median: q(0.5), min: s[0], max: s[s.length - 1] };
}
export { stats };

let tick = 0;
/**
 * changeFrames is the observer's change between reads, in every frame of
 * page (over CDP), which a MutationObserver sees. kind 'text' (the
 * default) renames the frame's first button: what a page an app or a
 * person touched between reads is, which changes what a snapshot shows,
 * so grip's kept walk is thrown away and the next read walks every frame.
 * kind 'attribute' sets an attribute of the page's own on the body
 * (data-bench-tick), which nothing a snapshot reads depends on: grip proves
 * that (docs/settling.md, "Re-reading an unchanged page") and re-reads.
 * Returns how many documents it changed.
 */
export async function changeFrames(page, kind = 'text') {
  tick++;
  const frames = page.frames();
  const changed = await Promise.all(frames.map((f) => f.evaluate(([t, k]) => {
    if (k === 'attribute') {
      document.body.setAttribute('data-bench-tick', String(t));
      return 1;
    }
    const b = document.querySelector('button');
    if (!b) return 0;
    b.textContent = 'Tick ' + t;
    return 1;
  }, [tick, kind])));
  return changed.reduce((a, x) => a + x, 0);
}

/**
 * snapshotRoundTrips times browser_snapshot over MCP on each page, one
 * warm-up then runs alternating the order of the servers, and counts the
 * reply's tokens. Each server reads the page three times a round, side by
 * side: first after an observer renamed a button in every frame (over CDP:
 * a change to what a snapshot shows, so grip walks every frame again), then
 * after the observer set an attribute of the page's own that nothing reads
 * (grip proves the page unchanged for it and re-reads), then at once again
 * (the page unchanged since that read: grip's re-read cache answers). grip
 * is asked for the whole page (a budget no page reaches), as Playwright MCP
 * never cuts; its default budget (40,000) is what an agent gets without
 * asking and is reported beside it.
 */
export async function snapshotRoundTrips(ctx, peers, pages, { runs, budget, open, out }) {
  const names = Object.keys(peers);
  const res = [];
  for (const p of pages) {
    const url = await open(p);
    const row = { page: p.name, controls: p.controls, frames: p.frames, peers: {}, changed: {}, pageOwn: {}, browserAfterChange: { ms: [] }, browserUnchanged: { ms: [] } };
    for (const n of names) { row.peers[n] = { ms: [] }; row.changed[n] = { ms: [] }; row.pageOwn[n] = { ms: [] }; }
    const read = async (n, args) => {
      const r = await peers[n].call('browser_snapshot', args, 600_000);
      if (r.isError) throw new Error(`${n} browser_snapshot on ${p.name}: ${r.text.slice(0, 300)}`);
      return r;
    };
    // The browser's own work after the observer's change, which any reader
    // waits for: a trivial read of every frame over CDP right after the
    // same rename, beside the same read of the page unchanged. Part of the
    // floor of a changed read (grip's unchanged read plus this).
    const trivial = async () => {
      const t0 = performance.now();
      await Promise.all(ctx.page.frames().map((f) => f.evaluate(() => 1)));
      return performance.now() - t0;
    };
    for (let round = 0; round <= runs; round++) {
      await changeFrames(ctx.page, 'text');
      const after = await trivial();
      const unchanged = await trivial();
      if (round > 0) { row.browserAfterChange.ms.push(after); row.browserUnchanged.ms.push(unchanged); }
    }
    row.browserAfterChange.time = stats(row.browserAfterChange.ms);
    row.browserUnchanged.time = stats(row.browserUnchanged.ms);
    for (let round = 0; round <= runs; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const n of order) {
        const args = peers[n].grip ? { budget } : {};
        const documents = (p.frames || 0) + 1;
        const renamed = await changeFrames(ctx.page, 'text');
        if (renamed !== documents) throw new Error(`${p.name}: the observer renamed a button in ${renamed} documents, not ${documents}`);
        const first = await read(n, args);
        const marked = await changeFrames(ctx.page, 'attribute');
        if (marked !== documents) throw new Error(`${p.name}: the observer changed ${marked} documents, not ${documents}`);
        const own = await read(n, args);
        const again = await read(n, args);
        if (round === 0) {
          // Both must have read the page the run opened, not another tab
          // (the first read on it names it; a re-read may not repeat it),
          // and its renamed buttons.
          if (!first.text.includes(url)) throw new Error(`${n} browser_snapshot did not read ${url}: ${first.text.slice(0, 200)}`);
          if (!first.text.includes(`Tick ${tick - 1}`)) throw new Error(`${n} browser_snapshot after the change does not say the renamed button (Tick ${tick - 1})`);
          Object.assign(row.peers[n], tokens(again.text));
          Object.assign(row.changed[n], tokens(first.text));
          Object.assign(row.pageOwn[n], tokens(own.text));
          fs.writeFileSync(path.join(out, `${p.name}.${n}.mcp.txt`), again.text);
        } else {
          row.changed[n].ms.push(first.ms);
          row.pageOwn[n].ms.push(own.ms);
          row.peers[n].ms.push(again.ms);
        }
      }
    }
    for (const n of names) {
      row.peers[n].time = stats(row.peers[n].ms);
      row.changed[n].time = stats(row.changed[n].ms);
      row.pageOwn[n].time = stats(row.pageOwn[n].ms);
    }
    const g = names.find((n) => peers[n].grip);
    if (g) {
      const d = await peers[g].call('browser_snapshot', {});
      row.gripDefaultBudget = { ...tokens(d.text), cut: /more elements omitted/.test(d.text) };
    }
    res.push(row);
  }
  return res;
}

/**
 * waitLatency measures browser_wait_for {text} the way e2e's
 * BenchmarkWaitLatency does: the page is told (over CDP) to add a text
 * 200 ms later and notes the time it did; the wait is asked at once; the
 * figure is the reply's arrival minus the page's note (one clock: the
 * machine's). The reply's tokens are counted too.
 */
export async function waitLatency(ctx, peers, { runs, url, socket }) {
  // Beside the MCP servers, grip's socket call alone (what e2e's benchmark
  // times): the MCP layer's share of grip's figure.
  const waiters = { ...peers };
  if (socket) waiters['grip-socket'] = { call: async (tool, args) => { await socket(args.text); return { text: '', isError: false }; } };
  const names = Object.keys(waiters);
  await ctx.page.goto(url, { waitUntil: 'load' });
  const res = {};
  for (const n of names) res[n] = { ms: [], tokens: [] };
  for (let round = 0; round <= runs; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const n of order) {
      const text = `mark ${n} ${round}`;
      await ctx.page.evaluate((t) => { window.__markedAt = 0; window.later(200, t); }, text);
      const r = await waiters[n].call('browser_wait_for', { text });
      const answered = now();
      if (r.isError) throw new Error(`${n} browser_wait_for: ${r.text.slice(0, 300)}`);
      const marked = await ctx.page.evaluate(() => window.__markedAt);
      if (!marked) throw new Error(`${n} browser_wait_for answered before the text appeared: ${r.text.slice(0, 200)}`);
      if (round === 0) continue;
      res[n].ms.push(answered - marked);
      if (n !== 'grip-socket') res[n].tokens.push(countTokens(r.text));
    }
  }
  for (const n of names) {
    res[n].time = stats(res[n].ms);
    res[n].tokensMedian = res[n].tokens.length ? stats(res[n].tokens).median : undefined;
  }
  return res;
}
