// @ts-check
// What an action did to the browser beyond the element it acted on
// (docs/effects.md, "What an action did"): a JavaScript dialog it
// opened (the reply comes at once, not after the injection deadline), a
// navigation it started (the reply waits, bounded, for the new document to
// be ready, so it names the new page), tabs and popup windows it opened
// (named with their titles), windows the browser refused to open, and its
// own tab closing. A Watch listens from before the action until its reply.
import { onTabEvent } from './debugger.js';

/** How long an action's reply waits for a navigation it started to reach
 * DOMContentLoaded before it says the page is still loading. */
export const NAV_TIMEOUT_MS = 10000;
/** The same for a frame other than the top one (a login frame posting). */
const FRAME_NAV_TIMEOUT_MS = 5000;
/** How long the reply waits for a tab the action opened to have a title. */
const OPENED_WAIT_MS = 3000;
/** How often, while an action has not answered and opened a tab, the
 * worker looks whether another debugger holds that tab paused. */
const HELD_CHECK_MS = 250;
/** How long a tab the action opened may go without a committed page while
 * another debugger is attached to it before it counts as held paused: a
 * client that auto-attaches and lets each target run at once (Playwright,
 * DevTools, a raw CDP library) is attached too, and its tabs load; taken
 * for held at once, the reply named them without their title and the
 * action's wait ended early (e2e GRIP_E2E_SECOND_CLIENT=cdp,
 * TestNewTabFromLink). */
const HELD_AFTER_MS = 750;

/** @typedef {import('./debugger.js').Dialog} Dialog */
/** @typedef {{url: string, loading: boolean, error: string}} Navigation */
/** @typedef {{tab: number, url: string, title: string}} Opened */
/**
 * What the reply carries besides the kernel's answer; only what happened
 * is set.
 * @typedef {Object} Effects
 * @property {Dialog} [dialog] a dialog opened during the action
 * @property {Navigation} [navigation] the top frame's navigation
 * @property {Opened[]} [opened] tabs and popups the action opened
 * @property {string[]} [blocked] windows the page asked for that the browser did not open
 * @property {boolean} [closed] the tab itself closed
 */
/** @typedef {{url: string, committed: boolean, ready: boolean, error: string}} FrameNav */

/** How long an action's reply waits for the page to run one more task
 * (see afterOneTask); a page busier than that is not waited for. */
const TASK_WAIT_MS = 1000;

/** @param {number} ms */
function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Standalone, injected into the page: resolves after one more task of the
 * document. A message channel, not a timer: timers in background tabs are
 * throttled to one a second.
 * @returns {Promise<number>}
 */
function oneTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(0); };
    ch.port2.postMessage(0);
  });
}

/**
 * Waits, bounded, until the document target names has run one more task:
 * what an action scheduled there (a form's submission, a navigation, a
 * window.open in a zero timer) has reached the browser by then. A page
 * that stays busy, or shows a dialog, is not waited for.
 * @param {chrome.scripting.InjectionTarget} target
 */
export async function afterOneTask(target) {
  await Promise.race([
    chrome.scripting.executeScript({ target, world: 'ISOLATED', func: oneTask }).catch(() => {}),
    sleep(TASK_WAIT_MS),
  ]);
}

