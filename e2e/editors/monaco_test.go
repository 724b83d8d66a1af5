package editors_test

import (
	"testing"
)

const monacoDoc = "editor.getModel().getValue()"

// Monaco takes input in Chrome through an EditContext: the element the
// snapshot lists is a box of no width at the caret, and the lines are drawn
// beside it, hidden from assistive technology. The agent reads the editor's
// text as its value, and type, fill and their trusted forms reach Monaco's
// model.
func TestMonacoEditContext(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/monaco.html", "[textbox 'Query'")
	if !observe[bool](a, `(() => { const e = document.querySelector('.native-edit-context'); return !!(e && e.editContext) && e.getBoundingClientRect().width === 0 })()`) {
		t.Fatal("Monaco does not take input through an EditContext on an element of no width here; this test would not test what it says")
	}
	q := ref(t, snap, "[textbox 'Query'")
	if l := lineOf(snap, q); l != q+": [textbox 'Query' value='let a = 1;']" {
		t.Errorf("the editor's line is %q", l)
	}

	code := "SELECT name\nFROM users\nWHERE id = 1"
	out := a.must("fill", q, code)
	eventually(a, monacoDoc, code)
	if !saysText(out, "SELECT name FROM users WHERE id = 1") {
		t.Errorf("fill's reply does not say the new text:\n%s", out)
	}
	a.must("type", q, "\nLIMIT 10;")
	eventually(a, monacoDoc, code+"\nLIMIT 10;")
	a.must("type", "--trusted", q, " -- ten")
	eventually(a, monacoDoc, code+"\nLIMIT 10; -- ten")
	a.must("fill", "--trusted", q, "SELECT 1;\nSELECT 2;")
	eventually(a, monacoDoc, "SELECT 1;\nSELECT 2;")
	if l := line(a.snapshot(), "[textbox 'Query'"); l != "[textbox 'Query' value='SELECT 1; SELECT 2;']" {
		t.Errorf("after the fills the editor's line is %q", l)
	}
	a.must("press", "Backspace", q)
	eventually(a, monacoDoc, "SELECT 1;\nSELECT 2")
	a.must("fill", q, "")
	eventually(a, monacoDoc, "")
	a.report("Monaco (EditContext): write a query, extend it, replace it")
}

// The same editor with its older input, a hidden textarea (browsers
// without EditContext, or editContext: false).
func TestMonacoTextarea(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/monaco.html?textarea", "[textbox 'Query'")
	if observe[bool](a, `!!document.querySelector('.native-edit-context')`) {
		t.Fatal("Monaco still takes input through an EditContext with editContext: false")
	}
	q := ref(t, snap, "[textbox 'Query'")
	code := "SELECT name\nFROM users"
	a.must("fill", q, code)
	eventually(a, monacoDoc, code)
	a.must("type", q, "\nWHERE id = 1")
	eventually(a, monacoDoc, code+"\nWHERE id = 1")
	a.must("type", "--trusted", q, ";")
	eventually(a, monacoDoc, code+"\nWHERE id = 1;")
}
