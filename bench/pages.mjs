// Benchmark pages, made here and served on two loopback origins:
// origin1 = http://127.0.0.1:PORT1, origin2 = http://localhost:PORT2 (a
// different site, so its iframes are cross-origin and out of process).
//
//   /gen?n=N&f=F        N controls spread over the top frame and F iframes
//                       (every other iframe from the other origin; with x=1
//                       every one)
//   /genframe?n=K&s=S   one iframe's share, K controls, names seeded by S
//   /article            a long article with navigation (content mode)
//   /table              a data table with filters
//   /mail               a web-mail client with a cross-origin login frame
//   /login              that login frame
//   /dashboard          a dashboard that re-renders every 100 ms
//   /task/menu          the tasks' pages (bench/tasks.mjs), each in a site's
//   /task/form          header and footer: a message list whose "More
//   /task/pager         actions" menu makes its items on open; a checkout
//                       form of 8 fields; an orders table paged by "Next"
//   /waits              a page that adds text when told (wait latency)
//   /node_modules/…, /testdata/…, /editors/…, /kernel/…
//                       the real components' pages (components.mjs)
//
// Every control has a unique accessible name, so tools can be compared on
// role + name.
import http from 'node:http';
import { serveComponent, componentPages } from './components.mjs';

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const STYLE = `<style>
body{font:14px system-ui,sans-serif;margin:8px}
.c{display:inline-block;margin:2px 6px 2px 0}
iframe{width:480px;height:220px;border:1px solid #999;display:block;margin:6px 0}
[role=listbox]{display:inline-block;border:1px solid #ccc;padding:2px}
[role=option],[role=tab],[role=menuitem]{display:inline-block;padding:1px 4px;cursor:pointer}
table{border-collapse:collapse} td,th{border:1px solid #ddd;padding:2px 6px}
</style>`;

