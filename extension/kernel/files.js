// @ts-check
// Uploads in the page (docs/files.md, "Files in and out"). The
// worker hands an upload's bytes over in pieces (op 'stage', base64); the
// act 'upload' then builds File objects from them, puts them into a file
// input through a DataTransfer, as a file picker would, and fires input
// and change, so a page that reads the files in its handler gets their
// bytes. No picker opens and no debugger is needed, in any frame.
// The target is the input itself, or what a site puts in front of a
// hidden one: fileInputFor finds the input.
(() => {
  'use strict';

  const K = globalThis.__gripKernel__;
  const { fail, quote, attr, shadowOf, inputType, isDisabled, brief, actionable, done } = K;

  /** The upload being handed over: one per document, replaced by the next.
   * @type {{id: string, files: string[][]} | null} */
  let staged = null;

  /** Keeps one piece of one file of an upload.
   * @param {{upload?: unknown, file?: unknown, data?: unknown}} r */
  function stageUpload(r) {
    const file = r.file;
    if (typeof r.upload !== 'string' || !r.upload || typeof file !== 'number' || !Number.isInteger(file) ||
        file < 0 || file > 1000 || typeof r.data !== 'string') {
      return fail('bad_request', 'document', 'a stage request needs upload, file and data');
    }
    if (!staged || staged.id !== r.upload) staged = { id: r.upload, files: [] };
    while (staged.files.length <= file) staged.files.push([]);
    staged.files[file].push(r.data);
    return { ok: true };
  }

  /** @param {Element} el @returns {el is HTMLInputElement} */
  function isFileInput(el) {
    return el.localName === 'input' && inputType(el) === 'file';
  }

  /** How many levels above the target fileInputFor looks for a file input
   * beside it. */
  const NEAR_LEVELS = 3;

  /**
   * The file input el stands for: el itself; the control of the label it
   * is or is in (label[for], a wrapping label); the element its
   * aria-controls names, or the one file input inside that; the one file
   * input inside el (a drop zone); or the one file input beside it, the
   * only one in a parent up to NEAR_LEVELS above, below the body (a styled
   * button before a hidden input). Two candidates at the same place are refused, never
   * guessed between.
   * @param {Element} el @returns {HTMLInputElement | Failure}
   */
  function fileInputFor(el) {
    if (isFileInput(el)) return el;
    const label = el.localName === 'label' ? el : el.closest('label');
    const control = label && /** @type {HTMLLabelElement} */ (label).control;
    if (control && isFileInput(control)) return control;
    const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
    for (const id of (attr(el, 'aria-controls') || '').split(/\s+/).filter(Boolean)) {
      const named = root.getElementById(id);
      if (!named) continue;
      if (isFileInput(named)) return named;
      const one = onlyFileInput(named, el);
      if (one) return one;
    }
    const inside = onlyFileInput(el, el);
    if (inside) return inside;
    // Up through shadow roots to their hosts, but not to the whole page:
    // a button at the top of the body is beside every input of the page.
    let p = el.parentNode;
    for (let i = 0; p && i < NEAR_LEVELS; i++) {
      const e = /** @type {Element} */ (p);
      if (e.localName === 'body' || e.localName === 'html' || p.nodeType === 9) break;
      const near = onlyFileInput(/** @type {Element | ShadowRoot} */ (p), el);
      if (near) return near;
      p = p.nodeType === 11 ? /** @type {ShadowRoot} */ (p).host : p.parentNode;
    }
    return fail('not_actionable', 'actionability',
      brief(el) + ' is not a file input, and no file input belongs to it (as its label, by aria-controls, inside it or beside it)',
      'name the file input, or the button or label that opens the file picker');
  }

  /** The one file input inside box (and its shadow root), null when there
   * is none, a failure when there are several.
   * @param {Element | ShadowRoot} box @param {Element} target
   * @returns {HTMLInputElement | Failure | null} */
  function onlyFileInput(box, target) {
    const found = Array.from(box.querySelectorAll('input[type=file]'));
    const sr = box.nodeType === 1 ? shadowOf(/** @type {Element} */ (box)) : null;
    if (sr) found.push(...Array.from(sr.querySelectorAll('input[type=file]')));
    if (found.length === 0) return null;
    if (found.length === 1) return /** @type {HTMLInputElement} */ (found[0]);
    return fail('not_actionable', 'actionability',
      brief(target) + ' is next to ' + found.length + ' file inputs; grip will not guess which',
      'name the file input itself, e.g. with a CSS selector');
  }

  /** The bytes of base64 text.
   * @param {string} b64 @returns {Uint8Array<ArrayBuffer>} */
  function decode(b64) {
    const U = /** @type {any} */ (Uint8Array);
    if (typeof U.fromBase64 === 'function') return U.fromBase64(b64);
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  /** Puts the staged files r.upload names into the file input el stands
   * for. The input itself may be hidden (sites hide it behind a button, and
   * a picker fills it all the same) but not disabled or inert; a button or
   * label in front of it must be actionable as for a click.
   * @param {Element} el @param {number} id
   * @param {{upload?: {id?: unknown, files?: unknown}}} r */
  function uploadInto(el, id, r) {
    const bytes = staged;
    staged = null; // whatever happens next, the bytes are used once
    const up = r.upload;
    const specs = up && Array.isArray(up.files) ? /** @type {any[]} */ (up.files) : null;
    if (!up || typeof up.id !== 'string' || !specs || specs.length === 0) {
      return fail('bad_request', 'node', 'upload needs files');
    }
    const found = fileInputFor(el);
    if ('error' in found) return found;
    const input = found;
    if (input !== el) {
      const check = actionable(el, true);
      if ('error' in check) return check;
    }
    if (isDisabled(input)) return fail('not_actionable', 'actionability', 'the file input is disabled');
    if (input.closest('[inert]')) return fail('not_actionable', 'actionability', 'the file input is inert');
    if (specs.length > 1 && !input.multiple) {
      return fail('not_actionable', 'actionability',
        'the file input takes one file (it has no multiple attribute); ' + specs.length + ' given', 'upload one file at a time');
    }
    const files = [];
    for (let i = 0; i < specs.length; i++) {
      const s = specs[i];
      const pieces = bytes && bytes.id === up.id ? bytes.files[i] || [] : [];
      const file = new File(pieces.map(decode), String(s.name || 'file'), {
        type: String(s.type || ''), lastModified: Number(s.lastModified) || Date.now(),
      });
      if (file.size !== s.size) {
        return fail('internal', 'document', 'file ' + quote(file.name) + ' reached the page with ' + file.size + ' of ' + s.size + ' bytes',
          'retry the upload');
      }
      files.push(file);
    }
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(f);
    input.files = dt.files;
    // As a picker: input (composed) then change, both bubbling.
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    const names = files.map((f) => quote(f.name) + ' (' + f.size + ' bytes)').join(', ');
    return done(el, id, { ok: true, detail: input === el ? 'set ' + names : 'set ' + names + ' in its file input' });
  }

  Object.assign(K, /** @satisfies {Partial<GripKernel>} */ ({ stageUpload, fileInputFor, uploadInto }));
})();
