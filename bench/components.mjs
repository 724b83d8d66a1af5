// Tasks on real third-party components (bench/run --tasks, beside the
// tasks of tasks.mjs): the host pages e2e/widgets and e2e/editors drive,
// with the npm packages those folders pin (scripts/setup --js installs
// them), served by pages.mjs under these paths:
//
//   /node_modules/…  e2e/widgets/node_modules, else e2e/editors/node_modules
//   /testdata/…      e2e/widgets/testdata (Choices.js, the admin list)
//   /editors/…       e2e/editors/testdata (Editor.js, Ace with its own label)
//   /kernel/…        internal/kerneltest/testdata (the mail reading pane)
//
// Each task is what an agent would do on the component, scripted for each
// server from what its snapshots say (tasks.mjs's Agent): grip names a
// custom select by its label and a table's field by its headers, where
// Playwright MCP's snapshot has an unnamed element the agent must find by
// the text around it (Agent.refAfter). A page with no outcome of its own
// is read through the component's API (outcome); a task whose result is
// what the agent read checks the transcript (check).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const MOUNTS = [
  ['/node_modules/', ['e2e/widgets/node_modules', 'e2e/editors/node_modules', 'e2e/drawn/node_modules']],
  ['/drawn/', ['e2e/drawn/testdata']],
  ['/testdata/', ['e2e/widgets/testdata']],
  ['/editors/', ['e2e/editors/testdata']],
  ['/kernel/', ['internal/kerneltest/testdata']],
];

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

/**
 * serveComponent answers a request for one of the mounted files and
 * returns true, or returns false when pathname is not under a mount.
 */
