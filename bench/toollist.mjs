// bench/toollist.mjs — what an MCP session pays before its first call:
// `grip mcp`'s tools/list and instructions beside Playwright MCP's, counted
// in one run as bench/run --mcp counts them (startPeer's listing: the
// tools/list result as JSON.stringify writes it, o200k_base tokens), and
// Playwright MCP's figures written to mcp/testdata/playwright-mcp-tools.json,
// which mcp/listsize_test.go TestToolsListWithinBudget holds grip's list to.
//
//   node bench/toollist.mjs [--grip BIN_DIR]   (default: bench/out/bin, as bench/run builds it)
//
// Neither server is given a browser: both answer tools/list before they
// connect to one. bench/run --mcp writes the same file (writePlaywrightListing).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPeer } from './mcp.mjs';

const HERE = path.dirname(new URL(import.meta.url).pathname);

/** Where the Go test reads Playwright MCP's figures. */
export const LISTING_FILE = path.join(HERE, '..', 'mcp', 'testdata', 'playwright-mcp-tools.json');

/**
 * writePlaywrightListing writes pw-mcp's listing (startPeer's) to
 * LISTING_FILE, with the package version it was measured on, so that the
 * Go test can tell when bench/package.json pins another release.
 */
export function writePlaywrightListing(peer) {
  const version = JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules', '@playwright', 'mcp', 'package.json'), 'utf8')).version;
  const { tools, list, instructions } = peer.listing;
  const data = {
    comment: 'Written by bench/toollist.mjs (and bench/run --mcp): Playwright MCP\'s tools/list, counted as bench/mcp.mjs counts it; mcp/listsize_test.go holds grip\'s to it.',
    package: '@playwright/mcp',
    version,
    tools,
    list: { chars: list.chars, tokens: list.tokens },
    instructions: { chars: instructions.chars, tokens: instructions.tokens },
  };
  fs.mkdirSync(path.dirname(LISTING_FILE), { recursive: true });
  fs.writeFileSync(LISTING_FILE, JSON.stringify(data, null, 2) + '\n');
}

async function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf('--grip');
  const bin = i >= 0 ? path.resolve(args[i + 1]) : path.join(HERE, 'out', 'bin');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'grip-toollist-'));
  try {
    const opts = { bin, stateDir: path.join(tmp, 'state'), port: 9, tmp };
    const grip = await startPeer('grip-mcp', { ...opts, workDir: path.join(tmp, 'grip') });
    const pw = await startPeer('pw-mcp', { ...opts, workDir: path.join(tmp, 'pw') });
    try {
      writePlaywrightListing(pw);
      const row = (p) => {
        const { tools, list, instructions } = p.listing;
        return `${p.version.padEnd(28)} ${String(tools).padStart(5)} ${String(list.chars).padStart(8)} ${String(list.tokens).padStart(7)} ${String(instructions.chars).padStart(8)} ${String(instructions.tokens).padStart(7)} ${String(list.tokens + instructions.tokens).padStart(7)}`;
      };
      console.log(`${'server'.padEnd(28)} tools    chars  tokens ins.chars ins.tok    both`);
      console.log(row(grip));
      console.log(row(pw));
      const g = grip.listing, p = pw.listing;
      const r = (a, b) => (a / b).toFixed(2) + '×';
      console.log(`grip / Playwright MCP: tools/list ${r(g.list.tokens, p.list.tokens)} tokens (${r(g.list.chars, p.list.chars)} characters); with the instructions ${r(g.list.tokens + g.instructions.tokens, p.list.tokens + p.instructions.tokens)}`);
      console.log(`wrote ${path.relative(process.cwd(), LISTING_FILE)}`);
    } finally {
      await grip.close();
      await pw.close();
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
