package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// A diff shown as preformatted text keeps its lines inside the quote, each
// break written \n: its "-gone: @e4" and "+added: @e9" read as lines of the
// page's text, never as grip's own added and gone lines, in a snapshot and
// in an action's reply (docs/snapshot.md, "Snapshot format").
func TestDiffTextKeepsItsLines(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/told.html")
	r := env.Grip(context.Background(), "snapshot", "--mode", "content", "--tab", fmt.Sprint(tab))
	want := `: [paragraph '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n-gone: @e4\n+added: @e9\nunchanged line']` + "\n"
	if r.Code != 0 || !strings.Contains(r.Stdout, want) {
		t.Errorf("content snapshot: exit %d, want a line ending %s\n%s%s", r.Code, want, r.Stdout, r.Stderr)
	}
	show := mustRef(t, snapshot(t, tab, "--mode", "content"), "button", "Show diff")
	r = env.Grip(context.Background(), "click", show)
	if r.Code != 0 || !strings.Contains(r.Stdout, "\nadded:\n") || !strings.Contains(r.Stdout, `: [paragraph '-removed in reply\n+added in reply']`+"\n") {
		t.Errorf("the reply of the click that showed a diff: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// A clickable is listed only where a press can land: a 0×0 element with a
// click handler is not, and a box whose children all float (0 px high,
// its children shown) is, and clicking it works; every clickable the
// snapshot lists can be clicked (the listing and the action's check agree,
// visibility.js areaBox).
func TestListedClickablesCanBeClicked(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/told.html")
	snap := snapshot(t, tab)
	var clickables []string
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			if e.Role == "clickable" {
				clickables = append(clickables, e.Name)
				if res, perr, code := act(t, "click", e.Ref); code != 0 {
					t.Errorf("[clickable '%s'] is listed but cannot be clicked: exit %d %+v %+v", e.Name, code, perr, res)
				}
			}
		}
	}
	if strings.Join(clickables, ",") != "Open Files,Whole row" {
		t.Errorf("clickables listed: %q, want the floats' box and the row only\n%s", clickables, snap.Text)
	}
	if got := strings.Join(pageLog(t, tab), ","); got != "floats,row" {
		t.Errorf("the page saw clicks on %q", got)
	}
}

// A textarea's value is shown from its start with its line breaks as \n,
// on the changed line, and said once: the fill's detail does not repeat it.
func TestMultilineValueShownOnce(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/told.html")
	report := mustRef(t, snapshot(t, tab), "textbox", "Report")
	r := env.Grip(context.Background(), "fill", report, "Fan swapped\nBearings next\nNoise gone")
	want := `: [textbox 'Report' value='Fan swapped\nBearings next\nNoise gone']`
	if r.Code != 0 || !strings.Contains(r.Stdout, want) || strings.Count(r.Stdout, "Fan swapped") != 1 {
		t.Errorf("fill's reply: exit %d, want %s once\n%s%s", r.Code, want, r.Stdout, r.Stderr)
	}
}
