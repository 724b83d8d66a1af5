package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// TestNewPageReplyShowsWhatIsNew: a link to a page with the same chrome
// (a header of 41 links) and a form below it. The reply's lines do not
// all fit its budget: the header's lines, which read as the old page's
// did, are left out first and said in one line where they stand, so the
// form is in the reply (DokuWiki's pages cut at their chrome, the Save
// button past it); a read on from the top lists them (docs/snapshot.md,
// "Snapshot format").
func TestNewPageReplyShowsWhatIsNew(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/chrome-a.html")
	snap := snapshot(t, tab)
	got, perr, code := act(t, "click", mustRef(t, snap, "link", "Edit this page"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	c := got.Changes
	for _, want := range [][2]string{{"textbox", "Page text"}, {"textbox", "Summary"}, {"button", "Save"}, {"button", "Preview"}} {
		if !appearedAs(c.Appeared, want[0], want[1]) {
			t.Errorf("no [%s '%s'] in the reply's lines: %+v", want[0], want[1], c.Appeared)
		}
	}
	if slices.ContainsFunc(c.Appeared, func(e protocol.Element) bool { return strings.HasPrefix(e.Name, "Section ") }) {
		t.Errorf("the header's links, as on the page before, fill the reply: %+v", c.Appeared)
	}
	if !c.Navigated || c.Omitted < 41 || c.AsBefore != c.Omitted {
		t.Fatalf("navigated %v, omitted %d, as before %d: want a new page, the 41 header lines left out as before", c.Navigated, c.Omitted, c.AsBefore)
	}
	text := frames.ActionText(frames.Done("click", "@e1"), got)
	if !strings.Contains(text, "added:\n… 41 lines as on the previous page\n") || !strings.Contains(text, "… lines left out above (grip snapshot --tab") ||
		strings.Contains(text, "--after") || len(c.Skipped) != 1 {
		t.Errorf("the reply does not say where the header was left out, and how to read it:\n%s", text)
	}
	// Read on from the top: the header's links are there, with new refs.
	more := snapshot(t, tab)
	if refOf(more, "link", "Section 40 of the handbook") == "" || refOf(more, "button", "Save") == "" {
		t.Errorf("reading on lists the header and the form:\n%s", more.Text)
	}
}
