// The benchmark driver (bench/run builds what it needs, then runs this).
// One Debian Chromium with grip's extension loaded and CDP on loopback; grip
// and its peers read the same tab in alternating order; results go to
// bench/out/results.json and bench/RESULTS.md.
//
//   node bench/run.mjs [--runs 7] [--quick] [--pages REGEX] [--tools LIST]
//                      [--cycles 1000] [--no-cycles] [--no-breakdown]
//                      [--breakdown gen-5000-f0,gen-5000-f10,gen-20000-f30]
//                      [--slow-ms 15000] [--pw-timeout 90000]
//                      [--tasks] [--mcp] [--cli-cost] [--task-runs 3] [--task-names a,b]
//                      [--cost-runs 21] [--wait-runs 15] [--mcp-pages LIST]
//                      [--mcp-peers grip-mcp,pw-mcp,pw-mcp-incremental,pw-mcp-full]
//                      [--scale] [--scale-runs 5]
//
// --tasks, --mcp and --cli-cost pick sections (tasks.mjs, mcp.mjs,
// clicost.mjs); given alone they run only those and update their sections
// of bench/RESULTS.md (through bench/results.json). A full run does all.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { serve, pageList, taskPages } from './pages.mjs';
import { parseGrip, parsePlaywright, parseAgentBrowser, parseDevtools, coverage } from './parse.mjs';
import { writeReport } from './report.mjs';
import { PEERS, MORE_PEERS, startPeers, closePeers, snapshotRoundTrips, waitLatency, changeFrames } from './mcp.mjs';
import { writePlaywrightListing } from './toollist.mjs';
import { runTasks, TASKS } from './tasks.mjs';
import { componentsInstalled, COMPONENT_TASKS } from './components.mjs';
import { cliCost } from './clicost.mjs';
import { scaleCurves, writeSVG } from './scale.mjs';
import { startGripsnap } from './gripsnap.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const OUT = path.join(HERE, 'out');
const BIN = path.join(OUT, 'bin');
const CHROMIUM = process.env.BENCH_CHROMIUM || '/usr/bin/chromium';
// Large enough that no page is cut: peers never cut, and coverage compares
// whole pages. (grip's default budget is 40,000 tokens.)
const BUDGET = 10_000_000;

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : def;
};
const flag = (name) => argv.includes(`--${name}`);
const QUICK = flag('quick');
const RUNS = Number(opt('runs', QUICK ? 3 : 7));
const PAGES = new RegExp(opt('pages', QUICK ? '^(gen-(100|1000)-f(0|10)|mail|dashboard)$' : '.'));
const TOOLS = (opt('tools', 'grip-cli,grip-socket,playwright,agent-browser,devtools-mcp')).split(',');
const CYCLES = flag('no-cycles') ? 0 : Number(opt('cycles', QUICK ? 200 : 1000));
const BREAKDOWN = !flag('no-breakdown');
const SLOW_MS = Number(opt('slow-ms', 15_000));
const SLOW_RUNS = 3;
const PW_TIMEOUT = Number(opt('pw-timeout', 90_000));
const BREAKDOWN_PAGES = opt('breakdown', QUICK ? 'gen-1000-f10' : 'gen-5000-f0,gen-5000-f10,gen-20000-f30').split(',');
// The sections of issue 16's figures. Named alone, they run alone; a run
// that names none (full or --quick) does them all, one that picks
// snapshot pages or tools (--pages, --tools) does none of them.
const PICKED = { tasks: flag('tasks'), mcp: flag('mcp'), cliCost: flag('cli-cost'), scale: flag('scale') };
const PICKED_ANY = Object.values(PICKED).some(Boolean);
const SNAPSHOT_PICK = argv.includes('--pages') || argv.includes('--tools') || argv.includes('--breakdown');
const SNAPSHOTS = !PICKED_ANY || SNAPSHOT_PICK || QUICK;
const SECTIONS = PICKED_ANY ? PICKED : { tasks: !SNAPSHOT_PICK, mcp: !SNAPSHOT_PICK, cliCost: !SNAPSHOT_PICK, scale: !SNAPSHOT_PICK };
const SCALE_RUNS = Number(opt('scale-runs', QUICK ? 2 : 5));
const TASK_RUNS = Number(opt('task-runs', QUICK ? 1 : 3));
const TASK_NAMES = opt('task-names', '');
const COST_RUNS = Number(opt('cost-runs', QUICK ? 5 : 21));
const WAIT_RUNS = Number(opt('wait-runs', QUICK ? 3 : 15));
// 30, 300 and 5,000 controls (issue 39): the first read after the page
// changed and a re-read of the unchanged page, side by side.
const MCP_PAGES = opt('mcp-pages', 'gen-30-f0,gen-300-f10,gen-5000-f10').split(',');
const MCP_PEERS = opt('mcp-peers', PEERS.join(',')).split(',');

