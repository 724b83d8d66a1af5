// How the cost of a read grows with the frames of a page and with the tabs
// an agent works in at once (bench/run --scale). Frames: one page of 300
// controls spread over its top frame and 0, 10, 30 or 100 cross-origin
// iframes, read by grip (a socket call and a CLI process) and by
// Playwright's ariaSnapshot, alternating. Tabs: 1, 4 or 16 tabs of a
// 300-control page with one iframe, each read by its own agent at the same
// time — for grip one socket connection per agent (bench/gripsnap serve),
// for Playwright one ariaSnapshot per page over its one CDP connection —
// timed from the first request to the last reply. The section's table and
// plot (bench/scale.svg) go into bench/RESULTS.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startGripsnap } from './gripsnap.mjs';

const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : undefined;
};

export const FRAME_STEPS = [0, 10, 30, 100];
export const TAB_STEPS = [1, 4, 16];
const CONTROLS = 300;

function runGrip(bin, stateDir, args) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const p = spawn(path.join(bin, 'grip'), args, { env: { ...process.env, GRIP_STATE_DIR: stateDir }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(now() - t0) : reject(new Error(`grip ${args.join(' ')}: exit ${code}: ${err.slice(0, 300)}`))));
  });
}

/** Opens url in page and waits for its frames; returns grip's tab id. */
async function open(page, url, gripsnap) {
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  for (let i = 0; i < 200; i++) {
    const ok = await page.evaluate(() => [...document.querySelectorAll('iframe')].every((f) => f.contentWindow)).catch(() => false);
    if (ok) break;
    await sleep(50);
  }
  await sleep(300);
  const tabs = await gripsnap.call({ op: 'tabs' });
  const tab = tabs.tabs.find((t) => t.url === url);
  if (!tab) throw new Error(`grip does not list ${url}`);
  return tab.id;
}

/**
 * scaleCurves measures both curves on the run's browser (ctx: the driver's
 * context, with ctx.context a Playwright BrowserContext and ctx.gripsnap the
 * driver's own connection).
 */
export async function scaleCurves(ctx, { runs, origin, bin, stateDir, budget, log }) {
  const out = { controls: CONTROLS, runs, frames: [], tabs: [] };
  const page = ctx.page;
  for (const f of FRAME_STEPS) {
    const url = `${origin}/gen?n=${CONTROLS}&f=${f}&scale=${Date.now()}`;
    const tab = await open(page, url, ctx.gripsnap);
    const ms = { 'grip-socket': [], 'grip-cli': [], playwright: [] };
    const tools = {
      'grip-socket': async () => (await ctx.gripsnap.call({ op: 'snap', tab, budget })).ms,
      'grip-cli': () => runGrip(bin, stateDir, ['snapshot', '--tab', String(tab), '--budget', String(budget)]),
      playwright: async () => { const t0 = now(); await page.ariaSnapshot({ mode: 'ai', timeout: 120_000 }); return now() - t0; },
    };
    const names = Object.keys(tools);
    for (let round = 0; round <= runs; round++) {
      const order = round % 2 ? [...names].reverse() : names;
      for (const n of order) {
        const t = await tools[n]();
        if (round > 0) ms[n].push(t); // round 0 warms up
      }
    }
    const point = { frames: f, median: Object.fromEntries(names.map((n) => [n, median(ms[n])])) };
    out.frames.push(point);
    log(`  scale: ${f} frames: ${names.map((n) => `${n} ${point.median[n].toFixed(1)} ms`).join(', ')}`);
  }

  // Tabs: K pages, K agents, one round = every agent reads its own tab at once.
  const maxTabs = Math.max(...TAB_STEPS);
  // New pages only: Chrome makes the tab in front the opener of each, and
  // grip's worker takes a tab whose snapshot is slow (16 read at once on a
  // loaded machine) while a debugger (Playwright here) is attached to tabs
  // it opened as held paused by that debugger (extension/snapshot.js
  // unlessHeld), which stopped the run. The tabs read open nothing.
  const pages = [];
  while (pages.length < maxTabs) pages.push(await ctx.context.newPage());
  const urls = pages.map((_, i) => `${origin}/gen?n=${CONTROLS}&f=1&tab=${i}&scale=${Date.now()}`);
  const ids = [];
  for (let i = 0; i < pages.length; i++) ids.push(await open(pages[i], urls[i], ctx.gripsnap));
  const agents = [];
  try {
    for (let i = 0; i < maxTabs; i++) agents.push(startGripsnap(bin, stateDir));
    for (const a of agents) await a.call({ op: 'info' });
    for (const k of TAB_STEPS) {
      const ms = { 'grip-socket': [], playwright: [] };
      const rounds = {
        'grip-socket': async () => { const t0 = now(); await Promise.all(agents.slice(0, k).map((a, i) => a.call({ op: 'snap', tab: ids[i], budget }))); return now() - t0; },
        playwright: async () => { const t0 = now(); await Promise.all(pages.slice(0, k).map((p) => p.ariaSnapshot({ mode: 'ai', timeout: 120_000 }))); return now() - t0; },
      };
      const names = Object.keys(rounds);
      for (let round = 0; round <= runs; round++) {
        const order = round % 2 ? [...names].reverse() : names;
        for (const n of order) {
          const t = await rounds[n]();
          if (round > 0) ms[n].push(t);
        }
      }
      const point = { tabs: k, median: Object.fromEntries(names.map((n) => [n, median(ms[n])])) };
      out.tabs.push(point);
      log(`  scale: ${k} tabs at once: ${names.map((n) => `${n} ${point.median[n].toFixed(1)} ms`).join(', ')}`);
    }
  } finally {
    for (const a of agents) a.close();
    for (const p of pages) await p.close().catch(() => {});
  }
  return out;
}

