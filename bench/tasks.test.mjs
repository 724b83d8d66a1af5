// node --test bench/ (needs bench/node_modules: bench/run installs it).
// The readers the tasks and the cost figures rely on, on replies as the
// servers and tools write them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { gripRefs, gripGone, gripReplyParts, pwRefs, pwSnapshotLink } from './tasks.mjs';
import { parseInittrace, parseStraceSummary } from './clicost.mjs';

test('grip: element lines of a snapshot and of an action reply, and the refs gone', () => {
  const reply = `Clicked @e20 (button More actions)
Tab 3 · Inbox — BenchMail · http://127.0.0.1:1/task/menu
changed:
@e20: [button 'More actions' expanded]
added:
@e61: [menuitem 'Reply']
@e63: [menuitem 'It\\'s archived']
gone: @e4 @e5
`;
  assert.deepEqual(gripRefs(reply), [
    { ref: '@e20', role: 'button', name: 'More actions' },
    { ref: '@e61', role: 'menuitem', name: 'Reply' },
    { ref: '@e63', role: 'menuitem', name: "It's archived" },
  ]);
  assert.deepEqual(gripGone(reply), ['@e4', '@e5']);
  assert.deepEqual(gripGone('Clicked @e1\n'), []);
  assert.deepEqual(gripGone('Clicked @e1\ngone: @e2 @e7–@e9 @e12\n'), ['@e2', '@e7', '@e8', '@e9', '@e12']);
  const parts = gripReplyParts(reply);
  assert.ok(parts.first > 0 && parts.tab > 0 && parts.rest > parts.tab, JSON.stringify(parts));
  assert.equal(gripReplyParts('Done: waited 1s\n').tab, 0);
});

test('Playwright: refs in YAML, quoted entries, frames, unchanged markers', () => {
  const yaml = `### Snapshot
\`\`\`yaml
- generic [ref=e1]:
  - 'heading "Generated: 30" [level=1] [ref=e2]'
  - button "Save \\"it\\"" [ref=e6]
  - ref=e7 [unchanged]
  - checkbox "Select message 3" [checked] [active] [ref=e31]
  - iframe [ref=e31b]:
    - textbox "Field f0-2" [ref=f1e8]
\`\`\``;
  assert.deepEqual(pwRefs(yaml), [
    { ref: 'e1', role: 'generic', name: '' },
    { ref: 'e2', role: 'heading', name: 'Generated: 30' },
    { ref: 'e6', role: 'button', name: 'Save "it"' },
    { ref: 'e31', role: 'checkbox', name: 'Select message 3' },
    { ref: 'e31b', role: 'iframe', name: '' },
    { ref: 'f1e8', role: 'textbox', name: 'Field f0-2' },
  ]);
  assert.equal(pwSnapshotLink('### Page\n- Page URL: x\n### Snapshot\n- [Snapshot](.playwright-mcp/page-1.yml)\n'), '.playwright-mcp/page-1.yml');
  assert.equal(pwSnapshotLink(yaml), null);
});

test('inittrace and strace -c summaries', () => {
  const it = parseInittrace(`init internal/bytealg @0.007 ms, 0 ms clock, 0 bytes, 0 allocs
init runtime @0.10 ms, 0.20 ms clock, 0 bytes, 0 allocs
init encoding/gob @2.0 ms, 1.5 ms clock, 27000 bytes, 366 allocs
hello, world`);
  assert.equal(it.packages, 3);
  assert.equal(it.allocs, 366);
  assert.equal(it.mainAtMs, 3.5);
  assert.ok(Math.abs(it.clockMs - 1.7) < 1e-9);
  const st = parseStraceSummary(`% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 40.00    0.000400           3       114           rt_sigaction
 30.00    0.000300          13        23         2 mmap
------ ----------- ----------- --------- --------- ----------------
100.00    0.001000           7       137         2 total`);
  assert.equal(st.total, 137);
  assert.deepEqual(st.top.map((x) => [x.syscall, x.calls]), [['rt_sigaction', 114], ['mmap', 23]]);
});
