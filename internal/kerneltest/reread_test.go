package kerneltest_test

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/kerneltest"
)

// randomPage builds, from a seed, a page of the things a snapshot reads:
// controls of every kind, labels, headings and text, clickables by cursor,
// scrolling widgets (a list, a grid's body), hidden and aria-hidden parts, details, custom elements
// with shadow roots (one kind defined only later), and style rules that hide
// by class, by an ancestor's class and by a media query. window.__change(i)
// makes the i-th kind of change (below) somewhere at random, most of them
// ones a MutationObserver does not see.
const randomPage = `(() => {
  let s = SEED >>> 0;
  const rnd = () => { s = (s + 0x6D2B79F5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const style = document.createElement('style');
  style.textContent = '.h{display:none} .v{visibility:hidden} .ptr{cursor:pointer} .open .sub{display:block} .sub{display:none}' +
    ' .scroll{overflow:auto;height:60px} .g0{} .g1{} .g2{} .g3{} .g4{} @media (max-width: 700px){.mq{display:none} .g4{cursor:pointer}}' +
    ' [data-off="1"]{display:none} [data-ptr]{cursor:pointer} [data-tip]::after{content:attr(data-tip)}';
  document.head.appendChild(style);
  if (!customElements.get('x-card')) customElements.define('x-card', class extends HTMLElement {
    constructor() { super(); const r = this.attachShadow({mode: 'open'}); r.innerHTML = '<button>Shadow ' + (this.getAttribute('n') || '') + '</button><slot></slot>'; }
  });
  let n = 0;
  const leaf = () => {
    const i = n++;
    const k = Math.floor(rnd() * 22);
    switch (k) {
      case 0: return '<button>Act ' + i + '</button>';
      case 1: return '<a href="/p/' + i + '">Go ' + i + '</a>';
      case 2: return '<label>Field ' + i + ' <input value="v' + i + '"></label>';
      case 3: return '<label><input type="checkbox"' + (rnd() < 0.5 ? ' checked' : '') + '> Tick ' + i + '</label>';
      case 4: return '<input type="radio" name="r' + (i % 3) + '" aria-label="Choice ' + i + '">';
      case 5: return '<select aria-label="Pick ' + i + '"><option>one</option><option>two</option><option>three</option></select>';
      case 6: return '<textarea aria-label="Note ' + i + '">t' + i + '</textarea>';
      case 7: return '<h2>Heading ' + i + '</h2>';
      case 8: return '<p>Text of paragraph ' + i + '.</p>';
      case 9: return '<div class="ptr">Row ' + i + '</div>';
      // A list that scrolls itself, or a grid whose body does.
      case 10: return i % 2 ? '<div role="listbox" class="scroll" aria-label="List ' + i + '">' + [0,1,2,3,4,5,6,7].map((j) => '<div role="option">Opt ' + i + '.' + j + '</div>').join('') + '</div>'
        : '<div role="grid" aria-label="Grid ' + i + '"><div><div class="scroll">' + [0,1,2,3,4,5].map((j) => '<div role="row"><span role="gridcell">Cell ' + i + '.' + j + '</span></div>').join('') + '</div></div></div>';
      case 11: return '<details><summary>More ' + i + '</summary><button>Inside ' + i + '</button></details>';
      case 12: return '<x-card n="' + i + '"><span>Slotted ' + i + '</span></x-card>';
      // Names and contexts read from elsewhere: repeats told apart by a
      // heading, a list item's text, a legend; a list item its link speaks
      // for; a field named by another element, by a caption, by a header.
      case 13: return '<div><h3>Section ' + i + '</h3><button>Edit</button></div>';
      case 14: return '<ul><li><a href="/m/' + i + '">Menu ' + i + '</a></li><li>Item ' + i + ' <button>Delete</button></li></ul>';
      case 15: return '<fieldset><legend>Group ' + i + '</legend><label>Name <input></label><button>Save</button></fieldset>';
      case 16: return '<span id="lb' + i + '">Label ' + i + '</span> <input aria-labelledby="lb' + i + '">';
      case 17: return '<div><p>Caption ' + i + ':</p><input></div>';
      case 18: return '<table><tr><th>Col ' + i + '</th><th>Other</th></tr><tr><td><input></td><td><button>Go</button></td></tr></table>';
      case 19: return '<a href="/s/' + i + '" style="display:inline-block;width:' + (rnd() < 0.5 ? 1 : 40) + 'px;height:3px"></a>';
      case 20: return '<div class="ptr" style="display:flex"><span>A ' + i + '</span><span>B ' + i + '</span></div>';
      default: return '<y-late n="' + i + '"></y-late>';
    }
  };
  const box = (depth) => {
    const cls = [pick(['', '', 'g0', 'g1', 'g2', 'g3', 'g4']), rnd() < 0.08 ? 'h' : '', rnd() < 0.06 ? 'v' : '', rnd() < 0.1 ? 'mq' : '',
      rnd() < 0.1 ? 'sub' : ''].filter(Boolean).join(' ');
    const attrs = (rnd() < 0.05 ? ' hidden' : '') + (rnd() < 0.05 ? ' aria-hidden="true"' : '');
    let inner = '';
    const kids = rnd() < 0.15 ? 9 : 1 + Math.floor(rnd() * 4); // 9: a box the walk tests for a box before entering
    for (let c = 0; c < kids; c++) inner += depth > 0 && rnd() < 0.5 ? box(depth - 1) : leaf();
    return '<div class="' + cls + '"' + attrs + '>' + inner + '</div>';
  };
  let html = '';
  for (let b = 0; b < 6; b++) html += box(3);
  document.body.innerHTML = html;
  const all = (sel) => [...document.querySelectorAll(sel)];
  const changes = [
    () => {}, // nothing
    () => { const e = pick(all('input:not([type])')); if (e) e.value = 'typed ' + rnd(); },
    () => { const e = pick(all('input[type=checkbox],input[type=radio]')); if (e) e.checked = !e.checked; },
    () => { const e = pick(all('button,a,input,select,textarea')); if (e) e.focus(); },
    () => { const e = pick(all('.scroll')); if (e) e.scrollTop += 30; },
    () => { const sh = style.sheet; sh.insertRule('.' + pick(['g0', 'g1', 'g2', 'g3', 'g4']) + '{display:none}', sh.cssRules.length); },
    () => { const sh = style.sheet; if (sh.cssRules.length > 13) sh.deleteRule(sh.cssRules.length - 1); },
    () => { const sh = style.sheet; sh.insertRule('.' + pick(['g0', 'g1', 'g2', 'g3']) + '{cursor:pointer}', sh.cssRules.length); },
    () => { const r = [...style.sheet.cssRules].find((x) => x.selectorText === '.' + pick(['g0', 'g1'])); if (r) r.style.display = r.style.display ? '' : 'none'; },
    () => { const r = [...style.sheet.cssRules].find((x) => x.selectorText === '.g2'); if (r) r.style.visibility = r.style.visibility ? '' : 'hidden'; },
    () => { const e = pick(all('body div')); if (e) e.classList.toggle(pick(['h', 'open', 'v'])); },
    null, // the viewport (media queries): done over CDP
    () => { const e = pick(all('body div')); if (e) e.insertAdjacentHTML('beforeend', leaf()); },
    () => { const e = pick(all('body div *')); if (e) e.remove(); },
    () => { const e = pick(all('button')); if (e) e.textContent = 'Renamed ' + Math.floor(rnd() * 100); },
    () => { const e = pick(all('button')); if (e) e.setAttribute('aria-expanded', String(rnd() < 0.5)); },
    () => { const e = pick(all('select')); if (e) e.selectedIndex = Math.floor(rnd() * 3); },
    () => { const e = pick(all('x-card')); if (e && e.shadowRoot) e.shadowRoot.appendChild(document.createElement('button')).textContent = 'New ' + rnd(); },
    () => { if (!customElements.get('y-late')) customElements.define('y-late', class extends HTMLElement {
      constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<button>Late ' + (this.getAttribute('n') || '') + '</button>'; } }); },
    () => { const e = pick(all('input[type=checkbox]')); if (e) e.indeterminate = !e.indeterminate; },
    () => { const e = pick(all('body div')); if (e) e.animate([{visibility: 'hidden'}, {visibility: 'hidden'}], {duration: 1e6}); },
    () => { const e = pick(all('details')); if (e) e.open = !e.open; },
    () => { const e = pick(all('textarea')); if (e) e.value = 'note ' + rnd(); },
    // The page's own attributes: one nothing reads, one a rule hides by,
    // one a rule gives a cursor by, one a rule shows as text.
    () => { const e = pick(all('body *')); if (e) e.setAttribute('data-note', String(rnd())); },
    () => { const e = pick(all('body div')); if (e) e.setAttribute('data-off', rnd() < 0.5 ? '1' : '0'); },
    () => { const e = pick(all('body div')); if (e) e.toggleAttribute('data-ptr'); },
    () => { const e = pick(all('button,a')); if (e) e.setAttribute('data-tip', 'tip ' + Math.floor(rnd() * 9)); },
  ];
  // Changes of text alone (reread.js lists again only the lines they
  // reach): a text node's data, text added and removed, texts that names
  // and contexts read from elsewhere, and those that are a full walk (an
  // option's, a field's, a style sheet's).
  const texts = (root) => { const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT); const out = []; for (let t = w.nextNode(); t; t = w.nextNode()) out.push(t); return out; };
  const word = () => pick(['Edit', 'Delete', 'Save', 'Go', 'Renamed ' + Math.floor(rnd() * 50), '', ' ', 'Name:', 'Section ' + Math.floor(rnd() * 9)]);
  const textChange = () => pick([
    () => { const t = pick(texts(document.body)); if (t) t.data = word(); },
    () => { const t = pick(texts(document.body)); if (t) t.remove(); },
    () => { const e = pick(all('body *')); if (e) e.appendChild(document.createTextNode(word())); },
    () => { const e = pick(all('h2,h3,legend,th,p,span,li')); if (e) e.textContent = word(); },
    () => { const e = pick(all('x-card')); const b = e && e.shadowRoot && e.shadowRoot.querySelector('button'); if (b) b.firstChild ? b.firstChild.data = word() : b.append(word()); },
    () => { const e = pick(all('x-card > span')); if (e) e.textContent = word(); },
    () => { const e = pick(all('x-card')); if (e) e.appendChild(document.createTextNode(word())); },
    () => { const e = pick(all('option')); if (e) e.textContent = word() || 'opt'; },
    () => { const e = pick(all('textarea')); if (e) e.textContent = word(); },
    () => { style.appendChild(document.createTextNode(' .' + pick(['g0', 'g1', 'g2', 'g3']) + '{display:none}')); },
    () => { const e = pick(all('a:empty, a[style]')); if (e) e.textContent = word(); },
    () => { const e = pick(all('.ptr span, label')); if (e) e.append(word()); },
  ])();
  changes.push(...Array(10).fill(textChange), () => { textChange(); textChange(); textChange(); });
  window.__changes = changes.length;
  window.__change = (i) => { if (changes[i]) changes[i](); };
  window.__rnd = rnd;
})()`

