// Stays connected to a running browser over the DevTools protocol as
// Playwright does (auto-attached to every target, each page's domains on),
// until its stdin closes: the second client the e2e suite runs beside grip
// when GRIP_E2E_SECOND_CLIENT is set (e2e/main_test.go). Prints one JSON
// line once connected, or the error.
// Usage: node hold.mjs ENDPOINT
import { chromium } from 'playwright-core';

const [endpoint] = process.argv.slice(2);
const started = Date.now();
try {
  const browser = await chromium.connectOverCDP(endpoint, { timeout: 30000 });
  console.log(JSON.stringify({ ms: Date.now() - started }));
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await browser.close().catch(() => {});
    process.exit(0);
  });
} catch (err) {
  console.log(JSON.stringify({ ms: Date.now() - started, error: String(err && err.message || err) }));
  process.exit(1);
}
