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

// A value is shown exactly, its spaces kept (a DokuWiki list item starts
// with two), and a fill or typing whose change lies past what the value's
// start shows is shown around the change, on the changed line, once.
func TestValuePreviewShowsTheValueAndTheChange(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/told.html")
	report := mustRef(t, snapshot(t, tab), "textbox", "Report")
	page := "====== Grip Notes ======\n\nThese notes were written by an agent through grip.\n\n" +
		"  * first item about apples\n  * second item about bananas\n  * third item about cherries\n"
	line := func(args ...string) string {
		t.Helper()
		r := env.Grip(context.Background(), args...)
		if r.Code != 0 {
			t.Fatalf("grip %s: exit %d\n%s%s", strings.Join(args, " "), r.Code, r.Stdout, r.Stderr)
		}
		for _, l := range strings.Split(r.Stdout, "\n") {
			if strings.HasPrefix(l, report+": [textbox 'Report' value='") {
				if strings.Count(r.Stdout, "item about") != strings.Count(l, "item about") {
					t.Errorf("grip %s says the value twice:\n%s", strings.Join(args, " "), r.Stdout)
				}
				return l
			}
		}
		t.Fatalf("grip %s: no changed line of %s:\n%s", strings.Join(args, " "), report, r.Stdout)
		return ""
	}
	if got, want := line("fill", report, page), `written by an agent through grip.\n\n  * first item about …'`; !strings.Contains(got, want) {
		t.Errorf("the fill's line %s\nwant it to hold %s", got, want)
	}
	// A word changed in the middle: the line shows it.
	if got, want := line("fill", report, strings.Replace(page, "bananas", "blueberries", 1)), `  * second item about blueberries\n  * third item about cherries\n'`; !strings.HasSuffix(got, want+"]") || !strings.Contains(got, "'…") {
		t.Errorf("the fill's line %s\nwant it to show the change, ending %s", got, want)
	}
	// Typed at the end: the line shows what was typed, after the text before it.
	if got, want := line("type", report, "  * draft line one"), `cherries\n  * draft line one'`; !strings.HasSuffix(got, want+"]") {
		t.Errorf("the typing's line %s\nwant it to end %s", got, want)
	}

	// A long text: a change at its 150th character shows there, and the
	// line marks where the value it was given ends short of the text's.
	long := strings.Repeat("a line of the report\n", 20)
	lineAt := func(n int) string {
		return strings.Repeat("a line of the report\n", n) + "THE LINE of the report\n" + strings.Repeat("a line of the report\n", 19-n)
	}
	line("fill", report, long)
	if got := line("fill", report, lineAt(7)); !strings.Contains(got, `\nTHE LINE of the report\na line`) || !strings.HasSuffix(got, "…']") {
		t.Errorf("the line of a change at the 150th character: %s", got)
	}
	// Past what a line is given of the value (200 characters): the reply's
	// detail shows the change.
	line("fill", report, long)
	r := env.Grip(context.Background(), "fill", report, lineAt(14))
	if r.Code != 0 || !strings.Contains(r.Stdout, `(value is now '…`) || !strings.Contains(r.Stdout, `\nTHE LINE of the report\na line`) {
		t.Errorf("the fill's reply on a change at the 300th character:\n%s%s", r.Stdout, r.Stderr)
	}
}