// A re-read of a page (reread.js) says exactly what a full walk says, on
// random pages after random changes, those a MutationObserver does not see
// among them (values, checked states, focus, scrolling, style rules
// inserted, deleted and edited in place, a class above, a media query,
// Web Animations, a custom element defined later); and an unchanged page is
// answered from the kept walk.
func TestRereadEqualsFullWalk(t *testing.T) {
	ctx := newTab(t, "blank.html")
	viewport := func(width int64) {
		t.Helper()
		_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (cdp.Empty, error) {
			if width == 0 {
				return cdp.Call(ctx, tg, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
			}
			return cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: width, Height: 800, DeviceScaleFactor: 1})
		})
		if err != nil {
			t.Fatalf("viewport %d: %v", width, err)
		}
	}
	defer viewport(0)
	hits, relisted, patched, steps := 0, 0, 0, 0
	for seed := 1; seed <= 12; seed++ {
		if err := chromedp.Do(ctx, chromedp.Navigate(serverURL+"/blank.html")); err != nil {
			t.Fatal(err)
		}
		eval[any](t, ctx, `window.__k = `+kerneltest.Source())
		eval[any](t, ctx, fmt.Sprintf("const SEED = %d;\n", seed)+randomPage)
		kinds := eval[int](t, ctx, `window.__changes`)
		narrow := false
		for step := 0; step < 60; step++ {
			mode := "interactive"
			if step%3 == 2 {
				mode = "content"
			}
			kind := eval[int](t, ctx, fmt.Sprintf(`Math.floor(__rnd() * %d)`, kinds))
			if step%4 == 1 {
				kind = 0 // unchanged pages come often, as between an agent's reads
			}
			if kind == 11 {
				narrow = !narrow
				if narrow {
					viewport(600)
				} else {
					viewport(1000)
				}
			} else {
				eval[any](t, ctx, fmt.Sprintf(`__change(%d)`, kind))
			}
			type cmp struct {
				Same     bool   `json:"same"`
				Reread   bool   `json:"reread"`
				Relisted bool   `json:"relisted"`
				Patched  bool   `json:"patched"`
				Again    bool   `json:"again"`
				Got      string `json:"got"`
				Want     string `json:"want"`
			}
			// The host's own reads after an action keep the meanings the
			// agent saw (keepSignatures); the agent's snapshots set them.
			keep := step%5 == 3
			// Reads name the walk held, as the host does (host/walks.go):
			// the reply is then the same, a patch against it, or whole.
			c := eval[cmp](t, ctx, `(() => {
				const sigs = () => JSON.stringify([...__gripRefCache__.sig.entries()].sort((a, b) => a[0] - b[0]));
				const read = () => {
					const held = window.__held;
					const r = __k({op: 'snapshot', mode: '`+mode+`', keepSignatures: `+fmt.Sprint(keep)+`, known: held ? [held.walk] : []});
					let elements = r.elements;
					if (r.same) elements = held.elements;
					else if (r.base) {
						if (r.base !== held.walk) throw new Error('a patch against ' + r.base + ', not the walk held ' + held.walk);
						elements = held.elements.slice();
						for (const p of r.patch) elements[p.at] = p.el;
					}
					window.__held = r.walk ? {walk: r.walk, elements} : null;
					return {...r, elements};
				};
				const r = read();
				const before = sigs();
				const full = globalThis.__gripKernel__.snapshot('`+mode+`', `+fmt.Sprint(keep)+`);
				if (sigs() !== before) return {same: false, got: 'meanings ' + before, want: 'meanings ' + sigs()};
				const again = read();
				const got = JSON.stringify([r.url, r.title, r.elements]), want = JSON.stringify([full.url, full.title, full.elements]);
				const same = got === want && JSON.stringify([again.url, again.title, again.elements]) === want;
				return {same, reread: !!r.stats.reread, relisted: r.stats.relisted !== undefined, patched: !!r.base, again: !!again.stats.reread, got: same ? '' : got, want: same ? '' : want};
			})()`)
			steps++
			if c.Reread {
				hits++
			}
			if c.Relisted {
				relisted++
			}
			if c.Patched {
				patched++
			}
			if !c.Same {
				g, w := aroundFirstDifference(c.Got, c.Want)
				t.Fatalf("seed %d step %d (change %d, %s): the re-read differs from a full walk\n got …%s…\nwant …%s…", seed, step, kind, mode, g, w)
			}
			if !c.Again {
				// Read twice in one task: nothing can have changed between.
				t.Errorf("seed %d step %d: an unchanged page was walked again", seed, step)
			}
		}
	}
	t.Logf("%d re-reads, %d answered from the kept walk, %d by listing again the lines a change of text reached (%d of them sent as a patch)", steps, hits, relisted, patched)
	if patched < relisted/2 {
		t.Errorf("only %d of %d lists again were sent as a patch against the walk held", patched, relisted)
	}
	if relisted < steps/30 {
		t.Errorf("only %d of %d re-reads listed lines again after a change of text: the test no longer tries that path", relisted, steps)
	}
}

