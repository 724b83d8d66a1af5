package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// A ref is an identity: it stays valid while its element is on the page,
// whatever mode, budget or --after the last listing used, and stale_ref
// means exactly that the element left the page (docs/identity.md,
// "Identity"). The listings are taken in an order that passes through every
// ordered pair of (mode, budget, --after); after each one every ref listed
// so far is acted on.
func TestLiveRefNeverStale(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/live.html")
	first := snapshot(t, tab, "--mode", "content")
	edit := mustRef(t, first, "button", "Edit")
	note := mustRef(t, first, "paragraph", "Reported by the night shift.")

	// The reported case: a content ref after an interactive snapshot.
	snapshot(t, tab)
	probeLive(t, tab, "content then interactive", note)

	type listing struct {
		mode   string
		budget bool
		after  bool
	}
	var kinds []listing
	for _, m := range []string{"interactive", "content"} {
		for _, b := range []bool{false, true} {
			for _, a := range []bool{false, true} {
				kinds = append(kinds, listing{m, b, a})
			}
		}
	}
	// An Eulerian circuit of the complete directed graph with loops:
	// every ordered pair of listings follows one another once.
	n := len(kinds)
	used := make([][]bool, n)
	for i := range used {
		used[i] = make([]bool, n)
	}
	var order []int
	var visit func(u int)
	visit = func(u int) {
		for v := 0; v < n; v++ {
			if !used[u][v] {
				used[u][v] = true
				visit(v)
			}
		}
		order = append(order, u)
	}
	visit(0)

	// The edit form shows: its fields get refs too.
	if _, perr, code := act(t, "click", edit); code != 0 {
		t.Fatalf("click Edit: exit %d %+v", code, perr)
	}
	listed := map[string]string{}
	for step, idx := range order {
		k := kinds[idx]
		args := []string{"--mode", k.mode}
		if k.budget {
			args = append(args, "--budget", "40")
		}
		if k.after {
			args = append(args, "--after", edit)
		}
		snap := snapshot(t, tab, args...)
		for _, f := range snap.Frames {
			for _, e := range f.Elements {
				listed[e.Ref] = e.Role + " " + e.Name
			}
		}
		what := fmt.Sprintf("step %d (%v)", step, args)
		for ref := range listed {
			probeLive(t, tab, what, ref)
		}
	}
	if len(listed) < 8 {
		t.Fatalf("only %d refs were listed: %v", len(listed), listed)
	}

	// Hidden is not gone: the form's fields stay valid while hidden.
	subject := ""
	for ref, line := range listed {
		if line == "textbox Subject" {
			subject = ref
		}
	}
	if subject == "" {
		t.Fatalf("the edit form's field was never listed: %v", listed)
	}
	cancel := ""
	for ref, line := range listed {
		if line == "button Cancel" {
			cancel = ref
		}
	}
	if _, perr, code := act(t, "click", cancel); code != 0 {
		t.Fatalf("click Cancel: exit %d %+v", code, perr)
	}
	snapshot(t, tab)
	probeLive(t, tab, "the form hidden", subject)

	// Gone is stale, and nothing else is.
	remove := ""
	for ref, line := range listed {
		if line == "button Remove note" {
			remove = ref
		}
	}
	if _, perr, code := act(t, "click", remove); code != 0 {
		t.Fatalf("click Remove note: exit %d %+v", code, perr)
	}
	snapshot(t, tab)
	if code := readCode(t, tab, note); code != protocol.CodeStaleRef {
		t.Errorf("the removed note's ref %s answers %q, want stale_ref", note, code)
	}
	for ref := range listed {
		if ref != note {
			probeLive(t, tab, "after the note was removed", ref)
		}
	}
}

// probeLive fails t when ref, whose element is still on the page, is
// refused as stale or unknown.
func probeLive(t *testing.T, tab int, when, ref string) {
	t.Helper()
	if code := readCode(t, tab, ref); code == protocol.CodeStaleRef || code == protocol.CodeUnknownRef {
		t.Errorf("%s: %s answered %s while its element is on the page", when, ref, code)
	}
}