const log = (...a) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => Number(process.hrtime.bigint()) / 1e6;

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => {
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
  };
  return { n: s.length, median: q(0.5), min: s[0], max: s[s.length - 1], q1: q(0.25), q3: q(0.75) };
}

function version(cmd, args) {
  try { return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n')[0]; } catch (e) { return `unknown (${e.message.split('\n')[0]})`; }
}

function pkgVersion(name) {
  try { return JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules', name, 'package.json'), 'utf8')).version; } catch { return 'missing'; }
}

// ------------------------------------------------------------ the browser

async function launchBrowser(tmp) {
  const profile = path.join(tmp, 'profile');
  const stateDir = path.join(tmp, 'state');
  fs.mkdirSync(stateDir, { recursive: true });
  const prep = JSON.parse(execFileSync(path.join(BIN, 'gripsnap'), ['prepare', '-profile', profile, '-grip', path.join(BIN, 'grip-host')], { encoding: 'utf8' }));
  const args = [...prep.flags, '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', '--window-size=1280,900', 'about:blank'];
  const logFile = fs.openSync(path.join(OUT, 'chromium.log'), 'w');
  const proc = spawn(CHROMIUM, args, {
    env: { ...process.env, ...Object.fromEntries(prep.env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])), GRIP_STATE_DIR: stateDir },
    stdio: ['ignore', logFile, logFile],
    detached: true, // its own process group: stopped as one at the end
  });
  // The file appears before Chromium has written its port into it: read
  // until its first line is one (an empty read gave port 0 under load).
  const portFile = path.join(profile, 'DevToolsActivePort');
  let port = 0;
  for (let i = 0; i < 300 && !(port > 0); i++) {
    await sleep(100);
    try { port = Number(fs.readFileSync(portFile, 'utf8').split('\n')[0]); } catch (_) { port = 0; }
  }
  if (!(port > 0)) throw new Error(`Chromium did not open its DevTools port (see ${OUT}/chromium.log)`);
  return { proc, port, profile, stateDir, extDir: prep.ext_dir, flags: args };
}

function stopBrowser(b) {
  try { process.kill(-b.proc.pid, 'SIGTERM'); } catch { /* gone */ }
}

// ------------------------------------------------------------ the tools

function runProcess(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => {
      const ms = now() - t0;
      if (code !== 0) reject(new Error(`${path.basename(cmd)} ${args.join(' ')}: exit ${code}: ${err.trim().slice(0, 500)}`));
      else resolve({ ms, text: out });
    });
  });
}