// aroundFirstDifference gives got and want from a little before where
// they first differ, to a little after.
func aroundFirstDifference(got, want string) (string, string) {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-300)
	return got[from:min(len(got), i+300)], want[from:min(len(want), i+300)]
}

// A box the walk did not enter, having found it without one (a container
// of many children, display:none through a style rule), is checked again:
// a rule edited in place (no mutation, no event) that shows it is seen.
func TestRereadSeesAShownBox(t *testing.T) {
	ctx := newTab(t, "blank.html")
	eval[any](t, ctx, `window.__k = `+kerneltest.Source())
	eval[any](t, ctx, `(() => {
		const st = document.createElement('style');
		st.textContent = '.box{display:none}';
		document.head.appendChild(st);
		document.body.innerHTML = '<button>Before</button><div class="box">' + [...Array(9).keys()].map((i) => '<button>B' + i + '</button>').join('') + '</div>';
	})()`)
	type read struct {
		N      int  `json:"n"`
		Reread bool `json:"reread"`
	}
	first := eval[read](t, ctx, `(() => { const r = __k({op: 'snapshot', mode: 'interactive'}); return {n: r.elements.length, reread: !!r.stats.reread}; })()`)
	again := eval[read](t, ctx, `(() => { const r = __k({op: 'snapshot', mode: 'interactive'}); return {n: r.elements.length, reread: !!r.stats.reread}; })()`)
	if first.N != 1 || !again.Reread || again.N != 1 {
		t.Fatalf("first %+v, again %+v: want one button, then the same from the kept walk", first, again)
	}
	eval[any](t, ctx, `document.styleSheets[0].cssRules[0].style.display = 'block'`)
	shown := eval[read](t, ctx, `(() => { const r = __k({op: 'snapshot', mode: 'interactive'}); return {n: r.elements.length, reread: !!r.stats.reread}; })()`)
	if shown.N != 10 || shown.Reread {
		t.Errorf("after the rule showed the box: %+v, want 10 buttons from a new walk", shown)
	}
}

