package editors_test

import (
	"strings"
	"testing"
)

// CodeMirror 5 takes input through a textarea it hides behind the lines it
// draws. The snapshot shows that textarea with the editor's text; acting
// on it clicks where the text ends and types into the textarea, and the
// editor's lines (a zero-width-space line when empty) never occlude it.
func TestCodeMirror5(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/codemirror5.html", "[textbox")
	cell := ref(t, snap, "[textbox")

	code := "def double(x):\n    return x * 2"
	out := a.must("fill", cell, code)
	if !saysText(out, "def double(x): return x * 2") {
		t.Errorf("fill reply:\n%s", out)
	}
	eventually(a, "cm.getValue()", code)
	// Key by key: Enter goes through the editor's keymap (which would
	// indent after a colon), brackets as typed.
	a.must("fill", cell, "x = 21")
	a.must("type", cell, "\nprint(double(x))")
	eventually(a, "cm.getValue()", "x = 21\nprint(double(x))")
	snap = a.snapshot()
	if l := lineOf(snap, cell); l != cell+": [textbox value='x = 21 print(double(x))']" {
		t.Errorf("the editor's line is %q", l)
	}
	a.must("type", "--trusted", cell, "  # 42")
	eventually(a, "cm.getValue()", "x = 21\nprint(double(x))  # 42")
	a.report("CodeMirror 5: write a function, call it, comment the call")

	// A real overlay still covers it.
	setUp(a, coverPage)
	r := a.run("type", cell, "x")
	if r.Code != 1 || !strings.Contains(r.Stderr, "occluded by [dialog 'Cookies']") {
		t.Fatalf("typing under a cookie banner: exit %d %s%s", r.Code, r.Stdout, r.Stderr)
	}
	eventually(a, "cm.getValue()", "x = 21\nprint(double(x))  # 42")
}

// CodeMirror 5 made from a textarea hides that textarea, which keeps the
// name (phpMyAdmin's SQL box): the editor's own textarea is named by it.
func TestCodeMirror5FromTextArea(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/codemirror5-query.html", "[textbox")
	q := ref(t, snap, "[textbox")
	if l := lineOf(snap, q); !strings.Contains(l, "[textbox 'SQL query'") {
		t.Errorf("the query box's line is %q, want it named by its textarea", l)
	}
}
