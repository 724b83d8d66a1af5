// @ts-check
// What an icon shows, in words, for a control the page left unnamed
// (docs/snapshot.md, "Snapshot format"): the icon its class names in
// the icon sets' own naming (fa-trash, bi bi-x, tc-image-close-button),
// where that element draws a picture, the
// symbol a sprite's <use> points at, the text an icon font draws as a
// picture (Material Icons' ligatures: "more_vert"), and what an image's
// file is called (larger.gif). names.js reads these
// only where the accessibility tree's own rules give no name, so each is
// grip's guess and the line says `inferred`.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { attr, textIn } = K;

  // The prefixes of icon sets' class names: fa-trash, bi-x, mdi-delete.
  const ICON_SETS = new Set(['fa', 'fas', 'far', 'fal', 'fab', 'fad', 'bi', 'mdi', 'ti', 'ri', 'la', 'las', 'lar', 'lab',
    'lucide', 'feather', 'octicon', 'codicon', 'glyphicon', 'ion', 'icofont', 'bx', 'bxs', 'bxl', 'uil', 'ph', 'iconoir',
    'gg', 'icon', 'icons']);
  // Words in icon class names that size, turn, style or place an icon, or
  // say that it is one: no icon's name.
  const NOT_NAMES = /^(?:fw|xs|sm|md|lg|xl|[0-9]+x|solid|regular|light|thin|duotone|brands|sharp|spin|pulse|border|inverse|li|ul|stack(?: [0-9]x)?|pull (?:left|right)|flip [a-z]+|rotate [0-9a-z]+|button|btn|icon|icons|image|img|outline|outlined|filled|fill|rounded|round|small|large|white|black|dark|inline|wrapper|wrap|container|holder|box|fluid|thumbnail|responsive|left|right|top|bottom|center)$/;
  // A token that says it is an icon's: "icon-trash", "tc-image-close-button", "trash-icon".
  const MARKED = /(?:^|[-_])(?:icon|icons|image|img|glyph)[-_]([a-z][a-z0-9_-]*)$/;
  const MARKED_AFTER = /^([a-z][a-z0-9_-]*?)[-_](?:icon|image|img|glyph)$/;
  // Trailing words icon sets add to the icon's name.
  const TAIL = /[-_](?:button|btn|icon|image|img|glyph)$/;
  const WORD = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
  const WORD_MAX = 30;

  /** The icon that el's class names, in words ('trash', 'close'), or '':
   * a token of an icon set (fa-trash, bi-x, mdi-delete, lucide-trash-2;
   * its modifiers such as fa-fw skipped), else one marked as an icon's
   * (icon-NAME, NAME-icon, tc-image-NAME-button). Only where el draws a
   * picture (drawsPicture): a class names what the page shows, never a
   * name of its own — a class on a box that draws nothing (a stylesheet
   * that did not load, a layout word such as logo-image on an empty link)
   * names nothing.
   * @param {Element} el */
  function iconWord(el) {
    const w = classWord(el);
    if (w && drawsPicture(el)) return w;
    return el.localName === 'img' ? fileWord(attr(el, 'src') || '') : '';
  }

  // What an image file's name says is no picture's name.
  const NOT_FILE_NAMES = /^(?:icon|icons|image|img|button|btn|spacer|blank|pixel|transparent|clear|dot|empty|placeholder)$/;

  /** The picture an image's file names, in words, for an image the page
   * left unnamed (alt=""): DokuWiki's edit window has larger.gif,
   * smaller.gif and wrap.gif to click. Words of letters only: a hash or
   * a number names nothing. @param {string} src */
  function fileWord(src) {
    let file = src.split(/[?#]/)[0];
    file = file.slice(file.lastIndexOf('/') + 1).toLowerCase().replace(/\.(?:gif|png|svg|jpe?g|webp|ico|bmp)$/, '');
    try { file = decodeURIComponent(file); } catch (_) { return ''; }
    const m = MARKED.exec(file) || MARKED_AFTER.exec(file);
    if (m) file = m[1];
    while (TAIL.test(file)) file = file.replace(TAIL, '');
    if (file.length > WORD_MAX || !/^[a-z]{2,}(?:[-_][a-z]{2,}){0,3}$/.test(file)) return '';
    const w = file.replace(/[-_]+/g, ' ');
    return NOT_FILE_NAMES.test(w) ? '' : w;
  }

  /** The icon word el's classes spell, whether or not it is drawn.
   * @param {Element} el */
  function classWord(el) {
    const cls = attr(el, 'class');
    if (!cls) return '';
    const tokens = cls.toLowerCase().trim().split(/\s+/);
    for (const t of tokens) {
      const dash = t.indexOf('-');
      if (dash > 0 && ICON_SETS.has(t.slice(0, dash))) {
        const w = words(t.slice(dash + 1));
        if (w) return w;
      }
    }
    for (const t of tokens) {
      const m = MARKED.exec(t) || MARKED_AFTER.exec(t);
      if (m) {
        const w = words(m[1]);
        if (w) return w;
      }
    }
    return '';
  }

  const SVG_NS = 'http://www.w3.org/2000/svg';

  /** Whether el draws a picture a person sees: an SVG element, a glyph
   * written in its text, or an image or text its style draws (an icon
   * font's ::before, a sprite's background, a mask).
   * @param {Element} el */
  function drawsPicture(el) {
    if (el.namespaceURI === SVG_NS) return true;
    if (/\S/.test(textIn(el))) return true;
    try {
      const cs = getComputedStyle(el);
      if (cs.backgroundImage !== 'none' || (cs.maskImage && cs.maskImage !== 'none') ||
        (/** @type {any} */ (cs).webkitMaskImage && /** @type {any} */ (cs).webkitMaskImage !== 'none')) return true;
      for (const pseudo of ['::before', '::after']) {
        const c = getComputedStyle(el, pseudo).content;
        if (c && c !== 'none' && c !== 'normal' && c !== '""' && c !== "''") return true;
      }
    } catch (_) { /* no style: not rendered */ }
    return false;
  }

  /** An icon's name as words: 'close-button' → 'close', 'arrow-left' →
   * 'arrow left'; '' for a modifier or what is no name.
   * @param {string} s */
  function words(s) {
    let w = s;
    while (TAIL.test(w)) w = w.replace(TAIL, '');
    if (!w || w.length > WORD_MAX || !WORD.test(w)) return '';
    w = w.replace(/[-_]+/g, ' ');
    return NOT_NAMES.test(w) ? '' : w;
  }

  /** The icon a sprite's <use> shows: the title or label of the symbol it
   * points at in this document, else the symbol's id in words
   * (sprite.svg#icon-trash → 'trash'); '' for none.
   * @param {Element} use */
  function useWord(use) {
    const href = attr(use, 'href') || attr(use, 'xlink:href') || '';
    const hash = href.indexOf('#');
    if (hash < 0) return '';
    const id = href.slice(hash + 1);
    if (!id) return '';
    const root = /** @type {Document|ShadowRoot} */ (use.getRootNode());
    const sym = hash === 0 && typeof root.getElementById === 'function' ? root.getElementById(id) : null;
    if (sym) {
      const label = attr(sym, 'aria-label') || titleChild(sym);
      if (label && label.trim()) return label.trim();
    }
    const low = id.toLowerCase();
    const m = MARKED.exec(low) || MARKED_AFTER.exec(low);
    return words(m ? m[1] : low);
  }

  /** The text of an SVG element's own <title> child ('' for none): its
   * name, as SVG's accessibility mapping gives it.
   * @param {Element} el */
  function titleChild(el) {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === 'title') return textIn(c);
    }
    return '';
  }

  // Private-use characters: the glyphs of icon fonts written into the
  // text itself (a Font Awesome "\uf1f8"), which say nothing as text.
  const PRIVATE_USE = /[\ue000-\uf8ff]|[\udb80-\udbff][\udc00-\udfff]/g;

  /** s without the private-use glyphs of icon fonts.
   * @param {string} s */
  function withoutGlyphs(s) {
    return s.replace(PRIVATE_USE, '');
  }

  /** A ligature's word as the words it names: 'more_vert' → 'more vert';
   * other text unchanged.
   * @param {string} s */
  function ligatureWords(s) {
    return /^[a-z0-9]+(?:_[a-z0-9]+)+$/.test(s) ? s.replace(/_/g, ' ') : s;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    iconWord, useWord, titleChild, withoutGlyphs, ligatureWords,
  }));
})();