// TestRereadOfAPageWithoutStyle: a page with no style sheet at all (whose
// sheets' key is empty) keeps its walk through a change of one of its own
// attributes and lists again only the line a change of text reached, as a
// page with sheets does; both used to be full walks there.
func TestRereadOfAPageWithoutStyle(t *testing.T) {
	ctx := newTab(t, "blank.html")
	eval[any](t, ctx, `window.__k = `+kerneltest.Source())
	eval[any](t, ctx, `(() => {
		for (const s of document.querySelectorAll('style, link')) s.remove();
		document.body.innerHTML = '<button id="b">Count 1</button><button>Other</button>';
		window.__read = () => { const r = __k({op: 'snapshot', mode: 'interactive'}); return {names: r.elements.map((e) => e.name).join('|'), reread: !!r.stats.reread, relisted: r.stats.relisted || 0, sheets: document.styleSheets.length}; };
	})()`)
	type read struct {
		Names    string `json:"names"`
		Reread   bool   `json:"reread"`
		Relisted int    `json:"relisted"`
		Sheets   int    `json:"sheets"`
	}
	if first := eval[read](t, ctx, `__read()`); first.Names != "Count 1|Other" || first.Sheets != 0 {
		t.Fatalf("first read %+v, want two buttons on a page with no sheet", first)
	}
	if got := eval[read](t, ctx, `(() => { document.body.setAttribute('data-tick', '1'); return __read(); })()`); !got.Reread || got.Names != "Count 1|Other" {
		t.Errorf("after an attribute nothing reads: %+v, want the kept walk", got)
	}
	if got := eval[read](t, ctx, `(() => { document.getElementById('b').firstChild.data = 'Count 2'; return __read(); })()`); got.Relisted != 1 || got.Names != "Count 2|Other" {
		t.Errorf("after a change of text: %+v, want the one line it reached listed again", got)
	}
}