function page(title, body, extra = '') {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>${STYLE}${extra}</head><body>${body}</body></html>`;
}

/**
 * Writes k controls named with seed s: the ten kinds of the figure, one
 * control each (a native select counts as one, its options are not
 * controls; custom listbox options are).
 */
export function controls(k, s) {
  const out = [];
  let i = 0;
  let group = [];
  const flush = () => {
    if (group.length) out.push(`<section><h3>Group ${esc(s)}-${out.length}</h3><p>Some descriptive text for this group of controls.</p>${group.join('')}</section>`);
    group = [];
  };
  while (i < k) {
    const id = `${s}-${i}`;
    switch (i % 10) {
      case 0: group.push(`<button class="c" type="button">Save item ${id}</button>`); break;
      case 1: group.push(`<a class="c" href="#r${id}">Open record ${id}</a>`); break;
      case 2: group.push(`<label class="c">Field ${id} <input type="text" name="f${id}"></label>`); break;
      case 3: group.push(`<label class="c"><input type="checkbox"> Enable option ${id}</label>`); break;
      case 4: group.push(`<label class="c"><input type="radio" name="g${s}-${Math.floor(i / 50)}"> Choice ${id}</label>`); break;
      case 5: group.push(`<select class="c" aria-label="Pick size ${id}"><option>Small</option><option>Medium</option><option>Large</option></select>`); break;
      case 6: group.push(`<div role="tablist" class="c" aria-label="Tabs ${id}"><span role="tab" tabindex="0" aria-selected="false">Tab ${id}</span></div>`); break;
      case 7: group.push(`<div role="menu" class="c" aria-label="Menu ${id}"><span role="menuitem" tabindex="-1">Action ${id}</span></div>`); break;
      case 8: group.push(`<div role="listbox" class="c" aria-label="List ${id}"><span role="option" aria-selected="false" tabindex="-1">Option ${id}</span></div>`); break;
      case 9: group.push(i % 20 === 9
        ? `<label class="c">Search ${id} <input type="search"></label>`
        : `<label class="c">Quantity ${id} <input type="number" value="1"></label>`); break;
    }
    i++;
    if (i % 50 === 0) flush();
  }
  flush();
  return out.join('\n');
}

function gen(q, origins) {
  const n = Number(q.get('n') || 100);
  const f = Number(q.get('f') || 0);
  const per = Math.floor(n / (f + 1));
  const top = n - per * f;
  let frames = '';
  for (let j = 0; j < f; j++) {
    const o = j % 2 === 0 && q.get('x') !== '1' ? origins[0] : origins[1];
    frames += `<iframe title="Frame ${j}" src="${o}/genframe?n=${per}&s=f${j}"></iframe>\n`;
  }
  return page(`Generated ${n} controls, ${f} frames`,
    `<h1>Generated page: ${n} controls in ${f + 1} documents</h1>${controls(top, 't')}\n${frames}`);
}

function genframe(q) {
  const k = Number(q.get('n') || 10);
  const s = q.get('s') || 'f';
  return page(`Frame ${s}`, controls(k, s));
}

const WORDS = 'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there'.split(' ');
function prose(seed, words) {
  let x = seed * 9301 + 49297;
  const out = [];
  for (let i = 0; i < words; i++) {
    x = (x * 9301 + 49297) % 233280;
    out.push(WORDS[x % WORDS.length]);
  }
  out[0] = out[0][0].toUpperCase() + out[0].slice(1);
  return out.join(' ') + '.';
}

function article() {
  const nav = ['Home', 'World', 'Politics', 'Business', 'Technology', 'Science', 'Health', 'Sports', 'Arts', 'Travel', 'Opinion', 'Video']
    .map((s) => `<li><a href="#${s}">${s}</a></li>`).join('');
  let toc = '';
  let body = '';
  for (let s = 1; s <= 24; s++) {
    toc += `<li><a href="#s${s}">Section ${s}: On the matter of part ${s}</a></li>`;
    body += `<h2 id="s${s}">Section ${s}: On the matter of part ${s}</h2>`;
    for (let p = 0; p < 5; p++) body += `<p>${prose(s * 10 + p, 60)} See <a href="#note${s}-${p}">note ${s}.${p}</a> for more.</p>`;
    if (s % 6 === 0) body += `<figure><img alt="Chart for section ${s}" width="300" height="120" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><figcaption>Figure ${s}: a chart.</figcaption></figure>`;
  }
  const footer = Array.from({ length: 30 }, (_, i) => `<a href="#f${i}">Footer link ${i}</a> `).join('');
  return page('A long article — The Daily Bench', `
<header><nav aria-label="Main"><ul style="display:flex;gap:8px;list-style:none">${nav}</ul></nav>
<form role="search"><input type="search" aria-label="Search the site"><button>Search</button></form></header>
<main><article><h1>A long article about benchmarks</h1><p class="byline">By A. Writer · 12 min read</p>
<button>Share</button> <button>Save for later</button>
<aside><h2>Contents</h2><ol>${toc}</ol></aside>${body}</article>
<section><h2>Comments</h2><label>Your comment <textarea></textarea></label><button>Post comment</button></section></main>
<footer>${footer}</footer>`);
}

function table() {
  const statuses = ['Open', 'Pending', 'Closed', 'Escalated'];
  let rows = '';
  for (let r = 1; r <= 150; r++) {
    rows += `<tr><td><input type="checkbox" aria-label="Select order ${r}"></td><td><a href="#o${r}">Order #${1000 + r}</a></td>
<td>Customer ${r}</td><td>${statuses[r % 4]}</td><td>$${(r * 37.5).toFixed(2)}</td>
<td><button aria-label="Edit order ${r}">Edit</button> <button aria-label="Delete order ${r}">Delete</button></td></tr>`;
  }
  const chips = statuses.map((s) => `<label><input type="checkbox"> ${s}</label>`).join(' ');
  const pages = Array.from({ length: 10 }, (_, i) => `<button aria-label="Page ${i + 1}">${i + 1}</button>`).join('');
  return page('Orders — Admin', `
<h1>Orders</h1>
<div role="search" aria-label="Filters">
<label>Search orders <input type="search"></label>
<label>Status <select><option>Any</option>${statuses.map((s) => `<option>${s}</option>`).join('')}</select></label>
<label>From <input type="date"></label> <label>To <input type="date"></label>
<fieldset><legend>Show</legend>${chips}</fieldset>
<div role="combobox" aria-expanded="false" aria-haspopup="listbox" aria-label="Region" tabindex="0">All regions</div>
<button>Apply filters</button> <button>Reset</button></div>
<table><thead><tr><th><input type="checkbox" aria-label="Select all"></th>
<th><button aria-label="Sort by order">Order</button></th><th><button aria-label="Sort by customer">Customer</button></th>
<th>Status</th><th><button aria-label="Sort by total">Total</button></th><th>Actions</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav aria-label="Pagination"><button>Previous</button>${pages}<button>Next</button></nav>`);
}

function mail(origins) {
  const folders = ['Inbox', 'Starred', 'Snoozed', 'Sent', 'Drafts', 'Spam', 'Trash', 'Work', 'Family', 'Receipts']
    .map((f, i) => `<li><a href="#${f}">${f}${i === 0 ? ' (12)' : ''}</a></li>`).join('');
  let list = '';
  for (let m = 1; m <= 60; m++) {
    list += `<div role="row"><input type="checkbox" aria-label="Select message ${m}"><button aria-label="Star message ${m}">☆</button>
<a href="#m${m}">Sender ${m % 17} — Subject line of message ${m}</a> <span>${prose(m, 8)}</span></div>`;
  }
  return page('Inbox (12) — BenchMail', `
<header><button aria-label="Main menu">☰</button><label>Search mail <input type="search"></label>
<button aria-label="Support">?</button><button aria-label="Settings">⚙</button><button aria-label="Account">A</button></header>
<nav aria-label="Folders"><button>Compose</button><ul>${folders}</ul></nav>
<main><div role="toolbar" aria-label="Actions"><button>Archive</button><button>Report spam</button><button>Delete</button>
<button>Mark as read</button><button>Move to</button><button>Labels</button><button>More</button></div>
<div role="tablist"><span role="tab" aria-selected="true" tabindex="0">Primary</span><span role="tab" tabindex="-1">Promotions</span><span role="tab" tabindex="-1">Social</span></div>
<div role="grid" aria-label="Messages">${list}</div>
<section aria-label="Reading pane"><h2>Subject line of message 1</h2><p>${prose(1, 120)}</p>
<button>Reply</button><button>Reply all</button><button>Forward</button>
<label>Quick reply <textarea></textarea></label><button>Send</button></section>
<iframe title="Sign in" src="${origins[1]}/login"></iframe></main>`);
}

function login() {
  return page('Sign in', `<form><h2>Sign in to continue</h2>
<label>Email or phone <input type="email" autocomplete="username"></label>
<label>Password <input type="password" autocomplete="current-password"></label>
<label><input type="checkbox"> Stay signed in</label>
<button type="submit">Next</button> <a href="#forgot">Forgot password?</a> <a href="#create">Create account</a></form>`);
}

function dashboard() {
  const script = `<script>
const metrics = ['CPU','Memory','Disk','Network in','Network out','Requests','Errors','Latency p50','Latency p99','Queue depth',
 'Cache hits','Cache misses','DB connections','Threads','GC pauses','Uptime','Sessions','Signups','Revenue','Refunds','Orders','Carts','Searches','Alerts'];
let tick = 0, paused = false, clicks = 0;
function render() {
  if (paused) return;
  tick++;
  const grid = document.getElementById('grid');
  // A re-render that replaces the tiles, as a naive framework would.
  grid.innerHTML = metrics.map((m, i) =>
    '<div class="tile"><h3>' + m + '</h3><p>' + ((tick * (i + 3)) % 997) + ' units</p>' +
    '<button aria-label="Details for ' + m + '">Details</button> <button aria-label="Pin ' + m + '">Pin</button></div>').join('');
  document.getElementById('tick').textContent = 'Updated ' + tick + ' times, ' + clicks + ' refreshes';
}
setInterval(render, 100);
document.getElementById('refresh').addEventListener('click', () => { clicks++; render(); });
document.getElementById('pause').addEventListener('click', () => { paused = !paused; });
render();
</script>`;
  return page('Ops dashboard', `
<header><h1>Operations</h1><button id="refresh">Refresh now</button> <button id="pause">Pause updates</button>
<div role="tablist" aria-label="Range"><span role="tab" tabindex="0" aria-selected="true">1 hour</span><span role="tab" tabindex="-1">1 day</span><span role="tab" tabindex="-1">1 week</span></div>
<label>Environment <select><option>production</option><option>staging</option></select></label>
<p id="tick" aria-live="polite"></p></header>
<main id="grid" style="display:grid;grid-template-columns:repeat(6,1fr);gap:6px"></main>
${script}`);
}

// ------------------------------------------------------------ task pages
//
// Ordinary pages for the scripted tasks of bench/tasks.mjs. Each records
// its outcome on document.body.dataset.outcome, which the driver reads over
// CDP to tell whether a task really succeeded.

/** A site's header and footer around a task page: the controls every page of a real site carries. */
function site(title, main, script) {
  const nav = ['Home', 'Products', 'Pricing', 'Docs', 'Blog', 'Support', 'Careers', 'About']
    .map((s) => `<a href="#${s.toLowerCase()}">${s}</a>`).join(' ');
  const foot = ['Privacy', 'Terms', 'Cookies', 'Accessibility', 'Status', 'Contact', 'Press', 'Partners', 'Sitemap', 'Imprint']
    .map((s) => `<a href="#${s.toLowerCase()}">${s}</a>`).join(' ');
  return page(title, `
<header><nav aria-label="Main">${nav}</nav>
<form role="search" onsubmit="return false"><label>Search the site <input type="search"></label></form>
<button type="button">Sign in</button> <button type="button">Cart (0)</button></header>
<main>${main}</main>
<footer><nav aria-label="Footer">${foot}</nav><p>© Bench Corp</p></footer>
<script>${script}</script>`);
}

/** A message list; "More actions" makes its menu items when it opens. */
function taskMenu() {
  let rows = '';
  for (let m = 1; m <= 15; m++) {
    rows += `<li><input type="checkbox" aria-label="Select message ${m}"> <a href="#m${m}">Subject ${m} from Sender ${m % 7}</a></li>`;
  }
  return site('Inbox — BenchMail', `
<h1>Inbox</h1>
<div role="toolbar" aria-label="Message actions"><button type="button">Refresh</button> <button type="button">Mark all read</button>
<button type="button" id="more" aria-haspopup="menu" aria-expanded="false">More actions</button></div>
<div id="menu-slot"></div>
<ul id="list" style="list-style:none;padding:0">${rows}</ul>
<p id="status" role="status"></p>`, `
const more = document.getElementById('more');
const slot = document.getElementById('menu-slot');
function close() { slot.textContent = ''; more.setAttribute('aria-expanded', 'false'); }
more.addEventListener('click', () => {
  if (more.getAttribute('aria-expanded') === 'true') return close();
  const menu = document.createElement('div');
  menu.setAttribute('role', 'menu');
  menu.setAttribute('aria-label', 'More actions');
  for (const name of ['Reply', 'Forward', 'Archive', 'Mark as unread', 'Move to folder', 'Delete']) {
    const item = document.createElement('div');
    item.setAttribute('role', 'menuitem');
    item.tabIndex = -1;
    item.textContent = name;
    item.style.cursor = 'pointer';
    item.addEventListener('click', () => {
      const picked = [...document.querySelectorAll('#list input:checked')].map((c) => c.getAttribute('aria-label').replace('Select message ', ''));
      close();
      document.getElementById('status').textContent = name + ': ' + (picked.length ? 'message ' + picked.join(', ') : 'nothing selected');
      document.body.dataset.outcome = JSON.stringify({ action: name, messages: picked });
    });
    menu.append(item);
  }
  slot.append(menu);
  more.setAttribute('aria-expanded', 'true');
});`);
}

/** A checkout form of 8 fields; submitting it replaces it by a confirmation. */
function taskForm() {
  const countries = ['Austria', 'Belgium', 'Denmark', 'France', 'Germany', 'Italy', 'Norway', 'Spain'];
  return site('Checkout — Bench Shop', `
<h1>Checkout</h1>
<form id="checkout">
<p><label>Full name <input name="name" autocomplete="name" required></label></p>
<p><label>Email <input name="email" type="email" required></label></p>
<p><label>Phone <input name="phone" type="tel"></label></p>
<p><label>Street address <input name="street" required></label></p>
<p><label>City <input name="city" required></label></p>
<p><label>Postal code <input name="zip" required></label></p>
<p><label>Country <select name="country">${countries.map((c) => `<option>${c}</option>`).join('')}</select></label></p>
<p><label><input name="terms" type="checkbox" required> I accept the terms</label></p>
<p><button type="submit">Place order</button> <button type="reset">Clear</button></p>
</form>
<section id="done" hidden><h2 id="thanks"></h2><p role="status" id="summary"></p><button type="button">Back to the shop</button></section>`, `
const form = document.getElementById('checkout');
form.addEventListener('submit', (e) => {
  e.preventDefault();
  const v = Object.fromEntries(new FormData(form));
  v.terms = form.terms.checked;
  form.remove();
  document.getElementById('thanks').textContent = 'Thank you, ' + v.name;
  document.getElementById('summary').textContent = 'Order confirmed: ships to ' + v.street + ', ' + v.zip + ' ' + v.city + ', ' + v.country;
  document.getElementById('done').hidden = false;
  document.body.dataset.outcome = JSON.stringify(v);
});`);
}

/** 50 orders, 10 a page; "Next" and "Previous" rebuild the rows. */
function taskPager() {
  return site('Orders — Bench Admin', `
<h1>Orders</h1>
<table><thead><tr><th>Select</th><th>Order</th><th>Customer</th><th>Status</th><th>Total</th><th>Actions</th></tr></thead>
<tbody id="rows"></tbody></table>
<nav aria-label="Pagination"><button type="button" id="prev">Previous</button> <span id="at"></span> <button type="button" id="next">Next</button></nav>
<section id="detail" aria-label="Order details"></section>`, `
const statuses = ['Open', 'Pending', 'Shipped', 'Closed'];
let pageNo = 1;
function render() {
  const tbody = document.getElementById('rows');
  tbody.textContent = '';
  for (let i = 0; i < 10; i++) {
    const n = 1000 + (pageNo - 1) * 10 + i + 1;
    const tr = document.createElement('tr');
    const cell = (x) => { const td = document.createElement('td'); if (typeof x === 'string') td.textContent = x; else td.append(x); tr.append(td); };
    const box = document.createElement('input'); box.type = 'checkbox'; box.setAttribute('aria-label', 'Select order #' + n); cell(box);
    const a = document.createElement('a'); a.href = '#o' + n; a.textContent = 'Order #' + n; cell(a);
    cell('Customer ' + (n % 23)); cell(statuses[n % 4]); cell('$' + (n * 1.75).toFixed(2));
    const view = document.createElement('button'); view.type = 'button'; view.textContent = 'View order #' + n;
    view.addEventListener('click', () => {
      const d = document.getElementById('detail');
      d.textContent = '';
      const h = document.createElement('h2'); h.textContent = 'Order #' + n + ' details'; d.append(h);
      document.body.dataset.outcome = JSON.stringify({ viewed: n, page: pageNo });
    });
    cell(view);
    tbody.append(tr);
  }
  document.getElementById('at').textContent = 'Page ' + pageNo + ' of 5';
  document.getElementById('prev').disabled = pageNo === 1;
  document.getElementById('next').disabled = pageNo === 5;
}
document.getElementById('next').addEventListener('click', () => { if (pageNo < 5) { pageNo++; render(); } });
document.getElementById('prev').addEventListener('click', () => { if (pageNo > 1) { pageNo--; render(); } });
render();`);
}

/** Wait latency: later(ms, text) adds text after ms and records when (epoch ms) on window.__markedAt. */
function waits() {
  return page('Waits', `<h1>Waits</h1><div id="log"></div><script>
window.later = (ms, text) => setTimeout(() => {
  const p = document.createElement('p');
  p.textContent = text;
  document.getElementById('log').append(p);
  window.__markedAt = performance.timeOrigin + performance.now();
}, ms);
</script>`);
}

function handler(origins) {
  return (req, res) => {
    const url = new URL(req.url, 'http://x');
    const q = url.searchParams;
    let html;
    switch (url.pathname) {
      case '/gen': html = gen(q, origins); break;
      case '/genframe': html = genframe(q); break;
      case '/article': html = article(); break;
      case '/table': html = table(); break;
      case '/mail': html = mail(origins); break;
      case '/login': html = login(); break;
      case '/dashboard': html = dashboard(); break;
      case '/task/menu': html = taskMenu(); break;
      case '/task/form': html = taskForm(); break;
      case '/task/pager': html = taskPager(); break;
      case '/waits': html = waits(); break;
      case '/favicon.ico': // none, without a 404 in every page's console
        res.writeHead(204);
        res.end();
        return;
      default:
        if (serveComponent(url.pathname, res)) return;
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  };
}

/** Starts the two loopback servers; returns {origin1, origin2, close}. */
export async function serve() {
  const origins = ['', ''];
  const h = handler(origins);
  const listen = () => new Promise((resolve) => {
    const s = http.createServer(h);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
  const s1 = await listen();
  const s2 = await listen();
  origins[0] = `http://127.0.0.1:${s1.address().port}`;
  origins[1] = `http://localhost:${s2.address().port}`;
  return {
    origin1: origins[0], origin2: origins[1],
    close: () => { s1.closeAllConnections?.(); s2.closeAllConnections?.(); s1.close(); s2.close(); },
  };
}

/** The benchmark's pages: generated sizes first, then the realistic shapes. */
export function pageList(origin1, { sizes = [100, 1000, 5000, 20000], frames = [0, 10, 30] } = {}) {
  const list = [];
  for (const n of sizes) {
    for (const f of frames) list.push({ name: `gen-${n}-f${f}`, url: `${origin1}/gen?n=${n}&f=${f}`, controls: n, frames: f });
  }
  list.push({ name: 'article', url: `${origin1}/article`, content: true });
  list.push({ name: 'table', url: `${origin1}/table` });
  list.push({ name: 'mail', url: `${origin1}/mail`, frames: 1 });
  list.push({ name: 'dashboard', url: `${origin1}/dashboard` });
  return list;
}

/** The tasks' pages, by task name (bench/tasks.mjs). */
export function taskPages(origin1) {
  return { menu: `${origin1}/task/menu`, form: `${origin1}/task/form`, pager: `${origin1}/task/pager`, waits: `${origin1}/waits`, ...componentPages(origin1) };
}