async function makeTools(ctx) {
  const tools = {};
  const skipped = {};
  const { stateDir, port } = ctx.browser;

  tools['grip-cli'] = {
    parse: parseGrip,
    snap: async () => runProcess(path.join(BIN, 'grip'), ['snapshot', '--tab', String(ctx.tabId), '--budget', String(BUDGET)], { GRIP_STATE_DIR: stateDir }),
  };
  tools['grip-socket'] = {
    parse: parseGrip,
    snap: async () => {
      const r = await ctx.gripsnap.call({ op: 'snap', tab: ctx.tabId, budget: BUDGET });
      return { ms: r.ms, text: r.text };
    },
  };
  tools['playwright'] = {
    parse: parsePlaywright,
    snap: async () => {
      const t0 = now();
      try {
        const text = await ctx.page.ariaSnapshot({ mode: 'ai', timeout: PW_TIMEOUT });
        return { ms: now() - t0, text };
      } catch (e) {
        // A timed-out ariaSnapshot keeps running in the page and would block
        // every later tool: stop it.
        await ctx.pageCDP?.send('Runtime.terminateExecution').catch(() => {});
        throw e;
      }
    },
  };

  const ab = path.join(HERE, 'node_modules', 'agent-browser', 'bin', `agent-browser-${process.platform}-${process.arch === 'x64' ? 'x64' : process.arch}`);
  // npm ci --ignore-scripts skips the package's postinstall, which sets the
  // execute bit on its native binary: set it here, then check it runs.
  if (fs.existsSync(ab)) fs.chmodSync(ab, 0o755);
  let abErr = fs.existsSync(ab) ? '' : `no native binary for ${process.platform}-${process.arch} at ${ab}`;
  if (!abErr) {
    try { execFileSync(ab, ['--version'], { timeout: 10_000, stdio: 'ignore' }); } catch (e) { abErr = `${ab} does not run: ${e.message}`; }
  }
  if (abErr) {
    skipped['agent-browser'] = abErr;
  } else {
    const env = { AGENT_BROWSER_SESSION: ctx.abSession, HOME: ctx.abHome };
    tools['agent-browser'] = {
      parse: parseAgentBrowser,
      snap: async () => runProcess(ab, ['--cdp', String(port), 'snapshot', '-i'], env),
      close: async () => { try { await runProcess(ab, ['close', '--all'], env); } catch (e) { log(`agent-browser close: ${e.message}`); } },
      bin: ab, env,
      kill: () => { try { execFileSync(ab, ['close', '--all'], { env: { ...process.env, ...env }, timeout: 5000, stdio: 'ignore' }); } catch { /* best effort */ } },
    };
  }

  try {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no-install', 'chrome-devtools-mcp', '--browser-url', `http://127.0.0.1:${port}`,
        '--no-usage-statistics', '--no-performance-crux', '--no-page-id-routing'],
      cwd: HERE,
      env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
      stderr: 'ignore',
    });
    const mcp = new Client({ name: 'grip-bench', version: '1.0.0' });
    await mcp.connect(transport);
    const { tools: list } = await mcp.listTools();
    if (!list.some((t) => t.name === 'take_snapshot')) throw new Error('no take_snapshot tool');
    tools['devtools-mcp'] = {
      parse: parseDevtools,
      // select_page makes sure the server reads the tab the others read.
      prepare: async () => {
        const pages = await mcp.callTool({ name: 'list_pages', arguments: {} });
        const text = pages.content.map((c) => c.text || '').join('\n');
        const m = text.split('\n').find((l) => l.includes(ctx.url));
        const id = m && /^(\d+):/.exec(m.trim());
        if (id) await mcp.callTool({ name: 'select_page', arguments: { pageId: Number(id[1]) } });
      },
      snap: async () => {
        const t0 = now();
        const r = await mcp.callTool({ name: 'take_snapshot', arguments: {} }, undefined, { timeout: 600_000 });
        const ms = now() - t0;
        if (r.isError) throw new Error(`take_snapshot: ${r.content.map((c) => c.text).join(' ')}`);
        return { ms, text: r.content.map((c) => c.text || '').join('\n') };
      },
      close: async () => { await mcp.close(); },
      kill: () => { try { transport.pid && process.kill(transport.pid); } catch { /* gone */ } },
    };
  } catch (e) {
    skipped['devtools-mcp'] = `chrome-devtools-mcp did not start: ${e.message}`;
  }
  for (const name of Object.keys(tools)) {
    if (TOOLS.includes(name)) continue;
    if (tools[name].close) await tools[name].close().catch(() => {});
    delete tools[name];
  }
  return { tools, skipped };
}

// ------------------------------------------------------------ one page

async function openPage(ctx, p) {
  ctx.url = `${p.url}${p.url.includes('?') ? '&' : '?'}run=${Date.now()}`;
  await ctx.page.goto(ctx.url, { waitUntil: 'load', timeout: 120_000 });
  await ctx.page.bringToFront();
  // every iframe loaded
  for (let i = 0; i < 100; i++) {
    const ok = await ctx.page.evaluate(() => [...document.querySelectorAll('iframe')].every((f) => f.dataset.loaded || f.contentWindow)).catch(() => false);
    if (ok) break;
    await sleep(50);
  }
  await sleep(300);
  const tabs = await ctx.gripsnap.call({ op: 'tabs' });
  const tab = tabs.tabs.find((t) => t.url === ctx.url);
  if (!tab) throw new Error(`grip does not list the tab ${ctx.url}: ${JSON.stringify(tabs.tabs)}`);
  ctx.tabId = tab.id;
}