export class Watch {
  /**
   * @param {number} tabId
   * @param {{navigations?: boolean}} [opt] navigations: false watches only
   *   for a dialog and the tab closing, what a read needs: it starts no
   *   navigation, and the navigation events no top-level listener keeps
   *   registered (DOMContentLoaded, errors) cost a round trip to the browser
   *   to add and another to remove, about 0.7 ms a read (bench/RESULTS.md)
   */
  constructor(tabId, opt) {
    this.tabId = tabId;
    /** @type {Map<number, FrameNav>} frames that started navigating, by frameId */
    this.navs = new Map();
    /** @type {Map<number, string>} tabs opened from this one, and their URL */
    this.opened = new Map();
    /** @type {Set<number>} opened tabs whose document is ready */
    this.openedReady = new Set();
    /** @type {Map<number, number>} when each opened tab was seen opening */
    this.openedAt = new Map();
    /** @type {Set<number>} opened tabs whose top frame committed a page */
    this.openedCommitted = new Set();
    /** @type {string[]} windows the page asked for (Page.windowOpen) */
    this.windowOpens = [];
    /** @type {Map<number, string>} opened tabs another debugger holds paused, and the URL it has for each */
    this.held = new Map();
    /** @type {Dialog | null} */
    this.dialog = null;
    this.closed = false;
    /** @type {(() => void)[]} */
    this.wakers = [];
    /** @type {(() => void)[]} */
    this.stops = [];
    this.listen(chrome.tabs.onRemoved, (/** @type {number} */ id) => {
      if (id === tabId) this.closed = true;
    });
    this.stops.push(onTabEvent(tabId, (e) => {
      if (e.method === 'Page.javascriptDialogOpening') {
        const p = e.params;
        this.dialog = { type: String(p.type || ''), message: String(p.message || ''), default_prompt: String(p.defaultPrompt || ''), url: String(p.url || '') };
      } else if (e.method === 'Page.windowOpen') {
        this.windowOpens.push(String(e.params.url || ''));
      }
      this.wake();
    }));
    if (opt && opt.navigations === false) return;
    const nav = chrome.webNavigation;
    this.listen(nav.onBeforeNavigate, (/** @type {any} */ d) => {
      if (d.tabId === tabId) this.navs.set(d.frameId, { url: d.url, committed: false, ready: false, error: '' });
    });
    this.listen(nav.onCommitted, (/** @type {any} */ d) => {
      const n = d.tabId === tabId && this.navs.get(d.frameId);
      if (n) { n.committed = true; n.url = d.url; }
      if (d.frameId === 0 && this.opened.has(d.tabId)) this.openedCommitted.add(d.tabId);
    });
    this.listen(nav.onDOMContentLoaded, (/** @type {any} */ d) => {
      if (d.frameId !== 0) return;
      const n = d.tabId === tabId && this.navs.get(0);
      if (n) n.ready = true;
      if (this.opened.has(d.tabId)) this.openedReady.add(d.tabId);
    });
    this.listen(nav.onErrorOccurred, (/** @type {any} */ d) => {
      const n = d.tabId === tabId && this.navs.get(d.frameId);
      if (n) { n.ready = true; n.error = String(d.error || 'failed'); }
      if (d.frameId === 0 && this.opened.has(d.tabId)) this.openedReady.add(d.tabId);
    });
    this.listen(nav.onCreatedNavigationTarget, (/** @type {any} */ d) => {
      if (d.sourceTabId === tabId) { this.opened.set(d.tabId, d.url); this.openedAt.set(d.tabId, Date.now()); }
    });
    // Child frames finish by DOMContentLoaded too; webNavigation reports
    // them with their frameId.
    this.listen(nav.onDOMContentLoaded, (/** @type {any} */ d) => {
      const n = d.tabId === tabId && d.frameId !== 0 && this.navs.get(d.frameId);
      if (n) n.ready = true;
    });
  }

  /**
   * @param {{addListener: (fn: any) => void, removeListener: (fn: any) => void}} event
   * @param {(...args: any[]) => void} fn
   */
  listen(event, fn) {
    const wrapped = (/** @type {any[]} */ ...args) => { fn(...args); this.wake(); };
    event.addListener(wrapped);
    this.stops.push(() => event.removeListener(wrapped));
  }

