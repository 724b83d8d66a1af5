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