// A change of one of the page's own attributes (data-*) that nothing a walk
// reads keeps the kept walk, whether its records were delivered before the
// read or are still pending in its task; one a style rule names anywhere
// (a selector, attr(), a shadow root's :host), one the kernel names an
// editable region by, and any once a sheet of another origin or a style
// attribute calling attr() is on the page, are walked again, and the walk
// says what changed.
func TestPageOwnAttributeKeepsTheWalk(t *testing.T) {
	ctx := newTab(t, "blank.html")
	eval[any](t, ctx, `window.__k = `+kerneltest.Source())
	eval[any](t, ctx, `(() => {
		const st = document.createElement('style');
		st.textContent = '[data-off] .gone{display:none} [data-ptr]{cursor:pointer} #icon::before{content: attr(data-label)}';
		document.head.appendChild(st);
		document.body.innerHTML = '<div id="box"><button class="gone">Gone</button><button>Stays</button></div><div id="row">Row text</div>' +
			'<button id="icon"></button><div contenteditable="true" id="ed"></div><x-shut id="host"></x-shut>';
		customElements.define('x-shut', class extends HTMLElement {
			constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<style>:host([data-shut]) button{display:none}</style><button>Inner</button>'; }
		});
		window.__read = () => { const r = __k({op: 'snapshot', mode: 'interactive'}); return {names: r.elements.map((e) => e.name).join('|'), reread: !!r.stats.reread}; };
	})()`)
	type read struct {
		Names  string `json:"names"`
		Reread bool   `json:"reread"`
	}
	names := "Gone|Stays|||Inner"
	if first := eval[read](t, ctx, `__read()`); first.Names != names {
		t.Fatalf("first read %q, want %q", first.Names, names)
	}
	// step makes the change, delivered to the observer before the read (a
	// task between) and then pending in the read's own task.
	step := func(what, change string, reread bool, want string) {
		t.Helper()
		for _, same := range []bool{false, true} {
			eval[read](t, ctx, `__read()`)
			var got read
			if same {
				got = eval[read](t, ctx, `(() => { `+change+`; return __read(); })()`)
			} else {
				eval[any](t, ctx, `(() => { `+change+`; return 0; })()`)
				got = eval[read](t, ctx, `__read()`)
			}
			if got.Reread != reread || got.Names != want {
				t.Errorf("%s (in the read's task: %v): reread %v, names %q; want reread %v, names %q", what, same, got.Reread, got.Names, reread, want)
			}
		}
	}
	tick := `document.body.setAttribute('data-tick', String(Math.random()))`
	step("an attribute nothing reads, on the body", tick, true, names)
	step("an attribute nothing reads, on a button", `document.querySelector('.gone').setAttribute('data-row-id', String(Math.random()))`, true, names)
	step("one a rule's attr() names the button by", `document.querySelector('#icon').setAttribute('data-label', 'Icon')`, false, "Gone|Stays|Icon||Inner")
	step("one a rule gives a cursor by", `document.querySelector('#row').setAttribute('data-ptr', '')`, false, "Gone|Stays|Row text|Icon||Inner")
	step("the placeholder the kernel names an editable by", `document.querySelector('#ed').setAttribute('data-placeholder', 'Write')`, false, "Gone|Stays|Row text|Icon|Write|Inner")
	step("one a selector hides by", `document.querySelector('#box').setAttribute('data-off', String(Math.random()))`, false, "Stays|Row text|Icon|Write|Inner")
	step("one a shadow root's :host rule hides by", `document.querySelector('#host').setAttribute('data-shut', String(Math.random()))`, false, "Stays|Row text|Icon|Write")
	names = "Stays|Row text|Icon|Write"
	step("an aria-* attribute", `document.querySelector('#box').setAttribute('aria-busy', String(Math.random() < 2))`, false, names)
	step("nothing read again", tick, true, names)
	// A style attribute calling attr() may read any attribute.
	eval[any](t, ctx, `document.querySelector('#box').setAttribute('style', 'min-width: attr(data-w px, 10px)')`)
	step("any attribute, once a style attribute calls attr()", tick, false, names)
	eval[any](t, ctx, `document.querySelector('#box').removeAttribute('style')`)
	step("nothing read, the style attribute gone", tick, true, names)
	// A sheet of another origin cannot be read: it may name any attribute.
	other := strings.Replace(serverURL, "127.0.0.1", "localhost", 1) + "/plain.css"
	eval[any](t, ctx, `new Promise((done) => { const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = `+strconv.Quote(other)+`; l.onload = l.onerror = () => done(0); document.head.appendChild(l); })`)
	if n := eval[int](t, ctx, `[...document.styleSheets].filter((s) => { try { s.cssRules; return false; } catch (_) { return true; } }).length`); n != 1 {
		t.Fatalf("%d sheets of another origin on the page, want 1", n)
	}
	step("any attribute, once a sheet of another origin is on the page", tick, false, names)
}

