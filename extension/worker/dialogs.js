// @ts-check
// JavaScript dialogs: alert, confirm, prompt and beforeunload
// (docs/dialogs.md, "Dialogs"). Chrome reports a dialog only to a
// debugger that was attached (Page domain on) before it opened, which is
// why grip attaches to the tabs it works on (debugger.js). A tab showing a
// dialog answers nothing else: its script is stopped inside alert() or
// confirm(), so every request to it answers at once with the dialog
// (reads carry it, actions are refused) until `grip dialog accept|dismiss`
// answers it; the reply then says what the page did next.
import { answerDialog, dialogOf, hold, watching } from './debugger.js';
import { withEffects, afterOneTask, Watch } from './effects.js';
import { wireError } from './errors.js';

/** @typedef {import('./debugger.js').Dialog} Dialog */

/**
 * A dialog as one line: "confirm 'Discard the draft?'".
 * @param {Dialog} d
 */
export function dialogText(d) {
  const msg = d.message.replace(/\s+/g, ' ').trim();
  // Cut as the host cuts a dialog's line (frames/effects.go): 99
  // characters and an ellipsis, so the two read the same.
  const chars = [...msg];
  const shown = chars.length > 100 ? chars.slice(0, 99).join('').trimEnd() + '…' : msg;
  const quoted = "'" + shown.replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
  return d.type + (msg ? ' ' + quoted : '');
}

/**
 * The refusal of a request that needs the page while a dialog waits.
 * @param {Dialog} d
 */
export function dialogError(d) {
  return Object.assign(wireError(`dialog open: ${dialogText(d)}`, 'not_actionable', 'document',
    'answer it first: grip dialog accept (--text T for a prompt) or grip dialog dismiss'), { dialog: d });
}

/**
 * Refuses when tabId shows a dialog.
 * @param {number} tabId
 */
export function refuseIfDialog(tabId) {
  const d = dialogOf(tabId);
  if (d) throw dialogError(d);
}

/**
 * The dialog request: show the dialog of a tab, or answer it.
 * @param {protocol.DialogParams} params
 * @returns {Promise<protocol.DialogReply>}
 */
export async function dialogRequest(params) {
  const { tabId } = params;
  const action = params.action || 'show';
  if (action === 'show') {
    const d = dialogOf(tabId);
    return { dialog: d || undefined, watching: watching(tabId) };
  }
  if (action !== 'accept' && action !== 'dismiss') {
    throw wireError(`unknown dialog action ${JSON.stringify(action)}`, 'bad_request', 'payload', 'accept or dismiss');
  }
  const d = dialogOf(tabId);
  if (!d) {
    throw wireError(`no dialog is open in tab ${tabId}`, 'not_actionable', 'document', watching(tabId)
      ? 'nothing to answer; grip dialog shows the one open'
      : 'grip sees only dialogs that open while it works on the tab; if the page is stuck behind one, answer it in the browser or close the tab');
  }
  const held = await hold(tabId);
  try {
    const out = await withEffects(tabId, async () => {
      await answerDialog(tabId, action === 'accept', params.text);
      // The page goes on from where the dialog stopped it; whatever that
      // starts is under way once it has run one more task (or the next
      // dialog is open).
      await afterOneTask({ tabId, frameIds: [0] });
    });
    const { value, ...effects } = out;
    void value;
    return { ok: true, detail: (action === 'accept' ? 'accepted ' : 'dismissed ') + dialogText(d), ...effects };
  } finally {
    held.release();
  }
}

/**
 * Runs a read that waits on the page (grip wait) while watching tabId: a
 * dialog open before or during it ends it with the dialog.
 * @template T
 * @param {number} tabId
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function whileNoDialog(tabId, work) {
  refuseIfDialog(tabId);
  const held = await hold(tabId, { read: true });
  const w = new Watch(tabId);
  try {
    const out = await w.race(work);
    if (w.dialog) throw dialogError(w.dialog);
    if (out.error) throw out.error;
    return /** @type {T} */ (out.value);
  } finally {
    w.stop();
    held.release();
  }
}
