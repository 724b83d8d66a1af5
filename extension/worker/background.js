// @ts-check
// The service worker's entry point. Every listener is registered here, at
// top level, so Chrome can wake a stopped worker for any of these events;
// each one (re)connects to the host, which is all a wake-up needs to do.
import { ensureConnected, notifyHost } from './native-port.js';
import { recordError } from './state.js';
import { popupRequest, tabRegrouped, blockedSite } from './popup-api.js';
import { onNotificationButton, onNotificationClosed, onNotificationClicked, forgetTab } from './person.js';
import { forgetOwner, openedFrom } from './sessions.js';
import { restorePersonState } from './person-state.js';
import { noteOpener, forgetOpenerOf } from './openers.js';
import { handleHostRequest } from './router.js';
import { noteLoadError } from './navigation.js';
import { downloadCreated, downloadChanged, navigationCommitted, navigationStarted } from './downloads.js';
import { ensureKeeper, isKeeperPort } from './lifetime.js';
import { pageStep, navigationCommitted as recordedNavigation, documentReady, tabClosed, restoreRecording } from './person-record.js';

const KEEPALIVE_ALARM = 'grip-keepalive';

chrome.runtime.onStartup.addListener(() => { ensureConnected(); });
// Every start of the worker connects at once: Chrome starts a worker it
// stopped (an update, a crash, memory pressure) for the next event it
// listens to — a tab loading, the popup opening — not only the alarm.
ensureConnected();
chrome.runtime.onInstalled.addListener(() => { ensureConnected(); });
// A kept profile's folder rewritten with a new build names a worker of its
// own (extension.ForFolder), which Chrome installs beside the old build's;
// the old one stays active while a page of the extension (the keeper) is
// its client, so the new one takes over at once instead of waiting for
// them all to close (docs/versions.md, "Versions").
globalThis.addEventListener('install', () => { /** @type {any} */ (globalThis).skipWaiting(); });

// The keeper document (keeper.js) holds a port to this worker and, when
// Chrome stops the worker, connects again at once: that event starts the
// worker, and its start connects to the host (docs/lifetime.md, "The
// worker's lifetime"). The port needs nothing more from the worker.
chrome.runtime.onConnect.addListener((port) => {
  if (!isKeeperPort(port)) { port.disconnect(); return; }
  port.onDisconnect.addListener(() => { void chrome.runtime.lastError; });
  ensureConnected();
});

// An alarm wakes a worker Chrome stopped while idle (or after the host
// exited and no other event came), so the extension comes back by itself
// even without the keeper (it was closed, or the browser lacks the API).
chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === KEEPALIVE_ALARM) ensureConnected();
});

// Navigation and closed tabs make refs stale; the host learns at once.
chrome.webNavigation.onCommitted.addListener((d) => {
  notifyHost('navigated', { tabId: d.tabId, frameId: d.frameId, documentId: d.documentId || '' });
});
// A top frame that failed to load shows the browser's error page: which
// error, for a read of that tab to say (navigation.js errorPage).
chrome.webNavigation.onErrorOccurred.addListener(noteLoadError);
chrome.tabs.onRemoved.addListener((tabId) => {
  tabClosed(tabId);
  forgetOpenerOf(tabId);
  notifyHost('tab_removed', { tabId });
  forgetTab(tabId);
  forgetOwner(tabId);
});
// A session's tab the person dragged out of its group is theirs now.
chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (change.groupId !== undefined) tabRegrouped(tabId, change, tab);
});
// A tab or popup a page opened (target=_blank, window.open): grip tabs
// shows its opener, and the opener's next reply names it.
chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => {
  noteOpener(d);
  openedFrom(d.tabId, d.sourceTabId);
  notifyHost('tab_opened', { tabId: d.tabId, opener: d.sourceTabId, url: d.url });
});

// The person's Allow and Deny on a question an agent's action raised.
chrome.notifications.onButtonClicked.addListener(onNotificationButton);
chrome.notifications.onClosed.addListener(onNotificationClosed);
chrome.notifications.onClicked.addListener(onNotificationClicked);

// Downloads: which tab started each, and the waits for one to finish.
chrome.downloads.onCreated.addListener(downloadCreated);
chrome.downloads.onChanged.addListener(downloadChanged);
chrome.webNavigation.onBeforeNavigate.addListener(navigationStarted);
chrome.webNavigation.onCommitted.addListener(navigationCommitted);

// Only our own pages (the popup, also when opened as a tab) talk to the
// worker: no externally_connectable, and messages from anything whose URL is
// not one of ours (scripts injected into web pages) are refused. popup-api.js
// is imported statically: import() is disallowed in service workers.
// The person's steps while they record a tab (person-record.js) come from
// grip's own kernel in that tab's isolated world: a message of this
// extension from a tab (a page's own scripts cannot send one), taken only
// for the tab and the recording it names.
chrome.webNavigation.onCommitted.addListener(recordedNavigation);
chrome.webNavigation.onDOMContentLoaded.addListener(documentReady);
chrome.runtime.onMessage.addListener((msg, sender) => {
  if (sender.id !== chrome.runtime.id || !sender.tab || !msg || (msg.type !== 'person_step' && msg.type !== 'person_effect')) return false;
  pageStep(msg, sender, blockedSite).catch((err) => recordError(`recording: ${err && err.message || err}`));
  return false;
});
chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || !sender.url || !sender.url.startsWith(chrome.runtime.getURL(''))) return false;
  popupRequest(msg).then(sendResponse, (err) => sendResponse({ error: String(err && err.message || err) }));
  return true;
});

// The router, for code evaluated in this worker (the DevTools protocol, as
// the e2e tests do) to send it a request as the host would. No page can
// reach a service worker's global.
/** @type {any} */ (globalThis).__gripRouter = handleHostRequest;

restorePersonState().catch(() => {});
restoreRecording().catch(() => {});
ensureConnected();
ensureKeeper().catch((err) => recordError(`keeper: ${err && err.message || err}`));