  wake() {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  /**
   * Resolves when cond() holds, or after ms (false then).
   * @param {() => boolean} cond
   * @param {number} ms
   */
  async until(cond, ms) {
    const end = Date.now() + ms;
    while (!cond()) {
      const left = end - Date.now();
      if (left <= 0) return false;
      await new Promise((r) => {
        const t = setTimeout(r, Math.min(left, 250));
        this.wakers.push(() => { clearTimeout(t); r(undefined); });
      });
    }
    return true;
  }

  stop() {
    for (const s of this.stops) s();
    this.stops = [];
    this.wake();
  }

  /**
   * Runs work and answers as soon as it settles, a dialog opens (work may
   * then stay blocked behind the dialog: its answer is not waited for),
   * the tab closes, or a tab it opened is held paused by another debugger
   * (Playwright, DevTools: a client that auto-attaches to new targets and
   * holds them until it lets them run; a popup that shares its opener's
   * process holds the opener too, so the page cannot answer).
   * @template T
   * @param {() => Promise<T>} work
   * @returns {Promise<{value?: T, error?: any}>}
   */
  async race(work) {
    /** @type {{value?: T, error?: any} | null} */
    let out = null;
    work().then((value) => { out = { value }; this.wake(); }, (error) => { out = { error }; this.wake(); });
    // Seen held once, the page gets one more look to answer.
    let seen = false;
    for (;;) {
      if (out) return out;
      if (this.dialog || this.closed) return {};
      if (this.opened.size > 0 && await this.openedHeld()) {
        if (seen) return out || {};
        seen = true;
      }
      // While a tab it opened may be held, look again now and then.
      await new Promise((r) => {
        const t = this.opened.size > 0 ? setTimeout(r, HELD_CHECK_MS) : null;
        this.wakers.push(() => { if (t) clearTimeout(t); r(undefined); });
      });
    }
  }

  /** Whether another debugger holds a tab the action opened (grip attaches
   * to no tab it has not worked on); notes which in this.held. */
  async openedHeld() {
    const targets = await chrome.debugger.getTargets().catch(() => []);
    const now = Date.now();
    for (const t of targets) {
      const id = t.tabId;
      if (!t.attached || typeof id !== 'number' || !this.opened.has(id) || this.openedReady.has(id)) continue;
      // Attached is not held: one that commits, or has not yet had the
      // time to, is not counted (HELD_AFTER_MS).
      if (this.openedCommitted.has(id) || now - (this.openedAt.get(id) || now) < HELD_AFTER_MS) continue;
      this.held.set(id, t.url || '');
    }
    return this.held.size > 0;
  }

  /**
   * Whether a frame of the tab started a navigation during the watch.
   * @param {number} [frameId] only this frame
   */
  navigated(frameId) {
    if (typeof frameId === 'number') return this.navs.has(frameId);
    return this.navs.size > 0;
  }

  /**
   * After the action: lets the browser's events about it arrive, waits
   * (bounded) for the navigations it started and for the tabs it opened,
   * and says what happened.
   * @returns {Promise<Effects>}
   */
  async settle() {
    // One round trip to the browser: the events it sent before answering
    // have reached this worker by then.
    await chrome.tabs.get(this.tabId).catch(() => null);
    await sleep(0);
    const stuck = () => !!this.dialog || this.closed;
    const topReady = () => { const n = this.navs.get(0); return !n || n.ready; };
    const framesReady = () => Array.from(this.navs.entries()).every(([id, n]) => id === 0 || n.ready);
    if (!stuck()) await this.until(() => stuck() || topReady(), NAV_TIMEOUT_MS);
    if (!stuck()) await this.until(() => stuck() || framesReady(), FRAME_NAV_TIMEOUT_MS);
    // A tab another debugger holds paused loads only once it lets it run.
    if (this.opened.size > 0 && !stuck()) await this.openedHeld();
    if (this.opened.size > 0 && !stuck()) {
      await this.until(() => stuck() || Array.from(this.opened.keys()).every((id) => this.openedReady.has(id) || this.held.has(id)), OPENED_WAIT_MS);
    }
    return this.effects();
  }

  /** @returns {Promise<Effects>} */
  async effects() {
    /** @type {Effects} */
    const out = {};
    if (this.dialog) out.dialog = this.dialog;
    if (this.closed) out.closed = true;
    const top = this.navs.get(0);
    if (top) out.navigation = { url: top.url, loading: !top.ready, error: top.error };
    // A tab held paused before it navigated has no URL yet: the window the
    // page asked for names it.
    const opened = new Map(this.opened);
    const asked = this.windowOpens.filter((u) => !Array.from(opened.values()).includes(u));
    for (const [tab, url] of opened) if (!url && asked.length) opened.set(tab, asked.shift() || '');
    for (const [tab, url] of opened) if (!url) opened.set(tab, this.held.get(tab) || '');
    if (opened.size > 0) {
      out.opened = [];
      for (const [tab, url] of opened) {
        const t = await chrome.tabs.get(tab).catch(() => null);
        out.opened.push({ tab, url: t && (t.url || t.pendingUrl) || url, title: t ? t.title || '' : '' });
      }
    }
    // A window the page asked for and no tab to show for it: blocked.
    const left = Array.from(opened.values());
    const blocked = [];
    for (const url of this.windowOpens) {
      const i = left.indexOf(url);
      if (i >= 0) left.splice(i, 1);
      else blocked.push(url);
    }
    if (blocked.length > 0) out.blocked = blocked;
    return out;
  }
}

/**
 * Runs work (an action in the page, input through the debugger, a tab
 * operation) under a Watch and returns its value with the action's
 * effects. A failure after which the tab navigated or closed is no
 * failure: the page answered by leaving (a click on a link whose document
 * unloaded before it could reply).
 * @template T
 * @param {number} tabId
 * @param {() => Promise<T>} work
 * @returns {Promise<{value: T | undefined} & Effects>}
 */
export async function withEffects(tabId, work) {
  const w = new Watch(tabId);
  try {
    const out = await w.race(work);
    if (out.error && !w.closed && !w.navigated() && !w.dialog) throw out.error;
    return { value: out.value, ...(await w.settle()) };
  } finally {
    w.stop();
  }
}
