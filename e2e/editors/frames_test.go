package editors_test

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// An editable <body> in an iframe, as classic editors have it, is a
// textbox named by the iframe's title, or, across origins, by its
// document's title; a document in design mode counts too.
func TestEditableFrames(t *testing.T) {
	a := newAgent(t)
	snap := a.open("/frames.html?notes="+env.Origin2, "[textbox 'Meeting notes'")
	reply := ref(t, snap, "[textbox 'Reply to Ada'")
	notes := ref(t, snap, "[textbox 'Meeting notes'")
	if l := lineOf(snap, reply); !strings.HasSuffix(l, "value='Hi Ada,']") {
		t.Errorf("the reply's line is %q", l)
	}
	if l := lineOf(snap, notes); !strings.HasSuffix(l, "value='Agenda']") {
		t.Errorf("the notes' line is %q", l)
	}

	a.must("type", reply, "\nSee you at 10.")
	eventually(a, "JSON.stringify(Array.from(document.getElementById('reply').contentDocument.querySelectorAll('p'), (p) => p.textContent))",
		`["Hi Ada,","See you at 10."]`)
	a.must("fill", "--trusted", notes, "Agenda\n1. Release")
	got := browsertest.Eval[string](t, env, env.Origin2+"/notes.html", "document.body.innerText.trim().split(/\\n+/).join('|')")
	if got != "Agenda|1. Release" {
		t.Errorf("notes = %q", got)
	}
}
