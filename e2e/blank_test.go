package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// TestBackToTheBlankStart: `back` from a session tab's first page leads to
// the blank document grip opened the tab with (extension/tabs.js newTab).
// That page has nothing to read, which is what the agent is told: a
// snapshot of an empty page, a find that matches nothing (not_found with
// a next step), never Chrome's "Cannot access contents of url
// chrome-extension://…" (the walker's invariant 4, docs/benchmarks.md,
// "The walker").
func TestBackToTheBlankStart(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	res, perr, code := act(t, "back", "--tab", fmt.Sprint(tab))
	if code != 0 {
		t.Fatalf("back: exit %d %+v", code, perr)
	}
	if res.Changes.URL != "about:blank" {
		t.Fatalf("back led to %q, want about:blank", res.Changes.URL)
	}
	var snap struct {
		protocol.Snapshot
		Error *protocol.Error `json:"error"`
	}
	code = env.GripJSON(t, &snap, "snapshot", "--tab", fmt.Sprint(tab))
	if code != 0 || snap.Error != nil {
		t.Fatalf("snapshot of about:blank: exit %d %+v", code, snap.Error)
	}
	if snap.Tab.URL != "about:blank" || strings.Contains(snap.Text, "chrome-extension") {
		t.Errorf("snapshot of about:blank: tab %+v, text:\n%s", snap.Tab, snap.Text)
	}
	for _, f := range snap.Frames {
		if len(f.Elements) > 0 {
			t.Errorf("about:blank listed elements: %+v", f.Elements)
		}
	}
	_, perr, code = act(t, "find", "Anything", "--tab", fmt.Sprint(tab))
	if code == 0 || perr == nil {
		t.Fatalf("find on about:blank: exit %d, want not_found", code)
	}
	if perr.Code != protocol.CodeNotFound || perr.Hint == "" || strings.Contains(perr.Message+perr.Hint, "chrome-extension") || strings.Contains(perr.Message, "Cannot access") {
		t.Errorf("find on about:blank refused %+v, want not_found with a next step and no raw browser message", perr)
	}
	// And the tab still goes forward to its page.
	if res, perr, code := act(t, "forward", "--tab", fmt.Sprint(tab)); code != 0 || !strings.HasSuffix(res.Changes.URL, "/home.html") {
		t.Fatalf("forward: exit %d %+v %+v", code, perr, res.Changes)
	}
}

// TestCheckABoxInAButton: Jupyter's `<button role=checkbox>` holds the
// native box that keeps its state and sets no aria-checked; check on the
// button takes, and the button reads as checked (extension/kernel/states.js
// checkedOf). Without it grip refused "the checkbox did not become checked"
// after the page had checked it.
func TestCheckABoxInAButton(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/boxbutton.html")
	all := mustRef(t, snapshot(t, tab), "checkbox", "Select All / None")
	res, perr, code := act(t, "check", all)
	if code != 0 {
		t.Fatalf("check the button: exit %d %+v", code, perr)
	}
	if res.Detail != "checked" {
		t.Errorf("check detail %q, want checked", res.Detail)
	}
	if got := browsertest.Eval[bool](t, env, env.TabURL(t, tab), "document.getElementById('box').checked"); !got {
		t.Errorf("the box is not checked after check")
	}
	snap := snapshot(t, tab)
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			if e.Ref == all && !slices.Contains(e.States, "checked") {
				t.Errorf("the button reads %+v, not checked", e)
			}
		}
	}
	if _, perr, code := act(t, "uncheck", all); code != 0 {
		t.Fatalf("uncheck the button: exit %d %+v", code, perr)
	}
	if got := browsertest.Eval[bool](t, env, env.TabURL(t, tab), "document.getElementById('box').checked"); got {
		t.Errorf("the box is still checked after uncheck")
	}
}
