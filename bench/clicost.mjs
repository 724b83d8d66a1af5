// The CLI's fixed cost (bench/run --cli-cost): side by side in one run, a
// Go hello-world built here, `grip --help`, `grip tabs`, `grip snapshot` of
// a 30-control page, and Playwright's in-process page.ariaSnapshot({mode:
// 'ai'}) of the same page. Processes are started and timed by gripsnap
// (Go's os/exec: a fork and an exec, nothing of Node's), which also reads
// the child's user and system CPU from its rusage; Playwright's CPU is this
// Node process's own (process.cpuUsage), the client side as for the CLI.
// Beside them bench/mintabs, the same call as `grip tabs` in a binary that
// links only client/ and protocol/: the floor under grip tabs. Then where
// grip's time goes: GODEBUG=inittrace=1, the binaries' sizes and package
// counts, minor page faults, strace -c, and the socket spans of `grip tabs`
// (finding the host, dialling, hello; the call on an open connection).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stats } from './mcp.mjs';

const HERE = path.dirname(new URL(import.meta.url).pathname);
const AGENT_BROWSER = path.join(HERE, 'node_modules', 'agent-browser', 'bin', `agent-browser-${process.platform}-${process.arch}`);

const HELLO = `package main

import "fmt"

func main() { fmt.Println("hello, world") }
`;

/** buildHello builds a static Go hello-world (CGO_ENABLED=0, as grip is built) into bin. */
export function buildHello(bin) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grip-bench-hello-'));
  try {
    fs.writeFileSync(path.join(dir, 'go.mod'), 'module hello\n\ngo 1.26\n');
    fs.writeFileSync(path.join(dir, 'main.go'), HELLO);
    execFileSync('go', ['build', '-o', path.join(bin, 'hello'), '.'], { cwd: dir, env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '' }, stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return path.join(bin, 'hello');
}

/** parseInittrace sums GODEBUG=inittrace=1 lines: `init pkg @0.1 ms, 0.02 ms clock, 512 bytes, 4 allocs`. */
export function parseInittrace(stderr) {
  const pkgs = [];
  let lastAt = 0;
  for (const line of stderr.split('\n')) {
    const m = /^init (\S+) @([\d.]+) ms, ([\d.]+) ms clock, (\d+) bytes, (\d+) allocs/.exec(line);
    if (!m) continue;
    pkgs.push({ pkg: m[1], clockMs: Number(m[3]), bytes: Number(m[4]), allocs: Number(m[5]) });
    lastAt = Math.max(lastAt, Number(m[2]) + Number(m[3]));
  }
  const sum = (k) => pkgs.reduce((a, p) => a + p[k], 0);
  return {
    packages: pkgs.length, clockMs: sum('clockMs'), bytes: sum('bytes'), allocs: sum('allocs'), mainAtMs: lastAt, all: pkgs,
  };
}

/** parseStraceSummary reads `strace -c` output: total calls and the commonest syscalls. */
export function parseStraceSummary(text) {
  const rows = [];
  let total = null;
  for (const line of text.split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols[cols.length - 1] === 'total') { total = Number(cols[3]); continue; }
    // % time, seconds, usecs/call, calls, [errors], syscall
    if (cols.length >= 5 && /^[\d.]+$/.test(cols[0]) && /^\d+$/.test(cols[3])) rows.push({ syscall: cols[cols.length - 1], calls: Number(cols[3]) });
  }
  rows.sort((a, b) => b.calls - a.calls);
  return { total, top: rows.slice(0, 8) };
}

const INIT_RUNS = 9;

/** medianTrace merges inittrace runs: per package and in total, the median clock. */
function medianTrace(traces) {
  const med = (xs) => stats(xs).median;
  const per = new Map();
  for (const t of traces) for (const p of t.all) (per.get(p.pkg) || per.set(p.pkg, []).get(p.pkg)).push(p.clockMs);
  const t0 = traces[0];
  return {
    runs: traces.length, packages: t0.packages, bytes: t0.bytes, allocs: t0.allocs,
    clockMs: med(traces.map((t) => t.clockMs)), mainAtMs: med(traces.map((t) => t.mainAtMs)),
    top: [...per.entries()].map(([pkg, xs]) => ({ pkg, clockMs: med(xs), allocs: t0.all.find((p) => p.pkg === pkg)?.allocs }))
      .sort((a, b) => b.clockMs - a.clockMs).slice(0, 8),
  };
}

