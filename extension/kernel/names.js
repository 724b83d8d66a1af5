// @ts-check
// Accessible names, in accname's order (simplified): aria-labelledby,
// aria-label, what the control is (input values, labels, alt), its content
// for roles named from content, then title and placeholder; an editable
// region without any, by its editor's placeholder or its iframe's title.
// Texts are folded, and read through the flat tree, skipping hidden parts;
// a part with no text gives its title, an SVG its <title>, as accname does.
// Where none of that names a control, grip names it itself and says so
// (nameInferred): a field by the label beside it that the page tied to no
// control, a field in a table by its headers, a control by what it shows
// (its icons, hidden or not, icons.js), a checkbox by the text beside it.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fold, cut, attr, hasAttr, noteText, fact, shadowOf, isHiddenAttr, isVisible, noBox, declaredRole, inputType,
    CONTROL_ROLES, NAME_FROM_CONTENT, TEXT_ROLES, PROSE_TAGS, HEADING_TAGS,
    iconWord, useWord, titleChild, withoutGlyphs, ligatureWords } = K;

  const SVG_NS = 'http://www.w3.org/2000/svg';

  const NAME_MAX = 300;
  const TEXT_SCAN_MAX = 2000;
  const SKIP_TEXT = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'frame', 'object',
    'embed', 'datalist', 'title', 'meta', 'link', 'head']);
  const CONTROL_TAGS_IN_LABEL = new Set(['input', 'select', 'textarea', 'button']);
  const BLOCKISH = new Set(['br', 'div', 'p', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'tr', 'td', 'th',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header', 'footer', 'nav', 'aside',
    'main', 'blockquote', 'pre', 'table', 'tbody', 'thead', 'tfoot', 'figure', 'figcaption', 'form',
    'fieldset', 'legend', 'hr', 'address', 'details', 'summary', 'caption', 'option', 'label']);

  // State of the running textOf (hoisted, so a call allocates no closures).
  /** @type {string[]} */
  const tParts = [];
  let tLen = 0;
  let tStop = false, tVis = false, tLabel = false, tShown = false, tNoLinks = false, tLines = false;
  /** @type {Node|null} */
  let tSkip = null;
  // Where in tParts the running textOf put an image's alt text.
  /** @type {number[]} */
  const tAlts = [];

  /** Text of n's subtree in the flat tree, with alt text and aria-label of
   * descendants, skipping hidden ones; folded.
   * @param {Node} n
   * @param {TextOptions} opt skip: a node left out with its subtree (an
   *   editor's own hidden input, whose label is no text of the editor's);
   *   shown: what a person sees, parts hidden from assistive technology
   *   included, icons in words (icons.js); lines: its line breaks kept
   *   (preformatted text: a diff's "-old" and "+new" stay lines, which
   *   the host writes as \n in its quote)
   */
  function textOf(n, opt) {
    noteText(n);
    // Not re-entrant: nothing textChildren calls comes back here.
    tParts.length = 0;
    tLen = 0;
    tStop = !!opt.stopBlocks; tVis = !!opt.checkVis; tLabel = !!opt.inLabel; tSkip = opt.skip || null;
    tShown = !!opt.shown;
    tNoLinks = !!opt.noLinks;
    tLines = !!opt.lines;
    tAlts.length = 0;
    // A name read from text is the page's: nameOf marks its own guesses
    // after its last read.
    inferred = false;
    textChildren(n);
    if (tAlts.length) dropSaidAlts();
    const s = tParts.length === 1 ? tParts[0] : tParts.join('');
    tParts.length = 0;
    return tLines ? foldLines(s) : fold(s);
  }

  /** Leaves out of the running textOf each image's alt text that the
   * rest of its text says already, word for word: an icon beside its own
   * caption (qBittorrent's menus, `<img alt="Remove">Remove`, and filters,
   * `<img alt="All">All (0)`) is one name to a person, not "Remove
   * Remove". */
  function dropSaidAlts() {
    const saved = tAlts.map((i) => tParts[i]);
    for (const i of tAlts) tParts[i] = '';
    const rest = ' ' + words(tParts.join('')) + ' ';
    for (let k = 0; k < tAlts.length; k++) {
      const a = words(saved[k]);
      if (!a || rest.indexOf(' ' + a + ' ') < 0) tParts[tAlts[k]] = saved[k];
    }
  }

  /** s's words, lower case, one space apart: what dropSaidAlts compares.
   * @param {string} s */
  function words(s) {
    return s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  }

  /** s folded within its lines: runs of other whitespace to one space,
   * the spaces around a line break and blank lines past one dropped.
   * @param {string} s */
  function foldLines(s) {
    return s.replace(/[^\S\n]+/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  }

  /** @param {Node} c */
  function textNode(c) {
    if (tLen > TEXT_SCAN_MAX) return;
    const t = c.nodeType;
    if (t === 3) {
      // An icon font's glyph, written into the text, is no word a person reads.
      const d = tShown ? withoutGlyphs(/** @type {Text} */ (c).data) : /** @type {Text} */ (c).data;
      tParts.push(d);
      tLen += d.length;
      return;
    }
    if (t !== 1) return;
    const e = /** @type {Element} */ (c);
    const ln = e.localName;
    if (SKIP_TEXT.has(ln) || e === tSkip) return;
    if (tShown ? hasAttr(e, 'hidden') || hasAttr(e, 'inert') : isHiddenAttr(e)) return;
    if (tVis && !isVisible(e) && (noBox(e) || !e.firstElementChild)) return;
    if (tStop && (PROSE_TAGS.has(ln) || HEADING_TAGS.has(ln) || TEXT_ROLES.has(declaredRole(e)))) return;
    if (tLabel && CONTROL_TAGS_IN_LABEL.has(ln)) return;
    if (tNoLinks && ln === 'a' && hasAttr(e, 'href')) return;
    if (ln === 'img' || ln === 'area' || (ln === 'input' && inputType(e) === 'image')) {
      const alt = attr(e, 'aria-label') || attr(e, 'alt') || '';
      if (alt) { tParts.push(' ', alt, ' '); tLen += alt.length; tAlts.push(tParts.length - 2); }
      return;
    }
    const aria = attr(e, 'aria-label');
    if (aria && aria.trim()) { tParts.push(' ', aria, ' '); tLen += aria.length; return; }
    if (ln === 'select') {
      tParts.push(' ', selectValue(/** @type {HTMLSelectElement} */ (e)), ' ');
      return;
    }
    if (e.namespaceURI === SVG_NS) {
      const title = fold(titleChild(e));
      if (title) { tParts.push(' ', title, ' '); tLen += title.length; return; }
      if (tShown && ln === 'use') { push(useWord(e)); return; }
    }
    if (tLines && ln === 'br') { tParts.push('\n'); return; }
    const block = BLOCKISH.has(ln) || (tVis && apart(e));
    const apartBy = tLines ? '\n' : ' ';
    if (block) tParts.push(apartBy);
    const mark = tParts.length;
    textChildren(e);
    // A part with no text says its title (accname's last step), or what
    // its icon is.
    if (blankSince(mark)) {
      const title = attr(e, 'title');
      if (title && title.trim()) push(title);
      else if (tShown) push(iconWord(e));
    }
    if (block) tParts.push(apartBy);
  }

  /** Whether e, an inline tag right after text, shows apart from it: a
   * keyboard shortcut, or an element floated or laid out as a block
   * ("Restart" and its shortcut "0,0" floated right in Jupyter's menus, one
   * word "Restart0,0" by the DOM alone). Its style is read only there.
   * @param {Element} e */
  function apart(e) {
    const prev = tParts.length ? tParts[tParts.length - 1] : '';
    if (!prev || /\s$/.test(prev)) return false;
    if (e.localName === 'kbd') return true;
    /** @type {CSSStyleDeclaration} */
    let cs;
    try { cs = getComputedStyle(e); } catch (_) { return false; }
    return cs.float !== 'none' || !cs.display.startsWith('inline');
  }

  /** Adds s to the running text as a word of its own.
   * @param {string} s */
  function push(s) {
    if (!s) return;
    tParts.push(' ', s, ' ');
    tLen += s.length;
  }

  /** Whether the running text got nothing but blanks since tParts[mark].
   * @param {number} mark */
  function blankSince(mark) {
    for (let i = mark; i < tParts.length; i++) if (/\S/.test(tParts[i])) return false;
    return true;
  }

  /** @param {Node} p */
  function textChildren(p) {
    if (p.nodeType === 1) {
      const e = /** @type {Element} */ (p);
      const sr = shadowOf(e);
      if (sr) { textChildren(sr); return; }
      if (e.localName === 'slot') {
        const assigned = /** @type {HTMLSlotElement} */ (e).assignedNodes();
        if (assigned.length) { for (const a of assigned) textNode(a); return; }
      }
    }
    for (let c = p.firstChild; c; c = c.nextSibling) textNode(c);
  }

  /** Text of the elements named by an id-list attribute, in el's tree.
   * @param {Element} el @param {string} ids */
  function textOfIds(el, ids) {
    const root = /** @type {Document|ShadowRoot} */ (el.getRootNode());
    /** @type {string[]} */
    const out = [];
    for (const id of ids.trim().split(/\s+/)) {
      if (!id) continue;
      const ref = typeof root.getElementById === 'function' ? root.getElementById(id) : document.getElementById(id);
      if (!ref) continue;
      const aria = ref !== el ? attr(ref, 'aria-label') : null;
      const t = aria && aria.trim() ? fold(aria) : textOf(ref, { checkVis: false });
      if (t) out.push(t);
    }
    return out.join(' ');
  }

  /** The labels of a select's chosen options, joined by ', '.
   * @param {HTMLSelectElement} s */
  function selectValue(s) {
    if (!s.multiple) {
      const o = s.selectedIndex >= 0 ? s.options[s.selectedIndex] : null;
      return o ? fold(o.label || o.text) : '';
    }
    /** @type {string[]} */
    const picked = [];
    const opts = s.options;
    for (let i = 0; i < opts.length; i++) {
      const o = opts[i];
      if (o.selected) picked.push(fold(o.label || o.text));
      if (!s.multiple && picked.length) break;
    }
    return picked.join(', ');
  }

  // Per call: tree root → (control → its labels). el.labels walks the whole
  // tree scope for every control, which is quadratic over a snapshot. Each
  // call of the kernel starts with forgetLabels: the page may have changed.
  /** @type {Map<Node, Map<Element, Element[]>>} */
  const labelIndex = new Map();
  // The tree (document or shadow root) the snapshot walk is in; null outside it.
  /** @type {Node|null} */
  let walkRoot = null;

  // Per call: tree root → the <label>s in it tied to no control.
  /** @type {Map<Node, Element[]>} */
  const orphanIndex = new Map();
  // Per call: tree root → (element → the visible untied labels inside it:
  // how many, and the last). Built on the first field that asks.
  /** @type {Map<Node, Map<Element, {n: number, label: Element}>>} */
  const orphansWithin = new Map();
  // Per call: element → the visible fields it holds, up to three (fieldsIn).
  /** @type {Map<Element, Element[]>} */
  const fieldsWithin = new Map();

  function forgetLabels() {
    labelIndex.clear();
    orphanIndex.clear();
    orphansWithin.clear();
    fieldsWithin.clear();
    headings = null;
    headerRows.clear();
  }

  /** The label indexes this call built, for a later call to use again
   * while the page's elements and attributes are as they were: a re-read
   * after a change of text alone (reread.js), which lists a line again
   * and would otherwise index every label of the document for it.
   * @returns {KeptLabels} */
  function labelsKept() {
    return { index: new Map(labelIndex), orphans: new Map(orphanIndex) };
  }

  /** Puts kept label indexes back for this call (see labelsKept).
   * @param {KeptLabels} kept */
  function useLabels(kept) {
    for (const [root, index] of kept.index) labelIndex.set(root, index);
    for (const [root, orphans] of kept.orphans) orphanIndex.set(root, orphans);
  }

  /** Tells labelsOf which tree the walk is in (null: none, ask the node);
   * returns the one it was in.
   * @param {Node|null} root @returns {Node|null} */
  function setWalkRoot(root) {
    const outer = walkRoot;
    walkRoot = root;
    return outer;
  }

  /** The <label>s of a labelable control (label[for] and wrapping label).
   * @param {Element} el @returns {Element[]} */
  function labelsOf(el) {
    const root = walkRoot || el.getRootNode();
    return (labelIndex.get(root) || indexLabels(root)).get(el) || [];
  }

  /** Reads root's <label>s once per call: the control each names, and
   * those tied to none (orphanIndex). @param {Node} root */
  function indexLabels(root) {
    /** @type {Map<Element, Element[]>} */
    const index = new Map();
    /** @type {Element[]} */
    const orphans = [];
    const tree = /** @type {Document|ShadowRoot} */ (root);
    const all = tree.querySelectorAll ? tree.querySelectorAll('label') : [];
    for (let i = 0; i < all.length; i++) {
      const label = /** @type {HTMLLabelElement} */ (all[i]);
      const control = label.control;
      if (!control) {
        if (untied(label, tree)) orphans.push(label);
        continue;
      }
      const list = index.get(control);
      if (list) list.push(label); else index.set(control, [label]);
    }
    labelIndex.set(root, index);
    orphanIndex.set(root, orphans);
    return index;
  }

  // What makes a label one of a control though the browser ties it to
  // none: a custom control inside it.
  const CONTROL_IN_LABEL = '[contenteditable]:not([contenteditable=false]),[role=textbox],[role=searchbox],' +
    '[role=combobox],[role=listbox],[role=spinbutton],[role=slider],[role=checkbox],[role=radio],[role=switch]';

  /** Whether a label the browser ties to no control is tied to nothing:
   * its for names no element of its tree (one naming a custom widget's
   * element is meant for it), and it holds no control of its own.
   * @param {Element} label @param {Document|ShadowRoot} tree */
  function untied(label, tree) {
    const id = attr(label, 'for');
    if (id && typeof tree.getElementById === 'function' && tree.getElementById(id)) return false;
    return !label.querySelector(CONTROL_IN_LABEL);
  }

  /** Whether every link in label stands inside its text, with words on
   * both sides, rather than leading or ending it. @param {Element} label
   * @param {string} full the label's text, links included */
  function linkInSentence(label, full) {
    const links = label.querySelectorAll('a[href]');
    for (let i = 0; i < links.length; i++) {
      const lt = textOf(links[i], { checkVis: true, inLabel: true });
      if (!lt) continue;
      const at = full.indexOf(lt);
      if (at <= 0 || at + lt.length >= full.length) return false;
    }
    return true;
  }

  /** Labels of a labelable control (label[for] and wrapping label), without
   * the text of controls inside them.
   * @param {Element} el */
  function labelText(el) {
    const labels = labelsOf(el);
    if (!labels.length) return '';
    /** @type {string[]} */
    const out = [];
    for (let i = 0; i < labels.length; i++) {
      const t = labelWords(labels[i]);
      if (t) out.push(t);
    }
    return out.join(' ');
  }

  /** What a label says of its field, without the text of controls in it.
   * A link beside its words ("Password Lost password") is a control of
   * its own, not part of the field's name, unless it is all the label
   * says; one inside its sentence ("You may use WikiFormatting here.") is
   * a word of it. @param {Element} label */
  function labelWords(label) {
    const full = textOf(label, { checkVis: true, inLabel: true });
    return (label.querySelector('a[href]') && !linkInSentence(label, full) &&
      textOf(label, { checkVis: true, inLabel: true, noLinks: true })) || full;
  }

  // The fields a fieldset's legend may name, when it holds only one.
  const TEXT_FIELDS = 'textarea, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit])' +
    ':not([type=reset]):not([type=button]):not([type=image]):not([type=file])';

  // An access-key hint a title ends with: DokuWiki's "[F]" on its search
  // box, "Edit this page [E]" on its buttons.
  const KEY_HINT = /\s*\[([^\]\s]{1,3})\]$/;

  /** el's title as a name, without the access-key hint it ends with: a
   * title that is only the hint ("[F]") names nothing, so the placeholder
   * after it does (Chrome itself names such a box "[F]", which tells an
   * agent nothing). @param {Element} el @returns {string} */
  function titleName(el) {
    const t = fold(attr(el, 'title') || '');
    const m = KEY_HINT.exec(t);
    const key = attr(el, 'accesskey');
    if (m && (t === m[0].trim() || (key && m[1].toLowerCase() === key.trim().toLowerCase()))) return t.slice(0, m.index);
    return t;
  }

  const HEADINGS_SEL = 'h1,h2,h3,h4,h5,h6,[role=heading]';
  // Per call: the document's headings, in document order (headingBefore).
  /** @type {NodeListOf<Element>|null} */
  let headings = null;

  /** Whether el is a field a person sees as one, not an editor's tiny
   * input proxy (Ace's textarea is a few px, under its drawn lines).
   * @param {Element} el */
  const shownField = fact(/** @param {Element} el */ (el) => {
    const r = el.getBoundingClientRect();
    return r.width >= 20 && r.height >= 10;
  });

  /** The text of the heading just before a field nothing names (DokuWiki's
   * page editor under "Edit page", Trac's under "Editing WikiStart"), when
   * the heading's parent holds the field and no other field lies between
   * them but a select with a label of its own (Trac's "Adjust edit area
   * height:", a setting of the editor, which needs no heading to say what
   * it is); '' for none.
   * @param {Element} el */
  function headingBefore(el) {
    // The last heading before el, by halves: the document's headings are
    // read once per call (each unnamed field read them again: 2.6 ms a
    // field on a page of 6,000 elements, on a busy machine).
    if (!headings) headings = document.querySelectorAll(HEADINGS_SEL);
    let lo = 0, hi = headings.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (headings[mid].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) lo = mid + 1;
      else hi = mid;
    }
    const h = lo ? headings[lo - 1] : null;
    if (!h || !h.parentElement || !h.parentElement.contains(el)) return '';
    const range = document.createRange();
    range.setStartAfter(h);
    range.setEndBefore(el);
    for (const f of h.parentElement.querySelectorAll(TEXT_FIELDS)) {
      if (f !== el && range.intersectsNode(f) && (f.localName !== 'select' || !labelName(f))) return '';
    }
    return fold(textOf(h, { checkVis: true }));
  }

  // A caption is at most this many characters.
  const CAPTION_MAX = 60;

  /** The text just before a field nothing names, when it is the field's
   * caption: the element right before it, with no control in it, showing
   * a short text that ends in a colon (qBittorrent's tag dialog: a
   * paragraph "Comma-separated tags:" over its one field); '' for none.
   * @param {Element} el */
  function captionBefore(el) {
    const p = el.previousElementSibling;
    if (!p || p.localName === 'label' || HEADING_TAGS.has(p.localName) || p.querySelector('input,select,textarea,button,' + CONTROL_IN_LABEL)) return '';
    if (el.parentNode) noteText(el.parentNode);
    for (let n = el.previousSibling; n && n !== p; n = n.previousSibling) {
      if (n.nodeType === 3 ? /\S/.test(/** @type {Text} */ (n).data) : n.nodeType === 1) return '';
    }
    if (!isVisible(p)) return '';
    const t = fold(textOf(p, { checkVis: true }));
    return t.length <= CAPTION_MAX && t.endsWith(':') ? t : '';
  }

  /** The name of a field with nothing better: the legend of the fieldset
   * it is the one text field of (a notes box under "Notes"), or, for the
   * textarea CodeMirror 5 takes input through, the name of the textarea
   * the editor was made from (fromTextArea hides it just before the
   * editor's box, keeping its label and aria-label); '' for none.
   * @param {Element} el */
  function fieldContextName(el) {
    const cm = el.localName === 'textarea' ? el.closest('.CodeMirror') : null;
    if (cm) {
      const orig = cm.previousElementSibling;
      if (orig && orig.localName === 'textarea' && orig !== el) {
        const n = labelName(orig) || fold(attr(orig, 'title') || attr(orig, 'placeholder') || '');
        if (n) return n;
      }
    }
    const fs = el.closest('fieldset');
    if (!fs || fs.querySelectorAll(TEXT_FIELDS).length !== 1) return '';
    const legend = fs.querySelector('legend');
    return legend && legend.closest('fieldset') === fs ? fold(textOf(legend, { checkVis: true, inLabel: true })) : '';
  }

  // The fields a label beside them may name, and that count against one
  // another in its container: buttons aside, which their text names.
  const LABEL_FIELDS = 'select, textarea, input:not([type=hidden]):not([type=submit]):not([type=reset])' +
    ':not([type=button]):not([type=image]),' + CONTROL_IN_LABEL;
  // How far above a field the container it shares with its label may be
  // (Bootstrap's input group: the field, its .input-group, the .form-group).
  const LABEL_UP_MAX = 5;

  // How far above a box to tick and the field it turns on their untied
  // label may be: ExtJS draws the pair in a layout table inside a panel
  // inside the form item that holds the label (Deluge's "Move completed
  // to:"), nine and ten levels up.
  const TOGGLE_UP_MAX = 12;
  // The box that turns a field beside it on or off.
  const TOGGLE = 'input[type=checkbox], [role=checkbox], [role=switch]';

  /** The words of the <label> tied to no control (no for that finds an
   * element, no control inside it) that is el's one such label and el its
   * one field: the nearest ancestor of el that holds any untied label
   * holds exactly one, before el, and no other visible field, buttons
   * aside (Bootstrap's `.form-group`: `<label>Folder Type</label>` then
   * its select, or an input in an `.input-group` beside a button); the
   * container is at most LABEL_UP_MAX levels up. A box to tick and the one
   * field it turns on, after such a label and alone with it in its
   * container (at most TOGGLE_UP_MAX up), are both named by it: ExtJS's
   * "[x] Move completed to: [folder]", whose form item's label names an id
   * no element has. '' for none. Hidden labels and fields do not count.
   * @param {Element} el */
  function orphanLabelName(el) {
    const root = walkRoot || el.getRootNode();
    if (!labelIndex.has(root)) indexLabels(root);
    const orphans = /** @type {Element[]} */ (orphanIndex.get(root));
    if (!orphans.length || !el.matches(LABEL_FIELDS)) return '';
    const within = orphansWithin.get(root) || countOrphans(root, orphans);
    let n = el.parentElement;
    for (let up = 0; n && up < TOGGLE_UP_MAX; up++, n = n.parentElement) {
      const fields = fieldsIn(n);
      if (fields.length > 2 || (fields.length === 2 && !togglePair(fields))) return '';
      if (fields.length === 1 && up >= LABEL_UP_MAX) return '';
      const has = within.get(n);
      if (!has) continue;
      if (has.n > 1 || !(has.label.compareDocumentPosition(fields[0]) & Node.DOCUMENT_POSITION_FOLLOWING)) return '';
      return labelWords(has.label);
    }
    return '';
  }

  /** Whether two fields, in page order, are a box to tick and a field
   * that is not one. @param {Element[]} fields */
  function togglePair(fields) {
    return fields[0].matches(TOGGLE) !== fields[1].matches(TOGGLE);
  }

  /** For each element of root, the visible untied labels inside it.
   * @param {Node} root @param {Element[]} orphans */
  function countOrphans(root, orphans) {
    /** @type {Map<Element, {n: number, label: Element}>} */
    const within = new Map();
    for (const label of orphans) {
      if (!isVisible(label)) continue;
      for (let n = label.parentElement; n; n = n.parentElement) {
        const has = within.get(n);
        if (has) { has.n++; has.label = label; } else within.set(n, { n: 1, label });
      }
    }
    orphansWithin.set(root, within);
    return within;
  }

  /** The visible fields a label may name that n holds, in page order: at
   * most three (three says "more than two"). @param {Element} n */
  function fieldsIn(n) {
    let c = fieldsWithin.get(n);
    if (c !== undefined) return c;
    c = [];
    const all = n.querySelectorAll(LABEL_FIELDS);
    for (let i = 0; i < all.length && c.length < 3; i++) if (isVisible(all[i])) c.push(all[i]);
    fieldsWithin.set(n, c);
    return c;
  }

  // What an editor's hidden input says of its caret at the end of its
  // label (Ace: "Cursor at row 3", after the page's own label and a comma):
  // a live announcement that changes with every move of the caret.
  const CARET_SAID = /(?:^|,\s*)(?:cursor at\s+)?(?:row|line)\s+\d+(?:\s*,?\s*(?:col|column)\s+\d+)?\s*$/i;

  /** el's aria-label, without the caret's position where el is an editor's
   * hidden input (editors.js surfaceOf): the announcement is not the
   * control's name, and a name that changed with the caret would refuse
   * the agent's next action as meaning_changed.
   * @param {Element} el @returns {string|null} */
  function ariaLabelOf(el) {
    const a = attr(el, 'aria-label');
    if (!a || el.localName !== 'textarea' || !CARET_SAID.test(a) || !K.surfaceOf(el)) return a;
    return a.replace(CARET_SAID, '');
  }

  /** The name a control's labels give it: aria-labelledby, aria-label,
   * its <label>s; '' without any (no title, placeholder or content).
   * @param {Element} el */
  function labelName(el) {
    const by = attr(el, 'aria-labelledby');
    if (by) {
      const t = textOfIds(el, by);
      if (t) return cut(t, NAME_MAX);
    }
    const aria = ariaLabelOf(el);
    if (aria && aria.trim()) return cut(fold(aria), NAME_MAX);
    return cut(labelText(el), NAME_MAX);
  }

  /** The accessible name (accname order, simplified), folded and cut.
   * @param {Element} el @param {string} role @returns {string} */
  function nameOf(el, role) {
    inferred = false;
    const tag = el.localName;
    const by = attr(el, 'aria-labelledby');
    if (by) {
      const t = textOfIds(el, by);
      if (t) return cut(t, NAME_MAX);
    }
    const aria = ariaLabelOf(el);
    if (aria && aria.trim()) return cut(fold(aria), NAME_MAX);

    if (tag === 'input') {
      const t = inputType(el);
      if (t === 'submit' || t === 'reset' || t === 'button') {
        const v = attr(el, 'value');
        if (v !== null && fold(v)) return cut(fold(v), NAME_MAX);
        if (t === 'submit') return 'Submit';
        if (t === 'reset') return 'Reset';
      } else if (t === 'image') {
        const alt = fold(attr(el, 'alt') || attr(el, 'value') || attr(el, 'title') || '');
        return cut(alt || 'Submit', NAME_MAX);
      }
    }
    if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button' ||
      tag === 'meter' || tag === 'output' || tag === 'progress') {
      const l = labelText(el);
      if (l) return cut(l, NAME_MAX);
    }
    if (tag === 'img' || tag === 'area') {
      const alt = attr(el, 'alt');
      if (alt && fold(alt)) return cut(fold(alt), NAME_MAX);
    }
    if (tag === 'input' && inputType(el) === 'file') {
      const title = attr(el, 'title');
      return cut(fold(title || '') || 'Choose file', NAME_MAX);
    }
    if (NAME_FROM_CONTENT.has(role) && tag !== 'input' && tag !== 'select' && tag !== 'textarea') {
      const t = role === 'row' ? rowText(el) : textOf(el, { checkVis: true });
      // An icon font's glyph alone names nothing: the control is named by what it shows.
      if (t && withoutGlyphs(t).trim()) return cut(t, NAME_MAX);
      // A control that holds no text may be drawn by its style: the
      // content of its ::before and ::after is part of its name (accname).
      const g = CONTROL_ROLES.has(role) ? generatedText(el) : '';
      if (g) return cut(g, NAME_MAX);
    } else if (TEXT_ROLES.has(role)) {
      const t = textOf(el, { checkVis: true, stopBlocks: true, lines: tag === 'pre' });
      if (t) return cut(t, NAME_MAX);
    }
    const title = titleName(el);
    if (title) return cut(title, NAME_MAX);
    const ph = attr(el, 'placeholder') || attr(el, 'aria-placeholder');
    if (ph && fold(ph)) {
      // An editor drops its aria-placeholder once text hides it (Slate):
      // it keeps naming the editor, as data-placeholder does.
      if (/** @type {HTMLElement} */ (el).isContentEditable) placeholders.set(el, fold(ph));
      return cut(fold(ph), NAME_MAX);
    }
    if (role === 'textbox' && /** @type {HTMLElement} */ (el).isContentEditable) {
      const e = editableName(el);
      if (e) return cut(e, NAME_MAX);
    }
    if (FIELD_ROLES.has(role)) {
      const l = orphanLabelName(el);
      if (l) {
        inferred = true;
        return cut(l, NAME_MAX);
      }
      const h = headerName(el, false);
      if (h) {
        inferred = true;
        return cut(h, NAME_MAX);
      }
      const c = el.matches(TEXT_FIELDS) ? captionBefore(el) : '';
      if (c) {
        inferred = true;
        return cut(c, NAME_MAX);
      }
      // The heading before names only a field one types into: a box to
      // tick is named by what its row shows (below), not the list's title.
      const f = fieldContextName(el) || (el.matches(TEXT_FIELDS) && shownField(el) && !el.closest('.CodeMirror, .ace_editor, .cm-editor') ? headingBefore(el) : '');
      if (f) {
        inferred = true;
        return cut(f, NAME_MAX);
      }
    }
    if (role === 'gridcell' || (role === 'cell' && (hasAttr(el, 'tabindex') || /** @type {HTMLElement} */ (el).isContentEditable))) {
      // A cell that shows nothing of its own (an amount drawn as a field,
      // an empty cell to click) is named by its column and row headers; a
      // plain table's empty cell is not (Trac's empty 'Milestone:' value
      // read as if it said 'Milestone:').
      const h = headerName(el, true);
      if (h) {
        inferred = true;
        return cut(h, NAME_MAX);
      }
    }
    if (CONTROL_ROLES.has(role) && NAME_FROM_CONTENT.has(role) && tag !== 'input') {
      const s = shownName(el);
      if (s) {
        inferred = true;
        return cut(s, NAME_MAX);
      }
    }
    if (CHECKABLE_ROLES.has(role)) {
      const b = besideName(el);
      if (b) {
        inferred = true;
        return cut(b, NAME_MAX);
      }
    }
    return '';
  }

  /** The name of a control whose content names nothing to assistive
   * technology, from what a person sees in it: the text and icons of its
   * parts hidden from assistive technology (an aria-hidden Material icon's
   * ligature, "more_vert" read 'more vert'; an × in an aria-hidden span),
   * the titles of sprites' symbols, the icons its classes name (fa-trash,
   * tc-image-close-button), without icon fonts' glyphs; '' for none.
   * @param {Element} el */
  function shownName(el) {
    const s = fold(textOf(el, { checkVis: true, shown: true })) || iconWord(el);
    return ligatureWords(s);
  }

  // How many elements of a control generatedText reads the style of.
  const GENERATED_SCAN_MAX = 12;

  /** The text CSS generates in el and the elements inside it (::before
   * and ::after content, in their order), as accname adds it to a name
   * from content: Trac's expander, an empty span whose ::before draws
   * "↹". The alternative text after a "/" stands for what it follows
   * (`"↹" / "Expand"` reads 'Expand'; `/ ""` is decoration, no name);
   * attr() is read from the element; counters, quotes and images name
   * nothing, nor do icon fonts' glyphs. Each element costs a style
   * computation per pseudo-element, so only a control that holds no text
   * of its own is read so (nameOf).
   * @param {Element} el */
  function generatedText(el) {
    /** @type {string[]} */
    const parts = [];
    let budget = GENERATED_SCAN_MAX;
    /** @param {Element} e */
    const visit = (e) => {
      if (budget-- <= 0 || isHiddenAttr(e) || (e !== el && !isVisible(e))) return;
      parts.push(pseudoText(e, '::before'));
      for (let c = e.firstElementChild; c; c = c.nextElementSibling) visit(c);
      parts.push(pseudoText(e, '::after'));
    };
    visit(el);
    return fold(withoutGlyphs(parts.join(' ')));
  }

  /** The text e's pseudo-element shows ('' for none, or one not drawn).
   * @param {Element} e @param {string} pseudo */
  function pseudoText(e, pseudo) {
    /** @type {CSSStyleDeclaration} */
    let cs;
    try { cs = getComputedStyle(e, pseudo); } catch (_) { return ''; }
    const c = cs.content;
    if (!c || c === 'none' || c === 'normal' || cs.display === 'none') return '';
    return contentText(c, e);
  }

  /** The text of a computed `content` value: its strings and attr()s,
   * or, when it has an alternative after "/", that alternative.
   * @param {string} c @param {Element} e */
  function contentText(c, e) {
    /** @type {string[]} */
    const shown = [];
    /** @type {string[]|null} */
    let alt = null;
    let part = shown;
    for (let i = 0; i < c.length;) {
      const ch = c[i];
      if (ch === '"' || ch === "'") {
        let s = '';
        for (i++; i < c.length && c[i] !== ch; i++) {
          if (c[i] !== '\\') { s += c[i]; continue; }
          const hex = /^[0-9a-fA-F]{1,6} ?/.exec(c.slice(i + 1, i + 8));
          if (hex) {
            const cp = parseInt(hex[0], 16);
            s += cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
            i += hex[0].length;
          } else if (i + 1 < c.length) {
            s += c[++i];
          }
        }
        i++;
        part.push(s);
      } else if (ch === '/') {
        alt = [];
        part = alt;
        i++;
      } else if (/[a-z-]/i.test(ch)) {
        // A keyword (open-quote) names nothing; of the functions, attr()
        // gives its attribute's value, the others (counter(), url()) none.
        const word = /** @type {RegExpExecArray} */ (/^[a-z-]+/i.exec(c.slice(i)))[0];
        i += word.length;
        if (c[i] !== '(') continue;
        let end = i + 1;
        for (let q = ''; end < c.length; end++) {
          const d = c[end];
          if (q) {
            if (d === '\\') end++;
            else if (d === q) q = '';
          } else if (d === '"' || d === "'") {
            q = d;
          } else if (d === ')') {
            break;
          }
        }
        if (word.toLowerCase() === 'attr') part.push(attr(e, c.slice(i + 1, end).trim().split(/\s+/)[0]) || '');
        i = end + 1;
      } else {
        i++;
      }
    }
    return (alt || shown).join('');
  }

  // Roles a person ticks, whose name is the text beside them.
  const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch']);
  const CHECKABLES = 'input[type=checkbox],input[type=radio],[role=checkbox],[role=radio],[role=switch]';
  // A name from the text beside a checkbox is cut to this, at a word: it
  // only has to say which box it is.
  const BESIDE_MAX = 40;

  /** The text beside an unlabelled checkbox, radio or switch: that of
   * the nearest of its three closest ancestors (below the body) that
   * shows text and holds no other box to tick, as a person reads the words
   * next to the box; '' when there is none.
   * @param {Element} el */
  function besideName(el) {
    let n = el;
    for (let up = 0; up < 3; up++) {
      const p = n.parentElement;
      if (!p || p === document.body || p === document.documentElement) return '';
      if (p.querySelectorAll(CHECKABLES).length > 1) return '';
      const t = textOf(p, { checkVis: true, skip: el });
      if (t.length > BESIDE_MAX) {
        const at = t.lastIndexOf(' ', BESIDE_MAX);
        return at > 0 ? t.slice(0, at) : cut(t, BESIDE_MAX);
      }
      if (t) return t;
      n = p;
    }
    return '';
  }

  // Whether the last nameOf gave a name of grip's own (nameInferred).
  let inferred = false;

  /** Whether the name the last nameOf call gave was grip's guess, not the
   * page's: from a label beside the field tied to no control, the
   * headers of the table the field is in, what the control shows, or the
   * text beside a checkbox.
   * @returns {boolean} */
  function nameInferred() {
    return inferred;
  }

  // Fields that a table's headers name when nothing else does.
  const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'checkbox', 'radio',
    'switch']);
  const CELL = 'td,th,[role=cell],[role=gridcell],[role=rowheader],[role=columnheader]';
  const FIELDS = 'input:not([type=hidden]),select,textarea,[contenteditable]';
  const HEADER_MAX = 60;
  // Per call: table → the cells of its header row by column.
  /** @type {Map<Element, Element[]>} */
  const headerRows = new Map();

  /** The name a field in a table cell takes from the headers of its row
   * and column, 'Row / Column' (either alone when the other is missing):
   * the cells its headers attribute names, else the header cell of its
   * row (a th, a rowheader; failing that, the row's first cell with text
   * and no field, so that each row's fields differ) and of its column (in
   * the table's last header row, or the first row when it holds only
   * header cells; in an ARIA grid, its columnheaders by aria-colindex or
   * position). Admin tools label the fields of an editable table this
   * way and no other; '' when el is not in a table cell. With self, el
   * is the cell itself.
   * @param {Element} el @param {boolean} self */
  function headerName(el, self) {
    const cell = self ? el : el.closest(CELL);
    if (!cell || (cell === el && !self)) return '';
    const ids = attr(cell, 'headers');
    if (ids) {
      const t = textOfIds(cell, ids);
      if (t) return t;
    }
    const row = cell.closest('tr,[role=row]');
    if (!row) return '';
    const cells = rowCells(row);
    const at = cells.indexOf(cell);
    const col = columnOf(cells, at);
    let rowHead = '';
    for (let pass = 0; pass < 2 && !rowHead; pass++) {
      for (let i = 0; i < cells.length && !rowHead; i++) {
        const c = cells[i];
        if (c === cell) continue;
        const head = c.localName === 'th' || declaredRole(c) === 'rowheader';
        if (pass === 0 ? head && !isColumnHeader(c) : !c.querySelector(FIELDS)) {
          rowHead = cut(textOf(c, { checkVis: true, inLabel: true }), HEADER_MAX);
        }
      }
    }
    const table = row.closest('table,[role=grid],[role=treegrid],[role=table]');
    const heads = table ? columnHeaders(table, row) : [];
    const ci = attr(cell, 'aria-colindex');
    /** @type {Element|undefined} */
    let ch;
    if (ci) ch = heads.find((h) => attr(h, 'aria-colindex') === ci);
    else ch = heads[col];
    const colHead = ch && ch !== cell ? cut(textOf(ch, { checkVis: true, inLabel: true }), HEADER_MAX) : '';
    if (isColumnHeader(cell)) rowHead = '';
    return rowHead && colHead ? rowHead + ' / ' + colHead : rowHead || colHead;
  }

  /** The name the headers of its table give el when it shows none of its
   * own (a cell, or a clickable inside one); '' outside a table. Marks
   * the name inferred. @param {Element} el */
  function cellName(el) {
    const h = headerName(el, el.matches(CELL));
    inferred = !!h;
    return cut(h, NAME_MAX);
  }

  /** The cells of a table row (its own, not a nested table's).
   * @param {Element} row */
  function rowCells(row) {
    /** @type {Element[]} */
    const out = [];
    if (row.localName === 'tr') {
      for (let c = row.firstElementChild; c; c = c.nextElementSibling) if (c.localName === 'td' || c.localName === 'th') out.push(c);
      return out;
    }
    const all = row.querySelectorAll('[role=cell],[role=gridcell],[role=rowheader],[role=columnheader]');
    for (let i = 0; i < all.length; i++) if (all[i].closest('[role=row]') === row) out.push(all[i]);
    return out;
  }

  /** The column a row's cell number at starts in, counting colspans.
   * @param {Element[]} cells @param {number} at */
  function columnOf(cells, at) {
    let col = 0;
    for (let i = 0; i < at; i++) col += Math.max(1, /** @type {HTMLTableCellElement} */ (cells[i]).colSpan || 1);
    return col;
  }

  /** Whether most of a row's cells hold fields (a row of filters under
   * the headers, not the headers with a select-all box among them).
   * @param {Element} row */
  function fieldRow(row) {
    const cells = rowCells(row);
    let fields = 0;
    for (const c of cells) if (c.querySelector(FIELDS)) fields++;
    return fields * 2 > cells.length;
  }

  /** Whether cell heads a column: a columnheader, or a th in the table's
   * head or with scope=col.
   * @param {Element} cell */
  function isColumnHeader(cell) {
    if (declaredRole(cell) === 'columnheader') return true;
    if (cell.localName !== 'th') return false;
    const scope = attr(cell, 'scope');
    return scope === 'col' || scope === 'colgroup' || (!!cell.parentElement && !!cell.parentElement.parentElement &&
      cell.parentElement.parentElement.localName === 'thead');
  }

  /** Whether a table's first row is its header by its cells' classes: two
   * or more plain cells (no field in the row), each with a class that says
   * it heads (phpLiteAdmin's `<td class='tdheader'>Field</td>…`, over a
   * row of fields per column of the table being edited).
   * @param {HTMLTableRowElement} row */
  function classedHeadRow(row) {
    const cells = Array.from(row.cells);
    return cells.length >= 2 && !row.querySelector(FIELDS) && cells.every((c) => typeof c.className === 'string' && /head/i.test(c.className));
  }

  /** The header cells of table's columns, by column (colspans repeated);
   * [] when it has no header row, or row is that row.
   * @param {Element} table @param {Element} row @returns {Element[]} */
  function columnHeaders(table, row) {
    let heads = headerRows.get(table);
    if (!heads) {
      heads = [];
      /** @type {Element|null} */
      let headRow = null;
      // The last row of the table's head that is not a row of fields (a
      // row of filters may follow the headers), else a first row of th
      // cells; in an ARIA grid, the first row of columnheaders likewise.
      if (table.localName === 'table') {
        const t = /** @type {HTMLTableElement} */ (table);
        const head = t.tHead ? Array.from(t.tHead.rows).filter((r) => !fieldRow(r)) : [];
        if (head.length) headRow = head[head.length - 1];
        else if (t.rows.length && (Array.from(t.rows[0].cells).every((c) => c.localName === 'th') || classedHeadRow(t.rows[0]))) headRow = t.rows[0];
      } else {
        const all = table.querySelectorAll('[role=columnheader]');
        for (let i = 0; i < all.length && !headRow; i++) {
          const r = all[i].closest('[role=row]');
          if (r && !fieldRow(r)) headRow = r;
        }
      }
      if (headRow) {
        for (const c of rowCells(headRow)) {
          const span = Math.max(1, /** @type {HTMLTableCellElement} */ (c).colSpan || 1);
          for (let i = 0; i < span; i++) heads.push(c);
        }
      }
      headerRows.set(table, heads);
    }
    return heads.length && heads[0].closest('tr,[role=row]') === row ? [] : heads;
  }

  // The placeholder an editor showed while empty (element → name): it
  // keeps naming the editor once text hides it, as an input's placeholder
  // attribute does.
  /** @type {WeakMap<Element, string>} */
  const placeholders = new WeakMap();

  /** The name of an editable region with no label: its data-placeholder
   * (data-placeholder-active: Editor.js), or its first block's (Tiptap,
   * CKEditor 5 put it there), as last shown;
   * for the <body> of an editor's own iframe, the iframe's title, else the
   * frame's document title.
   * @param {Element} el */
  function editableName(el) {
    const first = el.firstElementChild;
    const ph = fold(attr(el, 'data-placeholder') || attr(el, 'data-placeholder-active') ||
      (first && attr(first, 'data-placeholder')) || '');
    if (ph) {
      placeholders.set(el, ph);
      return ph;
    }
    const shown = placeholders.get(el);
    if (shown) return shown;
    if (el !== document.body || window.top === window) return '';
    /** @type {Element|null} */
    let frame = null;
    try { frame = window.frameElement; } catch (_) { /* a cross-origin parent */ }
    return fold((frame && (attr(frame, 'title') || attr(frame, 'aria-label'))) || document.title || '');
  }

  /** A table row as its cells' texts joined by ' | '.
   * @param {Element} el */
  function rowText(el) {
    /** @type {string[]} */
    const cells = [];
    // Grids wrap their cells (AG Grid): the cells by role, else, for a row
    // that is a box around a table of its cells (ExtJS 3's grid, roles.js
    // extGridRole), that table's cells, else the children.
    let byRole = el.querySelectorAll('[role=gridcell],[role=cell],[role=columnheader],[role=rowheader]');
    if (!byRole.length && el.localName !== 'tr') byRole = el.querySelectorAll('td, th');
    for (let i = 0; i < byRole.length; i++) {
      const c = byRole[i];
      if (isHiddenAttr(c)) continue;
      const t = textOf(c, { checkVis: true, stopBlocks: true });
      if (t) cells.push(t);
    }
    if (cells.length) return cells.join(' | ');
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (isHiddenAttr(c)) continue;
      const t = textOf(c, { checkVis: true, stopBlocks: true });
      if (t) cells.push(t);
    }
    return cells.length ? cells.join(' | ') : textOf(el, { checkVis: true, stopBlocks: true });
  }

  /** Whether el is named by a label of its own (aria-labelledby that
   * finds text, or a non-blank aria-label) rather than by what it holds.
   * @param {Element} el */
  function labelledByAria(el) {
    const a = ariaLabelOf(el);
    if (a && a.trim()) return true;
    const by = attr(el, 'aria-labelledby');
    return !!by && !!textOfIds(el, by);
  }

  /** The text el holds, as a text line says it: folded, cut, blocks that
   * are lines of their own (paragraphs, headings) left out.
   * @param {Element} el */
  function ownText(el) {
    return cut(textOf(el, { checkVis: true, stopBlocks: true }), NAME_MAX);
  }

  /** Whether el has a non-blank text node child.
   * @param {Element} el */
  function hasOwnText(el) {
    noteText(el);
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3 && /\S/.test(/** @type {Text} */ (c).data)) return true;
    }
    return false;
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({
    textOf, selectValue, forgetLabels, labelsKept, useLabels, setWalkRoot, labelsOf, labelName, nameOf, nameInferred, labelledByAria, ownText, hasOwnText,
    cellName,
  }));
})();