// BenchmarkReread5000: on the 5,000-control page, a read of the unchanged
// page (answered from the kept walk) beside a first read (a full walk, the
// kept walk dropped by a change: a class of the body toggled), as the
// extension asks for them (one JSON string); page-side ms.
func BenchmarkReread5000(b *testing.B) {
	ctx := newTab(b, "many.html")
	eval[any](b, ctx, `window.__k = `+kerneltest.Source())
	eval[any](b, ctx, `__k({op: 'snapshot', mode: 'interactive', asJSON: true})`) // warm: every id assigned
	type pair struct {
		Full   float64 `json:"full"`
		Reread float64 `json:"reread"`
		Hit    bool    `json:"hit"`
	}
	var full, reread []float64
	for b.Loop() {
		p := eval[pair](b, ctx, `(() => {
			document.body.classList.toggle('bench-tick');
			let t = performance.now();
			const a = __k({op: 'snapshot', mode: 'interactive', asJSON: true});
			const full = performance.now() - t;
			t = performance.now();
			const c = __k({op: 'snapshot', mode: 'interactive', asJSON: true});
			const reread = performance.now() - t;
			const pa = JSON.parse(a), pc = JSON.parse(c);
			if (JSON.stringify(pa.elements) !== JSON.stringify(pc.elements)) throw new Error('the re-read differs');
			return {full, reread, hit: pc.stats.reread === true && !pa.stats.reread};
		})()`)
		if !p.Hit {
			b.Fatal("the first read was not a full walk, or the re-read not from the kept walk")
		}
		full = append(full, p.Full)
		reread = append(reread, p.Reread)
	}
	f, r := median(full), median(reread)
	b.ReportMetric(f, "full-ms")
	b.ReportMetric(r, "reread-ms")
	b.ReportMetric(r/f, "reread/full")
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
