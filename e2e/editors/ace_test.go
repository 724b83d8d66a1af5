package editors_test

import (
	"strings"
	"testing"
)

// Ace takes input through a transparent textarea over its lines, whose
// aria-label says where the cursor is ("Cursor at row 1"). The editor's
// value is the text it shows, not that label; fill's reply and the line it
// shows say the new text.
func TestAce(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/ace-query.html", "[textbox")
	q := ref(t, snap, "[textbox")
	if l := lineOf(snap, q); !strings.HasSuffix(l, " value='SELECT 1;']") {
		t.Errorf("the editor's line is %q, want its value to be its text", l)
	}
	// Ace draws the new text on its next frame: the reply waits for it.
	out := a.must("fill", q, "SELECT name\nFROM users;")
	eventually(a, "editor.getValue()", "SELECT name\nFROM users;")
	if !saysText(out, "SELECT name FROM users;") {
		t.Errorf("fill's reply does not say the new text:\n%s", out)
	}
	out = a.must("type", q, "\nLIMIT 5;")
	eventually(a, "editor.getValue()", "SELECT name\nFROM users;\nLIMIT 5;")
	if !saysText(out, "SELECT name FROM users; LIMIT 5;") {
		t.Errorf("type's reply does not say the new text:\n%s", out)
	}
	a.must("type", "--trusted", q, " -- first five")
	eventually(a, "editor.getValue()", "SELECT name\nFROM users;\nLIMIT 5; -- first five")
	snap = a.snapshot()
	if l := lineOf(snap, q); !strings.HasSuffix(l, " value='SELECT name FROM users; LIMIT 5; -- first five']") {
		t.Errorf("after typing, the line is %q", l)
	}
	a.report("Ace: write a query, add a clause, comment it with real keys")
}

// Ace rewrites its textarea's aria-label as the caret moves ("Cursor at
// row 1", then "Cursor at row 3"): a live announcement, not the control's
// name. The name stays what it was, so the agent's next action on the same
// ref is not refused meaning_changed; a label the page gives Ace
// (textInputAriaLabel) is the name.
func TestAceNameStaysWhenTheCaretMoves(t *testing.T) {
	for _, c := range []struct{ page, want string }{
		{"/ace-query.html", "[textbox value="},
		{"/ace-query.html?label", "[textbox 'Query' value="},
	} {
		t.Run(c.page, func(t *testing.T) {
			a := newAgent(t)
			snap := a.open(c.page, "[textbox")
			q := ref(t, snap, "[textbox")
			if l := lineOf(snap, q); !strings.HasPrefix(l, q+": "+c.want) || strings.Contains(l, "Cursor") {
				t.Errorf("the editor's line is %q, want it to start %q (no caret position in its name)", l, c.want)
			}
			// The caret moves after the agent read the page (the page, or
			// the person, puts it on the third line); Ace says so in the
			// label, so the test proves something.
			setUp(a, "editor.setValue('SELECT 1\\nFROM t\\nWHERE x;', 1)")
			eventually(a, "editor.textInput.getElement().getAttribute('aria-label').endsWith('Cursor at row 3')", true)
			a.must("fill", q, "SELECT name\nFROM users;")
			eventually(a, "editor.getValue()", "SELECT name\nFROM users;")
			a.must("type", q, "\nLIMIT 5;")
			eventually(a, "editor.getValue()", "SELECT name\nFROM users;\nLIMIT 5;")
			if l := lineOf(a.snapshot(), q); !strings.HasPrefix(l, q+": "+c.want) {
				t.Errorf("after the caret moved the line is %q, want it to start %q", l, c.want)
			}
		})
	}
}
