// bench/clickable.mjs — what listing clickable elements with no role costs:
// on the benchmark's pages and on the widget pages of e2e/widgets, how many
// `clickable` lines a snapshot adds, their tokens against the whole
// snapshot's, and the top frame's walk time by the kernel's clock (median
// of N runs). Run it with two builds of grip to compare:
//
//   node bench/clickable.mjs --grip PATH [--runs 7] [--label NAME] [--out DIR]
//
// It starts a dedicated headless Chromium with `grip launch` (a temporary
// GRIP_STATE_DIR and profile), serves the pages on loopback, and prints a
// Markdown table. e2e/widgets' pages need its node_modules (scripts/setup --js).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, pageList } from './pages.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : def;
};
const GRIP = arg('grip', path.join(HERE, 'out/bin/grip'));
const RUNS = Number(arg('runs', '7'));
const LABEL = arg('label', path.basename(GRIP));
const OUT = arg('out', '');

/** A static server over e2e/widgets (its testdata pages and node_modules). */
function serveWidgets() {
  const root = path.join(HERE, '../e2e/widgets');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const s = http.createServer((req, res) => {
    const p = path.normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const file = path.join(root, p);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${s.address().port}`, close: () => s.close() })));
}

const state = fs.mkdtempSync(path.join(os.tmpdir(), 'grip-clickable-'));
const env = { ...process.env, GRIP_STATE_DIR: state };
// Asynchronous: the pages are served from this very process.
const run = promisify(execFile);
const grip = async (...args) => (await run(GRIP, args, { env, encoding: 'utf8', maxBuffer: 1 << 28 })).stdout;

const launched = await grip('launch', '--detach', '--no-sandbox', '--profile-dir', path.join(state, 'profile'));
const pid = Number((/pid (\d+)/.exec(launched) || [])[1]);
const pages = await serve();
const widgets = await serveWidgets();
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cost = (line) => Math.ceil([...line].length / 3);
try {
  const list = pageList(pages.origin1, { sizes: [1000, 5000, 20000], frames: [0] });
  for (const w of ['tomselect', 'flatpickr', 'aggrid', 'sortable', 'react-list']) {
    list.push({ name: 'widgets/' + w, url: `${widgets.origin}/testdata/${w}.html` });
  }
  const rows = [];
  const tab = String(JSON.parse(await grip('tabs', 'new', list[0].url, '--json')).tab.id);
  for (const p of list) {
    console.error('page ' + p.name);
    await grip('navigate', p.url, '--tab', tab);
    const mode = p.content ? 'content' : 'interactive';
    const walks = [];
    let snap = null;
    for (let i = 0; i <= RUNS; i++) {
      snap = JSON.parse(await grip('snapshot', '--tab', tab, '--json', '--timings', '--mode', mode, '--budget', '1000000'));
      if (i > 0) walks.push(snap.timings.frames.find((f) => f.frameId === 0).walk_ms);
    }
    if (OUT) { fs.mkdirSync(OUT, { recursive: true }); fs.writeFileSync(path.join(OUT, p.name.replace('/', '-') + '.txt'), snap.text); }
    const lines = snap.text.split('\n').filter((l) => /^@e\d+: \[/.test(l));
    const clickable = lines.filter((l) => /^@e\d+: \[clickable\b/.test(l));
    rows.push({
      page: p.name, mode, elements: lines.length, clickable: clickable.length,
      clickTokens: clickable.reduce((n, l) => n + cost(l), 0), tokens: snap.tokens, walk: median(walks),
    });
  }
  console.log(`\n${LABEL}: ${RUNS} runs, median top-frame walk (kernel clock)\n`);
  console.log('| page | mode | elements | clickable | their tokens | snapshot tokens | walk ms |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.page} | ${r.mode} | ${r.elements} | ${r.clickable} | ${r.clickTokens} | ${r.tokens} | ${r.walk.toFixed(1)} |`);
  }
} finally {
  pages.close();
  widgets.close();
  if (pid) { try { process.kill(-pid); } catch (_) { /* gone */ } }
  await new Promise((r) => setTimeout(r, 1000));
  try { fs.rmSync(state, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 }); } catch (e) { console.error('left ' + state + ': ' + e.message); }
}