export function serveComponent(pathname, res) {
  for (const [prefix, dirs] of MOUNTS) {
    if (!pathname.startsWith(prefix)) continue;
    const rel = path.normalize(decodeURIComponent(pathname.slice(prefix.length)));
    if (rel.startsWith('..') || path.isAbsolute(rel)) break;
    for (const d of dirs) {
      const file = path.join(ROOT, d, rel);
      if (fs.existsSync(file) && fs.statSync(file).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(fs.readFileSync(file));
        return true;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end(`not found (run scripts/setup --js for the components under ${dirs.join(', ')})`);
    return true;
  }
  return false;
}

/** The component tasks' pages, by task name. */
export function componentPages(origin1) {
  return {
    'choices': `${origin1}/testdata/choices.html`,
    'admin-table': `${origin1}/testdata/admin.html`,
    'mail-body': `${origin1}/kernel/mail.html`,
    'editorjs-body': `${origin1}/editors/editorjs.html`,
    'ace-fill': `${origin1}/editors/ace-query.html`,
    'virtual-list': `${origin1}/testdata/tanstack.html`,
    'jointjs-wire': `${origin1}/drawn/flow.html`,
    'chart-legend': `${origin1}/drawn/chart.html`,
    'sheet-cell': `${origin1}/drawn/sheet.html`,
  };
}

/** Whether the packages the component pages load are installed. */
export function componentsInstalled() {
  return ['e2e/drawn/node_modules/@joint/core', 'e2e/widgets/node_modules/choices.js', 'e2e/widgets/node_modules/@tanstack/virtual-core', 'e2e/editors/node_modules/@editorjs/editorjs', 'e2e/editors/node_modules/ace-builds']
    .every((p) => fs.existsSync(path.join(ROOT, p)));
}

/** Picks an option of a custom select as each server's agent can: grip's
 * select on the combobox named by its label; with Playwright MCP, whose
 * select tool takes only native selects, a click on the control the
 * snapshot shows after the label's text, then on the option. */
async function pickCustom(a, label, option) {
  if (a.peer.grip) {
    await a.select('combobox', label, option);
    return;
  }
  await a.clickRef(a.refAfter(label, /^(listbox|combobox)$/), `${label} select`);
  await a.click('option', option);
}

/** The ref of the element of role whose name starts with prefix that the
 * agent was told of (a row it knows by its id), or null. */
function refStarting(a, role, prefix) {
  for (const [k, ref] of a.known) {
    const [r, name] = k.split('\u0000');
    if (r === role && name.startsWith(prefix)) return ref;
  }
  return null;
}

/** The centre of what the page's function where() returns ({x, y, w, h} in
 * the viewport), as a model reads it off a screenshot. */
async function spotOf(a, where) {
  const b = await a.page.evaluate(where);
  if (!b) throw new Error(`${a.peer.name}: the page does not show the spot`);
  return b;
}

/** The drawn tasks' calls for Playwright MCP: its coordinate tools, which
 * only --caps vision offers; without them nothing of a drawing or a
 * canvas has a ref to act on. A screenshot first: what the model looks at
 * to choose the point (its image is not counted, for either server). */
async function pwXY(a, tool, args) {
  if (!a.peer.tools.has(tool)) throw new Error(`${a.peer.name}: no element of the drawing has a ref, and no ${tool} without --caps vision`);
  const shot = await a.call('browser_take_screenshot', {});
  if (shot.isError) throw new Error(`${a.peer.name} browser_take_screenshot: ${shot.text.slice(0, 300)}`);
  const r = await a.call(tool, { element: 'the drawing', ...args });
  if (r.isError) throw new Error(`${a.peer.name} ${tool}: ${r.text.slice(0, 300)}`);
  return r;
}

/** grip's screenshot of a canvas with its coordinates drawn on (--grid). */
async function gripGrid(a, ref) {
  const shot = await a.call('browser_take_screenshot', { ref, grid: true, element: 'the canvas' });
  if (shot.isError) throw new Error(`${a.peer.name} browser_take_screenshot: ${shot.text.slice(0, 300)}`);
}

export const COMPONENT_TASKS = {
  'choices': {
    what: 'Choices.js (issue 25 item 5): set a ticket\'s Priority to Urgent and its Team to Infrastructure',
    async run(a) {
      await a.call('browser_snapshot', {});
      await pickCustom(a, 'Priority', 'Urgent');
      await pickCustom(a, 'Team', 'Infrastructure');
    },
    outcome: () => JSON.stringify({ priority: window.priority.getValue(true), team: window.team.getValue(true) }),
    expect: (o) => o?.priority === 'urgent' && o?.team === 'infra',
  },
  'admin-table': {
    what: 'an admin change list whose fields only the table\'s headers label (item 8): Darjeeling\'s price to 5.90, Matcha\'s status to Active, Save',
    async run(a) {
      await a.call('browser_snapshot', {});
      if (a.peer.grip) {
        await a.fill('textbox', 'Darjeeling / Price', '5.90');
        await a.select('combobox', 'Matcha / Status', 'Active');
      } else {
        await a.actRef('browser_type', a.refAfter('Darjeeling', /^textbox$/), 'Darjeeling price', { text: '5.90' });
        await a.actRef('browser_select_option', a.refAfter('Matcha', /^combobox$/), 'Matcha status', { values: ['Active'] });
      }
      await a.click('button', 'Save');
    },
    outcome: () => document.body.dataset.saved || null,
    expect: (o) => o?.['form-1-price'] === '5.90' && o?.['form-2-status'] === 'active' && o?.['form-0-price'] === '4.50',
  },
  'mail-body': {
    what: 'a mail client\'s reading pane (item 4): read the open message\'s body (Revenue is up 12%)',
    async run(a) {
      await a.call('browser_snapshot', a.peer.grip ? { mode: 'content' } : {});
    },
    check: (a) => a.transcript.some((t) => t.includes('Revenue is up 12% on last year.')),
  },
  'editorjs-body': {
    what: 'Editor.js (item 3): type the body of a post into its paragraph block',
    async run(a) {
      await a.call('browser_snapshot', {});
      // The body is an editable block with no role: grip lists it as a
      // textbox named by its placeholder; Playwright MCP's snapshot has no
      // element for it.
      await a.act('browser_type', 'textbox', 'Tell your story…', { text: 'Wild garlic is back.' });
    },
    outcome: () => window.editor.save().then((d) => JSON.stringify(d.blocks.map((b) => b.data.text))),
    expect: (o) => Array.isArray(o) && o[1] === 'Wild garlic is back.',
  },
  'virtual-list': {
    what: 'TanStack Virtual (item 7): in a virtualized list of 2,000 orders (22 rendered), find order ORD-0400 and choose it',
    async run(a) {
      await a.call('browser_snapshot', {});
      const list = await a.ref('listbox', 'Orders');
      const target = 'ORD-0400';
      if (a.peer.grip) {
        // grip scrolls the list in the page until the row shows, and
        // replies with that row.
        const r = await a.call('browser_scroll', { text: target, ref: list, element: 'Orders list' });
        if (r.isError) throw new Error(`${a.peer.name} browser_scroll: ${r.text.slice(0, 300)}`);
      } else {
        // Playwright MCP has no scroll of an element's content: the agent
        // scrolls the list by a screen with browser_evaluate and reads
        // what it shows now, until the row is there.
        for (let i = 0; i < 60 && !refStarting(a, 'option', target); i++) {
          const r = await a.call('browser_evaluate', { function: '(el) => { el.scrollTop += el.clientHeight; }', element: 'Orders list', [a.peer.refKey]: list });
          if (r.isError) throw new Error(`${a.peer.name} browser_evaluate: ${r.text.slice(0, 300)}`);
          // A reply that carries the snapshot (or what changed of it) has
          // told the agent what the list shows; one that links it or
          // says nothing of the page needs a look.
          if (!refStarting(a, 'option', target) && (a.peer.linksSnapshots || !r.text.includes('[ref='))) await a.look();
        }
      }
      const ref = refStarting(a, 'option', target);
      if (!ref) throw new Error(`${a.peer.name}: no option ${target} after scrolling`);
      await a.clickRef(ref, `order ${target}`);
    },
    outcome: () => JSON.stringify(window.chosen),
    expect: (o) => o === 'ORD-0400',
  },
  'jointjs-wire': {
    // Run when --task-names names it, against pw-mcp-vision (bench/README.md).
    named: true,
    what: 'JointJS (issue 36): draw a wire in a flow editor drawn in SVG, from Start\'s output port to Finish\'s input port',
    async run(a) {
      await a.call('browser_snapshot', {});
      if (a.peer.grip) {
        const from = await a.ref('clickable', 'Start: right port');
        const to = await a.ref('clickable', 'Finish: left port');
        const r = await a.call('browser_drag', { startRef: from, startElement: 'Start output port', endRef: to, endElement: 'Finish input port' });
        if (r.isError) throw new Error(`${a.peer.name} browser_drag: ${r.text.slice(0, 300)}`);
        return;
      }
      const port = (id, side) => `(() => { const v = paper.findViewByModel(graph.getCell('${id}')); const p = v.el.querySelector('[port="${side}"]').getBoundingClientRect(); return { x: p.x + p.width / 2, y: p.y + p.height / 2 }; })()`;
      const s = await spotOf(a, port('start', 'out')), e = await spotOf(a, port('finish', 'in'));
      await pwXY(a, 'browser_mouse_drag_xy', { startX: s.x, startY: s.y, endX: e.x, endY: e.y });
    },
    outcome: () => JSON.stringify(graph.getLinks().map((l) => `${l.source().id}.${l.source().port}>${l.target().id}.${l.target().port}`)),
    expect: (o) => Array.isArray(o) && o.length === 1 && o[0] === 'start.out>finish.in',
  },
  'chart-legend': {
    // Run when --task-names names it, against pw-mcp-vision (bench/README.md).
    named: true,
    what: 'Chart.js (issue 36): hide the Expenses series of a bar chart drawn on a canvas, by its legend entry',
    async run(a) {
      await a.call('browser_snapshot', {});
      const legend = await spotOf(a, () => { const b = chart.legend.legendHitBoxes[1]; const c = chart.canvas.getBoundingClientRect(); return { x: Math.round(b.left + b.width / 2), y: Math.round(b.top + b.height / 2), vx: c.x + b.left + b.width / 2, vy: c.y + b.top + b.height / 2 }; });
      if (a.peer.grip) {
        const canvas = await a.ref('canvas', '');
        await gripGrid(a, canvas);
        const r = await a.call('browser_click', { ref: canvas, element: 'the chart', at: { x: legend.x, y: legend.y } });
        if (r.isError) throw new Error(`${a.peer.name} browser_click: ${r.text.slice(0, 300)}`);
        return;
      }
      await pwXY(a, 'browser_mouse_click_xy', { x: legend.vx, y: legend.vy });
    },
    outcome: () => JSON.stringify({ income: chart.isDatasetVisible(0), expenses: chart.isDatasetVisible(1) }),
    expect: (o) => o?.income === true && o?.expenses === false,
  },
  'sheet-cell': {
    // Run when --task-names names it, against pw-mcp-vision (bench/README.md).
    named: true,
    what: 'x-data-spreadsheet (issue 36): enter 1200 in cell B2 of a sheet drawn on a canvas',
    async run(a) {
      await a.call('browser_snapshot', {});
      // B2 is at 210,62 of the sheet's canvas (a 60 px index, 100 px columns, 25 px rows).
      if (a.peer.grip) {
        const canvas = await a.ref('canvas', '');
        await gripGrid(a, canvas);
        const r = await a.call('browser_click', { ref: canvas, element: 'the sheet', at: { x: 210, y: 62 }, doubleClick: true });
        if (r.isError) throw new Error(`${a.peer.name} browser_click: ${r.text.slice(0, 300)}`);
        a.learn(r.text, false);
        await a.act('browser_type', 'textbox', '', { text: '1200', submit: true });
        return;
      }
      const c = await spotOf(a, () => { const b = document.querySelector('#sheet canvas').getBoundingClientRect(); return { x: b.x + 210, y: b.y + 62 }; });
      await pwXY(a, 'browser_mouse_click_xy', { x: c.x, y: c.y });
      for (const key of ['1', '2', '0', '0', 'Enter']) {
        const k = await a.call('browser_press_key', { key });
        if (k.isError) throw new Error(`${a.peer.name} browser_press_key: ${k.text.slice(0, 300)}`);
      }
    },
    outcome: () => JSON.stringify(((xs.getData()[0].rows[1] || {}).cells || {})[1]?.text || ''),
    expect: (o) => o === '1200',
  },
  'ace-fill': {
    what: 'Ace (item 6): replace a query, and read from the reply what the editor now holds',
    async run(a) {
      await a.call('browser_snapshot', {});
      if (a.peer.grip) {
        // The textarea's caret announcement is not its name: unnamed.
        const r = await a.fill('textbox', '', 'SELECT name FROM users;');
        a.replied = r.text;
        return;
      }
      // Playwright's fill sets the textarea's value, which Ace does not
      // take as a replacement.
      // Its textarea is under the lines (a click on it is intercepted):
      // the agent clicks the text, selects all, and types key by key.
      await a.clickRef(a.refOn('SELECT 1;'), 'the query text');
      const k = await a.call('browser_press_key', { key: 'Control+a' });
      if (k.isError) throw new Error(`${a.peer.name} browser_press_key: ${k.text.slice(0, 300)}`);
      await a.act('browser_type', 'textbox', 'Cursor at row 1', { text: 'SELECT name FROM users;', slowly: true });
    },
    outcome: () => JSON.stringify(window.editor.getValue()),
    expect: (o, a) => o === 'SELECT name FROM users;' && (!a.peer.grip || a.replied.includes("value='SELECT name FROM users;'")),
  },
};
