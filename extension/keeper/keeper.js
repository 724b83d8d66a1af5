// @ts-check
// The keeper: an offscreen document (keeper.html) that brings grip's service
// worker back when Chrome stops it (an update, memory pressure, a crash,
// DevTools). It holds a runtime port to the worker; the port breaks when the
// worker stops, and connecting again is an event Chrome starts a stopped
// worker for, whose start reconnects to the host (background.js). Without
// it a stopped worker waited for the next tab event or its alarm, whose
// period Chrome keeps at 30 s for a packed extension. See
// docs/lifetime.md, "The worker's lifetime".
import { KEEPER_PORT } from '../worker/lifetime.js';

/** When the current port was opened, and how many in a row broke at once. */
let opened = 0;
let quick = 0;

function hold() {
  opened = Date.now();
  const port = chrome.runtime.connect({ name: KEEPER_PORT });
  port.onDisconnect.addListener(() => {
    // Reading lastError keeps Chrome from logging it as unchecked.
    void chrome.runtime.lastError;
    // A worker that stopped after running a while is woken at once; one
    // that keeps breaking the port within a second of its start (it fails
    // to start) is retried with backoff after three tries, so a broken
    // worker is not restarted in a loop.
    quick = Date.now() - opened < 1000 ? quick + 1 : 0;
    const delay = quick <= 3 ? 0 : Math.min(30000, 250 * 2 ** Math.min(quick - 3, 7));
    setTimeout(hold, delay);
  });
}

hold();
