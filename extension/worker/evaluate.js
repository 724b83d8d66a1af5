// @ts-check
// grip eval (docs/devtools.md, "Developer tools"): an expression run in
// the page's own world of the top frame, as the DevTools console runs it
// (top-level await, the last expression's value), through the debugger, so
// a page's Content-Security-Policy does not stop it. The host allows it only
// where the person's policy says `script` for the page's origin, and says
// which origin it checked: the expression first checks the document it runs
// in is still of that origin, in the same evaluation, so a navigation in
// between refuses it instead of running it on another site.
import { hold, send } from './debugger.js';
import { tabInfo } from './tabs.js';
import { wireError } from './errors.js';
import { refuseIfDialog } from './dialogs.js';

/** A result larger than this, as JSON, is refused. */
const MAX_RESULT = 4 << 20;

/**
 * @param {{tabId: number, expression: string, origin: string, timeoutMs?: number}} params
 */
export async function evaluate(params) {
  const { tabId } = params;
  refuseIfDialog(tabId);
  const held = await hold(tabId, { required: true, what: 'eval', instead: 'read the page with grip snapshot, grip find or grip read' });
  try {
    const check = `if (location.origin !== ${JSON.stringify(String(params.origin))}) throw new Error("__grip_origin_changed__");\n`;
    const r = await send({ tabId }, 'Runtime.evaluate', {
      expression: check + String(params.expression), replMode: true, awaitPromise: true, returnByValue: true,
      timeout: Math.max(1, Number(params.timeoutMs) || 10000), objectGroup: 'grip-eval',
    });
    send({ tabId }, 'Runtime.releaseObjectGroup', { objectGroup: 'grip-eval' }).catch(() => {});
    const tab = await tabInfo(tabId);
    const ref = { id: tab.id, url: tab.url, title: tab.title };
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      const desc = String(d.exception && (d.exception.description || d.exception.value) || d.text || 'an exception');
      if (desc.includes('__grip_origin_changed__')) {
        throw wireError(`tab ${tabId} left ${params.origin} before the expression ran; nothing ran`, 'document_changed', 'document',
          'check where the tab is (grip tabs) and run it again');
      }
      throw wireError('the expression threw: ' + desc.split('\n').slice(0, 6).join('\n'), 'bad_request', 'document',
        'fix the expression; it ran in the page, so whatever it did before it threw stays done');
    }
    const res = r.result || {};
    const out = { tab: ref, type: String(res.subtype || res.type || 'undefined') };
    if (res.unserializableValue) return { ...out, text: String(res.unserializableValue) };
    if (res.type === 'undefined') return out;
    if (!('value' in res)) return { ...out, text: String(res.description || res.type) };
    const json = JSON.stringify(res.value);
    if (json !== undefined && json.length > MAX_RESULT) {
      throw wireError(`the result is ${json.length} bytes of JSON, over grip's ${MAX_RESULT}`, 'too_large', 'payload',
        'return less: a slice, a count, or the fields you need');
    }
    return { ...out, value: res.value };
  } finally {
    held.release();
  }
}
