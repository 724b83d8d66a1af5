package editors_test

import (
	"strings"
	"testing"
)

// CKEditor 5 keeps its own model and renders the DOM from it: typing
// counts only when it reaches the model (editor.getData()), which the old
// DOM-only typing never did.
func TestCKEditor5(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/ckeditor5.html", "[textbox 'Rich Text Editor")
	body := ref(t, snap, "[textbox 'Rich Text Editor")
	if l := lineOf(snap, body); !strings.Contains(l, "value='Draft:'") {
		t.Errorf("the editor's line does not show its text: %s", l)
	}

	// The task: write a two-paragraph post, then add to it.
	a.must("fill", body, "Release notes\nEvery editor takes typed text.")
	eventually(a, "editor.getData()", "<p>Release notes</p><p>Every editor takes typed text.</p>")
	out := a.must("type", body, " Thanks!")
	if !saysText(out, "Release notes Every editor takes typed text. Thanks!") {
		t.Errorf("type reply:\n%s", out)
	}
	eventually(a, "editor.getData()", "<p>Release notes</p><p>Every editor takes typed text. Thanks!</p>")
	// The editor's own undo sees the typing as its own change.
	if !observe[bool](a, "editor.commands.get('undo').isEnabled") {
		t.Error("the editor's undo is not enabled after typing")
	}

	// Real keys through the debugger land in the model too.
	a.must("type", "--trusted", body, "\nBye.")
	eventually(a, "editor.getData()", "<p>Release notes</p><p>Every editor takes typed text. Thanks!</p><p>Bye.</p>")

	snap = a.snapshot()
	if l := lineOf(snap, body); !strings.Contains(l, "value='Release notes Every editor takes typed text. Thanks! Bye.'") {
		t.Errorf("after typing, the line is %s", l)
	}
	a.must("fill", body, "")
	eventually(a, "editor.getData()", "")
	a.report("CKEditor 5: write a post in two paragraphs, add to it, clear it")
}
