// @ts-check
// What the popup's modules share (docs/person.md, "The person's
// controls"): an element by id, one call to the worker, and the tab the
// popup is about.

/** @param {string} id */
export function el(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error(`popup: #${id} missing`);
  return e;
}

/** One call of the popup to the worker (PopupCalls in popup-calls.d.ts).
 * @param {PopupRequest} msg */
export async function ask(msg) {
  const res = await chrome.runtime.sendMessage(msg);
  if (res && res.error) throw new Error(res.error);
  return res;
}

/** The tab the popup is about: ?tab=N when opened as a page, else the active tab. */
export async function currentTab() {
  const n = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(n) && n > 0) return n;
  const [t] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return t && typeof t.id === 'number' ? t.id : 0;
}

/**
 * fn, run one call at a time: a call while one runs runs once more after
 * it. A refresh asks the worker and draws its answer, on a timer and after
 * every click; two refreshes at once can have their answers come back in
 * either order, and the older one then drew over the newer — a question
 * the person was about to answer taken away, or one already answered
 * shown again. Serialized, every drawing is of an answer asked for after
 * the drawing before it.
 * @param {() => Promise<void>} fn
 * @returns {() => Promise<void>}
 */
export function oneAtATime(fn) {
  /** @type {Promise<void> | null} */
  let running = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await fn();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