// readCode reads ref's element and returns the refusal's code, "" when
// it was read.
func readCode(t *testing.T, tab int, ref string) protocol.Code {
	t.Helper()
	r := env.Grip(context.Background(), "read", ref, "--tab", fmt.Sprint(tab), "--json")
	if r.Code == 0 {
		return ""
	}
	var out struct {
		Error *protocol.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil || out.Error == nil {
		t.Fatalf("grip read %s: exit %d, no error in %q %q", ref, r.Code, r.Stdout, r.Stderr)
	}
	return out.Error.Code
}

// A ref whose tab was closed says that, not that its element left.
func TestClosedTabRefSaysSo(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/live.html")
	edit := mustRef(t, snapshot(t, tab), "button", "Edit")
	if r := env.Grip(context.Background(), "tabs", "close", fmt.Sprint(tab)); r.Code != 0 {
		t.Fatalf("tabs close: %s", r.Stderr)
	}
	r := env.Grip(context.Background(), "click", edit, "--json")
	var out struct {
		Error *protocol.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil || out.Error == nil {
		t.Fatalf("click in a closed tab: exit %d %q", r.Code, r.Stdout)
	}
	if out.Error.Code != protocol.CodeStaleRef || !strings.Contains(out.Error.Message, "its tab was closed") {
		t.Errorf("click in a closed tab: %+v", out.Error)
	}
}

// The tabs list marks the tab a command without --tab goes to: after
// grip tabs new, the new one, whichever the browser shows in front.
func TestTabsMarkTheDefaultTab(t *testing.T) {
	browsertest.Need(t, env)
	env.OpenTab(t, env.Origin1+"/live.html")
	second := env.OpenTab(t, env.Origin1+"/said.html")
	var list protocol.TabsResult
	if code := env.GripJSON(t, &list, "tabs"); code != 0 {
		t.Fatalf("grip tabs: exit %d", code)
	}
	var defaults []int
	for _, tab := range list.Tabs {
		if tab.Default {
			defaults = append(defaults, tab.ID)
		}
	}
	if len(defaults) != 1 || defaults[0] != second {
		t.Errorf("default tabs %v, want only %d (the one opened last)", defaults, second)
	}
	snap := snapshot(t, 0)
	if snap.Tab.ID != second {
		t.Errorf("a snapshot without --tab read tab %d, the list marks %v", snap.Tab.ID, defaults)
	}
	r := env.Grip(context.Background(), "tabs")
	if !strings.Contains(r.Stdout, fmt.Sprintf("* %d\t", second)) {
		t.Errorf("grip tabs does not mark tab %d:\n%s", second, r.Stdout)
	}
}

// The same mistake reads the same: a CSS target and a line that match
// nothing are both not_found, and a bare word says how to write a line,
// with the elements that say it.
func TestNothingMatchesReadsTheSame(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/live.html")
	snapshot(t, tab)
	refuse := func(target string) *protocol.Error {
		t.Helper()
		_, perr, code := act(t, "click", target, "--tab", fmt.Sprint(tab))
		if code == 0 || perr == nil {
			t.Fatalf("click %s: exit %d, no refusal", target, code)
		}
		return perr
	}
	css := refuse("#nothing-here")
	line := refuse("button 'Nothing here'")
	if css.Code != protocol.CodeNotFound || line.Code != protocol.CodeNotFound {
		t.Errorf("CSS: %+v; line: %+v; want both not_found", css, line)
	}
	word := refuse("Edit")
	if word.Code != protocol.CodeNotFound || !strings.Contains(word.Message, `"button 'Edit'"`) || !strings.Contains(word.Hint, `"button 'Edit'"`) {
		t.Errorf("a bare word: %+v", word)
	}
}

// Names as a person reads them: a link beside a label's words is not part
// of the field's name, one inside its sentence is; a text field alone in a fieldset is named by its legend;
// an empty cell of a grid by its row and column headers.
func TestNamesFromWhatSurroundsThem(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/names.html")
	snap := snapshot(t, tab)
	mustRef(t, snap, "textbox", "Password")
	// Two labels, the second with a link inside its sentence (Trac's).
	mustRef(t, snap, "textbox", "Description: You may use WikiFormatting here.")
	notes := mustRef(t, snap, "textbox", "Notes")
	cell := ""
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			if e.Name == "Food / Budgeted" {
				cell = e.Ref
			}
			if e.Ref == notes && !strings.Contains(strings.Join(e.States, " "), "inferred") {
				t.Errorf("the legend's name is grip's inference: %+v", e)
			}
		}
	}
	if cell == "" {
		t.Errorf("the empty budget cell is not named by its headers:\n%s", snap.Text)
	}
	// A plain table's empty cell is not named by its header as if it said it.
	content := snapshot(t, tab, "--mode", "content")
	if strings.Contains(content.Text, "[cell 'Milestone:'") || !strings.Contains(content.Text, "2.0") {
		t.Errorf("Trac's empty Milestone cell reads as its header, or the Version cell is lost:\n%s", content.Text)
	}
	// Rows whose only text is their header's link tell their repeats apart by it.
	if !strings.Contains(snap.Text, "[link 'Add' in 'Groups'") || !strings.Contains(snap.Text, "[link 'Add' in 'Users'") {
		t.Errorf("the Add links of two rows are not told apart by their rows:\n%s", snap.Text)
	}
}

// A fill's reply shows the value's start, on one line, once.
func TestFillReplyShowsTheStartOnce(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/names.html")
	notes := mustRef(t, snapshot(t, tab), "textbox", "Notes")
	text := "Tracking: swapped the modulator fan\nthen the bearings, and the noise is gone for now, says the night shift"
	r := env.Grip(context.Background(), "fill", notes, text)
	if r.Code != 0 {
		t.Fatalf("fill: %s", r.Stderr)
	}
	if strings.Count(r.Stdout, "Tracking: swapped") != 1 || strings.Contains(r.Stdout, "fan\nthen") || strings.Contains(r.Stdout, "'…") {
		t.Errorf("fill's reply:\n%s", r.Stdout)
	}
}
