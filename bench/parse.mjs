// Parsers of each tool's snapshot text into the interactive elements it
// gives a ref to, as {role, name}, and the coverage comparison on role +
// name. Roles are normalised to one vocabulary: searchbox and spinbutton
// are textboxes, menuitemcheckbox/radio are menuitems, switch a checkbox;
// options of a native <select> (children of a combobox) are not counted,
// custom listbox options are.

export const ROLES = new Set(['button', 'link', 'textbox', 'checkbox', 'radio', 'combobox', 'tab', 'menuitem', 'option']);

const ALIAS = {
  searchbox: 'textbox', spinbutton: 'textbox', textarea: 'textbox',
  menuitemcheckbox: 'menuitem', menuitemradio: 'menuitem', switch: 'checkbox',
  // chrome-devtools-mcp prints Chrome's internal roles for some controls
  PopUpButton: 'combobox', MenuListOption: 'option', ComboBoxMenuButton: 'combobox',
};

export function normRole(role) {
  return ALIAS[role] || role;
}

/** Names as the comparison sees them: whitespace folded, cut at 100 like grip. */
export function normName(name) {
  return (name || '').replace(/\s+/g, ' ').trim().slice(0, 100);
}

function unquote(s, quote) {
  if (s === undefined) return '';
  if (quote === '"') {
    try { return JSON.parse(`"${s}"`); } catch { return s.replace(/\\(.)/g, '$1'); }
  }
  return s.replace(/\\(.)/g, '$1');
}

/** grip: `@e12: [button 'Save' …]`. */
export function parseGrip(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^@e\d+: \[([A-Za-z]+)(?: '((?:[^'\\]|\\.)*)')?/.exec(line);
    if (!m) continue;
    const role = normRole(m[1]);
    if (ROLES.has(role)) out.push({ role, name: normName(unquote(m[2], "'")) });
  }
  return out;
}

/**
 * YAML-like trees with indentation: Playwright's aria snapshot
 * (`- button "Save" [ref=e5]`), agent-browser's (same shape) and
 * chrome-devtools-mcp's (`uid=1_5 button "Save"`). Only elements with a ref
 * count; an option under a combobox is a native select's and is skipped.
 */
function parseTree(text, lineRe, hasRef) {
  const out = [];
  const stack = []; // {indent, role}
  for (let line of text.split('\n')) {
    // YAML quotes a whole entry that holds a colon: - 'heading "a: b" [ref=e2]'
    const q = /^(\s*)- '(.*)'(:?)$/.exec(line);
    if (q) line = `${q[1]}- ${q[2].replace(/''/g, "'")}${q[3]}`;
    const m = lineRe.exec(line);
    if (!m) continue;
    const indent = m[1].length;
    const role = normRole(m[2]);
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const underCombobox = stack.some((s) => s.role === 'combobox');
    stack.push({ indent, role });
    if (!ROLES.has(role) || !hasRef(m[4] || '')) continue;
    if (role === 'option' && underCombobox) continue;
    out.push({ role, name: normName(unquote(m[3], '"')) });
  }
  return out;
}

export function parsePlaywright(text) {
  return parseTree(text, /^(\s*)- ([A-Za-z]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/, (rest) => /\[[^\]]*\bref=[^\]]+\]/.test(rest));
}

export const parseAgentBrowser = parsePlaywright;

export function parseDevtools(text) {
  return parseTree(text, /^(\s*)uid=\S+ ([A-Za-z]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/, () => true);
}

/**
 * coverage compares two element lists as multisets of role + name:
 * peerCovered = share of the peer's elements grip also lists,
 * gripCovered = share of grip's elements the peer also lists.
 */
export function coverage(grip, peer) {
  const count = (list) => {
    const m = new Map();
    for (const e of list) {
      const k = `${e.role}\u0000${e.name}`;
      m.set(k, (m.get(k) || 0) + 1);
    }
    return m;
  };
  const g = count(grip);
  const p = count(peer);
  let both = 0;
  for (const [k, n] of p) both += Math.min(n, g.get(k) || 0);
  const missing = [];
  for (const [k, n] of p) if ((g.get(k) || 0) < n && missing.length < 8) missing.push(k.replace('\u0000', ' '));
  const extra = [];
  for (const [k, n] of g) if ((p.get(k) || 0) < n && extra.length < 8) extra.push(k.replace('\u0000', ' '));
  return {
    peer: peer.length, grip: grip.length, both,
    peerCovered: peer.length ? both / peer.length : 1,
    gripCovered: grip.length ? both / grip.length : 1,
    missingInGrip: missing, missingInPeer: extra,
  };
}
