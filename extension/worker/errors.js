// @ts-check
// Errors as they cross to the host: a machine code, the boundary that
// refused (payload, browser, document, node, meaning, actionability,
// point), a message naming the reason and a hint. Codes and boundaries are
// protocol/errors.go's, as unions in protocol.d.ts: tsc refuses any other.
// Anything thrown without a code goes out as `internal`.

/** @typedef {Error & {code: protocol.Code, boundary: protocol.Boundary, hint: string, dialog?: protocol.Dialog}} WireError */

/**
 * An Error carrying a wire code, boundary and hint.
 * @param {any} err an Error or a message
 * @param {protocol.Code} code
 * @param {protocol.Boundary} boundary
 * @param {string} [hint]
 * @returns {WireError}
 */
export function wireError(err, code, boundary, hint) {
  return Object.assign(new Error(String(err && err.message || err)), { code, boundary, hint: hint || '' });
}

/**
 * The message of anything thrown: an Error's message, or the thing itself.
 * @param {unknown} err
 * @returns {string}
 */
export function messageOf(err) {
  const message = err && typeof err === 'object' && 'message' in err ? err.message : undefined;
  return String(message || err);
}

/**
 * Whether err is a refusal with this code.
 * @param {unknown} err
 * @param {protocol.Code} code
 */
export function hasCode(err, code) {
  return !!err && typeof err === 'object' && /** @type {{code?: unknown}} */ (err).code === code;
}

/**
 * The wire shape of anything thrown while answering a request; a refusal
 * because of a JavaScript dialog carries it (dialogs.js), a failed
 * navigation its status (navigation.js), and a tab opened for a page that
 * did not load that tab (tabs.js newTab). Chrome's own "No tab with id: N."
 * is the agent's bad tab id, wherever it was met.
 * @param {any} err
 * @returns {protocol.Error}
 */
export function toWireError(err) {
  if (err && typeof err.code === 'string' && typeof err.message === 'string') {
    /** @type {protocol.Error} */
    const out = { code: err.code, boundary: err.boundary || 'browser', message: err.message, hint: err.hint || '' };
    if (err.dialog && typeof err.dialog === 'object') out.dialog = err.dialog;
    if (typeof err.status === 'string' && err.status) out.status = err.status;
    if (typeof err.tab === 'number' && err.tab > 0) out.tab = err.tab;
    return out;
  }
  const message = String(err && err.message || err);
  const noTab = /No tab with id: (\d+)/.exec(message);
  if (noTab) return { code: 'bad_request', boundary: 'payload', message: `there is no tab ${noTab[1]}`, hint: 'list the tabs with grip tabs and use one of their ids' };
  return { code: 'internal', boundary: 'browser', message };
}
