// @ts-check
// Scrolling: the page by most of a screen; an element into view; or, for
// an element whose content scrolls (a list, a virtualized grid: the
// element itself or the scroller inside it, widgets.js scrollerOf), its
// content by most of its height, so rows that are not rendered yet come.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { idOf, done, brief, scrollerOf, scrollMarks, rendered, idsInside, listReply } = K;

  /** Scrolls the page by fractions of the viewport.
   * @param {number} fy @param {number} fx */
  function scrollPage(fy, fx) {
    window.scrollBy({ left: fx * window.innerWidth, top: fy * window.innerHeight, behavior: 'instant' });
  }

  /** @param {Element|null} el @param {{text?: string, value?: string}} r */
  function doScroll(el, r) {
    const dir = String(r.text || r.value || 'down').toLowerCase();
    if (el) {
      const id = idOf(el);
      const sc = dir === 'up' || dir === 'down' ? scrollerOf(el) : null;
      const marks = sc ? scrollMarks(sc) : [];
      const want = dir === 'up' ? 'more-above' : 'more-below';
      if (!sc || marks.indexOf(want) < 0) {
        el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        const detail = sc ? 'already at the ' + (dir === 'up' ? 'top' : 'bottom') + ' of ' + brief(el) : '';
        return typeof id === 'number' ? done(el, id, { ok: true, detail }) : { ok: true, detail };
      }
      const b = el.getBoundingClientRect();
      if (b.bottom < 0 || b.top > window.innerHeight) el.scrollIntoView({ block: 'nearest', behavior: 'instant' });
      // The ids inside the list before and after: the host counts the rows
      // that appeared and went instead of listing them (find.js listReply).
      const before = idsInside(el, false);
      sc.scrollBy({ top: (dir === 'up' ? -0.8 : 0.8) * sc.clientHeight, behavior: 'instant' });
      // A virtualized list renders the rows that came into view on its
      // scroll event, a frame or two later: the reply waits for that.
      return rendered(el).then(() => {
        const now = sc.isConnected ? scrollMarks(sc) : [];
        const detail = 'scrolled ' + brief(el) + ' ' + dir + ' to ' + Math.round(sc.scrollTop) + ' of ' +
          Math.round(Math.max(0, sc.scrollHeight - sc.clientHeight)) + ' px' + (now.length ? ', ' + now.join(' ') : ', at the end');
        const list = el.isConnected ? listReply(el, sc, before) : undefined;
        const reply = { ok: true, detail, ...(list ? { list } : {}) };
        return typeof id === 'number' && el.isConnected ? done(el, id, reply) : reply;
      });
    }
    if (dir === 'up') scrollPage(-0.8, 0);
    else if (dir === 'left') scrollPage(0, -0.8);
    else if (dir === 'right') scrollPage(0, 0.8);
    else scrollPage(0.8, 0);
    return { ok: true, detail: 'scrolled to ' + Math.round(window.scrollX) + ', ' + Math.round(window.scrollY) };
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ scrollPage, doScroll }));
})();
