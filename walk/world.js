// The walker's observer (walk/observer.go): installed by the observer in an
// isolated world of its own, which neither the page nor grip can reach. It
// gives each node it sees an id of its own (a WeakMap, this document's), and
// reports every input event of the page, with the node it was dispatched to
// and that node's ancestors, through the CDP binding __walkObs. It also
// tells each batch of DOM changes by its cause — inside a timer set before
// the action began (by the page's own timers, which timers.js wraps in the
// main world: the events grip-walk-timer-in/out), or not — and notes, for
// the live regions (alert, status, log, aria-live, output) and the statuses
// a class or id names (DokuWiki's draft__status), what each showed when the
// action began or came with when it was put on the page, how it changed,
// and how often it changed on its own before: what Go's Owed
// (walk/check.go) holds grip's said to (docs/effects.md).
(() => {
  if (globalThis.__walk) return;
  const W = {
    doc: Math.random().toString(36).slice(2) + Date.now().toString(36),
    n: 0, ids: new WeakMap(), nodes: new Map(), lastMut: performance.now(), muts: 0,
    // from: when the action began (performance.now(); 0 in a document the
    // action made), replied: when its reply came; cur: the time the
    // running timer's chain was first set, null outside timers.
    from: 0, replied: 0, cur: null, old: 0, caused: 0, regions: new Set(), info: new WeakMap(),
  };
  globalThis.__walk = W;
  W.id = (node) => {
    let i = W.ids.get(node);
    if (!i) { i = ++W.n; W.ids.set(node, i); W.nodes.set(i, new WeakRef(node)); }
    return i;
  };
  W.node = (i) => { const r = W.nodes.get(i); return r ? r.deref() : undefined; };
  // alive: 1 connected, 0 not, -1 this world never saw it (or it was collected).
  W.alive = (i) => { const n = W.node(i); return n === undefined ? -1 : (n.isConnected ? 1 : 0); };
  W.aliveAll = (ids) => ids.map(W.alive);
  W.quiet = () => performance.now() - W.lastMut;
  W.muts = 0;
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const up = (n) => n.parentNode instanceof ShadowRoot ? n.parentNode.host : n.parentElement;
  const interactive = 'a[href],button,input,select,textarea,summary,label,option,[role],[tabindex],[contenteditable=""],[contenteditable=true],[onclick]';
  const names = (e) => [e.getAttribute && e.getAttribute('aria-label'), e.getAttribute && e.getAttribute('title'),
    e.getAttribute && e.getAttribute('alt'), e.getAttribute && e.getAttribute('placeholder'), e.value, e.textContent].map(norm);
  // element: the element an event on node i stands for, as the observer
  // judges it: of node and its ancestors, the nearest interactive one
  // whose own text or label says name (a button, not the span in it),
  // else the nearest that says name, else the nearest interactive one,
  // else node itself.
  W.element = (i, name) => {
    let n = W.node(i);
    if (!n) return 0;
    if (n.nodeType !== 1) n = up(n) || n;
    const want = norm(name);
    let named = null, act = null;
    for (let e = n, k = 0; e && e.nodeType === 1 && k < 12; e = up(e), k++) {
      const says = want !== '' && names(e).includes(want);
      const is = !!(e.matches && e.matches(interactive));
      if (says && is) return W.id(e);
      if (says && !named) named = e;
      if (is && !act) act = e;
    }
    return W.id(named || act || n);
  };
  // within: node a is node b or inside it, across shadow roots.
  W.within = (a, b) => {
    const na = W.node(a), nb = W.node(b);
    if (!na || !nb) return false;
    for (let e = na; e; e = up(e)) if (e === nb) return true;
    return false;
  };
  // field: a native text field, whose fill the browser reports with an
  // input event (an editor's own model, CodeMirror 5's, need not).
  // A textarea an editor hides to take keys (CodeMirror 5's, a few
  // pixels in a clipped box) is the editor's, not a field a person sees.
  W.field = (i) => {
    const n = W.node(i);
    if (!n || n.nodeType !== 1 || !n.matches('input, textarea')) return false;
    const r = n.getBoundingClientRect();
    let clip = n.parentElement;
    const c = clip && clip.getBoundingClientRect();
    return r.width >= 8 && r.height >= 8 && !(c && (c.width < 8 || c.height < 8));
  };
  W.describe = (i) => {
    const n = W.node(i);
    if (!n) return '(gone)';
    if (n.nodeType !== 1) return n.nodeName;
    const t = norm(n.textContent).slice(0, 40);
    return '<' + n.localName + (n.id ? '#' + n.id : '') + (n.getAttribute('role') ? ' role=' + n.getAttribute('role') : '') + '>' + (t ? " '" + t + "'" : '');
  };
  const send = (o) => { try { globalThis.__walkObs(JSON.stringify(o)); } catch { /* the binding is gone */ } };
  W.mark = (k) => send({ t: 'mark', k, doc: W.doc });
  // document.open() (an editor writing its frame) erases the window's
  // listeners, ours with them: ping says whether they still hear, and
  // listen puts them back.
  let heard = false;
  W.listen = () => {
    addEventListener('grip-walk-ping', () => { heard = true; }, { capture: true });
    for (const t of ['pointerdown', 'mousedown', 'mouseup', 'click', 'dblclick', 'mouseover', 'focus', 'input', 'change', 'keydown', 'submit']) {
      addEventListener(t, (e) => {
        const path = e.composedPath().filter((n) => n instanceof Node);
        const target = path[0] || e.target;
        if (!(target instanceof Node)) return;
        send({ t, doc: W.doc, id: W.id(target), trusted: e.isTrusted, key: e.key || '' });
      }, { capture: true });
    }
    addEventListener('grip-walk-timer-in', (e) => { W.flush(); W.cur = typeof e.detail === 'number' ? e.detail : null; }, { capture: true });
    addEventListener('grip-walk-timer-out', () => { W.flush(); W.cur = null; }, { capture: true });
  };
  W.ping = () => {
    heard = false;
    dispatchEvent(new Event('grip-walk-ping'));
    if (!heard) W.listen();
    return heard;
  };
  // The places grip promises to quote (docs/effects.md, "What the app
  // said"): declared live regions, and statuses a class or id names.
  const declared = '[role=alert],[role=status],[role=log],[aria-live]:not([aria-live=off]),output';
  const region = declared + ',[class*=status i],[id*=status i]';
  const statusName = /(^|[-_])status([-_]?(bar|line|text|msg|message))?$/;
  const named = (e) => e.localName !== 'td' && e.localName !== 'th' &&
    ((typeof e.className === 'string' ? e.className : e.getAttribute('class') || '') + ' ' + (e.id || '')).split(/\s+/)
      .some((t) => statusName.test(t.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()));
  // A region inside a control is that control's name (Syncthing's folder
  // status in its heading's button): grip's line of the control says it.
  const inControl = 'button,a[href],summary,[role=button],[role=link],[role=tab],[role=menuitem],[role=option],[role=treeitem]';
  const isRegion = (e) => e.nodeType === 1 && (e.matches(declared) || named(e)) &&
    !(e.parentElement && e.parentElement.closest(inControl));
  const regionOf = (el) => {
    for (let e = el && el.closest(region); e; e = e.parentElement && e.parentElement.closest(region)) if (isRegion(e)) return e;
    return null;
  };
  const content = (e) => norm(e.textContent);
  // Each region's record: was (shown when the action began), born (it
  // came on the page, or took its role, while the action ran or in a
  // document the action loaded) with came (its text content then) and
  // changed (its text changed since), text (its text content last seen)
  // and times (when that changed).
  const infoOf = (r) => {
    let i = W.info.get(r);
    if (!i) { i = { was: '', born: false, came: '', changed: false, text: content(r), times: [] }; W.info.set(r, i); }
    return i;
  };
  const acting = () => W.replied === 0;
  const born = (r) => {
    const i = infoOf(r);
    if (i.born || W.regions.has(r)) return;
    i.born = true; i.came = content(r); i.changed = false; i.text = i.came;
    W.regions.add(r);
  };
  const took = (ms) => {
    if (ms.length === 0) return;
    const t = performance.now();
    W.muts += ms.length;
    W.lastMut = t;
    // After the reply (a document made since the action began has had no
    // reply: all of it counts).
    if (W.replied > 0 ? t >= W.replied : W.from === 0) {
      if (W.cur !== null && W.cur < W.from) W.old += ms.length; else W.caused += ms.length;
    }
    const touched = new Set();
    for (const m of ms) {
      if (acting()) {
        if (m.type === 'childList') {
          for (const n of m.addedNodes) {
            if (n.nodeType !== 1) continue;
            if (isRegion(n)) born(n);
            for (const x of n.querySelectorAll(region)) if (isRegion(x)) born(x);
          }
        } else if (m.type === 'attributes' && (m.attributeName === 'role' || m.attributeName === 'aria-live') && isRegion(m.target)) {
          born(m.target);
        }
      }
      const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
      const r = regionOf(el);
      if (r) touched.add(r);
    }
    for (const r of touched) {
      const i = infoOf(r), now = content(r);
      if (now === i.text) continue;
      i.text = now; i.changed = true;
      i.times.push(t);
      if (i.times.length > 8) i.times.shift();
      if (acting()) W.regions.add(r);
    }
  };
  const mo = new MutationObserver(took);
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  W.flush = () => took(mo.takeRecords());
  // begin: the action begins now, and what each region shows is what it
  // was; reply: its reply came, and each region that changed or came on
  // the page since (visible, non-empty, no form, not a page's worth of
  // text: what grip quotes from) as Go's Region reads it.
  W.begin = () => {
    W.flush();
    W.from = performance.now(); W.replied = 0; W.old = 0; W.caused = 0; W.regions = new Set();
    for (const r of document.querySelectorAll(region)) {
      if (!isRegion(r)) continue;
      const i = infoOf(r);
      i.was = norm(r.innerText); i.born = false; i.text = content(r);
    }
    return true;
  };
  const tickMs = 10000;
  W.reply = () => {
    W.flush();
    W.replied = performance.now();
    const out = [];
    for (const r of W.regions) {
      if (!r.isConnected || (r.checkVisibility && !r.checkVisibility())) continue;
      if (/^(input|select|textarea|button|a|option)$/.test(r.localName) || r.querySelector('input:not([type=hidden]),select,textarea')) continue;
      const text = norm(r.innerText);
      const isNamed = !r.matches(declared);
      if (text === '' || text.length > (isNamed ? 200 : 1000)) continue;
      const i = infoOf(r);
      out.push({
        text, alert: r.getAttribute('role') === 'alert', toast: r.getAttribute('role') === 'status', was: i.born ? '' : i.was, born: i.born, loaded: W.from === 0,
        came: i.came, content: content(r), changed: i.changed,
        ticks: W.from === 0 ? 0 : i.times.filter((at) => at < W.from && at >= W.from - tickMs).length,
      });
    }
    return out;
  };
  // since: the changes since the reply, by cause.
  W.since = () => { W.flush(); return { old: W.old, caused: W.caused }; };
  W.listen();
})();
