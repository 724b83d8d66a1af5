package editors_test

import (
	"strings"
	"testing"
)

// TinyMCE's classic editor edits the <body> of its own iframe: the
// snapshot lists that body, in the iframe's frame, as a textbox, and typing
// there reaches TinyMCE's content and its undo history.
func TestTinyMCE(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/tinymce.html", "[textbox 'Rich Text Area'")
	body := ref(t, snap, "[textbox 'Rich Text Area'")
	if l := lineOf(snap, body); !strings.HasSuffix(l, "value='Dear team,']") {
		t.Errorf("the editor's line is %q", l)
	}
	if !strings.Contains(snap, "=== Frame: ") || strings.Index(snap, body) < strings.LastIndex(snap, "=== Frame: ") {
		t.Errorf("the editable body is not listed in its iframe's frame:\n%s", snap)
	}

	// The task: write the message.
	a.must("type", body, "\nThe release is out.")
	eventually(a, "editor.getContent()", "<p>Dear team,</p>\n<p>The release is out.</p>")
	if !observe[bool](a, "editor.undoManager.hasUndo() && editor.isDirty()") {
		t.Error("TinyMCE's undo history does not hold the typing")
	}
	// Real keys go into the iframe too.
	a.must("type", "--trusted", body, " Cheers")
	eventually(a, "editor.getContent()", "<p>Dear team,</p>\n<p>The release is out. Cheers</p>")
	a.must("fill", body, "Hello")
	eventually(a, "editor.getContent()", "<p>Hello</p>")
	a.report("TinyMCE: write a message in its iframe, sign it with real keys, replace it")
}
