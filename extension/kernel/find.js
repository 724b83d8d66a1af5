// @ts-check
// Finding an element by what it says (grip find TEXT [--in @eN]), and
// where a long list stands (listView), for the replies of find and scroll
// (docs/long-lists.md, "Long lists"). A find scrolls the list, or the
// page, step by step; after each step it waits for the page to render what
// came into view (its DOM changes, then two quiet frames), never a fixed
// sleep; it stops at the first element whose text holds TEXT, brings that
// into view and names it and what is inside it, so the reply lists the one
// element found rather than every row passed on the way.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fold, cut, quote, fail, idFor, idOf, brief, hiddenReason, scrollerOf, isVisible, noBox, farOff, nameOf, roleOf, contextOf } = K;

  // One call's share of the injection deadline (10 s, inject.js): a find
  // that takes longer answers `more` with where it stands, and the host
  // calls again.
  const SLICE_MS = 5000;
  // Each step moves by this share of the scroller's height, so the rows at
  // the bottom of one step are at the top of the next: none is skipped.
  const STEP = 0.9;
  // A find takes at most this many steps in all (the host adds a bound on
  // time): 1,000 steps of a 400 px list pass 360,000 px, some 10,000 rows.
  const MAX_STEPS = 1000;
  // A step's wait for the page to render ends after this many frames, or
  // this long, whatever the page is still doing (an animation that never
  // ends, a hidden page that draws no frames).
  const RENDER_FRAMES = 30;
  const RENDER_MS = 1500;
  // At most this many elements of a list get a local id for the host's
  // summary, and this many inside the element found.
  const INSIDE_MAX = 3000;
  const FOUND_MAX = 40;
  // The elements that are one item of a list: the element found is the
  // nearest of these around the text.
  const ITEM = '[role=row],[role=option],[role=listitem],[role=treeitem],[role=article],tr,li';

  /** What a find without a list scrolls: of the document's scrolling
   * element and the elements whose content scrolls, the one with the most
   * to scroll (an app whose page barely scrolls keeps its long list in a
   * box of its own); null when nothing scrolls. @returns {Element|null} */
  function pageScroller() {
    const se = document.scrollingElement;
    /** @type {Element|null} */
    let best = se && se.scrollHeight > se.clientHeight + 1 ? se : null;
    let most = best ? best.scrollHeight - best.clientHeight : 0;
    const all = document.body ? document.body.getElementsByTagName('*') : [];
    for (let i = 0; i < all.length && i < 20000; i++) {
      const e = all[i];
      const extent = e.scrollHeight - e.clientHeight;
      if (extent <= most || e.clientHeight === 0 || scrollerOf(e) !== e) continue;
      most = extent;
      best = e;
    }
    return best;
  }

  /** Whether n's text, folded and in lower case, holds needle.
   * @param {Node} n @param {string} needle */
  function says(n, needle) {
    return fold(n.textContent || '').toLowerCase().includes(needle);
  }

  /** The deepest shown element under root whose text holds needle, or
   * null: down from root, into the first shown child that holds it, until
   * no child holds it alone (the text spans them). Shown: rendering, and
   * in reach of a scroll (visibility.js farOff): a context menu kept far
   * above the page (qBittorrent's RSS menu's "Delete") is no person's to
   * find, nor the menu item whose closed dropdown alone says the text.
   * @param {Element} root @param {string} needle @returns {Element|null} */
  function matchIn(root, needle) {
    if (!says(root, needle)) return null;
    return deepest(root, needle, true);
  }

  /** matchIn below el, which says needle; null when no shown part does.
   * @param {Element} el @param {string} needle @param {boolean} isRoot @returns {Element|null} */
  function deepest(el, needle, isRoot) {
    let unseen = false;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (SKIP.has(c.localName) || !says(c, needle)) continue;
      if (outOfSight(c)) { unseen = true; continue; }
      const d = deepest(c, needle, false);
      if (d) return d;
      unseen = true;
    }
    // Text that only spans root's children is no one element's; el holds
    // it, unless only what is out of sight said it.
    if (isRoot) return null;
    return !unseen || fold(shownText(el)).toLowerCase().includes(needle) ? el : null;
  }

  const SKIP = new Set(['script', 'style', 'template']);

  /** @param {Element} e */
  function outOfSight(e) {
    return !!hiddenReason(e) || noBox(e) || farOff(e);
  }

  /** el's text without what is out of sight. @param {Element} el @returns {string} */
  function shownText(el) {
    let t = '';
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) t += /** @type {Text} */ (n).data;
      else if (n.nodeType === 1 && !SKIP.has(/** @type {Element} */ (n).localName) && !outOfSight(/** @type {Element} */ (n))) t += ' ' + shownText(/** @type {Element} */ (n));
    }
    return t;
  }

  // Where a text no element shows may be: a control's name, value or
  // placeholder.
  const NAMED = 'input, textarea, select, button, [aria-label], [aria-labelledby], [placeholder], [title], img[alt]';

  /** The first shown element under root whose accessible name, then
   * value, then placeholder holds needle, or null: a find for what no
   * element's text says (a field's label, what it holds).
   * @param {Element} root @param {string} needle @returns {Element|null} */
  function matchNamed(root, needle) {
    const all = Array.from(root.querySelectorAll(NAMED)).filter((e) => !hiddenReason(e) && isVisible(e));
    /** @type {((e: Element) => string)[]} */
    const by = [
      (e) => nameOf(e, roleOf(e)),
      (e) => { const v = /** @type {any} */ (e).value; return typeof v === 'string' && /** @type {any} */ (e).type !== 'password' ? v : ''; },
      (e) => e.getAttribute('placeholder') || '',
    ];
    for (const f of by) {
      for (const e of all) if (fold(f(e) || '').toLowerCase().includes(needle)) return e;
    }
    return null;
  }

  // The roles an agent names a control by.
  const NAMEABLE = 'button, a[href], input, select, textarea, summary, [role], [onclick], [tabindex]';

  /** The refusal of a CSS target that matches nothing, worded as the
   * refusal of a line that matches nothing (not_found). A bare word
   * ("Edit") is CSS for a tag no page has: say how to write what the
   * agent likely meant, with the elements that say it.
   * @param {string} selector @param {string} [what] the element it was
   *   to name (the drop target), when not the action's own */
  function noMatch(selector, what) {
    const of = what ? ' for ' + what : '';
    const word = selector.trim();
    if (/^[A-Za-z][\w-]*$/.test(word) && !document.getElementsByTagName(word).length) {
      const needle = word.toLowerCase();
      /** @type {string[]} */
      const found = [];
      for (const e of document.querySelectorAll(NAMEABLE)) {
        if (found.length >= 5 || hiddenReason(e)) continue;
        const d = K.describe(e);
        if (d.name && d.name.toLowerCase().includes(needle)) {
          const line = '"' + d.role + ' ' + quote(d.name) + '"';
          if (!found.includes(line)) found.push(line);
        }
      }
      return fail('not_found', 'node', 'no element matches ' + quote(word) + of + ': a bare word is read as CSS (a tag name)' +
        (found.length ? '; elements that say it: ' + found.join(', ') : ''),
      'name an element as its snapshot line reads, e.g. "button ' + quote(word) + '", or by its ref; grip find ' + word + ' looks for the text');
    }
    return fail('not_found', 'node', 'no element matches CSS ' + quote(word) + of,
      'check the selector, or name the element as its snapshot line reads or by its ref (grip snapshot lists them)');
  }

  /** The item of a list that m is part of: the nearest row, option or list
   * item around it under root; else the highest element between them that
   * repeats among its siblings (a list of plain divs); else m itself.
   * @param {Element} m @param {Element} root @returns {Element} */
  function itemOf(m, root) {
    const c = m.closest(ITEM);
    if (c && c !== root && root.contains(c)) return c;
    /** @type {Element} */
    let best = m;
    for (let e = m; e.parentElement && e !== root && e.parentElement !== root.parentElement; e = e.parentElement) {
      const p = e.parentElement;
      let same = 0;
      for (let s = p.firstElementChild; s && same < 3; s = s.nextElementSibling) if (s.localName === e.localName) same++;
      if (same >= 3) best = e;
      if (p === root) break;
    }
    return best;
  }

  /** Waits until the page has rendered what a scroll brought into view:
   * a DOM change under root followed by two frames without one, or two
   * frames without any; bounded. A hidden page draws no frames: there a
   * task stands for a frame.
   * @param {Element} root @returns {Promise<void>} */
  function rendered(root) {
    return new Promise((resolve) => {
      let changed = false, quiet = 0, frames = 0;
      const mo = new MutationObserver(() => { changed = true; });
      mo.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['style', 'class'] });
      const end = () => { mo.disconnect(); clearTimeout(timer); resolve(); };
      const timer = setTimeout(end, RENDER_MS);
      const next = () => (document.visibilityState === 'hidden' ? setTimeout(tick, 16) : requestAnimationFrame(tick));
      const tick = () => {
        frames++;
        if (changed) { changed = false; quiet = 0; } else quiet++;
        if (quiet >= 2 || frames >= RENDER_FRAMES) end(); else next();
      };
      next();
    });
  }

  /** Local ids of the elements inside list (the list's own included), at
   * most INSIDE_MAX; assign says whether elements without one get one
   * (after a scroll: the host's read will report some of them) or are
   * left out (before it: an element without an id has no ref to be gone).
   * @param {Element} list @param {boolean} assign @returns {number[]} */
  function idsInside(list, assign) {
    /** @type {number[]} */
    const out = [];
    const all = list.getElementsByTagName('*');
    for (let i = 0; i < all.length && out.length < INSIDE_MAX; i++) {
      const id = assign ? idFor(all[i]) : idOf(all[i]);
      if (typeof id === 'number') out.push(id);
    }
    return out;
  }

  /** The unit a list's items are counted in, by the role of one.
   * @param {Element} e */
  function unitOf(e) {
    const r = e.getAttribute('role') || (e.localName === 'tr' ? 'row' : '');
    return r === 'row' ? 'rows' : r === 'option' ? 'options' : 'items';
  }

  /** The items a list renders, counted: the children with text of the
   * element under the list that has the most children (at least three).
   * @param {Element} list @returns {Element[]} */
  function itemsOf(list) {
    /** @type {Element} */
    let holder = list;
    let most = list.childElementCount;
    const queue = [list];
    for (let i = 0; i < queue.length && i < 500; i++) {
      for (let c = queue[i].firstElementChild; c; c = c.nextElementSibling) {
        if (c.childElementCount > most) { most = c.childElementCount; holder = c; }
        if (c.firstElementChild) queue.push(c);
      }
    }
    /** @type {Element[]} */
    const items = [];
    if (most < 3) return items;
    for (let c = holder.firstElementChild; c; c = c.nextElementSibling) if (fold(c.textContent || '')) items.push(c);
    return items;
  }

  /** Where the next step down puts the scroller: most of a screen on, or,
   * when the list has rendered further than that (overscan, a cluster of
   * rows), so far that its last rendered item is at the top of the box:
   * every row rendered has been searched already, and the list renders on
   * from there.
   * @param {Element|null} list @param {Element} sc @param {number} max */
  function nextTop(list, sc, max) {
    const was = sc.scrollTop;
    let top = was + Math.max(1, STEP * sc.clientHeight);
    if (list) {
      const items = itemsOf(list);
      const last = items[items.length - 1];
      if (last) {
        const box = sc === document.scrollingElement ? 0 : sc.getBoundingClientRect().top;
        const bottom = last.getBoundingClientRect().bottom - box + was; // in the content's coordinates
        const rowH = last.getBoundingClientRect().height;
        top = Math.max(top, bottom - rowH);
      }
    }
    return Math.min(max, top);
  }

  /** Whether e shows inside the scroller's box. @param {Element} e @param {DOMRect} box */
  function inView(e, box) {
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.bottom > box.top + 1 && r.top < box.bottom - 1;
  }

  /** Where a list stands: the items it shows in its scroller's box, of how
   * many in all. From the positions the list declares (aria-rowindex with
   * aria-rowcount, aria-posinset with aria-setsize), else counted: its
   * rendered items, placed by their height (`estimated`: a virtualized
   * list that declares nothing renders only some of its items). null when
   * the list has no items to count.
   * @param {Element} list @param {Element} sc
   * @returns {{unit: string, first: number, last: number, total: number, estimated?: boolean} | null} */
  function listView(list, sc) {
    const box = sc === document.scrollingElement
      ? new DOMRect(0, 0, window.innerWidth, window.innerHeight) : sc.getBoundingClientRect();
    const declared = list.querySelectorAll('[aria-rowindex],[aria-posinset]');
    if (declared.length > 0) {
      let first = Infinity, last = -Infinity, total = 0, unit = 'items';
      for (let i = 0; i < declared.length && i < INSIDE_MAX; i++) {
        const e = declared[i];
        if (e.querySelector('[role=columnheader]')) continue; // a grid's header row stays in view
        const n = parseInt(e.getAttribute('aria-rowindex') || e.getAttribute('aria-posinset') || '', 10);
        if (!(n > 0) || !inView(e, box)) continue;
        unit = unitOf(e);
        first = Math.min(first, n);
        last = Math.max(last, n);
        total = Math.max(total, parseInt(e.getAttribute('aria-setsize') || '', 10) || 0);
      }
      const rc = list.closest('[aria-rowcount]') || list.querySelector('[aria-rowcount]');
      if (rc) total = parseInt(rc.getAttribute('aria-rowcount') || '', 10) || total;
      if (last >= first) return { unit, first, last, total };
    }
    const items = itemsOf(list);
    if (items.length === 0) return null;
    // The pitch of the rendered items, from the first one's top to the
    // last one's bottom (shared borders and gaps included).
    const span = items[items.length - 1].getBoundingClientRect().bottom - items[0].getBoundingClientRect().top;
    const rowH = span / items.length;
    if (!(rowH > 0)) return null;
    const top = box.top - sc.scrollTop; // where the scroller's content starts
    let first = Infinity, last = -Infinity;
    const whole = Math.abs(items.length * rowH - sc.scrollHeight) < 2 * rowH || items.length * rowH > sc.scrollHeight;
    for (let i = 0; i < items.length; i++) {
      if (!inView(items[i], box)) continue;
      const n = whole ? i + 1 : Math.round((items[i].getBoundingClientRect().top - top) / rowH) + 1;
      first = Math.min(first, n);
      last = Math.max(last, n);
    }
    if (last < first) return null;
    const unit = unitOf(items[0]);
    if (whole) return { unit, first, last, total: items.length };
    return { unit, first, last, total: Math.max(last, Math.round(sc.scrollHeight / rowH)), estimated: true };
  }

  /** The list part of a reply: where list stands, and the ids inside it
   * before and after (the host counts, instead of listing, the rows that
   * appeared and went). @param {Element} list @param {Element} sc @param {number[]} before */
  function listReply(list, sc, before) {
    const v = sc === document.scrollingElement && list === sc ? null : listView(list, sc);
    // A box with nothing to count as items (a text that scrolls) is no
    // list: its lines are listed as ever.
    if (!v) return undefined;
    const id = idOf(list);
    return { ...v, id: typeof id === 'number' ? id : 0, inside: idsInside(list, true), before };
  }

  /** Where a scroller stands, for the agent: "[listbox 'Orders'] at 1,200
   * of 64,000 px". @param {Element} sc @param {Element|null} el */
  function whereOf(sc, el) {
    const name = el ? brief(el) : sc === document.scrollingElement ? 'the page' : sc.getAttribute('role') ? brief(sc) : 'the list';
    const max = Math.max(0, sc.scrollHeight - sc.clientHeight);
    return name + ' at ' + Math.round(sc.scrollTop).toLocaleString('en-US') + ' of ' + Math.round(max).toLocaleString('en-US') + ' px';
  }

  /**
   * find: the element el holds (the page, without el) whose text holds
   * r.text, scrolling el's content (or the page's) step by step until it
   * is rendered: down from where it stands to the end, then from the top
   * to where it began. r.find carries the search on from an earlier call.
   * @param {Element|null} el @param {{text?: string, find?: any}} r
   */
  async function find(el, r) {
    const text = fold(String(r.text || ''));
    const needle = text.toLowerCase();
    if (!needle) return fail('bad_request', 'payload', 'find needs the text to look for');
    const root = el || document.body || document.documentElement;
    const sc = el ? scrollerOf(el) : pageScroller();
    const list = el || (sc && sc !== document.scrollingElement ? sc : null);
    const prev = r.find && r.find.begun ? r.find : null;
    const st = { steps: prev ? prev.steps : 0, start: prev ? prev.start : sc ? sc.scrollTop : 0, wrapped: prev ? prev.wrapped : false, begun: true };
    const before = list ? idsInside(list, false) : [];
    const t0 = performance.now();
    for (;;) {
      const m = matchIn(root, needle) || matchNamed(root, needle);
      if (m) {
        // In a list, the row it is in; on the page, the smallest element
        // that holds it, never a wrapper of the page.
        let item = list ? itemOf(m, root) : m;
        item.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        await rendered(list || root);
        // The list may have drawn its rows anew as it came into view.
        if (!item.isConnected) {
          const again = matchIn(root, needle) || matchNamed(root, needle);
          if (!again) return fail('stale_ref', 'node', 'the element saying ' + quote(text) + ' went away as it came into view', 'run grip find again');
          item = list ? itemOf(again, root) : again;
        }
        const ids = [idFor(item)];
        const inner = item.getElementsByTagName('*');
        for (let i = 0; i < inner.length && ids.length < FOUND_MAX; i++) ids.push(idFor(inner[i]));
        // The elements around it, nearest first: the host names the first
        // the agent's view lists when it lists none of these.
        /** @type {number[]} */
        const around = [];
        for (let p = item.parentElement; p && p !== document.body && p !== document.documentElement && around.length < 8; p = p.parentElement) around.push(idFor(p));
        const after = st.steps ? ' after ' + st.steps + (st.steps === 1 ? ' step' : ' steps') : '';
        const shows = K.textOf(item, { checkVis: true }) || nameOf(item, roleOf(item));
        const ctx = contextOf(item);
        return {
          ok: true,
          detail: 'found ' + brief(item) + (shows && !brief(item).includes(quote(cut(shows, 60))) ? ' saying ' + quote(cut(shows, 60)) : '') +
            (ctx && ctx !== fold(shows || '') ? ' in ' + quote(ctx) : '') + after + (sc ? ', ' + whereOf(sc, el) : ''),
          find: { state: st, found: true, ids, around },
          ...(list && sc ? { list: listReply(list, sc, before) } : {}),
        };
      }
      if (!sc) {
        return fail('not_found', 'page', 'no element says ' + quote(text) + (el ? ' in ' + brief(el) + ', which does not scroll' : ' on the page, which does not scroll'),
          'check the text (find matches it in what an element shows, ignoring case); grip snapshot shows what is there');
      }
      const max = sc.scrollHeight - sc.clientHeight;
      const atEnd = sc.scrollTop >= max - 1;
      const searched = st.wrapped && sc.scrollTop >= st.start;
      if (searched || st.steps >= MAX_STEPS || (atEnd && (st.wrapped || st.start <= 1))) {
        const how = st.steps >= MAX_STEPS && !searched ? ' (the most a find takes; run it again to search on from there)'
          : st.wrapped ? ' (from where it stood to the end, then from the top)' : ' (to the end)';
        const v = list ? listView(list, sc) : null;
        const seen = v && v.total ? '; the list has ' + (v.estimated ? 'about ' : '') + v.total.toLocaleString('en-US') + ' ' + v.unit : '';
        return fail('not_found', 'page', 'no element says ' + quote(text) + ': scrolled ' + whereOf(sc, el) + ' in ' + st.steps +
          (st.steps === 1 ? ' step' : ' steps') + how + seen,
        'check the text (find matches it in what an element shows, ignoring case); grip snapshot shows what is there now');
      }
      const was = sc.scrollTop;
      if (atEnd) {
        st.wrapped = true;
        sc.scrollTop = 0;
      } else {
        sc.scrollTop = nextTop(list, sc, max);
      }
      st.steps++;
      await rendered(list || root);
      if (!atEnd && sc.scrollTop <= was && sc.scrollHeight - sc.clientHeight <= max) {
        return fail('not_found', 'page', 'no element says ' + quote(text) + ': ' + whereOf(sc, el) + ' does not scroll further (after ' + st.steps + ' steps)',
          'grip snapshot shows what is there now');
      }
      if (performance.now() - t0 > SLICE_MS) {
        // The host keeps the first call's ids inside the list: the rows
        // that went since it began.
        const first = prev ? {} : { list: { id: 0, unit: '', first: 0, last: 0, total: 0, before } };
        return { ok: true, find: { state: st, more: true, found: false, where: whereOf(sc, el) }, ...first };
      }
    }
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ find, listView, listReply, idsInside, rendered, noMatch }));
})();
