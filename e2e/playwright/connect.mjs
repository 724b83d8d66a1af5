// Connects Playwright to a running browser over the DevTools protocol, as
// an agent builder's script beside grip does, and prints one JSON line:
// how long connectOverCDP took and the pages it found, or the error.
// Usage: node connect.mjs ENDPOINT [TIMEOUT_MS] (e2e/other_debugger_test.go).
import { chromium } from 'playwright-core';

const [endpoint, timeoutArg] = process.argv.slice(2);
const timeout = Number(timeoutArg || 10000);
const started = Date.now();
try {
  const browser = await chromium.connectOverCDP(endpoint, { timeout });
  const ms = Date.now() - started;
  const pages = browser.contexts().flatMap((c) => c.pages().map((p) => p.url()));
  await browser.close();
  console.log(JSON.stringify({ ms, pages }));
} catch (err) {
  console.log(JSON.stringify({ ms: Date.now() - started, error: String(err && err.message || err) }));
  process.exitCode = 1;
}
