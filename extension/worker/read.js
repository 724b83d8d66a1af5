// @ts-check
// grip read: a part of one element's whole text, from the kernel of
// exactly its document (docs/reading.md, "Reading one element"). A
// read changes nothing in the page and attaches no debugger: it scrolls,
// focuses and presses nothing, so the person's pause allows it.
import { runInDocument } from './inject.js';
import { refuseIfDialog } from './dialogs.js';
import { tabInfo } from './tabs.js';

/**
 * @param {protocol.ReadParams} params
 * @returns {Promise<protocol.ReadReply>}
 */
export async function readElement(params) {
  const { tabId, documentId } = params;
  refuseIfDialog(tabId);
  const res = await runInDocument({ tabId, documentIds: [documentId] },
    { op: 'read', id: params.localId, from: params.from, max: params.max });
  const t = await tabInfo(tabId);
  return {
    tab: { id: t.id, url: t.url, title: t.title },
    text: String(res.text || ''), total: Number(res.total) || 0,
    secret: res.secret === true, secrets: Number(res.secrets) || 0,
    role: String(res.role || ''), name: String(res.name || ''),
  };
}