async function measurePage(ctx, tools, p) {
  await openPage(ctx, p);
  for (const t of Object.values(tools)) if (t.prepare) await t.prepare();
  const names = Object.keys(tools);
  const res = { page: p.name, url: p.url, controls: p.controls ?? null, frames: p.frames ?? 0, tools: {} };
  for (const n of names) res.tools[n] = { ms: [], errors: [] };
  const outputs = {};
  const runsOf = {}; // a tool whose warm-up took longer than SLOW_MS gets SLOW_RUNS timed runs
  for (let round = 0; round <= RUNS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const n of order) {
      if (res.tools[n].skip || round > (runsOf[n] ?? RUNS)) continue;
      try {
        const r = await tools[n].snap();
        if (round === 0) {
          outputs[n] = r.text; // the warm-up's text is the output figure
          res.tools[n].warmupMs = r.ms;
          if (r.ms > SLOW_MS) {
            runsOf[n] = SLOW_RUNS;
            res.tools[n].note = `warm-up took ${(r.ms / 1000).toFixed(1)} s > ${SLOW_MS / 1000} s: ${SLOW_RUNS} timed runs`;
            log(`${p.name} ${n}: ${res.tools[n].note}`);
          }
        } else res.tools[n].ms.push(r.ms);
      } catch (e) {
        res.tools[n].errors.push(e.message.slice(0, 300));
        log(`${p.name} ${n}: ${e.message.slice(0, 200)}`);
        if (round === 0 || /[Tt]imeout|wedged/.test(e.message)) {
          res.tools[n].skip = `skipped on this page: ${e.message.slice(0, 160)}`;
          log(`${p.name} ${n}: ${res.tools[n].skip}`);
        }
      }
    }
  }
  const gripEls = outputs['grip-socket'] !== undefined ? parseGrip(outputs['grip-socket']) : parseGrip(outputs['grip-cli'] || '');
  for (const n of names) {
    const t = res.tools[n];
    const text = outputs[n];
    if (t.ms.length) t.time = stats(t.ms);
    if (text === undefined) continue;
    fs.writeFileSync(path.join(OUT, 'snapshots', `${p.name}.${n}.txt`), text);
    t.chars = text.length;
    t.tokens = countTokens(text);
    t.tokensChars3 = Math.ceil(text.length / 3);
    const els = tools[n].parse(text);
    t.refs = els.length;
    if (!n.startsWith('grip')) t.coverage = coverage(gripEls, els);
  }
  if (p.content && tools['grip-socket']) {
    // content mode, the mode an agent reads an article in
    const r = await ctx.gripsnap.call({ op: 'snap', tab: ctx.tabId, mode: 'content', budget: BUDGET });
    fs.writeFileSync(path.join(OUT, 'snapshots', `${p.name}.grip-content.txt`), r.text);
    res.gripContent = { ms: r.ms, chars: r.text.length, tokens: countTokens(r.text), tokensChars3: Math.ceil(r.text.length / 3) };
  }
  return res;
}

// ------------------------------------------------------------ breakdown

/**
 * Where grip's time goes: grip's own snapshots through the socket with the
 * host's timings (the worker's clock, each frame's walk by the kernel's
 * clock, the host's steps), alternating with probes injected from grip's
 * service worker (CDP Runtime.evaluate in the worker) that time what the
 * extension cannot see itself: executeScript with a trivial function
 * (injection and IPC per frame) and with a synthetic result of the same
 * size (the result's transfer, as objects and as one JSON string), and the
 * trivial one just after a change, injected at the document's idle time
 * (Chrome's default, grip's) and at once (injectImmediately). Before
 * each of grip's reads an observer changes every frame (mcp.mjs
 * changeFrames), so each is a full walk, not a re-read of a kept one.
 */