const COLORS = { 'grip-socket': '#1b7f3b', 'grip-cli': '#59b36f', playwright: '#b03a2e' };

/** svgPlot draws one curve per tool: x the steps (evenly spaced), y ms. */
function svgPlot(points, key, title, x0, width, height) {
  const tools = Object.keys(points[0].median);
  const maxY = Math.max(...points.flatMap((p) => tools.map((t) => p.median[t] || 0))) * 1.1 || 1;
  const L = 50, B = 30, T = 24;
  const px = (i) => x0 + L + (i * (width - L - 20)) / Math.max(1, points.length - 1);
  const py = (v) => T + (height - T - B) * (1 - v / maxY);
  const el = [];
  el.push(`<text x="${x0 + width / 2}" y="16" text-anchor="middle" font-size="13">${title}</text>`);
  el.push(`<line x1="${x0 + L}" y1="${py(0)}" x2="${x0 + width - 20}" y2="${py(0)}" stroke="#888"/>`);
  el.push(`<line x1="${x0 + L}" y1="${T}" x2="${x0 + L}" y2="${py(0)}" stroke="#888"/>`);
  for (let g = 0; g <= 4; g++) {
    const v = (maxY * g) / 4;
    el.push(`<text x="${x0 + L - 4}" y="${py(v) + 4}" text-anchor="end" font-size="10">${v.toFixed(0)}</text>`);
  }
  el.push(`<text x="${x0 + 12}" y="${T + (height - T - B) / 2}" font-size="10" transform="rotate(-90 ${x0 + 12} ${T + (height - T - B) / 2})" text-anchor="middle">ms (median)</text>`);
  points.forEach((p, i) => el.push(`<text x="${px(i)}" y="${height - 10}" text-anchor="middle" font-size="10">${p[key]}</text>`));
  for (const t of tools) {
    const pts = points.map((p, i) => `${px(i).toFixed(1)},${py(p.median[t]).toFixed(1)}`).join(' ');
    el.push(`<polyline fill="none" stroke="${COLORS[t] || '#333'}" stroke-width="2" points="${pts}"/>`);
    points.forEach((p, i) => el.push(`<circle cx="${px(i).toFixed(1)}" cy="${py(p.median[t]).toFixed(1)}" r="3" fill="${COLORS[t] || '#333'}"/>`));
  }
  return el.join('\n');
}

/** writeSVG writes the two plots side by side. */
export function writeSVG(scale, file) {
  const w = 420, h = 260;
  const tools = [...new Set([...scale.frames, ...scale.tabs].flatMap((p) => Object.keys(p.median)))];
  const legend = tools.map((t, i) => `<rect x="${20 + i * 130}" y="${h + 8}" width="12" height="12" fill="${COLORS[t] || '#333'}"/><text x="${36 + i * 130}" y="${h + 18}" font-size="11">${t}</text>`).join('\n');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * w}" height="${h + 30}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
${svgPlot(scale.frames, 'frames', `one read of ${scale.controls} controls, by iframes`, 0, w, h)}
${svgPlot(scale.tabs, 'tabs', 'tabs read at once (one agent each), by tabs', w, w, h)}
${legend}
</svg>
`;
  fs.writeFileSync(file, svg);
}

/** renderScale is the RESULTS.md section. */
export function renderScale(s) {
  if (!s) return '';
  const f1 = (x) => (x === undefined ? '–' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const out = [];
  const w = (x = '') => out.push(x);
  w('## Scale: frames and tabs');
  w();
  w(`Measured ${s.run?.started ?? ''} by \`${s.run?.command ?? 'bench/run --scale'}\`, load ${s.run?.load ?? '–'} at its start (2 shared cores); medians of ${s.runs} rounds after a warm-up, the tools alternating. Plot: [scale.svg](scale.svg).`);
  w();
  w(`**By frames**: one page of ${s.controls} controls spread over the top frame and N cross-origin iframes.`);
  w();
  w('| iframes | grip-socket ms | grip-cli ms | playwright ms | grip-socket / playwright | grip-socket ms per frame over 0 |');
  w('| ---: | ---: | ---: | ---: | ---: | ---: |');
  const base = s.frames[0]?.median['grip-socket'];
  for (const p of s.frames) {
    const m = p.median;
    w(`| ${p.frames} | ${f1(m['grip-socket'])} | ${f1(m['grip-cli'])} | ${f1(m.playwright)} | ${m.playwright ? (m['grip-socket'] / m.playwright).toFixed(2) + '×' : '–'} | ${p.frames ? f1((m['grip-socket'] - base) / p.frames) : '–'} |`);
  }
  w();
  w(`**By tabs**: K tabs of a ${s.controls}-control page with one iframe, each read by its own agent at the same time (grip: K socket connections; Playwright: K pages over one CDP connection); the time from the first request to the last reply.`);
  w();
  w('| tabs at once | grip-socket ms | playwright ms | grip-socket / playwright | grip ms per tab |');
  w('| ---: | ---: | ---: | ---: | ---: |');
  for (const p of s.tabs) {
    const m = p.median;
    w(`| ${p.tabs} | ${f1(m['grip-socket'])} | ${f1(m.playwright)} | ${m.playwright ? (m['grip-socket'] / m.playwright).toFixed(2) + '×' : '–'} | ${f1(m['grip-socket'] / p.tabs)} |`);
  }
  w();
  return out.join('\n');
}
