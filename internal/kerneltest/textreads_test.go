package kerneltest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/kerneltest"
)

// watchReads patches, in the page's main world (where kerneltest runs the
// kernel), the DOM's getters of text and of layout. While window.__inSnap
// is set, a read of text is kept with the record of reads it went to
// (base.js readsNow), and a read of layout outside a fact (base.js fact)
// while a walk records is a hole. window.__holes() checks the kept text
// reads once the read is over (a note may come after the read it covers):
// a text is covered when a node it was noted by is among those a change
// under it reaches (reread.js reachedBy), or when a change there walks
// again anyway (a text under a style, an option, a field, or outside HTML).
const watchReads = `(() => {
  const K = globalThis.__gripKernel__;
  const walksAgain = new Set(['style', 'textarea', 'title', 'option', 'optgroup', 'select', 'datalist', 'script']);
  const HTML = 'http://www.w3.org/1999/xhtml';
  const texts = [], holes = [];
  window.__inSnap = false;
  const where = () => (new Error().stack || '').split('\n').slice(3, 7).map((l) => l.trim()).join(' < ');
  const seen = (x, name, layout) => {
    if (!window.__inSnap) return;
    const {reads, inFact} = K.readsNow();
    if (!reads) return;
    if (!layout) texts.push([x, reads, name, where()]);
    else if (!inFact) holes.push(name + ' of <' + (x.localName || x.nodeName) + '> outside a fact: ' + where());
  };
  const getter = (proto, name, layout) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, {...d, get() { seen(this, name, layout); return d.get.call(this); }});
  };
  const method = (proto, name) => {
    const f = proto[name];
    proto[name] = function (...a) { seen(this, name, true); return f.apply(this, a); };
  };
  getter(Node.prototype, 'textContent', false);
  getter(Node.prototype, 'nodeValue', false);
  getter(CharacterData.prototype, 'data', false);
  getter(Text.prototype, 'wholeText', false);
  getter(HTMLElement.prototype, 'innerText', false);
  getter(HTMLElement.prototype, 'outerText', false);
  for (const n of ['offsetWidth', 'offsetHeight', 'offsetTop', 'offsetLeft', 'offsetParent']) getter(HTMLElement.prototype, n, true);
  for (const n of ['clientWidth', 'clientHeight', 'scrollWidth', 'scrollHeight']) getter(Element.prototype, n, true);
  for (const n of ['getBoundingClientRect', 'getClientRects']) { method(Element.prototype, n); method(Range.prototype, n); }
  method(Document.prototype, 'elementFromPoint');
  method(Document.prototype, 'elementsFromPoint');
  // What a change under n reaches (as reread.js reachedBy), or null when
  // such a change walks again.
  const reached = (n0) => {
    const set = new Set(), stack = [n0];
    while (stack.length) {
      const n = stack.pop();
      if (set.has(n)) continue;
      set.add(n);
      if (n.nodeType === 1 && (n.namespaceURI !== HTML || walksAgain.has(n.localName))) return null;
      const p = n.parentNode;
      if (!p) continue;
      stack.push(p);
      if (p.nodeType === 11) { if (p.host) stack.push(p.host); }
      else if (p.nodeType === 1 && n.assignedSlot) stack.push(n.assignedSlot);
    }
    return set;
  };
  window.__holes = () => {
    for (const [x, reads, name, at] of texts) {
      const up = reached(x);
      if (up && !reads.text.some((n) => up.has(n))) {
        const what = x.nodeType === 3 ? 'a text in <' + (x.parentNode ? x.parentNode.nodeName : '?') + '>' : '<' + x.nodeName + '>';
        holes.push(name + ' of ' + what + ' (' + JSON.stringify(String(Object.getOwnPropertyDescriptor(Node.prototype, 'textContent').get.call(x)).slice(0, 40)) + ') not noted: ' + at);
      }
    }
    texts.length = 0;
    const out = [...new Set(holes)];
    holes.length = 0;
    return out;
  };
})()`

// TestTextReadsAreNotedInAWalk: every text a walk reads is noted where a change
// of text can find it, and every layout it judges by is a fact it can
// check again (docs/settling.md "A change of text alone"), on the random
// pages of TestRereadEqualsFullWalk after their changes, full walks and
// lines listed again alike, in both modes.
func TestTextReadsAreNotedInAWalk(t *testing.T) {
	ctx := newTab(t, "blank.html")
	reads := 0
	for seed := 1; seed <= 6; seed++ {
		if err := chromedp.Do(ctx, chromedp.Navigate(serverURL+"/blank.html")); err != nil {
			t.Fatal(err)
		}
		eval[any](t, ctx, `window.__k = `+kerneltest.Source())
		eval[any](t, ctx, watchReads)
		eval[any](t, ctx, fmt.Sprintf("const SEED = %d;\n", seed)+randomPage)
		kinds := eval[int](t, ctx, `window.__changes`)
		for step := 0; step < 30; step++ {
			kind := eval[int](t, ctx, fmt.Sprintf(`Math.floor(__rnd() * %d)`, kinds))
			if kind != 11 { // 11, the viewport, is done over CDP
				eval[any](t, ctx, fmt.Sprintf(`__change(%d)`, kind))
			}
			mode := []string{"interactive", "content"}[step%2]
			holes := eval[[]string](t, ctx, `(() => {
				__inSnap = true;
				try { __k({op: 'snapshot', mode: '`+mode+`'}); } finally { __inSnap = false; }
				return __holes();
			})()`)
			reads++
			if len(holes) > 0 {
				t.Fatalf("seed %d step %d (change %d, %s): %d reads no change of text would find:\n%s", seed, step, kind, mode, len(holes), strings.Join(holes[:min(len(holes), 12)], "\n"))
			}
		}
	}
	t.Logf("%d reads checked", reads)
}