async function breakdown(ctx, p, runs) {
  await openPage(ctx, p);
  const sw = ctx.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
  if (!sw) throw new Error('grip service worker not found over CDP');
  const probe = (func, arg, immediately = false) => `(async () => {
    const f = ${func};
    const [tab] = await chrome.tabs.query({ url: ${JSON.stringify(ctx.url.split('#')[0])} });
    const t0 = performance.now();
    await chrome.scripting.executeScript({ target: { tabId: tab.id, allFrames: true }, world: 'ISOLATED', func: f, args: [${arg}], injectImmediately: ${immediately} });
    return performance.now() - t0;
  })()`;
  const trivial = probe('function noop(req) { return 1; }', '{}');
  const trivialNow = probe('function noop(req) { return 1; }', '{}', true);
  const synth = (asString) => probe(`function synth(req) {
    const n = document.querySelectorAll('button,a,input,select,[role]').length;
    const elements = [];
    for (let i = 0; i < n; i++) elements.push({ id: i + 1, role: 'button', name: 'Save item f12-' + i, states: i % 3 ? [] : ['checked'] });
    const res = { url: location.href, title: document.title, elements, stats: { nodes: n, ms: 0 } };
    return ${asString ? 'JSON.stringify(res)' : 'res'};
  }`, '{}');
  const synthObjects = synth(false);
  const synthString = synth(true);
  // The floor of a read after a change: a button renamed in each frame, every element visited, the style
  // the change makes each frame owe paid, each listed element's visibility
  // checked, and a result of the walk's size sent back as one string; no
  // name, role or state is computed. Any correct first read pays this.
  const floor = probe(`function floor(req) {
    const b = document.querySelector('button');
    if (b) b.textContent = 'Floor ' + Math.random();
    let n = 0;
    const visit = (el) => { n++; for (let c = el.firstElementChild; c; c = c.nextElementSibling) visit(c); };
    visit(document.documentElement);
    const listed = document.querySelectorAll('button,a,input,select,[role]');
    for (const el of listed) el.checkVisibility({ visibilityProperty: true });
    const k = listed.length;
    const elements = [];
    for (let i = 0; i < k; i++) elements.push({ id: i + 1, role: 'button', name: 'Save item f12-' + i, states: i % 3 ? [] : ['checked'] });
    return JSON.stringify({ url: location.href, title: document.title, elements, stats: { nodes: n, ms: 0 } });
  }`, '{}');
  /** A read's spans, from the host's timings and the socket's clock. */
  const spans = (r) => {
    const t = r.timings;
    const walks = t.frames.map((f) => f.walk_ms || 0);
    return { injectMs: t.inject_ms, workerMs: t.worker_ms, extensionMs: t.extension_ms, bytes: t.bytes,
      walkSumMs: walks.reduce((a, x) => a + x, 0), walkMaxMs: Math.max(...walks),
      nodes: t.frames.reduce((a, f) => a + f.nodes, 0), elements: t.frames.reduce((a, f) => a + f.elements, 0), frames: t.frames.length,
      decodeMs: t.decode_ms, refsMs: t.refs_ms, ledgerMs: t.ledger_ms, renderMs: t.render_ms, socketMs: r.ms };
  };
  const samples = [];
  for (let i = 0; i <= runs; i++) {
    const trivialMs = await sw.evaluate(trivial);
    const synthObjectsMs = await sw.evaluate(synthObjects);
    const synthStringMs = await sw.evaluate(synthString);
    const floorMs = await sw.evaluate(floor);
    await changeFrames(ctx.page);
    const trivialAfterMs = await sw.evaluate(trivial);
    await changeFrames(ctx.page);
    const trivialAfterNowMs = await sw.evaluate(trivialNow);
    await changeFrames(ctx.page);
    const g = await ctx.gripsnap.call({ op: 'snap', tab: ctx.tabId, budget: BUDGET });
    // The same page again, unchanged: the kept walks answer (reread.js).
    const u = await ctx.gripsnap.call({ op: 'snap', tab: ctx.tabId, budget: BUDGET });
    await changeFrames(ctx.page);
    const c = await runProcess(path.join(BIN, 'grip'), ['snapshot', '--tab', String(ctx.tabId), '--budget', String(BUDGET)], { GRIP_STATE_DIR: ctx.browser.stateDir });
    if (i === 0) continue;
    samples.push({ ...spans(g),
      cliMs: c.ms, trivialInjectMs: trivialMs, trivialAfterMs, trivialAfterNowMs, synthObjectsMs, synthStringMs, floorMs,
      same: spans(u) });
  }
  const medians = (xs) => {
    const m = {};
    for (const k of Object.keys(xs[0])) if (typeof xs[0][k] === 'number') m[k] = stats(xs.map((s) => s[k])).median;
    return m;
  };
  const med = { ...medians(samples), same: medians(samples.map((s) => s.same)) };
  return { page: p.name, runs, median: med, samples, profile: await profileKernel(ctx) };
}

/**
 * profileKernel records a CPU profile of the top frame's renderer while
 * grip takes snapshots and returns the functions with the most self time:
 * where the in-page walk goes.
 */
async function profileKernel(ctx) {
  const cdp = await ctx.context.newCDPSession(ctx.page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  for (let i = 0; i < 3; i++) {
    await changeFrames(ctx.page);
    await ctx.gripsnap.call({ op: 'snap', tab: ctx.tabId, budget: BUDGET });
  }
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.detach();
  const dt = {};
  const ids = profile.samples;
  for (let i = 0; i < ids.length; i++) dt[ids[i]] = (dt[ids[i]] || 0) + (profile.timeDeltas[i + 1] || 0);
  const self = new Map();
  let total = 0;
  for (const n of profile.nodes) {
    const us = dt[n.id] || 0;
    const cf = n.callFrame;
    if (cf.functionName === '(idle)') continue;
    const key = `${cf.functionName || '(anonymous)'}${cf.lineNumber >= 0 ? ` :${cf.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) || 0) + us);
    total += us;
  }
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([fn, us]) => ({ fn, ms: us / 1000 / 3, share: us / total }));
  return { runs: 3, totalMs: total / 1000 / 3, top };
}

// ------------------------------------------------------------ memory

