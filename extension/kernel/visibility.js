// @ts-check
// What is there to see. Elements are skipped by what they are ([hidden],
// [inert], aria-hidden="true": hidden from everyone, styles aside) and by
// whether they render (display:none, visibility:hidden or collapse, or
// inside content-visibility:hidden, here or above).
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, hasAttr, fact, flatParent, closestFlat } = K;

  /** Whether el itself is hidden by what it is.
   * @param {Element} el */
  function isHiddenAttr(el) {
    return hasAttr(el, 'hidden') || hasAttr(el, 'inert') || attr(el, 'aria-hidden') === 'true';
  }

  /** Why el, or an ancestor in the flat tree, counts as hidden by what it
   * is ([hidden], [inert], aria-hidden), or ''.
   * @param {Element} el */
  function hiddenReason(el) {
    const h = closestFlat(el, '[hidden],[aria-hidden="true"],[inert]');
    if (!h) return '';
    if (hasAttr(h, 'inert')) return 'element is inert';
    if (hasAttr(h, 'hidden')) return 'element is hidden (hidden attribute)';
    return 'element is hidden from assistive technology (aria-hidden)';
  }

  /** @param {Element} el */
  function displayContents(el) {
    try { return getComputedStyle(el).display === 'contents'; } catch (_) { return false; }
  }

  const VIS_OPTS = { visibilityProperty: true };
  // Asked once, not per element: a re-read checks every element it kept,
  // and a property lookup on an element costs as much from this isolated
  // world as a third of the check itself.
  const CAN_CHECK = typeof Element.prototype.checkVisibility === 'function';

  /** isVisible's answers during one walk, by element, or null outside one
   * (visibleMemo): nothing changes the page while a walk runs, and a
   * quarter to a third of a walk's visibility reads are of an element read
   * already (a select, then the control standing in for it, then each
   * again as it is reported). @type {Map<Element, boolean>|null} */
  let memo = null;

  /** Whether the page scrolls from its top left corner (farOff), during
   * one walk; null outside one or not read yet. @type {boolean|null} */
  let fromTopLeft = null;

  /** Turns the memo of isVisible on (a walk starts) or off (it ended).
   * @param {boolean} on */
  function visibleMemo(on) {
    memo = on ? new Map() : null;
    fromTopLeft = null;
  }

  /** Whether el renders (it, and every ancestor, have a box and visibility:visible).
   * @param {Element} el */
  function isVisible(el) {
    if (!memo) return visibleNow(el);
    let v = memo.get(el);
    if (v === undefined) {
      v = visibleNow(el);
      memo.set(el, v);
    }
    return v;
  }

  /** isVisible, read from the page. @param {Element} el */
  function visibleNow(el) {
    const e = /** @type {any} */ (el);
    if (CAN_CHECK) {
      if (e.checkVisibility(VIS_OPTS)) return true;
      // display:contents has no box of its own but its children render.
      return displayContents(el) && !!el.parentElement && isVisibleStyle(el);
    }
    return isVisibleStyle(el);
  }

  /** Fallback for engines without checkVisibility: one computed style per element.
   * @param {Element} el */
  function isVisibleStyle(el) {
    // A removed element's computed style is empty, not hidden.
    if (!el.isConnected) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.visibility === 'collapse') return false;
    for (let n = /** @type {Node|null} */ (el); n; n = flatParent(n)) {
      if (n.nodeType === 1 && getComputedStyle(/** @type {Element} */ (n)).display === 'none') return false;
    }
    return true;
  }

  /** Whether el and its whole subtree do not render (display:none, or
   * skipped by content-visibility:hidden, here or above), so a walk need
   * not enter it.
   * @param {Element} el */
  function noBox(el) {
    if (!CAN_CHECK) return false;
    return !el.checkVisibility() && !displayContents(el);
  }

  // A box at most this many pixels across that clips its content shows
  // nothing of it (the "visually hidden" pattern); a select that narrow
  // is out of sight (widgets.js unseenSelect).
  const SHUT_PX = 4;

  /** Whether el renders but is clipped shut: a box of a few pixels that
   * hides its overflow, kept for screen readers (OOUI keeps a closed
   * dropdown's menu so while the dropdown has focus, overriding its
   * display:none; docs/widgets.md, *Widgets*). Style is asked first and
   * layout only where style leaves the answer open, so that a re-read
   * after a change of text, which changes no style, checks a box only
   * where it could matter (docs/settling.md, "A change of text alone").
   * @param {Element} el */
  function clippedShut(el) {
    const cs = getComputedStyle(el);
    return cs.overflowX !== 'visible' && cs.overflowY !== 'visible' && thinBox(el);
  }

  /** Whether el's box is at most a few pixels across one way or the
   * other. @param {Element} el */
  function thinBoxNow(el) {
    const r = el.getBoundingClientRect();
    return !(r.width > SHUT_PX && r.height > SHUT_PX);
  }

  /** Whether el is a speck: no element inside it and a box of at most a
   * few pixels each way, as the focus anchors ExtJS keeps in every grid
   * and window (an empty link of 1×1 px that only takes the keyboard's
   * focus): nothing a person sees or presses. @param {Element} el */
  function speck(el) {
    return !el.firstElementChild && tinyBox(el);
  }

  /** Whether el's box is at most a few pixels each way. @param {Element} el */
  function tinyBoxNow(el) {
    const r = el.getBoundingClientRect();
    return r.width <= SHUT_PX && r.height <= SHUT_PX;
  }

  /** Whether the page scrolls from its top left corner: written left to
   * right in lines from the top, its root and body alike. Only then is
   * all that lies left of it or above it out of every scroll's reach. */
  function topLeftOrigin() {
    if (memo && fromTopLeft !== null) return fromTopLeft;
    /** @param {Element|null} e */
    const ltr = (e) => {
      if (!e) return true;
      const cs = getComputedStyle(e);
      return cs.writingMode === 'horizontal-tb' && cs.direction === 'ltr';
    };
    const v = ltr(document.documentElement) && ltr(document.body);
    if (memo) fromTopLeft = v;
    return v;
  }

  /** Whether el renders wholly where no scrolling can bring it: left of
   * the page's start or above it, where menus are kept until they are
   * shown (a menu bar's dropdowns at left:-999em until hovered,
   * qBittorrent's context menus at top:-900000px until opened), with no
   * box around it that scrolls and could. No person sees it, nothing
   * presses it (acts.js: "could not be scrolled into view"), so a snapshot
   * does not list it (docs/snapshot.md, "Snapshot format").
   * Only a page that scrolls from its top left is judged (a right-to-left
   * page scrolls to the left of its start); an element inside a box that
   * scrolls, or is fixed to the window, is taken as reachable — unless that
   * box lies out of reach itself the same way: DokuWiki keeps its closed
   * toolbar pickers as 1×1 px boxes that clip their buttons, at
   * left:-99999em, and scrolling such a box brings nothing onto the page.
   * @param {Element} el */
  function farOffNow(el) {
    const r = el.getBoundingClientRect();
    const left = r.right + scrollX < 0, above = r.bottom + scrollY < 0;
    if ((!left && !above) || (r.width === 0 && r.height === 0) || !topLeftOrigin()) return false;
    const root = document.scrollingElement || document.documentElement;
    for (let n = flatParent(el); n && n !== root; n = flatParent(n)) {
      if (n.nodeType !== 1) continue;
      const a = /** @type {Element} */ (n);
      const cs = getComputedStyle(a);
      if (cs.position === 'fixed') return false;
      const scrollsX = cs.overflowX !== 'visible' && cs.overflowX !== 'clip' && a.scrollWidth > a.clientWidth;
      const scrollsY = cs.overflowY !== 'visible' && cs.overflowY !== 'clip' && a.scrollHeight > a.clientHeight;
      if ((left && scrollsX) || (above && scrollsY)) {
        const b = a.getBoundingClientRect();
        if ((left && scrollsX && b.right + scrollX >= 0) || (above && scrollsY && b.bottom + scrollY >= 0)) return false;
      }
    }
    return getComputedStyle(el).position !== 'fixed';
  }

  // How many elements inside a box without area areaBox looks at.
  const AREA_SEARCH = 50;

  /** Where a person can press el: el when one of its boxes has area, else
   * the first element inside it that has (a box whose children all float
   * is 0 px high, yet they show and a press on them reaches it); null when
   * nothing of it has area — a 0×0 element with a click handler, which no
   * one can click, so a snapshot does not list it as clickable and an
   * action says it has no size (acts.js actionable). Bounded: the first
   * AREA_SEARCH elements.
   * @param {Element} el @returns {Element|null} */
  function areaBoxNow(el) {
    if (hasArea(el)) return el;
    const all = el.getElementsByTagName('*');
    for (let i = 0; i < all.length && i < AREA_SEARCH; i++) if (hasArea(all[i])) return all[i];
    return null;
  }

  /** @param {Element} el */
  function hasArea(el) {
    const rects = el.getClientRects();
    for (let i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) return true;
    return false;
  }

  // Facts of layout, noted while a walk records (base.js fact).
  const thinBox = fact(thinBoxNow);
  const tinyBox = fact(tinyBoxNow);
  const farOff = fact(farOffNow);
  const areaBox = fact(areaBoxNow);

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    isHiddenAttr, hiddenReason, isVisible, visibleMemo, noBox, clippedShut, thinBox, speck, farOff, areaBox,
  }));
})();
