// The report's sections for issue 16's figures (bench/report.mjs calls
// these): tokens per task, MCP-to-MCP snapshots and waits, the CLI's fixed
// cost and where it goes. Each section says which run measured it, since a
// run of sections alone (bench/run --tasks --mcp --cli-cost) replaces them
// in RESULTS.md and leaves the rest.

const f1 = (x) => (x === undefined || x === null || Number.isNaN(x) ? '–' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
const ratio = (a, b) => (a === undefined || a === null || !b ? '–' : `${(a / b).toFixed(2)}×`);
const thousands = (n) => (n === undefined || n === null ? '–' : Math.round(n).toLocaleString('en-US'));
const range = (t) => (t ? `${f1(t.median)} (${f1(t.min)}–${f1(t.max)})` : '–');

export const PW_PEERS = ['pw-mcp', 'pw-mcp-incremental', 'pw-mcp-full'];

function stampLine(w, run, r) {
  const v = run.versions || r.versions || {};
  w(`Measured ${run.started} → ${run.finished || '?'} by \`${run.command}\` (grip ${v.grip || '?'}, ${v.chromium || 'Chromium ?'}), load ${run.loadavg.map((x) => x.toFixed(2)).join(' ')} at its start (2 shared cores).`);
  w();
}

export function renderTasks(w, r) {
  const t = r.tasks;
  if (!t) return;
  const peers = Object.keys(t.tasks[0].peers);
  const pw = PW_PEERS.filter((n) => peers.includes(n));
  const v = t.run.versions || r.versions || {};
  w('## Tokens per task: grip MCP against Playwright MCP');
  w();
  stampLine(w, t.run, r);
  w('Scripted tasks on ordinary pages (bench/pages.mjs `/task/*`: a site header and footer of 21 controls around the task) and on real');
  w('third-party components (bench/components.mjs: the pages and npm packages e2e/widgets and e2e/editors drive), driven');
  w('through each MCP server as an agent drives it (bench/tasks.mjs): the script knows only what the tool results told it, reads refs');
  w('from them, and calls `browser_snapshot` when it needs an element it has not been told about. Every tool result from the task\'s');
  w('first `browser_snapshot` to its end is counted (o200k_base tokens; the navigation that opens the page is not). Whether the task');
  w('succeeded is read from the page over CDP. The servers (pinned in bench/package.json):');
  w();
  w(`- **grip-mcp**: \`grip mcp\` (${v['grip-mcp'] || 'grip'}): an action\'s reply names what was done, the tab, the lines of elements that changed or appeared, and the refs gone.`);
  if (peers.includes('pw-mcp')) w(`- **pw-mcp**: ${v['pw-mcp'] || '@playwright/mcp'}, the current release: an action\'s reply links a snapshot file it wrote instead of carrying it; when the agent needs to know what is on the page now it reads that file, counted as a tool result ("read snapshot file": the text alone, without the line numbers a file-reading tool adds).`);
  if (peers.includes('pw-mcp-incremental')) w(`- **pw-mcp-incremental**: ${v['pw-mcp-incremental'] || '@playwright/mcp 0.0.68'}, the last release that put the snapshot in the reply; by default only the part of the tree that changed.`);
  if (peers.includes('pw-mcp-full')) w(`- **pw-mcp-full**: ${v['pw-mcp-full'] || '@playwright/mcp 0.0.68 --snapshot-mode full'}: the whole snapshot after each action, as Playwright MCP long did.`);
  w();
  w('Each server is used as meant: both fill the form with one `browser_fill_form` call; Playwright MCP clicks a checkbox (it has no way to set one), grip uses `browser_click {checked: true}`.');
  w(`Medians of ${t.tasks[0].peers[peers[0]].runs.length} run(s) per task and server, the servers alternating.`);
  w();
  w(`| task | ${peers.map((n) => `${n} tokens (calls)`).join(' | ')} | ${pw.map((n) => `grip / ${n}`).join(' | ')} | succeeded |`);
  w(`| --- | ${peers.map(() => '---:').join(' | ')} | ${pw.map(() => '---:').join(' | ')} | --- |`);
  const total = Object.fromEntries(peers.map((n) => [n, 0]));
  for (const row of t.tasks) {
    const p = row.peers;
    for (const n of peers) total[n] += p[n].tokens;
    const ok = peers.filter((n) => !p[n].succeeded);
    w(`| ${row.task} | ${peers.map((n) => `${thousands(p[n].tokens)} (${p[n].calls})`).join(' | ')} | ${pw.map((n) => ratio(p['grip-mcp']?.tokens, p[n].tokens)).join(' | ')} | ${ok.length ? `**no: ${ok.join(', ')}**` : 'yes, all'} |`);
  }
  w(`| **all tasks** | ${peers.map((n) => `**${thousands(total[n])}**`).join(' | ')} | ${pw.map((n) => `**${ratio(total['grip-mcp'], total[n])}**`).join(' | ')} | |`);
  w();
  for (const row of t.tasks) w(`- **${row.task}**: ${row.what}.`);
  w();
  const parts = t.tasks.map((row) => ({ task: row.task, p: row.peers['grip-mcp']?.replyParts })).filter((x) => x.p);
  if (parts.length) {
    w('Where grip\'s action replies (every result after the first snapshot) spend their tokens: the first line (what was done, with');
    w('the page\'s own detail), the tab line repeated in each reply, and the element lines (changed, added) and gone refs:');
    w();
    const pws = PW_PEERS.filter((n) => peers.includes(n));
    w(`| task | first lines | tab lines | element lines, gone | grip tokens less the tab lines | ${pws.map((n) => `… / ${n}`).join(' | ')} |`);
    w(`| --- | ---: | ---: | ---: | ---: | ${pws.map(() => '---:').join(' | ')} |`);
    for (const { task, p } of parts) {
      const row = t.tasks.find((x) => x.task === task).peers;
      const less = row['grip-mcp'].tokens - p.tab;
      w(`| ${task} | ${p.first} | ${p.tab} | ${p.rest} | ${thousands(less)} | ${pws.map((n) => ratio(less, row[n].tokens)).join(' | ')} |`);
    }
    w();
    w('(The last columns are arithmetic on this run\'s figures, not a measurement: what the tasks would cost if an action\'s reply named the tab only when its URL or title changed.)');
    w();
  }
  w('<details><summary>Each tool result\'s tokens (the last run; transcripts in bench/out/tasks/)</summary>');
  w();
  for (const row of t.tasks) {
    for (const n of peers) {
      const steps = row.peers[n].steps || [];
      w(`- ${row.task} / ${n}: ${steps.map((s) => `${s.tool.replace(/^browser_/, '')} ${s.tokens}${s.isError ? ' (error)' : ''}`).join(' · ')}`);
    }
  }
  for (const row of t.tasks) for (const n of peers) for (const run of row.peers[n].runs) if (run.error) w(`- ${row.task} / ${n} failed: ${run.error}`);
  w();
  w('</details>');
  w();
}

export function renderMCP(w, r) {
  const m = r.mcp;
  if (!m) return;
  w('## MCP to MCP: `browser_snapshot` round trips and tokens');
  w();
  stampLine(w, m.run, r);
  w('One MCP client (the SDK over stdio) calls `browser_snapshot` on `grip mcp` and on Playwright MCP (pw-mcp), on the same tab of the same Chromium;');
  w('one warm-up, then runs alternating the order. Each server reads the page three times a round, side by side: **changed**, just after an observer');
  w('changed what the page shows (over CDP, the first button of every frame renamed), so grip walks every frame again; **data-\\***, just after the');
  w('observer set an attribute of the page\'s own that nothing reads on the body of every frame (`data-bench-tick`), which grip proves changes nothing');
  w('it shows and answers from its kept walks; and **unchanged**, at once again, where grip\'s re-read cache answers (docs: "Re-reading an unchanged');
  w('page"). Playwright MCP walks the page each time.');
  w('grip is asked for the whole page (a budget no page reaches: Playwright MCP never cuts);');
  w('"grip default" is what the same call returns at grip\'s default budget of 40,000 tokens, which cuts a page that exceeds it and says how to read on.');
  w('Wall time in ms, median (min–max); tokens o200k_base (ceil(chars/3) in brackets).');
  w();
  w('| page | changed: grip-mcp ms | pw-mcp ms | grip / pw | data-\\*: grip-mcp ms | pw-mcp ms | grip / pw | unchanged: grip-mcp ms | pw-mcp ms | grip / pw | grip-mcp tokens | pw-mcp tokens | tokens grip / pw | grip default budget |');
  w('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const s of m.snapshots) {
    const g = s.peers['grip-mcp'];
    const p = s.peers['pw-mcp'];
    const gc = s.changed?.['grip-mcp'];
    const pc = s.changed?.['pw-mcp'];
    const go = s.pageOwn?.['grip-mcp'];
    const po = s.pageOwn?.['pw-mcp'];
    const d = s.gripDefaultBudget;
    w(`| ${s.page} | ${range(gc?.time)} | ${range(pc?.time)} | ${ratio(gc?.time?.median, pc?.time?.median)} | ${range(go?.time)} | ${range(po?.time)} | ${ratio(go?.time?.median, po?.time?.median)} | ${range(g?.time)} | ${range(p?.time)} | ${ratio(g?.time?.median, p?.time?.median)} | ${thousands(g?.tokens)} (${thousands(g?.tokensChars3)}) | ${thousands(p?.tokens)} (${thousands(p?.tokensChars3)}) | ${ratio(g?.tokens, p?.tokens)} | ${d ? `${thousands(d.tokens)}${d.cut ? ', cut' : ''}` : '–'} |`);
  }
  w();
  const floors = m.snapshots.filter((s) => s.browserAfterChange?.time && s.changed?.['pw-mcp']?.time && s.peers['grip-mcp']?.time);
  if (floors.length) {
    w('The floor of a changed read: the browser\'s own work after the observer\'s change, which any reader waits for (a trivial read of every');
    w('frame over CDP right after the same rename, less the same read of the page unchanged; bench/mcp.mjs), on top of grip\'s unchanged read.');
    w();
    w('| page | trivial read after the change, ms | unchanged, ms | the browser\'s work | floor: grip unchanged + it | floor / pw changed | grip changed / pw changed |');
    w('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const s of floors) {
      const a = s.browserAfterChange.time.median, u = s.browserUnchanged.time.median;
      const floor = s.peers['grip-mcp'].time.median + Math.max(0, a - u);
      const pc = s.changed['pw-mcp'].time.median;
      w(`| ${s.page} | ${range(s.browserAfterChange.time)} | ${range(s.browserUnchanged.time)} | ${(a - u).toFixed(1)} | ${floor.toFixed(1)} | ${ratio(floor, pc)} | ${ratio(s.changed['grip-mcp'].time.median, pc)} |`);
    }
    w();
  }
  if (m.toolsList) {
    w('### What the tool list costs: `tools/list` and the instructions, once per agent session');
    w();
    w('Each server\'s tools/list result as its client holds it (JSON.stringify of `{tools}`: names, titles, descriptions, input schemas) and the');
    w('`instructions` of its initialize result, which clients put beside the tools; both are read by the model before any work.');
    w('Characters, and o200k_base tokens (gpt-tokenizer). mcp/listsize_test.go holds grip\'s (both together) to Playwright MCP\'s, which this run writes to mcp/testdata/playwright-mcp-tools.json.');
    w();
    w('| server | tools | tools/list characters | tools/list tokens | instructions characters | instructions tokens | tokens, both |');
    w('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [n, x] of Object.entries(m.toolsList)) w(`| ${n} (${x.version}) | ${x.tools} | ${thousands(x.list.chars)} | ${thousands(x.list.tokens)} | ${thousands(x.instructions.chars)} | ${thousands(x.instructions.tokens)} | ${thousands(x.list.tokens + x.instructions.tokens)} |`);
    const g = m.toolsList['grip-mcp'];
    const p = m.toolsList['pw-mcp'];
    if (g && p) w(`\ngrip-mcp / pw-mcp: tools/list ${ratio(g.list.tokens, p.list.tokens)} in tokens (${ratio(g.list.chars, p.list.chars)} in characters), ${ratio(g.list.tokens / g.tools, p.list.tokens / p.tools)} per tool; with the instructions ${ratio(g.list.tokens + g.instructions.tokens, p.list.tokens + p.instructions.tokens)}.`);
    w();
  }
  if (m.wait) {
    w('### Wait latency: `browser_wait_for {text}`, from the page\'s change to the reply');
    w();
    w('Measured as e2e\'s BenchmarkWaitLatency measures grip\'s socket call: the page is told over CDP to add a text 200 ms later and notes');
    w('when it did; the wait is asked at once; the figure is the reply\'s arrival minus the page\'s note (one clock, the machine\'s).');
    w('Playwright MCP also waits for the page to settle after the text shows and writes a snapshot file before it replies.');
    w('grip-socket is grip\'s socket call alone (bench/gripsnap, OpWait), what e2e\'s benchmark times: the rest of grip-mcp\'s figure is the MCP layer.');
    w();
    w('| server | change → reply, ms: median (min–max) | reply tokens |');
    w('| --- | ---: | ---: |');
    for (const [n, x] of Object.entries(m.wait)) w(`| ${n} | ${range(x.time)} | ${thousands(x.tokensMedian)} |`);
    const g = m.wait['grip-mcp']?.time?.median;
    const p = m.wait['pw-mcp']?.time?.median;
    if (g && p) w(`\ngrip-mcp / pw-mcp: ${ratio(g, p)}. The same socket figure in Go: \`go test ./e2e -run x -bench WaitLatency -benchtime 20x\` (ms-change-to-reply).`);
    w();
  }
}

export function renderCost(w, r) {
  const c = r.cliCost;
  if (!c) return;
  const s = c.subjects;
  w('## The CLI\'s fixed cost');
  w();
  stampLine(w, c.run, r);
  w(`Each subject once per round, ${c.runs} rounds after a warm-up, the order alternating; processes started and timed by bench/gripsnap (Go os/exec),`);
  w('CPU and page faults from the child\'s rusage (the user/system split is sampled by the kernel\'s tick; their sum is exact). Playwright\'s');
  w('`page.ariaSnapshot({mode: \'ai\'})` runs in the bench\'s Node process over its open CDP connection (its CPU: that process\'s own).');
  w('**mintabs** (bench/mintabs) makes the same socket call as `grip tabs` in a binary that links only client/ and protocol/: the floor under it.');
  w(`Page: ${r.cliCost.page ? `\`${new URL(r.cliCost.page).pathname}${new URL(r.cliCost.page).search.replace(/&run=\d+/, '')}\`` : 'a 30-control page'} (30 controls, one cross-origin frame).`);
  w();
  w('| subject | wall ms: median (min–max) | CPU user+sys ms | max RSS MB | minor page faults |');
  w('| --- | ---: | ---: | ---: | ---: |');
  for (const [n, x] of Object.entries(s)) w(`| ${n} | ${range(x.wall)} | ${f1(x.cpu?.median)} | ${x.maxrssKB ? (x.maxrssKB / 1024).toFixed(1) : '–'} | ${thousands(x.minflt)} |`);
  w();
  const med = (n) => s[n]?.wall?.median;
  if (s['agent-browser snapshot -i']) w(`- grip snapshot / agent-browser snapshot -i: **${ratio(med('grip snapshot'), med('agent-browser snapshot -i'))}** (target ≤ 0.8×).`);
  w(`- grip snapshot / Playwright ariaSnapshot: **${ratio(med('grip snapshot'), med('playwright ariaSnapshot'))}**.`);
  w(`- grip tabs / mintabs: **${ratio(med('grip tabs'), med('mintabs'))}** (target ≤ 1.1×): grip tabs ${f1(med('grip tabs'))} ms, mintabs ${f1(med('mintabs'))} ms; go hello-world ${f1(med('go hello-world'))} ms.`);
  w(`- grip --help − go hello-world: ${f1(med('grip --help') - med('go hello-world'))} ms of start-up that is grip\'s own; grip tabs − mintabs: ${f1(med('grip tabs') - med('mintabs'))} ms.`);
  if (c.spans) w(`- On an open socket (bench/gripsnap): finding the host + dial + hello ${range(c.spans.connectMs)} ms; the tabs call ${range(c.spans.tabsCallMs)} ms; the snapshot call ${range(c.spans.snapshotCallMs)} ms.`);
  w();
  w('### Where grip\'s start-up goes');
  w();
  const bins = Object.keys(c.inittrace);
  const size = (n) => c.sizes[n === 'grip --help' || n === 'grip tabs' ? 'grip' : n];
  const pkgs = (n) => (n.startsWith('grip') ? c.packages?.grip : n === 'mintabs' ? c.packages?.mintabs : undefined);
  const ins = (n) => c.instructions?.[n]?.median;
  w(`| run | binary MB | packages linked | packages with init | init allocs | init KB | Σ init clock ms | main starts at ms | syscalls (strace -c -f) | instructions (callgrind) |`);
  w('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const n of bins) {
    const it = c.inittrace[n];
    w(`| ${n} | ${(size(n) / 2 ** 20).toFixed(1)} | ${thousands(pkgs(n))} | ${it.packages} | ${thousands(it.allocs)} | ${f1(it.bytes / 1024)} | ${f1(it.clockMs)} | ${f1(it.mainAtMs)} | ${thousands(c.strace?.[n]?.total)} | ${ins(n) ? thousands(Math.round(ins(n))) : '–'} |`);
  }
  w();
  if (c.instructions) w(`Instructions: median of ${c.instructions['grip tabs']?.n ?? 5} runs under valgrind's callgrind (exact, so a loaded machine does not blur them; \`grip tabs\` and mintabs make their socket call under it too). grip tabs / mintabs in instructions: **${ratio(ins('grip tabs'), ins('mintabs'))}**; grip --help − go hello-world: ${thousands(Math.round(ins('grip --help') - ins('go hello-world')))} instructions.`);
  if (c.instructionsCgo) {
    const cg = c.instructionsCgo;
    const row = (n) => `${n} ${thousands(Math.round(cg[n]['CGO_ENABLED=0']?.median))} (CGO_ENABLED=0) vs ${thousands(Math.round(cg[n]['go build (cgo)']?.median))} (plain go build, cgo on): ${ratio(cg[n]['go build (cgo)']?.median, cg[n]['CGO_ENABLED=0']?.median)}`;
    w(`As people build it (bench/out/bin/grip-cgo, a plain \`go build ./cmd/grip\` on this machine, which has a C compiler), instructions: ${row('grip --version')}; ${row('grip tabs')}.`);
  }
  const gt = c.inittrace['grip tabs'];
  w(`GODEBUG=inittrace=1, median of ${gt.runs} runs per package (wall clock: a loaded machine inflates it). The slowest package inits of \`grip tabs\`: ${gt.top.map((p) => `${p.pkg} ${f1(p.clockMs)} ms`).join(', ')}.`);
  if (c.strace) w(`The commonest syscalls of grip tabs: ${c.strace['grip tabs'].top.map((x) => `${x.syscall} ${x.calls}`).join(', ')} (hello-world: ${c.strace['go hello-world'].top.slice(0, 4).map((x) => `${x.syscall} ${x.calls}`).join(', ')}).`);
  w();
  w('What this says, and what would cut it further:');
  w();
  w(`- What grip pays at every start, whichever agent command runs: ${thousands(c.packages?.grip)} packages in ${(c.sizes.grip / 2 ** 20).toFixed(1)} MB, ${gt.packages} of them with init work (${thousands(gt.allocs)} allocations), and ${thousands(s['grip tabs']?.minflt)} page faults against ${thousands(s['mintabs']?.minflt)} for mintabs. The host, mcp, install/doctor, demo and launch are grip-host's (cmd/grip-host), with net/http, crypto/x509, regexp and the rest; grip hands those commands to it, and links no package net on Unix (the socket is dialled by syscall), so a plain cgo build links no C runtime (cmd/grip/deps_linux.txt; docs/cli-cost.md, "The CLI's fixed cost").`);
  w(`- mintabs, which links only client/ and protocol/ and starts its main at ${f1(c.inittrace.mintabs.mainAtMs)} ms, takes ${f1(med('mintabs'))} ms in all: the floor for any Go CLI making this call against this browser. Of it, the round trip to the extension (the tabs call above) and msgpack's first use of each message type (reflection over the struct, about a fifth of its instructions) are the largest parts; both are paid by grip tabs as well, so making them cheaper makes the ratio above larger, not smaller.`);
  w('- What is left of grip\'s own share over mintabs is the agent commands\' own code and tables (cli, frames, workflow, policy, the usage text) and msgpack; not expected to help: stripping symbols (-s -w: start-up touches no DWARF).');
  w();
}

/** targets16 are the issue's targets for the rows of the Targets table. */
export function targets16(r) {
  const list = [];
  if (r.tasks) {
    const tasks = r.tasks.tasks;
    const ok = tasks.every((t) => Object.values(t.peers).every((p) => p.succeeded));
    for (const n of PW_PEERS) {
      if (!tasks[0].peers[n]) continue;
      const rs = tasks.map((t) => ({ task: t.task, x: t.peers['grip-mcp'].tokens / t.peers[n].tokens }));
      const worst = rs.reduce((a, b) => (b.x > a.x ? b : a));
      list.push({ target: `tokens per task ≤ 0.3× Playwright MCP (${n}), tasks succeeding`, figure: `${rs.map((x) => `${x.task} ${x.x.toFixed(2)}×`).join(', ')}; ${ok ? 'all succeeded' : 'some failed'}`, met: ok && worst.x <= 0.3 });
    }
  } else list.push({ target: 'tokens per task ≤ 0.3× Playwright MCP', figure: '–', met: null });
  if (r.cliCost) {
    const s = r.cliCost.subjects;
    const g = s['grip snapshot']?.wall?.median;
    const a = s['agent-browser snapshot -i']?.wall?.median;
    list.push({ target: 'CLI snapshot of a 30-control page with a cross-origin frame ≤ 0.8× agent-browser snapshot -i', figure: a ? `${f1(g)} vs ${f1(a)} ms (${ratio(g, a)})` : '– (agent-browser did not run)', met: a ? g <= 0.8 * a : null });
    const t = s['grip tabs']?.wall?.median;
    const m = s.mintabs?.wall?.median;
    list.push({ target: 'grip tabs ≤ 1.1× bench/mintabs', figure: `${f1(t)} vs ${f1(m)} ms (${ratio(t, m)})`, met: t <= 1.1 * m });
  } else {
    list.push({ target: 'CLI snapshot of a 30-control page with a cross-origin frame ≤ 0.8× agent-browser snapshot -i', figure: '–', met: null });
    list.push({ target: 'grip tabs ≤ 1.1× bench/mintabs', figure: '–', met: null });
  }
  return list;
}