async function memory(ctx, p, n) {
  await openPage(ctx, p);
  const cdp = await ctx.context.newCDPSession(ctx.page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const u = await cdp.send('Runtime.getHeapUsage');
    return { usedMB: u.usedSize / 2 ** 20, totalMB: u.totalSize / 2 ** 20 };
  };
  const before = await heap();
  const at = [1, 10, 100, 200, 500, n].filter((x, i, a) => x <= n && a.indexOf(x) === i);
  const t0 = now();
  const cyc = await ctx.gripsnap.call({ op: 'cycles', tab: ctx.tabId, n, click: 'Refresh now', at });
  const wall = now() - t0;
  const after = await heap();
  await cdp.detach();
  const refreshes = await ctx.page.evaluate(() => document.getElementById('tick').textContent);
  return { page: p.name, cycles: n, wallMs: wall, heapBefore: before, heapAfter: after, ...cyc, pageSays: refreshes };
}

// ------------------------------------------------------------ issue 16's sections

/**
 * stamp says when, how and on what a section was measured: a run of
 * sections alone keeps the other sections of an older run beside it.
 */
function stamp(versions) {
  return { started: new Date().toISOString(), command: `bench/run ${argv.join(' ')}`.trim(), loadavg: os.loadavg(), versions: { ...versions } };
}

/**
 * sections runs the MCP-to-MCP figures, the tasks and the CLI's fixed cost
 * on the run's browser. An MCP server that cannot start stops the run.
 */
async function sections(ctx, results, srv, tmp) {
  const urls = taskPages(srv.origin1);
  let peers = {};
  try {
    if (SECTIONS.mcp || SECTIONS.tasks) {
      for (const n of MCP_PEERS) if (!PEERS.includes(n) && !MORE_PEERS.includes(n)) throw new Error(`--mcp-peers: unknown peer ${n} (known: ${[...PEERS, ...MORE_PEERS].join(', ')})`);
      peers = await startPeers(MCP_PEERS, { bin: BIN, stateDir: ctx.browser.stateDir, port: ctx.browser.port, tmp: path.join(tmp, 'mcp') });
      ctx.peers = peers;
      for (const p of Object.values(peers)) results.versions[p.name] = p.version;
      results.versions['@playwright/mcp'] = pkgVersion('@playwright/mcp');
      log(`MCP servers: ${Object.values(peers).map((p) => `${p.name} (${p.version})`).join(', ')}`);
    }
    // Tasks first, in a fresh profile: the refs are @e1… as a new user's
    // (a month-old profile's are 7 digits, +2 tokens a line).
    if (SECTIONS.tasks) {
      let only = TASK_NAMES ? TASK_NAMES.split(',') : null;
      // The component tasks load e2e/widgets' and e2e/editors' packages: a
      // checkout without them would report every peer failing those tasks.
      if (!componentsInstalled() && (!only || only.some((t) => t in COMPONENT_TASKS))) {
        const why = 'the component tasks need e2e/widgets and e2e/editors installed (scripts/setup --js, or symlink their node_modules from a checkout that has them)';
        if (!flag('allow-skip')) throw new Error(`${why}; or pass --allow-skip to leave them out`);
        log(`SKIP the component tasks: ${why}`);
        results.skipped['component tasks'] = why;
        only = (only || Object.keys(TASKS)).filter((t) => !(t in COMPONENT_TASKS));
      }
      log(`tasks, ${TASK_RUNS} run(s) each through ${Object.keys(peers).join(', ')}`);
      results.tasks = { run: stamp(results.versions), tasks: await runTasks(ctx, peers, { runs: TASK_RUNS, only, urls, log, out: path.join(OUT, 'tasks') }) };
      results.tasks.run.finished = new Date().toISOString();
    }
    if (SECTIONS.mcp) {
      // Snapshots and waits: grip against the current Playwright MCP (the
      // older release reads pages with the same ariaSnapshot).
      const pair = Object.fromEntries(['grip-mcp', 'pw-mcp'].filter((n) => peers[n]).map((n) => [n, peers[n]]));
      const all = pageList(srv.origin1, { sizes: [30, 100, 300, 1000, 5000, 20000] });
      const pages = MCP_PAGES.map((n) => all.find((p) => p.name === n) || (() => { throw new Error(`--mcp-pages: no page ${n}`); })());
      const mcp = { run: stamp(results.versions) };
      // tools/list and the instructions, as each server's client received them at its start.
      mcp.toolsList = Object.fromEntries(Object.entries(peers).map(([n, p]) => [n, { version: p.version, ...p.listing }]));
      // The figures mcp/listsize_test.go holds grip's to, from this run.
      if (peers['pw-mcp']) writePlaywrightListing(peers['pw-mcp']);
      log(`MCP-to-MCP browser_snapshot on ${MCP_PAGES.join(', ')}`);
      mcp.snapshots = await snapshotRoundTrips(ctx, pair, pages, { runs: RUNS, budget: BUDGET, out: path.join(OUT, 'snapshots'), open: async (p) => { await openPage(ctx, p); return ctx.url; } });
      log(`MCP-to-MCP browser_wait_for, ${WAIT_RUNS} runs`);
      mcp.wait = await waitLatency(ctx, pair, { runs: WAIT_RUNS, url: urls.waits, socket: (text) => ctx.gripsnap.call({ op: 'wait', text }) });
      mcp.run.finished = new Date().toISOString();
      results.mcp = mcp;
    }
  } finally {
    await closePeers(peers);
    ctx.peers = null;
  }
  if (SECTIONS.cliCost) {
    log(`CLI fixed cost, ${COST_RUNS} alternating runs`);
    // The page of issue 28's comparison: 30 controls, one cross-origin frame.
    await openPage(ctx, { name: 'gen-30-f1x', url: `${srv.origin1}/gen?n=30&f=1&x=1`, controls: 30, frames: 1 });
    results.cliCost = { run: stamp(results.versions), ...await cliCost(ctx, { runs: COST_RUNS, bin: BIN, out: OUT }) };
    results.cliCost.run.finished = new Date().toISOString();
  }
  if (SECTIONS.scale) {
    log(`scale: frames ${'0/10/30/100'}, tabs ${'1/4/16'}, ${SCALE_RUNS} rounds each`);
    const run = { ...stamp(results.versions), command: results.command, load: os.loadavg().map((x) => x.toFixed(2)).join(' ') };
    results.scale = { run, ...await scaleCurves(ctx, { runs: SCALE_RUNS, origin: srv.origin1, bin: BIN, stateDir: ctx.browser.stateDir, budget: BUDGET, log }) };
    writeSVG(results.scale, path.join(QUICK ? OUT : HERE, 'scale.svg'));
  }
}

