package editors_test

import (
	"strings"
	"testing"
	"time"
)

const cm6Doc = "view.state.doc.toString()"

// CodeMirror 6 reads typing from the DOM into its state; fill replaces the
// whole document exactly (no auto-indent, no closed brackets), type goes
// key by key through its keymap and input handlers.
func TestCodeMirror6(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/codemirror6.html", "[textbox 'Script'")
	script := ref(t, snap, "[textbox 'Script'")
	if l := lineOf(snap, script); l != script+": [textbox 'Script' value='const a = 1;']" {
		t.Errorf("the editor's line is %q", l)
	}

	code := "function add(a, b) {\n  return a + b;\n}"
	a.must("fill", script, code)
	eventually(a, cm6Doc, code)
	// Typed key by key: Enter through the editor's keymap, brackets closed
	// by the editor and stepped over when typed.
	a.must("type", script, "\nadd(1, 2);")
	eventually(a, cm6Doc, code+"\nadd(1, 2);")
	a.must("type", "--trusted", script, " // 3")
	eventually(a, cm6Doc, code+"\nadd(1, 2); // 3")
	a.report("CodeMirror 6: write a function, call it, comment the call")
}

// The editor draws only the lines in view of its scroller: typing goes to
// the end of the document all the same, fill replaces all of it, and the
// action point is in the part the scroller shows.
func TestCodeMirror6LongDocument(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/codemirror6.html", "[textbox 'Script'")
	script := ref(t, snap, "[textbox 'Script'")
	setUp(a, `view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: Array.from({length: 400}, (_, i) => "line " + i).join("\n")}})`)
	if drawn := observe[int](a, "document.querySelectorAll('.cm-line').length"); drawn >= 400 {
		t.Fatalf("the editor drew all %d lines; this test needs one that draws the lines in view", drawn)
	}
	a.must("type", script, "\nend")
	eventually(a, "view.state.doc.lines + ' ' + view.state.doc.line(view.state.doc.lines).text", "401 end")
	a.must("fill", script, "short")
	eventually(a, cm6Doc, "short")
}

// The completion list is the editor's own part: when it covers the line
// the agent types on, typing goes on. A real overlay still refuses.
func TestCodeMirror6OwnPartsDoNotOcclude(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/codemirror6.html", "[textbox 'Script'")
	script := ref(t, snap, "[textbox 'Script'")
	// A long line first, so that the list opens under the middle of it.
	indent := "let total = 0, count = 0, first = "
	a.must("fill", script, indent)
	a.must("type", script, "con")
	// The editor opens its completion list a moment after the keys:
	// waited for within 20 s (it was 2 s, which a busy machine's moment
	// can pass).
	for deadline := time.Now().Add(20 * time.Second); line(a.snapshot(), "[listbox 'Completions'") == ""; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no completion list 20 s after typing 'con'")
		}
	}
	// The list covers the point grip acts at, the centre of the editor's
	// content (which fills the editor's fixed height).
	covered := observe[bool](a, `(() => {
		const r = document.querySelector('.cm-content').getBoundingClientRect();
		const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
		return !!(hit && hit.closest('.cm-tooltip-autocomplete'));
	})()`)
	if !covered {
		t.Fatalf("the completion list does not cover the editor's centre (this test would not test what it says): %s", observe[string](a,
			`JSON.stringify([document.querySelector('.cm-content').getBoundingClientRect(), document.querySelector('.cm-tooltip-autocomplete').getBoundingClientRect()])`))
	}
	a.must("type", script, "st")
	eventually(a, cm6Doc, indent+"const")

	setUp(a, coverPage)
	r := a.run("type", script, "x")
	if r.Code != 1 || !strings.Contains(r.Stderr, "occluded by [dialog 'Cookies']") {
		t.Fatalf("typing under a cookie banner: exit %d %s%s", r.Code, r.Stdout, r.Stderr)
	}
	eventually(a, cm6Doc, indent+"const")
}

// coverPage puts a cookie banner over the whole page.
const coverPage = `const d = document.createElement('div'); d.setAttribute('role', 'dialog'); d.setAttribute('aria-label', 'Cookies'); d.textContent = 'We use cookies'; Object.assign(d.style, {position: 'fixed', inset: '0', background: 'white', zIndex: 1000}); document.body.append(d)`
