// @ts-check
// One router for everything the worker is asked: by the host (over native
// messaging) and by the popup (runtime messages from our own pages).
import { listTabs, newTab, closeTab, selectTab, navigate, goHistory, screenshot, liveDocuments, tabInfo } from './tabs.js';
import { snapshotTab } from './snapshot.js';
import { act, sendCDP } from './actions.js';
import { waitFor } from './waits.js';
import { handleUserHostRequest } from './user.js';
import { dialogRequest, whileNoDialog } from './dialogs.js';
import { uploadChunk } from './uploads.js';
import { listDownloads, waitDownload, actionStarted } from './downloads.js';

/**
 * @param {string} type
 * @param {any} params
 * @returns {Promise<any>}
 */
export async function handleHostRequest(type, params) {
  switch (type) {
    case 'tabs': return { tabs: await listTabs(params) };
    case 'tab_info': return tabInfo(params.tabId);
    case 'snapshot': return snapshotTab(params.tabId, params.mode || 'interactive', params.keepSignatures);
    case 'act': actionStarted(params.tabId); return act(params);
    case 'wait': return whileNoDialog(params.tabId, () => waitFor(params));
    case 'cdp': return sendCDP(params);
    case 'dialog': return dialogRequest(params);
    case 'navigate': return navigate(params.tabId, params.url);
    case 'back': case 'forward': case 'reload': return goHistory(params.tabId, type);
    case 'tab_new': return newTab(params.url, params.session);
    case 'tab_close': return closeTab(params.tabId);
    case 'tab_select': return selectTab(params.tabId);
    case 'screenshot': return screenshot(params.tabId);
    case 'documents': return { documents: await liveDocuments() };
    case 'ping': return { ok: true };
    // The person's controls: user.js.
    case 'frames': case 'paused': case 'confirm': case 'acted': case 'share_tab': return handleUserHostRequest(type, params);
    // Files in and out: uploads.js, downloads.js.
    case 'upload_chunk': return uploadChunk(params);
    case 'downloads': return listDownloads(params);
    case 'download_wait': return waitDownload(params);
    default: throw Object.assign(new Error(`unknown request type ${JSON.stringify(type)}`), { code: 'bad_request', boundary: 'payload' });
  }
}