/** countDeps counts the packages a main package links (go list -deps), from the repository root. */
function countDeps(pkg) {
  try {
    return execFileSync('go', ['list', '-deps', pkg], { cwd: path.dirname(HERE), encoding: 'utf8' }).trim().split('\n').length;
  } catch { return undefined; }
}

function hasValgrind() {
  try { execFileSync('valgrind', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/** CALLGRIND_RUNS: instruction counts vary a little with the runtime's threads; the median of these. */
const CALLGRIND_RUNS = 5;

/** parseCallgrind reads the instruction count from callgrind's stderr (`==PID== Collected : N`). */
export function parseCallgrind(stderr) {
  const m = /Collected : (\d+)/.exec(stderr);
  return m ? Number(m[1]) : undefined;
}

function hasStrace() {
  try { execFileSync('strace', ['-V'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/**
 * cliCost measures the CLI's fixed cost on the page open in ctx (a
 * 30-control page, ctx.tabId): one warm-up round, then runs rounds, each
 * running every subject once, the order alternating from round to round.
 */
export async function cliCost(ctx, { runs, bin, out }) {
  const grip = path.join(bin, 'grip');
  // npm ci --ignore-scripts leaves agent-browser's native binary without its execute bit.
  if (fs.existsSync(AGENT_BROWSER)) fs.chmodSync(AGENT_BROWSER, 0o755);
  const hello = buildHello(bin);
  const env = [`GRIP_STATE_DIR=${ctx.browser.stateDir}`];
  const exec = (argv, extraEnv = [], output = false) => ctx.gripsnap.call({ op: 'exec', argv, env: [...env, ...extraEnv], output });
  const subjects = {
    'go hello-world': () => exec([hello]),
    'grip --help': () => exec([grip, '--help']),
    'grip tabs': () => exec([grip, 'tabs']),
    'mintabs': () => exec([path.join(bin, 'mintabs')]),
    'grip snapshot': () => exec([grip, 'snapshot', '--tab', String(ctx.tabId)]),
    // The other process-per-command CLI agents use, on the same (active)
    // tab; its daemon stays up between calls, as in normal use.
    ...(fs.existsSync(AGENT_BROWSER) ? {
      'agent-browser snapshot -i': () => exec([AGENT_BROWSER, '--cdp', String(ctx.browser.port), 'snapshot', '-i'],
        [`AGENT_BROWSER_SESSION=${ctx.abSession}`, `HOME=${ctx.abHome}`]),
    } : {}),
    'playwright ariaSnapshot': async () => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await ctx.page.ariaSnapshot({ mode: 'ai' });
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      return { ms, user_ms: c.user / 1000, sys_ms: c.system / 1000 };
    },
  };
  const names = Object.keys(subjects);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round <= runs; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const n of order) {
      const r = await subjects[n]();
      if (round > 0) samples[n].push(r);
    }
  }
  const res = { page: ctx.url, runs, subjects: {} };
  for (const n of names) {
    const s = samples[n];
    res.subjects[n] = {
      wall: stats(s.map((x) => x.ms)),
      user: stats(s.map((x) => x.user_ms)),
      sys: stats(s.map((x) => x.sys_ms)),
      cpu: stats(s.map((x) => x.user_ms + x.sys_ms)),
      maxrssKB: s[0].maxrss_kb ? stats(s.map((x) => x.maxrss_kb)).median : undefined,
      minflt: s[0].minflt ? stats(s.map((x) => x.minflt)).median : undefined,
    };
  }

  // The socket spans of grip tabs, and grip snapshot's call on an open connection.
  const spans = { connect: [], tabs: [], snap: [] };
  for (let i = 0; i <= runs; i++) {
    const c = await ctx.gripsnap.call({ op: 'connect' });
    const s = await ctx.gripsnap.call({ op: 'snap', tab: ctx.tabId, budget: 40000 });
    if (i === 0) continue;
    spans.connect.push(c.connect_ms);
    spans.tabs.push(c.tabs_ms);
    spans.snap.push(s.ms);
  }
  res.spans = { connectMs: stats(spans.connect), tabsCallMs: stats(spans.tabs), snapshotCallMs: stats(spans.snap) };

  // Where the time goes.
  // inittrace's clock is wall time, so a loaded machine inflates whichever
  // init was descheduled: the median of several runs per package.
  const init = async (argv) => {
    const traces = [];
    for (let i = 0; i < INIT_RUNS; i++) traces.push(parseInittrace((await exec(argv, ['GODEBUG=inittrace=1'], true)).stderr));
    return medianTrace(traces);
  };
  const mintabs = path.join(bin, 'mintabs');
  res.inittrace = { 'go hello-world': await init([hello]), 'grip --help': await init([grip, '--help']), 'grip tabs': await init([grip, 'tabs']), mintabs: await init([mintabs]) };
  res.sizes = { 'go hello-world': fs.statSync(hello).size, grip: fs.statSync(grip).size, mintabs: fs.statSync(mintabs).size };
  res.packages = { grip: countDeps('./cmd/grip'), mintabs: countDeps('./bench/mintabs') };
  if (hasStrace()) {
    const trace = async (name, argv) => {
      const file = path.join(out, `strace-${name.replace(/\W+/g, '-')}.txt`);
      await exec(['strace', '-f', '-c', '-o', file, ...argv]);
      return parseStraceSummary(fs.readFileSync(file, 'utf8'));
    };
    res.strace = { 'go hello-world': await trace('hello', [hello]), 'grip --help': await trace('grip-help', [grip, '--help']), 'grip tabs': await trace('grip-tabs', [grip, 'tabs']), mintabs: await trace('mintabs', [mintabs]) };
  } else res.strace = null;
  // Instructions, from valgrind's callgrind: what a loaded machine's clock
  // blurs, counted exactly. Valgrind now and then dies on a Go binary's
  // threads; such a run is tried again (up to three times).
  if (hasValgrind()) {
    const count = async (argv) => {
      const xs = [];
      let lastError;
      for (let i = 0, tries = 0; i < CALLGRIND_RUNS && tries < 3 * CALLGRIND_RUNS; tries++) {
        let n;
        try {
          // Without the runtime's signal-based preemption valgrind dies less often.
          n = parseCallgrind((await exec(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', ...argv], ['GODEBUG=asyncpreemptoff=1'], true)).stderr);
        } catch (e) { lastError = e; /* valgrind died (exit status 1): try again */ }
        if (n) { xs.push(n); i++; }
      }
      if (!xs.length) console.error(`callgrind of ${argv.join(' ')} failed: ${String(lastError).slice(0, 300)}`);
      return xs.length ? stats(xs) : undefined;
    };
    res.instructions = { 'go hello-world': await count([hello]), 'grip --help': await count([grip, '--help']), 'grip tabs': await count([grip, 'tabs']), mintabs: await count([mintabs]) };
    // As people build it: a plain go build (cgo on, Go's default with a C
    // compiler) beside the CGO_ENABLED=0 build above.
    const gripCgo = path.join(bin, 'grip-cgo');
    if (fs.existsSync(gripCgo)) {
      res.instructionsCgo = {
        'grip --version': { 'CGO_ENABLED=0': await count([grip, '--version']), 'go build (cgo)': await count([gripCgo, '--version']) },
        'grip tabs': { 'CGO_ENABLED=0': res.instructions['grip tabs'], 'go build (cgo)': await count([gripCgo, 'tabs']) },
      };
    }
  } else res.instructions = null;
  return res;
}