// ------------------------------------------------------------ main

async function main() {
  fs.mkdirSync(path.join(OUT, 'snapshots'), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grip-bench-'));
  const started = new Date();
  const srv = await serve();
  log(`pages on ${srv.origin1} and ${srv.origin2}`);
  const browser = await launchBrowser(tmp);
  log(`Chromium pid ${browser.proc.pid}, CDP on 127.0.0.1:${browser.port}, GRIP_STATE_DIR=${browser.stateDir}`);
  const ctx = { browser, abSession: `bench${process.pid}`, abHome: path.join(tmp, 'home') };
  fs.mkdirSync(ctx.abHome, { recursive: true });
  const results = {
    started: started.toISOString(), command: `bench/run ${argv.join(' ')}`.trim(), runs: RUNS, budget: BUDGET,
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGB: Math.round(os.totalmem() / 2 ** 30), kernel: os.release(), loadavg: os.loadavg() },
    versions: {
      chromium: version(CHROMIUM, ['--version']), go: version('go', ['version']), node: process.version,
      grip: version('git', ['-C', ROOT, 'describe', '--always', '--dirty']),
      'playwright-core': pkgVersion('playwright-core'), 'agent-browser': pkgVersion('agent-browser'),
      'chrome-devtools-mcp': pkgVersion('chrome-devtools-mcp'), '@modelcontextprotocol/sdk': pkgVersion('@modelcontextprotocol/sdk'), 'gpt-tokenizer': pkgVersion('gpt-tokenizer'),
    },
    pages: [], skipped: {}, breakdown: [], memory: null, errors: [],
  };
  let tools = {};
  const onSignal = (sig) => {
    log(`${sig}: stopping the browser and the tools`);
    stopBrowser(browser);
    for (const t of Object.values(tools)) t.kill?.();
    for (const p of Object.values(ctx.peers || {})) { try { process.kill(p.pid()); } catch { /* gone */ } }
    ctx.gripsnap?.proc.kill();
    setTimeout(() => {
      try { fs.rmSync(tmp, { recursive: true, force: true }); } catch { /* the browser may still be writing */ }
      process.exit(130);
    }, 1500);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    ctx.gripsnap = startGripsnap(BIN, browser.stateDir);
    const info = await ctx.gripsnap.call({ op: 'info' });
    results.versions.gripHost = info.host_version;
    results.hostPid = info.pid;
    log(`grip host pid ${info.pid} (${info.host_version}), profile ${info.profile}`);
    ctx.pw = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
    ctx.context = ctx.pw.contexts()[0];
    ctx.page = ctx.context.pages().find((pg) => pg.url() === 'about:blank') || await ctx.context.newPage();
    ctx.pageCDP = await ctx.context.newCDPSession(ctx.page);
    if (Object.values(SECTIONS).some(Boolean)) await sections(ctx, results, srv, tmp);
    if (SNAPSHOTS) {
      const made = await makeTools(ctx);
      tools = made.tools;
      results.skipped = { ...results.skipped, ...made.skipped };
      for (const [n, why] of Object.entries(made.skipped)) log(`SKIP ${n}: ${why}`);
      // A comparison that silently drops a peer is worse than none: a tool
      // asked for that cannot run stops the run (--allow-skip to go on).
      const dropped = Object.keys(made.skipped).filter((n) => TOOLS.includes(n));
      if (dropped.length && !flag('allow-skip')) {
        throw new Error(`cannot run ${dropped.join(', ')} (see SKIP above); fix it, leave it out with --tools, or pass --allow-skip`);
      }
      // gen-20000-f0 goes last: peers take minutes there and a stuck page
      // must not spoil the other figures.
      const LATE = ['gen-20000-f0'];
      const list = pageList(srv.origin1).filter((p) => PAGES.test(p.name));
      const measureAll = async (pages) => { for (const p of pages) {
        log(`page ${p.name}`);
        try {
          const r = await measurePage(ctx, tools, p);
          results.pages.push(r);
          log(`  ${Object.entries(r.tools).map(([n, t]) => `${n} ${t.time ? t.time.median.toFixed(1) : '-'}ms ${t.tokens ?? '-'}tok`).join(' | ')}`);
        } catch (e) {
          results.errors.push(`${p.name}: ${e.message}`);
          log(`  failed: ${e.stack}`);
        }
        fs.writeFileSync(path.join(OUT, 'results.json'), JSON.stringify(results, null, 1));
      } };
      await measureAll(list.filter((p) => !LATE.includes(p.name)));
      if (BREAKDOWN) {
        const all = pageList(srv.origin1);
        for (const name of BREAKDOWN_PAGES) {
          log(`breakdown ${name}`);
          try {
            results.breakdown.push(await breakdown(ctx, all.find((p) => p.name === name), RUNS));
          } catch (e) {
            results.errors.push(`breakdown ${name}: ${e.message}`);
            log(`  failed: ${e.stack}`);
          }
        }
      }
      if (CYCLES) {
        log(`memory: ${CYCLES} snapshot + click cycles on the dashboard`);
        try {
          results.memory = await memory(ctx, pageList(srv.origin1).find((p) => p.name === 'dashboard'), CYCLES);
        } catch (e) {
          results.errors.push(`memory: ${e.message}`);
          log(`  failed: ${e.stack}`);
        }
      }
      await measureAll(list.filter((p) => LATE.includes(p.name)));
    }
  } finally {
    results.finished = new Date().toISOString();
    fs.writeFileSync(path.join(OUT, 'results.json'), JSON.stringify(results, null, 1));
    for (const t of Object.values(tools)) if (t.close) await t.close().catch(() => {});
    ctx.gripsnap?.close();
    await ctx.pw?.close().catch(() => {});
    stopBrowser(browser);
    srv.close();
    await sleep(500);
    try { fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }); } catch (e) { log(`could not remove ${tmp}: ${e.message}`); }
  }
  // A full run replaces bench/RESULTS.md and the data behind it,
  // bench/results.json; a run of sections alone (--tasks, --mcp,
  // --cli-cost) replaces those sections there; partial snapshot runs
  // report in out/.
  if (QUICK || SNAPSHOT_PICK) {
    writeReport(results, path.join(HERE, QUICK ? 'out/RESULTS.quick.md' : 'out/RESULTS.partial.md'));
  } else {
    const kept = path.join(HERE, 'results.json');
    let data = results;
    if (!SNAPSHOTS && fs.existsSync(kept)) {
      data = JSON.parse(fs.readFileSync(kept, 'utf8'));
      for (const k of ['mcp', 'tasks', 'cliCost', 'scale']) if (results[k]) data[k] = results[k];
    }
    fs.writeFileSync(kept, JSON.stringify(slim(data), null, 1) + '\n');
    writeReport(data, path.join(HERE, 'RESULTS.md'));
  }
  log(`wrote ${path.join(OUT, 'results.json')} and the report`);
}

/** slim drops what the report does not read (each run's samples) from the kept results. */
function slim(r) {
  const c = structuredClone(r);
  for (const b of c.breakdown || []) delete b.samples;
  for (const p of c.pages || []) for (const t of Object.values(p.tools)) delete t.ms;
  for (const s of c.mcp?.snapshots || []) for (const t of [...Object.values(s.peers), ...Object.values(s.changed || {}), ...Object.values(s.pageOwn || {}), ...[s.browserAfterChange, s.browserUnchanged].filter(Boolean)]) delete t.ms;
  for (const t of Object.values(c.mcp?.wait || {})) { delete t.ms; delete t.tokens; }
  for (const t of c.tasks?.tasks || []) for (const p of Object.values(t.peers)) for (const r of p.runs) delete r.results;
  return c;
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
