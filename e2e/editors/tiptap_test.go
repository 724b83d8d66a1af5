package editors_test

import (
	"testing"
)

// Tiptap is ProseMirror: it reads the DOM changes typing makes into its
// document (editor.getText()). It has no label; its placeholder names it,
// and keeps naming it once text hides the placeholder, so the ref keeps
// its meaning.
func TestTiptap(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/tiptap.html", "[textbox 'Write a comment…'")
	box := ref(t, snap, "[textbox 'Write a comment…'")

	a.must("type", box, "Looks good to me.\nShip it")
	const text = `editor.getText({blockSeparator: "\n"})`
	eventually(a, text, "Looks good to me.\nShip it")
	if got := observe[int](a, "editor.getJSON().content.length"); got != 2 {
		t.Errorf("the document has %d blocks, want 2 paragraphs", got)
	}
	snap = a.snapshot()
	if l := lineOf(snap, box); l != box+": [textbox 'Write a comment…' value='Looks good to me. Ship it']" {
		t.Errorf("after typing, the line is %q", l)
	}
	// The same ref still acts: its name did not change under it.
	a.must("fill", box, "Needs one more test.")
	eventually(a, text, "Needs one more test.")
	a.must("fill", "--trusted", box, "Approved.")
	eventually(a, text, "Approved.")
	a.report("Tiptap: comment in two paragraphs, replace it, replace it with real keys")
}
